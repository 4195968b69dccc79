"""Stack Attack: simultaneous card play onto four rows, with action cards (rules: docs/rules/stackattack.md)."""

from typing import Any


def compiled_engine(game: Any) -> Any:
    """The compiled engine of a reference Stack Attack game (docs/design.md, section 4): every player
    count and option is covered, so never None for a Stack Attack game."""
    from stratagem.models.stackattack.engine import StackAttackEngine

    return StackAttackEngine.from_game(game)
