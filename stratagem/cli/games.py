"""Which game a file belongs to, and how to rebuild a game from a record's setup."""

from __future__ import annotations

from typing import Any

from stratagem.core.errors import BadInput, NotationError
from stratagem.core.io import load_toml
from stratagem.models.strato.deal import DealError, check_position
from stratagem.models.strato.position import parse_state
from stratagem.models.strato.puzzle import Puzzle, load_puzzle, setup_from_data
from stratagem.models.strato.rules import StratoGame

GAMES = ("strato",)


def load_strato(path: str) -> Puzzle:
    """A Strato puzzle file; any other game's file is refused with a clear message."""
    data = load_toml(path)
    game = data.get("game", "strato")
    if game != "strato":
        supported = ", ".join(GAMES)
        raise BadInput(path, "game", f"{game!r} puzzles are not supported yet (supported: {supported})")
    return load_puzzle(path)


def game_from_record(game: str, setup: dict[str, Any], start: str, source: str) -> tuple[StratoGame, Any]:
    """The rules and start state a line record was made with."""
    if game != "strato":
        raise BadInput(source, "game", f"unknown game {game!r} (supported: {', '.join(GAMES)})")
    challenge, options = setup_from_data(setup, source)
    try:
        state = parse_state(start)
    except NotationError as exc:
        raise BadInput(source, "start", str(exc)) from None
    if len(state.rows) != challenge.rows:
        raise BadInput(source, "start", f"{len(state.rows)} row(s), the challenge has {challenge.rows}")
    try:
        check_position(challenge, state)
    except DealError as exc:
        raise BadInput(source, "start", str(exc)) from None
    return StratoGame(challenge, options, state), state
