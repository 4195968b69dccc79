"""The odds search's guide builds the relaxation's tables under the deadline.

A policy pass of ``odds --table`` first builds its guide (``exact.Solver.guide``: the table-only
relaxation's distances), whose tables take 0.3 s and more per goal row the first time in a process, and
that build looked at no deadline: with the pass's budget spent there, the limit was overrun by the rest.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

import stratagem
from stratagem.loading import StratoDeal
from stratagem.models.strato.hidden import exact
from stratagem.models.strato.hidden.game import HiddenStrato
from stratagem.models.strato.search import relaxation
from stratagem.models.strato.search import relaxation_kernel as kernel

PUZZLE = Path(__file__).resolve().parents[3] / "puzzles" / "strato" / "level-2-example.toml"


def level_2_solo_1() -> HiddenStrato:
    deal = stratagem.load(PUZZLE, deal="solo-1")
    assert isinstance(deal, StratoDeal)
    return HiddenStrato(deal.challenge, deal.game.options, deal.start)


def test_a_guide_told_to_stop_builds_no_tables() -> None:
    relaxation._all_tables.cache_clear()
    solver = exact.Solver(level_2_solo_1(), 10_000)
    with pytest.raises(kernel.TablesStopped):
        solver.guide(stop=lambda: True)
    assert relaxation._all_tables.cache_info().currsize == 0


def test_a_pass_whose_guide_the_limit_stops_ends_the_search_on_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables' build is made slow (it waits for its stop test, 5 s without one): the search must end
    at its limit with a step that says why."""
    relaxation._all_tables.cache_clear()
    real = kernel.half_tables

    def slow(k: int, limit: int, stop: Any = None) -> Any:
        ends = time.perf_counter() + 5.0
        while time.perf_counter() < ends:
            if stop is not None and stop():
                raise kernel.TablesStopped("stopped")
            time.sleep(0.005)
        return real(k, limit, stop)

    monkeypatch.setattr(kernel, "half_tables", slow)
    started = time.perf_counter()
    found = exact.odds_interval(level_2_solo_1(), seconds=0.5, drain=False)
    assert time.perf_counter() - started < 0.5 * 1.2 + 0.3
    assert any("while its guide's relaxation tables were built" in step for step in found.steps), found.steps
    relaxation._all_tables.cache_clear()
