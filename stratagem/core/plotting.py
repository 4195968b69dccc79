"""matplotlib for the PNG plots (``report``'s, the benchmarks' growth plot), imported quietly.

matplotlib keeps a configuration and font cache under ``$HOME`` (``~/.config/matplotlib``,
``~/.cache/matplotlib``, or ``MPLCONFIGDIR``). Where those cannot be made (a service account's read-only
home, ``HOME`` unset or pointing at a file, a container), it uses a temporary directory, removed at exit,
and says so in two log lines on stderr ("mkdir -p failed ... Matplotlib created a temporary cache
directory ..."), even under ``--quiet``: noise beside the command's own one-line notes, about a cache
whose only cost is a font list read again (0.1-0.2 s a run, measured on ``report``). Those lines are
held back; matplotlib's errors are not.
"""

from __future__ import annotations

import logging
from typing import Any


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend (files, no display), imported with matplotlib's warnings
    about its configuration and cache directories held back (its errors still reach the caller).
    :class:`ImportError` without matplotlib."""
    log = logging.getLogger("matplotlib")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        import matplotlib

        matplotlib.use("Agg")
        matplotlib.get_cachedir()  # asked once and kept: the font list's directory, made (or not) now
        import matplotlib.pyplot as plt
    finally:
        log.setLevel(level)
    return plt
