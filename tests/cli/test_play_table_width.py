"""``play strato``'s table fits 80 columns when piped: whole agent names, intervals on one line; its player
counts are Strato's."""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.cli.main import run

ROOT = Path(__file__).resolve().parents[2]


def test_the_strato_table_fits_80_columns(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code = run(["play", "strato", str(ROOT / "puzzles/strato/challenge-0.toml"), "--agents", "greedy,pimc:samples=2",
                "--count", "2", "--players", "1"])
    out = capsys.readouterr().out
    assert code == 0
    rows = out.split("\n")[1:]  # the title is one line, wrapped by the terminal where it is narrower
    assert all(len(line) <= 80 for line in rows), max(rows, key=len)
    first = [line.split()[0] for line in rows if line.strip() and line.split()[0] in ("greedy", "pimc:samples")]
    assert first == ["greedy", "pimc:samples"]  # whole names; a long label folds onto a second line
    assert "…" not in out and "(0." in out


def test_play_strato_refuses_more_players_than_strato_seats(capsys: pytest.CaptureFixture[str]) -> None:
    """``--players 5`` was refused as "give 1 to 8", a range Strato (1 to 4 players) does not have."""
    code = run(["play", "strato", str(ROOT / "puzzles/strato/challenge-0.toml"), "--agents", "greedy",
                "--players", "5"])
    err = capsys.readouterr().err
    assert code == 2 and "give 1 to 4" in err and len(err.strip().splitlines()) == 1
