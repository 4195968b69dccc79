"""``solve`` of a deal whose start the rules already call won answers "0 turns" the same way for every
method (QA 56): sat and cpsat said "no winning line of at most -1 turns", relaxed said unknown, and
``--proof`` said the search had stopped before deciding (it had nothing to record)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import PUZZLES

from stratagem.models.strato.solve import ALREADY_WON, METHODS

WON = (PUZZLES / "challenge-0.toml").read_text().split("[[deals]]")[0] + """
[[deals]]
name = "won"
position = "WRRRR(RW)WWWW RRW RRWWRW 1 W won"
"""


@pytest.mark.parametrize("method", METHODS)
def test_every_method_says_the_start_is_won(cli, tmp_path: Path, method: str) -> None:  # type: ignore[no-untyped-def]
    puzzle = tmp_path / "won.toml"
    puzzle.write_text(WON)
    result = cli("solve", str(puzzle), "--deal", "won", "--method", method, "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert (report["status"], report["length"], report["line"], report["optimal"]) == ("solved", 0, [], True)
    assert report["optimality"] == ALREADY_WON


def test_no_proof_record_and_the_reason(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    puzzle = tmp_path / "won.toml"
    puzzle.write_text(WON)
    record = tmp_path / "won.json"
    result = cli("solve", str(puzzle), "--deal", "won", "--proof", str(record))
    assert result.code == 0
    assert "no proof record written: the start is already won, a line of 0 turns needs none" in result.out
    assert "stopped before deciding" not in result.out + result.err and not record.exists()
