"""Measure the compiled Strato search (issue 15 item 3) and write results/strato-compiled.md.

Two tables, measured in one run:

1. A* expansions per CPU second, compiled (``compiled_search.compiled_astar``) against the Python A*
   (``solvers.search.astar`` on ``StratoPlanning``), on the same deals, one after the other in this
   process. The compiled kernels are loaded (or compiled) before anything is timed; their load time is
   reported on its own. The Python A* gets at most ``--python-seconds`` per deal (its rate is then
   over what it did), the compiled one ``--compiled-seconds``.
2. ``stratagem solve FILE --deal D --proof P --json`` (method auto) and ``stratagem verify P`` on the
   deals that were near or over 10 s, as the user runs them: separate processes, wall clock and the
   children's CPU seconds, with ``--time-limit`` for the solve.

    python scripts/strato_compiled.py [--out results/strato-compiled.md] [--solve-limit 60]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import resource
except ImportError:  # Windows: the children's CPU seconds (and the load average) are not measured there
    resource = None  # type: ignore[assignment]

#: What the tables say of a figure this system cannot give.
NOT_MEASURED = "not measured on this system"

REPO = Path(__file__).resolve().parents[1]
PUZZLES = REPO / "puzzles" / "strato"

SEARCH_DEALS = [("challenge-0.toml", "solo-1"), ("challenge-0.toml", "four-2"), ("challenge-1.toml", "solo-3"),
                ("challenge-1.toml", "solo-2"), ("challenge-1.toml", "duo-2"), ("level-2-example.toml", "solo-1")]
SOLVE_DEALS = [("challenge-1.toml", "solo-1"), ("challenge-1.toml", "duo-1"), ("challenge-1.toml", "four-1"),
               ("level-2-example.toml", "duo-1")]


def _load() -> str:
    """The 1-minute load average, as the notes print it."""
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else NOT_MEASURED


def _cpu(seconds: float | None) -> str:
    """CPU seconds, as the table prints them."""
    return NOT_MEASURED if seconds is None else f"{seconds:.2f}"


def search_rates(python_seconds: float, compiled_seconds: float) -> tuple[list[str], float]:
    from stratagem.models.strato.rules.puzzle import load_puzzle
    from stratagem.models.strato.search.compiled_search import compiled_astar
    from stratagem.models.strato.search.planning import StratoPlanning
    from stratagem.solvers.search import astar

    began = time.process_time()
    warm = load_puzzle(PUZZLES / "challenge-0.toml")
    compiled_astar(warm.game(warm.find_deal("solo-1")))  # import the kernels
    warm_cpu = time.process_time() - began
    rows = ["| puzzle | deal | compiled: status, turns | expansions | CPU s | expansions / CPU s | "
            "Python: status, turns | expansions | CPU s | expansions / CPU s | ratio |",
            "|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|"]
    for file, deal in SEARCH_DEALS:
        puzzle = load_puzzle(PUZZLES / file)
        game = puzzle.game(puzzle.find_deal(deal))
        figures = []
        for compiled in (True, False):
            began = time.process_time()
            result = compiled_astar(game, time_limit=compiled_seconds) if compiled else \
                astar(StratoPlanning(game), time_limit=python_seconds)
            cpu = time.process_time() - began
            turns = len(result.moves) if result.moves is not None else f">= {result.lower_bound}"
            rate = result.stats.expanded / cpu if cpu > 0 else 0.0
            figures.append((f"{result.status}, {turns}", result.stats.expanded, cpu, rate))
        (cs, ce, cc, cr), (ps, pe, pc, pr) = figures
        ratio = f"{cr / pr:.0f}" if pr > 0 else "—"
        rows.append(f"| {file} | {deal} | {cs} | {ce:,} | {cc:.2f} | {cr:,.0f} | {ps} | {pe:,} | {pc:.2f} | "
                    f"{pr:,.0f} | {ratio} |")
        print(rows[-1], flush=True)
    return rows, warm_cpu


def _timed(args: list[str]) -> tuple[float, float | None, subprocess.CompletedProcess[str]]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN) if resource is not None else None
    began = time.perf_counter()
    done = subprocess.run(args, capture_output=True, encoding="utf-8", check=False)  # stratagem writes UTF-8
    wall = time.perf_counter() - began
    if before is None:
        return wall, None, done
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done


def solve_times(limit: float) -> list[str]:
    rows = ["| puzzle | deal | status | length | lower bound | method | certificate | solve s (CPU) | "
            "verify s (CPU) | total wall s | verdict |", "|---|---|---|---:|---:|---|---|---:|---:|---:|---|"]
    stratagem = [sys.executable, "-m", "stratagem"]
    with tempfile.TemporaryDirectory() as tmp:
        for file, deal in SOLVE_DEALS:
            proof = Path(tmp) / f"{file}-{deal}.json"
            wall, cpu, done = _timed([*stratagem, "solve", str(PUZZLES / file), "--deal", deal, "--proof", str(proof),
                                      "--json", "--time-limit", str(limit)])
            report = json.loads(done.stdout) if done.stdout.strip().startswith("{") else {}
            kind = "—"
            vwall = 0.0
            vcpu: float | None = 0.0 if resource is not None else None
            verdict = "no proof written"
            if proof.exists():
                kind = json.loads(proof.read_text(encoding="utf-8"))["evidence"].get("kind", "—")
                vwall, vcpu, checked = _timed([*stratagem, "verify", str(proof)])
                lines = checked.stdout.strip().splitlines()
                verdict = lines[-1] if lines else checked.stderr.strip()[:80]
            rows.append(f"| {file} | {deal} | {report.get('status', '?')} | {report.get('length') or '—'} | "
                        f"{report.get('lower_bound', '—')} | {report.get('method', '—')} | {kind} | "
                        f"{wall:.2f} ({_cpu(cpu)}) | {vwall:.2f} ({_cpu(vcpu)}) | {wall + vwall:.2f} | {verdict} |")
            print(rows[-1], flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(REPO / "results" / "strato-compiled.md"))
    parser.add_argument("--python-seconds", type=float, default=20.0)
    parser.add_argument("--compiled-seconds", type=float, default=60.0)
    parser.add_argument("--solve-limit", type=float, default=60.0)
    args = parser.parse_args()
    load_before = _load()
    search, warm = search_rates(args.python_seconds, args.compiled_seconds)
    load_middle = _load()
    solving = solve_times(args.solve_limit)
    load_after = _load()
    machine = (f"Machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python "
               f"{platform.python_version()}; load average {load_before} at the start, {load_middle} "
               f"between the tables, {load_after} at the end (other work shared the cores: compare CPU "
               "seconds and ratios, not wall clock).")
    text = "\n".join([
        "# Strato: the compiled search",
        "",
        "Written by `python scripts/strato_compiled.py` (issue 15, item 3). Open information.",
        machine,
        "",
        "## A* expansions per CPU second, compiled against Python",
        "",
        "The same A* (open list by lowest f, then deepest g; the heuristic of `heuristic.py`, no relaxation "
        "term here) over the same states, compiled (`compiled_search.py`) and over the Python rules engine "
        f"(`solvers.search.astar`), one after the other in one process. Python A* stopped after "
        f"{args.python_seconds:g} s, the compiled one after {args.compiled_seconds:g} s; a rate is over the "
        "expansions done. Importing the kernels and a first search of challenge 0's solo-1 took "
        f"{warm:.2f} CPU s before the first row (the kernels are compiled when the package is installed; "
        "nothing is compiled at run time).",
        "",
        *search,
        "",
        "## `stratagem solve` (auto) and `stratagem verify`, per deal",
        "",
        f"Separate processes, as a user runs them; solve with `--time-limit {args.solve_limit:g}`. Seconds are "
        "wall clock, CPU seconds of the process in brackets.",
        "",
        *solving,
        "",
    ])
    Path(args.out).write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
