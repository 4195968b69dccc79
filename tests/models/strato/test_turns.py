"""Turns, Redraw, hands, turn order, the end-of-turn checks and victory conditions (seed "How to Play",
"Redraw!", "Empty Draw Pile", "End of the Game"; docs/rules/strato.md)."""

from __future__ import annotations

import pytest

from stratagem.core.errors import IllegalMove
from stratagem.core.game import TERMINAL
from stratagem.models.strato.rules.cards import HAND_SIZE
from stratagem.models.strato.rules.challenge import CountGoal, SequenceGoal
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.notation import format_move, parse_move
from stratagem.models.strato.rules.position import LOST, ONGOING, WON, format_state, parse_rows, parse_state

from .support import apply_text, game, make_challenge, move_texts, play_map, puzzle_challenge

# --- a turn: play one card at an outer end, resolve it, draw -----------------------------------------


def test_seed_a_turn_plays_a_card_at_an_end_then_draws_one() -> None:
    g, s = game("RW(RW)RW RRW WRWR 1 -")
    after = apply_text(g, s, "W1R:1R2>1R1")
    assert format_state(after) == "RW(RW)WRW RRW RWR 1 W"


def test_seed_a_card_can_be_played_at_either_end_of_any_row() -> None:
    g, s = game("S(RW)T/F(ST)C S WW 1 -")
    ends = {text.split(":")[0] for text in move_texts(g, s) if not text.startswith("!")}
    assert ends == {"S1L", "S1R", "S2L", "S2R"}


def test_engine_cards_of_one_weather_are_interchangeable_and_listed_once() -> None:
    g, s = game("RW(RW)RW RRW WRWR 1 -")
    assert move_texts(g, s) == [
        "R1L:1R2>1L1",
        "R1L:1R2>1R1",
        "R1R:1L2>1L1",
        "R1R:1L2>1R1",
        "W1L:1L2>1L1",
        "W1L:1R1>1R2",
        "W1R:1R2>1R1",
        "W1R:1L1>1L2",
        "!W1L:1L2>1L1",
        "!W1L:1R1>1R2",
        "!W1R:1R2>1R1",
        "!W1R:1L1>1L2",
    ]


def test_seed_empty_draw_pile_play_continues_from_the_hand_without_drawing() -> None:
    g, s = game("RW(RW)RW RRW - 1 -")
    after = apply_text(g, s, "R1L:1R2>1R1")
    assert after.hands == ("RW",) and after.pile == "" and after.status == ONGOING


def test_ruling_last_resolved_weather_is_recorded_after_each_play() -> None:
    g, s = game("RW(RW)RW RCW WWWW 1 -")
    s = apply_text(g, s, "C1R")  # first card of the game, a cloud: no action, nothing to record
    assert s.last == ""
    s = apply_text(g, s, "R1R:1L2>1L1")
    assert s.last == "R"


def test_seed_discard_pile_is_never_shuffled_into_a_new_deck() -> None:
    g, s = game("RSW(RW)RSW SS - 1 -")
    s = apply_text(g, s, "S1L:1L1")  # the W next to the rain tornado goes to the discard pile
    s = apply_text(g, s, "S1R:1R1")  # and the R next to the wind tornado
    assert format_state(s) == "SRS(RW)SWS - - 1 S lost"  # nothing came back to draw


# --- Redraw ----------------------------------------------------------------------------------------


def test_seed_redraw_discards_the_hand_plays_the_pile_top_and_refills_the_hand() -> None:
    g, s = game("RW(RW)RW RRW WWWRWW 1 -")
    after = apply_text(g, s, "!W1R:1R2>1R1")
    # The hand RRW is discarded, the top W is played, then W W R are drawn back up to 3 cards.
    assert format_state(after) == "RW(RW)WRW RWW WW 1 W"


def test_seed_redraw_refills_to_the_two_card_hand_with_two_players() -> None:
    g, s = game("RW(RW)RW RR,WW RWRW 1 -")
    after = apply_text(g, s, "!R1L:1R2>1R1")
    assert after.hands == ("RW", "WW") and after.pile == "W" and after.to_move == 1


def test_seed_redraw_with_a_short_pile_refills_what_it_can() -> None:
    g, s = game("RW(RW)RW RR,WW W 1 -")
    after = apply_text(g, s, "!W1R:1R2>1R1")
    assert after.hands == ("", "WW") and after.pile == "" and after.status == ONGOING


def test_seed_redraw_needs_a_draw_pile() -> None:
    g, s = game("RW(RW)RW RRW - 1 -")
    assert not any(text.startswith("!") for text in move_texts(g, s))
    with pytest.raises(IllegalMove, match="Redraw needs a draw pile, and it is empty"):
        apply_text(g, s, "!W1R:1R2>1R1")


def test_ruling_redraw_plays_exactly_the_top_card_of_the_pile() -> None:
    g, s = game("RW(RW)RW RRW WRWR 1 -")
    with pytest.raises(IllegalMove, match="top card of the draw pile is W, not R"):
        apply_text(g, s, "!R1L:1R2>1R1")


def test_ruling_redraw_notation_shows_the_revealed_card_after_the_bang() -> None:
    g, s = game("RW(RW)RW RRW SRWR 1 -")
    redraws = [m for m in g.legal_moves(s) if m.redraw]
    assert {format_move(m) for m in redraws} == set(play_map(g, s, "!S1L")) | set(play_map(g, s, "!S1R"))
    assert all(format_move(m).startswith("!S1") and m.card == "S" for m in redraws)
    assert parse_move("!S1L:1R2") in redraws


def test_engine_redraw_under_strict_effect_is_illegal_when_the_revealed_card_changes_nothing() -> None:
    g, s = game("FS(RW)TC S FW 1 -", strict_effect=True)
    assert not [m for m in g.legal_moves(s) if m.redraw]
    g, s = game("FS(RW)TC S FW 1 -")
    assert move_texts(g, s)[-2:] == ["!F1L", "!F1R"]


# --- hands and turn order ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(1, 3), (2, 2), (3, 2), (4, 2)])
def test_seed_hand_size_3_solo_2_with_two_to_four_players(players: int, size: int) -> None:
    assert HAND_SIZE[players] == size
    state = seeded_deal(puzzle_challenge("challenge-0"), 7, players)
    assert [len(hand) for hand in state.hands] == [size] * players
    g, _ = game(format_state(state))
    assert g.hand_size == size


def test_seed_players_take_turns_in_order() -> None:
    g, s = game("RW(RW)RW RW,RW,WW RRWWRRWW 1 -")
    seen = []
    for _ in range(4):
        seen.append(s.to_move)
        s = g.apply(s, g.legal_moves(s)[0])
    assert seen == [0, 1, 2, 0] and g.to_move(s) == 1


# --- end of the turn, in the ruled order --------------------------------------------------------------


def test_ruling_end_of_turn_limit_exceeded_is_lost_even_if_the_goal_is_also_met() -> None:
    challenge = make_challenge(limit=4, left="RRR", right="WWW")
    g, s = game("RRRR(RW)WWW W WW 1 -", challenge)
    after = apply_text(g, s, "W1L")  # no choice changes anything: the wind just lengthens the row
    assert format_state(after) == "WRRRR(RW)WWW W W 1 W lost"
    assert challenge.victory(after.rows)


def test_seed_a_card_may_go_onto_a_half_row_at_its_limit_if_the_turn_ends_within_it() -> None:
    """Defeat A counts "at the end of a player's turn": a card may be played onto a half-row already at
    its limit when its action brings the half-row back within it (the Sun discards one), and the same
    play that leaves it over the limit loses."""
    challenge = make_challenge(limit=4, left="RRRR", right="WWWW")
    g, s = game("SRSR(RS)S S RS 1 -", challenge)
    assert format_state(apply_text(g, s, "S1L:1L1")) == "SSRS(RS)S R S 1 S"
    assert format_state(apply_text(g, s, "S1L:1R1")).endswith(" lost")


def test_seed_end_of_turn_victory_within_the_limit() -> None:
    challenge = make_challenge(limit=4, left="RRRR", right="WWWW")
    g, s = game("RRRR(RW)WWW W WW 1 -", challenge)
    after = apply_text(g, s, "W1R")
    assert format_state(after) == "RRRR(RW)WWWW W W 1 W won"


def test_ruling_end_of_turn_victory_comes_before_the_empty_pile_defeat() -> None:
    challenge = make_challenge(limit=6, left="RRRR", right="WWWW")
    g, s = game("RRRR(RW)WWW W - 1 -", challenge)
    assert apply_text(g, s, "W1R").status == WON


def test_seed_defeat_when_the_pile_is_empty_and_the_next_player_has_no_card() -> None:
    challenge = make_challenge(limit=6, left="RRRR", right="WWWW")
    g, s = game("RRRR(RW)WW W - 1 -", challenge)
    assert format_state(apply_text(g, s, "W1R")) == "RRRR(RW)WWW - - 1 W lost"


def test_ruling_empty_hand_loses_only_when_that_player_is_next() -> None:
    g, s = game("RW(RW)RW W,W - 1 -")
    s = apply_text(g, s, "W1R:1R2>1R1")
    assert s.hands == ("", "W") and s.status == ONGOING and s.to_move == 1
    s = apply_text(g, s, "W1L:1L2>1L1")
    assert s.hands == ("", "") and s.status == LOST


def test_seed_won_through_play_on_challenge_0() -> None:
    g, s = game("RRRR(RW)WWW W WR 1 -", puzzle_challenge("challenge-0"))
    assert apply_text(g, s, "W1R").status == WON


# --- victory conditions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "met"),
    [
        ("RRRR(RW)WWWW", True),
        ("WRRRR(RW)WWWWR", True),  # cards beyond the pattern are allowed
        ("RRR(RW)WWWW", False),  # only three rains
        ("RWRRR(RW)WWWW", False),  # read outward from the rain tornado: R R R W R
        ("RRRR(RW)WWWRW", False),
    ],
)
def test_ruling_sequence_goal_read_outward_from_the_tornado(rows: str, met: bool) -> None:
    assert puzzle_challenge("challenge-0").victory(parse_rows(rows)) is met


@pytest.mark.parametrize(
    ("rows", "met"),
    [
        ("SRWRWW(RW)RRWRWS/S(ST)T", True),  # left window W W R W R, right window R R W R W
        ("SWRWW(RW)RRWRWS/S(ST)T", False),  # left window W W R W S: one rain short
        ("RSWRWW(RW)RRWRWS/S(ST)T", False),  # the second rain is sixth, outside the 5 nearest
        ("S(RW)W/SRWRWW(ST)RRWRWS", False),  # right cards, but only the RW row may count
    ],
)
def test_ruling_count_goal_among_the_nearest_cards_and_tornadoes_restriction(rows: str, met: bool) -> None:
    assert puzzle_challenge("challenge-1").victory(parse_rows(rows)) is met


def test_ruling_symbolic_goal_names_each_rows_own_tornadoes() -> None:
    challenge = puzzle_challenge("level-2-example")
    assert challenge.goal.met(parse_rows("RRR(RW)WWW")[0])
    assert challenge.goal.met(parse_rows("SSS(SC)CCC")[0])
    assert not challenge.goal.met(parse_rows("RRR(SC)CCC")[0])


def test_seed_rows_required_counts_rows_meeting_the_goal() -> None:
    challenge = puzzle_challenge("level-2-example")
    assert challenge.rows_required == 2
    assert challenge.victory(parse_rows("RRR(RW)WWW/SSS(SC)CCC"))
    assert challenge.rows_meeting(parse_rows("RRR(RW)WWW/SS(SC)CCC")) == 1
    assert not challenge.victory(parse_rows("RRR(RW)WWW/SS(SC)CCC"))


def test_engine_goal_pattern_any_card_and_one_sided_goals() -> None:
    assert SequenceGoal("?R").met("WR", parse_rows("(RW)")[0])
    assert not SequenceGoal("?R").met("R", parse_rows("(RW)")[0])
    one_sided = make_challenge(left=None, right=">>")
    assert one_sided.victory(parse_rows("SF(RW)WW"))
    assert CountGoal(3, (("<", 2),)).met("WRR", parse_rows("(RW)")[0])


# --- returns, is_terminal -------------------------------------------------------------------------------


def test_engine_returns_and_is_terminal() -> None:
    g, s = game("RW(RW)RW RW,WW WRW 1 -")
    assert not g.is_terminal(s) and g.returns(s) == (0.0, 0.0) and g.to_move(s) == 0
    won = s._replace(status=WON)
    lost = s._replace(status=LOST)
    assert g.is_terminal(won) and g.returns(won) == (1.0, 1.0) and g.to_move(won) == TERMINAL
    assert g.is_terminal(lost) and g.returns(lost) == (-1.0, -1.0) and g.legal_moves(lost) == []


def test_engine_player_with_cards_but_no_legal_play_loses_under_strict_effect() -> None:
    g, s = game("FS(RW)TC FFF - 1 -", strict_effect=True)
    assert g.legal_moves(s) == [] and g.is_terminal(s) and g.returns(s) == (-1.0,)
    g, s = game("FS(RW)TC FFF - 1 -")
    assert not g.is_terminal(s)
    # with cards left in the pile too: neither the hand nor a Redraw (whose card, known to the solver,
    # changes nothing either) can be played, so the player can no longer play
    g, s = game("(RW) W R 1 -", strict_effect=True)
    assert g.legal_moves(s) == [] and g.is_terminal(s) and g.returns(s) == (-1.0,)


# --- illegal moves ----------------------------------------------------------------------------------------


def test_engine_apply_rejects_a_card_not_in_hand() -> None:
    g, s = game("RW(RW)RW RRW WRWR 1 -")
    with pytest.raises(IllegalMove, match="player 1 holds RRW, no S"):
        apply_text(g, s, "S1L:1L1")


def test_engine_apply_rejects_a_row_that_does_not_exist() -> None:
    g, s = game("RW(RW)RW RRW WRWR 1 -")
    with pytest.raises(IllegalMove, match=r"there is no row 2 \(rows 1-1\)"):
        apply_text(g, s, "R2L:2R2>2L1")


def test_engine_apply_rejects_a_bad_target_and_lists_the_legal_ones() -> None:
    g, s = game("RW(RW)RW RRW WRWR 1 -")
    with pytest.raises(IllegalMove, match=r"not a legal target choice here \(legal: W1R:1R2>1R1, W1R:1L1>1L2\)"):
        apply_text(g, s, "W1R:1L2>1L1")
    with pytest.raises(IllegalMove, match="not a legal target choice"):
        apply_text(g, s, "W1R")  # "must change something": the no-effect play is not offered here
    with pytest.raises(IllegalMove):
        apply_text(g, s, "W1R:1R2<>1R1")  # wind moves a card; <> is the exchange of Fog and Storm


def test_engine_apply_rejects_any_move_once_the_game_is_over() -> None:
    g, s = game("RRRR(RW)WWWW RRW WRWR 1 W won", puzzle_challenge("challenge-0"))
    with pytest.raises(IllegalMove, match="the game is over"):
        apply_text(g, s, "R1L:1R4>1L1")


def test_engine_game_parse_move_checks_legality() -> None:
    g, s = game("RW(RW)RW RRW WRWR 1 -")
    assert g.parse_move(s, "W1R:1R2>1R1") == parse_move("W1R:1R2>1R1")
    with pytest.raises(IllegalMove):
        g.parse_move(s, "W1R:1R1>1R2")
    assert g.format_state(g.parse_state("RW(RW)RW RRW WRWR 1 -")) == "RW(RW)RW RRW WRWR 1 -"
    assert parse_state("RW(RW)RW RRW WRWR 1 -") == s


def test_engine_an_exchange_may_name_its_two_places_in_either_order() -> None:
    g, s = game("FS(RW)TC/C(ST)R F WW 1 -")
    assert apply_text(g, s, "F2L:2L1<>1L1") == apply_text(g, s, "F2L:1L1<>2L1")
    assert format_move(g.parse_move(s, "F2L:2L1<>1L1")) == "F2L:1L1<>2L1"
    with pytest.raises(IllegalMove):
        apply_text(g, s, "F2L:2R2>1R2")  # a move into an empty place is not an exchange: no reversing it
