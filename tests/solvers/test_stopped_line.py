"""A search a limit stops returns within the limit: it reports its deepest finished iteration's move, not a
line re-searched afterwards with the limits off (QA 59 competitive fuzz pass)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.parametrize("method", ["paranoid", "alphabeta"])
def test_a_stopped_search_reports_its_move_without_searching_again(method: str) -> None:
    # A stopped search rebuilt its last finished iteration's line with the limits off: a 6-player STAKD
    # paranoid search under time_limit=8 returned after 13.7-14.1 s. It now reports the move alone, and its
    # node count stays at the limit.
    import stratagem

    root = Path(__file__).resolve().parents[2]
    position = root / "puzzles" / "cardclash" / ("three-players.toml" if method == "paranoid" else "square-in-5.toml")
    found = stratagem.analyze(position, method=method, engine="reference", max_nodes=1000, rank=False).to_json()
    assert found["status"] == "unknown" and len(found["pv"]) == 1 and found["nodes"] <= 1001, found
