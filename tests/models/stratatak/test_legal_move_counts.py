"""Regression counts of legal moves over fixed Stratatak positions (both ``star_mode`` values), and the
number of 2-ply move sequences from three of them ("perft"). Any change in move generation changes a
count, and the test names the position.

The counts in ``COUNTS`` were recorded from the engine; regenerate them ONLY after a deliberate rules
change, from the repo root::

    python -m tests.models.stratatak.test_legal_move_counts

Two counts are worked out by hand in ``test_engine_legal_move_count_by_hand``.
"""

from __future__ import annotations

import random

import pytest

from stratagem.core.game import CHANCE
from stratagem.models.stratatak.cards import ADDON, WILDCARD, Options, parse_cards
from stratagem.models.stratatak.plays import legal_plays
from stratagem.models.stratatak.rules import StratatakGame, deal

POSITIONS = {
    "deal-0": "seed:0",
    "deal-1": "seed:1",
    "deal-2": "seed:2",
    "stars-and-runs": "B1B2B3B5**,R4R4G4G5G6* G1 - - A1",
    "full-colour-sets": "B5R5G5B5R5G5*,B9 G1 - - A1",
    "defence": "B1,R2R3R4G4G4B4* G1 - B3B4 D2",
    "one-card": "G9,R1 G1 - - A1",
}

#: name -> {star_mode: (legal moves, 2-ply sequences)}
COUNTS: dict[str, dict[str, tuple[int, int]]] = {
    'deal-0': {'wildcard': (11, 264), 'addon': (11, 132)},
    'deal-1': {'wildcard': (23, 506), 'addon': (13, 169)},
    'deal-2': {'wildcard': (17, 204), 'addon': (11, 132)},
    'defence': {'wildcard': (28, 335), 'addon': (22, 253)},
    'full-colour-sets': {'wildcard': (21, 21), 'addon': (18, 18)},
    'one-card': {'wildcard': (1, 1), 'addon': (1, 1)},
    'stars-and-runs': {'wildcard': (33, 660), 'addon': (14, 210)},
}


def _state(game: StratatakGame, spec: str):  # type: ignore[no-untyped-def]
    if spec.startswith("seed:"):
        return deal(game.options, random.Random(int(spec[5:])))
    return game.parse_state(spec)


def measure(name: str, mode: str) -> tuple[int, int]:
    game = StratatakGame(Options(star_mode=mode))
    state = _state(game, POSITIONS[name])
    moves = game.legal_moves(state)
    two = 0
    for move in moves:
        after = game.apply(state, move)
        if game.is_terminal(after):
            two += 1
        elif game.to_move(after) == CHANCE:
            two += len(game.chance_outcomes(after))
        else:
            two += len(game.legal_moves(after))
    return len(moves), two


@pytest.mark.parametrize("mode", [WILDCARD, ADDON])
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_engine_legal_move_counts_regression(name: str, mode: str) -> None:
    assert measure(name, mode) == COUNTS[name][mode], f"{name} ({mode})"


def test_engine_legal_move_count_by_hand() -> None:
    # B1 B2 *: wildcard -> B1, B2, *, B1B2, B1* (Run/Set), B2* (Run/Set), B1B2* = 7 (no ** : one Star);
    # addon -> the Star only joins the Run B1B2: B1, B2, *, B1B2, B1B2* = 5.
    hand = parse_cards("B1B2*")
    assert len(legal_plays(hand, WILDCARD)) == 7
    assert len(legal_plays(hand, ADDON)) == 5


if __name__ == "__main__":
    print("COUNTS: dict[str, dict[str, tuple[int, int]]] = {")
    for key in sorted(POSITIONS):
        print(f"    {key!r}: {{{WILDCARD!r}: {measure(key, WILDCARD)}, {ADDON!r}: {measure(key, ADDON)}}},")
    print("}")
