"""Which game a file belongs to, and how to rebuild a game from a record's setup.

Strato puzzles have their own format (challenge plus deals); every other game ships *position* files
(``game = "..."``, ``[options]``, ``[position]``) read by ``stratagem.models.<game>.puzzle``, whose
``game_from_setup`` also rebuilds the game a record was made with. The game modules are imported
only when needed, so a command about one game does not load the others.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, NamedTuple

from stratagem.core.errors import BadInput, NotationError
from stratagem.core.io import load_toml
from stratagem.models.strato.deal import DealError, check_position
from stratagem.models.strato.position import parse_state
from stratagem.models.strato.puzzle import Puzzle, load_puzzle, setup_from_data
from stratagem.models.strato.rules import StratoGame

GAMES = ("strato", "stratatak", "stakd", "stackattack", "cardclash")
#: Games whose files hold one position (everything but Strato's challenge-and-deals puzzles).
POSITION_GAMES = GAMES[1:]


class Loaded(NamedTuple):
    """A position file: which game, its rules object, the position, and the file's own words."""

    game_name: str
    game: Any
    state: Any
    name: str
    description: str
    source: str


def game_module(game: str, part: str, source: str, place: str = "game") -> ModuleType:
    """``stratagem.models.<game>.<part>``, or a one-line error naming the supported games."""
    if game not in GAMES:
        raise BadInput(source, place, f"unknown game {game!r} (supported: {', '.join(GAMES)})")
    return importlib.import_module(f"stratagem.models.{game}.{part}")


def game_of_file(path: str) -> str:
    """The ``game`` key of a TOML file (Strato files may leave it out)."""
    data = load_toml(path)
    game = data.get("game", "strato")
    if not isinstance(game, str) or game not in GAMES:
        raise BadInput(path, "game", f"unknown game {game!r} (supported: {', '.join(GAMES)})")
    return game


def load_position(path: str, games: tuple[str, ...] = POSITION_GAMES) -> Loaded:
    """A position file of one of ``games``."""
    game_name = game_of_file(path)
    if game_name not in games:
        raise BadInput(path, "game", f"this command takes {' or '.join(games)} positions, not {game_name!r}")
    puzzle = game_module(game_name, "puzzle", path)
    position = puzzle.load_position(path)
    state = position.state
    game = position.game
    return Loaded(game_name, game, state, str(getattr(position, "name", "") or ""),
                  str(getattr(position, "description", "") or ""), path)


def load_strato(path: str) -> Puzzle:
    """A Strato puzzle file; any other game's file is refused with a message saying what the command takes."""
    data = load_toml(path)
    game = data.get("game", "strato")
    if game != "strato":
        shown = game if isinstance(game, str) and len(game) <= 40 else "another game"
        raise BadInput(path, "game", f"this command takes Strato puzzles, not {shown!r} files (positions of the "
                       "other games go to `stratagem analyze`, STAKD solo puzzles to `stratagem check`)")
    return load_puzzle(path)


def game_from_record(game: str, setup: dict[str, Any], start: str, source: str) -> tuple[StratoGame, Any]:
    """The rules and start state a line record was made with."""
    if game != "strato":
        return position_from_record(game, setup, start, source)
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


def position_from_record(game_name: str, setup: dict[str, Any], start: str, source: str) -> tuple[Any, Any]:
    """The rules and start state of a record of a position game, rebuilt from its setup."""
    puzzle = game_module(game_name, "puzzle", source)
    game = puzzle.game_from_setup(setup, source)
    try:
        state = game.parse_state(start)
    except NotationError as exc:
        raise BadInput(source, "start", str(exc)) from None
    return game, state
