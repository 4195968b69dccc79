"""QA 57 (analyze): a ``maxn`` search stopped by ``--time-limit`` names the best move found so far.

max^n searched in one pass in both engines, so a stopped search named no move at all, where every other
exact method names the best move of its deepest finished iteration. The Python search now deepens
iteratively under a limit; the compiled one gets 80% of the limit, as ``expecti`` and ``paranoid`` do.
"""

from __future__ import annotations

import json
import time

from conftest import PUZZLES

THREE_PLAYERS = str(PUZZLES.parent / "cardclash" / "three-players.toml")


def test_a_stopped_maxn_names_a_best_move_found_so_far(cli) -> None:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    result = cli("analyze", THREE_PLAYERS, "--method", "maxn", "--time-limit", "1", "--json")
    took = time.perf_counter() - started
    assert result.code == 3, result
    answer = json.loads(result.out)
    assert answer["status"] == "unknown" and answer["value"] is None and answer["values"] is None
    assert answer["depth"] >= 1
    assert answer["best_found"] in [move["move"] for move in answer["moves"]]
    assert took < 1.2 * 1 + 1, took
