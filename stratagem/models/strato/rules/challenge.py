"""Challenge cards: weathers in play, tornado pairs, the card limit and the victory condition.

A victory condition is stated per half-row, relative to its tornado (docs/rules/strato.md): either an exact
sequence read outward from the tornado (challenge 0: ``RRRR`` beside the rain tornado), or counts of
weathers among the k cards nearest the tornado (challenge 1: 3 winds and 2 rains next to the rain
tornado). Patterns may name a row's own tornadoes symbolically: ``<`` is the left tornado's weather,
``>`` the right tornado's, ``?`` any card. Cards beyond the pattern are allowed while under the limit.

A count goal counts each weather once: its keys may not name one weather twice on any row it can apply
to (a literal ``R`` and ``<`` on a row whose left tornado is rain). The counted cards are different cards
("3 winds and 2 rains": five cards), so such a goal would mean the sum, which is what its needs, length and
the SAT and CP-SAT models read, while a per-key test reads the larger count; :func:`count_goal_problem`
refuses it wherever a challenge is made, so no reader meets it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from stratagem.models.strato.rules.cards import LEFT_HANDED, NAMES, RIGHT_HANDED
from stratagem.models.strato.rules.position import LEFT, RIGHT, Row

LEFT_TORNADO, RIGHT_TORNADO, ANY_CARD = "<", ">", "?"


def resolve_token(token: str, row: Row) -> str:
    """The weather a goal token names on ``row``: ``<`` / ``>`` its left / right tornado's, else itself."""
    if token == LEFT_TORNADO:
        return row.left_tornado
    if token == RIGHT_TORNADO:
        return row.right_tornado
    return token


@dataclass(frozen=True)
class SequenceGoal:
    """The half-row starts, from its tornado outward, with exactly these cards."""

    pattern: str

    def met(self, cards: str, row: Row) -> bool:
        if len(cards) < len(self.pattern):
            return False
        for token, card in zip(self.pattern, cards, strict=False):
            if token != ANY_CARD and resolve_token(token, row) != card:
                return False
        return True

    def needs(self, row: Row) -> Counter[str]:
        """How many cards of each weather the goal needs in this half-row."""
        return Counter(resolve_token(t, row) for t in self.pattern if t != ANY_CARD)

    def length(self) -> int:
        """The fewest cards the half-row can hold when the goal is met."""
        return len(self.pattern)

    def to_data(self) -> Any:
        return self.pattern

    def describe(self) -> str:
        return f"starts {self.pattern} outward from the tornado"


@dataclass(frozen=True)
class CountGoal:
    """Among the ``nearest`` cards next to the tornado there are at least ``counts`` of each weather."""

    nearest: int
    counts: tuple[tuple[str, int], ...]

    def met(self, cards: str, row: Row) -> bool:
        window = cards[: self.nearest]
        return all(window.count(resolve_token(token, row)) >= n for token, n in self.counts)

    def needs(self, row: Row) -> Counter[str]:
        need: Counter[str] = Counter()
        for token, n in self.counts:
            need[resolve_token(token, row)] += n
        return need

    def length(self) -> int:
        return sum(n for _, n in self.counts)

    def to_data(self) -> Any:
        return {"nearest": self.nearest, "counts": dict(self.counts)}

    def describe(self) -> str:
        counts = " and ".join(f"{n} {token}" for token, n in self.counts)
        return f"{counts} among the {self.nearest} cards nearest the tornado"


HalfGoal = SequenceGoal | CountGoal


@dataclass(frozen=True)
class RowGoal:
    """The victory condition of one row; ``tornadoes`` (e.g. ``"RW"``) restricts which rows may count."""

    left: HalfGoal | None
    right: HalfGoal | None
    tornadoes: str = ""

    def eligible(self, row: Row) -> bool:
        return not self.tornadoes or self.tornadoes == row.left_tornado + row.right_tornado

    def halves(self) -> tuple[tuple[int, HalfGoal], ...]:
        return tuple((side, goal) for side, goal in ((LEFT, self.left), (RIGHT, self.right)) if goal)

    def met(self, row: Row) -> bool:
        return self.eligible(row) and all(goal.met(row.half(side), row) for side, goal in self.halves())


def possible_pairs(goal: RowGoal, weathers: str, pairs: tuple[str, ...]) -> tuple[str, ...]:
    """The tornado pairs (left first) of the rows ``goal`` can be met on: the goal's ``tornadoes`` if it
    names them, else the challenge's named pairs, else every left-hand with every right-hand weather in
    play (a seeded deal pairs them at random)."""
    if goal.tornadoes:
        return (goal.tornadoes,)
    if pairs:
        return pairs
    return tuple(a + b for a in weathers if a in LEFT_HANDED for b in weathers if b in RIGHT_HANDED)


def count_goal_problem(goal: RowGoal, weathers: str, pairs: tuple[str, ...]) -> tuple[str, str] | None:
    """``(half, problem)`` if a count goal of ``goal`` names one weather twice on a row it can apply to
    (``half`` is ``"left"`` or ``"right"``), else None. See the module docstring for why it is refused."""
    for side, half_goal in goal.halves():
        if not isinstance(half_goal, CountGoal):
            continue
        for pair in possible_pairs(goal, weathers, pairs):
            row = Row(pair[0], pair[1], "", "")
            named: dict[str, str] = {}
            for token, _ in half_goal.counts:
                weather = resolve_token(token, row)
                if weather in named:
                    symbolic = {token, named[weather]} & {LEFT_TORNADO, RIGHT_TORNADO}
                    where = f" on a row with tornadoes {pair}" if symbolic else ""
                    return ("left" if side == LEFT else "right",
                            f"counts name {NAMES.get(weather, weather)} twice ({named[weather]} and {token}){where}: "
                            "count each weather once (give its total under one key)")
                named[weather] = token
    return None


@dataclass(frozen=True)
class Challenge:
    """A challenge card: everything the setup and the victory test need."""

    name: str
    level: int
    weathers: str
    rows: int
    pairs: tuple[str, ...]
    limit: int
    goal: RowGoal
    rows_required: int
    players: int = 1

    def __post_init__(self) -> None:
        problem = count_goal_problem(self.goal, self.weathers, self.pairs)
        if problem is not None:
            raise ValueError(f"goal.{problem[0]}: {problem[1]}")

    def rows_meeting(self, rows: tuple[Row, ...]) -> int:
        return sum(1 for row in rows if self.goal.met(row))

    def victory(self, rows: tuple[Row, ...]) -> bool:
        return self.rows_meeting(rows) >= self.rows_required

    def to_data(self) -> dict[str, Any]:
        """The ``[challenge]`` table this challenge is read from (see :mod:`puzzle`)."""
        goal: dict[str, Any] = {}
        if self.goal.left is not None:
            goal["left"] = self.goal.left.to_data()
        if self.goal.right is not None:
            goal["right"] = self.goal.right.to_data()
        if self.goal.tornadoes:
            goal["tornadoes"] = self.goal.tornadoes
        data: dict[str, Any] = {
            "name": self.name,
            "level": self.level,
            "weathers": self.weathers,
            "rows": self.rows,
            "limit": self.limit,
            "rows_required": self.rows_required,
            "players": self.players,
            "goal": goal,
        }
        if self.pairs:
            data["pairs"] = list(self.pairs)
        return data


@dataclass(frozen=True)
class Options:
    """Rules options (docs/rules/strato.md), defaults first.

    ``strict_effect``: a play whose action can change nothing is illegal (default: it is played with no
    effect). ``wind_crosses_tornado``: Wind may carry a card across the tornadoes (default: a card moved
    by Wind stays in its half-row).
    """

    strict_effect: bool = False
    wind_crosses_tornado: bool = False

    def to_data(self) -> dict[str, Any]:
        return {"strict_effect": self.strict_effect, "wind_crosses_tornado": self.wind_crosses_tornado}
