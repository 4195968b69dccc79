"""Rules audit (session 65): Stratatak's seed read again sentence by sentence, where no test named the
reading yet (docs/rules/stratatak.md names each test).

Each position is one where the sentence decides what happens; the compiled engine is held to the rules
engine there too (tests/packed_check.py), so a reading cannot hold in one engine only.
"""

from __future__ import annotations

import pytest

from stratagem.core.game import CHANCE
from stratagem.models.stratatak import compiled_engine
from stratagem.models.stratatak.cards import Options, parse_cards
from stratagem.models.stratatak.position import ATTACK, DRAW, OVER, State
from stratagem.models.stratatak.puzzle import load_position
from stratagem.models.stratatak.rules import StratatakGame
from tests.packed_check import check_state

from .support import PUZZLES


def _line(game: StratatakGame, text: str, *moves: str) -> list[State]:
    """The states of a line of play from ``text`` (the start first), each checked against the compiled
    engine."""
    engine = compiled_engine(game)
    states = [game.parse_state(text)]
    for move in moves:
        check_state(game, engine, states[-1])
        states.append(game.apply(states[-1], game.parse_move(states[-1], move)))
    check_state(game, engine, states[-1])
    return states


def test_seed_faq_a_pile_that_runs_out_as_a_draw_ends_is_reshuffled_when_a_card_is_next_needed() -> None:
    # "If the draw pile runs out, shuffle the discard pile to form a new draw pile." The seed does not say
    # when; the engine's reading: when a draw needs a card and the pile is empty. Player 2 loses battle 1
    # and draws the last two cards of the pile (R1 R2) exactly: the discard pile B1 B8 G4 stays face up.
    # Player 2 loses battle 2 as well and needs two cards: only then is the discard pile, which now holds
    # battle 2's cards too (R1 R2 G9), shuffled into a pile of unknown order.
    game = StratatakGame(Options(hand_size=3))
    start, _, one, _, two = _line(game, "G9B8*,R5G4 R1R2 B1 - A1", "B8", "G4", "R1R2", "G9")
    assert start.pile == parse_cards("R1R2")
    assert one.phase == ATTACK and one.hands[1] == parse_cards("R1R2R5")
    assert one.pile == () and one.shuffled == () and one.discard == parse_cards("B1B8G4")
    assert two.phase == DRAW and game.to_move(two) == CHANCE and two.discard == ()
    assert two.shuffled == parse_cards("B1B8R1R2G4G9")


@pytest.mark.parametrize(
    ("text", "defence", "winner"),
    [
        ("B1,B4G4R9 - - B4R4 D2", "B4G4", 1),  # "Mixed Colors vs Mixed Colors -> Defender wins."
        ("B1,G7R9 - - G3G4 D2", "G7", 1),  # "Single Color vs Same Single Color -> Defender wins."
        ("B1,R8R9 - - B4G4 D2", "R8", 1),  # "Mixed Colors vs Single Color -> Single Color wins." (defender)
        ("B1,B4G4R9 - - R8 D2", "B4G4", 0),  # ... whichever side the single colour is on (attacker)
        ("B1,R6R9 - - B6 D2", "R6", 0),  # "Blue beats Red"
        ("B1,G6R9 - - R6 D2", "G6", 0),  # "Red beats Green"
        ("B1,B6R9 - - G6 D2", "B6", 0),  # "Green beats Blue"
        ("B1,R9* - - * D2", "*", 1),  # a Star-only play "is treated as having no color (mixed...)"
        ("B1,G1G2*R9 - - B3 D2", "G1G2*", 1),  # Stars are colourless: G1G2* is Green, and Green beats Blue
    ],
)
def test_seed_strataclash_lines_hold_in_both_engines(text: str, defence: str, winner: int) -> None:
    # A tie on Fighters decided by the Strataclash table: the battle's winner defends the next battle
    # ("The winner becomes the new Defender"), the loser attacks.
    game = StratatakGame()
    _, after = _line(game, text, defence)
    assert after.phase in (ATTACK, DRAW) and after.defender == winner and after.attacker == 1 - winner


def test_seed_a_defender_who_wins_with_the_last_card_wins_the_game_in_both_engines() -> None:
    # "The first player to empty their hand on a winning battle wins the game", here as Defender.
    game = StratatakGame()
    _, after = _line(game, "B1B2,R7 G3 - B5 D2", "R7")
    assert after.phase == OVER and after.winner == 1 and game.returns(after) == (-1, 1)


def test_engine_an_endgame_study_may_start_where_the_attacker_has_not_drawn_up() -> None:
    # "The loser becomes the new Attacker, draws back up to 7 cards": in play an attacker holds 7 cards
    # unless no card is left to draw. A position file is an endgame study and need not be reachable from
    # a deal: the shipped "Only one way in" gives the attacker 3 cards with 2 in the pile. The engine
    # accepts it and plays the rules from there (docs/rules/stratatak.md, Part 3).
    position = load_position(PUZZLES / "attacker-only-one-way.toml")
    state = position.state
    assert state.phase == ATTACK and len(state.hands[state.attacker]) == 3 < position.game.options.hand_size
    assert state.pile == ("R9", "B9")  # top first
    assert position.game.parse_state(position.game.format_state(state)) == state
