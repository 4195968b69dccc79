"""Shared builders for the STAKD tests: games and positions written in the project's notation.

Positions are ``LAYERS HANDS PLAYER [out:...]`` (docs/formats.md, section 5): ``1B@3,1h;1B@0,0h/1D@0,0h``
is two Bases on layer 0 and a Duo on layer 1, all owned by player 1. Most rule tests use the solo
lattice of 11x3 nodes (two Bases), whose first Base goes at (3,1) horizontally:

    x: 0 1 2 3 4 5 6 7
    y0 A A A A A            Base A = B@0,0h (the usual second Base)
    y1       B B B B B      Base B = B@3,1h (the first Base)
"""

from __future__ import annotations

from pathlib import Path

from stratagem.models.stakd.geometry import square_lattice
from stratagem.models.stakd.notation import format_move, parse_state
from stratagem.models.stakd.position import Move, State
from stratagem.models.stakd.rules import StakdGame, structure_problems
from tests.docsection import FormatsSection

REPO = Path(__file__).resolve().parents[3]
PUZZLES = REPO / "puzzles" / "stakd"
DRAFT = FormatsSection("## 5. STAKD Elite notation")

#: The two Bases of the solo lattice drawn above.
TWO_BASES = "1B@3,1h;1B@0,0h"


def position(text: str, width: int = 11, height: int = 3) -> tuple[StakdGame, State]:
    """A game on a ``width`` x ``height`` lattice starting at the position ``text`` (checked, settled)."""
    state = parse_state(text)
    geometry = square_lattice(width, height)
    assert structure_problems(geometry, state.layers) == [], structure_problems(geometry, state.layers)
    game = StakdGame(len(state.hands), geometry, state)
    return game, game.initial_state()


def moves(game: StakdGame, state: State) -> list[str]:
    """The legal moves in notation."""
    return [format_move(m) for m in game.legal_moves(state)]


def legal(game: StakdGame, state: State, text: str) -> bool:
    return text in moves(game, state)


def layer_of(game: StakdGame, state: State, text: str) -> int:
    """The layer a legal move ``text`` goes on."""
    found: list[Move] = [m for m in game.legal_moves(state) if format_move(m) == text]
    assert found, f"{text} is not legal here"
    return found[0].layer
