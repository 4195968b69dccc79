"""The six weather actions and the constraints common to all of them (seed "How to Play" and
"Weather Actions"; docs/rules/strato.md). Every test states the position before, the full list of legal
target choices of one play, and the rows after each, in the row notation (docs/rules/strato.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem.core.errors import IllegalMove
from stratagem.models.strato.rules.actions import outcomes, resolved_weather
from stratagem.models.strato.rules.challenge import Options
from stratagem.models.strato.rules.position import LEFT, RIGHT, Coord, Row, format_rows, parse_rows

from .support import apply_text, game, play_map

# --- Wind ----------------------------------------------------------------------------------------


def test_seed_wind_moves_a_card_of_its_row_away_from_the_wind() -> None:
    g, s = game("FS(RW)TC W RR 1 -")
    assert play_map(g, s, "W1R") == {
        "W1R:1R2>1R1": "FS(RW)CTW",  # near half-row: C moves inward, past T
        "W1R:1L1>1L2": "SF(RW)TCW",  # far half-row: S moves outward, past F
    }


def test_ruling_wind_card_in_near_half_row_moves_inward_by_one_or_more_steps() -> None:
    g, s = game("CFS(RW)TFC W RR 1 -")
    moves = play_map(g, s, "W1L")
    near = {k: v for k, v in moves.items() if k.startswith("W1L:1L")}
    assert near == {
        "W1L:1L2>1L1": "WCSF(RW)TFC",
        "W1L:1L3>1L1": "WFSC(RW)TFC",
        "W1L:1L3>1L2": "WFCS(RW)TFC",
    }


def test_ruling_wind_card_in_far_half_row_moves_outward() -> None:
    g, s = game("CFS(RW)TFC W RR 1 -")
    moves = play_map(g, s, "W1L")
    far = {k: v for k, v in moves.items() if k.startswith("W1L:1R")}
    assert far == {
        "W1L:1R1>1R2": "WCFS(RW)FTC",
        "W1L:1R1>1R3": "WCFS(RW)FCT",
        "W1L:1R2>1R3": "WCFS(RW)TCF",
    }
    assert len(moves) == 6


def test_ruling_wind_never_crosses_the_tornadoes_by_default() -> None:
    g, s = game("FS(RW)TC W RR 1 -")
    for rows in play_map(g, s, "W1R").values():
        row = parse_rows(rows)[0]
        assert sorted(row.left) == sorted("SF") and sorted(row.right) == sorted("TCW")


def test_ruling_option_wind_crosses_tornado_reinserts_a_near_card_anywhere_in_the_far_half_row() -> None:
    g, s = game("FS(RW)TC W RR 1 -", wind_crosses_tornado=True)
    assert play_map(g, s, "W1R") == {
        "W1R:1R1>1L1": "FST(RW)CW",
        "W1R:1R1>1L2": "FTS(RW)CW",
        "W1R:1R1>1L3": "TFS(RW)CW",
        "W1R:1R2>1R1": "FS(RW)CTW",
        "W1R:1R2>1L1": "FSC(RW)TW",
        "W1R:1R2>1L2": "FCS(RW)TW",
        "W1R:1R2>1L3": "CFS(RW)TW",
        "W1R:1L1>1L2": "SF(RW)TCW",
    }


def test_ruling_option_wind_crosses_tornado_never_carries_the_wind_itself() -> None:
    g, s = game("(RW)T W RR 1 -", wind_crosses_tornado=True)
    assert play_map(g, s, "W1R") == {"W1R:1R1>1L1": "T(RW)W"}


def test_seed_wind_must_change_something_identical_neighbours_give_no_choice() -> None:
    # Right half-row after the play reads R R W outward: moving the second R inward changes nothing.
    g, s = game("(RW)RR W RR 1 -")
    assert play_map(g, s, "W1R") == {"W1R": "(RW)RRW"}


# --- Rain ----------------------------------------------------------------------------------------


def test_seed_rain_takes_the_opposite_end_card_and_inserts_it_next_to_either_tornado() -> None:
    g, s = game("FS(RW)TC R WW 1 -")
    assert play_map(g, s, "R1L") == {
        "R1L:1R2>1L1": "RFSC(RW)T",  # next to the left tornado: the rain and its row are pushed outward
        "R1L:1R2>1R1": "RFS(RW)CT",  # next to the right tornado: T is pushed outward
    }


def test_ruling_rain_with_empty_opposite_half_row_has_no_effect() -> None:
    g, s = game("FS(RW) R WW 1 -")
    assert play_map(g, s, "R1L") == {"R1L": "RFS(RW)"}


def test_seed_rain_reinserting_the_card_where_it_already_is_is_not_a_choice() -> None:
    # The opposite half-row holds one card: inserting it next to its own tornado changes nothing.
    g, s = game("FS(RW)T R WW 1 -")
    assert play_map(g, s, "R1L") == {"R1L:1R1>1L1": "RFST(RW)"}


def test_seed_rain_takes_the_outermost_card_only() -> None:
    g, s = game("S(RW)TFC R WW 1 -")
    targets = {k.split(":")[1].split(">")[0] for k in play_map(g, s, "R1L")}
    assert targets == {"1R3"}


# --- Sun -----------------------------------------------------------------------------------------


def test_seed_sun_discards_any_other_card_of_its_row() -> None:
    g, s = game("FS(RW)TC S WW 1 -")
    assert play_map(g, s, "S1L") == {
        "S1L:1L1": "SF(RW)TC",  # the gap closes toward the tornado: F and the sun move in
        "S1L:1L2": "SS(RW)TC",
        "S1L:1R1": "SFS(RW)C",
        "S1L:1R2": "SFS(RW)T",
    }


def test_seed_sun_only_targets_its_own_row() -> None:
    g, s = game("FS(RW)TC/C(ST)R S WW 1 -")
    assert play_map(g, s, "S2R") == {
        "S2R:2L1": "FS(RW)TC/(ST)RS",
        "S2R:2R1": "FS(RW)TC/C(ST)S",
    }


def test_seed_sun_with_no_other_card_in_its_row_has_no_effect() -> None:
    g, s = game("(RW) S WW 1 -")
    assert play_map(g, s, "S1R") == {"S1R": "(RW)S"}


# --- Fog -----------------------------------------------------------------------------------------


def test_seed_fog_swaps_two_cards_of_one_column_or_a_card_with_an_empty_place() -> None:
    g, s = game("FS(RW)TC/C(ST)R F WW 1 -")
    assert play_map(g, s, "F2L") == {
        "F2L:1L1<>2L1": "FC(RW)TC/FS(ST)R",
        "F2L:1R1<>2R1": "FS(RW)RC/FC(ST)T",  # 1L2<>2L2 would move the fog itself: excluded
        "F2L:1R2>2R2": "FS(RW)T/FC(ST)RC",  # C into the empty place of column R2 of row 2
    }


def test_ruling_fog_with_one_row_has_no_effect() -> None:
    g, s = game("FS(RW)TC F WW 1 -")
    assert play_map(g, s, "F1L") == {"F1L": "FFS(RW)TC"}
    assert play_map(g, s, "F1R") == {"F1R": "FS(RW)TCF"}


def test_ruling_fog_into_an_empty_place_appends_at_the_half_rows_outer_end() -> None:
    # Columns L2 and L3 are empty in row 2 (which holds one card on its left): F from 1L2 and T from
    # 1L3 both close toward the tornado and land at 2L2, which the target names ("A>B": B is where
    # the card lands).
    g, s = game("TFS(RW)/C(ST) F WW 1 -")
    assert play_map(g, s, "F2R") == {
        "F2R:1L1<>2L1": "TFC(RW)/S(ST)F",
        "F2R:1L2>2L2": "TS(RW)/FC(ST)F",
        "F2R:1L3>2L2": "FS(RW)/TC(ST)F",
    }


def test_seed_fog_may_be_played_in_any_row_and_act_on_two_others() -> None:
    g, s = game("S(RW)/C(ST)/(FC) F WW 1 -")
    assert play_map(g, s, "F3R") == {
        "F3R:1L1<>2L1": "C(RW)/S(ST)/(FC)F",  # two rows the fog was not played in
        "F3R:1L1>3L1": "(RW)/C(ST)/S(FC)F",  # into the empty place of column L1 in row 3
        "F3R:2L1>3L1": "S(RW)/(ST)/C(FC)F",
    }


def test_seed_fog_never_swaps_identical_cards() -> None:
    g, s = game("S(RW)/S(ST) F WW 1 -")
    assert play_map(g, s, "F1R") == {"F1R": "S(RW)F/S(ST)"}


# --- Storm ---------------------------------------------------------------------------------------


def test_ruling_storm_swaps_the_outer_end_cards_of_one_or_two_rows_excluding_the_storm() -> None:
    g, s = game("FS(RW)TC/C(ST)R T WW 1 -")
    assert play_map(g, s, "T2R") == {
        "T2R:1L2<>1R2": "CS(RW)TF/C(ST)RT",  # both ends of one row
        "T2R:1L2<>2L1": "CS(RW)TC/F(ST)RT",  # ends of two rows; 1R2<>2L1 would swap C with C
    }


def test_ruling_storm_in_one_row_has_no_effect_since_the_storm_is_one_of_the_two_ends() -> None:
    g, s = game("FS(RW)TC T WW 1 -")
    assert play_map(g, s, "T1R") == {"T1R": "FS(RW)TCT"}


def test_ruling_storm_skips_empty_half_rows_tornadoes_never_move() -> None:
    g, s = game("F(RW)/(ST)C T WW 1 -")
    assert play_map(g, s, "T2L") == {"T2L:1L1<>2R1": "C(RW)/T(ST)F"}


# --- Cloud ---------------------------------------------------------------------------------------


def test_seed_cloud_copies_the_last_card_played() -> None:
    g, s = game("FS(RW)TC C RR 1 W")
    assert play_map(g, s, "C1R") == {
        "C1R:1R2>1R1": "FS(RW)CTC",  # as a wind played at the right end
        "C1R:1L1>1L2": "SF(RW)TCC",
    }
    after = apply_text(g, s, "C1R:1R2>1R1")
    assert after.last == "W"


def test_seed_cloud_as_first_card_of_the_game_has_no_effect() -> None:
    g, s = game("FS(RW)TC C RR 1 -")
    assert play_map(g, s, "C1R") == {"C1R": "FS(RW)TCC"}
    assert apply_text(g, s, "C1R").last == ""


def test_ruling_cloud_after_cloud_copies_what_that_cloud_resolved_as() -> None:
    g, s = game("S(RW)TW CCR WWWW 1 -")
    s = apply_text(g, s, "R1L:1R2>1R1")  # rain: W from the right end goes next to the right tornado
    assert format_rows(s.rows) == "RS(RW)WT" and s.last == "R"
    s = apply_text(g, s, "C1L:1R2>1L1")  # the cloud acts as a rain
    assert format_rows(s.rows) == "CRST(RW)W" and s.last == "R"
    assert play_map(g, s, "C1R") == {"C1R:1L4>1L1": "RSTC(RW)WC", "C1R:1L4>1R1": "RST(RW)CWC"}


def test_seed_cloud_copying_fog_uses_the_fog_target_notation() -> None:
    g, s = game("S(RW)/C(ST) C RR 1 F")
    assert play_map(g, s, "C1R") == {"C1R:1L1<>2L1": "C(RW)C/S(ST)"}


def test_engine_cloud_resolves_as_the_last_resolved_weather() -> None:
    assert resolved_weather("C", "W") == "W"
    assert resolved_weather("C", "") == ""
    assert resolved_weather("S", "W") == "S"
    assert outcomes("", parse_rows("FS(RW)TC"), Coord(0, LEFT, 1), Options()) == []


# --- common constraints ----------------------------------------------------------------------------


def test_seed_target_is_never_the_card_just_played() -> None:
    g, s = game("FS(RW)TC S WW 1 -")
    assert "S1L:1L3" not in play_map(g, s, "S1L")
    # Every outer end but the storm's own holds a W: the only swap that would change anything
    # involves the storm itself, so the storm has no effect.
    g, s = game("W(RW)W/(ST)W T WW 1 -")
    assert play_map(g, s, "T2R") == {"T2R": "W(RW)W/(ST)WT"}
    # Wind: the wind itself is never the card moved, even where moving it would change the row.
    g, s = game("(RW)RS W RR 1 -")
    assert play_map(g, s, "W1R") == {"W1R:1R2>1R1": "(RW)SRW"}


def test_seed_tornadoes_never_move() -> None:
    g, s = game("FS(RW)TC/C(ST)R WSTFR WW 1 F")
    for move, after in g.plays(s):
        assert [(r.left_tornado, r.right_tornado) for r in after.rows] == [("R", "W"), ("S", "T")], move


def test_seed_gap_closes_toward_the_tornado_after_sun() -> None:
    g, s = game("CFS(RW) S WW 1 -")
    after = apply_text(g, s, "S1L:1L1")
    assert format_rows(after.rows) == "SCF(RW)"
    assert after.rows[0].left == "FCS"  # read outward: nothing left at 1L1 empty


def test_seed_insertion_pushes_cards_outward_including_the_card_just_played() -> None:
    g, s = game("FS(RW)TC R WW 1 -")
    after = apply_text(g, s, "R1L:1R2>1L1")
    assert after.rows[0].left == "CSFR"  # C at 1L1; S, F and the rain each one place further out


def test_seed_actions_must_change_something_no_op_choices_are_dropped() -> None:
    g, s = game("WRW(RW)RR W RR 1 -")
    for move, rows in play_map(g, s, "W1R").items():
        assert rows != "WRW(RW)RRW", move


def test_ruling_card_with_no_changing_choice_is_played_without_effect() -> None:
    g, s = game("FS(RW)TC F WW 1 -")
    after = apply_text(g, s, "F1R")
    assert format_rows(after.rows) == "FS(RW)TCF"
    assert after.hands == ("W",) and after.pile == "W" and after.last == "F"


def test_ruling_option_strict_effect_makes_a_play_without_effect_illegal() -> None:
    g, s = game("FS(RW)TC FS WW 1 -", strict_effect=True)
    assert play_map(g, s, "F1L") == {} and play_map(g, s, "F1R") == {}
    with pytest.raises(IllegalMove, match="strict_effect"):
        apply_text(g, s, "F1L")
    assert play_map(g, s, "S1L")  # a card that changes something stays legal


def test_ruling_option_strict_effect_applies_to_a_cloud_with_nothing_to_copy() -> None:
    g, s = game("FS(RW)TC C WW 1 -", strict_effect=True)
    assert play_map(g, s, "C1L") == {} and play_map(g, s, "C1R") == {}
    assert g.legal_moves(s) and all(m.redraw for m in g.legal_moves(s))  # only the Redraw (a wind) is left


def test_ruling_option_strict_effect_keeps_plays_that_change_something() -> None:
    text = "FS(RW)TC/C(ST)R FST WW 1 -"
    g_lax, s = game(text)
    g_strict, _ = game(text, strict_effect=True)
    lax = {move: after for move, after in g_lax.plays(s) if move.target}
    strict = dict(g_strict.plays(s))
    assert strict == lax


# --- property: every target choice changes the table, spares the played card, and its notation says
# what happened ("A" discarded; "A>B" the card at A ends up at B; "A<>B" the cards at A and B swap)


def _card_at(rows: tuple[Row, ...], coord: Coord) -> str:
    return rows[coord.row].half(coord.side)[coord.dist]


@settings(max_examples=150, deadline=None)
@given(
    halves=st.lists(st.tuples(st.text("WRSFCT", max_size=4), st.text("WRSFCT", max_size=4)), min_size=1, max_size=3),
    card=st.sampled_from("WRSFT"),
    row=st.integers(0, 2),
    end=st.sampled_from((LEFT, RIGHT)),
    crossing=st.booleans(),
)
def test_seed_every_action_choice_changes_something_and_spares_the_played_card(
    halves: list[tuple[str, str]], card: str, row: int, end: int, crossing: bool
) -> None:
    pairs = ["RW", "ST", "FC"][: len(halves)]
    rows = parse_rows("/".join(f"{left}({pair}){right}" for (left, right), pair in zip(halves, pairs, strict=True)))
    row %= len(rows)
    placed_half = rows[row].half(end) + card
    placed = rows[:row] + (rows[row].with_half(end, placed_half),) + rows[row + 1 :]
    played = Coord(row, end, len(placed_half) - 1)
    for outcome in outcomes(card, placed, played, Options(wind_crosses_tornado=crossing)):
        target, after, exchange = outcome
        assert after != placed
        assert played not in target if exchange else target[0] != played
        assert [(r.left_tornado, r.right_tornado) for r in after] == [(r.left_tornado, r.right_tornado) for r in placed]
        if card == "S":
            assert len(target) == 1 and not exchange
            assert sum(len(r.left) + len(r.right) for r in after) == sum(len(r.left) + len(r.right) for r in placed) - 1
            continue
        assert sorted("".join(r.left + r.right for r in after)) == sorted("".join(r.left + r.right for r in placed))
        a, b = target
        if exchange:
            assert card in "FT"
            assert (_card_at(after, a), _card_at(after, b)) == (_card_at(placed, b), _card_at(placed, a))
        else:
            assert _card_at(after, b) == _card_at(placed, a)


def test_ruling_two_clouds_at_the_start_both_have_no_effect() -> None:
    g, s = game("FS(RW)TC CC RR 1 -")
    s = apply_text(g, s, "C1L")
    assert s.last == "" and play_map(g, s, "C1R") == {"C1R": "CFS(RW)TCC"}


def test_engine_two_target_choices_with_the_same_rows_are_both_listed() -> None:
    # Right half-row after the wind, outward: W R R W. Moving either R next to the tornado gives
    # R W R W; the two choices are two moves (the planner merges their equal successors).
    g, s = game("(RW)WRR W RR 1 -")
    assert play_map(g, s, "W1R") == {"W1R:1R2>1R1": "(RW)RWRW", "W1R:1R3>1R1": "(RW)RWRW"}
