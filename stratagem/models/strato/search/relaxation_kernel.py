"""Search over a table-only relaxation of Strato (see :mod:`relaxation` for what it means), compiled by
Cython in its pure-Python mode (``setup.py``; uncompiled, the same code runs as plain Python).

A relaxed state is one *goal row*, its two half-rows written as sequences of card *classes* (the goal's
weathers, and one class for every other weather), and, when a Storm can swap cards between rows, the
class at the outer end of every half-row of the other rows (an empty half-row counts as the class
``other`` where there is one, else as ``EMPTY`` = ``k``).
States are packed into one integer:

    code = (left * H + right) * ENDS + ends

where a half-row of length ``n`` with classes ``c_0 .. c_{n-1}`` (outward from its tornado) is
``offset[n] + sum c_i * k**i``, ``H`` is the number of half-rows of length 0 to the card limit, and
``ends`` packs the tracked ends in base ``end_base`` (``k``, or ``k + 1`` with ``EMPTY``). Every code in
``range(H * H * ENDS)`` is a state.

Everything an action does to one half-row is tabulated once per (classes, limit) by :func:`half_tables`
(which half-rows a Wind, a Sun, a Fog can leave, where Rain takes a card from and puts it, ...), so that
generating a successor is a few table look-ups. A *play* is a pair (class of the card placed, action it
resolves as). :func:`_successors` generates, for a state, every relaxed successor: each play at each end
of the goal row (the card goes on the end, then its action acts with any target but that card), and
each play at an end of another row, which changes the goal row only through a Storm or a Fog, and the
tracked ends. Every play also has the outcome "no change" beside the card placed.

A :class:`Relaxed` holds one relaxation's parameters, its tables as typed arrays, its goal tests and
its scratch space, so that the searches (:func:`forward`, :func:`reaches`, :func:`within`) take one
object. The breadth-first search runs layer by layer over one ``int8`` distance array, on one thread:
each state's distance is the least depth it is generated at, whatever the order, so the result is
deterministic. It expands a layer in slices without the GIL; between slices it reads the caller's
deadline and lets Python's signal handlers run, so a long search stops within milliseconds of its
deadline, a Ctrl-C or a SIGTERM.

Compiled, the index arithmetic is unchecked (``boundscheck``/``wraparound`` off, and no check that an
array is set: :class:`Relaxed` sets every one in ``__init__``) where the indexes are argued: every code
is in ``range(n_codes)``, every half-row a table yields for a state's half-row is a valid index (``-1``
entries are never followed: see :func:`_put`), and every division has non-negative operands (so C
division is Python's).

Why one module of over 600 lines: it is one concept, the relaxation's compiled search; its tables,
successor generation and searches share C-level functions that Cython inlines only within a module.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import cython
import numpy as np

if cython.compiled:
    from cython.cimports.cpython.exc import PyErr_CheckSignals
else:  # plain Python runs its signal handlers between bytecodes by itself

    def PyErr_CheckSignals() -> int:
        return 0


#: Action codes: what a played card resolves as.
NONE, WIND, RAIN, SUN, FOG, STORM = 0, 1, 2, 3, 4, 5

#: Room for the successors of one state (a few hundred at most on the shipped challenges); the
#: searches raise rather than drop one.
MAX_SUCCESSORS = 1 << 13

#: ``dist`` value of a state not reached.
UNREACHED = -1

#: ``memo`` values of :func:`reaches`.
UNKNOWN, REACHES, DEAD = 0, 1, 2

#: Frontier states expanded between two readings of the deadline and of pending signals.
CHECK_EVERY = 1 << 12

# the same constants as C values, for the compiled loops
_WIND = cython.declare(cython.longlong, WIND)
_RAIN = cython.declare(cython.longlong, RAIN)
_SUN = cython.declare(cython.longlong, SUN)
_FOG = cython.declare(cython.longlong, FOG)
_STORM = cython.declare(cython.longlong, STORM)
_UNREACHED = cython.declare(cython.schar, UNREACHED)
_UNKNOWN = cython.declare(cython.schar, UNKNOWN)
_REACHES = cython.declare(cython.schar, REACHES)
_DEAD = cython.declare(cython.schar, DEAD)
_SLICE = cython.declare(cython.Py_ssize_t, CHECK_EVERY)


# -- tables over half-rows (built in Python once per classes/limit) -----------------------------------
def decode_half(idx: int, k: int, offsets: list[int]) -> tuple[int, ...]:
    """The classes of half-row code ``idx``, outward from the tornado."""
    n = 0
    while offsets[n + 1] <= idx:
        n += 1
    value = idx - offsets[n]
    cards = []
    for _ in range(n):
        cards.append(value % k)
        value //= k
    return tuple(cards)


def encode_half(cards: Sequence[int], k: int, offsets: list[int]) -> int:
    """Inverse of :func:`decode_half`."""
    value = 0
    for c in reversed(cards):
        value = value * k + c
    return offsets[len(cards)] + value


def half_offsets(k: int, longest: int) -> list[int]:
    """``offsets[n]``: the code of the first half-row of length ``n`` (``n`` up to ``longest + 1``)."""
    offsets = [0]
    for n in range(longest + 1):
        offsets.append(offsets[-1] + k ** n)
    return offsets


def _csr(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    ptr = np.zeros(len(lists) + 1, np.int64)
    for i, items in enumerate(lists):
        ptr[i + 1] = ptr[i] + len(items)
    data = np.array([x for items in lists for x in items], dtype=np.int64)
    return ptr, data


class TablesStopped(Exception):
    """:func:`half_tables` was told to stop before it was done."""


#: :func:`half_tables` asks its ``stop`` test once per this many half-rows (some 5 ms of building).
_STOP_EVERY = 64


def half_tables(k: int, limit: int, stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Every half-row (length 0 to ``limit + 1``) and what each action can make of it.

    Lists hold distinct results other than the half-row itself. "Near" lists are for the half-row the
    card was just placed on: its last card (the placed one) is never a target.

    ``stop`` (a deadline's test) is asked every :data:`_STOP_EVERY` half-rows; when it says so the build
    raises :class:`TablesStopped`. The build is plain Python over every half-row (0.34 s for 3 classes up
    to 6 cards, 0.5-1.6 s on a loaded machine), and before it looked at no deadline a sub-second limit
    ran over by that much.
    """
    offsets = half_offsets(k, limit + 2)
    size = offsets[limit + 2]  # half-rows of length 0 .. limit + 1
    halves = [decode_half(i, k, offsets) for i in range(size)]

    def enc(cards: tuple[int, ...]) -> int:
        return encode_half(cards, k, offsets) if len(cards) <= limit + 1 else -1

    length = np.array([len(c) for c in halves], np.int64)
    counts = np.array([[c.count(x) for x in range(k)] for c in halves], np.int64).reshape(size, k)
    end = np.array([c[-1] if c else -1 for c in halves], np.int64)
    pop = np.array([enc(c[:-1]) if c else -1 for c in halves], np.int64)
    append = np.full((size, k), -1, np.int64)
    front = np.full((size, k), -1, np.int64)
    set_end = np.full((size, k), -1, np.int64)
    lists: dict[str, list[list[int]]] = {name: [] for name in
                                         ("wind_in", "wind_out", "remove_near", "remove_any", "replace_near",
                                          "replace_any")}
    cross_h: list[list[int]] = []
    cross_c: list[list[int]] = []
    for i, cards in enumerate(halves):
        if stop is not None and i % _STOP_EVERY == 0 and stop():
            raise TablesStopped(f"stopped after {i} of {size} half-rows")
        n = len(cards)
        for c in range(k):
            append[i, c] = enc(cards + (c,))
            front[i, c] = enc((c,) + cards)
            if n:
                set_end[i, c] = enc(cards[:-1] + (c,))
        found: dict[str, set[int]] = {name: set() for name in lists}  # noqa: C420
        for p in range(n):
            near_target = p != n - 1
            rest = cards[:p] + cards[p + 1:]
            if near_target:
                for q in range(p):
                    found["wind_in"].add(enc(cards[:q] + (cards[p],) + cards[q:p] + cards[p + 1:]))
                found["remove_near"].add(enc(rest))
            for q in range(p + 1, n):
                found["wind_out"].add(enc(cards[:p] + cards[p + 1:q + 1] + (cards[p],) + cards[q + 1:]))
            found["remove_any"].add(enc(rest))
            for c in range(k):
                changed = enc(cards[:p] + (c,) + cards[p + 1:])
                found["replace_any"].add(changed)
                if near_target:
                    found["replace_near"].add(changed)
        for name, results in found.items():
            lists[name].append(sorted(x for x in results if x != i))
        pairs = sorted({(enc(cards[:p] + cards[p + 1:]), cards[p]) for p in range(n - 1)})
        cross_h.append([h for h, _ in pairs])
        cross_c.append([c for _, c in pairs])
    insert_lists = []
    for i, cards in enumerate(halves):
        if stop is not None and i % (_STOP_EVERY * 4) == 0 and stop():
            raise TablesStopped(f"stopped after every half-row's moves, at {i} of {size} insertions")
        for c in range(k):
            insert_lists.append(sorted({enc(cards[:q] + (c,) + cards[q:]) for q in range(len(cards) + 1)}))
    tables: dict[str, Any] = {"offsets": np.array(offsets, np.int64), "length": length, "end": end, "pop": pop,
                              "append": append, "front": front, "set_end": set_end, "counts": counts}
    for name, items in lists.items():
        tables[name + "_ptr"], tables[name] = _csr(items)
    tables["cross_ptr"], tables["cross_h"] = _csr(cross_h)
    tables["cross_c"] = _csr(cross_c)[1]
    tables["insert_ptr"], tables["insert"] = _csr(insert_lists)
    return tables


#: The order in which :func:`forward` and :class:`Relaxed` take the tables.
TABLE_ORDER = ("length", "end", "pop", "append", "front", "set_end", "wind_in_ptr", "wind_in", "wind_out_ptr",
               "wind_out", "remove_near_ptr", "remove_near", "remove_any_ptr", "remove_any", "replace_near_ptr",
               "replace_near", "replace_any_ptr", "replace_any", "cross_ptr", "cross_h", "cross_c", "insert_ptr",
               "insert")


def _int64(array: Any) -> np.ndarray:
    return np.ascontiguousarray(array, dtype=np.int64)


def _bytes(array: Any) -> np.ndarray:
    """A boolean (or byte) array as contiguous bytes, without a copy where it already is one."""
    return np.ascontiguousarray(array).view(np.uint8)


# -- the relaxation, ready to search ------------------------------------------------------------------
@cython.cclass
class Goal:
    """The goal tests of one relaxation and its admissible estimate (see :func:`estimate`)."""

    ne: cython.longlong
    h: cython.longlong
    length: cython.longlong[::1]
    counts: cython.longlong[:, ::1]
    need: cython.longlong[::1]
    goal_left_len: cython.longlong
    goal_right_len: cython.longlong
    per_turn: cython.longlong
    goal_left: cython.uchar[::1]
    goal_right: cython.uchar[::1]
    arguments: tuple  # type: ignore[type-arg]

    def __init__(self, ne: cython.longlong, h: cython.longlong, length: Any, counts: Any, need: Any,
                 goal_left_len: cython.longlong, goal_right_len: cython.longlong, per_turn: cython.longlong,
                 goal_left: Any, goal_right: Any) -> None:
        self.arguments = (ne, h, length, counts, need, goal_left_len, goal_right_len, per_turn, goal_left, goal_right)
        self.ne = ne
        self.h = h
        self.length = _int64(length)
        self.counts = _int64(counts).reshape(self.length.shape[0], -1)
        self.need = _int64(need)
        self.goal_left_len = goal_left_len
        self.goal_right_len = goal_right_len
        self.per_turn = max(per_turn, 1)
        self.goal_left = _bytes(goal_left)
        self.goal_right = _bytes(goal_right)

    def __reduce__(self) -> tuple[Any, ...]:
        return Goal, self.arguments


@cython.cfunc
@cython.inline
@cython.nogil
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.cdivision(True)
@cython.initializedcheck(False)
def _is_goal(g: Goal, code: cython.longlong) -> cython.bint:
    row: cython.longlong = code // g.ne
    return g.goal_left[row // g.h] != 0 and g.goal_right[row % g.h] != 0


@cython.cfunc
@cython.nogil
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.cdivision(True)
@cython.initializedcheck(False)
def _estimate(g: Goal, code: cython.longlong) -> cython.longlong:
    row: cython.longlong = code // g.ne
    left: cython.longlong = row // g.h
    right: cython.longlong = row % g.h
    c: cython.Py_ssize_t
    if g.goal_left[left] and g.goal_right[right]:
        return 0
    short: cython.longlong = max(0, g.goal_left_len - g.length[left]) + max(0, g.goal_right_len - g.length[right])
    deficit: cython.longlong = 0
    for c in range(g.need.shape[0]):
        deficit += max(0, g.need[c] - g.counts[left, c] - g.counts[right, c])
    return max(1, (short + 1) // 2, (deficit + g.per_turn - 1) // g.per_turn)


def estimate(code: cython.longlong, ne: cython.longlong, h: cython.longlong, length: Any, counts: Any, need: Any,
             goal_left_len: cython.longlong, goal_right_len: cython.longlong, per_turn: cython.longlong,
             goal_left: Any, goal_right: Any) -> int:
    """A lower bound on the relaxed turns from ``code`` to a goal (admissible, so it may prune the search).

    - Length: the goal halves need ``goal_*_len`` cards; a relaxed turn adds at most two cards to the goal
      row (the card placed, and one a Fog brings from another row).
    - Classes: the goal needs ``need[c]`` cards of class ``c`` in the row; a relaxed turn adds at most
      ``per_turn`` of them (the card placed, and with a crossing action one more from another row).
    - An unmet goal needs a turn.
    """
    goal = Goal(ne, h, length, counts, need, goal_left_len, goal_right_len, per_turn, goal_left, goal_right)
    return int(_estimate(goal, code))


@cython.cclass
class Relaxed:
    """One relaxation with everything its searches need: its parameters, its half-row tables (in the order
    of :data:`TABLE_ORDER`, as built by :func:`half_tables`), its :class:`Goal` and scratch space.

    ``plays`` is an (n, 2) array of (class placed, action). ``n_ends`` is the number of tracked ends (0:
    the other rows are unknown, and a Storm or Fog may bring any class); ``other_rows`` how many rows can
    interact with the goal row (0: none). ``guide`` (``counts, need, goal_left_len, goal_right_len,
    per_turn``) is what :func:`estimate` needs; without it the estimate is not used.
    """

    k: cython.longlong
    limit: cython.longlong
    h: cython.longlong
    n_ends: cython.longlong
    end_base: cython.longlong
    other_rows: cython.longlong
    fog: cython.bint
    wind_crosses: cython.bint
    ne: cython.longlong
    pair: cython.longlong
    empty: cython.longlong
    n_codes: cython.longlong
    guided: cython.bint
    goal: Goal
    plays: cython.longlong[:, ::1]
    power: cython.longlong[::1]
    length: cython.longlong[::1]
    end: cython.longlong[::1]
    pop: cython.longlong[::1]
    append: cython.longlong[:, ::1]
    front: cython.longlong[:, ::1]
    set_end: cython.longlong[:, ::1]
    wind_in_ptr: cython.longlong[::1]
    wind_in: cython.longlong[::1]
    wind_out_ptr: cython.longlong[::1]
    wind_out: cython.longlong[::1]
    remove_near_ptr: cython.longlong[::1]
    remove_near: cython.longlong[::1]
    remove_any_ptr: cython.longlong[::1]
    remove_any: cython.longlong[::1]
    replace_near_ptr: cython.longlong[::1]
    replace_near: cython.longlong[::1]
    replace_any_ptr: cython.longlong[::1]
    replace_any: cython.longlong[::1]
    cross_ptr: cython.longlong[::1]
    cross_h: cython.longlong[::1]
    cross_c: cython.longlong[::1]
    insert_ptr: cython.longlong[::1]
    insert: cython.longlong[::1]
    # scratch: successors by row (one row per level of a depth-first search), the tracked ends and the
    # far-end outcomes of the state being expanded, the depth-first stacks, scores for ordering
    out: cython.longlong[:, ::1]
    ends: cython.longlong[::1]
    marks: cython.uchar[::1]
    stack: cython.longlong[::1]
    nexts: cython.longlong[::1]
    sizes: cython.longlong[::1]
    rest: cython.longlong[::1]
    scores: cython.longlong[::1]
    arguments: tuple  # type: ignore[type-arg]

    def __init__(self, k: cython.longlong, limit: cython.longlong, plays: Any, n_ends: cython.longlong,
                 end_base: cython.longlong, other_rows: cython.longlong, fog: cython.bint,
                 wind_crosses: cython.bint, tables: Sequence[Any], goal_left: Any, goal_right: Any,
                 guide: Sequence[Any] | None = None) -> None:
        self.arguments = (k, limit, plays, n_ends, end_base, other_rows, fog, wind_crosses, tuple(tables), goal_left,
                          goal_right, None if guide is None else tuple(guide))
        self.k = k
        self.limit = limit
        self.n_ends = n_ends
        self.end_base = end_base
        self.other_rows = other_rows
        self.fog = fog
        self.wind_crosses = wind_crosses
        self.h = int(np.searchsorted(tables[0], limit, side="right"))
        self.ne = end_base ** n_ends
        self.pair = end_base if n_ends == 2 else 0
        self.empty = k if end_base == k + 1 else -1
        self.n_codes = self.h * self.h * self.ne
        self.power = np.array([end_base ** j for j in range(n_ends + 1)], np.int64)
        self.plays = _int64(plays).reshape(-1, 2)
        (self.length, self.end, self.pop, self.append, self.front, self.set_end, self.wind_in_ptr, self.wind_in,
         self.wind_out_ptr, self.wind_out, self.remove_near_ptr, self.remove_near, self.remove_any_ptr,
         self.remove_any, self.replace_near_ptr, self.replace_near, self.replace_any_ptr, self.replace_any,
         self.cross_ptr, self.cross_h, self.cross_c, self.insert_ptr, self.insert) = [_int64(t) for t in tables]
        self.guided = guide is not None
        counts, need, goal_left_len, goal_right_len, per_turn = (
            guide if guide is not None else (np.zeros((len(tables[0]), 1), np.int64), np.zeros(1, np.int64), 0, 0, 1))
        self.goal = Goal(self.ne, self.h, tables[0], counts, need, goal_left_len, goal_right_len, per_turn,
                         goal_left, goal_right)
        self.ends = np.zeros(max(n_ends, 1), np.int64)
        self.marks = np.zeros(self.ne, np.uint8)
        self.scores = np.zeros(MAX_SUCCESSORS, np.int64)
        self.out = np.zeros((0, MAX_SUCCESSORS), np.int64)
        self.room(1)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its arguments (the scratch space is rebuilt)."""
        return Relaxed, self.arguments

    def room(self, rows: cython.Py_ssize_t) -> None:
        """Make the scratch space hold ``rows`` levels of successors."""
        if self.out.shape[0] >= rows:
            return
        self.out = np.zeros((rows, MAX_SUCCESSORS), np.int64)
        self.stack = np.zeros(rows, np.int64)
        self.nexts = np.zeros(rows, np.int64)
        self.sizes = np.zeros(rows, np.int64)
        self.rest = np.zeros(rows, np.int64)

    def successors(self, code: cython.longlong) -> list[int]:
        """The relaxed successors of one state (duplicates possible; for tests and explanations)."""
        count: cython.Py_ssize_t = _checked(_successors(self, code, 0), self)
        return [int(self.out[0, i]) for i in range(count)]


# -- successors ------------------------------------------------------------------------------------
@cython.cfunc
@cython.inline
@cython.nogil
@cython.exceptval(check=False)
@cython.cdivision(True)
def _canonical_ends(ends: cython.longlong, pair: cython.longlong) -> cython.longlong:
    """With one other row (``pair`` = the base of the ends, else 0), its two ends in a fixed order: the
    relaxation treats a row's two ends alike (every relaxed move commutes with exchanging them), so states
    differing only in that order are merged. With more rows the ends are kept as they are."""
    if pair == 0:
        return ends
    first: cython.longlong = ends % pair
    second: cython.longlong = ends // pair
    return ends if first <= second else second + first * pair


@cython.cfunc
@cython.inline
@cython.nogil
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def _put(r: Relaxed, row: cython.Py_ssize_t, count: cython.Py_ssize_t, side: cython.longlong,
         near: cython.longlong, far: cython.longlong, ends: cython.longlong) -> cython.Py_ssize_t:
    """Append to ``r.out[row]`` the state with goal half-rows (near, far) seen from ``side``, unless one is
    over the limit (a ``-1`` from a table is a half-row over ``limit + 1`` cards, so over the limit too),
    or the row is full (the caller then refuses the list: see :func:`_checked`)."""
    if near < 0 or far < 0 or r.length[near] > r.limit or r.length[far] > r.limit or count >= r.out.shape[1]:
        return count
    ends = _canonical_ends(ends, r.pair)
    if side == 0:
        r.out[row, count] = (near * r.h + far) * r.ne + ends
    else:
        r.out[row, count] = (far * r.h + near) * r.ne + ends
    return count + 1


@cython.cfunc
@cython.exceptval(-1, check=True)
def _checked(count: cython.Py_ssize_t, r: Relaxed) -> cython.Py_ssize_t:
    """``count``, unless a successor may have been dropped: no search may go on with a partial list."""
    if count >= r.out.shape[1]:
        raise ValueError("relaxed successors overflow their buffer")
    return count


@cython.cfunc
@cython.nogil
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def _fog(r: Relaxed, row: cython.Py_ssize_t, count: cython.Py_ssize_t, left: cython.longlong,
         right: cython.longlong, played_side: cython.longlong, ends: cython.longlong) -> cython.Py_ssize_t:
    """A Fog with the other rows unknown: a goal-row card (not the one just placed, at the end of
    ``played_side``; -1 for a Fog played elsewhere) swaps with a card of any class or leaves; or a card of
    any class arrives at an outer end."""
    side: cython.longlong
    half: cython.longlong
    other: cython.longlong
    t: cython.longlong
    c: cython.longlong
    for side in range(2):
        half = left if side == 0 else right
        other = right if side == 0 else left
        if side == played_side:
            for t in range(r.replace_near_ptr[half], r.replace_near_ptr[half + 1]):
                count = _put(r, row, count, side, r.replace_near[t], other, ends)
            for t in range(r.remove_near_ptr[half], r.remove_near_ptr[half + 1]):
                count = _put(r, row, count, side, r.remove_near[t], other, ends)
        else:
            for t in range(r.replace_any_ptr[half], r.replace_any_ptr[half + 1]):
                count = _put(r, row, count, side, r.replace_any[t], other, ends)
            for t in range(r.remove_any_ptr[half], r.remove_any_ptr[half + 1]):
                count = _put(r, row, count, side, r.remove_any[t], other, ends)
        if r.length[half] <= r.limit:
            for c in range(r.k):
                count = _put(r, row, count, side, r.append[half, c], other, ends)
    return count


@cython.cfunc
@cython.nogil
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.cdivision(True)
@cython.initializedcheck(False)
def _successors(r: Relaxed, code: cython.longlong, row: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """Write the relaxed successors of ``code`` into ``r.out[row]`` (duplicates possible); return how many
    (as many as the row holds: a list that may be partial, which :func:`_checked` refuses).

    Every half-row taken from a state is within the limit, so every table entry followed from it is a
    valid index: ``append`` of such a half-row has at most ``limit + 1`` cards (the tables hold those), and
    the lists of the others are of half-rows no longer than theirs.
    """
    k: cython.longlong = r.k
    h: cython.longlong = r.h
    ne: cython.longlong = r.ne
    pair: cython.longlong = r.pair
    n_ends: cython.longlong = r.n_ends
    end_base: cython.longlong = r.end_base
    empty: cython.longlong = r.empty
    e_code: cython.longlong = code % ne
    left: cython.longlong = (code // ne) // h
    right: cython.longlong = (code // ne) % h
    value: cython.longlong = e_code
    count: cython.Py_ssize_t = 0
    i: cython.longlong
    j: cython.longlong
    p: cython.Py_ssize_t
    t: cython.longlong
    u: cython.longlong
    c: cython.longlong
    e: cython.longlong
    side: cython.longlong
    cls: cython.longlong
    act: cython.longlong
    near: cython.longlong
    far: cython.longlong
    half: cython.longlong
    other: cython.longlong
    slot: cython.longlong
    card: cython.longlong
    rest: cython.longlong
    swapped: cython.longlong
    placed: cython.longlong
    partner: cython.longlong
    et: cython.longlong
    eu: cython.longlong
    for i in range(n_ends):
        r.ends[i] = value % end_base
        value //= end_base
    # what an action inside another row leaves at its ends, each outcome once (see below)
    for e in range(ne):
        r.marks[e] = 0
    for p in range(r.plays.shape[0]):
        cls = r.plays[p, 0]
        act = r.plays[p, 1]
        # -- the card placed at an outer end of the goal row ------------------------------------
        for side in range(2):
            near = r.append[left if side == 0 else right, cls]
            far = right if side == 0 else left
            count = _put(r, row, count, side, near, far, e_code)
            if act == _WIND:
                for t in range(r.wind_in_ptr[near], r.wind_in_ptr[near + 1]):
                    count = _put(r, row, count, side, r.wind_in[t], far, e_code)
                for t in range(r.wind_out_ptr[far], r.wind_out_ptr[far + 1]):
                    count = _put(r, row, count, side, near, r.wind_out[t], e_code)
                if r.wind_crosses:
                    for t in range(r.cross_ptr[near], r.cross_ptr[near + 1]):
                        slot = far * k + r.cross_c[t]
                        for u in range(r.insert_ptr[slot], r.insert_ptr[slot + 1]):
                            count = _put(r, row, count, side, r.cross_h[t], r.insert[u], e_code)
            elif act == _RAIN:
                if r.length[far] > 0:
                    card = r.end[far]
                    rest = r.pop[far]
                    count = _put(r, row, count, side, near, r.front[rest, card], e_code)
                    if r.length[near] <= r.limit:
                        count = _put(r, row, count, side, r.front[near, card], rest, e_code)
            elif act == _SUN:
                for t in range(r.remove_near_ptr[near], r.remove_near_ptr[near + 1]):
                    count = _put(r, row, count, side, r.remove_near[t], far, e_code)
                for t in range(r.remove_any_ptr[far], r.remove_any_ptr[far + 1]):
                    count = _put(r, row, count, side, near, r.remove_any[t], e_code)
            elif act == _STORM and r.other_rows > 0:
                if r.length[far] > 0:
                    if n_ends == 0:
                        for c in range(k):
                            count = _put(r, row, count, side, near, r.set_end[far, c], e_code)
                    else:
                        for j in range(n_ends):
                            if r.ends[j] == empty:
                                continue
                            swapped = e_code + (r.end[far] - r.ends[j]) * r.power[j]
                            count = _put(r, row, count, side, near, r.set_end[far, r.ends[j]], swapped)
                for i in range(n_ends):
                    for j in range(i + 1, n_ends):
                        if r.ends[i] == empty or r.ends[j] == empty or r.ends[i] == r.ends[j]:
                            continue
                        swapped = e_code + (r.ends[j] - r.ends[i]) * r.power[i] + (r.ends[i] - r.ends[j]) * r.power[j]
                        count = _put(r, row, count, side, near, far, swapped)
            elif act == _FOG and r.other_rows > 0 and r.fog:
                if side == 0:
                    count = _fog(r, row, count, near, far, side, e_code)
                else:
                    count = _fog(r, row, count, far, near, side, e_code)
        # -- the card placed at an outer end of another row ----------------------------------------
        if r.other_rows == 0:
            continue
        if n_ends == 0:
            # the other rows are unknown: only a Storm or a Fog there can change the goal row
            if act == _STORM:
                for side in range(2):
                    half = left if side == 0 else right
                    other = right if side == 0 else left
                    if r.length[half] > 0:
                        for c in range(k):
                            count = _put(r, row, count, side, r.set_end[half, c], other, e_code)
                if r.length[left] > 0 and r.length[right] > 0 and r.end[left] != r.end[right]:
                    count = _put(r, row, count, 0, r.set_end[left, r.end[right]], r.set_end[right, r.end[left]],
                                 e_code)
            elif act == _FOG and r.fog:
                count = _fog(r, row, count, left, right, -1, e_code)
            continue
        for j in range(n_ends):
            partner = j ^ 1  # the other end of the same row
            placed = e_code + (cls - r.ends[j]) * r.power[j]
            if act in (_WIND, _RAIN, _SUN):
                # the action stays in that row: its far end may become any class, or empty (each outcome
                # emitted once, after the loop over the plays)
                for c in range(end_base):
                    r.marks[_canonical_ends(placed + (c - r.ends[partner]) * r.power[partner], pair)] = 1
                continue
            count = _put(r, row, count, 0, left, right, placed)
            if act != _STORM:
                continue
            # a Storm at end j: any two other ends swap (the goal row's two, one of the goal row's and
            # another row's, or two of other rows)
            if r.length[left] > 0 and r.length[right] > 0 and r.end[left] != r.end[right]:
                count = _put(r, row, count, 0, r.set_end[left, r.end[right]], r.set_end[right, r.end[left]],
                             placed)
            for t in range(n_ends):
                et = cls if t == j else r.ends[t]
                if t == j or et == empty:
                    continue
                for side in range(2):
                    half = left if side == 0 else right
                    other = right if side == 0 else left
                    if r.length[half] == 0 or r.end[half] == et:
                        continue
                    swapped = placed + (r.end[half] - et) * r.power[t]
                    count = _put(r, row, count, side, r.set_end[half, et], other, swapped)
                for u in range(t + 1, n_ends):
                    eu = r.ends[u]
                    if u == j or eu in (empty, et):
                        continue
                    swapped = placed + (eu - et) * r.power[t] + (et - eu) * r.power[u]
                    count = _put(r, row, count, 0, left, right, swapped)
    if n_ends:
        for e in range(ne):
            if r.marks[e]:
                count = _put(r, row, count, 0, left, right, e)
    return count


# -- breadth-first searches ------------------------------------------------------------------------
@cython.cfunc
@cython.nogil
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def _expand_slice(r: Relaxed, frontier: cython.longlong[::1], start: cython.Py_ssize_t, stop: cython.Py_ssize_t,
                  dist: cython.schar[::1], step: cython.schar) -> cython.int:
    """Give every successor of ``frontier[start:stop]`` not reached at a lesser depth the distance ``step``
    (1: a successor list overflowed, and the layer is incomplete; else 0)."""
    i: cython.Py_ssize_t
    j: cython.Py_ssize_t
    count: cython.Py_ssize_t
    y: cython.longlong
    for i in range(start, stop):
        count = _successors(r, frontier[i], 0)
        if count >= r.out.shape[1]:
            return 1
        for j in range(count):
            # a state first reached by a longer way (before a pruned state on a shorter one was let
            # in) gets its true distance
            y = r.out[0, j]
            if dist[y] == _UNREACHED or dist[y] > step:
                dist[y] = step
    return 0


@cython.cfunc
@cython.nogil
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def _goal_in_slice(r: Relaxed, frontier: cython.longlong[::1], start: cython.Py_ssize_t,
                   stop: cython.Py_ssize_t) -> cython.int:
    """1 if a state of ``frontier[start:stop]`` has a relaxed goal among its successors, 2 if a successor
    list overflowed first, else 0."""
    i: cython.Py_ssize_t
    j: cython.Py_ssize_t
    count: cython.Py_ssize_t
    for i in range(start, stop):
        count = _successors(r, frontier[i], 0)
        if count >= r.out.shape[1]:
            return 2
        for j in range(count):
            if _is_goal(r.goal, r.out[0, j]):
                return 1
    return 0


def _expand_layer(r: Relaxed, frontier: cython.longlong[::1], dist: cython.schar[::1], depth: cython.longlong,
                  deadline: Callable[[], bool] | None) -> bool:
    """Give every successor of ``frontier`` not reached at a lesser depth the distance ``depth + 1``; True if
    ``deadline`` stopped it first (the layer is then partly written). The frontier is expanded in slices
    of :data:`CHECK_EVERY` states without the GIL (other Python threads run meanwhile); between slices,
    pending signals are handled (a Ctrl-C raises :class:`KeyboardInterrupt` here) and the deadline read."""
    size: cython.Py_ssize_t = frontier.shape[0]
    start: cython.Py_ssize_t = 0
    stop: cython.Py_ssize_t
    failed: cython.int
    step: cython.schar = cython.cast(cython.schar, depth + 1)
    while start < size:
        stop = min(start + _SLICE, size)
        with cython.nogil:
            failed = _expand_slice(r, frontier, start, stop, dist, step)
        if failed:
            raise ValueError("relaxed successors overflow their buffer")
        PyErr_CheckSignals()
        if stop < size and deadline is not None and deadline():
            return True
        start = stop
    return False


def _goal_successor(r: Relaxed, frontier: cython.longlong[::1]) -> bool:
    """Whether some state of ``frontier`` has a relaxed goal among its successors (in slices, as
    :func:`_expand_layer`)."""
    size: cython.Py_ssize_t = frontier.shape[0]
    start: cython.Py_ssize_t = 0
    stop: cython.Py_ssize_t
    found: cython.int
    while start < size:
        stop = min(start + _SLICE, size)
        with cython.nogil:
            found = _goal_in_slice(r, frontier, start, stop)
        if found == 2:
            raise ValueError("relaxed successors overflow their buffer")
        if found:
            return True
        PyErr_CheckSignals()
        start = stop
    return False


@cython.cfunc
@cython.exceptval(-1, check=True)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def _any_goal(r: Relaxed, frontier: cython.longlong[::1]) -> cython.int:
    i: cython.Py_ssize_t
    for i in range(frontier.shape[0]):
        if _is_goal(r.goal, frontier[i]):
            return 1
    return 0


@cython.cfunc
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def _prune(r: Relaxed, frontier: cython.longlong[::1], expanded: cython.uchar[::1], depth: cython.longlong,
           bound: cython.longlong) -> tuple:  # type: ignore[type-arg]
    """The states of ``frontier`` not yet expanded that may lie on a relaxed line of at most ``bound`` turns
    (distance so far plus :func:`estimate`), now marked expanded; and the least such total among the others
    (``-1``: none left out)."""
    kept_array = np.empty(frontier.shape[0], np.int64)
    kept: cython.longlong[::1] = kept_array
    n: cython.Py_ssize_t = 0
    least: cython.longlong = -1
    i: cython.Py_ssize_t
    code: cython.longlong
    total: cython.longlong
    for i in range(frontier.shape[0]):
        code = frontier[i]
        if expanded[code]:
            continue
        total = depth + _estimate(r.goal, code)
        if total <= bound:
            kept[n] = code
            n += 1
            expanded[code] = 1
        elif least < 0 or total < least:
            least = total
    return kept_array[:n], least


def _layer(dist: np.ndarray, depth: int) -> np.ndarray:
    """The codes at distance ``depth``, in increasing order."""
    return np.flatnonzero(dist == depth).astype(np.int64)


def forward(start: cython.longlong, n_codes: cython.longlong, goal_left: Any, goal_right: Any, k: cython.longlong,
            limit: cython.longlong, plays: Any, n_ends: cython.longlong, end_base: cython.longlong,
            other_rows: cython.longlong, fog: cython.bint, wind_crosses: cython.bint, tables: Sequence[Any],
            max_depth: cython.longlong, deadline: Callable[[], bool] | None = None,
            guide: Sequence[Any] | None = None, hint: cython.longlong = 0) -> tuple[int, np.ndarray]:
    """Breadth-first layers from ``start`` until a layer holds a goal state.

    With ``guide`` (``counts, need, goal_left_len, goal_right_len, per_turn`` for :func:`estimate`), a
    state is expanded only when its distance plus its estimate is at most a bound (first the larger of
    ``hint`` and the start's estimate); when no goal lies within it, the bound grows to the least total
    left out and the pass over the layers goes on where it stopped: a state is expanded once, at its
    distance. The estimate is admissible and consistent (each count it takes falls by at most its
    divisor a turn), so no state of a shortest relaxed line is left out: the goal depth found is the
    relaxed distance, whatever the hint, and the layers of those lines are exact (states off them may be
    missing or too deep, and none of them leads to a goal along growing layers).

    Returns the goal layer's depth (``-1``: the relaxation has no reachable goal; ``-2``: stopped by
    ``deadline``, a callable that says when time is up, read between layers and every
    :data:`CHECK_EVERY` expansions; ``-3``: no goal within ``max_depth``) and the distance array (``-1``:
    not reached).
    """
    r = Relaxed(k, limit, plays, n_ends, end_base, other_rows, fog, wind_crosses, tables, goal_left, goal_right,
                guide)
    if r.n_codes != n_codes:
        raise ValueError(f"{n_codes} relaxed states given, {r.n_codes} in the relaxation")
    depth, dist = _forward(r, start, max_depth, deadline, hint)
    return int(depth), dist  # a Python int, also where the kernel runs uncompiled (numpy scalars there)


def _forward(r: Relaxed, start: cython.longlong, max_depth: cython.longlong, deadline: Callable[[], bool] | None,
             hint: cython.longlong) -> tuple[int, np.ndarray]:
    """:func:`forward` on ``r``."""
    n_codes: cython.longlong = r.n_codes
    dist = np.full(n_codes, UNREACHED, np.int8)
    dist[start] = 0
    depth: cython.longlong
    if not r.guided:
        depth = 0
        frontier = np.array([start], np.int64)
        while frontier.size:
            if _any_goal(r, frontier):
                return depth, dist
            if depth >= max_depth:
                return -3, dist
            if deadline is not None and deadline():
                return -2, dist
            if _expand_layer(r, frontier, dist, depth, deadline):
                return -2, dist
            depth += 1
            frontier = _layer(dist, depth)
        return -1, dist
    expanded = np.zeros(n_codes, np.uint8)
    bound: cython.longlong = max(hint, _estimate(r.goal, start))
    least: cython.longlong
    left_out: cython.longlong
    while bound <= max_depth:
        least = -1
        for depth in range(bound + 1):
            if deadline is not None and deadline():
                return -2, dist
            frontier = _layer(dist, depth)
            if _any_goal(r, frontier):
                return depth, dist
            frontier, left_out = _prune(r, frontier, expanded, depth, bound)
            if left_out >= 0 and (least < 0 or left_out < least):
                least = left_out
            if depth == bound - 1 and _goal_successor(r, frontier):
                # one goal in the next layer is all the distance needs: that layer is not written
                return bound, dist
            if _expand_layer(r, frontier, dist, depth, deadline):
                return -2, dist
        if least < 0:
            return -1, dist
        bound = least
    return -3, dist


# -- depth-first searches over the layers -----------------------------------------------------------
def reaches(r: Relaxed, code: cython.longlong, layers: cython.schar[::1], goal_depth: cython.longlong,
            memo: cython.schar[::1], score_left: cython.longlong[::1], score_right: cython.longlong[::1]) -> bool:
    """Whether a relaxed goal lies ``goal_depth - layers[code]`` relaxed turns from ``code``, along states
    whose distance from the start grows by one each turn (the only way when ``goal_depth`` is the
    distance from the start to the nearest goal). Depth-first, with verdicts kept in ``memo`` (so that a
    call answered from it costs nothing); the successors are tried in the order of the goal progress
    ``score_left[left] + score_right[right]``, best first (the order only decides how soon a line is
    found)."""
    if memo[code] != _UNKNOWN:
        return bool(memo[code] == _REACHES)
    if layers[code] >= goal_depth or layers[code] < 0:
        memo[code] = _REACHES if layers[code] == goal_depth and _is_goal(r.goal, code) else _DEAD
        return bool(memo[code] == _REACHES)
    r.room(goal_depth - layers[code] + 1)
    return bool(_reaches(r, code, layers, goal_depth, memo, score_left, score_right))


@cython.cfunc
@cython.exceptval(-1, check=True)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def _reaches(r: Relaxed, code: cython.longlong, layers: cython.schar[::1], goal_depth: cython.longlong,
             memo: cython.schar[::1], score_left: cython.longlong[::1], score_right: cython.longlong[::1]
             ) -> cython.int:
    top: cython.Py_ssize_t = 0
    i: cython.Py_ssize_t
    x: cython.longlong
    y: cython.longlong
    r.stack[0] = code
    r.nexts[0] = 0
    r.sizes[0] = _ordered(r, code, layers, goal_depth, memo, score_left, score_right, 0,
                          _checked(_successors(r, code, 0), r))
    while top >= 0:
        x = r.stack[top]
        if r.nexts[top] >= r.sizes[top]:
            memo[x] = _DEAD
            top -= 1
            continue
        y = r.out[top, r.nexts[top]]
        r.nexts[top] += 1
        if layers[x] == goal_depth - 1:  # the goal layer may not be written: any goal successor will do
            if _is_goal(r.goal, y):
                for i in range(top + 1):
                    memo[r.stack[i]] = _REACHES
                return 1
            continue
        if layers[y] != layers[x] + 1 or memo[y] == _DEAD:
            continue
        if memo[y] == _REACHES or (layers[y] == goal_depth and _is_goal(r.goal, y)):
            for i in range(top + 1):
                memo[r.stack[i]] = _REACHES
            memo[y] = _REACHES
            return 1
        if layers[y] == goal_depth:
            memo[y] = _DEAD
            continue
        top += 1
        r.stack[top] = y
        r.nexts[top] = 0
        r.sizes[top] = _ordered(r, y, layers, goal_depth, memo, score_left, score_right, top,
                                _checked(_successors(r, y, top), r))
    return 0


@cython.cfunc
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.cdivision(True)
@cython.initializedcheck(False)
def _ordered(r: Relaxed, code: cython.longlong, layers: cython.schar[::1], goal_depth: cython.longlong,
             memo: cython.schar[::1], score_left: cython.longlong[::1], score_right: cython.longlong[::1],
             row: cython.Py_ssize_t, count: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """Keep in ``r.out[row]`` the successors one layer further that are not known dead (all of them one
    turn before the goal layer, which may not be written), best goal progress first."""
    kept: cython.Py_ssize_t = 0
    i: cython.Py_ssize_t
    j: cython.Py_ssize_t
    y: cython.longlong
    sc: cython.longlong
    half: cython.longlong
    for i in range(count):
        y = r.out[row, i]
        if layers[code] + 1 == goal_depth or layers[y] == layers[code] + 1 and memo[y] != _DEAD:
            r.out[row, kept] = y
            kept += 1
    for i in range(kept):
        half = r.out[row, i] // r.ne
        r.scores[i] = score_left[half // r.h] + score_right[half % r.h]
    for i in range(1, kept):  # insertion sort, best first; stable, so deterministic
        y = r.out[row, i]
        sc = r.scores[i]
        j = i - 1
        while j >= 0 and r.scores[j] < sc:
            r.out[row, j + 1] = r.out[row, j]
            r.scores[j + 1] = r.scores[j]
            j -= 1
        r.out[row, j + 1] = y
        r.scores[j + 1] = sc
    return kept


class OutOfTime(Exception):
    """:func:`within` passed its ``stop_at`` (what it proved of ``lower`` so far stays proven)."""


def within(r: Relaxed, code: cython.longlong, budget: cython.longlong, lower: cython.schar[::1],
           stop_at: cython.double = -1.0) -> bool:
    """Whether a relaxed goal lies at most ``budget`` relaxed turns from ``code``.

    A depth-first search bounded by ``budget``, pruned by :func:`estimate` (``r`` must have its guide)
    and by ``lower``: a proven lower bound on each state's distance to a goal (``int8``, 0 where nothing
    is known), raised here for every state whose search fails, so that later calls (a larger budget, or
    other states sharing successors) skip what is already known. ``stop_at`` (a ``time.perf_counter``
    time, -1 for none) ends it with :class:`OutOfTime`.
    """
    if _is_goal(r.goal, code):
        return True
    if max(lower[code], _estimate(r.goal, code)) > budget:
        return False
    r.room(budget + 1)
    return bool(_within(r, code, budget, lower, stop_at))


@cython.cfunc
@cython.exceptval(-1, check=True)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def _within(r: Relaxed, code: cython.longlong, budget: cython.longlong, lower: cython.schar[::1],
            stop_at: cython.double) -> cython.int:
    top: cython.Py_ssize_t = 0
    x: cython.longlong
    y: cython.longlong
    left: cython.longlong
    steps: cython.longlong = 0
    r.stack[0] = code
    r.rest[0] = budget
    r.nexts[0] = 0
    r.sizes[0] = _checked(_successors(r, code, 0), r)
    while top >= 0:
        x = r.stack[top]
        if r.nexts[top] >= r.sizes[top]:
            if lower[x] < r.rest[top] + 1:  # no goal within rest[top] turns of x
                lower[x] = cython.cast(cython.schar, r.rest[top] + 1)
            top -= 1
            continue
        y = r.out[top, r.nexts[top]]
        r.nexts[top] += 1
        steps += 1
        if stop_at >= 0 and (steps & 65535) == 0 and time.perf_counter() >= stop_at:
            raise OutOfTime("relaxed search stopped by the clock")
        if _is_goal(r.goal, y):
            return 1
        left = r.rest[top] - 1
        if left <= 0 or lower[y] > left or _estimate(r.goal, y) > left:
            continue
        top += 1
        r.stack[top] = y
        r.rest[top] = left
        r.nexts[top] = 0
        r.sizes[top] = _checked(_successors(r, y, top), r)
    return 0
