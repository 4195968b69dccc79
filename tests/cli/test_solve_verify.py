"""End-to-end: solve a shipped challenge, write its proof, and have verify accept or reject records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PUZZLES, detour_line

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")


def test_solve_challenge_0_json_reports_solved_and_optimal(cli) -> None:
    result = cli("solve", CHALLENGE_0, "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["format"] == "stratagem/solve@1"
    assert report["status"] == "solved"
    assert report["optimal"] is True
    assert report["length"] == len(report["line"]) == report["lower_bound"]
    assert report["information"] == "open"
    assert report["stats"]["nodes"] > 0
    for key in ("game", "puzzle", "optimality", "method", "stats"):
        assert key in report


@pytest.mark.parametrize("method", ["bfs", "astar", "idastar"])
def test_every_method_finds_the_same_length(cli, method: str) -> None:
    result = cli("solve", CHALLENGE_0, "--deal", "duo-2", "--method", method, "--json")
    assert json.loads(result.out)["length"] == 5


def test_proof_of_challenge_0_verifies_and_rechecks(cli, tmp_path: Path) -> None:
    proof = tmp_path / "proof.json"
    assert cli("solve", CHALLENGE_0, "--method", "astar", "--proof", str(proof)).code == 0
    plain = cli("verify", str(proof))
    # optimality is an exhaustive-search claim, said as such: the proof checks, but is not all certified
    assert plain.code == 3 and "proof checks, but 1 claim not certified" in plain.out
    assert "not certified: no winning line is shorter than 5 turns" in plain.out
    assert "certified: a winning line exists" in plain.out
    rechecked = cli("verify", "--recheck", str(proof))
    assert rechecked.code == 0
    assert "no win within 4 turns" in rechecked.out and "proof valid: every claim certified" in rechecked.out


def test_proof_files_are_byte_identical_across_runs(cli, tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    cli("solve", CHALLENGE_0, "--deal", "four-1", "--proof", str(a))
    cli("solve", CHALLENGE_0, "--deal", "four-1", "--proof", str(b))
    assert a.read_bytes() == b.read_bytes()


def _proof(cli, tmp_path: Path) -> dict:
    """An A* proof record: optimality by exhaustive search, which only --recheck repeats."""
    path = tmp_path / "good.json"
    cli("solve", CHALLENGE_0, "--method", "astar", "--proof", str(path))
    return json.loads(path.read_text())


def _verify(cli, tmp_path: Path, record: dict, *flags: str):
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(record))
    return cli("verify", *flags, str(path))


def test_verify_rejects_an_illegal_move(cli, tmp_path: Path) -> None:
    record = _proof(cli, tmp_path)
    record["line"]["moves"][0] = "W1L"  # the solo hand of deal solo-1 holds no wind
    result = _verify(cli, tmp_path, record)
    assert result.code == 1
    assert "moves[0]" in result.err and "no W" in result.err
    assert result.err.count("\n") == 1


def test_verify_rejects_a_dropped_move(cli, tmp_path: Path) -> None:
    record = _proof(cli, tmp_path)
    record["line"]["moves"].pop()
    record["line"]["length"] -= 1
    record["claim"]["length"] -= 1
    assert _verify(cli, tmp_path, record).code == 1


def test_verify_rejects_a_wrong_length_claim(cli, tmp_path: Path) -> None:
    record = _proof(cli, tmp_path)
    record["claim"]["length"] = 4
    result = _verify(cli, tmp_path, record)
    assert result.code == 1 and "claim.length" in result.err


def test_recheck_rejects_a_line_that_is_not_shortest(cli, tmp_path: Path) -> None:
    # A genuine 6-turn win (one detour move, then an optimal 5-turn finish) claimed optimal: the plain
    # enumeration must find the 5-turn win and call the proof invalid.
    record = _proof(cli, tmp_path)
    record["line"]["moves"] = detour_line()
    record["line"]["length"] = record["claim"]["length"] = 6
    assert _verify(cli, tmp_path, record).code == 3  # the line is a legal win; its optimality only asserted
    result = _verify(cli, tmp_path, record, "--recheck")
    assert result.code == 1
    assert "claim.optimal" in result.err and "within 5 turns" in result.err


def test_verify_unreadable_files_exit_2(cli, tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{ not json")
    result = cli("verify", str(broken))
    assert result.code == 2 and "broken.json" in result.err and "line 1" in result.err
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "stratagem/nothing@1"}))
    assert cli("verify", str(other)).code == 2
    assert cli("verify", str(tmp_path / "missing.json")).code == 2


def test_verify_move_that_does_not_parse_exits_2(cli, tmp_path: Path) -> None:
    record = _proof(cli, tmp_path)
    record["line"]["moves"][2] = "X9Q"
    result = _verify(cli, tmp_path, record)
    assert result.code == 2
    assert "line.moves[2]" in result.err
    assert "Traceback" not in result.err


def test_time_limit_gives_unknown_and_no_optimality_claim(cli) -> None:
    result = cli("solve", str(PUZZLES / "challenge-1.toml"), "--max-nodes", "5", "--json")
    report = json.loads(result.out)
    assert report["status"] == "unknown"
    assert report["optimal"] is False
    assert report["length"] is None
    assert report["stopped_by"] == "nodes"


def test_unknown_search_writes_no_proof(cli, tmp_path: Path) -> None:
    proof = tmp_path / "p.json"
    result = cli("solve", str(PUZZLES / "challenge-1.toml"), "--max-nodes", "5", "--proof", str(proof))
    assert result.code == 3  # undetermined: the node limit stopped it
    assert not proof.exists()
    assert "no proof record written" in result.err


def test_show_draws_the_deal_and_a_line(cli, tmp_path: Path) -> None:
    shown = cli("show", CHALLENGE_0, "--deal", "duo-1")
    assert shown.code == 0
    assert "row 1" in shown.out and "player 2" in shown.out
    proof = tmp_path / "p.json"
    cli("solve", CHALLENGE_0, "--proof", str(proof))
    replayed = cli("show", str(proof))
    assert replayed.code == 0 and "turn 5" in replayed.out


def test_console_script_runs_as_installed() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "stratagem.cli", "solve", CHALLENGE_0, "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "solved"


def test_auto_certifies_by_the_relaxation_then_falls_back_to_astar_and_sat(cli,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    one = json.loads(cli("solve", CHALLENGE_0, "--json").out)
    assert one["method"] == "relaxed" and one["status"] == "solved" and one["length"] == 5 and one["optimal"]
    challenge_1 = str(PUZZLES / "challenge-1.toml")
    two = json.loads(cli("solve", challenge_1, "--json").out)
    assert two["method"] == "relaxed" and two["status"] == "solved" and two["length"] == 7
    assert "relaxation" in two["optimality"]
    # When the relaxation cannot certify (here: no guided search, and its pruned search stopped after one
    # expansion), A* runs, and when A* stops SAT decides.
    from stratagem.models.strato import solve

    monkeypatch.setattr(solve, "supports", lambda bound: False)
    monkeypatch.setattr(solve, "AUTO_BOUNDED_NODES", 1)
    monkeypatch.setattr(solve, "AUTO_ASTAR_NODES", 5)
    monkeypatch.setattr(solve, "AUTO_COMPILED_ASTAR_NODES", 5)
    sat = json.loads(cli("solve", challenge_1, "--json").out)
    assert sat["method"] == "sat" and sat["status"] == "solved" and sat["length"] == 7 and sat["optimal"]
    assert sat["stats"]["astar_first"]["status"] == "unknown" and sat["stats"]["astar_first"]["nodes"] >= 5
    assert sat["stats"]["relaxed_first"]["lower_bound"] == 7
    assert "DRUP" in sat["optimality"]


def test_max_nodes_is_refused_for_sat(cli) -> None:
    result = cli("solve", CHALLENGE_0, "--method", "sat", "--max-nodes", "10")
    assert result.code == 2 and "--max-nodes" in result.err
