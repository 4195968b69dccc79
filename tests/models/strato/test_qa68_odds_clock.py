"""The hidden-pile odds search keeps its time limit as plain Python too (an install without a compiler).

Its kernel looked at the clock every 4,096 visits, some milliseconds compiled; run as plain Python that is
seconds: ``odds_bounds`` of challenge-0 solo-1 with a limit of 2 s ran 5.6-6.3 s and answered unknown, its
probe seconds past its share of the limit (stop 68, ``STRATAGEM_PURE_PYTHON=1``). Compiled it takes 0.5 s.
"""

from __future__ import annotations

import time
from pathlib import Path

import stratagem
from stratagem.winprobability import odds_bounds

CHALLENGE_0 = Path(__file__).resolve().parents[3] / "puzzles" / "strato" / "challenge-0.toml"


def test_a_table_search_of_two_seconds_returns_within_its_limit(tmp_path: Path) -> None:
    deal = stratagem.load(CHALLENGE_0, deal="solo-1")
    assert isinstance(deal, stratagem.StratoDeal)
    began = time.perf_counter()
    found = odds_bounds(deal, tmp_path / "odds.gz", time_limit=2)
    elapsed = time.perf_counter() - began
    assert elapsed < 1.2 * 2 + 1, (elapsed, found.status, found.steps)
