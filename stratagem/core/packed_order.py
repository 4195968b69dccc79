"""A compiled engine's move-ordering hint: the game's ``order_moves`` over packed states, in C.

The reference searches order the moves of a decision node by the game's
:meth:`~stratagem.core.game.MoveOrdering.order_moves` (a win or a forced reply first, the likely
refutations next); on a compiled engine the searches see only the legal order, and on the shipped endgames
that costs them up to three times the nodes (results/search-efficiency.md). A game that has an ordering
gives its compiled engine a ``move_order()`` method returning a :class:`MoveOrder`, whose :meth:`keys`
writes one integer per legal move; the compiled searches (alpha-beta, expectiminimax, paranoid) try the
moves by ascending key, ties in the legal order -- the same stable sort the reference ordering is -- after
the table's move. A hint orders moves and nothing else: values and distances never depend on it.

Why an object beside the engine and not a method of :class:`~stratagem.core.packed.PackedGame`: adding a
C method to that class changes the C interface every compiled engine and search is built against, so each
would have to be rebuilt at once; an engine without an ordering simply has no ``move_order``. This module
is a kernel (compiled at install, see ``setup.py``); ``packed_order.pxd`` declares the C method.
"""

from __future__ import annotations

from typing import Any

import cython

if cython.compiled:
    from cython.cimports.stratagem.core.packed import PackedGame
else:
    from stratagem.core.packed import PackedGame


@cython.cclass
class MoveOrder:
    """The ordering of one engine (``game``); subclasses override :meth:`keys`."""

    def __init__(self, game: PackedGame) -> None:
        self.game = game

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def keys(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1], count: cython.Py_ssize_t,
             out: cython.longlong[::1]) -> cython.int:
        """Write a sort key for each of the ``count`` legal moves of the decision ``state`` (the rows of
        ``moves``, in the engine's legal order) into ``out``: lower keys are tried first, equal keys in the
        legal order. Return 1, or 0 to leave this state in the legal order (``out`` then unused)."""
        return 0

    def move_keys(self, vector: object, moves: object) -> list[int] | None:
        """:meth:`keys` of a packed state and its move records (for tests): the keys, or None for no hint."""
        import numpy as np

        state = np.ascontiguousarray(vector, dtype=np.int64)
        records = np.ascontiguousarray(moves, dtype=np.int64).reshape(-1, int(self.game.move_width))
        out = np.zeros(max(1, records.shape[0]), np.int64)
        if not self.keys(state, records, records.shape[0], out):
            return None
        return [int(k) for k in out[: records.shape[0]]]


def order_for(game: Any, engine: Any) -> Any:
    """The ordering a compiled search of ``engine`` uses: the engine's own (``engine.move_order()``), else
    the one the reference ``game`` hands over with its guidance for the compiled searches
    (``game.compiled_guide(engine)``, when that is a :class:`MoveOrder`), else None (the legal order)."""
    own = getattr(engine, "move_order", None)
    if own is not None:
        return own()
    guide = getattr(game, "compiled_guide", None)
    found = guide(engine) if guide is not None else None
    return found if isinstance(found, MoveOrder) else None


__all__ = ["MoveOrder", "order_for"]
