"""Compiled engine against reference engine: transitions per CPU second on the same random playouts.

A game's compiled engine (a :class:`~stratagem.core.packed.PackedGame`, found by the game package's
``compiled_engine``) plays seeded random games in C (:func:`stratagem.solvers.perft.random_playouts`);
:func:`reference_playouts` replays the very same games on the Python rules engine, drawing the same
splitmix64 numbers and taking the move of the same index, which both engines list in the same order.
Both must count the same transitions and the same summed returns (else the table is refused: the
playouts were not the same). Each rate is the median of ``runs`` measurements of CPU time
(``time.process_time``), the compiled side repeating the playouts until it has run long enough to time.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

from stratagem.core.game import CHANCE
from stratagem.solvers.perft import random_playouts, splitmix64

#: The compiled side repeats its playouts until a measurement has taken at least this much CPU time.
MIN_CPU = 0.2


@dataclass(frozen=True)
class EngineSpeed:
    """One position's measurement: playouts, transitions, and each engine's transitions per CPU second."""

    label: str
    playouts: int
    transitions: int
    reference_rate: float
    compiled_rate: float

    @property
    def ratio(self) -> float:
        return self.compiled_rate / self.reference_rate


def reference_playouts(game: Any, state: Any, count: int, seed: int) -> tuple[int, list[int]]:
    """:func:`~stratagem.solvers.perft.random_playouts` on the rules engine: the same games, move for
    move (the engines list their moves in the same order); transitions and each player's summed returns."""
    rng = seed & 0xFFFFFFFFFFFFFFFF
    transitions = 0
    totals = [0] * game.num_players
    for _ in range(count):
        here = state
        while not game.is_terminal(here):
            rng, z = splitmix64(rng)
            if game.to_move(here) == CHANCE:
                outcomes = list(game.chance_outcomes(here))
                scale = lcm(*(Fraction(p).denominator for _, p in outcomes))
                weights = [int(Fraction(p) * scale) for _, p in outcomes]
                draw = z % sum(weights)
                pick = 0
                while draw >= weights[pick]:
                    draw -= weights[pick]
                    pick += 1
                move = outcomes[pick][0]
            else:
                moves = game.legal_moves(here)
                move = moves[z % len(moves)]
            here = game.apply(here, move)
            transitions += 1
        for p, r in enumerate(game.returns(here)):
            totals[p] += int(r)
    return transitions, totals


def measure(label: str, fresh: Callable[[], Any], engine: Any, state: Any, count: int, seed: int,
            runs: int = 3) -> EngineSpeed:
    """Time ``count`` seeded random playouts from ``state`` on both engines, ``runs`` times each. ``fresh()``
    builds the rules engine anew for each run, so that caches it keeps (STAKD's move generation) start
    empty each time, as in a fresh search, instead of serving the same playouts again."""
    vector = engine.encode(state)
    reference: list[float] = []
    compiled: list[float] = []
    transitions = 0
    for _ in range(runs):
        game = fresh()
        started = time.process_time()
        transitions, totals = reference_playouts(game, state, count, seed)
        reference.append(transitions / max(time.process_time() - started, 1e-9))
        done, summed = random_playouts(engine, vector, count, seed)
        if done != transitions or [int(t) for t in summed] != totals:
            raise AssertionError(f"{label}: the compiled engine played other games than the reference "
                                 f"({done} transitions, returns {list(summed)}; reference {transitions}, {totals})")
        repeats = 0
        started = time.process_time()
        while True:
            random_playouts(engine, vector, count, seed)
            repeats += 1
            spent = time.process_time() - started
            if spent >= MIN_CPU:
                break
        compiled.append(repeats * done / spent)
    return EngineSpeed(label, count, transitions, statistics.median(reference), statistics.median(compiled))


def speed_table(rows: list[EngineSpeed]) -> list[str]:
    """The measurements as a Markdown table."""
    lines = ["| position | playouts | transitions | reference transitions/CPU s | compiled transitions/CPU s | "
             "compiled / reference |", "|---|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row.label} | {row.playouts:,} | {row.transitions:,} | {row.reference_rate:,.0f} | "
                     f"{row.compiled_rate:,.0f} | {row.ratio:,.1f}x |")
    return lines


__all__ = ["EngineSpeed", "measure", "reference_playouts", "speed_table"]
