"""Rules audit (session 56): seed sentences of Card Clash checked through the game API, where no
other test exercised the sentence itself (docs/rules/cardclash.md names each test)."""

from __future__ import annotations

from stratagem.models.cardclash.position import Move

from .support import game_at


def _ranks_at(game, state, x: int, y: int) -> list[str]:
    return [m.rank for m in game.legal_moves(state) if m != "pass" and (m.x, m.y) == (x, y)]


def test_seed_only_the_miner_can_still_defuse_a_bomb() -> None:
    # "Bom (B): ... Alleen de mineur kan een bom nog onschadelijk maken." A blue Bomb on a red Sergeant:
    # of red's Spy, Marshal, Bomb and Miner only the Miner may go on it in the base game.
    game, state = game_at("bBr3 16BX,2 -,- 1")
    assert _ranks_at(game, state, 0, 0) == ["X"]
    after = game.apply(state, Move("X", 0, 0))
    assert [card for cell in after.board for card in cell.stack] == ["rX", "bB", "r3"]
    # With the variant a Bomb on the Bomb cancels too (same value), and the Miner removes the Bomb.
    game, state = game_at("bBr3 16BX,2 -,- 1", strategic=True)
    assert _ranks_at(game, state, 0, 0) == ["B", "X"]
    after = game.apply(state, Move("X", 0, 0))
    assert [card for cell in after.board for card in cell.stack] == ["r3"]


def test_seed_the_beginner_draws_after_the_first_card_and_the_left_neighbour_is_next() -> None:
    # "Een van de spelers begint door een kaart uit zijn hand open in het midden van de tafel te leggen.
    # Daarna trekt hij de bovenste kaart van zijn eigen trekstapel en is zijn beurt voorbij. Het spel
    # gaat met de klok mee verder, dus de speler links van hem is als volgende aan de beurt."
    game, state = game_at("- 2,3 5,6 1")
    after = game.apply(state, Move("2", 0, 0))
    assert after.hands == ("5", "3") and after.piles == ("", "6") and after.to_move == 1
