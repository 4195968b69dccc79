"""Piece kinds and the piece sets of each player count (seed "Setup", docs/rules/stakd.md).

A kind is one letter: ``B`` Base (5 nodes), ``Q`` Quad (4), ``T`` Trio (3), ``D`` Duo (2), ``U`` Uni (1)
and ``X`` the Blue Bomber (1 node; X for the piece that terminates). A hand is a tuple of counts, one
per kind in :data:`KINDS` order, so hands hash and compare fast and pieces of one kind are
interchangeable.
"""

from __future__ import annotations

from collections.abc import Mapping

BASE, QUAD, TRIO, DUO, UNI, BOMBER = "B", "Q", "T", "D", "U", "X"

#: Every kind, biggest first; the order of a :data:`Hand`.
KINDS: tuple[str, ...] = (BASE, QUAD, TRIO, DUO, UNI, BOMBER)

NAMES: dict[str, str] = {BASE: "Base", QUAD: "Quad", TRIO: "Trio", DUO: "Duo", UNI: "Uni", BOMBER: "Bomber"}

Hand = tuple[int, ...]
"""Counts of pieces in hand, indexed like :data:`KINDS`."""

KIND_INDEX: dict[str, int] = {kind: i for i, kind in enumerate(KINDS)}

#: The whole box (seed "Game contents: 104 pieces").
BOX: dict[str, int] = {BASE: 8, UNI: 32, DUO: 24, TRIO: 16, QUAD: 8, BOMBER: 16}

#: Pieces per player by player count (seed table). The seed's 5-6 player row stops after "Uni x4";
#: Duo 2, Trio 1, Quad 1, Bomber 1 is the project's assumption (docs/rules/stakd.md), chosen so that six players
#: fit in the box (6 x 2 = 12 Duos, 6 Trios, 6 Quads, 6 Bombers).
PIECE_SETS: dict[int, dict[str, int]] = {
    1: {BASE: 2, UNI: 16, DUO: 10, TRIO: 6, QUAD: 4, BOMBER: 1},
    2: {BASE: 2, UNI: 12, DUO: 8, TRIO: 4, QUAD: 2, BOMBER: 2},
    3: {BASE: 1, UNI: 6, DUO: 4, TRIO: 2, QUAD: 1, BOMBER: 2},
    4: {BASE: 1, UNI: 6, DUO: 4, TRIO: 2, QUAD: 1, BOMBER: 2},
    5: {BASE: 1, UNI: 4, DUO: 2, TRIO: 1, QUAD: 1, BOMBER: 1},
    6: {BASE: 1, UNI: 4, DUO: 2, TRIO: 1, QUAD: 1, BOMBER: 1},
}

MAX_PLAYERS = 6


def hand_of(counts: Mapping[str, int]) -> Hand:
    """A hand from counts by kind letter (missing kinds count 0)."""
    for kind in counts:
        if kind not in KIND_INDEX:
            raise ValueError(f"unknown piece kind {kind!r} (kinds: {''.join(KINDS)})")
    return tuple(int(counts.get(kind, 0)) for kind in KINDS)


def player_set(players: int) -> Hand:
    """One player's pieces at the start of a round with ``players`` players (1 = solo)."""
    if players not in PIECE_SETS:
        raise ValueError(f"STAKD is played by 1 to {MAX_PLAYERS} players, not {players}")
    return hand_of(PIECE_SETS[players])


def take(hand: Hand, kind: str) -> Hand:
    """``hand`` with one piece of ``kind`` fewer (the caller checked it holds one)."""
    i = KIND_INDEX[kind]
    return hand[:i] + (hand[i] - 1,) + hand[i + 1 :]


def count(hand: Hand, kind: str) -> int:
    return hand[KIND_INDEX[kind]]
