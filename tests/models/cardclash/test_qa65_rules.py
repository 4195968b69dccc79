"""Rules audit (session 65): seed sentences of Card Clash checked through the game API where the audit
found a flaw or no test that decided the sentence (docs/rules/cardclash.md names each test)."""

from __future__ import annotations

import pytest

from stratagem.core.game import CHANCE
from stratagem.models.cardclash.engine import CardClashEngine, DealtCardClashEngine
from stratagem.models.cardclash.position import PASS, Move
from stratagem.models.cardclash.rules import CardClashGame
from tests.packed_check import check_state

from .support import game_at

#: What mirrored play of the strategic variant reaches: both armies dealt and drawn in the same order,
#: red lays a card on the empty table and blue cancels it with the same rank, fourteen times. Both piles
#: are empty, both hands hold three cards, the battlefield is empty again and red is to move.
MIRRORED = ("- BXX,BXX -,- 1 out=r1r2r2r2r2r3r3r3r4r4r5r6rBrBb1b2b2b2b2b3b3b3b4b4b5b6bBbB")


def test_seed_any_card_may_be_laid_next_to_a_card() -> None:
    # "Je mag elke kaart uit je hand naast een kaart leggen die al op tafel ligt": the Spy, the Bomb and
    # the Miner, which stack only on a Marshal, a numbered card and a Bomb, go beside a Scout too.
    game, state = game_at("b2 1BX,3 -,- 1")
    beside = {(m.rank, m.x, m.y) for m in game.legal_moves(state) if m != PASS}
    for rank in "1BX":
        assert {(rank, x, y) for x, y in ((0, -1), (-1, 0), (1, 0), (0, 1))} <= beside
    assert ("B", 0, 0) in beside and ("1", 0, 0) not in beside and ("X", 0, 0) not in beside


def test_seed_with_one_round_every_winner_of_the_round_wins_the_game() -> None:
    # "Spelen jullie één ronde, dan is de winnaar van die ronde ook meteen de winnaar van het spel." and
    # "Blijft het ook dan gelijk, dan winnen alle gelijk staande spelers samen." Red and blue tie on
    # points, numbers and highest rank: both win the round, so both win a game of one round (the one
    # flag on the table goes to one of them; it decided the game before).
    game, state = game_at("r3,b4,b3 4,- -,- 1")
    end = game.apply(state, Move("4", 3, 0))
    assert end.winners == (0, 1) and game.match_over(end)
    assert game.match_winners(end) == (0, 1)
    # One winner: that player alone.
    game, state = game_at("r2,r3/r4,. 5,6 -,- 1")
    end = game.apply(state, Move("5", 1, 1))
    assert game.match_winners(end) == (0,)


def _mirrored_play() -> object:
    """The dealt game (deal and draws as chance nodes) of two strategic players, each chance node taking
    its first rank, red laying its lowest card on the empty table and blue cancelling it, until the
    battlefield is empty with red to move and hands short of four."""
    pytest.importorskip("pyspiel")
    from stratagem.openspiel.cardclash import DealtCardClash

    game = DealtCardClash(CardClashGame(2, strategic=True))
    table = game.initial_state()
    for _ in range(200):
        state = table.state
        if game.to_move(table) != CHANCE and not state.board and state.removed and len(state.hands[0]) < 4:
            return game, table
        if game.to_move(table) == CHANCE:
            table = game.apply(table, game.chance_outcomes(table)[0][0])
        elif state.board:
            top = state.board[0].stack[0][1]
            table = game.apply(table, Move(top, 0, 0))
        else:
            table = game.apply(table, game.legal_moves(table)[0])
    raise AssertionError("mirrored play never emptied the battlefield with short hands")


def test_engine_a_battlefield_the_variant_empties_after_the_piles_ran_out_is_no_deal() -> None:
    # The dealt game read "empty battlefield and hands short of four" as the deal, so it asked red's
    # empty pile for a card: a chance node with no outcome. Red lays a card there, as the rules engine
    # says, and the compiled dealt engine agrees move for move.
    game, table = _mirrored_play()
    assert game.format_state(table) == MIRRORED
    assert not game.dealing(table) and game.to_move(table) == 0
    assert game.legal_moves(table) == game.rules.legal_moves(table.state) == [Move("B", 0, 0), Move("X", 0, 0)]
    engine = DealtCardClashEngine.from_game(game)
    assert check_state(game, engine, table) == 2
    assert engine.player(engine.encode(table)) == 0


def test_engine_a_battlefield_emptied_by_the_variant_takes_a_card_anywhere() -> None:
    # The seed does not say where a card goes when the variant's cancellations empty the battlefield;
    # the engines read it as the start of a round: one card, at 0,0 (docs/rules/cardclash.md, "The
    # strategic variant"). The compiled engine lists the same moves.
    game = CardClashGame(2, strategic=True)
    state = game.parse_state("r6 2,6 -,- 2")
    after = game.apply(state, Move("6", 0, 0))
    assert after.board == () and after.removed == "r6b6" and not after.winners
    assert game.legal_moves(after) == [Move("2", 0, 0)]
    assert check_state(game, CardClashEngine.from_game(game), after) == 1
