"""What every benchmark table shares: the line naming the machine, ratios, the sections a run keeps
from the file it rewrites, measurements rounded for ``bench --json``, where the shipped puzzles are, and
how a table is written (its folder made only then).

Raw seconds depend on the machine (named in each table's header); ratios measured in one run do not,
so every table compares by ratios.
"""

from __future__ import annotations

import os
import platform
import re
from pathlib import Path
from typing import Any

from stratagem import __version__
from stratagem.core.errors import BadInput
from stratagem.core.outputs import WRITE_FAILURES, write_atomic

#: The checkout holding the package: its ``puzzles/`` are the shipped puzzles when the current folder
#: has none (``stratagem bench`` run from elsewhere).
CHECKOUT = Path(__file__).resolve().parents[2]


def shipped(relative: str) -> str:
    """A path of the checkout (``puzzles/strato/challenge-0.toml``, ``puzzles/stakd``, or a glob of them):
    as given when it is found from the current folder, else in the checkout that holds the package, else
    as given (whoever uses it then says it is missing)."""
    import glob

    if glob.glob(relative):
        return relative
    beside = CHECKOUT / relative
    return str(beside) if glob.glob(str(beside)) else relative


def write_table(path: str | Path, text: str | bytes) -> None:
    """Write a table atomically (:func:`stratagem.core.outputs.write_atomic`: a full disk is exit 74, as for
    every output), making its folder first: a run makes ``--out`` only when it writes its first table, so
    one stopped before leaves no empty folder."""
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if exc.errno in WRITE_FAILURES:
            raise OSError(exc.errno, f"{target.parent}: {exc.strerror or exc}") from None
        raise BadInput(str(target.parent), "", f"cannot make the directory: {exc.strerror or exc}") from None
    write_atomic(target, text)


def machine() -> str:
    """One line describing where the numbers were measured (the header of every benchmark table)."""
    cpu = platform.processor() or platform.machine()
    load = f", load average {os.getloadavg()[0]:.1f} when the run started" if hasattr(os, "getloadavg") else ""
    return (
        f"{platform.system()} {platform.machine()} ({cpu}), {os.cpu_count()} cores{load}, "
        f"Python {platform.python_version()}, stratagem {__version__}"
    )


def load_at_end() -> str:
    """The one-minute load average as text (``unknown`` where the system gives none)."""
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "unknown"


def ratio(part: float, whole: float, exact: bool) -> str:
    """``part / whole`` to three places; ``*`` marks a ratio where a side was stopped (a bound, not a
    measurement), ``—`` a zero baseline."""
    if whole <= 0:
        return "—"
    text = f"{part / whole:.3f}"
    return text if exact else f"{text}*"


def rounded(fields: dict[str, Any]) -> dict[str, Any]:
    """A measurement's fields for ``--json``: seconds to the millisecond (as ``solve --json`` gives them),
    the (wall, CPU) pairs as lists."""
    def one(value: Any) -> Any:
        if isinstance(value, float):
            return round(value, 3)
        if isinstance(value, tuple):
            return [one(item) for item in value]
        return value

    return {key: one(value) for key, value in fields.items()}


#: A section a script writes into results/<game>.md opens with this (``<!-- scripts/NAME.py: begin -->``).
SCRIPT_SECTION = re.compile(r"^<!-- (scripts/[\w.-]+\.py): begin -->$", re.MULTILINE)


def kept_sections(old: str) -> list[str]:
    """What a bench run keeps of the file it rewrites: the sections scripts wrote there (from the first
    ``<!-- scripts/NAME.py: begin -->`` marker to the end, notes after them included), under a line
    saying they come from an earlier run of that script and how to refresh them. ``stratagem bench
    stackattack`` keeps so the deep endgames' table (``scripts/stackattack_deep.py``: the package
    before and after issue 20 part 6, measured in child processes, which bench cannot re-run)."""
    found = SCRIPT_SECTION.search(old)
    if found is None:
        return []
    script = found.group(1)
    return [
        "## Kept from an earlier run of `" + script + "`",
        "",
        f"`stratagem bench` does not measure what follows; it keeps it from the file it rewrote, as `{script}`",
        "wrote it (its own header gives its command, machine and load). Re-running that script refreshes it.",
        "",
        old[found.start():].rstrip("\n"),
        "",
    ]

