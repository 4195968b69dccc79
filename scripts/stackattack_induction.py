"""The exact LP backward induction of Stack Attack endgames on the rules engine and on the compiled engine.

For each position (default: the two-player five-turn endgames) it runs
:func:`~stratagem.solvers.simultaneous.solve_simultaneous` (player 1, penalty difference) ``--runs`` times
on each engine (``packed=None``: the walk over the rules engine; ``packed=engine.simultaneous()``: the
walk over the compiled engine, :mod:`stratagem.solvers.induction_kernel`) and reports the median CPU
seconds (``time.process_time``; the machine is shared), the part of the compiled run spent in the LP
and its exact check (:func:`~stratagem.solvers.matrix.solve_matrix`), and whether both give the same
certificates (the full ``stratagem/matrixproof@1`` records and the bound certificates
``stratagem/matrixproof@2`` that ``analyze --proof`` writes, each compared whole).
Positions in ``--compiled-only`` (default: the six-turn endgame the bench makes) skip the rules engine's
walk, which would take minutes there.

A second table times the commands a user runs, each in a fresh interpreter (``--runs`` times, medians):
``stratagem analyze POSITION --method lp --engine compiled --proof FILE`` (induction on the compiled engine,
expected returns, the bound certificate written) and ``stratagem verify FILE`` (the certificate's bounds
rebuilt from the rules engine and checked exactly), wall and CPU seconds (user + system of the child) with
the load average when each started. A certificate over ``verify``'s 64 MiB input limit would be refused by
the command (exit 2, reported so); its check is then timed in a child that calls the same checker on the
file read without the limit.

The tables are printed and, with ``--out``, written into that Markdown file as a section between two
marker comments (replaced when present, appended otherwise; ``stratagem bench stackattack`` keeps it).

    python scripts/stackattack_induction.py --runs 3 --out results/stackattack.md
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from stratagem.bench.tables import load_at_end, machine

ROOT = Path(__file__).resolve().parent.parent
BEGIN = "<!-- scripts/stackattack_induction.py: begin -->"
END = "<!-- scripts/stackattack_induction.py: end -->"
DEFAULT = ("2p-numbers-5-turns", "2p-actions-5-turns", "2p-numbers-6-turns")
COMPILED_ONLY = ("2p-numbers-6-turns",)
#: A child that checks a certificate file with verify's checker, read without the file size limit.
CHECK = r"""
import json, sys
from stratagem.loading import position_from_record
from stratagem.solvers.boundproof import BOUNDPROOF_FORMAT, check_bound_proof
from stratagem.solvers.matrixproof import check_matrix_proof
with open(sys.argv[1], encoding="utf-8") as handle:
    data = json.load(handle)
game, state = position_from_record(data["game"], data["setup"], data["start"], sys.argv[1])
check = check_bound_proof if data["format"] == BOUNDPROOF_FORMAT else check_matrix_proof
verdict = check(game, state, data, sys.argv[1])
print(json.dumps({"valid": verdict.valid, "nodes": verdict.nodes_checked, "reason": verdict.reason}))
sys.exit(0 if verdict.valid else 1)
"""


def commands(name: str, runs: int) -> dict[str, Any]:
    """``analyze --proof`` then ``verify`` of one position, ``runs`` times each (see the module docstring)."""
    from stratagem.core.io import MAX_RECORD_BYTES

    position = str(Path("puzzles") / "stackattack" / f"{name}.toml")
    row: dict[str, Any] = {"name": name, "analyze": [], "verify": [], "loads": []}
    with tempfile.TemporaryDirectory() as folder:
        proof = str(Path(folder) / f"{name}.proof.json")
        for _ in range(runs):
            done = cpu_child(["-m", "stratagem", "analyze", position, "--method", "lp", "--engine", "compiled",
                              "--proof", proof])
            if done["code"] != 0:
                raise SystemExit(f"analyze {name} failed: {done['err'][-500:]}")
            row["analyze"].append(done)
            row["loads"].append(done["load"])
            row["proof MB"] = Path(proof).stat().st_size / 1e6
            row["proof nodes"] = len(json.loads(Path(proof).read_text(encoding="utf-8"))["nodes"])
            row["too large"] = Path(proof).stat().st_size > MAX_RECORD_BYTES
            if row["too large"]:
                refused = cpu_child(["-m", "stratagem", "verify", proof])
                said = (refused["err"] or refused["out"]).strip().splitlines()[-1]
                row["refused"] = (refused["code"], said.replace(proof, Path(proof).name))  # no temporary folder
                done = cpu_child(["-c", CHECK, proof])
            else:
                done = cpu_child(["-m", "stratagem", "verify", proof])
            if done["code"] != 0:
                raise SystemExit(f"verify {name} failed ({done['code']}): {(done['out'] + done['err'])[-500:]}")
            row["verify"].append(done)
            row["loads"].append(done["load"])
    return row


def cpu_child(args: list[str]) -> dict[str, Any]:
    """Run ``python args...`` from the repository: its exit code, wall and CPU seconds (user + system of
    the child alone, from its resource usage), the load average when it started and what it printed. Where
    the system gives neither (Windows: no ``os.wait4``, no load average) they are None."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out, tempfile.TemporaryFile("w+", encoding="utf-8") as err:
        started = time.perf_counter()
        child = subprocess.Popen([sys.executable, *args], cwd=ROOT, stdout=out, stderr=err, encoding="utf-8")
        cpu = None
        if hasattr(os, "wait4"):
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            cpu = usage.ru_utime + usage.ru_stime
        else:
            child.wait()
        wall = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        return {"code": child.returncode, "wall": wall, "cpu": cpu, "load": load, "out": out.read(), "err": err.read()}


def measure(name: str, runs: int, reference: bool = True) -> dict[str, Any]:
    """One position's induction figures (see the module docstring); ``reference=False`` skips the walk
    over the rules engine."""
    import stratagem.solvers.matrix as matrix_module
    import stratagem.solvers.simultaneous as walk_module
    from stratagem.models.stackattack import compiled_engine
    from stratagem.models.stackattack.puzzle import load_position
    from stratagem.solvers.boundproof import bound_proof
    from stratagem.solvers.matrixproof import matrix_proof
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
    walks = (("reference", None), ("compiled", packed)) if reference else (("compiled", packed),)
    for label, walker in walks:
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
        proofs[label] = (matrix_proof(game, result), bound_proof(game, result))
        row["value"], row["nodes"] = result.value, len(result.nodes)
    row["same"] = proofs["reference"] == proofs["compiled"] if reference else None
    return row


def _median(runs: list[dict[str, Any]], key: str) -> float:
    return float(statistics.median(run[key] for run in runs))


#: What the table says of a figure this system cannot give (Windows: no ``os.wait4``, no load average).
NOT_MEASURED = "not measured on this system"


def _cpu(runs: list[dict[str, Any]]) -> str:
    """The median CPU seconds of ``runs``, as the table prints them."""
    return NOT_MEASURED if any(run["cpu"] is None for run in runs) else f"{_median(runs, 'cpu'):.2f}"


def _loads(loads: list[float | None]) -> str:
    """The range of load averages, as the table prints it."""
    known = [load for load in loads if load is not None]
    return f"{min(known):.1f}-{max(known):.1f}" if known else NOT_MEASURED


def section(rows: list[dict[str, Any]], cli_rows: list[dict[str, Any]], runs: int, deep_runs: int) -> str:
    """The Markdown section, between its markers."""
    lines = [BEGIN, "## Backward induction on the compiled engine, and the commands end to end", "",
             f"Written by `python scripts/stackattack_induction.py --runs {runs} --deep-runs {deep_runs}`. "
             f"{machine()}; load average {load_at_end()} at the end.", "",
             "`solve_simultaneous` (player 1, penalty difference) walking the rules engine and walking the "
             "compiled engine (`solvers/induction_kernel.py` over `stackattack/engine.py`): CPU seconds, the "
             f"median of {runs} runs each ({deep_runs} for the six-turn endgame, which is not walked on the rules "
             "engine: minutes); \"LP\" is the part spent in `solve_matrix` (saddle points, closed forms, exact "
             "supports and, rarely, GLOP, each with its exact rational check; the compiled walk tests integer saddle "
             "points and 2x2 closed forms itself). \"same certificates\" compares the two walks' full matrix "
             "proofs (`matrixproof@1`) and bound certificates (`matrixproof@2`) record for record.", "",
             "| position | value | LP nodes | rules engine CPU s (LP) | compiled engine CPU s (LP) | "
             "ratio | same certificates |",
             "|---|---|---:|---:|---:|---:|---|"]
    for row in rows:
        if row["same"] is None:
            reference, ratio, same = "not run", "", "not compared"
        else:
            reference = f"{row['reference']:.2f} ({row['reference lp']:.2f})"
            ratio, same = f"{row['reference'] / row['compiled']:.1f}x", "yes" if row["same"] else "NO"
        lines.append(f"| {row['name']} | {row['value']} | {row['nodes']:,} | {reference} | "
                     f"{row['compiled']:.2f} ({row['compiled lp']:.2f}) | {ratio} | {same} |")
    lines += ["", "The commands, each in a fresh interpreter: `stratagem analyze POSITION --method lp --engine "
              "compiled --proof FILE` (the induction on the compiled engine, expected returns, the bound "
              "certificate `matrixproof@2` written) and `stratagem verify FILE` (each one-sided strategy checked "
              "exactly against children bounds rebuilt from the rules engine, plain Python). Wall and CPU seconds "
              "(user + system of the child), medians of the runs; the load average is the range seen when the "
              "runs started (2 cores shared with other work: wall time follows the load, CPU seconds much less).",
              "",
              "| position | runs | load | analyze wall s | analyze CPU s | certificate nodes | certificate MB | "
              "verify wall s | verify CPU s | verify said | analyze + verify wall s |",
              "|---|---:|---|---:|---:|---:|---:|---:|---:|---|---:|"]
    notes = []
    for row in cli_rows:
        analyze_wall, verify_wall = _median(row["analyze"], "wall"), _median(row["verify"], "wall")
        said = "valid (exit 0)"
        if row.get("too large"):
            said = "refused (exit 2): over 64 MiB; the checker run on the file: valid"
            notes.append(f"- {row['name']}: `verify` said: {row['refused'][1]}")
        lines.append(f"| {row['name']} | {len(row['analyze'])} | {_loads(row['loads'])} | "
                     f"{analyze_wall:.2f} | {_cpu(row['analyze'])} | {row['proof nodes']:,} | "
                     f"{row['proof MB']:.2f} | "
                     f"{verify_wall:.2f} | {_cpu(row['verify'])} | {said} | "
                     f"{analyze_wall + verify_wall:.2f} |")
    lines += ["", *notes, "", END] if notes else ["", END]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions", nargs="*", default=list(DEFAULT), help="shipped Stack Attack endgames")
    parser.add_argument("--runs", type=int, default=3, help="runs per engine and per command (median)")
    parser.add_argument("--deep-runs", type=int, default=1, help="runs for the positions in --compiled-only")
    parser.add_argument("--compiled-only", nargs="*", default=list(COMPILED_ONLY),
                        help="positions not walked on the rules engine (too slow there)")
    parser.add_argument("--out", type=Path, help="Markdown file to write the section into")
    args = parser.parse_args()
    if args.out is not None and not args.out.parent.is_dir():
        print(f"{args.out}: no such folder", file=sys.stderr)
        sys.exit(2)
    rows, cli_rows = [], []
    for name in args.positions:
        if not (ROOT / "puzzles" / "stackattack" / f"{name}.toml").is_file():
            print(f"puzzles/stackattack/{name}.toml: no such position", file=sys.stderr)
            sys.exit(2)
    for name in args.positions:
        deep = name in args.compiled_only
        runs = args.deep_runs if deep else args.runs
        row = measure(name, runs, reference=not deep)
        print(f"{name}: {row.get('reference', float('nan')):.2f} -> {row['compiled']:.2f} CPU s", file=sys.stderr)
        rows.append(row)
        cli_row = commands(name, runs)
        print(f"{name}: analyze {_median(cli_row['analyze'], 'wall'):.2f} s wall, verify "
              f"{_median(cli_row['verify'], 'wall'):.2f} s wall", file=sys.stderr)
        cli_rows.append(cli_row)
    text = section(rows, cli_rows, args.runs, args.deep_runs)
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
