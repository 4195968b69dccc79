"""Shared builders for the Strato tests: challenges, games and move/row look-ups in the notation.

Every test speaks the project's notation: rows as on the table (``RW(RW)RW``), positions as
``ROWS HANDS PILE PLAYER LAST [won|lost]`` and moves as ``[!]CARD ROW END[:TARGET]``.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

from stratagem.models.strato.rules.challenge import Challenge, CountGoal, HalfGoal, Options, RowGoal, SequenceGoal
from stratagem.models.strato.rules.notation import Move, format_move, parse_move
from stratagem.models.strato.rules.position import State, format_rows, parse_state
from stratagem.models.strato.rules.puzzle import load_puzzle
from stratagem.models.strato.rules.turns import StratoGame

REPO = Path(__file__).resolve().parents[3]
PUZZLES = REPO / "puzzles" / "strato"


@cache
def puzzle_challenge(name: str) -> Challenge:
    """The challenge of ``puzzles/strato/<name>.toml`` (read once a process: a challenge is frozen, and
    tests ask for one in loops over hundreds of states, 3 ms a reading)."""
    return load_puzzle(PUZZLES / f"{name}.toml").challenge


def _half(goal: HalfGoal | str | None) -> HalfGoal | None:
    if goal is None or isinstance(goal, SequenceGoal | CountGoal):
        return goal
    return SequenceGoal(goal)


def make_challenge(
    weathers: str = "RW",
    pairs: tuple[str, ...] = ("RW",),
    limit: int = 8,
    left: HalfGoal | str | None = "<<<<<<<<",
    right: HalfGoal | str | None = None,
    rows_required: int = 1,
    tornadoes: str = "",
    players: int = 1,
    rows: int | None = None,
    name: str = "test challenge",
) -> Challenge:
    """A challenge built directly. The default goal (8 cards of the left tornado's weather) is out of
    reach of the small positions the action tests use, so their games never end by victory."""
    return Challenge(
        name=name,
        level=0,
        weathers=weathers,
        rows=rows if rows is not None else (len(pairs) if pairs else len(weathers) // 2),
        pairs=tuple(pairs),
        limit=limit,
        goal=RowGoal(_half(left), _half(right), tornadoes),
        rows_required=rows_required,
        players=players,
    )


def sandbox_for(state: State) -> Challenge:
    """A limit-8 challenge whose weathers and pairs are those of ``state``'s tornadoes."""
    pairs = tuple(row.left_tornado + row.right_tornado for row in state.rows)
    return make_challenge(weathers="".join(pairs), pairs=pairs)


def game(text: str, challenge: Challenge | None = None, **options: bool) -> tuple[StratoGame, State]:
    """The game and start state for a position in the notation, with ``Options(**options)``."""
    state = parse_state(text)
    return StratoGame(challenge or sandbox_for(state), Options(**options), state), state


def play_map(g: StratoGame, state: State, prefix: str) -> dict[str, str]:
    """Legal moves whose card/row/end part is ``prefix`` (e.g. ``"W1R"``, ``"!S2L"``), each with the rows
    it leaves, in the engine's order."""
    return {
        format_move(move): format_rows(after.rows)
        for move, after in g.plays(state)
        if format_move(move).split(":")[0] == prefix
    }


def move_texts(g: StratoGame, state: State) -> list[str]:
    """Every legal move of ``state`` in the notation, in the engine's order."""
    return [format_move(m) for m in g.legal_moves(state)]


def apply_text(g: StratoGame, state: State, text: str) -> State:
    """``state`` after the move written ``text``."""
    return g.apply(state, parse_move(text))


def replay(g: StratoGame, state: State, moves: list[str] | tuple[Move, ...]) -> State:
    """``state`` after a line of moves (texts or Move values)."""
    for move in moves:
        state = g.apply(state, parse_move(move) if isinstance(move, str) else move)
    return state


def cards_in_play(state: State) -> Counter[str]:
    """Weather cards on the table, in every hand and in the draw pile."""
    counted: Counter[str] = Counter(state.pile)
    for row in state.rows:
        counted.update(row.left + row.right)
    for hand in state.hands:
        counted.update(hand)
    return counted
