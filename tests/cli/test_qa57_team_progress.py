"""QA 57 (play strato): team play's progress line counts turns, not only finished games.

The line said "game 0, 60 games" for as long as the first game took; a searching agent (``pimc`` on
challenge 1) plays one game in minutes, so the line looked stuck. It now says which game is being
played and its turn, each turn.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from conftest import PUZZLES

from stratagem.cli import play as cli_play
from stratagem.teamplay import play_strato

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")


def test_the_match_tells_each_turn_of_each_game() -> None:
    turns: list[tuple[int, int]] = []
    finished: list[tuple[int, int]] = []
    match = play_strato(CHALLENGE_0, ["greedy"], [1, 2], 2, seed=3, progress=lambda a, b: finished.append((a, b)),
                        on_turn=lambda game, turn: turns.append((game, turn)))
    games = [game for row in match.rows for game in row.games]
    assert finished == [(1, 4), (2, 4), (3, 4), (4, 4)]
    for number, game in enumerate(games, start=1):
        told = [turn for g, turn in turns if g == number]
        assert told == list(range(1, game.turns + 1)), (number, told, game.turns)


def test_the_command_shows_game_and_turn(cli, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    shown: list[object] = []

    @contextmanager
    def fake(label: str, enabled: bool = True, first: str = "",
             second: str = "") -> Iterator[Callable[[int, int], None]]:
        shown.append((label, first, second))
        yield lambda a, b: shown.append((a, b))

    monkeypatch.setattr(cli_play, "search_progress", fake)
    result = cli("play", "strato", CHALLENGE_0, "--agents", "greedy", "--count", "2", "--json")
    assert result.code == 0, result
    deals = json.loads(result.out)["rows"][0]["deals"]  # [seed, won, turns] each
    assert shown[0] == ("strato team play, 2 games", "game", "turns")
    assert shown[1] == (1, 1)
    last_turn = {game: turn for game, turn in shown[1:]}  # type: ignore[misc]
    assert last_turn == {1: deals[0][2], 2: deals[1][2]}
