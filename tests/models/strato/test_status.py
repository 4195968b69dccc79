"""A position's written result (``won``/``lost``) is never trusted: the end-of-turn checks decide it.

Challenge 0 (limit 6, ``RRRR`` beside the rain tornado and ``WWWW`` beside the wind tornado, one row)
is the table for every case. Issue 16's forgeries: ``won`` appended to a deal that does not meet the
goal, ``lost`` appended to a deal that is solvable.
"""

from __future__ import annotations

import pytest

from stratagem.core.errors import NotationError
from stratagem.models.strato.rules.challenge import Options
from stratagem.models.strato.rules.deal import DealError, check_position, check_setup
from stratagem.models.strato.rules.position import LOST, ONGOING, WON, format_state, parse_state
from stratagem.models.strato.rules.turns import StratoGame

from .support import PUZZLES, puzzle_challenge

CHALLENGE = puzzle_challenge("challenge-0")
DEAL = "RW(RW)RW RRW WRWRWRWRWRW 1 -"
#: The goal met within the limit.
GOAL = "RRRR(RW)WWWW RRW WRW 1 R"
#: A left half-row of seven cards: over the limit 6.
OVER = "RWRWRWR(RW)W RRW WRW 1 R"
#: The pile is empty and player 1, next to play, has no card.
SPENT = "RW(RW)RW - - 1 R"


def game(text: str) -> StratoGame:
    return StratoGame(CHALLENGE, Options(), parse_state(text))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (DEAL + " won", "the position says 'won' but the rows do not meet the goal"),
        ("WWWRRRR(RW)WWWW R W 1 R won", "says 'won' but half-row 1L holds 7 cards, over the limit 6"),
        (DEAL + " lost", "the position says 'lost' but no half-row is over the limit 6 and player 1 can still play"),
        (GOAL + " lost", "says 'lost' but the rows meet the goal on 1 row"),
    ],
)
def test_ruling_a_written_result_the_table_does_not_show_is_refused(text: str, message: str) -> None:
    with pytest.raises(DealError, match=message):
        check_position(CHALLENGE, parse_state(text))
    with pytest.raises(NotationError, match=message):
        game(DEAL).parse_state(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (OVER, "the position gives no result but half-row 1L holds 7 cards, over the limit 6: the game is lost"),
        (SPENT, "gives no result but the draw pile is empty and player 1, next to play, holds no card"),
    ],
)
def test_ruling_a_result_the_table_makes_must_be_written(text: str, message: str) -> None:
    with pytest.raises(DealError, match=message):
        check_position(CHALLENGE, parse_state(text))


@pytest.mark.parametrize(("text", "status"), [(GOAL + " won", WON), (OVER + " lost", LOST), (SPENT + " lost", LOST)])
def test_ruling_a_written_result_the_table_shows_reads_and_round_trips(text: str, status: int) -> None:
    state = game(DEAL).parse_state(text)
    assert state.status == status
    assert format_state(state) == text


def test_seed_rows_meeting_the_goal_before_a_turn_ends_are_not_yet_a_victory() -> None:
    # Seed: "At the end of a player's turn, if the victory conditions have been met ... you win". A
    # position without a result may show the goal met (a start of play): a turn must still be played.
    state = game(DEAL).parse_state(GOAL)
    assert state.status == ONGOING and not game(GOAL).is_terminal(state)
    with pytest.raises(DealError, match="a deal starts with .* the game not over"):
        check_setup(CHALLENGE, parse_state(DEAL + " won"))


def test_engine_a_won_position_reached_by_play_reads_back_as_it_was_written() -> None:
    from stratagem.models.strato.rules.puzzle import load_puzzle
    from stratagem.models.strato.search.planning import StratoPlanning
    from stratagem.solvers.search import astar

    puzzle = load_puzzle(PUZZLES / "challenge-0.toml")
    played = puzzle.game(puzzle.deals[0])
    result = astar(StratoPlanning(played, played.initial_state()))
    assert result.moves
    state = played.initial_state()
    for move in result.moves:
        state = played.apply(state, move)
    text = played.format_state(state)
    assert text.endswith(" won")
    assert played.parse_state(text) == state
