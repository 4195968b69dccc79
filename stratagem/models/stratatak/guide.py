# mypy: disallow-untyped-decorators=False
"""Stratatak's guidance for the compiled UCT: the reference's play ordering and evaluation over packed
states, behind :class:`~stratagem.core.packed_guide.Guide`.

The twin, key for key and value for value, of what guided MCTS uses on the reference engine
(:class:`~stratagem.models.stratatak.rules.StratatakGame`):

* :meth:`StratatakGuide.keys` -- :meth:`~stratagem.models.stratatak.rules.StratatakGame.order_moves`.
  Attacks are the engine's own ordering (:class:`~stratagem.models.stratatak.engine.StratatakOrder`, which
  the compiled alpha-beta searches use too: attacks the Defender cannot beat with any play from hand first,
  emptying the hand first, the weakest first; then the others, more cards before fewer). Defences, which
  that ordering leaves in the legal order, are keyed here as the reference's ``defence_key``: plays that
  win the battle and empty the hand, then the other battle-winning plays, then the rest, more cards before
  fewer within each. One integer a play, ties to the legal order (the reference's stable sort);
* :meth:`StratatakGuide.evaluate` -- ``StratatakGame.evaluate``: the hand size difference scaled into
  (-0.5, 0.5), ``0.5 * (b - a) / (a + b + 1)`` for player 1 (``a`` and ``b`` the two hands' sizes),
  computed in the same order so that the floats are the same; a finished game's returns;
* ``rollout_limit`` -1 and ``exploration`` 0: the game declares neither, so the guided search plays its
  random playouts to the end and takes the search's default constant, as ``uct(guided=True)`` does.

Why the defences are keyed here and not by the engine's ordering: the compiled alpha-beta searches were
measured to do better without a defence hint (their history heuristic orders defences better;
:class:`~stratagem.models.stratatak.engine.StratatakOrder` gives the figures), while guided UCT expands a
node's plays in the reference's order with progressive widening, which needs the whole ordering. The
searches take the engine's ordering first (:func:`~stratagem.core.packed_order.order_for`), so this guide
changes no alpha-beta search. A battle's Fighter totals and Strataclash are the engine's, repeated here
because a C function of another kernel is reachable only through a ``.pxd`` the engine does not have;
the layout offsets are recomputed from the game's options and checked against the engine's width.
``tests/models/stratatak/test_guide.py`` holds the keys and values equal to the reference's on random
positions. This module is a kernel (compiled at install, see ``setup.py``).
"""

from __future__ import annotations

from typing import Any

import cython

if cython.compiled:
    from cython.cimports.stratagem.core.packed import PackedGame
    from cython.cimports.stratagem.core.packed_guide import Guide
    from cython.cimports.stratagem.core.packed_order import MoveOrder
else:
    from stratagem.core.packed import PackedGame
    from stratagem.core.packed_guide import Guide
    from stratagem.core.packed_order import MoveOrder

#: The engine's phases (:mod:`.engine`'s layout).
_ATTACK = cython.declare(cython.longlong, 0)
_DEFEND = cython.declare(cython.longlong, 1)
_OVER = cython.declare(cython.longlong, 3)
_STOPPED = cython.declare(cython.longlong, 4)
#: A play's colour composition when it has several colours, or none (Stars only).
_MIXED = cython.declare(cython.longlong, 3)
#: A key's parts: the bucket (shifted above) and the rank within it (offset so that it stays positive).
_RANK = cython.declare(cython.longlong, 1 << 32)
_OFFSET = cython.declare(cython.longlong, 1 << 31)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _attack_wins(a: cython.longlong, ac: cython.longlong, d: cython.longlong, dc: cython.longlong) -> cython.bint:
    """The reference's ``battle_winner``: the higher Fighter total (``a`` attacking, ``d`` defending), else
    the Strataclash of the compositions ``ac`` and ``dc`` (a colour 0..2, or :data:`_MIXED`)."""
    if a != d:
        return a > d
    if ac == _MIXED:
        return False
    if dc == _MIXED:
        return True
    if ac == dc:
        return False
    return (ac + 1) % 3 == dc  # Blue beats Red, Red beats Green, Green beats Blue


@cython.cclass
class StratatakGuide(Guide):  # type: ignore[misc]
    """The guidance over the packed states of a Stratatak engine whose deck has counts 1..``max_count``
    in three colours, ``copies`` of each, and ``stars`` Stars; the layout is :mod:`.engine`'s."""

    order: MoveOrder
    m: cython.Py_ssize_t
    star: cython.longlong
    o_table: cython.Py_ssize_t
    o_sizes: cython.Py_ssize_t
    o_attacker: cython.Py_ssize_t
    o_phase: cython.Py_ssize_t
    o_winner: cython.Py_ssize_t

    def __init__(self, game: PackedGame, order: MoveOrder, max_count: int, copies: int, stars: int) -> None:
        Guide.__init__(self, game, -1, 0.0)
        m = int(max_count)
        k = 3 * m + 1
        deck_size = 3 * m * int(copies) + int(stars)
        o_sizes = 5 * k + 1 + deck_size  # the hands, unknown pile, discards, table, then the known pile
        if game.width != o_sizes + 9:
            raise ValueError("the engine's states are not a Stratatak game's of these options")
        self.order = order
        self.m = m
        self.star = 3 * m
        self.o_table = 4 * k
        self.o_sizes = o_sizes
        self.o_attacker = o_sizes + 5
        self.o_phase = o_sizes + 6
        self.o_winner = o_sizes + 7

    @staticmethod
    def for_engine(engine: Any, rules: Any) -> StratatakGuide:
        """The guide of ``engine`` (a :class:`~stratagem.models.stratatak.engine.StratatakEngine`) for the
        :class:`~stratagem.models.stratatak.rules.StratatakGame` ``rules``."""
        options = rules.options
        return StratatakGuide(engine, engine.move_order(), int(options.max_count), int(options.copies),
                              int(options.stars))

    # -- a battle ------------------------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(check=False)
    def _table_fighters(self, state: cython.longlong[::1]) -> cython.longlong:
        """The attack's Fighter total (the table's counts; Stars count 0)."""
        t: cython.Py_ssize_t
        total: cython.longlong = 0
        for t in range(3 * self.m):
            total += state[self.o_table + t] * (t % self.m + 1)
        return total

    @cython.cfunc
    @cython.exceptval(check=False)
    def _table_composition(self, state: cython.longlong[::1]) -> cython.longlong:
        """The attack's single colour, or :data:`_MIXED` (Stars are colourless; only Stars: mixed)."""
        t: cython.Py_ssize_t
        found: cython.longlong = -1
        for t in range(3 * self.m):
            if state[self.o_table + t] > 0:
                if found < 0:
                    found = t // self.m
                elif found != t // self.m:
                    return _MIXED
        return _MIXED if found < 0 else found

    # -- the guide -------------------------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def evaluate(self, state: cython.longlong[::1], out: cython.double[::1]) -> cython.int:
        phase: cython.longlong = state[self.o_phase]
        a: cython.longlong
        b: cython.longlong
        value: cython.double
        if phase == _OVER:  # the reference's returns
            out[0] = 1.0 if state[self.o_winner] == 0 else -1.0
            out[1] = -out[0]
            return 1
        if phase == _STOPPED:
            out[0] = 0.0
            out[1] = 0.0
            return 1
        a = state[self.o_sizes]
        b = state[self.o_sizes + 1]
        value = 0.5 * cython.cast(cython.double, b - a) / cython.cast(cython.double, a + b + 1)
        out[0] = value
        out[1] = -value
        return 1

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def keys(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1], count: cython.Py_ssize_t,
             out: cython.longlong[::1]) -> cython.int:
        phase: cython.longlong = state[self.o_phase]
        hand: cython.longlong
        a: cython.longlong
        ac: cython.longlong
        d: cython.longlong
        dc: cython.longlong
        t: cython.longlong
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        wins: cython.bint
        empties: cython.bint
        bucket: cython.longlong
        if phase == _ATTACK:
            return self.order.keys(state, moves, count, out)
        if phase != _DEFEND:
            return 0
        hand = state[self.o_sizes + 1 - state[self.o_attacker]]
        a = self._table_fighters(state)
        ac = self._table_composition(state)
        for i in range(count):
            d = 0
            dc = -1
            for j in range(moves[i, 1]):
                t = moves[i, 2 + j]
                if t != self.star:
                    d += t % self.m + 1
                    if dc < 0:
                        dc = t // self.m
                    elif dc != t // self.m:
                        dc = _MIXED
            if dc < 0:
                dc = _MIXED
            wins = not _attack_wins(a, ac, d, dc)
            empties = moves[i, 1] == hand
            if wins and empties:
                bucket = 0
            elif wins:
                bucket = 1
            else:
                bucket = 2
            out[i] = bucket * _RANK + _OFFSET - moves[i, 1]
        return 1


__all__ = ["StratatakGuide"]
