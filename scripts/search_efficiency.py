"""Measure how much the exact searches search beyond their proof, on every shipped endgame.

For each two- or more-player position under ``puzzles/{cardclash,stakd,stratatak}/`` this runs what
``stratagem analyze`` runs -- the root's search (alphabeta, expecti where chance remains, paranoid for
three players), then the ranking of every root move -- and the proof tree ``--proof`` writes, and
reports:

- ``searched``: nodes of the root's search alone; ``proof``: nodes of the proof tree (a DAG of
  distinct positions); ``searched/proof``, the search's overhead over the certificate (ideal <= 3);
- ``ranking``: nodes of the ranking searches as ``analyze`` runs them now (sharing the root's table,
  the root's solved best move not searched again) and as before (each move searched, each search with
  its own table), and ``ranking/proof``;
- CPU seconds of the root's search and of each ranking.

The proof is of the value alone ("player 1 at least 1"); the search also establishes the distance to
the result (the fastest win, the slowest loss), which the proof does not certify, so on positions where
other moves must be shown not to win sooner the search has to do more than the proof shows.

    python scripts/search_efficiency.py --out results/search-efficiency.md
    python scripts/search_efficiency.py square-in-5 long-odds      # only positions whose file names match
"""

from __future__ import annotations

import argparse
import glob
import os
import platform
import time
from pathlib import Path
from typing import Any

from stratagem.analysis.methods import resolve_method
from stratagem.loading import load_position
from stratagem.solvers.alphabeta import alphabeta, return_bounds
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.multiplayer import paranoid
from stratagem.solvers.prooftree import build_proof_tree
from stratagem.solvers.ranking import MoveValue, rank_moves
from stratagem.solvers.transposition import TranspositionTable

GAMES = ("cardclash", "stakd", "stratatak")
SEARCHES = {"alphabeta": alphabeta, "expecti": expectiminimax, "paranoid": paranoid}


def positions(only: list[str]) -> list[str]:
    """The shipped endgames of the searched games (solo STAKD puzzles left out), filtered by ``only``."""
    files = [f for game in GAMES for f in sorted(glob.glob(f"puzzles/{game}/*.toml"))]
    files = [f for f in files if load_position(f).game.num_players > 1]
    return [f for f in files if not only or any(o in f for o in only)]


def cpu() -> float:
    return time.process_time()


def measure(file: str) -> dict[str, Any]:
    """One position: the root's search, the ranking with and without the shared table, the proof."""
    loaded = load_position(file)
    game, state = loaded.game, loaded.state
    method = resolve_method(loaded)
    search = SEARCHES[method]
    try:
        return _measure(game, state, method, search)
    except Exception as exc:  # alphabeta met a chance node: analyze goes on with expecti
        if method != "alphabeta" or "chance" not in str(exc):
            raise
        return _measure(game, state, "expecti", expectiminimax)


def _measure(game: Any, state: Any, method: str, search: Any) -> dict[str, Any]:
    low, high = return_bounds(game)
    table = TranspositionTable()
    started = cpu()
    result = search(game, state, lo=low, hi=high, tt=table)
    root_seconds = cpu() - started
    known = {}
    if result.solved and result.best_move is not None:
        known[result.best_move] = MoveValue(result.best_move, result.value, result.distance, result.status,
                                            result.assumption)
    started = cpu()
    shared = rank_moves(game, state, search, known=known, lo=low, hi=high, tt=table)
    shared_seconds = cpu() - started
    started = cpu()
    alone = rank_moves(game, state, search, lo=low, hi=high)
    alone_seconds = cpu() - started
    if [(m.move, m.value, m.distance) for m in shared] != [(m.move, m.value, m.distance) for m in alone]:
        raise AssertionError(f"{game.name}: the ranking with the shared table differs from the one without")
    mover = game.to_move(state)
    proof = build_proof_tree(game, state, player=mover, lo=low, hi=high)
    return {
        "method": method,
        "value": result.value,
        "distance": result.distance,
        "searched": result.nodes,
        "proof": len(proof["nodes"]),
        "root_seconds": root_seconds,
        "shared": sum(m.nodes for m in shared),
        "shared_seconds": shared_seconds,
        "alone": sum(m.nodes for m in alone),
        "alone_seconds": alone_seconds,
    }


def table(rows: list[tuple[str, dict[str, Any]]]) -> list[str]:
    lines = [
        "| position | method | value | plies | searched | proof | searched/proof | ranking nodes (now) "
        "| ranking/proof | ranking nodes (before) | root s | ranking s (now / before) |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, r in rows:
        value = r["value"]
        lines.append(
            f"| {name} | {r['method']} | {value} | {r['distance'] if r['distance'] is not None else '—'} "
            f"| {r['searched']:,} | {r['proof']:,} | {r['searched'] / r['proof']:.2f} | {r['shared']:,} "
            f"| {r['shared'] / r['proof']:.1f} | {r['alone']:,} | {r['root_seconds']:.3f} "
            f"| {r['shared_seconds']:.3f} / {r['alone_seconds']:.3f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("only", nargs="*", help="only positions whose file names contain one of these")
    parser.add_argument("--out", help="write the table as Markdown to this file")
    args = parser.parse_args()
    rows = []
    for file in positions(args.only):
        r = measure(file)
        name = f"{Path(file).parent.name}/{Path(file).stem}"
        rows.append((name, r))
        print(f"{name}: searched {r['searched']:,}, proof {r['proof']:,}, ratio {r['searched'] / r['proof']:.2f}, "
              f"ranking {r['shared']:,} now / {r['alone']:,} before", flush=True)
    load = os.getloadavg()[0]
    header = [
        "# Search efficiency: nodes searched against the proof",
        "",
        f"Written by `python scripts/search_efficiency.py --out results/search-efficiency.md` on "
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {load:.1f} when it finished. Nodes are deterministic; CPU seconds vary with the machine.",
        "",
    ]
    text = "\n".join(header + table(rows)) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
