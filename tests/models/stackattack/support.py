"""Shared builders for the Stack Attack tests; every test speaks the project's notation.

Positions: ``ROWS HANDS TAKEN SCORES ROUND [>PLAYED *ACTIVATE =PLACE #BLOCKED]``; moves: a reveal
``50,30``, decisions ``T2`` / ``P2`` / ``B3`` / ``S41``, deals ``D37``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stratagem.models.stackattack.notation import format_move, parse_move
from stratagem.models.stackattack.position import State, format_cards
from stratagem.models.stackattack.rules import Options, StackAttackGame
from tests.docsection import FormatsSection

REPO = Path(__file__).resolve().parents[3]
PUZZLES = REPO / "puzzles" / "stackattack"
DRAFT = FormatsSection("## 7. Stack Attack notation")


def position(text: str, **options: Any) -> tuple[StackAttackGame, State]:
    """A game (default options unless given) and the position ``text`` in it."""
    opts = Options(**options)
    state = StackAttackGame(2, opts).parse_state(text)
    return StackAttackGame(state.players, opts, state), state


def play(game: StackAttackGame, state: State, *moves: str) -> State:
    """Apply moves given in notation, each checked by ``parse_move`` first."""
    for text in moves:
        state = game.apply(state, game.parse_move(state, text))
    return state


def options_of(game: StackAttackGame, state: State) -> list[str]:
    """The decisions available, in notation."""
    return [format_move(m) for m in game.legal_moves(state)]


def rows_text(state: State) -> list[str]:
    return [format_cards(row) for row in state.rows]


__all__ = ["DRAFT", "PUZZLES", "REPO", "options_of", "parse_move", "play", "position", "rows_text"]
