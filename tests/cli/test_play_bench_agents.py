"""``play`` and ``bench`` with agents (issue 16): greedy in Stack Attack's simultaneous reveals, agent
specs checked as bad input, the bench's --iterations reaching the match agents, and a checker table
that always measures real refutations."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import PUZZLES, ROOT, assert_bad_input

from stratagem.bench.games import MATCH_ITERATIONS, match_pairs
from stratagem.bench.strato_checker import checker_table, growth_refutations


def test_play_stackattack_with_greedy_reveals_at_simultaneous_nodes(cli) -> None:
    result = cli("play", "stackattack", "--agents", "greedy,random", "--count", "2", "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    greedy = next(a for a in report["agents"] if a["label"].startswith("greedy"))
    assert greedy["games"] == 2 and greedy["unfinished"] == 0


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("mcts:iterations=abc", "agent 'mcts': iterations='abc' is not a whole number or none"),
        ("mcts:iterations=-5", "agent 'mcts': iterations must be a whole number of at least 1, not -5"),
        ("mcts:iterations=2.5", "iterations=2.5 is not a whole number"),
        ("mcts:iterations=none", "give iterations or time_limit"),
        ("mcts:time_limit=0", "time_limit must be a number more than 0"),
        ("mcts:value_range=1", "value_range cannot be set from the command line"),
        ("ismcts:exploration=-1", "exploration must be a number at least 0"),
        ("pimc:samples=0", "agent 'pimc': samples must be a whole number of at least 1, not 0"),
        ("duct:iterations=-5", "agent 'duct': iterations must be a whole number of at least 1"),
    ],
)
def test_play_refuses_bad_agent_parameters_in_one_line(cli, spec: str, fragment: str) -> None:
    result = cli("play", "stratatak", "--agents", f"{spec},random", "--count", "1")
    assert_bad_input(result, "--agents[1]", fragment)


def test_bench_match_agents_search_with_the_iterations_asked_for() -> None:
    assert all(re.search(r"iterations=7\b", a) or "iterations" not in a for a, _ in match_pairs("cardclash", 7))
    default = MATCH_ITERATIONS["cardclash"]
    assert any(re.search(rf"iterations={default}\b", a) for a, _ in match_pairs("cardclash", None))


@pytest.mark.slow
def test_bench_cardclash_tables_name_the_iterations_asked_for(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    default = MATCH_ITERATIONS["cardclash"]
    monkeypatch.chdir(ROOT)  # bench reads the shipped positions under puzzles/
    out = tmp_path / "results"
    result = cli("bench", "cardclash", "--iterations", "7", "--count", "1", "--max-nodes", "200", "--out", str(out))
    assert result.code == 0, result.err
    table = (out / "cardclash.md").read_text()
    assert "| mcts:iterations=7 vs random |" in table  # the game's own cut-off (0), not an override
    assert f"iterations={default}" not in table


def test_checker_table_measures_growth_refutations_when_no_deal_gave_one() -> None:
    rows = growth_refutations(10.0, sizes=(2,))
    assert [(file, deal) for file, deal, _ in rows] == [("growth-2", "seed 1")] and rows[0][2].lines > 0
    text = checker_table(rows, 10.0, [("x.toml", "d", "SAT stopped (time) before a refutation")])
    row = next(line for line in text.splitlines() if line.startswith("| growth-2 | seed 1 |"))
    assert int(row.split("|")[3]) == rows[0][2].lines
    assert "No shipped deal gave SAT a refutation" in text and "- x.toml d: SAT stopped" in text


@pytest.mark.slow
def test_bench_strato_checker_table_has_rows_when_sat_stops_on_every_deal(cli, tmp_path: Path) -> None:
    out = tmp_path / "results"
    result = cli("bench", "strato", "--puzzles", str(PUZZLES / "level-2-example.toml"), "--time-limit", "0.2",
                 "--no-growth", "--no-peers", "--out", str(out))
    assert result.code == 0, result.err
    checker = (out / "strato-checker.md").read_text()
    assert "| growth-2 | seed 1 |" in checker
    assert "level-2-example.toml solo-1: SAT stopped" in checker
