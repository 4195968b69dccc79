"""Pages for every reader (QA findings 4, 5, 8 and 11): the keyboard, a text alternative for each drawing,
narrow screens, and box plots that say what their whiskers are.

- The replay script took the arrow keys, Home and End for the whole document, so on a report of several
  replays ArrowDown and End stepped the first replay far off screen instead of scrolling; the move list
  and the sortable headers took only clicks. A replay now takes its keys while the focus is inside it,
  and the move list's steps and the headers are buttons.
- Every board was an image labelled "the rows on the table" / "layer 0" / "the battlefield": its label now
  says the position (as the text output draws it, or in the game's notation), and a two-player STAKD
  table has a legend and an owner's number on each piece, dark on its light fill.
- At 400 px the report pages scrolled sideways and the solvable chart's text was 3 px: a table or a chart
  now scrolls in a box of its own, the chart at its own size.
- The SVG box plot's whiskers were min to max while the PNG's are matplotlib's 1.5 IQR: drawn the same
  way now, and said under the chart.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pagesupport import PUZZLES, WINDOW, browser_fixture, records_fixture  # noqa: F401 (the fixtures)
from rich.text import Text

from stratagem.cli.main import run
from stratagem.loading import load
from stratagem.solvers.replay import replay
from stratagem.views.charts import BOX_CAPTION, bars, boxes, whiskers
from stratagem.views.page import document, replay_frame, table
from stratagem.views.strato import row_text, table_text


def _write(tmp_path: Path, name: str, body: str) -> Path:
    page = tmp_path / name
    page.write_text(document(name, body))
    return page


def _two_replays() -> str:
    """Two replays of three panels, a page's height apart (a sweep report's several replays)."""
    def one(ident: str) -> str:
        return replay_frame("2 turns", [f"<p>{ident} {k}</p>" for k in range(3)], ["a1", "b2"], ident)
    spacer = "<div style=\"height: 3000px\"></div>"
    return one("first") + spacer + one("second") + spacer


def _at(browser: Any, ident: str) -> int:
    return int(browser.find_element("id", ident).get_attribute("data-at"))


def _press(browser: Any, *keys: str) -> None:
    """Keys to whatever has the focus, as a reader types them."""
    from selenium.webdriver.common.action_chains import ActionChains

    chain = ActionChains(browser)
    for key in keys:
        chain.send_keys(key)
    chain.perform()


def _tab_to(browser: Any, found: str, most: int = 40) -> Any:
    """Tab until the focused element matches ``found`` (a script expression of ``e``); that element."""
    from selenium.webdriver.common.keys import Keys

    for _ in range(most):
        _press(browser, Keys.TAB)
        if browser.execute_script(f"var e = document.activeElement; return !!({found});"):
            return browser.switch_to.active_element
    raise AssertionError(f"Tab never reached {found}")


def test_a_replay_takes_the_keys_only_while_it_has_the_focus(browser: Any, tmp_path: Path) -> None:
    """With the focus on the page, ArrowRight and End step no replay (End goes to the page's end); with the
    focus on the second replay, its keys step it and not the first; the focused replay is outlined."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.wait import WebDriverWait

    browser.get(_write(tmp_path, "two.html", _two_replays()).as_uri())
    assert browser.execute_script("return document.activeElement === document.body")
    _press(browser, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert (_at(browser, "first"), _at(browser, "second")) == (0, 0)
    _press(browser, Keys.END)
    assert (_at(browser, "first"), _at(browser, "second")) == (0, 0)
    WebDriverWait(browser, 5).until(lambda b: b.execute_script("return window.scrollY") > 3000,
                                    "End did not scroll the page")
    second = browser.find_element("id", "second")
    browser.execute_script("arguments[0].focus()", second)
    _press(browser, Keys.ARROW_RIGHT)
    assert (_at(browser, "first"), _at(browser, "second")) == (0, 1)
    assert second.find_element("css selector", ".where").text == "turn 1 of 2"
    _press(browser, Keys.END)
    assert _at(browser, "second") == 2
    _press(browser, Keys.HOME)
    assert _at(browser, "second") == 0
    outline = browser.execute_script("var s = getComputedStyle(arguments[0]); return [s.outlineStyle, s.outlineWidth]",
                                     second)
    assert outline[0] != "none" and float(outline[1].rstrip("px")) >= 2, outline
    _press(browser, Keys.TAB)  # to the replay's first button: its keys are still the replay's
    assert browser.switch_to.active_element.get_attribute("data-go") == "first"
    _press(browser, Keys.ARROW_RIGHT)
    assert (_at(browser, "first"), _at(browser, "second")) == (0, 1)


def test_tab_reaches_a_move_and_enter_selects_it(browser: Any, records: dict[str, Path], tmp_path: Path) -> None:
    """A Strato record's page: Tab goes to the replay, its buttons, then each step of the move list; Enter or
    Space on a step shows it, marked as the current step; the status is read out as it changes."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    page = tmp_path / "strato.html"
    assert run(["view", str(records["strato.json"]), "--out", str(page)]) == 0
    moves = json.loads(records["strato.json"].read_text())["line"]["moves"]
    browser.get(page.as_uri())
    assert _tab_to(browser, "e.classList.contains('replay')").get_attribute("tabindex") == "0"
    step = _tab_to(browser, "e.parentElement && e.parentElement.getAttribute('data-turn') === '2'")
    assert step.tag_name == "button" and step.text == moves[1]
    _press(browser, Keys.ENTER)
    assert _at(browser, "replay") == 2
    assert step.get_attribute("aria-current") == "step"
    current = browser.find_element("css selector", "ol.moves li.current")
    assert current.get_attribute("data-turn") == "2"
    status = browser.find_element("css selector", ".replay .where")
    assert status.get_attribute("aria-live") == "polite" and status.text == f"turn 2 of {len(moves)}"
    ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    _press(browser, Keys.SPACE)  # step 1, back from step 2: Space presses it too
    assert _at(browser, "replay") == 1
    assert step.get_attribute("aria-current") is None


def test_tab_reaches_a_header_and_enter_sorts(browser: Any, tmp_path: Path) -> None:
    """A sortable table's headers are buttons: Enter sorts by the column, again the other way; Space too;
    ``aria-sort`` says how the table is sorted."""
    from selenium.webdriver.common.keys import Keys

    rows = [["b", "2"], ["a", "10"], ["c", "1"]]
    browser.get(_write(tmp_path, "table.html", table(["name", "count"], rows, numeric={1})).as_uri())

    def column(k: int) -> list[str]:
        return [r.find_elements("css selector", "td")[k].text
                for r in browser.find_elements("css selector", "tbody tr")]

    heads = browser.find_elements("css selector", "th")
    name = _tab_to(browser, "e.parentElement && e.parentElement.tagName === 'TH'")
    assert name.tag_name == "button" and name.text == "name"
    _press(browser, Keys.ENTER)
    assert heads[0].get_attribute("aria-sort") == "ascending" and column(0) == ["a", "b", "c"]
    _press(browser, Keys.TAB)
    assert browser.switch_to.active_element.text == "count"
    _press(browser, Keys.SPACE)
    assert heads[0].get_attribute("aria-sort") is None and heads[1].get_attribute("aria-sort") == "ascending"
    assert column(1) == ["1", "2", "10"]  # numbers sort as numbers
    _press(browser, Keys.ENTER)
    assert heads[1].get_attribute("aria-sort") == "descending" and column(1) == ["10", "2", "1"]


def test_a_replay_is_focusable_and_its_status_is_live() -> None:
    """Without a browser: the replay's attributes, and a button per step with the start current."""
    html = replay_frame("2 turns", ["<p>0</p>", "<p>1</p>", "<p>2</p>"], ["a1", "b2"])
    assert re.search(r'<div class="replay"[^>]* tabindex="0" role="group" aria-label="replay, 2 turns"', html)
    assert '<span class="where" aria-live="polite">start</span>' in html
    assert re.findall(r'<li[^>]*><button type="button"( aria-current="step")?>([^<]*)</button></li>', html) == [
        (' aria-current="step"', "start"), ("", "a1"), ("", "b2")]


def test_a_strato_board_says_its_rows_and_hands(records: dict[str, Path], tmp_path: Path) -> None:
    """Each table's label holds its rows as ``stratagem show`` draws them (without the dots of free
    places), the goal rows said; each hand's label holds its cards."""
    from stratagem.cli.render import draw_rows

    record = json.loads(records["strato.json"].read_text())
    deal = load(PUZZLES / "strato/challenge-0.toml", "duo-3")
    states = replay(deal.game, deal.start, record["line"]["moves"]).states
    for state in (states[0], states[-1]):
        shown = [Text.from_markup(line).plain.split(None, 2)[2] for line in draw_rows(state, deal.challenge)]
        assert [row_text(row) for row in state.rows] == [
            " ".join(t for t in line.split() if t not in ("·", "✓")) for line in shown]
    assert "meets the goal" in table_text(states[-1], deal.challenge)
    assert "meets the goal" not in table_text(states[0], deal.challenge)
    page = tmp_path / "strato.html"
    assert run(["view", str(records["strato.json"]), "--out", str(page)]) == 0
    html = page.read_text()
    assert "the rows on the table" not in html
    start = re.findall(r'<section class="turn" data-turn="0">(.*?)</section>', html, re.S)[0]
    labels = re.findall(r'role="img" aria-label="([^"]*)"', start)
    assert labels[0] == table_text(states[0], deal.challenge)
    assert f"player 1 (to move): {' '.join(states[0].hands[0])}" in labels


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_a_two_player_stakd_table_has_a_legend_and_readable_owners(tmp_path: Path) -> None:
    """Whose piece is whose: a legend, each piece's owner as a number on it and in its ``<title>``, its
    letters dark enough on its fill (WCAG's 4.5:1); each layer's label lists the pieces it draws."""
    page = tmp_path / "stakd.html"
    assert run(["analyze", str(PUZZLES / "stakd/endgame-2p-bomber.toml"), "--html", str(page)]) == 0
    html = page.read_text()
    assert "player 1: red, marked 1" in html and "player 2: blue, marked 2" in html
    layers = re.findall(r'<svg [^>]*class="layer"[^>]*aria-label="([^"]*)">(.*?)</svg>', html, re.S)
    assert layers
    for label, drawing in layers:
        assert re.match(r"layer \d+, \d+ piece\(s\): ", label), label
        pieces = re.findall(r'<g class="piece" data-kind="(\w)"[^>]* data-owner="(\d)"><title>([^<]*)</title>'
                            r'<rect [^>]*fill="(#\w+)"[^>]*/><text [^>]*fill="(#\w+)">\1<tspan[^>]*>\2</tspan></text>',
                            drawing)
        assert len(pieces) == drawing.count('class="piece"') > 0
        listed = re.findall(r"(\w)@[\d,]+[a-z]* of player (\d)", label)
        assert listed == [(kind, owner) for kind, owner, *_ in pieces]
        for kind, owner, title, fill, ink in pieces:
            assert title.endswith(f"of player {owner}") and f" {kind}@" in title
            assert _contrast(fill, ink) >= 4.5, (title, fill, ink)


def test_a_card_clash_battlefield_says_its_stacks(tmp_path: Path) -> None:
    """The battlefield's label lists each stack drawn, at its cell, its cards top first in the notation."""
    from stratagem.models.cardclash.battlefield import parse_stack

    page = tmp_path / "cc.html"
    assert run(["analyze", str(PUZZLES / "cardclash/square-in-3.toml"), "--html", str(page)]) == 0
    fields = re.findall(r'<svg [^>]*class="battlefield"[^>]*aria-label="([^"]*)">(.*?)</svg>', page.read_text(), re.S)
    assert fields
    for label, drawing in fields:
        assert label.startswith("the battlefield")
        said = dict(part.split(" ") for part in label.split(": ", 1)[1].split("; ")) if ": " in label else {}
        drawn = dict(re.findall(r'<g class="stack" data-cell="([^"]*)" data-height="(\d+)"', drawing))
        assert {cell: str(len(parse_stack(stack))) for cell, stack in said.items()} == drawn


def test_box_plots_draw_matplotlibs_whiskers_and_say_so() -> None:
    """The whiskers end where matplotlib's box plot (the report's PNG) ends them, the values beyond are
    circles, and the chart says what its whiskers are."""
    cbook = pytest.importorskip("matplotlib.cbook")
    values = sorted([0.01, 0.02, 0.02, 0.03, 0.05, 0.06, 0.08, 0.1, 0.2, 0.3, 4.0, 60.0, 60.0])
    stats = cbook.boxplot_stats(values)[0]
    q1, q3 = stats["q1"], stats["q3"]
    assert whiskers(values, q1, q3) == pytest.approx((stats["whislo"], stats["whishi"]))
    chart = boxes("t", {"auto": values}, limits=(60,))
    assert len(stats["fliers"]) == 3 and chart.count('<circle class="outlier"') == 2  # 60 s twice: one circle
    assert BOX_CAPTION in chart and "1.5 IQR" in BOX_CAPTION
    flat = [1.0, 1.0, 1.0, 1.0]  # no spread: the whiskers are the box
    assert whiskers(flat, 1.0, 1.0) == (1.0, 1.0) and "outlier" not in boxes("t", {"a": flat})


def test_wide_tables_and_charts_scroll_in_their_own_box_at_400_px(browser: Any, tmp_path: Path) -> None:
    """At 400 px a table of many columns and a chart of many groups scroll sideways in their boxes; the page
    does not, and the chart is drawn at its own size (its text was 3 px when scaled to the screen)."""
    headers = [f"column {k}" for k in range(14)]
    groups = [f"group {k}" for k in range(16)]
    chart = bars("many groups", groups, [("deals", "#4c6ef5", [float(k) for k in range(16)])])
    page = _write(tmp_path, "wide.html", chart + table(headers, [[f"cell {k}" for k in range(14)]] * 3))
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 400, "height": 800,
                                                                  "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.get(page.as_uri())
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 400
        svg = browser.find_element("css selector", "svg.chart")
        assert svg.rect["width"] == pytest.approx(float(svg.get_attribute("width")), abs=1)
        scrolling = "return arguments[0].scrollWidth > arguments[0].clientWidth"
        boxes_ = browser.find_elements("css selector", ".scroll")
        assert len(boxes_) == 2 and all(browser.execute_script(scrolling, box) for box in boxes_)
    finally:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": WINDOW[0], "height": WINDOW[1],
                                                                      "deviceScaleFactor": 1, "mobile": False})
