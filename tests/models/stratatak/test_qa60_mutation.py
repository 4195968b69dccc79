"""What the QA 60 mutation pass found unpinned in the Stratatak rules engine (rules.py, plays.py, cards.py).

Each test names the seed sentence (the seed text), ruling or documented behaviour it pins
and fails on a mutant of the engine that survived every other Stratatak test.
"""

from __future__ import annotations

import pytest

from stratagem.core.errors import NotationError
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


@pytest.mark.parametrize(
    "text",
    ["B7B8,G1G2G3G4G5G6G7 G8 B9R1 - A2 b0", "B7,G2G3G4G5G6G7 G8 B8B9R1G1 - X2 b3"],
)
def test_ruling_no_battle_left_goes_with_the_stop_and_only_with_it(text: str) -> None:
    """Ruling (docs/rules/stratatak.md): "a value 0 reached at the bound means 'undecided within N battles'": a
    count of 0 battles left is the stopped game (turn X), so an attack with b0 and a stop with battles
    left are both refused (a mutant that checked this only for finished games passed every test)."""
    game = StratatakGame(Options(battle_limit=6))
    with pytest.raises(NotationError, match="b0 \\(no battle left\\) goes with turn X"):
        game.parse_state(text)


#: The default deck (the ruling: Blue, Red, Green 1-9 twice, six Stars) less B1, B1 and B2.
_DEAL_REST = ("B2B3B3B4B4B5B5B6B6B7B7B8B8B9B9R1R1R2R2R3R3R4R4R5R5R6R6R7R7R8R8R9R9G1G1G2G2G3G3G4G4G5G5G6G6"
              "G7G7G8G8G9G9******")


@pytest.mark.parametrize("hands", ["B2,B1B1", "B1B1B2,-"])
def test_seed_a_deal_in_progress_gives_cards_in_turn(hands: str) -> None:
    """Seed "Setup": "Deal 7 cards to each player" (dealt in turn, player 1 first, the ruling: player 1
    is the first Attacker): during the deal player 1 holds as many cards as player 2 or one more.
    Hands of 1 and 2, or 3 and 0, are no deal in progress (a mutant that dropped this check passed)."""
    with pytest.raises(NotationError, match="a deal gives the players cards in turn, up to the hand size"):
        GAME.parse_state(f"{hands} {{{_DEAL_REST}}} - - S1")
    assert GAME.parse_state(f"B1B1,B2 {{{_DEAL_REST}}} - - S1").hands == (("B1", "B1"), ("B2",))


def test_options_the_smallest_hand_and_a_deck_without_stars_are_accepted() -> None:
    """docs/rules/stratatak.md: ``hand_size`` (seed: "Deal 7 cards to each player") is at least 1 and
    ``stars`` (the ruling's six Star cards) at least 0; 1 and 0 are accepted, 0 and -1 refused (mutants
    refusing a hand of 1, or a deck with no Stars, passed the rules tests; the second was caught only by
    the compiled engine's agreement)."""
    assert Options(hand_size=1).problem() is None
    assert Options(stars=0).problem() is None
    assert Options(hand_size=0).problem() == "hand_size must be at least 1, not 0"
    assert Options(stars=-1).problem() == "stars must not be negative, not -1"


def test_seed_a_deal_is_over_once_both_hands_hold_seven() -> None:
    """Seed "Setup": "Deal 7 cards to each player": a position still in the deal with 7 cards in each
    hand cannot be (the first attack starts then); it is refused (a mutant that refused only hands past
    7 passed every test)."""
    rest = "B8B8B9B9R1R1R2R2R3R3R4R4R5R5R6R6R7R7R8R8R9R9G1G1G2G2G3G3G4G4G5G5G6G6G7G7G8G8G9G9******"
    with pytest.raises(NotationError, match="a deal gives the players cards in turn, up to the hand size"):
        GAME.parse_state(f"B1B1B2B2B3B3B4,B4B5B5B6B6B7B7 {{{rest}}} - - S1")


def test_seed_battles_along_counts_the_attacks_of_a_line() -> None:
    """Seed "How a Battle Works": "The Attacker plays any legal play ... The Defender responds"; analysis
    reports a result "in N battles" by counting the attacks of a line. Attack B1, defence R5 (battle 1,
    won by the defender), then player 1 attacks again with B1: 2 battles (a mutant counting each attack
    twice passed every test)."""
    state = GAME.parse_state("B1,R5R6G2 G1 - - A1")
    line = []
    for text in ("B1", "R5", "B1"):
        move = GAME.parse_move(state, text)
        line.append(move)
        state = GAME.apply(state, move)
    assert GAME.battles_along(GAME.parse_state("B1,R5R6G2 G1 - - A1"), line) == 2
    assert GAME.battles_along(GAME.parse_state("B1,R5R6G2 G1 - - A1"), line[:2]) == 1
