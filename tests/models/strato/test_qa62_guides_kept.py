"""The guided agent's guides kept for later decisions weigh at most ``GUIDE_BYTES`` in all.

A guide keeps a byte per relaxed state of its deal's goal rows (10.8 MB a deal of challenge 1), and the
16 kept for the deals played last held 229 MB in a process that had played 40 games of challenge 1 and
dropped their results. A guide no longer kept is collected; the one in use is always kept."""

from __future__ import annotations

import gc
import weakref

from stratagem.loading import deal_of, load_strato
from stratagem.models.strato.hidden.agents import GUIDE_BYTES, _guide_of, _guides
from stratagem.models.strato.hidden.game import HiddenStrato
from tests.models.strato.support import PUZZLES


def test_the_guides_of_many_deals_kept_weigh_at_most_the_budget() -> None:
    _guides.cache_clear()
    loaded = load_strato(PUZZLES / "challenge-1.toml")
    built = []
    for seed in range(8):
        deal = deal_of(loaded, seed, 1)
        game = HiddenStrato(deal.challenge, deal.game.options, deal.start)
        guide, _ = _guide_of(game.challenge, game.options, game.start)
        assert guide.table.nbytes > 0
        built.append(weakref.ref(guide))
        del guide
    gc.collect()
    assert 0 < _guides.kept_bytes() <= GUIDE_BYTES
    alive = [ref() is not None for ref in built]
    assert alive[-1] and not alive[0]  # the one used last is kept, the first is collected
    assert sum(alive) == _guides.cache_info().currsize < len(built)
    _guides.cache_clear()
