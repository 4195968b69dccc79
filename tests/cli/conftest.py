"""Helpers for driving the CLI in-process and reading what it printed."""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from stratagem.cli.main import run

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles" / "strato"


@dataclass
class Outcome:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    def invoke(*args: str) -> Outcome:
        code = run(list(args))
        captured = capsys.readouterr()
        return Outcome(code, captured.out, captured.err)

    return invoke


def run_captured(*args: str) -> tuple[int, str, str]:
    """The command run in-process with its stdout and stderr captured here: (exit code, out, err). For
    module-scoped fixtures, where the ``cli`` fixture's ``capsys`` cannot be used."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run(list(args))
    return code, out.getvalue(), err.getvalue()


def assert_bad_input(result: Outcome, *fragments: str) -> None:
    """Bad input: exit 2, no traceback, exactly one stderr line that contains every fragment."""
    assert result.code == 2, (result.out, result.err)
    assert "Traceback" not in result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def assert_invalid_at(result: Outcome, record: object, place: str, fragment: str) -> None:
    """``verify`` of a forged record: exit 1, "report INVALID", and one stderr line naming the record and the
    field it refused, with ``fragment`` in the reason."""
    assert result.code == 1, result.out + result.err
    assert "report INVALID" in result.out
    line, = result.err.splitlines()
    assert line.startswith(f"{record}: {place}: ") and fragment in line, line


def detour_line() -> list[str]:
    """A legal but not shortest win on challenge 0's first deal: one detour move, then an optimal 5-turn
    finish (6 turns where 5 suffice), in the notation (a fresh list: callers put it in records they edit)."""
    return list(_detour_moves())


@cache
def _detour_moves() -> tuple[str, ...]:
    """:func:`detour_line`'s moves, found once a process (an A* search after each first move: 1 CPU s, and
    five tests in three files ask)."""
    from stratagem.models.strato.rules.notation import format_move
    from stratagem.models.strato.rules.puzzle import load_puzzle
    from stratagem.models.strato.search.planning import StratoPlanning
    from stratagem.solvers.search import astar

    puzzle = load_puzzle(PUZZLES / "challenge-0.toml")
    game = puzzle.game(puzzle.deals[0])
    for candidate, after in game.plays(game.initial_state()):
        rest = astar(StratoPlanning(game, after))
        if rest.status == "solved" and rest.moves is not None and len(rest.moves) == 5:
            return (format_move(candidate), *(format_move(m) for m in rest.moves))
    raise AssertionError("no detour move found")
