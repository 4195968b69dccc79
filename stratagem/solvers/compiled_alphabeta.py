"""Alpha-beta on a game's compiled engine, reported in the reference engine's terms.

:func:`alphabeta_compiled` runs :func:`stratagem.solvers.packed_alphabeta.solve` (exhaustive negamax with a
table, in C, over the engine's packed states) from the reference ``state`` encoded by the engine, and
returns the same :class:`~stratagem.solvers.gametree.MinimaxResult` as :func:`stratagem.solvers.alphabeta.alphabeta`
without a depth: the value and the distance to the result (the same as the Python search's: both search
every line with the same scores), the principal variation as reference moves (each decoded by the
engine and played on the reference engine, so a move that is not legal there raises), and the node count
(of the compiled search, ordered by the engine's hint where it has one, killers and history: counts differ
from the Python search's).

Only exhaustive searches run here: a depth limit needs the game's evaluation, which a compiled engine
does not have (callers use the Python search then). A node or time limit gives status ``unknown`` with the
best root move of the deepest completed iteration as ``best_move`` (a guess, as the Python search's is). No
game is imported here; the caller hands over the engine.
"""

from __future__ import annotations

import time
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.errors import StratagemError
from stratagem.core.game import CHANCE, Game
from stratagem.core.packed import PackedGame
from stratagem.core.packed_order import order_for
from stratagem.solvers.alphabeta import return_bounds
from stratagem.solvers.gametree import (
    ASSUME_OPEN,
    SOLVED,
    UNKNOWN,
    MinimaxResult,
    Progress,
    TimeLimit,
    as_deadline,
    decision_player,
    refusal,
    terminal_result,
)
from stratagem.solvers.packed_alphabeta import SearchRefused, solve

__all__ = ["alphabeta_compiled"]


def alphabeta_compiled(game: Game[Any, Any], engine: PackedGame, state: Any, *, lo: Any = None, hi: Any = None,
                       time_limit: TimeLimit = None, max_nodes: int | None = None, progress: Progress | None = None,
                       progress_every: int = 10_000, table_bits: int | None = None) -> MinimaxResult[Any]:
    """The exact negamax value of the reference ``state`` of ``game`` (two players, zero sum, no chance),
    searched on ``engine``, the same game's compiled engine. ``lo``/``hi`` as
    :func:`~stratagem.solvers.alphabeta.alphabeta`'s (integers here: a compiled engine's returns are);
    ``time_limit`` (seconds or a shared :class:`~stratagem.core.deadline.Deadline`) and ``max_nodes`` stop
    the search with status ``unknown``; ``progress(0, nodes)`` is called every ``progress_every`` nodes.
    Raises :class:`~stratagem.core.errors.StratagemError` where the Python search would (chance or
    simultaneous nodes, more than two players, a return outside the bounds, a repeated position).
    """
    started = time.perf_counter()
    lo, hi = return_bounds(game, lo, hi)
    if game.num_players != 2:
        raise StratagemError(f"alphabeta needs a two-player zero-sum game; {game.name} has {game.num_players} "
                             "players (use paranoid or maxn)")
    if game.is_terminal(state):
        return terminal_result(game, state, "alphabeta", ASSUME_OPEN, 0, started)
    me = decision_player(game, state, "alphabeta")
    if me == CHANCE:
        raise StratagemError("alphabeta: the position is a chance node; use expectiminimax")
    deadline: Deadline | None = as_deadline(time_limit)
    expired = deadline.expired if deadline is not None else None
    report = (lambda nodes: progress(0, nodes)) if progress is not None else None
    try:
        found = solve(engine, engine.encode(state), lo=int(lo), hi=int(hi), table_bits=table_bits,
                      max_nodes=max_nodes, expired=expired, progress=report, progress_every=progress_every,
                      order=order_for(game, engine))
    except SearchRefused as exc:
        raise refusal(game, str(exc)) from None
    if "stopped" in found:
        best = None
        if found["best_found"] is not None:  # the deepest completed iteration's choice: a guess, not a claim
            best = engine.decode_move(*found["best_found"])
            game.apply(state, best)  # the reference engine plays it: a move it refuses raises
        return MinimaxResult("alphabeta", UNKNOWN, ASSUME_OPEN, me, None, None, best, () if best is None else (best,),
                             None, None, found["nodes"], time.perf_counter() - started, None, None)
    pv: list[Any] = []
    here = state
    for vector, record in found["pv"]:
        move = engine.decode_move(vector, record)
        here = game.apply(here, move)  # the reference engine plays it: a move it refuses raises
        pv.append(move)
    value = found["value"]
    if game.is_terminal(here) and game.returns(here)[me] == value:
        value = game.returns(here)[me]  # the reference engine's own number (1.0 where its returns are floats)
    values = (value, -value) if me == 0 else (-value, value)
    return MinimaxResult("alphabeta", SOLVED, ASSUME_OPEN, me, value, values, pv[0] if pv else None, tuple(pv),
                         found["distance"], None, found["nodes"], time.perf_counter() - started, None, value)
