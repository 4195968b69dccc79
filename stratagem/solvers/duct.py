"""Decoupled UCT (DUCT): Monte Carlo tree search for games with simultaneous moves.

At a simultaneous node every player keeps *its own* statistics over *its own* moves and selects
from them as if it were alone (the selections are "decoupled"); the joint move they make together
picks the child. Each player's statistics are updated with that player's return. This is the
standard search for positions too large for exact backward induction (Lanctot et al., "Monte Carlo
Tree Search in Simultaneous Move Games with Applications to Goofspiel", 2013).

Selection at a simultaneous node, per player:

* ``"ucb1"`` (default): unvisited moves first, then the best mean plus ``exploration *
  sqrt(ln N / n)``, with returns scaled to [0, 1] by the range seen so far, ties broken at random;
* ``"regret-matching"``: play each move in proportion to its positive cumulative regret, mixed with
  ``gamma`` uniform exploration; regrets are updated with importance-sampled rewards;
* ``"exp3"``: exponential weights over importance-sampled cumulative rewards, mixed with ``gamma``.

Ordinary decision nodes use UCB1 for the player to move, chance nodes sample their outcomes with
their probabilities, and a leaf is valued by a uniformly random playout (cut after
``rollout_limit`` steps by the game's ``evaluate`` when it has one). The final policy at the root is
each player's visit frequencies. One :class:`random.Random` seeded with ``seed`` drives everything and
no set or hash order is ever iterated, so a search is deterministic per seed.

The module knows nothing about any particular game.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.game import CHANCE, SIMULTANEOUS, Evaluation, Game, Simultaneous
from stratagem.core.numbers import is_whole
from stratagem.solvers.ductresult import SELECTIONS, DuctResult, check_arguments
from stratagem.solvers.simultaneous import UnsupportedGame

__all__ = ["SELECTIONS", "DuctAgent", "DuctResult", "duct"]

AnyGame = Game[Any, Any]



@dataclass
class _Stats:
    """One player's statistics over its moves at one node."""

    visits: list[int]
    totals: list[float]
    accumulated: list[float]  # regrets (regret matching) or importance-weighted rewards (Exp3)

    @staticmethod
    def fresh(k: int) -> _Stats:
        return _Stats([0] * k, [0.0] * k, [0.0] * k)


@dataclass
class _Node:
    """A node of the search tree: its moves (per player), statistics and expanded children."""

    kind: int  # a player index, CHANCE or SIMULTANEOUS
    moves: list[list[Any]]  # per player at a simultaneous node; [moves] at a decision node; [outcomes]
    stats: list[_Stats]
    weights: list[float] = field(default_factory=list)  # chance probabilities
    children: dict[Hashable, _Node] = field(default_factory=dict)
    visits: int = 0


class _Search:
    def __init__(
        self,
        game: AnyGame,
        rng: Random,
        selection: str,
        exploration: float,
        gamma: float,
        rollout_limit: int | None,
        reward_range: tuple[float, float] | None,
    ) -> None:
        self.game = game
        self.rng = rng
        self.selection = selection
        self.exploration = exploration
        self.gamma = gamma
        self.rollout_limit = rollout_limit
        self.fixed_range = reward_range
        self.low = math.inf
        self.high = -math.inf

    # --- tree ------------------------------------------------------------------------------

    def node(self, state: Hashable) -> _Node:
        game = self.game
        kind = game.to_move(state)
        if kind == SIMULTANEOUS:
            if not isinstance(game, Simultaneous):
                raise UnsupportedGame(f"{game.name} has simultaneous nodes but no player_moves")
            moves = [list(game.player_moves(state, p)) for p in range(game.num_players)]
            return _Node(kind, moves, [_Stats.fresh(len(m)) for m in moves])
        if kind == CHANCE:
            outcomes = list(game.chance_outcomes(state))
            return _Node(kind, [[o for o, _ in outcomes]], [], [float(p) for _, p in outcomes])
        moves = [list(game.legal_moves(state))]
        return _Node(kind, moves, [_Stats.fresh(len(moves[0]))])

    def iterate(self, state: Hashable, node: _Node) -> list[float]:
        """One descent from ``node``: select, expand one node, play out, back up; the returns."""
        game = self.game
        if game.is_terminal(state):
            return self.observe(game.returns(state))
        node.visits += 1
        if node.kind == CHANCE:
            k = self.rng.choices(range(len(node.weights)), node.weights)[0]
            return self.descend(state, node, node.moves[0][k], node.moves[0][k])
        if node.kind == SIMULTANEOUS:
            picks = [self.select(node, p) for p in range(game.num_players)]
            joint = tuple(node.moves[p][a] for p, (a, _) in enumerate(picks))
            result = self.descend(state, node, joint, joint)
            for p, (a, prob) in enumerate(picks):
                self.update(node.stats[p], a, result[p])
                self.learn(node.stats[p], a, prob, result[p])
            return result
        a = self.ucb1(node.stats[0], node.visits)
        move = node.moves[0][a]
        result = self.descend(state, node, a, move)
        self.update(node.stats[0], a, result[node.kind])
        return result

    def descend(self, state: Hashable, node: _Node, key: Hashable, move: Any) -> list[float]:
        child_state = self.game.apply(state, move)
        child = node.children.get(key)
        if child is None:
            if self.game.is_terminal(child_state):
                return self.observe(self.game.returns(child_state))
            node.children[key] = self.node(child_state)
            return self.rollout(child_state)
        return self.iterate(child_state, child)

    # --- selection and update --------------------------------------------------------------

    def select(self, node: _Node, player: int) -> tuple[int, float]:
        """The move index ``player`` picks at a simultaneous node and the probability it had."""
        stats = node.stats[player]
        if self.selection == "ucb1":
            return self.ucb1(stats, node.visits), 1.0
        probs = self.mix(stats)
        a = self.rng.choices(range(len(probs)), probs)[0]
        return a, probs[a]

    def ucb1(self, stats: _Stats, parent_visits: int) -> int:
        """UCB1's choice; ties (unvisited moves included) are broken at random.

        Random tie-breaking matters at simultaneous nodes: with "first of equals", two players with
        identical statistics would move in lockstep (always matching in matching pennies).
        """
        unvisited = [a for a, n in enumerate(stats.visits) if n == 0]
        if unvisited:
            return unvisited[0] if len(unvisited) == 1 else self.rng.choice(unvisited)
        log_n = math.log(max(parent_visits, 1))
        scores = [
            self.scale(total / n) + self.exploration * math.sqrt(log_n / n)
            for total, n in zip(stats.totals, stats.visits, strict=True)
        ]
        top = max(scores)
        best = [a for a, score in enumerate(scores) if score >= top - 1e-12]
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def mix(self, stats: _Stats) -> list[float]:
        """The regret-matching or Exp3 distribution, with ``gamma`` uniform exploration mixed in."""
        k = len(stats.visits)
        if self.selection == "regret-matching":
            positive = [max(r, 0.0) for r in stats.accumulated]
            total = sum(positive)
            base = [r / total for r in positive] if total > 0 else [1.0 / k] * k
        else:
            eta = self.gamma / k
            top = max(stats.accumulated)
            exps = [math.exp(eta * (s - top)) for s in stats.accumulated]
            total = sum(exps)
            base = [e / total for e in exps]
        return [(1 - self.gamma) * p + self.gamma / k for p in base]

    def update(self, stats: _Stats, a: int, reward: float) -> None:
        """Count a visit of move ``a`` and add its reward (every selection rule keeps these)."""
        stats.visits[a] += 1
        stats.totals[a] += reward

    def learn(self, stats: _Stats, a: int, prob: float, reward: float) -> None:
        """Regret matching's and Exp3's update after move ``a``, chosen with probability ``prob``."""
        u = self.scale(reward)
        if self.selection == "regret-matching":
            for b in range(len(stats.accumulated)):
                estimate = u / prob if b == a else 0.0
                stats.accumulated[b] += estimate - u
        elif self.selection == "exp3":
            stats.accumulated[a] += u / prob

    # --- rewards and playouts --------------------------------------------------------------

    def observe(self, returns: Sequence[float]) -> list[float]:
        values = [float(r) for r in returns]
        self.low = min(self.low, *values)
        self.high = max(self.high, *values)
        return values

    def scale(self, reward: float) -> float:
        low, high = self.fixed_range if self.fixed_range is not None else (self.low, self.high)
        if not high > low:
            return 0.5
        return min(1.0, max(0.0, (reward - low) / (high - low)))

    def rollout(self, state: Hashable) -> list[float]:
        game, rng = self.game, self.rng
        steps = 0
        while not game.is_terminal(state):
            if self.rollout_limit is not None and steps >= self.rollout_limit and isinstance(game, Evaluation):
                return self.observe(game.evaluate(state))
            kind = game.to_move(state)
            if kind == SIMULTANEOUS:
                assert isinstance(game, Simultaneous)
                move: Any = tuple(rng.choice(list(game.player_moves(state, p))) for p in range(game.num_players))
            elif kind == CHANCE:
                outcomes = list(game.chance_outcomes(state))
                move = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
            else:
                move = rng.choice(list(game.legal_moves(state)))
            state = game.apply(state, move)
            steps += 1
        return self.observe(game.returns(state))


def duct(
    game: AnyGame,
    state: Hashable,
    *,
    iterations: int = 1000,
    seed: int = 0,
    selection: str = "ucb1",
    exploration: float = 1.4,
    gamma: float = 0.1,
    rollout_limit: int | None = None,
    reward_range: tuple[float, float] | None = None,
    time_limit: float | Deadline | None = None,
) -> DuctResult:
    """Run ``iterations`` DUCT descents from ``state`` (a simultaneous or decision node).

    ``selection`` is one of :data:`SELECTIONS`; ``exploration`` is UCB1's constant (on returns scaled
    to [0, 1]); ``gamma`` the uniform exploration of regret matching and Exp3; ``reward_range`` the
    (lowest, highest) possible return, used for the scaling instead of the range seen so far.
    ``time_limit`` (seconds, or a :class:`~stratagem.core.deadline.Deadline` shared with other work)
    stops it earlier, after at least one descent; ``iterations`` in the result counts those done
    (with a time limit the result depends on the machine's speed).
    """
    check_arguments(game, state, selection, iterations)
    search = _Search(game, Random(seed), selection, exploration, gamma, rollout_limit, reward_range)
    root = search.node(state)
    deadline = time_limit if isinstance(time_limit, Deadline) or time_limit is None else Deadline(time_limit)
    totals = [0.0] * game.num_players
    done = 0
    while done < iterations and not (done and deadline is not None and deadline.expired()):
        for p, r in enumerate(search.iterate(state, root)):
            totals[p] += r
        done += 1
    iterations = done
    players = range(game.num_players) if root.kind == SIMULTANEOUS else [root.kind]
    moves: list[tuple[Any, ...]] = [() for _ in range(game.num_players)]
    visits: list[tuple[int, ...]] = [() for _ in range(game.num_players)]
    strategy: list[tuple[float, ...]] = [() for _ in range(game.num_players)]
    values: list[tuple[float, ...]] = [() for _ in range(game.num_players)]
    for index, p in enumerate(players):
        stats = root.stats[index]
        moves[p] = tuple(root.moves[index])
        visits[p] = tuple(stats.visits)
        strategy[p] = tuple(n / iterations for n in stats.visits)
        values[p] = tuple(t / n if n else 0.0 for t, n in zip(stats.totals, stats.visits, strict=True))
    return DuctResult(
        moves=tuple(moves),
        visits=tuple(visits),
        strategy=tuple(strategy),
        move_values=tuple(values),
        values=tuple(t / iterations for t in totals),
        iterations=iterations,
    )


class DuctAgent:
    """A player that searches with DUCT before each choice.

    It sees every hidden card (open information). At a simultaneous node it samples its move from
    its DUCT policy (visit frequencies) with the match's ``rng``; at an ordinary decision node it
    plays its most visited move. Each search is seeded from ``rng``, so a match is reproducible from
    its seed. The last search is kept, so one agent playing several seats at the same node searches
    once. ``engine``, when set (the game's compiled engine), runs the same search in C on it
    (:func:`~stratagem.solvers.compiled_duct.duct_compiled`).

    ``time_limit`` (seconds per search) stops a search before ``iterations`` (after at least one descent);
    a match with a deadline (``play --time-limit``) gives a copy of the agent the time left
    (:func:`~stratagem.solvers.match.within`). Copies share the last search, so a copy that plays the same
    node again still searches once.
    """

    def __init__(
        self,
        iterations: int = 1000,
        *,
        selection: str = "ucb1",
        exploration: float = 1.4,
        gamma: float = 0.1,
        rollout_limit: int | None = None,
        time_limit: float | None = None,
        name: str = "duct",
        engine: Any = None,
    ) -> None:
        if selection not in SELECTIONS:
            raise ValueError(f"selection must be one of {', '.join(SELECTIONS)}, not {selection!r}")
        if not is_whole(iterations, 1):
            raise ValueError(f"iterations must be a whole number of at least 1, not {iterations!r}")
        if exploration < 0 or not 0 <= gamma <= 1:
            raise ValueError(f"exploration must be at least 0 and gamma from 0 to 1, not {exploration!r}, {gamma!r}")
        if rollout_limit is not None and rollout_limit < 1:
            raise ValueError(f"rollout_limit must be a whole number of at least 1, not {rollout_limit!r}")
        if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, int | float)
                                       or not time_limit > 0):
            raise ValueError(f"time_limit must be a number more than 0, not {time_limit!r}")
        self.name = name
        self.iterations = iterations
        self.selection = selection
        self.exploration = exploration
        self.gamma = gamma
        self.rollout_limit = rollout_limit
        self.time_limit = time_limit
        #: the game's compiled engine to search on (set by the match runner), or None: the reference engine
        self.engine = engine
        #: the last search (game, state, result), in a one-slot list that copies share. The game itself, not
        #: its id(): a game freed after a match could hand its id to the next match's game, whose first
        #: search at an equal state then took the old game's result
        self._last: list[tuple[AnyGame, Hashable, DuctResult] | None] = [None]

    @property
    def params(self) -> dict[str, Any]:
        """The settings, as plain data for match reports."""
        params = {
            "information": "open",
            "iterations": self.iterations,
            "selection": self.selection,
            "exploration": self.exploration,
            "gamma": self.gamma,
            "rollout_limit": self.rollout_limit,
            "time_limit": self.time_limit,
        }
        if self.engine is not None:
            params["engine"] = "compiled"
        return params

    def search(self, game: AnyGame, state: Hashable, rng: Random) -> DuctResult:
        """The DUCT result at ``state`` (reused when the previous search was of the same node)."""
        last = self._last[0]
        if last is not None and last[0] is game and last[1] == state:
            return last[2]
        if self.engine is not None:
            from stratagem.solvers.compiled_duct import duct_compiled

            result = duct_compiled(game, self.engine, state, iterations=self.iterations, seed=rng.getrandbits(63),
                                   selection=self.selection, exploration=self.exploration, gamma=self.gamma,
                                   rollout_limit=self.rollout_limit, time_limit=self.time_limit)
            self._last[0] = (game, state, result)
            return result
        result = duct(
            game,
            state,
            iterations=self.iterations,
            seed=rng.getrandbits(63),
            selection=self.selection,
            exploration=self.exploration,
            gamma=self.gamma,
            rollout_limit=self.rollout_limit,
            time_limit=self.time_limit,
        )
        self._last[0] = (game, state, result)
        return result

    def choose_simultaneous(self, game: AnyGame, state: Hashable, player: int, rng: Random) -> Any:
        """``player``'s move at a simultaneous node, drawn from its DUCT policy."""
        result = self.search(game, state, rng)
        return rng.choices(result.moves[player], result.strategy[player])[0]

    def choose(self, game: AnyGame, state: Hashable, rng: Random) -> Any:
        """The move at an ordinary decision node: the most visited one."""
        result = self.search(game, state, rng)
        return result.best_move(game.to_move(state))
