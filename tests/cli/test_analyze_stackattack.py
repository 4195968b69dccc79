"""`stratagem analyze`, `verify` and `play` on Stack Attack: LP values with exact certificates."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import ROOT, assert_bad_input

from stratagem.models.stackattack.puzzle import load_position
from stratagem.solvers.simultaneous import solve_simultaneous

POSITIONS = ROOT / "puzzles" / "stackattack"


def test_lp_value_of_a_two_player_endgame_is_certified_and_its_proof_verifies(cli, tmp_path: Path) -> None:
    file = POSITIONS / "2p-actions-3-turns.toml"
    proof = tmp_path / "proof.json"
    result = cli("analyze", str(file), "--proof", str(proof), "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["method"] == "lp" and report["status"] == "solved"
    assert report["assumption"] == "zero-sum on the penalty difference"
    position = load_position(file)
    expected = solve_simultaneous(position.game, position.state, player=0, payoff="margin").value
    assert Fraction(str(report["players"][0]["value"])) == expected
    mix = report["players"][0]["strategy"]
    assert sum(Fraction(str(p)) for p in mix.values()) == 1
    checked = cli("verify", str(proof))
    assert checked.code == 0, checked.err
    assert "checked exactly" in checked.out


def test_three_players_are_each_analysed_against_the_coalition(cli, tmp_path: Path) -> None:
    proof = tmp_path / "proof.json"
    result = cli("analyze", str(POSITIONS / "3p-actions-2-turns.toml"), "--proof", str(proof), "--json")
    report = json.loads(result.out)
    assert report["assumption"] == "each player against the coalition of the others"
    assert [p["against"] for p in report["players"]] == [[2, 3], [1, 3], [1, 2]]
    assert cli("verify", str(proof)).code == 0


def test_a_corrupted_lp_certificate_is_rejected(cli, tmp_path: Path) -> None:
    proof = tmp_path / "proof.json"
    cli("analyze", str(POSITIONS / "2p-actions-3-turns.toml"), "--proof", str(proof), "--json")
    data = json.loads(proof.read_text())
    data["nodes"][0][2] = "1/7"  # the start's node (matrixproof@2: [state, depth, value, lower, upper part])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = cli("verify", str(bad))
    assert result.code == 1
    assert "INVALID" in result.out


def test_pimc_card_advice_ranks_every_card_of_the_player(cli) -> None:
    file = POSITIONS / "2p-numbers-3-turns.toml"
    result = cli("analyze", str(file), "--as", "1", "--samples", "4", "--json")
    report = json.loads(result.out)
    hand = load_position(file).state.hands[0]
    assert report["method"] == "pimc" and report["status"] == "estimate"
    assert sorted(int(m["move"]) for m in report["moves"]) == sorted(hand)
    means = [m["mean"] for m in report["moves"]]
    assert means == sorted(means, reverse=True)
    again = cli("analyze", str(file), "--as", "1", "--samples", "4", "--json")
    assert again.out == result.out, "same seed, same advice"


def test_turn_based_methods_are_refused_for_simultaneous_moves(cli) -> None:
    result = cli("analyze", str(POSITIONS / "2p-numbers-3-turns.toml"), "--method", "alphabeta")
    assert_bad_input(result, "2p-numbers-3-turns.toml", "--method", "simultaneous")


def test_an_estimate_has_no_proof(cli, tmp_path: Path) -> None:
    proof = tmp_path / "proof.json"
    result = cli("analyze", str(POSITIONS / "2p-numbers-3-turns.toml"), "--method", "duct", "--proof", str(proof))
    assert_bad_input(result, "--proof", "estimates")
    assert not proof.exists()


def test_play_reports_every_agent_with_confidence_intervals(cli) -> None:
    result = cli("play", "stackattack", "--agents", "lowest,random", "--count", "4", "--seed", "3", "--json")
    assert result.code == 0, result.err
    match = json.loads(result.out)
    assert [a["label"] for a in match["agents"]] == ["lowest", "random"]
    for agent in match["agents"]:
        low, high = agent["win_rate_ci95"]
        assert low <= agent["win_rate"] <= high
        assert agent["wins"] + agent["draws"] + agent["losses"] + agent["unfinished"] == 4
    again = cli("play", "stackattack", "--agents", "lowest,random", "--count", "4", "--seed", "3", "--json")
    assert again.out == result.out


def test_play_needs_one_agent_per_player(cli) -> None:
    result = cli("play", "stackattack", "--agents", "lowest,random", "--players", "3")
    assert_bad_input(result, "--agents", "2 agent(s) for 3 players")


def test_play_names_an_unknown_agent(cli) -> None:
    result = cli("play", "stackattack", "--agents", "lowest,wizard")
    assert_bad_input(result, "--agents[2]", "unknown agent 'wizard'")


def test_show_draws_a_position_file(cli) -> None:
    result = cli("show", str(POSITIONS / "4p-actions-2-turns.toml"))
    assert result.code == 0, result.err
    assert "row 1:" in result.out and "P4:" in result.out
    assert load_position(POSITIONS / "4p-actions-2-turns.toml").game.format_state(
        load_position(POSITIONS / "4p-actions-2-turns.toml").state) in result.out


def test_expected_returns_under_the_equilibrium_give_back_the_lp_value() -> None:
    from stratagem.solvers.simultaneous import expected_returns

    for name in ("2p-actions-3-turns", "2p-numbers-3-turns", "2p-actions-shield-2-turns"):
        position = load_position(POSITIONS / f"{name}.toml")
        result = solve_simultaneous(position.game, position.state, player=0, payoff="margin")
        mine, theirs = expected_returns(position.game, result)
        assert mine - theirs == result.value, name
        assert mine <= 0 and theirs <= 0, "returns are minus penalties"


def test_analyze_reports_each_players_expected_penalty(cli) -> None:
    result = cli("analyze", str(POSITIONS / "2p-actions-3-turns.toml"), "--json")
    players = json.loads(result.out)["players"]
    margin = Fraction(str(players[0]["expected_return"])) - Fraction(str(players[1]["expected_return"]))
    assert margin == Fraction(str(players[0]["value"]))


def test_play_from_an_endgame_with_simultaneous_search_agents(cli) -> None:
    result = cli("play", "stackattack", "--agents", "pimc:samples=2:rollouts=1,duct:iterations=20",
                 "--position", str(POSITIONS / "2p-numbers-3-turns.toml"), "--count", "2", "--json")
    assert result.code == 0, result.err
    match = json.loads(result.out)
    assert [a["name"] for a in match["agents"]] == ["pimc", "duct"]
    assert all(a["unfinished"] == 0 and a["games"] == 2 for a in match["agents"])


def test_a_five_turn_endgame_stopped_by_its_node_cap_or_time_limit_claims_nothing(cli, tmp_path: Path) -> None:
    import time

    deep = str(POSITIONS / "2p-numbers-5-turns.toml")
    proof = tmp_path / "proof.json"
    capped = cli("analyze", deep, "--method", "lp", "--max-nodes", "20000", "--proof", str(proof), "--json")
    assert capped.code == 3, capped.err
    report = json.loads(capped.out)
    assert (report["status"], report["stopped_by"], report["nodes"]) == ("unknown", "nodes", 20000)
    assert "no value established" in report["summary"] and "players" not in report
    assert not proof.exists()
    started = time.monotonic()  # the six-turn endgame: the five-turn ones may now be solved within a second
    timed = cli("analyze", str(POSITIONS / "2p-numbers-6-turns.toml"), "--method", "lp", "--time-limit", "1", "--json")
    assert time.monotonic() - started < 1.2 * 1 + 1
    assert timed.code == 3 and json.loads(timed.out)["stopped_by"] == "time"


@pytest.mark.slow
def test_a_five_turn_endgame_with_actions_is_solved_and_its_proof_verifies(cli, tmp_path: Path) -> None:
    proof = tmp_path / "proof.json"
    result = cli("analyze", str(POSITIONS / "2p-actions-5-turns.toml"), "--method", "lp", "--proof", str(proof),
                 "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["status"] == "solved"
    assert Fraction(str(report["players"][0]["value"])) == Fraction(-146844713584565, 23490284284084)
    mine, theirs = (Fraction(str(p["expected_return"])) for p in report["players"])
    margin = mine - theirs
    assert margin == Fraction(str(report["players"][0]["value"]))
    checked = cli("verify", str(proof))
    assert checked.code == 0, checked.out + checked.err


def test_a_bound_certificate_of_another_version_is_refused_in_one_line(cli, tmp_path: Path) -> None:
    proof = tmp_path / "proof.json"
    assert cli("analyze", str(POSITIONS / "2p-numbers-3-turns.toml"), "--proof", str(proof)).code == 0
    data = json.loads(proof.read_text())
    assert data["format"] == "stratagem/matrixproof@2"
    data["format"] = "stratagem/matrixproof@3"
    future = tmp_path / "future.json"
    future.write_text(json.dumps(data))
    assert_bad_input(cli("verify", str(future)), "future.json", "format", "stratagem/matrixproof@3")


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_ismcts_as_a_player_at_a_simultaneous_turn_names_the_turn_not_player_minus_one(cli, engine: str) -> None:
    """Every player moves at once at a reveal: the refusal said "(player -1 is)", the internal SIMULTANEOUS
    marker counted from 1."""
    result = cli("analyze", str(POSITIONS / "2p-actions-3-turns.toml"), "--method", "ismcts", "--as", "1",
                 "--iterations", "10", "--engine", engine)
    assert_bad_input(result, "--as", "every player moves at once", "pimc")
    assert "-1" not in result.err
