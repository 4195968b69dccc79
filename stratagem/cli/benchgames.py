"""``stratagem bench GAME`` for the games analysed by search: results/<game>.md.

For each shipped position of a turn-based game (Stratatak, Card Clash, STAKD):

- alpha-beta (or expectimax, or paranoid for three or more players) with and without the game's
  move ordering and the transposition table: nodes and time, and each variant's ratio to the plain
  search (no ordering, no table) measured in the same run;
- UCT simulations per second on the same positions;
- a short match table between the agents (seeded, seats rotating).

For Stack Attack: the LP backward induction on each position (simultaneous nodes, time, whether every
node certified) against DUCT iterations per second.

Raw seconds depend on the machine (noted in the header); ratios measured in one run do not.
"""

from __future__ import annotations

import glob
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from stratagem.analysis import return_bounds
from stratagem.cli.output import machine
from stratagem.core.errors import StratagemError
from stratagem.core.io import write_atomic
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
        "Nodes visited and seconds per position; `x plain` is the ratio to the search with neither",
        f"(same run). A search stopped at {max_nodes:,} nodes shows `>` and its status.",
        "",
        "| position | value | " + " | ".join(f"{v} nodes | {v} s" for v, _, _ in VARIANTS)
        + " | nodes x plain (ordering / table / both) |",
        "|---|---|" + "---:|---:|" * len(VARIANTS) + "---:|",
    ]
    for file in files:
        loaded = load_position(file)
        cells = []
        nodes: dict[str, int] = {}
        value = "?"
        for label, ordering, table in VARIANTS:
            result, seconds = _search(loaded.game, loaded.state, ordering, table, max_nodes)
            stopped = result.status == "unknown"
            nodes[label] = result.nodes
            if result.solved:
                shown = int(result.value) if float(result.value).is_integer() else result.value  # type: ignore[arg-type]
                value = f"{shown} (paranoid)" if result.assumption == "paranoid" else str(shown)
            cells.append(f"{'>' if stopped else ''}{result.nodes:,} | {seconds:.3f}")
            log(f"{Path(file).name} {label}: {result.status}, {result.nodes:,} nodes, {seconds:.2f} s")
        ratios = " / ".join(f"{nodes[v] / nodes['plain']:.3f}" for v in ("ordering", "table", "both"))
        lines.append(f"| {Path(file).stem} | {value} | " + " | ".join(cells) + f" | {ratios} |")
    return lines + [""]


def mcts_table(files: list[str], iterations: int, log: Callable[[str], None]) -> list[str]:
    lines = [
        "## UCT simulations per second",
        "",
        f"{iterations:,} iterations of UCT with MCTS-Solver from each position (open information).",
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
        f"{games} games per pairing from fresh deals, seed 0, seats rotating; "
        "95% Wilson interval on the win rate of the first agent.",
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


def simultaneous_table(files: list[str], iterations: int, log: Callable[[str], None]) -> list[str]:
    from stratagem.solvers.duct import duct
    from stratagem.solvers.simultaneous import solve_each_player, solve_simultaneous

    lines = [
        "## Exact LP backward induction and DUCT",
        "",
        "Backward induction with one exactly certified LP per simultaneous node (two players: zero-sum on",
        "the penalty difference; more: each player against the coalition, all players solved), and",
        f"{iterations:,} DUCT iterations from the same position; `LP / DUCT` is the ratio of their times.",
        "",
        "| position | players | LP nodes | certified | LP s | DUCT s | DUCT it/s | LP / DUCT |",
        "|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for file in files:
        loaded = load_position(file)
        game, state = loaded.game, loaded.state
        started = time.perf_counter()
        if game.num_players == 2:
            results = [solve_simultaneous(game, state, player=0, payoff="margin")]
        else:
            results = list(solve_each_player(game, state, payoff="own"))
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
    "cardclash": ([("greedy", "random"), ("mcts:iterations={iterations}:rollout_limit=20", "random"),
                   ("mcts:iterations={iterations}:rollout_limit=20", "greedy"),
                   ("ismcts:iterations={iterations}:rollout_limit=20", "greedy")], 2),
    "stakd": ([("greedy", "random"), ("mcts:iterations={iterations}", "random"),
               ("mcts:iterations={iterations}", "greedy")], 2),
    "stackattack": ([("lowest", "random"), ("cautious", "lowest"), ("greedy", "random"),
                     ("duct:iterations={iterations}", "lowest")], 2),
}
#: Search iterations per move in the matches when ``bench --iterations`` is not given.
MATCH_ITERATIONS = {"stratatak": 200, "cardclash": 100, "stakd": 200, "stackattack": 30}
#: Search iterations per position in the speed tables when ``bench --iterations`` is not given.
SPEED_ITERATIONS = 2000


def match_pairs(game_name: str, iterations: int | None) -> list[tuple[str, str]]:
    """The game's pairings with the search agents' budget filled in (see :data:`PAIRINGS`)."""
    budget = MATCH_ITERATIONS[game_name] if iterations is None else iterations
    return [(a.format(iterations=budget), b.format(iterations=budget)) for a, b in PAIRINGS[game_name][0]]


def bench_game(game_name: str, out_dir: str, max_nodes: int, iterations: int | None, games: int) -> Path:
    """Measure one game's shipped positions and write ``<out_dir>/<game>.md``.

    ``iterations`` (``bench --iterations``) is the MCTS/DUCT budget of the speed table per position and
    of the match agents per move; None keeps the defaults (:data:`SPEED_ITERATIONS`,
    :data:`MATCH_ITERATIONS`)."""
    files = sorted(glob.glob(f"puzzles/{game_name}/*.toml"))
    if game_name == "stakd":
        files = [f for f in files if load_position(f).game.num_players > 1]
    if not files:
        raise click.BadParameter(f"no positions in puzzles/{game_name}/", param_hint="GAME")

    def log(text: str) -> None:
        click.echo(text, err=True)

    lines = [
        f"# {game_name}: search and play benchmark",
        "",
        f"Written by `stratagem bench {game_name}`. Open information (every card known) unless said.",
        f"Machine: {machine()}.",
        "",
    ]
    speed = SPEED_ITERATIONS if iterations is None else iterations
    if game_name == "stackattack":
        lines += simultaneous_table(files, speed, log)
    else:
        lines += search_table(files, max_nodes, log)
        lines += mcts_table(files, speed, log)
    lines += match_table(game_name, match_pairs(game_name, iterations), games, PAIRINGS[game_name][1], log)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{game_name}.md"
    write_atomic(target, "\n".join(lines))
    return target
