"""Position files and setups: a Stack Attack position with its rules options, in TOML.

::

    game = "stackattack"
    name = "Two turns left"            # optional
    description = "..."                # optional

    [options]                          # optional; defaults shown (docs/rules/stackattack.md)
    actions = true                     # false: the plain number game (no card has an action)
    scope = "game"                     # "round": play ends when the round ends (endgame analysis)
    cards = 64                         # the deck is cards 1..cards
    block = [16, 48]                   # action cards by number
    shield = [8, 40]
    decreasing = [24, 56]
    switch = [32, 64]
    penalties = { "55" = 8 }           # overrides of the default colours, card -> penalty

    [position]
    state = "12.28/47/63/5 3.20/9.41 -/17.22 0/12 1"   # the position's notation
    # or: seed = 7 and players = 3: a round dealt at random from that seed

Every problem is a BadInput ``file: key.path: problem``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stratagem.core.errors import BadInput, NotationError
from stratagem.core.game import CHANCE
from stratagem.core.io import Section, load_toml
from stratagem.models.stackattack.cards import ACTIONS, COLOUR_OF, MAX_PLAYERS, MIN_PLAYERS
from stratagem.models.stackattack.position import State
from stratagem.models.stackattack.rules import SCOPES, Options, StackAttackGame

OPTION_KEYS = {"actions", "scope", "cards", "penalties", *ACTIONS}

# -- input limits (docs/formats.md, "Input limits"); integers are 64-bit at most (core.io) -------------

#: The largest deck (cards 1..cards). The box holds 64, the fewest six players can be dealt; 1000 is far
#: beyond any variant worth analysing and still a deck of a few kilobytes (10^8 cards took 1.7 GB).
MAX_CARDS = 1000


@dataclass(frozen=True)
class Position:
    """A parsed position file: its rules (``game``) and the position (``state``)."""

    name: str
    description: str
    game: StackAttackGame
    state: State


def _numbers(section: Section, key: str, default: tuple[int, ...]) -> tuple[int, ...]:
    if not section.has(key):
        return default
    raw = section.get(key, list)
    for i, value in enumerate(raw):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise section.error(f"{key}[{i}]", "a card number is a positive integer")
        if value in raw[:i]:
            raise section.error(f"{key}[{i}]", f"card {value} is named twice; name each {key} card once")
    return tuple(sorted(raw))


def parse_options(section: Section) -> Options:
    """Options from an ``[options]`` table (or a setup's ``options``); unknown keys are errors."""
    section.reject_unknown(OPTION_KEYS)
    base = Options()
    scope = section.get("scope", str, base.scope)
    if scope not in SCOPES:
        raise section.error("scope", f"{scope!r} is not one of: {', '.join(SCOPES)}")
    cards = section.get("cards", int, base.cards)
    if cards > MAX_CARDS:
        raise section.error("cards", f"at most {MAX_CARDS} cards (the box holds 64), not {cards}")
    penalties: list[tuple[int, int]] = []
    if section.has("penalties"):
        table = section.table("penalties")
        for key, value in table.data.items():
            # ASCII digits, no leading 0 (so that "55" and "055" cannot both name card 55): str.isdigit()
            # alone also takes "²", which int() refuses, and "５５"
            if not (key.isascii() and key.isdigit() and (key == "0" or key[0] != "0")):
                raise table.error(key, "a key is a card number, e.g. \"55\" = 8 (digits, no leading 0)")
            if not isinstance(value, int) or isinstance(value, bool) or value not in COLOUR_OF:
                raise table.error(key, "a penalty is a colour's value: 1, 2, 3, 5 or 8")
            penalties.append((int(key), value))
    options = Options(
        actions=section.get("actions", bool, base.actions),
        scope=scope,
        cards=cards,
        block=_numbers(section, "block", base.block),
        shield=_numbers(section, "shield", base.shield),
        decreasing=_numbers(section, "decreasing", base.decreasing),
        switch=_numbers(section, "switch", base.switch),
        penalties=tuple(sorted(penalties)),
    )
    try:
        options.deck()
    except ValueError as exc:
        raise BadInput(section.source, section.path or "options", str(exc)) from None
    return options


def _game(players: int, options: Options, start: State | None, source: str, place: str) -> StackAttackGame:
    try:
        return StackAttackGame(players, options, start)
    except (ValueError, NotationError) as exc:
        raise BadInput(source, place, str(exc)) from None


def game_from_setup(setup: dict[str, Any], source: str) -> StackAttackGame:
    """The game a record's ``setup`` (``StackAttackGame.setup()``) describes."""
    section = Section(setup, source, "setup")
    section.reject_unknown({"players", "options"})
    players = section.get("players", int, required=True)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise section.error("players", f"Stack Attack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players")
    options = parse_options(section.table("options")) if section.has("options") else Options()
    return _game(players, options, None, source, "setup")


def dealt_round(game: StackAttackGame, rng: random.Random) -> State:
    """Play the chance nodes of a deal with ``rng`` until the first turn of the round."""
    state = game.initial_state()
    while game.to_move(state) == CHANCE:
        outcomes = game.chance_outcomes(state)
        state = game.apply(state, rng.choice(outcomes)[0])
    return state


def load_position(path: str | Path) -> Position:
    """Read and check a Stack Attack position file."""
    source = str(path)
    root = Section(load_toml(path), source)
    root.reject_unknown({"game", "name", "description", "options", "position"})
    game_name = root.get("game", str, required=True)
    if game_name != "stackattack":
        raise root.error("game", f"this is a {game_name!r} file, not a Stack Attack position")
    options = parse_options(root.table("options")) if root.has("options") else Options()
    section = root.table("position")
    section.reject_unknown({"state", "seed", "players"})
    if not section.has("state") and not section.has("seed"):
        raise BadInput(source, "position", "give state (a position in the notation) or seed and players (a "
                       "round dealt at random)")
    if section.has("state"):
        for key in ("seed", "players"):
            if section.has(key):
                raise section.error(key, "give either state, or seed and players")
        text = section.get("state", str)
        try:
            game = StackAttackGame(2, options)
            start = game.parse_state(text)
        except (ValueError, NotationError) as exc:
            raise section.error("state", str(exc)) from None
        game = _game(start.players, options, start, source, "position.state")
    else:
        seed = section.seed(required=True)
        players = section.get("players", int, required=True)
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise section.error("players", f"Stack Attack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players")
        dealer = _game(players, options, None, source, "position.players")
        start = dealt_round(dealer, random.Random(seed))
        game = _game(players, options, start, source, "position")
    return Position(
        name=root.get("name", str, Path(source).stem),
        description=root.get("description", str, ""),
        game=game,
        state=start,
    )
