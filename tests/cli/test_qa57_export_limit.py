"""QA 57 (export): ``--time-limit`` bounds the formula's build and its text, like every other command.

Without it the largest formula the horizon cap allows (a three-row four-player deal at 42 turns, some 12
million clauses) took half a minute and 4 GB, and nothing could stop it but a signal.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import PUZZLES

from stratagem.loading import load_strato
from stratagem.models.strato.encodings.sat import EncodingStopped, StratoCNF
from stratagem.solvers.dimacs import DimacsStopped, write_dimacs

THREE_ROWS = """game = "strato"

[challenge]
name = "Three rows"
level = 3
weathers = "RSWCFT"
rows = 3
limit = 8
rows_required = 3
players = 4

[challenge.goal]
left = "<<<<"
right = ">>>>"

[[deals]]
name = "four-1"
seed = 1
players = 4
"""


def test_the_build_asks_its_stop_test_within_each_turn_and_says_how_far_it_got() -> None:
    """Asked before each turn and before each cardinality bound (most of the build), so a turn of a large
    deal does not run on past the limit."""
    loaded = load_strato(str(PUZZLES / "challenge-0.toml"))
    game = loaded.game(loaded.find_deal("solo-1"))
    asked: list[bool] = []
    StratoCNF(game, 8, stop=lambda: asked.append(True) or False)
    assert len(asked) > 2 * 8  # more than once a turn
    for first_true in (1, 5, 12):
        count: list[bool] = []

        def stop(count: list[bool] = count, first_true: int = first_true) -> bool:
            count.append(True)
            return len(count) >= first_true

        with pytest.raises(EncodingStopped) as stopped:
            StratoCNF(game, 8, stop=stop)
        assert len(count) == first_true  # stopped at the first true answer
        turns = stopped.value.turns
        assert 0 <= turns < 8 and stopped.value.horizon == 8
        assert f"after {turns} of 8 turns" in str(stopped.value)
    assert StratoCNF(game, 8, stop=lambda: False).clauses == StratoCNF(game, 8).clauses


def test_writing_the_text_asks_its_stop_test() -> None:
    with pytest.raises(DimacsStopped):
        write_dimacs([[1, 2], [-1]], 2, stop=lambda: True)
    assert write_dimacs([[1, 2], [-1]], 2, stop=lambda: False) == write_dimacs([[1, 2], [-1]], 2)


def test_a_stopped_export_writes_nothing_says_how_far_and_exits_3(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    puzzle = tmp_path / "three.toml"
    puzzle.write_text(THREE_ROWS)
    out = tmp_path / "f.cnf"
    started = time.perf_counter()
    stopped = cli("export", str(puzzle), "--horizon", "42", "--out", str(out), "--time-limit", "0.5", "--json")
    took = time.perf_counter() - started
    assert stopped.code == 3, stopped
    assert stopped.out == ""
    assert not out.exists()
    assert "unknown: export stopped by --time-limit 0.5 s after" in stopped.err
    assert "of its 42 turns; nothing written" in stopped.err
    assert took < 1.2 * 0.5 + 1, took


def test_an_export_within_its_limit_is_the_export_without_one(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    limited, unlimited = tmp_path / "a.cnf", tmp_path / "b.cnf"
    assert cli("export", str(PUZZLES / "challenge-0.toml"), "--horizon", "5", "--out", str(limited),
               "--time-limit", "60").code == 0
    assert cli("export", str(PUZZLES / "challenge-0.toml"), "--horizon", "5", "--out", str(unlimited)).code == 0
    assert limited.read_bytes() == unlimited.read_bytes()
