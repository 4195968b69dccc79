"""A compiled engine's guidance for sampling searches: the game's move ordering and evaluation, in C.

Guided UCT on the reference engine (:func:`stratagem.solvers.mcts.uct`, ``guided=True``) expands a
node's moves in the game's :meth:`~stratagem.core.game.MoveOrdering.order_moves` order with progressive
widening, and values a new leaf by the game's :meth:`~stratagem.core.game.Evaluation.evaluate` once a
playout reaches the game's declared ``rollout_limit`` (Card Clash: 0, the evaluation alone). A
:class:`Guide` carries the same three things for the game's compiled engine, so that the compiled UCT
(:mod:`stratagem.solvers.packed_uct`) can be guided without knowing the game:

* :meth:`keys` -- the ordering, as :class:`~stratagem.core.packed_order.MoveOrder`'s keys (lower first,
  equal keys in the legal order: the stable sort the reference ordering is);
* :meth:`evaluate` -- each player's value of a packed state, as ``evaluate`` returns it;
* ``rollout_limit`` -- the playout length before the evaluation takes over (-1: none declared);
* ``exploration`` -- the UCB exploration constant that suits the evaluation's scale (0: none declared,
  the search's default then): UCB1's ``sqrt(2)`` is for rewards that span [0, 1], and an evaluation whose
  values differ by a few hundredths is drowned by it once a node has thousands of visits.

A game hands its guide over through its reference game object: ``game.compiled_guide(engine)`` returns
a :class:`Guide` subclass for that compiled engine, or None (a capability as ``order_moves`` is one; a
search that finds none runs unguided). A guide changes how a search samples, never a proven value.

Why a class beside the engine and not methods of :class:`~stratagem.core.packed.PackedGame`: as for
:class:`MoveOrder`, adding C methods there would change the C interface every engine and search is built
against. This module is a kernel (compiled at install, see ``setup.py``); ``packed_guide.pxd`` declares it.
"""

from __future__ import annotations

from typing import Any

import cython

if cython.compiled:
    from cython.cimports.stratagem.core.packed import PackedGame
    from cython.cimports.stratagem.core.packed_order import MoveOrder
else:
    from stratagem.core.packed import PackedGame
    from stratagem.core.packed_order import MoveOrder


@cython.cclass
class Guide(MoveOrder):  # type: ignore[misc]
    """The guidance of one engine (``game``); subclasses override :meth:`keys` and :meth:`evaluate`."""

    def __init__(self, game: PackedGame, rollout_limit: int = -1, exploration: float = 0.0) -> None:
        MoveOrder.__init__(self, game)
        self.rollout_limit = rollout_limit
        self.exploration = exploration

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def evaluate(self, state: cython.longlong[::1], out: cython.double[::1]) -> cython.int:
        """Write each player's value of the non-terminal ``state`` into ``out``; return 1, or 0 when the
        game has no evaluation here (``out`` then unused)."""
        return 0

    def values(self, vector: Any) -> tuple[float, ...] | None:
        """:meth:`evaluate` of a packed state (for tests): the values, or None for no evaluation."""
        import numpy as np

        state = np.ascontiguousarray(vector, dtype=np.int64)
        out = np.zeros(int(self.game.players), np.float64)
        if not self.evaluate(state, out):
            return None
        return tuple(float(v) for v in out)


__all__ = ["Guide"]
