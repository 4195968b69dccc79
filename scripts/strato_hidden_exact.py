"""Exact solo odds of the shipped Strato deals by the compiled hidden-pile search, with value tables.

For each solo deal of the puzzles named: the compiled search (:mod:`stratagem.models.strato.hidden.exact`)
under a time limit, its states, table memory and CPU seconds; the value table it leaves
(``stratagem/strato-odds-table@1``) written and checked by ``verify``, with both CPU times. Prints a
Markdown table (one row a deal) for results/strato-hidden.md.

    python scripts/strato_hidden_exact.py --seconds 600 --tables /tmp/tables puzzles/strato/challenge-0.toml ...
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from stratagem.loading import deal_of, load_strato
from stratagem.models.strato.hidden.exact import Solver, value_table
from stratagem.models.strato.hidden.game import HiddenStrato
from stratagem.verification import verify


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("puzzles", nargs="+")
    parser.add_argument("--seconds", type=float, default=600.0, help="wall-clock limit of each search")
    parser.add_argument("--tables", type=Path, required=True, help="folder for the value tables")
    parser.add_argument("--no-verify", action="store_true")
    args = parser.parse_args()
    args.tables.mkdir(parents=True, exist_ok=True)
    print(f"load average at start: {os.getloadavg()[0]:.1f}", flush=True)
    print("| challenge | deal | status | value | states kept | table memory | search CPU s | table states "
          "(frontier) | table MB | write CPU s | verify | verify CPU s |", flush=True)
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|", flush=True)
    for puzzle in args.puzzles:
        loaded = load_strato(puzzle)
        for spec in loaded.deals:
            if spec.players != 1:
                continue
            deal = deal_of(loaded, spec.name)
            game = HiddenStrato(deal.challenge, deal.game.options, deal.start)
            solver = Solver(game)
            result = solver.solve(args.seconds)
            path = args.tables / f"{Path(puzzle).stem}-{spec.name}.tbl.gz"
            started = time.process_time()
            value, states, frontier = value_table(solver, path, {"setup": deal.setup(), "deal": deal.name})
            written = time.process_time() - started
            verdict, checked = "-", 0.0
            if not args.no_verify:
                started = time.process_time()
                outcome = verify(path)
                checked = time.process_time() - started
                verdict = ", ".join(f"{c.claim} {c.status}" for c in outcome.claims) or outcome.status
            shown = f"{result.value} ({float(result.value):.4f})" if result.value is not None else \
                f"unknown ({result.stopped_by}); at most {value}"
            print(f"| {deal.challenge.name} | {spec.name} | {result.status} | {shown} | {result.states:,} | "
                  f"{result.memory / 2**20:.0f} MB | {result.seconds:.1f} | {states:,} ({frontier:,}) | "
                  f"{path.stat().st_size / 2**20:.1f} | {written:.1f} | {verdict} | {checked:.1f} |", flush=True)


if __name__ == "__main__":
    main()
