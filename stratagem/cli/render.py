"""Drawing Strato positions for the terminal (rich markup; plain text when not a terminal)."""

from __future__ import annotations

from rich.markup import escape

from stratagem.models.strato.rules.cards import NAMES
from stratagem.models.strato.rules.challenge import Challenge, CountGoal, HalfGoal, SequenceGoal
from stratagem.models.strato.rules.position import STATUS_WORDS, Row, State

COLOURS = {"W": "cyan", "R": "blue", "S": "yellow", "F": "white", "C": "magenta", "T": "red"}


def card(letter: str) -> str:
    return f"[bold {COLOURS[letter]}]{letter}[/]"


def draw_row(row: Row, limit: int) -> str:
    """``· · R W [R|W] R W · ·``: the row as on the table, with a dot for each free place up to the limit."""
    left = " ".join(card(c) for c in row.left[::-1])
    right = " ".join(card(c) for c in row.right)
    pad_left = " ".join("·" for _ in range(max(0, limit - len(row.left))))
    pad_right = " ".join("·" for _ in range(max(0, limit - len(row.right))))
    over_left = "[bold red]![/] " if len(row.left) > limit else ""
    over_right = " [bold red]![/]" if len(row.right) > limit else ""
    parts = [p for p in (pad_left, left) if p]
    inner = f"[{card(row.left_tornado)}|{card(row.right_tornado)}]"
    right_parts = [p for p in (right, pad_right) if p]
    return f"{over_left}{' '.join(parts)} {inner} {' '.join(right_parts)}{over_right}".strip()


def draw_rows(state: State, challenge: Challenge, indent: str = "  ") -> list[str]:
    """One line per row, tornadoes aligned, a tick on each row that meets the goal."""
    widest = max(max(challenge.limit, len(row.left)) for row in state.rows)
    lines = []
    for i, row in enumerate(state.rows, start=1):
        mark = " [green]✓[/]" if challenge.goal.met(row) else ""
        shift = "  " * (widest - max(challenge.limit, len(row.left)))
        lines.append(f"{indent}row {i}  {shift}{draw_row(row, challenge.limit)}{mark}")
    return lines


def draw_state(state: State, challenge: Challenge) -> list[str]:
    """Rows, hands, draw pile and whose turn it is."""
    lines = draw_rows(state, challenge)
    for p, hand in enumerate(state.hands, start=1):
        arrow = " ←" if p - 1 == state.to_move and not state.status else ""
        shown = " ".join(card(c) for c in hand) or "(empty)"
        lines.append(f"  player {p}  {shown}{arrow}")
    pile = " ".join(card(c) for c in state.pile) or "(empty)"
    lines.append(f"  pile ({len(state.pile)}, top first)  {pile}")
    if state.last:
        lines.append(f"  a Cloud now copies: {NAMES[state.last]}")
    if state.status:
        lines.append(f"  game {STATUS_WORDS[state.status]}")
    return lines


def describe_half(goal: HalfGoal | None) -> str:
    if goal is None:
        return "anything"
    if isinstance(goal, SequenceGoal):
        return f"starts {goal.pattern}"
    assert isinstance(goal, CountGoal)
    counts = ", ".join(f"{n}×{token}" for token, n in goal.counts)
    return f"{counts} among the {goal.nearest} nearest"


def describe_challenge(challenge: Challenge, markup: bool = True) -> str:
    """The challenge in one line, as rich markup (its name, free text from the puzzle file, escaped: a
    name such as ``Ch [/red]`` ended ``show``, ``solve`` and ``reach`` with an internal error); with
    ``markup`` false, plain text (for JSON)."""
    goal = challenge.goal
    which = f" (rows with tornadoes {goal.tornadoes})" if goal.tornadoes else ""
    name = escape(challenge.name) if markup else challenge.name
    return (
        f"{name} (level {challenge.level}): weathers {challenge.weathers}, limit {challenge.limit} "
        f"per half-row; {challenge.rows_required} of {challenge.rows} row(s){which} must have: "
        f"left half-row {describe_half(goal.left)}, right half-row {describe_half(goal.right)}"
    )
