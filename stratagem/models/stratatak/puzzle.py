"""Stratatak position files (TOML) and rebuilding a game from a record's setup.

::

    game = "stratatak"
    name = "last card"                 # optional
    description = "..."                # optional
    [options]                          # optional; defaults shown (docs/rules/stratatak.md)
    star_mode = "wildcard"             # or "addon"
    max_count = 9                      # Fighter counts 1..max_count
    copies = 2                         # copies of each colour and count
    stars = 6                          # Star cards in the deck
    hand_size = 7                      # the loser draws back up to this
    battle_limit = 0                   # analysis horizon: N > 0 stops an undecided game after N battles
    [position]
    state = "B3B4*,R7G7 B1R2 R5R5 - A1"  # the position notation; or seed = N for a dealt start
    [solution]                         # optional: the open-analysis value for player 1 as a fraction
    value = "1"

Every problem is reported as ``file: key.path: problem``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from random import Random
from typing import Any

from stratagem.core.errors import BadInput, NotationError
from stratagem.core.io import Section, load_toml
from stratagem.models.stratatak.cards import Options, deck
from stratagem.models.stratatak.position import State
from stratagem.models.stratatak.rules import StratatakGame, deal

OPTION_KEYS = {"star_mode", "max_count", "copies", "stars", "hand_size", "battle_limit"}

# -- input limits (docs/formats.md, "Input limits"); integers are 64-bit at most (core.io) -------------
# max_count is already bounded by the notation (at most 99, cards.MAX_COUNT_LIMIT). With the limits below
# the largest deck is 3 x 99 x 16 + 99 cards, a few thousand: every search stays bounded by its own
# limits, never by the size of the deck description.

#: Copies of each colour and count: the default deck has 2; 16 is eight times that.
MAX_COPIES = 16
#: Star cards: the default deck has 6.
MAX_STARS = 99
#: Cards a hand is drawn back up to: the default is 7. A hand's plays grow about 1.6 times a card (Runs of one
#: colour with Stars in the gaps): the most a hand of 14 can make is 2,100 (11 cards of one colour, 3 Stars),
#: of 15 3,367 and of 16 5,264, past the 4,096 plays a state the compiled engine holds. At 99, analyze of a
#: seeded deal ended in an internal error ("more than 4096 Stratatak plays in one state") and play ran past
#: its time limit inside one search step (QA 58).
MAX_HAND_SIZE = 14
#: Battles an analysis looks ahead: the shipped positions use 4, and the exact searches cannot go
#: beyond a few dozen; 10,000 is as good as unlimited while keeping the number an honest horizon.
MAX_BATTLE_LIMIT = 10_000

_MAXIMA = {"copies": MAX_COPIES, "stars": MAX_STARS, "hand_size": MAX_HAND_SIZE, "battle_limit": MAX_BATTLE_LIMIT}


@dataclass(frozen=True)
class Position:
    """A parsed position file. ``value`` is what the file claims (player 1's open-analysis value)."""

    name: str
    description: str
    game: StratatakGame
    state: State
    value: Fraction | None = None


def parse_options(section: Section) -> Options:
    """Rules options from a TOML table (or a record's setup); unknown keys and bad values are errors."""
    section.reject_unknown(OPTION_KEYS)
    default = Options()
    options = Options(
        star_mode=section.get("star_mode", str, default.star_mode),
        max_count=section.get("max_count", int, default.max_count),
        copies=section.get("copies", int, default.copies),
        stars=section.get("stars", int, default.stars),
        hand_size=section.get("hand_size", int, default.hand_size),
        battle_limit=section.get("battle_limit", int, default.battle_limit),
    )
    problem = options.problem()
    if problem:  # "hand_size must be at least 1, not 0": named by its key, said once
        key, _, rest = problem.partition(" ")
        raise section.error(key, rest)
    for key, most in _MAXIMA.items():
        if getattr(options, key) > most:
            raise section.error(key, f"at most {most}, not {getattr(options, key)} (docs/formats.md, Input limits)")
    return options


def game_from_setup(setup: dict[str, Any], source: str) -> StratatakGame:
    """The game a record was made with, from its ``setup`` (:meth:`StratatakGame.setup`)."""
    if not isinstance(setup, dict):
        raise BadInput(source, "setup", "must be a table of rules options")
    section = Section(setup, source, "setup")
    if section.has("players"):  # ``stratagem play`` passes the player count: Stratatak is for two
        players = section.get("players", int)
        if players != 2:
            raise section.error("players", f"Stratatak is a game for 2 players, not {players}")
        section = Section({k: v for k, v in setup.items() if k != "players"}, source, "setup")
    return StratatakGame(parse_options(section))


def load_position(path: str | Path) -> Position:
    """Read and check a Stratatak position file."""
    source = str(path)
    root = Section(load_toml(path), source)
    root.reject_unknown({"game", "name", "description", "options", "position", "solution"})
    game_name = root.get("game", str, required=True)
    if game_name != "stratatak":
        raise root.error("game", f"this is a {game_name!r} file, not a Stratatak position")
    options = parse_options(root.table("options")) if root.has("options") else Options()
    section = root.table("position")
    section.reject_unknown({"state", "seed"})
    if section.has("state") == section.has("seed"):
        raise BadInput(source, "position", "give exactly one of state (a position) or seed (a dealt start)")
    if section.has("seed"):
        seed = section.seed()
        cards = len(deck(options))
        if cards < 2 * options.hand_size:  # the deal would leave a hand short, or empty: no game
            raise section.error("seed", f"the deck holds {cards} cards, too few to deal hand_size = "
                                f"{options.hand_size} to each player ({2 * options.hand_size} cards): lower hand_size "
                                "or raise max_count, copies or stars")
        state = deal(options, Random(seed))
    else:
        try:  # the rules' check_position holds the hands to hand_size, as it holds every position read
            state = StratatakGame(options, None).parse_state(section.get("state", str))
        except NotationError as exc:
            raise section.error("state", str(exc)) from None
    value = None
    if root.has("solution"):
        solution = root.table("solution")
        solution.reject_unknown({"value"})
        text = solution.get("value", str, required=True)
        try:
            if not re.fullmatch(r"-?[0-9]+(/[0-9]+)?", text):  # no "1e99999999": a huge number built first
                raise ValueError(text)
            value = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise solution.error("value", f"{text!r} is not a fraction such as \"1\", \"-1\" or \"1/3\"") from None
        if not -1 <= value <= 1:
            raise solution.error("value", f"{text} is outside -1..1")
    return Position(
        name=root.get("name", str, Path(source).stem),
        description=root.get("description", str, ""),
        game=StratatakGame(options, state),
        state=state,
        value=value,
    )
