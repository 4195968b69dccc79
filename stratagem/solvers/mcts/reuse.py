"""Tree reuse: a UCT tree kept between the moves of one game."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from stratagem.solvers.mcts.engine import Node


class SearchTree:
    """A UCT search tree kept between the moves of one game (tree reuse).

    :func:`uct` given a ``SearchTree`` looks there for the position it is asked about -- the last
    search's root, or a node at most one round of plies (``num_players`` plies) below it that the last
    search expanded -- and, if found, goes on from that node, statistics and proofs included, instead of
    starting afresh; it then keeps its own root here. A search with other settings (guidance,
    widening, solver, value range) or another game starts afresh. Open search only; the position is
    compared by equality, so it is found whichever moves led to it.
    """

    def __init__(self) -> None:
        self._root: Node | None = None
        self._game: Any = None
        self._settings: Hashable = None
        #: Searches that started from a reused node, and those that started afresh.
        self.reused = 0
        self.fresh = 0

    def find(self, game: Any, state: Any, settings: Hashable) -> Node | None:
        """The kept node of ``state`` (None when there is none, or it was made with other settings)."""
        root = self._root
        if root is None or self._game is not game or self._settings != settings:
            self.fresh += 1
            return None
        layer = [root]
        for _ in range(game.num_players + 1):
            for node in layer:
                if node.state == state:
                    self.reused += 1
                    return node
            layer = [kid for node in layer for kid in node.kids if kid is not None]
        self.fresh += 1
        return None

    def keep(self, game: Any, root: Node, settings: Hashable) -> None:
        """Keep ``root`` (and everything below it) for the next search."""
        self._root, self._game, self._settings = root, game, settings

