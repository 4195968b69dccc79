"""QA 66: ``reach --designer`` finds the par by SAT where A* stops without one.

On the level-2 example's layouts A* holds millions of layouts without raising its bound above the start's 9, so
``reach --designer`` said only "at least 9 turns". Now, where A* stops without a par, designer mode's SAT formula
(:mod:`stratagem.models.strato.designer_sat`) asks the horizons from A*'s bound in the rest of the time: the
level-2 example's first layout gets par 10. Here challenge 1's first layout with A* cut at 200 layouts stands in
for it (the SAT par, 7, in a fraction of a second). The report (``stratagem/reach@3``) says how the par was proven
(``par_sat``: the solver's word, not certified), and ``view`` holds ``par_sat`` to the par line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import PUZZLES, assert_bad_input

CHALLENGE_1 = str(PUZZLES / "challenge-1.toml")
CUT = (CHALLENGE_1, "--designer", "--max-nodes", "200")


@pytest.fixture(scope="module", name="solved")
def solved_fixture() -> dict[str, Any]:
    import contextlib
    import io

    from stratagem.cli.main import run

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert run(["reach", *CUT, "--json"]) == 0
    return json.loads(out.getvalue())  # type: ignore[no-any-return]


def test_a_par_astar_did_not_find_comes_from_sat(solved: dict[str, Any]) -> None:
    searched, sat = solved["par_search"], solved["par_sat"]
    assert solved["format"] == "stratagem/reach@3" and solved["par_certificate"] is None
    assert searched["status"] == "unknown" and searched["stopped_by"] == "states" and searched["lower_bound"] == 7
    assert sat == {"method": "sat", "solver": "cadical195", "encoding": "strato-designer-sat@4",
                   "status": "solved", "lower_bound": 7,
                   "horizons": [{"horizon": 6, "satisfiable": False}, {"horizon": 7, "satisfiable": True}],
                   "stopped_by": None}
    assert solved["par"] == 7 == len(solved["par_line"]) and solved["goal_reachable"] is True
    assert solved["unsolvable"] is False and "not certified" in solved["conclusion"]


def test_the_text_says_how_the_par_was_found(cli) -> None:  # type: ignore[no-untyped-def]
    human = cli("reach", *CUT)
    assert human.code == 0, human.err
    assert "designer par by A* (the graph cut before a win): at least 7 turns, stopped by its states limit" in human.out
    assert "designer par by SAT (cadical195, horizons 6-7; 6 refuted, the solver's word, not certified): par 7 turns" \
        in human.out
    assert "win reachable: a winning table is reachable" in human.out


def test_view_draws_the_sat_par(cli, tmp_path: Path, solved: dict[str, Any]) -> None:  # type: ignore[no-untyped-def]
    report, page = tmp_path / "sat.json", tmp_path / "sat.html"
    report.write_text(json.dumps(solved))
    assert cli("view", str(report), "--out", str(page)).code == 0  # the line replays among designer moves, and wins
    text = page.read_text()
    assert "par by SAT" in text and "not certified" in text and "designer par 7 turns" in text


def test_view_reads_an_older_report(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A ``stratagem/reach@1`` report (before ``par_sat``) is still drawn."""
    done = cli("reach", str(PUZZLES / "challenge-0.toml"), "--designer", "--max-nodes", "2000", "--json")
    data = json.loads(done.out)
    assert data.pop("par_sat") is None
    data["format"] = "stratagem/reach@1"
    report, page = tmp_path / "old.json", tmp_path / "old.html"
    report.write_text(json.dumps(data))
    assert cli("view", str(report), "--out", str(page)).code == 0
    assert "par 5, proven" in page.read_text()


@pytest.mark.parametrize(("change", "fragments"), [
    (lambda d: d["par_sat"].update(status="unknown"), ("par_sat.status", "'unknown'", "7 move(s)")),
    (lambda d: d["par_sat"].update(lower_bound=6), ("par_sat.lower_bound", "is 6")),
    (lambda d: d["par_sat"].update(status="unsolvable"), ("par_sat", "a status (solved, unknown)")),
    (lambda d: d.update(par_sat="solved"), ("par_sat", "must be null or an object")),
    (lambda d: d["par_search"].update(status="solved"), ("par_sat", "only after the par's A* stopped")),
    (lambda d: d.update(par_search=None), ("par_sat", "only after the par's A*")),
])
def test_view_refuses_a_par_sat_its_report_contradicts(cli, tmp_path: Path, solved: dict[str, Any],  # type: ignore[no-untyped-def]
                                                       change, fragments: tuple[str, ...]) -> None:
    data = json.loads(json.dumps(solved))
    change(data)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data))
    assert_bad_input(cli("view", str(path), "--out", str(tmp_path / "forged.html")), "forged.json", *fragments)
    assert not (tmp_path / "forged.html").exists()
