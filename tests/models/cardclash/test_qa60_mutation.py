"""Rules the QA 60 mutation pass found unpinned in the Card Clash rules engine (rules.py, battlefield.py,
threats.py).

Each test names the seed sentence (the seed text, in its English rendering of
003_88fdbbde58c563f9.txt) or ruling it pins and fails on a mutant of the engine that survived every other
Card Clash test.
"""

from __future__ import annotations

import random

import pytest

from stratagem.core.errors import NotationError
from stratagem.models.cardclash.battlefield import make_board, place
from stratagem.models.cardclash.cards import COLOURS, stacking
from stratagem.models.cardclash.position import PASS, Move
from stratagem.models.cardclash.rules import CardClashGame
from stratagem.models.cardclash.threats import effect, order, potential, threat_count
from tests.models.cardclash.support import game_at


@pytest.mark.parametrize("rounds", [1, 8])
def test_seed_one_to_eight_rounds_one_flag_each(rounds: int) -> None:
    """Seed "The box also holds eight flag cards ... each round's winner gets one flag card": a game of
    1 to 8 rounds, both ends included."""
    assert CardClashGame(2, rounds=rounds).rounds == rounds


@pytest.mark.parametrize("rounds", [0, 9])
def test_seed_no_game_of_more_rounds_than_flags_or_of_none(rounds: int) -> None:
    """Seed "The box also holds eight flag cards": 0 or 9 rounds are refused."""
    with pytest.raises(ValueError, match=f"1 to 8 rounds, not {rounds}"):
        CardClashGame(2, rounds=rounds)


def test_seed_a_resampled_covered_card_keeps_its_stack_legal() -> None:
    """Seed "Numbered cards (1 to 6): you stack a numbered card only on a card of lower value": a red
    Marshal covers a blue card, so whatever blue card a resample puts under it is a 2-5, never a Bomb,
    a Miner or a 6 (blue's unseen cards here are B, B, X, 3 and the covered 2: 2 in 5 draws fit).

    rules.sample_state redraws until every stack obeys the stacking rules; a mutant that kept drawing
    after a legal draw (and kept its 200th) passed every other test.
    """
    game, state = game_at("r6b2,b5 4X,BB 33,X3 1")
    rng = random.Random(5)
    for _ in range(20):
        sample = game.sample_state(state, 0, rng)
        under = sample.board[0].stack[1]
        assert under[0] == "b" and stacking("6", under[1], False) == "stack", sample.board
        assert game.observation(sample, 0) == game.observation(state, 0)


@pytest.mark.parametrize("strategic", [False, True])
def test_engine_a_moves_potential_gain_is_the_change_of_the_movers_square_potential(strategic: bool) -> None:
    """threats.Effect.potential_gain is documented as the "change of the mover's square potential in the
    blocks around the cell", potential being "over 2x2 blocks holding no other colour, the number of its
    cards squared" (the move ordering behind the seed's goal, "four cards of your colour in a two-by-two
    square"). Over random play the gain equals potential after minus potential before; the gain's own
    copy of the square (mine * mine) was checked by no test but the compiled guide's agreement."""
    game = CardClashGame(3, strategic=strategic, width=5, height=5)
    rng = random.Random(11)
    checked = 0
    for _ in range(3):
        state = game.initial_state()
        while not game.is_terminal(state):
            move = rng.choice(game.legal_moves(state))
            after = game.apply(state, move)
            if move != PASS:
                colour = COLOURS[state.to_move]
                gain = potential(after.board, colour) - potential(state.board, colour)
                assert effect(state, move, game.rules).potential_gain == gain, (state, move)
                checked += 1
            state = after
    assert checked > 50


@pytest.mark.parametrize(("strategic", "unders"), [(False, {"b2", "b3"}), (True, {"b2"})])
def test_seed_the_card_under_a_top_card_is_hidden_except_in_the_variant(strategic: bool, unders: set[str]) -> None:
    """Ruling (docs/rules/cardclash.md): "Only the top card of a stack is visible and counts", and the seed
    variant's "On your turn you may look at the first card directly under the top card of every stack".
    Red cannot see the blue 2 under its Marshal in the base game, so a resample puts any blue card that
    fits there (the 2 or a 3); in the variant red sees it and it stays. A mutant that took the first
    covered card for seen in the base game passed every other test."""
    game, state = game_at("r6b2,b5 4X,BB 33,X3 1", strategic=strategic)
    rng = random.Random(5)
    assert {game.sample_state(state, 0, rng).board[0].stack[1] for _ in range(20)} == unders


@pytest.mark.parametrize(("card", "xy", "below"), [("r3", (0, 0), "bB"), ("rB", (0, 0), "bB"), ("r6", (1, 0), "r6")])
def test_seed_place_refuses_a_card_the_stacking_rules_forbid(card: str, xy: tuple[int, int], below: str) -> None:
    """Seed "Stacking rules per card": "Numbered cards (1 to 6): you stack a numbered card only on a card
    of lower value"; "Bomb (B): may only be laid on a numbered card". battlefield.place documents "Raises
    ValueError if stacking is not allowed": a 3 or a Bomb on a Bomb, or a 6 on a 6 outside the variant,
    is refused there (a mutant without that raise passed, as the rules engine checks moves before it)."""
    board = make_board({(0, 0): ("bB",), (1, 0): ("r6",)})
    with pytest.raises(ValueError, match=f"{card} may not be laid on {below}"):
        place(board, *xy, card, False)
    assert place(board, 1, 0, "r1", False)[0][1].stack == ("r1", "r6")  # the Spy on a Marshal


@pytest.mark.parametrize("strategic", [False, True])
def test_engine_a_moves_threat_counts_are_the_square_completing_moves_after_it(strategic: bool) -> None:
    """threats.Effect documents opponent_threats as the "square-completing moves the other players hold
    afterwards" and own_threats as the mover's "with the hand after drawing" (a threat completes the
    seed's "two-by-two square" of one colour). Over random play both equal threat_count on the
    battlefield after the move (the incremental count against the from-scratch one; the next test holds
    the case random play rarely meets, a fourth cell shared by two blocks)."""
    for players in (2, 3):
        game = CardClashGame(players, strategic=strategic, width=4, height=4)
        rng = random.Random(3)
        checked = 0
        for _ in range(4):
            state = game.initial_state()
            while not game.is_terminal(state):
                move = rng.choice(game.legal_moves(state))
                after = game.apply(state, move)
                if move != PASS:
                    mover = state.to_move
                    others = [p for p in range(players) if p != mover]
                    e = effect(state, move, game.rules)
                    assert e.opponent_threats == threat_count(after.board, state, others, game.rules), (state, move)
                    assert e.own_threats == threat_count(after.board, after, [mover], game.rules), (state, move)
                    checked += 1
                state = after
        assert checked > 40


def test_variant_a_move_that_hands_another_player_a_square_is_ordered_last() -> None:
    """Seed variant: "You may lay a card on a card of the same value. Both cards cancel out and are removed,
    so the card underneath becomes visible again." Red's 3 on the red 3 that covers a blue 2 uncovers
    blue's fourth card of a square: threats.order puts that gift last (bucket 4) and a block first (a
    mutant without the bucket assignment failed only in the compiled guide's agreement)."""
    game, state = game_at("b5,r3b2/b4,b6 34,44 -,- 1", strategic=True)
    gift = Move("3", 1, 0)
    assert effect(state, gift, game.rules).gifts
    ordered = order(state, game.legal_moves(state), game.rules)
    assert ordered[-1] == gift and ordered[0] == Move("4", 1, 0)


def test_engine_a_fourth_cell_shared_by_two_blocks_is_one_threat() -> None:
    """Seed goal: "four cards of your colour in a two-by-two square". Blue's 3 at the lower right makes
    a second block whose only non-blue cell is the centre, which already completed the upper-left block:
    laying a card there is one square-completing move, so own_threats is 1 (threats_after without its
    continue counted it twice; only the compiled guide's agreement noticed)."""
    game, state = game_at("b5,b4,r3/b3,.,b6/r4,b2,. 55,33 -,- 2")
    move = Move("3", 2, 2)
    after = game.apply(state, move)
    assert threat_count(after.board, after, [1], game.rules) == 1
    assert effect(state, move, game.rules).own_threats == 1


def test_ruling_a_written_pass_by_a_player_who_can_lay_a_card_is_refused() -> None:
    """Ruling (docs/rules/cardclash.md): "A player with no legal placement passes, keeping the hand" (and only
    then). Blue is written as having passed just before red's turn while holding a 2 that goes next
    to the cards on the table: the position is refused (a mutant that checked one passer fewer, none
    here, passed every test; only passes=2, where the round is over, was tested)."""
    game = CardClashGame(2)
    with pytest.raises(NotationError, match="passes=1: player 2 passed, but can lay a card on this table"):
        game.parse_state("r6,b5 1,2 -,- 1 passes=1")


def test_ruling_two_squares_on_the_table_go_to_the_first_in_turn_order_after_a_mover_outside_them() -> None:
    """Ruling (docs/rules/cardclash.md): "if one move gives several players a square, the mover wins if among them,
    else the first of them in turn order". Red and green show squares and player 3 (green) is to move,
    so blue (player 2) moved last: blue shows none, and after blue green comes before red, so won=3;
    won=1 is refused (a mutant that took the mover for (to_move - 1) // n, red here, passed every test).
    With player 2 to move, red moved last and is among them: won=1."""
    game = CardClashGame(3)
    table = "r2,r3,g2,g3/r4,r5,g4,g5 6,6,6 -,-,-"
    assert game.parse_state(f"{table} 3 won=3").winners == (2,)
    with pytest.raises(NotationError, match="says won=1 but red, green shows a 2x2 square: won=3"):
        game.parse_state(f"{table} 3 won=1")
    assert game.parse_state(f"{table} 2 won=1").winners == (0,)
