# cython: boundscheck=False, wraparound=False, infer_types=True
"""Compiled expectimax over the information states of solo Strato with the pile hidden (issue 29).

A Cython kernel in pure-Python mode (``setup.py`` compiles it; uncompiled, the same Python runs, slowly,
with identical results). It computes what :mod:`~stratagem.models.strato.hidden.odds` computes with
``Fraction``: the optimal win probability of a player who sees the table, their hand, the multiset of
unseen cards and the last weather -- the states of
:class:`~stratagem.models.strato.hidden.game.HiddenStrato` with one player, in its phases: ``play``
(decide), ``reveal`` (chance: a Redraw's card turns up), ``target`` (decide the revealed card's target)
and ``draw`` (chance, one card at a time).

**Integer weights.** A state whose pile holds the multiset ``c`` (``n`` cards) has ``M(c) = n! / prod
c_w!`` equally likely pile orders. Its value is ``W / M(c)`` with ``W`` an integer (the orders the optimal
policy wins: it is a function of what the player sees, which the order decides). A chance node's ``W``
is the plain sum of its children's: a card ``w`` drawn with probability ``c_w / n`` leads to ``M(c - w) =
M(c) c_w / n`` orders, so ``p_w V_w = W_w / M(c)``. So every value here is an ``int64`` ``W`` and every
sum exact; the start's ``M`` is checked to fit (2^62) before the search.

**The search.** Fail-soft alpha-beta in ``W`` units with Star1 windows at chance nodes (Ballard 1983: a
child's window is what keeps the node's value inside the parent's; the unsearched outcomes counted at
their least, 0, or their most, their ``M``), over a transposition table of bounds (``low``, ``high``)
keyed by the information state: ``play`` states by table, hand, unseen multiset and last weather;
``reveal`` states (a Redraw announced at end ``e``) and ``target`` states (card ``w`` revealed for end
``e``) without the hand, which a Redraw discards -- so every hand with the same table and pile shares
them. Draw nodes are not stored (their value is a sum of stored ones). Cuts:

- a move that wins at once is worth ``M``: the node's value is proven 1 and the other moves are not
  searched (``W = M`` is the largest value); so is a **plan** of the hand (:meth:`HiddenSolo.set_plan`):
  at most a few plays of the cards in hand that win whatever is drawn between them (a draw changes
  neither the table nor those cards), found by :meth:`HiddenSolo._hand_plan`'s small search;
- a ``play`` state is proven 0 by the floor (:meth:`HiddenSolo._dead`) when no set of goal rows is still
  possible: its turns needed (the goal's missing cards of each weather, and half its missing length -- a
  turn adds one card to the table and lengthens goal half-rows by at most two) exceed the cards left in
  hand and pile (every turn plays one of them), or some weather's goal cards cannot all reach its rows
  (the hand, the pile and its own rows supply them; another row's only through a Fog, Storm or Cloud
  still to play, one card each);
- Star1's windows, and alpha-beta at decisions: a node proven outside its window stops early with a
  bound.

**Windows, and a policy instead of the optimum.** :meth:`HiddenSolo.solve` takes a window: a null window
``(M - 1, M)`` asks "is the start won with certainty?" (a decision stops at its first move worth ``M``; a
draw that cannot be won with certainty refutes a move). :meth:`HiddenSolo.set_policy` makes the same
search evaluate one concrete policy instead, one move per decision: the best play by a key, unless it
needs more turns than the table does, then a Redraw at the goal's emptiest end (with
:meth:`HiddenSolo.set_width`, the best of a few such moves). The **cheap** policy's key is the A* turn
bound, ties broken by the goal's cards in place (:meth:`HiddenSolo._progress`); the **guided** policy's
(:meth:`HiddenSolo.set_guide`) is each goal row's distance to a goal in the table-only relaxation
(:meth:`HiddenSolo._guide`, the relaxation's searches run by Python and remembered here by image) or
the A* bound where larger, ties broken by the goal places' work left less the hand's useful cards
(:meth:`HiddenSolo._shaped`); :meth:`HiddenSolo._guided` finds its move asking each distance only up to
the best key so far. :meth:`HiddenSolo.set_cutoff` counts the policy's states whose pile has few
orders as lost unless a play wins at once or the hand has a plan: its start value is then a lower bound
on the optimum, which :mod:`.exact` certifies with the policy's tree. Which policy is evaluated changes
no value's soundness, only how high the bound is.

**The value table's walk.** :meth:`HiddenSolo.walk` lists what the searches established, from the start,
as the rows of the certificate :func:`~stratagem.models.strato.hidden.valuetable.write_table` writes: the same
recursion (moves, draws, the floor) over this search's table and the policies' searches, each state listed
once under its key, each row handed to Python as a record of integers that Python turns into text. Below
a policy row's move, a draw whose state would be a frontier row is not listed but named in the row as a
cut draw (:data:`CUT_CARDS`). Its reference is the walk by the rules engine (``write_table(by_rules=True)``):
the tests compare the two files byte for byte, and ``verify`` checks either with the rules alone.

Moves come from :func:`~stratagem.models.strato.search.search_kernel.plays` (the compiled A*'s turn
generator, held to the rules engine by ``tests/models/strato/test_compiled.py``) over a pile-less view
of the state: a play from hand leaves the hand without a draw, and the draws are made here; a Redraw's
target choices are the plays of a hand holding only the revealed card, at the announced end. Their order
is the rules engine's, so a move's index here is its index in ``HiddenStrato.plays``.

Indexes are not bounds-checked (the header's directives): buffers are sized for the deepest game
(:data:`MAX_DEPTH` levels, a level per turn phase), ``plays`` raises rather than overflow its buffer,
the table is indexed through a mask and grows at half full.

Why one module of over 600 lines: it is one concept, the compiled expectimax over solo Strato's information
states; its table, bounds and recursion call one another at C level, which Cython inlines only within one
module.
"""

from __future__ import annotations

import math
import mmap
import time
from itertools import combinations_with_replacement
from typing import Any

import cython
import numpy as np

from stratagem.models.strato.search import search_kernel as sk

#: Node kinds in a key.
PLAY_KIND = cython.declare(cython.longlong, 0)
REVEAL_KIND = cython.declare(cython.longlong, 1)
TARGET_KIND = cython.declare(cython.longlong, 2)
#: Keys of the plan cache (:meth:`HiddenSolo._plan_here`), never in the transposition table.
PLAN_KIND = cython.declare(cython.longlong, 3)
#: Slots of the plan cache at most (a power of 2). It starts at ``PLAN_FIRST_SLOTS`` and grows fourfold,
#: emptied, each time half its slots have been filled: a search that meets a few plans touches a few
#: pages, not the whole cache (a fixed 1 << 20 slots made every pass of a tiny search fault in ~20 MB;
#: ``odds_interval`` keeps each pass's kernel alive).
PLAN_SLOTS = 1 << 20
PLAN_FIRST_SLOTS = 1 << 12

#: Levels of recursion (each turn takes at most a play, a reveal, a target and three draws) and
#: decision levels (play and target nodes) the buffers hold; rows of one ``plays`` call.
MAX_DEPTH = 400
MAX_DECISIONS = 160
MAX_BRANCH = 2048
#: Weathers, in letter order (C F R S T W), as the compiled turns number them.
NW = cython.declare(cython.Py_ssize_t, 6)
#: Visits between two looks at the clock: some milliseconds compiled. Run as plain Python (an install without
#: a compiler) a visit takes some 150 times longer, and 4,096 of them seconds: ``odds --table`` of challenge-0
#: solo-1 with a limit of 2 s ran 5.6-6.3 s, its probe seconds past its share of the limit, and answered
#: unknown (stop 68); there the clock is looked at every 64 visits (1.1-1.5 s, solved).
CHECK_EVERY = cython.declare(cython.longlong, 4096 if cython.compiled else 64)
#: Largest start weight accepted: every sum stays below 2^63.
MAX_WEIGHT = 1 << 62


def _orders(counts: list[int]) -> int:
    """``M(c)`` of six counts in Python's exact integers, capped at :data:`MAX_WEIGHT`.

    The search's own ``_weight`` multiplies in 64 bits, which is exact for every pile below a start the
    entry points accept (each has fewer orders than the start) but wraps round for a start too large: a
    three-row challenge's 39 cards have about 2^88 orders, which wrapped to a number that passed the
    ``>= MAX_WEIGHT`` test. The entry points count here instead, so that test holds whoever calls them."""
    left = sum(counts)
    orders = 1
    for k in counts:
        orders *= math.comb(left, k)
        left -= k
    return min(orders, MAX_WEIGHT)

_SEED = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)
_MIX1 = cython.declare(cython.ulonglong, 0xBF58476D1CE4E5B9)
_MIX2 = cython.declare(cython.ulonglong, 0x94D049BB133111EB)
_MASK64 = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
_MASK63 = cython.declare(cython.ulonglong, 0x7FFFFFFFFFFFFFFF)

#: A kept best move from this number on is a plan of plays from the hand (:meth:`HiddenSolo._hand_plan`),
#: its first move ``best - PLAN_MOVE``; from :data:`REDRAW_MOVE` on, a Redraw at end ``best - REDRAW_MOVE``.
REDRAW_MOVE = cython.declare(cython.longlong, 4096)
PLAN_MOVE = cython.declare(cython.longlong, 8192)

#: What :meth:`HiddenSolo._made` says of a move that ends the game (else it counts the cards to draw).
_LOST = cython.declare(cython.longlong, -1)
_WON = cython.declare(cython.longlong, -2)

#: The guided policy's number in :meth:`HiddenSolo.set_policy` (1 is the cheap one, 0 the optimum).
GUIDED = cython.declare(cython.longlong, 2)

#: How a search ended.
SOLVED, STATE_LIMIT, TIME_LIMIT = 0, 1, 2

#: The value table's rows as :meth:`HiddenSolo.walk` hands them over: one ``int64`` record a row, its kind
#: (``floor``, ``frontier``, ``value``, ``policy``), its move's kind (none, a play, a Redraw's announcement,
#: a plan of plays, a revealed card's target), its value ``W`` over its weight ``M``, the Redraw's end (a
#: plan's length), its cut draws (:data:`CUT_CARDS`), then the state's key (:meth:`HiddenSolo._make_key`:
#: the text of the row's state is made from it) and the move's records (the compiled turn generator's,
#: :data:`PLAN_RECORDS` of them for a plan).
FLOOR_ROW, FRONTIER_ROW, VALUE_ROW, POLICY_ROW = 0, 1, 2, 3
NO_MOVE, PLAY_MOVE, ANNOUNCE_MOVE, PLANNED_MOVES, TARGET_MOVE = 0, 1, 2, 3, 4
REC_KIND, REC_MOVE, REC_VALUE, REC_WEIGHT, REC_END, REC_CUT, REC_KEY = 0, 1, 2, 3, 4, 5, 6
PLAN_RECORDS = 2
#: A policy row's cut draws (the multisets of ``k`` cards after which the state reached would be a frontier
#: row, not listed for it) as one ``int64``: ``k`` times this, plus bit ``i`` for the ``i``-th multiset of
#: ``k`` of the six weathers in letter order (``itertools.combinations_with_replacement``; at most 56).
CUT_CARDS = 1 << 60
_CUT_SHIFT = cython.declare(cython.longlong, 60)


def _cut_ranks() -> np.ndarray:
    """Each multiset of 1 to 3 weathers, by its counts in base 4 (weather ``c``'s count times ``4^c``), to
    its rank among the multisets of its size (:data:`CUT_CARDS`); -1 elsewhere."""
    ranks = np.full(4 ** 6, -1, np.int64)
    for k in range(1, 4):
        for rank, drawn in enumerate(combinations_with_replacement(range(6), k)):
            ranks[sum(4 ** c for c in drawn)] = rank
    return ranks


_CUT_RANKS = _cut_ranks()


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _rules_card(j: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """The ``j``-th weather in the rules' order of chance outcomes (W R S F C T) as its letter-order number:
    the walk meets the states in the order the rules' walk would."""
    if j == 0:
        return 5
    if j == 1:
        return 2
    if j == 2:
        return 3
    if j == 3:
        return 1
    if j == 4:
        return 0
    return 4


@cython.cfunc
@cython.exceptval(check=False)
def _probe(table: cython.longlong[::1], keys: cython.longlong[:, ::1], key: cython.longlong[::1],
           nw: cython.Py_ssize_t, h: cython.longlong) -> cython.Py_ssize_t:
    """The slot of ``key`` (hash ``h``) in an open-addressed ``table`` of nodes whose keys are ``keys``: its
    node's, or the empty slot where it goes (linear probing; the table is never full)."""
    mask: cython.Py_ssize_t = table.shape[0] - 1
    slot: cython.Py_ssize_t = h & mask
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


class Stopped(Exception):
    """The state cap or the clock ended the search."""


def _grown(array: np.ndarray, rows: int, kept: int) -> np.ndarray:
    """``array`` with room for ``rows`` rows, its first ``kept`` rows kept."""
    grown = np.zeros((rows,) + array.shape[1:], np.int64)
    grown[:kept] = array[:kept]
    return grown


def _untouched_zeros(shape: tuple[int, ...]) -> np.ndarray:
    """A zeroed int64 array of ``shape`` in pages of its own (an anonymous map), resident only where written.

    ``np.zeros`` asks ``calloc``, which zeroes a block taken from the heap page by page: once the process has
    freed large blocks, glibc serves blocks of up to 32 MB from the heap, so the move buffers of every
    kernel (31.5 MB of moves for 160 decisions of 2,048 branches) became resident whole, where a search
    writes a few rows of them. A run of twenty policy passes held about 1.7 GB so (measured in the test
    suite's process); a map's pages stay shared zero pages until written, whatever the heap did before."""
    count = math.prod(shape)
    return np.frombuffer(mmap.mmap(-1, max(8, 8 * count)), np.int64, count).reshape(shape)


@cython.cclass
class HiddenSolo:
    """One solo deal's hidden-pile search: the kernel's deal parameters (``spec``, a pile-less
    :class:`~stratagem.models.strato.search.search_kernel.Spec`), the goal's tables for the floor, the
    transposition table and the buffers. ``odds.py``'s wrapper builds it (:func:`solve_hidden`)."""

    spec: Any
    rows: cython.Py_ssize_t
    maxl: cython.Py_ssize_t
    tail: cython.Py_ssize_t
    size: cython.Py_ssize_t
    limit: cython.longlong
    nw: cython.Py_ssize_t
    needs: cython.longlong[:, :, ::1]
    goal_len: cython.longlong[:, ::1]
    kind: cython.longlong[:, ::1]
    seq: cython.longlong[:, :, ::1]
    combos: cython.longlong[:, ::1]
    binom: cython.longlong[:, ::1]
    # the transposition table: slot -> node (-1 empty); per node its key, bounds and best move
    table: cython.longlong[::1]
    keys: cython.longlong[:, ::1]
    lows: cython.longlong[::1]
    highs: cython.longlong[::1]
    bests: cython.longlong[::1]
    count: cython.Py_ssize_t
    max_states: cython.Py_ssize_t
    # buffers
    cur: cython.longlong[:, ::1]
    cnt: cython.longlong[:, ::1]
    states: cython.longlong[:, :, ::1]
    moves: cython.longlong[:, :, ::1]
    order: cython.longlong[:, ::1]
    policy: cython.longlong
    width: cython.Py_ssize_t
    cutoff: cython.longlong
    plan_depth: cython.longlong
    pc_keys: cython.longlong[:, ::1]
    pc_vals: cython.longlong[::1]
    pc_filled: cython.Py_ssize_t
    np_scratch4: Any
    # the guide of the guided policy (set_guide): each goal row's relaxation, its distances remembered
    g_n: cython.Py_ssize_t
    g_row: cython.longlong[::1]
    g_k: cython.longlong[::1]
    g_limit: cython.longlong[::1]
    g_index: cython.longlong[:, ::1]
    g_offsets: cython.longlong[:, ::1]
    g_half: cython.longlong[::1]
    g_ends: cython.longlong[::1]
    g_base: cython.longlong[::1]
    g_start: cython.longlong[::1]
    g_size: cython.longlong[::1]
    g_memo: cython.schar[::1]
    g_max: cython.bint
    g_combos: cython.longlong[:, ::1]
    g_cap: cython.longlong
    g_fill: Any
    on_tick: Any
    g_dist: cython.longlong[::1]
    okey: cython.longlong[:, ::1]
    key: cython.longlong[::1]
    bnd: cython.longlong[:, ::1]
    scratch: cython.longlong[:, ::1]
    np_cur: Any
    np_states: Any
    np_moves: Any
    np_after: Any
    np_table: Any
    np_keys: Any
    np_lows: Any
    np_highs: Any
    np_bests: Any
    visits: cython.longlong
    generated: cython.longlong
    stop_at: cython.double
    was_drained: cython.bint
    why: cython.longlong
    # the value table's walk (walk): the states listed (their keys, U and L), the rows not yet handed over
    w_table: cython.longlong[::1]
    w_keys: cython.longlong[:, ::1]
    w_up: cython.longlong[::1]
    w_low: cython.longlong[::1]
    w_kind: cython.longlong[::1]
    w_count: cython.Py_ssize_t
    w_rec: cython.longlong[:, ::1]
    w_n: cython.Py_ssize_t
    w_lo: cython.longlong
    w_plays: cython.longlong
    w_by: Any
    w_sink: Any
    # what _w_source found for the key in hand (its bounds and move, and the search that kept them)
    w_s_high: cython.longlong
    w_s_best: cython.longlong
    w_s_by: Any
    # the policy row being walked: its cut draws so far (CUT_CARDS), each a rank in cut_ranks
    w_cut: cython.longlong
    cut_ranks: cython.longlong[::1]
    np_w_table: Any
    np_w_keys: Any
    np_w_up: Any
    np_w_low: Any
    np_w_kind: Any
    np_w_rec: Any

    def __init__(self, spec: object, rows: int, maxl: int, limit: int, needs: object, goal_len: object,
                 kind: object, seq: object, combos: object, max_states: int, capacity: int = 1 << 16) -> None:
        self.spec = spec
        self.rows = rows
        self.maxl = maxl
        self.limit = limit
        self.tail = 2 * rows * (maxl + 1) + 4
        self.size = self.tail + 4
        self.nw = rows + 1
        self.needs = np.ascontiguousarray(needs, np.int64)
        self.goal_len = np.ascontiguousarray(goal_len, np.int64)
        self.kind = np.ascontiguousarray(kind, np.int64)
        self.seq = np.ascontiguousarray(seq, np.int64)
        self.combos = np.ascontiguousarray(combos, np.int64)
        if (self.needs.shape[0] < rows or self.goal_len.shape[0] < rows or self.needs.shape[2] < 6
                or self.kind.shape[0] < rows or self.seq.shape[0] < rows
                or self.seq.shape[2] < int(np.max(self.goal_len, initial=0))):
            raise ValueError("goal tables smaller than the rows")
        binom = np.zeros((64, 64), np.int64)
        for n in range(64):
            binom[n, 0] = 1
            for k in range(1, n + 1):
                binom[n, k] = min(binom[n - 1, k - 1] + binom[n - 1, k], MAX_WEIGHT)
        self.binom = binom
        self.max_states = max_states
        cap = 1
        while cap < capacity:
            cap *= 2
        self.np_table = np.full(cap, -1, np.int64)
        self.np_keys = np.zeros((cap // 2 + 1, self.nw), np.int64)
        self.np_lows = np.zeros(cap // 2 + 1, np.int64)
        self.np_highs = np.zeros(cap // 2 + 1, np.int64)
        self.np_bests = np.full(cap // 2 + 1, -1, np.int64)
        self._views()
        self.count = 0
        self.np_cur = np.zeros((MAX_DEPTH, self.size), np.int64)
        self.cur = self.np_cur
        self.cnt = np.zeros((MAX_DEPTH, 8), np.int64)
        self.np_states = _untouched_zeros((MAX_DECISIONS, MAX_BRANCH, self.size))
        self.states = self.np_states
        self.np_moves = _untouched_zeros((MAX_DECISIONS, MAX_BRANCH, sk.MOVE_FIELDS))
        self.moves = self.np_moves
        self.order = _untouched_zeros((MAX_DECISIONS, MAX_BRANCH))
        self.okey = _untouched_zeros((MAX_DECISIONS, MAX_BRANCH))
        self.policy = 0
        self.cutoff = 0
        self.plan_depth = 0
        self.pc_keys = np.zeros((1, self.nw), np.int64)
        self.pc_vals = np.zeros(1, np.int64)
        self.pc_filled = 0
        self.width = 1
        self.np_scratch4 = np.zeros((4, 8), np.int64)
        self.g_n = 0
        self.g_fill = None
        self.on_tick = None
        self.g_dist = np.zeros(8, np.int64)
        self.np_after = np.zeros(self.size, np.int64)
        self.key = np.zeros(self.nw, np.int64)
        self.bnd = np.zeros((MAX_DEPTH, 3), np.int64)
        self.scratch = np.zeros((5, 8), np.int64)
        self.visits = 0
        self.generated = 0
        self.stop_at = -1.0
        self.was_drained = False
        self.why = SOLVED
        self.w_count = 0
        self.w_n = 0
        self.w_lo = 0
        self.w_plays = 0
        self.w_by = []
        self.w_sink = None

    def _views(self) -> None:
        self.table = self.np_table
        self.keys = self.np_keys
        self.lows = self.np_lows
        self.highs = self.np_highs
        self.bests = self.np_bests

    # -- weights ---------------------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(check=False)
    def _weight(self, d: cython.Py_ssize_t) -> cython.longlong:
        """``M(c)``: the orders of the pile multiset at level ``d``."""
        n: cython.longlong = self.cnt[d, 6]
        m: cython.longlong = 1
        w: cython.Py_ssize_t
        k: cython.longlong
        for w in range(NW):
            k = self.cnt[d, w]
            if k > 0:
                m *= self.binom[n, k]
                n -= k
        return m

    def weight(self, counts: object) -> int:
        """``M(c)`` of a pile given as six counts (letter order), for the wrapper and tests."""
        for w in range(6):
            self.cnt[MAX_DEPTH - 1, w] = int(counts[w])  # type: ignore[index]
        self.cnt[MAX_DEPTH - 1, 6] = sum([int(counts[w]) for w in range(6)])  # type: ignore[index, misc]
        return _orders([int(counts[w]) for w in range(6)])  # type: ignore[index]

    # -- keys and the table --------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(check=False)
    def _pack_cards(self, d: cython.Py_ssize_t, base: cython.Py_ssize_t) -> cython.longlong:
        packed: cython.longlong = 1
        x: cython.Py_ssize_t
        for x in range(self.cur[d, base] - 1, -1, -1):
            packed = (packed << 3) | self.cur[d, base + 1 + x]
        return packed

    @cython.cfunc
    @cython.exceptval(check=False)
    def _make_key(self, d: cython.Py_ssize_t, kind: cython.longlong, w: cython.longlong,
                  e: cython.longlong) -> cython.void:
        """The key of the node at level ``d``: per row both half-rows (25 bits each); then the hand
        (play nodes and the plan cache's only), the pile's counts, the last weather, the kind, the end (the
        plays left, for the plan cache) and the card."""
        r: cython.Py_ssize_t
        maxl: cython.Py_ssize_t = self.maxl
        for r in range(self.rows):
            self.key[r] = self._pack_cards(d, (r * 2) * (maxl + 1)) | (
                self._pack_cards(d, (r * 2 + 1) * (maxl + 1)) << 25)
        word: cython.longlong = 0
        if kind in (PLAY_KIND, PLAN_KIND):
            word = self._pack_cards(d, 2 * self.rows * (maxl + 1))
        x: cython.Py_ssize_t
        for x in range(NW):
            word |= self.cnt[d, x] << (10 + 4 * x)
        word |= (self.cur[d, self.tail + 2] + 1) << 34
        word |= kind << 38
        word |= (e + 1) << 40
        word |= (w + 1) << 44
        self.key[self.rows] = word

    @cython.cfunc
    @cython.exceptval(check=False)
    def _hash(self) -> cython.longlong:
        h: cython.ulonglong = _SEED
        x: cython.ulonglong
        i: cython.Py_ssize_t
        for i in range(self.nw):
            x = self.key[i]
            if not cython.compiled:
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
    def _slot(self) -> cython.Py_ssize_t:
        """The table slot of the current key: its node, or the empty slot where it goes."""
        return _probe(self.table, self.keys, self.key, self.nw, self._hash())

    @cython.cfunc
    @cython.exceptval(check=False)
    def _rehash(self, table: cython.longlong[::1], keys: cython.longlong[:, ::1],
                count: cython.Py_ssize_t) -> cython.void:
        """Put the first ``count`` keys of ``keys`` into the empty ``table`` (after it doubled)."""
        node: cython.Py_ssize_t
        i: cython.Py_ssize_t
        for node in range(count):
            for i in range(self.nw):
                self.key[i] = keys[node, i]
            table[_probe(table, keys, self.key, self.nw, self._hash())] = node

    def _grow(self) -> None:
        """Double the table (rehashing every node) before it is half full."""
        old = self.count
        cap = 2 * self.np_table.shape[0]
        self.np_table = np.full(cap, -1, np.int64)
        self.np_keys = _grown(self.np_keys, cap // 2 + 1, old)
        self.np_lows = _grown(self.np_lows, cap // 2 + 1, old)
        self.np_highs = _grown(self.np_highs, cap // 2 + 1, old)
        self.np_bests = _grown(self.np_bests, cap // 2 + 1, old)
        self._views()
        self._rehash(self.table, self.keys, old)

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _store(self, slot: cython.Py_ssize_t, node: cython.Py_ssize_t, low: cython.longlong,
               high: cython.longlong, best: cython.longlong) -> cython.Py_ssize_t:
        """Keep a node's bounds (a new node at ``slot`` when ``node`` < 0); its best move when known."""
        i: cython.Py_ssize_t
        if node < 0:
            if self.count >= self.max_states:
                self.why = STATE_LIMIT
                raise Stopped("state limit")
            node = self.count
            self.count += 1
            for i in range(self.nw):
                self.keys[node, i] = self.key[i]
            self.table[slot] = node
            self.bests[node] = -1
        self.lows[node] = low
        self.highs[node] = high
        if best >= 0:
            self.bests[node] = best
        if 2 * (self.count + 1) >= self.table.shape[0]:
            self._grow()
        return node

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _tick(self) -> cython.int:
        self.visits += 1
        if self.visits % CHECK_EVERY == 0:
            if self.on_tick is not None:
                self.on_tick(self.count)
            if self.stop_at >= 0 and time.perf_counter() >= self.stop_at:
                self.why = TIME_LIMIT
                raise Stopped("time limit")
        return 0

    # -- the floor -------------------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(check=False)
    def _dead(self, d: cython.Py_ssize_t) -> cython.bint:
        """The floor of the ``play`` node at level ``d``: no set of goal rows ``G`` is still possible.
        ``G`` is ruled out when (a) its turn bound (the goal's cards of each weather missing from the whole
        table, half its missing length, 1) exceeds the cards left in hand and pile, or (b) some weather's
        goal cards cannot all reach ``G``'s rows: those in ``G``'s rows, hand and pile count, those of other
        rows only through a Fog, Storm or Cloud still to play, one card an action (docs/design.md section
        8). The checker re-derives the same floor from the rules engine's rows in plain Python."""
        return self._ruled_out(self.cur[d], d, self.cur[d, 2 * self.rows * (self.maxl + 1)] + self.cnt[d, 6])

    @cython.cfunc
    @cython.exceptval(check=False)
    def _ruled_out(self, a: cython.longlong[::1], d: cython.Py_ssize_t, left: cython.longlong) -> cython.bint:
        """:meth:`_dead`'s test of the table and hand in ``a`` with the pile of level ``d`` (none when ``d``
        is -1) and ``left`` turns to play: every set of goal rows needs more turns, or more cards of some
        weather, than the table, the hand, the pile and ``left`` turns can give. With no pile, that the hand
        alone cannot win within ``left`` plays (:meth:`_hand_plan`'s filter)."""
        maxl: cython.Py_ssize_t = self.maxl
        table_w: cython.longlong[::1] = self.scratch[0]
        need: cython.longlong[::1] = self.scratch[1]
        avail: cython.longlong[::1] = self.scratch[2]
        in_g: cython.longlong[::1] = self.scratch[3]
        r: cython.Py_ssize_t
        side: cython.Py_ssize_t
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        w: cython.Py_ssize_t
        x: cython.Py_ssize_t
        base: cython.Py_ssize_t
        hb: cython.Py_ssize_t = 2 * self.rows * (maxl + 1)
        for w in range(6):
            table_w[w] = 0
            avail[w] = self.cnt[d, w] if d >= 0 else 0
        for r in range(self.rows):
            for side in range(2):
                base = (r * 2 + side) * (maxl + 1)
                for x in range(a[base]):
                    table_w[a[base + 1 + x]] += 1
        for x in range(a[hb]):
            avail[a[hb + 1 + x]] += 1
        movers: cython.longlong = avail[0] + avail[1] + avail[4]  # cloud, fog, storm (letters C F R S T W)
        supply: cython.longlong
        short: cython.longlong
        deficit: cython.longlong
        total: cython.longlong
        fits: cython.bint
        for i in range(self.combos.shape[0]):
            for w in range(6):
                need[w] = 0
                in_g[w] = 0
            short = 0
            for j in range(self.combos.shape[1]):
                r = self.combos[i, j]
                for side in range(2):
                    base = (r * 2 + side) * (maxl + 1)
                    for w in range(6):
                        need[w] += self.needs[r, side, w]
                    short += max(0, self.goal_len[r, side] - a[base])
                    for x in range(a[base]):
                        in_g[a[base + 1 + x]] += 1
            supply = 0
            for w in range(6):
                supply += max(0, need[w] - table_w[w])
            if max(supply, (short + 1) // 2, 1) > left:
                continue
            fits = True
            total = 0
            for w in range(6):
                deficit = max(0, need[w] - in_g[w] - avail[w])
                if deficit > table_w[w] - in_g[w]:
                    fits = False
                total += deficit
            if fits and total <= movers:
                return False
        return True

    def dead(self, start: object, counts: object) -> bool:
        """:meth:`_dead` of a ``play`` state (its kernel vector, hand set, and its pile's six counts), for the
        table writer and the tests."""
        level: cython.Py_ssize_t = MAX_DEPTH - 2
        self._place(start, counts, level)
        return bool(self._dead(level))

    @cython.cfunc
    @cython.exceptval(check=False)
    def _progress(self, a: cython.longlong[::1]) -> cython.longlong:
        """The policy's tie-break for the table in ``a`` (smaller is better, below 4096): over the sets of
        goal rows, the most goal cards in place -- cards of a weather the goal half needs (up to its count)
        among the goal's length nearest the tornado -- and then the fewest cards beyond that length."""
        maxl: cython.Py_ssize_t = self.maxl
        need: cython.longlong[::1] = self.scratch[1]
        best: cython.longlong = 1 << 20
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        r: cython.Py_ssize_t
        side: cython.Py_ssize_t
        x: cython.Py_ssize_t
        w: cython.Py_ssize_t
        base: cython.Py_ssize_t
        placed: cython.longlong
        over: cython.longlong
        length: cython.longlong
        key: cython.longlong
        for i in range(self.combos.shape[0]):
            placed = 0
            over = 0
            for j in range(self.combos.shape[1]):
                r = self.combos[i, j]
                for side in range(2):
                    base = (r * 2 + side) * (maxl + 1)
                    for w in range(6):
                        need[w] = self.needs[r, side, w]
                    length = a[base]
                    for x in range(min(length, self.goal_len[r, side])):
                        w = a[base + 1 + x]
                        if need[w] > 0:
                            need[w] -= 1
                            placed += 1
                    over += max(0, length - self.goal_len[r, side])
            key = (63 - min(placed, 63)) * 64 + min(over, 63)
            if key < best:
                best = key
        return best if best < (1 << 20) else 4095

    @cython.cfunc
    @cython.exceptval(check=False)
    def _shaped(self, a: cython.longlong[::1]) -> cython.longlong:
        """The guided policy's tie-break for the table and hand in ``a`` (smaller is better, below 4096):
        over the sets of goal rows, the least work left -- the goal's places not yet holding their card
        plus the wrong cards lying within the goal's length (each must still leave) -- less the cards of
        the hand that the goal still misses (kept for later, they save draws), then the fewest cards
        beyond the goal's length. Places are read as the goal does: a sequence card by card, a count
        goal by weather within its window."""
        maxl: cython.Py_ssize_t = self.maxl
        need: cython.longlong[::1] = self.scratch[1]
        miss: cython.longlong[::1] = self.scratch[4]
        hb: cython.Py_ssize_t = 2 * self.rows * (maxl + 1)
        best: cython.longlong = 1 << 20
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        r: cython.Py_ssize_t
        side: cython.Py_ssize_t
        x: cython.Py_ssize_t
        w: cython.Py_ssize_t
        base: cython.Py_ssize_t
        length: cython.longlong
        glen: cython.longlong
        placed: cython.longlong
        work: cython.longlong
        over: cython.longlong
        useful: cython.longlong
        key: cython.longlong
        for i in range(self.combos.shape[0]):
            work = 0
            over = 0
            for w in range(6):
                miss[w] = 0
            for j in range(self.combos.shape[1]):
                r = self.combos[i, j]
                for side in range(2):
                    base = (r * 2 + side) * (maxl + 1)
                    length = a[base]
                    glen = self.goal_len[r, side]
                    placed = 0
                    if self.kind[r, side] == 1:  # a sequence: place by place
                        for x in range(glen):
                            w = self.seq[r, side, x]
                            if x < length and (w < 0 or a[base + 1 + x] == w):
                                placed += 1
                            elif w >= 0:
                                miss[w] += 1
                    else:  # counts within the window
                        for w in range(6):
                            need[w] = self.needs[r, side, w]
                        for x in range(min(length, glen)):
                            w = a[base + 1 + x]
                            if need[w] > 0:
                                need[w] -= 1
                                placed += 1
                        for w in range(6):
                            miss[w] += need[w]
                    work += (glen - placed) + (min(length, glen) - placed)
                    over += max(0, length - glen)
            useful = 0
            for x in range(a[hb]):
                w = a[hb + 1 + x]
                if miss[w] > 0:
                    miss[w] -= 1
                    useful += 1
            key = min(max(work - useful + 16, 0), 63) * 64 + min(over, 63)
            if key < best:
                best = key
        return best if best < (1 << 20) else 4095

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _guide(self, a: cython.longlong[::1], cap: cython.longlong) -> cython.longlong:
        """The guided policy's guide for the table in ``a``: each goal row's relaxed distance from the
        table's image to a goal (``relaxation.GoalDistance``; 0 where the table does not fit the
        relaxation, the cap + 1 over the limit), combined over the sets of goal rows as the relaxation
        bound combines them, the least set -- exact when it is at most ``cap``, else some value above
        ``cap`` (each row's search then stops at ``cap``: the policy asks only whether a move beats the
        best so far). Exact distances are remembered by image; an image not known is searched by the Python
        side (``set_guide``'s ``fill``). The image is coded as ``relaxation.image`` codes it (as
        ``search_kernel.relaxed_rest`` does too, which is not callable at C level from here);
        ``tests/models/strato/test_odds_kernel.py`` holds the distances to ``GoalDistance``'s."""
        maxl: cython.Py_ssize_t = self.maxl
        i: cython.Py_ssize_t
        x: cython.Py_ssize_t
        r: cython.Py_ssize_t
        side: cython.Py_ssize_t
        g: cython.Py_ssize_t
        m: cython.Py_ssize_t
        base: cython.Py_ssize_t
        n: cython.Py_ssize_t
        code: cython.longlong
        value: cython.longlong
        c: cython.longlong
        ends: cython.longlong[::1] = self.scratch[3]
        empty: cython.longlong
        power: cython.longlong
        known: cython.longlong
        ok: cython.bint
        over: cython.bint
        for i in range(self.g_n):
            g = self.g_row[i]
            code = 0
            ok = True
            over = False
            for side in range(2):
                base = (g * 2 + side) * (maxl + 1)
                n = a[base]
                if n > self.g_limit[i]:
                    over = True
                    continue
                value = 0
                for x in range(n - 1, -1, -1):
                    c = self.g_index[i, a[base + 1 + x]]
                    if c < 0:
                        ok = False
                    value = value * self.g_k[i] + c
                code = code * self.g_half[i] + self.g_offsets[i, n] + value
            if over:
                self.g_dist[i] = self.g_cap + 1
                continue
            if self.g_ends[i] > 0:  # the other rows' outer ends, as relaxation.image codes them
                empty = self.g_k[i] if self.g_base[i] == self.g_k[i] + 1 else self.g_k[i] - 1
                m = 0
                for r in range(self.rows):
                    if r == g:
                        continue
                    for side in range(2):
                        base = (r * 2 + side) * (maxl + 1)
                        n = a[base]
                        c = self.g_index[i, a[base + n]] if n > 0 else empty
                        if c < 0:
                            ok = False
                        if m < 8:
                            ends[m] = c
                        m += 1
                if m != self.g_ends[i] or m > 8:
                    raise ValueError("the guide's relaxation tracks another number of ends")
                if m == 2 and ends[1] < ends[0]:  # one other row: its two ends in the canonical order
                    ends[0], ends[1] = ends[1], ends[0]
                value = 0
                power = 1
                for x in range(m - 1, -1, -1):
                    value = value * self.g_base[i] + ends[x]
                    power *= self.g_base[i]
                code = code * power + value
            if not ok or code < 0 or code >= self.g_size[i]:  # not classified, or no room: nothing known
                self.g_dist[i] = 0
                continue
            # remembered: d >= 0 the distance (or the far value), -1 nothing, -2 - d: more than d
            known = self.g_memo[self.g_start[i] + code]
            if known <= -2 and -2 - known >= cap:
                known = -1 - known  # more than cap: all the policy asks
            elif known < 0:
                c = min(cap, self.g_cap)
                known = int(self.g_fill(i, code, c, self.stop_at))
                if known < 0:  # the relaxed search passed the clock
                    self.why = TIME_LIMIT
                    raise Stopped("time limit")
                if known <= c or c >= self.g_cap:  # exact (or the far value)
                    self.g_memo[self.g_start[i] + code] = known
                else:
                    self.g_memo[self.g_start[i] + code] = -2 - c
            self.g_dist[i] = known
        best: cython.longlong = -1
        total: cython.longlong
        ci: cython.Py_ssize_t
        j: cython.Py_ssize_t
        for ci in range(self.g_combos.shape[0]):
            total = 0
            for j in range(self.g_combos.shape[1]):
                i = self.g_combos[ci, j]
                total = max(total, self.g_dist[i]) if self.g_max else total + self.g_dist[i]
            if best < 0 or total < best:
                best = total
        return max(best, 0)

    @cython.cfunc
    @cython.exceptval(check=False)
    def _redraw_end(self, d: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The policies' Redraw end at level ``d`` (-1 with the pile empty): the end of a goal row's
        half-row with the most of the goal's length missing (ties: the first end)."""
        if self.cnt[d, 6] == 0:
            return -1
        best: cython.Py_ssize_t = 0
        most: cython.longlong = -(1 << 20)
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        side: cython.Py_ssize_t
        r: cython.Py_ssize_t
        gap: cython.longlong
        for i in range(self.combos.shape[0]):
            for j in range(self.combos.shape[1]):
                r = self.combos[i, j]
                for side in range(2):
                    gap = self.goal_len[r, side] - self.cur[d, (r * 2 + side) * (self.maxl + 1)]
                    if gap > most or (gap == most and 2 * r + side < best):
                        most = gap
                        best = 2 * r + side
        return best

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _order(self, D: cython.Py_ssize_t, n: cython.Py_ssize_t, r: cython.longlong,
               side: cython.longlong) -> cython.Py_ssize_t:
        """Level ``D``'s moves (those at row ``r``, side ``side`` when ``r`` >= 0) in ``order[D]``. The
        optimum's search keeps the rules' order (ordering by the turns a move leaves was measured and kept
        more states: docs/design.md); a policy sorts by its key, stably (ties in the rules' order), the
        moves over the limit last: the cheap policy's A* bound, then the goal's cards in place; the guided
        policy's A* bound, then :meth:`_guided` puts its move first. Returns how many."""
        m: cython.Py_ssize_t = 0
        i: cython.Py_ssize_t
        z: cython.Py_ssize_t
        k: cython.longlong
        for i in range(n):
            if r >= 0 and (self.moves[D, i, 1] != r or self.moves[D, i, 2] != side):
                continue
            if not self.policy:
                k = 0
            elif self._over(D, i):
                k = 1 << 40
            elif self.policy == GUIDED:  # the A* bound first: _guided puts the policy's move first
                k = sk.lower_bound(self.np_states[D, i], self.spec, self.np_scratch4)
            else:  # the cheap policy: the A* bound (a Python call), then progress
                k = (sk.lower_bound(self.np_states[D, i], self.spec, self.np_scratch4) << 12) + self._progress(
                    self.states[D, i])
            z = m - 1
            while z >= 0 and self.okey[D, z] > k:  # insertion: stable, so ties keep the rules' order
                self.okey[D, z + 1] = self.okey[D, z]
                self.order[D, z + 1] = self.order[D, z]
                z -= 1
            self.okey[D, z + 1] = k
            self.order[D, z + 1] = i
            m += 1
        if self.policy == GUIDED and m > 0:
            self._guided(D, m)
        return m

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _guided(self, D: cython.Py_ssize_t, m: cython.Py_ssize_t) -> cython.int:
        """The guided policy's move first in ``order[D]`` (its key in ``okey[D, 0]``): the least key
        ``(max(guide, A* bound), work left, index)`` over the ``m`` moves there, ordered by the A* bound
        (over the limit: 2^40). A move whose bound exceeds the best key's first part cannot win, and a
        move's guide is asked only up to that part: the same move as the full keys give, for far fewer
        relaxed searches."""
        best_p: cython.longlong = 1 << 40
        best_s: cython.longlong = 0
        best_j: cython.Py_ssize_t = 0
        j: cython.Py_ssize_t
        i: cython.Py_ssize_t
        b: cython.longlong
        p: cython.longlong
        w: cython.longlong
        for j in range(m):
            b = self.okey[D, j]
            if b >= (1 << 40) or b > best_p:
                break  # the rest are over the limit or bounded above the best
            i = self.order[D, j]
            p = max(self._guide(self.states[D, i], min(best_p, self.g_cap)), b)
            if p > best_p:
                continue
            w = self._shaped(self.states[D, i])
            if p < best_p or w < best_s or (w == best_s and i < self.order[D, best_j]):
                best_p = p
                best_s = w
                best_j = j
        if best_p >= (1 << 40):  # every move over the limit: the first of them
            return 0
        i = self.order[D, best_j]
        for j in range(best_j, 0, -1):
            self.order[D, j] = self.order[D, j - 1]
            self.okey[D, j] = self.okey[D, j - 1]
        self.order[D, 0] = i
        self.okey[D, 0] = (best_p << 12) + best_s
        return 0

    # -- the search ------------------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(check=False)
    def _over(self, D: cython.Py_ssize_t, i: cython.Py_ssize_t) -> cython.bint:
        x: cython.Py_ssize_t
        for x in range(2 * self.rows):  # noqa: SIM110 (a compiled loop)
            if self.states[D, i, x * (self.maxl + 1)] > self.limit:
                return True
        return False

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _settle(self, d: cython.Py_ssize_t, D: cython.Py_ssize_t, i: cython.Py_ssize_t, redraw: cython.bint,
                alpha: cython.longlong, beta: cython.longlong) -> cython.longlong:
        """The value of move ``i`` of level ``D``'s buffer, made from the node at level ``d`` (whose
        pile it keeps): lost over the limit, won on the goal, else the draws and the next turn."""
        k: cython.longlong = self._made(d, D, i, redraw)
        if k == _LOST:
            return 0
        if k == _WON:
            return self._weight(d)
        if k == 0:
            return self._play(d + 1, D + 1, alpha, beta)
        return self._draw(d + 1, D + 1, k, alpha, beta)

    @cython.cfunc
    @cython.exceptval(check=False)
    def _made(self, d: cython.Py_ssize_t, D: cython.Py_ssize_t, i: cython.Py_ssize_t,
              redraw: cython.bint) -> cython.longlong:
        """Move ``i`` of level ``D``'s buffer, made from the node at level ``d``: :data:`_LOST` over the limit
        or with no card in hand and none to draw, :data:`_WON` on the goal, else the cards the turn draws
        (0: the next turn at once), its state put at level ``d + 1``."""
        if self._over(D, i):
            return _LOST
        if self.states[D, i, self.tail + 3] == 1:
            return _WON
        x: cython.Py_ssize_t
        for x in range(self.size):
            self.cur[d + 1, x] = self.states[D, i, x]
        self.cur[d + 1, self.tail + 3] = 0
        for x in range(7):
            self.cnt[d + 1, x] = self.cnt[d, x]
        k: cython.longlong = min(3 if redraw else 1, self.cnt[d, 6])
        if k == 0 and self.cur[d + 1, 2 * self.rows * (self.maxl + 1)] == 0:
            return _LOST
        return k

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _taken(self, d: cython.Py_ssize_t, w: cython.Py_ssize_t) -> cython.void:
        """Level ``d + 1``: the node at level ``d`` with a card ``w`` taken from the pile (a Redraw's card
        turned up; :meth:`_drawn` then puts it in the hand)."""
        x: cython.Py_ssize_t
        for x in range(self.size):
            self.cur[d + 1, x] = self.cur[d, x]
        for x in range(7):
            self.cnt[d + 1, x] = self.cnt[d, x]
        self.cnt[d + 1, w] -= 1
        self.cnt[d + 1, 6] -= 1

    @cython.cfunc
    @cython.exceptval(check=False)
    def _drawn(self, d: cython.Py_ssize_t, w: cython.Py_ssize_t) -> cython.void:
        """Level ``d + 1``: the node at level ``d`` with a card ``w`` drawn from the pile into the sorted hand."""
        hb: cython.Py_ssize_t = 2 * self.rows * (self.maxl + 1)
        self._taken(d, w)
        hn: cython.Py_ssize_t = self.cur[d, hb]
        z: cython.Py_ssize_t = hn - 1
        while z >= 0 and self.cur[d + 1, hb + 1 + z] > w:  # insert w into the sorted hand
            self.cur[d + 1, hb + 2 + z] = self.cur[d + 1, hb + 1 + z]
            z -= 1
        self.cur[d + 1, hb + 2 + z] = w
        self.cur[d + 1, hb] = hn + 1

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _draw(self, d: cython.Py_ssize_t, D: cython.Py_ssize_t, k: cython.longlong, alpha: cython.longlong,
              beta: cython.longlong) -> cython.longlong:
        """Chance: the next of ``k`` cards drawn into the hand (Star1 windows over the outcomes)."""
        done: cython.longlong = 0
        rest: cython.longlong = self._weight(d)
        w: cython.Py_ssize_t
        top: cython.longlong
        a_i: cython.longlong
        b_i: cython.longlong
        v: cython.longlong
        for w in range(NW):
            if self.cnt[d, w] == 0:
                continue
            self._drawn(d, w)
            top = self._weight(d + 1)
            rest -= top
            a_i = alpha - done - rest
            b_i = beta - done
            if k > 1:
                v = self._draw(d + 1, D, k - 1, max(a_i, -1), min(b_i, top + 1))
            else:
                v = self._play(d + 1, D, max(a_i, -1), min(b_i, top + 1))
            if v <= a_i:
                return done + v + rest
            if v >= b_i:
                return done + v
            done += v
        return done

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _lookup(self, d: cython.Py_ssize_t, kind: cython.longlong, w: cython.longlong,
                e: cython.longlong) -> cython.Py_ssize_t:
        """Find the node's bounds (``bnd[d, 0..1]``, the trivial ones for a new node); its slot in
        ``bnd[d, 2]``; its node (or -1) returned."""
        bounds: cython.longlong[::1] = self.bnd[d]
        self._make_key(d, kind, w, e)
        slot: cython.Py_ssize_t = self._slot()
        node: cython.Py_ssize_t = self.table[slot]
        bounds[2] = slot
        if node >= 0:
            bounds[0] = self.lows[node]
            bounds[1] = self.highs[node]
        else:
            bounds[0] = 0
            bounds[1] = self._weight(d)
        return node

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _finish(self, d: cython.Py_ssize_t, kind: cython.longlong, w: cython.longlong, e: cython.longlong,
                v: cython.longlong, alpha: cython.longlong, beta: cython.longlong, low: cython.longlong,
                high: cython.longlong, best: cython.longlong) -> cython.longlong:
        """Store what the search of the node learned (the table may have grown meanwhile: look again)."""
        if v <= alpha:
            high = min(high, v)
        elif v >= beta:
            low = max(low, v)
        else:
            low = v
            high = v
        self._make_key(d, kind, w, e)
        slot: cython.Py_ssize_t = self._slot()
        self._store(slot, self.table[slot], low, high, best if v > alpha and v >= low else -1)
        return v

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _play(self, d: cython.Py_ssize_t, D: cython.Py_ssize_t, alpha: cython.longlong,
              beta: cython.longlong) -> cython.longlong:
        """A decision at the start of a turn: every play from hand, then every Redraw end."""
        node: cython.Py_ssize_t = self._lookup(d, PLAY_KIND, -1, -1)
        low: cython.longlong = self.bnd[d, 0]
        high: cython.longlong = self.bnd[d, 1]
        if node >= 0:
            if low == high or low >= beta:
                return low
            if high <= alpha:
                return high
            alpha = max(alpha, low)
            beta = min(beta, high)
        self._tick()
        top: cython.longlong = self._weight(d)
        cut: cython.bint = self.policy != 0 and top < self.cutoff
        if not cut and self._dead(d):
            self._make_key(d, PLAY_KIND, -1, -1)
            self._store(self._slot(), self.table[self._slot()], 0, 0, -1)
            return 0
        if D >= MAX_DECISIONS - 1 or d >= MAX_DEPTH - 8:
            raise ValueError("hidden-pile search deeper than its buffers")
        n: cython.Py_ssize_t = sk.plays(self.np_cur[d], self.spec, self.np_after, self.np_states[D],
                                        self.np_moves[D], True)
        self.generated += n
        i: cython.Py_ssize_t
        for i in range(n):
            if self.states[D, i, self.tail + 3] == 1 and not self._over(D, i):
                return self._finish(d, PLAY_KIND, -1, -1, top, alpha, beta, low, high, i)
        plays: cython.longlong = min(self.plan_depth, self.cur[d, 2 * self.rows * (self.maxl + 1)])
        if plays > 1 and not self._ruled_out(self.cur[d], -1, plays) and (
                self.g_n == 0 or self._guide(self.cur[d], plays) <= plays):
            i = self._hand_plan(d, D, n, plays)
            if i >= 0:  # the hand alone wins, whatever is drawn: worth M, nothing below it searched
                return self._finish(d, PLAY_KIND, -1, -1, top, alpha, beta, low, high, PLAN_MOVE + i)
        if cut:
            return 0  # the policy's evaluation stops here (no move wins at once, no plan): lost, nothing kept
        best: cython.longlong = -1
        best_move: cython.longlong = -1
        a: cython.longlong = alpha
        v: cython.longlong
        m: cython.Py_ssize_t = self._order(D, n, -1, -1)
        j: cython.Py_ssize_t
        e: cython.Py_ssize_t
        k: cython.longlong
        if self.policy and self.width > 1:  # the policy's best of its first moves and its Redraw end
            e = self._redraw_end(d)
            for j in range(min(m, self.width - (1 if e >= 0 else 0))):
                i = self.order[D, j]
                v = self._settle(d, D, i, False, a, beta)
                if v > best:
                    best = v
                    best_move = i
                    if v >= beta or v >= top:
                        return self._finish(d, PLAY_KIND, -1, -1, best, alpha, beta, low, high, best_move)
                    a = max(a, v)
            if e >= 0:
                v = self._reveal(d, D, e, a, beta)
                if v > best:
                    best = v
                    best_move = REDRAW_MOVE + e
            return self._finish(d, PLAY_KIND, -1, -1, max(best, 0), alpha, beta, low, high, best_move)
        if self.policy:  # the policy's one move: the best play, unless it needs more turns than now
            e = self._redraw_end(d)
            k = sk.lower_bound(self.np_cur[d], self.spec, self.np_scratch4)
            if self.policy == GUIDED:
                k = max(k, self._guide(self.cur[d], self.g_cap))
            if m > 0 and (e < 0 or (self.okey[D, 0] >> 12) <= k):
                i = self.order[D, 0]
                v = self._settle(d, D, i, False, alpha, beta)
                return self._finish(d, PLAY_KIND, -1, -1, v, alpha, beta, low, high, i)
            if e < 0:
                return self._finish(d, PLAY_KIND, -1, -1, 0, alpha, beta, low, high, -1)
            v = self._reveal(d, D, e, alpha, beta)
            return self._finish(d, PLAY_KIND, -1, -1, v, alpha, beta, low, high, REDRAW_MOVE + e)
        for j in range(m):
            i = self.order[D, j]
            v = self._settle(d, D, i, False, a, beta)
            if v > best:
                best = v
                best_move = i
                if v >= beta or v >= top:  # above the window, or won with certainty: no move does better
                    return self._finish(d, PLAY_KIND, -1, -1, best, alpha, beta, low, high, best_move)
                a = max(a, v)
        if self.cnt[d, 6] > 0:
            for e in range(2 * self.rows):
                v = self._reveal(d, D, e, a, beta)
                if v > best:
                    best = v
                    best_move = REDRAW_MOVE + e
                    if v >= beta or v >= top:
                        break
                    a = max(a, v)
        return self._finish(d, PLAY_KIND, -1, -1, best, alpha, beta, low, high, best_move)

    @cython.cfunc
    @cython.exceptval(-2, check=True)
    def _hand_plan(self, d: cython.Py_ssize_t, D: cython.Py_ssize_t, n: cython.Py_ssize_t,
                   depth: cython.longlong) -> cython.Py_ssize_t:
        """The first move of a **plan** of at most ``depth`` plays from the hand alone that wins whatever
        the draws between them bring, among the ``n`` moves of level ``D``'s buffer (made from the ``play``
        node at level ``d``), or -1. Why a plan wins every order of the pile: a draw only adds a card to
        the hand and takes it from the pile, so the table, the last weather and the plan's cards are the
        same after every draw, and an empty pile with an empty hand loses only once the plan's cards are
        all played -- a plan that wins the pile-less game wins the real one. The search is depth-first over
        the pile-less view (:meth:`_plan_here`), each move's plan looked for only when the hand left could
        still win (:meth:`_ruled_out` with no pile, and the guided policy's relaxed distance, which no play
        of the real game beats), and remembered by state and depth (``pc_keys``)."""
        hb: cython.Py_ssize_t = 2 * self.rows * (self.maxl + 1)
        i: cython.Py_ssize_t
        x: cython.Py_ssize_t
        for i in range(n):
            if self.states[D, i, self.tail + 3] == 1 and not self._over(D, i):
                return i
        if depth <= 1 or D + depth >= MAX_DECISIONS - 1 or d + depth >= MAX_DEPTH - 8:
            return -1
        for i in range(n):
            if self._over(D, i) or self.states[D, i, hb] == 0:
                continue
            for x in range(self.size):
                self.cur[d + 1, x] = self.states[D, i, x]
            self.cur[d + 1, self.tail + 3] = 0
            for x in range(7):
                self.cnt[d + 1, x] = 0
            if self._plan_here(d + 1, D + 1, min(depth - 1, self.states[D, i, hb])) >= 0:
                return i
        return -1

    @cython.cfunc
    @cython.exceptval(-2, check=True)
    def _plan_here(self, d: cython.Py_ssize_t, D: cython.Py_ssize_t, depth: cython.longlong) -> cython.Py_ssize_t:
        """:meth:`_hand_plan` of the pile-less ``play`` state at level ``d`` (its pile counts zero), its moves
        made into level ``D``; remembered in a cache of the last states met (a slot per key hash, the whole
        key compared, so a hit is always the state's own answer)."""
        found: cython.Py_ssize_t = -1
        n: cython.Py_ssize_t
        x: cython.Py_ssize_t
        slot: cython.Py_ssize_t = self._plan_slot(d, depth)
        hit: cython.bint = self.pc_vals[slot] != 0
        for x in range(self.nw):
            if self.pc_keys[slot, x] != self.key[x]:
                hit = False
        if hit:
            return self.pc_vals[slot] - 2
        if not (self._ruled_out(self.cur[d], -1, depth)
                or (self.g_n > 0 and self._guide(self.cur[d], depth) > depth)):
            n = sk.plays(self.np_cur[d], self.spec, self.np_after, self.np_states[D], self.np_moves[D], True)
            self.generated += n
            found = self._hand_plan(d, D, n, depth)
        slot = self._plan_slot(d, depth)  # the search above reused the key, and may have grown the cache
        if self.pc_vals[slot] == 0:
            self.pc_filled += 1
            if 2 * self.pc_filled > self.pc_vals.shape[0] and self.pc_vals.shape[0] < PLAN_SLOTS:
                self._plan_cache(min(4 * self.pc_vals.shape[0], PLAN_SLOTS))  # emptied: each answer is found again
                slot = self._plan_slot(d, depth)
                self.pc_filled = 1
        for x in range(self.nw):
            self.pc_keys[slot, x] = self.key[x]
        self.pc_vals[slot] = found + 2  # 0: an empty slot
        return found

    @cython.cfunc
    @cython.exceptval(check=False)
    def _plan_slot(self, d: cython.Py_ssize_t, depth: cython.longlong) -> cython.Py_ssize_t:
        """The plan cache's slot of the pile-less state at level ``d`` and ``depth`` (its key made in ``key``)."""
        self._make_key(d, PLAN_KIND, -1, depth)
        return self._hash() & (self.pc_vals.shape[0] - 1)

    def _plan_cache(self, slots: int) -> None:
        """An empty plan cache of ``slots`` slots (a power of 2)."""
        self.pc_keys = np.zeros((slots, self.nw), np.int64)
        self.pc_vals = np.zeros(slots, np.int64)
        self.pc_filled = 0

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _reveal(self, d: cython.Py_ssize_t, D: cython.Py_ssize_t, e: cython.Py_ssize_t, alpha: cython.longlong,
                beta: cython.longlong) -> cython.longlong:
        """Chance: a Redraw announced at end ``e`` (row ``e // 2``, side ``e % 2``) of the node at level
        ``d``; the hand is discarded and the pile's top card turns up."""
        x: cython.Py_ssize_t
        hb: cython.Py_ssize_t = 2 * self.rows * (self.maxl + 1)
        for x in range(self.size):
            self.cur[d + 1, x] = self.cur[d, x]
        for x in range(4):
            self.cur[d + 1, hb + x] = 0
        for x in range(7):
            self.cnt[d + 1, x] = self.cnt[d, x]
        d = d + 1  # the reveal node lives at its own level (its hand empty)
        node: cython.Py_ssize_t = self._lookup(d, REVEAL_KIND, -1, e)
        low: cython.longlong = self.bnd[d, 0]
        high: cython.longlong = self.bnd[d, 1]
        if node >= 0:
            if low == high or low >= beta:
                return low
            if high <= alpha:
                return high
            alpha = max(alpha, low)
            beta = min(beta, high)
        self._tick()
        done: cython.longlong = 0
        rest: cython.longlong = self._weight(d)
        w: cython.Py_ssize_t
        top: cython.longlong
        a_i: cython.longlong
        b_i: cython.longlong
        v: cython.longlong
        result: cython.longlong = -1
        for w in range(NW):
            if self.cnt[d, w] == 0:
                continue
            self._taken(d, w)
            top = self._weight(d + 1)
            rest -= top
            a_i = alpha - done - rest
            b_i = beta - done
            v = self._target(d + 1, D, w, e, max(a_i, -1), min(b_i, top + 1))
            if v <= a_i:
                result = done + v + rest
                break
            if v >= b_i:
                result = done + v
                break
            done += v
        if result < 0:
            result = done
        return self._finish(d, REVEAL_KIND, -1, e, result, alpha, beta, low, high, -1)

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _target(self, d: cython.Py_ssize_t, D: cython.Py_ssize_t, w: cython.Py_ssize_t, e: cython.Py_ssize_t,
                alpha: cython.longlong, beta: cython.longlong) -> cython.longlong:
        """A decision: the target of card ``w``, revealed for end ``e``, at the node at level ``d`` (the
        card out of the pile, the hand empty)."""
        node: cython.Py_ssize_t = self._lookup(d, TARGET_KIND, w, e)
        low: cython.longlong = self.bnd[d, 0]
        high: cython.longlong = self.bnd[d, 1]
        if node >= 0:
            if low == high or low >= beta:
                return low
            if high <= alpha:
                return high
            alpha = max(alpha, low)
            beta = min(beta, high)
        self._tick()
        if D >= MAX_DECISIONS - 1 or d >= MAX_DEPTH - 8:
            raise ValueError("hidden-pile search deeper than its buffers")
        hb: cython.Py_ssize_t = 2 * self.rows * (self.maxl + 1)
        self.cur[d, hb] = 1
        self.cur[d, hb + 1] = w
        n: cython.Py_ssize_t = sk.plays(self.np_cur[d], self.spec, self.np_after, self.np_states[D],
                                        self.np_moves[D], True)
        self.cur[d, hb] = 0
        self.cur[d, hb + 1] = 0
        self.generated += n
        top: cython.longlong = self._weight(d)
        i: cython.Py_ssize_t
        t: cython.longlong = 0
        r: cython.longlong = e // 2
        side: cython.longlong = e % 2
        for i in range(n):
            if self.moves[D, i, 1] == r and self.moves[D, i, 2] == side:
                if self.states[D, i, self.tail + 3] == 1 and not self._over(D, i):
                    return self._finish(d, TARGET_KIND, w, e, top, alpha, beta, low, high, t)
                t += 1
        best: cython.longlong = -1
        best_move: cython.longlong = -1
        a: cython.longlong = alpha
        v: cython.longlong
        m: cython.Py_ssize_t = self._order(D, n, r, side)
        j: cython.Py_ssize_t
        z: cython.Py_ssize_t
        if self.policy:
            m = min(m, self.width)
        for j in range(m):
            i = self.order[D, j]
            v = self._settle(d, D, i, True, a, beta)
            if v > best:
                best = v
                t = 0  # the move's index among this end's targets, in the rules' order
                for z in range(i):
                    if self.moves[D, z, 1] == r and self.moves[D, z, 2] == side:
                        t += 1
                best_move = t
                if v >= beta or v >= top:
                    break
                a = max(a, v)
        return self._finish(d, TARGET_KIND, w, e, best, alpha, beta, low, high, best_move)

    # -- the value table's walk ------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(check=False)
    def _w_slot(self) -> cython.Py_ssize_t:
        """The walk's slot of the current key: its listed state, or the empty slot where it goes."""
        return _probe(self.w_table, self.w_keys, self.key, self.nw, self._hash())

    def _w_grow(self) -> None:
        """Double the walk's table of listed states (rehashing each)."""
        old = self.w_count
        cap = 2 * self.np_w_table.shape[0]
        self.np_w_table = np.full(cap, -1, np.int64)
        self.np_w_keys = _grown(self.np_w_keys, cap // 2 + 1, old)
        self.np_w_up = _grown(self.np_w_up, cap // 2 + 1, old)
        self.np_w_low = _grown(self.np_w_low, cap // 2 + 1, old)
        self.np_w_kind = _grown(self.np_w_kind, cap // 2 + 1, old)
        self._w_views()
        self._rehash(self.w_table, self.w_keys, old)

    def _w_views(self) -> None:
        self.w_table = self.np_w_table
        self.w_keys = self.np_w_keys
        self.w_up = self.np_w_up
        self.w_low = self.np_w_low
        self.w_kind = self.np_w_kind

    def _w_flush(self) -> None:
        """Hand the rows made so far to the sink; it says whether to stop."""
        if self.w_n > 0:
            n = self.w_n
            self.w_n = 0
            if self.w_sink(self.np_w_rec[:n]):
                raise Stopped("the table's deadline")

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _w_row(self, d: cython.Py_ssize_t, kind: cython.longlong, w: cython.longlong, e: cython.longlong,
               row: cython.longlong, move: cython.longlong, value: cython.longlong, top: cython.longlong,
               end: cython.longlong, up: cython.longlong, lo: cython.longlong, cut: cython.longlong = 0
               ) -> cython.int:
        """List the state at level ``d`` with its ``(U, L)`` and make its row (the move's records, when
        it has any, are already in place in the row buffer; ``cut`` a policy row's cut draws)."""
        self._make_key(d, kind, w, e)
        slot: cython.Py_ssize_t = self._w_slot()
        node: cython.Py_ssize_t = self.w_count
        x: cython.Py_ssize_t
        self.w_count += 1
        for x in range(self.nw):
            self.w_keys[node, x] = self.key[x]
        self.w_table[slot] = node
        self.w_up[node] = up
        self.w_low[node] = lo
        self.w_kind[node] = row
        if 2 * (self.w_count + 1) >= self.w_table.shape[0]:
            self._w_grow()
        r: cython.Py_ssize_t = self.w_n
        self.w_rec[r, REC_KIND] = row
        self.w_rec[r, REC_MOVE] = move
        self.w_rec[r, REC_VALUE] = value
        self.w_rec[r, REC_WEIGHT] = top
        self.w_rec[r, REC_END] = end
        self.w_rec[r, REC_CUT] = cut
        for x in range(self.nw):
            self.w_rec[r, REC_KEY + x] = self.key[x]
        self.w_n += 1
        if self.w_n >= self.w_rec.shape[0]:
            self._w_flush()
        return 0

    @cython.cfunc
    @cython.exceptval(check=False)
    def _w_move(self, D: cython.Py_ssize_t, i: cython.Py_ssize_t, at: cython.Py_ssize_t) -> cython.void:
        """Copy move ``i`` of level ``D``'s buffer into the next row's ``at``-th move record."""
        x: cython.Py_ssize_t
        base: cython.Py_ssize_t = REC_KEY + self.nw + at * sk.MOVE_FIELDS
        for x in range(sk.MOVE_FIELDS):
            self.w_rec[self.w_n, base + x] = self.moves[D, i, x]

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _w_listed(self, d: cython.Py_ssize_t, D: cython.Py_ssize_t, kind: cython.longlong, w: cython.longlong,
                  e: cython.longlong) -> cython.longlong:
        """``U`` of the ``play``, ``reveal`` or ``target`` state at level ``d`` (its ``L`` in ``w_lo``), listing it
        and what it leads to first when it is not listed yet. The rows are the ones :func:`~.valuetable.write_table`'s
        walk by the rules makes, in its order: a floor, else the bounds kept by this search or, where it
        proved nothing above 0, by the first of the policies' searches that did (``w_by``)."""
        self._make_key(d, kind, w, e)
        node: cython.Py_ssize_t = self.w_table[self._w_slot()]
        if node >= 0:
            self.w_lo = self.w_low[node]
            return self.w_up[node]
        top: cython.longlong = self._weight(d)
        hb: cython.Py_ssize_t = 2 * self.rows * (self.maxl + 1)
        if kind == PLAY_KIND and self._dead(d):
            self._w_row(d, kind, w, e, FLOOR_ROW, NO_MOVE, 0, top, -1, 0, 0)
            self.w_lo = 0
            return 0
        if D >= MAX_DECISIONS - 1 or d >= MAX_DEPTH - 8:
            raise ValueError("value table deeper than the walk's buffers")
        source: cython.longlong = self._w_source(kind, top)  # the key made above: the floor does not touch it
        if source == FRONTIER_ROW:
            self._w_row(d, kind, w, e, FRONTIER_ROW, NO_MOVE, 1, 1, -1, top, 0)
            self.w_lo = 0
            return top
        high: cython.longlong = self.w_s_high
        best: cython.longlong = self.w_s_best
        by: HiddenSolo = self.w_s_by
        j: cython.Py_ssize_t
        up: cython.longlong
        lo: cython.longlong
        u: cython.longlong
        n: cython.Py_ssize_t
        i: cython.Py_ssize_t
        c: cython.Py_ssize_t
        t: cython.longlong
        r: cython.longlong = e // 2
        side: cython.longlong = e % 2
        if source == VALUE_ROW:
            if kind == REVEAL_KIND:  # the mean over the cards that can turn up
                up = 0
                lo = 0
                for j in range(NW):
                    c = _rules_card(j)
                    if self.cnt[d, c] == 0:
                        continue
                    self._taken(d, c)
                    up += self._w_listed(d + 1, D, TARGET_KIND, c, e)
                    lo += self.w_lo
            else:  # the largest over every move
                up = -1
                lo = -1
                if kind == TARGET_KIND:
                    self.cur[d, hb] = 1
                    self.cur[d, hb + 1] = w
                n = sk.plays(self.np_cur[d], self.spec, self.np_after, self.np_states[D], self.np_moves[D], True)
                if kind == TARGET_KIND:
                    self.cur[d, hb] = 0
                    self.cur[d, hb + 1] = 0
                for i in range(n):
                    if kind == TARGET_KIND and (self.moves[D, i, 1] != r or self.moves[D, i, 2] != side):
                        continue
                    u = self._w_settle(d, D, i, kind == TARGET_KIND, False)
                    up = max(up, u)
                    lo = max(lo, self.w_lo)
                if kind == PLAY_KIND and self.cnt[d, 6] > 0:
                    for j in range(2 * self.rows):
                        self._w_redraw(d)
                        u = self._w_listed(d + 1, D + 1, REVEAL_KIND, -1, j)
                        up = max(up, u)
                        lo = max(lo, self.w_lo)
            if up > high:
                raise ValueError("a value recomputed above the bound its search kept")
            self._w_row(d, kind, w, e, VALUE_ROW, NO_MOVE, up, top, -1, up, lo)
            self.w_lo = lo
            return up
        if kind == PLAY_KIND and best >= PLAN_MOVE:
            n = self._w_plan(d, D, by)
            self._w_row(d, kind, w, e, POLICY_ROW, PLANNED_MOVES, 1, 1, n, top, top)
            self.w_lo = top
            return top
        if kind == PLAY_KIND and best >= REDRAW_MOVE:
            self._w_redraw(d)
            self._w_listed(d + 1, D + 1, REVEAL_KIND, -1, best - REDRAW_MOVE)
            lo = self.w_lo
            self._w_row(d, kind, w, e, POLICY_ROW, ANNOUNCE_MOVE, lo, top, best - REDRAW_MOVE, top, lo)
            self.w_lo = lo
            return top
        if kind == TARGET_KIND:
            self.cur[d, hb] = 1
            self.cur[d, hb + 1] = w
        n = sk.plays(self.np_cur[d], self.spec, self.np_after, self.np_states[D], self.np_moves[D], True)
        if kind == TARGET_KIND:
            self.cur[d, hb] = 0
            self.cur[d, hb + 1] = 0
            t = -1
            for i in range(n):  # the target is the best-th of this end's
                if self.moves[D, i, 1] == r and self.moves[D, i, 2] == side:
                    t += 1
                    if t == best:
                        break
            if t != best:
                raise ValueError("a kept target that is not among the end's")
        else:
            i = best
            if i >= n:
                raise ValueError("a kept play that is not among the state's")
        outer: cython.longlong = self.w_cut  # the cut draws of the policy row this one is below
        self.w_cut = 0
        self._w_settle(d, D, i, kind == TARGET_KIND, True)
        lo = self.w_lo
        cut: cython.longlong = self.w_cut
        self.w_cut = outer
        self._w_move(D, i, 0)
        self._w_row(d, kind, w, e, POLICY_ROW, TARGET_MOVE if kind == TARGET_KIND else PLAY_MOVE, lo, top, -1,
                    top, lo, cut)
        self.w_lo = lo
        return top

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _w_source(self, kind: cython.longlong, top: cython.longlong) -> cython.longlong:
        """The row the current key (a state that is not a floor, weight ``top``) is listed as:
        :data:`FRONTIER_ROW`, :data:`VALUE_ROW` or :data:`POLICY_ROW`; its upper bound and move in ``w_s_high``
        and ``w_s_best`` (the lower bound only picks the row), the search that kept them in ``w_s_by``: this
        search's, or where it proved nothing above 0, the first of the policies' that did."""
        node: cython.Py_ssize_t = self.table[self._slot()]
        low: cython.longlong = -1
        high: cython.longlong = -1
        best: cython.longlong = -1
        if node >= 0:
            low = self.lows[node]
            high = self.highs[node]
            best = self.bests[node]
        by: HiddenSolo = self
        p: HiddenSolo
        pn: cython.Py_ssize_t
        j: cython.Py_ssize_t
        x: cython.Py_ssize_t
        if low <= 0:
            for j in range(len(self.w_by)):
                p = self.w_by[j]
                for x in range(self.nw):
                    p.key[x] = self.key[x]
                pn = p.table[p._slot()]
                if pn >= 0 and p.lows[pn] > 0 and (p.bests[pn] >= 0 or kind == REVEAL_KIND):
                    if low < 0:
                        high = top
                    low = p.lows[pn]
                    best = p.bests[pn]
                    by = p
                    break
        self.w_s_high = high
        self.w_s_best = best
        self.w_s_by = by
        if low < 0 and by is self:
            return FRONTIER_ROW
        if high < top or (kind == REVEAL_KIND and low > 0) or (low > 0 and best < 0):
            return VALUE_ROW
        if low <= 0:
            return FRONTIER_ROW
        return POLICY_ROW

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _w_cut_here(self, d: cython.Py_ssize_t) -> cython.int:
        """Whether the ``play`` state at level ``d`` is listed, or would be, as a frontier row (a policy row's
        draw that reaches it is then cut)."""
        self._make_key(d, PLAY_KIND, -1, -1)
        node: cython.Py_ssize_t = self.w_table[self._w_slot()]
        if node >= 0:
            return self.w_kind[node] == FRONTIER_ROW
        if self._dead(d):
            return 0
        return self._w_source(PLAY_KIND, self._weight(d)) == FRONTIER_ROW

    @cython.cfunc
    @cython.exceptval(check=False)
    def _w_cut_draw(self, base: cython.Py_ssize_t, d: cython.Py_ssize_t) -> cython.longlong:
        """The cut draw (:data:`CUT_CARDS`) of the cards drawn between the pile at level ``base`` and at ``d``."""
        code: cython.Py_ssize_t = 0
        k: cython.longlong = 0
        scale: cython.Py_ssize_t = 1
        c: cython.Py_ssize_t
        for c in range(NW):
            code += scale * (self.cnt[base, c] - self.cnt[d, c])
            k += self.cnt[base, c] - self.cnt[d, c]
            scale *= 4
        return (k << _CUT_SHIFT) | (cython.cast(cython.longlong, 1) << self.cut_ranks[code])

    @cython.cfunc
    @cython.exceptval(check=False)
    def _w_redraw(self, d: cython.Py_ssize_t) -> cython.void:
        """Level ``d + 1``: the ``play`` state at level ``d`` with its hand discarded (a Redraw announced)."""
        x: cython.Py_ssize_t
        hb: cython.Py_ssize_t = 2 * self.rows * (self.maxl + 1)
        for x in range(self.size):
            self.cur[d + 1, x] = self.cur[d, x]
        for x in range(4):
            self.cur[d + 1, hb + x] = 0
        for x in range(7):
            self.cnt[d + 1, x] = self.cnt[d, x]

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _w_plan(self, d: cython.Py_ssize_t, D: cython.Py_ssize_t, by: HiddenSolo) -> cython.Py_ssize_t:
        """The plan ``by`` plays at the ``play`` state at level ``d``, its moves' records put in the next row:
        each made from the state the ones before it leave, nothing drawn; the last must win. Returns its
        length."""
        found = by.plan(self.np_cur[d], self.w_plays)
        if not found or len(found) > PLAN_RECORDS:
            raise ValueError("a kept plan that the policy's search does not find again")
        x: cython.Py_ssize_t
        k: cython.Py_ssize_t
        i: cython.Py_ssize_t = 0
        for x in range(self.size):
            self.cur[d + 1, x] = self.cur[d, x]
        for k in range(len(found)):
            i = found[k]
            sk.plays(self.np_cur[d + 1], self.spec, self.np_after, self.np_states[D], self.np_moves[D], True)
            self._w_move(D, i, k)
            for x in range(self.size):
                self.cur[d + 1, x] = self.states[D, i, x]
            self.cur[d + 1, self.tail + 3] = 0
        if self.states[D, i, self.tail + 3] != 1 or self._over(D, i):
            raise ValueError("a kept plan that does not win")
        return len(found)

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _w_settle(self, d: cython.Py_ssize_t, D: cython.Py_ssize_t, i: cython.Py_ssize_t,
                  redraw: cython.bint, cutting: cython.bint) -> cython.longlong:
        """``U`` of move ``i`` of level ``D``'s buffer, made from the node at level ``d`` (``L`` in ``w_lo``):
        lost over the limit, won on the goal, else the draws and the next turn (:meth:`_settle`'s). A policy
        row's move is ``cutting``: its draws that reach a frontier state go in ``w_cut`` instead."""
        k: cython.longlong = self._made(d, D, i, redraw)
        top: cython.longlong
        if k == _LOST:
            self.w_lo = 0
            return 0
        if k == _WON:
            top = self._weight(d)
            self.w_lo = top
            return top
        if k == 0:
            return self._w_listed(d + 1, D + 1, PLAY_KIND, -1, -1)
        return self._w_draw(d + 1, D + 1, k, d + 1 if cutting else -1)

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _w_draw(self, d: cython.Py_ssize_t, D: cython.Py_ssize_t, k: cython.longlong,
                base: cython.Py_ssize_t) -> cython.longlong:
        """``U`` of the next of ``k`` cards drawn into the hand at level ``d`` (``L`` in ``w_lo``): the sum over
        the cards, in the rules' order. Below a policy row's move (its pile at level ``base``, else -1), a
        state reached that would be a frontier row is not listed: its draw goes in ``w_cut``."""
        up: cython.longlong = 0
        lo: cython.longlong = 0
        j: cython.Py_ssize_t
        c: cython.Py_ssize_t
        for j in range(NW):
            c = _rules_card(j)
            if self.cnt[d, c] == 0:
                continue
            self._drawn(d, c)
            if k > 1:
                up += self._w_draw(d + 1, D, k - 1, base)
            elif base >= 0 and self._w_cut_here(d + 1):
                self.w_cut |= self._w_cut_draw(base, d + 1)
                up += self._weight(d + 1)
                self.w_lo = 0
            else:
                up += self._w_listed(d + 1, D, PLAY_KIND, -1, -1)
            lo += self.w_lo
        self.w_lo = lo
        return up

    def walk(self, start: object, counts: object, policies: object, plays: int, sink: object,
             batch: int = 1 << 14) -> tuple[int, int]:
        """Walk the value table of what this search kept, from the ``play`` state ``start`` (a kernel vector)
        with the pile ``counts``, and return the start's ``(U, L)`` in ``W`` units. Where this search proved
        nothing above 0, a state takes the bounds and move of the first of ``policies`` (other searches of the
        same deal) that valued it above 0. Rows are handed to ``sink`` in batches of at most ``batch``
        records (see :data:`FLOOR_ROW`), each after the rows of what it leads to; ``sink`` returns true to
        stop the walk (:class:`Stopped`). ``plays`` is the longest plan the policies play. A state is listed
        once, by its key. What the rows say is what :func:`~.valuetable.write_table`'s walk by the rules engine
        says; that walk and ``verify`` check it, and the tests compare the two row for row."""
        if self._place(start, counts, 0) >= MAX_WEIGHT:
            raise ValueError("the pile has too many orders for 64-bit weights")
        self.w_by = list(policies)  # type: ignore[call-overload]
        for each in self.w_by:
            if not isinstance(each, HiddenSolo):
                raise TypeError("the policies are the same deal's searches")
        self.w_plays = int(plays)
        self.w_sink = sink
        self.np_w_table = np.full(1 << 16, -1, np.int64)
        self.np_w_keys = np.zeros(((1 << 15) + 1, self.nw), np.int64)
        self.np_w_up = np.zeros((1 << 15) + 1, np.int64)
        self.np_w_low = np.zeros((1 << 15) + 1, np.int64)
        self.np_w_kind = np.zeros((1 << 15) + 1, np.int64)
        self._w_views()
        self.cut_ranks = _CUT_RANKS
        self.w_cut = 0
        self.w_count = 0
        self.np_w_rec = np.zeros((max(1, int(batch)), REC_KEY + self.nw + PLAN_RECORDS * sk.MOVE_FIELDS), np.int64)
        self.w_rec = self.np_w_rec
        self.w_n = 0
        try:
            up = self._w_listed(0, 0, PLAY_KIND, -1, -1)
            lo = self.w_lo
            self._w_flush()
        finally:  # the listed states go (a table of millions of rows holds a few hundred MB of them)
            self.w_sink = None
            self.w_by = []
            self.np_w_table = np.full(2, -1, np.int64)
            self.np_w_keys = np.zeros((2, self.nw), np.int64)
            self.np_w_up = np.zeros(2, np.int64)
            self.np_w_low = np.zeros(2, np.int64)
            self.np_w_kind = np.zeros(2, np.int64)
            self._w_views()
            self.w_count = 0
        return int(up), int(lo)

    def _place(self, start: object, counts: object, level: cython.Py_ssize_t) -> int:
        """Put a node given by Python at ``level``: ``start`` its kernel vector, ``counts`` its pile's six
        counts (letter order); returns its weight ``M``."""
        a = np.ascontiguousarray(start, np.int64)
        if a.shape[0] < self.size:
            raise ValueError("a start vector smaller than the layout")
        x: cython.Py_ssize_t
        for x in range(self.size):
            self.cur[level, x] = a[x]
        total = 0
        for x in range(6):
            self.cnt[level, x] = int(counts[x])  # type: ignore[index]
            total += int(counts[x])  # type: ignore[index]
        self.cnt[level, 6] = total
        return _orders([int(counts[x]) for x in range(6)])  # type: ignore[index]

    # -- what Python calls -----------------------------------------------------------------------
    def solve(self, start: object, counts: object, seconds: float | None, alpha: int = -1, beta: int = -1) -> int:
        """The exact ``W`` of the ``play`` state ``start`` (a kernel vector, hand set, no pile) with the
        pile ``counts`` (six counts, letter order); :class:`Stopped` when the cap or the clock ends it.

        With a window (``alpha`` < ``beta``, in ``W`` units; ``beta`` -1: the start's weight + 1) the search
        is fail-soft: a result ``v`` <= ``alpha`` is an upper bound, ``v`` >= ``beta`` a lower bound (a null
        window ``(t - 1, t)`` asks whether the value is at least ``t``). The table keeps what every search
        proved, so searches of one deal build on one another."""
        top = self._place(start, counts, 0)
        if top >= MAX_WEIGHT:
            raise ValueError("the pile has too many orders for 64-bit weights")
        self.stop_at = -1.0 if seconds is None else time.perf_counter() + seconds
        self.was_drained = False
        self.why = SOLVED
        return int(self._play(0, 0, alpha, top + 1 if beta < 0 else beta))

    def value_at(self, start: object, counts: object, kind: int, w: int, e: int) -> tuple[int, int, int, int]:
        """The bounds and best move kept for a node (``(-1, -1, -1, weight)`` when it is not kept):
        ``start`` is its kernel vector (hand empty for reveal and target nodes), ``counts`` its pile."""
        level: cython.Py_ssize_t = MAX_DEPTH - 2
        top = self._place(start, counts, level)
        self._make_key(level, kind, w, e)
        node = self.table[self._slot()]
        if node < 0:
            return -1, -1, -1, top
        return int(self.lows[node]), int(self.highs[node]), int(self.bests[node]), top

    def stats(self) -> tuple[int, int, int, int]:
        """Nodes kept, nodes visited, successors generated, bytes of the table and its nodes."""
        memory = sum(int(array.nbytes) for array in
                     (self.np_table, self.np_keys, self.np_lows, self.np_highs, self.np_bests))
        return int(self.count), int(self.visits), int(self.generated), memory

    def set_progress(self, on_tick: object) -> None:
        """Call ``on_tick(states kept)`` every few thousand nodes visited (a progress line), or never (None)."""
        self.on_tick = on_tick

    def set_cutoff(self, cutoff: int) -> None:
        """In the policy's evaluation, count a ``play`` state whose pile has fewer than ``cutoff`` orders as
        lost without searching it, unless one of its plays wins at once or its hand has a plan
        (:meth:`set_plan`; the plays are generated, no draw made): the policy then plays it. The evaluation
        gives a lower bound on the policy's value, off by at most the share of the cut states that neither
        wins. Winning moves at the cut raised challenge 1 solo-3's value at the 4^-13 cut from 0.6761 to
        0.7407 for 1.2x the time; plans of two plays, at the 4^-11 cut, from 0.5822 to 0.6952 for 1.1x."""
        self.cutoff = cutoff

    def drain(self, cutoff: int) -> None:
        """In the policy's evaluation, raise the cut to ``cutoff`` (a coarser pass's, :meth:`set_cutoff`) for the
        rest of the search (called from the ``on_tick`` of :meth:`set_progress`, while it runs): the subtrees
        finished at the finer cut keep their values and the rest is valued as the coarser pass would, so a
        pass that would not finish in its time still may, with a value at least the coarser pass's. Sound
        because every value is then still the policy's value with some states counted lost (the policy's
        moves depend on the state alone, never on the cut): a mixed cut is a cut. :meth:`drained` says
        whether it happened during the last :meth:`solve`."""
        self.cutoff = max(self.cutoff, int(cutoff))
        self.was_drained = True

    def drained(self) -> bool:
        """Whether :meth:`drain` was called during the last :meth:`solve`."""
        return bool(self.was_drained)

    def set_plan(self, depth: int) -> None:
        """Count a ``play`` state as won with certainty when at most ``depth`` plays of the cards in its hand
        win, whatever is drawn between them (:meth:`_hand_plan`; 0 or 1: only a play that wins at once). In
        every search: the optimum's (a plan is worth ``M``, the most there is), the probe's and the policy's
        (its move there is the plan's)."""
        self.plan_depth = int(depth)
        if self.plan_depth > 1 and self.pc_vals.shape[0] < PLAN_FIRST_SLOTS:
            self._plan_cache(PLAN_FIRST_SLOTS)

    def plan(self, start: object, depth: int) -> list[int]:
        """The plan of :meth:`_hand_plan` from the ``play`` state ``start`` (a kernel vector, hand set), as
        each play's index among the plays of the pile-less state it is made from (the hand less the plays
        before it, nothing drawn); empty when there is none."""
        a = np.ascontiguousarray(start, np.int64)
        self.stop_at = -1.0  # after the search: the guide's relaxed searches may take their time
        level: cython.Py_ssize_t = MAX_DEPTH - 16
        D: cython.Py_ssize_t = MAX_DECISIONS - 8
        x: cython.Py_ssize_t
        for x in range(self.size):
            self.cur[level, x] = a[x]
        found: list[int] = []
        left = int(depth)
        while left > 0:
            n = sk.plays(self.np_cur[level], self.spec, self.np_after, self.np_states[D], self.np_moves[D], True)
            i = self._hand_plan(level, D, n, min(left, self.cur[level, 2 * self.rows * (self.maxl + 1)]))
            if i < 0:
                return []
            found.append(int(i))
            if self.states[D, i, self.tail + 3] == 1:
                return found
            for x in range(self.size):
                self.cur[level, x] = self.states[D, i, x]
            self.cur[level, self.tail + 3] = 0
            left -= 1
        return []

    def set_width(self, width: int) -> None:
        """The policy's search chooses among its ``width`` first moves (with ``width`` > 1: the first
        ``width - 1`` plays by the order and the Redraw at :meth:`_redraw_end`) the best by exact value:
        still one concrete policy (the best one of that class), so its value is a lower bound."""
        self.width = max(1, width)

    def set_guide(self, rows: object, k: object, limit: object, index: object, offsets: object, half: object,
                  ends: object, base: object, codes: object, combine_max: bool, combos: object, cap: int,
                  fill: Any, memo: object = None) -> None:
        """The guided policy's relaxations (one per goal row: its row, classes ``k``, limit, weather to class
        ``index``, half-row code ``offsets``, codes of a half-row ``half``, tracked ``ends`` and their
        ``base``, and its number of ``codes``), how distances combine over the sets of goal rows
        (``combos``, indexes of relaxations), the ``cap`` of a distance and ``fill(i, code, c, stop_at)``:
        relaxation ``i``'s distance from ``code`` to a goal if at most ``c`` (``c`` <= ``cap``), else
        ``c + 1``, or -1 when the search's clock (``stop_at``, a ``time.perf_counter`` time or -1) passed
        first. ``memo`` (``int8``, one entry an image of every relaxation) is another search's guide memory
        on the same deal and guide, to share what it learned."""
        self.g_row = np.ascontiguousarray(rows, np.int64)
        self.g_n = self.g_row.shape[0]
        if self.g_n > 8:
            raise ValueError("at most 8 goal rows")
        self.g_k = np.ascontiguousarray(k, np.int64)
        self.g_limit = np.ascontiguousarray(limit, np.int64)
        self.g_index = np.ascontiguousarray(index, np.int64)
        self.g_offsets = np.ascontiguousarray(offsets, np.int64)
        self.g_half = np.ascontiguousarray(half, np.int64)
        self.g_ends = np.ascontiguousarray(ends, np.int64)
        self.g_base = np.ascontiguousarray(base, np.int64)
        sizes = [int(c) for c in codes]  # type: ignore[attr-defined]
        self.g_start = np.array([sum(sizes[:i]) for i in range(len(sizes))] or [0], np.int64)
        self.g_size = np.array(sizes or [0], np.int64)
        if memo is None:
            memo = np.full(max(1, sum(sizes)), -1, np.int8)
        elif not (isinstance(memo, np.ndarray) and memo.dtype == np.int8 and memo.shape == (max(1, sum(sizes)),)):
            raise ValueError("a guide memory of another shape")
        self.g_memo = memo
        self.g_max = bool(combine_max)
        self.g_combos = np.ascontiguousarray(combos, np.int64)
        self.g_cap = int(cap)
        self.g_fill = fill

    def guide_memory(self) -> object:
        """The guide's memory of distances (for :meth:`set_guide` of another search on the same deal)."""
        return np.asarray(self.g_memo)

    def guide(self, start: object, cap: int = -1) -> int:
        """:meth:`_guide` of a kernel vector (for tests; ``cap`` -1: the guide's own cap)."""
        a = np.ascontiguousarray(start, np.int64)
        return int(self._guide(a, self.g_cap if cap < 0 else cap))

    def set_policy(self, policy: int) -> None:
        """Evaluate a policy instead of the optimum (0): the cheap one (1) or the guided one (2, after
        :meth:`set_guide`), one move at each decision: the first in its order, or a Redraw at
        :meth:`_redraw_end` when the best play needs more turns than the table does. Its values are the
        policy's exact values only from a full window, and are kept in this search's table: a search is
        either the policy's or the optimum's."""
        if int(policy) not in (0, 1, GUIDED):
            raise ValueError(f"no policy {policy}: 0 the optimum, 1 the cheap policy, 2 the guided one")
        if int(policy) == GUIDED and self.g_fill is None:
            raise ValueError("the guided policy needs set_guide first")
        self.policy = int(policy)

    def stopped_by(self) -> int:
        return int(self.why)
