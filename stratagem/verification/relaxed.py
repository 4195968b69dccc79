"""The relaxation ``table-classes@1``, written again for ``verify`` from its definition alone.

This module shares nothing with the solver's relaxation (``models/strato/relaxation*``) or its searches
(``guided``, the compiled kernels): it reads the deal through the rules engine's cards, rows and
challenge, and implements the relaxation as docs/formats.md ("The relaxation table-classes@1") defines
it, in plain Python. A soundness bug in the solver's relaxation is then not repeated here unless the
definition itself is wrong, which ``tests/verification/test_relaxation_lemma.py`` tests against the
rules engine.

Seen from one goal row, a relaxed state is ``(left, right, ends)``: the goal row's two half-rows as
strings of *class letters* read outward from the tornado (a named weather's own letter, ``.`` for the
class ``other``), and, when the other rows' outer ends are tracked, their classes: one sorted pair per
other row, the pairs sorted (every relaxed turn treats a row's two ends, and the other rows, alike, so
this merges states without changing any distance). An empty half-row's end is ``.`` where the class
``other`` exists, else ``-``.

:func:`relaxed_bound` is the bound of a position (each goal row's relaxed distance, combined);
:class:`GoalDistances` answers "how far is this table's image from a goal" for the pruned search of
:mod:`.bounded`. The searches are A* and a depth-first search bounded by the turns left, both pruned by
:func:`View.estimate`, an admissible and consistent lower bound argued where it is defined.

Why one module of over 600 lines: it is one concept, verify's own relaxation, kept in one file on
purpose so that it can be read against its definition in docs/formats.md (and shares nothing with the
solver's).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache, partial
from itertools import combinations

from stratagem.core.callcaches import per_call
from stratagem.models.strato.rules.cards import CLOUD, FOG, RAIN, STORM, SUN, WEATHERS, WIND
from stratagem.models.strato.rules.challenge import (
    ANY_CARD,
    LEFT_TORNADO,
    RIGHT_TORNADO,
    Challenge,
    Options,
    SequenceGoal,
)
from stratagem.models.strato.rules.position import WON, Row, State

#: The relaxation this module implements; a certificate naming another is refused.
RELAXATION = "table-classes@1"

#: A goal row whose relaxed space (counted as docs/formats.md says) is larger is searched with the other
#: rows' ends unknown, and if it is still larger, not at all (distance 0).
MAX_STATES = 40_000_000

#: Relaxed turns searched at most; a goal row with no goal that near gets this many plus one.
MAX_TURNS = 120

#: The class letter of ``other``, and the end value of an empty half-row where there is no ``other``.
OTHER, EMPTY = ".", "-"

#: No action (a Cloud played first, or resolving as nothing).
NO_ACTION = ""

State3 = tuple[str, str, tuple[str, ...]]


def playable(state: State) -> str:
    """Weathers that can still be played: those in a hand or in the draw pile."""
    cards = set("".join(state.hands)) | set(state.pile)
    return "".join(w for w in WEATHERS if w in cards)


def goal_weathers(challenge: Challenge, row: Row) -> str:
    """The weathers the victory condition names for ``row`` (its tornado tokens resolved)."""
    named: set[str] = set()
    for _, half_goal in challenge.goal.halves():
        named.update(half_goal.needs(row))
    return "".join(w for w in WEATHERS if w in named)


@dataclass(frozen=True)
class View:
    """The relaxation of one position seen from goal row ``row``: everything its relaxed turns depend on.

    ``classes`` holds the class letters (the named weathers, then ``.`` when some other weather is in
    play or on the table); ``plays`` the pairs (class placed, action it may resolve as, ``""`` for
    none); ``others`` how many other rows interact with the goal row (0 when no Fog or Storm can act);
    ``tracked`` whether their ends are part of the state; ``fog`` whether a Fog can act.
    """

    challenge: Challenge
    row: int
    goal_row: Row
    named: str
    classes: str
    plays: tuple[tuple[str, str], ...]
    limit: int
    others: int
    tracked: bool
    fog: bool
    wind_crosses: bool
    searchable: bool
    _class_of: dict[str, str] = field(default_factory=dict, repr=False, compare=False, hash=False)
    _goal: dict[tuple[str, str], bool] = field(default_factory=dict, repr=False, compare=False, hash=False)
    _estimates: dict[tuple[str, ...], int] = field(default_factory=dict, repr=False, compare=False, hash=False)
    _progress: dict[tuple[str, str], int] = field(default_factory=dict, repr=False, compare=False, hash=False)

    # -- definition (cached: the searches ask millions of times; a view never changes) ----------------
    @cached_property
    def end_values(self) -> str:
        """What a tracked end can hold: a class, or ``-`` (empty) when there is no class ``other``."""
        return self.classes if OTHER in self.classes else self.classes + EMPTY

    def describe(self) -> str:
        names = " ".join(c if c != OTHER else "other" for c in self.classes)
        if not self.others:
            return f"row {self.row + 1} (classes {names})"
        cross = "the other rows' outer ends tracked" if self.tracked else "the other rows unknown"
        return f"row {self.row + 1} (classes {names}; {cross})"

    def image(self, rows: Sequence[Row]) -> State3 | None:
        """The relaxed state of the table ``rows`` (``None``: a goal half-row over the limit, or a weather
        outside the classes)."""
        cls = self._class_of
        goal = rows[self.row]
        if len(goal.left) > self.limit or len(goal.right) > self.limit:
            return None
        try:
            left = "".join(cls[c] for c in goal.left)
            right = "".join(cls[c] for c in goal.right)
            ends: tuple[str, ...] = ()
            if self.tracked:
                empty = OTHER if OTHER in self.classes else EMPTY
                pairs = []
                for r, other in enumerate(rows):
                    if r != self.row:
                        a = cls[other.left[-1]] if other.left else empty
                        b = cls[other.right[-1]] if other.right else empty
                        pairs.append(a + b if a <= b else b + a)
                ends = tuple(sorted(pairs))
        except KeyError:
            return None
        return left, right, ends

    def is_goal(self, state: State3) -> bool:
        """Whether both goal half-rows meet the goal, their classes read as weathers (``.`` as none)."""
        key = (state[0], state[1])
        met = self._goal.get(key)
        if met is None:
            goal = self.challenge.goal
            met = self._goal[key] = (goal.left is None or goal.left.met(state[0], self.goal_row)) and \
                (goal.right is None or goal.right.met(state[1], self.goal_row))
        return met

    def successors(self, state: State3) -> set[State3]:
        """Every relaxed state one relaxed turn from ``state`` (``state`` itself may be among them)."""
        out: set[State3] = set()
        for c, a in self.plays:
            for side in (0, 1):
                self._at_goal_row(state, c, a, side, out)
            if self.others:
                self._at_other_row(state, c, a, out)
        return out

    def _at_goal_row(self, state: State3, c: str, a: str, side: int, out: set[State3]) -> None:
        """The card of class ``c`` placed at the outer end of the goal row's half ``side``, then its action."""
        lim = self.limit
        left, right, ends = state
        near = (left if side == 0 else right) + c
        far = right if side == 0 else left
        results: list[tuple[str, str, tuple[str, ...]]] = [(near, far, ends)]
        if a == WIND:
            results += [(n, far, ends) for n in _wind_in(near)]
            results += [(near, f, ends) for f in _wind_out(far)]
            if self.wind_crosses:
                for n, x in _take_near(near):
                    results += [(n, f, ends) for f in _insertions(far, x)]
        elif a == RAIN:
            if far:
                x, rest = far[-1], far[:-1]
                results.append((near, x + rest, ends))
                results.append((x + near, rest, ends))
        elif a == SUN:
            results += [(n, far, ends) for n in _remove(near, True)]
            results += [(near, f, ends) for f in _remove(far, False)]
        elif a == STORM and self.others:
            if far:
                if not self.tracked:
                    results += [(near, far[:-1] + x, ends) for x in self.classes]
                else:
                    for i, pair in enumerate(ends):
                        for j in (0, 1):
                            if pair[j] != EMPTY:
                                results.append((near, far[:-1] + pair[j], _set_end(ends, i, j, far[-1])))
            if self.tracked:
                results += [(near, far, e) for e in _end_swaps(ends, None)]
        elif a == FOG and self.others and self.fog:
            results += [(n, far, ends) for n in self._fogged(near, True)]
            results += [(near, f, ends) for f in self._fogged(far, False)]
        for n, f, e in results:
            if len(n) <= lim and len(f) <= lim:
                out.add((n, f, e) if side == 0 else (f, n, e))

    def _at_other_row(self, state: State3, c: str, a: str, out: set[State3]) -> None:
        """The card of class ``c`` placed at an outer end of another row, then its action."""
        left, right, ends = state
        if not self.tracked:
            if a == STORM:
                if left:
                    out.update((left[:-1] + x, right, ends) for x in self.classes)
                if right:
                    out.update((left, right[:-1] + x, ends) for x in self.classes)
                if left and right:
                    out.add((left[:-1] + right[-1], right[:-1] + left[-1], ends))
            elif a == FOG and self.fog:
                out.update((n, right, ends) for n in self._fogged(left, False) if len(n) <= self.limit)
                out.update((left, n, ends) for n in self._fogged(right, False) if len(n) <= self.limit)
            return  # any other play there leaves the image as it was
        for i in range(len(ends)):
            for j in (0, 1):
                placed = _put_end(ends, i, j, c)  # not canonical yet: (i, j) still names the card placed
                if a in (WIND, RAIN, SUN):
                    # the action stays in that row: its other end may become anything
                    out.update((left, right, _set_end(placed, i, 1 - j, v)) for v in self.end_values)
                    continue
                settled = _canon(placed)
                out.add((left, right, settled))
                if a != STORM:
                    continue
                if left and right and left[-1] != right[-1]:
                    out.add((left[:-1] + right[-1], right[:-1] + left[-1], settled))
                for ti, tj in _positions(placed):
                    v = placed[ti][tj]
                    if (ti, tj) == (i, j) or v == EMPTY:
                        continue
                    if left and left[-1] != v:
                        out.add((left[:-1] + v, right, _set_end(placed, ti, tj, left[-1])))
                    if right and right[-1] != v:
                        out.add((left, right[:-1] + v, _set_end(placed, ti, tj, right[-1])))
                out.update((left, right, e) for e in _end_swaps(placed, (i, j)))

    def _fogged(self, half: str, near: bool) -> list[str]:
        """What a Fog can make of one goal half-row: a card (not the one just placed, the outer end of the
        ``near`` half) replaced by any class or taken away, or a card of any class arriving at the end."""
        out = [half[:p] + x + half[p + 1:] for p in range(len(half) - (1 if near else 0)) for x in self.classes
               if x != half[p]]
        out += _remove(half, near)
        out += [half + x for x in self.classes]
        return out

    def progress(self, state: State3) -> int:
        """How much of the goal the goal row's halves already show (orders the searches, bounds nothing):
        for a sequence, the cards matching the pattern; for counts, the cards counted toward them."""
        key = (state[0], state[1])
        known = self._progress.get(key)
        if known is None:
            known = 0
            for side, goal in self.challenge.goal.halves():
                half = key[side]
                if isinstance(goal, SequenceGoal):
                    known += sum(1 for t, c in zip(goal.pattern, half, strict=False)
                                 if t == ANY_CARD or goal_token(t, self.goal_row) == c)
                else:
                    window = half[:goal.nearest]
                    known += sum(min(n, window.count(goal_token(t, self.goal_row))) for t, n in goal.counts)
            self._progress[key] = known
        return known

    @cached_property
    def room_bound(self) -> bool:
        """Whether the estimate's room term applies: tracked ends, and no play that can take a card out of
        the goal row places a named card."""
        return self.tracked and not any(c != OTHER and a in (SUN, STORM, FOG) for c, a in self.plays)

    @cached_property
    def _estimate_terms(self) -> tuple[int, int, tuple[tuple[str, int], ...], int, int]:
        """What :meth:`estimate` reads of the view itself: the cards each goal half needs, the row's needs
        per weather, and how many cards (per turn) and named classes (per turn) a relaxed turn can add."""
        need_left, need_right, needs = _needs(self.challenge, self.goal_row)
        per_card = 2 if self.fog and self.others else 1
        per_class = 2 if self.others and any(c != OTHER and a in (STORM, FOG) for c, a in self.plays) else 1
        return need_left, need_right, needs, per_card, per_class

    # -- the estimate that prunes the searches ----------------------------------------------------
    def estimate(self, state: State3) -> int:
        """A lower bound on the relaxed turns from ``state`` to a goal (0 exactly at a goal).

        - A non-goal needs a turn.
        - Cards: the goal needs ``need`` cards in the row; a relaxed turn adds one card to the row (the
          one placed), two with a Fog that brings one in from another row. Per half-row the shortfalls
          fall by two a turn at most (the card placed, and one an action moves or brings into that half).
        - Classes: the goal needs ``needs[x]`` cards of named class ``x`` in the row; their total shortfall
          falls by one a turn at most (a card of a named class placed in the row, or one brought in from
          another row by a Storm or a Fog, which takes one out or adds nothing else; Wind and Rain move
          cards within the row, Sun takes one away), and by two only when a card of a named class that
          resolves as a Storm or a Fog is placed in the goal row.

        - Room, with the other rows' ends tracked and every play that can take a card out of the goal row
          (Sun, Storm) placing a card of class ``other``: the goal row never loses a card (Sun takes out one
          where it was placed, Storm swaps, Wind and Rain move cards within the row), so it can gain at most
          ``room`` = 2 * limit - its cards more. A turn lowers the shortfall ``D`` of named cards by one at
          most: by placing a named card (which takes a place) or by a Storm that swaps one in from a tracked
          end. So at least ``E = D - room`` Storm swaps must bring named cards from the ends, which hold
          ``S`` named cards now; every other kind of turn puts at most two named cards there (the card
          placed, and whatever an action in that row leaves at its other end), and a swap can put back
          only a named card that is surplus in the goal row (``P`` of them; a needed one taken out is
          missed again). So ``D + ceil((E - S - P) / 2)`` turns at least.

        The estimate is admissible; the searches below do not need it to be consistent.
        """
        key = (state[0], state[1])
        known = self._estimates.get(key + state[2] if self.room_bound else key)
        if known is not None:
            return known
        left, right = key
        if self.is_goal(state):
            return 0
        need_left, need_right, needs, per_card, per_class = self._estimate_terms
        row_short = max(0, need_left + need_right - len(left) - len(right))
        half_short = max(0, need_left - len(left)) + max(0, need_right - len(right))
        cards = left + right
        deficit = sum(max(0, n - cards.count(x)) for x, n in needs)
        known = max(1, -(-row_short // per_card), -(-half_short // 2), -(-deficit // per_class))
        if self.room_bound:
            supply = sum(1 for pair in state[2] for x in pair if x != OTHER and x != EMPTY)
            surplus = sum(max(0, cards.count(x) - n) for x, n in needs)
            short = deficit + len(cards) - 2 * self.limit - supply - surplus
            if short > 0:
                known = max(known, deficit + (short + 1) // 2)
            self._estimates[key + state[2]] = known
            return known
        self._estimates[key] = known
        return known


def goal_token(token: str, row: Row) -> str:
    """A goal pattern's token as a weather of ``row`` (``<``, ``>``: its tornadoes' weathers)."""
    return row.left_tornado if token == LEFT_TORNADO else row.right_tornado if token == RIGHT_TORNADO else token


# -- changes of one half-row and of the tracked ends (memoised: a few thousand of each at most) -----------
# (kept for one call: core.callcaches empties them as verify returns; kept after it, those of six checked
# challenge-1 proofs held 123 MB of the allocator, a few thousand strings made at verify's peak)
@per_call
@lru_cache(maxsize=1 << 16)
def _wind_in(near: str) -> tuple[str, ...]:
    """A card of the half-row just played on (not the outer one, just placed) moved toward the tornado."""
    n = len(near)
    out = {near[:q] + near[p] + near[q:p] + near[p + 1:] for p in range(n - 1) for q in range(p)}
    out.discard(near)
    return tuple(sorted(out))


@per_call
@lru_cache(maxsize=1 << 16)
def _wind_out(far: str) -> tuple[str, ...]:
    """A card of the other half-row moved away from the tornado."""
    n = len(far)
    out = {far[:p] + far[p + 1:q + 1] + far[p] + far[q + 1:] for p in range(n) for q in range(p + 1, n)}
    out.discard(far)
    return tuple(sorted(out))


@per_call
@lru_cache(maxsize=1 << 16)
def _remove(half: str, near: bool) -> tuple[str, ...]:
    """One card taken away (not the outer one of the ``near`` half: it was just placed)."""
    return tuple(sorted({half[:p] + half[p + 1:] for p in range(len(half) - (1 if near else 0))}))


@per_call
@lru_cache(maxsize=1 << 16)
def _take_near(near: str) -> tuple[tuple[str, str], ...]:
    """A card of the half-row just played on (not the one placed) taken out: what is left, and the card."""
    return tuple(sorted({(near[:p] + near[p + 1:], near[p]) for p in range(len(near) - 1)}))


@per_call
@lru_cache(maxsize=1 << 16)
def _insertions(half: str, x: str) -> tuple[str, ...]:
    """Card ``x`` inserted anywhere in ``half``."""
    return tuple(sorted({half[:q] + x + half[q:] for q in range(len(half) + 1)}))


@per_call
@lru_cache(maxsize=1 << 16)
def _canon(pairs: tuple[str, ...]) -> tuple[str, ...]:
    """Tracked ends in canonical order: each row's pair sorted, the rows sorted."""
    return tuple(sorted(p if p[0] <= p[1] else p[1] + p[0] for p in pairs))


@per_call
@lru_cache(maxsize=1 << 16)
def _put_end(ends: tuple[str, ...], i: int, j: int, v: str) -> tuple[str, ...]:
    """End ``j`` of other row ``i`` set to ``v``, every other end where it was (not canonical)."""
    pair = ends[i]
    return ends[:i] + ((v + pair[1]) if j == 0 else (pair[0] + v),) + ends[i + 1:]


@per_call
@lru_cache(maxsize=1 << 16)
def _set_end(ends: tuple[str, ...], i: int, j: int, v: str) -> tuple[str, ...]:
    """End ``j`` of other row ``i`` set to ``v``, in canonical order."""
    return _canon(_put_end(ends, i, j, v))


@per_call
@lru_cache(maxsize=64)
def _positions(ends: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    return tuple((i, j) for i in range(len(ends)) for j in (0, 1))


@per_call
@lru_cache(maxsize=1 << 16)
def _end_swaps(ends: tuple[str, ...], played: tuple[int, int] | None) -> tuple[tuple[str, ...], ...]:
    """Two tracked ends (neither ``played``, neither empty, of different classes) exchanged, in canonical
    order. ``ends`` may be in any order; ``played`` is an index into it."""
    places = _positions(ends)
    out = []
    for s in range(len(places)):
        for t in range(s + 1, len(places)):
            if played in (places[s], places[t]):
                continue
            (si, sj), (ti, tj) = places[s], places[t]
            a, b = ends[si][sj], ends[ti][tj]
            if EMPTY in (a, b) or a == b:
                continue
            out.append(_canon(_put_end(_put_end(ends, si, sj, b), ti, tj, a)))
    return tuple(out)


@per_call
@lru_cache(maxsize=256)
def _needs(challenge: Challenge, row: Row) -> tuple[int, int, tuple[tuple[str, int], ...]]:
    """Cards each goal half needs at least, and the cards of each weather the row needs in all."""
    total: dict[str, int] = {}
    lengths = [0, 0]
    for side, half_goal in challenge.goal.halves():
        lengths[side] = half_goal.length()
        for w, n in half_goal.needs(row).items():
            total[w] = total.get(w, 0) + n
    return lengths[0], lengths[1], tuple(sorted(total.items()))


# -- the views of a position --------------------------------------------------------------------------
def view(challenge: Challenge, options: Options, state: State, r: int, track_ends: bool = True) -> View:
    """The relaxation of ``state`` seen from goal row ``r`` (docs/formats.md defines every part)."""
    row = state.rows[r]
    can_play = playable(state)
    named = goal_weathers(challenge, row)
    on_table = {c for other in state.rows for c in other.left + other.right}
    other_weathers = [w for w in WEATHERS if w not in named and (w in can_play or w in on_table)]
    classes = named + (OTHER if other_weathers else "")
    class_of = {w: w for w in named} | {w: OTHER for w in other_weathers}
    cloud_acts = [w for w in can_play if w != CLOUD]
    if CLOUD in can_play and state.last and state.last not in cloud_acts:
        cloud_acts.append(state.last)
    plays: set[tuple[str, str]] = set()
    for w in can_play:
        if w == CLOUD:
            plays.add((class_of[w], NO_ACTION))
            plays.update((class_of[w], a) for a in cloud_acts)
        else:
            plays.add((class_of[w], w))
    acting = set(can_play) | ({state.last} if CLOUD in can_play and state.last else set())
    crossing = {w for w in (FOG, STORM) if w in acting} if len(state.rows) > 1 else set()
    others = len(state.rows) - 1 if crossing else 0
    k = len(classes)
    halves = sum(k ** n for n in range(challenge.limit + 1))
    end_count = k if other_weathers else k + 1
    tracked = track_ends and bool(crossing) and FOG not in crossing \
        and halves * halves * end_count ** (2 * others) <= MAX_STATES
    return View(challenge, r, row, named, classes, tuple(sorted(plays)), challenge.limit, others, tracked,
                FOG in crossing, options.wind_crosses_tornado, halves * halves <= MAX_STATES, class_of)


def views(challenge: Challenge, options: Options, state: State, track_ends: bool = True) -> tuple[View, ...]:
    """The relaxation of ``state`` from each row that may meet the goal."""
    return tuple(view(challenge, options, state, r, track_ends)
                 for r, row in enumerate(state.rows) if challenge.goal.eligible(row))


# -- searches -----------------------------------------------------------------------------------------
class Stopped(Exception):
    """The deadline passed during a relaxed search."""


@dataclass
class SearchCount:
    """States expanded by the relaxed searches (for the verdict's report)."""

    expanded: int = 0


def distance(v: View, start: State3, cap: int, stop: Callable[[], bool] | None = None,
             count: SearchCount | None = None, report: Callable[[int], None] | None = None) -> int | None:
    """The relaxed distance from ``start`` to the nearest goal when it is at most ``cap``; ``cap + 1`` when
    it is larger; ``None`` when no goal is reachable at all. A* with :meth:`View.estimate` (consistent,
    so the first goal reached is a nearest one); raises :class:`Stopped` when ``stop()`` says so.
    ``report`` is told the states expanded so far, as often as ``stop`` is asked."""
    if v.is_goal(start):
        return 0
    best = {start: 0}
    h0 = v.estimate(start)
    if h0 > cap:
        return cap + 1
    heap: list[tuple[int, int, int, int, State3]] = [(h0, 0, 0, 0, start)]
    tie = 0
    pruned = False
    expanded = 0
    while heap:
        f, _, _, g, s = heapq.heappop(heap)
        if best.get(s, -1) != g:
            continue
        if f == g and v.is_goal(s):  # popped in order of f, which is g at a goal: a nearest goal
            if count is not None:
                count.expanded += expanded
            return g
        expanded += 1
        if expanded % 256 == 0:
            if report is not None:
                report(expanded)
            if stop is not None and stop():
                raise Stopped
        for t in v.successors(s):
            ng = g + 1
            old = best.get(t)
            if old is not None and old <= ng:
                continue
            h = v.estimate(t)
            if ng + h > cap:
                pruned = True
                continue
            best[t] = ng
            tie += 1
            heapq.heappush(heap, (ng + h, -ng, -v.progress(t), ng, t))
    if count is not None:
        count.expanded += expanded
    return cap + 1 if pruned else None


def _report_row(progress: Callable[[int, int], None], number: int, before: int, expanded: int) -> None:
    progress(number, before + expanded)


@dataclass(frozen=True)
class RowDistance:
    """One goal row's relaxed distance from the start's image (``None``: no relaxed goal; ``searched``
    false: the row's relaxed space is too large, or the table cannot be classified, and 0 is claimed)."""

    view: View
    distance: int | None
    searched: bool = True

    def words(self) -> str:
        if not self.searched:
            return "0 (not searched)"
        return "never" if self.distance is None else str(self.distance)


@dataclass(frozen=True)
class Bound:
    """The relaxation bound of a position: each goal row's distance, combined (``sum`` when no card can
    change rows, else ``max``) and minimised over the sets of rows that could meet the goal."""

    bound: int | None
    combine: str
    rows: tuple[RowDistance, ...]

    def describe(self) -> str:
        parts = "; ".join(f"{r.view.describe()}: {r.words()}" for r in self.rows)
        if len(self.rows) <= 1:
            return f"table-only relaxation of {parts}" if parts else "no row can meet the goal"
        how = "summed, as no card can change rows" if self.combine == "sum" else "the largest, as rows interact"
        return f"table-only relaxation, distances {how}: {parts}"


def combine(values: Sequence[int | None], required: int, how: str) -> int | None:
    """The least combined distance over the sets of ``required`` rows (``None``: every set has a row
    that never meets the goal)."""
    best: int | None = None
    for chosen in combinations(values, required):
        if any(v is None for v in chosen):
            continue
        known = [v for v in chosen if v is not None]
        total = sum(known) if how == "sum" else max(known, default=0)
        best = total if best is None else min(best, total)
    return best


def relaxed_bound(challenge: Challenge, options: Options, state: State, track_ends: bool = True,
                  at_least: int | None = None, stop: Callable[[], bool] | None = None,
                  count: SearchCount | None = None, progress: Callable[[int, int], None] | None = None) -> Bound:
    """The relaxation bound of ``state`` (docs/formats.md): 0 for a won position; else each goal row's
    relaxed distance, combined and minimised over row sets, and at least 1 (victory is declared only at
    the end of a turn).

    ``at_least`` ``n`` asks only whether the bound is at least ``n``: each row is searched ``n - 1`` turns
    deep, and a row with no goal that near counts ``n``; the result is at least ``n`` exactly when the
    bound is (the combinations are monotone). ``progress`` is told the goal row being searched (from 1)
    and the states expanded so far."""
    if state.status == WON:
        return Bound(0, "sum", ())
    cap = MAX_TURNS if at_least is None or at_least < 2 else at_least - 1
    rows = []
    vs = views(challenge, options, state, track_ends)
    searched = count if count is not None else SearchCount()
    for number, v in enumerate(vs, 1):
        if stop is not None and stop():
            raise Stopped
        start = v.image(state.rows)
        if not v.searchable or start is None:
            rows.append(RowDistance(v, 0, searched=False))
            continue
        report = None
        if progress is not None:
            progress(number, searched.expanded)
            report = partial(_report_row, progress, number, searched.expanded)
        rows.append(RowDistance(v, distance(v, start, cap, stop, searched, report)))
    how = "max" if any(v.others for v in vs) else "sum"
    bound = combine([r.distance for r in rows], challenge.rows_required, how)
    if bound == 0:
        bound = 1
    return Bound(bound, how, tuple(rows))


class GoalDistances:
    """Relaxed distances to a goal from the images of later tables, in the views of the start (which stay
    relaxations of every later position: the weathers that can be played only shrink, and the table
    holds no weather the classes do not cover). Each question is a depth-first search bounded by the
    turns left; what it proves ("no goal within ``r`` turns of this state") is kept for later questions."""

    def __init__(self, vs: Iterable[View], stop: Callable[[], bool] | None = None) -> None:
        self.views = tuple(vs)
        self.stop = stop
        self._lower: list[dict[State3, int]] = [{} for _ in self.views]
        self._exact: list[dict[State3, int]] = [{} for _ in self.views]
        self.expanded = 0

    def at_most(self, i: int, rows: Sequence[Row], cap: int) -> int:
        """View ``i``'s relaxed distance from ``rows``'s image when it is at most ``cap``, else ``cap + 1``
        (0 for a table the view cannot classify or a space too large to search: it bounds nothing)."""
        v = self.views[i]
        if not v.searchable:
            return 0
        start = v.image(rows)
        if start is None:
            goal = rows[v.row]
            return cap + 1 if len(goal.left) > v.limit or len(goal.right) > v.limit else 0
        exact = self._exact[i].get(start)
        if exact is not None:
            return exact if exact <= cap else cap + 1
        lower = self._lower[i]
        budget = max(lower.get(start, 0), v.estimate(start))
        while budget <= cap:
            if self._within(v, lower, start, budget):
                self._exact[i][start] = budget
                return budget
            budget = max(budget + 1, lower.get(start, 0))
        return cap + 1

    def at_least(self, i: int, rows: Sequence[Row]) -> int:
        """A lower bound on view ``i``'s relaxed distance from ``rows``'s image, without searching: the exact
        distance if known, else what earlier searches proved and the estimate (a large number for a goal
        row over the card limit; 0 where the view bounds nothing)."""
        v = self.views[i]
        if not v.searchable:
            return 0
        start = v.image(rows)
        if start is None:
            goal = rows[v.row]
            return MAX_TURNS + 1 if len(goal.left) > v.limit or len(goal.right) > v.limit else 0
        exact = self._exact[i].get(start)
        if exact is not None:
            return exact
        return max(self._lower[i].get(start, 0), v.estimate(start))

    def _within(self, v: View, lower: dict[State3, int], s: State3, budget: int) -> bool:
        """Whether a relaxed goal lies at most ``budget`` turns from ``s``; a failure raises ``lower[s]``."""
        if v.is_goal(s):
            return True
        if budget <= 0 or max(lower.get(s, 0), v.estimate(s)) > budget:
            return False
        self.expanded += 1
        if self.stop is not None and self.expanded % 256 == 0 and self.stop():
            raise Stopped
        for t in v.successors(s):
            if t != s and self._within(v, lower, t, budget - 1):
                return True
        if lower.get(s, 0) < budget + 1:
            lower[s] = budget + 1
        return False
