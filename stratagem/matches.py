"""Matches between agents: the players a game offers, a fresh game to play, and a whole match.

What ``stratagem play`` does, as library calls::

    from stratagem.matches import play

    result = play("stratatak", ["greedy", "random"], games=10, seed=0)
    result.agents[0].win_rate, result.agents[0].win_rate_ci95

Agents are named ``name[:param=value...]`` (for example ``mcts:iterations=500``). The game-agnostic
agents come from :mod:`stratagem.solvers.agents`; a game adds its own baselines in its
``models/<game>/agents.py`` (``greedy`` from its ``greedy_move``, and any in its ``AGENTS`` table). Seats
rotate so that every agent plays every seat equally often, and the same seed gives the same result
(:func:`stratagem.solvers.match.play_match`).
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadArgument, BadInput
from stratagem.core.game import HiddenInformation, Simultaneous
from stratagem.core.io import MAX_PARAMETER, MAX_SEED
from stratagem.core.numbers import is_whole
from stratagem.core.words import ordinal
from stratagem.engines import COMPILED, ENGINES, REFERENCE, resolve
from stratagem.loading import GAMES, game_module, load_position
from stratagem.solvers.agents import (
    Agent,
    AgentError,
    AgentFactory,
    MctsAgent,
    PimcAgent,
    function_agent,
    make_agent,
    parse_agent_spec,
)
from stratagem.solvers.duct import DuctAgent
from stratagem.solvers.match import DEFAULT_MAX_PLIES, MatchResult, Progress, play_match

ARGUMENT = "<argument>"


def game_agents(game_name: str) -> dict[str, AgentFactory]:
    """The agents a game adds to the registry: ``greedy`` and its own baselines."""
    module = importlib.import_module(f"stratagem.models.{game_name}.agents")
    extra: dict[str, AgentFactory] = {}
    if hasattr(module, "greedy_move"):
        extra["greedy"] = function_agent("greedy", module.greedy_move)
    extra.update(getattr(module, "AGENTS", {}))
    return extra


def new_game(game_name: str, players: int | None) -> Any:
    """A fresh game for ``players`` players (None: the game's default), built the way a record's setup is."""
    puzzle = game_module(game_name, "puzzle", ARGUMENT)
    setup: dict[str, Any] = {} if players is None else {"players": players}
    return puzzle.game_from_setup(setup, "players")


def make_agents(game_name: str, specs: Sequence[str]) -> list[Agent]:
    """One agent per spec (``name[:param=value...]``), from the generic agents and the game's own.

    A spec that names no agent, or gives it a parameter it does not take, is
    :class:`~stratagem.core.errors.BadInput` at ``agents[i]``, counting from 0 as Python indexes the list (it
    said ``agents[1]`` of ``agents[0]``; the CLI's ``--agents[N]`` counts from 1:
    :func:`~stratagem.cli.output.as_options`)."""
    extra = game_agents(game_name)
    agents = []
    for i, spec in enumerate(specs):
        try:
            name, params = parse_agent_spec(spec)
            agents.append(make_agent(name, extra, **params))
        except AgentError as exc:
            raise BadInput(ARGUMENT, f"agents[{i}]", str(exc)) from None
    return agents


def play(game_name: str, agents: Sequence[str], games: int = 20, players: int | None = None, seed: int = 0,
         position: str | Path | None = None, max_plies: int = DEFAULT_MAX_PLIES,
         progress: Progress | None = None, deadline: Deadline | None = None, engine: str | None = None,
         note: Callable[[str], None] | None = None, points: int = 1,
         hint: Callable[[str], None] | None = None) -> MatchResult:
    """A match of ``games`` games of ``game_name`` between ``agents`` (one spec per player), seats rotating.

    Every game starts from a fresh deal for ``players`` players (default: one per agent), or from the
    position file ``position`` (with its options). A game still running after ``max_plies`` moves
    counts as unfinished. ``points`` above 1 (STAKD only, fresh deals) makes each game a race of rounds to
    that many points, the winner of a round starting the next (the seed's game is a race to 3;
    :mod:`stratagem.models.stakd.rounds`), and ``max_plies`` then caps each round; 1 plays one round.
    ``progress(done, total)`` is called after each game. When ``deadline`` passes, the match ends with the
    games finished (:attr:`MatchResult.stopped_by`).

    ``engine`` is where the search agents search (:mod:`stratagem.engines`): ``compiled`` runs every
    ``mcts``, ``ismcts``, ``pimc`` (with its rollout evaluator) and ``duct`` agent on the game's compiled
    engine (searches in C; ``mcts`` and ``ismcts`` guided where the game hands over a compiled guide,
    Card Clash's, Stratatak's and STAKD's, else unguided; a cut playout is scored by the guide's evaluation,
    else the engine's where it has one, else the middle of the value range), ``reference`` none; None (the
    default) runs there the agents whose search is the same on both engines or stronger on the compiled one:
    ``mcts`` and ``ismcts`` that ask for plain search (``guided=false``) or play a game with a compiled guide
    (measured in results/mcts.md and docs/design.md, section 7), and ``pimc`` and ``duct`` that play out to
    the end (no ``rollout_limit``); never ``mcts`` in a game with simultaneous moves (Stack Attack). ``note`` is told
    in one line when ``compiled`` was asked for and cannot be had (or the compiled core was not built);
    ``hint``, when a default costs much time: a guided ``mcts`` or ``ismcts`` left on the reference engine of a
    game that has a compiled one.

    Raises :class:`~stratagem.core.errors.BadInput` when the agents do not fit the game (their number,
    an empty or unknown name, a bad parameter, ``ismcts`` or ``pimc`` where nothing is hidden, ``mcts`` on
    the compiled engine in a game with simultaneous moves, which compiled UCT lacks) or the position is
    another game's, has another player count or is already over; its ``place`` names the parameter.
    """
    if not isinstance(game_name, str):  # a rules object was read as a game's name, blamed on the agents
        raise BadInput(ARGUMENT, "game_name", f"a game's name ({', '.join(GAMES)}), not {type(game_name).__name__}")
    if isinstance(agents, str):  # "greedy,random" was read as 13 agents, one a letter
        raise BadInput(ARGUMENT, "agents", f"a list of agent specs, one per player, not the string {agents[:40]!r}")
    if any(not spec.strip() for spec in agents):
        raise BadInput(ARGUMENT, "agents", f"an empty agent name in {','.join(agents)!r}")
    # what the command line refuses (--count, --seed, --max-plies): a negative seed or no game was played
    for name, value, low, high in (("games", games, 1, MAX_PARAMETER), ("seed", seed, 0, MAX_SEED),
                                   ("max_plies", max_plies, 1, MAX_PARAMETER)):
        if not is_whole(value, low, high):
            raise BadInput(ARGUMENT, name, f"a whole number from {low} to {high:,}, not {value!r:.40}")
    start = None
    if position is not None:
        loaded = load_position(position, (game_name,))
        game, start = loaded.game, loaded.state
        if game.is_terminal(start):  # every game was 'played' without a move and scored as the file ends it
            raise BadInput(str(position), "position", "the game is already over here: a match has no move to play")
        if players is not None and players != game.num_players:
            raise BadArgument(str(position), "players", f"the position has {game.num_players} players, not {players}")
    elif players is not None:  # a count the game refuses is --players's fault, named as the option
        try:
            game = new_game(game_name, players)
        except BadInput as exc:
            raise BadArgument(ARGUMENT, "players", exc.problem) from None
    else:  # one player per agent: a count the game refuses is the agents' fault, not an unnamed --players
        try:
            game = new_game(game_name, len(agents))
        except BadInput as exc:
            raise BadInput(ARGUMENT, "agents", f"{len(agents)} agent(s), one per player: {exc.problem}") from None
    if len(agents) != game.num_players:
        raise BadInput(ARGUMENT, "agents", f"{len(agents)} agent(s) for {game.num_players} players; "
                       "name one agent per player")
    made = make_agents(game_name, agents)
    _check_seeing(game_name, game, made)
    if engine is None and hint is not None:
        _hint_guided_on_reference(game, made, hint)
    players_agents = _on_engine(game, made, engine, note)
    if points == 1:
        return play_match(game, players_agents, games, seed=seed, start=start, max_plies=max_plies,
                          progress=progress, deadline=deadline)
    race, racers = _race(game_name, game, players_agents, points, start is not None)
    result = play_match(race, racers, games, seed=seed, max_plies=max_plies * race.most_rounds,  # a round's cap
                        progress=progress, deadline=deadline)
    return dataclasses.replace(result, points=points, max_plies=max_plies)


def _check_seeing(game_name: str, game: Any, agents: Sequence[Agent]) -> None:
    """:class:`BadInput` at ``agents[i]`` for an agent that plays from what its player sees (``ismcts``,
    ``pimc``) in a game that hides nothing. Refused before the match: at the agent's first move the search
    refused in its own words, naming no agent, after the seats before it had played, and its advice
    ("use open UCT", "analyse it open") named no agent of ``--agents``."""
    if isinstance(game, HiddenInformation):
        return
    for i, agent in enumerate(agents):
        if isinstance(agent, PimcAgent) or (isinstance(agent, MctsAgent) and agent.information == "observation"):
            raise BadInput(ARGUMENT, f"agents[{i}]", f"{agent.name} plays from what its player sees, and "
                           f"{game_name} hides nothing (perfect information): use mcts, which sees it all")


def _race(game_name: str, game: Any, agents: list[Agent], points: int, from_position: bool) -> tuple[Any, list[Any]]:
    """The game as a race of rounds to ``points`` points, each agent playing the rounds (STAKD only)."""
    try:
        rounds = importlib.import_module(f"stratagem.models.{game_name}.rounds")
    except ModuleNotFoundError:
        raise BadInput(ARGUMENT, "points", f"{game_name} is not scored in points over rounds (STAKD is)") from None
    if from_position:
        raise BadInput(ARGUMENT, "points", "a race of rounds starts from fresh rounds: give no position")
    if not 1 <= points <= rounds.MAX_POINTS:
        raise BadInput(ARGUMENT, "points", f"{points} is not from 1 to {rounds.MAX_POINTS}")
    if game.num_players < 2:
        raise BadInput(ARGUMENT, "points", "solo STAKD has no rounds to win: a race needs two players or more")
    return rounds.PointsRace(game, points), [rounds.RoundAgent(agent) for agent in agents]


#: The kernel each kind of search agent needs besides the engine.
_KERNELS = {"open": "stratagem.solvers.packed_uct", "observation": "stratagem.solvers.packed_ismcts",
            "pimc": "stratagem.solvers.packed_ismcts", "duct": "stratagem.solvers.packed_duct"}


def _search_kind(agent: Agent, engine: str | None, game: Any = None) -> str | None:
    """Which compiled search ``agent`` takes when ``engine`` is asked for (see :func:`play`), or None."""
    asked = engine == COMPILED
    if isinstance(agent, MctsAgent) and agent.information == "open" and isinstance(game, Simultaneous):
        return None  # compiled UCT has no simultaneous moves (refused in _on_engine when asked for)
    if isinstance(agent, MctsAgent):
        guide = hasattr(game, "compiled_guide")
        return agent.information if asked or (engine is None and (not agent.guided or guide)) else None
    if isinstance(agent, PimcAgent):
        return "pimc" if agent.evaluator is None and (asked or agent.rollout_limit is None) else None
    if isinstance(agent, DuctAgent):
        return "duct" if asked or agent.rollout_limit is None else None
    return None


def _hint_guided_on_reference(game: Any, agents: list[Agent], hint: Callable[[str], None]) -> None:
    """Say once that a guided ``mcts`` or ``ismcts`` agent stays on the reference engine by default although
    the game has a compiled one: its search is the guided one, which only the Python engine runs for a game
    with no compiled guide, and many times slower (``play stratatak --agents mcts,random`` ran 4 minutes for
    one game, with nothing on stderr off a terminal, before Stratatak had its compiled guide). Every game
    with a compiled engine and no simultaneous moves now hands over a compiled guide, which compiled UCT
    and (since stop 63) compiled ISMCTS both take, so the hint is for a game added without one."""
    if isinstance(game, Simultaneous) or resolve(game, COMPILED).engine is None:
        return
    slow = [f"{agent.name} (the {ordinal(i + 1)} agent)" for i, agent in enumerate(agents)
            if isinstance(agent, MctsAgent) and _search_kind(agent, None, game) is None and agent.guided]
    if slow:
        hint(f"{' and '.join(slow)} {'searches' if len(slow) == 1 else 'search'} guided by the game's move "
             "ordering on the reference engine (Python), many times slower than the compiled engine, which has no "
             "compiled guide for this game and runs such a search unguided when asked for (engine compiled) or "
             "given guided=false")


def _on_engine(game: Any, agents: list[Agent], engine: str | None,
               note: Callable[[str], None] | None) -> list[Agent]:
    """The agents with the game's compiled engine given to the search agents that search on it."""
    if engine is not None and engine not in ENGINES:
        raise BadInput(ARGUMENT, "engine", f"unknown engine {engine!r} (one of {', '.join(ENGINES)})")
    if engine == COMPILED and isinstance(game, Simultaneous):
        # By default such an agent stays on the reference engine; asked for, the match failed at the first
        # simultaneous move, in the search's words, naming neither the agent nor the option.
        name = getattr(game, "name", "the game")
        for i, agent in enumerate(agents):
            if isinstance(agent, MctsAgent) and agent.information == "open":
                raise BadArgument(ARGUMENT, "engine", f"compiled: {agent.name} (the {ordinal(i + 1)} agent) would "
                                  "search with "
                                  f"compiled UCT, which has no simultaneous moves, and {name} has them: play it on "
                                  "the reference engine, or use duct")
    kinds = {i: kind for i, agent in enumerate(agents) if (kind := _search_kind(agent, engine, game)) is not None}
    if engine == REFERENCE or not kinds:
        return agents
    choice = resolve(game, COMPILED)
    if choice.note and note is not None and (engine == COMPILED or choice.core_missing):
        note(choice.note)
    if choice.engine is None:
        return agents
    from stratagem.core.compiled import label, status

    core = status()
    unbuilt = {kind for kind in kinds.values() if _KERNELS[kind] in core.missing or _KERNELS[kind] in core.stale}
    if unbuilt and note is not None:
        names = ", ".join(sorted({label(_KERNELS[kind]) for kind in unbuilt}))
        note(f"the compiled core is not built or out of date ({names}): those agents run on the reference engine")
    placed: list[Agent] = []
    for i, agent in enumerate(agents):
        if i not in kinds or kinds[i] in unbuilt:
            placed.append(agent)
        elif isinstance(agent, MctsAgent) and not hasattr(game, "compiled_guide"):
            # The compiled search runs plain here (UCT and ISMCTS without the game's compiled guide), and the
            # match's parameters say so: they said guided=true (and reuse=true) of a plain search.
            placed.append(dataclasses.replace(agent, engine=choice.engine, guided=False, reuse=False))
        elif dataclasses.is_dataclass(agent):
            placed.append(dataclasses.replace(agent, engine=choice.engine))
        else:
            moved = copy.copy(agent)
            setattr(moved, "engine", choice.engine)  # noqa: B010 (DuctAgent's attribute; Agent declares none)
            placed.append(moved)
    return placed


__all__ = ["game_agents", "make_agents", "new_game", "play"]
