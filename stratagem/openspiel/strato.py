"""Strato as the OpenSpiel game ``stratagem_strato``: the game at the table, or its open analysis.

``information = "hidden"`` (the default) is the game as the players meet it, on
:class:`~stratagem.models.strato.hidden.game.HiddenStrato`: the draw pile is face down, so every card drawn
is a chance event (outcomes: the weathers left in the pile, weighted by their copies), and a Redraw is
three steps: announce the end (``!1L``), chance reveals the top card, then choose its target
(``!S1L:1R2``). With two or more players the hands are hidden from each other (imperfect
information); solo, the player sees everything there is to know (perfect information, with chance).
``information = "open"`` is the open-information engine
(:class:`~stratagem.models.strato.rules.turns.StratoGame`), the pile's order known as in the project's
solvers: deterministic, perfect information. Either way Strato is cooperative: every player gets +1
when the table meets the challenge and -1 when the game is lost (utility **identical**).

Parameters: ``information``, ``puzzle`` (a Strato puzzle file; empty, the default, takes the built-in
challenge below), ``deal`` (a deal name of that file; empty: its first deal), ``position`` (a position of
the puzzle's challenge in the open notation, ``ROWS HANDS PILE PLAYER LAST``, played instead of a deal:
a table and hands met in play; hidden, the pile's order is ignored; the hands may be separated by ``;``,
as the game keeps them for OpenSpiel's game string; a puzzle path or deal name the game string cannot
carry is kept ``quoted:``, :func:`for_game_string`), and for the built-in
challenge ``seed`` (default 1) and ``players`` (1-4, default 1) of a seeded deal, with the rules options
``strict_effect`` (refused with hidden information) and ``wind_crosses_tornado`` (default false); a
parameter set where it is not used is refused (:func:`_refuse_unused`). The
built-in challenge is challenge card 0 as the project reads it (puzzles/strato/challenge-0.toml): one
row with the rain and wind tornadoes, four rain cards beside the rain tornado and four wind cards beside
the wind tornado, limit 6.

Actions: a move is the card played (c: the weather's index in the engine's ``WEATHERS``, ``WRSFCT``, or
6 for a Redraw's announcement, which names no card), whether it is a Redraw, the row r and the end e,
then the target. With R rows and D = limit + 2 places per half-row, a place (row, side, distance) is
``p = (row * 2 + side) * D + distance`` (C = 2RD places); the target is 0 for none, ``1 + p`` for one
card (Sun), ``1 + C + (a * C + b) * 2 + x`` for a pair (a moves to b, or with x = 1 they exchange). The
action is ``(((c * 2 + redraw) * R + r) * 2 + e) * T + target`` with T = 1 + C + 2C² target codes.
Chance action i draws (or reveals) weather ``WEATHERS[i]``. Each id's string is its own: of the ids with card
code 6 only the announcement (redraw 1, target 0) is a move, the others ``unused action N``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from urllib.parse import unquote

import pyspiel

from stratagem.core.errors import BadInput, UnsupportedGame
from stratagem.models.strato.hidden.game import (
    DRAW,
    PHASE_WORDS,
    REVEAL,
    TARGET,
    HiddenState,
    HiddenStrato,
    announce,
)
from stratagem.models.strato.rules.cards import HAND_SIZE, WEATHERS
from stratagem.models.strato.rules.challenge import Challenge, Options, RowGoal, SequenceGoal
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.notation import Move, format_move
from stratagem.models.strato.rules.position import SIDE_LETTERS, Coord, State, format_rows
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.openspiel.adapter import Engine, Param, SpielGame, game_type, with_information

PARAMETERS: dict[str, Param] = {
    "information": "hidden",
    "puzzle": "",
    "deal": "",
    "position": "",
    "seed": 1,
    "players": 1,
    "strict_effect": False,
    "wind_crosses_tornado": False,
}

#: Challenge card 0 as the project reads it (puzzles/strato/challenge-0.toml).
CHALLENGE_0 = Challenge("Challenge 0", 0, "RW", 1, ("RW",), 6, RowGoal(SequenceGoal("RRRR"), SequenceGoal("WWWW")), 1)


#: What separates a ``position``'s hands as the game keeps it, besides the notation's ``,`` (read either way):
#: OpenSpiel's game string cannot hold a comma inside a parameter's value.
HANDS_SEPARATOR = ";"
#: How a puzzle path or deal name that OpenSpiel's game string cannot carry is kept (:func:`for_game_string`).
QUOTED = "quoted:"
_ESCAPES = {"%": "%25", ",": "%2C", "=": "%3D", "(": "%28", ")": "%29"}
_TRUTH = ("true", "True", "false", "False")


def for_game_string(value: str) -> str:
    """``value`` (a puzzle path, a deal name) spelt so that OpenSpiel's game string gives it back: itself, or
    ``quoted:`` and its percent-escapes, which :func:`from_game_string` reads back.

    The game string (``stratagem_strato(deal=...,puzzle=...)``, which ``serialize_game_and_state`` writes and
    ``load_game`` reads) has no escape: a comma or ``=`` in a value splits it into parameters that do not exist,
    a parenthesis opens or closes a nested game, and a value of digits, signs and points, or ``True``, comes back
    as a number or a truth value ("Wrong type for parameter deal"): such a game played, and its serialized
    state could not be read back. A value that begins with ``quoted:`` is quoted too, so that it reads back as
    itself.
    """
    if value and (value.startswith(QUOTED) or any(ch in value for ch in ",=()") or value in _TRUTH
                  or set(value) <= set("+-0123456789.")):
        return QUOTED + "".join(_ESCAPES.get(ch, ch) for ch in value)
    return value


def from_game_string(value: str) -> str:
    """The value :func:`for_game_string` spelt: a ``quoted:`` value unescaped, any other as it is."""
    return unquote(value[len(QUOTED):]) if value.startswith(QUOTED) else value

#: Card codes of a move: the weathers, then the announcement of a Redraw (no card named).
CARDS = (*WEATHERS, "")


class StratoEngine(Engine):
    """Strato (hidden or open information) with the numbering of the module docstring."""

    def __init__(self, game: StratoGame | HiddenStrato) -> None:
        self.game = game
        self.hidden = isinstance(game, HiddenStrato)
        self.rows = game.challenge.rows
        self.places_per_half = game.challenge.limit + 2
        self.places = 2 * self.rows * self.places_per_half
        self.targets = 1 + self.places + 2 * self.places * self.places
        self.num_actions = len(CARDS) * 2 * self.rows * 2 * self.targets
        self.max_chance_outcomes = len(WEATHERS) if self.hidden else 0

    def _place(self, coord: Coord) -> int:
        return (coord.row * 2 + coord.side) * self.places_per_half + coord.dist

    def _coord(self, place: int) -> Coord:
        half, dist = divmod(place, self.places_per_half)
        row, side = divmod(half, 2)
        return Coord(row, side, dist)

    def action(self, move: Hashable) -> int:
        assert isinstance(move, Move)
        if not move.target:
            target = 0
        elif len(move.target) == 1:
            target = 1 + self._place(move.target[0])
        else:
            a, b = (self._place(c) for c in move.target)
            target = 1 + self.places + (a * self.places + b) * 2 + int(move.exchange)
        play = ((CARDS.index(move.card) * 2 + int(move.redraw)) * self.rows + move.row) * 2 + move.end
        return play * self.targets + target

    def move(self, action: int) -> Hashable:
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is not a Strato action (0-{self.num_actions - 1})")
        play, target = divmod(action, self.targets)
        rest, end = divmod(play, 2)
        rest, row = divmod(rest, self.rows)
        weather, redraw = divmod(rest, 2)
        coords: tuple[Coord, ...] = ()
        exchange = False
        if 1 <= target <= self.places:
            coords = (self._coord(target - 1),)
        elif target > self.places:
            pair, flag = divmod(target - 1 - self.places, 2)
            a, b = divmod(pair, self.places)
            coords, exchange = (self._coord(a), self._coord(b)), bool(flag)
        return Move(CARDS[weather], row, end, coords, bool(redraw), exchange)

    def chance_action(self, outcome: Hashable) -> int:
        assert isinstance(outcome, str)
        return WEATHERS.index(outcome)

    def chance_move(self, action: int) -> Hashable:
        return WEATHERS[action]

    def action_text(self, player: int, action: int) -> str:
        """The engine's notation; an announcement is ``!1L``. Each id has a name of its own: of the ids with the
        announcement's card code (6, no card), only the announcement itself (a Redraw, no target) is ever a
        move; the others, which the numbering holds but no state offers, are ``unused action N``. All of them
        were ``!1L``: 1,058 ids for each end of a row, shown as the announcement in a log or a bot's
        printout."""
        move = self.move(action)
        assert isinstance(move, Move)
        if move.card:
            return format_move(move)
        if move == announce(move.row, move.end):
            return f"!{move.row + 1}{SIDE_LETTERS[move.end]}"
        return f"unused action {action}"

    def chance_text(self, action: int) -> str:
        return f"+{WEATHERS[action]}"

    def seen_by(self, state: Hashable, outcome: Hashable) -> int | None:
        """A Redraw's revealed card is seen by everyone (it goes on the table); a card drawn into a
        hand by its holder only."""
        assert isinstance(state, HiddenState)
        return None if state.phase == REVEAL else state.to_move

    def observation_text(self, state: Hashable, player: int) -> str:
        """Hidden information: the table, own hand, every hand's size, the pile's size, the unseen
        cards (other hands and pile together, as a multiset), whose turn, the last weather, the phase."""
        if not self.hidden:
            return super().observation_text(state, player)
        assert isinstance(state, HiddenState)
        others = "".join(h for p, h in enumerate(state.hands) if p != player)
        unseen = "".join(sorted(state.pile + others))  # as HiddenStrato.observation has them
        sizes = "/".join(str(len(h)) for h in state.hands)
        text = (f"p{player + 1} rows {format_rows(state.rows)} hand {state.hands[player] or '-'} hands {sizes} "
                f"pile {len(state.pile)} unseen {unseen or '-'} to-move p{state.to_move + 1} last {state.last or '-'} "
                f"{PHASE_WORDS[state.phase]}")
        if state.phase in (REVEAL, TARGET):
            text += f" {state.row + 1}{SIDE_LETTERS[state.end]}"
        if state.phase == TARGET:
            text += f" {state.card}"
        if state.phase == DRAW:
            text += f" {state.draws}"
        return text


def strato_game(params: Mapping[str, Param]) -> StratoGame | HiddenStrato:
    """The engine the parameters describe (see the module docstring)."""
    information = str(params["information"])
    if information not in ("hidden", "open"):
        raise ValueError(f"information: hidden or open, not {information!r}")
    try:
        game = _open_game(params)
    except BadInput as exc:  # the puzzle file's refusal (missing, malformed), a ValueError as the others are
        raise ValueError(f"puzzle: {exc}") from None
    if information == "open":
        return game
    try:
        return HiddenStrato(game.challenge, game.options, game.initial_state())
    except UnsupportedGame as exc:  # strict_effect, given or a puzzle file's
        raise ValueError(f"strict_effect: {exc}") from None


def _open_game(params: Mapping[str, Param]) -> StratoGame:
    puzzle = from_game_string(str(params["puzzle"]))
    position = str(params["position"])
    _refuse_unused(params, puzzle, position)
    if position:
        return _position_game(puzzle, position, params)
    if puzzle:
        from stratagem.loading import load_strato

        loaded = load_strato(puzzle)
        deal = from_game_string(str(params["deal"]))
        specs = [d for d in loaded.deals if d.name == deal] if deal else list(loaded.deals[:1])
        if not specs:
            names = ", ".join(d.name for d in loaded.deals) or "none"
            raise ValueError(f"deal: {puzzle} has no deal {deal!r} (deals: {names})")
        return loaded.game(specs[0])
    players = int(params["players"])
    if players not in HAND_SIZE:
        raise ValueError(f"players: Strato is played by 1 to 4 players, not {players}")
    seed = int(params["seed"])
    if seed < 0:  # seeded_deal would deal seed 5's game for -5, as it once did for the CLI's --deal -5
        raise ValueError(f"seed: {seed} is not a deal's seed (a whole number from 0)")
    options = Options(bool(params["strict_effect"]), bool(params["wind_crosses_tornado"]))
    return StratoGame(CHALLENGE_0, options, seeded_deal(CHALLENGE_0, seed, players))


def _refuse_unused(params: Mapping[str, Param], puzzle: str, position: str) -> None:
    """``ValueError`` for a parameter set away from its default where it would be ignored: a puzzle brings
    its own deals and rules options, a position its own hands, and ``deal`` names a deal of a puzzle file.
    (Silently ignored, ``seed=5`` with a puzzle gave seed 1's game.)"""
    unused = []
    if puzzle:
        unused += ["seed", "players", "strict_effect", "wind_crosses_tornado"]
    elif position:
        unused += ["seed", "players"]
    if not puzzle or position:
        unused.append("deal")
    given = [key for key in unused if params.get(key, PARAMETERS[key]) != PARAMETERS[key]]
    if given:
        def why(key: str) -> str:  # each parameter's own reason: a deal beside a position is the position's
            if key in ("strict_effect", "wind_crosses_tornado"):
                return "a puzzle file brings its own rules options"
            if position:
                return "a position brings its own hands"
            return "a puzzle file brings its own deals" if puzzle else "deal names a deal of a puzzle file"

        where = "; ".join(dict.fromkeys(why(key) for key in given))
        raise ValueError(f"{', '.join(given)}: not used here ({where}; see the parameters in the game's docs)")


def _position_game(puzzle: str, position: str, params: Mapping[str, Param]) -> StratoGame:
    """The open engine from ``position`` (open notation) of the puzzle's challenge (the built-in one
    without a puzzle), checked as ``stratagem odds --position`` and a puzzle file's position deal are (a
    hand short of the hand size while the pile holds cards is refused: no game reaches it)."""
    from stratagem.core.errors import NotationError
    from stratagem.models.strato.rules.deal import DealError, check_drawn_up, check_position
    from stratagem.models.strato.rules.position import parse_state

    if puzzle:
        from stratagem.loading import load_strato

        loaded = load_strato(puzzle)
        challenge, options = loaded.challenge, loaded.options
    else:
        challenge = CHALLENGE_0
        options = Options(bool(params["strict_effect"]), bool(params["wind_crosses_tornado"]))
    try:
        state = parse_state(position.replace(HANDS_SEPARATOR, ","))
        check_position(challenge, state)
        check_drawn_up(state)
    except (NotationError, DealError) as exc:
        raise ValueError(f"position {position!r}: {exc}") from None
    return StratoGame(challenge, options, state)


class StratoSpielGame(SpielGame):
    """``stratagem_strato`` (see the module docstring)."""

    game_type = game_type(
        "stratagem_strato",
        "stratagem Strato",
        simultaneous=False,
        chance=True,
        imperfect=True,
        utility=pyspiel.GameType.Utility.IDENTICAL,
        players=(1, 4),
        parameters=PARAMETERS,
    )

    def build(self, params: Mapping[str, Param]) -> Engine:
        return StratoEngine(strato_game(params))

    def stored(self, params: dict[str, Param]) -> dict[str, Param]:
        """A position's hands kept separated by ``;``: OpenSpiel's game string splits parameters at commas,
        so a game of two or more hands (``RS,WW``) was written by ``serialize_game_and_state`` in a string
        that ``deserialize_game_and_state`` refused ("Unknown parameter 'WW ...'"); and a puzzle path or deal
        name as :func:`for_game_string` spells it (a path with a comma, a deal named ``7``)."""
        return {**params, "position": str(params["position"]).replace(",", HANDS_SEPARATOR),
                "puzzle": for_game_string(from_game_string(str(params["puzzle"]))),
                "deal": for_game_string(from_game_string(str(params["deal"])))}

    def type_for(self, engine: Engine) -> pyspiel.GameType:
        """Hidden: chance, and imperfect information with two or more players; open: deterministic,
        perfect information."""
        assert isinstance(engine, StratoEngine)
        imperfect = engine.hidden and engine.game.num_players > 1
        return with_information(self.game_type, chance=engine.hidden, imperfect=imperfect)

    def info(self, engine: Engine, params: Mapping[str, Param]) -> pyspiel.GameInfo:
        assert isinstance(engine, StratoEngine)
        start = engine.game.initial_state()
        assert isinstance(start, State | HiddenState)
        # Every turn takes at least one card out of the hands and the pile; hidden, a turn is at most
        # an announcement, a reveal, a target and a hand's worth of draws.
        cards = len(start.pile) + sum(len(hand) for hand in start.hands)
        steps = 3 + HAND_SIZE[engine.game.num_players] if engine.hidden else 1
        length = cards * steps
        return pyspiel.GameInfo(
            num_distinct_actions=engine.num_actions,
            max_chance_outcomes=engine.max_chance_outcomes,
            num_players=engine.game.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=length,
        )


pyspiel.register_game(StratoSpielGame.game_type, StratoSpielGame)
