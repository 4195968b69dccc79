"""The ``--time-limit`` option every command shares, a finite, positive number of seconds, and the
``--max-nodes`` one, a count of states or nodes from 1 to :data:`MAX_NODE_LIMIT`.

A time limit is the limit of the whole command (one :class:`~stratagem.core.deadline.Deadline` shared
by every phase), so it has one meaning everywhere and one parser: :data:`TIME_LIMIT`. Python's
``float()`` accepts ``nan``, ``inf`` and negative numbers, and a comparison with ``nan`` is always
false, so without this type ``--time-limit nan`` silently meant "no limit" and ``--time-limit 0`` or
``-1`` a limit already expired. Each is refused as bad input (exit 2, one line on stderr); leaving the
option out is how to ask for no limit. A node limit beyond a C integer reached the compiled searches
as an ``OverflowError`` (exit 70); :data:`NODE_LIMIT` caps it far above what any machine holds.
"""

from __future__ import annotations

import math
import re
from typing import Any

import click


class TimeLimit(click.ParamType):  # type: ignore[type-arg]
    """Seconds as a float that is finite and above zero; anything else is a usage error (exit 2)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float | int) and not isinstance(value, bool):
            seconds = float(value)
        else:
            text = str(value).strip()
            try:
                if not text.isascii() or "_" in text:  # float() also reads '١٠' and '1_0' as 10
                    raise ValueError(text)
                seconds = float(text)
            except ValueError:
                self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            default = None if param is None else param.default
            hint = ("leave the option out for no limit" if default is None or callable(default)
                    else f"leave the option out for its default, {float(default):g} s")
            self.fail(f"{value!r} is not a time limit: give a finite number of seconds above 0 ({hint})", param, ctx)
        return seconds


#: The parameter type of every command's ``--time-limit``.
TIME_LIMIT = TimeLimit()

#: A whole number as written on a command line: ASCII digits, a sign, spaces around.
_WHOLE = re.compile(r"\s*[+-]?[0-9]+\s*")


class WholeRange(click.IntRange):
    """``click.IntRange`` of ASCII digits: click reads its integers with ``int()``, which also takes other
    scripts' digits and underscores, so ``--max-nodes ٣٠٠٠``, ``--players ٢`` and ``--count 1_0`` were read
    as 3000, 2 and 10 (as every seed and notation refuses them). Every command's whole-number option."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not _WHOLE.fullmatch(value):
            self.fail(f"{value!r} is not a valid integer.", param, ctx)
        return super().convert(value, param, ctx)

#: The largest ``--max-nodes`` any command takes: a million million states or nodes, about a thousand
#: times what 24 GB hold at the smallest entry any search keeps, and far inside a C ``int64``.
MAX_NODE_LIMIT = 10 ** 12

#: The parameter type of every command's ``--max-nodes``.
NODE_LIMIT = WholeRange(1, MAX_NODE_LIMIT)

__all__ = ["MAX_NODE_LIMIT", "NODE_LIMIT", "TIME_LIMIT", "TimeLimit", "WholeRange"]
