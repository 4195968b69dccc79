"""One time limit shared by every phase of a command.

A command that runs several phases (a bound, a search, a fallback, a proof check) creates one
:class:`Deadline` and hands it to each, so that the limit a user gives is the limit of the whole
command, not of each phase. A command line's deadline (:func:`command_deadline`) counts from the start
of the process, so that the interpreter's start and the imports are inside the limit too.
"""

from __future__ import annotations

import math
import os
import time

#: When this module was first imported: the start of a process whose own start cannot be read.
_IMPORTED = time.perf_counter()


def process_started() -> float:
    """When this process started, on the :func:`time.perf_counter` clock (to about 10 ms).

    Read from ``/proc`` where there is one (the process's start in clock ticks after boot, against the
    time since boot); elsewhere, when this module was first imported."""
    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        with open("/proc/uptime", "rb") as uptime:
            since_boot = float(uptime.read().split()[0])
        started_after_boot = int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return _IMPORTED
    age = since_boot - started_after_boot
    if not 0.0 <= age < 86400.0 * 365:  # a clock we cannot make sense of
        return _IMPORTED
    return min(_IMPORTED, time.perf_counter() - age)


class Deadline:
    """A point in time ``seconds`` after ``started`` (a :func:`time.perf_counter` reading; default now).
    ``None`` seconds: no limit."""

    def __init__(self, seconds: float | None, started: float | None = None) -> None:
        if seconds is not None and not math.isfinite(seconds):
            raise ValueError(f"a time limit must be a finite number of seconds, not {seconds}")
        self.seconds = seconds
        self.started = time.perf_counter() if started is None else started

    def remaining(self) -> float | None:
        """Seconds left (never negative), or ``None`` without a limit."""
        if self.seconds is None:
            return None
        return max(0.0, self.seconds - (time.perf_counter() - self.started))

    def expired(self) -> bool:
        left = self.remaining()
        return left is not None and left <= 0.0

    def part(self, fraction: float) -> Deadline:
        """A deadline that ends once ``fraction`` of the time left now has passed (no limit stays none).

        For a phase that must leave the rest of the time to a later phase of the same command; the
        part never ends after this deadline.
        """
        if not 0.0 <= fraction <= 1.0:
            raise ValueError(f"a part of a deadline is a fraction between 0 and 1, not {fraction}")
        left = self.remaining()
        return Deadline(None if left is None else fraction * left)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def __call__(self) -> bool:
        """The same as :meth:`expired`, so a deadline can be passed where a stop test is expected."""
        return self.expired()


#: When the command now running started (:func:`begin_command`); ``None`` outside a command.
_command_started: float | None = None


def begin_command(from_process_start: bool) -> None:
    """Note that a command starts: at the start of the process (a command line run as its own process,
    whose interpreter start and imports count) or now (a command run inside a longer-lived process, such
    as a test calling the CLI in-process, where the process may have started long before)."""
    global _command_started
    _command_started = process_started() if from_process_start else time.perf_counter()


def command_deadline(seconds: float | None) -> Deadline:
    """The deadline of a command's ``--time-limit``: ``seconds`` from the start of the command
    (:func:`begin_command`; now, when no command was begun)."""
    return Deadline(seconds, started=_command_started)


def check_run_limits(time_limit: float | Deadline | None = None, nodes: int | None = None,
                 nodes_name: str = "max_nodes") -> None:
    """Refuse, as :class:`ValueError`, a library call's limits that the command line would refuse: a time
    limit that is not a finite number of seconds above 0 (``nan`` compares false to everything and meant no
    limit; 0 or less a limit already passed), a node limit that is not a whole number from 1 (``1.5`` left a
    search's last budget at 0.5 node, which never ran out). A :class:`Deadline` is taken as it is."""
    seconds = None if isinstance(time_limit, Deadline) else time_limit
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int | float)
                                or not math.isfinite(seconds) or seconds <= 0):
        raise ValueError(f"time_limit must be a finite number of seconds above 0, not {seconds!r}")
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1):
        raise ValueError(f"{nodes_name} must be a whole number from 1, not {nodes!r}")


def as_deadline(limit: float | Deadline | None) -> Deadline:
    """``limit`` as a deadline: itself, or one of that many seconds from now (``None``: no limit)."""
    return limit if isinstance(limit, Deadline) else Deadline(limit)
