"""Agents that play any game of the Game protocol, and the registry the CLI builds them from.

An :class:`Agent` has a ``name`` and ``choose(game, state, rng) -> move`` for the player to move in
``state``; an agent that can also play at SIMULTANEOUS nodes has
``choose_simultaneous(game, state, player, rng) -> move`` (one player's part of the joint move). The
match runner hands every agent the full state; agents that respect hidden information (``ismcts``,
``pimc``) only look at it through the game's sampler, while ``mcts`` searches the open state -- it
sees hidden cards -- and says so in its ``params`` (``information: "open"``).

Built-in agents: ``random``, ``mcts`` (open UCT), ``ismcts``, ``pimc``. A game module can add its own
(for example a greedy agent from ``stratagem/models/<game>/agents.py``): wrap a function
``greedy_move(game, state, rng)`` with :func:`function_agent` and either :func:`register_agent` it or
pass it to :func:`make_agent` in ``extra``. Agents derive every search seed from the ``rng`` they are
given, so a match seeded once is reproducible.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from random import Random
from typing import Any, ClassVar, Protocol

from stratagem.core.errors import StratagemError, UnsupportedGame
from stratagem.core.game import Game, HiddenInformation, Simultaneous
from stratagem.solvers.duct import DuctAgent
from stratagem.solvers.mcts import DEFAULT_EXPLORATION, ismcts, uct
from stratagem.solvers.pimc import LeafEvaluator, pimc, rollout_evaluator

__all__ = [
    "Agent",
    "AgentError",
    "FunctionAgent",
    "IsmctsAgent",
    "MctsAgent",
    "PimcAgent",
    "RandomAgent",
    "agent_names",
    "agent_params",
    "function_agent",
    "make_agent",
    "parse_agent_spec",
    "register_agent",
]


class Agent(Protocol):
    """A player: picks a move for the player to move."""

    @property
    def name(self) -> str:
        """Short name, as in the registry (``random``, ``mcts``, ...)."""
        ...

    def choose(self, game: Game[Any, Any], state: Any, rng: Random) -> Any:
        """A legal move for ``game.to_move(state)``; all randomness from ``rng``."""
        ...


#: Builds an agent from keyword parameters.
AgentFactory = Callable[..., Agent]


class AgentError(StratagemError):
    """An unknown agent name, or parameters the agent does not take."""


def _seed(rng: Random) -> int:
    return rng.getrandbits(64)


@dataclass(frozen=True)
class RandomAgent:
    """Uniformly random legal moves."""

    name: str = "random"

    def choose(self, game: Game[Any, Any], state: Any, rng: Random) -> Any:
        moves = game.legal_moves(state)
        return moves[rng.randrange(len(moves))]

    def choose_simultaneous(self, game: Game[Any, Any], state: Any, player: int, rng: Random) -> Any:
        moves = game.player_moves(state, player)  # type: ignore[attr-defined]
        return moves[rng.randrange(len(moves))]

    @property
    def params(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True)
class MctsAgent:
    """Open UCT with MCTS-Solver backups (:func:`~stratagem.solvers.mcts.uct`): sees hidden cards."""

    iterations: int | None = 1000
    time_limit: float | None = None
    exploration: float = DEFAULT_EXPLORATION
    value_range: tuple[float, float] = (-1.0, 1.0)
    rollout_limit: int | None = None
    name: str = "mcts"
    #: what the search sees, for the match table
    information: ClassVar[str] = "open"

    def choose(self, game: Game[Any, Any], state: Any, rng: Random) -> Any:
        return self._search(game, state, rng, None)

    def choose_simultaneous(self, game: Game[Any, Any], state: Any, player: int, rng: Random) -> Any:
        return self._search(game, state, rng, player)

    def _search(self, game: Game[Any, Any], state: Any, rng: Random, player: int | None) -> Any:
        search = ismcts if self.information == "observation" else uct
        return search(
            game, state, iterations=self.iterations, time_limit=self.time_limit, seed=_seed(rng),
            exploration=self.exploration, value_range=self.value_range, rollout_limit=self.rollout_limit,
            player=player,
        ).best_move

    @property
    def params(self) -> dict[str, Any]:
        return {"information": self.information, "iterations": self.iterations, "time_limit": self.time_limit,
                "exploration": self.exploration, "rollout_limit": self.rollout_limit}


@dataclass(frozen=True)
class IsmctsAgent(MctsAgent):
    """SO-ISMCTS (:func:`~stratagem.solvers.mcts.ismcts`) from the mover's observation."""

    name: str = "ismcts"
    information: ClassVar[str] = "observation"


@dataclass(frozen=True)
class PimcAgent:
    """PIMC (:func:`~stratagem.solvers.pimc.pimc`): ``samples`` determinisations, each move valued by
    ``evaluator`` -- by default the mean of ``rollouts`` random playouts."""

    samples: int = 20
    rollouts: int = 4
    rollout_limit: int | None = None
    time_limit: float | None = None
    evaluator: LeafEvaluator | None = field(default=None, compare=False)
    name: str = "pimc"

    def choose(self, game: Game[Any, Any], state: Any, rng: Random) -> Any:
        evaluator = self.evaluator or rollout_evaluator(self.rollouts, limit=self.rollout_limit)
        return pimc(game, state, evaluator, samples=self.samples, time_limit=self.time_limit,
                    seed=_seed(rng)).best_move

    def choose_simultaneous(self, game: Game[Any, Any], state: Any, player: int, rng: Random) -> Any:
        """At a reveal: in each sampled deal, each own choice against the others' random choices,
        valued by the evaluator; the choice with the best mean."""
        if not isinstance(game, HiddenInformation) or not isinstance(game, Simultaneous):
            raise UnsupportedGame(f"PIMC at a simultaneous node needs observations and player_moves; "
                                  f"{game.name!r} lacks them")
        evaluator = self.evaluator or rollout_evaluator(self.rollouts, limit=self.rollout_limit)
        own = list(game.player_moves(state, player))
        totals = [0.0] * len(own)
        search = Random(_seed(rng))
        for _ in range(self.samples):
            sample = game.sample_state(state, player, search)
            others = [list(game.player_moves(sample, q)) for q in range(game.num_players)]
            for i, move in enumerate(own):
                joint = tuple(move if q == player else search.choice(others[q]) for q in range(game.num_players))
                after = game.apply(sample, joint)
                values = game.returns(after) if game.is_terminal(after) else evaluator(game, after, search)
                totals[i] += float(values[player])
        return own[max(range(len(own)), key=lambda i: (totals[i], -i))]

    @property
    def params(self) -> dict[str, Any]:
        leaf = "custom evaluator" if self.evaluator is not None else f"{self.rollouts} rollouts"
        return {"information": "observation", "samples": self.samples, "leaf": leaf,
                "time_limit": self.time_limit}


@dataclass(frozen=True)
class FunctionAgent:
    """An agent made from a plain function ``function(game, state, rng) -> move`` (e.g. a game's
    ``greedy_move``)."""

    name: str
    function: Callable[[Any, Any, Random], Any] = field(compare=False)

    def choose(self, game: Game[Any, Any], state: Any, rng: Random) -> Any:
        return self.function(game, state, rng)

    @property
    def params(self) -> dict[str, Any]:
        return {}


def function_agent(name: str, function: Callable[[Any, Any, Random], Any]) -> AgentFactory:
    """A factory (taking no parameters) for a :class:`FunctionAgent`, ready to register."""

    def factory() -> Agent:
        return FunctionAgent(name, function)

    return factory


_REGISTRY: dict[str, AgentFactory] = {
    "random": RandomAgent,
    "mcts": MctsAgent,
    "ismcts": IsmctsAgent,
    "pimc": PimcAgent,
    "duct": DuctAgent,
}


def register_agent(name: str, factory: AgentFactory, *, replace: bool = False) -> None:
    """Make ``name`` available to :func:`make_agent` in this process."""
    if name in _REGISTRY and not replace and _REGISTRY[name] is not factory:
        raise AgentError(f"agent {name!r} is already registered")
    _REGISTRY[name] = factory


def _factories(extra: Mapping[str, AgentFactory] | None) -> dict[str, AgentFactory]:
    return {**_REGISTRY, **(extra or {})}


def agent_names(extra: Mapping[str, AgentFactory] | None = None) -> list[str]:
    """Every agent name :func:`make_agent` knows, sorted."""
    return sorted(_factories(extra))


def make_agent(name: str, extra: Mapping[str, AgentFactory] | None = None, **params: Any) -> Agent:
    """The agent called ``name`` (from the registry, or ``extra``, which wins) built with ``params``.

    Raises :class:`AgentError` for an unknown name or a parameter the agent does not take.
    """
    factories = _factories(extra)
    factory = factories.get(name)
    if factory is None:
        raise AgentError(f"unknown agent {name!r}; known agents: {', '.join(sorted(factories))}")
    try:
        inspect.signature(factory).bind(**params)
    except TypeError as error:
        raise AgentError(f"agent {name!r}: {error}") from None
    return factory(**params)


def agent_params(agent: Agent) -> dict[str, Any]:
    """The agent's ``params`` (plain data for reports), or {} if it has none."""
    params = getattr(agent, "params", {})
    return dict(params) if isinstance(params, Mapping) else {}


def _value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_agent_spec(text: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:iterations=200:exploration=0.7"`` -> ``("mcts", {"iterations": 200, "exploration": 0.7})``.

    Values are read as int, float, true/false, none, or else left as text.
    """
    name, *parts = text.strip().split(":")
    if not name:
        raise AgentError(f"agent {text!r} has no name")
    params: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise AgentError(f"agent {text!r}: {part!r} is not KEY=VALUE")
        params[key.strip()] = _value(value.strip())
    return name, params

