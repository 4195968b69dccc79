"""Perfect-information Monte Carlo (PIMC): judge moves from one player's observation by sampling.

PIMC (Levy 1989; Ginsberg's GIB for bridge) turns a hidden-information decision into many open ones:
draw ``samples`` full states that the player cannot tell from the real one
(``game.sample_state(state, player, rng)``), value every legal move in each as if all cards were
face up, and average per move. The caller supplies the open-position valuer, a :data:`LeafEvaluator`
called on the state after each move -- an exact alpha-beta search, a depth-limited one, or playouts
(:func:`rollout_evaluator`) -- so this module knows no search of its own.

Moves are compared across samples by their notation (``game.format_move``), not by identity, since a
move's value object may differ between samples; a move is counted only in the samples where it is
legal, so ``count`` can differ between moves. Only moves legal in the real state are reported and
chosen (the player knows their own options). The best move has the highest mean; ties go to the
higher count, then to the earlier move in ``legal_moves`` order.

PIMC is known to be optimistic (it assumes the hidden cards will be revealed before the next
decision: "strategy fusion") -- its values are estimates, never proofs. Seeded and deterministic:
one ``random.Random(seed)`` draws the samples, and each sample hands its evaluator a fresh
``Random`` seeded from that stream, the same for every move of the sample (common random numbers),
so a stochastic evaluator compares moves on equal terms.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from random import Random
from typing import Any, Generic

from stratagem.core.deadline import Deadline
from stratagem.core.errors import UnsupportedGame
from stratagem.core.game import SIMULTANEOUS, Evaluation, Game, HiddenInformation, M
from stratagem.solvers.mcts import RolloutPolicy, playout

__all__ = [
    "LeafEvaluator",
    "PimcMoveStats",
    "PimcResult",
    "evaluation_evaluator",
    "pimc",
    "rollout_evaluator",
]

#: Values an open (fully known) state: ``evaluator(game, state, rng) -> returns per player``.
LeafEvaluator = Callable[[Any, Any, Random], tuple[float, ...]]


def rollout_evaluator(
    rollouts: int = 1,
    *,
    policy: RolloutPolicy | None = None,
    limit: int | None = None,
    value_range: tuple[float, float] = (-1.0, 1.0),
) -> LeafEvaluator:
    """An evaluator that averages ``rollouts`` playouts (see :func:`~stratagem.solvers.mcts.playout`)."""
    if rollouts < 1:
        raise ValueError(f"rollouts must be at least 1, not {rollouts}")

    def evaluate(game: Game[Any, Any], state: Any, rng: Random) -> tuple[float, ...]:
        totals = [0.0] * game.num_players
        for _ in range(rollouts):
            for p, v in enumerate(playout(game, state, rng, policy=policy, limit=limit, value_range=value_range)):
                totals[p] += v
        return tuple(t / rollouts for t in totals)

    return evaluate


def evaluation_evaluator() -> LeafEvaluator:
    """An evaluator that uses the game's own heuristic (:class:`~stratagem.core.game.Evaluation`)."""

    def evaluate(game: Game[Any, Any], state: Any, rng: Random) -> tuple[float, ...]:
        if not isinstance(game, Evaluation):
            raise UnsupportedGame(f"game {game.name!r} has no evaluate(); use a rollout evaluator")
        return tuple(float(v) for v in game.evaluate(state))

    return evaluate


@dataclass(frozen=True)
class PimcMoveStats(Generic[M]):
    """One move of the real state: in how many samples it was legal and its mean value there."""

    move: M
    notation: str
    count: int
    mean: float

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "mean": self.mean, "move": self.notation}


@dataclass(frozen=True)
class PimcResult(Generic[M]):
    """PIMC's verdict for ``player``: moves in ``legal_moves`` order of the real state.

    ``samples`` is the number of determinisations drawn; ``information`` says whose observation they
    are consistent with; values are ``player``'s returns as the evaluator estimated them.
    """

    player: int
    information: str
    samples: int
    best_move: M | None
    best_notation: str | None
    moves: tuple[PimcMoveStats[M], ...]
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {
            "best_move": self.best_notation,
            "information": self.information,
            "method": "pimc",
            "moves": [m.to_json() for m in self.moves],
            "player": self.player,
            "samples": self.samples,
            "seconds": self.seconds,
        }


def pimc(
    game: Game[Any, M],
    state: Any,
    evaluator: LeafEvaluator,
    *,
    samples: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
) -> PimcResult[M]:
    """PIMC for the player to move in ``state`` (the real state; used only through ``sample_state``
    and to list the player's own legal moves).

    Stops after ``samples`` determinisations or ``time_limit`` seconds, whichever comes first (a time
    limit makes the result depend on the machine); a sample the limit interrupts is left out whole. A
    terminal state after a move is valued by ``game.returns`` without calling ``evaluator``.
    """
    if not isinstance(game, HiddenInformation):
        raise UnsupportedGame(f"PIMC needs a hidden-information game (observation and sample_state); "
                              f"{game.name!r} has none: analyse it open")
    if samples is None and time_limit is None:
        raise ValueError("give a number of samples, a time limit, or both")
    player = game.to_move(state)
    if player < 0:  # CHANCE, SIMULTANEOUS or TERMINAL
        raise UnsupportedGame("PIMC chooses a move for the player to move; this state has none")
    real_moves = list(game.legal_moves(state))
    notations = [game.format_move(state, m) for m in real_moves]
    totals = dict.fromkeys(notations, 0.0)
    counts = dict.fromkeys(notations, 0)

    rng = Random(seed)
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    done = 0
    while samples is None or done < samples:
        if deadline is not None and time.perf_counter() >= deadline:
            break
        sample = game.sample_state(state, player, rng)
        sample_seed = rng.getrandbits(64)
        # A sample counts whole or not at all, and the deadline is asked before each move's evaluation: one
        # sample of Stratatak (every move, each valued by playouts in Python) takes most of a second.
        values: list[tuple[str, float]] = []
        cut = False
        for move in game.legal_moves(sample):
            key = game.format_move(sample, move)
            if key not in totals:
                continue
            cut = deadline is not None and time.perf_counter() >= deadline
            if cut:
                break
            after = game.apply(sample, move)
            if game.is_terminal(after):
                values.append((key, float(game.returns(after)[player])))
            else:
                values.append((key, float(evaluator(game, after, Random(sample_seed))[player])))
        if cut:
            break
        for key, value in values:
            totals[key] += value
            counts[key] += 1
        done += 1

    stats = [
        PimcMoveStats(move, key, counts[key], totals[key] / counts[key] if counts[key] else 0.0)
        for move, key in zip(real_moves, notations, strict=True)
    ]
    best = min(range(len(stats)), key=lambda i: (stats[i].count == 0, -stats[i].mean, -stats[i].count, i),
               default=None)
    return PimcResult(
        player=player,
        information=f"observation of player {player}",
        samples=done,
        best_move=stats[best].move if best is not None else None,
        best_notation=stats[best].notation if best is not None else None,
        moves=tuple(stats),
        seconds=time.perf_counter() - start,
    )


def pimc_simultaneous(
    game: Game[Any, M],
    state: Any,
    player: int,
    *,
    samples: int = 20,
    seed: int = 0,
    depth: int | None = None,
    time_limit: float | Deadline | None = None,
) -> PimcResult[M]:
    """PIMC advice for ``player`` at a simultaneous node: rank the player's choices by their worth.

    Each sample deals the cards ``player`` cannot see (``sample_state``) and solves that open
    position with the exact matrix-game solver (``depth`` simultaneous turns, the game's evaluation
    at the cut); a choice's worth in the sample is its payoff against the others' equilibrium mix
    (on the equilibrium's support that is the node's value, off it no more). Values are the player's
    own payoff for two players (penalty margin: ``returns`` minus the opponent's), or against the
    coalition of the others with more. The mean over samples is an estimate, not a value.
    ``time_limit`` (seconds or a shared :class:`~stratagem.core.deadline.Deadline`) stops the sampling:
    a sample whose solve it interrupts is dropped, and ``samples`` counts those solved.
    """
    from stratagem.solvers.simultaneous import InductionStopped, solve_simultaneous

    if not isinstance(game, HiddenInformation):
        raise UnsupportedGame(f"PIMC needs a hidden-information game; {game.name!r} has none: analyse it open")
    if game.to_move(state) != SIMULTANEOUS:
        raise UnsupportedGame("pimc_simultaneous needs a simultaneous node")
    player_moves = getattr(game, "player_moves", None)
    if player_moves is None:
        raise UnsupportedGame(f"{game.name!r} has simultaneous nodes but no player_moves")
    real_moves = list(player_moves(state, player))
    label = getattr(game, "format_player_move", None)

    def key(s: Any, move: Any) -> str:
        return str(label(s, player, move)) if label is not None else str(game.format_move(s, move))

    notations = [key(state, m) for m in real_moves]
    totals: dict[str, Fraction] = dict.fromkeys(notations, Fraction(0))
    counts = dict.fromkeys(notations, 0)
    payoff = "margin" if game.num_players == 2 else "own"
    rng = Random(seed)
    start = time.perf_counter()
    deadline = time_limit if isinstance(time_limit, Deadline) or time_limit is None else Deadline(time_limit)
    solved = 0
    for _ in range(samples):
        if deadline is not None and deadline.expired():
            break
        sample = game.sample_state(state, player, rng)
        try:
            result = solve_simultaneous(game, sample, player=player, depth=depth, payoff=payoff,
                                        time_limit=deadline)
        except InductionStopped:
            break
        solved += 1
        node = result.root_node
        if node is None:
            continue
        for move, row in zip(node.rows, node.matrix, strict=True):
            name = key(sample, move)
            if name in totals:
                totals[name] += sum((p * v for p, v in zip(node.solution.col, row, strict=True)), Fraction(0))
                counts[name] += 1
    stats = [
        PimcMoveStats(move, name, counts[name], float(totals[name] / counts[name]) if counts[name] else 0.0)
        for move, name in zip(real_moves, notations, strict=True)
    ]
    stats.sort(key=lambda m: (m.count == 0, -m.mean, m.notation))
    best = stats[0] if stats else None
    return PimcResult(
        player=player,
        information=f"player {player + 1}'s observation (unseen cards sampled)",
        samples=solved,
        best_move=best.move if best is not None else None,
        best_notation=best.notation if best is not None else None,
        moves=tuple(stats),
        seconds=time.perf_counter() - start,
    )
