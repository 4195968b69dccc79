"""The deck as configuration (docs/rules/stackattack.md: "Deck (unpublished; configuration with this default)")."""

from __future__ import annotations

from collections import Counter

import pytest

from stratagem.models.stackattack.cards import (
    BLOCK,
    COLOURS,
    DECREASING,
    DEFAULT_DECK,
    PLAIN_DECK,
    SHIELD,
    SWITCH,
    make_deck,
)


def test_ruling_default_deck_penalties_by_colour() -> None:
    deck = DEFAULT_DECK
    assert deck.size == 64 and len(deck.penalties) == 64
    assert deck.penalty(55) == COLOURS["red"] == 8
    assert [deck.penalty(n) for n in (11, 22, 33, 44)] == [5] * 4  # purple
    assert [deck.penalty(n) for n in (10, 20, 30, 40, 50, 60)] == [3] * 6  # blue
    assert [deck.penalty(n) for n in (5, 15, 25, 35, 45)] == [2] * 5  # green
    assert deck.penalty(1) == deck.penalty(64) == 1  # pink
    # 64 cards: 1 red (55), 4 purple, 6 blue, 5 green (5, 15, 25, 35, 45), the remaining 48 pink.
    counts = Counter(deck.penalties)
    assert counts == {8: 1, 5: 4, 3: 6, 2: 5, 1: 48}
    assert deck.total(range(1, 65)) == 8 + 20 + 18 + 10 + 48


def test_ruling_default_deck_action_cards() -> None:
    deck = DEFAULT_DECK
    assert {n: deck.action(n) for n, _ in deck.actions} == {
        16: BLOCK, 48: BLOCK, 8: SHIELD, 40: SHIELD, 24: DECREASING, 56: DECREASING, 32: SWITCH, 64: SWITCH,
    }
    assert deck.action(17) is None
    assert deck.penalty(40) == 3  # an action card keeps its number's penalty
    assert PLAIN_DECK.actions == () and PLAIN_DECK.penalties == deck.penalties


def test_ruling_deck_configuration_is_checked() -> None:
    deck = make_deck(40, {BLOCK: [3]}, {7: 8})
    assert deck.size == 40 and deck.action(3) == BLOCK and deck.penalty(7) == 8
    with pytest.raises(ValueError, match="1-40"):
        make_deck(40, {BLOCK: [41]})
    with pytest.raises(ValueError, match="both"):
        make_deck(64, {BLOCK: [3], SWITCH: [3]})
    with pytest.raises(ValueError, match="colour"):
        make_deck(64, None, {7: 4})
    with pytest.raises(ValueError, match="unknown action"):
        make_deck(64, {"freeze": [3]})
