"""`stratagem bench` writes its tables (a tiny run: one small deal, a short time limit, no growth)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import assert_bad_input

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
    result = cli("bench", "strato", "--puzzles", str(puzzle), "--time-limit", "5", "--no-growth", "--no-planners",
                 "--no-peers", "--out", str(out))
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
    assert engines[4] == "not built" or float(engines[5]) > 0  # both engines timed, as a ratio


def test_bench_only_checker_writes_the_checker_table_alone(cli, tmp_path: Path) -> None:
    """`--only-checker` runs SAT alone on each deal and writes strato-checker.md, nothing else: the
    table a full run writes, without the other methods' time."""
    puzzle = tmp_path / "tiny.toml"
    puzzle.write_text(SMALL)
    out = tmp_path / "results"
    result = cli("bench", "strato", "--only-checker", "--puzzles", str(puzzle), "--time-limit", "5", "--out", str(out))
    assert result.code == 0, result.err
    assert sorted(path.name for path in out.iterdir()) == ["strato-checker.md"]
    row = next(line for line in (out / "strato-checker.md").read_text().splitlines() if line.startswith("| tiny.toml"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert int(cells[2]) > 0 and float(cells[3]) >= 0  # SAT's refutation, checked by the reference
    assert "tiny.toml tiny:" in result.err and "proof lines" in result.err  # progress per deal


def test_peers_section_measures_openspiel_on_the_same_positions(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`bench GAME`'s peers section: OpenSpiel's MCTS, match and alpha-beta beside ours (tiny budgets)."""
    import re

    import pytest

    pytest.importorskip("pyspiel")
    from stratagem.bench import peers

    monkeypatch.setattr(peers, "PEER_SIMULATIONS", 30)
    monkeypatch.setattr(peers, "PEER_SECONDS", 0.002)
    files = [str(Path(__file__).resolve().parents[2] / "puzzles" / "stakd" / "endgame-2p-bomber.toml")]
    text = "\n".join(peers.peers_section("stakd", files, 5_000, 2, lambda _: None))
    assert "## Peers: OpenSpiel" in text and re.search(r"^OpenSpiel \d+\.\d+", text, re.MULTILINE)
    speed = next(line for line in text.splitlines() if line.startswith("| endgame-2p-bomber | ") and "/" in line)
    assert float(speed.split("|")[4]) > 0  # ours / MCTSBot, both measured
    match = next(line for line in text.splitlines() if line.startswith("| mcts vs openspiel-mcts"))
    assert match.split("|")[2].strip() == "2"
    search = [line for line in text.splitlines() if line.startswith("| endgame-2p-bomber | alphabeta")]
    assert len(search) == 1 and "| 1 | alpha_beta_search |" in search[0] and "| yes |" in search[0]


def test_peers_section_is_skipped_in_one_line_without_the_extra(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import sys

    from stratagem.bench import peers

    monkeypatch.setitem(sys.modules, "stratagem.openspiel", None)  # as if OpenSpiel were not installed
    monkeypatch.setitem(sys.modules, "stratagem.openspiel.peers", None)
    logged: list[str] = []
    lines = peers.peers_section("stakd", [], 1_000, 2, logged.append)
    assert lines[0] == "## Peers: OpenSpiel"
    assert any(line.startswith("Skipped: the `openspiel` extra is not installed") for line in lines)
    assert logged and logged[0].startswith("peers skipped")


def test_only_peers_writes_strato_peers_under_a_header_naming_the_command(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                          monkeypatch) -> None:
    """`bench strato --only-peers` writes strato-peers.md from the library's section, and nothing else."""
    from stratagem.bench import strato_peers

    asked = []

    def section(games, log, **options):  # type: ignore[no-untyped-def]
        asked.append(games)
        return ["## Peers: OpenSpiel", "", "(measured here)", ""]

    monkeypatch.setattr(strato_peers, "strato_peers_section", section)
    out = tmp_path / "results"
    result = cli("bench", "strato", "--only-peers", "--count", "3", "--out", str(out))
    assert result.code == 0, result.err
    assert asked == [3]
    assert sorted(p.name for p in out.iterdir()) == ["strato-peers.md"]
    text = (out / "strato-peers.md").read_text()
    assert "Written by `stratagem bench strato --only-peers --count 3`." in text and "(measured here)" in text



@pytest.mark.parametrize(("args", "problem"), [
    (["strato", "--only-certified", "--only-growth"], "give one --only-... option"),
    (["strato", "--only-checker", "--only-peers"], "give one --only-... option"),
    (["strato", "--only-checker", "--planner-time-limit", "5"], "--planner-time-limit is not used by --only-checker"),
    (["strato", "--only-checker", "--no-peers"], "--peers/--no-peers is not used by --only-checker"),
    (["strato", "--only-certified", "--growth"], "--growth/--no-growth is not used by --only-certified"),
    (["strato", "--only-growth", "--planners"], "--planners/--no-planners is not used by --only-growth"),
    (["strato", "--only-certified", "--only-peers"], "give one --only-... option"),
    (["strato", "--only-planners", "--no-planners"], "nothing to write"),
    (["stakd", "--only-certified"], "is for Strato's tables"),
])
def test_bench_refuses_options_that_contradict_each_other(cli, tmp_path, args: list[str], problem: str) -> None:
    """Once accepted with exit 0: the first --only-... won, or nothing at all was written."""
    out = tmp_path / "bench"
    assert_bad_input(cli("bench", *args, "--out", str(out)), problem)
    assert not out.exists()


def test_a_malformed_puzzle_leaves_no_output_folder(cli, tmp_path: Path) -> None:
    """The folder was made before the puzzles were read: a bad one left it behind, empty."""
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "strato"\n[challenge\n')
    out = tmp_path / "bench"
    assert_bad_input(cli("bench", "strato", "--puzzles", str(bad), "--out", str(out), "--only-certified"),
                     "malformed TOML")
    assert not out.exists()

