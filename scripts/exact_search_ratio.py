"""The compiled exact search's nodes per CPU second over the reference search's, as a median of many
interleaved samples: steadier than the bench's median of 3 on a shared machine.

Each sample is one :func:`stratagem.bench.searches.search_speed` with one repeat (the compiled search's
passes for at least ``SAMPLE_SECONDS``, then the reference's), so a slow spell of the machine weighs on
both engines of a sample alike. Prints, per position, the median and quartiles of the per-pass ratio and
the median of the cold first pass's.

    python scripts/exact_search_ratio.py --samples 15 puzzles/stratatak/run-of-reds.toml
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from stratagem.bench.searches import search_speed
from stratagem.engines import resolve
from stratagem.loading import load_position


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("positions", nargs="+", help="position files with a compiled engine")
    parser.add_argument("--samples", type=int, default=15)
    args = parser.parse_args()
    print("| position | samples | nodes/CPU-s compiled / reference: median [quartiles] | first pass: median |")
    print("|---|---:|---|---:|")
    for path in args.positions:
        loaded = load_position(path)
        engine = resolve(loaded.game, "compiled").engine
        if engine is None:
            print(f"| {Path(path).stem} | 0 | no compiled engine | |")
            continue
        per_pass, cold = [], []
        for _ in range(args.samples):
            speed = search_speed(loaded.game, engine, loaded.state, repeats=1)
            reference = speed.reference_nodes / speed.reference_seconds
            per_pass.append(speed.compiled_nodes / speed.compiled_seconds / reference)
            cold.append(speed.compiled_nodes / speed.compiled_first / (speed.reference_nodes / speed.reference_first))
        quartiles = ", ".join(f"{q:.1f}" for q in statistics.quantiles(per_pass))
        print(f"| {Path(path).stem} | {args.samples} | {statistics.median(per_pass):.1f} [{quartiles}] | "
              f"{statistics.median(cold):.1f} |", flush=True)


if __name__ == "__main__":
    main()
