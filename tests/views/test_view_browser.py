"""The pages in a real browser (headless Chromium): a replay steps to its last turn with the winning row
marked and the move list equal to the record's, no page logs a console error, a screenshot has the
window's size and is not blank, and a sweep report loads with the network switched off.

One browser for the module (:func:`conftest.browser`); the tests skip where no browser is installed and
fail instead under ``STRATAGEM_REQUIRE_BROWSER=1`` (CI).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from pagesupport import ROOT, WINDOW, browser_fixture, records_fixture  # noqa: F401 (the fixtures)

from stratagem.cli.main import run


def _page(record: Path) -> Path:
    page = record.with_suffix(".html")
    if not page.exists():
        assert run(["view", str(record), "--out", str(page)]) == 0
    return page


def _open(browser: Any, page: Path) -> None:
    browser.get_log("browser")  # drop what earlier pages logged
    browser.get(page.as_uri())


def _errors(browser: Any) -> list[str]:
    return [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]


def _at(browser: Any) -> int:
    return int(browser.find_element("css selector", ".replay").get_attribute("data-at"))


def _visible_turn(browser: Any) -> Any:
    shown = [s for s in browser.find_elements("css selector", ".replay .turn") if s.is_displayed()]
    assert len(shown) == 1
    return shown[0]


def test_replay_steps_to_the_winning_turn(browser: Any, records: dict[str, Path]) -> None:
    """End goes to the last turn: the goal row is marked there, the game won, the moves are the record's."""
    from selenium.webdriver.common.keys import Keys

    record = json.loads(records["strato.json"].read_text())
    moves = record["line"]["moves"]
    _open(browser, _page(records["strato.json"]))
    assert _at(browser) == 0
    listed = [li.get_attribute("data-move") for li in browser.find_elements("css selector", "ol.moves li[data-move]")]
    assert listed == moves
    start = _visible_turn(browser)
    assert not start.find_elements("css selector", "[data-goal='met']")
    replay = browser.find_element("css selector", ".replay")  # it takes the keys while it has the focus
    replay.send_keys(Keys.ARROW_RIGHT)
    assert _at(browser) == 1
    replay.send_keys(Keys.END)
    assert _at(browser) == len(moves)
    last = _visible_turn(browser)
    assert last.get_attribute("data-turn") == str(len(moves))
    assert last.find_elements("css selector", "g.row[data-goal='met']"), "the winning row is not marked"
    assert last.find_element("css selector", "[data-status]").get_attribute("data-status") == "won"
    assert last.find_elements("css selector", "g.card[data-mark='played']"), "the last move is not highlighted"
    current = browser.find_element("css selector", "ol.moves li.current")
    assert current.get_attribute("data-move") == moves[-1]
    replay.send_keys(Keys.ARROW_LEFT)
    assert _at(browser) == len(moves) - 1
    browser.find_element("css selector", "button[data-go='first']").click()
    assert _at(browser) == 0
    browser.find_element("css selector", "button[data-go='next']").click()
    assert _at(browser) == 1
    browser.find_element("css selector", "button[data-go='prev']").click()
    assert _at(browser) == 0
    browser.find_elements("css selector", "ol.moves li")[2].click()
    assert _at(browser) == 2
    assert _errors(browser) == []


@pytest.mark.parametrize("name", ["strato.json", "stakd.json", "tree.json", "matrices.json", "policy.json"])
def test_pages_log_no_console_error(browser: Any, records: dict[str, Path], name: str) -> None:
    """Every kind of page loads and runs its script without a console error (a CSP violation is one)."""
    _open(browser, _page(records[name]))
    assert browser.execute_script("return document.readyState") == "complete"
    assert browser.find_element("tag name", "h1").text
    assert _errors(browser) == []


def test_screenshot_has_the_window_size_and_is_not_blank(browser: Any, records: dict[str, Path]) -> None:
    """A screenshot of the STAKD replay at its end: the window's size, and many colours, not one."""
    image_module = pytest.importorskip("PIL.Image")
    from selenium.webdriver.common.keys import Keys

    _open(browser, _page(records["stakd.json"]))
    browser.find_element("css selector", ".replay").send_keys(Keys.END)
    image = image_module.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB")
    assert image.size == WINDOW
    colours = image.getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 50, "the screenshot is (nearly) one colour"
    background = max(colours)[1] if colours else None
    covered = sum(count for count, colour in colours if colour != background) if colours else image.size[0]
    assert covered > 0.03 * WINDOW[0] * WINDOW[1]


def test_report_page_loads_with_the_network_off(browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sweep report's page, opened offline: it loads whole, asks for no resource, logs no error."""
    monkeypatch.chdir(ROOT)  # the records name their puzzles relative to the repository
    results = tmp_path / "results.jsonl"  # records of the shipped sweep: deals of challenge 0 and 1
    shipped = (ROOT / "results/strato-sweep/results.jsonl").read_text().splitlines()
    results.write_text("\n".join(shipped[:20] + shipped[-20:]) + "\n")
    assert run(["report", str(results), "--out", str(tmp_path / "report"), "--html", "--no-plots"]) == 0
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0,
                                                                 "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        _open(browser, tmp_path / "report" / "report.html")
        assert browser.execute_script("return document.readyState") == "complete"
        assert len(browser.find_elements("css selector", "svg.chart")) >= 3, "the charts are not drawn"
        assert browser.find_elements("css selector", ".replay"), "no deal is replayed"
        assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
        table = browser.find_element("css selector", "table.sortable")
        table.find_elements("css selector", "th")[0].click()
        assert table.find_element("css selector", "th").get_attribute("aria-sort") == "ascending"
        assert _errors(browser) == []
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0,
                                                                     "downloadThroughput": -1, "uploadThroughput": -1})


def test_a_replay_opens_at_the_turn_its_address_names(browser: Any, records: dict[str, Path]) -> None:
    """``page.html#turn=N`` opens the replay at turn N (a link to a position), clamped to the line."""
    page = _page(records["strato.json"])
    browser.get(page.as_uri() + "#turn=2")
    assert _at(browser) == 2
    browser.get("about:blank")
    browser.get(page.as_uri() + "#turn=99")
    assert _at(browser) == int(browser.find_element("css selector", ".replay").get_attribute("data-turns"))
