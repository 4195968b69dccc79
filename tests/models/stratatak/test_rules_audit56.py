"""Rules audit (session 56): seed sentences and engine readings of Stratatak checked where no other
test exercised them directly (docs/rules/stratatak.md names each test)."""

from __future__ import annotations

from fractions import Fraction

from stratagem.core.game import CHANCE
from stratagem.models.stratatak.cards import Options, parse_cards
from stratagem.models.stratatak.rules import StratatakGame


def _play(game: StratatakGame, state, text: str):
    return game.apply(state, game.parse_move(state, text))


def test_seed_battle_cards_are_discarded_before_the_loser_draws_so_they_can_come_back() -> None:
    # "Discard all cards played in the battle" comes before "The loser ... draws back up": with no pile
    # and no discards left, the loser's draw is a reshuffle of this battle's own cards.
    game = StratatakGame(Options(hand_size=3))
    state = game.parse_state("B6G9*,R5G4* - - - A1")
    after = _play(game, _play(game, state, "B6*"), "G4")  # 6 beats 4: player 2 loses, holds 2 of 3
    assert game.to_move(after) == CHANCE and after.attacker == 1
    assert sorted(after.shuffled) == sorted(parse_cards("B6G4*")) and after.discard == ()
    assert {move: p for move, p in game.chance_outcomes(after)} == {
        ("B6",): Fraction(1, 3), ("G4",): Fraction(1, 3), ("*",): Fraction(1, 3)}
    assert after.hands[0] == parse_cards("G9")  # the winner does not draw


def test_engine_attack_order_puts_attacks_no_defence_beats_first_cheapest_first() -> None:
    # docs: attacks the open defending hand cannot beat come first, fewest Fighters first; then the
    # rest, more cards before fewer, then more Fighters.
    game = StratatakGame(Options())
    state = game.parse_state("B8B9G1,R1 - - - A1")  # R1 beats nothing but G1 (Red beats Green)
    assert ["".join(m) for m in game.order_moves(state, game.legal_moves(state))] == ["B8", "B9", "B8B9", "G1"]
    state = game.parse_state("B8B9G1,R9 - - - A1")  # B9 holds (Blue beats Red), B8B9 holds, B8 does not
    assert ["".join(m) for m in game.order_moves(state, game.legal_moves(state))] == ["B9", "B8B9", "B8", "G1"]
