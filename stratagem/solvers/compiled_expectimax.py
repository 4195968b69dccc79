"""Expectiminimax and the paranoid search on a game's compiled engine, reported in the reference engine's terms.

:func:`expectiminimax_compiled` and :func:`paranoid_compiled` run
:func:`stratagem.solvers.packed_expectimax.solve` (exhaustive alpha-beta on one player's return with Star1
and Star2 cuts at chance nodes, exact fractions, in C, over the engine's packed states) from the reference
``state`` encoded by the engine, and return the same :class:`~stratagem.solvers.gametree.MinimaxResult` as
:func:`~stratagem.solvers.expectimax.expectiminimax` and :func:`~stratagem.solvers.multiplayer.paranoid`
without a depth: the exact value (a ``Fraction`` where chance makes one, else an integer), the principal
variation up to the first chance node as reference moves (each decoded by the engine and played on the
reference engine, so a move that is not legal there raises), and the node count of the compiled search
(ordered by the engine's hint where it has one and by history: counts differ from the Python search's).

Only exhaustive searches run here: a depth limit needs the game's evaluation (callers use the Python
search then). A node or time limit gives status ``unknown``. A position whose exact value needs fractions
beyond 62 bits raises :class:`FractionsTooLarge`, so that a caller can search it in Python. No game is
imported here; the caller hands over the engine.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.errors import StratagemError
from stratagem.core.game import CHANCE, Game
from stratagem.core.packed import PackedGame
from stratagem.core.packed_order import order_for
from stratagem.solvers.alphabeta import return_bounds
from stratagem.solvers.gametree import (
    ASSUME_OPEN,
    ASSUME_PARANOID,
    SOLVED,
    UNKNOWN,
    MinimaxResult,
    Progress,
    TimeLimit,
    Value,
    as_deadline,
    decision_player,
    refusal,
    terminal_result,
)
from stratagem.solvers.packed_expectimax import SearchRefused, solve

__all__ = ["FractionsTooLarge", "expectiminimax_compiled", "paranoid_compiled"]


class FractionsTooLarge(StratagemError):
    """The exact value needs fractions beyond the compiled search's 62-bit integers."""


def _value(v: Fraction) -> Value:
    """An integer where the fraction is one (as the reference engine's returns are), else the fraction."""
    return int(v) if v.denominator == 1 else v


def _search(method: str, assumption: str, game: Game[Any, Any], engine: PackedGame, state: Any, player: int,
            lo: Any, hi: Any, star: int, time_limit: TimeLimit, max_nodes: int | None,
            progress: Progress | None, progress_every: int, table_bits: int | None) -> MinimaxResult[Any]:
    started = time.perf_counter()
    if game.is_terminal(state):
        return terminal_result(game, state, method, assumption, player, started)
    if int(lo) != lo or int(hi) != hi:
        raise StratagemError(f"{game.name}: the compiled {method} needs integer bounds of the returns, "
                             f"not [{lo}, {hi}]")
    deadline: Deadline | None = as_deadline(time_limit)
    expired = deadline.expired if deadline is not None else None
    report = (lambda nodes: progress(0, nodes)) if progress is not None else None
    try:
        found = solve(engine, engine.encode(state), player, lo=int(lo), hi=int(hi), star=star,
                      table_bits=table_bits, max_nodes=max_nodes, expired=expired, progress=report,
                      progress_every=progress_every, order=order_for(game, engine))
    except SearchRefused as exc:
        if "62 bits" in str(exc):
            raise FractionsTooLarge(f"{game.name}: {exc}") from None
        raise refusal(game, str(exc)) from None
    if "stopped" in found:
        return MinimaxResult(method, UNKNOWN, assumption, player, None, None, None, (), None, None, found["nodes"],
                             time.perf_counter() - started, None, None)
    pv: list[Any] = []
    here = state
    for vector, record in found["pv"]:
        move = engine.decode_move(vector, record)
        here = game.apply(here, move)  # the reference engine plays it: a move it refuses raises
        pv.append(move)
    value = _value(found["value"])
    values = None
    if method == "expectiminimax":
        values = (value, -value) if player == 0 else (-value, value)
    return MinimaxResult(method, SOLVED, assumption, player, value, values, pv[0] if pv else None, tuple(pv), None,
                         None, found["nodes"], time.perf_counter() - started, None, value)


def expectiminimax_compiled(game: Game[Any, Any], engine: PackedGame, state: Any, *, lo: Any = None,
                            hi: Any = None, star: int = 2, time_limit: TimeLimit = None,
                            max_nodes: int | None = None, progress: Progress | None = None,
                            progress_every: int = 10_000, table_bits: int | None = None) -> MinimaxResult[Any]:
    """The exact expectiminimax value of the reference ``state`` of ``game`` (two players, zero sum),
    searched on ``engine``, the same game's compiled engine; as
    :func:`~stratagem.solvers.expectimax.expectiminimax` without a depth (``lo``/``hi`` default to the
    game's return bounds and must be integers). Raises :class:`~stratagem.core.errors.StratagemError` where
    the Python search would, and :class:`FractionsTooLarge` (a subclass) when the value is out of reach of
    64-bit fractions."""
    if game.num_players != 2:
        raise StratagemError(f"expectiminimax needs a two-player zero-sum game; {game.name} has "
                             f"{game.num_players} players (use paranoid or maxn)")
    if star not in (0, 1, 2):
        raise ValueError("star must be 0, 1 or 2")
    lo, hi = return_bounds(game, lo, hi)
    mover = decision_player(game, state, "expectiminimax") if not game.is_terminal(state) else 0
    player = 0 if mover == CHANCE or mover < 0 else mover
    return _search("expectiminimax", ASSUME_OPEN, game, engine, state, player, lo, hi, star, time_limit, max_nodes,
                   progress, progress_every, table_bits)


def paranoid_compiled(game: Game[Any, Any], engine: PackedGame, state: Any, player: int | None = None, *,
                      lo: Any = None, hi: Any = None, star: int = 2, time_limit: TimeLimit = None,
                      max_nodes: int | None = None, progress: Progress | None = None,
                      progress_every: int = 10_000, table_bits: int | None = None) -> MinimaxResult[Any]:
    """What ``player`` (default: the player to move, player 0 at a chance node) can guarantee against all
    the others together, searched on ``engine``; as :func:`~stratagem.solvers.multiplayer.paranoid` without a
    depth (``values`` is None: only ``player``'s guarantee is computed)."""
    if star not in (0, 1, 2):
        raise ValueError("star must be 0, 1 or 2")
    if player is not None and not 0 <= player < game.num_players:
        raise ValueError(f"player {player} is not one of the {game.num_players} players")
    lo, hi = return_bounds(game, lo, hi)
    if player is None:
        mover = decision_player(game, state, "paranoid") if not game.is_terminal(state) else 0
        player = 0 if mover < 0 else mover
    result = _search("paranoid", ASSUME_PARANOID, game, engine, state, player, lo, hi, star, time_limit, max_nodes,
                     progress, progress_every, table_bits)
    if result.values is None:
        return result
    return MinimaxResult(result.method, result.status, result.assumption, result.player, result.value, None,
                         result.best_move, result.pv, result.distance, result.depth, result.nodes, result.seconds,
                         result.tt, result.estimate)
