"""The searches on the compiled engine against the same searches on the reference engine, measured in one
run: the section "Compiled engine against the reference engine" of ``results/<game>.md``.

For a game with a compiled engine (:mod:`stratagem.engines`), on the start of a seeded deal and on every
shipped two-player turn-based position:

- **UCT simulations per CPU-second**: plain UCT (``guided=False``: random playouts to the end, every move
  tried once first) on the compiled engine (:func:`~stratagem.solvers.compiled_uct.uct_compiled`) and on
  the reference engine (:func:`~stratagem.solvers.mcts.uct`), and OpenSpiel's Python ``MCTSBot`` (random
  rollouts) on the adapter over the reference engine where OpenSpiel is installed; each the median of
  :data:`REPEATS` runs, the ratios taken in the same run. The solvers are off, so that no run stops at a
  proven root and every rate is over the whole budget (a win in one ply is proven in a few simulations).
- **Exact search nodes per CPU-second**: the exhaustive search ``analyze`` runs -- alpha-beta, or
  expectiminimax with Star2 where chance lies below the root -- compiled
  (:func:`~stratagem.solvers.compiled_alphabeta.alphabeta_compiled`,
  :func:`~stratagem.solvers.compiled_expectimax.expectiminimax_compiled`) and on the reference engine (the
  Python search with the game's move ordering and the table), with the value each found (they must
  agree) and their CPU seconds a pass (a search shorter than :data:`SAMPLE_SECONDS` repeated within a
  sample; each sample's first pass, caches cold, reported beside it): the searches order moves differently
  (the compiled ones by the engine's hint where it has one, killers and history), so their node counts
  differ, and the ratio of CPU seconds is the speed-up a user sees.
- **Paranoid and max^n nodes per CPU-second** on the shipped positions of three or more players
  (:func:`~stratagem.solvers.compiled_expectimax.paranoid_compiled`,
  :func:`~stratagem.solvers.compiled_maxn.maxn_compiled` against the Python searches); a reference search
  stopped at its node budget still gives its rate, and says it was stopped.

CPU seconds are this process's (``time.process_time``); the machine line gives the load when the run
started and the section the load when it ended.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from stratagem.analysis import return_bounds
from stratagem.bench.tables import load_at_end
from stratagem.core.errors import StratagemError
from stratagem.core.game import CHANCE, Simultaneous
from stratagem.engines import resolve
from stratagem.loading import load_position
from stratagem.matches import new_game
from stratagem.solvers.alphabeta import alphabeta
from stratagem.solvers.compiled_alphabeta import alphabeta_compiled
from stratagem.solvers.compiled_expectimax import expectiminimax_compiled, paranoid_compiled
from stratagem.solvers.compiled_maxn import maxn_compiled
from stratagem.solvers.compiled_uct import uct_compiled
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.mcts import sample_outcome, uct
from stratagem.solvers.multiplayer import maxn, paranoid

#: Runs of each search per position; the tables give the medians.
REPEATS = 3
#: UCT simulations per run: on the compiled engine, on the reference engine and for MCTSBot.
COMPILED_SIMULATIONS = 20_000
REFERENCE_SIMULATIONS = 1_000


@dataclass(frozen=True)
class UctSpeed:
    """Median simulations per CPU-second from one position (None: not measured)."""

    compiled: float
    reference: float
    mctsbot: float | None
    proven: bool


@dataclass(frozen=True)
class SearchSpeed:
    """One exhaustive search (``method``) on each engine: value, nodes and CPU seconds a pass (medians of
    the repeats, each over passes of at least :data:`SAMPLE_SECONDS`), and the CPU seconds of each sample's
    first pass alone (``*_first``: straight after the other engine's search, its caches cold); ``solved``
    is False when either was stopped (by a node budget)."""

    method: str
    value: Any
    compiled_nodes: int
    compiled_seconds: float
    reference_value: Any
    reference_nodes: int
    reference_seconds: float
    solved: bool
    compiled_first: float = 0.0
    reference_first: float = 0.0


def _cpu() -> float:
    return time.process_time()


def _rate(done: int, seconds: float) -> float:
    return done / max(seconds, 1e-9)


def uct_speed(game: Any, engine: Any, state: Any, *, compiled: int = COMPILED_SIMULATIONS,
              reference: int = REFERENCE_SIMULATIONS, repeats: int = REPEATS, seed: int = 0,
              solver: bool = False) -> UctSpeed:
    """Plain UCT's simulations per CPU-second on both engines (and MCTSBot's) from ``state``; with
    ``solver`` off (the default) no run stops early at a proven root, so every run does its budget."""
    low, high = return_bounds(game)
    bounds = (float(low), float(high))
    rates: dict[str, list[float]] = {"compiled": [], "reference": [], "mctsbot": []}
    proven = False
    bot_game = _mctsbot(game, state)
    for r in range(repeats):
        started = _cpu()
        fast = uct_compiled(game, engine, state, iterations=compiled, seed=seed + r, value_range=bounds,
                            solver=solver, guided=False)
        rates["compiled"].append(_rate(fast.iterations, _cpu() - started))
        started = _cpu()
        slow = uct(game, state, iterations=reference, seed=seed + r, guided=False, value_range=bounds,
                   solver=solver)
        rates["reference"].append(_rate(slow.iterations, _cpu() - started))
        proven = proven or fast.proven or slow.proven
        if bot_game is not None:
            spiel, make_bot = bot_game
            bot = make_bot(spiel, reference, seed + r, float(high - low), solver)
            started = _cpu()
            root = bot.mcts_search(spiel.new_initial_state())
            rates["mctsbot"].append(_rate(root.explore_count, _cpu() - started))
    bot_rate = statistics.median(rates["mctsbot"]) if rates["mctsbot"] else None
    return UctSpeed(statistics.median(rates["compiled"]), statistics.median(rates["reference"]), bot_rate, proven)


def _mctsbot(game: Any, state: Any) -> tuple[Any, Any] | None:
    """OpenSpiel's game over the reference engine from ``state`` and a maker of its ``MCTSBot`` (random
    rollouts to the end, our exploration rule), or None without OpenSpiel."""
    try:
        import numpy as np
        from open_spiel.python.algorithms import mcts as spiel_mcts

        from stratagem.openspiel.peers.bots import LeafEvaluator
        from stratagem.openspiel.peers.games import has_chance, open_game
        from stratagem.solvers.mcts import DEFAULT_EXPLORATION
    except ImportError:
        return None

    def make(spiel: Any, simulations: int, seed: int, spread: float, solve: bool) -> Any:
        random_state = np.random.RandomState(seed % 2**32)
        return spiel_mcts.MCTSBot(spiel, DEFAULT_EXPLORATION * spread, simulations, LeafEvaluator(None, random_state),
                                  solve=solve, random_state=random_state)

    try:
        return open_game(game, state, chance=has_chance(game)), make
    except Exception:  # the adapter does not take this game (no OpenSpiel, or not a sequential game)
        return None


#: The exact searches measured, by method: (compiled, reference), each called as ``search(game, [engine,]
#: state, lo=, hi=, max_nodes=)`` (max^n takes no bounds).
_SEARCHES: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
    "alphabeta": (alphabeta_compiled, alphabeta),
    "expecti": (expectiminimax_compiled, expectiminimax),
    "paranoid": (paranoid_compiled, paranoid),
    "maxn": (maxn_compiled, maxn),
}


def exact_method(game: Any, engine: Any, state: Any) -> str:
    """The exact search ``analyze`` runs on ``state``: ``paranoid`` for three or more players, else
    ``alphabeta``, or ``expecti`` when the compiled alpha-beta meets chance below the root."""
    if game.num_players > 2:
        return "paranoid"
    low, high = return_bounds(game)
    try:
        alphabeta_compiled(game, engine, state, lo=low, hi=high)
    except StratagemError as exc:
        if "chance" in str(exc):
            return "expecti"
        raise
    return "alphabeta"


def search_speed(game: Any, engine: Any, state: Any, *, repeats: int = REPEATS, max_nodes: int | None = None,
                 method: str | None = None, reference_nodes: int | None = None) -> SearchSpeed:
    """The exhaustive search ``method`` (default :func:`exact_method`'s) of ``state`` on both engines,
    medians of ``repeats`` CPU times: one pass each, as ``analyze`` runs them (a node limit, ``max_nodes``,
    stops both; ``reference_nodes`` only the reference search, whose rate is then of a stopped search)."""
    method = method or exact_method(game, engine, state)
    compiled, reference = _SEARCHES[method]
    low, high = return_bounds(game)
    bounds = {} if method == "maxn" else {"lo": low, "hi": high}
    fast_times, slow_times, fast_first, slow_first = [], [], [], []
    fast = slow = None
    for _ in range(repeats):
        fast, seconds, first = _passes(lambda: compiled(game, engine, state, max_nodes=max_nodes, **bounds))
        fast_times.append(seconds)
        fast_first.append(first)
        slow, seconds, first = _passes(lambda: reference(game, state, max_nodes=reference_nodes or max_nodes,
                                                         **bounds))
        slow_times.append(seconds)
        slow_first.append(first)
    assert fast is not None and slow is not None
    fast_value = fast.values if method == "maxn" else fast.value
    slow_value = slow.values if method == "maxn" else slow.value
    return SearchSpeed(method, fast_value, fast.nodes, statistics.median(fast_times), slow_value, slow.nodes,
                       statistics.median(slow_times), fast.solved and slow.solved, statistics.median(fast_first),
                       statistics.median(slow_first))


#: The least CPU time of one timing sample of an exact search: a search shorter than this is repeated
#: (as ``timeit`` does) and the sample is the mean pass. A single pass of a search of a few hundred nodes
#: takes a millisecond, most of it spent warming the caches the other engine's search has just emptied.
SAMPLE_SECONDS = 0.05


def _passes(search: Callable[[], Any]) -> tuple[Any, float, float]:
    """Run ``search`` until :data:`SAMPLE_SECONDS` of CPU time have passed (once at least): its result, the
    CPU seconds a pass and those of the first pass."""
    started = _cpu()
    passes, first = 0, None
    while True:
        result = search()
        passes += 1
        spent = _cpu() - started
        if first is None:
            first = spent
        if spent >= SAMPLE_SECONDS:
            return result, spent / passes, first


def start_position(game_name: str, seed: int = 0) -> tuple[Any, Any]:
    """A fresh two-player game and its first decision position (a chance start dealt with ``seed``)."""
    game = new_game(game_name, 2)
    state = game.initial_state()
    rng = Random(seed)
    while not game.is_terminal(state) and game.to_move(state) == CHANCE:
        state = game.apply(state, sample_outcome(game.chance_outcomes(state), rng))
    return game, state


def engines_section(game_name: str, files: list[str], log: Callable[[str], None], *,
                    compiled: int = COMPILED_SIMULATIONS, reference: int = REFERENCE_SIMULATIONS,
                    repeats: int = REPEATS, max_nodes: int | None = None) -> list[str]:
    """The section's lines (empty when the game has no compiled engine for two players)."""
    start_game, start_state = start_position(game_name)
    if isinstance(start_game, Simultaneous) or resolve(start_game, "compiled").engine is None:
        return []
    positions: list[tuple[str, Any, Any]] = [("start (seed 0)", start_game, start_state)]
    many: list[tuple[str, Any, Any]] = []
    for file in files:
        loaded = load_position(file)
        if loaded.game.to_move(loaded.state) >= 0:
            (positions if loaded.game.num_players == 2 else many).append((Path(file).stem, loaded.game, loaded.state))
    lines = [
        "## Compiled engine against the reference engine",
        "",
        f"Written by `stratagem bench {game_name}` (stratagem.bench.searches). Medians of {repeats} runs, all",
        "in one run of the command; CPU seconds of this process. Plain UCT (`guided=False`: random playouts to",
        f"the end) with the solver off, so that every run does its budget: {compiled:,} simulations a run on the",
        f"compiled engine, {reference:,} on the reference engine and for OpenSpiel's Python `MCTSBot` (random",
        "rollouts, `solve=False`) on the adapter over the reference engine.",
        "",
        "### UCT simulations per CPU-second",
        "",
        "| position | compiled | reference | compiled / reference | MCTSBot | compiled / MCTSBot | "
        "reference / MCTSBot |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    searches: list[tuple[str, Any, Any, Any]] = []
    for label, game, state in positions:
        engine = resolve(game, "compiled").engine
        if engine is None:
            lines.append(f"| {label} | no compiled engine for these options | | | | | |")
            continue
        searches.append((label, game, state, engine))
        speed = uct_speed(game, engine, state, compiled=compiled, reference=reference, repeats=repeats)
        bot = speed.mctsbot
        log(f"{label}: UCT {speed.compiled:,.0f} compiled, {speed.reference:,.0f} reference, "
            f"{bot or 0:,.0f} MCTSBot simulations/CPU-s")
        against = f"{bot:,.0f} | {speed.compiled / bot:.1f} | {speed.reference / bot:.2f}" if bot else "— | — | —"
        lines.append(f"| {label} | {speed.compiled:,.0f} | {speed.reference:,.0f} | "
                     f"{speed.compiled / speed.reference:.1f} | {against} |")
    lines += [
        "",
        "### Exact search nodes per CPU-second",
        "",
        "The exhaustive search `analyze` runs -- alpha-beta, or expectiminimax with Star2 (`expecti`) where",
        "chance lies below the root: compiled (moves that end the game scored first, the table's move, the",
        "engine's ordering hint where it has one, the history heuristic; alpha-beta also killers; expecti",
        "exact fractions over integer chance weights) and reference (the Python search with the game's move",
        "ordering and the table). The values must agree; node counts differ with the move ordering. CPU s",
        f"are a pass's: a search shorter than {SAMPLE_SECONDS} CPU s is repeated within a sample (as `timeit`",
        "does) and the sample is its mean pass; the last column times each sample's first pass alone, its",
        "caches cold from the other engine's search (on a search of a few hundred nodes most of that pass).",
        "A search stopped by its node budget (`--max-nodes`) shows `(stopped)`; its rates are still rates, but",
        "`CPU s reference / compiled` then compares searches that did different work: marked * (not a",
        "measurement of the whole search).",
        "",
        "| position | search | value (compiled / reference) | compiled nodes | compiled CPU s | reference nodes | "
        "reference CPU s | nodes/CPU-s compiled / reference | CPU s reference / compiled | first pass: "
        "nodes/CPU-s compiled / reference |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, game, state, engine in searches:
        if label.startswith("start"):
            continue  # a whole game is beyond an exhaustive search
        try:
            speed_ab = search_speed(game, engine, state, repeats=repeats, max_nodes=max_nodes)
        except StratagemError as exc:  # a position the compiled searches refuse
            lines.append(f"| {label} | not searched compiled: {str(exc).split(';')[0]} | | | | | | | | |")
            continue
        lines.append(_speed_row(label, speed_ab, log))
    if many:
        # ``--max-nodes`` (a quick run) caps both sides alike; else each side has its own budget.
        many_compiled = max_nodes or MANY_COMPILED_NODES
        many_reference = max_nodes or MANY_REFERENCE_NODES
        lines += [
            "",
            "### Paranoid and max^n nodes per CPU-second (three or more players)",
            "",
            "Paranoid (the player to move against the coalition of the others: alpha-beta on that player's",
            "return) and max^n (no pruning), compiled and reference as above. A search stopped at its node budget",
            f"({many_compiled:,} compiled, {many_reference:,} reference) still gives its rate (marked",
            "stopped); its value is then unknown, and `CPU s reference / compiled` compares searches that did",
            "different work: marked *.",
            "",
            "| position | search | value (compiled / reference) | compiled nodes | compiled CPU s | reference nodes | "
            "reference CPU s | nodes/CPU-s compiled / reference | CPU s reference / compiled | first pass: "
            "nodes/CPU-s compiled / reference |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for label, game, state in many:
            engine = resolve(game, "compiled").engine
            if engine is None:
                lines.append(f"| {label} | no compiled engine for these options | | | | | | | | |")
                continue
            for method in ("paranoid", "maxn"):
                speed_many = search_speed(game, engine, state, repeats=repeats, method=method,
                                          max_nodes=many_compiled, reference_nodes=many_reference)
                lines.append(_speed_row(label, speed_many, log))
    lines += ceiling_table(compiled, repeats, log)
    lines += ["", f"Load average when the section ended: {load_at_end()}.", ""]
    return lines


#: The node budget of a reference paranoid or max^n search in the bench (max^n has no pruning).
MANY_REFERENCE_NODES = 200_000
#: ... and of the compiled one: without it the compiled max^n of Card Clash's three-players ran for over
#: half an hour (no pruning: the whole game tree, transpositions aside) and the bench never ended.
MANY_COMPILED_NODES = 20 * MANY_REFERENCE_NODES


def _speed_row(label: str, speed: SearchSpeed, log: Callable[[str], None]) -> str:
    """One row of an exact-search table."""
    fast_rate = _rate(speed.compiled_nodes, speed.compiled_seconds)
    slow_rate = _rate(speed.reference_nodes, speed.reference_seconds)
    log(f"{label}: {speed.method} {fast_rate:,.0f} compiled, {slow_rate:,.0f} reference nodes/CPU-s")
    value = f"{_show(speed.value)} / {_show(speed.reference_value)}" + ("" if speed.solved else " (stopped)")
    cold = (_rate(speed.compiled_nodes, speed.compiled_first)
            / _rate(speed.reference_nodes, speed.reference_first or speed.reference_seconds))
    return (f"| {label} | {speed.method} | {value} | {speed.compiled_nodes:,} | {speed.compiled_seconds:.4f} | "
            f"{speed.reference_nodes:,} | {speed.reference_seconds:.4f} | {fast_rate / slow_rate:.1f} | "
            f"{speed.reference_seconds / max(speed.compiled_seconds, 1e-9):.1f}{'' if speed.solved else '*'} "
            f"| {cold:.1f} |")


def _show(value: Any) -> str:
    """A value or a max^n vector as the tables write it (fractions as ``a/b``, whole floats as integers)."""
    if value is None:
        return "—"
    if isinstance(value, tuple):
        return "(" + ", ".join(_show(v) for v in value) + ")"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def ceiling_table(simulations: int, repeats: int, log: Callable[[str], None]) -> list[str]:
    """Our compiled UCT against OpenSpiel's C++ MCTS on tic-tac-toe (both in C/C++): the ceiling the
    compiled searches are measured against (empty without OpenSpiel)."""
    try:
        import pyspiel
    except ImportError:
        return []
    from stratagem.core.packed_toys import PackedTicTacToe
    from stratagem.solvers.packed_uct import run_uct

    engine = PackedTicTacToe()
    start = [0] * 10
    spiel = pyspiel.load_game("tic_tac_toe")
    ours, theirs = [], []
    for r in range(repeats):
        started = _cpu()
        found = run_uct(engine, start, iterations=simulations, seed=r)
        ours.append(_rate(found["iterations"], _cpu() - started))
        bot = pyspiel.MCTSBot(spiel, pyspiel.RandomRolloutEvaluator(1, r), 2 ** 0.5, simulations, 1000, True, r, False)
        started = _cpu()
        root = bot.mcts_search(spiel.new_initial_state())
        theirs.append(_rate(root.explore_count, _cpu() - started))
    mine, cpp = statistics.median(ours), statistics.median(theirs)
    log(f"tic-tac-toe: compiled UCT {mine:,.0f}, OpenSpiel C++ MCTS {cpp:,.0f} simulations/CPU-s")
    return [
        "",
        "### The ceiling: tic-tac-toe against OpenSpiel's C++ MCTS",
        "",
        "Our compiled UCT with MCTS-Solver on a compiled tic-tac-toe engine (`core/packed_toys.py`) and",
        f"OpenSpiel's C++ `MCTSBot` (random rollouts, `solve=True`) on its C++ `tic_tac_toe`, {simulations:,}",
        f"simulations a run from the empty board (a proven root stops a run), medians of {repeats}.",
        "",
        "| search | simulations/CPU-s | ours / C++ |",
        "|---|---:|---:|",
        f"| compiled UCT (stratagem) | {mine:,.0f} | {mine / cpp:.2f} |",
        f"| OpenSpiel C++ MCTS | {cpp:,.0f} | 1 |",
    ]


__all__ = ["SearchSpeed", "UctSpeed", "engines_section", "exact_method", "search_speed", "start_position",
           "uct_speed"]
