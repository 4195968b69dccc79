"""What a value found under an analysis horizon means: Stratatak's ``battle_limit`` stops a game undecided
after N more battles and scores it 0, and that 0 means "undecided within N battles", never a draw
(ruling: battle limit). A game that offers ``battles_left(state)`` (None without the option) gets its
summaries worded so; every other game's summaries are left as they are.
"""

from __future__ import annotations

from typing import Any

from stratagem.solvers.alphabeta import return_bounds


def within_horizon(game: Any, state: Any, value: Any, summary: str) -> str:
    """``summary`` of a proven ``value`` (for the player to move at ``state``) as the horizon reads it.

    A 0 is reported as undecided within the limit; a value strictly between a loss and a win says that the
    games the limit stopped counted 0. A win or a loss needs no note: it is forced within the limit, so
    also without it.
    """
    battles_left = getattr(game, "battles_left", None)
    left = battles_left(state) if battles_left is not None else None
    if left is None or value is None or value in return_bounds(game):
        return summary
    battles = f"{left} battle{'' if left == 1 else 's'}"
    if value == 0:
        return (f"undecided within {battles} with best play: the battle limit stops the game there, and its 0 "
                "is not a draw")
    return f"{summary}; a game the battle limit stops counts 0 there (undecided within {battles}, not a draw)"


__all__ = ["within_horizon"]
