"""``stratagem bench``: measured performance tables under ``results/``.

Every table is a ratio against a baseline measured in the same run on the same machine (here: A*'s and
IDA*'s expansions and time against breadth-first search), with the machine noted, so tables from
different machines are compared by their ratios, never by raw seconds.
"""

from __future__ import annotations

import glob
import os
import platform
from pathlib import Path
from typing import Any

import click

from stratagem import __version__
from stratagem.cli.games import load_strato
from stratagem.core.io import write_atomic
from stratagem.models.strato.planning import StratoPlanning
from stratagem.solvers.search import SOLVED, SearchResult, astar, bfs, idastar

SEARCHES = (("bfs", bfs), ("astar", astar), ("idastar", idastar))


def machine() -> str:
    """One line describing where the numbers were measured."""
    cpu = platform.processor() or platform.machine()
    return (
        f"{platform.system()} {platform.machine()} ({cpu}), {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, stratagem {__version__}"
    )


def _cell(result: SearchResult[Any, Any]) -> tuple[str, str]:
    if result.status == SOLVED:
        return str(len(result.moves or ())), result.status
    if result.status == "unknown":
        return f"≥{result.lower_bound}", f"unknown ({result.stopped_by})"
    return "—", result.status


def _ratio(part: float, whole: float, exact: bool) -> str:
    if whole <= 0:
        return "—"
    text = f"{part / whole:.3f}"
    return text if exact else f"{text}*"


@click.command()
@click.argument("game", type=click.Choice(["strato"]), default="strato")
@click.option("--puzzles", "pattern", default="puzzles/strato/*.toml", show_default=True,
              help="Glob of puzzle files whose deals are measured.")
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=10.0, show_default=True, metavar="S",
              help="Seconds allowed to each search of each deal.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="results", show_default=True)
def bench(game: str, pattern: str, time_limit: float, out_dir: str) -> int:
    """Measure BFS, A* and IDA* on every shipped deal; write results/strato-search.md."""
    files = sorted(glob.glob(pattern))
    if not files:
        raise click.BadParameter(f"no puzzle files match {pattern!r}", param_hint="--puzzles")
    rows = []
    for file in files:
        puzzle = load_strato(file)
        for spec in puzzle.deals:
            game_ = puzzle.game(spec)
            results = {}
            for name, search in SEARCHES:
                result = search(StratoPlanning(game_), time_limit=time_limit)
                results[name] = result
                length, status = _cell(result)
                click.echo(
                    f"{Path(file).name} {spec.name} {name}: {status}, length {length}, "
                    f"{result.stats.expanded} nodes, {result.stats.seconds:.2f} s",
                    err=True,
                )
            rows.append((Path(file).name, spec.name, results))
    write_atomic(Path(out_dir) / "strato-search.md", _table(rows, time_limit))
    click.echo(f"wrote {Path(out_dir) / 'strato-search.md'}")
    return 0


def _table(rows: list[tuple[str, str, dict[str, SearchResult[Any, Any]]]], time_limit: float) -> str:
    out = [
        "# Strato: optimal search on the shipped deals",
        "",
        "Written by `stratagem bench strato`. Open information (every hand and the pile order known).",
        f"Machine: {machine()}. Each search had {time_limit:g} s per deal.",
        "",
        "Nodes are expansions. Ratios are A* (or IDA*) against BFS on the same deal in the same run;",
        "a ratio marked * compares a search that was stopped by the time limit (so it is a bound, not a",
        "measurement of the whole search). Length ≥k: stopped, no line shorter than k.",
        "",
        "| puzzle | deal | length | BFS nodes | BFS s | A* nodes | A* s | IDA* nodes | IDA* s "
        "| A*/BFS nodes | IDA*/BFS nodes | A*/BFS time |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for file, deal, results in rows:
        b, a, i = results["bfs"], results["astar"], results["idastar"]
        solved = [r for r in (b, a, i) if r.status == SOLVED]
        if solved:
            length = _cell(solved[0])[0]
        elif any(r.status == "unsolvable" for r in (b, a, i)):
            length = "none"
        else:
            length = f"≥{max(r.lower_bound for r in (b, a, i))}"
        exact_a = b.status != "unknown" and a.status != "unknown"
        exact_i = b.status != "unknown" and i.status != "unknown"
        out.append(
            f"| {file} | {deal} | {length} | {b.stats.expanded} | {b.stats.seconds:.2f} | {a.stats.expanded} "
            f"| {a.stats.seconds:.2f} | {i.stats.expanded} | {i.stats.seconds:.2f} "
            f"| {_ratio(a.stats.expanded, b.stats.expanded, exact_a)} "
            f"| {_ratio(i.stats.expanded, b.stats.expanded, exact_i)} "
            f"| {_ratio(a.stats.seconds, b.stats.seconds, exact_a)} |"
        )
    solved_rows = [r for _, _, r in rows if all(x.status != "unknown" for x in r.values())]
    if solved_rows:
        total_b = sum(r["bfs"].stats.expanded for r in solved_rows)
        total_a = sum(r["astar"].stats.expanded for r in solved_rows)
        out += ["", f"Over the {len(solved_rows)} deals all three searches decided: "
                f"A* expanded {total_a / total_b:.3f} of BFS's nodes."]
    return "\n".join(out) + "\n"
