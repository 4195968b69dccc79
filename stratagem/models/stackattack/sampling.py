"""Stack Attack's determinisations packed for the compiled searches, cheaply and draw for draw.

:class:`PackedDeals` gives what ``engine.encode(game.sample_state(state, player, rng))`` gives
(:meth:`~stratagem.models.stackattack.rules.StackAttackGame.sample_state`, then
:meth:`~stratagem.models.stackattack.engine.StackAttackEngine.encode`), row for row, from the same calls on
``rng`` -- so a compiled search's moves do not change -- at a fraction of the cost: the unseen cards
(:meth:`~stratagem.models.stackattack.rules.StackAttackGame.unseen`) are listed once, and each
determinisation shuffles a copy as ``sample_state`` does, deals the other players their hands in turn
and writes each hand's cards ascending into its slots. Every other word (the hands' sizes among them) is
the same in all determinisations of one decision and is packed once.

:func:`packed_deals` checks one determinisation against the reference's pair before it hands the sampler
over (else None: the caller samples through the reference). The layout is the engine's (its module
docstring: four rows of ``1 + 5 + Shields`` words, then a hand's size and its ten card slots per player).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stratagem.core.packed_deals import PackedDeals as SharedDeals
from stratagem.core.packed_deals import checked

#: The engine's rows, the cards a row holds before it is taken, and the card slots of a hand.
ROWS, LIMIT, HAND = 4, 5, 10


class PackedDeals(SharedDeals):
    """The determinisations of ``state`` for ``player`` as the engine's rows (see the module docstring);
    build it through :func:`packed_deals`, which checks it."""

    def __init__(self, game: Any, state: Any, player: int, base: Any) -> None:
        shields = sum(1 for _, action in game.deck.actions if action == "shield")
        o_hands = ROWS * (1 + LIMIT + shields)
        #: the unseen cards as ``sample_state`` lists them before its shuffle
        self.unseen = game.unseen(state, player)
        self.sizes = [len(state.hands[p]) for p in range(game.num_players) if p != player]
        written: list[int] = []
        for p in range(game.num_players):
            if p != player:
                first = o_hands + p * (1 + HAND) + 1
                written += range(first, first + len(state.hands[p]))
        self.index = np.array(written, np.intp)
        self.base = np.array(base, np.int64)

    def _draw(self, shuffle: Any) -> list[int]:
        """One determinisation's written words (in :attr:`index`'s order), shuffling as ``sample_state``
        (``shuffle``: the caller's generator's, :func:`~stratagem.core.shuffles.shuffler`)."""
        pool = list(self.unseen)
        shuffle(pool)
        out: list[int] = []
        at = 0
        for size in self.sizes:
            out += sorted(pool[at:at + size])
            at += size
        return out


def packed_deals(game: Any, engine: Any, state: Any, player: int) -> PackedDeals | None:
    """:class:`PackedDeals` for ``state`` seen by ``player`` on ``engine``, or None where it cannot promise the
    reference's rows: another engine, any error, or a determinisation that differs from
    ``engine.encode(game.sample_state(...))`` (checked once, from a private ``Random``). The game has checked
    that it samples as the rules engine does (its ``packed_sampler``)."""
    from stratagem.models.stackattack.engine import StackAttackEngine

    if type(engine) is not StackAttackEngine:
        return None
    return checked(game, engine, state, player, lambda base: PackedDeals(game, state, player, base))


__all__ = ["PackedDeals", "packed_deals"]
