"""Monte Carlo tree search over the Game protocol: UCT with MCTS-Solver backups, and ISMCTS.

Two searches share one engine and one result type:

* :func:`uct` -- UCT (Kocsis & Szepesvari 2006) on the *open* position: the search sees the whole
  state, hidden cards included, so on a hidden-information game its answer is open analysis and is
  labelled ``information: "open"``. In one- and two-player games it also does MCTS-Solver backups
  (Winands, Bjornsson & Saito 2008): a terminal leaf is a proven value; a decision node is proven as
  soon as one child is a proven win for the player to move (a return equal to the top of
  ``value_range``), or when every child is proven (it takes the best of them); a chance node is proven
  when every outcome is proven (it takes their exact-probability average). A proven child is never
  selected again, and a proven root stops the search and is reported with its value. This is sound
  for two-player zero-sum games (and one-player games); with three or more players the solver is off,
  because "each player maximises their own return" (max^n) is an assumption, not a proof.
* :func:`ismcts` -- single-observer information-set MCTS (SO-ISMCTS; Cowling, Powley & Whitehouse
  2012) for :class:`~stratagem.core.game.HiddenInformation` games. Every iteration draws a fresh
  determinisation ``game.sample_state(state, observer, rng)`` -- a full state the observer cannot tell
  from the real one -- and walks one shared tree with it. Tree edges are keyed by the move's notation
  (``game.format_move``), so the same action from different determinisations shares statistics;
  children are scored with UCB over *availability* counts (how often the move was legal when its
  parent was visited) instead of parent visits. As in SO-ISMCTS, moves and chance outcomes further
  down are branched on as if the observer saw them. There is no solver: a value that holds in one
  determinisation proves nothing about the information set.

Common to both:

* Returns are per player ("higher is better" for each), so the same code serves N-player games:
  every node keeps the sum of returns per player, and the player to move at a node chooses by their
  own component. UCB normalises means into [0, 1] with ``value_range`` (default (-1, 1), the two-player
  zero-sum convention; pass the real range for other games).
* CHANCE nodes: an outcome is drawn with its exact :class:`~fractions.Fraction` probability
  (:func:`sample_outcome`), and each outcome gets its own child.
* SIMULTANEOUS nodes (:class:`~stratagem.core.game.Simultaneous` games): decoupled UCT -- each player
  picks their own move by UCB over their own statistics at that node, keyed by the move value; the
  joint move selects the child. Such nodes are never proven. (This keeps UCT usable on games with
  a few simultaneous turns; :mod:`stratagem.solvers.duct` is the dedicated simultaneous-move search.)
* Leaves are valued by a playout to the end: uniformly random moves unless a ``rollout_policy`` is
  given; ``rollout_limit`` cuts long playouts, scoring the cut state with the game's
  :class:`~stratagem.core.game.Evaluation` if it has one, else the middle of ``value_range``;
  ``rollout_limit=0`` values a new leaf by the evaluation alone (an evaluation cut-off).
* Guided open search (``uct(guided=True)``, the default): the game's knowledge steers the search
  where it has some. With :class:`~stratagem.core.game.MoveOrdering`, a node's moves are expanded
  in ``order_moves`` order with progressive widening: a node visited ``n`` times considers only its
  first ``widening * sqrt(n + 1)`` moves (more once those are all proven), so a few iterations go deep
  along the moves the game rates best instead of trying every move once. A game may also declare a
  ``rollout_limit`` attribute, the playout length it wants before its evaluation takes over (Card
  Clash: 0, its evaluation alone); guided search uses it when no ``rollout_limit`` is given.
  ``guided=False`` is plain UCT: every move tried once first, in an order drawn from the seed, and
  random playouts. Measured in results/mcts.md.
* Open search keeps each node's state, player to move and edges, and its children in a list aligned
  with the edges; moves are formatted (``format_move``) only for the root's report. :class:`SearchTree`
  keeps a tree from one search to the next (tree reuse between the moves of a game).
* Budget: ``iterations`` (deterministic) and/or ``time_limit`` in seconds (wall clock, therefore *not*
  deterministic: how far a timed search gets depends on the machine). Whichever runs out first stops
  the search.
* Deterministic: all randomness comes from ``random.Random(seed)``; moves are tried in an order drawn
  from it, and ties in UCB and in the final choice go to the earlier move in ``legal_moves`` order.

The final move is the proven best if the root is proven; otherwise a proven win if any, else the most
visited move that is not a proven loss (ties: higher mean, then legal order).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from random import Random
from typing import Any, Generic

from stratagem.core.errors import UnsupportedGame
from stratagem.core.game import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Evaluation,
    Game,
    HiddenInformation,
    M,
    MoveOrdering,
    Simultaneous,
)

__all__ = [
    "DEFAULT_WIDENING",
    "MctsResult",
    "MoveStats",
    "RolloutPolicy",
    "SearchTree",
    "UnsupportedGame",
    "ismcts",
    "playout",
    "sample_outcome",
    "uct",
]

#: A playout policy: ``policy(game, state, rng) -> move`` for the player to move in ``state``.
RolloutPolicy = Callable[[Any, Any, Random], Any]

#: UCB1's exploration constant for rewards in [0, 1].
DEFAULT_EXPLORATION = math.sqrt(2)
#: Progressive widening of guided search: a node visited ``n`` times considers its first
#: ``DEFAULT_WIDENING * sqrt(n + 1)`` moves in the game's order.
DEFAULT_WIDENING = 2.0


def sample_outcome(outcomes: Sequence[tuple[M, Fraction]], rng: Random) -> M:
    """One outcome drawn with its exact probability.

    Draws an integer below the common denominator, so the probabilities are honoured exactly and the
    draw is reproducible for a given ``rng`` state.
    """
    if not outcomes:
        raise UnsupportedGame("a chance node lists no outcomes")
    probabilities = [Fraction(p) for _, p in outcomes]
    denominator = math.lcm(*(p.denominator for p in probabilities))
    ticket = rng.randrange(denominator)
    for (outcome, _), p in zip(outcomes, probabilities, strict=True):
        ticket -= int(p * denominator)
        if ticket < 0:
            return outcome
    raise UnsupportedGame(f"chance probabilities sum to {sum(probabilities)}, not 1")


def playout(
    game: Game[Any, Any],
    state: Any,
    rng: Random,
    *,
    policy: RolloutPolicy | None = None,
    limit: int | None = None,
    value_range: tuple[float, float] = (-1.0, 1.0),
) -> tuple[float, ...]:
    """The returns at the end of one playout from ``state``.

    Moves are uniformly random (or ``policy``'s), chance outcomes follow their probabilities, and at a
    simultaneous node every player picks uniformly from ``player_moves``. After ``limit`` plies the
    state is scored by the game's ``evaluate`` if it has one, else every player gets the middle of
    ``value_range``.
    """
    plies = 0
    while not game.is_terminal(state):
        if limit is not None and plies >= limit:
            if isinstance(game, Evaluation):
                return tuple(float(v) for v in game.evaluate(state))
            middle = (value_range[0] + value_range[1]) / 2
            return (middle,) * game.num_players
        mover = game.to_move(state)
        if mover == CHANCE:
            move = sample_outcome(game.chance_outcomes(state), rng)
        elif mover == SIMULTANEOUS:
            move = tuple(rng.choice(list(_player_moves(game, state, p))) for p in range(game.num_players))
        elif policy is not None:
            move = policy(game, state, rng)
        else:
            moves = game.legal_moves(state)
            move = moves[rng.randrange(len(moves))]
        state = game.apply(state, move)
        plies += 1
    return tuple(float(v) for v in game.returns(state))


def _player_moves(game: Game[Any, Any], state: Any, player: int) -> Sequence[Any]:
    if not isinstance(game, Simultaneous):
        raise UnsupportedGame(f"game {game.name!r} reached a simultaneous node but has no player_moves")
    moves = game.player_moves(state, player)
    if not moves:
        raise UnsupportedGame(f"player {player} has no moves at a simultaneous node of {game.name!r}")
    return moves


# --------------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class MoveStats(Generic[M]):
    """What the search learned about one root move.

    ``mean`` is the average return of the root player over the ``visits`` iterations through the
    move (0.0 if never visited); ``proven_value`` is that player's proven return after the move
    (open UCT with the solver only), else None.
    """

    move: M
    notation: str
    visits: int
    mean: float
    proven_value: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "move": self.notation,
            "proven_value": self.proven_value,
            "visits": self.visits,
        }


@dataclass(frozen=True)
class MctsResult(Generic[M]):
    """The outcome of one search from one position.

    * ``method``: ``"uct"`` or ``"ismcts"``; ``information``: ``"open"`` (the search saw the whole
      state) or ``"observation of player P"``.
    * ``player``: whose moves ``moves`` describes (the player to move, or the chosen player at a
      simultaneous root); ``moves`` in ``legal_moves`` (or ``player_moves``) order.
    * ``best_move``/``best_notation``: the recommended move (None at a terminal root).
    * ``iterations`` done and wall ``seconds`` spent.
    * ``proven``: the root's value is proven (open UCT with the solver, or a terminal root);
      ``value`` is then the proven returns per player and ``plies`` the length of the proven line
      the search found (not necessarily the shortest). Otherwise both are None.
    """

    method: str
    information: str
    player: int
    best_move: M | None
    best_notation: str | None
    moves: tuple[MoveStats[M], ...]
    iterations: int
    seconds: float
    proven: bool
    value: tuple[float, ...] | None
    plies: int | None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (moves in legal order)."""
        return {
            "best_move": self.best_notation,
            "information": self.information,
            "iterations": self.iterations,
            "method": self.method,
            "moves": [m.to_json() for m in self.moves],
            "player": self.player,
            "plies": self.plies,
            "proven": self.proven,
            "seconds": self.seconds,
            "value": list(self.value) if self.value is not None else None,
        }


# --------------------------------------------------------------------------------------------------
# The tree


class _Node:
    """One node of the search tree: visit count, summed returns per player, children by edge key.

    In open search the node also caches its state and its list of edges; in ISMCTS neither is fixed
    (each determinisation brings its own), and ``avail`` counts how often the node's edge was legal
    when its parent was visited.
    """

    __slots__ = ("visits", "totals", "children", "avail", "state", "edges", "proven", "plies", "sim", "mover",
                 "kids", "expanded", "tickets")

    def __init__(self, num_players: int) -> None:
        self.visits = 0
        self.totals = [0.0] * num_players
        self.children: dict[Hashable, _Node] = {}
        self.avail = 0
        self.state: Any = None
        #: Open search: (key, move, probability) per edge; probability is None at decision nodes.
        self.edges: list[tuple[str, Any, Fraction | None]] | None = None
        self.proven: tuple[float, ...] | None = None
        self.plies = 0
        #: Simultaneous nodes: per player, move -> [visits, summed own return].
        self.sim: list[dict[Hashable, list[float]]] | None = None
        #: Open search: the player to move (or CHANCE, SIMULTANEOUS, TERMINAL), once the state is known.
        self.mover = TERMINAL
        #: Open search: the child of each edge (None until expanded), aligned with ``edges``, which are
        #: in expansion order; the first ``expanded`` of them have been expanded.
        self.kids: list[_Node | None] = []
        self.expanded = 0
        #: Open search, chance nodes: the common denominator and each outcome's cumulative share of it.
        self.tickets: tuple[int, list[int]] | None = None


class _Search:
    """The engine behind :func:`uct` (``observer is None``) and :func:`ismcts`."""

    def __init__(
        self,
        game: Game[Any, Any],
        root_state: Any,
        rng: Random,
        *,
        observer: int | None,
        exploration: float,
        value_range: tuple[float, float],
        solver: bool,
        rollout_policy: RolloutPolicy | None,
        rollout_limit: int | None,
        guided: bool = False,
        widening: float | None = None,
    ) -> None:
        low, high = value_range
        if not high > low:
            raise ValueError(f"value_range {value_range} is not (low, high) with low < high")
        self.game = game
        self.rng = rng
        self.observer = observer
        self.exploration = exploration
        self.low, self.high = float(low), float(high)
        self.solver = solver and observer is None and game.num_players <= 2
        self.rollout_policy = rollout_policy
        if rollout_limit is None and guided:
            # The game's own say on how far a playout should go before its evaluation takes over.
            declared = getattr(game, "rollout_limit", None)
            rollout_limit = declared if isinstance(declared, int) and declared >= 0 else None
        self.rollout_limit = rollout_limit
        self.root_state = root_state
        self.evaluation = isinstance(game, Evaluation)  # checked once: a Protocol isinstance is slow
        #: Open search over decision and chance nodes only: the fast path (:meth:`iterate_open`).
        self.open = observer is None and not isinstance(game, Simultaneous)
        self.guided = guided
        # Open search orders the edges it caches; ISMCTS orders each determinisation's moves.
        self.ordering = guided and (self.open or observer is not None) and isinstance(game, MoveOrdering)
        self.widening = widening if self.ordering else None
        self.root = _Node(game.num_players)
        self.root.state = root_state
        self.root.mover = self._mover(root_state)

    # -- one iteration ----------------------------------------------------------------------------

    def _mover(self, state: Any) -> int:
        return TERMINAL if self.game.is_terminal(state) else self.game.to_move(state)

    def iterate(self) -> None:
        if self.open:
            self.iterate_open()
            return
        self.iterate_general()

    def iterate_open(self) -> None:
        """One iteration of open search: states, movers and edges are cached in the nodes, children sit
        in a list aligned with the edges (no notation is formatted on the way down), and edges are
        expanded in a fixed order: the game's :meth:`~stratagem.core.game.MoveOrdering.order_moves`
        when guided, else an order drawn from the seed."""
        node = self.root
        path = [node]
        solver = self.solver
        while True:
            if node.proven is not None:
                value = node.proven
                break
            if node.mover == TERMINAL:  # reached again without the solver
                value = tuple(float(v) for v in self.game.returns(node.state))
                break
            if node.mover == CHANCE:
                index = self._draw(node)
            else:
                picked = self._select(node)
                if picked is None:  # every child is proven, so this node is proven too
                    self._prove(node, node.state)
                    assert node.proven is not None
                    value = node.proven
                    break
                index = picked
            child = node.kids[index]
            if child is None:
                child = self._expand(node, index)
                path.append(child)
                if child.mover == TERMINAL:
                    value = tuple(float(v) for v in self.game.returns(child.state))
                    if solver:
                        child.proven = value
                else:
                    value = self._rollout(child.state)
                break
            node = child
            path.append(node)
        for n in path:
            n.visits += 1
            totals = n.totals
            for p, v in enumerate(value):
                totals[p] += v
        if solver and path[-1].proven is not None:  # only a proven leaf can prove more
            for n in reversed(path[:-1]):
                if n.proven is None and not self._prove(n, n.state):
                    break

    def _rollout(self, state: Any) -> tuple[float, ...]:
        """The value of a new leaf: a playout, cut at ``rollout_limit`` plies and scored by the game's
        evaluation when it has one."""
        limit = self.rollout_limit
        if limit == 0 and self.evaluation:
            return tuple(float(v) for v in self.game.evaluate(state))  # type: ignore[attr-defined]
        return playout(self.game, state, self.rng, policy=self.rollout_policy, limit=limit,
                       value_range=(self.low, self.high))

    def _open_edges(self, node: _Node) -> list[tuple[str, Any, Fraction | None]]:
        """The node's edges in expansion order, made once. Keys (the notation) are filled in lazily
        by :meth:`_key`: formatting every move of every node would cost more than the search."""
        game, state = self.game, node.state
        if node.mover == CHANCE:
            outcomes = list(game.chance_outcomes(state))
            if not outcomes:
                raise UnsupportedGame("a chance node lists no outcomes")
            probabilities = [Fraction(p) for _, p in outcomes]
            denominator = math.lcm(*(p.denominator for p in probabilities))
            cumulative, total = [], 0
            for p in probabilities:
                total += int(p * denominator)
                cumulative.append(total)
            if total != denominator:
                raise UnsupportedGame(f"chance probabilities sum to {sum(probabilities)}, not 1")
            node.tickets = (denominator, cumulative)
            edges: list[tuple[str, Any, Fraction | None]] = [
                ("", o, p) for (o, _), p in zip(outcomes, probabilities, strict=True)]
        else:
            moves = list(game.legal_moves(state))
            if not moves:
                raise UnsupportedGame(f"{game.name!r}: player {node.mover} has no legal move in a "
                                      "non-terminal state")
            if self.ordering and len(moves) > 1:
                moves = list(game.order_moves(state, moves))  # type: ignore[attr-defined]
            else:
                self.rng.shuffle(moves)
            edges = [("", m, None) for m in moves]
        node.edges = edges
        node.kids = [None] * len(edges)
        return edges

    def _draw(self, node: _Node) -> int:
        """The index of a chance outcome drawn with its exact probability."""
        if node.edges is None:
            self._open_edges(node)
        assert node.tickets is not None
        denominator, cumulative = node.tickets
        ticket = self.rng.randrange(denominator)
        for i, top in enumerate(cumulative):
            if ticket < top:
                return i
        raise AssertionError("a ticket beyond the common denominator")  # pragma: no cover

    def _select(self, node: _Node) -> int | None:
        """The edge to follow from a decision node: the next unexpanded edge while the node may widen,
        else the best by UCB among the unproven children; None when every child is proven."""
        edges = node.edges if node.edges is not None else self._open_edges(node)
        expanded = node.expanded
        count = len(edges)
        widening = self.widening
        if expanded < count and (widening is None or expanded < widening * math.sqrt(node.visits + 1)):
            return expanded
        mover = node.mover
        scale = 1.0 / (self.high - self.low)
        low = self.low
        explore = self.exploration * math.sqrt(math.log(node.visits)) if node.visits > 1 else 0.0
        best, best_score = None, -math.inf
        kids = node.kids
        for i in range(expanded):
            child = kids[i]
            assert child is not None
            if child.proven is not None:
                continue
            visits = child.visits
            score = (child.totals[mover] / visits - low) * scale + explore / math.sqrt(visits)
            if score > best_score:
                best, best_score = i, score
        if best is None and expanded < count:
            return expanded  # the expanded children are all proven: widen
        return best

    def _expand(self, node: _Node, index: int) -> _Node:
        assert node.edges is not None
        child = _Node(self.game.num_players)
        child.state = self.game.apply(node.state, node.edges[index][1])
        child.mover = self._mover(child.state)
        node.kids[index] = child
        node.expanded += 1
        return child

    def key(self, node: _Node, index: int) -> str:
        """The notation of a node's edge (open search formats it only when asked)."""
        assert node.edges is not None
        key, move, p = node.edges[index]
        if not key:
            key = self.game.format_move(node.state, move)
            node.edges[index] = (key, move, p)
        return key

    def iterate_general(self) -> None:
        """One iteration of ISMCTS, or of open search in a game with simultaneous nodes."""
        game = self.game
        if self.observer is None:
            state = self.root_state
        else:
            state = game.sample_state(self.root_state, self.observer, self.rng)  # type: ignore[attr-defined]
        node = self.root
        path = [node]
        joint_choices: list[tuple[_Node, tuple[Any, ...]]] = []
        while True:
            if node.proven is not None:
                value = node.proven
                break
            if game.is_terminal(state):
                value = tuple(float(v) for v in game.returns(state))
                if self.solver:
                    node.proven = value
                break
            mover = game.to_move(state)
            if mover == SIMULTANEOUS:
                key: Hashable = self._choose_joint(node, state)
                joint_choices.append((node, key))  # type: ignore[arg-type]
                move: Any = key
            else:
                picked = self._chance(node, state) if mover == CHANCE else self._decide(node, state, mover)
                if picked is None:
                    # Open search only: every child is proven, so this node is proven too.
                    self._prove(node, state)
                    assert node.proven is not None
                    value = node.proven
                    break
                key, move = picked
            child = node.children.get(key)
            cached = child.state if child is not None else None
            state = cached if cached is not None else game.apply(state, move)
            if child is None:
                child = _Node(game.num_players)
                if self.observer is None:
                    child.state = state
                node.children[key] = child
                path.append(child)
                value = self._leaf_value(child, state)
                break
            node = child
            path.append(node)
        self._backup(path, joint_choices, value)

    def _leaf_value(self, node: _Node, state: Any) -> tuple[float, ...]:
        if self.game.is_terminal(state):
            value = tuple(float(v) for v in self.game.returns(state))
            if self.solver:
                node.proven = value
            return value
        return playout(
            self.game, state, self.rng, policy=self.rollout_policy, limit=self.rollout_limit,
            value_range=(self.low, self.high),
        )

    def _backup(
        self, path: list[_Node], joint_choices: list[tuple[_Node, tuple[Any, ...]]], value: tuple[float, ...]
    ) -> None:
        for node in path:
            node.visits += 1
            totals = node.totals
            for p, v in enumerate(value):
                totals[p] += v
        for node, joint in joint_choices:
            assert node.sim is not None
            for p, move in enumerate(joint):
                stats = node.sim[p][move]
                stats[0] += 1
                stats[1] += value[p]
        if self.solver:
            for node in reversed(path[:-1]):
                if node.proven is None and not self._prove(node, node.state):
                    break

    # -- edges --------------------------------------------------------------------------------------

    def _edges(self, node: _Node, state: Any, mover: int) -> list[tuple[str, Any, Fraction | None]]:
        if node.edges is not None:
            return node.edges
        game = self.game
        edges: list[tuple[str, Any, Fraction | None]]
        if mover == CHANCE:
            edges = [(game.format_move(state, o), o, Fraction(p)) for o, p in game.chance_outcomes(state)]
        else:
            moves = list(game.legal_moves(state))
            if self.ordering and len(moves) > 1:  # ISMCTS, guided: this determinisation's moves in the game's order
                moves = list(game.order_moves(state, moves))  # type: ignore[attr-defined]
            edges = [(game.format_move(state, m), m, None) for m in moves]
        if self.observer is None:
            node.edges = edges
        return edges

    def _chance(self, node: _Node, state: Any) -> tuple[str, Any]:
        outcome = sample_outcome(self.game.chance_outcomes(state), self.rng)
        if node.edges is not None:  # open search: look the key up rather than format again
            for key, o, _ in node.edges:
                if o == outcome:
                    return key, outcome
        if self.observer is None:
            self._edges(node, state, CHANCE)
        return self.game.format_move(state, outcome), outcome

    def _score(self, total: float, visits: float, parent_visits: float) -> float:
        mean = (total / visits - self.low) / (self.high - self.low)
        return mean + self.exploration * math.sqrt(math.log(parent_visits) / visits)

    def _decide(self, node: _Node, state: Any, mover: int) -> tuple[str, Any] | None:
        edges = self._edges(node, state, mover)
        if not edges:
            raise UnsupportedGame(f"{self.game.name!r}: player {mover} has no legal move in a non-terminal state")
        children = node.children
        if self.observer is not None:
            for key, _, _ in edges:
                child = children.get(key)
                if child is not None:
                    child.avail += 1
        untried = [(key, move) for key, move, _ in edges if key not in children]
        if untried:
            if self.widening is None:
                return untried[self.rng.randrange(len(untried))]
            # Guided ISMCTS: progressive widening over the moves available in this determinisation, in
            # the game's order: while few of them have children, expand the first one without.
            if len(edges) - len(untried) < self.widening * math.sqrt(node.visits + 1):
                return untried[0]
        best: tuple[str, Any] | None = None
        best_score = -math.inf
        for key, move, _ in edges:
            child = children.get(key)
            if child is None or (self.solver and child.proven is not None):
                continue
            parent = node.visits if self.observer is None else child.avail
            score = self._score(child.totals[mover], child.visits, parent)
            if score > best_score:
                best, best_score = (key, move), score
        if best is None and untried:
            return untried[0]
        return best

    def _choose_joint(self, node: _Node, state: Any) -> tuple[Any, ...]:
        game = self.game
        if node.sim is None:
            node.sim = [{} for _ in range(game.num_players)]
        joint = []
        for p in range(game.num_players):
            moves = _player_moves(game, state, p)
            stats = node.sim[p]
            untried = [m for m in moves if m not in stats]
            if untried:
                choice = untried[self.rng.randrange(len(untried))]
                stats[choice] = [0, 0.0]
            else:
                choice, best_score = moves[0], -math.inf
                for m in moves:
                    visits, total = stats[m]
                    score = self._score(total, visits, max(node.visits, 1)) if visits else math.inf
                    if score > best_score:
                        choice, best_score = m, score
            joint.append(choice)
        return tuple(joint)

    # -- MCTS-Solver ----------------------------------------------------------------------------------

    def _prove(self, node: _Node, state: Any) -> bool:
        """Try to prove ``node`` from its children (open search only); True if it is now proven."""
        game = self.game
        if self.open:
            mover = node.mover
            if mover == TERMINAL:
                node.proven = tuple(float(v) for v in game.returns(state))
                return True
        else:
            if game.is_terminal(state):
                node.proven = tuple(float(v) for v in game.returns(state))
                return True
            mover = game.to_move(state)
        if mover == SIMULTANEOUS or node.edges is None:
            return False
        children = node.kids if self.open else [node.children.get(key) for key, _, _ in node.edges]
        if mover == CHANCE:
            if any(c is None or c.proven is None for c in children):
                return False
            value = [0.0] * game.num_players
            for (_, _, p), child in zip(node.edges, children, strict=True):
                assert child is not None and child.proven is not None and p is not None
                for i, v in enumerate(child.proven):
                    value[i] += float(p) * v
            node.proven = tuple(value)
            node.plies = 1 + max(c.plies for c in children if c is not None)
            return True
        pick = _proven_choice(children, mover, self.high, require_all=True)
        if pick is None:
            return False
        chosen = children[pick]
        assert chosen is not None and chosen.proven is not None
        node.proven = chosen.proven
        node.plies = 1 + chosen.plies
        return True


def _proven_choice(children: Sequence[_Node | None], mover: int, high: float, *, require_all: bool) -> int | None:
    """Index of the child a proven node takes: a proven win (fewest plies) if any; otherwise, once
    every child is proven (or if not ``require_all``, among the proven ones), the best value, taking
    the longest line when it is not a win. None if no choice can be made yet."""
    wins = [
        (c.plies, i)
        for i, c in enumerate(children)
        if c is not None and c.proven is not None and c.proven[mover] >= high
    ]
    if wins:
        return min(wins)[1]
    proven = [(i, c) for i, c in enumerate(children) if c is not None and c.proven is not None]
    if not proven or (require_all and len(proven) < len(children)):
        return None
    best = max(c.proven[mover] for _, c in proven if c.proven is not None)
    longest = [(-c.plies, i) for i, c in proven if c.proven is not None and c.proven[mover] == best]
    return min(longest)[1]


# --------------------------------------------------------------------------------------------------
# Tree reuse


class SearchTree:
    """A UCT search tree kept between the moves of one game (tree reuse).

    :func:`uct` given a ``SearchTree`` looks there for the position it is asked about -- the last
    search's root, or a node at most one round of plies (``num_players`` plies) below it that the last
    search expanded -- and, if found, goes on from that node, statistics and proofs included, instead of
    starting afresh; it then keeps its own root here. A search with other settings (guidance,
    widening, solver, value range) or another game starts afresh. Open search only; the position is
    compared by equality, so it is found whichever moves led to it.
    """

    def __init__(self) -> None:
        self._root: _Node | None = None
        self._game: Any = None
        self._settings: Hashable = None
        #: Searches that started from a reused node, and those that started afresh.
        self.reused = 0
        self.fresh = 0

    def find(self, game: Any, state: Any, settings: Hashable) -> _Node | None:
        """The kept node of ``state`` (None when there is none, or it was made with other settings)."""
        root = self._root
        if root is None or self._game is not game or self._settings != settings:
            self.fresh += 1
            return None
        layer = [root]
        for _ in range(game.num_players + 1):
            for node in layer:
                if node.state == state:
                    self.reused += 1
                    return node
            layer = [kid for node in layer for kid in node.kids if kid is not None]
        self.fresh += 1
        return None

    def keep(self, game: Any, root: _Node, settings: Hashable) -> None:
        """Keep ``root`` (and everything below it) for the next search."""
        self._root, self._game, self._settings = root, game, settings


# --------------------------------------------------------------------------------------------------
# Driving a search


def _run(search: _Search, iterations: int | None, time_limit: float | None) -> tuple[int, float]:
    if iterations is None and time_limit is None:
        raise ValueError("give an iteration budget, a time limit, or both")
    if iterations is not None and iterations < 0:
        raise ValueError(f"iterations must be non-negative, not {iterations}")
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    done = 0
    while iterations is None or done < iterations:
        if search.root.proven is not None:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
        search.iterate()
        done += 1
    return done, time.perf_counter() - start


def _root_player(game: Game[Any, Any], state: Any, player: int | None) -> int:
    mover = game.to_move(state)
    if mover == SIMULTANEOUS:
        if player is None or not 0 <= player < game.num_players:
            raise UnsupportedGame("at a simultaneous node, say which player's moves to report (player=...)")
        return player
    if mover == CHANCE:
        raise UnsupportedGame("the position is a chance node: there is no move to choose")
    if player is not None and player != mover:
        raise UnsupportedGame(f"player {player} is not to move (player {mover} is)")
    return mover


def _terminal_result(game: Game[Any, Any], state: Any, method: str, information: str) -> MctsResult[Any]:
    value = tuple(float(v) for v in game.returns(state))
    return MctsResult(method, information, TERMINAL, None, None, (), 0, 0.0, True, value, 0)


def uct(
    game: Game[Any, M],
    state: Any,
    *,
    iterations: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    exploration: float = DEFAULT_EXPLORATION,
    value_range: tuple[float, float] = (-1.0, 1.0),
    solver: bool = True,
    rollout_policy: RolloutPolicy | None = None,
    rollout_limit: int | None = None,
    player: int | None = None,
    guided: bool = True,
    widening: float = DEFAULT_WIDENING,
    tree: SearchTree | None = None,
) -> MctsResult[M]:
    """UCT from ``state`` seeing the whole state (open analysis), with MCTS-Solver backups.

    ``player`` is only needed at a simultaneous root (whose moves to report); elsewhere it defaults to
    the player to move. ``guided`` uses the game's knowledge where it has it: moves are expanded in
    :meth:`~stratagem.core.game.MoveOrdering.order_moves` order with progressive widening (a node
    visited ``n`` times considers its first ``widening * sqrt(n + 1)`` moves, more once those are
    all proven); ``guided=False`` expands every move first, in an order drawn from the seed (plain
    UCT). ``rollout_limit=0`` values a new leaf by the game's evaluation alone. ``tree`` keeps the
    search tree between calls: a later search of a position within a round of plies below the last
    one's root starts from what was learnt there (tree reuse; ``iterations`` then counts the new
    iterations only). See the module docstring for the budget, the solver and determinism.
    """
    information = "open"
    if game.is_terminal(state):
        return _terminal_result(game, state, "uct", information)
    root_player = _root_player(game, state, player)
    search = _Search(
        game, state, Random(seed), observer=None, exploration=exploration, value_range=value_range,
        solver=solver, rollout_policy=rollout_policy, rollout_limit=rollout_limit, guided=guided,
        widening=widening,
    )
    if tree is not None and search.open:
        reused = tree.find(game, state, (guided, widening, solver, search.low, search.high))
        if reused is not None:
            search.root = reused
    done, seconds = _run(search, iterations, time_limit)
    root = search.root
    if tree is not None and search.open:
        tree.keep(game, root, (guided, widening, solver, search.low, search.high))
    if game.to_move(state) == SIMULTANEOUS:
        stats = _simultaneous_stats(game, state, root, root_player)
        return _result("uct", information, root_player, stats, _most_visited(stats), done, seconds, None, 0)
    if search.open:
        if root.edges is None:
            search._open_edges(root)
        assert root.edges is not None
        where = {move: i for i, (_, move, _) in enumerate(root.edges)}
        legal = game.legal_moves(state)
        children = [root.kids[where[move]] for move in legal]
        keys = [search.key(root, where[move]) for move in legal]
        edges: list[tuple[str, Any, Fraction | None]] = [
            (key, move, None) for key, move in zip(keys, legal, strict=True)]
    else:
        edges = search._edges(root, state, root_player)
        children = [root.children.get(key) for key, _, _ in edges]
    stats = []
    for (key, move, _), child in zip(edges, children, strict=True):
        visits = child.visits if child is not None else 0
        mean = child.totals[root_player] / visits if child is not None and visits else 0.0
        proven_value = child.proven[root_player] if child is not None and child.proven is not None else None
        stats.append(MoveStats(move, key, visits, mean, proven_value))
    pick = _proven_choice(children, root_player, search.high, require_all=True) if search.solver else None
    if pick is None:
        # No proven win and not everything proven: the most visited move that is not a proven loss.
        safe = [i for i, s in enumerate(stats) if s.proven_value is None or s.proven_value > search.low]
        pick = _most_visited(stats, safe or None)
    return _result("uct", information, root_player, stats, pick, done, seconds, root.proven, root.plies)


def ismcts(
    game: Game[Any, M],
    state: Any,
    *,
    iterations: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    exploration: float = DEFAULT_EXPLORATION,
    value_range: tuple[float, float] = (-1.0, 1.0),
    rollout_policy: RolloutPolicy | None = None,
    rollout_limit: int | None = None,
    player: int | None = None,
    guided: bool = False,
    widening: float = DEFAULT_WIDENING,
) -> MctsResult[M]:
    """SO-ISMCTS from the point of view of the player to move (or ``player`` at a simultaneous root).

    ``state`` is the real state, but the search only ever uses it through ``game.sample_state(state,
    player, rng)`` -- one determinisation per iteration -- and to list the player's own moves at the
    end (which the player knows). Needs a :class:`~stratagem.core.game.HiddenInformation` game.
    ``guided`` (off by default here) uses the game's knowledge as :func:`uct` does: the game's declared
    ``rollout_limit`` when none is given, and with :class:`~stratagem.core.game.MoveOrdering` each
    determinisation's moves in ``order_moves`` order with progressive widening (a node visited ``n``
    times expands a new move while fewer than ``widening * sqrt(n + 1)`` of the moves available in
    this determinisation have a child).
    """
    if not isinstance(game, HiddenInformation):
        raise UnsupportedGame(f"ISMCTS needs a hidden-information game (observation and sample_state); "
                              f"{game.name!r} has none: use open UCT")
    if game.is_terminal(state):
        return _terminal_result(game, state, "ismcts", "open")
    observer = _root_player(game, state, player)
    information = f"observation of player {observer}"
    search = _Search(
        game, state, Random(seed), observer=observer, exploration=exploration, value_range=value_range,
        solver=False, rollout_policy=rollout_policy, rollout_limit=rollout_limit, guided=guided, widening=widening,
    )
    done, seconds = _run(search, iterations, time_limit)
    root = search.root
    if game.to_move(state) == SIMULTANEOUS:
        stats = _simultaneous_stats(game, state, root, observer)
    else:
        stats = []
        for move in game.legal_moves(state):
            key = game.format_move(state, move)
            child = root.children.get(key)
            visits = child.visits if child is not None else 0
            mean = child.totals[observer] / visits if child is not None and visits else 0.0
            stats.append(MoveStats(move, key, visits, mean, None))
    return _result("ismcts", information, observer, stats, _most_visited(stats), done, seconds, None, 0)


def _simultaneous_stats(game: Game[Any, Any], state: Any, root: _Node, player: int) -> list[MoveStats[Any]]:
    own = root.sim[player] if root.sim is not None else {}
    stats = []
    for move in _player_moves(game, state, player):
        visits, total = own.get(move, [0, 0.0])
        stats.append(MoveStats(move, _player_move_label(game, state, player, move), int(visits),
                               total / visits if visits else 0.0, None))
    return stats


def _player_move_label(game: Game[Any, Any], state: Any, player: int, move: Any) -> str:
    """One player's move at a simultaneous node in notation: the game's ``format_player_move(state,
    player, move)`` if it has one (the convention of :mod:`stratagem.solvers.simultaneous`), else
    ``format_move(state, move)``."""
    formatter = getattr(game, "format_player_move", None)
    if callable(formatter):
        return str(formatter(state, player, move))
    return game.format_move(state, move)


def _most_visited(stats: Sequence[MoveStats[Any]], among: Sequence[int] | None = None) -> int:
    """Index of the most visited move (only those at the indices ``among``, if given); ties go to the
    higher mean, then to the earlier move."""
    indices = range(len(stats)) if among is None else among
    return min(indices, key=lambda i: (-stats[i].visits, -stats[i].mean, i))


def _result(
    method: str,
    information: str,
    player: int,
    stats: Sequence[MoveStats[M]],
    pick: int,
    iterations: int,
    seconds: float,
    proven: tuple[float, ...] | None,
    plies: int,
) -> MctsResult[M]:
    best = stats[pick] if stats else None
    return MctsResult(
        method=method,
        information=information,
        player=player,
        best_move=best.move if best is not None else None,
        best_notation=best.notation if best is not None else None,
        moves=tuple(stats),
        iterations=iterations,
        seconds=seconds,
        proven=proven is not None,
        value=proven,
        plies=plies if proven is not None else None,
    )
