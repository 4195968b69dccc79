"""What a value found under an analysis horizon means: Stratatak's ``battle_limit`` stops a game undecided
after N more battles and scores it 0, and that 0 means "undecided within N battles", never a draw
(ruling: battle limit). A game that offers ``battles_left(state)`` (None without the option) gets its
summaries worded so; every other game's summaries are left as they are. The words are
:func:`~stratagem.verification.gameproofs.horizon_note`'s, which ``verify`` states a proven value with too
(they live there because ``verify`` may not import this package, which reaches the compiled searches).
"""

from __future__ import annotations

from typing import Any

from stratagem.verification.gameproofs import horizon_note


def within_horizon(game: Any, state: Any, value: Any, summary: str) -> str:
    """``summary`` of a proven ``value`` (for the player to move at ``state``) as the horizon reads it.

    A 0 is reported as undecided within the limit; a value strictly between a loss and a win says that the
    games the limit stopped counted 0. A win or a loss needs no note: it is forced within the limit, so
    also without it.
    """
    note = horizon_note(game, state, value)
    if note is None:
        return summary
    return note if value == 0 else f"{summary}; {note}"


__all__ = ["within_horizon"]
