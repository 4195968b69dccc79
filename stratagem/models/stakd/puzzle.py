"""STAKD position files and rebuilding a game from a record's setup.

::

    game = "stakd"
    name = "Solo: the seed's set"        # optional
    description = "..."                  # optional

    [options]                            # optional: the lattice (default: sized by the Bases, see
    width = 11                           # geometry.default_board)
    height = 3

    [position]                           # one of:
    state = "- B2Q4T6D10U16X1 1"         #   a position in STAKD notation
    # players = 2                        #   an empty table, each player with the seed's set
    # pieces = "B1T2D2U3X1"              #   the pieces to place, one string (solo) or an array of
    # layers = "1B@3,1h/1D@3,1h"         #   strings (one per player); optional partly built layers
    # to_move = 1                        #   and player to move (default 1)

A solo puzzle is a position with one hand: the goal is to place every piece. Every problem is reported
as ``file: key.path: problem``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stratagem.core.errors import BadInput, NotationError
from stratagem.core.io import Section, load_toml
from stratagem.models.stakd.geometry import Geometry, default_board, square_lattice
from stratagem.models.stakd.notation import parse_hand, parse_layers, parse_state
from stratagem.models.stakd.pieces import BASE, KIND_INDEX, MAX_PLAYERS, player_set
from stratagem.models.stakd.position import State
from stratagem.models.stakd.rules import StakdGame, structure_problems

# -- input limits (docs/formats.md, "Input limits"); hands: notation.MAX_OF_A_KIND -------------------

#: The lattice: a Base is 5 nodes long, so width 5 is the least. The default lattice, just large enough
#: for every way the Bases can lie (geometry.default_board), is 35 x 11 for six players with a Base each
#: and 11 x 3 for the solo set; 64 x 64 leaves room for hands of several Bases.
MIN_WIDTH, MAX_WIDTH = 5, 64
MAX_HEIGHT = 64


@dataclass(frozen=True)
class Position:
    """A parsed position file: the game (player count, lattice) and its start position."""

    name: str
    description: str
    game: StakdGame
    state: State


def _players(section: Section, key: str) -> int:
    players = section.get(key, int, required=True)
    if not 1 <= players <= MAX_PLAYERS:
        raise section.error(key, f"STAKD is played by 1 to {MAX_PLAYERS} players, not {players}")
    return players


def _lattice(section: Section, bases: int, place: str = "") -> Geometry:
    """The square lattice named by ``width``/``height`` in ``section``, else the default for ``bases``.

    A default too large is blamed on ``place`` (what holds the Bases), not on a key the file left out."""
    width, height = default_board(bases)
    width = section.get("width", int, width)
    height = section.get("height", int, height)
    if not MIN_WIDTH <= width <= MAX_WIDTH or not 1 <= height <= MAX_HEIGHT:
        key = "width" if not MIN_WIDTH <= width <= MAX_WIDTH else "height"
        if not section.has(key) and place:
            raise BadInput(section.source, place, f"{bases} Bases take a {width}x{height} lattice by default, "
                           f"beyond the largest, {MAX_WIDTH}x{MAX_HEIGHT}: give fewer Bases, or [options] width "
                           "and height")
        raise section.error(key, f"a {width}x{height} lattice: width {MIN_WIDTH} to {MAX_WIDTH} (a Base is 5 "
                            f"long), height 1 to {MAX_HEIGHT}")
    return square_lattice(width, height)


def game_from_setup(setup: dict[str, Any], source: str) -> StakdGame:
    """The game a record's ``setup`` (from :meth:`StakdGame.setup`) describes, with its default start."""
    section = Section(setup, source, "setup")
    section.reject_unknown({"players", "geometry", "width", "height"})
    players = _players(section, "players")
    if section.get("geometry", str, "square") != "square":
        raise section.error("geometry", "only the square lattice is known")
    geometry = _lattice(section, players * player_set(players)[KIND_INDEX[BASE]])
    return StakdGame(players, geometry)


def checked_game(state: State, options: Section, source: str, place: str, given: str = "") -> StakdGame:
    """A game for ``state`` on the lattice of ``options``, after checking the structure on it (problems
    named at ``place``; a default lattice too large for the Bases at ``given``, the key that holds them)."""
    bases = sum(h[KIND_INDEX[BASE]] for h in state.hands) + (len(state.layers[0]) if state.layers else 0)
    geometry = _lattice(options, bases, given or place)
    problems = structure_problems(geometry, state.layers)
    if problems:
        raise BadInput(source, place, problems[0])
    game = StakdGame(len(state.hands), geometry, state)
    problem = game.out_problem(game.initial_state())  # out: is checked, never trusted
    if problem:
        raise BadInput(source, place, problem)
    return game


def load_position(path: str | Path) -> Position:
    """Read and check a STAKD position file."""
    source = str(path)
    root = Section(load_toml(path), source)
    root.reject_unknown({"game", "name", "description", "options", "position"})
    if root.get("game", str, required=True) != "stakd":
        raise root.error("game", f"this is a {root.get('game', str)!r} file, not a STAKD position")
    options = root.table("options") if root.has("options") else Section({}, source, "options")
    options.reject_unknown({"width", "height"})
    pos = root.table("position")
    pos.reject_unknown({"state", "players", "pieces", "layers", "to_move"})
    given = [key for key in ("state", "players", "pieces") if pos.has(key)]
    if len(given) != 1:
        raise pos.error("state", "give exactly one of state, players or pieces")
    place = pos.where(given[0])
    try:
        if pos.has("state"):
            for key in ("layers", "to_move"):
                if pos.has(key):
                    raise pos.error(key, "belongs in the state notation when state is given")
            state = parse_state(pos.get("state", str))
        elif pos.has("players"):
            for key in ("layers", "to_move"):
                if pos.has(key):
                    raise pos.error(key, "goes with pieces, not with players (an empty table, each player holding "
                                    "the seed's set, player 1 to move): give the hands as pieces to build on layers")
            players = _players(pos, "players")
            state = State((), (player_set(players),) * players, 0, (False,) * players)
        else:
            raw = pos.data["pieces"]
            texts = [raw] if isinstance(raw, str) else raw
            if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
                raise pos.error("pieces", "a hand such as \"B1T2D2U3X1\", or an array of hands (one per player)")
            if len(texts) > MAX_PLAYERS:
                raise pos.error("pieces", f"{len(texts)} hands: STAKD is played by 1 to {MAX_PLAYERS} players")
            hands = tuple(parse_hand(t) for t in texts)
            place = pos.where("layers")
            layers = parse_layers(pos.get("layers", str, "-"))
            for layer in layers:
                for piece in layer:
                    if piece.owner >= len(hands):
                        raise pos.error("layers", f"a piece belongs to player {piece.owner + 1} of {len(hands)}")
            to_move = pos.get("to_move", int, 1)
            if not 1 <= to_move <= len(hands):
                raise pos.error("to_move", f"must be a player from 1 to {len(hands)}")
            state = State(layers, hands, to_move - 1, (False,) * len(hands))
    except NotationError as exc:
        raise BadInput(source, place, str(exc)) from None
    game = checked_game(state, options, source, place, pos.where(given[0]))
    return Position(
        root.get("name", str, Path(source).stem),
        root.get("description", str, ""),
        game,
        game.initial_state(),
    )
