"""What every benchmark table shares: the line naming the machine, ratios, the sections a run keeps
from the file it rewrites, and measurements rounded for ``bench --json``.

Raw seconds depend on the machine (named in each table's header); ratios measured in one run do not,
so every table compares by ratios.
"""

from __future__ import annotations

import os
import platform
import re
from typing import Any

from stratagem import __version__


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

