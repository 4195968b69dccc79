"""Open UCT on a game's compiled engine, reported in the reference engine's terms.

:func:`uct_compiled` runs :func:`stratagem.solvers.packed_uct.run_uct` (UCT with MCTS-Solver in C, over
the engine's packed states) from the reference ``state`` encoded by the engine, and returns the same
:class:`~stratagem.solvers.mcts.MctsResult` as :func:`stratagem.solvers.mcts.uct`: the root's moves as
the reference engine's moves, in its ``legal_moves`` order and notation, with visits, means and proven
values, and the move chosen by the same rule (the proven best when the root is proven, else a proven
win, else the most visited move that is not a proven loss; ties to the higher mean, then legal order).

Guided (the default, as :func:`~stratagem.solvers.mcts.uct`'s) where the game hands over a compiled guide
(``game.compiled_guide(engine)``, a :class:`~stratagem.core.packed_guide.Guide`: Card Clash, Stratatak
and STAKD have one): moves are expanded in the guide's order (the twin of the game's ``order_moves``) with
progressive widening, and a leaf is valued by the guide's evaluation after the game's declared
``rollout_limit`` -- the search ``uct(guided=True)`` runs on the reference engine. Without a guide (or
``guided=False``) it is plain UCT (``uct(guided=False)``): every move tried once first in an order drawn
from the seed, random playouts to the end. The random stream is the kernel's own (splitmix64), not
Python's ``random.Random``: the two searches agree on proven values, not move for move. No game is
imported here; the caller hands over the engine, and the game its guide. A tree can be kept between moves (``tree``).
"""

from __future__ import annotations

import math
from typing import Any

from stratagem.core.errors import UnsupportedGame
from stratagem.core.game import CHANCE, SIMULTANEOUS, Game
from stratagem.core.packed import PackedGame
from stratagem.core.packed_guide import Guide
from stratagem.solvers.mcts import DEFAULT_EXPLORATION, DEFAULT_WIDENING, MctsResult, MoveStats
from stratagem.solvers.mcts.results import unproven_root_pick
from stratagem.solvers.packed_uct import UctStopped, run_uct

__all__ = ["compiled_guide", "uct_compiled"]


def uct_compiled(game: Game[Any, Any], engine: PackedGame, state: Any, *, iterations: int | None = None,
                 time_limit: float | None = None, seed: int = 0, exploration: float | None = None,
                 value_range: tuple[float, float] = (-1.0, 1.0), solver: bool = True,
                 rollout_limit: int | None = None, player: int | None = None, guided: bool = True,
                 widening: float = DEFAULT_WIDENING, tree: dict[str, Any] | None = None) -> MctsResult[Any]:
    """Open UCT with MCTS-Solver from the reference ``state`` of ``game``, searched on ``engine`` (the same
    game's compiled engine). Options as :func:`stratagem.solvers.mcts.uct`'s; ``guided`` takes effect where
    the game has a compiled guide (:func:`compiled_guide`), else a cut playout scores the middle of
    ``value_range``. ``exploration`` None: the guide's declared constant when guided, else
    :data:`~stratagem.solvers.mcts.DEFAULT_EXPLORATION`. ``tree`` (an empty dict at a game's first move,
    the same dict after) keeps the search tree between moves, as ``uct``'s ``tree`` does
    (:func:`~stratagem.solvers.packed_uct.run_uct`).

    Raises :class:`~stratagem.core.errors.UnsupportedGame` at a chance or simultaneous root (or where the
    search meets a state it cannot handle), as :func:`~stratagem.solvers.mcts.uct` does.
    """
    if game.is_terminal(state):
        return MctsResult.at_terminal("uct", game.returns(state))
    mover = game.to_move(state)
    if mover == SIMULTANEOUS:
        raise UnsupportedGame("compiled UCT has no simultaneous moves: use the reference engine or DUCT")
    if mover == CHANCE:
        raise UnsupportedGame("the position is a chance node: there is no move to choose")
    if player is not None and player != mover:
        raise UnsupportedGame(f"player {player} is not to move (player {mover} is)")
    vector = engine.encode(state)
    guide = compiled_guide(game, engine) if guided else None
    if exploration is None:
        declared = float(guide.exploration) if guide is not None else 0.0
        exploration = declared if declared > 0.0 else DEFAULT_EXPLORATION
    try:
        found = run_uct(engine, vector, iterations=iterations, time_limit=time_limit, seed=seed,
                        exploration=exploration, value_range=value_range, solver=solver,
                        rollout_limit=rollout_limit, guide=guide, widening=widening if guide is not None else 0.0,
                        tree=tree)
    except UctStopped as exc:
        raise UnsupportedGame(str(exc)) from None
    low, high = float(value_range[0]), float(value_range[1])
    solving = solver and game.num_players <= 2
    by_move = {}
    for i, record in enumerate(found["records"]):
        by_move[engine.decode_move(vector, record)] = i
    stats: list[MoveStats[Any]] = []
    plies: list[int] = []
    for move in game.legal_moves(state):
        if move not in by_move:
            raise UnsupportedGame(f"the compiled engine does not list the move {game.format_move(state, move)} "
                                  "of the reference engine")
        i = by_move[move]
        visits = int(found["visits"][i])
        mean = float(found["totals"][i][mover]) / visits if visits else 0.0
        proven = found["proven"][i][mover]
        stats.append(MoveStats(move, game.format_move(state, move), visits, mean,
                               None if math.isnan(proven) else float(proven)))
        plies.append(int(found["proven_plies"][i]))
    if len(stats) != len(found["records"]) or len(by_move) != len(found["records"]):
        raise UnsupportedGame("the compiled engine's moves are not the reference engine's, one for one")
    pick = _proven_choice(stats, plies, high) if solving else None
    if pick is None:
        pick = unproven_root_pick(stats, low)
    value = found["value"]
    best = stats[pick]
    return MctsResult("uct", "open", mover, best.move, best.notation, tuple(stats), found["iterations"],
                      found["seconds"], value is not None, value, found["plies"] if value is not None else None)


def compiled_guide(game: Game[Any, Any], engine: PackedGame) -> Guide | None:
    """The game's guide over ``engine`` (``game.compiled_guide(engine)``), or None when it has none."""
    make = getattr(game, "compiled_guide", None)
    if make is None:
        return None
    guide = make(engine)
    if guide is not None and not isinstance(guide, Guide):
        raise TypeError(f"{type(game).__name__}.compiled_guide returned a {type(guide).__name__}, not a Guide")
    return guide


def _proven_choice(stats: list[MoveStats[Any]], plies: list[int], high: float) -> int | None:
    """As the Python search's rule at the root: a proven win (fewest plies) if any; else, once every
    move is proven, the best value (the longest line among equals); else None."""
    wins = [(plies[i], i) for i, s in enumerate(stats) if s.proven_value is not None and s.proven_value >= high]
    if wins:
        return min(wins)[1]
    if any(s.proven_value is None for s in stats):
        return None
    best = max(s.proven_value for s in stats if s.proven_value is not None)
    return min((-plies[i], i) for i, s in enumerate(stats) if s.proven_value == best)[1]
