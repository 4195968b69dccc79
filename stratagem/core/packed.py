"""The compiled layer's interface for every game: packed states and the moves over them, in C.

The searches that must run at compiled speed (A*, UCT and its kin, alpha-beta, expectimax, backward
induction) see a game only through :class:`PackedGame`, the way the plain-Python searches see one
through :class:`~stratagem.core.game.Game`. A game's compiled engine is a subclass that overrides the
C-level methods below; ``packed.pxd`` declares them, so a compiled search in another module calls them
through a C virtual table, without Python objects in the loop.

The representation, the same for every game:

- A **state** is a C-contiguous vector of ``width`` 64-bit integers, laid out as the game chooses (its
  engine module documents the slots), worked on in place. Buffers are the caller's: a method never
  allocates, so a search can keep one scratch area per ply.
- A **move** is a record of ``move_width`` integers, written by :meth:`legal` (or :meth:`chance`) into
  the rows of a ``(max_moves, move_width)`` buffer and read back by :meth:`apply`. ``max_moves`` is room
  for any state's moves; an engine raises rather than drop one.
- A **key** is the state packed into ``key_width`` integers for transposition tables (:meth:`pack`);
  :meth:`hash` spreads a key over 64 bits. By default the key is the state itself.
- :meth:`to_move` is a player ``0 .. players - 1``, :data:`CHANCE` or :data:`SIMULTANEOUS`. At a chance
  state :meth:`chance` lists the outcomes with positive integer **weights** (probability = weight over
  their sum), so that no search loop handles fractions; exact probabilities are formed only where a
  value is reported.
- :meth:`terminal` says whether the game is over and writes each player's return as an integer.
- :meth:`quiet` (optional, False by default) says that no move at a state can end the game, so a search
  need not make every successor to look for one.

The Python rules engine of each game stays the reference: every compiled engine is tested move for move
against it (legal-move sets, successors, results and chance weights), and ``verify`` never runs compiled
code. ``encode``/``decode`` (Python methods of each engine) are the parse/format pair between the two
representations that those tests and the searches' callers use.

:func:`walk` and the Python-facing methods (``legal_moves``, ``successor``, ...) exist for those tests
and for callers outside the hot loop; they copy into numpy arrays. docs/design.md records why the layer
looks like this.
"""

from __future__ import annotations

from typing import Any

import cython

if not cython.compiled:  # compiled, they are the C enum packed.pxd declares (and Python sees it too)
    #: :meth:`PackedGame.to_move` at a chance state and at a state where all players move at once.
    CHANCE = -1
    SIMULTANEOUS = -2

#: splitmix64's constants, and the mask that keeps the interpreted arithmetic to 64 bits as C's is.
_GOLDEN = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)
_MIX1 = cython.declare(cython.ulonglong, 0xBF58476D1CE4E5B9)
_MIX2 = cython.declare(cython.ulonglong, 0x94D049BB133111EB)
_MASK = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)

#: Whether this module runs compiled (False where the compiled core could not be built).
COMPILED: bool = cython.compiled


@cython.cclass
class PackedGame:
    """One game (with its options and deal) as the compiled searches see it; subclasses are engines."""

    def __init__(self, width: int, move_width: int, max_moves: int, players: int, key_width: int = 0) -> None:
        if width <= 0 or move_width <= 0 or max_moves <= 0 or players <= 0:
            raise ValueError("a packed game needs positive widths, room for moves and players")
        self.width = width
        self.key_width = key_width or width
        self.move_width = move_width
        self.max_moves = max_moves
        self.players = players

    # -- the C-level interface (overridden by each engine; packed.pxd makes these C methods) ------------
    def to_move(self, state: cython.longlong[::1]) -> cython.Py_ssize_t:
        """The player to move, :data:`CHANCE` or :data:`SIMULTANEOUS`."""
        raise NotImplementedError(f"{type(self).__name__} does not define to_move")

    def legal(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1]) -> cython.Py_ssize_t:
        """Write the legal moves of ``state`` into the rows of ``moves``; return how many."""
        raise NotImplementedError(f"{type(self).__name__} does not define legal")

    def chance(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1],
               weights: cython.longlong[::1]) -> cython.Py_ssize_t:
        """Write the outcomes of a chance state and their positive integer weights; return how many."""
        raise NotImplementedError(f"{type(self).__name__} has no chance states")

    def apply(self, state: cython.longlong[::1], move: cython.longlong[::1], out: cython.longlong[::1]) -> cython.int:
        """Write into ``out`` the state after ``move`` (``out`` may not alias ``state``); return 0."""
        raise NotImplementedError(f"{type(self).__name__} does not define apply")

    def terminal(self, state: cython.longlong[::1], returns: cython.longlong[::1]) -> cython.bint:
        """Whether the game is over; if so, write each player's return into ``returns``."""
        raise NotImplementedError(f"{type(self).__name__} does not define terminal")

    def quiet(self, state: cython.longlong[::1]) -> cython.bint:
        """Whether no move at the decision ``state`` can end the game: a search that scores the moves ending
        the game first may then skip making every successor to look for one. False unless an engine knows
        better (Stratatak: an attack never ends a game; its defence may)."""
        return False

    def pack(self, state: cython.longlong[::1], key: cython.longlong[::1]) -> cython.int:
        """Write the transposition key of ``state`` (by default the state itself); return 0."""
        i: cython.Py_ssize_t
        for i in range(self.width):
            key[i] = state[i]
        return 0

    def hash(self, key: cython.longlong[::1]) -> cython.ulonglong:
        """A 64-bit hash of a key: each word mixed in by the splitmix64 finaliser."""
        h: cython.ulonglong = _GOLDEN
        x: cython.ulonglong
        i: cython.Py_ssize_t
        for i in range(self.key_width):
            x = ((cython.cast(cython.longlong, key[i]) & _MASK) + h) & _MASK
            x = ((x ^ (x >> 30)) * _MIX1) & _MASK
            x = ((x ^ (x >> 27)) * _MIX2) & _MASK
            h = x ^ (x >> 31)
        return h

    # -- Python-facing views (tests and callers outside the hot loop) -------------------------------
    def encode(self, state: Any) -> Any:
        """The reference engine's ``state`` as a packed state vector (numpy ``int64``)."""
        raise NotImplementedError(f"{type(self).__name__} does not define encode")

    def decode(self, vector: Any) -> Any:
        """The reference engine's state that a packed state vector stands for."""
        raise NotImplementedError(f"{type(self).__name__} does not define decode")

    def decode_move(self, state: Any, record: Any) -> Any:
        """The reference engine's move that a move record of packed state ``state`` stands for."""
        raise NotImplementedError(f"{type(self).__name__} does not define decode_move")

    def player(self, vector: Any) -> int:
        """:meth:`to_move` of a packed state."""
        return int(self.to_move(_words(vector)))

    def legal_moves(self, vector: Any) -> Any:
        """The move records of a packed state, as a ``(count, move_width)`` array."""
        import numpy as np

        moves = np.zeros((self.max_moves, self.move_width), np.int64)
        count = self.legal(_words(vector), moves)
        return moves[:count].copy()

    def chance_outcomes(self, vector: Any) -> tuple[Any, Any]:
        """The outcome records of a packed chance state and their integer weights."""
        import numpy as np

        moves = np.zeros((self.max_moves, self.move_width), np.int64)
        weights = np.zeros(self.max_moves, np.int64)
        count = self.chance(_words(vector), moves, weights)
        return moves[:count].copy(), weights[:count].copy()

    def successor(self, vector: Any, record: Any) -> Any:
        """The packed state after the move record ``record``."""
        import numpy as np

        out = np.zeros(self.width, np.int64)
        self.apply(_words(vector), _words(record), out)
        return out

    def outcome(self, vector: Any) -> tuple[int, ...] | None:
        """Each player's return if the packed state is terminal, else ``None``."""
        import numpy as np

        returns = np.zeros(self.players, np.int64)
        if not self.terminal(_words(vector), returns):
            return None
        return tuple(int(r) for r in returns)

    def is_quiet(self, vector: Any) -> bool:
        """Whether the engine says no move at the packed decision state can end the game (:meth:`quiet`)."""
        return bool(self.quiet(_words(vector)))

    def key_hash(self, vector: Any) -> int:
        """The hash of a packed state's key."""
        import numpy as np

        key = np.zeros(self.key_width, np.int64)
        self.pack(_words(vector), key)
        return int(self.hash(key))


def _words(vector: Any) -> Any:
    """``vector`` as a C-contiguous ``int64`` array (no copy when it is one already)."""
    import numpy as np

    return np.ascontiguousarray(vector, dtype=np.int64)


__all__ = ["CHANCE", "COMPILED", "SIMULTANEOUS", "PackedGame"]
