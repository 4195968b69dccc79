"""Battles, drawing, reshuffles and winning (seed "Setup", "How a Battle Works", "After Each Battle",
"Winning the Game", FAQ; docs/rules/stratatak.md), plus the optional capabilities of the game."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from stratagem.core.errors import IllegalMove, NotationError
from stratagem.core.game import CHANCE, TERMINAL, Evaluation, HiddenInformation, MoveOrdering
from stratagem.models.stratatak.agents import greedy_move
from stratagem.models.stratatak.cards import ADDON, Options, deck, parse_cards
from stratagem.models.stratatak.plays import battle_winner, legal_plays
from stratagem.models.stratatak.position import ATTACK, DEAL, DEFEND, DRAW, OVER
from stratagem.models.stratatak.rules import StratatakGame, check_position, deal

GAME = StratatakGame()


def play(state_text: str, *moves: str, game: StratatakGame = GAME) -> str:
    """The position after ``moves`` (in notation) from ``state_text``."""
    state = game.parse_state(state_text)
    for move in moves:
        state = game.apply(state, game.parse_move(state, move))
    return game.format_state(state)


# -- Setup ----------------------------------------------------------------------------------------


def test_ruling_default_deck_is_sixty_cards() -> None:
    cards = deck(Options())
    counts = Counter(cards)
    assert len(cards) == 60
    assert counts["*"] == 6
    assert all(counts[f"{c}{n}"] == 2 for c in "BRG" for n in range(1, 10))


def test_seed_setup_deals_seven_each_and_the_rest_is_the_draw_pile() -> None:
    state = deal(Options(), random.Random(3))
    assert [len(h) for h in state.hands] == [7, 7]
    assert len(state.pile) == 60 - 14 and not state.discard and not state.shuffled
    assert Counter(state.all_cards()) == Counter(deck(Options()))
    assert deal(Options(), random.Random(3)) == state  # seeded: reproducible
    assert deal(Options(), random.Random(4)) != state  # shuffled


def test_seed_older_player_is_the_first_attacker() -> None:
    # Convention: player 1 is the older player.
    assert deal(Options(), random.Random(1)).attacker == 0
    state = GAME.initial_state()
    rng = random.Random(2)
    while GAME.to_move(state) == CHANCE:
        state = GAME.apply(state, rng.choice(GAME.chance_outcomes(state))[0])
    assert state.phase == ATTACK and state.attacker == 0 and GAME.to_move(state) == 0


def test_seed_fresh_game_deals_seven_each_by_chance_from_the_shuffled_deck() -> None:
    state = GAME.initial_state()
    assert state.phase == DEAL and GAME.to_move(state) == CHANCE and state.shuffled == deck(Options())
    first = dict(GAME.chance_outcomes(state))
    assert first[("*",)] == Fraction(6, 60) and first[("B1",)] == Fraction(2, 60)
    rng = random.Random(5)
    deals = 0
    while state.phase == DEAL:
        state = GAME.apply(state, rng.choice(GAME.chance_outcomes(state))[0])
        deals += 1
    assert deals == 14 and [len(h) for h in state.hands] == [7, 7] and len(state.shuffled) == 46
    assert GAME.parse_state(GAME.format_state(state)) == state
    # The rest of the pile has an unknown order: the first loser's draws are chance nodes.
    assert not state.pile


# -- How a battle works ---------------------------------------------------------------------------


def test_seed_attacker_may_play_any_legal_play() -> None:
    state = GAME.parse_state("B3B4R4G4*,R9 G1 - - A1")
    assert list(GAME.legal_moves(state)) == list(legal_plays(state.hands[0]))
    after = GAME.apply(state, parse_cards("B4R4G4*"))
    assert after.phase == DEFEND and after.table == parse_cards("B4R4G4*") and GAME.to_move(after) == 1


def test_seed_faq_defender_may_answer_with_any_legal_play_of_any_type() -> None:
    # Attack: a Run of 2 cards. The defender may answer with a Single, a Set of 3, a longer Run ...
    state = GAME.parse_state("B1,B9R9G9G5G6G7 G1 - B2B3 D2")
    moves = {GAME.format_move(state, m) for m in GAME.legal_moves(state)}
    assert {"B9", "B9R9G9", "G5G6G7", "G5"} <= moves
    assert moves == {GAME.format_move(state, m) for m in legal_plays(state.hands[1])}


@pytest.mark.parametrize("where", ["attack", "defence"])
def test_seed_faq_no_passing_both_players_must_play(where: str) -> None:
    text = "B1B2,R5R6 G1 - - A1" if where == "attack" else "B1B2,R5R6 G1 - B3 D2"
    state = GAME.parse_state(text)
    assert () not in GAME.legal_moves(state)
    with pytest.raises(IllegalMove, match="may not pass"):
        GAME.apply(state, ())


def test_engine_illegal_plays_are_refused() -> None:
    state = GAME.parse_state("B1B3,R5R6 G1 - - A1")
    with pytest.raises(IllegalMove, match="not a Single, Run or Set"):
        GAME.parse_move(state, "B1B3")
    with pytest.raises(IllegalMove, match="not in the hand"):
        GAME.parse_move(state, "G9")
    with pytest.raises(NotationError):
        GAME.parse_move(state, "X9")


def test_seed_higher_total_wins_and_tie_goes_to_the_strataclash() -> None:
    # Defender R5R6 (11) beats B3 (3): the defender stays defender, the attacker draws.
    assert play("B3B9,R5R6G1 G2G3G4G5G6G7 - - A1", "B3", "R5R6") == "B9G2G3G4G5G6G7,G1 - B3R5R6 - A1"
    # Tie 6 = 6, Blue vs Red: Blue (the attacker) wins, so the defender becomes the attacker.
    assert play("B6B9,R6G1 G2G3G4G5G6G7 - - A1", "B6", "R6") == "B9,G1G2G3G4G5G6G7 - B6R6 - A2"


# -- After each battle ----------------------------------------------------------------------------


def test_seed_battle_cards_are_discarded_face_up() -> None:
    after = GAME.parse_state(play("B6B9,R6G1 G2G3G4G5G6G7 R1 - A1", "B6", "R6"))
    assert after.discard == parse_cards("R1B6R6") and not after.table


def test_seed_winner_becomes_defender_and_does_not_draw() -> None:
    after = GAME.parse_state(play("B6B9,R6G1 G2G3 - - A1", "B6", "R6"))
    assert after.hands[0] == parse_cards("B9")  # the winner kept one card and drew none
    assert after.attacker == 1 and after.defender == 0


def test_seed_loser_becomes_attacker_draws_up_to_seven_then_attacks() -> None:
    pile = "B1B2B3B4B5B6B7B8"
    after = GAME.parse_state(play(f"B9G9,R1G1 {pile} - - A1", "B9", "G1"))
    assert after.attacker == 1 and after.phase == ATTACK and GAME.to_move(after) == 1
    assert after.hands[1] == parse_cards("R1B1B2B3B4B5B6")  # 1 card left + the top 6 of the pile
    assert after.pile == ("B7", "B8")


def test_seed_attacker_who_loses_draws_too() -> None:
    after = GAME.parse_state(play("B1G9,R5G1 B2B3B4B5B6B7B8 - - A1", "B1", "R5"))
    assert after.attacker == 0 and after.hands[0] == parse_cards("G9B2B3B4B5B6B7")


# -- Winning --------------------------------------------------------------------------------------


def test_seed_attacker_wins_by_emptying_hand_on_a_won_battle() -> None:
    state = GAME.parse_state(play("B9,R1G2 G1 - - A1", "B9", "R1"))
    assert state.phase == OVER and state.winner == 0
    assert GAME.is_terminal(state) and GAME.to_move(state) == TERMINAL and GAME.returns(state) == (1.0, -1.0)
    assert GAME.format_state(state) == "-,G2 G1 B9R1 - W1"


def test_ruling_defender_wins_by_emptying_hand_on_a_won_battle() -> None:
    state = GAME.parse_state(play("B1B5,R7 G1 - - A1", "B1", "R7"))
    assert state.phase == OVER and state.winner == 1 and GAME.returns(state) == (-1.0, 1.0)


def test_seed_last_card_played_and_lost_draws_back_up_and_attacks_again() -> None:
    state = GAME.parse_state(play("B1,R7G1 G2G3G4G5G6G7G8G9 - - A1", "B1", "R7"))
    assert state.phase == ATTACK and state.attacker == 0 and state.winner == -1
    assert state.hands[0] == parse_cards("G2G3G4G5G6G7G8")


def test_seed_emptying_the_hand_while_the_other_wins_the_battle_does_not_win() -> None:
    # The defender plays its last card but loses; the attacker holds cards: nobody has won yet.
    state = GAME.parse_state(play("B9R2,G3 - R1 - A1", "B9", "G3"))
    assert state.phase == ATTACK and state.attacker == 1
    assert state.hands[1] == parse_cards("R1B9G3")  # the pile was empty: the 3 discards, reshuffled


# -- Drawing: pile running out, reshuffle as chance -----------------------------------------------


def test_seed_faq_draw_as_many_as_available_and_play_on() -> None:
    # Pile of 1, no discards before the battle; the battle's two cards are reshuffled and drawn: 3 in all.
    state = GAME.parse_state(play("B9B8,R1 G1 - - A1", "B9", "R1"))
    assert state.hands[1] == parse_cards("B9R1G1") and not state.pile and not state.shuffled
    assert not state.discard and state.phase == ATTACK


def test_seed_faq_reshuffle_when_the_pile_runs_out_is_a_chance_node() -> None:
    # Player 2 loses with an empty hand and needs 7: 1 from the pile, then the discards (5 + the battle's
    # 2) are reshuffled: 7 cards of unknown order for 6 places, so which cards are drawn is chance.
    game = GAME
    state = game.parse_state(play("B9B8,R1 G1 B1B2R3R4* - A1", "B9", "R1"))
    assert state.phase == DRAW and game.to_move(state) == CHANCE
    assert state.hands[1] == ("G1",) and state.shuffled == parse_cards("B1B2B9R1R3R4*") and not state.discard
    outcomes = game.chance_outcomes(state)
    assert sum(p for _, p in outcomes) == 1
    assert {game.format_move(state, o): p for o, p in outcomes} == {
        f"+{card}": Fraction(1, 7) for card in ["B1", "B2", "B9", "R1", "R3", "R4", "*"]
    }


def test_ruling_chance_outcome_is_the_next_card_weighted_by_copies_and_draws_go_on() -> None:
    game = StratatakGame(Options(hand_size=3))
    state = game.parse_state("B9,G1 {R1***} - - C2")  # player 2 lacks 2 cards; 4 cards of unknown order
    assert dict(game.chance_outcomes(state)) == {("*",): Fraction(3, 4), ("R1",): Fraction(1, 4)}
    one = game.apply(state, ("R1",))
    assert one.phase == DRAW and one.hands[1] == parse_cards("R1G1")
    assert dict(game.chance_outcomes(one)) == {("*",): Fraction(1)}
    two = game.apply(one, ("*",))
    assert two.phase == ATTACK and two.hands[1] == parse_cards("R1G1*") and two.shuffled == ("*", "*")
    with pytest.raises(IllegalMove):
        game.apply(state, ("G5",))


def test_engine_whole_unknown_pile_is_drawn_without_chance() -> None:
    # Needing at least as many cards as the unknown pile holds, the order does not matter.
    state = GAME.parse_state(play("B9B8,R1 - G2G3 - A1", "B9", "R1"))
    assert state.phase == ATTACK and state.hands[1] == parse_cards("B9R1G2G3")


def test_ruling_later_draws_from_an_unknown_pile_are_chance_too() -> None:
    game = StratatakGame(Options(hand_size=2))
    state = game.parse_state("B8B9,B1 {G1G2G3} - - A1")
    after = game.apply(game.apply(state, ("B9",)), ("B1",))
    assert after.phase == DRAW and game.to_move(after) == CHANCE and after.attacker == 1


# -- options and positions ------------------------------------------------------------------------


def test_ruling_option_star_mode_addon_changes_the_legal_moves() -> None:
    text = "G1G3*,R5 B1 - - A1"
    wild = {GAME.format_move(GAME.parse_state(text), m) for m in GAME.legal_moves(GAME.parse_state(text))}
    addon_game = StratatakGame(Options(star_mode=ADDON))
    addon = {addon_game.format_move(addon_game.parse_state(text), m)
             for m in addon_game.legal_moves(addon_game.parse_state(text))}
    assert wild - addon == {"G1G3*", "G1*", "G3*"} and addon <= wild


def test_engine_impossible_positions_are_rejected() -> None:
    for text, problem in [
        ("B1B1B1,R1 - - - A1", "3 copies"),
        ("B1,- G1 - - A1", "both players hold cards"),
        ("B1,R1 G1 - B2 A1", "attack on the table"),
        ("B1,R1 G1 - B2B4 D2", "not a legal play"),
        ("B1,R1 G1 - - C1", "chance draw"),
        ("B1,R1 G1 - - W1", "winner .* with an empty hand"),
        ("B10,R1 G1 - - A1", "not in the deck"),
    ]:
        with pytest.raises(NotationError, match=problem):
            GAME.parse_state(text)


def test_engine_unknown_pile_count_is_filled_from_the_deck() -> None:
    game = StratatakGame(Options(max_count=2, copies=1, stars=1))  # deck: B1 B2 R1 R2 G1 G2 *
    state = game.parse_state("B1,R1 ?4 B2 - A1")
    assert state.shuffled == parse_cards("R2G1G2*") and not state.pile
    assert sorted(state.all_cards()) == sorted(game.deck)
    assert game.parse_state("B1,R1 G2?3 B2 - A1").pile == ("G2",)
    with pytest.raises(NotationError, match="found nowhere else"):
        game.parse_state("B1,R1 ?2 B2 - A1")


def test_engine_returns_are_zero_before_the_end() -> None:
    state = deal(Options(), random.Random(0))
    assert GAME.returns(state) == (0.0, 0.0) and not GAME.is_terminal(state)


def test_engine_setup_round_trips_through_game_from_setup() -> None:
    from stratagem.models.stratatak.puzzle import game_from_setup

    game = StratatakGame(Options(star_mode=ADDON, hand_size=5))
    assert game_from_setup(game.setup(), "<test>").options == game.options
    assert game_from_setup({"players": 2}, "<test>").options == Options()  # as ``stratagem play`` builds it


# -- capabilities ---------------------------------------------------------------------------------


def test_engine_capabilities_are_declared() -> None:
    assert isinstance(GAME, MoveOrdering) and isinstance(GAME, Evaluation) and isinstance(GAME, HiddenInformation)


def test_engine_move_ordering_puts_hand_emptying_wins_first_and_keeps_the_moves() -> None:
    state = GAME.parse_state("B1,R5R6G2 G1 - B3 D2")
    moves = GAME.legal_moves(state)
    ordered = list(GAME.order_moves(state, moves))
    assert sorted(ordered) == sorted(moves)
    assert ordered[0] == parse_cards("R5R6")  # no legal play empties the hand; R5R6 wins (11 > 3) with most cards
    attack = GAME.parse_state("B1B2,R5 G1 - - A1")
    assert list(GAME.order_moves(attack, GAME.legal_moves(attack)))[0] == parse_cards("B1B2")


def test_engine_evaluation_prefers_fewer_cards() -> None:
    state = GAME.parse_state("B1,R5R6G2 G1 - - A1")
    v = GAME.evaluate(state)
    assert v[0] > 0 > v[1] and abs(v[0]) < 1 and v[0] == -v[1]


def test_engine_observation_shows_own_hand_public_cards_and_counts() -> None:
    state = GAME.parse_state("B1B2,R5R6G2 G1G3 B7 - A1")
    obs = GAME.observation(state, 0)
    assert obs.hand == parse_cards("B1B2") and obs.opponent_cards == 3 and obs.pile_cards == 2
    assert obs.discard == ("B7",)
    other = GAME.parse_state("B1B2,R5G1G3 R6G2 B7 - A1")  # same for player 1, not for player 2
    assert GAME.observation(other, 0) == obs and GAME.observation(other, 1) != GAME.observation(state, 1)


@pytest.mark.parametrize("text", ["B1B2,R5R6G2 G1G3 B7 - A1", "B9,G1 {R1***} - - C2", "B1,R5R6G2 G1 - B3 D2"])
def test_engine_sample_state_keeps_the_observation_and_resamples_hidden_cards(text: str) -> None:
    game = StratatakGame(Options(hand_size=3)) if "C2" in text else GAME
    state = game.parse_state(text)
    rng = random.Random(7)
    seen = set()
    for _ in range(60):
        for player in (0, 1):
            sample = game.sample_state(state, player, rng)
            assert game.observation(sample, player) == game.observation(state, player)
            assert Counter(sample.all_cards()) == Counter(state.all_cards())
            assert check_position(sample, game.options) is None
            seen.add(sample.hands[1 - player])
    assert len(seen) > 2


def test_engine_greedy_plays_the_largest_winning_play() -> None:
    state = GAME.parse_state("B1,R5R6R7G2G3 G1 - B3 D2")
    move = greedy_move(GAME, state, random.Random(0))
    assert move == parse_cards("R5R6R7") and battle_winner(state.table, move) == "defender"
    attack = GAME.parse_state("B1B2B3R9,R5 G1 - - A1")
    assert greedy_move(GAME, attack, random.Random(0)) == parse_cards("B1B2B3")


# -- the analysis battle limit --------------------------------------------------------------------


def test_engine_battle_limit_stops_an_undecided_game_scored_0() -> None:
    game = StratatakGame(Options(battle_limit=2))
    state = game.parse_state("B7B8B9,R1G1 G2G3G4G5G6G7G8 - - A1")
    assert state.left == 2 and game.format_state(state).endswith(" b2")
    one = game.apply(game.apply(state, ("B9",)), ("R1",))  # battle 1: undecided, one battle left
    assert one.left == 1 and one.phase == ATTACK
    two = game.apply(game.apply(one, ("G1",)), ("B8",))  # battle 2 decides nothing: stopped
    assert two.phase == "X" and two.left == 0 and game.is_terminal(two) and game.returns(two) == (0.0, 0.0)
    assert game.parse_state(game.format_state(two)) == two
    with pytest.raises(IllegalMove):
        game.apply(two, ("G2",))


def test_ruling_battle_limit_zero_is_reported_undecided_never_a_draw() -> None:
    """Ruling (battle limit): "a value 0 reached at the bound means 'undecided within N battles', never a
    draw, and output says so". Defender-holds' position under a limit of one battle is worth 0 (the limit
    stops it) though under a limit of four player 1 loses: analysis once called it a draw."""
    from stratagem.analysis import analyze

    game = StratatakGame(Options(battle_limit=1))
    state = game.parse_state("R1G3,B7G4 *G6 - - A1")
    for method in ("alphabeta", "mcts"):
        result = analyze((game, state), method=method, iterations=2000 if method == "mcts" else None)
        assert result.solved and result.value == 0, method
        assert "undecided within 1 battle" in result.summary and "not a draw" in result.summary, result.summary
        assert not result.summary.startswith("draw"), result.summary
    longer = StratatakGame(Options(battle_limit=4))  # the shipped defender-holds: player 1 loses
    assert analyze((longer, longer.parse_state("R1G3,B7G4 *G6 - - A1")), method="alphabeta").value == -1


def test_ruling_battle_limit_a_chance_value_says_how_stopped_games_counted() -> None:
    """A value between a loss and a win under the limit (chance) says that the games the limit stopped
    counted 0, undecided; a forced win or loss needs no note (it holds without the limit too)."""
    from stratagem.analysis import analyze

    game = StratatakGame(Options(hand_size=3, battle_limit=4))
    odds = analyze((game, game.parse_state("B3B3R6,B1G4 * B4G3 - A1")), method="expecti")
    assert odds.solved and odds.value == Fraction(1, 5)
    assert "the battle limit stops counts 0 there (undecided within 4 battles, not a draw)" in odds.summary
    won = analyze((game, game.parse_state("B9,R1G1 G2 - - A1")), method="alphabeta")
    assert won.value == 1 and "battle limit" not in won.summary


def test_ruling_battle_limit_a_match_counts_a_stopped_game_unfinished_not_drawn(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``play``: a game the battle limit stops is unfinished (left out of the rates), never a draw."""
    from stratagem.matches import play

    position = tmp_path / "held.toml"
    position.write_text('game = "stratatak"\nname = "held"\n[options]\nbattle_limit = 1\n'
                        '[position]\nstate = "R1G3,B7G4 *G6 - - A1"\n')
    result = play("stratatak", ["random", "random"], games=4, position=position)
    assert all((a.draws, a.unfinished) == (0, 4) for a in result.agents)
    assert all(a["win_rate"] is None and a["win_rate_ci95"] is None and a["mean_return"] is None
               for a in result.to_json()["agents"])  # not 0 over no game


def test_engine_battle_limit_still_lets_the_last_battle_win() -> None:
    game = StratatakGame(Options(battle_limit=1))
    state = game.apply(game.apply(game.parse_state("B9,R1G1 G2 - - A1"), ("B9",)), ("R1",))
    assert state.phase == OVER and state.winner == 0


def test_engine_without_battle_limit_states_carry_no_count() -> None:
    state = GAME.parse_state("B8B9,R1G1 G2G3G4G5G6G7G8 - - A1")
    assert state.left == -1 and GAME.format_state(state) == "B8B9,R1G1 G2G3G4G5G6G7G8 - - A1"
    with pytest.raises(NotationError, match="b0"):
        GAME.parse_state("B9B8,R1G1 G2 - - A1 b0")
