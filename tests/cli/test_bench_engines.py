"""bench's section "Compiled engine against the reference engine" (stratagem.bench.searches): both engines
measured in one run on the same positions, with values that agree; ``--engine reference`` leaves it out."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

from stratagem.bench.searches import engines_section
from stratagem.engines import resolve
from stratagem.matches import new_game

POSITIONS = [str(ROOT / "puzzles" / "cardclash" / name) for name in ("defence-holds.toml", "square-in-3.toml")]


@pytest.mark.skipif(resolve(new_game("cardclash", 2), "compiled").engine is None,
                    reason="Card Clash has no compiled engine built here")
def test_the_section_measures_both_engines() -> None:
    lines = engines_section("cardclash", POSITIONS, lambda text: None, compiled=200, reference=20, repeats=1,
                            max_nodes=100_000)
    text = "\n".join(lines)
    assert "## Compiled engine against the reference engine" in text
    uct_rows = [line for line in lines if line.startswith("| start") or line.startswith("| defence-holds |")
                or line.startswith("| square-in-3 |")]
    assert len(uct_rows) == 5  # three UCT rows (the start too), two alpha-beta rows
    for row in uct_rows[3:]:
        assert row.split("|")[2].strip() == "alphabeta"  # the search the row measured is named
        value = row.split("|")[3].strip()
        compiled, reference = value.split(" / ")
        assert float(compiled) == float(reference)  # the two engines agree on the value
    assert all(float(row.split("|")[4].replace(",", "")) > 0 for row in uct_rows[:3])
    for row in uct_rows[3:]:  # an exact-search row has ten cells: the cold first pass's ratio last
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert len(cells) == 10 and float(cells[-1]) > 0


def test_a_short_search_is_timed_over_repeated_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search shorter than SAMPLE_SECONDS runs again until a sample has that much CPU time; the sample
    is the mean pass, and the first pass is timed alone (a fake clock: each pass costs 0.01 s, the first
    0.03 s)."""
    from stratagem.bench import searches

    clock = [0.0]
    calls = []
    monkeypatch.setattr(searches, "_cpu", lambda: clock[0])

    def search() -> str:
        clock[0] += 0.03 if not calls else 0.01
        calls.append(1)
        return "found"

    result, per_pass, first = searches._passes(search)
    assert result == "found"
    assert len(calls) == 3  # 0.03 + 0.01 + 0.01 reaches SAMPLE_SECONDS = 0.05
    assert first == pytest.approx(0.03) and per_pass == pytest.approx(0.05 / 3)
    clock[0], calls[:] = 0.0, []
    monkeypatch.setattr(searches, "SAMPLE_SECONDS", 0.02)
    _, per_pass, first = searches._passes(search)
    assert len(calls) == 1 and per_pass == first == pytest.approx(0.03)  # long enough alone: one pass


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_bench_measures_the_compiled_engine_unless_told(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                        engine: str) -> None:
    import stratagem.bench.games as games
    import stratagem.bench.searches as searches

    for name in ("search_table", "mcts_table", "match_table", "peers_section"):
        monkeypatch.setattr(games, name, lambda *args, **kwargs: [])
    monkeypatch.setattr(searches, "engines_section", lambda *args, **kwargs: ["## the section", ""])
    written = games.bench_game("cardclash", POSITIONS, str(tmp_path), 100, 5, 1, lambda text: None, engine=engine)
    assert ("## the section" in written.read_text(encoding="utf-8")) == (engine == "compiled")
