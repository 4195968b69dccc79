"""The exact LP backward induction of Stack Attack endgames on the rules engine and on the compiled engine.

For each position (default: the two-player five-turn endgames) it runs
:func:`~stratagem.solvers.simultaneous.solve_simultaneous` (player 1, penalty difference) ``--runs`` times
on each engine (``packed=None``: the walk over the rules engine; ``packed=engine.simultaneous()``: the
walk over the compiled engine, :mod:`stratagem.solvers.induction_kernel`) and reports the median CPU
seconds (``time.process_time``; the machine is shared), the part of the compiled run spent in the LP
and its exact check (:func:`~stratagem.solvers.matrix.solve_matrix`), whether both wrote the same
certificate (the ``stratagem/matrixproof@1`` records compared whole) and the CPU seconds of
:func:`~stratagem.solvers.matrixproof.check_matrix_proof` (``verify``'s check, on the rules engine) on it.
The table is printed and, with ``--out``, written into that Markdown file as a section between two
marker comments (replaced when present, appended otherwise; ``stratagem bench stackattack`` keeps it).

    python scripts/stackattack_induction.py --runs 3 --out results/stackattack.md
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from stratagem.bench.tables import load_at_end, machine

ROOT = Path(__file__).resolve().parent.parent
BEGIN = "<!-- scripts/stackattack_induction.py: begin -->"
END = "<!-- scripts/stackattack_induction.py: end -->"
DEFAULT = ("2p-numbers-5-turns", "2p-actions-5-turns")


def measure(name: str, runs: int) -> dict[str, Any]:
    """One position's figures (see the module docstring)."""
    import stratagem.solvers.matrix as matrix_module
    import stratagem.solvers.simultaneous as walk_module
    from stratagem.models.stackattack import compiled_engine
    from stratagem.models.stackattack.puzzle import load_position
    from stratagem.solvers.matrixproof import check_matrix_proof, matrix_proof
    from stratagem.solvers.simultaneous import solve_simultaneous

    position = load_position(ROOT / "puzzles" / "stackattack" / f"{name}.toml")
    game, state = position.game, position.state
    packed = compiled_engine(game).simultaneous()
    lp_time = [0.0]
    solve = matrix_module.solve_matrix

    def timed(matrix: Any) -> Any:
        started = time.process_time()
        try:
            return solve(matrix)
        finally:
            lp_time[0] += time.process_time() - started

    row: dict[str, Any] = {"name": name}
    proofs = {}
    for label, walker in (("reference", None), ("compiled", packed)):
        seconds, lp = [], []
        for _ in range(runs):
            lp_time[0] = 0.0
            matrix_module.solve_matrix = timed  # the compiled walk's look-up, and the rules engine walk's:
            vars(walk_module)["solve_matrix"] = timed
            started = time.process_time()
            try:
                result = solve_simultaneous(game, state, player=0, payoff="margin", packed=walker)
            finally:
                matrix_module.solve_matrix = solve
                vars(walk_module)["solve_matrix"] = solve
            seconds.append(time.process_time() - started)
            lp.append(lp_time[0])
        row[label] = statistics.median(seconds)
        row[label + " lp"] = statistics.median(lp)
        proofs[label] = matrix_proof(game, result)
        row["value"], row["nodes"] = result.value, len(result.nodes)
    row["same"] = proofs["reference"] == proofs["compiled"]
    started = time.process_time()
    verdict = check_matrix_proof(game, state, proofs["compiled"])
    row["verify"] = time.process_time() - started
    row["verified"] = verdict.valid
    return row


def section(rows: list[dict[str, Any]], runs: int) -> str:
    """The Markdown section, between its markers."""
    lines = [BEGIN, "## Backward induction on the compiled engine", "",
             f"Written by `python scripts/stackattack_induction.py --runs {runs}`. {machine()}; load average "
             f"{load_at_end()} at the end.", "",
             "`solve_simultaneous` (player 1, penalty difference) walking the rules engine and walking the "
             "compiled engine (`solvers/induction_kernel.py` over `stackattack/engine.py`): CPU seconds, the "
             f"median of {runs} runs each; \"LP\" is the part spent in `solve_matrix` (the LP and its exact "
             "rational check, Python on both paths). \"same certificate\" compares the two matrix proofs "
             "record for record; \"verify\" is `check_matrix_proof` on the compiled run's proof, which walks "
             "the rules engine.", "",
             "| position | value | LP nodes | rules engine CPU s (LP) | compiled engine CPU s (LP) | "
             "ratio | same certificate | verify CPU s |",
             "|---|---|---:|---:|---:|---:|---|---:|"]
    for row in rows:
        lines.append(f"| {row['name']} | {row['value']} | {row['nodes']:,} | {row['reference']:.2f} "
                     f"({row['reference lp']:.2f}) | {row['compiled']:.2f} ({row['compiled lp']:.2f}) | "
                     f"{row['reference'] / row['compiled']:.1f}x | {'yes' if row['same'] else 'NO'} | "
                     f"{row['verify']:.2f} ({'valid' if row['verified'] else 'REJECTED'}) |")
    lines += ["", END]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions", nargs="*", default=list(DEFAULT), help="shipped Stack Attack endgames")
    parser.add_argument("--runs", type=int, default=3, help="runs per engine (median)")
    parser.add_argument("--out", type=Path, help="Markdown file to write the section into")
    args = parser.parse_args()
    if args.out is not None and not args.out.parent.is_dir():
        print(f"{args.out}: no such folder", file=sys.stderr)
        sys.exit(2)
    rows = []
    for name in args.positions:
        if not (ROOT / "puzzles" / "stackattack" / f"{name}.toml").is_file():
            print(f"puzzles/stackattack/{name}.toml: no such position", file=sys.stderr)
            sys.exit(2)
    for name in args.positions:
        row = measure(name, args.runs)
        print(f"{name}: {row['reference']:.2f} -> {row['compiled']:.2f} CPU s", file=sys.stderr)
        rows.append(row)
    text = section(rows, args.runs)
    print(text)
    if args.out is not None:
        old = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if BEGIN in old and END in old:
            head, rest = old.split(BEGIN, 1)
            new = head + text + rest.split(END, 1)[1].lstrip("\n")
        else:
            new = old.rstrip("\n") + "\n\n" + text
        args.out.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    main()
