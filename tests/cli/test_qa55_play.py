"""QA pass on `play` and `show`: a refusal names the option or field to change, in one line."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import PUZZLES, ROOT, assert_bad_input

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")


def test_play_names_players_when_the_game_refuses_the_count(cli) -> None:  # type: ignore[no-untyped-def]
    # It printed `--players: setup.players: Stratatak is ...`, without the command and with a record's place.
    result = cli("play", "stratatak", "--agents", "greedy,random", "--players", "3")
    assert_bad_input(result, "stratagem play: --players: Stratatak is a game for 2 players, not 3")
    assert "setup." not in result.err


def test_play_strato_refuses_an_agent_kind_named_twice(cli) -> None:  # type: ignore[no-untyped-def]
    # Two rows labelled `greedy`, the same games played twice, in the table and in the JSON rows.
    result = cli("play", "strato", CHALLENGE_0, "--agents", "greedy,guided,greedy", "--count", "1")
    assert_bad_input(result, "--agents[3]", "'greedy' is named twice")



def _tree(tmp_path: Path, cli, **fields: object) -> str:  # type: ignore[no-untyped-def]
    """A proof tree written by `analyze`, with ``fields`` replaced."""
    record = tmp_path / "tree.json"
    assert cli("analyze", str(ROOT / "puzzles/cardclash/square-in-1.toml"), "--proof", str(record), "--quiet",
               "--engine", "reference").code == 0
    data = json.loads(record.read_text())
    assert data["format"] == "stratagem/prooftree@1"
    data.update(fields)
    record.write_text(json.dumps(data))
    return str(record)


def test_show_names_the_field_of_a_proof_tree_that_is_wrong(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # A proof tree whose start was not a string was refused as `format: not a line or proof record
    # (format 'stratagem/prooftree@1')`, blaming the one field that was right.
    for key, value in (("start", 5), ("setup", "x"), ("game", 5)):
        result = cli("show", _tree(tmp_path, cli, **{key: value}))
        assert_bad_input(result, f"tree.json: {key}: missing or of the wrong type")
    assert_bad_input(cli("show", _tree(tmp_path, cli, game="strato")), "tree.json: game:", "not Strato")
    shown = cli("show", _tree(tmp_path, cli), "--json")
    assert shown.code == 0 and json.loads(shown.out)["kind"] == "line"


def test_play_strato_refuses_deal_seeds_past_the_range_at_seed(cli) -> None:  # type: ignore[no-untyped-def]
    # Deal seeds run seed .. seed + count - 1: the last one past 2^63-1 was refused as the puzzle file's
    # `--deal: seed 9223372036854775808`, an option and a file the user had not given.
    result = cli("play", "strato", CHALLENGE_0, "--agents", "greedy", "--seed", "9223372036854775807", "--count", "2")
    assert_bad_input(result, "stratagem play: --seed:", "9223372036854775807")
    assert "--deal" not in result.err
    assert cli("play", "strato", CHALLENGE_0, "--agents", "greedy", "--seed", "9223372036854775806",
               "--count", "2", "--quiet").code == 0


def test_play_strato_refuses_a_name_parameter_without_an_internal_error(cli) -> None:  # type: ignore[no-untyped-def]
    # `greedy:name=x` reached make_strato_agent(name, **params) as a second `name`: exit 70, a TypeError.
    result = cli("play", "strato", CHALLENGE_0, "--agents", "greedy:name=x", "--count", "1")
    assert_bad_input(result, "--agents[1]", "no parameter 'name'")


def test_play_stakd_takes_one_player_and_other_games_refuse_it_by_name(cli) -> None:  # type: ignore[no-untyped-def]
    """QA 58: --players 1 was refused ('not a player count from 2 to 6') though one agent plays solo STAKD;
    the games that need two or more players now say so themselves."""
    solo = cli("play", "stakd", "--players", "1", "--agents", "greedy", "--count", "2", "--seed", "1", "--json")
    assert solo.code == 0, solo.err
    assert json.loads(solo.out)["games"] == 2
    assert_bad_input(cli("play", "stratatak", "--players", "1", "--agents", "greedy"), "--players", "2 players, not 1")
    assert_bad_input(cli("play", "stakd", "--players", "7", "--agents", "greedy"), "--players", "from 1 to 6")
