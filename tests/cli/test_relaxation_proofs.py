"""Relaxation certificates end to end: ``solve`` writes them, ``verify`` recomputes the bound from the rules
and the deal and rejects every forgery (a bound above or below the true one, another relaxation, a line
longer than the bound claimed optimal, an unsolvability the bound does not support)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import PUZZLES, detour_line

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
HEAD = (PUZZLES / "challenge-0.toml").read_text().split("[[deals]]")[0]


def _record(cli, tmp_path: Path, *args: str) -> dict:
    path = tmp_path / "relaxed.json"
    result = cli("solve", CHALLENGE_0, "--method", "relaxed", "--proof", str(path), *args)
    assert result.code == 0, result.err
    return json.loads(path.read_text())


def _verify(cli, tmp_path: Path, record: dict):
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(record))
    return cli("verify", str(path))


def test_the_relaxation_certificate_verifies(cli, tmp_path: Path) -> None:
    record = _record(cli, tmp_path)
    assert record["claim"] == {"solvable": True, "length": 5, "optimal": True, "information": "open"}
    evidence = record["evidence"]
    assert evidence["kind"] == "relaxation-bound" and evidence["certificate"] is True
    assert evidence["relaxation"] == "table-classes@1" and evidence["bound"] == 5
    result = _verify(cli, tmp_path, record)
    assert result.code == 0, result.err
    assert "relaxation bound, recomputed from the rules" in result.out
    assert "no win within 4 turns" in result.out
    assert not [line for line in result.out.splitlines() if line.startswith(("not certified", "unknown"))]


def test_a_bound_above_the_true_relaxed_distance_is_rejected(cli, tmp_path: Path) -> None:
    record = _record(cli, tmp_path)
    record["evidence"]["bound"] = 6  # above the line's length: contradicts the line, refuted at once
    result = _verify(cli, tmp_path, record)
    assert result.code == 1 and "evidence.bound" in result.err and "wins in 5" in result.err


def test_a_bound_below_the_true_relaxed_distance_is_rejected_too(cli, tmp_path: Path) -> None:
    record = _record(cli, tmp_path)
    record["evidence"]["bound"] = 4
    result = _verify(cli, tmp_path, record)
    assert result.code == 1 and "evidence.bound" in result.err and "gives more than 4" in result.err


def test_another_relaxation_name_is_rejected(cli, tmp_path: Path) -> None:
    record = _record(cli, tmp_path)
    record["evidence"]["relaxation"] = "table-classes@2"
    result = _verify(cli, tmp_path, record)
    assert result.code == 1 and "evidence.relaxation" in result.err
    record["evidence"]["relaxation"] = "table-classes@1"
    record["evidence"]["ends"] = "guessed"
    result = _verify(cli, tmp_path, record)
    assert result.code == 1 and "evidence.ends" in result.err


def test_a_line_one_turn_longer_than_the_bound_is_not_certified_optimal(cli, tmp_path: Path) -> None:
    record = _record(cli, tmp_path)
    record["line"]["moves"] = detour_line()
    record["line"]["length"] = record["claim"]["length"] = 6
    result = _verify(cli, tmp_path, record)
    assert result.code == 1 and "claim.optimal" in result.err and "bound is 5" in result.err
    record["claim"]["optimal"] = False  # the same line claimed as a win only: valid
    assert _verify(cli, tmp_path, record).code == 0


def test_unsolvability_certified_by_a_relaxation_without_a_goal(cli, tmp_path: Path) -> None:
    # Only wind is left to play and two rain cards lie on the table: the relaxation never reaches RRRR.
    puzzle = tmp_path / "windy.toml"
    puzzle.write_text(HEAD + '[[deals]]\nname = "windy"\nposition = "RW(RW)RW WWW WW 1 -"\n')
    proof = tmp_path / "windy.json"
    result = cli("solve", str(puzzle), "--json", "--proof", str(proof))
    report = json.loads(result.out)
    assert report["status"] == "unsolvable" and report["method"] == "relaxed"
    record = json.loads(proof.read_text())
    assert record["evidence"]["kind"] == "relaxation-bound" and record["evidence"]["bound"] is None
    checked = cli("verify", str(proof))
    assert checked.code == 0 and "no win at all: the relaxation reaches no goal" in checked.out


def test_relaxation_proofs_are_byte_identical_across_runs(cli, tmp_path: Path) -> None:
    # challenge 1's solo-3: the tracked relaxation, searched in parallel threads, and the guided line
    puzzle = str(PUZZLES / "challenge-1.toml")
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        assert cli("solve", puzzle, "--deal", "solo-3", "--method", "relaxed", "--proof", str(path)).code == 0
    assert a.read_bytes() == b.read_bytes()
    assert json.loads(a.read_text())["evidence"]["bound"] == 7


def test_a_goal_met_but_not_declared_is_won_in_one_turn(cli, tmp_path: Path) -> None:
    # The relaxation gives 1 (victory comes at the end of a turn) without a relaxed line to follow: the
    # guided search does not apply, and auto's search finds the one-turn win.
    puzzle = tmp_path / "met.toml"
    puzzle.write_text(HEAD + '[[deals]]\nname = "met"\nposition = "RRRR(RW)WWWW RRW WW 1 -"\n')
    report = json.loads(cli("solve", str(puzzle), "--json").out)
    assert report["status"] == "solved" and report["length"] == 1 and report["lower_bound"] == 1
    # --method relaxed: no guided search applies; the search pruned by relaxed distances finds the one-turn
    # line, which meets the certified bound
    proof = tmp_path / "met.json"
    relaxed = json.loads(cli("solve", str(puzzle), "--method", "relaxed", "--json", "--proof", str(proof)).out)
    assert relaxed["status"] == "solved" and relaxed["length"] == 1 and "table-only relaxation" in relaxed["optimality"]
    assert json.loads(proof.read_text())["evidence"]["kind"] == "relaxation-bound"
    assert cli("verify", str(proof)).code == 0


# -- relaxation-search: the bound below the optimum, and a pruned exhaustive search above it --------
GAP_PUZZLE = """game = "strato"

[challenge]
name = "two rows with fog"
weathers = "RWFC"
rows = 2
pairs = ["RW", "FC"]
limit = 4
rows_required = 1

[challenge.goal]
left = "<"
right = ">>"

[[deals]]
name = "gap"
position = "RC(RW)RF/WC(FC)FC FRW CFRFFCWCRFWRRWFRFCWWRWWCC 1 -"
"""


def _gap_record(cli, tmp_path: Path) -> tuple[Path, dict]:
    puzzle = tmp_path / "gap.toml"
    puzzle.write_text(GAP_PUZZLE)
    path = tmp_path / "gap.json"
    result = cli("solve", str(puzzle), "--method", "relaxed", "--proof", str(path))
    assert result.code == 0, result.err
    return puzzle, json.loads(path.read_text())


def test_a_relaxation_search_certificate_verifies(cli, tmp_path: Path) -> None:
    _, record = _gap_record(cli, tmp_path)
    assert record["claim"]["length"] == 4 and record["claim"]["optimal"] is True
    evidence = record["evidence"]
    assert evidence["kind"] == "relaxation-search" and evidence["bound"] == 2 and evidence["horizon"] == 3
    result = _verify(cli, tmp_path, record)
    assert result.code == 0, result.err
    assert "no win within 3 turns" in result.out and "exhaustive search" in result.out


def test_a_relaxation_search_with_a_forged_horizon_bound_or_name_is_rejected(cli, tmp_path: Path) -> None:
    _, record = _gap_record(cli, tmp_path)
    for key, value, place in (("horizon", 2, "evidence.horizon"), ("bound", 3, "evidence.bound"),
                              ("relaxation", "table-classes@2", "evidence.relaxation")):
        forged = json.loads(json.dumps(record))
        forged["evidence"][key] = value
        result = _verify(cli, tmp_path, forged)
        assert result.code == 1 and place in result.err, (key, result.err)


def test_a_relaxation_search_does_not_certify_a_line_longer_than_the_optimum(cli, tmp_path: Path) -> None:
    # a winning line of 5 turns: one first play off every optimal line, then a shortest line from there
    from stratagem.models.strato.rules.notation import format_move
    from stratagem.models.strato.rules.puzzle import load_puzzle
    from stratagem.models.strato.rules.turns import StratoGame
    from stratagem.models.strato.solve import solve

    puzzle, record = _gap_record(cli, tmp_path)
    loaded = load_puzzle(puzzle)
    game = loaded.game(loaded.deals[0])
    for move, after in game.plays(game.initial_state()):
        rest = solve(StratoGame(game.challenge, game.options, after), method="relaxed")
        if rest.optimal and len(rest.moves) == 4:
            moves = [format_move(move)] + [format_move(m) for m in rest.moves]
            break
    else:
        raise AssertionError("no first play leads to a five-turn win")
    record["line"]["moves"] = moves
    record["line"]["length"] = record["claim"]["length"] = 5
    record["evidence"]["horizon"] = 4
    result = _verify(cli, tmp_path, record)
    assert result.code == 1 and "claim.optimal" in result.err and "found a win in 4 turns" in result.err
    record["claim"]["optimal"] = False  # the same line claimed as a win only: valid
    assert _verify(cli, tmp_path, record).code == 0
