"""Determinisations written straight into a compiled engine's rows, draw for draw with the rules engine.

A hidden-information game's compiled searches (ISMCTS, PIMC) draw what a player cannot see with the
reference game's ``sample_state`` and pack it with the engine's ``encode``. Building a reference state
per draw is most of a determinisation's cost, so a game may hand over a packed sampler instead
(``models/<game>/sampling.py``): a :class:`PackedDeals` that works out once what is the same in every
determinisation of one decision (:attr:`~PackedDeals.base`, every word but the hidden ones) and, per draw,
makes the same calls on the caller's generator as ``sample_state`` and writes only the hidden words
(:attr:`~PackedDeals.index`). The rules engine stays the definition: :func:`checked` hands a sampler over
only after one of its rows, and the generator's state after it, equal the reference's pair.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any, TypeVar

import numpy as np

from stratagem.core.shuffles import shuffler

#: The private seed of :func:`checked`'s comparison (any seed does; the caller's stream is untouched).
CHECK_SEED = 20261207

Deals = TypeVar("Deals", bound="PackedDeals")


class PackedDeals:
    """The determinisations of one state for one player as an engine's rows: :attr:`base` (one packed
    determinisation) with the words at :attr:`index` rewritten per draw by :meth:`_draw`, the game's part."""

    #: one packed determinisation (``int64``, the engine's width); its words at :attr:`index` are redrawn
    base: Any
    #: the positions of the words a draw writes, in the order :meth:`_draw` lists them
    index: Any

    def _draw(self, shuffle: Callable[[list[Any]], None]) -> list[int]:
        """One determinisation's words at :attr:`index`, drawing as ``sample_state`` does (``shuffle``: the
        caller's generator's shuffle, :func:`~stratagem.core.shuffles.shuffler`)."""
        raise NotImplementedError

    def rows(self, rng: Random, count: int) -> Any:
        """``count`` determinisations drawn from ``rng``, packed one per row (``count`` x the engine's width)."""
        rows = np.empty((count, self.base.shape[0]), np.int64)
        rows[:] = self.base
        if count:
            shuffle = shuffler(rng)
            rows[:, self.index] = [self._draw(shuffle) for _ in range(count)]
        return rows


def checked(game: Any, engine: Any, state: Any, player: int,
            make: Callable[[Any], Deals]) -> Deals | None:
    """``make(base)``, where ``base`` is ``engine.encode(game.sample_state(state, player, rng))``, if its
    first row and the generator's state after it equal that reference pair (both from
    :data:`CHECK_SEED`); else None, and None on any error (the caller then samples through the reference,
    which raises what it raises, where it raises it)."""
    try:
        reference = Random(CHECK_SEED)
        base = engine.encode(game.sample_state(state, player, reference))
        deals = make(base)
        mine = Random(CHECK_SEED)
        row = deals.rows(mine, 1)[0]
    except Exception:
        return None
    if not np.array_equal(row, base) or mine.getstate() != reference.getstate():
        return None
    return deals


__all__ = ["CHECK_SEED", "PackedDeals", "checked"]
