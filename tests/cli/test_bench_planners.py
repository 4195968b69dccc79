"""`stratagem bench strato --only-planners`: Fast Downward against ``auto`` (strato-planners.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_bench import SMALL

from stratagem.bench import strato_planners as bench
from stratagem.solvers import fast_downward


def test_without_fast_downward_only_planners_is_refused_in_one_line(cli, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The one table asked for cannot be made: refused before any work (once a note, an empty folder and
    exit 0). Without --only-planners the full run notes the missing extra and goes on."""
    monkeypatch.setattr(fast_downward, "driver", lambda: None)
    puzzle = tmp_path / "tiny.toml"
    puzzle.write_text(SMALL)
    out = tmp_path / "results"
    result = cli("bench", "strato", "--puzzles", str(puzzle), "--only-planners", "--out", str(out))
    assert result.code == 2 and result.err.strip().splitlines() == [
        "stratagem bench: --only-planners needs Fast Downward (pip install \"stratagem[planners]\"): nothing would be "
        "written"]
    assert not out.exists()


def _cell(status: str, cost: int | None, checked: bool, note: str = "") -> bench.PlannerCell:
    return bench.PlannerCell(status, cost, (1.0, 0.5), (3.0, 2.5), note, checked)


def test_the_table_gives_a_ratio_only_for_a_checked_optimal_plan() -> None:
    rows = [
        bench.PlannerRow("a.toml", "solo-1", 3, "relaxation-bound", (2.0, 1.5),
                         {"lmcut": _cell("solved", 3, True),
                          "blind": _cell("unknown", None, False, "stopped in search")}),
        bench.PlannerRow("a.toml", "solo-2", 4, "relaxation-bound", (2.0, 1.5),
                         {"lmcut": _cell("solved", 4, False, "the plan does not win in 4 turns"),
                          "blind": _cell("skipped", None, False, "not tried: translation stopped on solo-1")}),
    ]
    table = bench.planner_table(rows, 10.0, 60.0)
    first = next(line for line in table.splitlines() if "| solo-1 |" in line)
    cells = [cell.strip() for cell in first.strip("|").split("|")]
    assert cells[5] == "1.0 (0.5) + 3.0 (2.5)" and cells[6] == "3 ✓" and cells[7] == "0.500"
    assert cells[9] == "stopped in search" and cells[10] == "—"
    second = next(line for line in table.splitlines() if "| solo-2 |" in line)
    assert "✗ the plan does not win in 4 turns" in second and "0.500" not in second
    assert "not tried: translation stopped on solo-1" in second
    assert "- lmcut: optimal plan on 2 of 2 deals" in table and "Load average when the run ended" in table


@pytest.mark.slow
def test_fast_downward_reaches_the_certified_optimum(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tiny one-row deal only (the seeded two-row deals take minutes): both configurations find a
    plan that the rules engine replays to a win in auto's certified optimum."""
    pytest.importorskip("up_fast_downward")
    monkeypatch.setattr(bench, "PLANNER_SEEDS", ())
    puzzle = tmp_path / "tiny.toml"
    puzzle.write_text(SMALL)
    out = tmp_path / "results"
    result = cli("bench", "strato", "--puzzles", str(puzzle), "--only-planners", "--planner-time-limit", "600",
                 "--out", str(out))
    assert result.code == 0, result.err
    row = next(line for line in (out / "strato-planners.md").read_text().splitlines() if "| tiny |" in line)
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[2] == "3" and cells[6] == "3 ✓" and cells[9] == "3 ✓", row
