"""QA 57 (analyze --method pimc): each sampled deal of a turn-based game is solved on the compiled engine.

PIMC solved every sampled deal with the Python search, 50,000 nodes each: ``square-in-5 --as 1
--samples 3`` took 87 s, the default 20 samples minutes. The compiled expecti (two players) or maxn
(more) now solves them within the same node budget; the exact values, so the same estimates, are
checked here against the reference engine's. Simultaneous-move PIMC (LP) stays on the reference engine
and says so when the compiled one is asked for.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.analysis import analyze
from stratagem.engines import resolve
from stratagem.loading import load_position

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


@pytest.mark.parametrize("position", [
    "cardclash/defence-holds.toml", "cardclash/strategic-double-threat.toml", "stratatak/long-odds.toml",
    "stratatak/reshuffle-gamble.toml",
    # the reference engine's PIMC takes 22 s, 33 s and 3 minutes on these
    pytest.param("cardclash/square-in-1.toml", marks=pytest.mark.slow),
    pytest.param("cardclash/square-in-3.toml", marks=pytest.mark.slow),
    pytest.param("cardclash/three-players.toml", marks=pytest.mark.slow),
])
def test_compiled_pimc_gives_the_reference_estimates(position: str) -> None:
    path = str(PUZZLES / position)
    # Without the compiled core both runs are the reference engine's (tests/test_engines.py checks that it says so).
    choice = resolve(load_position(path).game, "compiled")
    if choice.engine is None:
        pytest.skip(choice.note)
    compiled = analyze(path, method="pimc", as_player=1, samples=2, seed=5)
    reference = analyze(path, method="pimc", as_player=1, samples=2, seed=5, engine="reference")
    assert compiled.engine == "compiled" and reference.engine == "reference"
    assert [(m.move, m.value) for m in compiled.moves] == [(m.move, m.value) for m in reference.moves]
    assert compiled.best_move == reference.best_move and compiled.status == reference.status == "estimate"


def test_simultaneous_pimc_stays_on_the_reference_engine_and_says_so() -> None:
    result = analyze(str(PUZZLES / "stackattack/2p-numbers-3-turns.toml"), method="pimc", as_player=1, samples=2,
                     engine="compiled")
    assert result.engine == "reference"
    assert "LP in Python" in result.engine_note
