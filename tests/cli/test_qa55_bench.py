"""QA pass 55 on `stratagem bench`: limits that bound what they say, ratios against stopped searches
marked, budgets stated as used, peers' tables kept when a peer is missing, shipped puzzles found from
any folder, no empty --out folder, honest wording, a full disk exiting 74. Tiny inputs throughout."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import ROOT, assert_bad_input
from fulldisk import full_disk_at
from test_bench import SMALL

from stratagem.engines import resolve
from stratagem.matches import new_game

#: The engines sections measure the compiled engine against the reference one: without the compiled core
#: (an install without a compiler) they have nothing to measure, and say so in their table.
CARDCLASH_ENGINE = resolve(new_game("cardclash", 2), "compiled")

TINY = SMALL  # the tiny puzzle of tests/cli/test_bench.py
CARDCLASH = ROOT / "puzzles" / "cardclash"


def _tiny(tmp_path: Path) -> str:
    puzzle = tmp_path / "tiny.toml"
    puzzle.write_text(TINY)
    return str(puzzle)


def _row(text: str, start: str) -> list[str]:
    line = next(line for line in text.splitlines() if line.startswith(start))
    return [cell.strip() for cell in line.strip("|").split("|")]


# 1a: verify's check of auto's certificate has the per-deal limit; a stopped check is not certified.

def test_the_certificate_check_gets_the_time_limit_and_a_stopped_one_is_not_certified(
        cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from stratagem.bench import strato_certified

    real = strato_certified.verify
    limits: list[Any] = []

    def stopped_verify(record: str, time_limit: float | None = None, **options: Any) -> Any:
        limits.append(time_limit)
        return real(record, time_limit=1e-6)  # as if the check took longer than the limit

    monkeypatch.setattr(strato_certified, "verify", stopped_verify)
    out = tmp_path / "out"
    result = cli("bench", "strato", "--puzzles", _tiny(tmp_path), "--time-limit", "5", "--only-certified",
                 "--out", str(out))
    assert result.code == 0, result.err
    assert limits == [5.0]  # it ran with no limit at all (C1SOLO1: 90.7 s of check under --time-limit 5)
    text = (out / "strato-certified.md").read_text()
    cells = _row(text, "| tiny.toml")
    assert cells[2] == "—" and cells[3].endswith("check stopped")  # never shown as certified
    assert cells[-1].endswith("*")  # the ratio is a bound: auto's side was not certified
    assert "0 of 1 deals: a certified optimum" in text
    assert "with the\nsame limit of its own" in text or "same limit of its own" in text.replace("\n", " ")


# 1b: options a game does not use are refused, before anything is made.

@pytest.mark.parametrize(("args", "option"), [
    (["stakd", "--puzzles", "/nonexistent/*.toml"], "--puzzles"),
    (["stakd", "--time-limit", "1"], "--time-limit"),
    (["cardclash", "--planner-time-limit", "3"], "--planner-time-limit"),
    (["stratatak", "--no-growth"], "--growth/--no-growth"),
    (["stackattack", "--no-peers"], "--peers/--no-peers"),
    (["strato", "--max-nodes", "5"], "--max-nodes"),
    (["strato", "--engine", "reference"], "--engine"),
    (["strato", "--only-growth", "--puzzles", "x.toml"], "--puzzles is not used by --only-growth"),
    (["strato", "--only-peers", "--time-limit", "3"], "--time-limit"),
    (["strato", "--no-planners", "--planner-time-limit", "3"], "--planner-time-limit"),
])
def test_an_option_the_game_does_not_use_is_refused(cli, tmp_path: Path, args: list[str],  # type: ignore[no-untyped-def]
                                                    option: str) -> None:
    out = tmp_path / "out"
    assert_bad_input(cli("bench", *args, "--out", str(out)), option)
    assert not out.exists()


def test_the_help_says_which_options_are_stratos_and_what_the_limit_covers(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("bench", "--help")
    text = " ".join(result.out.split())
    assert "Strato only: glob of puzzle files" in text
    assert "Other games only: node limit" in text
    assert "Not the peers' tables" in text and "strato-peers.md has fixed budgets" in text


# 2: ratios against a stopped search are marked.

def test_nodes_x_plain_is_marked_when_the_plain_search_was_stopped() -> None:
    from stratagem.bench.games import search_table

    lines = search_table([str(CARDCLASH / "square-in-1.toml")], 1000, lambda text: None)
    cells = _row("\n".join(lines), "| square-in-1")
    assert cells[2].startswith(">")  # the plain search was stopped at the budget
    assert all(ratio.endswith("*") for ratio in cells[-1].split(" / ")), cells[-1]


def test_cpu_ratio_of_a_stopped_exact_search_is_marked() -> None:
    from stratagem.bench.searches import SearchSpeed, _speed_row

    stopped = SearchSpeed("paranoid", None, 1_001, 0.001, None, 200_001, 12.0, False, 0.001, 12.0)
    cells = _row(_speed_row("three", stopped, lambda text: None), "| three")
    assert cells[8].endswith("*") and "(stopped)" in cells[2]
    solved = SearchSpeed("alphabeta", 1, 100, 0.001, 1, 100, 0.01, True, 0.001, 0.01)
    assert not _row(_speed_row("two", solved, lambda text: None), "| two")[8].endswith("*")


def test_growth_ratios_against_a_stopped_search_are_marked(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from stratagem.bench import strato_growth

    def fake(method: str, game: Any, time_limit: float) -> Any:  # BFS stopped, the others solved
        stopped = method == "bfs"
        return SimpleNamespace(status="unknown" if stopped else "solved", moves=[] if stopped else [1, 2],
                               lower_bound=2, stats={"seconds": 1.0 if stopped else 0.5}, evidence={})

    monkeypatch.setattr(strato_growth, "run", fake)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # no plot: the table alone
    strato_growth.write_growth(tmp_path, 1.0, [], lambda text: None)
    row = _row((tmp_path / "strato-growth.md").read_text(), "| 1 | 1 |")
    assert row[3] == "1.00 [1.00] (stopped)"
    assert row[4] == "0.50 [0.50*]"  # A* against a stopped BFS: a bound


# 3: the 3+-player table states the budgets it used and compares like with like.

@pytest.mark.skipif(CARDCLASH_ENGINE.engine is None, reason=CARDCLASH_ENGINE.note)
def test_the_many_player_table_states_the_budgets_it_used() -> None:
    from stratagem.bench.searches import engines_section

    lines = engines_section("cardclash", [str(CARDCLASH / "three-players.toml")], lambda text: None, compiled=50,
                            reference=10, repeats=1, max_nodes=300)
    text = "\n".join(lines)
    assert "(300 compiled, 300 reference)" in text and "4,000,000" not in text and "200,000" not in text
    rows = [line for line in lines if line.startswith("| three-players")]
    assert rows
    for line in rows:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if "(stopped)" in cells[2]:
            assert cells[8].endswith("*")
            # both sides stopped near the same budget (a search overshoots it by a few nodes)
            assert int(cells[5].replace(",", "")) < 400 and int(cells[3].replace(",", "")) < 400


# 4: a missing peer keeps its table, says so on stderr even under --quiet, and the tables note it.

def test_a_missing_peer_keeps_its_table_and_the_run_notes_it(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from stratagem.solvers import fast_downward

    monkeypatch.setitem(sys.modules, "stratagem.openspiel", None)  # as if OpenSpiel were not installed
    monkeypatch.setitem(sys.modules, "stratagem.openspiel.peers", None)
    monkeypatch.setattr(fast_downward, "driver", lambda: None)
    out = tmp_path / "out"
    out.mkdir()
    (out / "strato-peers.md").write_text("committed measurements\n")
    result = cli("bench", "strato", "--puzzles", _tiny(tmp_path), "--time-limit", "5", "--no-growth",
                 "--out", str(out), "--quiet", "--json")
    assert result.code == 0, result.err
    import json

    missing = json.loads(result.out)["missing"]
    assert len(missing) == 2 and missing[0].startswith("OpenSpiel") and missing[1].startswith("Fast Downward")
    assert (out / "strato-peers.md").read_text() == "committed measurements\n"
    assert not (out / "strato-planners.md").exists()
    err = result.err.strip().splitlines()
    assert len(err) == 2, result.err
    assert "OpenSpiel" in err[0] and "strato-peers.md kept as it was" in err[0]
    assert "Fast Downward" in err[1] and "strato-planners.md not written" in err[1]
    for name in ("strato-certified.md", "strato-search.md", "strato-methods.md", "strato-checker.md"):
        text = (out / name).read_text()
        assert "Peers missing in this run: OpenSpiel (strato-peers.md kept from an earlier run" in text
        assert "Fast Downward (strato-planners.md not written" in text


def test_only_peers_without_openspiel_is_refused(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "stratagem.openspiel", None)
    monkeypatch.setitem(sys.modules, "stratagem.openspiel.peers", None)
    out = tmp_path / "out"
    assert_bad_input(cli("bench", "strato", "--only-peers", "--out", str(out)), "--only-peers needs OpenSpiel")
    assert not out.exists()


# 5: the shipped puzzles are found from any folder.

def test_only_peers_finds_challenge_0_outside_the_checkout(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyspiel")
    from stratagem.bench import strato_peers

    asked: list[str] = []

    def section(games: int, log: Any, *, puzzle: str = strato_peers.STRATO_PEER_PUZZLE) -> list[str]:
        asked.append(puzzle)
        return ["## Peers: OpenSpiel", ""]

    monkeypatch.setattr(strato_peers, "strato_peers_section", section)
    monkeypatch.chdir(tmp_path)
    result = cli("bench", "strato", "--only-peers", "--count", "1", "--out", str(tmp_path / "cw"))
    assert result.code == 0, result.err
    assert len(asked) == 1 and Path(asked[0]).is_file()  # was exit 70: "challenge-0.toml: no such file"


def test_game_positions_and_only_growth_work_outside_the_checkout(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from stratagem.bench import strato, strato_growth
    from stratagem.bench.games import game_positions

    monkeypatch.chdir(tmp_path)
    assert game_positions("cardclash") and all(Path(f).is_file() for f in game_positions("cardclash"))

    def growth(folder: Path, time_limit: float, rows: Any, log: Any, missing: Any = ()) -> list[Path]:
        strato_growth.write_table(folder / "strato-growth.md", "growth\n")
        return [folder / "strato-growth.md"]

    monkeypatch.setattr(strato, "write_growth", growth)
    result = cli("bench", "strato", "--only-growth", "--out", str(tmp_path / "g"))
    assert result.code == 0, result.err  # was exit 2: the default --puzzles glob matched nothing here


# 6: no empty --out folder.

def test_an_interrupt_before_the_first_table_leaves_no_folder(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from stratagem.bench import strato

    def interrupted(*args: Any, **options: Any) -> Path:
        raise KeyboardInterrupt

    monkeypatch.setattr(strato, "write_certified", interrupted)
    out = tmp_path / "out"
    result = cli("bench", "strato", "--puzzles", _tiny(tmp_path), "--only-certified", "--out", str(out))
    assert result.code == 130
    assert not out.exists()


# 7: wording.

def test_one_game_is_one_game_and_peer_matches_claim_no_reproducibility() -> None:
    from stratagem.bench import peers, strato_peers
    from stratagem.bench.games import match_table

    text = "\n".join(match_table("cardclash", [("greedy", "random")], 1, 2, lambda text: None))
    assert "1 game per pairing" in text and "1 games" not in text
    assert strato_peers._deals(1) == "1 seeded deal (seed 0)" and "seeds 0-0" not in strato_peers._deals(1)
    for module in (peers, strato_peers):
        source = Path(module.__file__).read_text()  # type: ignore[arg-type]
        assert "reproducible" not in source
        assert "follow the clock" in source


@pytest.mark.skipif(CARDCLASH_ENGINE.engine is None, reason=CARDCLASH_ENGINE.note)
def test_the_sampling_header_lists_only_the_searches_measured() -> None:
    from stratagem.bench.sampling import sampling_section

    lines = sampling_section("cardclash", [], lambda text: None, reference=3, repeats=1)
    text = " ".join(lines)
    assert "does ismcts 3, pimc 3," in text and "duct 3" not in text and "duct 1,000" not in text


def test_single_runs_of_wall_clock_say_so(tmp_path: Path) -> None:
    from stratagem.bench.games import mcts_table, search_table
    from stratagem.bench.strato_methods import header

    assert "wall-clock seconds, one run" in " ".join(header("t", 1.0)).replace("seconds,\none", "seconds, one")
    square = [str(CARDCLASH / "square-in-1.toml")]
    assert "wall-clock seconds, one run" in " ".join(search_table(square, 100, lambda text: None))
    assert "wall-clock seconds, one run" in " ".join(mcts_table(square, 10, lambda text: None)).replace(
        "wall-clock ", "wall-clock ")


# 8: a full disk exits 74, as the README says.

def test_a_full_disk_exits_74(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import os

    full_disk_at(monkeypatch)
    out = tmp_path / "out"
    result = cli("bench", "strato", "--puzzles", _tiny(tmp_path), "--only-certified", "--out", str(out))
    assert result.code == 74, result.err
    assert "No space left on device" in result.err and len(result.err.strip().splitlines()) == 1
    # No temporary file left (nor a folder: the full disk met an earlier write, before the first table).
    assert not out.exists() or not any(name.startswith(".") for name in os.listdir(out))


def test_a_full_disk_is_exit_74_for_every_command_that_writes_a_file(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk is "the output could not be written" (README: 74) for a proof or page too, not bad input
    (exit 2, as core.io once made every failed write); the line names the file."""
    import os

    full_disk_at(monkeypatch)
    proof = tmp_path / "p.json"
    result = cli("solve", str(ROOT / "puzzles/strato/challenge-0.toml"), "--proof", str(proof))
    assert result.code == 74 and str(proof) in result.err and "No space left on device" in result.err, result.err
    assert len(result.err.strip().splitlines()) == 1 and os.listdir(tmp_path) == []


def test_the_peers_cpu_ratio_of_stopped_searches_is_marked() -> None:
    pytest.importorskip("pyspiel")
    from stratagem.bench import peers
    from stratagem.openspiel import peers as spiel_peers

    square = [str(CARDCLASH / "square-in-1.toml")]
    lines = peers._peer_search_table(spiel_peers, square, 50, lambda text: None)
    cells = _row("\n".join(lines), "| square-in-1")
    assert cells[2].startswith(">") and cells[-1].endswith("*")  # both stopped at 50 nodes: a bound


def test_a_puzzle_file_without_deals_and_a_huge_count_are_refused(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A file listing no deal gave an empty table and exit 0; --count had no upper bound."""
    empty = tmp_path / "empty.toml"
    empty.write_text('game = "strato"\ndeals = []\n' + SMALL.split("\n", 1)[1].split("[[deals]]")[0])
    out = tmp_path / "out"
    result = cli("bench", "strato", "--puzzles", str(empty), "--only-certified", "--out", str(out))
    assert result.code == 2 and f"{empty}: deals: no deal to measure" in result.err and not out.exists()
    result = cli("bench", "strato", "--count", str(10**12), "--out", str(out))
    assert result.code == 2 and "--count" in result.err and not out.exists()


def test_a_drup_certificate_checked_inside_autos_solve_is_counted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """auto checks a DRUP refutation within its solve; the table added that check's time a second time."""
    import time as clock

    from stratagem.bench import strato_certified
    from stratagem.models.strato.rules.puzzle import load_puzzle

    def solve(game: Any, method: str, *args: Any, **kwargs: Any) -> Any:
        clock.sleep(0.05)
        return SimpleNamespace(optimal=True, moves=("m",) * 3, evidence={"kind": "drup-refutation"},
                               stats={"proof_check_seconds": 1.5})

    monkeypatch.setattr(strato_certified, "solve", solve)
    puzzle = load_puzzle(str(ROOT / "puzzles/strato/challenge-0.toml"))
    auto, kind, solved, checked, certified = strato_certified.certified_auto(puzzle.game(puzzle.deals[0]), 5.0)
    assert certified and checked == (0.0, 0.0) and 0.05 <= solved[0] < 1.0
    assert kind == "drup-refutation, checked in the solve (1.50 s)"


def test_the_growth_table_and_plot_are_written_as_one_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The table was put in place before the plot was written: a full disk at the plot left a new
    # strato-growth.md beside an old strato-growth.png.
    pytest.importorskip("matplotlib")
    from stratagem.bench import strato_growth

    def fake(method: str, game: Any, time_limit: float) -> Any:
        return SimpleNamespace(status="solved", moves=[1, 2], lower_bound=2, stats={"seconds": 0.5}, evidence={})

    monkeypatch.setattr(strato_growth, "run", fake)
    (tmp_path / "strato-growth.md").write_text("old table\n")
    (tmp_path / "strato-growth.png").write_bytes(b"old plot")
    full_disk_at(monkeypatch, lambda count: count == 2)  # the table's temporary file is written, the plot's is not
    with pytest.raises(OSError):
        strato_growth.write_growth(tmp_path, 1.0, [], lambda text: None)
    assert (tmp_path / "strato-growth.md").read_text() == "old table\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["strato-growth.md", "strato-growth.png"]
