"""verify's cost on the 27 shipped Strato deals, before and after it stopped using the solver's code (issue 30).

For each deal: ``stratagem solve --proof`` writes the proof with this checkout; then ``stratagem verify`` checks
it, run in a child process three times with the code of ``--before`` (a checkout whose verify recomputes the
relaxation with the solver's compiled kernel and guided search) and ``--runs`` times with this checkout
(verify's own plain-Python relaxation, verification/relaxed.py). Seconds are the child's wall clock and its
user + system CPU (``resource.getrusage(RUSAGE_CHILDREN)``), the median of the runs. The table replaces the
section this script wrote into results/strato-certified.md before (``stratagem bench strato`` keeps it).

    python scripts/verify_cost.py --before /tmp/verify-before [--runs 1] [--work /tmp/vcost]
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

try:
    import resource
except ImportError:  # Windows: the children's CPU seconds (and the load average) are not measured there
    resource = None  # type: ignore[assignment]

#: What the table says of a figure this system cannot give.
NOT_MEASURED = "not measured on this system"

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results" / "strato-certified.md"
BEGIN, END = "<!-- scripts/verify_cost.py: begin -->", "<!-- scripts/verify_cost.py: end -->"
PUZZLES = ("challenge-0", "challenge-1", "level-2-example")
DEALS = ("solo-1", "solo-2", "solo-3", "duo-1", "duo-2", "duo-3", "four-1", "four-2", "four-3")


def timed(args: list[str], code: Path, cwd: Path) -> tuple[int, float, float | None]:
    """Run ``python -m stratagem ARGS`` with ``code`` first on the path: (exit code, wall s, CPU s; None without
    ``resource``)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN) if resource is not None else None
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "stratagem", *args], cwd=cwd, capture_output=True,
                          env={**os.environ, "PYTHONPATH": str(code)}, check=False)
    wall = time.perf_counter() - started
    if before is None:
        return done.returncode, wall, None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done.returncode, wall, cpu


def _median_cpu(runs: list[tuple[int, float, float | None]]) -> float | None:
    """The median CPU seconds of ``runs`` (None where they were not measured)."""
    cpus = [cpu for _, _, cpu in runs if cpu is not None]
    return statistics.median(cpus) if cpus else None


def _cpu(seconds: float | None) -> str:
    """CPU seconds, as the table prints them."""
    return NOT_MEASURED if seconds is None else f"{seconds:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--work", type=Path, default=Path("/tmp/vcost"))
    parser.add_argument("--time-limit", type=float, default=900.0)
    options = parser.parse_args()
    options.work.mkdir(parents=True, exist_ok=True)
    load = f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else NOT_MEASURED
    rows = []
    for puzzle in PUZZLES:
        for deal in DEALS:
            proof = options.work / f"{puzzle}-{deal}.json"
            if not proof.exists():
                code, _, _ = timed(["solve", str(ROOT / "puzzles" / "strato" / f"{puzzle}.toml"), "--deal", deal,
                                    "--proof", str(proof)], ROOT, options.work)
                assert code == 0, (puzzle, deal)
            found = re.search(r'"kind": "([a-z-]+)"', proof.read_text(encoding="utf-8"))
            old = [timed(["verify", str(proof)], options.before, options.work) for _ in range(3)]
            new = [timed(["verify", "--time-limit", str(options.time_limit), str(proof)], ROOT, options.work)
                   for _ in range(options.runs)]
            rows.append((puzzle, deal, found.group(1) if found else "?",
                         statistics.median(w for _, w, _ in old), _median_cpu(old),
                         {c for c, _, _ in old}, statistics.median(w for _, w, _ in new),
                         _median_cpu(new), {c for c, _, _ in new}))
            print(*rows[-1], flush=True)
    lines = [BEGIN, "## verify's cost: the solver's relaxation (before) and verify's own (after)", "",
             f"Written by `python scripts/verify_cost.py --before CHECKOUT --runs {options.runs}`. Machine: "
             f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores shared with other work, load "
             f"average {load} when the run started, Python {platform.python_version()}. `stratagem verify` "
             "on the proof `stratagem solve --proof` wrote, in a child process: before = the checkout before "
             "issue 30 (verify recomputes the bound with the solver's compiled relaxation and repeats its guided "
             "search; median of 3), after = this checkout (verify's own plain-Python relaxation, "
             f"`verification/relaxed.py`, and search, `verification/bounded.py`; median of {options.runs}). "
             "Seconds wall (CPU); every run exit 0 unless the exit column says otherwise.", "",
             "| puzzle | deal | certificate | verify before s (CPU) | verify after s (CPU) | after/before CPU | exit |",
             "|---|---|---|---:|---:|---:|---|"]
    for puzzle, deal, kind, ow, oc, ocodes, nw, nc, ncodes in rows:
        codes = "0" if ocodes == ncodes == {0} else f"before {sorted(ocodes)}, after {sorted(ncodes)}"
        ratio = f"{nc / oc:.1f}" if nc is not None and oc is not None else NOT_MEASURED
        lines.append(f"| {puzzle}.toml | {deal} | {kind} | {ow:.2f} ({_cpu(oc)}) | {nw:.2f} ({_cpu(nc)}) | "
                     f"{ratio} | {codes} |")
    lines += ["", END]
    text = RESULTS.read_text(encoding="utf-8")
    if BEGIN in text:
        text = text[:text.index(BEGIN)] + text[text.index(END) + len(END):].lstrip("\n")
    RESULTS.write_text(text.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n", encoding="utf-8", newline="\n")


if __name__ == "__main__":
    main()
