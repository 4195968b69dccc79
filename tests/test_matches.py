"""``stratagem.matches``: the library calls behind ``stratagem play`` (and the bench's match tables)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stratagem.cli.main import run
from stratagem.core.errors import BadInput
from stratagem.matches import game_agents, make_agents, new_game, play

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def test_a_match_is_the_commands_and_repeats_with_its_seed(capsys: pytest.CaptureFixture[str]) -> None:
    result = play("stratatak", ["greedy", "random"], games=4, seed=5)
    assert result.games == 4 and [a.games for a in result.agents] == [4, 4]
    assert play("stratatak", ["greedy", "random"], games=4, seed=5).to_json() == result.to_json()
    assert run(["play", "stratatak", "--agents", "greedy,random", "--count", "4", "--seed", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == result.to_json()


def test_games_start_from_a_position_file() -> None:
    result = play("cardclash", ["greedy", "random", "random"], games=3,
                  position=PUZZLES / "cardclash" / "three-players.toml")
    assert result.games == 3 and len(result.agents) == 3


def test_a_game_offers_its_own_agents() -> None:
    assert "greedy" in game_agents("stratatak")
    assert {"lowest", "cautious"} <= set(game_agents("stackattack"))
    assert new_game("cardclash", 3).num_players == 3
    assert len(make_agents("stackattack", ["lowest", "cautious", "random"])) == 3


@pytest.mark.parametrize(("agents", "place", "words"), [
    (["random", " "], "agents", "empty agent name"),
    (["random", "random", "random"], "agents", "2 players, not 3"),  # one player per agent: the agents are at fault
    (["random", "oracle"], "agents[1]", "unknown agent 'oracle'"),  # Python's index (the CLI's --agents[2])
])
def test_refusals_name_the_parameter(agents: list[str], place: str, words: str) -> None:
    with pytest.raises(BadInput) as refused:
        play("stratatak", agents, games=1)
    assert place in (refused.value.source, refused.value.place) and words in refused.value.problem


def test_a_guided_search_left_on_the_reference_engine_is_said_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # `play stratatak --agents mcts,random` ran guided MCTS on the Python engine by default: 4 minutes for
    # one game with 100 iterations a move, and nothing on stderr off a terminal. The hint says so where a
    # guided search stays there: in a game with a compiled engine and no compiled guide. Every shipped one
    # has a guide, which compiled UCT and (stop 63) compiled ISMCTS take, so Stratatak stands in without it.
    # Where the compiled core is not built there is no compiled engine to be slower than: no hint (the test
    # below).
    from stratagem.engines import resolve
    from stratagem.models.stratatak.rules import StratatakGame

    choice = resolve(new_game("stratatak", 2), "compiled")
    if choice.engine is None:
        pytest.skip(choice.note)
    with monkeypatch.context() as unguided:
        unguided.delattr(StratatakGame, "compiled_guide")
        said: list[str] = []
        play("stratatak", ["ismcts:iterations=5", "random"], games=1, max_plies=4, hint=said.append)
        assert len(said) == 1 and said[0].startswith("ismcts (the first agent) searches guided")
        assert "guided=false" in said[0]


def test_a_search_with_a_compiled_guide_or_asked_unguided_has_no_hint() -> None:
    """The hint above is for a game without a compiled guide: none where the search is the compiled one (or
    no compiled engine is built, where there is nothing faster to point to)."""
    for game, agents, engine in (("stratatak", ["ismcts:iterations=5", "random"], "compiled"),
                                 ("stratatak", ["ismcts:iterations=5:guided=false", "random"], None),
                                 ("stratatak", ["ismcts:iterations=5", "random"], None),  # compiled guide
                                 ("cardclash", ["ismcts:iterations=5", "random"], None),  # compiled guide
                                 ("stratatak", ["mcts:iterations=5", "random"], None),  # compiled guide
                                 ("stakd", ["mcts:iterations=5", "random"], None),  # compiled guide
                                 ("cardclash", ["mcts:iterations=5", "random"], None)):  # compiled guide
        quiet: list[str] = []
        play(game, agents, games=1, max_plies=4, engine=engine, hint=quiet.append)
        assert quiet == [], (game, agents, engine)
