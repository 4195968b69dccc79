"""Whole numbers as the project's arguments and records take them.

Python's ``bool`` is an ``int``: ``True`` passed as a count, a seed or a player's number was taken as 1
wherever a check read ``isinstance(value, int)`` alone. Each check of "a whole number from L to H" asks
:func:`is_whole`, and says in its own words (and with its own exception type) what it refuses.
"""

from __future__ import annotations

import re
from typing import TypeGuard

from stratagem.core.errors import NotationError

#: The most digits a number in a game's notation may have. Each of them (a player, a card, a coordinate, a
#: count) has a few; ``int()`` refuses more than 4,300 with a ValueError, which every notation let through
#: (``odds --position`` with a player to move of 5,000 digits ended in an internal error, exit 70).
MAX_NOTATION_DIGITS = 100
_LONG_NUMBER = re.compile(rf"\d{{{MAX_NOTATION_DIGITS + 1},}}")


def is_whole(value: object, low: int | None = None, high: int | None = None) -> TypeGuard[int]:
    """True when ``value`` is an ``int`` but not a ``bool``, and lies from ``low`` to ``high`` (either end
    open when None)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    return (low is None or value >= low) and (high is None or value <= high)


def check_notation_numbers(text: str) -> None:
    """:class:`NotationError` when ``text`` (a position or a move in a game's notation) holds a number of more
    than :data:`MAX_NOTATION_DIGITS` digits; every parser of a notation asks first."""
    found = _LONG_NUMBER.search(text)
    if found is not None:
        raise NotationError(f"a number of {len(found.group()):,} digits at character {found.start() + 1}: no number "
                            f"in the notation has more than {MAX_NOTATION_DIGITS}")
