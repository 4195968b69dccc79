"""Card Clash position files (TOML) and rebuilding the game from a record's setup.

::

    game = "cardclash"
    name = "Square in one"
    description = "Red completes a square."
    [options]                 # optional; defaults shown
    width = 6                 # the table: the battlefield's bounding box is at most width x height
    height = 6
    strategic = false         # the strategic variant
    rounds = 1                # flags played for
    [position]
    state = "r6,r5/r4,. 2346,25BX -,- 1"     # or: seed = 3 and players = 2 for a fresh deal
    [claim]                   # optional: what the file says about the position, checked by the tests
    winner = 1                # the player who can force a square (1-based), or 0 for "nobody can"
    plies = 1                 # the forced square lands on this ply (plies of the side to move count)

Every problem is a :class:`BadInput` naming the file, the key path and the problem.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stratagem.core.errors import BadInput, NotationError
from stratagem.core.io import Section, load_toml
from stratagem.models.cardclash.cards import MAX_PLAYERS, MIN_PLAYERS
from stratagem.models.cardclash.position import State, parse_state
from stratagem.models.cardclash.rules import MAX_TABLE, MIN_TABLE, CardClashGame, deal

OPTION_KEYS = {"players", "width", "height", "strategic", "rounds", "seed"}

# -- input limits (docs/formats.md, "Input limits"); integers are 64-bit at most (core.io) -------------

#: Flags played for: the box holds eight.
MAX_ROUNDS = 8


@dataclass(frozen=True)
class Claim:
    """What a position file claims: ``winner`` (0-based, or None when nobody can force a square) and
    ``plies`` (the ply on which the forced square lands; for "nobody", how deep that was checked)."""

    winner: int | None
    plies: int


@dataclass(frozen=True)
class Position:
    """A parsed position file."""

    name: str
    description: str
    game: CardClashGame
    state: State
    claim: Claim | None = None


def _options(section: Section, players: int | None) -> dict[str, Any]:
    section.reject_unknown(OPTION_KEYS)
    opts: dict[str, Any] = {
        "width": section.get("width", int, 6),
        "height": section.get("height", int, 6),
        "strategic": section.get("strategic", bool, False),
        "rounds": section.get("rounds", int, 1),
        "seed": section.seed(default=0),
    }
    count = section.get("players", int, players or 2)
    if players is not None and count != players:
        raise section.error("players", f"says {count} but the position has {players} players")
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise section.error("players", f"Card Clash is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count}")
    for key in ("width", "height"):
        if opts[key] < MIN_TABLE:
            raise section.error(key, f"the table must hold a 2x2 square: at least {MIN_TABLE}, not {opts[key]}")
        if opts[key] > MAX_TABLE:
            raise section.error(key, f"at most {MAX_TABLE} (every card of six armies in one line), not {opts[key]}")
    if not 1 <= opts["rounds"] <= MAX_ROUNDS:
        raise section.error("rounds", f"the box holds eight flags: 1 to {MAX_ROUNDS} rounds, not {opts['rounds']}")
    opts["players"] = count
    return opts


def game_from_setup(setup: dict[str, Any], source: str) -> CardClashGame:
    """The game a record was made with, from :meth:`CardClashGame.setup` data."""
    opts = _options(Section(setup, source, "setup"), None)
    return CardClashGame(opts.pop("players"), **opts)


def load_position(path: str | Path) -> Position:
    """Read and check a Card Clash position file."""
    source = str(path)
    root = Section(load_toml(path), source)
    root.reject_unknown({"game", "name", "description", "options", "position", "claim"})
    game_name = root.get("game", str, required=True)
    if game_name != "cardclash":
        raise root.error("game", f"this is a {game_name!r} file, not a Card Clash position")
    pos = root.table("position")
    pos.reject_unknown({"state", "seed", "players"})
    options = root.table("options") if root.has("options") else Section({}, source, "options")
    if options.has("seed"):  # a record's setup key: the game deals from it only when no start is given
        raise options.error("seed", "changes nothing in a position file: for a freshly dealt round give seed = N "
                            "and players = P under [position]")
    if not pos.has("state") and not pos.has("seed"):
        raise BadInput(source, "position", "give state (a position in the notation) or seed (and players, default "
                       "2) for a freshly dealt round")
    if pos.has("state"):
        for key in ("seed", "players"):
            if pos.has(key):
                raise pos.error(key, "a position with a state takes no seed or players")
        try:
            state = parse_state(pos.get("state", str))
        except NotationError as exc:
            raise pos.error("state", str(exc)) from None
        opts = _options(options, state.players)
    else:
        seed = pos.seed(required=True)
        opts = _options(options, pos.get("players", int, 2))
        state = deal(opts["players"], random.Random(seed))
    game = CardClashGame(opts.pop("players"), start=state, **opts)
    problem = game.position_problem(state)  # hands, flags, cards, table, won=, out= and passes= held to the rules
    if problem:
        raise pos.error("state", problem)
    claim = None
    if root.has("claim"):
        sec = root.table("claim")
        sec.reject_unknown({"winner", "plies"})
        winner = sec.get("winner", int, required=True)
        if not 0 <= winner <= state.players:
            raise sec.error("winner", f"a player from 1 to {state.players}, or 0 for nobody")
        plies = sec.get("plies", int, required=True)
        if plies < 1:
            raise sec.error("plies", "must be at least 1")
        claim = Claim(winner - 1 if winner else None, plies)
    return Position(
        root.get("name", str, Path(source).stem),
        root.get("description", str, ""),
        game,
        state,
        claim,
    )
