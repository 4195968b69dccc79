"""The cards of Stratego Card Clash: ranks, the army of one colour, colours, and the stacking rules.

A card on the battlefield is written as two characters, its colour letter (lower case) and its rank
(``r6`` red Marshal, ``gB`` green Bomb, ``yX`` yellow Miner). A hand or draw pile holds cards of its
owner's colour only, so it is written as ranks alone.
"""

from __future__ import annotations

from typing import Literal

#: Ranks in notation order: the numbered cards 1 Spy, 2 Scout, 3 Sergeant, 4 Major, 5 General and
#: 6 Marshal, then B Bomb and X Miner.
RANKS = "123456BX"
SPY, MARSHAL, BOMB, MINER = "1", "6", "B", "X"
#: The 17 army cards of one colour (seed, "De kaarten").
ARMY_COUNTS = {"6": 1, "5": 1, "4": 2, "3": 3, "2": 4, "1": 1, "B": 3, "X": 2}
ARMY = "".join(rank * n for rank, n in ARMY_COUNTS.items())
ARMY_SIZE = 17
#: Cards in hand at the start of a round (seed: "Trek de bovenste vier kaarten").
HAND_SIZE = 4

#: Colour letters and names, in seat order: player i plays ``COLOURS[i]``. The seed names purple,
#: yellow and green; the rest is the project's choice.
COLOURS = "rbgypo"
COLOUR_NAMES = {"r": "red", "b": "blue", "g": "green", "y": "yellow", "p": "purple", "o": "orange"}
#: rich colour names for drawing.
COLOUR_STYLES = {"r": "red", "b": "blue", "g": "green", "y": "yellow", "p": "magenta", "o": "dark_orange"}
MIN_PLAYERS, MAX_PLAYERS = 2, 6

Stacking = Literal["stack", "cancel"]


def is_numbered(rank: str) -> bool:
    """Spy to Marshal (1-6) carry a number; Bomb and Miner do not."""
    return rank in "123456"


def value(rank: str) -> int:
    """The number on a card, 0 for Bomb and Miner (they count for nothing in the tie-breaks)."""
    return int(rank) if is_numbered(rank) else 0


def sort_ranks(ranks: str) -> str:
    """A hand in canonical order (cards of one rank and colour are interchangeable)."""
    return "".join(sorted(ranks, key=RANKS.index))


def stacking(upper: str, lower: str, strategic: bool) -> Stacking | None:
    """What laying a card of rank ``upper`` on a top card of rank ``lower`` does, or None if forbidden.

    Seed "De stapelregels per kaart": a numbered card only on a lower numbered card; the Spy only on a
    Marshal; a Bomb only on a numbered card; a Miner only on a Bomb, closing the stack (nothing goes on
    a Miner). Strategic variant: a card on a card of the same value cancels both, every value including
    the Miner's X (a Miner on a visible Miner, one laid first on an empty table, removes both: docs/rules/cardclash.md,
    ruled 2026-12-01), and a Miner on a Bomb cancels both (the variant replaces closing the stack, so
    only a Miner's twin may go on a Miner).
    """
    if strategic and (upper == lower or (upper == MINER and lower == BOMB)):
        return "cancel"
    if lower == MINER:
        return None
    if upper == SPY:
        return "stack" if lower == MARSHAL else None
    if is_numbered(upper):
        return "stack" if is_numbered(lower) and int(lower) < int(upper) else None
    if upper == BOMB:
        return "stack" if is_numbered(lower) else None
    return "stack" if lower == BOMB else None  # Miner
