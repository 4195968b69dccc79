"""Rules the QA 60 mutation pass found unpinned in the Stack Attack rules engine (rules.py, cards.py).

Each test names the seed sentence or ruling it pins (the seed text, the rulings in docs/rules/stackattack.md) and
fails on the mutant of ``stratagem/models/stackattack/rules.py`` or ``cards.py`` that survived every other test.
"""

from __future__ import annotations

import pytest

from stratagem.core.errors import IllegalMove
from stratagem.core.game import CHANCE
from stratagem.models.stackattack.cards import BLOCK, make_deck
from stratagem.models.stackattack.notation import DEAL, Choice, parse_move
from stratagem.models.stackattack.rules import Options, StackAttackGame

from .support import options_of, play, position


def test_seed_block_no_card_goes_on_the_blocked_row_even_when_it_is_the_cards_own_row() -> None:
    """Seed section 8, Block: "Pick a row to block. No one can place a card there this round, including you."

    The 48 belongs after 40, on row 4, which its own player blocked: T1-T3 are offered, and asking for
    row 4 by name is refused (a mutant that let the row-choice fast path of ``apply`` place the card
    on its blocked row passed every listing test).
    """
    game, state = position("10/20/30/40 48.2/21.22 -/- 0/0 1")
    mid = play(game, state, "48,21", "B4")
    assert options_of(game, mid) == ["T1", "T2", "T3"]
    with pytest.raises(IllegalMove, match="not a legal choice"):
        game.apply(mid, parse_move("T4"))
    after = play(game, mid, "T3")
    assert after.rows == ((10,), (20, 21), (48,), (40,)) and after.taken == ((30,), ())


def test_seed_a_card_with_an_open_row_goes_there_and_nowhere_else() -> None:
    """Seed section 5: "Place the card on the row whose last card has the highest number that is still
    lower than the played card."

    A turn written out mid-placement (21 and 22 revealed, nothing placed yet): the 21 has one place,
    after the 20 on row 2; no other row may be taken in its stead.
    """
    game, state = position("10/20/30/40 12/46 -/- 0/0 1 >21/22 *- =21.22 #-")
    assert game.to_move(state) == 0
    assert options_of(game, state) == ["T2"]
    with pytest.raises(IllegalMove):
        game.apply(state, parse_move("T1"))
    after = play(game, state, "T2")
    assert after.rows == ((10,), (20, 21, 22), (30,), (40,)) and after.taken == ((), ())


def test_options_an_unknown_scope_is_refused() -> None:
    """docs/rules/stackattack.md: ``scope`` is "game" or "round"; any other value is an error, not a
    silent whole-game reading."""
    with pytest.raises(ValueError, match="scope 'rounds' is not one of game, round"):
        StackAttackGame(2, Options(scope="rounds"))


def test_the_default_table_is_two_players() -> None:
    """Seed: Stack Attack is for 2-6 players; a game built without a count is the smallest table."""
    assert StackAttackGame().num_players == 2


def test_seed_a_deal_gives_a_card_still_in_the_deck_only() -> None:
    """Seed section 3: "Shuffle all 64 cards. Deal 10 cards to each player": a card dealt once is not in
    the deck any more, and no card outside 1-64 exists. Both deals are refused."""
    game = StackAttackGame(2)
    state = game.apply(game.initial_state(), parse_move("D5"))
    assert state.hands == ((5,), ())
    for text in ("D5", "D65"):
        with pytest.raises(IllegalMove, match="is not left to deal"):
            game.apply(state, parse_move(text))
    assert game.apply(state, parse_move("D64")).hands == ((5, 64), ())
    with pytest.raises(IllegalMove, match="is not left to deal"):
        game.apply(state, Choice(DEAL, 0))  # no card 0 (the notation cannot write it; the API can)


def test_seed_while_a_card_is_dealt_the_only_move_is_a_deal() -> None:
    """Seed section 3 (the deal) happens before any turn: at a deal the move is D<card>; a row choice
    such as T2 is no deal of card 2 (a mutant that accepted any Choice there dealt card 2)."""
    game = StackAttackGame(2)
    state = game.initial_state()
    for text in ("T2", "B2", "S2"):
        with pytest.raises(IllegalMove, match="a card is being dealt; the move is D<card>"):
            game.apply(state, parse_move(text))


def test_seed_turn_number_counts_the_ten_turns_of_a_round() -> None:
    """Seed section 10: "Continue until all players have played all 10 cards"; rules.turn_number is the
    turn being played or resolved (1-10), and 10 once the round is over. With two cards left the 9th
    turn is next, it is still the 9th while it resolves, then the 10th; once the last cards are placed
    the round is over and it stays 10. While the round is dealt it is 0."""
    deal = StackAttackGame(2)
    assert deal.turn_number(deal.apply(deal.initial_state(), parse_move("D5"))) == 0
    game, state = position("10/20/30/40 16.2/45.46 -/- 0/0 1")
    assert game.turn_number(state) == 9
    mid = play(game, state, "16,45")
    assert game.pending(mid) == "block" and game.turn_number(mid) == 9
    after = play(game, mid, "B4", "T3")
    assert game.turn_number(after) == 10
    over = play(game, after, "2,46", "T2")
    assert game.round_over(over) and game.turn_number(over) == 10


def test_ruling_a_configured_card_number_is_a_card_of_the_deck() -> None:
    """Ruling (docs/rules/stackattack.md): "Action cards are some of the 64 numbered cards (number and penalty as
    above)"; the penalty overrides name numbered cards too. Card 1 may carry an action; 0 and 65 name
    no card, for an action or a penalty (0 would otherwise have overridden card 64, as table[-1])."""
    assert make_deck(actions={BLOCK: (1,)}).action(1) == BLOCK
    assert make_deck(penalties={1: 8}).penalty(1) == 8
    for number in (0, 65):
        with pytest.raises(ValueError, match=f"block card {number}: the deck has cards 1-64"):
            make_deck(actions={BLOCK: (number,)})
        with pytest.raises(ValueError, match=f"penalty for card {number}: the deck has cards 1-64"):
            make_deck(penalties={number: 2})


def test_seed_the_game_ends_at_a_round_end_once_a_total_reaches_64() -> None:
    """Seed section 13: "At the end of a round, if at least one player has reached 64 points or more, the
    game ends." A carried 63 plus a pink card (1 point) collected this round is 64: the game is over and
    the other player, with the lower total, wins. A carried 63 alone is not: the next round is dealt
    (a mutant ending the game at 65 passed every test)."""
    game, state = position("10/20/30/40 -/- 1/- 63/0 1")
    assert game.totals(state) == (64, 0) and game.is_terminal(state)
    assert game.returns(state) == (-64.0, -0.0) and game.winners(state) == [1]
    game, state = position("10/20/30/40 -/- -/- 63/0 1")
    assert not game.is_terminal(state) and game.to_move(state) == CHANCE


def test_ruling_four_blocks_in_one_turn_leave_a_row_open() -> None:
    """Seed section 8, Block: "Pick a row to block"; docs/rules/stackattack.md's engine reading: "a Block
    may pick any row, also one already blocked, so long as one row stays open". With four
    Block cards revealed at once (a configured deck: Block 16-19, four players), the fourth holder may
    pick only rows 1-3 once rows 1-3 are blocked, and the turn then resolves on row 4 (a mutant that
    offered row 4 too passed: the default deck's two Blocks never block three rows)."""
    game, state = position("10/20/30/40 16.2/17.3/18.4/19.5 -/-/-/- 0/0/0/0 1", block=(16, 17, 18, 19))
    mid = play(game, state, "16,17,18,19", "B1", "B2", "B3")
    assert game.to_move(mid) == 3 and game.pending(mid) == "block"
    assert options_of(game, mid) == ["B1", "B2", "B3"]
    with pytest.raises(IllegalMove):
        game.apply(mid, parse_move("B4"))


def test_a_start_position_sets_the_player_count() -> None:
    """Ruling (docs/rules/stackattack.md): "Players 2-6"; StackAttackGame takes the player count from a start
    position when it is given one: three hands make a 3-player game whatever ``players`` says (a mutant that kept the
    argument passed every test, which always passed the position's own count)."""
    _, state = position("10/20/30/40 16.2/45.46/3.4 -/-/- 0/0/0 1")
    game = StackAttackGame(2, start=state)
    assert game.num_players == 3 and len(game.legal_moves(state)) == 8
