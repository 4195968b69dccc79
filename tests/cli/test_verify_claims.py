"""``verify`` reports every claim of a record as certified, not certified, unknown or invalid.

Forged records are made from real ones (written by ``solve``/``check``/``analyze`` into ``tmp_path``) and
each must fail for the right reason: a claim that rests on a search the record only reports is *not
certified* (exit 3) without ``--recheck`` and refuted (exit 1) with it; genuine certificates still exit 0.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from conftest import PUZZLES, ROOT, assert_bad_input, detour_line

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
STAKD = ROOT / "puzzles" / "stakd"


#: A legal 7-turn win on challenge 0's first deal (optimum 5): two detour moves, then an optimal 5-turn
#: finish (found once by A* from the states after each detour; the tests replay it, so a change of rules
#: that broke it would show as a failed "solvable" claim, not pass silently).
SEVEN_TURNS = ["R1R:1L2>1R1", "R1R:1L1>1R1", "R1L:1R6>1L1", "R1L:1R5>1L1", "W1R:1R4>1R1", "W1R:1R5>1R1",
               "R1L:1R6>1R1"]


def longer_line(total: int) -> list[str]:
    """A legal win of 6 or 7 turns on challenge 0's first deal, whose optimum is 5."""
    return detour_line() if total == 6 else list(SEVEN_TURNS)


def _astar_proof(cli, tmp_path: Path) -> dict:
    """A real A* proof of challenge 0's first deal: optimum 5, evidence an exhaustive search."""
    path = tmp_path / "astar.json"
    assert cli("solve", CHALLENGE_0, "--method", "astar", "--proof", str(path)).code == 0
    record = json.loads(path.read_text())
    assert record["claim"]["length"] == 5 and record["evidence"]["kind"] == "exhaustive-search"
    return record


def _write(tmp_path: Path, record: dict, name: str = "forged.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record, sort_keys=True))
    return path


def _verdict(cli, path: Path, *flags: str) -> tuple[int, dict]:
    result = cli("verify", "--json", *flags, str(path))
    return result.code, json.loads(result.out)


def _claims(verdict: dict) -> dict[str, dict]:
    return {c["claim"]: c for c in verdict["claims"]}


def _unsolvable(record: dict, kind: str) -> dict:
    """The record's deal forged as unsolvable, with evidence of ``kind`` (a search it only reports)."""
    record["claim"] = {"solvable": False, "length": None, "optimal": False, "information": "open"}
    record["line"].update(moves=[], length=0, result="")
    record["evidence"] = {"kind": kind, "certificate": False, "method": "bfs"}
    return record


def _longer_line_claimed_optimal(cli, tmp_path: Path, total: int) -> Path:
    record = _astar_proof(cli, tmp_path)
    line = longer_line(total)
    assert len(line) == total
    record["line"]["moves"] = line
    record["line"]["length"] = record["claim"]["length"] = total
    return _write(tmp_path, record)


@pytest.mark.parametrize("total", [6, 7])
def test_a_longer_line_claimed_optimal_is_not_certified(cli, tmp_path: Path, total: int) -> None:
    path = _longer_line_claimed_optimal(cli, tmp_path, total)
    code, verdict = _verdict(cli, path)
    assert code == 3, verdict
    assert verdict["status"] == "not-certified" and verdict["valid"] is False and verdict["problem"] is None
    claims = _claims(verdict)
    assert claims["solvable"]["status"] == "certified"  # the line is a legal win: the replay shows it
    assert claims["length"]["status"] == "certified"
    assert claims["optimal"]["status"] == "not-certified"
    assert "exhaustive search the record reports" in claims["optimal"]["why"]
    assert "--recheck" in claims["optimal"]["why"]
    human = cli("verify", str(path))
    assert human.code == 3
    assert f"not certified: no winning line is shorter than {total} turns" in human.out
    assert human.out.rstrip().endswith("proof checks, but 1 claim not certified")
    assert "proof valid" not in human.out and human.err == ""


# The 6-turn line's re-check runs in the default run too (test_solve_verify.py), as does the re-check of
# an exhaustive search's false unsolvability (test_unsolvable.py); these repeat them on the other forgeries.
@pytest.mark.slow
@pytest.mark.parametrize("total", [6, 7])
def test_the_recheck_refutes_a_longer_line_claimed_optimal(cli, tmp_path: Path, total: int) -> None:
    path = _longer_line_claimed_optimal(cli, tmp_path, total)
    rechecked = cli("verify", "--json", "--recheck", str(path))
    assert rechecked.code == 1
    assert "claim.optimal" in rechecked.err and f"a win exists within {total - 1} turns" in rechecked.err
    verdict = json.loads(rechecked.out)
    assert verdict["status"] == "invalid" and _claims(verdict)["optimal"]["status"] == "invalid"


@pytest.mark.parametrize("kind", ["exhaustive-search", "cpsat-infeasible"])
def test_unsolvable_claimed_for_a_solvable_deal_is_not_certified(cli, tmp_path: Path, kind: str) -> None:
    path = _write(tmp_path, _unsolvable(_astar_proof(cli, tmp_path), kind))
    code, verdict = _verdict(cli, path)
    assert code == 3, verdict
    solvable = _claims(verdict)["solvable"]
    assert solvable["status"] == "not-certified" and solvable["statement"].startswith("no line from the start wins")
    assert "unsolvability rests on" in solvable["why"] and "--recheck" in solvable["why"]
    if kind == "cpsat-infeasible":
        assert "CP-SAT's INFEASIBLE answer" in solvable["why"]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["exhaustive-search", "cpsat-infeasible"])
def test_the_recheck_refutes_unsolvable_for_a_solvable_deal(cli, tmp_path: Path, kind: str) -> None:
    path = _write(tmp_path, _unsolvable(_astar_proof(cli, tmp_path), kind))
    rechecked = cli("verify", "--recheck", str(path))
    assert rechecked.code == 1 and rechecked.out.rstrip().endswith("proof INVALID")
    assert "claim.solvable" in rechecked.err and "a winning line exists" in rechecked.err


def test_stakd_not_winnable_claimed_for_a_winnable_solo_set(cli, tmp_path: Path) -> None:
    witness = tmp_path / "solo1.json"
    assert cli("check", str(STAKD / "solo-1-tiny.toml"), "--proof", str(witness)).code == 0
    record = json.loads(witness.read_text())
    assert record["claim"] == {"winnable": True}
    assert cli("verify", str(witness)).code == 0  # the genuine witness is certified by its replay
    record["claim"] = {"winnable": False}
    record["line"].update(moves=[], length=0, result="")
    record["evidence"] = {"kind": "cpsat-infeasible", "method": "cpsat", "note": "CP-SAT says INFEASIBLE"}
    path = _write(tmp_path, record)
    code, verdict = _verdict(cli, path)
    assert code == 3, verdict
    winnable = _claims(verdict)["winnable"]
    assert winnable["status"] == "not-certified" and "CP-SAT's INFEASIBLE answer" in winnable["why"]
    rechecked = cli("verify", "--recheck", str(path))
    assert rechecked.code == 1 and "claim.winnable" in rechecked.err and "places every piece" in rechecked.err


def test_a_stakd_witness_whose_flag_says_won_is_judged_by_the_replay(cli, tmp_path: Path) -> None:
    witness = tmp_path / "solo1.json"
    cli("check", str(STAKD / "solo-1-tiny.toml"), "--proof", str(witness))
    record = json.loads(witness.read_text())
    record["line"]["moves"] = record["line"]["moves"][:-1]  # one piece left in hand; the flag still says won
    record["line"]["length"] -= 1
    result = cli("verify", str(_write(tmp_path, record)))
    assert result.code == 1 and "claim.winnable" in result.err and "does not end in a win" in result.err


def test_level_2_unsolvable_forgery_recheck_stays_within_its_time_limit(cli, tmp_path: Path) -> None:
    """The audit's case: "unsolvable" claimed for a solvable level-2 deal, evidence an exhaustive search.
    Unlimited, the plain enumeration ran for minutes and hundreds of MB; with --time-limit 2 the claim
    is reported unknown (exit 3), never certified."""
    from stratagem.core.records import Line, Proof
    from stratagem.models.strato.rules.position import format_state
    from stratagem.models.strato.rules.puzzle import load_puzzle

    puzzle = load_puzzle(PUZZLES / "level-2-example.toml")
    start = puzzle.game(puzzle.deals[0]).initial_state()
    line = Line("strato", puzzle.setup(), format_state(start), ())
    proof = Proof("strato", {"solvable": False, "length": None, "optimal": False, "information": "open"}, line,
                  {"kind": "exhaustive-search", "certificate": False, "method": "bfs"})
    path = _write(tmp_path, proof.to_json())
    assert cli("verify", str(path)).code == 3
    began = time.perf_counter()
    code, verdict = _verdict(cli, path, "--recheck", "--time-limit", "2")
    assert time.perf_counter() - began < 10
    assert code == 3, verdict  # the deal is solvable (in 10 turns): 2 s cannot exhaust it, nor find a win
    solvable = _claims(verdict)["solvable"]
    assert solvable["status"] == "unknown" and "stopped by the time limit" in solvable["why"]
    assert verdict["status"] == "unknown" and verdict["valid"] is False


def test_a_node_limit_leaves_the_recheck_unknown(cli, tmp_path: Path) -> None:
    path = _write(tmp_path, _astar_proof(cli, tmp_path), "genuine.json")
    code, verdict = _verdict(cli, path, "--recheck", "--max-nodes", "50")
    assert code == 3
    optimal = _claims(verdict)["optimal"]
    assert optimal["status"] == "unknown" and "node limit (50 states)" in optimal["why"]
    assert cli("verify", "--recheck", str(path)).code == 0  # with the default cap the enumeration finishes


def test_a_stopped_stakd_search_is_unknown(cli, tmp_path: Path) -> None:
    record = tmp_path / "imp.json"
    cli("check", str(STAKD / "solo-4-impossible.toml"), "--method", "cpsat", "--proof", str(record))
    code, verdict = _verdict(cli, record, "--recheck", "--max-nodes", "10")
    assert code == 3 and _claims(verdict)["winnable"]["status"] == "unknown"
    assert "node limit (10 positions)" in _claims(verdict)["winnable"]["why"]
    code, verdict = _verdict(cli, record, "--recheck")
    assert code == 0 and _claims(verdict)["winnable"]["status"] == "certified"


def test_solo_search_stops_at_its_deadline() -> None:
    from stratagem.loading import position_from_record
    from stratagem.models.stakd.search import IMPOSSIBLE, UNKNOWN, solo_search

    game, state = position_from_record("stakd", {"geometry": "square", "height": 3, "players": 1, "width": 11},
                                       "- B2D2U6 1", "test")
    assert solo_search(game, state, deadline=lambda: False).status == IMPOSSIBLE
    assert solo_search(game, state, deadline=lambda: True).status == UNKNOWN


def test_a_relaxation_recomputation_cut_short_is_unknown_not_invalid(cli, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "relaxed.json"
    assert cli("solve", CHALLENGE_0, "--method", "relaxed", "--proof", str(path)).code == 0
    from stratagem.verification import strato

    real = strato.relaxed_bound
    monkeypatch.setattr(strato, "relaxed_bound", lambda *a, **kw: real(*a, **{**kw, "stop": lambda: True}))
    code, verdict = _verdict(cli, path)
    assert code == 3, verdict
    optimal = _claims(verdict)["optimal"]
    assert optimal["status"] == "unknown" and "relaxation bound was recomputed" in optimal["why"]


def test_a_drup_check_cut_short_is_unknown_not_invalid(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "p.json"
    assert cli("solve", CHALLENGE_0, "--method", "sat", "--proof", str(path)).code == 0
    from stratagem.solvers.drup import check_drup_data
    from stratagem.verification import refutations  # both games' DRUP checks call check_drup_data there

    monkeypatch.setattr(refutations, "check_drup_data",
                        lambda *a, **kw: check_drup_data(*a, **{**kw, "time_limit": 0.0}))
    code, verdict = _verdict(cli, path)
    assert code == 3, verdict
    optimal = _claims(verdict)["optimal"]
    assert optimal["status"] == "unknown" and "time limit ran out in the DRUP refutation's check" in optimal["why"]
    refuted = tmp_path / "imp.json"  # a STAKD refutation: the same
    cli("check", str(STAKD / "solo-4-impossible.toml"), "--proof", str(refuted))
    code, verdict = _verdict(cli, refuted)
    assert code == 3 and _claims(verdict)["winnable"]["status"] == "unknown", verdict


def _every_claim_certified(cli, path: Path) -> dict:
    code, verdict = _verdict(cli, path)
    assert code == 0, verdict
    assert verdict["status"] == "certified" and verdict["valid"] is True and verdict["problem"] is None
    assert verdict["claims"] and all(c["status"] == "certified" and c["basis"] for c in verdict["claims"])
    human = cli("verify", str(path))
    assert human.code == 0 and human.out.rstrip().endswith("valid: every claim certified")
    assert "not certified" not in human.out
    return verdict


def test_a_relaxation_certificate_still_exits_0(cli, tmp_path: Path) -> None:
    relaxed = tmp_path / "relaxed.json"
    cli("solve", CHALLENGE_0, "--method", "relaxed", "--proof", str(relaxed))
    claims = _claims(_every_claim_certified(cli, relaxed))
    assert set(claims) == {"solvable", "length", "optimal"}
    assert "relaxation bound recomputed from the rules" in claims["optimal"]["basis"]


def test_a_drup_certificate_still_exits_0(cli, tmp_path: Path) -> None:
    sat = tmp_path / "p.json"
    cli("solve", CHALLENGE_0, "--method", "sat", "--proof", str(sat))
    assert "DRUP refutation" in _claims(_every_claim_certified(cli, sat))["optimal"]["basis"]


def test_a_stakd_drup_certificate_still_exits_0(cli, tmp_path: Path) -> None:
    refuted = tmp_path / "imp.json"
    cli("check", str(STAKD / "solo-4-impossible.toml"), "--proof", str(refuted))
    assert "DRUP refutation" in _claims(_every_claim_certified(cli, refuted))["winnable"]["basis"]


def test_a_proof_tree_still_exits_0(cli, tmp_path: Path) -> None:
    tree = tmp_path / "tree.json"
    assert cli("analyze", str(STAKD / "endgame-2p-only-move.toml"), "--proof", str(tree)).code == 0
    assert "proof tree" in _claims(_every_claim_certified(cli, tree))["claim"]["basis"]


def test_a_bare_line_is_won_only_if_its_replayed_end_is_won(cli, tmp_path: Path) -> None:
    record = _astar_proof(cli, tmp_path)
    line = record["line"]
    claims = _claims(_every_claim_certified(cli, _write(tmp_path, line, "line.json")))
    assert set(claims) == {"moves", "result"}
    line["moves"] = line["moves"][:-1]  # one turn short of the win; the flag still says won
    line["length"] -= 1
    result = cli("verify", str(_write(tmp_path, line, "short.json")))
    assert result.code == 1 and "result" in result.err and "not won" in result.err
    line["result"] = ""  # the same moves, claiming only that they are legal
    assert set(_claims(_every_claim_certified(cli, _write(tmp_path, line, "plain.json")))) == {"moves"}


@pytest.mark.parametrize("limit", ["nan", "inf", "-1", "0", "-inf"])
def test_a_time_limit_that_is_not_a_finite_positive_number_is_bad_input(cli, tmp_path: Path, limit: str) -> None:
    path = _write(tmp_path, _astar_proof(cli, tmp_path), "genuine.json")
    assert_bad_input(cli("verify", "--recheck", "--time-limit", limit, str(path)), "--time-limit")


def test_negative_nodes_are_bad_input(cli, tmp_path: Path) -> None:
    path = _write(tmp_path, _astar_proof(cli, tmp_path), "genuine.json")
    assert_bad_input(cli("verify", "--recheck", "--max-nodes", "-5", str(path)), "--max-nodes")


def test_the_verdict_is_byte_identical_across_runs(cli, tmp_path: Path) -> None:
    record = _astar_proof(cli, tmp_path)
    record["line"]["moves"] = detour_line()
    record["line"]["length"] = record["claim"]["length"] = 6
    path = _write(tmp_path, record)
    for flags in ((), ("--recheck", "--max-nodes", "2000")):  # a node limit, unlike a time limit, stops at one place
        first, second = (cli("verify", "--json", *flags, str(path)) for _ in range(2))
        assert first.out == second.out and first.code == second.code
    text = cli("verify", "--json", str(path)).out
    assert text == json.dumps(json.loads(text), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def test_the_plain_enumeration_stops_at_its_limits_and_says_which() -> None:
    from stratagem.models.strato.rules.puzzle import load_puzzle
    from stratagem.solvers.replay import no_win_within, replay

    puzzle = load_puzzle(CHALLENGE_0)
    game = puzzle.game(puzzle.deals[0])
    start = game.initial_state()
    done = no_win_within(game, start, 3)
    assert done.no_win is True and done.stopped_by is None and done.per_depth[0] == 1
    assert done.states == sum(done.per_depth) > 1
    one_to_go = replay(game, start, tuple(SEVEN_TURNS[:-1])).final
    assert no_win_within(game, one_to_go, 0).no_win is True
    assert no_win_within(game, one_to_go, 1).no_win is False
    capped = no_win_within(game, start, 3, max_states=20)
    assert capped.no_win is None and capped.stopped_by == "nodes" and capped.states <= 20
    timed = no_win_within(game, start, 3, deadline=lambda: True)
    assert timed.no_win is None and timed.stopped_by == "time"


def test_a_proof_record_of_another_game_or_a_stakd_table_of_two_is_bad_input(cli, tmp_path: Path) -> None:
    witness = tmp_path / "solo1.json"
    cli("check", str(STAKD / "solo-1-tiny.toml"), "--proof", str(witness))
    record = json.loads(witness.read_text())
    other = dict(record, game="stratatak")
    assert_bad_input(cli("verify", str(_write(tmp_path, other, "other.json"))), "other.json", "game", "stratatak")
    mixed = dict(record, game="strato")
    assert_bad_input(cli("verify", str(_write(tmp_path, mixed, "mixed.json"))), "line.game")
    record["line"]["setup"]["players"] = 2
    record["line"]["start"] = "- B1T1D2U2,B1T1D2U2 1"
    assert_bad_input(cli("verify", "--recheck", str(_write(tmp_path, record, "two.json"))), "solo puzzle")


def test_a_stakd_refutations_formula_is_rebuilt_within_the_limit_and_its_digests_are_read(cli, tmp_path: Path) -> None:
    """QA 58 (STAKD pass): the formula of a record's start was rebuilt without the deadline, so a record
    whose start is a large set ('- B4Q4T8D12U20X2 1' on 23 x 7) ran verify --time-limit 3 for 45 s; and a
    STAKD record's cnf_sha256 / proof_sha256 were read by nothing (Strato's get a note)."""
    refuted = tmp_path / "imp.json"
    cli("check", str(STAKD / "solo-4-impossible.toml"), "--proof", str(refuted))
    record = json.loads(refuted.read_text())
    record["evidence"]["proof_sha256"] = "0" * 64
    refuted.write_text(json.dumps(record))
    code, verdict = _verdict(cli, refuted)
    assert code == 0 and any("proof_sha256 is not the SHA-256" in note for note in verdict["not_checked"]), verdict
    record["line"]["start"] = "- B4Q4T8D12U20X2 1"
    record["line"]["setup"].update(width=23, height=7)
    refuted.write_text(json.dumps(record))
    began = time.perf_counter()
    code, verdict = _verdict(cli, refuted, "--time-limit", "2")
    assert time.perf_counter() - began < 1.2 * 2 + 1
    assert code == 3 and _claims(verdict)["winnable"]["status"] == "unknown", verdict
    assert "while the CNF was rebuilt from the rules" in _claims(verdict)["winnable"]["why"]
