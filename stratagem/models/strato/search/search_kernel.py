# cython: boundscheck=False, wraparound=False, infer_types=True
"""Compiled Strato turns and A* over integer-packed states (see :mod:`packed` for the layout).

A Cython kernel in pure-Python mode (``setup.py`` compiles it at install; uncompiled it runs as the
same Python, slowly). A state is held unpacked as one ``int64`` vector while it is worked on
(:mod:`packed` names the slots: each half-row's length and cards, each hand, the pile position, the
player to move, the last weather and the result) and packed into ``rows + 1`` integers to be stored.
Weathers are numbered in letter order (``C F R S T W`` = 0..5), so a sorted hand is a sorted run of
numbers. A deal's parameters are a :class:`Spec`, the relaxation's tables for the heuristic a
:class:`Relax`.

:func:`plays` is the rules engine's :meth:`~stratagem.models.strato.rules.turns.StratoGame.plays` written
again over these vectors: the same moves in the same order (cards of the hand by weather, then the
Redraw; rows in order, left end first; target choices in the order :mod:`actions` lists them) and the
same states after them, the end-of-turn result included. ``tests/models/strato/test_compiled.py``
holds it to the engine on random states. :func:`lower_bound` is :mod:`heuristic`'s bound, and
:func:`astar_run` is A* over packed states with the open list ordered as the Python A*'s (lowest
``f``, then deepest ``g``), re-opening a state reached again with a smaller ``g``. :class:`StratoEngine`
is the same turns behind the compiled layer's interface that every game's engine offers
(:class:`~stratagem.core.packed.PackedGame`), for the game-independent compiled searches.

Indexes are not bounds-checked (the header's directives). What makes them safe: :class:`Spec` and
:class:`Relax` check their tables' shapes against the deal's layout, the functions Python calls check
the shapes of the arrays they are given, a state's values are the packing's (lengths within the slots,
weathers 0..5, which :mod:`packed` guarantees for the states it makes and this module for the states it
makes from them), move buffers are checked before each write (:func:`_emit`), the hash table is indexed
through a mask and the other arrays grow before they fill. No index is negative.

Why one module of over 600 lines: it is one concept, Strato's compiled open-information search -- the
turns it expands, the bounds that order it and the A* loop (and the same turns behind the packed-game
interface) -- whose functions call each other in the innermost loop at C level; Cython inlines such
calls only within one module, so a split would slow the search it exists for.
"""

from __future__ import annotations

import cython
import numpy as np

if cython.compiled:
    from cython.cimports.stratagem.core.packed import PackedGame
else:
    from stratagem.core.packed import PackedGame

#: Weather numbers (letter order); C-level constants, like the others declared so below.
C = cython.declare(cython.longlong, 0)
F = cython.declare(cython.longlong, 1)
R = cython.declare(cython.longlong, 2)
S = cython.declare(cython.longlong, 3)
T = cython.declare(cython.longlong, 4)
W = cython.declare(cython.longlong, 5)
NO_LAST = cython.declare(cython.longlong, -1)

#: Move fields written by :func:`plays`: card, row, end, number of target places, three fields per
#: place (row, side, distance) for two places, redraw, exchange.
MOVE_FIELDS = 12
_FIELDS = cython.declare(cython.Py_ssize_t, MOVE_FIELDS)

#: Room for one state's moves (a few hundred at most); :func:`plays` raises rather than drop one.
MAX_MOVES = 8192

#: A state's result.
ONGOING = cython.declare(cython.longlong, 0)
WON = cython.declare(cython.longlong, 1)
LOST = cython.declare(cython.longlong, -1)

#: ``astar_run`` results.
RUNNING, SOLVED, EXHAUSTED, FULL = 0, 1, 2, 3

#: Most rows, cards in a goal sequence, goal rows in a relaxation, as the tables are sized.
MAX_ROWS = 4
SEQ_ROOM = 9
MAX_RELAXED = 8

#: Heap items: ``f << 50 | (G_MAX - g) << 40 | node``: lowest f, then deepest g, then first stored.
G_MAX = cython.declare(cython.longlong, 1023)
NODE_BITS = cython.declare(cython.longlong, 40)
NODE_MASK = cython.declare(cython.longlong, (1 << 40) - 1)

#: The hash's constants (splitmix64's), and the mask that keeps uncompiled arithmetic to 64 bits.
_SEED = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)
_MIX1 = cython.declare(cython.ulonglong, 0xBF58476D1CE4E5B9)
_MIX2 = cython.declare(cython.ulonglong, 0x94D049BB133111EB)
_MASK64 = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
_MASK63 = cython.declare(cython.ulonglong, 0x7FFFFFFFFFFFFFFF)


def _array(values: object, dims: int, name: str) -> np.ndarray:
    """``values`` as a C-contiguous ``int64`` array of ``dims`` dimensions."""
    out = np.ascontiguousarray(values, np.int64)
    if out.ndim != dims:
        raise ValueError(f"{name} has {out.ndim} dimensions, not {dims}")
    return out


def _shape(array: np.ndarray, name: str, *least: int) -> None:
    if any(have < need for have, need in zip(array.shape, least, strict=True)):
        raise ValueError(f"{name} has shape {array.shape}, less than {least}")


@cython.cclass
class Spec:
    """One deal's parameters as the kernel reads them (:class:`~stratagem.models.strato.search.packed.Packing`
    builds it): the layout (rows, slots per half-row ``maxl``, players), the card limit, the hand size,
    the draw pile, the options, and the victory condition resolved per row (see
    ``packed._goal_arrays``): eligibility, per half the kind (0 none, 1 sequence, 2 counts), sequence,
    counted window and least counts, the needs and length of the goal, and the sets of goal rows."""

    rows: cython.Py_ssize_t
    maxl: cython.Py_ssize_t
    limit: cython.longlong
    players: cython.Py_ssize_t
    hand_size: cython.longlong
    size: cython.Py_ssize_t
    tail: cython.Py_ssize_t
    pile: cython.longlong[::1]
    n_pile: cython.Py_ssize_t
    strict: cython.bint
    wind_crosses: cython.bint
    blank_last: cython.bint
    eligible: cython.longlong[::1]
    kind: cython.longlong[:, ::1]
    seq: cython.longlong[:, :, ::1]
    seq_len: cython.longlong[:, ::1]
    nearest: cython.longlong[:, ::1]
    met_need: cython.longlong[:, :, ::1]
    needs: cython.longlong[:, :, ::1]
    goal_len: cython.longlong[:, ::1]
    rows_required: cython.longlong
    combos: cython.longlong[:, ::1]

    def __init__(self, rows: int, maxl: int, limit: int, players: int, hand_size: int, pile: object,
                 strict: bool, wind_crosses: bool, blank_last: bool, eligible: object, kind: object, seq: object,
                 seq_len: object, nearest: object, met_need: object, needs: object, goal_len: object,
                 rows_required: int, combos: object) -> None:
        if not (0 < rows <= MAX_ROWS and 0 < players <= 4 and 0 <= limit <= maxl - 2 and 0 <= hand_size <= 3):
            raise ValueError(f"no kernel layout for {rows} rows, {players} players, limit {limit}, slots {maxl}")
        tables = {"eligible": _array(eligible, 1, "eligible"), "kind": _array(kind, 2, "kind"),
                  "seq": _array(seq, 3, "seq"), "seq_len": _array(seq_len, 2, "seq_len"),
                  "nearest": _array(nearest, 2, "nearest"), "met_need": _array(met_need, 3, "met_need"),
                  "needs": _array(needs, 3, "needs"), "goal_len": _array(goal_len, 2, "goal_len")}
        least = {"eligible": (rows,), "kind": (rows, 2), "seq": (rows, 2, SEQ_ROOM), "seq_len": (rows, 2),
                 "nearest": (rows, 2), "met_need": (rows, 2, 6), "needs": (rows, 2, 6), "goal_len": (rows, 2)}
        for name, table in tables.items():
            _shape(table, name, *least[name])
        if int(tables["seq_len"].max(initial=0)) > SEQ_ROOM:
            raise ValueError("a goal sequence longer than its table")
        combos_array = _array(combos, 2, "combos")
        if combos_array.size and not (int(combos_array.min()) >= 0 and int(combos_array.max()) < rows):
            raise ValueError("a set of goal rows names a row the deal does not have")
        pile_array = _array(pile, 1, "pile")
        if pile_array.size and not (int(pile_array.min()) >= 0 and int(pile_array.max()) <= 5):
            raise ValueError("a pile card that is not a weather")
        self.rows = rows
        self.maxl = maxl
        self.limit = limit
        self.players = players
        self.hand_size = hand_size
        self.tail = 2 * rows * (maxl + 1) + 4 * players
        self.size = self.tail + 4
        self.pile = pile_array
        self.n_pile = pile_array.shape[0]
        self.strict = strict
        self.wind_crosses = wind_crosses
        self.blank_last = blank_last
        self.eligible = tables["eligible"]
        self.kind = tables["kind"]
        self.seq = tables["seq"]
        self.seq_len = tables["seq_len"]
        self.nearest = tables["nearest"]
        self.met_need = tables["met_need"]
        self.needs = tables["needs"]
        self.goal_len = tables["goal_len"]
        self.rows_required = rows_required
        self.combos = combos_array


@cython.cclass
class Relax:
    """The relaxation bound's searches as the heuristic reads them (``compiled_search.relaxation_tables``
    builds it; ``n`` = 0: no relaxed term): per goal row searched, its row, each weather's class
    (``index``, -1 for none), the number of classes ``k``, the half-row code offsets, the number of
    half-rows, the tracked ends and their base, the relaxed distance from the start's image to a goal
    (-1: never; 0: no information), and where its layer array starts in ``layers``; then how the rows
    combine (``combine_max``, else summed) over the sets of goal rows ``combos``."""

    n: cython.Py_ssize_t
    goal_row: cython.longlong[::1]
    index: cython.longlong[:, ::1]
    k: cython.longlong[::1]
    offsets: cython.longlong[:, ::1]
    half_rows: cython.longlong[::1]
    n_ends: cython.longlong[::1]
    end_base: cython.longlong[::1]
    distance: cython.longlong[::1]
    layers: cython.schar[::1]
    layer_start: cython.longlong[::1]
    combine_max: cython.bint
    required: cython.longlong
    combos: cython.longlong[:, ::1]

    def __init__(self, n: int, goal_row: object, index: object, k: object, offsets: object, half_rows: object,
                 n_ends: object, end_base: object, distance: object, layers: object, layer_start: object,
                 combine_max: bool, required: int, combos: object) -> None:
        if not 0 <= n <= MAX_RELAXED:
            raise ValueError(f"{n} relaxed goal rows: at most {MAX_RELAXED}")
        tables = {"goal_row": _array(goal_row, 1, "goal_row"), "index": _array(index, 2, "index"),
                  "k": _array(k, 1, "k"), "offsets": _array(offsets, 2, "offsets"),
                  "half_rows": _array(half_rows, 1, "half_rows"), "n_ends": _array(n_ends, 1, "n_ends"),
                  "end_base": _array(end_base, 1, "end_base"), "distance": _array(distance, 1, "distance"),
                  "layer_start": _array(layer_start, 1, "layer_start")}
        for name, table in tables.items():
            _shape(table, name, *((n, 6) if name == "index" else (n, 12) if name == "offsets" else (n,)))
        combos_array = _array(combos, 2, "combos")
        if combos_array.size and not (int(combos_array.min()) >= 0 and int(combos_array.max()) < n):
            raise ValueError("a set of relaxed goal rows names a search that is not there")
        if n and int(tables["n_ends"][:n].max()) > 2:
            raise ValueError("more than two tracked ends")
        self.n = n
        self.goal_row = tables["goal_row"]
        self.index = tables["index"]
        self.k = tables["k"]
        self.offsets = tables["offsets"]
        self.half_rows = tables["half_rows"]
        self.n_ends = tables["n_ends"]
        self.end_base = tables["end_base"]
        self.distance = tables["distance"]
        self.layers = np.ascontiguousarray(layers, np.int8)
        self.layer_start = tables["layer_start"]
        self.combine_max = combine_max
        self.required = required
        self.combos = combos_array


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _half(r: cython.Py_ssize_t, side: cython.Py_ssize_t, maxl: cython.Py_ssize_t) -> cython.Py_ssize_t:
    return (r * 2 + side) * (maxl + 1)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _hand(p: cython.Py_ssize_t, rows: cython.Py_ssize_t, maxl: cython.Py_ssize_t) -> cython.Py_ssize_t:
    return 2 * rows * (maxl + 1) + 4 * p


def _vector(a: np.ndarray, spec: Spec, name: str) -> None:
    """Refuse a state vector too short for ``spec``'s layout (indexes are not checked below)."""
    if a.shape[0] < spec.size:
        raise ValueError(f"{name} has {a.shape[0]} slots, the layout needs {spec.size}")


# -- the victory test and the end of a turn ----------------------------------------------------------
@cython.cfunc
@cython.exceptval(check=False)
def _half_met(a: cython.longlong[::1], base: cython.Py_ssize_t, r: cython.Py_ssize_t, side: cython.Py_ssize_t,
              spec: Spec) -> cython.bint:
    """One half-row against its half of the goal."""
    n: cython.longlong = a[base]
    k: cython.longlong = spec.kind[r, side]
    i: cython.Py_ssize_t
    w: cython.Py_ssize_t
    m: cython.longlong
    t: cython.longlong
    least: cython.longlong
    have: cython.longlong
    if k == 0:
        return True
    if k == 1:
        m = spec.seq_len[r, side]
        if n < m:
            return False
        for i in range(m):
            t = spec.seq[r, side, i]
            if t >= 0 and t != a[base + 1 + i]:
                return False
        return True
    window: cython.longlong = min(n, spec.nearest[r, side])
    for w in range(6):
        least = spec.met_need[r, side, w]
        if least > 0:
            have = 0
            for i in range(window):
                if a[base + 1 + i] == w:
                    have += 1
            if have < least:
                return False
    return True


@cython.cfunc
@cython.exceptval(check=False)
def row_met(a: cython.longlong[::1], r: cython.Py_ssize_t, spec: Spec) -> cython.bint:
    """Whether row ``r`` of the state in ``a`` meets the goal."""
    if not spec.eligible[r]:
        return False
    side: cython.Py_ssize_t
    for side in range(2):  # noqa: SIM110 (a compiled loop)
        if not _half_met(a, _half(r, side, spec.maxl), r, side, spec):
            return False
    return True


@cython.cfunc
@cython.exceptval(check=False)
def _status(a: cython.longlong[::1], spec: Spec) -> cython.longlong:
    """:func:`~stratagem.models.strato.rules.status.end_of_turn_status` of the state in ``a``."""
    r: cython.Py_ssize_t
    side: cython.Py_ssize_t
    for r in range(spec.rows):
        for side in range(2):
            if a[_half(r, side, spec.maxl)] > spec.limit:
                return LOST
    meeting: cython.longlong = 0
    for r in range(spec.rows):
        if row_met(a, r, spec):
            meeting += 1
    if meeting >= spec.rows_required:
        return WON
    tail: cython.Py_ssize_t = spec.tail
    if a[tail] >= spec.n_pile and a[_hand(a[tail + 1], spec.rows, spec.maxl)] == 0:
        return LOST
    return ONGOING


# -- editing half-rows -----------------------------------------------------------------------------
@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _remove(a: cython.longlong[::1], base: cython.Py_ssize_t, i: cython.Py_ssize_t) -> cython.longlong:
    n: cython.Py_ssize_t = a[base]
    card: cython.longlong = a[base + 1 + i]
    x: cython.Py_ssize_t
    for x in range(i, n - 1):
        a[base + 1 + x] = a[base + 2 + x]
    a[base + n] = 0
    a[base] = n - 1
    return card


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _insert(a: cython.longlong[::1], base: cython.Py_ssize_t, q: cython.Py_ssize_t,
            card: cython.longlong) -> cython.void:
    n: cython.Py_ssize_t = a[base]
    x: cython.Py_ssize_t
    for x in range(n, q, -1):
        a[base + 1 + x] = a[base + x]
    a[base + 1 + q] = card
    a[base] = n + 1


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _move(moves: cython.longlong[:, ::1], count: cython.Py_ssize_t, card: cython.longlong, r: cython.Py_ssize_t,
          end: cython.Py_ssize_t, redraw: cython.bint, n_targets: cython.longlong, r0: cython.longlong,
          s0: cython.longlong, d0: cython.longlong, r1: cython.longlong, s1: cython.longlong, d1: cython.longlong,
          exchange: cython.bint) -> cython.void:
    moves[count, 0] = card
    moves[count, 1] = r
    moves[count, 2] = end
    moves[count, 3] = n_targets
    moves[count, 4] = r0
    moves[count, 5] = s0
    moves[count, 6] = d0
    moves[count, 7] = r1
    moves[count, 8] = s1
    moves[count, 9] = d1
    moves[count, 10] = 1 if redraw else 0
    moves[count, 11] = 1 if exchange else 0


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _differs(a: cython.longlong[::1], base: cython.Py_ssize_t, lo: cython.Py_ssize_t, hi: cython.Py_ssize_t,
             card: cython.longlong) -> cython.bint:
    """Whether a card other than ``card`` lies at places ``lo`` to ``hi - 1`` of the half-row at ``base``:
    moving ``card`` past only its equals would change nothing, which no move may do."""
    x: cython.Py_ssize_t
    for x in range(lo, hi):  # noqa: SIM110 (a compiled loop)
        if a[base + 1 + x] != card:
            return True
    return False


@cython.cfunc
@cython.exceptval(-1, check=True)
def _emit(after: cython.longlong[::1], states: cython.longlong[:, ::1], count: cython.Py_ssize_t,
          size: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """Copy ``after`` into ``states[count]`` (raising rather than writing past the buffer)."""
    if count >= states.shape[0]:
        raise ValueError("compiled Strato moves overflow their buffer")
    x: cython.Py_ssize_t
    for x in range(size):
        states[count, x] = after[x]
    return count


@cython.cfunc
@cython.exceptval(-1, check=True)
def _relocate(after: cython.longlong[::1], states: cython.longlong[:, ::1], moves: cython.longlong[:, ::1],
              count: cython.Py_ssize_t, card: cython.longlong, r: cython.Py_ssize_t, end: cython.Py_ssize_t,
              redraw: cython.bint, spec: Spec, r0: cython.Py_ssize_t, s0: cython.Py_ssize_t, d0: cython.Py_ssize_t,
              r1: cython.Py_ssize_t, s1: cython.Py_ssize_t, d1: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """Emit ``after`` with its card at place ``d0`` of half-row (``r0``, ``s0``) taken out and inserted at
    place ``d1`` of (``r1``, ``s1``) (Wind, Rain, Fog into an empty place), and the move that does it;
    return the new count."""
    count = _emit(after, states, count, spec.size)
    o: cython.longlong[::1] = states[count]
    moved: cython.longlong = _remove(o, _half(r0, s0, spec.maxl), d0)
    _insert(o, _half(r1, s1, spec.maxl), d1, moved)
    _move(moves, count, card, r, end, redraw, 2, r0, s0, d0, r1, s1, d1, False)
    return count + 1


# -- one card at one end -----------------------------------------------------------------------------
@cython.cfunc
@cython.exceptval(-1, check=True)
def _plays_of(a: cython.longlong[::1], card: cython.longlong, redraw: cython.bint, r: cython.Py_ssize_t,
              end: cython.Py_ssize_t, spec: Spec, after: cython.longlong[::1], states: cython.longlong[:, ::1],
              moves: cython.longlong[:, ::1], count: cython.Py_ssize_t, full: cython.bint) -> cython.Py_ssize_t:
    rows: cython.Py_ssize_t = spec.rows
    maxl: cython.Py_ssize_t = spec.maxl
    tail: cython.Py_ssize_t = spec.tail
    x: cython.Py_ssize_t
    i: cython.Py_ssize_t
    side: cython.Py_ssize_t
    # hands, pile and last weather after the card left hand (or pile) and the player drew
    for x in range(spec.size):
        after[x] = a[x]
    p: cython.Py_ssize_t = a[tail + 1]
    hb: cython.Py_ssize_t = _hand(p, rows, maxl)
    pp: cython.Py_ssize_t = a[tail]
    n: cython.Py_ssize_t
    k: cython.Py_ssize_t
    removed: cython.bint
    if redraw:
        pp += 1
        n = 0
        while n < spec.hand_size and pp < spec.n_pile:
            after[hb + 1 + n] = spec.pile[pp]
            pp += 1
            n += 1
        for x in range(n, 3):
            after[hb + 1 + x] = 0
        after[hb] = n
    else:
        n = a[hb]
        removed = False
        k = 0
        for x in range(n):
            if not removed and a[hb + 1 + x] == card:
                removed = True
                continue
            after[hb + 1 + k] = a[hb + 1 + x]
            k += 1
        if pp < spec.n_pile:
            after[hb + 1 + k] = spec.pile[pp]
            pp += 1
            k += 1
        for x in range(k, 3):
            after[hb + 1 + x] = 0
        after[hb] = k
    # sort the hand (at most three cards)
    hn: cython.Py_ssize_t = after[hb]
    y: cython.longlong
    z: cython.Py_ssize_t
    for x in range(1, hn):
        y = after[hb + 1 + x]
        z = x - 1
        while z >= 0 and after[hb + 1 + z] > y:
            after[hb + 2 + z] = after[hb + 1 + z]
            z -= 1
        after[hb + 2 + z] = y
    after[tail] = pp
    last: cython.longlong = a[tail + 2]
    action: cython.longlong = last if card == C else card
    if card != C:
        after[tail + 2] = card
    if spec.blank_last:
        after[tail + 2] = NO_LAST
    after[tail + 1] = (p + 1) % spec.players
    # the card placed
    nb: cython.Py_ssize_t = _half(r, end, maxl)
    fb: cython.Py_ssize_t = _half(r, 1 - end, maxl)
    after[nb + 1 + after[nb]] = card
    after[nb] += 1
    pd: cython.Py_ssize_t = after[nb] - 1
    first: cython.Py_ssize_t = count
    nl: cython.Py_ssize_t
    fl: cython.Py_ssize_t
    pos: cython.Py_ssize_t
    q: cython.Py_ssize_t
    moved: cython.longlong
    base: cython.Py_ssize_t
    r1: cython.Py_ssize_t
    r2: cython.Py_ssize_t
    d: cython.Py_ssize_t
    ab: cython.Py_ssize_t
    bb: cython.Py_ssize_t
    la: cython.Py_ssize_t
    lb: cython.Py_ssize_t
    xr: cython.Py_ssize_t
    xs: cython.Py_ssize_t
    xn: cython.Py_ssize_t
    yr: cython.Py_ssize_t
    ys: cython.Py_ssize_t
    yn: cython.Py_ssize_t
    xb: cython.Py_ssize_t
    yb: cython.Py_ssize_t
    cx: cython.longlong
    cy: cython.longlong
    yy: cython.Py_ssize_t
    if action == W:
        nl = after[nb]
        fl = after[fb]
        for pos in range(nl):
            if pos == pd:
                continue
            moved = after[nb + 1 + pos]
            for q in range(pos):
                if _differs(after, nb, q, pos, moved):
                    count = _relocate(after, states, moves, count, card, r, end, redraw, spec,
                                      r, end, pos, r, end, q)
            if spec.wind_crosses:
                for q in range(fl + 1):
                    count = _relocate(after, states, moves, count, card, r, end, redraw, spec,
                                      r, end, pos, r, 1 - end, q)
        for pos in range(fl):
            moved = after[fb + 1 + pos]
            for q in range(pos + 1, fl):
                if _differs(after, fb, pos + 1, q + 1, moved):
                    count = _relocate(after, states, moves, count, card, r, end, redraw, spec,
                                      r, 1 - end, pos, r, 1 - end, q)
    elif action == R:
        fl = after[fb]
        if fl > 0:
            moved = after[fb + fl]
            for side in range(2):
                # back next to its own tornado only if that changes the half-row
                if side != 1 - end or _differs(after, fb, 0, fl, moved):
                    count = _relocate(after, states, moves, count, card, r, end, redraw, spec,
                                      r, 1 - end, fl - 1, r, side, 0)
    elif action == S:
        for side in range(2):
            base = _half(r, side, maxl)
            for i in range(after[base]):
                if side == end and i == pd:
                    continue
                count = _emit(after, states, count, spec.size)
                _remove(states[count], base, i)
                _move(moves, count, card, r, end, redraw, 1, r, side, i, 0, 0, 0, False)
                count += 1
    elif action == F:
        for side in range(2):
            for r1 in range(rows):
                for r2 in range(r1 + 1, rows):
                    ab = _half(r1, side, maxl)
                    bb = _half(r2, side, maxl)
                    la = after[ab]
                    lb = after[bb]
                    for d in range(max(la, lb)):
                        if side == end and d == pd and (r1 == r or r2 == r):
                            continue
                        if d < la and d < lb:
                            if after[ab + 1 + d] != after[bb + 1 + d]:
                                count = _emit(after, states, count, spec.size)
                                states[count, ab + 1 + d] = after[bb + 1 + d]
                                states[count, bb + 1 + d] = after[ab + 1 + d]
                                _move(moves, count, card, r, end, redraw, 2, r1, side, d, r2, side, d, True)
                                count += 1
                        elif d < la:
                            count = _relocate(after, states, moves, count, card, r, end, redraw, spec,
                                              r1, side, d, r2, side, lb)
                        else:
                            count = _relocate(after, states, moves, count, card, r, end, redraw, spec,
                                              r2, side, d, r1, side, la)
    elif action == T:
        for x in range(2 * rows):
            xr, xs = x // 2, x % 2
            xn = after[_half(xr, xs, maxl)]
            if xn == 0 or (xr == r and xs == end):  # empty, or the Storm just played
                continue
            for yy in range(x + 1, 2 * rows):
                yr, ys = yy // 2, yy % 2
                yn = after[_half(yr, ys, maxl)]
                if yn == 0 or (yr == r and ys == end):
                    continue
                xb = _half(xr, xs, maxl)
                yb = _half(yr, ys, maxl)
                cx = after[xb + xn]
                cy = after[yb + yn]
                if cx == cy:
                    continue
                count = _emit(after, states, count, spec.size)
                states[count, xb + xn] = cy
                states[count, yb + yn] = cx
                _move(moves, count, card, r, end, redraw, 2, xr, xs, xn - 1, yr, ys, yn - 1, True)
                count += 1
    if count == first:
        if spec.strict:
            return count
        count = _emit(after, states, count, spec.size)
        _move(moves, count, card, r, end, redraw, 0, 0, 0, 0, 0, 0, 0, False)
        count += 1
    if full:
        for i in range(first, count):
            states[i, tail + 3] = _status(states[i], spec)
    else:  # only the cheap part: a half-row over the limit (the caller decides the rest when it needs it)
        for i in range(first, count):
            for x in range(2 * rows):
                if states[i, x * (maxl + 1)] > spec.limit:
                    states[i, tail + 3] = LOST
                    break
    return count


@cython.ccall
@cython.exceptval(-1, check=True)
def plays(a: cython.longlong[::1], spec: Spec, after: cython.longlong[::1], states: cython.longlong[:, ::1],
          moves: cython.longlong[:, ::1], full: cython.bint = True) -> cython.Py_ssize_t:
    """Every legal move of the state ``a`` with the state it leads to, in the engine's order; returns
    how many (``states[:n]``, ``moves[:n]``). Without ``full`` the states' results are only "lost" for a
    half-row over the limit and "ongoing" otherwise: :func:`_status` gives the rest."""
    if (a.shape[0] < spec.size or after.shape[0] < spec.size or states.shape[1] < spec.size
            or moves.shape[0] < states.shape[0] or moves.shape[1] < _FIELDS):
        raise ValueError("plays: a state or move buffer smaller than the layout")
    tail: cython.Py_ssize_t = spec.tail
    if a[tail + 3] != ONGOING:
        return 0
    hb: cython.Py_ssize_t = _hand(a[tail + 1], spec.rows, spec.maxl)
    count: cython.Py_ssize_t = 0
    previous: cython.longlong = -1
    card: cython.longlong
    i: cython.Py_ssize_t
    r: cython.Py_ssize_t
    end: cython.Py_ssize_t
    for i in range(a[hb]):
        card = a[hb + 1 + i]
        if card == previous:
            continue
        previous = card
        for r in range(spec.rows):
            for end in range(2):
                count = _plays_of(a, card, False, r, end, spec, after, states, moves, count, full)
    if a[tail] < spec.n_pile:
        card = spec.pile[a[tail]]
        for r in range(spec.rows):
            for end in range(2):
                count = _plays_of(a, card, True, r, end, spec, after, states, moves, count, full)
    return count


# -- the admissible bound of heuristic.py -----------------------------------------------------------
@cython.ccall
@cython.exceptval(-1, check=True)
def lower_bound(a: cython.longlong[::1], spec: Spec, scratch: cython.longlong[:, ::1]) -> cython.longlong:
    """:func:`~stratagem.models.strato.search.heuristic.lower_bound` of the state in ``a`` (``scratch``: an
    ``int64`` array of 4 x 8 entries, kept by the caller)."""
    if a.shape[0] < spec.size or scratch.shape[0] < 4 or scratch.shape[1] < 8:
        raise ValueError("lower_bound: a state or scratch array smaller than the layout")
    rows: cython.Py_ssize_t = spec.rows
    maxl: cython.Py_ssize_t = spec.maxl
    tail: cython.Py_ssize_t = spec.tail
    if a[tail + 3] != ONGOING:
        return 0
    r: cython.Py_ssize_t
    side: cython.Py_ssize_t
    i: cython.Py_ssize_t
    w: cython.Py_ssize_t
    base: cython.Py_ssize_t
    # scratch rows: 0 the cards on the table, 1 what a set of goal rows needs, 2 what it holds, 3 one row's
    for w in range(8):
        scratch[0, w] = 0
    for r in range(rows):
        for side in range(2):
            base = _half(r, side, maxl)
            for i in range(a[base]):
                scratch[0, a[base + 1 + i]] += 1
    cross: cython.bint = a[tail + 2] == F or a[tail + 2] == T
    p: cython.Py_ssize_t
    hb: cython.Py_ssize_t
    for p in range(spec.players):
        hb = _hand(p, rows, maxl)
        for i in range(a[hb]):
            if a[hb + 1 + i] == F or a[hb + 1 + i] == T:
                cross = True
    for i in range(a[tail], spec.n_pile):
        if spec.pile[i] == F or spec.pile[i] == T:
            cross = True
    best: cython.longlong = -1
    ci: cython.Py_ssize_t
    j: cython.Py_ssize_t
    shortfall: cython.longlong
    apart: cython.longlong
    row_short: cython.longlong
    supply_r: cython.longlong
    supply: cython.longlong
    local: cython.longlong
    bound: cython.longlong
    for ci in range(spec.combos.shape[0]):
        for w in range(8):
            scratch[1, w] = 0
            scratch[2, w] = 0
        shortfall = 0
        apart = 0
        for j in range(spec.combos.shape[1]):
            r = spec.combos[ci, j]
            for w in range(8):
                scratch[3, w] = 0
            row_short = 0
            for side in range(2):
                base = _half(r, side, maxl)
                for i in range(a[base]):
                    scratch[3, a[base + 1 + i]] += 1
                for w in range(6):
                    scratch[1, w] += spec.needs[r, side, w]
                row_short += max(0, spec.goal_len[r, side] - a[base])
            for w in range(6):
                scratch[2, w] += scratch[3, w]
            shortfall += row_short
            if not cross and not row_met(a, r, spec):
                supply_r = 0
                for w in range(6):
                    supply_r += max(0, spec.needs[r, 0, w] + spec.needs[r, 1, w] - scratch[3, w])
                apart += max(supply_r, (row_short + 1) // 2, 1)
        supply = 0
        local = 0
        for w in range(6):
            supply += max(0, scratch[1, w] - scratch[0, w])
            if not cross or (w != F and w != T and w != C):
                local += max(0, scratch[1, w] - scratch[2, w])
        bound = max(supply, local, (shortfall + 1) // 2, 1)
        if not cross:
            bound = max(bound, apart)
        if best < 0 or bound < best:
            best = bound
    return best if best >= 0 else 1


# -- images in the table-only relaxation (relaxation.image), for the relaxation's heuristic -----------
@cython.ccall
@cython.exceptval(-1, check=True)
def relaxed_rest(a: cython.longlong[::1], spec: Spec, relax: Relax, scratch: cython.longlong[:, ::1]
                 ) -> cython.longlong:
    """The relaxation's lower bound on the turns left: for each goal row searched, its relaxed distance
    from the start's image to a goal less the relaxed distance from that image to this state's image
    (the triangle inequality; 0 where the image was not reached), combined over the sets of goal rows
    as the bound combines them (:func:`relaxation.combine`). ``scratch``: 2 x 8 entries."""
    if a.shape[0] < spec.size or scratch.shape[0] < 2 or scratch.shape[1] < 8:
        raise ValueError("relaxed_rest: a state or scratch array smaller than the layout")
    if relax.n == 0:
        return 0
    rows: cython.Py_ssize_t = spec.rows
    maxl: cython.Py_ssize_t = spec.maxl
    i: cython.Py_ssize_t
    x: cython.Py_ssize_t
    r: cython.Py_ssize_t
    side: cython.Py_ssize_t
    m: cython.Py_ssize_t
    g: cython.Py_ssize_t
    base: cython.Py_ssize_t
    hb: cython.Py_ssize_t
    n: cython.Py_ssize_t
    code: cython.longlong
    value: cython.longlong
    c: cython.longlong
    ok: cython.bint
    base_e: cython.longlong
    empty: cython.longlong
    power: cython.longlong
    layer: cython.longlong
    # scratch rows: 0 each search's value, 1 the tracked ends
    for i in range(8):
        scratch[0, i] = 0
    for i in range(relax.n):
        if relax.distance[i] <= 0:
            # -1: never (the combinations skip it); 0: no table (``compiled_search.relaxation_arrays`` gives
            # a search without exact layers distance 0 and no layers in ``layers``, so its code would index
            # past them), and a distance 0 bounds nothing either: max(0, 0 - layer) is 0
            continue
        g = relax.goal_row[i]
        code = 0
        ok = True
        for side in range(2):
            base = _half(g, side, maxl)
            n = a[base]
            value = 0
            for x in range(n - 1, -1, -1):
                c = relax.index[i, a[base + 1 + x]]
                if c < 0:
                    ok = False
                value = value * relax.k[i] + c
            code = code * relax.half_rows[i] + relax.offsets[i, n] + value
        if not ok:
            continue
        if relax.n_ends[i] > 0:
            base_e = relax.end_base[i]
            empty = relax.k[i] if base_e == relax.k[i] + 1 else relax.k[i] - 1
            m = 0
            for r in range(rows):
                if r == g:
                    continue
                for side in range(2):
                    hb = _half(r, side, maxl)
                    n = a[hb]
                    scratch[1, m] = relax.index[i, a[hb + n]] if n > 0 else empty
                    if scratch[1, m] < 0:
                        ok = False
                    m += 1
            if not ok:
                continue
            if relax.n_ends[i] == 2 and scratch[1, 1] < scratch[1, 0]:
                scratch[1, 0], scratch[1, 1] = scratch[1, 1], scratch[1, 0]
            value = 0
            power = 1
            for x in range(relax.n_ends[i] - 1, -1, -1):
                value = value * base_e + scratch[1, x]
                power *= base_e
            code = code * power + value
        layer = relax.layers[relax.layer_start[i] + code]
        if layer >= 0:
            scratch[0, i] = max(0, relax.distance[i] - layer)
    best: cython.longlong = -1
    total: cython.longlong
    skip: cython.bint
    ci: cython.Py_ssize_t
    j: cython.Py_ssize_t
    for ci in range(relax.combos.shape[0]):
        total = 0
        skip = False
        for j in range(relax.combos.shape[1]):
            i = relax.combos[ci, j]
            if relax.distance[i] < 0:
                skip = True
                break
            total = max(total, scratch[0, i]) if relax.combine_max else total + scratch[0, i]
        if not skip and (best < 0 or total < best):
            best = total
    return max(best, 0)


# -- packing --------------------------------------------------------------------------------------
@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _pack_cards(a: cython.longlong[::1], base: cython.Py_ssize_t) -> cython.longlong:
    """The cards of the slot at ``base`` (a length, then the cards) as a leading 1 and 3 bits per card,
    the first card lowest."""
    packed: cython.longlong = 1
    x: cython.Py_ssize_t
    for x in range(a[base] - 1, -1, -1):
        packed = (packed << 3) | a[base + 1 + x]
    return packed


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _unpack_cards(packed: cython.longlong, a: cython.longlong[::1], base: cython.Py_ssize_t) -> cython.void:
    """Inverse of :func:`_pack_cards`: the cards into the slot at ``base``, their number at ``base``."""
    n: cython.Py_ssize_t = 0
    while packed > 1:
        a[base + 1 + n] = packed & 7
        packed >>= 3
        n += 1
    a[base] = n


@cython.cfunc
@cython.exceptval(check=False)
def _pack(a: cython.longlong[::1], spec: Spec, key: cython.longlong[::1]) -> cython.void:
    rows: cython.Py_ssize_t = spec.rows
    maxl: cython.Py_ssize_t = spec.maxl
    r: cython.Py_ssize_t
    side: cython.Py_ssize_t
    p: cython.Py_ssize_t
    word: cython.longlong
    for r in range(rows):
        word = 0
        for side in range(2):
            word |= _pack_cards(a, _half(r, side, maxl)) << (25 * side)
        key[r] = word
    word = 0
    for p in range(spec.players):
        word |= _pack_cards(a, _hand(p, rows, maxl)) << (10 * p)
    tail: cython.Py_ssize_t = spec.tail
    word |= a[tail] << 40
    word |= a[tail + 1] << 46
    word |= (a[tail + 2] + 1) << 48
    word |= (a[tail + 3] + 1) << 51
    key[rows] = word


@cython.cfunc
@cython.exceptval(check=False)
def _unpack(key: cython.longlong[::1], spec: Spec, a: cython.longlong[::1]) -> cython.void:
    rows: cython.Py_ssize_t = spec.rows
    maxl: cython.Py_ssize_t = spec.maxl
    r: cython.Py_ssize_t
    side: cython.Py_ssize_t
    p: cython.Py_ssize_t
    x: cython.Py_ssize_t
    word: cython.longlong
    for x in range(spec.size):
        a[x] = 0
    for r in range(rows):
        word = key[r]
        for side in range(2):
            _unpack_cards((word >> (25 * side)) & ((1 << 25) - 1), a, _half(r, side, maxl))
    word = key[rows]
    for p in range(spec.players):
        _unpack_cards((word >> (10 * p)) & 1023, a, _hand(p, rows, maxl))
    tail: cython.Py_ssize_t = spec.tail
    a[tail] = (word >> 40) & 63
    a[tail + 1] = (word >> 46) & 3
    a[tail + 2] = ((word >> 48) & 7) - 1
    a[tail + 3] = ((word >> 51) & 3) - 1


def pack(a: np.ndarray, spec: Spec, key: np.ndarray) -> None:
    """The state in ``a`` as ``rows + 1`` integers: per row two half-rows of 25 bits (a leading 1 and 3
    bits per card), then the hands (10 bits each), pile position, player to move, last and result."""
    _vector(a, spec, "the state")
    if key.shape[0] < spec.rows + 1:
        raise ValueError(f"a key of {key.shape[0]} words for {spec.rows + 1}")
    _pack(a, spec, key)


def unpack(key: np.ndarray, spec: Spec, a: np.ndarray) -> None:
    """Inverse of :func:`pack`."""
    _vector(a, spec, "the state")
    if key.shape[0] < spec.rows + 1:
        raise ValueError(f"a key of {key.shape[0]} words for {spec.rows + 1}")
    _unpack(key, spec, a)


# -- A* -----------------------------------------------------------------------------------------------
@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _hash(key: cython.longlong[::1], nw: cython.Py_ssize_t) -> cython.longlong:
    """splitmix64's finaliser folded over the key's words (uint64 arithmetic)."""
    h: cython.ulonglong = _SEED
    x: cython.ulonglong
    i: cython.Py_ssize_t
    for i in range(nw):
        x = key[i]  # keys are non-negative
        if not cython.compiled:  # Python integers do not wrap: keep them to 64 bits as C does
            x = int(x)
            x = (x ^ h) & _MASK64
            x = ((x ^ (x >> 30)) * _MIX1) & _MASK64
            x = ((x ^ (x >> 27)) * _MIX2) & _MASK64
        else:
            x = x ^ h
            x = (x ^ (x >> 30)) * _MIX1
            x = (x ^ (x >> 27)) * _MIX2
        h = x ^ (x >> 31)
    return h & _MASK63


@cython.cfunc
@cython.exceptval(check=False)
def _find(table: cython.longlong[::1], keys: cython.longlong[:, ::1], key: cython.longlong[::1],
          nw: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """The table slot holding ``key``, or the empty slot where it goes (``table[slot] == -1``)."""
    mask: cython.Py_ssize_t = table.shape[0] - 1
    slot: cython.Py_ssize_t = _hash(key, nw) & mask
    node: cython.Py_ssize_t
    i: cython.Py_ssize_t
    same: cython.bint
    while True:
        node = table[slot]
        if node < 0:
            return slot
        same = True
        for i in range(nw):
            if keys[node, i] != key[i]:
                same = False
                break
        if same:
            return slot
        slot = (slot + 1) & mask


@cython.cfunc
@cython.exceptval(check=False)
def _heap_push(heap: cython.longlong[::1], size: cython.Py_ssize_t, item: cython.longlong) -> cython.void:
    """Add ``item`` to the heap of ``size`` items (the caller made room: :func:`_heap_room`)."""
    i: cython.Py_ssize_t = size
    parent: cython.Py_ssize_t
    heap[i] = item
    while i > 0:
        parent = (i - 1) >> 1
        if heap[parent] <= heap[i]:
            break
        heap[parent], heap[i] = heap[i], heap[parent]
        i = parent


def _heap_room(heap: np.ndarray, size: int) -> np.ndarray:
    """``heap`` with room for one more item than ``size`` (doubled when full)."""
    if size < heap.shape[0]:
        return heap
    bigger = np.empty(heap.shape[0] * 2, np.int64)
    bigger[:size] = heap[:size]
    return bigger


@cython.cfunc
@cython.exceptval(check=False)
def _heap_pop(heap: cython.longlong[::1], size: cython.Py_ssize_t) -> cython.void:
    """Remove the least item (``heap[0]``); ``size`` is the size before."""
    size -= 1
    heap[0] = heap[size]
    i: cython.Py_ssize_t = 0
    left: cython.Py_ssize_t
    child: cython.Py_ssize_t
    while True:
        left = 2 * i + 1
        if left >= size:
            break
        child = left
        if left + 1 < size and heap[left + 1] < heap[left]:
            child = left + 1
        if heap[i] <= heap[child]:
            break
        heap[i], heap[child] = heap[child], heap[i]
        i = child


@cython.cfunc
@cython.exceptval(-1, check=True)
def _heuristic(a: cython.longlong[::1], spec: Spec, relax: Relax, scratch: cython.longlong[:, ::1]
               ) -> cython.longlong:
    """The larger of the two bounds (``scratch``: 6 x 8 entries)."""
    return max(lower_bound(a, spec, scratch[:4]), relaxed_rest(a, spec, relax, scratch[4:]))


def astar_start(start: np.ndarray, spec: Spec, relax: Relax, capacity: int) -> tuple[np.ndarray, ...]:
    """A fresh A* from the state ``start``: its arrays (see :func:`astar_run`)."""
    _vector(start, spec, "the start")
    if capacity < 1 or capacity & (capacity - 1):
        raise ValueError("the A*'s capacity must be a power of two")
    nw = spec.rows + 1
    keys = np.empty((capacity, nw), np.int64)
    g = np.empty(capacity, np.int32)
    h = np.empty(capacity, np.int32)
    parent = np.empty(capacity, np.int64)
    table = np.full(capacity * 2, -1, np.int64)
    heap = np.empty(1024, np.int64)
    counters = np.zeros(8, np.int64)  # nodes, heap size, expanded, generated, bound, status, goal node
    key = np.empty(nw, np.int64)
    _pack(start, spec, key)
    keys[0, :] = key
    g[0] = 0
    h0: cython.longlong = _heuristic(start, spec, relax, np.zeros((6, 8), np.int64))
    h[0] = -1 if start[spec.tail + 3] == WON else h0
    parent[0] = -1
    table[_find(table, keys, key, nw)] = 0
    _heap_push(heap, 0, (h0 << 50) | (G_MAX << NODE_BITS))
    counters[0] = 1
    counters[1] = 1
    counters[4] = h0
    return keys, g, h, parent, table, heap, counters


def _grow(keys: np.ndarray, g: np.ndarray, h: np.ndarray, parent: np.ndarray, n: int, nw: int
          ) -> tuple[np.ndarray, ...]:
    """The stored states' arrays at twice the room, and a new hash table over them."""
    capacity = keys.shape[0] * 2
    keys2 = np.empty((capacity, nw), np.int64)
    keys2[:n] = keys[:n]
    g2 = np.empty(capacity, np.int32)
    g2[:n] = g[:n]
    h2 = np.empty(capacity, np.int32)
    h2[:n] = h[:n]
    parent2 = np.empty(capacity, np.int64)
    parent2[:n] = parent[:n]
    table2 = np.full(capacity * 2, -1, np.int64)
    _rehash(table2, keys2, n, nw)
    return keys2, g2, h2, parent2, table2


@cython.cfunc
@cython.exceptval(check=False)
def _rehash(table: cython.longlong[::1], keys: cython.longlong[:, ::1], n: cython.Py_ssize_t,
            nw: cython.Py_ssize_t) -> cython.void:
    node: cython.Py_ssize_t
    for node in range(n):
        table[_find(table, keys, keys[node], nw)] = node


def astar_run(keys_array: np.ndarray, g_array: np.ndarray, h_array: np.ndarray, parent_array: np.ndarray,
              table_array: np.ndarray, heap_array: np.ndarray, counters_array: np.ndarray, spec: Spec, relax: Relax,
              budget_limit: int, max_stored_limit: int) -> tuple[np.ndarray, ...]:
    """Up to ``budget`` expansions of the A* held in the arrays; returns them (grown as needed).

    ``counters``: stored states, heap size, expansions, generated successors, the largest ``f`` taken
    from the open list (a proven lower bound), the status (:data:`RUNNING`, :data:`SOLVED` with the
    goal's node in ``counters[6]``, :data:`EXHAUSTED`, :data:`FULL` when ``max_stored`` states are
    stored). Lost states are not stored (no goal lies beyond them), nor are successors no shorter than
    a known way to the same state. A state's result is decided once, when it is first stored (``h`` is
    -1 for a won state); its key holds the result "ongoing".
    """
    nw: cython.Py_ssize_t = spec.rows + 1
    size: cython.Py_ssize_t = spec.size
    tail: cython.Py_ssize_t = spec.tail
    max_moves: cython.Py_ssize_t = MAX_MOVES
    budget: cython.Py_ssize_t = budget_limit
    max_stored: cython.Py_ssize_t = max_stored_limit
    keys: cython.longlong[:, ::1] = keys_array
    g: cython.int[::1] = g_array
    h: cython.int[::1] = h_array
    parent: cython.longlong[::1] = parent_array
    table: cython.longlong[::1] = table_array
    heap: cython.longlong[::1] = heap_array
    counters: cython.longlong[::1] = counters_array
    if (keys.shape[1] < nw or g.shape[0] < keys.shape[0] or h.shape[0] < keys.shape[0]
            or parent.shape[0] < keys.shape[0] or table.shape[0] < 2 * keys.shape[0] or counters.shape[0] < 7):
        raise ValueError("astar_run: arrays that astar_start did not make")
    a: cython.longlong[::1] = np.empty(size, np.int64)
    after: cython.longlong[::1] = np.empty(size, np.int64)
    states: cython.longlong[:, ::1] = np.empty((max_moves, size), np.int64)
    moves: cython.longlong[:, ::1] = np.empty((max_moves, MOVE_FIELDS), np.int64)
    key: cython.longlong[::1] = np.empty(nw, np.int64)
    scratch: cython.longlong[:, ::1] = np.zeros((6, 8), np.int64)
    n_nodes: cython.Py_ssize_t = counters[0]
    heap_size: cython.Py_ssize_t = counters[1]
    expanded: cython.longlong = counters[2]
    generated: cython.longlong = counters[3]
    bound: cython.longlong = counters[4]
    done: cython.Py_ssize_t = 0
    status: cython.longlong = RUNNING
    item: cython.longlong
    node: cython.Py_ssize_t
    node_g: cython.longlong
    f: cython.longlong
    count: cython.Py_ssize_t
    child_g: cython.longlong
    i: cython.Py_ssize_t
    slot: cython.Py_ssize_t
    known: cython.Py_ssize_t
    target: cython.Py_ssize_t
    result: cython.longlong
    i2: cython.Py_ssize_t
    child: cython.longlong[::1]
    while True:
        if heap_size == 0:
            status = EXHAUSTED
            break
        item = heap[0]
        node = item & NODE_MASK
        node_g = G_MAX - ((item >> NODE_BITS) & G_MAX)
        f = item >> 50
        if g[node] != node_g:  # superseded by a shorter way
            _heap_pop(heap, heap_size)
            heap_size -= 1
            continue
        if h[node] < 0:  # a won state (its key keeps the placeholder result "ongoing")
            status = SOLVED
            counters[6] = node
            break
        if f > bound:
            bound = f
        if done >= budget:
            break
        if n_nodes + max_moves > max_stored:
            status = FULL
            break
        _heap_pop(heap, heap_size)
        heap_size -= 1
        expanded += 1
        done += 1
        _unpack(keys[node], spec, a)
        count = plays(a, spec, after, states, moves, False)
        child_g = node_g + 1
        for i in range(count):
            generated += 1
            child = states[i]
            if child[tail + 3] == LOST:
                continue
            _pack(child, spec, key)
            slot = _find(table, keys, key, nw)
            known = table[slot]
            if known >= 0:
                if g[known] <= child_g:
                    continue
                target = known
            else:
                if n_nodes >= keys.shape[0]:
                    keys_array, g_array, h_array, parent_array, table_array = _grow(
                        keys_array, g_array, h_array, parent_array, n_nodes, nw)
                    keys, g, h, parent, table = keys_array, g_array, h_array, parent_array, table_array
                    slot = _find(table, keys, key, nw)
                result = _status(child, spec)
                if result == LOST:  # the pile and the next hand are empty
                    continue
                target = n_nodes
                n_nodes += 1
                for i2 in range(nw):
                    keys[target, i2] = key[i2]
                table[slot] = target
                h[target] = -1 if result == WON else _heuristic(child, spec, relax, scratch)
            g[target] = child_g
            parent[target] = node
            if heap_size >= heap.shape[0]:
                heap_array = _heap_room(heap_array, heap_size)
                heap = heap_array
            _heap_push(heap, heap_size, ((child_g + max(h[target], 0)) << 50) | ((G_MAX - child_g) << NODE_BITS)
                       | target)
            heap_size += 1
    counters[0] = n_nodes
    counters[1] = heap_size
    counters[2] = expanded
    counters[3] = generated
    counters[4] = bound
    counters[5] = status
    return keys_array, g_array, h_array, parent_array, table_array, heap_array, counters_array


# -- the compiled layer's interface ------------------------------------------------------------------
@cython.cfunc
@cython.exceptval(check=False)
def _playable(state: cython.longlong[::1], move: cython.longlong[::1], spec: Spec) -> cython.bint:
    """Whether ``move``'s card can be played at its row and end: the row exists, the end is 0 or 1, and
    the card is the top of the pile for a Redraw, else in the hand of the player to move."""
    if move.shape[0] < _FIELDS or not (0 <= move[1] < spec.rows and 0 <= move[2] <= 1):
        return False
    tail: cython.Py_ssize_t = spec.tail
    if move[10] != 0:
        return state[tail] < spec.n_pile and spec.pile[state[tail]] == move[0]
    hb: cython.Py_ssize_t = _hand(state[tail + 1], spec.rows, spec.maxl)
    i: cython.Py_ssize_t
    for i in range(state[hb]):  # noqa: SIM110 (a C loop, not a generator)
        if state[hb + 1 + i] == move[0]:
            return True
    return False


@cython.cclass
class StratoEngine(PackedGame):  # type: ignore[misc]
    """A Strato deal as a :class:`~stratagem.core.packed.PackedGame`: the turns of :func:`plays` over
    the vectors of :mod:`packed`, seen through the interface every game's compiled engine offers.

    A move record is :func:`plays`'s (``MOVE_FIELDS`` integers: card, row, end, targets, redraw,
    exchange); :meth:`apply` plays it by generating the plays of that card at that end only and taking
    the one with the same record. Terminal as in the rules engine: won, lost, or no legal move; every
    player's return is 1 for a win and -1 otherwise (the players win or lose together). Keys are
    :func:`pack`'s ``rows + 1`` words. ``packing`` is the deal's
    :class:`~stratagem.models.strato.search.packed.Packing`.
    """

    spec: Spec
    packing: object
    _after: cython.longlong[::1]
    _states: cython.longlong[:, ::1]
    _moves: cython.longlong[:, ::1]

    def __init__(self, packing: object) -> None:
        spec: Spec = packing.spec  # type: ignore[attr-defined]
        PackedGame.__init__(self, spec.size, MOVE_FIELDS, MAX_MOVES, spec.players, spec.rows + 1)
        self.spec = spec
        self.packing = packing
        self._after = np.zeros(spec.size, np.int64)
        self._states = np.zeros((MAX_MOVES, spec.size), np.int64)
        self._moves = np.zeros((MAX_MOVES, MOVE_FIELDS), np.int64)

    @cython.cfunc
    @cython.exceptval(-3, check=False)
    def to_move(self, state: cython.longlong[::1]) -> cython.Py_ssize_t:
        return state[self.spec.tail + 1]

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def legal(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1]) -> cython.Py_ssize_t:
        return plays(state, self.spec, self._after, self._states, moves)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def apply(self, state: cython.longlong[::1], move: cython.longlong[::1], out: cython.longlong[::1]) -> cython.int:
        spec: Spec = self.spec
        if state[spec.tail + 3] != ONGOING:
            raise ValueError("a Strato move after the end of the game")
        if not _playable(state, move, spec):  # _plays_of trusts its card, row and end: checked here
            raise ValueError("not a legal Strato move of this state")
        count: cython.Py_ssize_t = _plays_of(state, move[0], move[10] != 0, move[1], move[2], spec, self._after,
                                             self._states, self._moves, 0, True)
        i: cython.Py_ssize_t
        x: cython.Py_ssize_t
        same: cython.bint
        for i in range(count):
            same = True
            for x in range(_FIELDS):
                if self._moves[i, x] != move[x]:
                    same = False
                    break
            if same:
                for x in range(spec.size):
                    out[x] = self._states[i, x]
                return 0
        raise ValueError("not a legal Strato move of this state")

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def terminal(self, state: cython.longlong[::1], returns: cython.longlong[::1]) -> cython.bint:
        spec: Spec = self.spec
        result: cython.longlong = state[spec.tail + 3]
        if result == ONGOING and plays(state, spec, self._after, self._states, self._moves) > 0:
            return False
        p: cython.Py_ssize_t
        for p in range(spec.players):
            returns[p] = 1 if result == WON else -1
        return True

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def pack(self, state: cython.longlong[::1], key: cython.longlong[::1]) -> cython.int:
        _pack(state, self.spec, key)
        return 0

    def encode(self, state: object) -> np.ndarray:
        """The rules engine's state as a packed vector."""
        return self.packing.vector(state)  # type: ignore[attr-defined, no-any-return]

    def decode(self, vector: object) -> object:
        """The rules engine's state a packed vector stands for."""
        return self.packing.state(np.asarray(vector, np.int64))  # type: ignore[attr-defined]

    def decode_move(self, state: object, record: object) -> object:
        """The rules engine's move a move record stands for."""
        return self.packing.move(np.asarray(record, np.int64))  # type: ignore[attr-defined]
