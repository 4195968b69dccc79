"""``stratagem reach --html`` and ``view`` of a ``reach --json`` report: the answer as the command states it,
the graph's facts, the states per depth, and the par line replayed (the rules engine's in deal mode, the
designer game's moves in designer mode); a report whose start or par line does not fit its deal is bad
input."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from pagesupport import PUZZLES, cli, page_title

GOOD = (PUZZLES / "strato/challenge-0.toml").read_text()
HEAD = GOOD.split("[[deals]]")[0]


def variant(limit: int, left: str, right: str) -> str:
    """Challenge 0 with a smaller limit and goal, so that its graphs are small (tests/cli/test_reach.py)."""
    return (HEAD.replace("limit = 6", f"limit = {limit}").replace('left = "RRRR"', f'left = "{left}"')
            .replace('right = "WWWW"', f'right = "{right}"') + '[[deals]]\nname = "solo-1"\nseed = 1\n')


#: Winnable in a few turns; no win, not even in designer mode.
SMALL, WALLED = variant(4, "RRR", "W"), variant(4, "RRR", "WWW")


@pytest.fixture(scope="module", name="small")
def small_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("reach") / "small.toml"
    path.write_text(SMALL)
    return path


def _replayed(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li data-turn=\"\d+\" data-move=\"([^\"]*)\"", page)]


@pytest.mark.parametrize("designer", [False, True])
def test_reach_html_replays_the_par_line_to_a_win(small: Path, tmp_path: Path, designer: bool) -> None:
    page_path, report_path = tmp_path / "reach.html", tmp_path / "reach.json"
    mode = ["--designer"] if designer else []
    code, out, _ = cli("reach", str(small), *mode, "--json", "--html", str(page_path))
    assert code == 0
    report = json.loads(out)
    page = page_path.read_text()
    par = report["par"]
    assert par >= 2
    assert page_title(page) == (f"Strato reachability: designer par {par} turns (a lower bound for every deal on this "
                            "layout)" if designer else f"Strato reachability: a win is reachable, par {par} turns")
    assert _replayed(page) == report["par_line"] and len(report["par_line"]) == report["par"]
    last = page.split(f"data-turn=\"{report['par']}\"")[1]
    assert "data-status=\"won\"" in last, "the par line's last turn wins"
    assert f"{report['states']:,}" in page and f"The bar at depth {par}, the par, is green and marked par." in page
    report_path.write_text(out)
    viewed = tmp_path / "viewed.html"
    assert cli("view", str(report_path), "--out", str(viewed))[0] == 0
    assert page_title(viewed.read_text()) == page_title(page)


def test_a_cut_graph_is_unknown_and_an_unsolvable_layout_says_so(tmp_path: Path) -> None:
    cut = tmp_path / "cut.html"
    code, _, _ = cli("reach", str(PUZZLES / "strato/challenge-1.toml"), "--max-nodes", "200", "--html", str(cut))
    assert code == 3
    page = cut.read_text()
    assert page_title(page).startswith("Strato reachability: unknown") and "cut by the states limit" in page
    walled = tmp_path / "walled.toml"
    walled.write_text(WALLED)
    page_path = tmp_path / "walled.html"
    code, _, _ = cli("reach", str(walled), "--designer", "--html", str(page_path))
    assert code == 1
    assert page_title(page_path.read_text()) == "Strato reachability: every deal on this layout is unsolvable"
    assert "A line of par length" not in page_path.read_text()


@pytest.mark.parametrize(("designer", "forgery"), [(False, "move"), (True, "move"), (False, "start"),
                                                   (True, "start")])
def test_a_report_that_does_not_fit_its_deal_is_bad_input(small: Path, tmp_path: Path, designer: bool,
                                                          forgery: str) -> None:
    mode = ["--designer"] if designer else []
    code, out, _ = cli("reach", str(small), *mode, "--json")
    report = json.loads(out)
    if forgery == "move":
        report["par_line"][1] = "W1L"  # the wind card, without the target its action needs
        place = "par_line[1]"
    else:
        report["start"] = report["start"].replace("RW(RW)RW", "WR(RW)RW")
        place = "start"
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(report))
    code, _, err = cli("view", str(forged), "--out", str(tmp_path / "forged.html"))
    assert code == 2 and place in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "forged.html").exists()


def test_reach_checks_its_html_path_before_building(tmp_path: Path) -> None:
    code, out, err = cli("reach", str(PUZZLES / "strato/challenge-0.toml"), "--html", str(tmp_path / "no" / "p.html"))
    assert code == 2 and "--html" in err and not out and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("designer", [False, True])
@pytest.mark.parametrize(("forgery", "place"), [("unsolvable", "unsolvable"), ("short", "par_line"),
                                                ("par", "par"), ("goal", "goal_reachable"), ("text", "par_line")])
def test_a_report_whose_answer_its_line_contradicts_is_bad_input(small: Path, tmp_path: Path, designer: bool,
                                                                 forgery: str, place: str) -> None:
    """Each once gave a page (exit 0) titled with what its own replayed line contradicts: "unsolvable" above a
    winning line, "a line of par length" over moves that do not win, a par other than the line's length."""
    mode = ["--designer"] if designer else []
    report = json.loads(cli("reach", str(small), *mode, "--json")[1])
    if forgery == "unsolvable":
        report["unsolvable"] = True
    elif forgery == "short":
        report["par_line"] = report["par_line"][:-1]
    elif forgery == "par":
        report["par"] -= 1
    elif forgery == "goal":
        report["goal_reachable"] = False
    else:
        report["par_line"] = "abc"
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(report))
    code, _, err = cli("view", str(forged), "--out", str(tmp_path / "forged.html"))
    assert code == 2 and f": {place}:" in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "forged.html").exists()
