"""The ``--time-limit`` option every command shares: a finite, positive number of seconds.

A time limit is the limit of the whole command (one :class:`~stratagem.core.deadline.Deadline` shared
by every phase), so it has one meaning everywhere and one parser: :data:`TIME_LIMIT`. Python's
``float()`` accepts ``nan``, ``inf`` and negative numbers, and a comparison with ``nan`` is always
false, so without this type ``--time-limit nan`` silently meant "no limit" and ``--time-limit 0`` or
``-1`` a limit already expired. Each is refused as bad input (exit 2, one line on stderr); leaving the
option out is how to ask for no limit.
"""

from __future__ import annotations

import math
from typing import Any

import click


class TimeLimit(click.ParamType):  # type: ignore[type-arg]
    """Seconds as a float that is finite and above zero; anything else is a usage error (exit 2)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float | int) and not isinstance(value, bool):
            seconds = float(value)
        else:
            try:
                seconds = float(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"{value!r} is not a time limit: give a finite number of seconds above 0 "
                      "(leave the option out for no limit)", param, ctx)
        return seconds


#: The parameter type of every command's ``--time-limit``.
TIME_LIMIT = TimeLimit()

__all__ = ["TIME_LIMIT", "TimeLimit"]
