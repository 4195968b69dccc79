"""One time limit shared by every phase of a command.

A command that runs several phases (a bound, a search, a fallback, a proof check) creates one
:class:`Deadline` and hands it to each, so that the limit a user gives is the limit of the whole
command, not of each phase.
"""

from __future__ import annotations

import math
import time


class Deadline:
    """A point in time ``seconds`` from now (``None``: no limit)."""

    def __init__(self, seconds: float | None) -> None:
        if seconds is not None and not math.isfinite(seconds):
            raise ValueError(f"a time limit must be a finite number of seconds, not {seconds}")
        self.seconds = seconds
        self.started = time.perf_counter()

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
