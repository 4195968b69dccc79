"""A library call's ``time_limit`` counts from the call's start: reading the puzzle and importing the
solver are inside it, as the command line's limit counts from the process's start.

``check`` of a STAKD puzzle started its deadline only inside the solver, after the puzzle was read and the
solver imported: nine checks in threads at a load of 9 spent up to 2.5 s there and ran 5.5-5.9 s against a
3 s limit (QA 60). ``solve`` started it after loading the deal. Here the reading is made slower than the
limit: the answer must be unknown, where before the solver got its full limit after the reading.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

import stratagem
from stratagem import checking, loading, solving

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "puzzles" / "stakd" / "solo-1-tiny.toml"
CHALLENGE_0 = ROOT / "puzzles" / "strato" / "challenge-0.toml"


def slowed(function: Any, seconds: float) -> Any:
    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(seconds)
        return function(*args, **kwargs)

    return slow


@pytest.mark.parametrize("method", ["sat", "cpsat"])
def test_a_stakd_check_counts_the_reading_of_its_puzzle(monkeypatch: pytest.MonkeyPatch, method: str) -> None:
    pytest.importorskip("stratagem.models.stakd.cpsat")  # OR-Tools imported already: its import is not the wait
    monkeypatch.setattr(checking, "load_position", slowed(loading.load_position, 0.6))
    result = stratagem.check(TINY, method=method, time_limit=0.5)
    assert isinstance(result, checking.SoloCheck)
    assert result.answer.winnable is None and result.answer.evidence["kind"] == "unknown"


def test_a_strato_solve_counts_the_loading_of_its_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solving, "as_deal", slowed(solving.as_deal, 0.6))
    solution = stratagem.solve(CHALLENGE_0, "solo-1", method="astar", time_limit=0.5)
    assert solution.status == "unknown"


def test_a_stakd_cpsat_check_with_its_time_spent_does_not_load_or_tools() -> None:
    """OR-Tools' import (0.4 s quiet, more under load) cannot be stopped once begun: with the limit
    already spent, the check says unknown without it. In a fresh interpreter, where nothing has
    imported it yet."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from stratagem.checking import check_solo\n"
        "from stratagem.core.deadline import Deadline\n"
        "spent = Deadline(0.001)\n"
        "while not spent.expired():\n"
        "    pass\n"
        f"result = check_solo({str(TINY)!r}, 'cpsat', spent)\n"
        "print(result.answer.evidence['kind'], 'ortools' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True,
                         cwd=ROOT)
    assert out.stdout.split() == ["unknown", "False"], out.stdout + out.stderr


def test_odds_counts_the_reading_of_its_puzzle(monkeypatch: pytest.MonkeyPatch) -> None:
    """odds started its deadline in the search, after the puzzle and the position were read."""
    from stratagem import winprobability

    position = "RRWR(RW)WWRW RRR WRR 1 -"  # the plain search values it in milliseconds
    assert stratagem.odds(CHALLENGE_0, position=position, time_limit=5).status == "solved"
    monkeypatch.setattr(winprobability, "odds_deal", slowed(winprobability.odds_deal, 0.6))
    assert stratagem.odds(CHALLENGE_0, position=position, time_limit=0.5).status == "unknown"


def test_odds_bounds_counts_its_imports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """odds_bounds (odds --table) imported the search, the table's writer and verify's reader (0.1-0.3 s
    the first time in a process) before its deadline began. The import of verify's reader is made slower
    than the limit here: the search must then have no time left."""
    import builtins

    from stratagem.winprobability import odds_bounds

    deal = stratagem.load(CHALLENGE_0, deal="solo-1")
    assert isinstance(deal, stratagem.StratoDeal)
    assert odds_bounds(deal, tmp_path / "quick.gz", time_limit=5).status == "solved"
    real = builtins.__import__

    def slow(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "stratagem.verification":
            time.sleep(0.6)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", slow)
    found = odds_bounds(deal, tmp_path / "late.gz", time_limit=0.5)
    assert found.status == "unknown" and found.table is None


def test_analyze_counts_the_reading_of_its_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """analyze made its deadline after reading the position (the time it kept from the start went unused)."""
    import stratagem.analysis as analysis

    square_in_5 = ROOT / "puzzles" / "cardclash" / "square-in-5.toml"  # solved in about 0.1 s
    assert stratagem.analyze(square_in_5, time_limit=5).status == "solved"
    monkeypatch.setattr(analysis, "_position", slowed(analysis._position, 0.6))
    assert stratagem.analyze(square_in_5, time_limit=0.5).status == "unknown"
