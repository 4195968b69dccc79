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
import math
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from random import Random
from typing import Any, ClassVar, Protocol

from stratagem.core.deadline import Deadline
from stratagem.core.errors import StratagemError, UnsupportedGame
from stratagem.core.game import Game, HiddenInformation, Simultaneous
from stratagem.core.io import MAX_PARAMETER
from stratagem.core.numbers import is_whole
from stratagem.solvers.duct import DuctAgent
from stratagem.solvers.mcts import DEFAULT_EXPLORATION, DEFAULT_WIDENING, SearchTree, ismcts, uct
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


def _check_count(key: str, value: int | None, optional: bool = True) -> None:
    """A count parameter (iterations, samples, ...): a whole number of at least 1 (or None if optional)."""
    if value is None and optional:
        return
    if not is_whole(value, 1):
        raise ValueError(f"{key} must be a whole number of at least 1, not {value!r}")


def _check_number(key: str, value: float | None, low: float, strict: bool) -> None:
    """A real parameter above ``low`` (at ``low`` too unless ``strict``), or None."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float) or value < low or (strict and value == low):
        bound = f"more than {low:g}" if strict else f"at least {low:g}"
        raise ValueError(f"{key} must be a number {bound}, not {value!r}")


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
    """Open UCT with MCTS-Solver backups (:func:`~stratagem.solvers.mcts.uct`): sees hidden cards.

    ``guided`` and ``widening`` are :func:`~stratagem.solvers.mcts.uct`'s (the game's move ordering
    with progressive widening); ``reuse`` keeps the search tree from one move to the next, so that a
    search starts from what the last one learnt below the position reached (ISMCTS does not reuse).
    ``engine``, when set (by the match runner: the game's compiled engine), runs UCT in C on it instead
    (:func:`~stratagem.solvers.compiled_uct.uct_compiled`), guided as here where the game hands over a
    compiled guide (Card Clash, Stratatak, STAKD), plain elsewhere or with ``guided=false``; ``reuse`` keeps
    the compiled tree (``compiled_tree``) only in the guided search, where it plays as the reference agent
    does move for move: on STAKD's plain search it was measured no better (against greedy at 0.2 CPU s a
    move, 77-0-23 with the tree kept, 82-0-18 without; results/mcts.md), so the plain compiled agent keeps
    none.
    """

    iterations: int | None = 1000
    time_limit: float | None = None
    #: None: the search's default, ``sqrt(2)``, or on a compiled engine the constant the game's guide declares
    exploration: float | None = None
    value_range: tuple[float, float] = (-1.0, 1.0)
    rollout_limit: int | None = None
    guided: bool = True
    widening: float = DEFAULT_WIDENING
    reuse: bool = True
    name: str = "mcts"
    #: the tree kept between moves (``reuse``)
    tree: SearchTree = field(default_factory=SearchTree, init=False, compare=False, repr=False)
    #: the game's compiled engine to search on (set by the match runner), or None: the reference engine
    engine: Any = field(default=None, compare=False, repr=False)
    #: the compiled search's tree kept between moves (``reuse`` on a compiled engine)
    compiled_tree: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)
    #: what the search sees, for the match table
    information: ClassVar[str] = "open"

    def __post_init__(self) -> None:
        _check_count("iterations", self.iterations)
        _check_number("time_limit", self.time_limit, 0.0, strict=True)
        if self.iterations is None and self.time_limit is None:
            raise ValueError("give iterations or time_limit (or both): the search needs a budget")
        _check_number("exploration", self.exploration, 0.0, strict=False)
        _check_number("widening", self.widening, 0.0, strict=True)
        if self.rollout_limit != 0:  # 0: a new leaf is valued by the game's evaluation alone
            _check_count("rollout_limit", self.rollout_limit)
        low, high = self.value_range
        if not low < high:
            raise ValueError(f"value_range must be (low, high) with low < high, not {self.value_range!r}")

    def choose(self, game: Game[Any, Any], state: Any, rng: Random) -> Any:
        return self._search(game, state, rng, None)

    def choose_simultaneous(self, game: Game[Any, Any], state: Any, player: int, rng: Random) -> Any:
        return self._search(game, state, rng, player)

    def _search(self, game: Game[Any, Any], state: Any, rng: Random, player: int | None) -> Any:
        exploration = self.exploration if self.exploration is not None else DEFAULT_EXPLORATION
        if self.information == "observation" and self.engine is not None:
            from stratagem.solvers.compiled_ismcts import ismcts_compiled

            return ismcts_compiled(
                game, self.engine, state, iterations=self.iterations, time_limit=self.time_limit, seed=_seed(rng),
                exploration=exploration, value_range=self.value_range, rollout_limit=self.rollout_limit,
                player=player, guided=self.guided, widening=self.widening,
            ).best_move
        if self.information == "observation":
            return ismcts(
                game, state, iterations=self.iterations, time_limit=self.time_limit, seed=_seed(rng),
                exploration=exploration, value_range=self.value_range, rollout_limit=self.rollout_limit,
                player=player, guided=self.guided, widening=self.widening,
            ).best_move
        if self.engine is not None:
            from stratagem.solvers.compiled_uct import uct_compiled

            return uct_compiled(
                game, self.engine, state, iterations=self.iterations, time_limit=self.time_limit, seed=_seed(rng),
                exploration=self.exploration, value_range=self.value_range, rollout_limit=self.rollout_limit,
                player=player, guided=self.guided, widening=self.widening,
                tree=self.compiled_tree if self.reuse and self.guided and hasattr(game, "compiled_guide") else None,
            ).best_move
        return uct(
            game, state, iterations=self.iterations, time_limit=self.time_limit, seed=_seed(rng),
            exploration=exploration, value_range=self.value_range, rollout_limit=self.rollout_limit,
            player=player, guided=self.guided, widening=self.widening, tree=self.tree if self.reuse else None,
        ).best_move

    @property
    def params(self) -> dict[str, Any]:
        params = {"information": self.information, "iterations": self.iterations, "time_limit": self.time_limit,
                  "exploration": self.exploration, "rollout_limit": self.rollout_limit}
        params.update(guided=self.guided, widening=self.widening)
        if self.information == "open":
            params.update(reuse=self.reuse)
        if self.engine is not None:
            params.update(engine="compiled")
        return params


@dataclass(frozen=True)
class IsmctsAgent(MctsAgent):
    """SO-ISMCTS (:func:`~stratagem.solvers.mcts.ismcts`) from the mover's observation, with ``mcts``'s
    ``guided``, ``widening`` and ``rollout_limit`` (guided by default, as ``mcts``: the game's move
    ordering per determinisation and its declared evaluation cut-off). It keeps no tree between moves:
    ``reuse`` must stay off. ``engine``, when set (by the match runner), runs SO-ISMCTS in C on it instead
    (:func:`~stratagem.solvers.compiled_ismcts.ismcts_compiled`: the determinisations still the reference
    game's, draw for draw), guided as here where the game hands over a compiled guide (Card Clash, Stratatak),
    plain elsewhere or with ``guided=false``."""

    reuse: bool = False
    name: str = "ismcts"
    information: ClassVar[str] = "observation"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.reuse:
            raise ValueError("reuse: ismcts keeps no tree between moves (a determinised tree is not the next "
                             "move's); leave reuse off")


@dataclass(frozen=True)
class PimcAgent:
    """PIMC (:func:`~stratagem.solvers.pimc.pimc`): ``samples`` determinisations, each move valued by
    ``evaluator`` -- by default the mean of ``rollouts`` random playouts. ``engine``, when set (by the
    match runner: the game's compiled engine), runs those playouts in C
    (:mod:`~stratagem.solvers.compiled_ismcts`; the determinisations still the reference game's, draw for
    draw)."""

    samples: int = 20
    rollouts: int = 4
    rollout_limit: int | None = None
    time_limit: float | None = None
    evaluator: LeafEvaluator | None = field(default=None, compare=False)
    name: str = "pimc"
    #: the game's compiled engine to play out on (set by the match runner), or None: the reference engine
    engine: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        _check_count("samples", self.samples, optional=False)
        _check_count("rollouts", self.rollouts, optional=False)
        _check_count("rollout_limit", self.rollout_limit)
        _check_number("time_limit", self.time_limit, 0.0, strict=True)

    def choose(self, game: Game[Any, Any], state: Any, rng: Random) -> Any:
        if self.engine is not None and self.evaluator is None:
            from stratagem.solvers.compiled_ismcts import pimc_compiled

            return pimc_compiled(game, self.engine, state, rollouts=self.rollouts, rollout_limit=self.rollout_limit,
                                 samples=self.samples, time_limit=self.time_limit, seed=_seed(rng)).best_move
        evaluator = self.evaluator or rollout_evaluator(self.rollouts, limit=self.rollout_limit)
        return pimc(game, state, evaluator, samples=self.samples, time_limit=self.time_limit,
                    seed=_seed(rng)).best_move

    def choose_simultaneous(self, game: Game[Any, Any], state: Any, player: int, rng: Random) -> Any:
        """At a reveal: in each sampled deal, each own choice against the others' random choices,
        valued by the evaluator; the choice with the best mean. ``time_limit`` stops the sampling
        earlier, after at least one sample."""
        if not isinstance(game, HiddenInformation) or not isinstance(game, Simultaneous):
            raise UnsupportedGame(f"PIMC at a simultaneous node needs observations and player_moves; "
                                  f"{game.name!r} lacks them")
        if self.engine is not None and self.evaluator is None:
            from stratagem.solvers.compiled_ismcts import pimc_simultaneous_compiled

            own, totals = pimc_simultaneous_compiled(game, self.engine, state, player, rng, samples=self.samples,
                                                     rollouts=self.rollouts, rollout_limit=self.rollout_limit,
                                                     time_limit=self.time_limit)
            return own[max(range(len(own)), key=lambda i: (totals[i], -i))]
        evaluator = self.evaluator or rollout_evaluator(self.rollouts, limit=self.rollout_limit)
        own = list(game.player_moves(state, player))
        totals = [0.0] * len(own)
        search = Random(_seed(rng))
        deadline = None if self.time_limit is None else Deadline(self.time_limit)
        for done in range(self.samples):
            if done and deadline is not None and deadline.expired():
                break
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
        params = {"information": "observation", "samples": self.samples, "leaf": leaf, "time_limit": self.time_limit}
        if self.engine is not None and self.evaluator is None:
            params.update(engine="compiled")
        return params


@dataclass(frozen=True)
class FunctionAgent:
    """An agent made from a plain function ``function(game, state, rng) -> move`` (e.g. a game's
    ``greedy_move``).

    At a SIMULTANEOUS node such a function gives the joint move, one move per player (as ``apply``
    takes it there); the agent plays its own player's part of it, so a game's greedy baseline serves
    in matches of simultaneous-move games too.
    """

    name: str
    function: Callable[[Any, Any, Random], Any] = field(compare=False)

    def choose(self, game: Game[Any, Any], state: Any, rng: Random) -> Any:
        return self.function(game, state, rng)

    def choose_simultaneous(self, game: Game[Any, Any], state: Any, player: int, rng: Random) -> Any:
        joint = self.function(game, state, rng)
        if not isinstance(joint, tuple) or len(joint) != game.num_players:
            raise UnsupportedGame(f"agent {self.name!r} gives no joint move (one per player) at a "
                                  f"simultaneous node of {game.name!r}")
        return joint[player]

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


def make_agent(name: str, extra: Mapping[str, AgentFactory] | None = None, /, **params: Any) -> Agent:
    """The agent called ``name`` (from the registry, or ``extra``, which wins) built with ``params``.

    ``name`` and ``extra`` are positional-only, so that a parameter called ``name`` (``mcts:name=x``) reaches
    the agent's checks (which refuse it) instead of colliding with them. Raises :class:`AgentError` for an
    unknown name or a parameter the agent does not take.
    """
    factories = _factories(extra)
    factory = factories.get(name)
    if factory is None:
        raise AgentError(f"unknown agent {name!r}; known agents: {', '.join(sorted(factories))}")
    agent: Agent = build_agent(name, factory, params)
    return agent


#: Constructor arguments that are not agent parameters (see :func:`build_agent`).
_NOT_PARAMETERS = frozenset({"name"})


def build_agent(name: str, factory: Callable[..., Any], params: Mapping[str, Any]) -> Any:
    """``factory(**params)``, each parameter first held to the factory's signature and annotated type (a
    whole number is not ``2.5``, a flag not ``1``): :class:`AgentError` naming the problem, as the agent's
    own range checks (``ValueError``) are too. A game's own agent kinds are made through it as well.

    ``name`` is no parameter, though an agent's constructor may take it: it is the name the agent is asked
    for by (and the match table's label), not something to set."""
    hints = _parameter_types(factory)
    try:
        if any(key in _NOT_PARAMETERS for key in params):
            raise TypeError("a reserved parameter")
        inspect.signature(factory).bind(**params)
    except TypeError:
        keyword = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        known = [p.name for p in inspect.signature(factory).parameters.values()
                 if p.kind in keyword and p.name not in _NOT_PARAMETERS]
        settable = [key for key in known if key not in hints or _describe(hints[key]) is not None]
        unknown = next((key for key in params if key not in known), None)
        choices = f"its parameters: {', '.join(settable)}" if settable else "it takes no parameter"
        problem = f"no parameter {unknown!r}" if unknown is not None else "parameters that do not fit"
        raise AgentError(f"agent {name!r}: {problem}; {choices}") from None
    for key, value in params.items():
        if key in hints and not _fits(value, hints[key]):
            words = _describe(hints[key])
            if words is None:
                raise AgentError(f"agent {name!r}: {key} cannot be set from the command line")
            raise AgentError(f"agent {name!r}: {key}={value!r} is not {words}")
    try:
        return factory(**params)
    except ValueError as error:  # the agent's own range checks
        raise AgentError(f"agent {name!r}: {error}") from None


def _parameter_types(factory: AgentFactory) -> dict[str, Any]:
    """The annotated types of a factory's parameters ({} when it has none or they cannot be read)."""
    target: Any = getattr(factory, "__init__") if isinstance(factory, type) else factory  # noqa: B009
    try:
        hints = typing.get_type_hints(target)
    except (NameError, TypeError):
        return {}
    hints.pop("return", None)
    return hints


def _fits(value: Any, hint: Any) -> bool:
    """Whether ``value`` (as :func:`parse_agent_spec` reads it) has the annotated type ``hint``."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, arg) for arg in typing.get_args(hint))
    if hint is Any:
        return True
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    if hint is int:
        return isinstance(value, int)
    if hint is float:
        return isinstance(value, int | float)
    expected = origin if origin is not None else hint
    return isinstance(value, expected) if isinstance(expected, type) else False


def _describe(hint: Any) -> str | None:
    """``a whole number``, ``a number or none``, ...: the type a parameter takes, in words; None when
    no value written on a command line has it (a tuple, a function)."""
    words = {int: "a whole number", float: "a number", bool: "true or false", str: "a word", type(None): "none"}
    args = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    if any(arg not in words for arg in args):
        return None
    return " or ".join(words[arg] for arg in args)


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
    if not text.isascii():  # int() and float() also read other scripts' digits: '٣' would be 3, spelt back as 3
        return text
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_agent_spec(text: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:iterations=200:exploration=0.7"`` -> ``("mcts", {"iterations": 200, "exploration": 0.7})``.

    Values are read as int, float, true/false, none, or else left as text. A key given twice
    (``mcts:iterations=5:iterations=6``) is refused: one of the two would be dropped without a word.
    """
    name, *parts = text.strip().split(":")
    if not name:
        raise AgentError(f"agent {text!r} has no name")
    params: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise AgentError(f"agent {text!r}: {part!r} is not KEY=VALUE")
        if key.strip() in params:
            raise AgentError(f"agent {text[:40]!r}: parameter {key.strip()!r} is given twice")
        params[key.strip()] = _value(value.strip())
        _check_size(text, key.strip(), params[key.strip()])
    return name, params


class AgentWrapper:
    """Base of an agent that plays by another, ``self.agent`` (timing it, or handing it part of the game),
    and shows that agent's name and parameters as its own."""

    agent: Any

    @property
    def name(self) -> str:
        return str(self.agent.name)

    @property
    def params(self) -> dict[str, Any]:
        return dict(getattr(self.agent, "params", {}))


def canonical_agent_spec(text: str) -> str:
    """``text`` with its parameters in key order and each value as read (a repeated key, which
    :func:`parse_agent_spec` refuses: its last value): one agent written several ways, ``belief:samples=8:nodes=1000``,
    ``belief:nodes=1000:samples=8`` and ``belief:samples=08:nodes=1000``, has one canonical spec."""
    name, *parts = text.strip().split(":")
    last: dict[str, Any] = {}
    for part in parts:
        key, _, value = part.partition("=")
        last[key.strip()] = _value(value.strip())
    return ":".join([name.strip(), *(f"{key}={_spelt(last[key])}" for key in sorted(last))])


def _spelt(value: Any) -> str:
    """A parameter's value as :func:`_value` reads it back (``true``, ``none``, ``8``, ``0.5``, text)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():  # time_limit=1.0 is time_limit=1
        return str(int(value))
    return "none" if value is None else str(value)


def _check_size(text: str, key: str, value: Any) -> None:
    """Refuse a number that no agent can use: not finite, or above :data:`MAX_PARAMETER` in magnitude."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return
    if not math.isfinite(value) or abs(value) > MAX_PARAMETER:
        shown = str(value) if len(str(value)) <= 24 else str(value)[:20] + "..."
        raise AgentError(f"agent {text[:40]!r}: {key}={shown} is out of range (agent parameters are at most "
                         f"{MAX_PARAMETER:,} in size)")

