"""Loading puzzles and positions: from a file, or from a record's setup and a position in notation.

Strato puzzles have their own format (a challenge plus deals): :func:`load` reads one and deals the
chosen deal (:class:`StratoDeal`). Every other game ships *position* files (``game = "..."``,
``[options]``, ``[position]``) read by ``stratagem.models.<game>.puzzle`` (:class:`Position`), whose
``game_from_setup`` also rebuilds the game a record was made with (:func:`from_notation`,
:func:`game_from_record`). The game modules are imported only when needed, so loading one game's file
does not load the others.

Everything here raises :class:`~stratagem.core.errors.BadInput` naming the file, the place and what is
wrong; the command line turns that into one line on stderr and exit code 2.
"""

from __future__ import annotations

import importlib
import operator
import os
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

from stratagem.core.errors import BadInput, NotationError
from stratagem.core.io import load_toml
from stratagem.models.strato.rules.challenge import Challenge
from stratagem.models.strato.rules.deal import DealError, check_drawn_up, check_position
from stratagem.models.strato.rules.position import State, parse_state
from stratagem.models.strato.rules.puzzle import DealSpec, Puzzle, load_puzzle, setup_from_data
from stratagem.models.strato.rules.turns import StratoGame

GAMES = ("strato", "stratatak", "stakd", "stackattack", "cardclash")
#: Games whose files hold one position (everything but Strato's challenge-and-deals puzzles).
POSITION_GAMES = GAMES[1:]


class Position(NamedTuple):
    """A position of a game: its rules object, the state, and the words of the file it came from.

    ``game`` is the game's rules object (``StakdGame``, ``StratatakGame`` ...: the Game protocol of
    :mod:`stratagem.core.game`), ``state`` an immutable state of it; ``source`` is the file (or
    ``"<notation>"``) that error messages name.
    """

    game_name: str
    game: Any
    state: Any
    name: str
    description: str
    source: str


@dataclass(frozen=True)
class StratoDeal:
    """A Strato puzzle with one of its deals dealt: what ``solve`` and ``check`` work on.

    ``puzzle`` is the whole file (challenge, options, every deal), ``spec`` the chosen deal (named in
    the file, or seeded), ``game`` its rules with that deal, ``start`` the start position.
    """

    puzzle: Puzzle
    spec: DealSpec
    game: StratoGame
    start: State

    @property
    def game_name(self) -> str:
        """``"strato"``: the name a :class:`Position` carries too, so that code taking either can ask."""
        return "strato"

    @property
    def challenge(self) -> Challenge:
        """The puzzle's challenge card (rows, weathers, goal): the rules every deal of the file shares."""
        return self.puzzle.challenge

    @property
    def name(self) -> str:
        """The deal's name (``seed-N`` for a seeded deal not in the file)."""
        return self.spec.name

    @property
    def source(self) -> str:
        """The puzzle's file (``<game>`` for a deal made from a game object), as error messages name it."""
        return self.puzzle.source

    def setup(self) -> dict[str, Any]:
        """What a line or proof record holds besides the start position (the challenge, the options)."""
        return self.puzzle.setup()

    def __repr__(self) -> str:
        """The file, the deal and its start: the generated repr spelt out the whole puzzle, every deal of it."""
        return (f"StratoDeal(source={self.source!r}, name={self.name!r}, players={self.game.num_players}, "
                f"start={self.game.format_state(self.start)!r})")


def load(path: str | Path, deal: str | int | None = None, players: int | None = None) -> StratoDeal | Position:
    """The puzzle or position in the file at ``path``.

    A Strato puzzle gives a :class:`StratoDeal`: ``deal`` is a deal's name in the file or an integer
    seed of a new deal (default: the first deal), ``players`` the player count of a seeded deal. Any
    other game's file gives a :class:`Position` (``deal`` and ``players`` are for Strato only).
    """
    source = file_path(path, "path")
    game_name = game_of_file(source)
    if game_name == "strato":
        return deal_of(load_strato(source), deal, players)
    if deal is not None or players is not None:
        raise BadInput(source, "deal" if deal is not None else "players",  # the one given
                       f"deal and players are for Strato puzzles, not {game_name} positions")
    return load_position(source)


def deal_of(puzzle: Puzzle, deal: str | int | None = None, players: int | None = None) -> StratoDeal:
    """One deal of a Strato puzzle, dealt (``deal`` and ``players`` as in :func:`load`).

    A ``deal`` or ``players`` of the wrong kind is refused by name: ``players="2"`` read as a count
    said "Strato is played by 1 to 4 players, not 2", and ``deal=1.5`` looked for a deal named "1.5".
    An integer of another type (``numpy.int64``) is taken as the whole number it is.
    """
    if deal is not None and not isinstance(deal, str):
        deal = _whole(deal, "deal", "a deal's name or a whole-number seed")
    if players is not None:
        players = _whole(players, "players", "a whole number of players")
    spec = puzzle.find_deal(None if deal is None else str(deal), players)
    game = puzzle.game(spec)
    return StratoDeal(puzzle, spec, game, game.initial_state())


def as_deal(puzzle: str | Path | Puzzle | StratoDeal | StratoGame | Position, deal: str | int | None = None,
            players: int | None = None, *, caller: str = "solve") -> StratoDeal:
    """The Strato deal an entry point (``caller``: ``solve``, ``odds``) works on: from a puzzle file or a
    loaded puzzle (``deal``, ``players`` as in :func:`load`), or a deal, a game or a Strato position
    (:func:`from_notation`) given as is."""
    if isinstance(puzzle, StratoDeal | StratoGame | Position) and (deal is not None or players is not None):
        raise ValueError("deal and players choose a deal of a puzzle; this is a deal already")
    if isinstance(puzzle, Position):
        if not isinstance(puzzle.game, StratoGame):
            raise BadInput("<argument>", "puzzle", f"{caller} takes Strato deals, not a {puzzle.game_name} position "
                           "(stratagem.analyze values positions; stratagem.check answers STAKD solo puzzles)")
        start = puzzle.state
        spec = DealSpec("position", puzzle.game.num_players, state=start)
        source = puzzle.source
        return StratoDeal(Puzzle(source, puzzle.game.challenge, puzzle.game.options, (spec,)), spec, puzzle.game, start)
    if isinstance(puzzle, StratoDeal):
        return puzzle
    if isinstance(puzzle, StratoGame):
        start = puzzle.initial_state()
        spec = DealSpec("game", puzzle.num_players, state=start)
        return StratoDeal(Puzzle("<game>", puzzle.challenge, puzzle.options, (spec,)), spec, puzzle, start)
    if isinstance(puzzle, Puzzle):
        return deal_of(puzzle, deal, players)
    takes = "a Strato puzzle's file, a loaded Puzzle, a StratoDeal, a StratoGame or a Strato Position"
    return deal_of(load_strato(file_path(puzzle, "puzzle", takes)), deal, players)



def _whole(value: object, place: str, takes: str) -> int:
    """``value`` as an ``int`` (anything with ``__index__`` but a bool), else :class:`BadInput` naming ``place``."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise BadInput("<argument>", place, f"{takes}, not {type(value).__name__} {value!r:.40}")


def from_notation(game_name: str, text: str, setup: dict[str, Any] | None = None) -> Position:
    """A position given in a game's notation (docs/formats.md), with the rules ``setup`` describes.

    ``setup`` is what a record stores next to its start position (a Strato challenge and options; the
    player count and options of the other games); a game that needs nothing more may leave it out.
    """
    if not isinstance(text, str):
        raise BadInput("<notation>", "text", f"a position in the game's notation, not {type(text).__name__}")
    if setup is not None and not isinstance(setup, dict):
        raise BadInput("<notation>", "setup", f"a table of the rules' options, not {type(setup).__name__}")
    game, state = game_from_record(game_name, dict(setup or {}), text, "<notation>")
    return Position(game_name, game, state, "", "", "<notation>")


def file_path(value: object, place: str, takes: str = "a file's path") -> str:
    """``value``, a file's path (``str`` or :class:`os.PathLike`), as text; :class:`BadInput` naming the
    parameter ``place``, what it ``takes`` and what it was given for anything else (a loaded Position
    given to ``solve`` was read as a file name of its whole repr and failed with "File name too long")."""
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike):
        text = os.fspath(value)
        if isinstance(text, str):
            return text
    raise BadInput("<argument>", place, f"{takes}, not {type(value).__name__}")


def game_module(game: str, part: str, source: str, place: str = "game") -> ModuleType:
    """``stratagem.models.<game>.<part>``, or a one-line error naming the supported games."""
    if game not in GAMES:
        raise BadInput(source, place, f"unknown game {game!r} (supported: {', '.join(GAMES)})")
    return importlib.import_module(f"stratagem.models.{game}.{part}")


def game_of_file(path: str | Path) -> str:
    """The ``game`` key of a TOML file (Strato files may leave it out)."""
    data = load_toml(path)
    _check_named(data, str(path))
    game = data.get("game", "strato")
    if not isinstance(game, str) or game not in GAMES:
        raise BadInput(str(path), "game", f"unknown game {game!r} (supported: {', '.join(GAMES)})")
    return game


def _check_named(data: dict[str, Any], source: str) -> None:
    """Refuse a position file that leaves out its ``game`` (only a Strato puzzle may): read as a Strato
    puzzle, its ``[position]`` was an unknown key, which said nothing about the missing name."""
    if "game" not in data and "challenge" not in data and "position" in data:
        raise BadInput(source, "game", f"missing: a position file names its game ({', '.join(POSITION_GAMES)}); "
                       "only a Strato puzzle, with its [challenge], may leave it out")


def load_position(path: str | Path, games: tuple[str, ...] = POSITION_GAMES) -> Position:
    """A position file of one of ``games``."""
    source = str(path)
    game_name = game_of_file(source)
    if game_name not in games:
        if not {"game", "challenge"} & set(load_toml(source)):  # a Strato puzzle may leave it out, no position
            raise BadInput(source, "game", f"missing: a position file names its game ({' or '.join(games)})")
        raise BadInput(source, "game", f"this command takes {' or '.join(games)} positions, not {game_name!r}")
    puzzle = game_module(game_name, "puzzle", source)
    position = puzzle.load_position(source)
    return Position(game_name, position.game, position.state, str(getattr(position, "name", "") or ""),
                    str(getattr(position, "description", "") or ""), source)


def load_strato(path: str | Path) -> Puzzle:
    """A Strato puzzle file; any other game's file is refused with a message saying what the command takes."""
    source = str(path)
    data = load_toml(source)
    _check_named(data, source)
    game = data.get("game", "strato")
    if game != "strato":
        shown = game if isinstance(game, str) and len(game) <= 40 else "another game"
        raise BadInput(source, "game", f"this command takes Strato puzzles, not {shown!r} files (positions of the "
                       "other games go to `stratagem analyze`, STAKD solo puzzles to `stratagem check`)")
    return load_puzzle(source)


def game_from_record(game: str, setup: dict[str, Any], start: str, source: str) -> tuple[Any, Any]:
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
        check_drawn_up(state)  # as a puzzle file's position deal, odds --position and OpenSpiel's are
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


__all__ = ["GAMES", "POSITION_GAMES", "Position", "StratoDeal", "deal_of", "file_path", "from_notation",
           "game_from_record", "game_module", "game_of_file", "load", "load_position", "load_strato",
           "position_from_record"]
