"""Fast Downward as a subprocess: translate, then search, each timed (wall clock and CPU seconds).

The planner ships in the ``planners`` extra (``up-fast-downward`` bundles a build with its driver script
``downward/fast-downward.py``). It runs in two processes so that a table can show where the time goes:
the translator (grounding the PDDL into a finite-domain task, in Python) and the search (C++). CPU
seconds are read from the children's resource usage, so they do not depend on the machine's load as
the wall clock does. Nothing here knows a game: it takes PDDL text and returns a plan's lines.
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

try:
    import resource
except ImportError:  # Windows: no children's CPU times (nor process groups): no planner runs, see driver()
    resource = None  # type: ignore[assignment]

#: Fast Downward's driver exit codes that this module reads (see its documentation, "exit codes").
_UNSOLVABLE = (10, 11)
_OUT_OF_LIMITS = (20, 21, 22, 23, 24)
_UNSUPPORTED = (34, 37)

#: The wall-clock cap of a call, as a multiple of its CPU limit: a safety net on a loaded machine.
WALL_FACTOR = 20


def driver() -> Path | None:
    """The driver script of the installed Fast Downward, or None without the ``planners`` extra, and on
    Windows, where the children's CPU seconds (``resource``) and the process group killed at the timeout
    do not exist: importing this module there stopped every Strato ``bench`` before its first table."""
    if resource is None:
        return None
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "downward" / "fast-downward.py"
    return path if path.exists() else None


@dataclass
class PlannerRun:
    """One planner call: ``status`` is ``solved`` (an optimal plan for an optimal configuration),
    ``unsolvable`` (proven), ``unknown`` (stopped by the time limit or memory), ``unsupported`` (the
    configuration refuses the task, with Fast Downward's reason in ``message``) or ``error``."""

    status: str
    cost: int | None
    plan: list[str]
    translate: tuple[float, float]
    search: tuple[float, float]
    message: str = ""
    stats: dict[str, int] = field(default_factory=dict)


def children_cpu() -> float:
    """CPU seconds of this process's finished (waited-for) children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(command: list[str], cwd: Path, timeout: float) -> tuple[int | None, str, tuple[float, float]]:
    """Run one driver call in its own process group (the driver starts the search binary as a child of
    its own), killed as a group at the timeout: returns (exit code or None when stopped, output, (wall,
    CPU of the finished children))."""
    wall, cpu = time.perf_counter(), children_cpu()
    with subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, encoding="utf-8",
                          errors="replace", start_new_session=True) as child:
        try:
            out, _ = child.communicate(timeout=timeout)
            code: int | None = child.returncode
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            out, _ = child.communicate()
            code = None
    return code, out, (time.perf_counter() - wall, children_cpu() - cpu)


def plan(domain: str, problem: str, search: str, cpu_limit: float) -> PlannerRun:
    """Run Fast Downward's translator and then ``--search SEARCH`` on the task within ``cpu_limit`` CPU
    seconds in all (the driver's own limits, which count CPU time: the search gets what the translation
    left), so that a loaded machine slows the run down without changing its outcome; the wall clock is
    capped at ``WALL_FACTOR`` times the limit. Needs :func:`driver`."""
    script = driver()
    if script is None:
        return PlannerRun("error", None, [], (0.0, 0.0), (0.0, 0.0), "Fast Downward is not installed")
    with tempfile.TemporaryDirectory(prefix="stratagem-fd-") as folder:
        work = Path(folder)
        (work / "domain.pddl").write_text(domain, encoding="utf-8", newline="\n")
        (work / "problem.pddl").write_text(problem, encoding="utf-8", newline="\n")
        code, out, translated = _run(
            [sys.executable, str(script), "--translate-time-limit", f"{max(1, math.ceil(cpu_limit))}s",
             "--translate", "--sas-file", "task.sas", "domain.pddl", "problem.pddl"],
            work, WALL_FACTOR * cpu_limit)
        if code is None or code in _OUT_OF_LIMITS:
            return PlannerRun("unknown", None, [], translated, (0.0, 0.0), "stopped in translation")
        if code in _UNSOLVABLE:
            return PlannerRun("unsolvable", None, [], translated, (0.0, 0.0), "proven unsolvable by the translator")
        if code != 0 or not (work / "task.sas").exists():
            return PlannerRun("error", None, [], translated, (0.0, 0.0), _last_lines(out))
        left = math.floor(cpu_limit - translated[1])
        if left < 1:
            return PlannerRun("unknown", None, [], translated, (0.0, 0.0), "stopped in search (no time left)")
        code, out, searched = _run(
            [sys.executable, str(script), "--search-time-limit", f"{left}s", "--plan-file", "plan", "task.sas",
             "--search", search],
            work, WALL_FACTOR * cpu_limit)
        stats = {key: int(value) for key, value in
                 re.findall(r"^\[.*?\] (Expanded|Evaluated|Generated) (\d+) state", out, re.MULTILINE)}
        if code is None or code in _OUT_OF_LIMITS:
            return PlannerRun("unknown", None, [], translated, searched, "stopped in search", stats)
        if code in _UNSOLVABLE:
            return PlannerRun("unsolvable", None, [], translated, searched, "search space exhausted", stats)
        if code in _UNSUPPORTED:
            return PlannerRun("unsupported", None, [], translated, searched, _reason(out), stats)
        found = re.search(r"Plan cost: (\d+)", out)
        if code != 0 or found is None or not (work / "plan").exists():
            return PlannerRun("error", None, [], translated, searched, _last_lines(out), stats)
        lines = (work / "plan").read_text(encoding="utf-8", errors="replace").splitlines()
        return PlannerRun("solved", int(found.group(1)), lines, translated, searched, "", stats)


def _reason(out: str) -> str:
    """Fast Downward's one-line reason for refusing a task (e.g. "does not support axioms")."""
    for line in out.splitlines():
        if "support" in line:
            return line.strip()
    return _last_lines(out)


def _last_lines(out: str, count: int = 3) -> str:
    return " / ".join(line.strip() for line in out.strip().splitlines()[-count:])
