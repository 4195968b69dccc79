"""The cards (seed "De kaarten") and the stacking rules (seed "De stapelregels per kaart"), rank by rank."""

from __future__ import annotations

from collections import Counter

import pytest

from stratagem.models.cardclash.cards import (
    ARMY,
    ARMY_SIZE,
    COLOURS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RANKS,
    stacking,
    value,
)


def test_seed_every_colour_has_the_same_seventeen_army_cards() -> None:
    # The seed's table: Marshal 1, General 1, Major 2, Sergeant 3, Scout 4, Spy 1, Bomb 3, Miner 2.
    assert Counter(ARMY) == Counter({"6": 1, "5": 1, "4": 2, "3": 3, "2": 4, "1": 1, "B": 3, "X": 2})
    assert len(ARMY) == ARMY_SIZE == 17


def test_seed_two_to_six_players_each_with_a_colour() -> None:
    assert (MIN_PLAYERS, MAX_PLAYERS) == (2, 6)
    assert len(set(COLOURS)) == MAX_PLAYERS


def test_seed_bombs_and_miners_carry_no_number() -> None:
    assert [value(r) for r in RANKS] == [1, 2, 3, 4, 5, 6, 0, 0]


@pytest.mark.parametrize("upper", "23456")
def test_seed_numbered_card_goes_only_on_a_lower_numbered_card(upper: str) -> None:
    for lower in RANKS:
        allowed = lower in "123456" and int(lower) < int(upper)
        assert (stacking(upper, lower, False) == "stack") == allowed, (upper, lower)
        if not allowed:
            assert stacking(upper, lower, False) is None


def test_seed_spy_goes_only_on_a_marshal() -> None:
    assert [lower for lower in RANKS if stacking("1", lower, False)] == ["6"]


def test_seed_bomb_goes_only_on_a_numbered_card() -> None:
    assert [lower for lower in RANKS if stacking("B", lower, False)] == list("123456")


def test_seed_miner_goes_only_on_a_bomb() -> None:
    assert [lower for lower in RANKS if stacking("X", lower, False)] == ["B"]


def test_seed_miner_closes_the_stack() -> None:
    assert all(stacking(upper, "X", False) is None for upper in RANKS)
    # The strategic variant: only a Miner's twin goes on a Miner (tests/models/cardclash/test_miner_ruling.py).
    assert [upper for upper in RANKS if stacking(upper, "X", True)] == ["X"]


def test_seed_variant_same_value_cancels() -> None:
    for rank in "123456B":
        assert stacking(rank, rank, False) is None
        assert stacking(rank, rank, True) == "cancel"


def test_seed_variant_miner_and_bomb_cancel() -> None:
    assert stacking("X", "B", False) == "stack"
    assert stacking("X", "B", True) == "cancel"


def test_seed_variant_keeps_every_ordinary_stacking() -> None:
    for upper in RANKS:
        for lower in RANKS:
            if stacking(upper, lower, False) == "stack" and (upper, lower) != ("X", "B"):
                assert stacking(upper, lower, True) == "stack"
