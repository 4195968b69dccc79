"""Card codes, the rules options and the deck.

A card is a short code: a colour letter and its Fighter count (``B7`` = Blue 7, ``R1``, ``G9``) or
``*`` for a Star. Cards of one colour and count are identical, so hands, piles and plays are
*multisets*, stored as tuples sorted by :func:`card_key` (Blue, Red, Green, then Stars; low counts
first). The deck is unpublished; docs/rules/stratatak.md fixes the default (three colours, counts 1-9, two copies
of each, six Stars: 60 cards) and makes it configuration (:class:`Options`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from stratagem.core.errors import NotationError
from stratagem.core.notation import check_notation_text

BLUE, RED, GREEN = "B", "R", "G"
#: Colour letters in the order hands are sorted.
COLOURS = (BLUE, RED, GREEN)
COLOUR_NAMES = {BLUE: "Blue", RED: "Red", GREEN: "Green"}
STAR = "*"

WILDCARD, ADDON = "wildcard", "addon"
#: ``star_mode`` values, the default first (docs/rules/stratatak.md).
STAR_MODES = (WILDCARD, ADDON)

#: The largest count the notation and the options accept.
MAX_COUNT_LIMIT = 99

Card = str
#: A sorted tuple of card codes (a hand, a pile's contents, a play).
Cards = tuple[str, ...]

_CARD_RE = re.compile(r"[BRG][0-9]+|\*")


@dataclass(frozen=True)
class Options:
    """Rules options. ``star_mode`` is the Stars ruling's option (docs/rules/stratatak.md); the rest describe
    the deck and hand.

    ``star_mode = "wildcard"``: a Star may stand for a missing card of a Run or Set, or be added to a
    play legal without it. ``"addon"``: a Star may only be added to a Run or Set legal without it.

    ``battle_limit`` is not a rule of the game but an analysis horizon: the rules allow endless play
    (cards cycle through reshuffles, and endgame positions repeat), which the minimax searches cannot
    take. With ``battle_limit = N > 0`` a game still undecided after N more battles stops, scored 0
    (which means "undecided within N battles", never a draw), so a value of +1 means "wins within N
    battles". 0 (the default) plays the rules as written.
    """

    star_mode: str = WILDCARD
    max_count: int = 9
    copies: int = 2
    stars: int = 6
    hand_size: int = 7
    battle_limit: int = 0

    def to_data(self) -> dict[str, Any]:
        return {
            "star_mode": self.star_mode,
            "max_count": self.max_count,
            "copies": self.copies,
            "stars": self.stars,
            "hand_size": self.hand_size,
            "battle_limit": self.battle_limit,
        }

    def problem(self) -> str | None:
        """What is wrong with these options, or None."""
        if self.star_mode not in STAR_MODES:
            return f"star_mode must be one of {', '.join(STAR_MODES)}, not {self.star_mode!r}"
        if not 1 <= self.max_count <= MAX_COUNT_LIMIT:
            return f"max_count must be from 1 to {MAX_COUNT_LIMIT}, not {self.max_count}"
        if self.copies < 1:
            return f"copies must be at least 1, not {self.copies}"
        if self.stars < 0:
            return f"stars must not be negative, not {self.stars}"
        if self.hand_size < 1:
            return f"hand_size must be at least 1, not {self.hand_size}"
        if self.battle_limit < 0:
            return f"battle_limit must be 0 (no limit) or more, not {self.battle_limit}"
        return None


@lru_cache(maxsize=1024)
def card_key(card: Card) -> tuple[int, int]:
    """Sort key: colour in :data:`COLOURS` order, then count; Stars last."""
    if card == STAR:
        return (len(COLOURS), 0)
    return (COLOURS.index(card[0]), int(card[1:]))


def sort_cards(cards: Iterable[Card]) -> Cards:
    """The canonical (sorted) form of a multiset of cards."""
    return tuple(sorted(cards, key=card_key))


def colour(card: Card) -> str | None:
    """The card's colour letter, or None for a (colourless) Star."""
    return None if card == STAR else card[0]


def count(card: Card) -> int:
    """Fighters on the card: its count, 0 for a Star."""
    return 0 if card == STAR else int(card[1:])


def make_card(colour_letter: str, fighters: int) -> Card:
    return f"{colour_letter}{fighters}"


def deck(options: Options) -> Cards:
    """Every card of the box, sorted: ``copies`` of each colour and count, and the Stars."""
    cards = [make_card(c, n) for c in COLOURS for n in range(1, options.max_count + 1) for _ in range(options.copies)]
    cards += [STAR] * options.stars
    return sort_cards(cards)


def format_cards(cards: Iterable[Card]) -> str:
    """``B3B4*``: the codes written one after the other, ``-`` for none."""
    text = "".join(cards)
    return text or "-"


def parse_cards(text: str, what: str = "cards") -> Cards:
    """Inverse of :func:`format_cards` (any order accepted; the result is sorted)."""
    check_notation_text(text)
    if text == "-":
        return ()
    cards = _CARD_RE.findall(text)
    if "".join(cards) != text or not text:
        raise NotationError(f"{what} {text!r} is not a list of cards such as B3R10* (B/R/G and a count, * a Star)")
    for card in cards:
        if card != STAR and (int(card[1:]) < 1 or card[1] == "0"):
            raise NotationError(f"card {card!r} in {what} {text!r}: a count is a number from 1 without leading 0")
    return sort_cards(cards)


def in_deck_problem(cards: Iterable[Card], options: Options) -> str | None:
    """Why these cards cannot all come from one deck (a card not in it, or too many copies), or None."""
    have = Counter(deck(options))
    for card, n in sorted(Counter(cards).items(), key=lambda item: card_key(item[0])):
        if have[card] == 0:
            return f"card {card} is not in the deck (counts 1-{options.max_count}, {options.stars} Stars)"
        if n > have[card]:
            return f"{n} copies of {card}, the deck has {have[card]}"
    return None


def remove_cards(cards: Cards, taken: Iterable[Card]) -> Cards:
    """``cards`` without ``taken`` (a sub-multiset); raises ValueError if one is missing."""
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return tuple(rest)


def is_submultiset(part: Iterable[Card], whole: Iterable[Card]) -> bool:
    need = Counter(part)
    have = Counter(whole)
    return all(have[c] >= n for c, n in need.items())
