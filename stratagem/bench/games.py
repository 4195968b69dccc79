"""Benchmarks of the games analysed by search (Stratatak, Card Clash, STAKD, Stack Attack):
``results/<game>.md``.

For each shipped position of a turn-based game:

- alpha-beta (or expectimax, or paranoid for three or more players) with and without the game's
  move ordering and the transposition table: nodes and time, and each variant's ratio to the plain
  search (no ordering, no table) measured in the same run;
- UCT simulations per second on the same positions;
- a short match table between the agents (seeded, seats rotating).

For Stack Attack: the LP backward induction on each position (simultaneous nodes, time, whether every
node certified) against DUCT iterations per second.

Then the OpenSpiel peers section (:mod:`stratagem.bench.peers`), and the sections scripts wrote into
the file before (:func:`stratagem.bench.tables.kept_sections`).
"""

from __future__ import annotations

import glob
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from stratagem.analysis import return_bounds
from stratagem.bench.peers import peers_section, plural
from stratagem.bench.tables import kept_sections, machine, ratio, shipped, write_table
from stratagem.core.errors import StratagemError
from stratagem.loading import load_position
from stratagem.matches import make_agents, new_game
from stratagem.solvers.alphabeta import alphabeta
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.gametree import MinimaxResult
from stratagem.solvers.match import play_match
from stratagem.solvers.mcts import uct
from stratagem.solvers.multiplayer import paranoid

#: (label, use_ordering, use_tt), the first being the baseline of the ratios.
VARIANTS = (("plain", False, False), ("ordering", True, False), ("table", False, True), ("both", True, True))


def _search(game: Any, state: Any, ordering: bool, table: bool, max_nodes: int) -> tuple[MinimaxResult[Any], float]:
    options: dict[str, Any] = {"use_ordering": ordering, "use_tt": table, "max_nodes": max_nodes}
    started = time.perf_counter()
    if game.num_players > 2:
        low, high = return_bounds(game)
        result = paranoid(game, state, lo=low, hi=high, **options)
    else:
        try:
            result = alphabeta(game, state, **options)
        except StratagemError as exc:
            if "chance" not in str(exc):
                raise
            low, high = return_bounds(game)
            result = expectiminimax(game, state, lo=low, hi=high, **options)
    return result, time.perf_counter() - started


def search_table(files: list[str], max_nodes: int, log: Callable[[str], None]) -> list[str]:
    lines = [
        "## Exact search: move ordering and transposition table",
        "",
        "Nodes visited and wall-clock seconds, one run, per position; `x plain` is the ratio to the search with",
        f"neither (same run). A search stopped at {max_nodes:,} nodes shows `>`; a ratio marked * has a side",
        "stopped (a bound, not a measurement).",
        "",
        "| position | value | " + " | ".join(f"{v} nodes | {v} s" for v, _, _ in VARIANTS)
        + " | nodes x plain (ordering / table / both) |",
        "|---|---|" + "---:|---:|" * len(VARIANTS) + "---:|",
    ]
    for file in files:
        loaded = load_position(file)
        cells = []
        nodes: dict[str, int] = {}
        stops: dict[str, bool] = {}
        value = "?"
        for label, ordering, table in VARIANTS:
            result, seconds = _search(loaded.game, loaded.state, ordering, table, max_nodes)
            stopped = result.status == "unknown"
            nodes[label] = result.nodes
            stops[label] = stopped
            if result.solved:
                shown = int(result.value) if float(result.value).is_integer() else result.value  # type: ignore[arg-type]
                value = f"{shown} (paranoid)" if result.assumption == "paranoid" else str(shown)
            cells.append(f"{'>' if stopped else ''}{result.nodes:,} | {seconds:.3f}")
            log(f"{Path(file).name} {label}: {result.status}, {result.nodes:,} nodes, {seconds:.2f} s")
        ratios = " / ".join(ratio(nodes[v], nodes["plain"], not (stops[v] or stops["plain"]))
                            for v in ("ordering", "table", "both"))
        lines.append(f"| {Path(file).stem} | {value} | " + " | ".join(cells) + f" | {ratios} |")
    return lines + [""]


def mcts_table(files: list[str], iterations: int, log: Callable[[str], None]) -> list[str]:
    lines = [
        "## UCT simulations per second",
        "",
        f"{iterations:,} iterations of UCT with MCTS-Solver from each position (open information); wall-clock",
        "seconds, one run.",
        "",
        "| position | iterations | seconds | simulations/s | proven |",
        "|---|---:|---:|---:|---|",
    ]
    for file in files:
        loaded = load_position(file)
        if loaded.game.to_move(loaded.state) < 0:
            continue
        low, high = return_bounds(loaded.game)
        result = uct(loaded.game, loaded.state, iterations=iterations, seed=0, value_range=(float(low), float(high)))
        rate = result.iterations / result.seconds if result.seconds > 0 else float("inf")
        log(f"{Path(file).name} uct: {result.iterations} iterations, {result.seconds:.2f} s")
        lines.append(f"| {Path(file).stem} | {result.iterations:,} | {result.seconds:.3f} | {rate:,.0f} | "
                     f"{'yes' if result.proven else 'no'} |")
    return lines + [""]


def match_table(game_name: str, pairs: list[tuple[str, str]], games: int, players: int,
                log: Callable[[str], None]) -> list[str]:
    lines = [
        "## Matches",
        "",
        f"{plural(games, 'game')} per pairing from fresh deals, seed 0, seats rotating; "
        "95% Wilson interval on the win rate of the first agent."
        + (f" {MATCH_NOTES[game_name]}" if game_name in MATCH_NOTES else ""),
        "",
        "| agents | games | first agent's W-D-L | win rate | 95% CI |",
        "|---|---:|---|---:|---|",
    ]
    for pair in pairs:
        game = new_game(game_name, players)
        seats = list(pair) + ["random"] * (game.num_players - len(pair))
        result = play_match(game, make_agents(game_name, seats), games, seed=0)
        first = result.agents[0]
        low, high = first.win_rate_ci95
        log(f"{' vs '.join(seats)}: {first.wins}-{first.draws}-{first.losses}")
        lines.append(f"| {' vs '.join(seats)} | {first.games} | {first.wins}-{first.draws}-{first.losses} | "
                     f"{first.win_rate:.3f} | [{low:.3f}, {high:.3f}] |")
    return lines + [""]


def simultaneous_table(files: list[str], iterations: int, log: Callable[[str], None],
                       engine: str = "compiled") -> list[str]:
    from stratagem.engines import compiled_engine
    from stratagem.solvers.duct import duct
    from stratagem.solvers.simultaneous import solve_each_player, solve_simultaneous

    lines = [
        "## Exact LP backward induction and DUCT",
        "",
        "Backward induction with one exactly certified LP per simultaneous node (two players: zero-sum on",
        "the penalty difference; more: each player against the coalition, all players solved), and",
        f"{iterations:,} DUCT iterations from the same position; `LP / DUCT` is the ratio of their times",
        "(wall-clock seconds, one run).",
        f"The induction walks the {engine} engine (`--engine`); DUCT the rules engine.",
        "",
        "| position | players | LP nodes | certified | LP s | DUCT s | DUCT it/s | LP / DUCT |",
        "|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for file in files:
        loaded = load_position(file)
        game, state = loaded.game, loaded.state
        found = compiled_engine(game) if engine == "compiled" else None
        packed = found.simultaneous() if found is not None else None
        started = time.perf_counter()
        if game.num_players == 2:
            results = [solve_simultaneous(game, state, player=0, payoff="margin", packed=packed)]
        else:
            results = list(solve_each_player(game, state, payoff="own", packed=packed))
        lp_seconds = time.perf_counter() - started
        started = time.perf_counter()
        duct(game, state, iterations=iterations, seed=0)
        duct_seconds = time.perf_counter() - started
        nodes = sum(len(r.nodes) for r in results)
        certified = all(r.certified for r in results)
        log(f"{Path(file).name}: LP {nodes} nodes {lp_seconds:.2f} s, DUCT {duct_seconds:.2f} s")
        lines.append(f"| {Path(file).stem} | {game.num_players} | {nodes:,} | {'yes' if certified else 'NO'} | "
                     f"{lp_seconds:.3f} | {duct_seconds:.3f} | {iterations / duct_seconds:,.0f} | "
                     f"{lp_seconds / duct_seconds:.2f} |")
    return lines + [""]


#: Agent pairings measured for each game (the rest of the seats, if any, go to random agents).
#: ``{iterations}`` is the search agents' budget per move: ``bench --iterations`` when given, else the
#: game's entry in :data:`MATCH_ITERATIONS` (every move searches, so a match needs far fewer than the
#: speed table's 2,000 per position).
PAIRINGS: dict[str, tuple[list[tuple[str, str]], int]] = {
    "stratatak": ([("greedy", "random"), ("mcts:iterations={iterations}:rollout_limit=10", "random"),
                   ("mcts:iterations={iterations}:rollout_limit=10", "greedy"),
                   ("pimc:samples=8:rollouts=2:rollout_limit=10", "greedy")], 2),
    "cardclash": ([("greedy", "random"), ("mcts:iterations={iterations}", "random"),
                   ("mcts:iterations={iterations}", "greedy"), ("ismcts:iterations={iterations}", "greedy")], 2),
    "stakd": ([("greedy", "random"), ("mcts:iterations={iterations}", "random"),
               ("mcts:iterations={iterations}", "greedy")], 2),
    "stackattack": ([("lowest", "random"), ("cautious", "lowest"), ("greedy", "random"),
                     ("duct:iterations={iterations}", "lowest")], 2),
}
#: What the match table says of a game's search agents (the options a pairing leaves at their defaults).
MATCH_NOTES = {
    "cardclash": "`mcts` and `ismcts` play at their defaults (guided): Card Clash declares `rollout_limit = 0`, so a "
                 "new leaf is valued by the game's evaluation alone, and moves are expanded in the game's order "
                 "with progressive widening.",
    "stratatak": "`rollout_limit=10`: playouts are cut after 10 plies and scored by the game's evaluation.",
    "stakd": "STAKD declares no evaluation cut-off: `mcts` plays random playouts to the end, guided by the move "
             "ordering.",
}
#: Search iterations per move in the matches when ``bench --iterations`` is not given.
MATCH_ITERATIONS = {"stratatak": 200, "cardclash": 100, "stakd": 200, "stackattack": 30}
#: Search iterations per position in the speed tables when ``bench --iterations`` is not given.
SPEED_ITERATIONS = 2000


def match_pairs(game_name: str, iterations: int | None) -> list[tuple[str, str]]:
    """The game's pairings with the search agents' budget filled in (see :data:`PAIRINGS`)."""
    budget = MATCH_ITERATIONS[game_name] if iterations is None else iterations
    return [(a.format(iterations=budget), b.format(iterations=budget)) for a, b in PAIRINGS[game_name][0]]


def game_positions(game_name: str) -> list[str]:
    """The shipped positions a game's benchmark measures (``puzzles/<game>/*.toml``; for STAKD only those
    of two or more players), sorted; empty when there are none."""
    files = sorted(glob.glob(shipped(f"puzzles/{game_name}/*.toml")))
    if game_name == "stakd":
        files = [f for f in files if load_position(f).game.num_players > 1]
    return files


def bench_command(game_name: str, max_nodes: int, iterations: int | None, games: int, engine: str) -> str:
    """The command that measures what ``bench_game`` measured, every option its figures depend on written
    out (a default may change; the table must still say what it ran)."""
    return (f"stratagem bench {game_name} --max-nodes {max_nodes}"
            + ("" if iterations is None else f" --iterations {iterations}") + f" --count {games} --engine {engine}")


def bench_game(game_name: str, files: list[str], out_dir: str, max_nodes: int, iterations: int | None, games: int,
               log: Callable[[str], None], *, engine: str = "compiled") -> Path:
    """Measure one game's positions ``files`` (:func:`game_positions`) and write ``<out_dir>/<game>.md``;
    progress goes to ``log``.

    ``iterations`` (``bench --iterations``) is the MCTS/DUCT budget of the speed table per position and
    of the match agents per move; None keeps the defaults (:data:`SPEED_ITERATIONS`,
    :data:`MATCH_ITERATIONS`). ``engine="compiled"`` adds the section measuring the searches on the game's
    compiled engine against the reference engine (:mod:`stratagem.bench.searches`), where it has one: UCT
    with ``10 * iterations`` simulations compiled and ``iterations`` on the reference engine and
    alpha-beta within ``max_nodes`` when ``iterations`` is given (a quick run), else the section's own
    budgets (:mod:`stratagem.bench.searches`: exhaustive searches of every shipped position); and the section
    measuring DUCT, ISMCTS and PIMC the same way (:mod:`stratagem.bench.sampling`; ``iterations`` then the
    reference engine's budget of each)."""
    lines = [
        f"# {game_name}: search and play benchmark",
        "",
        f"Written by `{bench_command(game_name, max_nodes, iterations, games, engine)}`. Open information (every "
        "card known) unless said.",
        f"Machine: {machine()}.",
        "",
    ]
    speed = SPEED_ITERATIONS if iterations is None else iterations
    if game_name == "stackattack":
        from stratagem.bench.stackattack import deep_table

        lines += simultaneous_table(files, speed, log, engine)
        lines += deep_table(log)
        if engine == "compiled":
            from stratagem.bench.sampling import sampling_section

            lines += sampling_section(game_name, files, log, reference=iterations)
    else:
        lines += search_table(files, max_nodes, log)
        lines += mcts_table(files, speed, log)
        if engine == "compiled":
            from stratagem.bench.searches import engines_section

            budgets = {} if iterations is None else {"compiled": 10 * iterations, "reference": iterations,
                                                     "max_nodes": max_nodes}
            lines += engines_section(game_name, files, log, **budgets)
            from stratagem.bench.sampling import sampling_section

            lines += sampling_section(game_name, files, log, reference=iterations)
    lines += match_table(game_name, match_pairs(game_name, iterations), games, PAIRINGS[game_name][1], log)
    lines += peers_section(game_name, files, max_nodes, games, log)
    folder = Path(out_dir)
    target = folder / f"{game_name}.md"
    lines += kept_sections(target.read_text(encoding="utf-8") if target.exists() else "")
    write_table(target, "\n".join(lines))
    return target

