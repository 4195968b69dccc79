"""What every method's report shares: values in record form, moves in notation, the open-information
label and the time limit as one deadline.

Each method module (:mod:`.exact`, :mod:`.lp`, :mod:`.estimates`) builds a report, a dict with the
values already in record form (an exact fraction as ``"n/d"``), which :func:`.result.from_report` turns
into the typed :class:`~stratagem.analysis.result.Analysis`. These helpers keep that form the same in
every report.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from stratagem.core.deadline import Deadline

#: The ``information`` of an analysis that sees every card (the default), as the record says it.
OPEN = "open: every card and pile is known to the analysis"


def as_deadline(time_limit: float | Deadline | None) -> Deadline | None:
    """A time limit in seconds as a :class:`~stratagem.core.deadline.Deadline`; a deadline (shared with
    other work) or no limit as is."""
    return time_limit if time_limit is None or isinstance(time_limit, Deadline) else Deadline(time_limit)


def player_move(game: Any, state: Any, player: int, move: Any) -> str:
    """``player``'s own part of a simultaneous move in the game's notation (the whole move's notation for
    a game without ``format_player_move``)."""
    fmt = getattr(game, "format_player_move", None)
    return str(fmt(state, player, move)) if fmt is not None else str(game.format_move(state, move))


def record_value(v: Any) -> Any:
    """A value as a report holds it: an exact fraction as an integer or ``"n/d"``, a whole float as an
    integer, everything else as is."""
    if v is None:
        return None
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v
