"""Legal plays, Fighters and the Strataclash (seed "Legal Plays", "Star Cards", "Strataclash", FAQ;
docs/rules/stratatak.md: Stars, star_mode, Sets)."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from stratagem.models.stratatak.cards import ADDON, STAR, WILDCARD, Options, deck, parse_cards, sort_cards
from stratagem.models.stratatak.plays import (
    ATTACKER,
    DEFENDER,
    MIXED,
    RUN,
    SET,
    SINGLE,
    battle_winner,
    composition,
    fighters,
    is_legal_play,
    legal_plays,
    play_kinds,
    strataclash,
)


def legal(text: str, mode: str = WILDCARD) -> bool:
    return is_legal_play(parse_cards(text), mode)


# -- Legal plays ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [WILDCARD, ADDON])
def test_seed_single_is_any_one_card(mode: str) -> None:
    for card in set(deck(Options())):
        assert play_kinds((card,), mode) == (SINGLE,)


def test_seed_faq_every_card_in_hand_is_a_legal_single() -> None:
    hand = parse_cards("B1B1R5G9*")
    plays = legal_plays(hand)
    for card in set(hand):
        assert (card,) in plays


@pytest.mark.parametrize("mode", [WILDCARD, ADDON])
def test_seed_run_is_consecutive_counts_of_one_colour(mode: str) -> None:
    assert legal("G1G2", mode)  # the seed's example: a Green 1 and a Green 2
    assert RUN in play_kinds(parse_cards("B3B4B5B6"), mode)
    assert not legal("G1G3", mode)  # not consecutive, no Star
    assert not legal("G1R2", mode)  # two colours
    assert not legal("B4B4B5", mode)  # a repeated count is neither a Run nor a Set


@pytest.mark.parametrize("mode", [WILDCARD, ADDON])
def test_seed_set_is_one_count_in_one_colour_or_all_different_colours(mode: str) -> None:
    assert play_kinds(parse_cards("B5B5"), mode) == (SET,)
    assert play_kinds(parse_cards("B5R5G5"), mode) == (SET,)
    assert play_kinds(parse_cards("B5G5"), mode) == (SET,)
    assert not legal("B5B5R5", mode)  # neither all one colour nor all different
    assert not legal("B5R6", mode)


def test_ruling_mixed_set_has_at_most_three_coloured_cards() -> None:
    # Three colours exist, so "all different colours" allows at most three coloured cards; Stars aside.
    assert legal("B5R5G5**")
    assert legal("B5R5G5*", ADDON)
    hand = parse_cards("B5B5R5R5G5G5")
    assert max(len(p) for p in legal_plays(hand) if len({c[0] for c in p}) > 1) == 3


def test_seed_star_counts_zero_fighters_and_is_a_single_on_its_own() -> None:
    assert fighters((STAR,)) == 0
    assert fighters(parse_cards("B3B4*")) == 7
    assert play_kinds((STAR,), WILDCARD) == (SINGLE,)
    assert play_kinds((STAR,), ADDON) == (SINGLE,)


def test_ruling_star_only_plays_are_legal_only_as_a_single() -> None:
    for mode in (WILDCARD, ADDON):
        assert not legal("**", mode)
        assert not legal("***", mode)
    assert (STAR, STAR) not in legal_plays(parse_cards("B1**"))


def test_ruling_wildcard_star_completes_a_run_or_set() -> None:
    assert RUN in play_kinds(parse_cards("G1G3*"), WILDCARD)  # the Star stands for the Green 2
    assert not legal("G1G4*", WILDCARD)  # two cards missing, one Star
    assert legal("G1G4**", WILDCARD)
    assert set(play_kinds(parse_cards("G5*"), WILDCARD)) == {RUN, SET}  # G4/G6, or a 5 of any colour
    assert play_kinds(parse_cards("B5R5*"), WILDCARD) == (SET,)


def test_ruling_option_addon_star_may_only_join_a_run_or_set_legal_without_it() -> None:
    assert not legal("G1G3*", ADDON)
    assert not legal("G5*", ADDON)  # a Single plus a Star is not a Run or Set legal without the Star
    assert legal("G1G2*", ADDON)
    assert legal("B5B5**", ADDON)


@pytest.mark.parametrize("mode", [WILDCARD, ADDON])
def test_seed_faq_star_may_be_added_to_a_play_legal_without_it(mode: str) -> None:
    assert legal("G1G2*", mode)
    assert legal("B7R7G7*", mode)
    assert legal("B2B3B4**", mode)


def test_seed_star_cannot_raise_the_fighter_total() -> None:
    assert fighters(parse_cards("G1G2*")) == fighters(parse_cards("G1G2")) == 3


# -- move generation ------------------------------------------------------------------------------


def _all_submultisets(hand: tuple[str, ...]) -> set[tuple[str, ...]]:
    have = Counter(hand)
    cards = sorted(have)
    out = set()
    for picks in product(*(range(have[c] + 1) for c in cards)):
        play = sort_cards([c for c, n in zip(cards, picks, strict=True) for _ in range(n)])
        if play:
            out.add(play)
    return out


HANDS = ["B1B2B2R2G4**", "G1G3G5G7*", "B5R5G5B5**", "B1B2B3B4B5B6B7", "R9", "*", "B1R1G1B2R2G2*", "G2G4G6G8***"]


@pytest.mark.parametrize("mode", [WILDCARD, ADDON])
@pytest.mark.parametrize("text", HANDS)
def test_engine_legal_plays_lists_every_legal_distinct_play_once(text: str, mode: str) -> None:
    hand = parse_cards(text)
    plays = legal_plays(hand, mode)
    assert len(plays) == len(set(plays))  # identical cards: each multiset once
    assert set(plays) == {p for p in _all_submultisets(hand) if is_legal_play(p, mode)}
    assert list(plays) == sorted(plays, key=lambda p: (len(p), [(("BRG*").index(c[0]), int(c[1:] or 0)) for c in p]))


# -- battles and the Strataclash ------------------------------------------------------------------


def test_seed_higher_fighter_total_wins_the_battle() -> None:
    assert battle_winner(parse_cards("B9"), parse_cards("R3R4")) == ATTACKER  # 9 > 7
    assert battle_winner(parse_cards("B3"), parse_cards("R2R3")) == DEFENDER  # 3 < 5
    assert battle_winner(parse_cards("B5R5G5"), parse_cards("G9")) == ATTACKER  # 15 > 9, any kinds


def test_ruling_strataclash_decides_only_ties() -> None:
    # Red 5 loses the colour hierarchy to Blue, but 6 Fighters beat 5 before colours are looked at.
    assert battle_winner(parse_cards("B5"), parse_cards("R6")) == DEFENDER
    assert battle_winner(parse_cards("R6"), parse_cards("B5")) == ATTACKER


def test_seed_strataclash_mixed_vs_mixed_defender_wins() -> None:
    assert strataclash(MIXED, MIXED) == DEFENDER
    assert battle_winner(parse_cards("B4R4"), parse_cards("R3G5")) == DEFENDER


def test_seed_strataclash_same_single_colour_defender_wins() -> None:
    for c in "BRG":
        assert strataclash(c, c) == DEFENDER
    assert battle_winner(parse_cards("G7"), parse_cards("G3G4")) == DEFENDER


def test_seed_strataclash_single_colour_beats_mixed_either_side() -> None:
    for c in "BRG":
        assert strataclash(c, MIXED) == ATTACKER
        assert strataclash(MIXED, c) == DEFENDER
    assert battle_winner(parse_cards("R8"), parse_cards("B4G4")) == ATTACKER
    assert battle_winner(parse_cards("B4G4"), parse_cards("R8")) == DEFENDER


def test_seed_strataclash_colour_hierarchy_blue_red_green() -> None:
    assert battle_winner(parse_cards("B6"), parse_cards("R6")) == ATTACKER  # Blue beats Red
    assert battle_winner(parse_cards("R6"), parse_cards("B6")) == DEFENDER
    assert battle_winner(parse_cards("R6"), parse_cards("G6")) == ATTACKER  # Red beats Green
    assert battle_winner(parse_cards("G6"), parse_cards("R6")) == DEFENDER
    assert battle_winner(parse_cards("G6"), parse_cards("B6")) == ATTACKER  # Green beats Blue
    assert battle_winner(parse_cards("B6"), parse_cards("G6")) == DEFENDER


def test_seed_strataclash_full_tie_table() -> None:
    # All 16 (attacker, defender) compositions; derived from the seed's four lines and the hierarchy.
    expected = {
        ("B", "B"): DEFENDER, ("B", "R"): ATTACKER, ("B", "G"): DEFENDER, ("B", MIXED): ATTACKER,
        ("R", "B"): DEFENDER, ("R", "R"): DEFENDER, ("R", "G"): ATTACKER, ("R", MIXED): ATTACKER,
        ("G", "B"): ATTACKER, ("G", "R"): DEFENDER, ("G", "G"): DEFENDER, ("G", MIXED): ATTACKER,
        (MIXED, "B"): DEFENDER, (MIXED, "R"): DEFENDER, (MIXED, "G"): DEFENDER, (MIXED, MIXED): DEFENDER,
    }  # fmt: skip
    for (a, d), winner in expected.items():
        assert strataclash(a, d) == winner, (a, d)


def test_seed_faq_mixed_means_more_than_one_colour_stars_excluded() -> None:
    assert composition(parse_cards("B4R4")) == MIXED
    assert composition(parse_cards("G1G2*")) == "G"  # the Star is colourless
    assert composition(parse_cards("B5*")) == "B"


def test_seed_faq_star_only_play_is_mixed_in_a_strataclash() -> None:
    assert composition((STAR,)) == MIXED
    # 0 vs 0: mixed vs mixed, the Defender wins; a single colour would beat it but no coloured card has 0.
    assert battle_winner((STAR,), (STAR,)) == DEFENDER
