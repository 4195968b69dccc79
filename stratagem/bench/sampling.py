"""The sampling searches on the compiled engine against the same searches on the reference engine, measured
in one run: the section "Sampling searches: compiled engine against the reference engine" of
``results/<game>.md``.

For a game with a compiled engine (:mod:`stratagem.engines`), on the start of a seeded deal and on every
shipped position where the search applies, each the median of :data:`REPEATS` runs (CPU seconds of this
process, ``time.process_time``), the ratio taken in the same run:

- **DUCT iterations per CPU-second** (games with simultaneous moves): decoupled UCT with UCB1 and random
  playouts to the end, compiled (:func:`~stratagem.solvers.compiled_duct.duct_compiled`) and on the
  reference engine (:func:`~stratagem.solvers.duct.duct`);
- **ISMCTS iterations per CPU-second** (games with hidden information): SO-ISMCTS from the mover's
  observation (player 1's at a simultaneous node), unguided (in every game, the search both engines have for
  each; the table says so, as the ``ismcts`` agent and ``analyze`` search guided), compiled
  (:func:`~stratagem.solvers.compiled_ismcts.ismcts_compiled`) and on the reference engine
  (:func:`~stratagem.solvers.mcts.ismcts`); both draw the reference game's determinisations, the compiled
  search through the game's packed sampler where it has one (the same rows from the same draws, written
  packed: a third to a fifth of ``sample_state`` and ``encode``'s cost; Card Clash, Stratatak, Stack
  Attack, since stop 66);
- **PIMC samples per CPU-second**: :data:`ROLLOUTS` random playouts per move of each sampled deal
  (:func:`~stratagem.solvers.compiled_ismcts.pimc_compiled` against :func:`~stratagem.solvers.pimc.pimc`
  with the rollout evaluator); at a simultaneous node each own card against the others' random cards
  (:class:`~stratagem.solvers.agents.PimcAgent`'s choice there, compiled and not).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

from stratagem.analysis import return_bounds
from stratagem.bench.tables import load_at_end
from stratagem.core.game import SIMULTANEOUS, HiddenInformation, Simultaneous
from stratagem.engines import resolve
from stratagem.loading import load_position

#: Runs of each search per position; the table gives the medians.
REPEATS = 3
#: Iterations (samples for PIMC) a run on the reference engine; the compiled runs do ``SCALE`` times more.
REFERENCE_BUDGET = {"duct": 1000, "ismcts": 200, "pimc": 10}
SCALE = 10
#: Playouts per move of a PIMC sample (the ``pimc`` agent's default).
ROLLOUTS = 4


def _cpu() -> float:
    return time.process_time()


def _rate(done: int, seconds: float) -> float:
    return done / max(seconds, 1e-9)


def _searches(game: Any, state: Any) -> list[str]:
    """The sampling searches that apply at ``state``."""
    found: list[str] = []
    mover = game.to_move(state)
    if mover < 0 and mover != SIMULTANEOUS:
        return found
    if isinstance(game, Simultaneous):
        found.append("duct")
    if isinstance(game, HiddenInformation):
        found += ["ismcts", "pimc"]
    return found


def _run(method: str, game: Any, engine: Any, state: Any, budget: int, seed: int) -> int:
    """One run of ``method`` with ``budget`` iterations (samples), on ``engine`` (None: the reference
    engine); how many were done."""
    low, high = return_bounds(game)
    bounds = (float(low), float(high))
    simultaneous = game.to_move(state) == SIMULTANEOUS
    player = 0 if simultaneous else None
    if method == "duct":
        if engine is not None:
            from stratagem.solvers.compiled_duct import duct_compiled

            return duct_compiled(game, engine, state, iterations=budget, seed=seed).iterations
        from stratagem.solvers.duct import duct

        return duct(game, state, iterations=budget, seed=seed).iterations
    if method == "ismcts":
        if engine is not None:
            from stratagem.solvers.compiled_ismcts import ismcts_compiled

            return ismcts_compiled(game, engine, state, iterations=budget, seed=seed, value_range=bounds,
                                   player=player).iterations
        from stratagem.solvers.mcts import ismcts

        return ismcts(game, state, iterations=budget, seed=seed, value_range=bounds, player=player).iterations
    if simultaneous:
        from stratagem.solvers.agents import PimcAgent

        PimcAgent(samples=budget, rollouts=ROLLOUTS, engine=engine).choose_simultaneous(game, state, 0, Random(seed))
        return budget
    if engine is not None:
        from stratagem.solvers.compiled_ismcts import pimc_compiled

        return pimc_compiled(game, engine, state, rollouts=ROLLOUTS, samples=budget, seed=seed,
                             value_range=bounds).samples
    from stratagem.solvers.pimc import pimc, rollout_evaluator

    return pimc(game, state, rollout_evaluator(ROLLOUTS, value_range=bounds), samples=budget, seed=seed).samples


def sampling_speed(method: str, game: Any, engine: Any, state: Any, *, reference: int, repeats: int = REPEATS,
                   seed: int = 0) -> tuple[float, float]:
    """Median iterations (samples) per CPU-second of ``method`` from ``state``: compiled (``SCALE *
    reference`` a run) and on the reference engine (``reference`` a run)."""
    fast, slow = [], []
    for r in range(repeats):
        started = _cpu()
        done = _run(method, game, engine, state, SCALE * reference, seed + r)
        fast.append(_rate(done, _cpu() - started))
        started = _cpu()
        done = _run(method, game, None, state, reference, seed + r)
        slow.append(_rate(done, _cpu() - started))
    return statistics.median(fast), statistics.median(slow)


def sampling_section(game_name: str, files: list[str], log: Callable[[str], None], *, reference: int | None = None,
                     repeats: int = REPEATS) -> list[str]:
    """The section's lines (empty when the game has no compiled engine or no sampling search applies);
    ``reference`` overrides every search's budget on the reference engine (a quick run)."""
    from stratagem.bench.searches import start_position

    start_game, start_state = start_position(game_name)
    positions: list[tuple[str, Any, Any]] = [("start (seed 0)", start_game, start_state)]
    for file in files:
        loaded = load_position(file)
        positions.append((Path(file).stem, loaded.game, loaded.state))
    rows = []
    measured: set[str] = set()
    for label, game, state in positions:
        methods = _searches(game, state)
        if not methods:
            continue
        choice = resolve(game, "compiled")
        engine = choice.engine
        if engine is None:
            rows.append(f"| {', '.join(methods)} | {label} | {game.num_players} | {choice.note} | | |")
            continue
        for method in methods:
            measured.add(method)
            budget = reference if reference is not None else REFERENCE_BUDGET[method]
            fast, slow = sampling_speed(method, game, engine, state, reference=budget, repeats=repeats)
            log(f"{label}: {method} {fast:,.0f} compiled, {slow:,.0f} reference per CPU-s")
            rows.append(f"| {method} | {label} | {game.num_players} | {fast:,.0f} | {slow:,.0f} | {fast / slow:.1f} |")
    if not rows:
        return []
    budgets = ", ".join(f"{m} {reference if reference is not None else b:,}" for m, b in REFERENCE_BUDGET.items()
                        if m in measured) or "its budget"
    return [
        "## Sampling searches: compiled engine against the reference engine",
        "",
        f"Written by `stratagem bench {game_name}` (stratagem.bench.sampling). Medians of {repeats} runs, all in one",
        "run of the command; CPU seconds of this process. Iterations (DUCT, ISMCTS) or sampled deals (PIMC,",
        f"{ROLLOUTS} random playouts per move) per CPU-second; a run on the reference engine does {budgets},",
        f"one on the compiled engine {SCALE} times as many. Both draw ISMCTS's and PIMC's determinisations with the",
        "reference game's `sample_state` (what a player cannot see is the rules engine's to say), the compiled",
        "searches through the game's packed sampler where it has one (the same rows from the same draws, written",
        "packed: Card Clash, Stratatak, Stack Attack); at a simultaneous node ISMCTS and PIMC take player 1's",
        "view. ISMCTS runs plain (`guided=False`: random playouts to the end) in every game, the search both",
        "engines have for each (Stack Attack has no guide), where `play`'s `ismcts` agent and",
        "`analyze --method ismcts` search guided by the game's move order where it has one.",
        "",
        "| search | position | players | compiled per CPU-s | reference per CPU-s | compiled / reference |",
        "|---|---|---:|---:|---:|---:|",
        *rows,
        "",
        f"Load average when the section ended: {load_at_end()}.",
        "",
    ]


__all__ = ["REFERENCE_BUDGET", "sampling_section", "sampling_speed"]
