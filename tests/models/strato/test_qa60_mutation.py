"""What the QA 60 mutation pass found unpinned in the Strato rules engine (stratagem/models/strato/rules/).

Each test names the seed fact or ruling it pins (the rulings and the published game's contents,
docs/rules/strato.md) and fails on a mutant of the rules that survived every other Strato rules test.
"""

from __future__ import annotations

import random

import pytest

from stratagem.models.strato.rules.challenge import (
    Challenge,
    CountGoal,
    Options,
    RowGoal,
    SequenceGoal,
    count_goal_problem,
    possible_pairs,
)
from stratagem.models.strato.rules.deal import DealError, check_position, check_setup
from stratagem.models.strato.rules.position import parse_state
from stratagem.models.strato.rules.puzzle import setup_from_data

from .support import cards_in_play, game, make_challenge, puzzle_challenge


def test_ruling_an_unnamed_pairing_is_one_left_hand_with_one_right_hand_tornado() -> None:
    """Ruling (docs/rules/strato.md): "Tornado cards, one per weather: left-hand halves rain, sun, fog; right-hand
    halves wind, cloud, storm"; the game's contents: "a row's tornado pair is one left-hand and one
    right-hand card". With rain, sun, wind and cloud in play and no pairs named, a row's tornadoes are
    rain or sun on the left with wind or cloud on the right, left first."""
    goal = RowGoal(CountGoal(3, (("<", 3),)), None)
    assert possible_pairs(goal, "RSWC", ()) == ("RW", "RC", "SW", "SC")
    assert possible_pairs(goal, "RSWC", ("SC",)) == ("SC",)
    assert possible_pairs(RowGoal(goal.left, None, "RW"), "RSWC", ()) == ("RW",)


def test_ruling_a_right_half_count_goal_naming_the_right_tornado_twice_is_refused() -> None:
    """Ruling (of session 58, docs/rules/strato.md): a count goal counts each weather once, so
    W with ">" names wind twice on any row whose right tornado is wind; with no pairs named, a seeded deal
    may pair wind on the right (RW or SW), and the goal is refused. The left-hand weathers never sit on
    the right, so a mutant that took them for right-hand tornadoes let this goal through."""
    goal = RowGoal(None, CountGoal(3, (("W", 2), (">", 1))))
    problem = count_goal_problem(goal, "RSWC", ())
    assert problem is not None and problem[0] == "right" and "wind twice" in problem[1]
    with pytest.raises(ValueError, match="once"):
        make_challenge(weathers="RSWC", pairs=(), rows=2, limit=5, left=None, right=goal.right)


def test_ruling_a_half_row_at_the_limit_is_not_over_it_in_a_refused_result() -> None:
    """Ruling (docs/rules/strato.md): "End of turn, in this order: any half-row longer than the challenge's limit ->
    defeat". Challenge 0's limit is 6: a left half-row of exactly 6 cards is not longer, so a position
    written 'lost' on it is refused because play goes on, and the message must not say that half-row is
    over the limit (a mutant listing half-rows at the limit as over passed every test)."""
    with pytest.raises(DealError) as info:
        check_position(puzzle_challenge("challenge-0"), parse_state("RWRWRW(RW)W RRW WRW 1 R lost"))
    message = str(info.value)
    assert "no half-row is over the limit 6 and player 1 can still play" in message
    assert "holds 6 cards" not in message


@pytest.mark.parametrize("name", ["challenge-0", "challenge-1"])
def test_ruling_a_challenges_goal_survives_a_record_setup(name: str) -> None:
    """Ruling (docs/rules/strato.md): "A victory condition is stated per half-row relative to its tornado: an exact
    sequence read outward from the tornado (challenge 0: rain half-row starts RRRR, wind half-row starts
    WWWW), or counts of weathers". A line or proof record carries the challenge as data (Challenge.to_data)
    and is read back by setup_from_data: both goal kinds come back equal (a SequenceGoal written as
    nothing passed the Strato rules tests)."""
    challenge = puzzle_challenge(name)
    data = challenge.to_data()
    back, _ = setup_from_data({"challenge": data, "options": Options().to_data()}, "record.json")
    assert back == challenge
    if name == "challenge-0":
        assert data["goal"] == {"left": "RRRR", "right": "WWWW"}


def test_a_challenge_built_without_a_player_count_is_a_solo_challenge() -> None:
    """The game's contents: "Hand size: 3 cards solo, 2 cards with 2-4 players"; the Challenge record's
    ``players`` field defaults to 1, a solo game, when a caller leaves it out (a mutant default of 0
    players passed every test)."""
    challenge = Challenge("solo", 0, "RW", 1, ("RW",), 6, RowGoal(SequenceGoal("RRRR"), SequenceGoal("WWWW")), 1)
    assert challenge.players == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("RW(RW)RW/SC(SC)CS RRW - 1 -", "row 2: two adjacent C cards in the right half-row"),
        ("RW(RW)RW/SC(SC)SCSCSCS RRW - 1 -", "row 2: a half-row of 7 cards is over the limit 6"),
    ],
)
def test_ruling_a_refused_setup_names_its_row_counting_from_1(text: str, message: str) -> None:
    """Ruling (docs/rules/strato.md): "Setup: 2 cards on the outer side of each tornado, no two adjacent cards
    (tornadoes included) of the same weather"; bad input names its place. The fault is in the second
    row of the printed level-2 example, so the message says row 2 (a mutant counting rows from 0 said
    row 1 and passed every test, whose setups all failed on their first row)."""
    with pytest.raises(DealError, match=message):
        check_setup(puzzle_challenge("level-2-example"), parse_state(text))


def test_seed_a_resampled_position_keeps_what_the_player_sees() -> None:
    """Seed: "You cannot show your cards or name them to other players": player 1 of a two-player game of
    challenge 0 sees the rows, the own hand and the pile's size; StratoGame.sample_state redeals the
    rest and returns a position with the same observation and the same cards in play (a mutant that
    returned nothing passed every test, whose comparison of two samples held None to None)."""
    strato, state = game("RW(RW)RW RR,WW WRRRWWRWWR 1 -", puzzle_challenge("challenge-0"))
    for seed in range(5):
        sample = strato.sample_state(state, 0, random.Random(seed))
        assert strato.observation(sample, 0) == strato.observation(state, 0)
        assert cards_in_play(sample) == cards_in_play(state) and sample.hands[0] == state.hands[0]
