"""Big proof and policy trees on screen and on paper (QA 61).

- Printed, every fold of a tree was opened: a 2,500-node proof tree (Card Clash's square in seven)
  printed 140 A4 pages. A tree now opens level by level only while it stays within ``PRINT_LINES``
  lines, and a printed note says how many lines it left folded and how to print them all ("Open every
  node", then print), which still prints the whole tree.
- A tree of up to 400 nodes drew each node's position inside the node, some 380 px before its replies,
  so a 400-node tree opened in full was 150,000 px long: the drawing is now folded under the node's line.
- Buttons above a tree open one level more, every node, fold it back to two levels, and show or fold
  every position; they are hidden without scripts, where they would do nothing.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any

from pagesupport import browser_fixture  # noqa: F401 (the fixture)

from stratagem.views.page import PRINT_LINES, document
from stratagem.views.prooftree import dag_html, tree_html


def _wide(depth: int, fan: int) -> dict[int, dict[str, Any]]:
    """A complete tree of ``fan`` replies a node, ``depth`` levels below its root (node 0)."""
    nodes: dict[int, dict[str, Any]] = {}
    layer, counter = [0], 1
    for level in range(depth + 1):
        below = []
        for node in layer:
            children = list(range(counter, counter + fan)) if level < depth else []
            counter += len(children)
            nodes[node] = {"state": f"s{node}", "to_move": level % 2, "value": 1,
                           "children": [{"move": f"m{child}", "node": child} for child in children]}
            below += children
        layer = below
    return nodes


def _page(tmp_path: Path, body: str, name: str = "tree.html") -> Path:
    page = tmp_path / name
    page.write_text(document("tree", body), encoding="utf-8")
    return page


#: The lines of a tree (a node, or a link to one) a reader sees: every fold above them open.
SHOWN = ("return Array.prototype.filter.call(document.querySelectorAll('.trees details.node, .trees .leaf'), "
         "function (e) { return !e.parentElement.closest('details:not([open])'); }).length;")
NOTES = ("return Array.prototype.map.call(document.querySelectorAll('.print-note'), "
         "function (n) { return n.textContent; });")


def _print(browser: Any, event: str) -> None:
    browser.execute_script(f"window.dispatchEvent(new Event('{event}'));")


def test_a_big_tree_prints_its_top_and_says_how_to_print_it_all(browser: Any, tmp_path: Path) -> None:
    """A tree of 3,280 lines printed all of them; it prints its first levels within PRINT_LINES lines, a
    note says how many it left folded, and after "Open every node" the whole tree prints, with no note."""
    nodes = _wide(7, 3)
    page = _page(tmp_path, dag_html([("<h2>the tree</h2>", 0)], nodes, budget=len(nodes)))
    browser.get(page.as_uri())
    before = browser.execute_script(SHOWN)
    _print(browser, "beforeprint")
    printed = browser.execute_script(SHOWN)
    assert before < printed <= PRINT_LINES  # opened further, within the budget: 1+3+...+3^5 = 364 lines
    assert printed == sum(3 ** k for k in range(6))
    notes = browser.execute_script(NOTES)
    assert notes == [f"Printed: {printed} of the tree\u2019s {len(nodes):,} lines, its first 6 levels and the folds "
                     f"opened on screen; {len(nodes) - printed:,} are folded. To print every line, press \u201cOpen "
                     "every node\u201d above the tree on screen, then print."]
    _print(browser, "afterprint")
    assert browser.execute_script(SHOWN) == before and browser.execute_script(NOTES) == []
    browser.find_element("css selector", "button[data-tree='all']").click()
    _print(browser, "beforeprint")
    assert browser.execute_script(SHOWN) == len(nodes) and browser.execute_script(NOTES) == []
    _print(browser, "afterprint")


def test_a_2500_node_tree_prints_on_a_dozen_pages_not_140(browser: Any, tmp_path: Path) -> None:
    """The real print (Chromium's PDF, A4): a tree of 2,500 drawn nodes printed 140 pages as square in
    seven's did; within PRINT_LINES lines it takes at most some 15."""
    nodes = _wide(7, 3)
    page = _page(tmp_path, dag_html([("<h2>the tree</h2>", 0)], nodes))
    browser.get(page.as_uri())
    a4 = {"paperWidth": 8.27, "paperHeight": 11.69}
    pdf = base64.b64decode(browser.execute_cdp_cmd("Page.printToPDF", a4)["data"])
    pages = len(re.findall(rb"/Type\s*/Page\b", pdf))
    assert 2 <= pages <= 15, pages
    assert browser.execute_script(NOTES) == []  # the note is gone after the printing


def test_a_small_tree_still_prints_every_node(browser: Any, tmp_path: Path) -> None:
    """A tree within the budget prints whole, as before, with no note."""
    nodes = _wide(3, 3)
    page = _page(tmp_path, dag_html([("<h2>the tree</h2>", 0)], nodes))
    browser.get(page.as_uri())
    _print(browser, "beforeprint")
    assert browser.execute_script(SHOWN) == len(nodes) and browser.execute_script(NOTES) == []
    _print(browser, "afterprint")


def test_a_drawn_position_is_folded_under_its_node() -> None:
    """A node's drawing came before its replies, 380 px a node opened; it is now in its own fold, closed."""
    nodes = [{"id": k, "state": f"s{k}", "to_move": 0, "value": 1,
              "children": [{"move": f"m{k}", "node": k + 1}] if k < 3 else []} for k in range(4)]
    page = tree_html({"nodes": nodes, "halves": [{"side": "at least", "root": 0, "plies": 3}]},
                     draw=lambda state: f"<svg class=\"pic\">{state}</svg>")
    folds = re.findall(r'<details class="pos"><summary>position</summary><svg class="pic">(s\d)</svg></details>', page)
    assert folds == ["s0", "s1", "s2"]  # the leaf's drawing is its node's only content, as before
    assert '<svg class="pic">s3</svg></details>' in page


def test_the_tree_buttons_open_and_fold(browser: Any, tmp_path: Path) -> None:
    """One level more, every node, two levels again, every position shown and folded; the print note
    says how to print the positions folded on screen."""
    nodes = {k: {**node, "id": k} for k, node in _wide(4, 2).items()}
    body = tree_html({"nodes": list(nodes.values()), "halves": [{"side": "at least", "root": 0, "plies": 4}]},
                     draw=lambda state: f"<p class=\"pic\">{state}</p>")
    browser.get(_page(tmp_path, body).as_uri())
    assert browser.execute_script(SHOWN) == 7  # the first two levels open: three levels of lines

    def press(name: str) -> None:
        browser.find_element("css selector", f"button[data-tree='{name}']").click()

    def pictures() -> int:
        return len([p for p in browser.find_elements("css selector", ".pic") if p.is_displayed()])

    press("deeper")
    assert browser.execute_script(SHOWN) == 15
    press("all")
    assert browser.execute_script(SHOWN) == len(nodes)
    assert pictures() == 0
    press("positions")
    assert pictures() == len(nodes)
    press("nopositions")
    assert pictures() == 0
    press("top")
    assert browser.execute_script(SHOWN) == 7
    _print(browser, "beforeprint")
    assert browser.execute_script(NOTES) == ["Positions print where they are open on screen (\u201cShow every "
                                             "position\u201d opens them all)."]
    _print(browser, "afterprint")


def test_without_scripts_the_tree_buttons_are_hidden(browser: Any, tmp_path: Path) -> None:
    """The buttons need the script: without it they are not shown, and the tree is folded as drawn."""
    page = _page(tmp_path, dag_html([("<h2>the tree</h2>", 0)], _wide(3, 2)))
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(page.as_uri())
        assert not browser.find_element("css selector", ".tree-tools").is_displayed()
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    browser.get(page.as_uri())
    assert browser.find_element("css selector", ".tree-tools").is_displayed()
