"""The relaxation's half-row tables look at the deadline while they are built.

The build is plain Python over every half-row (0.34 s for 3 classes up to 6 cards alone, 0.5-1.6 s on a
loaded machine); it was asked the deadline only before it began, so a limit that ran out during the build
was overrun by the rest of it, and the unused tables were kept.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import stratagem
from stratagem.loading import StratoDeal
from stratagem.models.strato.search import relaxation
from stratagem.models.strato.search import relaxation_kernel as kernel

PUZZLES = Path(__file__).resolve().parents[3] / "puzzles" / "strato"


def test_a_deadline_that_passes_during_the_build_stops_it_and_keeps_nothing() -> None:
    deal = stratagem.load(PUZZLES / "level-2-example.toml", deal="duo-1")
    assert isinstance(deal, StratoDeal)
    relaxation._all_tables.cache_clear()
    asked: list[float] = []

    def deadline() -> bool:  # not yet when the search starts, then at once
        asked.append(time.perf_counter())
        return len(asked) > 1

    bound = relaxation.relaxation_bound(deal.game.challenge, deal.game.options, deal.start, deadline=deadline)
    assert bound.stopped and bound.bound is None
    assert relaxation._all_tables.cache_info().currsize == 0  # before: the whole tables, built and kept


def test_half_tables_end_soon_after_stop_says_so() -> None:
    began = time.perf_counter()

    def stop() -> bool:
        return time.perf_counter() - began > 0.02

    with pytest.raises(kernel.TablesStopped):
        kernel.half_tables(3, 6, stop)
    assert time.perf_counter() - began < 0.2  # the whole build takes 0.34 s alone


def test_tables_built_under_a_stop_that_never_says_so_are_the_same() -> None:
    assert all(a.tobytes() == b.tobytes() for a, b in zip(
        (kernel.half_tables(2, 3)[name] for name in kernel.TABLE_ORDER),
        (kernel.half_tables(2, 3, lambda: False)[name] for name in kernel.TABLE_ORDER), strict=True))
