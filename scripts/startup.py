"""Time how long stratagem takes to start: ``--help``, ``--version``, ``show`` and ``solve`` of a small puzzle.

A user waits for start-up on every command, so it is measured, not guessed: each case runs ``--runs``
times in a fresh interpreter and the median wall time is reported, with the median CPU time (user +
system, less disturbed by other work on the machine) and the bare interpreter's start as the floor
nothing can go below. The table is printed and, with ``--out``, written as Markdown.

    python scripts/startup.py --runs 15 --out results/startup.md
    python scripts/startup.py --source /tmp/old-checkout   # time another checkout's package

``--source DIR`` puts ``DIR`` first on ``PYTHONPATH`` and runs ``python -m stratagem`` there, to compare
against an older version of the package (e.g. one unpacked with ``git archive REV stratagem``).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

try:
    import resource
except ImportError:  # Windows: the children's CPU seconds are not measured there
    resource = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parent.parent

#: The load average when the script started, for the table's note (None: Windows has none).
_LOAD = os.getloadavg() if hasattr(os, "getloadavg") else None

#: What a table says of a figure this system cannot give (Windows: no ``resource``, no load average).
NOT_MEASURED = "not measured on this system"

#: What is timed: a label and the arguments after the interpreter.
CASES = (
    ("python -c pass (the floor)", ["-c", "pass"]),
    ("import stratagem", ["-c", "import stratagem"]),
    ("stratagem --help", ["-m", "stratagem", "--help"]),
    ("stratagem --version", ["-m", "stratagem", "--version"]),
    ("stratagem show puzzles/strato/challenge-0.toml",
     ["-m", "stratagem", "show", str(ROOT / "puzzles" / "strato" / "challenge-0.toml")]),
    # A whole solve, certificate included: what the first command of a new user costs.
    ("stratagem solve puzzles/strato/challenge-0.toml",
     ["-m", "stratagem", "solve", str(ROOT / "puzzles" / "strato" / "challenge-0.toml")]),
)


def time_once(args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float | None]:
    """Wall and CPU seconds of one run of ``python args`` in ``cwd`` (which must succeed); the CPU seconds are
    None without ``resource`` (Windows)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN) if resource is not None else None
    started = time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    if before is None:
        return wall, None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(runs: int, source: str | None) -> list[tuple[str, float, float | None]]:
    """Median wall and CPU seconds of every case, after one untimed warm-up run each (disk cache)."""
    env = dict(os.environ)
    cwd = ROOT  # ``-m`` and ``-c`` put the working directory first on sys.path: it decides which package loads
    if source is not None:
        cwd = Path(source).resolve()
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(cwd), env.get("PYTHONPATH")]))
    rows = []
    for label, args in CASES:
        time_once(args, env, cwd)
        samples = [time_once(args, env, cwd) for _ in range(runs)]
        cpus = [c for _, c in samples if c is not None]
        rows.append((label, statistics.median(w for w, _ in samples), statistics.median(cpus) if cpus else None))
    return rows


def _core_state() -> str:
    """What :func:`stratagem.core.compiled.status` says of the package these runs use."""
    from stratagem.core.compiled import status

    return status().describe().removeprefix("compiled core: ")


def table(rows: list[tuple[str, float, float | None]], runs: int) -> str:
    """The Markdown table of :func:`measure`'s rows, with how it was measured."""
    lines = [
        "# Start-up time",
        "",
        f"`python scripts/startup.py --runs {runs}`: median of {runs} runs in a fresh interpreter each "
        f"(Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs). Wall time depends "
        "on what else the machine is doing; CPU time (user + system) less so. Commands run as "
        "`python -m stratagem`, without the few milliseconds (or, under a pyenv shim, the tenth of a "
        "second) a console-script wrapper adds.",
        "",
        f"Compiled core: {_core_state()}.",
        "",
        (f"Load while measuring (1-minute load average, start to end): {_LOAD[0]:.2f} to {os.getloadavg()[0]:.2f}."
         if _LOAD is not None else f"Load while measuring: {NOT_MEASURED}."),
        "",
        "| case | wall (s) | CPU (s) |",
        "|---|---:|---:|",
    ]
    lines += [f"| `{label}` | {wall:.3f} | {NOT_MEASURED if cpu is None else f'{cpu:.3f}'} |"
              for label, wall, cpu in rows]
    return "\n".join(lines) + "\n"


def main() -> None:
    """Parse the options, measure, print the table and write it where asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="runs per case (default 11)")
    parser.add_argument("--out", type=Path, help="write the Markdown table here too")
    parser.add_argument("--source", help="time the package found in this directory instead")
    options = parser.parse_args()
    if options.runs < 1:
        parser.error("--runs must be at least 1")
    text = table(measure(options.runs, options.source), options.runs)
    print(text, end="")
    if options.out is not None:
        options.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
