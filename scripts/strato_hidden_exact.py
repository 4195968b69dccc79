"""Exact solo odds, or a certified interval, of the shipped Strato deals, with their value tables.

For each solo deal of the puzzles named: :func:`~stratagem.models.strato.hidden.exact.odds_interval` under
a wall-clock limit (the probe "won with certainty?", the exact compiled search, else the guided policy's
exact value with small-weight states cut), its states, table memory and CPU seconds; the value table
(``stratagem/strato-odds-table@4``) written and checked by ``verify`` with the rules alone, with both CPU
times and their ratio. ``--python-seconds`` also runs the Python search (``hidden/odds.py``'s
``solo_odds``) on each deal, for the ratio of the check to the search it replaced. Prints a Markdown table
(one row a deal) for results/strato-hidden.md; one deal at a time. With ``--within``, the table is written
within the same limit, as ``stratagem odds --table`` does
(:func:`~stratagem.winprobability.odds_bounds`: a finer pass runs only while its table's writing still
fits); without it, the searches have the whole limit and the table is written after.

    python scripts/strato_hidden_exact.py --seconds 150 --tables /tmp/tables puzzles/strato/challenge-0.toml ...
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import os
import time
from fractions import Fraction
from pathlib import Path

from stratagem.core.deadline import Deadline
from stratagem.core.provenance import provenance
from stratagem.loading import deal_of, load_strato
from stratagem.models.strato.hidden.exact import odds_interval, policy_sources
from stratagem.models.strato.hidden.game import HiddenStrato
from stratagem.models.strato.hidden.odds import solo_odds
from stratagem.models.strato.hidden.valuetable import TableSummary, write_table
from stratagem.verification import verify
from stratagem.winprobability import odds_bounds

try:
    import resource
except ImportError:  # Windows: the peak memory (and the load average) are not measured there
    resource = None  # type: ignore[assignment]

#: What the table says of a figure this system cannot give.
NOT_MEASURED = "not measured on this system"


def _load() -> str:
    """The 1-minute load average, as the table prints it."""
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else NOT_MEASURED


def _peak() -> str:
    """This process's peak resident memory so far, as the notes print it."""
    if resource is None:
        return NOT_MEASURED
    return f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20:.1f} GB"  # ru_maxrss: KB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("puzzles", nargs="+")
    parser.add_argument("--seconds", type=float, default=600.0, help="wall-clock limit of each deal's searches")
    parser.add_argument("--max-states", type=int, default=30_000_000, help="states each search may keep")
    parser.add_argument("--tables", type=Path, required=True, help="folder for the value tables")
    parser.add_argument("--deal", action="append", default=[], help="only this solo deal (repeatable; default all)")
    parser.add_argument("--drain", action="store_true",
                        help="a pass that cannot finish goes back to the cut before, as in a sweep (not with "
                             "--within; without it, the table takes the subtrees the stopped pass finished)")
    parser.add_argument("--within", action="store_true",
                        help="write the table within --seconds too (as `stratagem odds --table`), not after it")
    parser.add_argument("--python-seconds", type=float, default=0.0,
                        help="also run the Python search with this wall-clock limit (0: not run)")
    args = parser.parse_args()
    args.tables.mkdir(parents=True, exist_ok=True)
    print("| challenge | deal | status | interval | width | states kept (policy) | table memory | search CPU s "
          "| table rows (policy, frontier; cut draws) | table KB | write CPU s | verify | verify CPU s "
          "| search / verify | Python search CPU s | load |", flush=True)
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|", flush=True)
    for puzzle in args.puzzles:
        loaded = load_strato(puzzle)
        for spec in loaded.deals:
            if spec.players != 1 or (args.deal and spec.name not in args.deal):
                continue
            load = _load()
            deal = deal_of(loaded, spec.name)
            game = HiddenStrato(deal.challenge, deal.game.options, deal.start)
            path = args.tables / f"{Path(puzzle).stem}-{spec.name}.tbl.gz"
            wall = time.perf_counter()
            if args.within:
                started = time.process_time()
                bounds = odds_bounds(deal, path, time_limit=args.seconds, max_states=args.max_states)
                if bounds.table is None:
                    print(f"| {deal.challenge.name} | {spec.name} | {bounds.table_note} |", flush=True)
                    continue
                written = time.process_time() - started - bounds.cpu_seconds
                table = _summary(path)
                status, states, policy_states, memory, seconds, steps = (
                    "exact" if bounds.lower == bounds.upper else "interval", bounds.states, bounds.policy_states,
                    bounds.memory, bounds.cpu_seconds, list(bounds.steps))
                del bounds
            else:
                found = odds_interval(game, seconds=args.seconds, max_states=args.max_states,
                                      drain=args.drain)
                started = time.process_time()
                header = {"setup": deal.setup(), "deal": deal.name, "provenance": provenance(puzzle)}
                table = write_table(found.solver, path, header, policy=policy_sources(found))
                written = time.process_time() - started
                status, states, policy_states, memory, seconds, steps = (
                    found.status, found.states, found.policy_states, found.memory, found.seconds, found.steps)
                del found  # the searches' tables: the check runs in what they and the writer held
            wall = time.perf_counter() - wall
            gc.collect()
            started = time.process_time()
            outcome = verify(path)
            checked = time.process_time() - started
            verdict = ", ".join(f"{c.claim} {c.status}" for c in outcome.claims) or outcome.status
            python = "-"
            if args.python_seconds > 0:
                started = time.process_time()
                reference = solo_odds(game, deadline=Deadline(args.python_seconds), rank=False)
                python = f"{time.process_time() - started:.1f} ({reference.status})"
            lower, upper = table.lower, table.upper
            shown = f"{lower} ({float(lower):.4f})" if lower == upper else f"[{float(lower):.4f}, {float(upper):.4f}]"
            ratio = f"{seconds / checked:.1f}" if checked > 0 else "-"
            print(f"| {deal.challenge.name} | {spec.name} | {status} | {shown} | {float(upper - lower):.4f} | "
                  f"{states:,} ({policy_states:,}) | {memory / 2**20:.0f} MB | {seconds:.1f} | "
                  f"{table.states:,} ({table.policy:,}, {table.frontier:,}; {table.cut:,}) | "
                  f"{path.stat().st_size / 1024:.0f} | "
                  f"{written:.1f} | {verdict} | {checked:.2f} | {ratio} | {python} | "
                  f"{load if load == NOT_MEASURED else f'{load}-{_load()}'} |", flush=True)
            print(f"<!-- {spec.name}: search and table {wall:.1f} s wall; peak memory of the process so far "
                  f"{_peak()}; {'; '.join(steps)} -->", flush=True)


def _summary(path: Path) -> TableSummary:
    """What a written table's header says of it."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        head = json.loads(handle.readline())
    claim = head["claim"]
    return TableSummary(Fraction(claim["upper_bound"]), Fraction(claim["lower_bound"]), head["states"],
                        head["frontier"], head["policy"], head.get("cut", 0))


if __name__ == "__main__":
    main()
