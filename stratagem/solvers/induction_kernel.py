# cython: infer_types=True
"""The backward induction of :mod:`~stratagem.solvers.simultaneous` walked over a compiled engine.

A Cython kernel in pure-Python mode. :class:`PackedInduction` is :class:`~stratagem.solvers.simultaneous.
Walker` + ``_Inductor`` again, over packed states: the same positions valued in the same order, the same
memo and scratch (and the same point where the scratch is emptied), the same count of positions valued
for ``max_nodes`` and the clock read every 8 of them, the same forced nodes, and for every simultaneous
node the same matrix of exact values handed to the same :func:`~stratagem.solvers.matrix.solve_matrix`.
So the result, and the certificate :mod:`~stratagem.solvers.matrixproof` writes from it, are those of the
walk over the rules engine; ``verify`` still checks the certificate with the rules engine alone.

What is compiled: the walk itself (terminals, decisions inside a turn, banking, the memo keys: the game's
``pack`` and the turns left, as bytes; applying joint moves and building each matrix's cells). A pure saddle
point of an integer game is found on the walk's integer cells (``solve_matrix``'s first step, giving its
very solution through :func:`~stratagem.solvers.matrix.saddle_solution`), and so is a 2x2 integer game's
closed form (:func:`~stratagem.solvers.matrix.two_by_two_solution`). What stays Python: every other
matrix game's LP and its exact certificate (``solve_matrix``), exact sums at chance nodes,
and the decoding of a solved node's position into the reference engine's state (the result names its
nodes by those states), done only for the nodes asked for (the certificate's, the report's).

**Values in the walk** are 64-bit codes: an integer ``v`` with ``|v| < 2**60`` stands for itself; a code
``2**60 + i`` for the ``i``-th exact value (a ``Fraction`` that is not whole, or a huge integer) in a table
kept beside a ``double`` approximation of it. A decision node compares codes: two integers directly, else
by their approximations when they differ by more than 1e-9 relative, else exactly with the Fractions
(so every comparison is exact, and Fractions are touched only near ties).

**What a game adds** (:class:`SimultaneousPacked`, subclassed by the game's engine module, as the rules
engine adds ``player_moves``, ``bank`` and ``evaluate`` to the Game protocol): each player's moves at a
SIMULTANEOUS state (one integer each), the joint move record of one move per player, the position with
nothing banked and what was banked (``bank``, False when the game banks nothing there), and an evaluation
for depth-limited runs; and bounds on the moves at a state and the plies of a line (the walk keeps one
scratch area per ply). A game whose lines have no known bound is refused.

The module knows nothing about any particular game.

Why one module of over 600 lines: it is one class, the induction's walk mirrored step for step from
:mod:`~stratagem.solvers.simultaneous`; the class and the C-level methods it calls are one extension module:
split, each call between them would need a ``.pxd`` declaration and cross modules inside the loop the kernel
exists for.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import cython
import numpy as np

if cython.compiled:
    from cython.cimports.cpython.bytes import PyBytes_FromStringAndSize
    from cython.cimports.stratagem.core.packed import CHANCE, SIMULTANEOUS, PackedGame
else:
    from stratagem.core.packed import CHANCE, SIMULTANEOUS, PackedGame

#: Codes from here up name an exact value in the table (see the module docstring).
REF = cython.declare(cython.longlong, 1 << 60)
#: Integers below this size in magnitude are added without leaving 64 bits.
SAFE = cython.declare(cython.longlong, 1 << 58)

@cython.cclass
class SimultaneousPacked:
    """What the compiled induction needs from a game beyond :class:`~stratagem.core.packed.PackedGame`.

    ``game`` is the engine; ``max_player_moves`` bounds one player's moves at a simultaneous state and
    ``max_decisions`` the moves (or chance outcomes) at any other state; every line of play ends within
    ``max_plies`` plies (0: no bound is known, and the walk refuses the game). Subclasses override the
    methods.
    """

    def __init__(self, game: PackedGame, max_player_moves: int, max_decisions: int, max_plies: int) -> None:
        self.game = game
        self.max_player_moves = max_player_moves
        self.max_decisions = max_decisions
        self.max_plies = max_plies

    def induction(self, player: int, payoff: str, deadline: Any, max_nodes: int | None, scratch_limit: int,
                  clock_every: int) -> PackedInduction:
        """The walk :func:`~stratagem.solvers.simultaneous.solve_simultaneous` runs over this engine (asked of
        the engine, so that the induction's module, which ``verify`` reaches, imports no compiled code)."""
        return PackedInduction(self, player, payoff, deadline, max_nodes, scratch_limit, clock_every)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def player_moves(self, state: cython.longlong[::1], player: cython.Py_ssize_t,
                     out: cython.longlong[::1]) -> cython.Py_ssize_t:
        """Write ``player``'s moves at a simultaneous ``state`` into ``out`` (the reference's order); how many."""
        raise NotImplementedError(f"{type(self).__name__} does not define player_moves")

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def joint(self, choice: cython.longlong[::1], record: cython.longlong[::1]) -> cython.int:
        """Write the joint move record of ``choice`` (one move per player, in player order)."""
        raise NotImplementedError(f"{type(self).__name__} does not define joint")

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def bank(self, state: cython.longlong[::1], rest: cython.longlong[::1],
             banked: cython.longlong[::1]) -> cython.bint:
        """The reference's ``bank``: True with the position without what is banked in ``rest`` and each
        player's banked return in ``banked``; False when nothing is banked (or the game banks nothing)."""
        return False

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def evaluate(self, state: cython.longlong[::1], values: cython.longlong[::1]) -> cython.bint:
        """The reference's ``evaluate`` as integers into ``values``; False when the game has none."""
        return False


@cython.cclass
class PackedInduction:
    """One run of the induction for ``player`` (see the module docstring); :meth:`run` values a position."""

    sp: SimultaneousPacked
    game: PackedGame
    n: cython.Py_ssize_t
    player: cython.Py_ssize_t
    margin: cython.bint
    width: cython.Py_ssize_t
    plies: cython.Py_ssize_t
    states: cython.longlong[:, ::1]
    moves: cython.longlong[:, :, ::1]
    weights: cython.longlong[:, ::1]
    opts: cython.longlong[:, :, ::1]
    cells: cython.longlong[:, :, ::1]
    nopts: cython.longlong[:, ::1]
    choice: cython.longlong[:, ::1]
    records: cython.longlong[:, ::1]
    values: cython.longlong[::1]
    keys: cython.longlong[::1]
    approx: cython.double[::1]
    nexact: cython.Py_ssize_t
    exact: list[Any]
    memo: dict[bytes, int]
    scratch: dict[bytes, int]
    raws: list[Any]
    made: list[Any]
    by_key: dict[bytes, int]
    needed: dict[bytes, list[Any]]
    seen: set[bytes]
    count: cython.longlong
    max_nodes: cython.longlong
    evaluated: cython.longlong
    deadline: Any
    scratch_limit: cython.Py_ssize_t
    clock_every: cython.longlong

    def __init__(self, sp: SimultaneousPacked, player: int, payoff: str, deadline: Any, max_nodes: int | None,
                 scratch_limit: int, clock_every: int) -> None:
        game = sp.game
        self.sp = sp
        self.game = game
        self.n = game.players
        self.player = player
        self.margin = payoff == "margin"
        self.width = game.width
        self.plies = sp.max_plies + 1 if sp.max_plies > 0 else 0
        room = max(sp.max_decisions, 1)
        self.states = np.zeros((self.plies + 1, self.width + 1), np.int64)
        self.moves = np.zeros((self.plies, room, game.move_width), np.int64)
        self.weights = np.zeros((self.plies, room), np.int64)
        self.opts = np.zeros((self.plies, self.n, max(sp.max_player_moves, 1)), np.int64)
        # each matrix's integer cells, for the saddle-point test (at most 64 x 64; a larger game skips the test)
        side = min(max(int(sp.max_player_moves), 1), 64)
        self.cells = np.zeros((self.plies, side, min(side ** max(int(self.n) - 1, 1), 64)), np.int64)
        self.nopts = np.zeros((self.plies, self.n), np.int64)
        self.choice = np.zeros((self.plies, self.n), np.int64)
        self.records = np.zeros((self.plies, game.move_width), np.int64)
        self.values = np.zeros(self.n, np.int64)
        self.keys = np.zeros(game.key_width + 1, np.int64)
        self.approx = np.zeros(1024, np.float64)
        self.nexact = 0
        self.exact = []
        self.memo = {}
        self.scratch = {}
        self.raws = []
        self.made = []
        self.by_key = {}
        self.needed = {}
        self.seen = set()
        self.count = 0
        self.max_nodes = -1 if max_nodes is None else max_nodes
        self.evaluated = 0
        self.deadline = deadline
        self.scratch_limit = scratch_limit
        self.clock_every = clock_every

    # -- exact values as codes -----------------------------------------------------------------
    @cython.cfunc
    def _intern(self, x: Any) -> cython.longlong:
        """The code of an exact value (an int or a Fraction; a whole Fraction is its int)."""
        if isinstance(x, Fraction) and x.denominator == 1:
            x = x.numerator
        if isinstance(x, int) and -REF < x < REF:
            return cython.cast(cython.longlong, x)
        if self.nexact == self.approx.shape[0]:
            grown = np.zeros(2 * self.nexact, np.float64)
            grown[: self.nexact] = self.approx
            self.approx = grown
        self.approx[self.nexact] = float(x)
        self.exact.append(x)
        self.nexact += 1
        return REF + self.nexact - 1

    @cython.cfunc
    def _value(self, code: cython.longlong) -> object:
        """The exact value of a code (an int or a Fraction)."""
        if code < REF:
            return int(code)
        return self.exact[code - REF]

    @cython.cfunc
    @cython.exceptval(check=False)
    def _approx(self, code: cython.longlong) -> cython.double:
        if code < REF:
            return cython.cast(cython.double, code)
        return self.approx[code - REF]

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _less(self, a: cython.longlong, b: cython.longlong) -> cython.bint:
        """Whether the value of code ``a`` is below that of ``b``, exactly."""
        fa: cython.double
        fb: cython.double
        tol: cython.double
        if a < REF and b < REF:
            return a < b
        fa = self._approx(a)
        fb = self._approx(b)
        tol = 1e-9 * (1.0 + abs(fa) + abs(fb))
        if fa < fb - tol:
            return True
        if fa > fb + tol:
            return False
        return bool(self._value(a) < self._value(b))

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _add(self, a: cython.longlong, b: cython.longlong) -> cython.longlong:
        if -SAFE < a < SAFE and -SAFE < b < SAFE:
            return a + b
        if b == 0:
            return a
        if a == 0:
            return b
        return self._intern(self._value(a) + self._value(b))

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _scalar(self, values: cython.longlong[::1]) -> cython.longlong:
        """The number the player is valued by, from one integer return per player (``_scalar`` of the walk)."""
        own: cython.longlong = values[self.player]
        others: cython.longlong = 0
        q: cython.Py_ssize_t
        if not self.margin:
            return own
        for q in range(self.n):
            if q != self.player:
                others += values[q]
        if self.n == 2:
            return own - others
        if (own * (self.n - 1) - others) % (self.n - 1) == 0:
            return (own * (self.n - 1) - others) // (self.n - 1)
        return self._intern(Fraction(own) - Fraction(others, self.n - 1))

    # -- the walk -----------------------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(-1)
    def _tick(self) -> cython.int:
        """One position is about to be valued: the limits are checked here, before the work."""
        self.count += 1
        if self.max_nodes >= 0 and self.count > self.max_nodes:
            from stratagem.solvers.simultaneous import InductionStopped

            raise InductionStopped("nodes", self.count - 1, len(self.raws))
        if self.deadline is not None and self.count % self.clock_every == 0 and self.deadline.expired():
            from stratagem.solvers.simultaneous import InductionStopped

            raise InductionStopped("time", self.count - 1, len(self.raws))
        return 0

    @cython.cfunc
    def _key(self, ply: cython.Py_ssize_t, remaining: cython.longlong) -> bytes:
        """The memo key of the state at ``ply`` with ``remaining`` turns to solve: the game's key
        (:meth:`~stratagem.core.packed.PackedGame.pack`) and ``remaining``, as bytes."""
        width: cython.Py_ssize_t = self.game.key_width
        self.game.pack(self.states[ply, : self.width], self.keys)
        self.keys[width] = remaining
        if cython.compiled:
            return PyBytes_FromStringAndSize(  # type: ignore[no-any-return]
                cython.cast(cython.p_char, cython.address(self.keys[0])), (width + 1) * 8)
        key: bytes = bytes(self.keys)
        return key

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def value(self, ply: cython.Py_ssize_t, remaining: cython.longlong) -> cython.longlong:
        """The value of the state at ``ply`` with ``remaining`` simultaneous turns to solve (-1: no limit)."""
        game: PackedGame = self.game
        state: cython.longlong[::1] = self.states[ply, : self.width]
        mover: cython.Py_ssize_t
        count: cython.Py_ssize_t
        i: cython.Py_ssize_t
        best: cython.longlong
        v: cython.longlong
        banked: cython.longlong
        if ply + 1 >= self.plies:
            raise OverflowError(f"the induction went deeper than its {self.plies} plies of scratch area")
        if game.terminal(state, self.values):  # before any memo, as the walk over the rules engine
            self._tick()
            return self._scalar(self.values)
        mover = game.to_move(state)
        if mover >= 0:  # a decision inside a turn: not kept
            self._tick()
            here: cython.longlong[:, ::1] = self.moves[ply]
            count = game.legal(state, here)
            if count == 0:
                from stratagem.core.errors import UnsupportedGame

                raise UnsupportedGame(f"player {mover} has no legal move in a non-terminal state")
            best = 0
            for i in range(count):
                game.apply(state, here[i], self.states[ply + 1, : self.width])
                v = self.value(ply + 1, remaining)
                if i == 0:
                    best = v
                elif mover == self.player:
                    if self._less(best, v):
                        best = v
                elif self._less(v, best):
                    best = v
            return best
        if mover == SIMULTANEOUS and ply > 0 and self.sp.bank(state, self.states[ply + 1, : self.width],
                                                              self.values):
            banked = self._scalar(self.values)  # value what is left, add what is banked
            return self._add(banked, self.value(ply + 1, remaining))
        key = self._key(ply, remaining)
        found = self.memo.get(key)
        if found is None:
            found = self.scratch.get(key)
            if found is None:
                return self._compute(ply, remaining, mover, key)
        return cython.cast(cython.longlong, found)

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _compute(self, ply: cython.Py_ssize_t, remaining: cython.longlong, mover: cython.Py_ssize_t,
                 key: bytes) -> cython.longlong:
        """The value of a chance or simultaneous state, stored in the memo (or the scratch for forced ones)."""
        game: PackedGame = self.game
        sp: SimultaneousPacked = self.sp
        state: cython.longlong[::1] = self.states[ply, : self.width]
        count: cython.Py_ssize_t
        i: cython.Py_ssize_t
        q: cython.Py_ssize_t
        total_weight: cython.longlong
        below: cython.longlong
        v: cython.longlong
        rows: cython.Py_ssize_t
        columns: cython.Py_ssize_t
        self._tick()
        if mover == CHANCE:
            here: cython.longlong[:, ::1] = self.moves[ply]
            count = game.chance(state, here, self.weights[ply])
            total_weight = 0
            for i in range(count):
                total_weight += self.weights[ply, i]
            total = Fraction(0)
            for i in range(count):
                game.apply(state, here[i], self.states[ply + 1, : self.width])
                v = self.value(ply + 1, remaining)
                total += Fraction(int(self.weights[ply, i]), int(total_weight)) * self._value(v)
            v = self._intern(total)
            self.memo[key] = v
            return v
        if mover != SIMULTANEOUS:
            from stratagem.core.errors import UnsupportedGame

            raise UnsupportedGame(f"to_move gave {mover} for a non-terminal position")
        if remaining == 0:
            if not sp.evaluate(state, self.values):
                from stratagem.core.errors import UnsupportedGame

                raise UnsupportedGame("the game has no evaluate, so a depth limit cannot be used")
            self.evaluated += 1
            v = self._scalar(self.values)
            self.memo[key] = v
            return v
        for q in range(self.n):
            self.nopts[ply, q] = sp.player_moves(state, q, self.opts[ply, q])
        rows = self.nopts[ply, self.player]
        columns = 1
        for q in range(self.n):
            if q != self.player:
                columns *= self.nopts[ply, q]
        below = -1 if remaining < 0 else remaining - 1
        if rows == 1 and columns == 1 and ply > 0:  # forced: worth its only child, kept in the scratch
            self._child(ply, 0, 0)
            v = self.value(ply + 1, below)
            self.scratch[key] = v
            return v
        if rows == 0 or columns == 0:
            from stratagem.core.errors import UnsupportedGame

            raise UnsupportedGame("a player has no move at a simultaneous node")
        v = self._matrix_node(ply, below, rows, columns, remaining)
        self.by_key[key] = len(self.raws) - 1
        self.memo[key] = v
        if len(self.scratch) > self.scratch_limit:
            self.scratch.clear()
        return v

    @cython.cfunc
    @cython.exceptval(-1)
    def _child(self, ply: cython.Py_ssize_t, row: cython.Py_ssize_t, column: cython.Py_ssize_t) -> cython.int:
        """Write into the next ply the state after the player's ``row``-th move and the opponents'
        ``column``-th joint move (the first opponent's move changing slowest)."""
        q: cython.Py_ssize_t
        rest: cython.Py_ssize_t = column
        size: cython.Py_ssize_t
        for q in range(self.n - 1, -1, -1):
            if q == self.player:
                self.choice[ply, q] = self.opts[ply, q, row]
            else:
                size = self.nopts[ply, q]
                self.choice[ply, q] = self.opts[ply, q, rest % size]
                rest //= size
        self.sp.joint(self.choice[ply], self.records[ply])
        self.game.apply(self.states[ply, : self.width], self.records[ply], self.states[ply + 1, : self.width])
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _matrix_node(self, ply: cython.Py_ssize_t, below: cython.longlong, rows: cython.Py_ssize_t,
                     columns: cython.Py_ssize_t, remaining: cython.longlong) -> cython.longlong:
        """Build the node's exact matrix, solve it (Python: the LP and its certificate) and record it."""
        from stratagem.solvers.matrix import saddle_solution, solve_matrix, two_by_two_solution

        r: cython.Py_ssize_t
        c: cython.Py_ssize_t
        v: cython.longlong
        whole: cython.bint = True
        lower: cython.longlong = 0
        upper: cython.longlong = 0
        low_row: cython.Py_ssize_t = 0
        high_column: cython.Py_ssize_t = 0
        cells: cython.longlong[:, ::1] = self.cells[ply]
        matrix = []
        for r in range(rows):
            line = []
            for c in range(columns):
                self._child(ply, r, c)
                v = self.value(ply + 1, below)
                if v >= REF:
                    whole = False
                elif r < cells.shape[0] and c < cells.shape[1]:
                    cells[r, c] = v
                line.append(self._value(v))
            matrix.append(tuple(line))
        table = tuple(matrix)
        if whole and rows <= cells.shape[0] and columns <= cells.shape[1]:
            # a pure saddle point on the integer entries, as solve_matrix finds it first (the first best row
            # by its least entry, the first best column by its greatest), without a Python number per cell
            for r in range(rows):
                v = cells[r, 0]
                for c in range(1, columns):
                    if cells[r, c] < v:
                        v = cells[r, c]
                if r == 0 or v > lower:
                    lower = v
                    low_row = r
            for c in range(columns):
                v = cells[0, c]
                for r in range(1, rows):
                    if cells[r, c] > v:
                        v = cells[r, c]
                if c == 0 or v < upper:
                    upper = v
                    high_column = c
        closed = None
        if whole and rows <= cells.shape[0] and columns <= cells.shape[1] and lower == upper:
            closed = saddle_solution(rows, columns, low_row, high_column, int(lower))
        elif whole and rows == 2 and columns == 2:  # solve_matrix's next step: the closed form, on ints
            closed = two_by_two_solution(int(cells[0, 0]), int(cells[0, 1]), int(cells[1, 0]), int(cells[1, 1]))
        solution = closed if closed is not None else solve_matrix(table)
        # the node's position stays packed (its bytes) until asked for (:meth:`node_at`): decoding every one
        # into the reference's state and hashing it cost more than the rest of the node's work
        raw = bytes(np.asarray(self.states[ply, : self.width]))
        moves = [[int(self.opts[ply, q, i]) for i in range(self.nopts[ply, q])] for q in range(self.n)]
        opponents = [q for q in range(self.n) if q != self.player]
        column_moves: tuple[tuple[int, ...], ...]
        if len(opponents) == 1:
            column_moves = tuple((m,) for m in moves[opponents[0]])
        else:
            import itertools

            column_moves = tuple(itertools.product(*(moves[q] for q in opponents)))
        depth = None if remaining < 0 else int(remaining)
        self.raws.append((raw, depth, tuple(moves[self.player]), column_moves, table, solution))
        self.made.append(None)
        return self._intern(solution.value)

    # -- the parts of a bound certificate (:mod:`~stratagem.solvers.boundproof`) -----------------------
    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def _mark(self, ply: cython.Py_ssize_t, remaining: cython.longlong, side: cython.int) -> cython.int:
        """Note the nodes whose ``side`` part (0 lower, 1 upper) bounds the state at ``ply``: the walk of
        ``boundproof._Marker.mark`` (the same order, the same first best move at a decision), over the
        solved walk's memo."""
        game: PackedGame = self.game
        state: cython.longlong[::1] = self.states[ply, : self.width]
        mover: cython.Py_ssize_t
        count: cython.Py_ssize_t
        i: cython.Py_ssize_t
        q: cython.Py_ssize_t
        r: cython.Py_ssize_t
        c: cython.Py_ssize_t
        best_i: cython.Py_ssize_t
        best: cython.longlong
        v: cython.longlong
        rows: cython.Py_ssize_t
        columns: cython.Py_ssize_t
        below: cython.longlong
        maximise: cython.bint
        if ply + 1 >= self.plies:
            raise OverflowError(f"the walk went deeper than its {self.plies} plies of scratch area")
        if game.terminal(state, self.values):
            return 0
        mover = game.to_move(state)
        if mover >= 0:
            here: cython.longlong[:, ::1] = self.moves[ply]
            count = game.legal(state, here)
            maximise = mover == self.player
            if maximise == (side == 0):  # one move bounds it: the first of best value
                best_i = 0
                best = 0
                for i in range(count):
                    game.apply(state, here[i], self.states[ply + 1, : self.width])
                    v = self.value(ply + 1, remaining)
                    if i == 0 or (maximise and self._less(best, v)) or (not maximise and self._less(v, best)):
                        best = v
                        best_i = i
                game.apply(state, here[best_i], self.states[ply + 1, : self.width])
                self._mark(ply + 1, remaining, side)
            else:
                for i in range(count):
                    game.apply(state, here[i], self.states[ply + 1, : self.width])
                    self._mark(ply + 1, remaining, side)
            return 0
        if mover == SIMULTANEOUS and ply > 0 and self.sp.bank(state, self.states[ply + 1, : self.width],
                                                              self.values):
            return self._mark(ply + 1, remaining, side)
        key = self._key(ply, remaining)
        seen = key + (b"L" if side == 0 else b"U")
        if seen in self.seen:
            return 0
        self.seen.add(seen)
        if mover == CHANCE:
            here2: cython.longlong[:, ::1] = self.moves[ply]
            count = game.chance(state, here2, self.weights[ply])
            for i in range(count):
                game.apply(state, here2[i], self.states[ply + 1, : self.width])
                self._mark(ply + 1, remaining, side)
            return 0
        if remaining == 0:
            return 0
        for q in range(self.n):
            self.nopts[ply, q] = self.sp.player_moves(state, q, self.opts[ply, q])
        rows = self.nopts[ply, self.player]
        columns = 1
        for q in range(self.n):
            if q != self.player:
                columns *= self.nopts[ply, q]
        below = -1 if remaining < 0 else remaining - 1
        if rows == 1 and columns == 1 and ply > 0:
            self._child(ply, 0, 0)
            return self._mark(ply + 1, below, side)
        node = self.node_at(self.by_key[key])
        entry = self.needed.get(key)
        if entry is None:
            entry = [node, False, False]
            self.needed[key] = entry
        entry[1 + side] = True
        row_mix = node.solution.row
        column_mix = node.solution.col
        for r in range(rows):
            if side == 0 and not row_mix[r]:
                continue
            for c in range(columns):
                if side == 1 and not column_mix[c]:
                    continue
                self._child(ply, r, c)
                self._mark(ply + 1, below, side)
        return 0

    def bound_parts(self, depth: int | None) -> list[Any]:
        """After :meth:`run`: ``[node, lower part wanted, upper part wanted]`` for every solved node the start's
        value needs, in the order first met (what ``boundproof._Marker`` finds on the rules engine)."""
        deadline, limit, count = self.deadline, self.max_nodes, self.count
        self.deadline, self.max_nodes = None, -1  # the certificate is no part of the induction's limits
        self.needed, self.seen = {}, set()
        try:
            remaining = -1 if depth is None else depth
            self._mark(0, remaining, 0)
            self._mark(0, remaining, 1)
        finally:
            self.deadline, self.max_nodes, self.count = deadline, limit, count
        parts = list(self.needed.values())
        self.needed, self.seen = {}, set()
        return parts

    def run(self, start: Any, depth: int | None) -> Any:
        """The exact value (an int or a Fraction) of the packed position ``start`` with ``depth`` turns to solve."""
        if self.plies == 0:
            from stratagem.core.errors import UnsupportedGame

            raise UnsupportedGame("the game's lines are not bounded, so the compiled induction cannot walk them")
        words: cython.longlong[::1] = np.ascontiguousarray(start, np.int64)
        i: cython.Py_ssize_t
        for i in range(self.width):
            self.states[0, i] = words[i]
        return self._value(self.value(0, -1 if depth is None else depth))

    def node_at(self, index: int) -> Any:
        """The ``index``-th solved node (in the order solved) as a ``SimultaneousNode``, its position decoded
        into the reference's state on the first request."""
        from stratagem.solvers.simultaneous import SimultaneousNode

        made = self.made[index]
        if made is None:
            raw, depth, rows, columns, table, solution = self.raws[index]
            state = self.game.decode(np.frombuffer(raw, np.int64))
            made = SimultaneousNode(state, depth, rows, columns, table, solution)
            self.made[index] = made
        return made

    def node_for(self, state: Any, depth: int | None) -> Any:
        """The solved node of the reference ``state`` with ``depth`` turns left (None without a limit), or None:
        one look-up by the state's packed key, as the walk keyed it."""
        i: cython.Py_ssize_t
        try:
            vector = self.game.encode(state)
        except ValueError:  # beyond the engine's slots: never walked
            return None
        for i in range(self.width):
            self.states[self.plies, i] = vector[i]
        found = self.by_key.get(self._key(self.plies, -1 if depth is None else depth))
        if found is None:
            return None
        node = self.node_at(found)
        return node if node.state == state else None

    @property
    def solved_count(self) -> int:
        """How many simultaneous nodes were solved."""
        return len(self.raws)

    @property
    def all_certified(self) -> bool:
        """Whether every solved node's equilibrium was checked exactly."""
        return all(raw[5].certified for raw in self.raws)

    @property
    def evaluated_leaves(self) -> int:
        return int(self.evaluated)

    @property
    def positions(self) -> int:
        """Positions valued so far (the count ``max_nodes`` caps)."""
        return int(self.count)


__all__ = ["PackedInduction", "SimultaneousPacked"]
