"""What the QA 60 mutation pass found unpinned in the STAKD Elite rules engine (rules.py, rounds.py,
geometry.py, pieces.py).

Each test names the seed sentence (the seed text) or ruling it pins and fails on a mutant
of the engine that survived every other STAKD test.
"""

from __future__ import annotations

import pytest

from stratagem.core.errors import IllegalMove
from stratagem.models.stakd.notation import parse_move
from stratagem.models.stakd.pieces import BOMBER, hand_of, player_set
from stratagem.models.stakd.position import State
from stratagem.models.stakd.rounds import MAX_POINTS, SEED_POINTS, PointsRace
from stratagem.models.stakd.rules import StakdGame


def test_seed_a_start_position_holds_one_hand_per_player() -> None:
    """Seed "Pieces per player (by player count)": every player has a hand; a start position with two
    hands is no 3-player game (nor a solo one), and is refused rather than played with a player short."""
    two = State((), (player_set(2),) * 2, 0, (False, False))
    assert StakdGame(2, start=two).num_players == 2
    for players in (1, 3):
        with pytest.raises(ValueError, match=f"the start position has 2 hands for {players} players"):
            StakdGame(players, start=two)


def test_seed_a_round_in_which_nobody_placed_a_piece_gives_nobody_the_point() -> None:
    """Seed "The last player to be able to place a piece wins the round, earning one (1) point" and "A Blue
    Bomber piece cannot be the last piece played to win": two players holding one Bomber each can place
    nothing (layer 0 holds only Bases), so the round is over at once with no last placer: nobody wins and
    nobody loses, (0, 0), not a loss for everyone."""
    bomber_only = hand_of({BOMBER: 1})
    game = StakdGame(2, start=State((), (bomber_only, bomber_only), 0, (False, False)))
    state = game.initial_state()
    assert game.is_terminal(state) and state.out == (True, True)
    assert game.returns(state) == (0.0, 0.0)
    with pytest.raises(IllegalMove, match="X@0,0: play is over"):  # the reason named, not a lesser one
        game.apply(state, parse_move("X@0,0"))


@pytest.mark.parametrize("points", [1, SEED_POINTS, MAX_POINTS])
def test_seed_a_race_to_points_takes_any_target_from_1_to_the_limit(points: int) -> None:
    """Seed "First player to earn three (3) points wins the game!" (rounds.PointsRace, default 3); other
    targets from 1 to MAX_POINTS are accepted, both ends included (a mutant refusing MAX_POINTS passed)."""
    assert PointsRace(StakdGame(2), points).points == points


@pytest.mark.parametrize("points", [0, MAX_POINTS + 1])
def test_seed_a_race_to_no_point_or_past_the_limit_is_refused(points: int) -> None:
    """The same: 0 and MAX_POINTS + 1 are refused with the range named."""
    with pytest.raises(ValueError, match=f"points {points} is not from 1 to {MAX_POINTS}"):
        PointsRace(StakdGame(2), points)


def test_a_game_built_without_a_player_count_is_the_solo_puzzle() -> None:
    """Seed "Note: For Solo play, you must lay all your pieces to win"; StakdGame's player count defaults
    to 1, the solo set (a mutant default of 2 passed every test)."""
    game = StakdGame()
    assert game.num_players == 1 and game.initial_state().hands == (player_set(1),)
