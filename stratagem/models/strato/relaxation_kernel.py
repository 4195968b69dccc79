"""Compiled search over a table-only relaxation of Strato (see :mod:`relaxation` for what it means).

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
resolves as). :func:`successors` generates, for a state, every relaxed successor: each play at each end
of the goal row (the card goes on the end, then its action acts with any target but that card), and
each play at an end of another row, which changes the goal row only through a Storm or a Fog, and the
tracked ends. Every play also has the outcome "no change" beside the card placed.

The searches are breadth-first, layer by layer over one ``int8`` distance array, each layer's
expansion run in parallel threads (a state reached by two threads at once gets the same distance from
both), so they are deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit, prange

#: Action codes: what a played card resolves as.
NONE, WIND, RAIN, SUN, FOG, STORM = 0, 1, 2, 3, 4, 5

#: Room for the successors of one state (a few hundred at most on the shipped challenges); ``successors``
#: raises rather than drop one.
MAX_SUCCESSORS = 1 << 13

#: ``dist`` value of a state not reached.
UNREACHED = -1


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


def half_tables(k: int, limit: int) -> dict[str, Any]:
    """Every half-row (length 0 to ``limit + 1``) and what each action can make of it.

    Lists hold distinct results other than the half-row itself. "Near" lists are for the half-row the
    card was just placed on: its last card (the placed one) is never a target.
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
    for cards in halves:
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


#: The order in which :func:`successors` takes the tables.
TABLE_ORDER = ("length", "end", "pop", "append", "front", "set_end", "wind_in_ptr", "wind_in", "wind_out_ptr",
               "wind_out", "remove_near_ptr", "remove_near", "remove_any_ptr", "remove_any", "replace_near_ptr",
               "replace_near", "replace_any_ptr", "replace_any", "cross_ptr", "cross_h", "cross_c", "insert_ptr",
               "insert")


# -- successors ------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _canonical_ends(ends: int, pair: int) -> int:
    """With one other row (``pair`` = the base of the ends, else 0), its two ends in a fixed order: the
    relaxation treats a row's two ends alike (every relaxed move commutes with exchanging them), so states
    differing only in that order are merged. With more rows the ends are kept as they are."""
    if pair == 0:
        return ends
    first, second = ends % pair, ends // pair
    return ends if first <= second else second + first * pair


@njit(cache=True, inline="always")
def _put(out: np.ndarray, count: int, side: int, near: int, far: int, ends: int, length: np.ndarray, limit: int,
         h: int, ne: int, pair: int) -> int:
    """Append the state with goal half-rows (near, far) seen from ``side``, unless one is over the limit."""
    if length[near] > limit or length[far] > limit or count >= out.shape[0]:
        return count
    ends = _canonical_ends(ends, pair)
    if side == 0:
        out[count] = (near * h + far) * ne + ends
    else:
        out[count] = (far * h + near) * ne + ends
    return count + 1


@njit(cache=True)
def _fog(out: np.ndarray, count: int, left: int, right: int, played_side: int, ends: int, k: int, limit: int,
         h: int, ne: int, pair: int, length: np.ndarray, append: np.ndarray, remove_near_ptr: np.ndarray,
         remove_near: np.ndarray, remove_any_ptr: np.ndarray, remove_any: np.ndarray,
         replace_near_ptr: np.ndarray, replace_near: np.ndarray, replace_any_ptr: np.ndarray,
         replace_any: np.ndarray) -> int:
    """A Fog with the other rows unknown: a goal-row card (not the one just placed, at the end of
    ``played_side``; -1 for a Fog played elsewhere) swaps with a card of any class or leaves; or a card of
    any class arrives at an outer end."""
    for side in range(2):
        half = left if side == 0 else right
        other = right if side == 0 else left
        if side == played_side:
            for t in range(replace_near_ptr[half], replace_near_ptr[half + 1]):
                count = _put(out, count, side, replace_near[t], other, ends, length, limit, h, ne, pair)
            for t in range(remove_near_ptr[half], remove_near_ptr[half + 1]):
                count = _put(out, count, side, remove_near[t], other, ends, length, limit, h, ne, pair)
        else:
            for t in range(replace_any_ptr[half], replace_any_ptr[half + 1]):
                count = _put(out, count, side, replace_any[t], other, ends, length, limit, h, ne, pair)
            for t in range(remove_any_ptr[half], remove_any_ptr[half + 1]):
                count = _put(out, count, side, remove_any[t], other, ends, length, limit, h, ne, pair)
        if length[half] <= limit:
            for c in range(k):
                count = _put(out, count, side, append[half, c], other, ends, length, limit, h, ne, pair)
    return count


@njit(cache=True)
def successors(code: int, k: int, limit: int, h: int, plays: np.ndarray, n_ends: int, end_base: int,
               other_rows: int, fog: bool, wind_crosses: bool, out: np.ndarray, ends: np.ndarray, marks: np.ndarray,
               length: np.ndarray, end: np.ndarray, pop: np.ndarray, append: np.ndarray, front: np.ndarray,
               set_end: np.ndarray, wind_in_ptr: np.ndarray, wind_in: np.ndarray, wind_out_ptr: np.ndarray,
               wind_out: np.ndarray, remove_near_ptr: np.ndarray, remove_near: np.ndarray,
               remove_any_ptr: np.ndarray, remove_any: np.ndarray, replace_near_ptr: np.ndarray,
               replace_near: np.ndarray, replace_any_ptr: np.ndarray, replace_any: np.ndarray,
               cross_ptr: np.ndarray, cross_h: np.ndarray, cross_c: np.ndarray, insert_ptr: np.ndarray,
               insert: np.ndarray) -> int:
    """Write the relaxed successors of ``code`` into ``out`` (duplicates possible); return how many.

    ``h`` is the number of half-rows within the limit. ``plays`` is an (n, 2) array of (class placed,
    action). ``n_ends`` is the number of tracked ends (0: the other rows are unknown, and a Storm or Fog
    may bring any class). ``other_rows`` is how many
    rows can interact with the goal row (0: none). ``ends`` and ``marks`` are scratch space of ``n_ends``
    and ``end_base ** n_ends`` entries.
    """
    ne = 1
    for _ in range(n_ends):
        ne *= end_base
    pair = end_base if n_ends == 2 else 0
    e_code = code % ne
    row = code // ne
    left = row // h
    right = row % h
    value = e_code
    for i in range(n_ends):
        ends[i] = value % end_base
        value //= end_base
    empty = k if end_base == k + 1 else -1
    count = 0
    # what an action inside another row leaves at its ends, each outcome once (see below)
    row_outcomes = marks
    row_outcomes[:] = False
    for p in range(plays.shape[0]):
        cls = plays[p, 0]
        act = plays[p, 1]
        # -- the card placed at an outer end of the goal row ------------------------------------
        for side in range(2):
            near = append[left if side == 0 else right, cls]
            far = right if side == 0 else left
            count = _put(out, count, side, near, far, e_code, length, limit, h, ne, pair)
            if act == WIND:
                for t in range(wind_in_ptr[near], wind_in_ptr[near + 1]):
                    count = _put(out, count, side, wind_in[t], far, e_code, length, limit, h, ne, pair)
                for t in range(wind_out_ptr[far], wind_out_ptr[far + 1]):
                    count = _put(out, count, side, near, wind_out[t], e_code, length, limit, h, ne, pair)
                if wind_crosses:
                    for t in range(cross_ptr[near], cross_ptr[near + 1]):
                        slot = far * k + cross_c[t]
                        for u in range(insert_ptr[slot], insert_ptr[slot + 1]):
                            count = _put(out, count, side, cross_h[t], insert[u], e_code, length, limit, h, ne, pair)
            elif act == RAIN:
                if length[far] > 0:
                    card = end[far]
                    rest = pop[far]
                    count = _put(out, count, side, near, front[rest, card], e_code, length, limit, h, ne, pair)
                    if length[near] <= limit:
                        count = _put(out, count, side, front[near, card], rest, e_code, length, limit, h, ne, pair)
            elif act == SUN:
                for t in range(remove_near_ptr[near], remove_near_ptr[near + 1]):
                    count = _put(out, count, side, remove_near[t], far, e_code, length, limit, h, ne, pair)
                for t in range(remove_any_ptr[far], remove_any_ptr[far + 1]):
                    count = _put(out, count, side, near, remove_any[t], e_code, length, limit, h, ne, pair)
            elif act == STORM and other_rows > 0:
                if length[far] > 0:
                    if n_ends == 0:
                        for c in range(k):
                            count = _put(out, count, side, near, set_end[far, c], e_code, length, limit, h, ne, pair)
                    else:
                        for j in range(n_ends):
                            if ends[j] == empty:
                                continue
                            swapped = e_code + (end[far] - ends[j]) * end_base ** j
                            count = _put(out, count, side, near, set_end[far, ends[j]], swapped, length, limit, h,
                                         ne, pair)
                for i in range(n_ends):
                    for j in range(i + 1, n_ends):
                        if ends[i] == empty or ends[j] == empty or ends[i] == ends[j]:
                            continue
                        swapped = e_code + (ends[j] - ends[i]) * end_base ** i + (ends[i] - ends[j]) * end_base ** j
                        count = _put(out, count, side, near, far, swapped, length, limit, h, ne, pair)
            elif act == FOG and other_rows > 0 and fog:
                lft, rgt = (near, far) if side == 0 else (far, near)
                count = _fog(out, count, lft, rgt, side, e_code, k, limit, h, ne, pair, length, append,
                             remove_near_ptr, remove_near, remove_any_ptr, remove_any, replace_near_ptr, replace_near,
                             replace_any_ptr, replace_any)
        # -- the card placed at an outer end of another row ----------------------------------------
        if other_rows == 0:
            continue
        if n_ends == 0:
            # the other rows are unknown: only a Storm or a Fog there can change the goal row
            if act == STORM:
                for side in range(2):
                    half = left if side == 0 else right
                    other = right if side == 0 else left
                    if length[half] > 0:
                        for c in range(k):
                            count = _put(out, count, side, set_end[half, c], other, e_code, length, limit, h, ne,
                                         pair)
                if length[left] > 0 and length[right] > 0 and end[left] != end[right]:
                    count = _put(out, count, 0, set_end[left, end[right]], set_end[right, end[left]], e_code,
                                 length, limit, h, ne, pair)
            elif act == FOG and fog:
                count = _fog(out, count, left, right, -1, e_code, k, limit, h, ne, pair, length, append,
                             remove_near_ptr, remove_near, remove_any_ptr, remove_any, replace_near_ptr, replace_near,
                             replace_any_ptr, replace_any)
            continue
        for j in range(n_ends):
            partner = j ^ 1  # the other end of the same row
            placed = e_code + (cls - ends[j]) * end_base ** j
            if act == WIND or act == RAIN or act == SUN:  # noqa: SIM109 (numba)
                # the action stays in that row: its far end may become any class, or empty (each outcome
                # emitted once, after the loop over the plays)
                for c in range(end_base):
                    row_outcomes[_canonical_ends(placed + (c - ends[partner]) * end_base ** partner, pair)] = True
                continue
            count = _put(out, count, 0, left, right, placed, length, limit, h, ne, pair)
            if act != STORM:
                continue
            # a Storm at end j: any two other ends swap (the goal row's two, one of the goal row's and
            # another row's, or two of other rows)
            if length[left] > 0 and length[right] > 0 and end[left] != end[right]:
                count = _put(out, count, 0, set_end[left, end[right]], set_end[right, end[left]], placed, length,
                             limit, h, ne, pair)
            for t in range(n_ends):
                et = cls if t == j else ends[t]
                if t == j or et == empty:
                    continue
                for side in range(2):
                    half = left if side == 0 else right
                    other = right if side == 0 else left
                    if length[half] == 0 or end[half] == et:
                        continue
                    swapped = placed + (end[half] - et) * end_base ** t
                    count = _put(out, count, side, set_end[half, et], other, swapped, length, limit, h, ne, pair)
                for u in range(t + 1, n_ends):
                    eu = ends[u]
                    if u == j or eu == empty or eu == et:  # noqa: SIM109 (numba)
                        continue
                    swapped = placed + (eu - et) * end_base ** t + (et - eu) * end_base ** u
                    count = _put(out, count, 0, left, right, swapped, length, limit, h, ne, pair)
    if n_ends:
        for e in range(ne):
            if row_outcomes[e]:
                count = _put(out, count, 0, left, right, e, length, limit, h, ne, pair)
    if count >= out.shape[0]:  # a successor may have been dropped: no search may go on with a partial list
        raise ValueError("relaxed successors overflow their buffer")
    return count


# -- searches --------------------------------------------------------------------------------------
@njit(cache=True)
def _is_goal(code: int, h: int, ne: int, goal_left: np.ndarray, goal_right: np.ndarray) -> bool:
    row = code // ne
    return bool(goal_left[row // h] and goal_right[row % h])


@njit(cache=True, parallel=True)
def _expand_layer(frontier: np.ndarray, dist: np.ndarray, depth: int, k: int, limit: int, h: int, plays: np.ndarray,
                  n_ends: int, end_base: int, other_rows: int, fog: bool, wind_crosses: bool, tables: tuple) -> None:  # type: ignore[type-arg]
    chunks = 64
    size = frontier.shape[0]
    for c in prange(chunks):
        out = np.empty(MAX_SUCCESSORS, np.int64)
        ends = np.empty(max(n_ends, 1), np.int64)
        marks = np.empty(end_base ** n_ends, np.bool_)
        for i in range(c * size // chunks, (c + 1) * size // chunks):
            count = successors(frontier[i], k, limit, h, plays, n_ends, end_base, other_rows, fog, wind_crosses, out,
                               ends, marks,
                               *tables)
            for j in range(count):
                # a state first reached by a longer way (before a pruned state on a shorter one was let
                # in) gets its true distance; every write in one call is the same value
                if dist[out[j]] == UNREACHED or dist[out[j]] > depth + 1:
                    dist[out[j]] = depth + 1


@njit(cache=True)
def estimate(code: int, ne: int, h: int, length: np.ndarray, counts: np.ndarray, need: np.ndarray, goal_left_len: int,
             goal_right_len: int, per_turn: int, goal_left: np.ndarray, goal_right: np.ndarray) -> int:
    """A lower bound on the relaxed turns from ``code`` to a goal (admissible, so it may prune the search).

    - Length: the goal halves need ``goal_*_len`` cards; a relaxed turn adds at most two cards to the goal
      row (the card placed, and one a Fog brings from another row).
    - Classes: the goal needs ``need[c]`` cards of class ``c`` in the row; a relaxed turn adds at most
      ``per_turn`` of them (the card placed, and with a crossing action one more from another row).
    - An unmet goal needs a turn.
    """
    row = code // ne
    left = row // h
    right = row % h
    if goal_left[left] and goal_right[right]:
        return 0
    short = max(0, goal_left_len - length[left]) + max(0, goal_right_len - length[right])
    deficit = 0
    for c in range(need.shape[0]):
        deficit += max(0, need[c] - counts[left, c] - counts[right, c])
    return int(max(1, (short + 1) // 2, (deficit + per_turn - 1) // per_turn))


@njit(cache=True)
def _prune(frontier: np.ndarray, expanded: np.ndarray, depth: int, bound: int, ne: int, h: int, length: np.ndarray,
           counts: np.ndarray, need: np.ndarray, goal_left_len: int, goal_right_len: int, per_turn: int,
           goal_left: np.ndarray, goal_right: np.ndarray) -> tuple[np.ndarray, int]:
    """The states of ``frontier`` not yet expanded that may lie on a relaxed line of at most ``bound`` turns
    (distance so far plus :func:`estimate`), now marked expanded; and the least such total among the others
    (``-1``: none left out)."""
    kept = np.empty(frontier.shape[0], np.int64)
    n = 0
    least = -1
    for i in range(frontier.shape[0]):
        code = frontier[i]
        if expanded[code]:
            continue
        total = depth + estimate(code, ne, h, length, counts, need, goal_left_len, goal_right_len, per_turn,
                                 goal_left, goal_right)
        if total <= bound:
            kept[n] = code
            n += 1
            expanded[code] = True
        elif least < 0 or total < least:
            least = total
    return kept[:n], least


@njit(cache=True, parallel=True)
def _goal_successor(frontier: np.ndarray, goal_left: np.ndarray, goal_right: np.ndarray, k: int, limit: int, h: int,
                    plays: np.ndarray, n_ends: int, end_base: int, other_rows: int, fog: bool, wind_crosses: bool,
                    tables: tuple) -> bool:  # type: ignore[type-arg]
    """Whether some state of ``frontier`` has a relaxed goal among its successors (the threads stop as soon
    as one is found; which one does not matter)."""
    chunks = 64
    size = frontier.shape[0]
    found = np.zeros(chunks, np.bool_)
    ne = 1
    for _ in range(n_ends):
        ne *= end_base
    for c in prange(chunks):
        out = np.empty(MAX_SUCCESSORS, np.int64)
        ends = np.empty(max(n_ends, 1), np.int64)
        marks = np.empty(end_base ** n_ends, np.bool_)
        for i in range(c * size // chunks, (c + 1) * size // chunks):
            if found.any():
                break
            count = successors(frontier[i], k, limit, h, plays, n_ends, end_base, other_rows, fog, wind_crosses, out,
                               ends, marks, *tables)
            for j in range(count):
                if _is_goal(out[j], h, ne, goal_left, goal_right):
                    found[c] = True
                    break
    return bool(found.any())


def forward(start: int, n_codes: int, goal_left: np.ndarray, goal_right: np.ndarray, k: int, limit: int,
            plays: np.ndarray, n_ends: int, end_base: int, other_rows: int, fog: bool, wind_crosses: bool,
            tables: tuple,  # type: ignore[type-arg]
            max_depth: int, deadline: Any = None, guide: tuple | None = None,  # type: ignore[type-arg]
            hint: int = 0) -> tuple[int, np.ndarray]:
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
    ``deadline``, a callable that says when time is up; ``-3``: no goal within ``max_depth``) and the
    distance array (``-1``: not reached).
    """
    h = int(np.searchsorted(tables[0], limit, side="right"))
    ne = n_codes // (h * h)
    dist = np.full(n_codes, UNREACHED, np.int8)
    dist[start] = 0
    if guide is None:
        depth = 0
        frontier = np.array([start], np.int64)
        while frontier.size:
            if _any_goal(frontier, h, ne, goal_left, goal_right):
                return depth, dist
            if depth >= max_depth:
                return -3, dist
            if deadline is not None and deadline():
                return -2, dist
            _expand_layer(frontier, dist, depth, k, limit, h, plays, n_ends, end_base, other_rows, fog,
                          wind_crosses, tables)
            depth += 1
            frontier = np.flatnonzero(dist == depth).astype(np.int64)
        return -1, dist
    counts, need, goal_left_len, goal_right_len, per_turn = guide
    expanded = np.zeros(n_codes, np.bool_)
    bound = max(hint, estimate(start, ne, h, tables[0], counts, need, goal_left_len, goal_right_len, per_turn,
                               goal_left, goal_right))
    while bound <= max_depth:
        least = -1
        for depth in range(bound + 1):
            if deadline is not None and deadline():
                return -2, dist
            frontier = np.flatnonzero(dist == depth).astype(np.int64)
            if _any_goal(frontier, h, ne, goal_left, goal_right):
                return depth, dist
            frontier, left_out = _prune(frontier, expanded, depth, bound, ne, h, tables[0], counts, need,
                                        goal_left_len, goal_right_len, per_turn, goal_left, goal_right)
            if left_out >= 0 and (least < 0 or left_out < least):
                least = left_out
            if depth == bound - 1 and _goal_successor(frontier, goal_left, goal_right, k, limit, h, plays, n_ends,
                                                      end_base, other_rows, fog, wind_crosses, tables):
                # one goal in the next layer is all the distance needs: that layer is not written
                return bound, dist
            _expand_layer(frontier, dist, depth, k, limit, h, plays, n_ends, end_base, other_rows, fog,
                          wind_crosses, tables)
        if least < 0:
            return -1, dist
        bound = least
    return -3, dist


@njit(cache=True)
def _any_goal(frontier: np.ndarray, h: int, ne: int, goal_left: np.ndarray, goal_right: np.ndarray) -> bool:
    for i in range(frontier.shape[0]):  # noqa: SIM110 (a compiled loop)
        if _is_goal(frontier[i], h, ne, goal_left, goal_right):
            return True
    return False


#: ``memo`` values of :func:`reaches`.
UNKNOWN, REACHES, DEAD = 0, 1, 2


@njit(cache=True)
def reaches(code: int, layers: np.ndarray, goal_depth: int, memo: np.ndarray, goal_left: np.ndarray,
            goal_right: np.ndarray, score_left: np.ndarray, score_right: np.ndarray, k: int, limit: int, h: int,
            plays: np.ndarray, n_ends: int, end_base: int, other_rows: int,
            fog: bool, wind_crosses: bool, tables: tuple, succ: np.ndarray) -> bool:  # type: ignore[type-arg]
    """Whether a relaxed goal lies ``goal_depth - layers[code]`` relaxed turns from ``code``, along states
    whose distance from the start grows by one each turn (the only way when ``goal_depth`` is the
    distance from the start to the nearest goal). Depth-first, with verdicts kept in ``memo``; the
    successors are tried in the order of the goal progress ``score_left[left] + score_right[right]``,
    best first (the order only decides how soon a line is found). ``succ`` is scratch space of
    ``(goal_depth + 1, MAX_SUCCESSORS)``, kept by the caller so that a call answered from ``memo`` costs
    nothing."""
    if memo[code] != UNKNOWN:
        return bool(memo[code] == REACHES)
    ne = layers.shape[0] // (h * h)
    if layers[code] >= goal_depth or layers[code] < 0:
        memo[code] = REACHES if layers[code] == goal_depth and _is_goal(code, h, ne, goal_left, goal_right) else DEAD
        return bool(memo[code] == REACHES)
    depth_cap = goal_depth - layers[code] + 1
    stack = np.empty(depth_cap, np.int64)
    counts = np.zeros(depth_cap, np.int64)
    nexts = np.zeros(depth_cap, np.int64)
    ends = np.empty(max(n_ends, 1), np.int64)
    marks = np.empty(end_base ** n_ends, np.bool_)
    top = 0
    stack[0] = code
    counts[0] = _ordered(code, layers, goal_depth, memo, ne, h, score_left, score_right, succ[0],
                         successors(code, k, limit, h, plays, n_ends, end_base, other_rows, fog, wind_crosses, succ[0],
                                    ends, marks,
                                    *tables))
    while top >= 0:
        x = stack[top]
        if nexts[top] >= counts[top]:
            memo[x] = DEAD
            top -= 1
            continue
        y = succ[top, nexts[top]]
        nexts[top] += 1
        if layers[x] == goal_depth - 1:  # the goal layer may not be written: any goal successor will do
            if _is_goal(y, h, ne, goal_left, goal_right):
                for i in range(top + 1):
                    memo[stack[i]] = REACHES
                return True
            continue
        if layers[y] != layers[x] + 1 or memo[y] == DEAD:
            continue
        if memo[y] == REACHES or (layers[y] == goal_depth and _is_goal(y, h, ne, goal_left, goal_right)):
            for i in range(top + 1):
                memo[stack[i]] = REACHES
            memo[y] = REACHES
            return True
        if layers[y] == goal_depth:
            memo[y] = DEAD
            continue
        top += 1
        stack[top] = y
        nexts[top] = 0
        counts[top] = _ordered(y, layers, goal_depth, memo, ne, h, score_left, score_right, succ[top],
                               successors(y, k, limit, h, plays, n_ends, end_base, other_rows, fog, wind_crosses,
                                          succ[top],
                                          ends, marks, *tables))
    return False


@njit(cache=True)
def _ordered(code: int, layers: np.ndarray, goal_depth: int, memo: np.ndarray, ne: int, h: int, score_left: np.ndarray,
             score_right: np.ndarray, succ: np.ndarray, count: int) -> int:
    """Keep the successors one layer further that are not known dead (all of them one turn before the goal
    layer, which may not be written), best goal progress first."""
    kept = 0
    for i in range(count):
        y = succ[i]
        if layers[code] + 1 == goal_depth or layers[y] == layers[code] + 1 and memo[y] != DEAD:
            succ[kept] = y
            kept += 1
    scores = np.empty(kept, np.int64)
    for i in range(kept):
        row = succ[i] // ne
        scores[i] = score_left[row // h] + score_right[row % h]
    for i in range(1, kept):  # insertion sort, best first; stable, so deterministic
        y, sc = succ[i], scores[i]
        j = i - 1
        while j >= 0 and scores[j] < sc:
            succ[j + 1] = succ[j]
            scores[j + 1] = scores[j]
            j -= 1
        succ[j + 1] = y
        scores[j + 1] = sc
    return kept



@njit(cache=True)
def within(code: int, budget: int, lower: np.ndarray, goal_left: np.ndarray, goal_right: np.ndarray,
           counts: np.ndarray, need: np.ndarray, goal_left_len: int, goal_right_len: int, per_turn: int, k: int,
           limit: int, h: int, plays: np.ndarray, n_ends: int, end_base: int, other_rows: int, fog: bool,
           wind_crosses: bool, tables: tuple, succ: np.ndarray) -> bool:  # type: ignore[type-arg]
    """Whether a relaxed goal lies at most ``budget`` relaxed turns from ``code``.

    A depth-first search bounded by ``budget``, pruned by :func:`estimate` and by ``lower``: a proven
    lower bound on each state's distance to a goal (``int8``, 0 where nothing is known), raised here for
    every state whose search fails, so that later calls (a larger budget, or other states sharing
    successors) skip what is already known. ``succ`` is scratch space of ``(budget + 1, MAX_SUCCESSORS)``.
    """
    ne = lower.shape[0] // (h * h)
    length = tables[0]
    if _is_goal(code, h, ne, goal_left, goal_right):
        return True
    if max(lower[code], estimate(code, ne, h, length, counts, need, goal_left_len, goal_right_len, per_turn,
                                 goal_left, goal_right)) > budget:
        return False
    stack = np.empty(budget + 1, np.int64)
    counts_at = np.zeros(budget + 1, np.int64)
    nexts = np.zeros(budget + 1, np.int64)
    rest = np.zeros(budget + 1, np.int64)
    ends = np.empty(max(n_ends, 1), np.int64)
    marks = np.empty(end_base ** n_ends, np.bool_)
    top = 0
    stack[0] = code
    rest[0] = budget
    counts_at[0] = successors(code, k, limit, h, plays, n_ends, end_base, other_rows, fog, wind_crosses, succ[0],
                              ends, marks, *tables)
    while top >= 0:
        x = stack[top]
        if nexts[top] >= counts_at[top]:
            if lower[x] < rest[top] + 1:  # no goal within rest[top] turns of x
                lower[x] = rest[top] + 1
            top -= 1
            continue
        y = succ[top, nexts[top]]
        nexts[top] += 1
        if _is_goal(y, h, ne, goal_left, goal_right):
            return True
        left = rest[top] - 1
        if left <= 0 or lower[y] > left or estimate(y, ne, h, length, counts, need, goal_left_len, goal_right_len,
                                                    per_turn, goal_left, goal_right) > left:
            continue
        top += 1
        stack[top] = y
        rest[top] = left
        nexts[top] = 0
        counts_at[top] = successors(y, k, limit, h, plays, n_ends, end_base, other_rows, fog, wind_crosses,
                                    succ[top], ends, marks, *tables)
    return False
