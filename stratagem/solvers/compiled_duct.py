"""Decoupled UCT on a game's compiled engine, reported in the reference engine's terms.

:func:`duct_compiled` runs :func:`stratagem.solvers.packed_duct.run_duct` (DUCT in C over the engine's
packed states) from the reference ``state`` encoded by the engine, and returns the same
:class:`~stratagem.solvers.duct.DuctResult` as :func:`stratagem.solvers.duct.duct`: each player's moves
as the reference engine lists them (``player_moves`` at a simultaneous root, ``legal_moves`` at a
decision root), with visits, the visit frequencies and mean returns. A simultaneous root's moves are
matched to the engine's one by one in the reference's order (the engine lists them in that order; a
count or a value that differs is refused, not guessed).

The random stream is the kernel's own (splitmix64), not Python's ``random.Random``: the two searches
agree in distribution, not draw for draw. No game is imported here; the caller hands over the engine.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.errors import UnsupportedGame
from stratagem.core.game import SIMULTANEOUS, Game
from stratagem.core.packed import PackedGame
from stratagem.solvers.ductresult import DuctResult, check_arguments

__all__ = ["duct_compiled", "simultaneous_part"]


def simultaneous_part(engine: PackedGame) -> Any:
    """The engine's :class:`~stratagem.solvers.induction_kernel.SimultaneousPacked` (each player's own moves
    at a simultaneous state), or None when it has none."""
    maker = getattr(engine, "simultaneous", None)
    return maker() if callable(maker) else None


def duct_compiled(game: Game[Any, Any], engine: PackedGame, state: Hashable, *, iterations: int = 1000,
                  seed: int = 0, selection: str = "ucb1", exploration: float = 1.4, gamma: float = 0.1,
                  rollout_limit: int | None = None, reward_range: tuple[float, float] | None = None,
                  time_limit: float | Deadline | None = None) -> DuctResult:
    """DUCT from the reference ``state`` of ``game``, searched on ``engine`` (the same game's compiled
    engine). Options as :func:`stratagem.solvers.duct.duct`'s.

    Raises ``ValueError`` for bad options or a terminal or chance root (as :func:`~stratagem.solvers.duct.duct`)
    and :class:`~stratagem.core.errors.UnsupportedGame` where the engine cannot serve the search.
    """
    from stratagem.solvers.packed_duct import DuctStopped, run_duct

    check_arguments(game, state, selection, iterations)
    seconds = time_limit.remaining() if isinstance(time_limit, Deadline) else time_limit
    vector = engine.encode(state)
    try:
        found = run_duct(engine, vector, simultaneous=simultaneous_part(engine), iterations=iterations,
                         time_limit=seconds, seed=seed, selection=selection, exploration=exploration, gamma=gamma,
                         rollout_limit=rollout_limit, reward_range=reward_range)
    except DuctStopped as exc:
        raise UnsupportedGame(str(exc)) from None
    done = found["iterations"]
    kind = game.to_move(state)
    n = game.num_players
    moves: list[tuple[Any, ...]] = [() for _ in range(n)]
    visits: list[tuple[int, ...]] = [() for _ in range(n)]
    strategy: list[tuple[float, ...]] = [() for _ in range(n)]
    values: list[tuple[float, ...]] = [() for _ in range(n)]
    for p in range(n):
        records, counts, totals = found["players"][p]
        if records is None:
            continue
        if kind == SIMULTANEOUS:
            own = list(game.player_moves(state, p))  # type: ignore[attr-defined]
            order = _matched(own, [int(w) for w in records])
        else:
            own = list(game.legal_moves(state))
            where = {engine.decode_move(vector, record): i for i, record in enumerate(records)}
            if len(where) != len(records) or set(where) != set(own):
                raise UnsupportedGame("the compiled engine's moves are not the reference engine's, one for one")
            order = [where[m] for m in own]
        moves[p] = tuple(own)
        visits[p] = tuple(int(counts[i]) for i in order)
        strategy[p] = tuple(int(counts[i]) / done for i in order)
        values[p] = tuple(float(totals[i]) / int(counts[i]) if counts[i] else 0.0 for i in order)
    return DuctResult(moves=tuple(moves), visits=tuple(visits), strategy=tuple(strategy), move_values=tuple(values),
                      values=tuple(float(t) / done for t in found["totals"]), iterations=int(done))


def _matched(own: list[Any], words: list[int]) -> list[int]:
    """The engine's index of each of the reference's own moves at a simultaneous node (the same order;
    where the reference's moves are integers they must be the engine's words)."""
    if len(own) != len(words):
        raise UnsupportedGame(f"the compiled engine lists {len(words)} moves for a player where the reference "
                              f"engine lists {len(own)}")
    for move, word in zip(own, words, strict=True):
        if isinstance(move, int) and not isinstance(move, bool) and move != word:
            raise UnsupportedGame("the compiled engine's moves at a simultaneous node are not the reference's")
    return list(range(len(own)))
