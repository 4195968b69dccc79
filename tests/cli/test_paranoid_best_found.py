"""A compiled ``paranoid`` or ``expecti`` search that a time limit stops shows the best move found so far
(QA 56): the kernel searches in one pass and kept none, so ``analyze`` of a whole 3-player STAKD game under
``--time-limit 3`` said nothing but "unknown", while the reference engine's iterative deepening named a
move. The kernel now gets most of the limit and the Python search deepens in the rest."""

from __future__ import annotations

import json
import time
from pathlib import Path

LIMIT = 2.0


def _analyze(cli, position: Path, *extra: str) -> tuple[dict, float]:  # type: ignore[no-untyped-def, type-arg]
    started = time.perf_counter()
    result = cli("analyze", str(position), "--time-limit", str(LIMIT), "--no-rank", "--json", *extra)
    took = time.perf_counter() - started
    assert result.code == 3, result.err
    return json.loads(result.out), took


def test_a_stopped_compiled_paranoid_search_names_its_best_move_so_far(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    position = tmp_path / "stakd3.toml"
    position.write_text('game = "stakd"\n[position]\nplayers = 3\n')
    report, took = _analyze(cli, position, "--method", "paranoid")
    assert report["status"] == "unknown" and report["best_move"] is None
    assert report["best_found"] is not None and report["pv"] and report["pv"][0] == report["best_found"]
    assert took < 1.2 * LIMIT + 1
    reference, _ = _analyze(cli, position, "--method", "paranoid", "--engine", "reference")
    assert reference["best_found"] is not None


def test_a_position_the_kernel_solves_is_still_solved_under_a_limit(cli) -> None:  # type: ignore[no-untyped-def]
    from conftest import ROOT

    result = cli("analyze", str(ROOT / "puzzles" / "stakd" / "endgame-2p-bomber.toml"), "--method", "paranoid",
                 "--time-limit", "10", "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["status"] == "solved"
