"""The exact searches over a compiled engine share one base (solvers/packed_exact.py, stop 70): alpha-beta,
expectiminimax/paranoid and max^n subclass its ``ExactSearch``, raise its two exceptions (still importable
from each search's module, where callers and tests find them) and need its kernel: where that kernel is
not built or out of date the searches run on the reference engine, as where their own is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.engines import compiled_engine, resolve
from stratagem.loading import load_position
from stratagem.solvers import packed_alphabeta, packed_exact, packed_expectimax, packed_maxn

ROOT = Path(__file__).resolve().parents[2]


def test_the_three_searches_share_one_base_and_its_exceptions() -> None:
    for module, search in ((packed_alphabeta, "_Negamax"), (packed_expectimax, "_Expecti"), (packed_maxn, "_MaxN")):
        assert issubclass(getattr(module, search), packed_exact.ExactSearch)
        assert module.SearchStopped is packed_exact.SearchStopped  # type: ignore[attr-defined]
        assert module.SearchRefused is packed_exact.SearchRefused  # type: ignore[attr-defined]


def test_the_table_sizes_are_each_searchs_entry_within_the_budget() -> None:
    """Each search's ``table_bits_for`` counts its own entry (key words and payload) against the budget."""
    assert packed_exact.table_bits_within(12, 64 << 20) == 19  # 96 bytes an entry: 2**19 fit in 64 MiB, 2**20 not
    assert packed_exact.table_bits_within(1, 1 << 40) == 20  # never above 20
    assert packed_exact.table_bits_within(10 ** 6, 1) == 10  # never below 10
    with pytest.raises(ValueError, match="between 1 and 30"):
        packed_exact.checked_table_bits(31)
    with pytest.raises(ValueError, match="lo < hi"):
        packed_exact.checked_bounds(1, 1)


@pytest.mark.parametrize("shared", ["stratagem.solvers.packed_exact", "stratagem.solvers.packed_playout"])
def test_without_a_shared_kernel_the_reference_engine_runs_and_says_so(monkeypatch: pytest.MonkeyPatch,
                                                                       shared: str) -> None:
    """A compiled search imports its base's compiled kernel (the exact searches' ``packed_exact``, the Monte
    Carlo searches' ``packed_playout``); where it is stale (an edit since the build) the search must not be
    trusted to import, so the choice falls back and names it."""
    import stratagem.core.compiled as compiled

    game = load_position(str(ROOT / "puzzles" / "cardclash" / "square-in-3.toml")).game
    if compiled_engine(game) is None:
        pytest.skip("Card Clash has no compiled engine here")
    real = compiled.status()
    monkeypatch.setattr(compiled, "status", lambda: compiled.CoreStatus(
        tuple(m for m in real.compiled if m != shared), (), (shared,)))
    choice = resolve(game, "compiled")
    assert choice.name == "reference" and shared.removeprefix("stratagem.") in choice.note
