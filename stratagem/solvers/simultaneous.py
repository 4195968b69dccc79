"""Backward induction over games with simultaneous moves, each stage certified exactly.

The game tree mixes four kinds of node: terminal, chance (expectation over the outcomes' exact
probabilities), ordinary decision nodes of one player, and simultaneous nodes where every player
picks a move at once. :func:`solve_simultaneous` values it bottom-up for one player, ``player``:

* Two players: the game is treated as zero-sum, ``player`` maximises, the opponent minimises.
* Three or more players: ``player`` against the *coalition* of all the others, who pick their
  moves jointly (a correlated mix over joint moves) to minimise ``player``'s payoff. This is the
  paranoid bound: what ``player`` can guarantee whatever the others do. Results say so in ``label``.

A simultaneous node becomes a matrix game (rows: ``player``'s moves; columns: the opponents' joint
moves; entries: the children's values), solved and certified by :func:`~stratagem.solvers.matrix.
solve_matrix`. The scalar ``player`` cares about is chosen by ``payoff``: ``"own"`` is
``returns[player]`` (the game value of a zero-sum game), ``"margin"`` is ``returns[player]`` minus the
mean of the others' (for two players, the difference, e.g. of penalties). A depth limit counts
simultaneous turns; where it cuts, the game's ``evaluate`` stands in for the rest of the game.

Every value is exact: an ``int`` while the payoffs allow it (a float return with a whole value is that
integer; pure saddle points and maxima keep integers), a ``Fraction`` otherwise (float returns are read
through their shortest decimal form). A simultaneous node where every player has a single move (the
last card of a hand, say) is no game: it is worth its only child, like a forced decision, and gets no
node of its own (the start excepted, so a result always describes the position asked about). In a
game that can set aside what is already won (:class:`Banked`), positions below the start that differ
only in that share one node.
The certificate of a result -- every simultaneous node's moves, rational strategies and value, and
its exact re-check from the rules engine alone -- is :mod:`~stratagem.solvers.matrixproof`, which
walks the game with the same :class:`Walker`.

Limits: the induction keeps the value of every simultaneous and chance position it meets (decision
positions inside a turn are kept only until the next simultaneous node is solved), so on a large game
(a whole Stack Attack round) it can run for minutes and take gigabytes. ``time_limit`` (seconds, or a
:class:`~stratagem.core.deadline.Deadline` shared with the rest of a command) and ``max_nodes`` (positions
valued) stop it by raising :class:`InductionStopped`, which says how far it got; no partial value is
returned, since a value of part of the tree is no value of the position.

The module knows nothing about any particular game.

Why one module of over 600 lines: the induction, the result it returns and the expected returns read from
that result are one concept (backward induction with simultaneous nodes); the matrix games are apart
(:mod:`.matrix`), as are the compiled walk (:mod:`.induction_kernel`) and the proof (:mod:`.matrixproof`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Protocol, overload, runtime_checkable

from stratagem.core.callcaches import call_scope
from stratagem.core.deadline import Deadline
from stratagem.core.errors import UnsupportedGame
from stratagem.core.game import CHANCE, SIMULTANEOUS, Evaluation, Game, Simultaneous
from stratagem.solvers.matrix import MatrixSolution, solve_matrix

__all__ = [
    "CLOCK_EVERY",
    "COALITION",
    "Exact",
    "PAYOFFS",
    "Banked",
    "ZERO_SUM",
    "InductionStopped",
    "SimultaneousNode",
    "SimultaneousResult",
    "UnsupportedGame",
    "solve_each_player",
    "solve_simultaneous",
]

#: Label of a two-player analysis.
ZERO_SUM = "zero-sum"
#: Label of an analysis of one player against all the others together.
COALITION = "player vs coalition"
#: The scalars a player can be valued by (see the module docstring).
PAYOFFS = ("own", "margin")

AnyGame = Game[Any, Any]
#: An exact value: an ``int`` while the payoffs allow it, else a ``Fraction`` (never a float).
Exact = int | Fraction

#: The clock is read once per this many positions valued.
CLOCK_EVERY = 8
#: Positions :class:`Walker` keeps in its scratch memo before emptying it (a few hundred bytes each).
SCRATCH_LIMIT = 100_000


@runtime_checkable
class Banked(Protocol):
    """A game whose returns add up as play goes, and whose play never depends on what is already won.

    ``bank(state)`` splits a position into ``(rest, banked)``: ``rest`` is the same position with the
    returns won so far cleared (Stack Attack's endgame scope: the penalty piles emptied, carried scores
    0) and ``banked`` those returns, one per player, such that every line of play from ``state`` ends with
    ``banked`` plus the returns the same line ends with from ``rest`` (and ``evaluate``, where the game has
    it, splits the same way, for depth-limited runs). It returns ``(state, ...)`` itself
    (the same object) when nothing is banked, and None when no such split holds (e.g. when how play
    ends depends on the totals).

    The induction then values ``state`` as ``banked`` (through the payoff) plus the value of ``rest``,
    since adding a number to every entry of a matrix game adds it to the value and changes no optimal
    strategy. Positions that differ only in what is banked share one node: in a Stack Attack endgame the
    same rows and hands are reached with different penalty piles (a third fewer nodes at five turns).
    """

    def bank(self, state: Any) -> tuple[Any, tuple[int | Fraction, ...]] | None:
        """``(rest, banked)`` as in the class docstring, or None."""
        ...


class InductionStopped(Exception):
    """A limit stopped :func:`solve_simultaneous` before the root was valued: no value is established.

    ``stopped_by`` is ``"time"`` or ``"nodes"``; ``nodes`` counts the positions valued so far and
    ``solved`` the simultaneous nodes whose matrix game was solved.
    """

    def __init__(self, stopped_by: str, nodes: int, solved: int) -> None:
        super().__init__(f"backward induction stopped by its {'time' if stopped_by == 'time' else 'node'} "
                         f"limit after valuing {nodes:,} positions ({solved:,} matrix games solved)")
        self.stopped_by = stopped_by
        self.nodes = nodes
        self.solved = solved


@dataclass(frozen=True)
class SimultaneousNode:
    """One solved simultaneous node.

    ``rows`` are the player's moves, ``columns`` the opponents' joint moves (one move per opponent,
    in the order of :attr:`SimultaneousResult.opponents`), ``matrix`` the exact children values and
    ``solution`` the certified matrix-game solution (``row``: the player's mix, ``col``: the
    coalition's mix over ``columns``). ``depth`` is the number of simultaneous turns still solved
    from here (None: no limit).
    """

    state: Hashable
    depth: int | None
    rows: tuple[Any, ...]
    columns: tuple[tuple[Any, ...], ...]
    matrix: tuple[tuple[Exact, ...], ...]
    solution: MatrixSolution

    @property
    def value(self) -> Fraction:
        return self.solution.value

    @property
    def certified(self) -> bool:
        return self.solution.certified


@dataclass(frozen=True)
class SimultaneousResult:
    """The value of ``root`` for ``player`` and the solution of every simultaneous node under it.

    ``certified`` is true when every node's equilibrium was checked exactly; ``evaluated_leaves``
    counts the distinct positions where the depth limit cut the game and ``evaluate`` was used
    (zero means the value is the exact game value, not a heuristic one). ``nodes`` are in the order
    they were solved (children before parents).
    """

    game: str
    root: Hashable
    player: int
    opponents: tuple[int, ...]
    label: str
    payoff: str
    depth: int | None
    value: Fraction
    certified: bool
    evaluated_leaves: int
    nodes: Sequence[SimultaneousNode]
    #: The compiled walk's finder of the nodes a bound certificate needs (``[node, lower, upper]`` each, in the
    #: order :mod:`~stratagem.solvers.boundproof` walks them), None for a walk over the rules engine.
    bound_parts: Callable[[], list[Any]] | None = field(default=None, compare=False, repr=False)
    #: The walk's own look-up of a node by (state, turns left), which answers :meth:`node` at once when the
    #: turns are given (None: :meth:`node` builds its index from ``nodes``).
    finder: Callable[[Hashable, int | None], SimultaneousNode | None] | None = field(default=None, compare=False,
                                                                                     repr=False)

    def node(self, state: Hashable, depth: int | None = None) -> SimultaneousNode | None:
        """The solved node for ``state`` with ``depth`` turns left to solve, None if not solved.

        Without ``depth``, the one solved with the most turns left (without a depth limit every
        state is solved once). A dictionary look-up: ``analyze`` asks for hundreds of nodes. Below
        the root of a :class:`Banked` game nodes are kept under the position with nothing banked
        (``game.bank(state)[0]``), so look that up.
        """
        if self.finder is not None and (depth is not None or self.depth is None):
            return self.finder(state, depth)  # one entry per state without a limit
        solved = self._index.get(state)
        if not solved:
            return None
        if depth is not None or None in solved:
            return solved.get(depth)
        return solved[max(d for d in solved if d is not None)]

    @cached_property
    def _index(self) -> dict[Hashable, dict[int | None, SimultaneousNode]]:
        """state -> {turns left: node}, built once on the first look-up."""
        index: dict[Hashable, dict[int | None, SimultaneousNode]] = {}
        for n in self.nodes:
            index.setdefault(n.state, {})[n.depth] = n
        return index

    @property
    def root_node(self) -> SimultaneousNode | None:
        """The node of the root when the root is a simultaneous node."""
        return self.node(self.root, self.depth)


def solve_simultaneous(
    game: AnyGame, state: Hashable, *, player: int = 0, depth: int | None = None, payoff: str = "own",
    time_limit: float | Deadline | None = None, max_nodes: int | None = None, packed: Any = None,
) -> SimultaneousResult:
    """Backward induction from ``state``: the value ``player`` can guarantee, with a strategy per node.

    ``depth`` limits the number of simultaneous turns solved (the game's ``evaluate`` values the
    positions where it cuts); ``payoff`` is ``"own"`` or ``"margin"``. ``time_limit`` (seconds or a
    shared :class:`~stratagem.core.deadline.Deadline`) and ``max_nodes`` (positions valued; ``None``:
    no cap) raise :class:`InductionStopped` when reached.

    ``packed`` (a :class:`~stratagem.solvers.induction_kernel.SimultaneousPacked` of ``game``'s compiled
    engine) walks the same induction over packed states (:mod:`~stratagem.solvers.induction_kernel`): the
    same nodes, matrices, solutions and counts, faster; ``None`` walks the rules engine.
    """
    _check_options(game, player, depth, payoff)
    deadline = time_limit if isinstance(time_limit, Deadline) or time_limit is None else Deadline(time_limit)
    with call_scope():  # stopped or not, the matrix solutions its nodes shared go as the last call ends
        return _solve(game, state, player, depth, payoff, deadline, max_nodes, packed)


def _solve(game: AnyGame, state: Hashable, player: int, depth: int | None, payoff: str, deadline: Deadline | None,
           max_nodes: int | None, packed: Any) -> SimultaneousResult:
    """:func:`solve_simultaneous`'s induction, its options checked."""
    if packed is not None:  # the engine brings its own walk: this module imports no compiled code
        walk = packed.induction(player, payoff, deadline, max_nodes, SCRATCH_LIMIT, CLOCK_EVERY)
        value = walk.run(packed.game.encode(state), depth)
        nodes: Sequence[SimultaneousNode] = _Solved(walk)  # decoded when asked for
        certified = bool(walk.all_certified)
        evaluated = walk.evaluated_leaves
        parts: Callable[[], list[Any]] | None = lambda: walk.bound_parts(depth)  # noqa: E731 (kept with the walk)
        finder = walk.node_for
    else:
        solver = _Inductor(game, player, payoff, deadline, max_nodes)
        solver.start = state
        value = solver.value(state, depth)
        nodes = tuple(solver.solved.values())
        certified = all(n.certified for n in nodes)
        evaluated = solver.evaluated
        parts = None
        solved = solver.solved
        finder = lambda s, d: solved.get((s, d))  # noqa: E731
    return SimultaneousResult(
        game=game.name,
        root=state,
        player=player,
        opponents=opponents_of(game, player),
        label=analysis_label(game),
        payoff=payoff,
        depth=depth,
        value=Fraction(value),
        certified=certified,
        evaluated_leaves=evaluated,
        nodes=nodes,
        bound_parts=parts,
        finder=finder,
    )


class _Solved(Sequence[SimultaneousNode]):
    """A compiled walk's solved nodes as a sequence, each decoded on first access (``node_at``); equal to any
    sequence of the same nodes (a rules engine walk's tuple)."""

    def __init__(self, walk: Any) -> None:
        self._walk = walk
        self._size = int(walk.solved_count)

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> SimultaneousNode: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[SimultaneousNode]: ...

    def __getitem__(self, index: int | slice) -> SimultaneousNode | Sequence[SimultaneousNode]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._size)))
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError("solved node index out of range")
        node: SimultaneousNode = self._walk.node_at(index)
        return node

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and len(other) == self._size and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{self._size:,} solved nodes>"


def solve_each_player(
    game: AnyGame, state: Hashable, *, depth: int | None = None, payoff: str = "own",
    time_limit: float | Deadline | None = None, max_nodes: int | None = None, packed: Any = None,
) -> tuple[SimultaneousResult, ...]:
    """:func:`solve_simultaneous` for every player in turn (each against the coalition of the others).

    A ``time_limit`` is one deadline for all of them; ``max_nodes`` applies to each player's induction.
    """
    deadline = time_limit if isinstance(time_limit, Deadline) or time_limit is None else Deadline(time_limit)
    return tuple(solve_simultaneous(game, state, player=p, depth=depth, payoff=payoff, time_limit=deadline,
                                    max_nodes=max_nodes, packed=packed) for p in range(game.num_players))


# --- the walk shared by the solver and the certificate checker ----------------------------


class Walker:
    """Values positions bottom-up through the rules engine; subclasses value simultaneous nodes.

    Memoised by (state, remaining simultaneous turns) where positions are reached more than once:
    simultaneous and chance positions are kept for the whole walk (``memo``); forced simultaneous
    nodes (one move each) in ``scratch``, which is emptied when a simultaneous node is solved and it
    holds more than :data:`SCRATCH_LIMIT` positions. Decision positions inside a turn and terminals
    are not kept at all. Measured on Stack Attack five-turn endgames: terminals and forced nodes are
    90% of the positions, a sixth of the forced nodes are reached twice (the limit keeps the recent
    ones, which the next reveals may reach again) and no decision position is ever reached twice, so
    keeping them would cost gigabytes and hashing time and save nothing.

    In a :class:`Banked` game a simultaneous position below the start is valued as what is banked plus
    the value of the position with nothing banked, which is what the memo keeps.
    """

    def __init__(self, game: AnyGame, player: int, payoff: str) -> None:
        self.game = game
        self.player = player
        self.payoff = payoff
        self.opponents = opponents_of(game, player)
        self.memo: dict[tuple[Hashable, int | None], Exact] = {}
        self.scratch: dict[tuple[Hashable, int | None], Exact] = {}
        #: the position the walk answers for: a simultaneous node there always gets a node of its own
        self.start: Hashable | None = None
        self.evaluated = 0
        # Checked once here, not at every node: a runtime protocol check costs microseconds.
        self._player_moves = game.player_moves if isinstance(game, Simultaneous) else None
        self._bank = game.bank if isinstance(game, Banked) else None
        #: returns (or banked returns) -> the number the player is valued by (:func:`_scalar`)
        self._score = _scorer(game.num_players, player, payoff)

    def value(self, state: Hashable, remaining: int | None) -> Exact:
        game = self.game
        if game.is_terminal(state):  # before any memo: hashing a position costs more than its returns
            self.tick()
            return self._score(game.returns(state))
        mover = game.to_move(state)
        if mover >= 0:  # a decision inside a turn: not kept (see the class docstring)
            self.tick()
            apply = game.apply
            children = [self.value(apply(state, move), remaining) for move in game.legal_moves(state)]
            if not children:
                raise UnsupportedGame(f"{game.name}: player {mover} has no legal move in a non-terminal state")
            return max(children) if mover == self.player else min(children)
        if mover == SIMULTANEOUS and self._bank is not None and state is not self.start:
            split = self._bank(state)
            if split is not None and split[0] is not state:  # value what is left, add what is banked
                rest, banked = split
                # ``rest`` is the same position with nothing banked: not terminal, the same mover
                # (play never depends on what is banked, :class:`Banked`), and nothing to bank again.
                return self._score(banked) + self._kept(rest, remaining, mover)
        return self._kept(state, remaining, mover)

    def _kept(self, state: Hashable, remaining: int | None, mover: int) -> Exact:
        """The value of a chance or simultaneous ``state``, from the memo or the scratch or computed."""
        key = (state, remaining)
        found = self.memo.get(key)
        if found is None:
            found = self.scratch.get(key)
            if found is None:
                found, lasting = self._compute(state, remaining, mover)
                (self.memo if lasting else self.scratch)[key] = found
        return found

    def tick(self) -> None:
        """One position is about to be valued (a subclass counts them and checks its limits)."""

    def _compute(self, state: Hashable, remaining: int | None, mover: int) -> tuple[Exact, bool]:
        """The value of a chance or simultaneous ``state`` and whether it is kept for the whole walk."""
        self.tick()
        game = self.game
        if mover == CHANCE:
            total = sum((p * self.value(game.apply(state, outcome), remaining)
                         for outcome, p in game.chance_outcomes(state)), Fraction(0))
            return _norm(total), True
        if mover == SIMULTANEOUS:
            if remaining == 0:
                if not isinstance(game, Evaluation):
                    raise UnsupportedGame(f"{game.name} has no evaluate, so a depth limit cannot be used")
                self.evaluated += 1
                return _scalar(game.evaluate(state), self.player, self.payoff), True
            rows, columns = self.options(state)
            if len(rows) == 1 and len(columns) == 1 and state != self.start:
                below = None if remaining is None else remaining - 1
                return self.value(self.child(state, rows[0], columns[0]), below), False
            value = self.simultaneous(state, remaining, rows, columns)
            if len(self.scratch) > SCRATCH_LIMIT:
                self.scratch.clear()
            return value, True
        raise UnsupportedGame(f"{game.name}: to_move gave {mover} for a non-terminal position")

    def simultaneous(self, state: Hashable, remaining: int | None, rows: tuple[Any, ...],
                     columns: tuple[tuple[Any, ...], ...]) -> Exact:
        raise NotImplementedError

    def options(self, state: Hashable) -> tuple[tuple[Any, ...], tuple[tuple[Any, ...], ...]]:
        """The player's moves and the opponents' joint moves at a simultaneous node."""
        moves = self._player_moves
        if moves is None:
            raise UnsupportedGame(f"{self.game.name} has simultaneous nodes but no player_moves")
        rows = tuple(moves(state, self.player))
        if len(self.opponents) == 1:
            columns: tuple[tuple[Any, ...], ...] = tuple((m,) for m in moves(state, self.opponents[0]))
        else:
            columns = tuple(itertools.product(*(moves(state, q) for q in self.opponents)))
        return rows, columns

    def child(self, state: Hashable, row: Any, column: tuple[Any, ...]) -> Hashable:
        """The state after the player plays ``row`` and the opponents ``column``."""
        if len(column) == 1:  # two players
            pair = (row, column[0]) if self.player == 0 else (column[0], row)
            after: Hashable = self.game.apply(state, pair)
            return after
        joint: list[Any] = [None] * self.game.num_players
        joint[self.player] = row
        for q, move in zip(self.opponents, column, strict=True):
            joint[q] = move
        child: Hashable = self.game.apply(state, tuple(joint))
        return child

    def matrix(self, state: Hashable, remaining: int | None, rows: tuple[Any, ...],
               columns: tuple[tuple[Any, ...], ...]) -> tuple[tuple[Exact, ...], ...]:
        """The exact payoff matrix of a simultaneous node: each cell the value of the joint move's child."""
        below = None if remaining is None else remaining - 1
        value, child = self.value, self.child
        return tuple(tuple([value(child(state, r, c), below) for c in columns]) for r in rows)


class _Inductor(Walker):
    def __init__(self, game: AnyGame, player: int, payoff: str, deadline: Deadline | None = None,
                 max_nodes: int | None = None) -> None:
        super().__init__(game, player, payoff)
        self.solved: dict[tuple[Hashable, int | None], SimultaneousNode] = {}
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.count = 0

    def tick(self) -> None:
        """One position valued: the limits are checked here, before the work."""
        self.count += 1
        if self.max_nodes is not None and self.count > self.max_nodes:
            raise InductionStopped("nodes", self.count - 1, len(self.solved))
        if self.deadline is not None and self.count % CLOCK_EVERY == 0 and self.deadline.expired():
            raise InductionStopped("time", self.count - 1, len(self.solved))

    def simultaneous(self, state: Hashable, remaining: int | None, rows: tuple[Any, ...],
                     columns: tuple[tuple[Any, ...], ...]) -> Exact:
        if not rows or not columns:
            raise UnsupportedGame(f"{self.game.name}: a player has no move at a simultaneous node")
        matrix = self.matrix(state, remaining, rows, columns)
        solution = solve_matrix(matrix)
        self.solved[(state, remaining)] = SimultaneousNode(state, remaining, rows, columns, matrix, solution)
        return _norm(solution.value)


# --- small helpers ---------------------------------------------------------------------------


def _check_options(game: AnyGame, player: int, depth: int | None, payoff: str) -> None:
    if not 0 <= player < game.num_players:
        raise ValueError(f"player {player} is not a player of {game.name}")
    if game.num_players < 2:
        raise UnsupportedGame(f"{game.name} has one player; simultaneous-move solving needs two or more")
    if depth is not None and depth < 0:
        raise ValueError("depth must be non-negative")
    if payoff not in PAYOFFS:
        raise ValueError(f"payoff must be one of {PAYOFFS}, not {payoff!r}")


def opponents_of(game: AnyGame, player: int) -> tuple[int, ...]:
    """Every player but ``player``: the coalition (or the one opponent) the analysis plays against."""
    return tuple(q for q in range(game.num_players) if q != player)


def analysis_label(game: AnyGame) -> str:
    """What an analysis of ``game`` assumes: zero-sum for two players, else one player against the coalition."""
    return ZERO_SUM if game.num_players == 2 else COALITION


def _norm(x: Fraction) -> Exact:
    """A Fraction with denominator 1 as the int it is (ints compare and add many times faster)."""
    return x.numerator if x.denominator == 1 else x


def _exact(x: float | int | Fraction) -> Exact:
    """A return read exactly: ints and Fractions as they are, a whole float as its int, other floats
    by their shortest decimal (``0.1`` is 1/10)."""
    if type(x) is float and x.is_integer():  # the common case first: games return floats
        return int(x)
    if isinstance(x, int):
        return int(x)
    if isinstance(x, Fraction):
        return _norm(x)
    f = float(x)
    if f.is_integer():
        return int(f)
    return _norm(Fraction(repr(f)))


def _scorer(players: int, player: int, payoff: str) -> Callable[[Sequence[float | int | Fraction]], Exact]:
    """:func:`_scalar` for one player and payoff, with the common case of two players on the margin
    with whole returns (a game's float or int returns, an int banked) as one subtraction."""
    if payoff != "margin" or players != 2:
        return lambda values: _scalar(values, player, payoff)
    other = 1 - player

    def margin(values: Sequence[float | int | Fraction]) -> Exact:
        own, theirs = values[player], values[other]
        if type(own) is float and type(theirs) is float and own.is_integer() and theirs.is_integer():
            return int(own) - int(theirs)
        if type(own) is int and type(theirs) is int:
            return own - theirs
        return _scalar(values, player, payoff)

    return margin


def _scalar(values: Sequence[float | int | Fraction], player: int, payoff: str) -> Exact:
    """The number ``player`` is valued by, from one return (or estimate) per player."""
    own = _exact(values[player])
    if payoff == "own":
        return own
    others = [_exact(v) for q, v in enumerate(values) if q != player]
    if len(others) == 1:
        return own - others[0]
    return _norm(Fraction(own) - Fraction(sum(others), len(others)))


def expected_returns(game: AnyGame, result: SimultaneousResult) -> tuple[Fraction, ...]:
    """Every player's expected return when everyone follows the solved strategies of ``result``.

    At simultaneous nodes the player plays its row mix and the opponents their column mix; at
    decision nodes the player picks a move of best value and an opponent one of worst value for the
    player (the first in the game's order among equals, so this is *one* equilibrium's outcome: with
    ties the individual returns may differ between equally good choices, the player's value cannot);
    chance nodes are averaged. Depth-limited results use the game's evaluation at the cut.
    """
    player, payoff = result.player, result.payoff
    memo: dict[tuple[Hashable, int | None], tuple[Exact, ...]] = {}

    def scalar(values: tuple[Exact, ...]) -> Exact:
        return _scalar(values, player, payoff)

    def walk(state: Hashable, remaining: int | None) -> tuple[Exact, ...]:
        key = (state, remaining)
        if key in memo:
            return memo[key]
        out: tuple[Exact, ...]
        if game.is_terminal(state):
            out = tuple(_exact(v) for v in game.returns(state))
        elif game.to_move(state) == CHANCE:
            total: list[Exact] = [0] * game.num_players
            for outcome, p in game.chance_outcomes(state):
                for q, v in enumerate(walk(game.apply(state, outcome), remaining)):
                    total[q] += p * v
            out = tuple(total)
        elif game.to_move(state) == SIMULTANEOUS:
            if remaining == 0:
                out = tuple(_exact(v) for v in game.evaluate(state))  # type: ignore[attr-defined]
            else:
                below = None if remaining is None else remaining - 1
                total = [0] * game.num_players
                for r, pr, c, pc in _mixes(game, result, state, remaining):
                    joint: list[Any] = [None] * game.num_players
                    joint[player] = r
                    for q, move in zip(result.opponents, c, strict=True):
                        joint[q] = move
                    for q, v in enumerate(walk(game.apply(state, tuple(joint)), below)):
                        total[q] += pr * pc * v
                out = tuple(total)
        else:
            children = [walk(game.apply(state, move), remaining) for move in game.legal_moves(state)]
            pick = max if game.to_move(state) == player else min
            out = pick(children, key=scalar)
        memo[key] = out
        return out

    try:
        return tuple(Fraction(v) for v in walk(result.root, result.depth))
    finally:  # walk's closure holds walk itself: a reference cycle, which kept ``result`` (a compiled walk's
        walk = None  # type: ignore[assignment]  # hundreds of MB) alive until the next cyclic collection


def _mixes(game: AnyGame, result: SimultaneousResult, state: Hashable,
           remaining: int | None) -> list[tuple[Any, Exact, tuple[Any, ...], Exact]]:
    """The (row, its probability, column, its probability) pairs both sides play at a simultaneous
    node with positive probability; a node where everyone has one move (which has no solved node)
    is played as it is forced."""
    node = result.node(state, remaining)
    if node is None and isinstance(game, Banked):  # below the root, nodes are kept under the unbanked position
        split = game.bank(state)
        node = result.node(split[0], remaining) if split is not None else None
    if node is not None:
        return [(r, pr, c, pc) for r, pr in zip(node.rows, node.solution.row, strict=True) if pr
                for c, pc in zip(node.columns, node.solution.col, strict=True) if pc]
    moves = [list(game.player_moves(state, q)) for q in range(game.num_players)]  # type: ignore[attr-defined]
    if any(len(m) != 1 for m in moves):
        raise ValueError(f"the result has no solved node for {game.format_state(state)}")
    return [(moves[result.player][0], 1, tuple(moves[q][0] for q in result.opponents), 1)]
