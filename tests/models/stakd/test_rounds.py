"""STAKD's game scored in rounds (seed, "Step 5: Win"): "The winner of the round starts the next round."
and "First player to earn three (3) points wins the game!" -- :mod:`stratagem.models.stakd.rounds` and
``stratagem play stakd --points N``."""

from __future__ import annotations

import json
from random import Random

import pytest

from stratagem.cli.main import run
from stratagem.core.errors import BadInput
from stratagem.core.game import TERMINAL
from stratagem.matches import play
from stratagem.models.stakd.rounds import SEED_POINTS, PointsRace, RaceState
from stratagem.models.stakd.rules import StakdGame


def _finish_round(race: PointsRace, state: RaceState, rng: Random) -> RaceState:
    """Random legal placements until the round in play ends."""
    rounds = state.rounds
    while state.rounds == rounds:
        state = race.apply(state, rng.choice(race.legal_moves(state)))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seed_the_winner_of_a_round_starts_the_next(players: int) -> None:
    race = PointsRace(StakdGame(players), points=SEED_POINTS)
    rng = Random(players)
    state = race.initial_state()
    assert race.to_move(state) == 0 and state.points == (0,) * players
    starters = []
    while not race.is_terminal(state):
        before = state.points
        state = _finish_round(race, state, rng)
        winner = next(p for p in range(players) if state.points[p] == before[p] + 1)
        assert sum(state.points) == sum(before) + 1  # one point a round, to its winner
        if not race.is_terminal(state):
            assert state.round.layers == () and race.to_move(state) == winner  # a fresh round, its winner first
            assert state.round.hands == race.initial_state().round.hands  # every player's pieces again
            starters.append(winner)
    assert starters, "a race to three plays more than one round"


@pytest.mark.parametrize("players", [2, 3])
def test_seed_first_to_three_points_wins_the_game(players: int) -> None:
    race = PointsRace(StakdGame(players))
    state = race.initial_state()
    rng = Random(7)
    while not race.is_terminal(state):
        assert max(state.points) < SEED_POINTS and race.returns(state) == (0.0,) * players
        state = _finish_round(race, state, rng)
    assert race.to_move(state) == TERMINAL and race.legal_moves(state) == []
    winner = state.points.index(SEED_POINTS)
    assert state.points.count(SEED_POINTS) == 1 and state.rounds == sum(state.points)
    assert race.returns(state) == tuple(1.0 if p == winner else -1.0 for p in range(players))
    # the round that ended the race is kept, won by the race's winner (the last non-Bomber placer)
    assert state.round.last_non_bomber_placer() == winner


def test_play_a_race_plays_whole_races_with_every_agent_on_the_rounds() -> None:
    """``play(points=3)``: each game is a race; agents (the greedy baseline, MCTS) choose on the round."""
    one = play("stakd", ["greedy", "random"], games=2, points=1)
    race = play("stakd", ["greedy", "mcts:iterations=20"], games=2, points=3)
    assert all(r.returns is not None for r in race.records)
    assert min(r.plies for r in race.records) > max(r.plies for r in one.records)  # more than one round
    assert race.to_json()["agents"][1]["params"]["iterations"] == 20


def test_max_plies_caps_each_round_of_a_race() -> None:
    """A long race (four random players to 70 points: some 11,000 plies) is not cut by the default
    ``max_plies`` of 10,000 meant for one game: in a race it caps each round (every race once ended
    unfinished)."""
    race = play("stakd", ["random"] * 4, games=1, points=70)
    assert race.records[0].returns is not None and race.records[0].plies > race.max_plies == 10_000


def test_play_points_is_refused_where_it_cannot_apply(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BadInput, match="not scored in points"):
        play("stackattack", ["random", "random"], games=1, points=3)
    with pytest.raises(BadInput, match="two players or more"):
        play("stakd", ["random"], games=1, players=1, points=3)
    assert run(["play", "cardclash", "--agents", "random,random", "--points", "3"]) == 2
    assert "--points" in capsys.readouterr().err
    assert run(["play", "strato", "puzzles/strato/challenge-0.toml", "--agents", "greedy", "--points", "3"]) == 2
    assert "--points" in capsys.readouterr().err


def run_json(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    assert run(args) == 0
    return capsys.readouterr().out


def test_cli_play_stakd_points_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["play", "stakd", "--agents", "greedy,random", "--count", "2", "--points", "2", "--json", "--games-detail"]
    assert run(args) == 0
    first = capsys.readouterr().out
    assert run(args) == 0
    assert capsys.readouterr().out == first
    match = json.loads(first)
    assert match["points"] == 2 and len(match["records"]) == 2
    assert "points" not in json.loads(run_json(capsys, args[:-4] + ["--json"]))  # one round: no key
