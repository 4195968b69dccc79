"""Strato as the OpenSpiel game ``stratagem_strato`` (open information).

Built on the open-information engine (:class:`~stratagem.models.strato.rules.StratoGame`): every hand
and the draw pile's order are known, as in the project's solvers and as in a double-dummy analysis. So
the type is: sequential, deterministic, perfect information, and **identical** utility (Strato is
cooperative: every player gets +1 when the table meets the challenge, -1 when the game is lost). The
hidden-information game of the table (a face-down pile, every draw a chance event) is not adapted here.

Parameters: ``puzzle`` (a Strato puzzle file; empty, the default, takes the built-in challenge below),
``deal`` (a deal name of that file; empty: its first deal), and for the built-in challenge ``seed``
(default 1) and ``players`` (1-4, default 1) of a seeded deal, with the rules options
``strict_effect`` and ``wind_crosses_tornado`` (default false). The built-in challenge is challenge card 0
as the project reads it (puzzles/strato/challenge-0.toml): one row with the rain and wind tornadoes,
four rain cards beside the rain tornado and four wind cards beside the wind tornado, limit 6.

Actions: a move is the card played (weather w: its index in the engine's ``WEATHERS``, ``WRSFCT``),
whether it is a Redraw, the row r and the end e, then the target. With R rows and D = limit + 2 places
per half-row, a place (row, side, distance) is ``c = (row * 2 + side) * D + distance`` (C = 2RD places);
the target is 0 for none, ``1 + c`` for one card (Sun), ``1 + C + (a * C + b) * 2 + x`` for a pair (a moves
to b, or with x = 1 they exchange). The action is ``(((w * 2 + redraw) * R + r) * 2 + e) * T + target``
with T = 1 + C + 2C² target codes.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

import pyspiel

from stratagem.models.strato.cards import HAND_SIZE, WEATHERS
from stratagem.models.strato.challenge import Challenge, Options, RowGoal, SequenceGoal
from stratagem.models.strato.deal import seeded_deal
from stratagem.models.strato.notation import Move, format_move
from stratagem.models.strato.position import Coord, State
from stratagem.models.strato.rules import StratoGame
from stratagem.openspiel.adapter import Engine, Param, SpielGame, game_type

PARAMETERS: dict[str, Param] = {
    "puzzle": "",
    "deal": "",
    "seed": 1,
    "players": 1,
    "strict_effect": False,
    "wind_crosses_tornado": False,
}

#: Challenge card 0 as the project reads it (puzzles/strato/challenge-0.toml).
CHALLENGE_0 = Challenge("Challenge 0", 0, "RW", 1, ("RW",), 6, RowGoal(SequenceGoal("RRRR"), SequenceGoal("WWWW")), 1)


class StratoEngine(Engine):
    """Open-information Strato with the numbering of the module docstring."""

    def __init__(self, game: StratoGame) -> None:
        self.game = game
        self.rows = game.challenge.rows
        self.places_per_half = game.challenge.limit + 2
        self.places = 2 * self.rows * self.places_per_half
        self.targets = 1 + self.places + 2 * self.places * self.places
        self.num_actions = len(WEATHERS) * 2 * self.rows * 2 * self.targets
        self.max_chance_outcomes = 0

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
        play = ((WEATHERS.index(move.card) * 2 + int(move.redraw)) * self.rows + move.row) * 2 + move.end
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
        return Move(WEATHERS[weather], row, end, coords, bool(redraw), exchange)

    def action_text(self, player: int, action: int) -> str:
        move = self.move(action)
        assert isinstance(move, Move)
        return format_move(move)


def strato_game(params: Mapping[str, Param]) -> StratoGame:
    """The engine the parameters describe (see the module docstring)."""
    puzzle = str(params["puzzle"])
    if puzzle:
        from stratagem.loading import load_strato

        loaded = load_strato(puzzle)
        deal = str(params["deal"])
        specs = [d for d in loaded.deals if d.name == deal] if deal else list(loaded.deals[:1])
        if not specs:
            names = ", ".join(d.name for d in loaded.deals) or "none"
            raise ValueError(f"{puzzle} has no deal {deal!r} (deals: {names})")
        return loaded.game(specs[0])
    players = int(params["players"])
    if players not in HAND_SIZE:
        raise ValueError(f"Strato is played by 1 to 4 players, not {players}")
    options = Options(bool(params["strict_effect"]), bool(params["wind_crosses_tornado"]))
    return StratoGame(CHALLENGE_0, options, seeded_deal(CHALLENGE_0, int(params["seed"]), players))


class StratoSpielGame(SpielGame):
    """``stratagem_strato`` (see the module docstring)."""

    game_type = game_type(
        "stratagem_strato",
        "stratagem Strato (open information)",
        simultaneous=False,
        chance=False,
        imperfect=False,
        utility=pyspiel.GameType.Utility.IDENTICAL,
        players=(1, 4),
        parameters=PARAMETERS,
    )

    def build(self, params: Mapping[str, Param]) -> Engine:
        return StratoEngine(strato_game(params))

    def info(self, engine: Engine, params: Mapping[str, Param]) -> pyspiel.GameInfo:
        start = engine.game.initial_state()
        assert isinstance(start, State)
        # Every turn takes at least one card out of the hands and the pile.
        length = len(start.pile) + sum(len(hand) for hand in start.hands)
        return pyspiel.GameInfo(
            num_distinct_actions=engine.num_actions,
            max_chance_outcomes=0,
            num_players=engine.game.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=length,
        )


pyspiel.register_game(StratoSpielGame.game_type, StratoSpielGame)
