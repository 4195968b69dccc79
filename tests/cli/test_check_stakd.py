"""`stratagem check` / `solve` / `verify` on STAKD solo puzzles, and `analyze` on STAKD endgames."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from conftest import ROOT, assert_bad_input

STAKD = ROOT / "puzzles" / "stakd"


def test_check_finds_a_replayed_witness_and_verify_accepts_it(cli, tmp_path: Path) -> None:
    record = tmp_path / "solo.json"
    result = cli("check", str(STAKD / "solo-3-many-unis.toml"), "--proof", str(record), "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["status"] == "winnable" and report["evidence"]["kind"] == "witness"
    assert len(report["line"]) == 15  # B2 T2 D3 U7 X1: every piece placed once
    checked = cli("verify", str(record))
    assert checked.code == 0, checked.out + checked.err
    assert "won position after 15 turns" in checked.out


def test_an_impossible_solo_set_gets_a_checked_refutation(cli, tmp_path: Path) -> None:
    record = tmp_path / "imp.json"
    result = cli("check", str(STAKD / "solo-4-impossible.toml"), "--proof", str(record))
    assert result.code == 1, "a negative answer of a check exits 1"
    assert "not winnable" in result.out
    assert (tmp_path / "imp.cnf.gz").exists() and (tmp_path / "imp.drup.gz").exists()
    checked = cli("verify", str(record))
    assert checked.code == 0, checked.out + checked.err
    assert "DRUP refutation is valid" in checked.out


def test_a_refutation_with_a_flipped_literal_is_rejected(cli, tmp_path: Path) -> None:
    record = tmp_path / "imp.json"
    cli("check", str(STAKD / "solo-4-impossible.toml"), "--proof", str(record))
    proof = tmp_path / "imp.drup.gz"
    lines = gzip.decompress(proof.read_bytes()).decode().splitlines()
    lines = [line for line in lines if line and not line.startswith("d ")]
    lines = lines[len(lines) // 2:]  # drop the first half of the lemmas
    proof.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    result = cli("verify", str(record))
    assert result.code == 1
    assert "INVALID" in result.out


def test_a_forged_winnable_claim_is_rejected(cli, tmp_path: Path) -> None:
    record = tmp_path / "imp.json"
    cli("check", str(STAKD / "solo-4-impossible.toml"), "--method", "cpsat", "--proof", str(record))
    data = json.loads(record.read_text())
    assert data["evidence"]["kind"] == "cpsat-infeasible"
    checked = cli("verify", str(record), "--recheck")
    assert checked.code == 0 and "exhaustive search" in checked.out
    data["claim"]["winnable"] = True
    record.write_text(json.dumps(data))
    forged = cli("verify", str(record))
    assert forged.code == 1


def test_solve_gives_a_line_for_a_solo_puzzle(cli) -> None:
    result = cli("solve", str(STAKD / "solo-1-tiny.toml"), "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["status"] == "winnable"


def test_check_refuses_a_two_player_position(cli) -> None:
    assert_bad_input(cli("check", str(STAKD / "endgame-2p-lost.toml")), "endgame-2p-lost.toml", "not a solo puzzle")


def test_analyze_proves_a_stakd_endgame_and_verify_replays_the_proof(cli, tmp_path: Path) -> None:
    proof = tmp_path / "tree.json"
    result = cli("analyze", str(STAKD / "endgame-2p-only-move.toml"), "--proof", str(proof), "--rank", "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["status"] == "solved" and report["value"] == 1
    assert report["best_move"] == "D@11,1h"
    winning = [m["move"] for m in report["moves"] if m["value"] == 1]
    assert winning == ["D@11,1h"], "the file says only one move wins"
    assert cli("verify", str(proof)).code == 0
    tree = json.loads(proof.read_text())
    for node in tree["nodes"]:
        if len(node["children"]) > 1:
            node["children"] = node["children"][1:]  # drop a reply the opponent has
            break
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tree))
    assert cli("verify", str(bad)).code == 1


def test_the_time_limit_covers_building_the_model(cli, tmp_path) -> None:
    """Six Bases in hand: enumerating their layouts took 34 s, past a 3-s limit, before the solver started.
    The build looks at the deadline too: unknown, within the limit."""
    import time

    puzzle = tmp_path / "six-bases.toml"
    puzzle.write_text('game = "stakd"\n[position]\nstate = "- B6 1"\n')
    started = time.perf_counter()
    result = cli("check", str(puzzle), "--time-limit", "2")
    assert time.perf_counter() - started < 1.2 * 2 + 1
    assert result.code == 3 and "unknown" in result.out, (result.out, result.err)


def test_a_hand_with_no_legal_first_placement_is_certified_not_winnable(cli, tmp_path) -> None:
    """Three Unis and no Base: play is over at the start. ``check --proof`` wrote a record whose evidence
    (``terminal``) verify did not certify (exit 3), and printed an empty method name."""
    puzzle = tmp_path / "unis.toml"
    puzzle.write_text('game = "stakd"\n[position]\npieces = "U3"\n')
    record = tmp_path / "unis.json"
    result = cli("check", str(puzzle), "--proof", str(record))
    assert result.code == 1 and "not winnable (the rules: play is over at the start" in result.out, result.out
    verdict = cli("verify", str(record))
    assert verdict.code == 0 and "the rules end play at the start with pieces in hand" in verdict.out, verdict.out


def test_check_json_is_the_format_its_help_names_for_each_game(cli) -> None:  # type: ignore[no-untyped-def]
    """QA 58: ``check --help`` said ``--json`` prints stratagem/check@1, and a Strato puzzle's printed solve's
    stratagem/solve@1; the help now names both, each with its game."""
    help_text = " ".join(cli("check", "--help").out.split())
    assert "stratagem/check@1 for a STAKD solo puzzle, stratagem/solve@1" in help_text
    assert "Strato: the method of `stratagem solve --method`" in help_text
    strato = cli("check", str(ROOT / "puzzles" / "strato" / "challenge-0.toml"), "--json")
    stakd = cli("check", str(ROOT / "puzzles" / "stakd" / "solo-1-tiny.toml"), "--json")
    assert json.loads(strato.out)["format"] == "stratagem/solve@1"
    assert json.loads(stakd.out)["format"] == "stratagem/check@1"


def test_a_refutation_of_one_clause_says_1_clause(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """QA 58: two Bases on a 5 x 1 lattice is refuted by the empty clause alone: '1 clauses'."""
    puzzle = tmp_path / "b2.toml"
    puzzle.write_text('game = "stakd"\n[options]\nwidth = 5\nheight = 1\n[position]\npieces = "B2"\n')
    result = cli("check", str(puzzle))
    assert result.code == 1, result.err
    assert "(0 variables, 1 clause, 0 proof lines), checked: 0 lemmas" in result.out
