"""The deck: card numbers, penalty values by colour, and which numbers carry an action.

The seed gives the colours and their penalty values but not which card has which colour, nor which
numbers are action cards. docs/rules/stackattack.md fixes a default as configuration: cards 1-64; pink (1 point) for
most, green (2) for multiples of 5, blue (3) for multiples of 10, purple (5) for multiples of 11, red
(8) for 55; Block 16 and 48, Shield 8 and 40, Decreasing 24 and 56, Switch 32 and 64. Action cards are
ordinary numbered cards (number and penalty as above) that also have an action. With the option
``actions = false`` no card has an action (the plain number game).

A :class:`Deck` is immutable and hashable; every number in it is a positive integer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

BLOCK, SHIELD, DECREASING, SWITCH = "block", "shield", "decreasing", "switch"

#: Every action, in the order the seed's table lists them.
ACTIONS = (BLOCK, SHIELD, DECREASING, SWITCH)

#: One-letter tags used by the renderer.
ACTION_TAGS = {BLOCK: "B", SHIELD: "S", DECREASING: "D", SWITCH: "X"}

#: Colour name -> penalty value (seed section 2).
COLOURS = {"pink": 1, "green": 2, "blue": 3, "purple": 5, "red": 8}
COLOUR_OF = {value: name for name, value in COLOURS.items()}

DEFAULT_CARDS = 64
DEFAULT_ACTIONS: dict[str, tuple[int, ...]] = {
    BLOCK: (16, 48),
    SHIELD: (8, 40),
    DECREASING: (24, 56),
    SWITCH: (32, 64),
}

#: Seed section 3: 10 cards per player, 4 rows; section 6: a row holds 5 cards; section 13: 64 points.
HAND_SIZE = 10
ROWS = 4
ROW_LIMIT = 5
END_SCORE = 64
MIN_PLAYERS, MAX_PLAYERS = 2, 6


def default_penalty(number: int) -> int:
    """The default colour of a card as its penalty value (docs/rules/stackattack.md deck ruling)."""
    if number == 55:
        return COLOURS["red"]
    if number % 11 == 0:
        return COLOURS["purple"]
    if number % 10 == 0:
        return COLOURS["blue"]
    if number % 5 == 0:
        return COLOURS["green"]
    return COLOURS["pink"]


class Deck(NamedTuple):
    """Cards 1..``size``, each card's penalty (``penalties[n - 1]``) and the action cards."""

    size: int
    penalties: tuple[int, ...]
    actions: tuple[tuple[int, str], ...]  # (number, action), sorted by number

    def penalty(self, number: int) -> int:
        return self.penalties[number - 1]

    def action(self, number: int) -> str | None:
        for n, action in self.actions:
            if n == number:
                return action
        return None

    def numbers(self) -> range:
        return range(1, self.size + 1)

    def total(self, cards: Iterable[int]) -> int:
        """Penalty points of a collection of cards."""
        return sum(self.penalties[n - 1] for n in cards)


def make_deck(
    size: int = DEFAULT_CARDS,
    actions: Mapping[str, Iterable[int]] | None = None,
    penalties: Mapping[int, int] | None = None,
) -> Deck:
    """A deck from configuration; ``actions=None`` gives the default action cards, ``{}`` none.

    ``penalties`` overrides the default colour of single cards. Raises ValueError on a bad
    configuration (a number outside the deck, a card with two actions, a penalty that is no colour).
    """
    if size < 1:
        raise ValueError(f"a deck needs at least one card, not {size}")
    table = [default_penalty(n) for n in range(1, size + 1)]
    for number, value in (penalties or {}).items():
        if not 1 <= number <= size:
            raise ValueError(f"penalty for card {number}: the deck has cards 1-{size}")
        if value not in COLOUR_OF:
            raise ValueError(f"penalty {value} for card {number} is no colour's value (1, 2, 3, 5 or 8)")
        table[number - 1] = value
    chosen = DEFAULT_ACTIONS if actions is None else actions
    owner: dict[int, str] = {}
    for action, numbers in chosen.items():
        if action not in ACTIONS:
            raise ValueError(f"unknown action {action!r} (actions: {', '.join(ACTIONS)})")
        for number in numbers:
            if not 1 <= number <= size:
                raise ValueError(f"{action} card {number}: the deck has cards 1-{size}")
            if number in owner and owner[number] != action:
                raise ValueError(f"card {number} cannot be both {owner[number]} and {action}")
            owner[number] = action
    return Deck(size, tuple(table), tuple(sorted(owner.items())))


DEFAULT_DECK = make_deck()
PLAIN_DECK = make_deck(actions={})
