"""Issue 16: a result written into a position is never trusted, and bad moves never crash ``verify``.

A record's start position, or a puzzle's deal, that carries a result (Strato ``won``/``lost``, Card
Clash ``won=``) the table does not show is bad input: exit 2, one line naming the place and what the
flag claims against what the table shows.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import PUZZLES, ROOT, assert_bad_input

from stratagem.core.records import Line
from stratagem.models.stakd.rules import StakdGame
from stratagem.models.strato.rules.position import format_state
from stratagem.models.strato.rules.puzzle import load_puzzle

CHALLENGE_0 = PUZZLES / "challenge-0.toml"


def _strato_line(tmp_path: Path, flag: str) -> Path:
    """A line record of challenge 0's first deal, its start with ``flag`` appended and no move."""
    puzzle = load_puzzle(CHALLENGE_0)
    start = format_state(puzzle.deal(puzzle.deals[0])) + f" {flag}"
    path = tmp_path / f"forged-{flag}.json"
    path.write_text(json.dumps(Line("strato", puzzle.setup(), start, (), "won" if flag == "won" else "").to_json()))
    return path


def test_verify_refuses_a_strato_start_forged_won(cli, tmp_path: Path) -> None:
    for flags in ((), ("--recheck",)):
        result = cli("verify", *flags, str(_strato_line(tmp_path, "won")))
        assert_bad_input(result, "start", "the position says 'won' but the rows do not meet the goal")


def test_verify_refuses_a_strato_start_forged_lost(cli, tmp_path: Path) -> None:
    result = cli("verify", "--recheck", str(_strato_line(tmp_path, "lost")))
    assert_bad_input(result, "start", "the position says 'lost' but no half-row is over the limit")


def test_solve_refuses_a_strato_deal_forged_won(cli, tmp_path: Path) -> None:
    text = CHALLENGE_0.read_text().split("[[deals]]")[0]
    path = tmp_path / "forged.toml"
    path.write_text(text + '[[deals]]\nname = "forged"\nposition = "RW(RW)RW RRW WRWRWRWRWRW 1 - won"\n')
    result = cli("solve", str(path))
    assert_bad_input(result, "position", "says 'won' but the rows do not meet the goal")


def test_verify_refuses_a_cardclash_proof_tree_forged_won(cli, tmp_path: Path) -> None:
    proof = tmp_path / "tree.json"
    made = cli("analyze", str(ROOT / "puzzles" / "cardclash" / "square-in-1.toml"), "--proof", str(proof))
    assert made.code == 0, made.err
    record = json.loads(proof.read_text())
    assert cli("verify", str(proof)).code == 0
    record["start"] = "b5,rBb3,./b1,r2,r4 14,26 B,3 1 won=1"  # no square on the table
    proof.write_text(json.dumps(record))
    result = cli("verify", str(proof))
    assert_bad_input(result, "start", "says won=1 but no colour shows a 2x2 square")


def test_verify_of_an_illegal_first_stakd_piece_is_invalid_not_a_crash(cli, tmp_path: Path) -> None:
    game = StakdGame(1)
    line = Line("stakd", game.setup(), "- B2Q4T6D10U16X1 1", ("U@5,1",))
    path = tmp_path / "stakd-line.json"
    path.write_text(json.dumps(line.to_json()))
    result = cli("verify", str(path))
    assert result.code == 1, (result.out, result.err)
    assert "Traceback" not in result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "moves[0]" in lines[0] and "the first piece of the game is a Base" in lines[0]
