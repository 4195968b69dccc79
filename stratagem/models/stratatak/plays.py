"""Legal plays, Fighter totals and the Strataclash table.

Seed, "Legal Plays": a Single is any one card; a Run is two or more cards with consecutive Fighter
counts, all of one colour; a Set is two or more cards with the same count, all one colour or all
different colours. Stars (docs/rules/stratatak.md) are colourless, count 0 Fighters and, under
``star_mode = "wildcard"``, may stand for a missing card of a Run or Set or be added to a play legal
without it; under ``"addon"`` they may only be added to a Run or Set legal without them. A play of
Stars alone is legal only as a Single.

A play is a sorted tuple of card codes; the defender may answer with any legal play (seed FAQ), so
only a play's Fighter total and its colour composition matter in a battle.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations

from stratagem.models.stratatak.cards import (
    ADDON,
    COLOURS,
    STAR,
    WILDCARD,
    Cards,
    card_key,
    colour,
    count,
    make_card,
    sort_cards,
)

SINGLE, RUN, SET = "single", "run", "set"
#: Colour composition of a play with more than one colour, or with no colour at all (Stars only).
MIXED = "mixed"
ATTACKER, DEFENDER = "attacker", "defender"

#: Strataclash colour hierarchy: each colour beats the one it maps to (seed: Blue beats Red, Red beats
#: Green, Green beats Blue).
BEATS = {"B": "R", "R": "G", "G": "B"}


def fighters(play: Cards) -> int:
    """The play's Fighter total (Stars count 0)."""
    return sum(count(card) for card in play)


def composition(play: Cards) -> str:
    """The single colour of the play, or :data:`MIXED` (seed FAQ: Stars are colourless; a play of only
    Stars is treated as mixed)."""
    colours = {card[0] for card in play if card != STAR}
    return colours.pop() if len(colours) == 1 else MIXED


def play_kinds(play: Cards, star_mode: str = WILDCARD) -> tuple[str, ...]:
    """Which of Single, Run and Set the play is (several when Stars make it ambiguous); () if illegal."""
    if not play:
        return ()
    if len(play) == 1:
        return (SINGLE,)
    coloured = [card for card in play if card != STAR]
    stars = len(play) - len(coloured)
    needed = 1 if star_mode == WILDCARD else 2  # addon: the coloured cards alone must be a Run or Set
    if len(coloured) < needed:
        return ()
    kinds: list[str] = []
    colours = [colour(card) for card in coloured]
    counts = [count(card) for card in coloured]
    if len(set(colours)) == 1 and len(set(counts)) == len(counts):
        gaps = max(counts) - min(counts) + 1 - len(counts)
        if gaps == 0 or (star_mode == WILDCARD and gaps <= stars):
            kinds.append(RUN)
    if len(set(counts)) == 1 and len(set(colours)) in (1, len(colours)):
        kinds.append(SET)
    return tuple(kinds)


def is_legal_play(play: Cards, star_mode: str = WILDCARD) -> bool:
    """True for a Single, a Run or a Set (see the module docstring)."""
    return bool(play_kinds(play, star_mode))


def strataclash(attack_colour: str, defence_colour: str) -> str:
    """Who wins a tie on Fighters, from each play's composition (a colour letter or MIXED).

    Seed: mixed vs mixed -> Defender; single colour vs the same single colour -> Defender; mixed vs
    single colour -> the single colour; different single colours -> Blue beats Red, Red beats Green,
    Green beats Blue.
    """
    if attack_colour == MIXED:
        return DEFENDER
    if defence_colour == MIXED:
        return ATTACKER
    if attack_colour == defence_colour:
        return DEFENDER
    return ATTACKER if BEATS[attack_colour] == defence_colour else DEFENDER


def battle_winner(attack: Cards, defence: Cards) -> str:
    """:data:`ATTACKER` or :data:`DEFENDER`: the higher Fighter total, else the Strataclash."""
    a, d = fighters(attack), fighters(defence)
    if a != d:
        return ATTACKER if a > d else DEFENDER
    return strataclash(composition(attack), composition(defence))


@lru_cache(maxsize=1 << 16)
def legal_plays(hand: Cards, star_mode: str = WILDCARD) -> tuple[Cards, ...]:
    """Every distinct legal play from ``hand`` (a sorted multiset), each once, in a fixed order.

    Built from the few shapes a legal play can take, so no multiset is produced twice: the coloured
    cards of a play are one card, or several of one colour and one count (a same-colour Set), or one
    colour with distinct counts (a Run, whose gaps the Stars must fill in wildcard mode), or one count
    with distinct colours (a mixed Set); then 0 or more Stars are added where the rules allow; a Star
    alone is a Single. Order: fewer cards first, then the sorted card codes
    (:func:`~stratagem.models.stratatak.cards.card_key`). Tests check it against brute force.
    """
    have = Counter(hand)
    stars = have.pop(STAR, 0)
    wild = star_mode != ADDON
    plays: list[Cards] = [(STAR,)] if stars else []
    tails = [(STAR,) * k for k in range(stars + 1)]

    def add(core: Cards, least_stars: int) -> None:
        plays.extend(core + tails[k] for k in range(least_stars, stars + 1))

    for card in have:
        plays.append((card,))
        if wild:
            add((card,), 1)  # a Star stands for the card's neighbour in a Run, or its twin in a Set
        for n in range(2, have[card] + 1):
            add((card,) * n, 0)  # a same-colour Set
    for c in COLOURS:
        numbers = sorted(count(card) for card in have if card[0] == c)
        for size in range(2, len(numbers) + 1):
            for chosen in combinations(numbers, size):
                gaps = chosen[-1] - chosen[0] + 1 - size
                if gaps == 0 or (wild and gaps <= stars):
                    add(tuple(make_card(c, n) for n in chosen), gaps)  # a Run
    by_count: dict[int, list[str]] = {}
    for card in have:
        by_count.setdefault(count(card), []).append(card)
    for cards in by_count.values():
        for size in range(2, len(cards) + 1):
            for mixed in combinations(sort_cards(cards), size):
                add(mixed, 0)  # a mixed Set (one card of each colour)
    return tuple(sorted(plays, key=play_key))


def play_key(play: Cards) -> tuple[int, list[tuple[int, int]]]:
    """Order of plays: fewer cards first, then by the sorted card codes."""
    return (len(play), [card_key(card) for card in play])
