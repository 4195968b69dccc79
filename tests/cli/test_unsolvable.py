"""An unsolvable deal: the search exhausts the space, says so, and the proof re-checks."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import PUZZLES

HEAD = (PUZZLES / "challenge-0.toml").read_text().split("[[deals]]")[0]

# Three cards left in all (the hand; the pile is empty), but the goal needs two more rain and two
# more wind cards on the table: no line can win.
STARVED = HEAD + """
[[deals]]
name = "starved"
position = "RW(RW)RW RRW - 1 -"
"""


def test_unsolvable_deal_is_reported_with_the_exhausted_space(cli, tmp_path: Path) -> None:
    puzzle = tmp_path / "starved.toml"
    puzzle.write_text(STARVED)
    proof = tmp_path / "proof.json"
    result = cli("solve", str(puzzle), "--method", "bfs", "--json", "--proof", str(proof))
    assert result.code == 1, result.err  # a checked "no": no winning line exists
    report = json.loads(result.out)
    assert report["status"] == "unsolvable"
    assert report["optimal"] is False and report["line"] == [] and report["length"] is None
    assert sum(report["stats"]["states_per_depth"]) > 1
    record = json.loads(proof.read_text())
    assert record["claim"]["solvable"] is False
    assert record["evidence"]["kind"] == "exhaustive-search"
    checked = cli("verify", "--recheck", str(proof))
    assert checked.code == 0 and "no win anywhere" in checked.out


def test_a_false_unsolvability_claim_is_rejected(cli, tmp_path: Path) -> None:
    puzzle = PUZZLES / "challenge-0.toml"
    proof = tmp_path / "proof.json"
    cli("solve", str(puzzle), "--proof", str(proof))
    record = json.loads(proof.read_text())
    record["claim"] = {"solvable": False, "length": None, "optimal": False, "information": "open"}
    record["line"]["moves"] = []
    record["line"]["length"] = 0
    record["line"]["result"] = ""
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(record))
    # the relaxation bound recomputed by verify (5 turns) rules the forgery out without --recheck
    result = cli("verify", str(forged))
    assert result.code == 1 and "does not rule out a win" in result.err
    record["evidence"] = {"kind": "exhaustive-search", "certificate": False}
    forged.write_text(json.dumps(record))
    result = cli("verify", "--recheck", str(forged))
    assert result.code == 1 and "a winning line exists" in result.err


def test_sat_proves_unsolvability_with_a_checked_refutation(cli, tmp_path: Path) -> None:
    puzzle = tmp_path / "starved.toml"
    puzzle.write_text(STARVED)
    proof = tmp_path / "sat.json"
    result = cli("solve", str(puzzle), "--method", "sat", "--json", "--proof", str(proof))
    assert result.code == 1, result.err  # a checked "no": no winning line exists
    report = json.loads(result.out)
    assert report["status"] == "unsolvable" and report["optimal"] is False
    assert "checked by stratagem's DRUP checker" in report["optimality"]
    record = json.loads(proof.read_text())
    assert record["evidence"]["kind"] == "drup-refutation"
    assert record["evidence"]["horizon"] >= 3  # the three cards left bound the game's length
    checked = cli("verify", str(proof))
    assert checked.code == 0 and "DRUP refutation" in checked.out
    record["evidence"]["horizon"] = 1  # refuting fewer turns than the game can last proves nothing
    forged = tmp_path / "short.json"
    forged.write_text(json.dumps(record))
    assert cli("verify", str(forged)).code == 1
