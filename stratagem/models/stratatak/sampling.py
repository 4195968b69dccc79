"""Stratatak's determinisations packed for the compiled searches, cheaply and draw for draw.

:class:`PackedDeals` gives what ``engine.encode(game.sample_state(state, player, rng))`` gives
(:meth:`~stratagem.models.stratatak.rules.StratatakGame.sample_state`, then
:meth:`~stratagem.models.stratatak.engine.StratatakEngine.encode`), row for row, from the same calls on
``rng`` -- so a compiled search's moves do not change -- at a fraction of the cost: the cards
``player`` cannot see (the other hand, the known pile and the shuffled cards, in ``sample_state``'s order)
are listed once as the engine's card numbers, and each determinisation shuffles that list as
``sample_state`` shuffles the cards (a shuffle's draws depend on the length alone), then writes the other
hand's counts and either the shuffled cards' counts (at a draw or the deal) or the known pile, top last.
Every other word is the same in all determinisations of one decision and is packed once.

:func:`packed_deals` checks one determinisation against the reference's pair before it hands the sampler
over (else None: the caller samples through the reference). The layout is the engine's (its module
docstring).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stratagem.core.packed_deals import PackedDeals as SharedDeals
from stratagem.core.packed_deals import checked
from stratagem.models.stratatak.position import DEAL, DRAW


class PackedDeals(SharedDeals):
    """The determinisations of ``state`` for ``player`` as the engine's rows (see the module docstring);
    build it through :func:`packed_deals`, which checks it."""

    def __init__(self, game: Any, state: Any, player: int, base: Any) -> None:
        m = int(game.options.max_count)
        k = 3 * m + 1  # the engine's card types: B1..Bm, R1..Rm, G1..Gm, then the Star
        codes = [f"{c}{n}" for c in "BRG" for n in range(1, m + 1)] + ["*"]
        index = {code: i for i, code in enumerate(codes)}
        other = 1 - player
        o_shuf, o_pile = 2 * k, 5 * k
        #: the unseen cards as ``sample_state`` lists them before its shuffle
        self.unseen = [index[card] for card in state.hands[other] + state.pile + state.shuffled]
        self.hand = len(state.hands[other])
        self.k = k
        self.unknown_order = state.phase in (DRAW, DEAL)
        rest = len(self.unseen) - self.hand
        written = list(range(other * k, other * k + k))
        if self.unknown_order:
            written += range(o_shuf, o_shuf + k)
        else:  # the pile's cards at o_pile + 1 on, the top (the rest's first card) last
            written += range(o_pile + 1, o_pile + 1 + rest)
        self.index = np.array(written, np.intp)
        self.base = np.array(base, np.int64)

    def _draw(self, shuffle: Any) -> list[int]:
        """One determinisation's written words (in :attr:`index`'s order), shuffling as ``sample_state``
        (``shuffle``: the caller's generator's, :func:`~stratagem.core.shuffles.shuffler`)."""
        cards = list(self.unseen)
        shuffle(cards)
        k, h = self.k, self.hand
        hand = [0] * k
        for t in cards[:h]:
            hand[t] += 1
        if self.unknown_order:
            shuffled = [0] * k
            for t in cards[h:]:
                shuffled[t] += 1
            return hand + shuffled
        rest = cards[h:]
        rest.reverse()
        return hand + rest


def packed_deals(game: Any, engine: Any, state: Any, player: int) -> PackedDeals | None:
    """:class:`PackedDeals` for ``state`` seen by ``player`` on ``engine``, or None where it cannot promise the
    reference's rows: another engine, any error, or a determinisation that differs from
    ``engine.encode(game.sample_state(...))`` (checked once, from a private ``Random``). The game has checked
    that it samples as the rules engine does (its ``packed_sampler``)."""
    from stratagem.models.stratatak.engine import StratatakEngine

    if type(engine) is not StratatakEngine:
        return None
    return checked(game, engine, state, player, lambda base: PackedDeals(game, state, player, base))


__all__ = ["PackedDeals", "packed_deals"]
