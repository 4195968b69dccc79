"""STAKD Elite as the OpenSpiel game ``stratagem_stakd``.

Type: sequential, deterministic, perfect information (every piece and hand is on the table). With two
players zero-sum (+1 for the last player to place a non-Bomber piece, -1 for the other); with three or
more general-sum (+1 for the winner, -1 for everyone else); solo (one player) +1 when every piece is
placed, -1 otherwise.

Parameters: ``players`` (1-6, default 2) and the square lattice ``width`` x ``height`` (0, the default,
takes the engine's default board for the number of Bases, big enough for every game).

Actions: every placement the lattice has room for, kinds in the engine's order (Base, Quad, Trio,
Duo, Uni, Bomber), and within a kind in the lattice's placement order (anchors row by row, ``h``
before ``v``): action i is the i-th of that list (1,310 on the default two-player board). The layer
is not part of the action: a placement fits the current layer or starts the next one, never both.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

import pyspiel

from stratagem.models.stakd.notation import format_placement
from stratagem.models.stakd.pieces import KINDS, MAX_PLAYERS, player_set
from stratagem.models.stakd.position import Move
from stratagem.models.stakd.puzzle import game_from_setup
from stratagem.models.stakd.rules import StakdGame
from stratagem.openspiel.adapter import Engine, Param, SpielGame, checked, game_type, with_utility

PARAMETERS: dict[str, Param] = {"players": 2, "width": 0, "height": 0}


class StakdEngine(Engine):
    """STAKD with the numbering of the module docstring."""

    def __init__(self, game: StakdGame) -> None:
        self.game = game
        geometry = game.geometry
        self.placements = tuple((kind, p.anchor, p.orient) for kind in KINDS for p in geometry.placements[kind])
        self.index = {placement: i for i, placement in enumerate(self.placements)}
        self.num_actions = len(self.placements)
        self.max_chance_outcomes = 0

    def action(self, move: Hashable) -> int:
        assert isinstance(move, Move)
        return self.index[(move.kind, move.anchor, move.orient)]

    def move(self, action: int) -> Hashable:
        """The engine's move for an action; the layer is filled in by the engine's own matching."""
        kind, anchor, orient = self.placements[action]
        return Move(kind, anchor, orient, -1)

    def action_text(self, player: int, action: int) -> str:
        return format_placement(*self.placements[action])


class StakdSpielGame(SpielGame):
    """``stratagem_stakd`` (see the module docstring)."""

    game_type = game_type(
        "stratagem_stakd",
        "stratagem STAKD Elite",
        simultaneous=False,
        chance=False,
        imperfect=False,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        players=(1, MAX_PLAYERS),
        parameters=PARAMETERS,
    )

    def build(self, params: Mapping[str, Param]) -> Engine:
        setup = {"players": params["players"], **{key: params[key] for key in ("width", "height") if params[key]}}
        return StakdEngine(checked(lambda: game_from_setup(setup, "stratagem_stakd")))

    def type_for(self, engine: Engine) -> pyspiel.GameType:
        if engine.game.num_players == 2:
            return self.game_type
        return with_utility(self.game_type, pyspiel.GameType.Utility.GENERAL_SUM)

    def info(self, engine: Engine, params: Mapping[str, Param]) -> pyspiel.GameInfo:
        players = engine.game.num_players
        return pyspiel.GameInfo(
            num_distinct_actions=engine.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if players == 2 else None,
            max_game_length=sum(player_set(players)) * players,  # one piece a move
        )


pyspiel.register_game(StakdSpielGame.game_type, StakdSpielGame)
