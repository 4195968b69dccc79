# mypy: disallow-untyped-decorators=False
"""STAKD's guidance for the compiled UCT: the reference's placement ordering and mobility evaluation over
packed states, behind :class:`~stratagem.core.packed_guide.Guide`.

The twin, key for key and value for value, of what guided MCTS uses on the reference engine
(:class:`~stratagem.models.stakd.rules.StakdGame`):

* :meth:`StakdGuide.keys` -- ``StakdGame.order_moves``: Bombers first, then Bases, then bigger pieces
  before smaller (Quad, Trio, Duo, Uni); within one kind a piece that starts a new layer before one on the
  current layer. One integer a move (the kind's rank, then the layer, higher first), ties to the legal
  order (the reference's stable sort);
* :meth:`StakdGuide.evaluate` -- ``StakdGame.evaluate``: each player's mobility (legal placements of
  their hand on the structure; 0 once out) against the others' mean, ``(m - others) / (m + others + 1)``,
  computed in the same order so that the floats are the same; solo, the fraction of pieces placed scaled
  to [-1, 1]; a finished round's returns. A player's placements are counted by the engine's own move
  generation (its ``legal`` on a copy of the state with that player to move), which lists exactly the
  reference's ``current_layer_moves`` and, where the rules allow them, ``new_layer_moves``;
* ``rollout_limit`` -1 and ``exploration`` 0: the game declares neither, so the guided search plays its
  random playouts to the end and takes the search's default constant, as ``uct(guided=True)`` does.

A move record's kind is read from the placement's index: the engine lists every placement kind by kind
(``BQTDUX``), each in the geometry's order, and the guide builds the same list from the game's geometry
(:meth:`StakdGuide.for_engine` checks that the counts agree). ``tests/models/stakd/test_guide.py`` holds
the keys and values equal to the reference's on random positions. This module is a kernel (compiled at
install, see ``setup.py``).
"""

from __future__ import annotations

from typing import Any

import cython
import numpy as np

if cython.compiled:
    from cython.cimports.stratagem.core.packed import PackedGame
    from cython.cimports.stratagem.core.packed_guide import Guide
else:
    from stratagem.core.packed import PackedGame
    from stratagem.core.packed_guide import Guide

#: The engine's state words (:mod:`.engine`'s layout).
_TO_MOVE = cython.declare(cython.Py_ssize_t, 0)
_OUT = cython.declare(cython.Py_ssize_t, 1)
_COUNT = cython.declare(cython.Py_ssize_t, 2)
_HANDS = cython.declare(cython.Py_ssize_t, 6)
#: A key's parts: the kind's rank (shifted above) and the layer (offset so that the key stays positive).
_RANK = cython.declare(cython.longlong, 1 << 32)
_OFFSET = cython.declare(cython.longlong, 1 << 31)
#: Each kind's place in the reference's order, by the engine's kind number (``BQTDUX``): Bombers, Bases,
#: Quads, Trios, Duos, Unis.
_ORDER = (1, 2, 3, 4, 5, 0)


@cython.cclass
class StakdGuide(Guide):  # type: ignore[misc]
    """The guidance over the packed states of a STAKD engine (``rank``: each placement's kind's place in
    the reference's order, by placement index)."""

    rank: cython.longlong[::1]
    scratch: cython.longlong[::1]
    moves: cython.longlong[:, ::1]
    mobility: cython.longlong[::1]

    def __init__(self, game: PackedGame, rank: Any) -> None:
        Guide.__init__(self, game, -1, 0.0)
        if len(rank) != game.max_moves or game.move_width != 2:
            raise ValueError("the engine's placements are not this STAKD game's")
        self.rank = np.ascontiguousarray(rank, dtype=np.int64)
        self.scratch = np.zeros(game.width, np.int64)
        self.moves = np.zeros((game.max_moves, game.move_width), np.int64)
        self.mobility = np.zeros(max(1, game.players), np.int64)

    @staticmethod
    def for_engine(engine: Any, rules: Any) -> StakdGuide:
        """The guide of ``engine`` (a :class:`~stratagem.models.stakd.engine.StakdEngine`) for the
        :class:`~stratagem.models.stakd.rules.StakdGame` ``rules``: the placements listed as the engine
        lists them."""
        from stratagem.models.stakd.pieces import KINDS

        rank = [_ORDER[k] for k, kind in enumerate(KINDS) for _ in rules.geometry.placements[kind]]
        if int(engine.players) != int(rules.num_players):
            raise ValueError("the engine's players are not this STAKD game's")
        return StakdGuide(engine, rank)

    # -- the guide -------------------------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def evaluate(self, state: cython.longlong[::1], out: cython.double[::1]) -> cython.int:
        n: cython.Py_ssize_t = self.game.players
        everyone: cython.longlong = (cython.cast(cython.longlong, 1) << n) - 1
        ret: cython.longlong[::1]
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        k: cython.Py_ssize_t
        left: cython.longlong
        total: cython.longlong
        m: cython.longlong
        others: cython.double
        if state[_OUT] == everyone:  # the reference's returns
            ret = self.mobility
            self.game.terminal(state, ret)
            for p in range(n):
                out[p] = cython.cast(cython.double, ret[p])
            return 1
        if n == 1:
            left = 0
            for k in range(6):
                left += (state[_HANDS] >> (8 * k)) & 255
            total = left + state[_COUNT]
            if total:
                out[0] = 2.0 * cython.cast(cython.double, total - left) / cython.cast(cython.double, total) - 1.0
            else:
                out[0] = 1.0
            return 1
        for i in range(self.game.width):
            self.scratch[i] = state[i]
        total = 0
        for p in range(n):  # legal() counts 0 for a player who is out
            self.scratch[_TO_MOVE] = p
            self.mobility[p] = self.game.legal(self.scratch, self.moves)
            total += self.mobility[p]
        for p in range(n):
            m = self.mobility[p]
            others = cython.cast(cython.double, total - m) / cython.cast(cython.double, n - 1)
            out[p] = (cython.cast(cython.double, m) - others) / (cython.cast(cython.double, m) + others + 1.0)
        return 1

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def keys(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1], count: cython.Py_ssize_t,
             out: cython.longlong[::1]) -> cython.int:
        i: cython.Py_ssize_t
        for i in range(count):
            out[i] = self.rank[moves[i, 0]] * _RANK + _OFFSET - moves[i, 1]
        return 1


__all__ = ["StakdGuide"]
