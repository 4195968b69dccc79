"""QA 65: ``reach --designer`` finds the designer par by A* where the graph is cut before a win.

Challenge 1's layouts pass 200,000 states at depth 4, so ``reach --designer`` answered "unknown: nothing is
proven either way" on a shipped challenge, although A* with the game's admissible bound finds its par (7 on
the first deal's layout) after 59 expansions. Now the par's A* runs after a graph cut before a win, under the
same ``--max-nodes`` and within the same share of ``--time-limit``; its par line is checked like the graph's
(``view`` replays it among the designer game's moves), and where it too is stopped, its bound is reported.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import PUZZLES, assert_bad_input

from stratagem.cli.main import run
from stratagem.loading import load_strato
from stratagem.models.strato.designer import StratoDesigner, designer_par
from stratagem.models.strato.rules.notation import format_move
from stratagem.solvers.graph import build_graph, graph_facts

ROOT = Path(__file__).resolve().parents[2]
HEAD = (PUZZLES / "challenge-0.toml").read_text().split("[[deals]]")[0]


def variant(limit: int, left: str, right: str) -> str:
    """Challenge 0 with a smaller limit and goal (tests/cli/test_reach.py's variants)."""
    return (HEAD.replace("limit = 6", f"limit = {limit}").replace('left = "RRRR"', f'left = "{left}"')
            .replace('right = "WWWW"', f'right = "{right}"') + '[[deals]]\nname = "solo-1"\nseed = 1\n')


def _layout(path: Path | str) -> StratoDesigner:
    loaded = load_strato(path)
    start = loaded.game(loaded.find_deal(None, None)).initial_state()
    return StratoDesigner(loaded.challenge, loaded.options, start.rows, start.last)


@pytest.mark.parametrize(("limit", "left", "right"), [
    (3, "RR", "W"), (4, "RRR", "W"), (5, "RRR", "WW"),
    # the whole graph of limit 6 is challenge 0's (3-4.5 s each): one in the default run, the others slow
    pytest.param(6, "RRRR", "WWW", marks=pytest.mark.slow), pytest.param(6, "RRR", "WWWW", marks=pytest.mark.slow),
    (6, "RRRR", "WWWW"),
    (4, "RRR", "WWW"),  # no win, not even in designer mode
])
def test_astar_par_is_the_complete_graphs(tmp_path: Path, limit: int, left: str, right: str) -> None:
    """The par's A* against the whole designer graph (breadth first, every layout): the same par, or no win."""
    path = tmp_path / "layout.toml"
    path.write_text(variant(limit, left, right))
    layout = _layout(path)
    facts = graph_facts(build_graph(layout, label=layout.format_state, move_label=format_move))
    assert facts.complete
    found = designer_par(layout)
    if facts.goal_reachable:
        assert found.status == "solved" and found.moves is not None and len(found.moves) == facts.par
    else:
        assert found.status == "unsolvable" and found.moves is None
        assert sum(found.stats.states_per_depth) == facts.states  # every reachable layout, as the graph's


def _report(cli, *args: str, code: int) -> dict:  # type: ignore[no-untyped-def,type-arg]
    result = cli("reach", *args, "--json")
    assert result.code == code, result.err
    return json.loads(result.out)  # type: ignore[no-any-return]


def test_a_cut_graph_of_challenge_0_gets_the_whole_graphs_par_from_astar(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    whole = _report(cli, str(PUZZLES / "challenge-0.toml"), "--designer", code=0)
    assert whole["complete"] and whole["par"] == 5 and whole["par_search"] is None
    cut = _report(cli, str(PUZZLES / "challenge-0.toml"), "--designer", "--max-nodes", "2000", code=0)
    assert not cut["complete"] and cut["goal_states"] == 0  # the graph reached no win: 1,294 layouts to depth 4
    searched = cut["par_search"]
    assert searched["status"] == "solved" and searched["states"] <= 2000 and searched["stopped_by"] is None
    assert cut["par"] == searched["lower_bound"] == len(cut["par_line"]) == whole["par"]
    assert cut["goal_reachable"] is True and cut["unsolvable"] is False
    report = tmp_path / "cut.json"
    report.write_text(json.dumps(cut))
    page = tmp_path / "cut.html"
    assert cli("view", str(report), "--out", str(page)).code == 0  # the line replays among designer moves, and wins
    assert "par 5, proven" in page.read_text()


def test_challenge_1s_layout_has_a_designer_par(cli) -> None:  # type: ignore[no-untyped-def]
    """The first deal's layout (solo-3): the graph is cut at depth 4, A* finds par 7 (it said "unknown")."""
    data = _report(cli, str(PUZZLES / "challenge-1.toml"), "--designer", "--max-nodes", "20000", code=0)
    assert data["par"] == 7 and data["par_search"]["status"] == "solved" and data["unsolvable"] is False
    human = cli("reach", str(PUZZLES / "challenge-1.toml"), "--designer", "--max-nodes", "20000")
    assert human.code == 0 and "designer par by A*" in human.out and "par 7 turns" in human.out
    assert "win reachable: a winning table is reachable" in human.out


def test_a_stopped_astar_reports_its_bound(cli) -> None:  # type: ignore[no-untyped-def]
    """The level-2 example's layout: neither the graph nor A* within 3,000 layouts reaches a win, nor SAT (stop
    66) in the seconds the time limit leaves it; the bound A* proved (at least the game's bound at the start, 9
    turns) is said, and nothing more."""
    args = (str(PUZZLES / "level-2-example.toml"), "--designer", "--max-nodes", "3000", "--time-limit", "4")
    data = _report(cli, *args, code=3)
    searched = data["par_search"]
    assert searched["status"] == "unknown" and searched["stopped_by"] == "states" and searched["states"] <= 3000
    assert searched["lower_bound"] >= 9 and data["par"] is None and data["unsolvable"] is None
    assert data["par_sat"]["status"] == "unknown" and data["par_sat"]["stopped_by"] == "time"
    human = cli("reach", *args)
    assert human.code == 3 and f"at least {searched['lower_bound']} turns" in human.out


def test_the_time_limit_covers_the_graph_and_astar() -> None:
    """``--time-limit 2``: the graph (its part of the build's share), A* and SAT (the rest of it) all stop."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "stratagem", "reach", str(PUZZLES / "level-2-example.toml"),
                           "--designer", "--max-nodes", "100000000", "--time-limit", "2", "--json"],
                          capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)
    wall = time.perf_counter() - started
    assert done.returncode == 3, done.stderr
    assert wall < 1.2 * 2 + 1 + 1.5, wall  # the limit, its allowance, and the interpreter's start
    data = json.loads(done.stdout)
    assert data["stopped_by"] == "time" and data["par_search"]["stopped_by"] == "time"
    assert data["par_sat"]["stopped_by"] == "time"  # stop 66: SAT after A*, within the same limit


@pytest.fixture(scope="module", name="solved")
def solved_fixture() -> dict:  # type: ignore[type-arg]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert run(["reach", str(PUZZLES / "challenge-0.toml"), "--designer", "--max-nodes", "2000", "--json"]) == 0
    return json.loads(out.getvalue())  # type: ignore[no-any-return]


@pytest.mark.parametrize(("change", "fragments"), [
    (lambda d: d["par_search"].update(status="unknown"), ("par_search.status", "'unknown'", "5 move(s)")),
    (lambda d: d["par_search"].update(lower_bound=4), ("par_search.lower_bound", "is 4")),
    (lambda d: d["par_search"].update(lower_bound=True), ("par_search", "integer lower_bound")),
    (lambda d: d.update(par_search="solved"), ("par_search", "must be null or an object")),
    (lambda d: d.update(goal_states=3), ("par_search", "graph cut before a win")),
    (lambda d: d.update(par_search={**d["par_search"], "status": "unsolvable"}, par_line=None, par=None,
                        goal_reachable=None, unsolvable=None),
     ("goal_reachable", "say false")),
])
def test_view_refuses_a_par_search_its_report_contradicts(cli, tmp_path: Path, solved: dict,  # type: ignore[no-untyped-def,type-arg]
                                                         change, fragments: tuple[str, ...]) -> None:
    data = json.loads(json.dumps(solved))
    change(data)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data))
    assert_bad_input(cli("view", str(path), "--out", str(tmp_path / "forged.html")), "forged.json", *fragments)
    assert not (tmp_path / "forged.html").exists()


def test_view_refuses_a_par_search_in_deal_mode(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = _report(cli, str(PUZZLES / "challenge-0.toml"), "--max-nodes", "50", code=3)
    data["par_search"] = {"method": "astar", "status": "unknown", "lower_bound": 4}
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(data))
    assert_bad_input(cli("view", str(path), "--out", str(tmp_path / "deal.html")), "par_search",
                     "only in designer mode")
