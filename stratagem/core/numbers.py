"""Whole numbers as the project's arguments and records take them.

Python's ``bool`` is an ``int``: ``True`` passed as a count, a seed or a player's number was taken as 1
wherever a check read ``isinstance(value, int)`` alone. Each check of "a whole number from L to H" asks
:func:`is_whole`, and says in its own words (and with its own exception type) what it refuses.
"""

from __future__ import annotations

from typing import TypeGuard


def is_whole(value: object, low: int | None = None, high: int | None = None) -> TypeGuard[int]:
    """True when ``value`` is an ``int`` but not a ``bool``, and lies from ``low`` to ``high`` (either end
    open when None)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    return (low is None or value >= low) and (high is None or value <= high)
