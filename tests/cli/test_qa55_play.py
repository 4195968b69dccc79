"""QA pass on `play`: its refusals name the option the user typed, once."""

from __future__ import annotations

from conftest import PUZZLES, assert_bad_input

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

