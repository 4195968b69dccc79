"""`stratagem bench` writes its tables (a tiny run: one small deal, a short time limit, no growth)."""

from __future__ import annotations

from pathlib import Path

SMALL = """game = "strato"

[challenge]
name = "Tiny"
weathers = "RW"
rows = 1
pairs = ["RW"]
limit = 5
rows_required = 1

[challenge.goal]
left = "RR"
right = "WW"

[[deals]]
name = "tiny"
seed = 0
"""


def test_bench_writes_the_search_and_methods_tables(cli, tmp_path: Path) -> None:
    puzzle = tmp_path / "tiny.toml"
    puzzle.write_text(SMALL)
    out = tmp_path / "results"
    result = cli("bench", "strato", "--puzzles", str(puzzle), "--time-limit", "5", "--no-growth", "--out", str(out))
    assert result.code == 0, result.err
    search = (out / "strato-search.md").read_text()
    methods = (out / "strato-methods.md").read_text()
    assert "Machine:" in search and "| tiny.toml | tiny |" in search
    row = next(line for line in methods.splitlines() if line.startswith("| tiny.toml"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[2].isdigit()  # every method decided the tiny deal: a proven length, no bound
    assert int(cells[8]) > 0  # SAT's refutation has lines
    checker = (out / "strato-checker.md").read_text()
    row = next(line for line in checker.splitlines() if line.startswith("| tiny.toml"))
    engines = [cell.strip() for cell in row.strip("|").split("|")]
    assert engines[2] == cells[8]  # the same refutation as in the methods table
    assert float(engines[3]) >= 0  # the reference finished on so small a proof (no "stopped")
    assert engines[4] == "numba not installed" or float(engines[5]) > 0  # both engines timed, as a ratio
