"""The two searches: :func:`uct` (open information, MCTS-Solver) and :func:`ismcts` (SO-ISMCTS from one
player's observation), each driving :class:`~stratagem.solvers.mcts.engine.Search` within a budget and
reporting a :class:`~stratagem.solvers.mcts.results.MctsResult`."""

from __future__ import annotations

import time
from collections.abc import Sequence
from fractions import Fraction
from random import Random
from typing import Any

from stratagem.core.errors import UnsupportedGame
from stratagem.core.game import CHANCE, SIMULTANEOUS, Game, HiddenInformation, M
from stratagem.solvers.mcts.engine import DEFAULT_EXPLORATION, DEFAULT_WIDENING, Node, Search, proven_choice
from stratagem.solvers.mcts.playout import RolloutPolicy, player_moves
from stratagem.solvers.mcts.results import MctsResult, MoveStats, unproven_root_pick
from stratagem.solvers.mcts.reuse import SearchTree


def _run(search: Search, iterations: int | None, time_limit: float | None) -> tuple[int, float]:
    if iterations is None and time_limit is None:
        raise ValueError("give an iteration budget, a time limit, or both")
    if iterations is not None and iterations < 0:
        raise ValueError(f"iterations must be non-negative, not {iterations}")
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    done = 0
    while iterations is None or done < iterations:
        if search.root.proven is not None:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
        search.iterate()
        done += 1
    return done, time.perf_counter() - start


def reported_player(game: Game[Any, Any], state: Any, player: int | None) -> int:
    """The player whose moves a search from ``state`` reports: the one to move, or at a simultaneous node
    ``player``, who must then be named. Raises :class:`~stratagem.core.errors.UnsupportedGame` at a chance
    node, or when ``player`` is named and is not to move."""
    mover = game.to_move(state)
    if mover == SIMULTANEOUS:
        if player is None or not 0 <= player < game.num_players:
            raise UnsupportedGame("at a simultaneous node, say which player's moves to report (player=...)")
        return player
    if mover == CHANCE:
        raise UnsupportedGame("the position is a chance node: there is no move to choose")
    if player is not None and player != mover:
        raise UnsupportedGame(f"player {player} is not to move (player {mover} is)")
    return mover


def uct(
    game: Game[Any, M],
    state: Any,
    *,
    iterations: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    exploration: float = DEFAULT_EXPLORATION,
    value_range: tuple[float, float] = (-1.0, 1.0),
    solver: bool = True,
    rollout_policy: RolloutPolicy | None = None,
    rollout_limit: int | None = None,
    player: int | None = None,
    guided: bool = True,
    widening: float = DEFAULT_WIDENING,
    tree: SearchTree | None = None,
) -> MctsResult[M]:
    """UCT from ``state`` seeing the whole state (open analysis), with MCTS-Solver backups.

    ``player`` is only needed at a simultaneous root (whose moves to report); elsewhere it defaults to
    the player to move. ``guided`` uses the game's knowledge where it has it: moves are expanded in
    :meth:`~stratagem.core.game.MoveOrdering.order_moves` order with progressive widening (a node
    visited ``n`` times considers its first ``widening * sqrt(n + 1)`` moves, more once those are
    all proven); ``guided=False`` expands every move first, in an order drawn from the seed (plain
    UCT). ``rollout_limit=0`` values a new leaf by the game's evaluation alone. ``tree`` keeps the
    search tree between calls: a later search of a position within a round of plies below the last
    one's root starts from what was learnt there (tree reuse; ``iterations`` then counts the new
    iterations only). See the module docstring for the budget, the solver and determinism.
    """
    information = "open"
    if game.is_terminal(state):
        return MctsResult.at_terminal("uct", game.returns(state))
    root_player = reported_player(game, state, player)
    search = Search(
        game, state, Random(seed), observer=None, exploration=exploration, value_range=value_range,
        solver=solver, rollout_policy=rollout_policy, rollout_limit=rollout_limit, guided=guided,
        widening=widening,
    )
    if tree is not None and search.open:
        reused = tree.find(game, state, (guided, widening, solver, search.low, search.high))
        if reused is not None:
            search.root = reused
    done, seconds = _run(search, iterations, time_limit)
    root = search.root
    if tree is not None and search.open:
        tree.keep(game, root, (guided, widening, solver, search.low, search.high))
    if game.to_move(state) == SIMULTANEOUS:
        stats = _simultaneous_stats(game, state, root, root_player)
        return _result("uct", information, root_player, stats, _most_visited(stats), done, seconds, None, 0)
    if search.open:
        if root.edges is None:
            search._open_edges(root)
        assert root.edges is not None
        where = {move: i for i, (_, move, _) in enumerate(root.edges)}
        legal = game.legal_moves(state)
        children = [root.kids[where[move]] for move in legal]
        keys = [search.key(root, where[move]) for move in legal]
        edges: list[tuple[str, Any, Fraction | None]] = [
            (key, move, None) for key, move in zip(keys, legal, strict=True)]
    else:
        edges = search._edges(root, state, root_player)
        children = [root.children.get(key) for key, _, _ in edges]
    stats = []
    for (key, move, _), child in zip(edges, children, strict=True):
        visits = child.visits if child is not None else 0
        mean = child.totals[root_player] / visits if child is not None and visits else 0.0
        proven_value = child.proven[root_player] if child is not None and child.proven is not None else None
        stats.append(MoveStats(move, key, visits, mean, proven_value))
    pick = proven_choice(children, root_player, search.high, require_all=True) if search.solver else None
    if pick is None:  # no proven win, and not everything proven
        pick = unproven_root_pick(stats, search.low)
    return _result("uct", information, root_player, stats, pick, done, seconds, root.proven, root.plies)


def ismcts(
    game: Game[Any, M],
    state: Any,
    *,
    iterations: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    exploration: float = DEFAULT_EXPLORATION,
    value_range: tuple[float, float] = (-1.0, 1.0),
    rollout_policy: RolloutPolicy | None = None,
    rollout_limit: int | None = None,
    player: int | None = None,
    guided: bool = False,
    widening: float = DEFAULT_WIDENING,
) -> MctsResult[M]:
    """SO-ISMCTS from the point of view of the player to move (or ``player`` at a simultaneous root).

    ``state`` is the real state, but the search only ever uses it through ``game.sample_state(state,
    player, rng)`` -- one determinisation per iteration -- and to list the player's own moves at the
    end (which the player knows). Needs a :class:`~stratagem.core.game.HiddenInformation` game.
    ``guided`` (off by default here) uses the game's knowledge as :func:`uct` does: the game's declared
    ``rollout_limit`` when none is given, and with :class:`~stratagem.core.game.MoveOrdering` each
    determinisation's moves in ``order_moves`` order with progressive widening (a node visited ``n``
    times expands a new move while fewer than ``widening * sqrt(n + 1)`` of the moves available in
    this determinisation have a child).
    """
    if not isinstance(game, HiddenInformation):
        raise UnsupportedGame(f"ISMCTS needs a hidden-information game (observation and sample_state); "
                              f"{game.name!r} has none: use open UCT")
    if game.is_terminal(state):
        return MctsResult.at_terminal("ismcts", game.returns(state))
    observer = reported_player(game, state, player)
    information = f"observation of player {observer}"
    search = Search(
        game, state, Random(seed), observer=observer, exploration=exploration, value_range=value_range,
        solver=False, rollout_policy=rollout_policy, rollout_limit=rollout_limit, guided=guided, widening=widening,
    )
    done, seconds = _run(search, iterations, time_limit)
    root = search.root
    if game.to_move(state) == SIMULTANEOUS:
        stats = _simultaneous_stats(game, state, root, observer)
    else:
        stats = []
        for move in game.legal_moves(state):
            key = game.format_move(state, move)
            child = root.children.get(key)
            visits = child.visits if child is not None else 0
            mean = child.totals[observer] / visits if child is not None and visits else 0.0
            stats.append(MoveStats(move, key, visits, mean, None))
    return _result("ismcts", information, observer, stats, _most_visited(stats), done, seconds, None, 0)


def _simultaneous_stats(game: Game[Any, Any], state: Any, root: Node, player: int) -> list[MoveStats[Any]]:
    own = root.sim[player] if root.sim is not None else {}
    stats = []
    for move in player_moves(game, state, player):
        visits, total = own.get(move, [0, 0.0])
        stats.append(MoveStats(move, _player_move_label(game, state, player, move), int(visits),
                               total / visits if visits else 0.0, None))
    return stats


def _player_move_label(game: Game[Any, Any], state: Any, player: int, move: Any) -> str:
    """One player's move at a simultaneous node in notation: the game's ``format_player_move(state,
    player, move)`` if it has one (the convention of :mod:`stratagem.solvers.simultaneous`), else
    ``format_move(state, move)``."""
    formatter = getattr(game, "format_player_move", None)
    if callable(formatter):
        return str(formatter(state, player, move))
    return game.format_move(state, move)


def _most_visited(stats: Sequence[MoveStats[Any]]) -> int:
    """Index of the most visited move; ties go to the higher mean, then to the earlier move."""
    return min(range(len(stats)), key=lambda i: (-stats[i].visits, -stats[i].mean, i))


def _result(
    method: str,
    information: str,
    player: int,
    stats: Sequence[MoveStats[M]],
    pick: int,
    iterations: int,
    seconds: float,
    proven: tuple[float, ...] | None,
    plies: int,
) -> MctsResult[M]:
    best = stats[pick] if stats else None
    return MctsResult(
        method=method,
        information=information,
        player=player,
        best_move=best.move if best is not None else None,
        best_notation=best.notation if best is not None else None,
        moves=tuple(stats),
        iterations=iterations,
        seconds=seconds,
        proven=proven is not None,
        value=proven,
        plies=plies if proven is not None else None,
    )
