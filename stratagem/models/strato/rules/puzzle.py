"""Puzzle files: a challenge card, rules options and one or more deals, in TOML.

::

    [challenge]
    name = "Challenge 0"
    level = 0
    weathers = "RW"            # weathers in play; each has its tornado in play
    rows = 1
    pairs = ["RW"]             # optional: tornado pair per row (left, right); else random by handedness
    limit = 6                  # cards per half-row, at most 8
    rows_required = 1
    players = 1                # default player count for seeded deals

    [challenge.goal]           # per half-row, read outward from its tornado
    left = "RRRR"              # exact sequence; "<"/">" = left/right tornado's weather, "?" any card
    right = { nearest = 5, counts = { W = 2, R = 3 } }   # or counts among the k nearest cards
    tornadoes = "RW"           # optional: only rows with this tornado pair count

    [options]                  # optional; docs/rules/strato.md options, defaults shown
    strict_effect = false
    wind_crosses_tornado = false

    [[deals]]                  # seeded: setup as docs/rules/strato.md describes, reproducible
    name = "solo-1"
    seed = 1
    players = 1

    [[deals]]                  # explicit: rows, hands (one per player) and the draw pile, top first
    name = "by-hand"
    rows = ["RW(RW)RW"]
    hands = ["RRW"]
    pile = "WRW..."

Every problem is reported as ``file: key.path: problem``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stratagem.core.errors import BadArgument, BadInput, NotationError
from stratagem.core.io import MAX_SEED, SEED_RANGE, Section, load_toml
from stratagem.models.strato.rules.cards import HAND_SIZE, LEFT_HANDED, MAX_LIMIT, RIGHT_HANDED, WEATHERS
from stratagem.models.strato.rules.challenge import (
    ANY_CARD,
    LEFT_TORNADO,
    RIGHT_TORNADO,
    Challenge,
    CountGoal,
    HalfGoal,
    Options,
    RowGoal,
    SequenceGoal,
    count_goal_problem,
)
from stratagem.models.strato.rules.deal import DealError, check_drawn_up, check_position, check_setup, seeded_deal
from stratagem.models.strato.rules.position import ONGOING, State, parse_row, parse_state
from stratagem.models.strato.rules.turns import StratoGame

_PATTERN_TOKENS = set(WEATHERS) | {LEFT_TORNADO, RIGHT_TORNADO, ANY_CARD}

# -- input limits (docs/formats.md, "Input limits") ----------------------------------------------------
# Everything else in a puzzle is bounded by the game itself: 1 to 3 rows, card limit at most 8, hands
# and pile checked against the deck, goal patterns no longer than the limit. Integers in the file are
# 64-bit at most and the file itself at most 1 MiB (core.io); a seed from 0 to core.io's MAX_SEED.


@dataclass(frozen=True)
class DealSpec:
    """One deal of a puzzle file: seeded (``seed``) or explicit (``state``).

    ``optimal_length`` is what the file claims (``stratagem generate`` writes it with its proof); the
    solver never trusts it, ``solve`` reports when it finds otherwise.
    """

    name: str
    players: int
    seed: int | None = None
    state: State | None = None
    optimal_length: int | None = None


@dataclass(frozen=True)
class Puzzle:
    """A parsed puzzle file."""

    source: str
    challenge: Challenge
    options: Options
    deals: tuple[DealSpec, ...]

    def deal(self, spec: DealSpec) -> State:
        """The start position of a deal."""
        if spec.state is not None:
            return spec.state
        assert spec.seed is not None
        try:
            return seeded_deal(self.challenge, spec.seed, spec.players)
        except DealError as exc:
            raise BadInput(self.source, f"deal {spec.name!r}", str(exc)) from None

    def game(self, spec: DealSpec) -> StratoGame:
        return StratoGame(self.challenge, self.options, self.deal(spec))

    def find_deal(self, key: str | None, players: int | None = None) -> DealSpec:
        """A deal by name (looked up first), or a new seeded deal when ``key`` is an integer seed, written as
        a seeded deal's name is (``seed-7``) or alone (``7``). The deal is named ``seed-N`` with the seed as
        written back (``007`` is ``seed-7``), so that every output's name of it reads back to it: ``--deal
        seed-7`` was no deal, and ``--deal 007`` made records of ``seed-007`` that ``view`` could not find. A
        named deal dealt for another player count is named ``NAME for N players`` and read back so too."""
        if key is None:
            spec = DealSpec("seed-0", players or self.challenge.players, seed=0) if not self.deals else self.deals[0]
        else:
            named = [d for d in self.deals if d.name == key]
            seeded = re.fullmatch(r"(?:seed-)?(-?[0-9]+)", key)
            recounted = re.fullmatch(r"(.+) for ([1-4]) players?", key)
            if named:
                spec = named[0]
            elif recounted and any(d.name == recounted[1] for d in self.deals):
                # a named deal dealt for another count, as every output names it ("solo-1 for 2 players")
                if players not in (None, int(recounted[2])):
                    raise BadArgument(self.source, "players",
                                      f"deal {key!r} is dealt for {recounted[2]}, not {players}")
                return self.find_deal(recounted[1], int(recounted[2]))
            elif seeded:
                digits = seeded[1]
                seed = int(digits) if len(digits) <= 20 else MAX_SEED + 1
                if not 0 <= seed <= MAX_SEED:
                    shown = key if len(key) <= 24 else key[:24] + "..."
                    raise BadArgument(self.source, "deal", f"seed {shown}: {SEED_RANGE}")
                spec = DealSpec(f"seed-{seed}", players or self.challenge.players, seed=seed)
            else:
                names = ", ".join(d.name for d in self.deals) or "none"
                raise BadArgument(self.source, "deal", f"no deal named {key!r} (deals: {names}; or give a seed)")
        if players is not None and spec.players != players:
            if spec.state is not None:
                raise BadArgument(self.source, "players", f"deal {spec.name!r} is laid out for {spec.players}")
            # another player count is another deal: neither the name nor the file's claims carry over
            counted = f"{players} player" if players == 1 else f"{players} players"
            spec = DealSpec(f"{spec.name} for {counted}", players, seed=spec.seed)
        return spec

    def setup(self) -> dict[str, Any]:
        """What a line or proof record needs besides the start position."""
        return {"challenge": self.challenge.to_data(), "options": self.options.to_data()}


def load_puzzle(path: str | Path) -> Puzzle:
    """Read and check a Strato puzzle file."""
    source = str(path)
    root = Section(load_toml(path), source)
    root.reject_unknown({"game", "challenge", "options", "deals"})
    if root.has("game") and root.get("game", str) != "strato":
        raise root.error("game", f"this is a {root.get('game', str)!r} file, not a Strato puzzle")
    challenge = parse_challenge(root.table("challenge"))
    options = parse_options(root.table("options")) if root.has("options") else Options()
    deals = tuple(parse_deal(s, challenge, i) for i, s in enumerate(root.tables("deals"))) if root.has("deals") else ()
    first: dict[str, int] = {}
    for i, spec in enumerate(deals):
        if spec.name in first:
            raise root.error(f"deals[{i}].name", f"{spec.name!r} is already the name of deals[{first[spec.name]}]: "
                             "each deal needs its own name (a deal is chosen by its name)")
        first[spec.name] = i
    return Puzzle(source, challenge, options, deals)


def setup_from_data(setup: dict[str, Any], source: str) -> tuple[Challenge, Options]:
    """The challenge and options stored in a record's ``setup`` (same keys as the puzzle file)."""
    section = Section(setup, source, "setup")
    options = parse_options(section.table("options")) if section.has("options") else Options()
    return parse_challenge(section.table("challenge")), options


def parse_options(section: Section) -> Options:
    section.reject_unknown({"strict_effect", "wind_crosses_tornado"})
    return Options(
        strict_effect=section.get("strict_effect", bool, False),
        wind_crosses_tornado=section.get("wind_crosses_tornado", bool, False),
    )


def _weather_string(section: Section, key: str) -> str:
    text = section.get(key, str, required=True)
    for letter in text:
        if letter not in WEATHERS:
            raise section.error(key, f"unknown weather letter {letter!r} (use {''.join(WEATHERS)})")
    if len(set(text)) != len(text):
        raise section.error(key, f"{text!r} names a weather twice")
    return text


def parse_challenge(section: Section) -> Challenge:
    section.reject_unknown({"name", "level", "weathers", "rows", "pairs", "limit", "rows_required", "players", "goal"})
    weathers = _weather_string(section, "weathers")
    rows = section.get("rows", int, required=True)
    if not 1 <= rows <= 3:
        raise section.error("rows", f"{rows} rows: a challenge has 1 to 3 rows (one per tornado pair)")
    if len(weathers) != 2 * rows:
        raise section.error("weathers", f"{rows} row(s) need {2 * rows} weathers in play (one per tornado), "
                            f"not {len(weathers)}")
    pairs: tuple[str, ...] = ()
    if section.has("pairs"):
        raw = section.get("pairs", list)
        if len(raw) != rows:
            raise section.error("pairs", f"{len(raw)} pairs for {rows} row(s)")
        for i, pair in enumerate(raw):
            where = f"pairs[{i}]"
            if not isinstance(pair, str) or len(pair) != 2:
                raise section.error(where, "a pair is two weather letters, left tornado first, e.g. \"RW\"")
            for letter in pair:
                if letter not in weathers:
                    raise section.error(where, f"tornado {letter!r} is not a weather in play ({weathers})")
        if len(set("".join(raw))) != 2 * rows:
            raise section.error("pairs", "each tornado may appear in one row only")
        pairs = tuple(raw)
    limit = section.get("limit", int, required=True)
    if not 1 <= limit <= MAX_LIMIT:
        raise section.error("limit", f"{limit} is not a card limit from 1 to {MAX_LIMIT} (the 16 tiles allow 8)")
    rows_required = section.get("rows_required", int, rows)
    if not 1 <= rows_required <= rows:
        raise section.error("rows_required", f"must be from 1 to {rows}, not {rows_required}")
    players = section.get("players", int, 1)
    if players not in HAND_SIZE:
        raise section.error("players", f"Strato is played by 1 to 4 players, not {players}")
    if not pairs:
        lefts = [w for w in weathers if w in LEFT_HANDED]
        if len(lefts) != rows:
            raise section.error(
                "weathers",
                f"without explicit pairs, {rows} row(s) need {rows} left-hand tornadoes ({''.join(LEFT_HANDED)}) "
                f"and {rows} right-hand ({''.join(RIGHT_HANDED)}); {weathers!r} has {len(lefts)} left-hand",
            )
    goal = parse_goal(section.table("goal"), weathers, limit)
    if goal.tornadoes:
        possible = pairs or tuple(a + b for a in weathers if a in LEFT_HANDED for b in weathers if b in RIGHT_HANDED)
        if goal.tornadoes not in possible:
            raise section.error("goal.tornadoes", f"no row can have the tornado pair {goal.tornadoes!r} "
                                f"(the rows' pairs: {', '.join(possible)})")
    aliased = count_goal_problem(goal, weathers, pairs)
    if aliased is not None:
        raise section.error(f"goal.{aliased[0]}", aliased[1])
    return Challenge(
        name=section.get("name", str, "unnamed challenge"),
        level=section.get("level", int, 0),
        weathers=weathers,
        rows=rows,
        pairs=pairs,
        limit=limit,
        goal=goal,
        rows_required=rows_required,
        players=players,
    )


def parse_goal(section: Section, weathers: str, limit: int) -> RowGoal:
    section.reject_unknown({"left", "right", "tornadoes"})
    halves: list[HalfGoal | None] = []
    for key in ("left", "right"):
        if not section.has(key):
            halves.append(None)
            continue
        value = section.data[key]
        half: HalfGoal
        if isinstance(value, str):
            for token in value:
                if token not in _PATTERN_TOKENS:
                    raise section.error(key, f"unknown pattern token {token!r} (weather letters, < > or ?)")
                if token in WEATHERS and token not in weathers:
                    raise section.error(key, f"weather {token!r} is not in play ({weathers})")
            if not value:
                raise section.error(key, "an empty pattern; leave the key out for no condition")
            half = SequenceGoal(value)
        elif isinstance(value, dict):
            sub = section.table(key)
            sub.reject_unknown({"nearest", "counts"})
            counts_table = sub.table("counts")
            counts = []
            for token, n in counts_table.data.items():
                if token not in _PATTERN_TOKENS - {ANY_CARD} or (token in WEATHERS and token not in weathers):
                    raise counts_table.error(token, "not a weather in play, < or >")
                if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                    raise counts_table.error(token, "a count must be a positive integer")
                counts.append((token, n))
            if not counts:
                raise sub.error("counts", "names no weather; a count goal needs at least one")
            total = sum(n for _, n in counts)
            nearest = sub.get("nearest", int, total)
            if nearest < total:
                raise sub.error("nearest", f"{nearest} cards cannot hold {total} counted cards")
            half = CountGoal(nearest, tuple(sorted(counts)))  # canonical order: same challenge, same CNF
        else:
            raise section.error(key, "must be a pattern string or a table {nearest, counts}")
        if half.length() > limit:
            raise section.error(key, f"needs {half.length()} cards, more than the limit {limit}")
        halves.append(half)
    tornadoes = section.get("tornadoes", str, "")
    if tornadoes and (len(tornadoes) != 2 or any(t not in weathers for t in tornadoes) or tornadoes[0] == tornadoes[1]):
        raise section.error("tornadoes", "two weathers in play, left tornado first, e.g. \"RW\"")
    if halves[0] is None and halves[1] is None:
        raise section.error("left", "the goal names no condition (give left, right or both)")
    return RowGoal(halves[0], halves[1], tornadoes)


def parse_deal(section: Section, challenge: Challenge, index: int) -> DealSpec:
    section.reject_unknown({"name", "seed", "players", "rows", "hands", "pile", "position", "optimal_length"})
    name = section.get("name", str, f"deal-{index + 1}")
    if not name.strip():
        raise section.error("name", f"an empty name; give one, or leave the key out for deal-{index + 1}")
    claimed = section.get("optimal_length", int) if section.has("optimal_length") else None
    if claimed is not None and claimed < 1:
        raise section.error("optimal_length", "must be a positive number of turns")
    if section.has("seed"):
        for key in ("rows", "hands", "pile", "position"):
            if section.has(key):
                raise section.error(key, "a seeded deal takes no layout; give either seed or rows/hands/pile")
        players = section.get("players", int, challenge.players)
        if players not in HAND_SIZE:
            raise section.error("players", f"Strato is played by 1 to 4 players, not {players}")
        return DealSpec(name, players, seed=section.seed(), optimal_length=claimed)
    if not any(section.has(key) for key in ("position", "rows", "hands", "pile")):
        raise BadInput(section.source, section.path, "gives no deal: give seed (a seeded deal), rows and hands "
                       "(and pile) for a layout, or position")
    if section.has("position"):
        for key in ("rows", "hands", "pile"):
            if section.has(key):
                raise section.error(key, "a position deal takes no layout: the position holds the rows, hands and "
                                    "pile; give either position or rows/hands/pile")
        try:
            state = parse_state(section.get("position", str))
        except NotationError as exc:
            raise section.error("position", str(exc)) from None
    else:
        rows_text = section.get("rows", list, required=True)
        rows = []
        for i, text in enumerate(rows_text):
            if not isinstance(text, str):
                raise section.error(f"rows[{i}]", "a row is a string such as \"RW(RW)RW\"")
            try:
                rows.append(parse_row(text))
            except NotationError as exc:
                raise section.error(f"rows[{i}]", str(exc)) from None
        hands = section.get("hands", list, required=True)
        for i, hand in enumerate(hands):
            if not isinstance(hand, str) or any(c not in WEATHERS for c in hand):
                raise section.error(f"hands[{i}]", f"a hand is a string of weather letters ({''.join(WEATHERS)})")
        pile = section.get("pile", str, "")
        for c in pile:
            if c not in WEATHERS:
                raise section.error("pile", f"unknown weather letter {c!r} (use {''.join(WEATHERS)})")
        state = State(tuple(rows), tuple("".join(sorted(h)) for h in hands), pile, 0, "", ONGOING)
    if section.has("players") and section.get("players", int) != len(state.hands):
        raise section.error("players", f"says {section.get('players', int)} but {len(state.hands)} hands are given")
    try:
        # A "position" may be any moment of play; an explicit layout is a start of play.
        (check_position if section.has("position") else check_setup)(challenge, state)
    except DealError as exc:
        raise BadInput(section.source, section.path, str(exc)) from None
    if section.has("position"):
        try:
            check_drawn_up(state)
        except DealError as exc:
            raise section.error("position", str(exc)) from None
    return DealSpec(name, len(state.hands), state=state, optimal_length=claimed)
