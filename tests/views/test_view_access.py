"""Pages for every reader (QA finding 4): the keyboard.

- The replay script took the arrow keys, Home and End for the whole document, so on a report of several
  replays ArrowDown and End stepped the first replay far off screen instead of scrolling; the move list
  and the sortable headers took only clicks. A replay now takes its keys while the focus is inside it,
  and the move list's steps and the headers are buttons.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pagesupport import browser_fixture, records_fixture  # noqa: F401 (the fixtures)

from stratagem.cli.main import run
from stratagem.views.page import document, replay_frame, table


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
