"""Our games as OpenSpiel games for the peers' measurements: each engine's action numbering, the open
position as an OpenSpiel game, a rules engine that counts (and caps) the states OpenSpiel's searches
apply, and the CPU clock every peer reads."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Hashable
from typing import Any

import pyspiel

from stratagem.analysis import return_bounds
from stratagem.openspiel.adapter import Engine, OpenPositionGame
from stratagem.openspiel.cardclash import CardClashEngine, DealtCardClash
from stratagem.openspiel.stackattack import StackAttackEngine
from stratagem.openspiel.stakd import StakdEngine
from stratagem.openspiel.stratatak import StratatakEngine
from stratagem.openspiel.strato import StratoEngine

#: The numbering of each game's engine, by the engine's ``name``.
ENGINES: dict[str, Callable[[Any], Engine]] = {
    "stakd": StakdEngine,
    "stratatak": StratatakEngine,
    "stackattack": StackAttackEngine,
    "cardclash": CardClashEngine,
    "strato-hidden": StratoEngine,
}


def engine_for(game: Any) -> Engine:
    """The OpenSpiel numbering of a stratagem game object (a loaded position's, a match's)."""
    return ENGINES[game.name](game)


def cpu() -> float:
    """CPU seconds of this process (every thread)."""
    return time.process_time()


def open_game(game: Any, state: Hashable, *, chance: bool = False) -> OpenPositionGame:
    """``game`` from ``state`` as an open-information OpenSpiel game (zero-sum for two players)."""
    low, high = return_bounds(game)
    if game.name == "strato-hidden":  # cooperative: every player gets the table's result
        utility = pyspiel.GameType.Utility.IDENTICAL
    elif game.num_players == 2:
        utility = pyspiel.GameType.Utility.ZERO_SUM
    else:
        utility = pyspiel.GameType.Utility.GENERAL_SUM
    return OpenPositionGame(engine_for(game), state, chance=chance, utility=utility,
                            utilities=(float(low), float(high)))


def has_chance(game: Any) -> bool:
    """Whether the engine can reach a chance node (Stratatak's reshuffles, the dealt Card Clash's
    draws, hidden Strato's draws): declared so to OpenSpiel, whose MCTS then samples them."""
    return isinstance(game, DealtCardClash) or game.name in ("stratatak", "strato-hidden")


#: Depth given to OpenSpiel's searches: beyond any shipped endgame, so they search to the end.
DEEP = 10_000


class NodeBudget(Exception):
    """A search applied more states than its budget allows."""


class CountingGame:
    """A rules engine that counts the states it applies and raises :class:`NodeBudget` past ``budget``.

    Everything else is the wrapped game's (attribute access is passed through), so the OpenSpiel
    game built over it plays exactly the same rules.
    """

    def __init__(self, game: Any, budget: int | None) -> None:
        self._game = game
        self.budget = budget
        self.applied = 0

    def apply(self, state: Any, move: Any) -> Any:
        if self.budget is not None and self.applied >= self.budget:
            raise NodeBudget(f"more than {self.budget:,} states applied")
        self.applied += 1
        return self._game.apply(state, move)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def counting_open_game(game: Any, state: Hashable, budget: int | None, *, chance: bool) -> tuple[
        OpenPositionGame, CountingGame]:
    """:func:`open_game` over a :class:`CountingGame` (returned too, to read its count)."""
    spiel = open_game(game, state, chance=chance)
    counter = CountingGame(game, budget)
    engine = copy.copy(spiel.engine)
    engine.game = counter
    spiel.engine = engine
    return spiel, counter
