"""max^n on a game's compiled engine, reported in the reference engine's terms.

:func:`maxn_compiled` runs :func:`stratagem.solvers.packed_maxn.solve` (exhaustive max^n with a table, exact
fractions, in C, over the engine's packed states) from the reference ``state`` encoded by the engine, and
returns the same :class:`~stratagem.solvers.gametree.MinimaxResult` as
:func:`~stratagem.solvers.multiplayer.maxn` without a depth: the vector (integers where the entries are
whole, else fractions), the line as reference moves (each decoded by the engine and played on the
reference engine, so a move that is not legal there raises) and the node count.

The tie rule, explicitly: at a decision node the player to move takes the first move, in the legal order,
whose vector gives them the highest return; a later move replaces it only with a strictly higher return.
Both searches apply it (the Python search without move ordering, the kernel in the engine's legal order),
and the compiled engines list moves in the reference engines' order (their tests hold them to it), so the
vector, the chosen move and the line are the Python search's: tests/solvers/test_packed_expectimax.py
compares all three on random three- and four-player positions.

A depth limit needs the game's evaluation (callers use the Python search then); a node or time limit gives
status ``unknown``; a vector needing fractions beyond 62 bits raises
:class:`~stratagem.solvers.compiled_expectimax.FractionsTooLarge`. No game is imported here.
"""

from __future__ import annotations

import time
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.game import Game
from stratagem.core.packed import PackedGame
from stratagem.solvers.compiled_expectimax import FractionsTooLarge
from stratagem.solvers.gametree import (
    ASSUME_MAXN,
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
from stratagem.solvers.packed_maxn import SearchRefused, solve

__all__ = ["maxn_compiled"]


def maxn_compiled(game: Game[Any, Any], engine: PackedGame, state: Any, *, time_limit: TimeLimit = None,
                  max_nodes: int | None = None, progress: Progress | None = None, progress_every: int = 10_000,
                  table_bits: int | None = None) -> MinimaxResult[Any]:
    """The max^n vector of the reference ``state`` of ``game``, searched on ``engine`` (the same game's
    compiled engine); as :func:`~stratagem.solvers.multiplayer.maxn` without a depth."""
    started = time.perf_counter()
    root_mover = decision_player(game, state, "maxn")
    player = 0 if root_mover < 0 else root_mover
    if game.is_terminal(state):
        return terminal_result(game, state, "maxn", ASSUME_MAXN, player, started)
    deadline: Deadline | None = as_deadline(time_limit)
    expired = deadline.expired if deadline is not None else None
    report = (lambda nodes: progress(0, nodes)) if progress is not None else None
    try:
        found = solve(engine, engine.encode(state), table_bits=table_bits, max_nodes=max_nodes, expired=expired,
                      progress=report, progress_every=progress_every)
    except SearchRefused as exc:
        if "62 bits" in str(exc):
            raise FractionsTooLarge(f"{game.name}: {exc}") from None
        raise refusal(game, str(exc)) from None
    if "stopped" in found:
        return MinimaxResult("maxn", UNKNOWN, ASSUME_MAXN, player, None, None, None, (), None, None, found["nodes"],
                             time.perf_counter() - started, None, None)
    line: list[Any] = []
    here = state
    for vector, record in found["pv"]:
        move = engine.decode_move(vector, record)
        here = game.apply(here, move)  # the reference engine plays it: a move it refuses raises
        line.append(move)
    vec = tuple(int(v) if v.denominator == 1 else v for v in found["vector"])
    return MinimaxResult("maxn", SOLVED, ASSUME_MAXN, player, vec[player], vec, line[0] if line else None, tuple(line),
                         None, None, found["nodes"], time.perf_counter() - started, None, vec[player])
