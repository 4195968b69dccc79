"""Exact values of one-player games with chance: optimal policies, fixed policies, and their proof DAGs.

A one-player game with chance nodes is a finite Markov decision process when its states are what the
player knows (solo Strato with the pile's order hidden is one: see
:mod:`stratagem.models.strato.hidden.game`). Its optimal value is expectimax -- the best move at the player's
nodes, the probability-weighted mean at chance nodes -- and, as many move orders reach the same state,
memoising by state turns the tree into a DAG and makes the search feasible.

- :func:`optimal_value`: the optimal expected payoff, exactly (``Fraction``), with the root's moves
  ranked and the optimal policy (one move per decision state); stopped by a deadline or a state cap it
  reports ``unknown``.
- :func:`policy_value`: the exact expected payoff of a given policy (a function of the state), which
  enumerates only the chance outcomes under that policy: a lower bound on the optimal value that holds
  by construction.
- :func:`policy_dag`: a policy written out as a proof DAG -- one move at each decision node, every
  outcome with its probability at chance nodes, down to terminal leaves -- that a checker can replay
  through the rules and whose value it can recompute.

The payoff of a terminal state is the caller's ``payoff(state)`` (a ``Fraction``; e.g. 1 for a win,
0 for a loss, which makes the value a win probability). Deterministic: moves and outcomes are taken
in the game's order and ties keep the first move. No game is imported here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput
from stratagem.core.game import CHANCE, TERMINAL
from stratagem.core.numbers import is_whole
from stratagem.core.records import cut_repr as _q
from stratagem.core.records import parse_fraction
from stratagem.core.recursion import deep_recursion

__all__ = ["MdpResult", "PolicyCheck", "PolicyNode", "check_policy_dag", "optimal_value", "policy_dag", "policy_value"]

SOLVED = "solved"
UNKNOWN = "unknown"

#: Payoff of a terminal state.
Payoff = Callable[[Any], Fraction]
#: A policy: the move to play in a decision state.
Policy = Callable[[Any], Any]

#: Moves with their states, reordered: the likely best first.
Order = Callable[[Any, list[tuple[Any, Any]]], Sequence[tuple[Any, Any]]]
#: True for a state whose value is surely the least payoff.
Floor = Callable[[Any], bool]


#: Visits between two looks at the clock.
CHECK_EVERY = 256
#: Visits between two calls of a search's ``progress`` callback.
PROGRESS_EVERY = 4096


class _Stopped(Exception):
    """The deadline or the state cap ended the search."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@dataclass
class MdpResult:
    """What :func:`optimal_value` established.

    ``value`` is the exact optimal value when ``status`` is ``solved`` (else ``None``); ``ranking``
    the root's moves with their exact values, best first (moves of equal value in the game's order;
    only the best move when ``rank`` was off, and after a stop the moves valued so far: a stop while the
    moves are ranked, after the root's value was found, leaves the value exact and says what stopped
    the ranking in ``ranking_stopped_by``);
    ``policy(state)`` gives an optimal move in every decision state the optimal policy reaches, or
    ``None`` for a state whose value is the least payoff ``lo`` (nothing to gain there: a proof DAG
    cuts it).
    ``states`` counts the distinct states searched, ``visits`` the node visits.
    """

    status: str
    value: Fraction | None
    ranking: list[tuple[Any, Fraction]]
    states: int
    visits: int
    seconds: float
    stopped_by: str | None = None
    lo: Fraction = Fraction(0)
    best_moves: dict[Hashable, Any] = field(default_factory=dict, repr=False)
    bounds: dict[Hashable, tuple[Fraction, Fraction]] = field(default_factory=dict, repr=False)
    ranking_stopped_by: str | None = None

    def policy(self, state: Any) -> Any:
        if self.bounds.get(state) == (self.lo, self.lo):
            return None
        return self.best_moves.get(state)


class _Expectimax:
    """Alpha-beta for one maximising player with Star1 pruning at chance nodes (Ballard 1983), over
    payoffs in ``[lo, hi]``, with every state's proven bounds kept (a DAG search: many lines meet)."""

    def __init__(self, game: Any, payoff: Payoff, lo: Fraction, hi: Fraction, deadline: Deadline,
                 max_states: int | None, order: Order | None, floor: Floor | None,
                 progress: Callable[[int, int], None] | None = None) -> None:
        self.game = game
        self.payoff = payoff
        self.lo, self.hi = lo, hi
        self.deadline = deadline
        self.max_states = max_states
        self.order = order
        self.floor = floor
        self.progress = progress
        self.bounds: dict[Hashable, tuple[Fraction, Fraction]] = {}
        self.best: dict[Hashable, Any] = {}
        self.visits = 0

    def tick(self) -> None:
        self.visits += 1
        if self.visits % CHECK_EVERY == 0 and self.deadline.expired():
            raise _Stopped("time limit")
        if self.progress is not None and self.visits % PROGRESS_EVERY == 0:
            self.progress(len(self.bounds), self.visits)
        if self.max_states is not None and len(self.bounds) >= self.max_states:
            raise _Stopped("state limit")

    def successors(self, state: Any) -> list[tuple[Any, Any]]:
        plays = getattr(self.game, "plays", None)
        found = list(plays(state)) if plays is not None else [(m, self.game.apply(state, m))
                                                               for m in self.game.legal_moves(state)]
        return list(self.order(state, found)) if self.order is not None else found

    def search(self, state: Any, alpha: Fraction, beta: Fraction) -> Fraction:
        """Fail-soft: the exact value if it lies strictly inside ``(alpha, beta)``, else a bound on the
        side it fell (an upper bound <= alpha, a lower bound >= beta)."""
        known = self.bounds.get(state)
        if known is not None:
            low, high = known
            if low == high or low >= beta:
                return low
            if high <= alpha:
                return high
            alpha, beta = max(alpha, low), min(beta, high)
        else:
            low, high = self.lo, self.hi
        self.tick()
        game = self.game
        who = game.to_move(state)
        if who == TERMINAL:
            v = self.payoff(state)
            self.bounds[state] = (v, v)
            return v
        if self.floor is not None and self.floor(state):
            self.bounds[state] = (self.lo, self.lo)
            return self.lo
        v = self._chance(state, alpha, beta) if who == CHANCE else self._decision(state, alpha, beta)
        if v <= alpha:
            high = min(high, v)
        elif v >= beta:
            low = max(low, v)
        else:
            low = high = v
        self.bounds[state] = (low, high)
        return v

    def _decision(self, state: Any, alpha: Fraction, beta: Fraction) -> Fraction:
        best_value: Fraction | None = None
        best_move = None
        a = alpha
        for move, child in self.successors(state):
            v = self.search(child, a, beta)
            if best_value is None or v > best_value:
                best_value, best_move = v, move
                if v >= beta:
                    break
                a = max(a, v)
        if best_value is None:
            raise ValueError(f"{self.game.format_state(state)}: a player to move with no legal move")
        if best_value > alpha:  # exact, or a lower bound reached by this move: it is a best move so far
            self.best[state] = best_move
        return best_value

    def _chance(self, state: Any, alpha: Fraction, beta: Fraction) -> Fraction:
        lo, hi = self.lo, self.hi
        done = Fraction(0)  # sum of p * value over the outcomes searched
        rest = Fraction(1)  # probability of the outcomes not searched yet
        for outcome, p in self.game.chance_outcomes(state):
            rest -= p
            # The child's value must exceed a_i (else the node is <= alpha whatever the rest does) and
            # stay below b_i (else it is >= beta): Star1's window.
            a_i = (alpha - done - rest * hi) / p
            b_i = (beta - done - rest * lo) / p
            v = self.search(self.game.apply(state, outcome), max(a_i, lo), min(b_i, hi))
            if v <= a_i or v >= b_i:
                bound: Fraction = done + p * v + rest * (hi if v <= a_i else lo)
                return bound
            done += p * v
        return done


def optimal_value(game: Any, root: Any, payoff: Payoff, *, lo: Fraction = Fraction(0), hi: Fraction = Fraction(1),
                  deadline: Deadline | None = None, max_states: int | None = None, rank: bool = True,
                  order: Order | None = None, floor: Floor | None = None,
                  progress: Callable[[int, int], None] | None = None) -> MdpResult:
    """The exact optimal expected payoff from ``root`` (a decision node) of a one-player game with chance.

    Every payoff lies in ``[lo, hi]`` (win probability: 0 and 1). ``order(state, successors)`` may put
    the likely best moves first (only the speed changes); ``floor(state)`` may say that a state's value
    is surely ``lo`` (a state that cannot be won whatever is drawn), which ends its search. With
    ``rank`` every root move's exact value is computed (one full-window search each, sharing the
    bounds), else only the best move's. A game with a ``plays(state)`` method (moves with their
    states, as Strato's engines have) is asked for it instead of applying every move. ``progress(states
    kept, nodes visited)`` is called every :data:`PROGRESS_EVERY` nodes.
    """
    started = time.perf_counter()
    deadline = deadline or Deadline(None)
    search = _Expectimax(game, payoff, lo, hi, deadline, max_states, order, floor, progress)
    below, above = lo - 1, hi + 1  # a window strictly around every value: the result is exact
    ranking: list[tuple[Any, Fraction]] = []
    if game.to_move(root) in (TERMINAL, CHANCE):
        raise ValueError("optimal_value starts from a decision of the player")
    value: Fraction | None = None
    ranking_stopped_by = None
    try:
        with deep_recursion():
            value = search.search(root, below, above)
            if rank:
                for move, child in search.successors(root):
                    ranking.append((move, search.search(child, below, above)))
            else:
                ranking = [(_best_at_root(search, root), value)]
    except _Stopped as stop:
        if value is None:
            return MdpResult(UNKNOWN, None, ranking, len(search.bounds), search.visits,
                             time.perf_counter() - started, stop.why, lo)
        # The root's value was found before the ranking stopped: it stays exact, with the best move
        # among the moves valued (a stopped ranking once threw the value away, and then listed a first
        # move worth 1 under "win probability unknown").
        ranking_stopped_by = stop.why
        best = _best_at_root(search, root)
        if all(move != best for move, _ in ranking):
            ranking.append((best, value))
    order_ = sorted(range(len(ranking)), key=lambda i: (-ranking[i][1], i))
    ranking = [ranking[i] for i in order_]
    best_moves = {s: m for s, m in search.best.items() if search.bounds[s][0] == search.bounds[s][1]}
    return MdpResult(SOLVED, value, ranking, len(search.bounds), search.visits, time.perf_counter() - started,
                     None, lo, best_moves, search.bounds, ranking_stopped_by)


def _best_at_root(search: _Expectimax, root: Any) -> Any:
    """The root's best move. Where ``floor`` proved the root worth the least payoff before any move was
    searched, none was recorded (``rank=False`` then failed with a KeyError on the root: ``odds --no-rank``
    of a position no draw can win); every move achieves that least payoff, so the first is a best move."""
    best = search.best.get(root)
    if best is None:
        best = next(iter(search.successors(root)))[0]
    return best


def policy_value(game: Any, root: Any, policy: Policy, payoff: Payoff, *, lo: Fraction = Fraction(0),
                 deadline: Deadline | None = None, max_states: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> tuple[Fraction | None, int]:
    """The exact expected payoff of playing ``policy`` from ``root`` and the states it reaches, or
    ``(None, states)`` when the deadline or the state cap came first. Where ``policy`` gives ``None``
    the state counts as the least payoff ``lo`` (a cut: the result is then a lower bound).
    ``progress(states valued, nodes visited)`` is called every :data:`PROGRESS_EVERY` nodes."""
    deadline = deadline or Deadline(None)
    values: dict[Hashable, Fraction] = {}
    visits = 0

    def value(state: Any) -> Fraction:
        nonlocal visits
        known = values.get(state)
        if known is not None:
            return known
        visits += 1
        if visits % CHECK_EVERY == 0 and deadline.expired():
            raise _Stopped("time limit")
        if progress is not None and visits % PROGRESS_EVERY == 0:
            progress(len(values), visits)
        if max_states is not None and len(values) >= max_states:
            raise _Stopped("state limit")
        who = game.to_move(state)
        if who == TERMINAL:
            v = payoff(state)
        elif who == CHANCE:
            v = sum((p * value(game.apply(state, o)) for o, p in game.chance_outcomes(state)), Fraction(0))
        else:
            move = policy(state)
            v = lo if move is None else value(game.apply(state, move))
        values[state] = v
        return v

    try:
        with deep_recursion():
            return value(root), len(values)
    except _Stopped:
        return None, len(values)


@dataclass(frozen=True)
class PolicyNode:
    """One node of a policy's proof DAG: ``kind`` is ``decision`` (``move`` and its ``child``),
    ``chance`` (``outcomes``: outcome, probability, child), ``leaf`` (a terminal state and its
    ``payoff``) or ``cut`` (a state left unexplored, counted as the least payoff)."""

    id: int
    state: str
    kind: str
    move: str | None = None
    child: int | None = None
    outcomes: tuple[tuple[str, Fraction, int], ...] = ()
    payoff: Fraction | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "state": self.state, "kind": self.kind}
        if self.kind == "decision":
            out["move"], out["child"] = self.move, self.child
        elif self.kind == "chance":
            out["outcomes"] = [[o, str(p), c] for o, p, c in self.outcomes]
        elif self.kind == "leaf":
            out["payoff"] = str(self.payoff)
        return out


def policy_dag(game: Any, root: Any, policy: Policy, payoff: Payoff,
               cut: Callable[[Any], bool] | None = None) -> list[PolicyNode]:
    """The policy from ``root`` as a DAG of :class:`PolicyNode` (root first, then breadth-first; a state
    reached twice is one node). Every state is written with ``game.format_state``, every move and
    outcome with ``game.format_move``. A decision where ``policy`` gives ``None``, and any state
    ``cut`` names, is a ``cut`` node."""
    ids: dict[Hashable, int] = {root: 0}
    order: list[Any] = [root]
    nodes: list[PolicyNode] = []

    def node_id(state: Any) -> int:
        found = ids.get(state)
        if found is None:
            found = ids[state] = len(order)
            order.append(state)
        return found

    i = 0
    while i < len(order):
        state = order[i]
        text = game.format_state(state)
        who = game.to_move(state)
        if who == TERMINAL:
            nodes.append(PolicyNode(i, text, "leaf", payoff=payoff(state)))
        elif cut is not None and cut(state):
            nodes.append(PolicyNode(i, text, "cut"))
        elif who == CHANCE:
            outcomes = tuple((game.format_move(state, o), p, node_id(game.apply(state, o)))
                             for o, p in game.chance_outcomes(state))
            nodes.append(PolicyNode(i, text, "chance", outcomes=outcomes))
        else:
            move = policy(state)
            if move is None:
                nodes.append(PolicyNode(i, text, "cut"))
            else:
                nodes.append(PolicyNode(i, text, "decision", move=game.format_move(state, move),
                                        child=node_id(game.apply(state, move))))
        i += 1
    return nodes


@dataclass
class PolicyCheck:
    """What :func:`check_policy_dag` found: the DAG's exact value when ``problem`` is empty."""

    value: Fraction | None
    nodes: int
    problem: str = ""
    #: Each node's state as the rules rebuilt it, as far as the replay went (None where it did not reach).
    states: tuple[Any, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.problem


def _came_from(step: tuple[int, object] | None) -> str:
    """`` (after nodes[P]'s 'MOVE')``: how the replay reached a node, for a message about it."""
    if step is None:
        return ""
    parent, move = step
    return f" (after nodes[{parent}]'s {_q(move)})" if move != "" else f" (from nodes[{parent}])"




def _some(names: Sequence[str], most: int = 12) -> str:
    """``names`` as a message lists them: at most ``most``, each cut to 40 characters, and how many there are
    in all (a record's list of 100,000 outcomes was a 300 KB line on stderr)."""
    shown = [name if len(name) <= 40 else name[:40] + "..." for name in names[:most]]
    return ", ".join(shown) + (f", ... ({len(names):,} in all)" if len(names) > most else "")


def check_policy_dag(game: Any, root: Any, nodes: Any, payoff: Payoff, *, lo: Fraction = Fraction(0),
                     information: Callable[[Any], Hashable] | None = None) -> PolicyCheck:
    """Replay a policy's proof DAG (the JSON of :meth:`PolicyNode.to_json`, node ``i`` at index ``i``,
    the root first) through ``game`` and recompute its exact value; nothing in it is trusted.

    Each node's state is rebuilt from its parent through the rules and must be the one the node
    names; a decision node's move must be legal there; a chance node must list exactly the rules'
    outcomes, each with its exact probability; a leaf must be terminal with its true payoff; a ``cut``
    counts as ``lo`` (the least payoff, so a cut can only lower the value: the value is a lower bound on
    what the policy, and so the best policy, achieves). Every node must be reached from the root, each
    with one state. With ``information(state)`` (what the player knows), two decision nodes the player
    cannot tell apart must choose the same move: a policy may not depend on what is hidden.
    """
    if not isinstance(nodes, list) or not nodes:
        return PolicyCheck(None, 0, "nodes: must be a non-empty list, the root first")
    for i, node in enumerate(nodes):
        if not isinstance(node, dict) or node.get("id") != i:
            return PolicyCheck(None, len(nodes), f"nodes[{i}]: must be an object with id {i}")
    states: list[Any] = [None] * len(nodes)
    states[0] = root

    def fail(problem: str) -> PolicyCheck:
        return PolicyCheck(None, len(nodes), problem, tuple(states))

    children: list[list[tuple[int, Fraction]]] = [[] for _ in nodes]
    chosen: dict[Hashable, tuple[int, str]] = {}
    stack = [0]
    seen = {0}
    #: how the replay first reached each node (its parent and the move or card), for messages: a node
    #: whose state is not the rules' may be wrong itself, or its parent's move may be
    came_from: dict[int, tuple[int, object]] = {}

    def reach(parent: int, child: Any, state: Any, step: object = "") -> str:
        if not is_whole(child, 0, len(nodes) - 1):
            return f"nodes[{parent}]: child {_q(child)} is not a node id"
        if states[child] is None:
            states[child] = state
            came_from[child] = (parent, step)  # words only when a message needs them (:func:`_came_from`)
        elif states[child] != state:
            return (f"nodes[{child}]: reached with two different states ({game.format_state(states[child])} "
                    f"and, from node {parent}, {game.format_state(state)})")
        if child not in seen:
            seen.add(child)
            stack.append(child)
        return ""

    while stack:
        i = stack.pop()
        node, state = nodes[i], states[i]
        place = f"nodes[{i}]"
        if node.get("state") != game.format_state(state):
            return fail(f"{place}: the rules give the state {game.format_state(state)}{_came_from(came_from.get(i))}, "
                        f"the node says {_q(node.get('state'))}")
        kind = node.get("kind")
        who = game.to_move(state)
        if kind == "leaf":
            if who != TERMINAL:
                return fail(f"{place}: a leaf, but the game is not over here")
            if str(node.get("payoff")) != str(payoff(state)):
                return fail(f"{place}: the payoff here is {payoff(state)}, the node says "
                                                     f"{_q(node.get('payoff'))}")
        elif kind == "cut":
            pass
        elif kind == "decision":
            if who in (TERMINAL, CHANCE):
                return fail(f"{place}: a decision node, but "
                                   + ("the game is over here" if who == TERMINAL else "a card is drawn here"))
            text = node.get("move")
            try:
                move = game.parse_move(state, str(text))
                after = game.apply(state, move)
            except (ValueError, LookupError) as exc:
                return fail(f"{place}: move {_q(text)} is not legal here ({exc})")
            if information is not None:
                key = information(state)
                formatted = game.format_move(state, move)
                earlier = chosen.setdefault(key, (i, formatted))
                if earlier[1] != formatted:
                    return fail(f"{place}: plays {formatted} where node {earlier[0]}, "
                                       f"which the player cannot tell apart from it, plays {earlier[1]}: the "
                                       "policy depends on what the player cannot see")
            problem = reach(i, node.get("child"), after, text)
            if problem:
                return fail(problem)
            children[i] = [(node["child"], Fraction(1))]
        elif kind == "chance":
            if who != CHANCE:
                return fail(f"{place}: a chance node, but no card is drawn here")
            rules = {game.format_move(state, o): (o, p) for o, p in game.chance_outcomes(state)}
            listed = node.get("outcomes")
            if not isinstance(listed, list) or not all(isinstance(x, list) and len(x) == 3 for x in listed):
                return fail(f"{place}: outcomes must be [outcome, probability, child] lists")
            names = [str(x[0]) for x in listed]
            if sorted(names) != sorted(rules) or len(set(names)) != len(names):
                return fail(f"{place}: the outcomes here are {', '.join(sorted(rules))}; "
                                                     f"the node lists {_some(names) or 'none'}")
            for name, p_text, child in listed:
                outcome, p = rules[str(name)]
                try:  # "p/q" only: Fraction would also build 1e99999999, which takes minutes
                    claimed = parse_fraction(p_text, "", "")
                except BadInput:
                    shown = repr(p_text) if len(repr(p_text)) <= 40 else repr(p_text)[:40] + "..."
                    return fail(f"{place}: probability {shown} is not a fraction p/q")
                if claimed != p:
                    return fail(f"{place}: outcome {name} has probability {p}, the node "
                                                         f"says {p_text}")
                problem = reach(i, child, game.apply(state, outcome), name)
                if problem:
                    return fail(problem)
                children[i].append((child, p))
        else:
            return fail(f"{place}: kind {_q(kind)} is not decision, chance, leaf or cut")
    missing = [i for i in range(len(nodes)) if i not in seen]
    if missing:
        return fail(f"nodes[{missing[0]}]: not reached from the root")
    # Values bottom-up, in an explicit post-order (a DAG can be deep); a cycle is a fault.
    values: list[Fraction | None] = [None] * len(nodes)
    on_path = [False] * len(nodes)
    work: list[tuple[int, bool]] = [(0, False)]
    while work:
        i, expanded = work.pop()
        if values[i] is not None:
            continue
        kind = nodes[i]["kind"]
        if kind == "leaf":
            values[i] = payoff(states[i])
            continue
        if kind == "cut":
            values[i] = lo
            continue
        if expanded:
            on_path[i] = False
            total = Fraction(0)
            for child, p in children[i]:
                v = values[child]
                assert v is not None
                total += p * v
            values[i] = total
            continue
        if on_path[i]:
            return fail(f"nodes[{i}]: lies on a cycle")
        on_path[i] = True
        work.append((i, True))
        for child, _ in children[i]:
            if values[child] is None:
                if on_path[child]:
                    return fail(f"nodes[{child}]: lies on a cycle")
                work.append((child, False))
    return PolicyCheck(values[0], len(nodes), "", tuple(states))
