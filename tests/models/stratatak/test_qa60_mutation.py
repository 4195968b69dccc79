"""What the QA 60 mutation pass found unpinned in the Stratatak rules engine (rules.py, plays.py, cards.py).

Each test names the seed sentence (seeds/000_0fbdbefb89e87a7e.txt), ruling or documented behaviour it pins
and fails on a mutant of the engine that survived every other Stratatak test.
"""

from __future__ import annotations

import pytest

from stratagem.models.stratatak.cards import MAX_COUNT_LIMIT, Options
from stratagem.models.stratatak.rules import StratatakGame

GAME = StratatakGame()


def test_engine_evaluation_is_the_scaled_hand_difference_strictly_inside_half_a_win() -> None:
    """rules.evaluate: "Hand size difference, scaled into (-0.5, 0.5): fewer cards is better", i.e.
    0.5 * (b - a) / (a + b + 1). Hands of 1 and 3 cards score 0.2; a defender whose hand is empty but
    who has not won yet (seed: "You must WIN the battle with your last card(s)") scores 7/16, below
    half a win (dropping the + 1 made it 0.5 and 0.25, which no test noticed)."""
    assert GAME.evaluate(GAME.parse_state("B1,R5R6G2 G1 - - A1")) == (0.2, -0.2)
    empty = GAME.parse_state("-,R5R6G2R1R2R3R4 G1 - B3 D2")
    assert not GAME.is_terminal(empty)
    assert GAME.evaluate(empty) == (0.4375, -0.4375)


@pytest.mark.parametrize("count", [1, MAX_COUNT_LIMIT])
def test_options_fighter_counts_run_from_1_to_the_limit_both_ends_included(count: int) -> None:
    """docs/rules/stratatak.md: ``max_count`` configures the unpublished deck (ruling default 9); the
    message says "from 1 to 99", and both ends are accepted (a mutant refusing 99 passed every test)."""
    assert Options(max_count=count).problem() is None
    assert StratatakGame(Options(max_count=count)).options.max_count == count


@pytest.mark.parametrize("count", [0, MAX_COUNT_LIMIT + 1])
def test_options_fighter_counts_outside_1_to_the_limit_are_refused(count: int) -> None:
    """The same option: 0 and 100 are named as the problem."""
    assert Options(max_count=count).problem() == f"max_count must be from 1 to {MAX_COUNT_LIMIT}, not {count}"
