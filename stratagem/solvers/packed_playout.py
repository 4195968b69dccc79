"""What the Monte Carlo searches over a compiled engine share: their random stream and their playouts, in C.

The three sampling searches on a game's packed states -- UCT with MCTS-Solver (:mod:`.packed_uct`), decoupled
UCT (:mod:`.packed_duct`) and SO-ISMCTS and PIMC's playouts (:mod:`.packed_ismcts`) -- each keep the game,
one random stream, scratch buffers for a playout and the same playout rules. :class:`PlayoutSearch` is that
state and the code that is the same in all of them; each search subclasses it and keeps its own tree,
selection and backups.

* **Randomness** (:meth:`PlayoutSearch._next`, :meth:`PlayoutSearch._below`,
  :meth:`PlayoutSearch._uniform`): one splitmix64 stream seeded by ``seed``, the same compiled or
  interpreted (a draw below ``n`` is the next 64-bit output modulo ``n``; a draw in [0, 1) its top 53 bits).
* **Playouts** (:meth:`PlayoutSearch._rollout`): uniformly random moves to the end (chance outcomes by their
  integer weights, :meth:`PlayoutSearch._draw_outcome`; at a simultaneous node every player's own move at
  random, :meth:`PlayoutSearch._random_joint`), cut after ``limit`` plies (negative: never) and scored by the
  guide's evaluation where there is a guide, else the game's ``evaluate`` where the engine's
  :class:`~stratagem.solvers.induction_kernel.SimultaneousPacked` has one, else the middle of the value range
  -- or, for a search that ``play_on`` (DUCT, as its Python reference), played on to the end.
* **Storage** (:func:`regrow`, Python-level): each search's flat tree is arrays in one dict, grown by
  doubling between iterations, the tree so far copied over.
* **Errors**: a state the search cannot handle raises the search's own exception class (``stopped``: each
  module's ``UctStopped``, ``DuctStopped``, ``SearchStopped``), a simultaneous node without the engine's
  player moves with the search's own message (``refusal``).

Why a base class in its own kernel and not one copy per search: the copies differed only in which cut-off
score they took and in their exception classes; a ``cdef`` class declared in ``packed_playout.pxd`` is
subclassed by each search's own ``cclass``, and its C methods are called through the same virtual table as
the searches' own (the searches' speed was measured the same within the noise, stop 70). This module is a
kernel (compiled at install, see ``setup.py``) and knows no game.
"""

from __future__ import annotations

from typing import Any

import cython
import numpy as np

if cython.compiled:
    from cython.cimports.stratagem.core.packed import CHANCE, SIMULTANEOUS, PackedGame
    from cython.cimports.stratagem.core.packed_guide import Guide
    from cython.cimports.stratagem.solvers.induction_kernel import SimultaneousPacked
else:
    from stratagem.core.packed import CHANCE, SIMULTANEOUS, PackedGame
    from stratagem.core.packed_guide import Guide
    from stratagem.solvers.induction_kernel import SimultaneousPacked

#: splitmix64's constants, and the mask that keeps interpreted arithmetic to 64 bits as C's is.
_GOLDEN = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)
_MIX1 = cython.declare(cython.ulonglong, 0xBF58476D1CE4E5B9)
_MIX2 = cython.declare(cython.ulonglong, 0x94D049BB133111EB)
_MASK = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)


def regrow(arrays: dict[str, Any], shapes: dict[str, tuple[int, ...]], cap: int, kept: int,
           floats: tuple[str, ...] = ()) -> None:
    """Each array of ``arrays`` named in ``shapes`` made anew with ``cap`` rows (each row of the shape given;
    float64 if named in ``floats``, else int64, zeroed), its first ``kept`` rows copied from the one it
    replaces where there was one: a search's flat tree grown by doubling, the tree so far kept."""
    for name, tail in shapes.items():
        array = np.zeros((cap, *tail), np.float64 if name in floats else np.int64)
        if name in arrays:
            array[:kept] = arrays[name]
        arrays[name] = array


@cython.cclass
class PlayoutSearch:
    """The state every Monte Carlo search over ``game`` keeps -- the random stream, a playout's scratch, the
    engine's player moves (``sp``) and guide where given -- and the C methods they share (the module
    docstring). ``words`` has room for one player's own moves (``sp.max_player_moves``)."""

    game: PackedGame
    sp: SimultaneousPacked
    has_sp: cython.bint
    guide: Guide
    has_guide: cython.bint
    width: cython.Py_ssize_t
    move_width: cython.Py_ssize_t
    players: cython.Py_ssize_t
    rng: cython.ulonglong
    limit: cython.Py_ssize_t
    middle: cython.double
    play_on: cython.bint
    stopped: Any
    refusal: Any
    roll: cython.longlong[:, ::1]
    mbuf: cython.longlong[:, ::1]
    wbuf: cython.longlong[::1]
    rbuf: cython.longlong[::1]
    words: cython.longlong[::1]
    choice: cython.longlong[::1]
    joint: cython.longlong[::1]
    value: cython.double[::1]

    def __init__(self, game: PackedGame, sp: Any, seed: int, limit: int, middle: float, guide: Guide | None,
                 play_on: bool, stopped: type[Exception], refusal: str) -> None:
        self.game = game
        self.sp = sp
        self.has_sp = sp is not None
        self.guide = guide
        self.has_guide = guide is not None
        self.width = game.width
        self.move_width = game.move_width
        self.players = game.players
        self.rng = seed & 0xFFFFFFFFFFFFFFFF
        self.limit = limit
        self.middle = middle
        self.play_on = play_on
        self.stopped = stopped
        self.refusal = refusal
        room = sp.max_player_moves if sp is not None else 1
        self.roll = np.zeros((2, self.width), np.int64)
        self.mbuf = np.zeros((game.max_moves, self.move_width), np.int64)
        self.wbuf = np.zeros(game.max_moves, np.int64)
        self.rbuf = np.zeros(self.players, np.int64)
        self.words = np.zeros(max(room, 1), np.int64)
        self.choice = np.zeros(self.players, np.int64)
        self.joint = np.zeros(self.move_width, np.int64)
        self.value = np.zeros(self.players, np.float64)

    # -- the random stream ------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(check=False)
    def _next(self) -> cython.ulonglong:
        """The next 64-bit splitmix64 output."""
        z: cython.ulonglong
        self.rng = (self.rng + _GOLDEN) & _MASK
        z = self.rng
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _below(self, n: cython.longlong) -> cython.longlong:
        """A draw in ``0 .. n - 1``: the next output modulo ``n``. Raises for ``n <= 0`` (a draw is never
        -1, so the error reaches the caller: with no exception value, a C function's error would be printed
        and lost, the search going on with a wrong draw)."""
        z: cython.ulonglong
        if n <= 0:
            raise self.stopped(f"a draw below {n}: no outcome to draw (weights that are not positive?)")
        self.rng = (self.rng + _GOLDEN) & _MASK  # _next's steps, written out: the draw the playouts make most
        z = self.rng
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        z = z ^ (z >> 31)
        return cython.cast(cython.longlong, z % cython.cast(cython.ulonglong, n))

    @cython.cfunc
    @cython.exceptval(check=False)
    def _uniform(self) -> cython.double:
        """A draw in [0, 1): the next output's top 53 bits."""
        return cython.cast(cython.double, self._next() >> 11) * (1.0 / 9007199254740992.0)

    # -- playouts ---------------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _draw_outcome(self, state: cython.longlong[::1]) -> cython.Py_ssize_t:
        """List the chance outcomes of ``state`` into ``mbuf`` and draw one by its weight."""
        count: cython.Py_ssize_t = self.game.chance(state, self.mbuf, self.wbuf)
        i: cython.Py_ssize_t
        total: cython.longlong = 0
        ticket: cython.longlong
        if count <= 0:
            raise self.stopped("a chance node lists no outcomes")
        for i in range(count):
            if self.wbuf[i] <= 0:
                raise self.stopped("a chance outcome with a weight that is not positive")
            total += self.wbuf[i]
        ticket = self._below(total)
        for i in range(count):
            ticket -= self.wbuf[i]
            if ticket < 0:
                return i
        return count - 1  # pragma: no cover

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _random_joint(self, state: cython.longlong[::1]) -> cython.int:
        """``joint`` := the record of every player's uniformly random own move at a simultaneous ``state``."""
        p: cython.Py_ssize_t
        count: cython.Py_ssize_t
        if not self.has_sp:
            raise self.stopped(self.refusal)
        for p in range(self.players):
            count = self.sp.player_moves(state, p, self.words)
            if count <= 0:
                raise self.stopped(f"player {p} has no move at a simultaneous node")
            self.choice[p] = self.words[self._below(count)]
        self.sp.joint(self.choice, self.joint)
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _rollout(self, start: cython.longlong[::1]) -> cython.int:
        """``value`` := the returns at the end of a random playout from ``start``, or at the cut-off after
        ``limit`` plies the guide's evaluation, else the game's, else the middle of the range (a search that
        ``play_on`` plays on without an evaluation)."""
        game: PackedGame = self.game
        x: cython.Py_ssize_t
        p: cython.Py_ssize_t
        cur: cython.Py_ssize_t = 0
        plies: cython.Py_ssize_t = 0
        count: cython.Py_ssize_t
        mover: cython.Py_ssize_t
        pick: cython.Py_ssize_t
        for x in range(self.width):
            self.roll[0, x] = start[x]
        while True:
            if game.terminal(self.roll[cur], self.rbuf):
                for p in range(self.players):
                    self.value[p] = cython.cast(cython.double, self.rbuf[p])
                return 0
            if self.limit >= 0 and plies >= self.limit:
                if self.has_guide and self.guide.evaluate(self.roll[cur], self.value):
                    return 0
                if self.has_sp and self.sp.evaluate(self.roll[cur], self.rbuf):
                    for p in range(self.players):
                        self.value[p] = cython.cast(cython.double, self.rbuf[p])
                    return 0
                if not self.play_on:
                    for p in range(self.players):
                        self.value[p] = self.middle
                    return 0
            mover = game.to_move(self.roll[cur])
            if mover == SIMULTANEOUS:
                self._random_joint(self.roll[cur])
                game.apply(self.roll[cur], self.joint, self.roll[1 - cur])
            else:
                if mover == CHANCE:
                    pick = self._draw_outcome(self.roll[cur])
                else:
                    count = game.legal(self.roll[cur], self.mbuf)
                    if count <= 0:
                        raise self.stopped(f"player {mover} has no legal move in a non-terminal state")
                    pick = self._below(count)
                game.apply(self.roll[cur], self.mbuf[pick], self.roll[1 - cur])
            cur = 1 - cur
            plies += 1


__all__ = ["PlayoutSearch", "regrow"]
