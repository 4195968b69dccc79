"""The engine behind :func:`~stratagem.solvers.mcts.uct` and :func:`~stratagem.solvers.mcts.ismcts`: the
tree's nodes, one iteration (selection, expansion, a playout, the backup) and MCTS-Solver's proofs.

One concept, one module: open search's fast path (:meth:`Search.iterate_open`) and the general walk
(ISMCTS, simultaneous nodes: :meth:`Search.iterate_general`) share the node type, the UCB score, the
playouts and the solver's backups, and are tested against each other, so they stay together even
though the module is long.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from fractions import Fraction
from random import Random
from typing import Any

from stratagem.core.errors import UnsupportedGame
from stratagem.core.game import CHANCE, SIMULTANEOUS, TERMINAL, Evaluation, Game, MoveOrdering, Simultaneous
from stratagem.solvers.mcts.playout import RolloutPolicy, player_moves, playout, sample_outcome

#: UCB1's exploration constant for rewards in [0, 1].
DEFAULT_EXPLORATION = math.sqrt(2)
#: Progressive widening of guided search: a node visited ``n`` times considers its first
#: ``DEFAULT_WIDENING * sqrt(n + 1)`` moves in the game's order.
DEFAULT_WIDENING = 2.0



def declared_rollout_limit(game: Game[Any, Any]) -> int | None:
    """The game's own say on how far a guided playout goes before its evaluation takes over (its
    ``rollout_limit``, a non-negative int), or None: playouts to the end."""
    declared = getattr(game, "rollout_limit", None)
    return declared if isinstance(declared, int) and declared >= 0 else None


def orders_moves(game: Game[Any, Any], *, observed: bool) -> bool:
    """Whether a guided search orders moves by the game's :class:`MoveOrdering`: ISMCTS (``observed``) orders
    each determinisation's moves; open UCT the edges it caches, except at simultaneous moves."""
    return (observed or not isinstance(game, Simultaneous)) and isinstance(game, MoveOrdering)

class Node:
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
        self.children: dict[Hashable, Node] = {}
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
        self.kids: list[Node | None] = []
        self.expanded = 0
        #: Open search, chance nodes: the common denominator and each outcome's cumulative share of it.
        self.tickets: tuple[int, list[int]] | None = None


class Search:
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
            rollout_limit = declared_rollout_limit(game)
        self.rollout_limit = rollout_limit
        self.root_state = root_state
        self.evaluation = isinstance(game, Evaluation)  # checked once: a Protocol isinstance is slow
        #: Open search over decision and chance nodes only: the fast path (:meth:`iterate_open`).
        self.open = observer is None and not isinstance(game, Simultaneous)
        self.guided = guided
        # Open search orders the edges it caches; ISMCTS orders each determinisation's moves.
        self.ordering = guided and orders_moves(game, observed=observer is not None)
        self.widening = widening if self.ordering else None
        self.root = Node(game.num_players)
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

    def _open_edges(self, node: Node) -> list[tuple[str, Any, Fraction | None]]:
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

    def _draw(self, node: Node) -> int:
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

    def _select(self, node: Node) -> int | None:
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

    def _expand(self, node: Node, index: int) -> Node:
        assert node.edges is not None
        child = Node(self.game.num_players)
        child.state = self.game.apply(node.state, node.edges[index][1])
        child.mover = self._mover(child.state)
        node.kids[index] = child
        node.expanded += 1
        return child

    def key(self, node: Node, index: int) -> str:
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
        joint_choices: list[tuple[Node, tuple[Any, ...]]] = []
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
                child = Node(game.num_players)
                if self.observer is None:
                    child.state = state
                node.children[key] = child
                path.append(child)
                value = self._leaf_value(child, state)
                break
            node = child
            path.append(node)
        self._backup(path, joint_choices, value)

    def _leaf_value(self, node: Node, state: Any) -> tuple[float, ...]:
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
        self, path: list[Node], joint_choices: list[tuple[Node, tuple[Any, ...]]], value: tuple[float, ...]
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

    def _edges(self, node: Node, state: Any, mover: int) -> list[tuple[str, Any, Fraction | None]]:
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

    def _chance(self, node: Node, state: Any) -> tuple[str, Any]:
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

    def _decide(self, node: Node, state: Any, mover: int) -> tuple[str, Any] | None:
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

    def _choose_joint(self, node: Node, state: Any) -> tuple[Any, ...]:
        game = self.game
        if node.sim is None:
            node.sim = [{} for _ in range(game.num_players)]
        joint = []
        for p in range(game.num_players):
            moves = player_moves(game, state, p)
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

    def _prove(self, node: Node, state: Any) -> bool:
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
        pick = proven_choice(children, mover, self.high, require_all=True)
        if pick is None:
            return False
        chosen = children[pick]
        assert chosen is not None and chosen.proven is not None
        node.proven = chosen.proven
        node.plies = 1 + chosen.plies
        return True


def proven_choice(children: Sequence[Node | None], mover: int, high: float, *, require_all: bool) -> int | None:
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
