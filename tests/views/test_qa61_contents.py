"""The reports' contents at the top (QA 61): with scripts off a sweep report shows every step of its fifteen
replays, 75,000 px, and the difficulty cards' page is six cards one under the other (13,000 px), with no
way to go to a part but scrolling. Each page now opens with links to its parts (the sweep report's
sections and each replay; the difficulty page's cards), and each link lands on its part."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pagesupport import ROOT, browser_fixture  # noqa: F401 (the fixture)

from stratagem.cli.main import run


def _contents(page: str) -> list[list[str]]:
    """The targets of each list of contents on the page, in order."""
    return [re.findall(r'href="#([^"]+)"', nav) for nav in re.findall(r"<nav class=\"toc\".*?</nav>", page)]


def _sweep_page(tmp_path: Path) -> str:
    shipped = (ROOT / "results" / "strato-sweep" / "results.jsonl").read_text().splitlines()
    results = tmp_path / "results.jsonl"
    results.write_text("\n".join(shipped[:12]) + "\n")
    assert run(["report", str(results), "--out", str(tmp_path / "rep"), "--html", "--no-plots", "--quiet"]) == 0
    return (tmp_path / "rep" / "report.html").read_text()


def test_a_sweep_report_lists_its_parts_and_replays_at_the_top(tmp_path: Path) -> None:
    page = _sweep_page(tmp_path)
    parts, replays = _contents(page)
    assert parts == ["solvable", "lengths", "undecided", "times", "hardest", "easiest", "deal-replays"]
    assert replays and replays == list(dict.fromkeys(re.findall(r'<section class="card" id="([^"]+)"', page)))
    ids = set(re.findall(r' id="([^"]+)"', page))
    assert set(parts + replays) <= ids
    assert page.index("<nav") < page.index("<h2")  # at the top, before the first part


def test_the_difficulty_page_lists_its_cards_at_the_top(tmp_path: Path) -> None:
    from test_difficulty_browser import _records

    results = tmp_path / "hidden.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in _records()))
    assert run(["report", str(results), "--out", str(tmp_path / "card"), "--html", "--quiet"]) == 0
    page = (tmp_path / "card" / "report.html").read_text()
    assert _contents(page) == [["card-challenge-0-solo", "card-challenge-0-2-players"]]
    assert re.findall(r'<section class="card" id="([^"]+)"><h2>([^<]+)</h2>', page) == [
        ("card-challenge-0-solo", "Challenge 0, solo"), ("card-challenge-0-2-players", "Challenge 0, 2 players")]
    assert page.index("<nav") < page.index("<h2")


def test_without_scripts_a_contents_link_goes_to_its_replay(browser: Any, tmp_path: Path) -> None:
    """Scripts off (the replays at their longest), the last replay's link scrolls the page to it."""
    page = _sweep_page(tmp_path)
    last = _contents(page)[1][-1]
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get((tmp_path / "rep" / "report.html").as_uri())
        browser.find_element("css selector", f"nav.toc a[href='#{last}']").click()
        top = browser.execute_cdp_cmd("Runtime.evaluate", {"expression": f"document.getElementById('{last}')"
                                                           ".getBoundingClientRect().top", "returnByValue": True})
        assert abs(top["result"]["value"]) <= 1  # the card at the top of the window
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
