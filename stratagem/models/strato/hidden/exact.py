"""The exact solo win probability with the pile hidden, or a proven interval, by the compiled kernel.

:mod:`.odds_kernel` searches the information states of solo Strato in integer weights (a state's value is
``W / M`` with ``M`` the orders of its pile); :func:`compiled_odds` runs it on a
:class:`~stratagem.models.strato.hidden.game.HiddenStrato` start and returns the value as an exact
``Fraction``, with the states kept, the memory of the table and the CPU seconds. :func:`odds_interval`
returns a proven interval ``[lower, upper]`` within a time limit (exact where the searches finish): the
probe "won with certainty?", the exact search, else the exact value of a guided policy with its improbable
states cut (docs/design.md section 8).

:func:`~.valuetable.write_table` (:mod:`.valuetable`) writes what the searches established as a **value
table**, the certificate ``verify`` checks from the rules alone (:mod:`stratagem.verification.oddstable`);
what this module keeps for it are the searches' tables, read through :class:`Solver`.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from stratagem.core.errors import BadInput
from stratagem.core.progress import ProgressFactory, no_progress
from stratagem.models.strato.hidden import odds_kernel as kernel
from stratagem.models.strato.hidden.game import (
    PLAY,
    REVEAL,
    TARGET,
    HiddenState,
    HiddenStrato,
    announce,
)
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import ONGOING, Row, State
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search import search_kernel as sk
from stratagem.models.strato.search.compiled_search import relaxation_coding
from stratagem.models.strato.search.packed import NUMBER, Packing, _goal_arrays, move_of
from stratagem.models.strato.search.relaxation import TableDistance
from stratagem.models.strato.search.relaxation_kernel import OutOfTime, TablesStopped

__all__ = ["CompiledOdds", "OddsInterval", "Solver", "TooManyOrders", "check_orders", "compiled_odds", "odds_interval",
           "pile_orders"]

#: Default cap on the states the compiled search keeps (each costs about 56 bytes with its table slot).
MAX_STATES = 60_000_000
PLAY_KIND, REVEAL_KIND, TARGET_KIND = 0, 1, 2
#: The kernel's policies (``HiddenSolo.set_policy``): the cheap one, and the guided one (:meth:`Solver.guide`).
CHEAP_POLICY, GUIDED_POLICY = 1, 2
REDRAW_MOVE = 4096
#: A kept best move from this number on is the first play of a plan from the hand (``HiddenSolo.set_plan``).
PLAN_MOVE = 8192
#: Plays of the hand alone that every search tries at every ``play`` state before anything else: a plan of at
#: most this many plays that wins, whatever is drawn between them, makes the state won with certainty
#: (docs/design.md section 8). Measured on the guided policy's evaluation (4^-11 to 4^-13 cuts): 2 plays
#: cost 0-17% more time and raised the values by 0.05-0.11; 3 plays raised them further but took 2-3x the
#: time, which a finer cut spends better on two of three deals.
PLAN_PLAYS = 2
#: Largest relaxed distance the guided policy tells apart (farther tables all count as one more).
GUIDE_CAP = 12


@dataclass
class CompiledOdds:
    """What the compiled search established: the exact value when ``status`` is ``solved``, else the
    stop's reason; states kept, nodes visited, the table's bytes and the CPU seconds."""

    status: str
    value: Fraction | None
    states: int
    visits: int
    generated: int
    memory: int
    seconds: float
    stopped_by: str | None


class TooManyOrders(BadInput):
    """The start's pile has more orders than the kernel's 64-bit weights count (``kernel.MAX_WEIGHT``): bad
    input for this search (the deal is not one it can value), said before any search."""


def pile_orders(pile: str) -> int:
    """``M(c)``, the equally likely orders of a pile of cards (the multinomial ``n! / prod c_w!``), in Python's
    unbounded integers: the kernel's own count is a 64-bit product, which wraps round silently past 2^63."""
    orders = math.factorial(len(pile))
    for weather in set(pile):
        orders //= math.factorial(pile.count(weather))
    return orders


def check_orders(pile: str) -> None:
    """:class:`TooManyOrders` unless the kernel's integer weights can count the orders of ``pile``.

    The kernel counts a state's value in orders of its pile, and every pile below the start has fewer
    orders than the start's, so the start's count bounds them all. Its own check of that count is made
    on a 64-bit product, which has already wrapped round for a pile too large (a three-row challenge's
    39 cards of six weathers: about 2^88 orders, wrapped to a negative number that passed the check), and
    the search then ran on meaningless weights. This check counts exactly, before the search."""
    orders = pile_orders(pile)
    if orders >= kernel.MAX_WEIGHT:
        raise TooManyOrders("<deal>", "pile", f"the pile's {len(pile)} cards have {orders:.2e} orders, more than "
                            f"the compiled search's 64-bit weights count (below 2^62 = {kernel.MAX_WEIGHT:.2e})")


class Solver:
    """One solo deal's compiled search and the means to read its table (a ``HiddenStrato`` start at the
    ``play`` phase)."""

    def __init__(self, game: HiddenStrato, max_states: int = MAX_STATES) -> None:
        if game.num_players != 1:
            raise ValueError("the compiled exact search is for solo play")
        root = game.initial_state()
        if root.phase != PLAY or root.status != ONGOING:
            raise ValueError("the compiled exact search starts at an ongoing play phase")
        check_orders(root.pile)  # before the kernel: its weights would wrap round
        self.game = game
        self.root = root
        challenge = game.challenge
        view = State(root.rows, root.hands, "", 0, root.last, ONGOING)
        self.packing = Packing(StratoGame(challenge, game.options, view))
        lay = self.packing.layout
        _, kind, seq, _, _, _, needs, goal_len = _goal_arrays(challenge, root.rows)
        eligible = [r for r, row in enumerate(root.rows) if challenge.goal.eligible(row)]
        combos = np.array(list(combinations(eligible, challenge.rows_required)), np.int64).reshape(
            -1, challenge.rows_required)
        #: The kernel's deal parameters (to build another kernel on the same deal, e.g. one run interpreted).
        self.kernel_args = (self.packing.spec, lay.rows, lay.maxl, challenge.limit, needs, goal_len, kind, seq, combos,
                            max_states)
        self.kernel = kernel.HiddenSolo(*self.kernel_args)
        self.kernel.set_plan(PLAN_PLAYS)
        self.tornadoes = [(row.left_tornado, row.right_tornado) for row in root.rows]
        #: The last vector made (a one-entry list, shared with another solver of the deal by
        #: :func:`~.valuetable.write_table`).
        self._last: list[tuple[tuple[tuple[Row, ...], str, str], np.ndarray]] = []
        self._buffers: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # :meth:`_move_buffers`

    def guide(self, like: Solver | None = None, stop: Callable[[], bool] | None = None) -> None:
        """Make the kernel's policy the guided one (``HiddenSolo.set_policy(GUIDED_POLICY)``): the move
        whose table is nearest a goal by the table-only relaxation (``relaxation.TableDistance``, built from
        the start: the plays of the weathers in hand and pile, whatever their order), or by the A* turn
        bound where that says more; ties to the least work left in the goal's places less the hand's
        cards the goal misses. A heuristic: the policy's value is what the search computes and the
        table certifies, whatever guides it. ``like``, a guided solver of the same deal, shares its
        distances (a finer pass asks for the same tables and more). ``stop`` (a deadline) ends the build of
        the relaxation's tables (``relaxation_kernel.TablesStopped``)."""
        game, root = self.game, self.root
        #: The guide's distances (shared with ``like``'s).
        self.distances: TableDistance = like.distances if like is not None else TableDistance(
            game.challenge, game.options, State(root.rows, root.hands, root.pile, 0, root.last, ONGOING), stop)
        relaxations, distances = self.distances.relaxations, self.distances.distances
        index, offsets = relaxation_coding(relaxations)

        def fill(i: int, code: int, cap: int, stop_at: float) -> int:
            if not distances[i].searchable:
                return 0
            try:
                return distances[i].code_at_most(code, cap, stop_at)
            except OutOfTime:
                return -1

        required = game.challenge.rows_required
        combos = np.array(self.distances.sets, np.int64).reshape(-1, required)
        self.kernel.set_guide([r.row for r in relaxations], [r.k for r in relaxations],
                              [r.limit for r in relaxations], index, offsets, [r.half_rows for r in relaxations],
                              [r.n_ends for r in relaxations], [r.end_base for r in relaxations],
                              [r.codes if d.searchable else 0 for r, d in zip(relaxations, distances, strict=True)],
                              self.distances.combines == "max", combos, GUIDE_CAP, fill,
                              None if like is None else like.kernel.guide_memory())
        self.kernel.set_policy(GUIDED_POLICY)

    # -- states as the kernel has them ----------------------------------------------------------
    def vector(self, rows: tuple[Row, ...], hand: str, last: str) -> np.ndarray:
        """The kernel's vector of a table, hand and last weather (the kernel only reads it). The last one is
        kept: the table writer asks for the same state's vector up to three times in a row."""
        key = (rows, hand, last)
        if self._last and self._last[0][0] == key:
            return self._last[0][1]
        vector = self.packing.vector(State(rows, (hand,), "", 0, last, ONGOING))
        self._last[:] = [(key, vector)]
        return vector

    def _move_buffers(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The compiled move generator's buffers (after, states, moves), made at the first call."""
        if self._buffers is None:
            size = self.packing.layout.size
            self._buffers = (np.empty(size, np.int64), np.empty((sk.MAX_MOVES, size), np.int64),
                             np.empty((sk.MAX_MOVES, sk.MOVE_FIELDS), np.int64))
        return self._buffers

    def play(self, state: HiddenState, index: int) -> Move:
        """Play ``index`` of a ``play`` state (the index the kernel keeps as its best move), read from the
        compiled move generator, whose order is the rules' (``HiddenStrato.plays``): the writer then makes
        its state with the rules' outcomes of that one card at that one end, not those of every move before
        it."""
        after, states, moves = self._move_buffers()
        count = sk.plays(self.vector(state.rows, state.hands[0], state.last), self.packing.spec, after, states,
                         moves, False)
        if not 0 <= index < count:
            raise IndexError(f"no play {index} at this state")
        return move_of(moves[index])

    def plan(self, state: HiddenState, plays: int = PLAN_PLAYS) -> list[Move]:
        """The plan of plays from the hand that the kernel found at a ``play`` state (its kept best move at
        least :data:`PLAN_MOVE`), read from the compiled move generator: each play is made from the state the
        ones before it leave, with nothing drawn (the draws between them change neither the table nor the
        plan's cards). Empty when the hand has no plan of at most ``plays`` plays."""
        vector = self.vector(state.rows, state.hands[0], state.last).copy()
        after, states, moves = self._move_buffers()
        out = []
        for index in self.kernel.plan(vector, plays):
            sk.plays(vector, self.packing.spec, after, states, moves, True)
            out.append(move_of(moves[index]))
            vector = states[index].copy()
        return out

    @staticmethod
    @lru_cache(maxsize=1 << 16)
    def counts(pile: str) -> tuple[int, ...]:
        """The pile's six counts, letter order, as the kernel reads them (remembered: the writer asks for the
        same few thousand piles millions of times)."""
        out = [0] * 6
        for c in pile:
            out[NUMBER[c]] += 1
        return tuple(out)

    def solve(self, seconds: float | None = None) -> CompiledOdds:
        root = self.root
        started = time.process_time()
        try:
            w = self.kernel.solve(self.vector(root.rows, root.hands[0], root.last), self.counts(root.pile), seconds)
            status, value, why = "solved", Fraction(w, self.kernel.weight(self.counts(root.pile))), None
        except kernel.Stopped as stop:
            status, value, why = "unknown", None, str(stop)
        kept, visits, generated, memory = self.kernel.stats()
        return CompiledOdds(status, value, kept, visits, generated, memory, time.process_time() - started, why)

    def kept(self, state: HiddenState) -> tuple[int, int, int, int]:
        """``(low, high, best, M)`` kept for a play, reveal or target state (``low`` -1: not kept)."""
        if state.phase == PLAY:
            return self.kernel.value_at(self.vector(state.rows, state.hands[0], state.last),
                                        self.counts(state.pile), PLAY_KIND, -1, -1)
        e = 2 * state.row + state.end
        if state.phase == REVEAL:
            return self.kernel.value_at(self.vector(state.rows, "", state.last), self.counts(state.pile),
                                        REVEAL_KIND, -1, e)
        return self.kernel.value_at(self.vector(state.rows, "", state.last), self.counts(state.pile),
                                    TARGET_KIND, NUMBER[state.card], e)

    def weight(self, pile: str) -> int:
        return int(self.kernel.weight(self.counts(pile)))

    def policy_move(self, state: HiddenState) -> Move | None:
        """The move the kernel's policy (:meth:`guide`) plays at a ``play`` state of this deal, or at a
        ``target`` state whose Redraw this solver's last :meth:`policy_move` announced; None where the policy
        gives up (no move kept). The policy's move depends only on the state (never on the values below
        it), so one level of its evaluation is enough: every state after the move is cut. To play the
        policy on one order of the pile, e.g. to sample what it wins (``scripts/strato_policy_sample.py``)."""
        if state.phase == PLAY:
            self.kernel.set_cutoff(self.weight(state.pile))  # the state itself is searched, nothing after it
            self.kernel.solve(self.vector(state.rows, state.hands[0], state.last), self.counts(state.pile), None)
        return self.kept_move(state)

    def kept_move(self, state: HiddenState) -> Move | None:
        """The best move this solver's table keeps for a ``play`` or ``target`` state (None: none kept):
        after :meth:`solve` of a game that starts at ``state`` the optimum's move, after :meth:`policy_move`
        the policy's. A kept plan is played by its first move, a kept Redraw is its announcement."""
        best = self.kept(state)[2]
        if best < 0:
            return None
        if state.phase == TARGET:
            return self.game.play(state, best)[0]
        if best >= PLAN_MOVE:
            return self.plan(state)[0]
        if best >= REDRAW_MOVE:
            return announce((best - REDRAW_MOVE) // 2, (best - REDRAW_MOVE) % 2)
        return self.play(state, best)

    def hopeless(self, state: HiddenState) -> bool:
        """The kernel's floor (:meth:`~.odds_kernel.HiddenSolo.dead`) of a ``play`` state, for the table
        writer: no set of goal rows is still possible (too few cards left for the turns it needs, or a
        weather's goal cards unable to reach its rows). ``verify`` recomputes the floor of every state the
        table marks so with its own code on the rules engine's rows (:mod:`stratagem.verification.oddstable`)."""
        return bool(self.kernel.dead(self.vector(state.rows, state.hands[0], state.last), self.counts(state.pile)))


@dataclass
class OddsInterval:
    """What :func:`odds_interval` proved: ``lower`` <= the optimal solo win probability <= ``upper`` (equal:
    exact), with how: ``status`` ``exact`` or ``interval``; the states each search kept, the bytes of the
    optimum's table and the CPU seconds. ``solver`` and ``policy`` are the two searches, for
    :func:`~.valuetable.write_table` (which writes the certificate of both bounds); ``passes`` every finished pass of
    the policy's evaluation, the coarsest cut first (a coarser one writes a smaller table; the last may have
    finished at the cut before its own, ``HiddenSolo.drained``); ``unfinished``
    the pass a limit (time or states) stopped, if any: the subtrees it finished are valued at its finer cut, and
    :func:`~.valuetable.write_table` takes them where it has them (:func:`policy_sources`)."""

    status: str
    lower: Fraction
    upper: Fraction
    states: int
    policy_states: int
    memory: int
    seconds: float
    steps: list[str]
    solver: Solver
    policy: Solver | None
    passes: tuple[Solver, ...] = ()
    unfinished: Solver | None = None
    #: What proved ``lower``: ``"search"`` (the probe or the exact search), ``"guided policy"`` (the guided
    #: policy's value, its states of few pile orders cut) or ``"none"`` (nothing above 0).
    lower_from: str = "none"


#: Shares of :func:`odds_interval`'s time: the probe "won with certainty?", then the exact search (of what
#: is left); the policy's evaluation has the rest. The probe's 10% (30% until stop 40) proves each of 200
#: random challenge-0 deals in at most 0.52 CPU s of a 30-s limit, and has never finished on a challenge-1
#: or level-2 deal; at 240 s the policy's extra time gave two of those six deals one more cut (0.6060 to
#: 0.6866, 0.5257 to 0.5797), the others kept theirs.
PROBE_SHARE, SEARCH_SHARE = 0.1, 0.5
#: The policy's evaluation cuts states whose pile has fewer orders than the start's times these, in turn
#: (each pass about a few times the last one's work; the last pass finished is kept).
CUTOFFS = tuple(4.0 ** -k for k in range(6, 24)) + (0.0,)
#: Finishing a pass at the finished pass's cut (``HiddenSolo.drain``) is expected to take that pass's wall
#: clock times the share of the new pass not yet done (its states kept against those expected), at least
#: :data:`DRAIN_LEAST` of it, times :data:`DRAIN_SLACK`: a 4^-13 pass of challenge 1's solo-3 drained after
#: 7, 20, 33 and 47% of its states took 0.90, 0.74, 0.63 and 0.49 of the 4^-12 pass's time.
DRAIN_LEAST = 0.3
DRAIN_SLACK = 1.2
#: How many times its predecessor's states a pass is expected to keep when only one pass came before it
#: (the last passes measured: 2.1-2.2x; with two or more, their own ratio).
PASS_GROWTH = 2.2
#: ... times this: a pass thought on course to finish is not drained, and one that then does not finish
#: gives a sweep nothing (challenge 1's solo-3 at 8 s: a 4^-11 pass expected at 2.0x kept 2.3x).
GROWTH_MARGIN = 1.25


def odds_interval(game: HiddenStrato, *, seconds: float | None = None, max_states: int = MAX_STATES,
                  progress: ProgressFactory = no_progress, reserve: Callable[[int], float] | None = None,
                  drain: bool = True) -> OddsInterval:
    """A proven interval on the optimal solo win probability of ``game`` (exact where the searches finish),
    within ``seconds`` of wall clock in all:

    1. a null-window search "is the value 1?" (one winning move per decision suffices, and one draw that
       cannot be won with certainty refutes a move): proven, the value is exactly 1 and the certificate is
       the winning policy alone; refuted, its result is an upper bound below 1;
    2. the exact search (:meth:`Solver.solve`), continuing from what the probe kept;
    3. if it stopped, the guided policy's exact value (:meth:`Solver.guide`: the play nearest a goal by
       the table-only relaxation, or a Redraw), with states whose pile has few orders counted as lost unless a
       play wins at once or the hand wins by a plan (the cut made finer while time remains): a lower bound.
       With ``drain``, a pass that may not finish in its time goes back to the finished pass's cut when
       only that pass's time for what is left of its work is left (``HiddenSolo.drain``;
       :func:`_draining`), keeping what it finished at its finer cut: it then ends with a value at least
       the finished pass's, and is the last pass. For an answer without a table (a sweep's); a table's
       writer does better with ``drain=False``: it takes the subtrees the stopped pass finished up to the
       limit, and the finished pass for the rest (:func:`policy_sources`);
    4. if the probe stopped at its share and the passes then ended with time to spare, none stopped (the
       whole policy valued, or a pass drained), the probe (and the exact search after it) goes on from what
       it kept with the time left, less the writing's reserve.

    Both bounds are what the searches' tables establish; :func:`~.valuetable.write_table` writes them as one value
    table that ``verify`` checks with the rules alone. ``progress`` shows the pass (0 the probe and the
    exact search, then each cut of the policy's evaluation) and the states it keeps. ``reserve(n)`` keeps
    back, of ``seconds``, the time that writing a table of ``n`` states kept takes: a finer pass runs only
    in what is left beyond the finest finished pass's reserve (so that pass's table can still be written
    within ``seconds``), and it stops as soon as the writing of the states it keeps itself would no longer
    fit either (:func:`_keeping_time_to_write`); none starts when nothing is left."""
    with progress("odds search", "pass", "states kept") as show:
        return _odds_interval(game, seconds, max_states, show, reserve, drain)


def _odds_interval(game: HiddenStrato, seconds: float | None, max_states: int, show: Callable[[int, int], None],
                   reserve: Callable[[int], float] | None, drain: bool) -> OddsInterval:
    started = time.process_time()
    clock = time.perf_counter()
    steps: list[str] = []

    def left() -> float | None:
        return None if seconds is None else max(0.0, seconds - (time.perf_counter() - clock))

    solver = Solver(game, max_states)
    root = solver.root
    start = solver.vector(root.rows, root.hands[0], root.last)
    counts = solver.counts(root.pile)
    top = solver.kernel.weight(counts)
    def search(probe_budget: float | None, share: float, keep: float = 0.0) -> tuple[int, int, bool]:
        """The probe "won with certainty?" within ``probe_budget``, then, if it finished, the exact search
        within ``share`` of the time left less ``keep`` (the table's writing); the root's bounds, and
        whether the probe stopped."""
        solver.kernel.set_progress(lambda kept: show(0, kept))
        stopped = False
        try:
            v = solver.kernel.solve(start, counts, probe_budget, top - 1, top)
            steps.append("won with certainty" if v >= top else f"not won with certainty: at most {Fraction(v, top)}")
        except kernel.Stopped as stop:
            steps.append(f"probe 'won with certainty?' stopped ({stop})")
            stopped = True
        low, high, _, _ = solver.kernel.value_at(start, counts, PLAY_KIND, -1, -1)
        if 0 <= low < high:  # the probe finished: the exact search may too (a stopped probe says it will not)
            remaining = left()
            try:
                solver.kernel.solve(start, counts, None if remaining is None else max(0.01, remaining - keep) * share)
                steps.append("exact search finished")
            except kernel.Stopped as stop:
                steps.append(f"exact search stopped ({stop})")
            low, high, _, _ = solver.kernel.value_at(start, counts, PLAY_KIND, -1, -1)
        solver.kernel.set_progress(None)
        return low, high, stopped

    low, high, probe_stopped = search(None if seconds is None else seconds * PROBE_SHARE, SEARCH_SHARE)
    low, high = max(low, 0), high if high >= 0 else top
    lower_from = "search" if low > 0 else "none"
    took = 0.0  # the wall-clock seconds of the last finished pass
    policy: Solver | None = None
    policy_states = 0
    passes: list[Solver] = []
    unfinished: Solver | None = None
    if low < high:
        for number, share in enumerate(CUTOFFS, start=1):
            budget = left()
            kept_last = passes[-1].kernel.stats()[0] if passes else 0
            if budget is not None and reserve is not None and passes:
                budget -= reserve(kept_last)
                if budget <= 0:
                    steps.append(f"no pass with cut {share:.2g}: the time left is for writing the last one's table")
                    break
            candidate = Solver(game, max_states)
            ends = None if budget is None else time.perf_counter() + budget
            try:  # the first guide builds the relaxation's tables (0.3 s and more per goal row, once a process)
                candidate.guide(like=passes[-1] if passes else None, stop=_clock_past(ends))
            except TablesStopped:
                steps.append(f"policy with cut {share:.2g} stopped (time limit, while its guide's relaxation "
                             "tables were built)")
                break
            candidate.kernel.set_cutoff(int(share * top))
            began = time.perf_counter()
            if drain and budget is not None and passes:
                growth = GROWTH_MARGIN * (kept_last / passes[-2].kernel.stats()[0] if len(passes) > 1 else PASS_GROWTH)
                tick = _draining(candidate.kernel, number, show, int(CUTOFFS[number - 2] * top), began,
                                 began + budget, took, max(1, int(growth * kept_last)))
            else:
                tick = functools.partial(show, number)
            if seconds is not None and reserve is not None and passes:  # its own states are written too
                tick = _keeping_time_to_write(tick, reserve, kept_last, clock + seconds)
            candidate.kernel.set_progress(tick)
            try:
                got = candidate.kernel.solve(start, counts, budget)
            except kernel.Stopped as stop:
                steps.append(f"policy with cut {share:.2g} stopped ({stop}; {candidate.kernel.stats()[0]:,} "
                             "states finished)")
                unfinished = candidate
                break
            finally:
                candidate.kernel.set_progress(None)
            took = time.perf_counter() - began
            drained = candidate.kernel.drained()
            how = f", its rest at cut {CUTOFFS[number - 2]:.2g} (drained before the limit)" if drained else ""
            steps.append(f"policy with cut {share:.2g}{how}: {float(Fraction(got, top)):.4f} "
                         f"({candidate.kernel.stats()[0]:,} states)")
            passes.append(candidate)
            if policy is None or got > policy.kernel.value_at(start, counts, PLAY_KIND, -1, -1)[0]:
                policy, policy_states = candidate, candidate.kernel.stats()[0]
            if drained or share == 0.0 or (seconds is not None and left() == 0.0):
                break
        if policy is not None:
            valued = policy.kernel.value_at(start, counts, PLAY_KIND, -1, -1)[0]
            if valued > low:
                low, lower_from = valued, "guided policy"
    if low < high and probe_stopped and unfinished is None and seconds is not None:
        # The policy's passes ended with time to spare and none stopped (the whole policy valued, or a pass
        # drained): the probe, stopped at its share, goes on from what it kept with the rest (less the writing of the
        # table), so a deal it settles in a second is not left undecided under a 5-s limit. The reserve is
        # the policy's table's: a stopped probe adds few rows to it (challenge 1's solo-3 at 4 s: 266,186
        # probe states, 1,034 rows beside the policy's 21,806), and a finished one makes it a small table.
        keep = reserve(policy_states) if reserve is not None else 0.0
        rest = (left() or 0.0) - keep
        if rest > 0.0:
            steps.append(f"time left after the policy's passes: the probe goes on for {rest:.1f} s")
            found_low, found_high, _ = search(rest, 1.0, keep)
            if found_high >= 0 and found_high < high:
                high = found_high
            if found_low > low:
                low, lower_from = found_low, "search"
    kept, _, _, memory = solver.kernel.stats()
    return OddsInterval("exact" if low == high else "interval", Fraction(low, top), Fraction(high, top), kept,
                        policy_states, memory, time.process_time() - started, steps, solver, policy, tuple(passes),
                        unfinished, lower_from)


def _clock_past(ends: float | None) -> Callable[[], bool] | None:
    """A stop test: whether ``time.perf_counter()`` has reached ``ends`` (``None``: no test)."""
    if ends is None:
        return None
    return lambda: time.perf_counter() >= ends


def _keeping_time_to_write(tick: Callable[[int], None], reserve: Callable[[int], float], kept: int, ends: float,
                           clock: Callable[[], float] = time.perf_counter) -> Callable[[int], None]:
    """The progress callback ``tick`` of a finer pass, stopping it (:class:`~.odds_kernel.Stopped`, "time
    limit") as soon as the writing of a table of the finished pass's ``kept`` states and the states the
    finer one kept so far would no longer fit before ``ends`` (``reserve`` of their sum): the table takes
    the subtrees the stopped pass finished (:func:`policy_sources`), so the more it keeps, the sooner it
    must stop. Asked every few thousand nodes, with the states kept."""
    def check(kept_now: int) -> None:
        if clock() + reserve(kept + kept_now) > ends:
            raise kernel.Stopped("time limit")
        tick(kept_now)

    return check


def _draining(search: Any, number: int, show: Callable[[int, int], None], coarser: int, began: float, ends: float,
              took: float, expected: int, clock: Callable[[], float] = time.perf_counter) -> Callable[[int], None]:
    """:func:`odds_interval`'s progress callback of a pass begun at ``began`` that may have to drain
    (``HiddenSolo.drain``): it shows the pass's states, and goes back to the ``coarser`` cut at the last
    moment the rest at that cut is expected to be done by ``ends`` (the coarser pass ``took`` that long;
    the share of the new pass not yet done, its states kept against the ``expected``, is what is left of
    that work, :data:`DRAIN_LEAST` and :data:`DRAIN_SLACK` the margins), unless at its rate so far the pass
    is on course to finish in time. Too late for the rest, it does not drain. ``clock`` gives the time
    (``time.perf_counter``'s, as ``began`` and ``ends``)."""

    def tick(kept: int) -> None:
        show(number, kept)
        if search.drained():
            return
        now = clock()
        left = ends - now
        rest = took * max(1.0 - kept / expected, DRAIN_LEAST)
        if not rest <= left <= DRAIN_SLACK * rest:
            return  # not yet, or too late
        if 0 < kept < expected and (now - began) * (expected - kept) / kept <= left:
            return  # on course to finish: the whole pass is worth more than a drained one
        search.drain(coarser)

    return tick


def policy_sources(found: OddsInterval) -> tuple[Solver, ...]:
    """The policy's searches whose values a table of ``found`` is written from, finest cut first: the pass
    a limit stopped (its finished subtrees), then the finest finished pass (the rest). The table's
    lower bound is then at least the finished pass's, and ``verify`` recomputes it from the rows alike."""
    return tuple(each for each in (found.unfinished, found.policy) if each is not None)


def compiled_odds(game: HiddenStrato, *, seconds: float | None = None, max_states: int = MAX_STATES) -> CompiledOdds:
    """The exact optimal solo win probability of ``game`` from its start, by the compiled kernel."""
    return Solver(game, max_states).solve(seconds)
