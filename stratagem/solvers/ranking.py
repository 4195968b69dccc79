"""Every move at the root with its value: :func:`rank_moves`, by any minimax-family search.

What an analysis shows a player is not only the best move but how each move fares; each root move's
position is searched on its own, and the searches share one transposition table so that what one
learnt is not searched again under the next.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic

from stratagem.core.errors import StratagemError
from stratagem.core.game import Game, M, S
from stratagem.solvers.alphabeta import alphabeta
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.gametree import (
    ASSUME_MAXN,
    ASSUME_OPEN,
    ASSUME_PARANOID,
    HEURISTIC,
    NOT_RANKED,
    SOLVED,
    MinimaxResult,
    Value,
    as_deadline,
    decision_player,
)
from stratagem.solvers.multiplayer import maxn, paranoid
from stratagem.solvers.transposition import TranspositionTable

__all__ = ["MoveValue", "rank_key", "rank_moves"]


@dataclass(frozen=True)
class MoveValue(Generic[M]):
    """One root move with its value for the player to move at the root, and what backs it.

    ``distance`` counts plies from the root (the move included) to the result; ``status`` and
    ``assumption`` are those of the search of the position after the move.
    """

    move: M
    value: Value | None
    distance: int | None
    status: str
    assumption: str
    #: Nodes the move's own search visited (0 when the move ends the game or was not searched).
    nodes: int = 0


def rank_key(mv: MoveValue[Any]) -> tuple[int, Any, int]:
    """The order of :func:`rank_moves`: moves with a value first, the highest first; among wins the
    fastest, among losses the slowest (for re-sorting a ranking after a move's value became known)."""
    return _rank_key(mv)


def _rank_key(mv: MoveValue[Any]) -> tuple[int, Any, int]:
    if mv.value is None:
        return (1, 0, 0)
    d = mv.distance or 0
    # Higher value first; among wins the fastest, among losses the slowest.
    return (0, -mv.value, d if mv.value > 0 else -d if mv.value < 0 else 0)


def rank_moves(game: Game[S, M], state: S, search: Callable[..., MinimaxResult[M]] = alphabeta,
               on_move: Callable[[int, int, M], None] | None = None, known: Mapping[M, MoveValue[M]] | None = None,
               **options: Any) -> list[MoveValue[M]]:
    """Every legal move at ``state`` with its value for the player to move, best first.

    Each move's position is searched on its own with ``search`` (:func:`alphabeta`,
    :func:`expectiminimax`, :func:`paranoid` or :func:`maxn`) and ``options``; ties keep the game's
    move order, a ``known`` move first. A node limit applies to each move's search separately; a time
    limit (``time_limit``: seconds or a :class:`~stratagem.core.deadline.Deadline`) is one deadline for
    the whole ranking, so that ranking ``n`` moves never takes ``n`` times the limit: a move whose search has not begun
    when it has passed is listed with status :data:`NOT_RANKED` and no value. The searches of
    :func:`alphabeta`, :func:`expectiminimax` and :func:`paranoid` share one transposition table
    (one per player searched for), so what one move's search learnt about a position is not
    searched again under the next move; the values do not depend on it. ``tt`` in ``options`` is the
    table of the root's own search, shared in the same way (the analysis passes it, so the ranking
    starts from everything the root's search learnt).

    ``on_move(number, count, move)`` is called before each move's search (``number`` from 1 in the
    game's move order, of ``count`` legal moves), so that a display can say which move is being ranked.
    ``known`` gives moves whose value is already established (the root's best move, which the root's
    own search solved): they are listed as given, not searched again.
    """
    me = decision_player(game, state, "rank_moves")
    if me < 0:
        raise StratagemError("rank_moves needs a position where a player is to move")
    # A search run elsewhere (a compiled engine's) names the Python search it stands for.
    kind = getattr(search, "stands_for", search)
    if kind is paranoid:
        options = {**options, "player": me}
    root_table = options.pop("tt", None)
    share = kind in (alphabeta, expectiminimax, paranoid) and options.get("use_tt", True)
    tables: dict[int, TranspositionTable] = {}
    if share and root_table is not None:
        # The root's own search table: its entries are for the same player as the tables keyed here
        # (negamax: the player to move at each node; expectiminimax: the root's player).
        tables[me if kind is expectiminimax else 0] = root_table
    label = ASSUME_PARANOID if kind is paranoid else ASSUME_MAXN if kind is maxn else ASSUME_OPEN
    # A depth counts plies from the root: each move's position is one ply down, so it is searched one ply
    # less (at the last ply, the game's evaluation of that position), as the root's own search saw it.
    depth = options.get("depth")
    if depth is not None:
        options = {**options, "depth": depth - 1}
    deadline = as_deadline(options.get("time_limit"))
    options = {**options, "time_limit": deadline}
    ranked: list[MoveValue[M]] = []
    moves = list(game.legal_moves(state))
    for number, move in enumerate(moves, start=1):
        if known is not None and move in known:
            ranked.append(known[move])
            continue
        child = game.apply(state, move)
        if game.is_terminal(child):
            ranked.append(MoveValue(move, game.returns(child)[me], 1, SOLVED, label))
            continue
        if deadline is not None and deadline.expired():
            ranked.append(MoveValue(move, None, None, NOT_RANKED, label))
            continue
        if on_move is not None:
            on_move(number, len(moves), move)
        if depth == 1:  # the horizon is the move's position: its evaluation, as the root's search used it
            ranked.append(MoveValue(move, game.evaluate(child)[me], None, HEURISTIC, label))  # type: ignore[attr-defined]
            continue
        if share:
            # Negamax scores are for the player to move at each node: one table serves every
            # search. Expectiminimax values are for the player to move at the searched root.
            mover = game.to_move(child)
            key = 0 if kind is not expectiminimax else mover if mover >= 0 else 0
            table = tables.get(key)
            if table is None:
                table = tables[key] = TranspositionTable(options.get("tt_size", 1 << 20))
            result = search(game, child, **{**options, "tt": table})
        else:
            result = search(game, child, **options)
        distance = None if result.distance is None else result.distance + 1
        ranked.append(MoveValue(move, result.value_for(me), distance, result.status, result.assumption,
                                result.nodes))
    # Among ties a known move (the root's best) goes first: the list then starts with the best move the
    # report names (a tie was listed in the game's order, the named best move second).
    return sorted(ranked, key=lambda mv: (_rank_key(mv), known is None or mv.move not in known))
