"""``stratagem play`` / :func:`stratagem.matches.play` as a researcher runs them (QA pass 57)."""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.cli.main import run
from stratagem.core.compiled import label, status
from stratagem.core.errors import BadInput
from stratagem.engines import resolve
from stratagem.matches import new_game, play


@pytest.mark.parametrize(("agents", "seat"), [(["ismcts", "random"], 0), (["random", "pimc:samples=2"], 1)])
def test_an_agent_that_plays_from_what_it_sees_is_refused_in_stakd_before_the_match(agents: list[str],
                                                                                     seat: int) -> None:
    """STAKD hides nothing: ISMCTS and PIMC once failed at their first move, after the seats before had played,
    in the search's words ('PIMC needs a hidden-information game ...: analyse it open'), naming no agent."""
    with pytest.raises(BadInput) as refused:
        play("stakd", agents, games=1)
    assert refused.value.place == f"agents[{seat}]"
    assert "hides nothing (perfect information): use mcts" in refused.value.problem


def test_the_command_names_the_agent(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["play", "stakd", "--agents", "greedy,pimc", "--count", "2"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("stratagem play: --agents[2]: pimc plays from what its player sees, and stakd hides "
                            "nothing (perfect information): use mcts, which sees it all\n")


@pytest.mark.parametrize("game", ["stratatak", "stackattack", "cardclash"])
def test_the_hidden_information_games_still_take_them(game: str) -> None:
    result = play(game, ["pimc:samples=1:rollouts=1", "ismcts:iterations=2"], games=1, seed=1, engine="compiled")
    assert result.games == 1 and [a.label for a in result.agents] == ["pimc", "ismcts"]


def test_the_table_of_a_race_says_its_games_are_races(capsys: pytest.CaptureFixture[str]) -> None:
    """With --points 3 each game is a race of rounds to three points; the title said '2 games' as for single
    rounds (only --json said points)."""
    assert run(["play", "stakd", "--agents", "greedy,random", "--count", "2", "--points", "3", "--seed", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "stakd: 2 games (races to 3 points), seed 1, seats rotate"
    assert run(["play", "stakd", "--agents", "greedy,random", "--count", "2", "--seed", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "stakd: 2 games, seed 1, seats rotate"


def test_a_count_that_is_no_whole_number_of_deals_is_noted(capsys: pytest.CaptureFixture[str]) -> None:
    """Three games for two players play the last deal from one seat only: the docs said every deal is played
    from every seat, and nothing said otherwise (the seat counts were only in --json)."""
    assert run(["play", "cardclash", "--agents", "greedy,random", "--count", "3"]) == 0
    err = capsys.readouterr().err
    assert err == ("stratagem play: 3 games for 2 players: the last deal was played from 1 of its 2 seats, so the "
                   "agents did not play each seat equally often (--count a multiple of 2 plays every deal from "
                   "every seat)\n")
    assert run(["play", "cardclash", "--agents", "greedy,random", "--count", "4"]) == 0
    assert capsys.readouterr().err == ""
    assert run(["play", "cardclash", "--agents", "greedy,random", "--count", "3", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_plain_mcts_plays_stack_attack_on_the_default_engine() -> None:
    """mcts:guided=false goes to the compiled engine by default, whose UCT has no simultaneous moves: the
    match failed at Stack Attack's first reveal ('compiled UCT has no simultaneous moves'). It stays on the
    rules engine there, which searches simultaneous moves."""
    # The deal is 24 chance plies: 30 takes the game past its first reveals, then leaves it unfinished.
    result = play("stackattack", ["mcts:guided=false:iterations=5", "greedy"], games=1, seed=1, max_plies=30)
    assert result.games == 1 and result.agents[0].unfinished == 1 and "engine" not in result.agents[0].params


def test_mcts_on_the_compiled_engine_in_stack_attack_is_refused_before_the_match(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["play", "stackattack", "--agents", "greedy,mcts:iterations=20", "--count", "2",
                "--engine", "compiled"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("stratagem play: --engine: compiled: mcts (the second agent) would search with compiled "
                            "UCT, which has no simultaneous moves, and stackattack has them: play it on the "
                            "reference engine, or use duct\n")


@pytest.mark.parametrize(("game", "spec", "guided"), [("stratatak", "mcts:iterations=3", True),
                                                      ("stakd", "mcts:iterations=3", True),
                                                      ("cardclash", "ismcts:iterations=3", True),
                                                      ("stackattack", "ismcts:iterations=3", False),
                                                      ("cardclash", "mcts:iterations=3", True)])
def test_a_compiled_search_that_runs_plain_is_recorded_plain(game: str, spec: str, guided: bool) -> None:
    """Compiled UCT and (since stop 63) compiled ISMCTS are guided only where the game hands over a compiled
    guide (Card Clash, Stratatak, STAKD; Stack Attack has none); the match's parameters said guided=true
    (and UCT's reuse=true) of those plain searches. Where the compiled core is not built the agent plays on the
    reference engine (test_matches.py checks the note that says so): nothing compiled to record."""
    search = "stratagem.solvers.packed_uct" if spec.startswith("mcts") else "stratagem.solvers.packed_ismcts"
    choice = resolve(new_game(game, 2), "compiled")
    if choice.engine is None or search in status().missing:
        pytest.skip(choice.note or f"the compiled core is not built here ({label(search)})")
    result = play(game, [spec, "random"], games=1, seed=2, engine="compiled")
    params = result.agents[0].params
    assert params["engine"] == "compiled" and params["guided"] is guided
    # UCT keeps its tree only in the guided compiled search; ISMCTS keeps none
    assert params.get("reuse", False) is (guided and spec.startswith("mcts"))


def test_a_position_already_over_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Player 1 has won (W1): each game was 'played' without a move and scored as the file ends it, so the
    table gave each agent a win from seat 1 and a loss from seat 2 (1-0-1), statistics of no play at all."""
    over = tmp_path / "won.toml"
    over.write_text('game = "stratatak"\n[options]\nbattle_limit = 4\n[position]\nstate = "-,B7G5* B2* B9* - W1"\n',
                    encoding="utf-8")
    assert run(["play", "stratatak", "--agents", "greedy,random", "--position", str(over), "--count", "2"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"{over}: position: the game is already over here: a match has no move to play\n"
    # The same position one battle earlier (the lone Star still to play) is played as before.
    assert play("stratatak", ["greedy", "random"], games=2,
                position=Path(__file__).resolve().parent.parent / "puzzles" / "stratatak" / "lone-star.toml").games == 2
