"""Strato as a bounded-horizon SAT problem: "is there a winning line of at most k turns?"

The encoding follows the rules engine turn by turn (same rules, same options) and is cross-checked
against breadth-first search in the tests. Its parts, per turn ``t`` (state ``S[t]`` -> ``S[t+1]``):

**State.** For each half-row ``h`` (row ``r``, side ``s``: ``h = 2r + s``) and each place ``j`` below the
card limit, one Boolean per weather in play: ``S[t][h][j][w]``; no weather true means an empty place.
Places are contiguous from the tornado. Hands are counts per player and weather (one-hot), the draw
pile is the number of cards drawn so far (one-hot; its order is known), and for Cloud the weather the
last card resolved as (one-hot or none).

**Placement.** One half-row ``play[t][h]`` and one card ``card[t][w]`` (from the hand, or the pile's top
card with ``redraw[t]``). The placed position ``Y[t]`` equals ``S[t]`` with the card appended at the
outer end of the played half-row; ``pp[t][h][j]`` marks that place. ``Y`` has one place more than the
limit, since the card may overflow until the action resolves.

**Action as edits.** Every weather action changes each half-row by at most one *removal* (place ``p``)
and at most one *insertion* (place ``q`` of the result, weather ``X[h]``); a swap of two cards is a
removal and an insertion at the same place. The result place ``j`` then copies ``Y`` from ``j-1``,
``j`` or ``j+1``, or takes ``X``, according to whether an insertion lies before ``j`` and a removal at or
before ``j`` (the shifting axioms below); places past the limit must stay empty (a half-row over the
limit is a defeat, so no winning line passes through one). Which removals and insertions happen is
chosen by one ground *operation* variable per action choice: Wind (card moved inward in the wind's
half-row, outward in the far one, or across with ``wind_crosses_tornado``), Rain (far end to either
tornado), Sun (discard), Fog (swap in a column, or move into a column's empty place, landing at the
outer end), Storm (swap two outer ends). The inserted weather equals the weather removed from the
source half-row. The played card is never a removal.

**Must change something.** A chosen operation must leave some place different from ``Y`` (``eff[t]``).
Without an operation (``eff[t]`` false) the card has no effect, which is only allowed when the resolved
action has no changing choice at all (a formula per weather over ``Y``), and never with
``strict_effect``.

**Turn structure.** Cloud resolves as the last weather; the last weather after the turn is the resolved
one. A normal play removes the card from the player's hand and draws the pile's next card if any; a
Redraw plays the pile's next card and refills the hand to its size from the pile. The player of turn
``t`` is fixed (players in order).

**Goal.** ``vic[t]``: the victory condition holds on ``S[t]`` (sequences and counts per half-row, via
cardinality constraints from :mod:`pysat.card`); ``done[t]`` chains "won at some turn <= t" and the
formula asserts ``done[k]``. Turns after a win are left free (every turn clause of turn ``t`` carries the
literal ``done[t]``), so the formula is satisfiable exactly when a win within ``k`` turns exists. Defeats
need no clause: a half-row over the limit has no encoding, and a player with no card and an empty pile
has no move.

**Redundant bounds** (they remove no solution): when the goal rows are forced, the *demand bound*
(:mod:`~stratagem.models.strato.search.demand`): at every turn ``t`` not yet won, for each zone and set U of
needed weathers, the zone's U cards plus the turns ``t..k-1`` that are *entries* (a U card played into
the zone, or a Fog/Storm/Cloud card played while one of them can move cards between rows; a Storm
only while a U card ends a half-row outside the zone) reach U's need. An entry literal only implies
its play (``entry -> card in U or mover``, ``entry -> play in the zone or mover``, ``entry and Storm
-> a U end outside``), so the bound ties the state to the cards and rows of the turns left, which the
solver reasons with directly. The *room bound*, for the zone and U of every needed weather: twice its
U cards plus its empty places, plus the entries and the *doubling* plays left (a mover, or a Sun or
Cloud of U), reach twice the need; it makes the cards of other weathers that crowd a goal row cost
turns. Optionally (``rows_apart``, on for CP-SAT), the per-row sum of missing cards is at most
``k - t`` when no card can change rows at all. Encoding 4 (``strato-sat@4``) added the room bound and
the Storm's end (measured on 2 cores: challenge-1 solo-1's horizon 9 refuted in 7 s instead of 84 s,
and its horizon 10, undecided after 1,500 s with encoding 3, refuted). Encoding 3 replaced encoding
2's count ``U cards >= need(U) - (k - t)`` (no entries) with the demand bound (challenge-1 solo-1's
horizon 9: 296 s to 84 s); encoding 2 added the goal-row count and the open horizon; encoding 1
counted on the whole table only.

**Open horizon.** With ``open_from`` the formula leaves the horizon open: :meth:`StratoCNF.assumptions`
selects "within ``k``" for one solver that answers several horizons in turn (the incremental driver).
Proof records always use the plain formula.

**Designer mode** (``designer``, :mod:`~stratagem.models.strato.designer`): the same formula with the hands
and the pile removed. The start is the deal's rows and last weather (a goal if its rows meet the goal:
the designer's par 0); each turn's card is any weather of the challenge (``card[t]`` is one of them, never
a Redraw), with no player order. The demand and room bounds count the entries of the turns left exactly
as above, with every weather of the challenge playable (so in a challenge with a Fog or a Storm, its Fog,
Storm and Cloud are always movers). This module knows no designer mode (an encoding imports only the rules
and the searches' bounds): :class:`~stratagem.models.strato.designer_sat.DesignerCNF` decodes such a
formula's models against designer mode's successors (the layout each turn makes).

A satisfying assignment is decoded into moves by matching each turn against the rules engine's legal
moves (card, end and resulting rows); a transition the engine does not allow raises
:class:`EncodingError` instead of being reported.

Why one module of over 600 lines: it is one concept, the CNF of "a win within k turns", whose parts
(state, placement, the actions as edits, turn structure, goal, redundant bounds) share one variable
numbering and are read against each other and against this description; split, each part would need
the others' variables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from stratagem.core.words import plural
from stratagem.models.strato.rules.cards import CLOUD, FOG, HAND_SIZE, RAIN, STORM, SUN, WIND
from stratagem.models.strato.rules.challenge import CountGoal, SequenceGoal
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import LOST, ONGOING, STATUS_WORDS, WON, Row, State
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.demand import Demand, can_cross, demands

#: Version of this encoding; proof records name it, and ``verify`` rebuilds the same CNF with it.
ENCODING = "strato-sat@4"
#: The name of its designer-mode formula (``designer=True``: no hands, no pile, each turn any weather of the
#: challenge), which a reach report's certificate names (``reach --designer --proof``) and ``verify``
#: rebuilds: the same clauses of the turns, so its version follows :data:`ENCODING`'s; not the deal's formula,
#: and its first comment says so (a refutation of one proves nothing about the other).
DESIGNER_ENCODING = ENCODING.replace("strato-sat", "strato-designer-sat")

ACTION_WEATHERS = (WIND, RAIN, SUN, FOG, STORM)


class EncodingError(RuntimeError):
    """The SAT model produced something the rules engine rejects: a bug in the model, never an answer."""


Clause = list[int]


class EncodingStopped(Exception):
    """The build of a :class:`StratoCNF` was stopped by its ``stop`` test after ``turns`` of ``horizon``
    turns; the formula is incomplete and must not be used."""

    def __init__(self, turns: int, horizon: int) -> None:
        super().__init__(f"the formula was stopped after {turns} of {horizon} turns")
        self.turns = turns
        self.horizon = horizon


@dataclass
class StratoCNF:
    """The CNF of "a win within ``horizon`` turns" for one deal, with the variables needed to decode it."""

    game: StratoGame
    horizon: int
    demand_bound: bool = True
    #: Leave the horizon open for incremental solving (``None``: the plain CNF, the one proofs refute).
    #: With ``open_from = f`` there is no final ``done[horizon]`` unit; :meth:`assumptions` selects "a win
    #: within ``k``" for any ``f <= k <= horizon``, each ``k`` with its own demand bound behind a selector
    #: literal (see :func:`~stratagem.solvers.satplan.incremental_search`).
    open_from: int | None = None
    #: Add the rows-apart bound of :meth:`_rows_apart` where it holds. Off in the CNF: CaDiCaL does not
    #: reason well with the sum of per-row counts (measured: level-2 solo-1 found optimal in 170 s with
    #: it, 80 s without); CP-SAT, which takes it as one linear constraint, turns it on.
    rows_apart: bool = False
    #: Designer mode (:mod:`~stratagem.models.strato.designer`): the formula of the start's rows and last
    #: weather alone, each turn's card any weather of the challenge, with no hands, pile, Redraw or players
    #: (see the module docstring). Its models are decoded by
    #: :class:`~stratagem.models.strato.designer_sat.DesignerCNF`, against designer mode's successors.
    designer: bool = False
    #: A stop test, asked once a turn of the build (a :class:`~stratagem.core.deadline.Deadline` will do);
    #: when it answers true the build raises :class:`EncodingStopped`. The largest formula the horizon cap
    #: allows (a three-row four-player deal, 42 turns) takes half a minute and some 4 GB.
    stop: Callable[[], bool] | None = None
    clauses: list[Clause] = field(default_factory=list)
    pool: IDPool = field(default_factory=IDPool)
    comments: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        start = self.game.initial_state()
        challenge = self.game.challenge
        # The demands (and rows-apart's "can a card change rows") read the cards a player may still play: in
        # designer mode every weather of the challenge, always.
        playable = start
        if self.designer:
            # The designer's start is a goal when its rows meet the goal (par 0); it is never lost.
            won = challenge.victory(start.rows)
            start = State(start.rows, (), "", 0, start.last, WON if won else ONGOING)
            playable = start._replace(hands=("".join(sorted(challenge.weathers)),))
        self.start = start
        self.rows = len(start.rows)
        self.halves = 2 * self.rows
        self.limit = challenge.limit
        self.weathers = tuple(sorted(set(challenge.weathers) | set("".join(start.hands)) | set(start.pile)
                                     | {c for row in start.rows for c in row.left + row.right}))
        self.players = len(start.hands)
        self.hand_size = HAND_SIZE.get(self.players, 0)
        self.pile = start.pile
        self.options = self.game.options
        self._playable = playable
        # a demand of a weather the deal never holds is left out: the victory clauses already fail
        self._demands = tuple(d for d in demands(challenge, playable) if set(d.weathers) <= set(self.weathers))
        self._guard = 0
        self._turns_built = 0
        self._build()

    @property
    def num_vars(self) -> int:
        return int(self.pool.top)

    # -- variables -----------------------------------------------------------------------------
    def var(self, *key: object) -> int:
        return int(self.pool.id(key))

    def S(self, t: int, h: int, j: int, w: str) -> int:  # noqa: N802 - state letters as in the docstring
        return self.var("S", t, h, j, w)

    def occS(self, t: int, h: int, j: int) -> int:  # noqa: N802
        return self.var("occS", t, h, j)

    def Y(self, t: int, h: int, j: int, w: str) -> int:  # noqa: N802
        return self.var("Y", t, h, j, w)

    def occY(self, t: int, h: int, j: int) -> int:  # noqa: N802
        return self.var("occY", t, h, j)

    # -- clause helpers ------------------------------------------------------------------------
    def add(self, *lits: int) -> None:
        """Add a clause; inside a turn it is guarded by ``done[t]`` (no constraint once won)."""
        clause = list(lits)
        if self._guard:
            clause.append(self._guard)
        self.clauses.append(clause)

    def equal_if(self, cond: Sequence[int], a: int, b: int) -> None:
        """cond -> (a <-> b); ``cond`` is a conjunction of literals."""
        neg = [-c for c in cond]
        self.add(*neg, -a, b)
        self.add(*neg, a, -b)

    def at_most_one(self, lits: Sequence[int]) -> None:
        if len(lits) <= 6:
            for i, a in enumerate(lits):
                for b in lits[i + 1 :]:
                    self.add(-a, -b)
            return
        enc = CardEnc.atmost(list(lits), 1, vpool=self.pool, encoding=EncType.seqcounter)
        for clause in enc.clauses:
            self.add(*clause)

    def exactly_one(self, lits: Sequence[int]) -> None:
        self.add(*lits)
        self.at_most_one(lits)

    def at_least(self, lits: Sequence[int], bound: int, cond: int, select: int = 0) -> None:
        """cond -> at least ``bound`` of ``lits`` (and only if ``select`` holds, when given)."""
        if bound <= 0:
            return
        extra = [-select] if select else []
        if bound > len(lits):
            self.add(-cond, *extra)
            return
        enc = CardEnc.atleast(list(lits), bound, vpool=self.pool, encoding=EncType.seqcounter)
        for clause in enc.clauses:
            self.add(-cond, *extra, *clause)

    def define_or(self, out: int, lits: Iterable[int]) -> None:
        """out <-> OR(lits)."""
        lits = list(lits)
        self.add(-out, *lits)
        for lit in lits:
            self.add(-lit, out)

    # -- the formula ---------------------------------------------------------------------------
    def _build(self) -> None:
        # Counted with plural since stop 61 ("a win within 1 turns" before; verify reads that spelling too).
        self.comments.append(f"{DESIGNER_ENCODING}: Strato designer mode, a designer line within "
                             f"{plural(self.horizon, 'turn')}" if self.designer else
                             f"{ENCODING}: Strato, a win within {plural(self.horizon, 'turn')}")
        # A start the rules say has ended is no game to play on: won is a win within every horizon (turn 0
        # is marked won), lost a win within none (turn 0 both won and not). Without this the formula
        # played on from it, and from a lost start whose half-row is over the limit (cards past the limit
        # have no place in the state) it could find a "win" the rules never allow.
        ended = self.start.status
        if ended:
            self.comments.append(f"the start has ended ({STATUS_WORDS[ended]}): "
                                 + ("a win within every horizon" if ended == WON else "no win within any horizon"))
            self.add(self.var("done", 0))
            if ended == LOST:
                self.add(-self.var("done", 0))
        for t in range(self.horizon + 1):
            self._state(t)
        self._initial()
        done_prev = 0
        for t in range(self.horizon):
            self._turns_built = t
            self._ask_stop()
            done_t = self.var("done", t)
            if t == 0 and not ended:
                self.add(-done_t)
            self._guard = done_t
            self._turn(t)
            self._guard = 0
            vic = self.var("vic", t + 1)
            self._victory(t + 1, vic)
            done_next = self.var("done", t + 1)
            self.add(-done_next, done_t, vic)
            done_prev = done_next
            if self.demand_bound and self.open_from is None:
                self._bounds(t + 1, done_next, self.horizon)
        if self.demand_bound and self.open_from is None and self.horizon > 0:
            self._bounds(0, self.var("done", 0), self.horizon)
        if self.horizon == 0:
            done_prev = self.var("done", 0)
            if not ended:
                self.add(-done_prev)
        if self.open_from is None:
            self.add(done_prev)
        elif self.demand_bound:
            for k in range(max(1, self.open_from), self.horizon + 1):
                for t in range(k + 1):
                    self._bounds(t, self.var("done", t), k, select=self.var("within", k))

    def assumptions(self, k: int) -> list[int]:
        """Literals to assume for "a win within ``k`` turns" in an open-horizon formula (``k <= horizon``).

        Below ``open_from`` the demand bound of ``k`` is absent (the formula is weaker, still exact).
        """
        if self.open_from is None or not 0 <= k <= self.horizon:
            raise ValueError(f"assumptions need an open horizon and 0 <= k <= {self.horizon}, not {k}")
        selected = self.demand_bound and k >= max(1, self.open_from)
        return [self.var("done", k)] + ([self.var("within", k)] if selected else [])

    def _ask_stop(self) -> None:
        """Raise :class:`EncodingStopped` when the stop test says so. Asked before each turn and each
        cardinality bound: the bounds are most of the build (14.5 of 16 CPU s on a three-row four-player
        deal at 42 turns), a third of a second each, more under load."""
        if self.stop is not None and self.stop():
            raise EncodingStopped(self._turns_built, self.horizon)

    def _bounds(self, t: int, done: int, horizon: int, select: int = 0) -> None:
        """Redundant: the demand and room bounds at turn ``t`` (and the rows-apart sum with
        :attr:`rows_apart`)."""
        self._demand(t, done, horizon, select)
        self._room(t, done, horizon, select)
        if self.rows_apart:
            self._rows_apart(t, done, horizon, select)

    def _demand(self, t: int, done: int, horizon: int, select: int = 0) -> None:
        """Unless won: the zone's cards of U at turn ``t`` plus the entries among turns ``t..k-1`` reach
        the need (:mod:`~stratagem.models.strato.search.demand` gives the zones, U and the entry rule)."""
        for demand in self._demands:
            self._ask_stop()
            halves = range(self.halves) if demand.rows is None else [2 * r + s for r in demand.rows for s in (0, 1)]
            cells = [self.S(t, h, j, w) for w in demand.weathers for h in halves for j in range(self.limit)]
            entries = [self._entry(u, demand) for u in range(t, horizon)]
            self.at_least(cells + entries, demand.need, -done, select)

    def _room(self, t: int, done: int, horizon: int, select: int = 0) -> None:
        """Unless won: twice the zone's U cards plus its empty places at turn ``t``, plus the entries and
        the doubling plays among turns ``t..k-1``, reach twice the need (the room bound of
        :mod:`~stratagem.models.strato.search.demand`)."""
        for demand in self._demands:
            if demand.rows is None or not demand.full:
                continue
            self._ask_stop()
            halves = [2 * r + s for r in demand.rows for s in (0, 1)]
            cells = [self.S(t, h, j, w) for w in demand.weathers for h in halves for j in range(self.limit)]
            gains = [lit for u in range(t, horizon) for lit in (self._entry(u, demand), self._double(u, demand))]
            # room = U cards + places holding no card of another weather (counted once each, not twice)
            self.at_least(cells + self._unclaimed(t, halves, demand) + gains, 2 * demand.need, -done, select)

    def _unclaimed(self, t: int, halves: Sequence[int], demand: Demand) -> list[int]:
        """Literals ``free[t][h][j]``, each implying that place ``j`` of half-row ``h`` holds no card of a
        weather outside ``demand``'s (it is empty or holds a U card); defined once per turn."""
        others = [w for w in self.weathers if w not in demand.weathers]
        out = []
        for h in halves:
            for j in range(self.limit):
                key = ("free", t, h, j, "".join(demand.weathers))
                fresh = key not in self.pool.obj2id
                lit = self.var(*key)
                if fresh:
                    for w in others:
                        self.add(-lit, -self.S(t, h, j, w))
                out.append(lit)
        return out

    def _zone_key(self, demand: Demand) -> tuple[str, str]:
        zone = "table" if demand.rows is None else "+".join(f"row{r + 1}" for r in demand.rows)
        return zone, "".join(demand.weathers)

    def _entry(self, t: int, demand: Demand) -> int:
        """A literal that holds only if turn ``t`` is an entry of ``demand`` (defined once per turn)."""
        key = ("entry", t, *self._zone_key(demand))
        fresh = key not in self.pool.obj2id
        lit = self.var(*key)
        if fresh:
            movers = [self.var("card", t, w) for w in demand.movers]
            self.add(-lit, *[self.var("card", t, w) for w in demand.weathers], *movers)
            if demand.rows is not None and len(demand.rows) < self.rows:
                self.add(-lit, *[self.var("play", t, 2 * r + s) for r in demand.rows for s in (0, 1)], *movers)
            self._storm_needs_an_end(t, demand, lit)
        return lit

    def _double(self, t: int, demand: Demand) -> int:
        """A literal that holds only if turn ``t`` may raise the room of ``demand`` by two."""
        key = ("double", t, *self._zone_key(demand))
        fresh = key not in self.pool.obj2id
        lit = self.var(*key)
        if fresh:
            self.add(-lit, *[self.var("card", t, w) for w in demand.doubles if w in self.weathers])
            self._storm_needs_an_end(t, demand, lit)
        return lit

    def _storm_needs_an_end(self, t: int, demand: Demand, lit: int) -> None:
        """``lit`` and a Storm played at turn ``t`` -> some half-row outside the zone, not the played one,
        ends with a U card in ``S[t]`` (:meth:`Demand.storm_brings`)."""
        if demand.rows is None or STORM not in demand.movers or STORM not in self.weathers:
            return
        key = ("storm-end", t, *self._zone_key(demand))
        fresh = key not in self.pool.obj2id
        brings = self.var(*key)
        if fresh:
            ends = []
            for h in range(self.halves):
                if h // 2 in demand.rows:
                    continue
                for j in range(self.limit):
                    end = self.var("u-end", t, h, j, *self._zone_key(demand))
                    self.add(-end, *[self.S(t, h, j, w) for w in demand.weathers])
                    if j + 1 < self.limit:
                        self.add(-end, -self.occS(t, h, j + 1))
                    self.add(-end, -self.var("play", t, h))
                    ends.append(end)
            self.add(-brings, *ends)
        self.add(-lit, -self.var("card", t, STORM), brings)

    def _rows_apart(self, t: int, done: int, horizon: int, select: int = 0) -> None:
        """When no card can change rows, the goal rows' missing cards, counted row by row (a surplus in
        one row cannot help another), are at most the turns left: a turn adds a card to one row only."""
        goal, challenge = self.game.challenge.goal, self.game.challenge
        eligible = [r for r, row in enumerate(self.start.rows) if goal.eligible(row)]
        if len(eligible) != challenge.rows_required or can_cross(self._playable):
            return
        have = self._row_counts(t, eligible)
        bound = len(have) - (horizon - t)
        if bound > 0:
            self.at_least(have, bound, -done, select)

    def _row_counts(self, t: int, rows: Sequence[int]) -> list[int]:
        """Literals ``has[t][r][w][i]``, each implying that row ``r`` holds at least ``i`` cards of ``w`` at
        turn ``t``, for ``i`` up to the goal's need of ``w`` in that row (defined once per turn)."""
        goal = self.game.challenge.goal
        out: list[int] = []
        for r in rows:
            row = self.start.rows[r]
            need: Counter[str] = Counter()
            for _, half_goal in goal.halves():
                need.update(half_goal.needs(row))
            for w, n in sorted(need.items()):
                cells = [self.S(t, h, j, w) for h in (2 * r, 2 * r + 1) for j in range(self.limit)] \
                    if w in self.weathers else []
                for i in range(1, n + 1):
                    key = ("has", t, r, w, i)
                    fresh = key not in self.pool.obj2id
                    lit = self.var(*key)
                    if fresh:
                        self.at_least(cells, i, lit)
                    out.append(lit)
        return out

    def _state(self, t: int) -> None:
        L = self.limit  # noqa: N806
        for h in range(self.halves):
            for j in range(L):
                cells = [self.S(t, h, j, w) for w in self.weathers]
                self.define_or(self.occS(t, h, j), cells)
                self.at_most_one(cells)
                if j + 1 < L:
                    self.add(-self.occS(t, h, j + 1), self.occS(t, h, j))
            # one-hot hand counts and pile progress
        for p in range(self.players):
            for w in self.weathers:
                self.exactly_one([self.var("hand", t, p, w, c) for c in range(self.hand_size + 1)])
        self.exactly_one([self.var("drawn", t, k) for k in range(len(self.pile) + 1)])
        lasts = [self.var("last", t, w) for w in ACTION_WEATHERS if w in self.weathers]
        self.at_most_one(lasts)

    def _initial(self) -> None:
        start = self.start
        for h in range(self.halves):
            cards = start.rows[h // 2].half(h % 2)
            for j in range(self.limit):
                for w in self.weathers:
                    lit = self.S(0, h, j, w)
                    self.add(lit if j < len(cards) and cards[j] == w else -lit)
        for p, hand in enumerate(start.hands):
            counts = Counter(hand)
            for w in self.weathers:
                self.add(self.var("hand", 0, p, w, counts[w]))
        self.add(self.var("drawn", 0, 0))
        for w in ACTION_WEATHERS:
            if w in self.weathers:
                lit = self.var("last", 0, w)
                self.add(lit if start.last == w else -lit)

    # -- one turn ------------------------------------------------------------------------------
    def _turn(self, t: int) -> None:
        self._placement(t)
        self._resolution(t)
        self._operations(t)
        self._shifting(t)
        if self.designer:
            self._any_weather(t)
        else:
            self._hands_and_pile(t)

    def _placement(self, t: int) -> None:
        L, W = self.limit, self.weathers  # noqa: N806
        plays = [self.var("play", t, h) for h in range(self.halves)]
        self.exactly_one(plays)
        cards = [self.var("card", t, w) for w in W]
        self.exactly_one(cards)
        for h in range(self.halves):
            play = self.var("play", t, h)
            for j in range(L + 1):
                ys = [self.Y(t, h, j, w) for w in W]
                self.define_or(self.occY(t, h, j), ys)
                self.at_most_one(ys)
                # pp <-> play & place j empty in S & (j == 0 or place j-1 occupied)
                pp = self.var("pp", t, h, j)
                occ_here = self.occS(t, h, j) if j < L else 0
                occ_before = self.occS(t, h, j - 1) if j > 0 else 0
                cond = [play] + ([-occ_here] if occ_here else []) + ([occ_before] if occ_before else [])
                self.add(-pp, play)
                if occ_here:
                    self.add(-pp, -occ_here)
                if occ_before:
                    self.add(-pp, occ_before)
                self.add(pp, *[-c for c in cond])
                for w in W:
                    if j < L:
                        self.equal_if([-play], self.Y(t, h, j, w), self.S(t, h, j, w))
                        self.equal_if([occ_here], self.Y(t, h, j, w), self.S(t, h, j, w))
                    self.equal_if([pp], self.Y(t, h, j, w), self.var("card", t, w))
                if j < L:
                    # beyond the placed card: empty
                    self.add(-play, occ_here, pp, -self.occY(t, h, j))
                else:
                    self.add(play, -self.occY(t, h, j))
                    self.add(-play, pp, -self.occY(t, h, j))

    def _resolution(self, t: int) -> None:
        """Resolved weather ``act[t][w]`` (Cloud copies the last), the next last weather, effect flag."""
        acts = [w for w in ACTION_WEATHERS if w in self.weathers]
        act = {w: self.var("act", t, w) for w in acts}
        self.at_most_one(list(act.values()))
        for c in self.weathers:
            card = self.var("card", t, c)
            if c == CLOUD:
                for w in acts:
                    self.equal_if([card], act[w], self.var("last", t, w))
            else:
                for w in acts:
                    self.add(-card, act[w] if w == c else -act[w])
        for w in acts:
            self.add(-act[w], self.var("last", t + 1, w))
            self.add(act[w], -self.var("last", t + 1, w))
        if self.options.strict_effect:
            self.add(self.var("eff", t))

    # -- operations ----------------------------------------------------------------------------
    def _op(self, t: int, kind: str, *key: object) -> int:
        op = self.var("op", t, kind, *key)
        self._ops.append(op)
        self.add(-op, self.var("eff", t))
        self.add(-op, self.var("act", t, kind))
        return op

    def _removes(self, t: int, op: int, h: int, j: int) -> None:
        self._rem_by.setdefault((h, j), []).append(op)
        self.add(-op, self.var("rem", t, h, j))
        self.add(-op, self.occY(t, h, j))
        self.add(-op, -self.var("pp", t, h, j))

    def _inserts(self, t: int, op: int, h: int, j: int, source: int) -> None:
        self._ins_by.setdefault((h, j), []).append(op)
        self.add(-op, self.var("ins", t, h, j))
        for w in self.weathers:
            self.equal_if([op], self.var("X", t, h, w), self.var("rw", t, source, w))

    def _end_conditional(self, t: int, op: int, h: int, removal: bool, insertion: int | None) -> None:
        """op -> the outer end card of ``h`` (whatever its place) is removed / gets an insertion."""
        L = self.limit  # noqa: N806
        self.add(-op, self.occY(t, h, 0))
        for j in range(L + 1):
            end = [self.occY(t, h, j)] + ([-self.occY(t, h, j + 1)] if j < L else [])
            neg = [-e for e in end]
            if removal:
                self._rem_by.setdefault((h, j), []).append(op)
                self.add(-op, *neg, self.var("rem", t, h, j))
                self.add(-op, *neg, -self.var("pp", t, h, j))
            if insertion is not None:
                self._ins_by.setdefault((h, j), []).append(op)
                self.add(-op, *neg, self.var("ins", t, h, j))
        if insertion is not None:
            for w in self.weathers:
                self.equal_if([op], self.var("X", t, h, w), self.var("rw", t, insertion, w))

    def _operations(self, t: int) -> None:
        L, W = self.limit, self.weathers  # noqa: N806
        self._ops: list[int] = []
        self._rem_by: dict[tuple[int, int], list[int]] = {}
        self._ins_by: dict[tuple[int, int], list[int]] = {}
        acts = {w for w in ACTION_WEATHERS if w in W}
        for hp in range(self.halves):
            play = self.var("play", t, hp)
            near, far = hp, hp ^ 1
            if WIND in acts:
                for p in range(L + 1):
                    for q in range(p):
                        op = self._op(t, WIND, hp, "near", p, q)
                        self.add(-op, play)
                        self._removes(t, op, near, p)
                        self._inserts(t, op, near, q, near)
                    if self.options.wind_crosses_tornado:
                        for q in range(L + 1):
                            op = self._op(t, WIND, hp, "cross", p, q)
                            self.add(-op, play)
                            self._removes(t, op, near, p)
                            self._inserts(t, op, far, q, near)
                for p in range(L):
                    for q in range(p + 1, L):
                        op = self._op(t, WIND, hp, "far", p, q)
                        self.add(-op, play)
                        self._removes(t, op, far, p)
                        self._inserts(t, op, far, q, far)
            if RAIN in acts:
                for dest in (near, far):
                    op = self._op(t, RAIN, hp, dest)
                    self.add(-op, play)
                    self._end_conditional(t, op, far, removal=True, insertion=None)
                    self._ins_by.setdefault((dest, 0), []).append(op)
                    self.add(-op, self.var("ins", t, dest, 0))
                    for w in W:
                        self.equal_if([op], self.var("X", t, dest, w), self.var("rw", t, far, w))
            if SUN in acts:
                for h in (near, far):
                    for p in range(L + 1):
                        op = self._op(t, SUN, hp, h, p)
                        self.add(-op, play)
                        self._removes(t, op, h, p)
        if FOG in acts:
            for h1, h2, d in self._columns():
                if h1 < h2:
                    op = self._op(t, FOG, "swap", h1, h2, d)
                    self._removes(t, op, h1, d)
                    self._removes(t, op, h2, d)
                    self._inserts(t, op, h1, d, h2)
                    self._inserts(t, op, h2, d, h1)
                op = self._op(t, FOG, "move", h1, h2, d)
                self._removes(t, op, h1, d)
                self.add(-op, -self.occY(t, h2, d))
                for j in range(d + 1):
                    first_empty = [-self.occY(t, h2, j)] + ([self.occY(t, h2, j - 1)] if j else [])
                    self._ins_by.setdefault((h2, j), []).append(op)
                    self.add(-op, *[-c for c in first_empty], self.var("ins", t, h2, j))
                for w in W:
                    self.equal_if([op], self.var("X", t, h2, w), self.var("rw", t, h1, w))
        if STORM in acts:
            for h1 in range(self.halves):
                for h2 in range(h1 + 1, self.halves):
                    op = self._op(t, STORM, h1, h2)
                    self._end_conditional(t, op, h1, removal=True, insertion=h2)
                    self._end_conditional(t, op, h2, removal=True, insertion=h1)
        eff = self.var("eff", t)
        self.add(-eff, *self._ops)
        self.at_most_one(self._ops)
        for h in range(self.halves):
            rems, inss = [], []
            for j in range(L + 1):
                rem, ins = self.var("rem", t, h, j), self.var("ins", t, h, j)
                self.add(-rem, *self._rem_by.get((h, j), []))
                self.add(-ins, *self._ins_by.get((h, j), []))
                rems.append(rem)
                inss.append(ins)
            self.at_most_one(rems)
            self.at_most_one(inss)
            # rw: the weather removed from h (defined by the single removal)
            for w in W:
                rw = self.var("rw", t, h, w)
                self.add(-rw, *rems)
                for j in range(L + 1):
                    self.add(-self.var("rem", t, h, j), -self.Y(t, h, j, w), rw)
                    self.add(-self.var("rem", t, h, j), self.Y(t, h, j, w), -rw)
        self._no_choice(t)

    def _columns(self) -> Iterable[tuple[int, int, int]]:
        """Every (half-row, half-row of another row on the same side, place): Fog's column pairs."""
        for side in (0, 1):
            for r1 in range(self.rows):
                for r2 in range(self.rows):
                    if r1 != r2:
                        for d in range(self.limit + 1):
                            yield 2 * r1 + side, 2 * r2 + side, d

    def _no_choice(self, t: int) -> None:
        """Without an operation, the resolved action must have no changing choice (docs/rules/strato.md)."""
        L, W = self.limit, self.weathers  # noqa: N806
        eff = self.var("eff", t)
        acts = {w for w in ACTION_WEATHERS if w in W}
        for hp in range(self.halves):
            play = self.var("play", t, hp)
            near, far = hp, hp ^ 1
            base = [eff, -play]
            if SUN in acts:
                a = self.var("act", t, SUN)
                self.add(*base, -a, -self.occY(t, far, 0))
                self.add(*base, -a, self.var("pp", t, near, 0))
            if RAIN in acts:
                self.add(*base, -self.var("act", t, RAIN), -self.occY(t, far, 0))
            if WIND in acts:
                a = self.var("act", t, WIND)
                if self.options.wind_crosses_tornado:
                    self.add(*base, -a, self.var("pp", t, near, 0))
                else:
                    self._uniform(t, near, [*base, -a])
                self._uniform(t, far, [*base, -a])
        if FOG in acts:
            a = self.var("act", t, FOG)
            for h1, h2, d in self._columns():
                o1, o2 = self.occY(t, h1, d), self.occY(t, h2, d)
                p1, p2 = self.var("pp", t, h1, d), self.var("pp", t, h2, d)
                self.add(eff, -a, -o1, p1, o2)
                if h1 < h2:
                    for w in W:
                        self.add(eff, -a, -o1, -o2, p1, p2, -self.Y(t, h1, d, w), self.Y(t, h2, d, w))
        if STORM in acts:
            a = self.var("act", t, STORM)
            for h in range(self.halves):
                for w in W:
                    ew = self.var("endw", t, h, w)
                    for j in range(L + 1):
                        end = [self.occY(t, h, j)] + ([-self.occY(t, h, j + 1)] if j < L else [])
                        self.add(*[-e for e in end], self.var("pp", t, h, j), -self.Y(t, h, j, w), ew)
            for h1 in range(self.halves):
                for h2 in range(h1 + 1, self.halves):
                    for w1 in W:
                        for w2 in W:
                            if w1 != w2:
                                self.add(eff, -a, -self.var("endw", t, h1, w1), -self.var("endw", t, h2, w2))

    def _uniform(self, t: int, h: int, prefix: Sequence[int]) -> None:
        """Unless a literal of ``prefix`` holds, the cards of ``h`` other than the played one share a weather."""
        L, W = self.limit, self.weathers  # noqa: N806
        neg = list(prefix)
        for j in range(L):
            for k in range(j + 1, L + 1):
                for w in W:
                    self.add(*neg, -self.occY(t, h, k), self.var("pp", t, h, k), self.var("pp", t, h, j),
                             -self.Y(t, h, j, w), self.Y(t, h, k, w))

    # -- shifting axioms -----------------------------------------------------------------------
    def _shifting(self, t: int) -> None:
        L, W = self.limit, self.weathers  # noqa: N806
        changes = []
        for h in range(self.halves):
            # A[j]: an insertion before j; B[j]: a removal at or before j.
            prefix_ins, prefix_rem = [], []
            a_prev = b_prev = 0
            for j in range(L + 2):
                a = self.var("insbefore", t, h, j)
                if j == 0:
                    self.add(-a)
                else:
                    self.define_or(a, [x for x in (a_prev, self.var("ins", t, h, j - 1)) if x])
                prefix_ins.append(a)
                a_prev = a
                b = self.var("remupto", t, h, j)
                rem_j = self.var("rem", t, h, j) if j <= L else 0
                self.define_or(b, [x for x in (b_prev, rem_j) if x])
                prefix_rem.append(b)
                b_prev = b
            for j in range(L + 2):
                ins_j = self.var("ins", t, h, j) if j <= L else 0
                a, b = prefix_ins[j], prefix_rem[j]
                b1 = prefix_rem[j - 1] if j > 0 else 0
                cases: list[tuple[list[int], int | None]] = []  # (condition, source place or None for X)
                no_ins = [-ins_j] if ins_j else []
                cases.append((no_ins + [-a, -b], j))
                cases.append((no_ins + [-a, b], j + 1))
                if j > 0:
                    cases.append((no_ins + [a] + ([-b1] if b1 else []), j - 1))
                    if b1:
                        cases.append((no_ins + [a, b1], j))
                if ins_j:
                    cases.append(([ins_j], None))
                for cond, src in cases:
                    for w in W:
                        if src is None:
                            value = self.var("X", t, h, w)
                        elif src <= L:
                            value = self.Y(t, h, src, w)
                        else:
                            value = 0
                        if j < L:
                            if value:
                                self.equal_if(cond, self.S(t + 1, h, j, w), value)
                            else:
                                self.add(*[-c for c in cond], -self.S(t + 1, h, j, w))
                        elif value:
                            self.add(*[-c for c in cond], -value)  # past the limit: must stay empty
            # must change something: some place differs from Y
            for j in range(L + 1):
                for w in W:
                    chg = self.var("chg", t, h, j, w)
                    changes.append(chg)
                    y = self.Y(t, h, j, w)
                    if j < L:
                        z = self.S(t + 1, h, j, w)
                        self.add(-chg, y, z)
                        self.add(-chg, -y, -z)
                    else:
                        self.add(-chg, y)
        self.add(-self.var("eff", t), *changes)

    # -- hands and pile ------------------------------------------------------------------------
    def _any_weather(self, t: int) -> None:
        """Designer mode: the card of turn ``t`` is any weather of the challenge, never a Redraw."""
        self.add(-self.var("redraw", t))
        for w in self.weathers:
            if w not in self.game.challenge.weathers:
                self.add(-self.var("card", t, w))

    def _hands_and_pile(self, t: int) -> None:
        W, n, size, pile = self.weathers, self.players, self.hand_size, self.pile  # noqa: N806
        m = len(pile)
        p = (self.start.to_move + t) % n
        redraw = self.var("redraw", t)
        for q in range(n):
            if q == p:
                continue
            for w in W:
                for c in range(size + 1):
                    self.equal_if([], self.var("hand", t + 1, q, w, c), self.var("hand", t, q, w, c))
        for k in range(m + 1):
            drawn = self.var("drawn", t, k)
            # normal play: one card drawn if any
            self.add(redraw, -drawn, self.var("drawn", t + 1, min(k + 1, m)))
            if k == m:
                self.add(-redraw, -drawn)
                continue
            self.add(-redraw, -drawn, self.var("card", t, pile[k]))
            after = min(k + 1 + size, m)
            self.add(-redraw, -drawn, self.var("drawn", t + 1, after))
            refill = Counter(pile[k + 1 : after])
            for w in W:
                self.add(-redraw, -drawn, self.var("hand", t + 1, p, w, refill[w]))
        for w in W:
            card = self.var("card", t, w)
            self.add(redraw, -card, -self.var("hand", t, p, w, 0))
            for k in range(m + 1):
                drawn = self.var("drawn", t, k)
                new = pile[k] if k < m else ""
                for w2 in W:
                    delta = (1 if w2 == new else 0) - (1 if w2 == w else 0)
                    for c in range(size + 1):
                        target = c + delta
                        lit = self.var("hand", t, p, w2, c)
                        if 0 <= target <= size:
                            self.add(redraw, -card, -drawn, -lit, self.var("hand", t + 1, p, w2, target))
                        else:
                            self.add(redraw, -card, -drawn, -lit)

    # -- victory -------------------------------------------------------------------------------
    def _victory(self, t: int, vic: int) -> None:
        challenge = self.game.challenge
        goal = challenge.goal
        meets = []
        for r, row in enumerate(self.start.rows):
            if not goal.eligible(row):
                continue
            ok = self.var("rowok", t, r)
            meets.append(ok)
            for side, half_goal in goal.halves():
                h = 2 * r + side
                self._half_goal(t, h, row, half_goal, ok)
        self.at_least(meets, challenge.rows_required, vic)

    def _half_goal(self, t: int, h: int, row: Row, goal: SequenceGoal | CountGoal, ok: int) -> None:
        if isinstance(goal, SequenceGoal):
            for i, token in enumerate(goal.pattern):
                if i >= self.limit:
                    self.add(-ok)
                    return
                if token == "?":
                    self.add(-ok, self.occS(t, h, i))
                    continue
                weather = row.left_tornado if token == "<" else row.right_tornado if token == ">" else token
                if weather not in self.weathers:
                    self.add(-ok)
                    return
                self.add(-ok, self.S(t, h, i, weather))
            return
        for weather, n in sorted(goal.needs(row).items()):
            if weather not in self.weathers:
                self.add(-ok)
                return
            cells = [self.S(t, h, i, weather) for i in range(min(goal.nearest, self.limit))]
            self.at_least(cells, n, ok)

    # -- decoding ------------------------------------------------------------------------------
    def decode(self, model: Sequence[int]) -> tuple[Move, ...]:
        """The winning line in a model, each turn matched against (and replayed by) the rules engine."""
        true = {lit for lit in model if lit > 0}
        if self.designer:
            raise EncodingError("a designer formula's model is decoded against designer mode "
                                "(stratagem.models.strato.designer_sat.DesignerCNF), not the rules engine")
        state = self.start
        moves: list[Move] = []
        for t in range(self.horizon):
            # The formula only says a win holds when ``vic`` is set; a model may pass through a winning
            # position without saying so and keep playing. The rules engine ends the game there.
            if self.var("done", t) in true or self.game.is_terminal(state):
                break
            rows = self._rows_at(t + 1, true)
            card = next(w for w in self.weathers if self.var("card", t, w) in true)
            half = next(h for h in range(self.halves) if self.var("play", t, h) in true)
            redraw = self.var("redraw", t) in true
            match = [
                (move, after)
                for move, after in self.game.plays(state)
                if move.card == card and move.redraw == redraw and (move.row, move.end) == divmod(half, 2)
                and after.rows == rows
            ]
            if not match:
                raise EncodingError(
                    f"turn {t + 1}: the SAT model plays {card} at row {half // 2 + 1} "
                    f"{'LR'[half % 2]} end and reaches rows the rules engine cannot reach"
                )
            move, state = match[0]
            moves.append(move)
        if not self.game.is_terminal(state) or self.game.returns(state)[0] <= 0:
            raise EncodingError("the SAT model's line does not end in a won position under the rules engine")
        return tuple(moves)

    def _rows_at(self, t: int, true: set[int]) -> tuple[Row, ...]:
        rows = []
        for r, row in enumerate(self.start.rows):
            halves = []
            for side in (0, 1):
                cards = ""
                for j in range(self.limit):
                    here = [w for w in self.weathers if self.S(t, 2 * r + side, j, w) in true]
                    if not here:
                        break
                    cards += here[0]
                halves.append(cards)
            rows.append(Row(row.left_tornado, row.right_tornado, halves[0], halves[1]))
        return tuple(rows)


def open_formula(game: StratoGame, lo: int, hi: int) -> StratoCNF:
    """The formula of every horizon ``lo .. hi`` (incremental SAT's builder, given to
    :func:`~stratagem.solvers.satplan.incremental_search` as ``functools.partial(open_formula, game)``).

    Module-level, so that it pickles: a time-limited solve from a process with several threads (a Dask
    worker) sends it to a fresh interpreter. And here rather than beside its caller in
    ``stratagem.models.strato.solve``: that interpreter imports the module a pickled function names, and
    this one needs only the encoding (0.07 s of CPU with the interpreter's start, against 0.23 s for the
    solver module with the compiled search and numpy it loads), paid by every such solve."""
    return StratoCNF(game, hi, open_from=lo)


def max_turns(state: State) -> int:
    """No game from ``state`` lasts longer: every turn uses at least one card of the hands or pile."""
    return sum(len(hand) for hand in state.hands) + len(state.pile)
