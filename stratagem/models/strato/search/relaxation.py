"""Table-only relaxations of Strato: lower bounds on the turns to victory, as a heuristic and a certificate.

A relaxation forgets the hands and the draw pile and looks at the table only. Seen from one *goal row*
(a row that must meet the victory condition), it keeps:

- the goal row's two half-rows, each card replaced by its *class*: one class per weather the goal names
  for that row (the victory test only asks about those), and one class ``other`` for every other weather;
- when a Storm can swap cards between rows (and no Fog is in play), the class at the outer end of each
  half-row of the other rows, or ``empty``: a Storm only ever takes a card from an outer end.

A relaxed turn places a card of any class that some playable weather has, at an outer end of any row,
then applies the action that card resolves as (a Cloud: any weather that can still be played, or none)
with any target but the card just placed. What the relaxation does not know it chooses freely: a Storm
may bring any class from a row whose ends are not tracked, a Fog may swap in or out a card of any
class, an action inside another row may leave any class (or nothing) at that row's far end. Every turn
may also change nothing beyond the card placed.

**Soundness.** Every legal turn of the rules maps the table's image to the image of the next table by
one relaxed turn: the card played is a playable weather and lands on an outer end, the action it
resolves as is in the relaxed play set, each action's concrete targets exist in the image (a class
sequence keeps the positions of the cards), and a change invisible in the classes is the "no change"
outcome. The end-of-turn limit check applies to both (the relaxation only drops over-limit goal rows,
which the rules lose with), and the victory test of a goal row depends on the classes alone. So a
winning line of ``n`` turns maps to a relaxed path of ``n`` turns from the image of the start to a
relaxed goal, and the relaxed distance is a lower bound. Without Fog and Storm no card changes rows and
each turn places its card in one row and acts there only: the turns split by row, and the bounds of
the rows that must all meet the goal add up. With Fog or Storm the rows interact, and the bound of the
goal rows is the largest of theirs. ``tests/models/strato/test_relaxation.py`` drives random turns of
the rules engine and checks that each one is simulated, and compares the bound with breadth-first
optima.

The search itself is compiled (:mod:`relaxation_kernel`): a breadth-first distance from the start's
image, and for A* a pattern database of every relaxed state's distance to a goal, memoised per
relaxation so that all deals of a challenge share it.

Why one module of over 600 lines: everything here is the one relaxation the soundness argument above is
about -- its classes and images, its relaxed search, and the bound combined over the goal rows. Split,
the argument would cover code in another file that could change without it; the kernel's loops are apart
(:mod:`.relaxation_kernel`), and what is left is the definition and its uses.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from stratagem.core.latest import Latest
from stratagem.models.strato.rules.cards import CLOUD, FOG, RAIN, STORM, SUN, WEATHERS, WIND
from stratagem.models.strato.rules.challenge import (
    ANY_CARD,
    Challenge,
    HalfGoal,
    Options,
    SequenceGoal,
    resolve_token,
)
from stratagem.models.strato.rules.position import WON, Row, State

if TYPE_CHECKING:
    from stratagem.models.strato.search.relaxation_kernel import Relaxed

#: The name the certificate gives this family of relaxations; a record naming another is refused.
RELAXATION = "table-classes@1"

#: Largest relaxed state space searched (codes): beyond it the other rows' ends are not tracked, and a
#: row whose space is larger even so gets the bound 0 (see :func:`relaxed_search`).
MAX_CODES = 40_000_000

#: The letter standing for the class ``other`` in descriptions and goal tests.
OTHER = "."

_ACTION_CODES = {WIND: 1, RAIN: 2, SUN: 3, FOG: 4, STORM: 5}


@dataclass(frozen=True)
class RowRelaxation:
    """The relaxation seen from one goal row, with every parameter its search needs.

    ``classes`` lists each class's weathers (the goal's weathers one by one, then ``other``'s, if any);
    ``plays`` the (class placed, action code) pairs; ``tracked_ends`` whether the other rows' outer ends
    are part of the state; ``other_rows`` how many rows can interact with the goal row (0 without Fog
    or Storm).
    """

    row: int
    named: str
    classes: tuple[str, ...]
    plays: tuple[tuple[int, int], ...]
    limit: int
    other_rows: int
    tracked_ends: bool
    fog: bool
    wind_crosses: bool

    @property
    def k(self) -> int:
        return len(self.classes)

    @property
    def n_ends(self) -> int:
        return 2 * self.other_rows if self.tracked_ends else 0

    @property
    def end_base(self) -> int:
        """Values a tracked end takes: the classes, with an empty half-row counted as ``other`` where there
        is such a class (a Storm may then swap "from" an empty end: more than the rules allow, so still a
        relaxation, and a smaller one), else as one more value."""
        return self.k if len(self.classes) > len(self.named) else self.k + 1

    @property
    def half_rows(self) -> int:
        """Number of half-rows of length 0 to the limit over the classes."""
        return sum(self.k ** n for n in range(self.limit + 1))

    @property
    def codes(self) -> int:
        return int(self.half_rows ** 2 * self.end_base ** self.n_ends)

    def describe(self) -> str:
        names = " ".join(c if i < len(self.named) else f"other={c}" for i, c in enumerate(self.classes))
        if not self.other_rows:
            return f"row {self.row + 1} (classes {names})"
        cross = "the other rows' outer ends tracked" if self.tracked_ends else "the other rows unknown"
        return f"row {self.row + 1} (classes {names}; {cross})"

    def to_data(self) -> dict[str, Any]:
        return {
            "row": self.row + 1,
            "classes": list(self.classes),
            "plays": [list(p) for p in self.plays],
            "tracked_ends": self.tracked_ends,
            "other_rows": self.other_rows,
        }


def playable_weathers(state: State) -> str:
    """Weathers that can still be played: in a hand or the draw pile (in the order of :data:`WEATHERS`)."""
    cards = set("".join(state.hands)) | set(state.pile)
    return "".join(w for w in WEATHERS if w in cards)


def goal_weathers(challenge: Challenge, row: Row) -> str:
    """The weathers the victory condition names for ``row``, in the order of :data:`WEATHERS`."""
    named: set[str] = set()
    for _, half_goal in challenge.goal.halves():
        named.update(half_goal.needs(row))
    return "".join(w for w in WEATHERS if w in named)


def crossing(playable: str, last: str) -> str:
    """The actions among those still to resolve that move cards between rows (Fog, Storm)."""
    acts = set(playable) | ({last} if CLOUD in playable and last else set())
    return "".join(w for w in (FOG, STORM) if w in acts)


def row_relaxation(challenge: Challenge, options: Options, state: State, r: int, track_ends: bool = True
                   ) -> RowRelaxation:
    """The relaxation of ``state`` seen from goal row ``r`` (see the module docstring). ``track_ends``
    false leaves the other rows' ends unknown (a coarser relaxation, searched much faster)."""
    row = state.rows[r]
    playable = playable_weathers(state)
    named = goal_weathers(challenge, row)
    on_table = {c for other in state.rows for c in other.left + other.right}
    others = "".join(w for w in WEATHERS if w not in named and (w in playable or w in on_table))
    classes = tuple(named) + ((others,) if others else ())
    index = {w: i for i, cls in enumerate(classes) for w in cls}
    acts = [w for w in playable if w != CLOUD]
    if CLOUD in playable and state.last and state.last not in acts:
        acts.append(state.last)
    plays: set[tuple[int, int]] = set()
    for w in playable:
        if w == CLOUD:
            plays.add((index[w], 0))
            plays.update((index[w], _ACTION_CODES[a]) for a in acts)
        else:
            plays.add((index[w], _ACTION_CODES[w]))
    cross = crossing(playable, state.last) if len(state.rows) > 1 else ""
    other_rows = len(state.rows) - 1 if cross else 0
    relaxation = RowRelaxation(
        row=r,
        named=named,
        classes=classes,
        plays=tuple(sorted(plays)),
        limit=challenge.limit,
        other_rows=other_rows,
        tracked_ends=track_ends and bool(cross) and FOG not in cross,
        fog=FOG in cross,
        wind_crosses=options.wind_crosses_tornado,
    )
    if relaxation.tracked_ends and relaxation.codes > MAX_CODES:
        relaxation = replace(relaxation, tracked_ends=False)
    return relaxation


# -- images of concrete positions ---------------------------------------------------------------------
def image(relaxation: RowRelaxation, rows: Sequence[Row]) -> int:
    """The code of the relaxed state that the table ``rows`` maps to."""
    from stratagem.models.strato.search.relaxation_kernel import encode_half, half_offsets

    k = relaxation.k
    offsets = half_offsets(k, relaxation.limit)
    index = {w: i for i, cls in enumerate(relaxation.classes) for w in cls}
    goal = rows[relaxation.row]

    def half(cards: str) -> int:
        return encode_half([index[card] for card in cards], k, offsets)

    code = half(goal.left) * relaxation.half_rows + half(goal.right)
    if relaxation.n_ends:
        base = relaxation.end_base
        ends = [index[h[-1]] if h else (k if base == k + 1 else k - 1)
                for r, other in enumerate(rows) if r != relaxation.row for h in (other.left, other.right)]
        if len(ends) == 2:  # one other row: its two ends in the kernel's canonical order
            ends.sort()
        value = 0
        for end in reversed(ends):
            value = value * base + end
        code = code * base ** relaxation.n_ends + value
    return code


def fits(relaxation: RowRelaxation, rows: Sequence[Row]) -> bool:
    """Whether the table's goal row is within the card limit and holds only classified weathers."""
    goal = rows[relaxation.row]
    known = "".join(relaxation.classes)
    cards = goal.left + goal.right + "".join(h[-1] for r, o in enumerate(rows) if r != relaxation.row
                                              for h in (o.left, o.right) if h)
    return (len(goal.left) <= relaxation.limit and len(goal.right) <= relaxation.limit
            and all(c in known for c in cards))


# -- the compiled searches, memoised -------------------------------------------------------------------
def _goal_tables(challenge: Challenge, row: Row, classes: tuple[str, ...], limit: int) -> tuple[np.ndarray, ...]:
    """For each half-row code: whether that half meets its half of the goal (classes read as weathers), and
    how much of it it meets (a score that orders the guided search, never a bound). Kept by the row's
    tornadoes alone (:func:`_goal_tables_of`)."""
    return _goal_tables_of(challenge, row._replace(left="", right=""), classes, limit)


@lru_cache(maxsize=32)
def _goal_tables_of(challenge: Challenge, row: Row, classes: tuple[str, ...], limit: int) -> tuple[np.ndarray, ...]:
    """:func:`_goal_tables`, kept for the 32 keys used last. The goal reads a row only through its tornadoes
    (which weather ``<`` and ``>`` name), so ``row`` holds no card: keyed by the goal row as dealt, each
    deal and each position solved made its own entry (0.1 to 2.5 MB each at the card limit 6), 32 of them
    kept after the solves that made them were done; now the deals of a challenge share a few."""
    from stratagem.models.strato.search.relaxation_kernel import decode_half, half_offsets

    k = len(classes)
    offsets = half_offsets(k, limit)
    h = offsets[limit + 1]
    named = goal_weathers(challenge, row)
    letters = [cls if cls in named else OTHER for cls in classes]
    halves = ["".join(letters[c] for c in decode_half(idx, k, offsets)) for idx in range(h)]
    met, progress = [], []
    for half_goal in (challenge.goal.left, challenge.goal.right):
        met.append(np.array([half_goal is None or half_goal.met(half, row) for half in halves], np.bool_))
        progress.append(np.array([goal_progress(half_goal, half, row) for half in halves], np.int64))
    return met[0], met[1], progress[0], progress[1]


def goal_progress(half_goal: HalfGoal | None, cards: str, row: Row) -> int:
    """How many of the goal's cards a half-row already has in place (0 for no goal)."""
    if half_goal is None:
        return 0
    if isinstance(half_goal, SequenceGoal):
        return sum(1 for token, card in zip(half_goal.pattern, cards, strict=False)
                   if token == ANY_CARD or resolve_token(token, row) == card)
    window = cards[: half_goal.nearest]
    return sum(min(n, window.count(resolve_token(token, row))) for token, n in half_goal.counts)


#: Bytes of half-row tables kept in all (:data:`_all_tables`), the ones used last kept first. A table weighs
#: 2.2 MB for 3 classes up to 6 cards, 19 MB for 4 and 103 MB for 5 (17 s to build), so a five-class one is kept
#: with the four-class ones used with it; a larger one is kept alone while it is the one used last.
TABLE_BYTES = 128 << 20

#: ``relaxation_kernel.half_tables(k, limit)`` of the 8 latest ``(k, limit)``, within :data:`TABLE_BYTES` (the
#: one used last always: its caller is using it). By count alone, eight tables of 5 or 6 classes kept
#: hundreds of MB after the solves that built them. A build that its ``stop`` ends raises
#: :class:`~relaxation_kernel.TablesStopped` and keeps nothing.
_all_tables: Latest[dict[str, Any]] = Latest(8, TABLE_BYTES, lambda tables: sum(a.nbytes for a in tables.values()))


def _half_tables(k: int, limit: int, stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    from stratagem.models.strato.search import relaxation_kernel as kernel

    return _all_tables.get((k, limit), lambda: kernel.half_tables(k, limit, stop))


def _tables(k: int, limit: int, stop: Callable[[], bool] | None = None) -> tuple[np.ndarray, ...]:
    from stratagem.models.strato.search import relaxation_kernel as kernel

    tables = _half_tables(k, limit, stop)
    return tuple(tables[name] for name in kernel.TABLE_ORDER)


def _guide(challenge: Challenge, row: Row, relaxation: RowRelaxation) -> tuple[Any, ...]:
    """What the kernel's admissible estimate needs (see ``relaxation_kernel.estimate``): each half-row's
    class counts, the cards of each class the goal needs in the row, the goal halves' lengths, and how
    many needed cards one relaxed turn can add (two when a card of a needed class can also bring one
    from another row, by Storm or Fog)."""
    from stratagem.models.strato.search.relaxation_kernel import FOG as FOG_ACTION
    from stratagem.models.strato.search.relaxation_kernel import STORM as STORM_ACTION

    index = {w: i for i, cls in enumerate(relaxation.classes) for w in cls}
    need = np.zeros(relaxation.k, np.int64)
    lengths = []
    for half_goal in (challenge.goal.left, challenge.goal.right):
        lengths.append(0 if half_goal is None else half_goal.length())
        if half_goal is not None:
            for weather, n in half_goal.needs(row).items():
                need[index[weather]] += n
    brings = relaxation.other_rows > 0 and any(
        cls < len(relaxation.named) and act in (FOG_ACTION, STORM_ACTION) for cls, act in relaxation.plays)
    per_turn = 2 if brings else 1
    return (_half_tables(relaxation.k, relaxation.limit)["counts"], need, lengths[0], lengths[1], per_turn)


def _kernel_args(relaxation: RowRelaxation) -> tuple[Any, ...]:
    plays = np.array(relaxation.plays, dtype=np.int64).reshape(-1, 2)
    return (relaxation.k, relaxation.limit, relaxation.half_rows, plays, relaxation.n_ends, relaxation.end_base,
            relaxation.other_rows, relaxation.fog, relaxation.wind_crosses)


def _relaxed(challenge: Challenge, goal_row: Row, relaxation: RowRelaxation, guided: bool = False,
             stop: Callable[[], bool] | None = None) -> Relaxed:
    """The kernel's :class:`~relaxation_kernel.Relaxed` for ``relaxation`` (its tables, goal tests and, if
    ``guided``, the estimate's guide), built once per search object. ``stop`` ends the tables' build
    (:class:`~relaxation_kernel.TablesStopped`)."""
    from stratagem.models.strato.search import relaxation_kernel as kernel

    k, limit, _, plays, n_ends, end_base, other_rows, fog, wind = _kernel_args(relaxation)
    tables = _tables(k, limit, stop)
    goal_left, goal_right = _goal_tables(challenge, goal_row, relaxation.classes, relaxation.limit)[:2]
    return kernel.Relaxed(k, limit, plays, n_ends, end_base, other_rows, fog, wind, tables, goal_left,
                          goal_right, _guide(challenge, goal_row, relaxation) if guided else None)


def relaxed_successors(relaxation: RowRelaxation, code: int) -> list[int]:
    """The relaxed successors of one state (for tests and explanations)."""
    from stratagem.models.strato.search import relaxation_kernel as kernel

    k, limit, _, plays, n_ends, end_base, other_rows, fog, wind = _kernel_args(relaxation)
    never = np.zeros(relaxation.half_rows, np.bool_)  # the successors do not depend on the goal
    relaxed = kernel.Relaxed(k, limit, plays, n_ends, end_base, other_rows, fog, wind, _tables(k, limit), never,
                             never)
    return list(relaxed.successors(code))


@dataclass
class RelaxedSearch:
    """One goal row's relaxed breadth-first search from a position's image.

    ``distance`` is the relaxed distance to a goal (``None``: no relaxed goal within the depth searched,
    so the row can never meet the goal); ``layers`` holds every reached state's distance from the start
    (``-1``: not reached; the goal layer is not written), from which :meth:`on_shortest_line` tells the
    states of optimal relaxed lines.
    """

    challenge: Challenge
    goal_row: Row
    relaxation: RowRelaxation
    start: int
    distance: int | None
    layers: np.ndarray
    stopped: bool = False
    exact: bool = True
    _memo: np.ndarray | None = field(default=None, repr=False)
    _relaxed: Relaxed | None = field(default=None, repr=False)
    _layer_of: dict[tuple[Row, ...], int] = field(default_factory=dict, repr=False)

    def layer(self, rows: tuple[Row, ...]) -> int:
        """Relaxed turns from the start's image to ``rows``'s image (``-1``: not within the goal's depth).

        The goal layer itself is not written (the search stops at the first goal it generates): a goal
        image not otherwise reached counts as lying at the distance, which can only keep more tables in
        the guided search, never fewer."""
        known = self._layer_of.get(rows)
        if known is None:
            if not self.exact or not fits(self.relaxation, rows):
                known = -1
            else:
                code = image(self.relaxation, rows)
                known = int(self.layers[code])
                if known < 0 and self.distance is not None and self._is_goal_image(code):
                    known = self.distance
            self._layer_of[rows] = known
        return known

    def _is_goal_image(self, code: int) -> bool:
        goal_left, goal_right = _goal_tables(self.challenge, self.goal_row, self.relaxation.classes,
                                             self.relaxation.limit)[:2]
        row = code // (self.relaxation.end_base ** self.relaxation.n_ends)
        return bool(goal_left[row // self.relaxation.half_rows] and goal_right[row % self.relaxation.half_rows])

    def on_shortest_line(self, rows: tuple[Row, ...]) -> bool:
        """Whether ``rows``'s image lies on a shortest relaxed line from the start's image to a goal.

        A winning line exactly as long as :attr:`distance` maps to such a relaxed line turn by turn (each
        of its turns one relaxed turn further from the start), so only tables passing this test can
        be on it.
        """
        from stratagem.models.strato.search import relaxation_kernel as kernel

        if self.distance is None or not self.exact or not fits(self.relaxation, rows):
            return False
        code = image(self.relaxation, rows)
        if self.layers[code] < 0:
            return self._is_goal_image(code)  # the goal layer is not written (see :meth:`layer`)
        score_left, score_right = _goal_tables(self.challenge, self.goal_row, self.relaxation.classes,
                                               self.relaxation.limit)[2:]
        if self._memo is None or self._relaxed is None:
            self._memo = np.zeros(self.layers.shape[0], np.int8)
            self._relaxed = _relaxed(self.challenge, self.goal_row, self.relaxation)
        return bool(kernel.reaches(self._relaxed, code, self.layers, self.distance, self._memo, score_left,
                                   score_right))


def relaxed_search(challenge: Challenge, state: State, relaxation: RowRelaxation, max_depth: int = 120,
                   deadline: Callable[[], bool] | None = None, guided: bool = True, hint: int = 0) -> RelaxedSearch:
    """Breadth-first search of the relaxation from ``state``'s image to the nearest relaxed goal.

    ``guided`` prunes it with an admissible estimate (the distance found is the same, see
    ``relaxation_kernel.forward``); ``hint`` is a lower bound on that distance known beforehand (it only
    saves restarts)."""
    from stratagem.models.strato.search import relaxation_kernel as kernel

    goal_row = state.rows[relaxation.row]
    if relaxation.codes > MAX_CODES or not fits(relaxation, state.rows):
        # too many relaxed states to search (or a table the relaxation cannot classify): 0 is the only
        # bound claimed for this row, and no shortest relaxed lines are known
        return RelaxedSearch(challenge, goal_row, relaxation, -1, 0, np.zeros(0, np.int8), exact=False)
    stopped = RelaxedSearch(challenge, goal_row, relaxation, -1, None, np.zeros(0, np.int8), stopped=True)
    if deadline is not None and deadline():
        # Stopped before the search's tables are built: they take 0.5 s and more (level 2, a first search in
        # the process), so a sub-second limit already spent on the command's start ran over by that much.
        return stopped
    k, limit, h, plays, n_ends, end_base, other_rows, fog, wind = _kernel_args(relaxation)
    try:  # the build looks at the deadline too (half_tables' stop)
        tables = _tables(k, limit, deadline)
    except kernel.TablesStopped:
        return stopped
    goal_left, goal_right = _goal_tables(challenge, goal_row, relaxation.classes, limit)[:2]
    start = image(relaxation, state.rows)
    depth, layers = kernel.forward(start, relaxation.codes, goal_left, goal_right, k, limit, plays, n_ends,
                                   end_base, other_rows, fog, wind, tables, max_depth, deadline,
                                   _guide(challenge, goal_row, relaxation) if guided else None, hint)
    if depth == -3:  # no goal within max_depth: still a bound, but no shortest relaxed lines to follow
        return RelaxedSearch(challenge, goal_row, relaxation, start, max_depth + 1, layers, exact=False)
    return RelaxedSearch(challenge, goal_row, relaxation, start, depth if depth >= 0 else None, layers,
                         stopped=depth == -2)


# -- the bound of a position ---------------------------------------------------------------------------
@dataclass(frozen=True)
class RelaxationBound:
    """A lower bound on the turns to victory, and how it was combined from the goal rows' relaxations.

    ``rows`` holds each eligible row's relaxed search (its ``distance`` ``None`` when the relaxation has no
    goal, so that row can never meet it); ``combine`` is ``"sum"`` (no card can change rows) or ``"max"``;
    ``bound`` is the least, over the sets of ``rows_required`` eligible rows, of their combined distances
    (``None`` when no set can win). ``stopped``: a deadline cut a search short, and the bound is not known.
    """

    bound: int | None
    combine: str
    rows: tuple[RelaxedSearch, ...]
    stopped: bool = False
    track_ends: bool = True
    #: The rows meet the goal already (they combine to 0) and no result is written: the bound is 1, since
    #: only the end of a turn declares a victory.
    goal_met: bool = False

    def to_data(self) -> dict[str, Any]:
        return {
            "relaxation": RELAXATION,
            "ends": "tracked" if self.track_ends else "unknown",
            "bound": self.bound,
            "combine": self.combine,
            "rows": [dict(search.relaxation.to_data(), distance=search.distance) for search in self.rows],
        }

    def describe(self) -> str:
        parts = "; ".join(f"{s.relaxation.describe()}: {_distance_words(s)}" for s in self.rows)
        met = "; the goal is met but a turn must end to win it: 1" if self.goal_met else ""
        if len(self.rows) == 1:
            return f"table-only relaxation of {parts}{met}"
        how = "summed, as no card can change rows" if self.combine == "sum" else "the largest, as rows interact"
        return f"table-only relaxation, distances {how}: {parts}{met}"


def _distance_words(search: RelaxedSearch) -> str:
    if search.distance is None:
        return "never"
    if search.start < 0 and search.relaxation.codes > MAX_CODES:
        return f"0 (not searched: {search.relaxation.codes:,} relaxed states)"
    if search.start < 0:  # a half-row past the card limit (a lost start), or a card the classes do not name
        return "0 (not searched: the table does not fit the relaxation)"
    return str(search.distance)


def combine(distances: Sequence[int | None], required: int, how: str) -> int | None:
    """The least combined distance over sets of ``required`` rows (``None`` when every set has a ``None``)."""
    best: int | None = None
    for chosen in combinations(range(len(distances)), required):
        values = [distances[i] for i in chosen]
        if any(v is None for v in values):
            continue
        known = [v for v in values if v is not None]
        total = sum(known) if how == "sum" else max(known, default=0)
        best = total if best is None else min(best, total)
    return best


def goal_relaxations(challenge: Challenge, options: Options, state: State, track_ends: bool = True
                     ) -> tuple[RowRelaxation, ...]:
    """The relaxation of ``state`` seen from each row that can meet the goal."""
    return tuple(row_relaxation(challenge, options, state, r, track_ends)
                 for r, row in enumerate(state.rows) if challenge.goal.eligible(row))


def combination(relaxations: Sequence[RowRelaxation]) -> str:
    """How the goal rows' distances combine: ``"sum"`` where no card can change rows, else ``"max"``."""
    return "max" if any(r.other_rows for r in relaxations) else "sum"


def relaxation_bound(challenge: Challenge, options: Options, state: State,
                     deadline: Callable[[], bool] | None = None, track_ends: bool = True,
                     hint: int = 0, at_least: int | None = None) -> RelaxationBound:
    """The relaxation bound of ``state``: each eligible row's relaxed distance, combined.

    ``track_ends`` chooses between the two members of the family where a Storm crosses rows: the other
    rows' outer ends tracked (sharper) or unknown (faster); both are sound. ``hint``, a guess at each
    row's distance, only decides where the pruned search starts (see ``relaxation_kernel.forward``):
    the distances found do not depend on it.

    ``at_least`` (``n``) asks only whether the bound is at least ``n``: each row's search stops after
    ``n - 1`` relaxed turns, and a row with no goal that near gets the distance ``n`` (not exact). Its
    combined bound is then at least ``n`` exactly when the full bound is (both combinations are
    monotone, and a distance of ``n`` or more counts as ``n``), and otherwise it is the full bound. This
    is all a certificate for a line of ``n`` turns needs, and the searches skip every relaxed state
    that could only lie on longer relaxed lines (challenge 1's solo-1: 2.4 CPU s instead of 6.1).
    """
    if state.status == WON:
        return RelaxationBound(0, "sum", (), track_ends=track_ends)
    searches: list[RelaxedSearch] = []
    for relaxation in goal_relaxations(challenge, options, state, track_ends):
        if at_least is not None and at_least >= 2:
            search = relaxed_search(challenge, state, relaxation, max_depth=at_least - 1, deadline=deadline,
                                    hint=at_least - 1)
        else:
            search = relaxed_search(challenge, state, relaxation, deadline=deadline, hint=hint)
        if search.stopped:
            return RelaxationBound(None, "", tuple(searches), stopped=True, track_ends=track_ends)
        searches.append(search)
    how = combination([s.relaxation for s in searches])
    bound = combine([s.distance for s in searches], challenge.rows_required, how)
    if bound == 0:  # the goal is met but not yet declared: victory comes only at the end of a turn
        return RelaxationBound(1, how, tuple(searches), track_ends=track_ends, goal_met=True)
    return RelaxationBound(bound, how, tuple(searches), track_ends=track_ends)


def tracks_ends(challenge: Challenge, options: Options, state: State) -> bool:
    """Whether tracking the other rows' ends changes the relaxation of ``state`` at all."""
    return any(r.tracked_ends for r in goal_relaxations(challenge, options, state))


# -- distances to a goal, on demand --------------------------------------------------------------------
class GoalDistance:
    """One goal row's relaxed distance to a goal from the image of any table, found on demand.

    Built from a relaxation of some position, it stays a relaxation of every position that follows it
    (the cards that can still be played, and so the plays, only shrink; the table holds no weather the
    classes do not name), so its distances are lower bounds there too. Each question is a depth-first
    search bounded by the turns left (``relaxation_kernel.within``) whose failures raise a per-state
    lower bound kept across questions.
    """

    def __init__(self, challenge: Challenge, goal_row: Row, relaxation: RowRelaxation,
                 stop: Callable[[], bool] | None = None) -> None:
        """``stop`` ends the build of the relaxation's tables (``relaxation_kernel.TablesStopped``)."""
        self.relaxation = relaxation
        self.searchable = relaxation.codes <= MAX_CODES
        self._relaxed = _relaxed(challenge, goal_row, relaxation, guided=True, stop=stop) if self.searchable else None
        self._lower = np.zeros(relaxation.codes if self.searchable else 0, np.int8)
        self._exact: dict[int, int] = {}

    def at_most(self, rows: Sequence[Row], cap: int, stop_at: float = -1.0) -> int:
        """The relaxed distance from ``rows``'s image to a goal when it is at most ``cap``, else ``cap + 1``
        (a row the relaxation cannot classify, or too large a space: 0, which bounds nothing);
        ``relaxation_kernel.OutOfTime`` when ``stop_at`` passes first (see :meth:`code_at_most`)."""
        if not self.searchable or not fits(self.relaxation, rows):
            goal = rows[self.relaxation.row]
            over = len(goal.left) > self.relaxation.limit or len(goal.right) > self.relaxation.limit
            return cap + 1 if over else 0
        return self.code_at_most(image(self.relaxation, rows), cap, stop_at)

    def code_at_most(self, code: int, cap: int, stop_at: float = -1.0) -> int:
        """:meth:`at_most` of the relaxed state ``code`` (the image of a table that fits; searchable only);
        ``relaxation_kernel.OutOfTime`` when ``stop_at`` (a ``time.perf_counter`` time, negative: none)
        passes first, checked before each deepening and inside the kernel's search. A stopped question
        leaves only what it proved (the per-state lower bounds), so later answers are the same as without
        a stop."""
        known = self._exact.get(code)
        if known is not None:
            return known if known <= cap else cap + 1
        from stratagem.models.strato.search import relaxation_kernel as kernel

        assert self._relaxed is not None  # searchable
        budget = int(self._lower[code])
        while budget <= cap:
            # the kernel reads the clock only every 65,536 steps: many short searches in a row would not
            if stop_at >= 0 and time.perf_counter() >= stop_at:
                raise kernel.OutOfTime("relaxed search stopped by the clock")
            if kernel.within(self._relaxed, code, budget, self._lower, stop_at):
                self._exact[code] = budget
                return budget
            budget = max(budget + 1, int(self._lower[code]))
        return cap + 1


class TableDistance:
    """A table's relaxed distance to a goal: each goal row's :class:`GoalDistance` (the relaxations of
    ``state``, so of every position that follows it), combined over the sets of ``rows_required`` goal
    rows as the relaxation bound combines them (:func:`combination`), the least set. The hidden-pile
    policy and agent use it as a guide, a heuristic: nothing they claim rests on it."""

    def __init__(self, challenge: Challenge, options: Options, state: State,
                 stop: Callable[[], bool] | None = None) -> None:
        """``stop`` ends the build of the relaxations' tables (``relaxation_kernel.TablesStopped``): the
        first build in a process takes 0.3 s and more per goal row."""
        self.relaxations = goal_relaxations(challenge, options, state)
        self.distances = [GoalDistance(challenge, state.rows[r.row], r, stop) for r in self.relaxations]
        self.combines = combination(self.relaxations)
        self.sets = list(combinations(range(len(self.relaxations)), challenge.rows_required))

    @property
    def nbytes(self) -> int:
        """The bytes of its goal rows' per-state lower bounds (one byte a relaxed state, up to
        :data:`MAX_CODES`: 10.8 MB for challenge 1's goal row), by far the most it keeps."""
        return sum(d._lower.nbytes for d in self.distances)

    def __call__(self, rows: Sequence[Row], cap: int, stop_at: float = -1.0) -> int:
        """The combined distance of ``rows``, each row's counted up to ``cap`` (farther: ``cap + 1``);
        ``relaxation_kernel.OutOfTime`` when ``stop_at`` (a ``time.perf_counter`` time, negative: none)
        passes first."""
        each = [d.at_most(rows, cap, stop_at) for d in self.distances]
        how = max if self.combines == "max" else sum
        return min((how(each[i] for i in chosen) for chosen in self.sets), default=0)
