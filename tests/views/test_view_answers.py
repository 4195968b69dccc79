"""What a page says an answer is: the status of an undecided or negative answer in its title (never a
"proof" of no moves), a title no stronger than the record's claims and verify's verdict, every player's
outcome named, a Stack Attack analysis's mixes, a record that does not replay shown as invalid under
``--verify``, and a proof tree whose references link to what is drawn. Pages are read as text here; the
two browser checks (the replay's word for a step, a link into a folded tree) skip without a browser."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pagesupport import ROOT, browser_fixture, records_fixture  # noqa: F401 (the fixtures)

from stratagem.cli.main import run
from stratagem.views import prooftree
from stratagem.views.page import document
from stratagem.views.records import record_page

PUZZLES = ROOT / "puzzles"
#: What a page says it checked itself (the record's claims are "not checked by this page").
CHECKED = "checked by this page:</span>"


def _title(page: str) -> str:
    found = re.search(r"<h1>(.*?)</h1>", page)
    assert found is not None
    return found.group(1)


def test_an_undecided_answer_is_titled_unknown_with_its_bound(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A search stopped by its node limit (exit 3): the page once read "Strato: proof of 0 turn(s)", labelled
    proof@1 with a green check of 0 moves; it now states the answer as the text output does -- unknown, the
    bound proven, what stopped the search -- draws the deal's start without an empty replay, and checks
    nothing it does not claim."""
    page = tmp_path / "unknown.html"
    code = run(["solve", str(PUZZLES / "strato/challenge-1.toml"), "--deal", "solo-1", "--method", "astar",
                "--max-nodes", "100", "--html", str(page)])
    assert code == 3
    assert "unknown" in capsys.readouterr().out
    text = page.read_text()
    title = _title(text)
    assert title.startswith("Strato: unknown: no winning line is shorter than 9 turns")
    assert "stopped by the node limit" in title and "proof" not in title
    assert "stratagem/proof@1" not in text and 'data-answer="unknown"' in text
    assert CHECKED not in text and 'class="replay"' not in text and "<button" not in text
    assert 'class="position"' in text  # the deal's start is still drawn


def test_an_undecided_stakd_check_and_a_refutation_say_what_they_are(tmp_path: Path) -> None:
    """STAKD's undecided check (the time limit) and its refutation (exit 1, a checked DRUP proof) were both
    titled "proof of 0 placement(s)"; the refutation's answer was one small bullet."""
    unknown, refuted = tmp_path / "unknown.html", tmp_path / "refuted.html"
    assert run(["check", str(PUZZLES / "stakd/solo.toml"), "--time-limit", "0.01", "--html", str(unknown),
                "--quiet"]) == 3
    assert _title(unknown.read_text()) == ("STAKD Elite: unknown: the time limit stopped the solver; "
                                           "nothing is claimed")
    assert run(["check", str(PUZZLES / "stakd/solo-4-impossible.toml"), "--html", str(refuted), "--quiet"]) == 1
    text = refuted.read_text()
    assert _title(text) == "STAKD Elite: not winnable: refuted (a DRUP proof, checked)"
    assert 'class="bad" data-answer="not winnable"' in text
    for page in (unknown.read_text(), text):
        assert "proof@1" not in page and CHECKED not in page and "placement(s)" not in page


def test_a_best_line_of_an_undecided_answer_is_not_called_shortest(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A report stopped by its time limit after a line was found: the title gives the bound, the line and the
    limit, and says the line is not known to be shortest."""
    assert run(["solve", str(PUZZLES / "strato/challenge-0.toml"), "--deal", "duo-3", "--json", "--quiet"]) == 0
    report = json.loads(capsys.readouterr().out)
    report.update(status="unknown", optimal=False, lower_bound=3, stopped_by="time")
    title = _title(record_page(report, "r.json"))
    assert title == (f"Strato: unknown: no winning line is shorter than 3 turns; best line found: "
                     f"{len(report['line'])} turns, not known to be shortest; stopped by the time limit")
    # SAT's refutations under assumptions reached the line's length, its certificate did not: the page said
    # "no line shorter than 5 turns; best line found: 5 turns, not known to be shortest"
    report.update(lower_bound=len(report["line"]))
    title = _title(record_page(report, "r.json"))
    assert title == (f"Strato: unknown: no winning line is shorter than {len(report['line'])} turns; best line "
                     f"found: {len(report['line'])} turns, shortest by the solver alone, not certified; stopped "
                     "by the time limit")


def test_a_seeded_deals_report_is_drawn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A deal dealt from a seed is named ``seed-N`` in its report, a name the puzzle file does not hold:
    ``view`` of the report once refused it (exit 2), and ``--html`` now draws that same report's page."""
    page, report = tmp_path / "seed.html", tmp_path / "seed.json"
    assert run(["solve", str(PUZZLES / "strato/challenge-0.toml"), "--deal", "5", "--players", "2",
                "--html", str(page), "--json", "--quiet"]) == 0
    report.write_text(capsys.readouterr().out)
    assert json.loads(report.read_text())["deal"] == "seed-5"
    assert run(["view", str(report), "--out", str(tmp_path / "view.html")]) == 0
    assert _title(page.read_text()).startswith("Strato: solved in ")
    assert _title((tmp_path / "view.html").read_text()) == _title(page.read_text())


def test_a_proof_title_claims_no_more_than_is_certified(records: dict[str, Path], tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """An A* record (its optimality an exhaustive search verify does not certify) was titled "proof of 5
    turn(s)": the title says "claimed shortest", and "(not certified)" under --verify; a certified record is
    "shortest" only under --verify."""
    astar = tmp_path / "astar.json"
    assert run(["solve", str(PUZZLES / "strato/challenge-0.toml"), "--deal", "duo-1", "--method", "astar",
                "--proof", str(astar), "--quiet"]) == 0
    assert run(["view", str(astar), "--out", str(tmp_path / "a.html")]) == 0
    assert _title((tmp_path / "a.html").read_text()) == "Strato: winning line of 5 turns, claimed shortest"
    assert run(["view", str(astar), "--verify", "--out", str(tmp_path / "b.html")]) == 3
    assert _title((tmp_path / "b.html").read_text()).endswith("claimed shortest (not certified)")
    assert run(["view", str(records["strato.json"]), "--verify", "--out", str(tmp_path / "c.html")]) == 0
    assert re.fullmatch(r"Strato: shortest winning line of \d+ turns \(certified\)",
                        _title((tmp_path / "c.html").read_text()))
    capsys.readouterr()


@pytest.mark.parametrize("puzzle", ["stratatak/lone-star.toml", "stakd/endgame-2p-lost.toml"])
def test_a_loss_of_player_1_is_named_as_player_2s_win(puzzle: str, tmp_path: Path) -> None:
    """Player 1 to move loses: the page once said the principal variation "ends the game without a win" (a
    draw, as read) and showed "play is over" in green; it now names the winner, not in green."""
    page = tmp_path / "p.html"
    assert run(["analyze", str(PUZZLES / puzzle), "--html", str(page), "--quiet"]) == 0
    text = page.read_text()
    assert "the principal variation ends with player 2 winning" in text
    assert "without a win" not in text
    assert re.search(r'<b data-status="over">play is over: player 2 wins</b>', text)
    assert 'class="ok" data-status="over"' not in text


class _Ended:
    """A game at its end with the given returns (and, optionally, stopped by an analysis horizon)."""

    def __init__(self, returns: tuple[float, ...], stopped: bool = False) -> None:
        self.values, self.stopped = returns, stopped

    def is_terminal(self, state: Any) -> bool:
        return True

    def returns(self, state: Any) -> tuple[float, ...]:
        return self.values

    def stopped_undecided(self, state: Any) -> bool:
        return self.stopped


def test_every_ending_is_named_from_every_players_return() -> None:
    from stratagem.views.records import ending

    assert ending(_Ended((1.0,)), None) == ("ends in a win", "a win", "ok")
    assert ending(_Ended((-1.0,)), None) == ("ends in a loss", "a loss", "bad")
    assert ending(_Ended((1.0, 1.0)), None)[0] == "ends in a win"  # a cooperative game: every player wins
    assert ending(_Ended((0.0, 0.0)), None) == ("ends in a draw", "a draw", "")
    assert ending(_Ended((-1.0, 1.0, -1.0)), None)[0] == "ends with player 2 winning"
    assert ending(_Ended((-3.0, -8.0)), None)[0] == "ends with player 1 winning (returns -3, -8)"
    assert ending(_Ended((-5.0, -5.0)), None)[0] == "ends in a tie (returns -5, -5)"
    stopped = ending(_Ended((0.0, 0.0), stopped=True), None)[0]
    assert "battle limit" in stopped and "draw" not in stopped.split("(")[0]


def test_a_stackattack_analysis_page_shows_the_mixes(tmp_path: Path) -> None:
    """analyze --html of a simultaneous round: the page held neither the mixes nor the expected returns of
    the text output, and a 0-move replay whose buttons did nothing."""
    page = tmp_path / "sa.html"
    assert run(["analyze", str(PUZZLES / "stackattack/2p-actions-3-turns.toml"), "--html", str(page),
                "--quiet"]) == 0
    text = page.read_text()
    for number in ("4213/5391", "1178/5391", "5182/5391", "209/5391", "-22153/5391", "-14.447", "-10.337"):
        assert number in text, number
    assert text.count('class="card strategy"') == 2 and text.count('<table class="mix">') == 2
    assert 'class="replay"' not in text and "<button" not in text
    assert "does not end the game" not in text


def test_a_stackattack_certificate_writes_whole_numbers_whole(tmp_path: Path) -> None:
    """Values once read "-8/1" and "0/1" where the text output says -8 and 0."""
    proof, page = tmp_path / "sa3.json", tmp_path / "sa3.html"
    assert run(["analyze", str(PUZZLES / "stackattack/3p-actions-2-turns.toml"), "--proof", str(proof),
                "--quiet"]) == 0
    assert run(["view", str(proof), "--out", str(page)]) == 0
    text = page.read_text()
    assert "value -8 (" in text and "part, value -8</h3>" in text
    assert not re.search(r"(?<![\d/])-?\d+/1(?![\d])", text)


def test_evidence_names_commands_as_code(records: dict[str, Path], tmp_path: Path) -> None:
    """The evidence's words once showed markdown's backticks as they are."""
    page = tmp_path / "p.html"
    assert run(["view", str(records["strato.json"]), "--out", str(page)]) == 0
    text = page.read_text()
    assert "`" not in text and "certificate <code>stratagem verify</code> recomputes" in text


def test_a_record_that_does_not_replay_is_shown_invalid_under_verify(records: dict[str, Path], tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """With --verify the page is verify's report: a line that does not replay made view exit 2 without a page
    while verify said invalid (1); the page now says where the replay breaks, and view exits 1."""
    data = json.loads(records["strato.json"].read_text())
    data["line"]["moves"][1] = data["line"]["moves"][0]  # readable, but the line breaks there or soon after
    broken, page = tmp_path / "broken.json", tmp_path / "broken.html"
    broken.write_text(json.dumps(data))
    assert run(["view", str(broken), "--verify", "--out", str(page)]) == 1
    err = capsys.readouterr().err
    found = re.search(r"line\.moves\[(\d+)\]", err)
    assert err.count("\n") == 1 and found is not None and int(found[1]) >= 1
    text = page.read_text()
    assert _title(text).endswith("(invalid)") and 'data-verdict="invalid"' in text
    assert f"the line does not replay:</span> {found[0]}" in text and CHECKED not in text
    assert f'data-turns="{found[1]}"' in text  # the replay goes as far as the moves do


def _tree(width: int, depth: int, again: int = 0) -> dict[str, Any]:
    """A proof tree of two halves: the first a full ``width``-ary tree ``depth`` deep (its nodes numbered
    depth-first from 0), the second a root with three replies, the last of them node ``again`` of the first
    half (a node met twice)."""
    nodes: list[dict[str, Any]] = []

    def grow(level: int) -> int:
        ident = len(nodes)
        nodes.append({"id": ident, "to_move": level % 2, "value": 1, "state": f"s{ident}", "children": []})
        if level < depth:
            nodes[ident]["children"] = [{"move": f"m{k}", "node": grow(level + 1)} for k in range(width)]
        return ident

    first = grow(0)
    second = len(nodes)
    nodes.append({"id": second, "to_move": 1, "value": 1, "state": "t", "children": []})
    leaves = [grow(depth) for _ in range(2)]
    nodes[second]["children"] = [{"move": f"r{k}", "node": n} for k, n in enumerate([*leaves, again])]
    return {"nodes": nodes, "halves": [{"side": "at least", "plies": depth, "root": first},
                                       {"side": "at most", "plies": 1, "root": second}]}


def test_a_large_tree_is_drawn_nearest_its_roots_and_links_its_references(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the drawing budget the walk once drew the first half depth-first to the end of the budget, so
    the second half's replies were "not drawn" at its top, and a node met again read "(the position of node
    N, drawn above)" with no N shown anywhere, even when N was one of those not drawn."""
    monkeypatch.setattr(prooftree, "MAX_DRAWN", 7)
    html = prooftree.tree_html(_tree(3, 4))  # 121 nodes in the first half, 3 in the second
    second = html.split("&ldquo;at most&rdquo;")[1]
    assert second.count('<details class="node"') == 3  # the second half's root and both of its leaves
    drawn = set(re.findall(r'<details class="node" data-node="(\d+)" id="node-\1"', html))
    assert len(drawn) == 7  # both roots, then the first half's 3 replies and the second's 2 leaves
    assert re.findall(r'href="#node-(\d+)"', second) == ["0"] and "drawn above" in second
    assert html.count("(not drawn") == 9  # the first half's third level, where the cut falls
    cut = prooftree.tree_html(_tree(3, 4, again=5))  # a reference to a node that is not drawn
    assert "drawn above" not in cut and 'href="#node-5"' not in cut and cut.count("(not drawn") == 10
    monkeypatch.undo()
    unbudgeted = prooftree.tree_html(_tree(2, 2))
    assert "not drawn" not in unbudgeted and len(re.findall(r'<details class="node"', unbudgeted)) == 10


def test_the_replay_names_its_steps_and_a_tree_link_opens_its_target(browser: Any, records: dict[str, Path],
                                                                     tmp_path: Path) -> None:
    """The replay's status said "turn 6 of 6" next to "Placement 6"; a link to a node inside a folded branch
    of a proof tree now opens the branch."""
    from selenium.webdriver.common.keys import Keys

    page = tmp_path / "stakd.html"
    assert run(["view", str(records["stakd.json"]), "--out", str(page)]) == 0
    browser.get(page.as_uri())
    browser.find_element("css selector", ".replay").send_keys(Keys.END)  # a replay takes keys when focused
    steps = len(json.loads(records["stakd.json"].read_text())["line"]["moves"])
    assert browser.find_element("css selector", ".replay .where").text == f"placement {steps} of {steps}"
    tree = tmp_path / "tree.html"
    tree.write_text(document("tree", prooftree.tree_html(_tree(2, 4, again=3))))  # node 3: three levels down
    browser.get(tree.as_uri())
    target = browser.find_element("id", "node-3")
    assert not target.is_displayed()  # its branch is folded
    browser.find_element("css selector", ".tree a[href='#node-3']").click()
    assert target.is_displayed()
