"""Pages for readers the earlier passes did not consider (QA 60): low vision, colour blindness, no scripts,
paper, a phone, and a screen reader's list of headings.

- Contrast: Wind's and Sun's card letters were 2.9:1 on their cards and their tornadoes' white letters
  3.3-3.4:1; Card Clash's yellow, green and red letters 2.5-3.8:1; the move list's current step white on
  orange 4.3:1. Every such pair is now at least 4.5:1 (WCAG 2.1 AA for text of any size).
- Colour alone: a Card Clash card said whose it was by colour only (red and green players' cards look
  alike with deuteranopia); the solvable chart's solvable and unsolvable bars were green and red; the
  reach chart's par bar was told from the others by green alone. A card now shows its colour letter
  (``r6``), the chart's palette is blue/vermilion/grey, and the par bar is marked "par".
- Without scripts a replay showed its start alone (the other steps ``hidden``) and buttons that did
  nothing: every step is now shown, one under the other.
- Printed, a replay printed its start alone, the proof and policy trees their top two levels, and a chart
  or table wider than the paper was cut off at its scrolling box's edge.
- At 375 px a certificate's position notation (one long word) widened the page.
- A line's page went from its ``<h1>`` to its steps' ``<h3>``; tables' headers had no ``scope``; a chart's
  text alternative was its title, none of its values.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from pagesupport import PUZZLES, ROOT, WINDOW, browser_fixture, cli, records_fixture  # noqa: F401 (the fixtures)

from stratagem.cli.main import run
from stratagem.views import cardclash, strato
from stratagem.views.charts import bars, boxes
from stratagem.views.page import STYLE, document, replay_frame, table

# WCAG 2.1 relative luminance and contrast ratio; Machado, Oliveira and Fernandes (2009) simulation of
# full deuteranopia and protanopia in linear RGB; CIELAB distance (CIE76).
_CVD = {"deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                         (-0.011820, 0.042940, 0.968881)),
        "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                       (-0.003882, -0.048116, 1.051998))}


def _linear(colour: str) -> list[float]:
    value = colour.lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    channels = [int(value[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours."""
    def luminance(colour: str) -> float:
        r, g, b_ = _linear(colour)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b_
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def seen_apart(a: str, b: str, deficiency: str) -> float:
    """How far apart two colours look (CIE76 distance) to a reader with ``deficiency``."""
    def lab(colour: str) -> tuple[float, float, float]:
        rgb = [min(1.0, max(0.0, sum(m * c for m, c in zip(row, _linear(colour), strict=True))))
               for row in _CVD[deficiency]]
        x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047
        y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
        z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883

        def f(t: float) -> float:
            return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
        return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5


def test_card_letters_and_tornadoes_meet_aa_contrast() -> None:
    """A Strato card's letter on its card (13 px bold on the pile's cards: normal text), a tornado's white
    letter on its colour, and a Card Clash card's letters on its card: at least 4.5:1 each."""
    for letter, fill in strato.FILL.items():
        assert contrast(strato.EDGE[letter], fill) >= 4.5, letter
        assert contrast("#fff", strato.EDGE[letter]) >= 4.5, letter
    for colour, fill in cardclash.FILL.items():
        assert contrast(cardclash.EDGE[colour], fill) >= 4.5, colour


def test_the_current_step_meets_aa_contrast() -> None:
    """The move list's current step: its white text on its background, 13 px."""
    found = re.search(r"li\.current \{ background: (#\w+); color: (#\w+); \}", STYLE)
    assert found is not None
    assert contrast(found[1], found[2]) >= 4.5


def test_the_solvable_charts_bars_are_told_apart_without_red_and_green() -> None:
    """Solvable, unsolvable and undecided bars (the SVG's and the PNG's) stay far apart to a reader with
    deuteranopia or protanopia (the green and red were 15 apart with deuteranopia; now over 40)."""
    from stratagem.sweepplots import COLOURS
    from stratagem.views import report

    assert report.COLOURS is COLOURS
    kinds = sorted(COLOURS)
    for deficiency in _CVD:
        for i, a in enumerate(kinds):
            for b in kinds[i + 1:]:
                assert seen_apart(COLOURS[a], COLOURS[b], deficiency) >= 40, (a, b, deficiency)


def test_a_card_clash_card_shows_its_colour_letter(records: dict[str, Path], tmp_path: Path) -> None:
    """Each stack's top card is drawn as the notation writes it, colour letter then rank, matching the
    battlefield's label (its cards top first), so whose card it is does not rest on colour."""
    page = tmp_path / "tree.html"
    assert run(["view", str(records["tree.json"]), "--out", str(page)]) == 0
    text = page.read_text()
    boards = re.findall(r'<svg [^>]*class="battlefield"[^>]*aria-label="([^"]*)">(.*?)</svg>', text)
    assert boards
    for label, drawing in boards:
        tops = {cell: cards[:2] for cell, cards in re.findall(r"(-?\d+,-?\d+) (\w+)", label.split(": ", 1)[-1])}
        drawn = re.findall(r'<g class="stack" data-cell="([^"]+)".*?<tspan font-size="11">(\w)</tspan>(\w)</text>',
                           drawing)
        assert drawn and {cell: colour + rank for cell, colour, rank in drawn} == tops


def test_the_reach_charts_par_bar_is_marked_in_words(tmp_path: Path) -> None:
    """The par's bar says "par" above it, not only by its colour."""
    head = (PUZZLES / "strato/challenge-0.toml").read_text().split("[[deals]]")[0]
    small = tmp_path / "small.toml"
    small.write_text(head.replace("limit = 6", "limit = 4").replace('left = "RRRR"', 'left = "RRR"')
                     .replace('right = "WWWW"', 'right = "W"') + '[[deals]]\nname = "solo-1"\nseed = 1\n')
    page = tmp_path / "reach.html"
    code, out, _ = cli("reach", str(small), "--json", "--html", str(page))
    assert code == 0
    par = json.loads(out)["par"]
    chart = re.search(r'<svg [^>]*class="chart bars".*?</svg>', page.read_text())
    assert chart is not None
    bar = re.search(rf'<rect x="([\d.]+)"[^>]*><title>{par}: states', chart[0])
    mark = re.search(r'<text x="([\d.]+)"[^>]*>par</text>', chart[0])
    assert bar is not None and mark is not None
    assert abs(float(mark[1]) - float(bar[1])) < 20  # above that bar


def _levels(page: str) -> list[int]:
    return [int(level) for level in re.findall(r"<h([1-6])[ >]", page)]


@pytest.mark.parametrize("name", ["strato.json", "stakd.json"])
def test_a_line_page_has_no_heading_skipped(records: dict[str, Path], tmp_path: Path, name: str) -> None:
    """From the ``<h1>`` down, each heading at most one level below the one before it."""
    page = tmp_path / "page.html"
    assert run(["view", str(records[name]), "--out", str(page)]) == 0
    levels = _levels(page.read_text())
    assert levels[0] == 1 and all(b <= a + 1 for a, b in zip(levels, levels[1:], strict=False)), levels


def test_an_analysis_page_has_no_heading_skipped(tmp_path: Path) -> None:
    page = tmp_path / "analysis.html"
    code, _, _ = cli("analyze", str(PUZZLES / "cardclash/square-in-3.toml"), "--html", str(page), "--quiet")
    assert code == 0
    levels = _levels(page.read_text())
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:], strict=False)), levels


def test_table_headers_say_what_they_head(records: dict[str, Path], tmp_path: Path) -> None:
    """A table's column headers are ``scope="col"``; a certificate's row headers ``scope="row"``."""
    assert re.findall(r"<th(?: [^>]*)?>", table(["a", "b"], [["1", "2"]], numeric={1})) == [
        '<th scope="col">', '<th scope="col" class="num">']
    page = tmp_path / "matrices.html"
    assert run(["view", str(records["matrices.json"]), "--out", str(page)]) == 0
    text = page.read_text()
    heads = [th for part in re.findall(r"<thead>.*?</thead>", text) for th in re.findall(r"<th(?: [^>]*)?>", part)]
    rows = [th for part in re.findall(r"<tbody>.*?</tbody>", text) for th in re.findall(r"<th(?: [^>]*)?>", part)]
    assert heads and rows
    assert all(th.startswith('<th scope="col"') for th in heads) and all(th == '<th scope="row">' for th in rows)


def _three_steps(print_every: bool = True, ident: str = "replay") -> str:
    panels = [f"<h3>step {k}</h3><p>position {k}</p>" for k in range(3)]
    if print_every:  # the default
        return replay_frame("2 turns", panels, ["a1", "b2"], ident)
    return replay_frame("2 turns", panels, ["a1", "b2"], ident, print_every=False)


def _shown(browser: Any, selector: str) -> list[bool]:
    return [bool(shown) for shown in browser.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll(arguments[0]), "
        "function (e) { return e.getClientRects().length > 0; });", selector)]


def test_without_scripts_every_step_is_shown(browser: Any, tmp_path: Path) -> None:
    """Scripts off: every step of the replay is on the page, and no button or move list that would do
    nothing (before: the start alone, under four dead buttons)."""
    page = tmp_path / "static.html"
    page.write_text(document("static", _three_steps()))
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(page.as_uri())
        assert _shown(browser, ".turn") == [True, True, True]
        assert _shown(browser, ".replay .controls") == [False] and _shown(browser, "ol.moves") == [False]
        assert all(f"position {k}" in browser.find_element("tag name", "main").text for k in range(3))
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    browser.get(page.as_uri())  # with scripts, one step at a time as before
    assert _shown(browser, ".turn") == [True, False, False] and _shown(browser, ".replay .controls") == [True]


class _Printed:
    """The browser showing ``page`` as printed on an A4 page's width (717 px within the margins)."""

    def __init__(self, browser: Any, page: Path) -> None:
        self.browser, self.page = browser, page

    def __enter__(self) -> Any:
        self.browser.get(self.page.as_uri())
        self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 717, "height": 1000,
                                                                           "deviceScaleFactor": 1, "mobile": False})
        return self.browser

    def __exit__(self, *_: object) -> None:
        self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": WINDOW[0], "height": WINDOW[1],
                                                                           "deviceScaleFactor": 1, "mobile": False})


def test_printed_a_replay_shows_every_step(browser: Any, tmp_path: Path) -> None:
    """Printed: a replay shows every step and no controls (before: its start alone); a report's replay
    the step on screen and its whole move list, not cut at the list's on-screen height."""
    page = tmp_path / "print.html"
    long_list = replay_frame("60 turns", ["<p>start</p>"] + [f"<p>{k}</p>" for k in range(1, 61)],
                             [f"m{k}" for k in range(1, 61)], "long", print_every=False)
    page.write_text(document("print", _three_steps() + _three_steps(print_every=False, ident="report") + long_list))
    with _Printed(browser, page):
        assert _shown(browser, "#replay .turn") == [True, True, True]
        assert _shown(browser, "#report .turn") == [True, False, False]
        assert _shown(browser, ".replay .controls") == [False, False, False]
        assert _shown(browser, "ol.moves") == [False, True, True]
        moves = browser.find_element("css selector", "#long ol.moves")
        assert browser.execute_script("return arguments[0].scrollHeight <= arguments[0].clientHeight + 1;", moves)


def test_printed_wide_charts_and_tables_fit_the_paper(browser: Any, tmp_path: Path) -> None:
    """A chart and a table wider than the paper are laid out within it, not cut at their scrolling box
    (the sweep report's solvable chart lost its last 200 px)."""
    groups = [f"group {k}" for k in range(10)]
    wide = bars("ten groups", groups, [("deals", "#4c6ef5", [float(k) for k in range(10)])], width=870)
    headers = [f"a long column header {k}" for k in range(8)]
    page = tmp_path / "wide.html"
    page.write_text(document("wide", wide + table(headers, [[f"<code>stratagem solve --deal {k}</code>"
                                                             for k in range(8)]])))
    with _Printed(browser, page):
        cut = browser.execute_script(
            "return Array.prototype.filter.call(document.querySelectorAll('.scroll'), function (e) {"
            " return e.scrollWidth > e.clientWidth + 1; }).length;")
        assert cut == 0 and browser.execute_script("return document.documentElement.scrollWidth") <= 717


def test_printed_every_folded_part_is_open(browser: Any, tmp_path: Path) -> None:
    """A proof or policy tree printed its top two levels: every ``<details>`` opens for the printing, and
    the ones that were closed close again after it."""
    folded = ("<details open><summary>root</summary><details><summary>node</summary><p>child</p>"
              "<details><summary>deeper</summary>x</details></details></details>")
    page = tmp_path / "tree.html"
    page.write_text(document("tree", folded))
    browser.get(page.as_uri())
    browser.execute_script("window.dispatchEvent(new Event('beforeprint'));")
    assert browser.execute_script("return document.querySelectorAll('details:not([open])').length;") == 0
    browser.execute_script("window.dispatchEvent(new Event('afterprint'));")
    assert browser.execute_script("return document.querySelectorAll('details[open]').length;") == 1


def test_a_sweep_reports_replays_print_the_step_on_screen() -> None:
    """The report's fifteen replays are printed as the step on screen and the move list: every turn of
    every one took the printed report from 19 pages to 90."""
    from stratagem.views.report import deal_replay

    results = ROOT / "results" / "strato-sweep" / "results.jsonl"
    record = next(r for r in map(json.loads, results.read_text().splitlines()[:50]) if r.get("line"))
    drawn, missing = deal_replay(record, str(results))
    assert missing == "" and 'data-print="step"' in drawn


def test_a_certificate_fits_a_phone(browser: Any, records: dict[str, Path], tmp_path: Path) -> None:
    """At 375 px a Stack Attack certificate's page does not scroll sideways (its position notation, one
    long word, widened it by 6 px; a wider matrix scrolls in its own box)."""
    page = tmp_path / "matrices.html"
    assert run(["view", str(records["matrices.json"]), "--out", str(page)]) == 0
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 375, "height": 800,
                                                                  "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.get(page.as_uri())
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 375
    finally:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": WINDOW[0], "height": WINDOW[1],
                                                                      "deviceScaleFactor": 1, "mobile": False})


def _label(svg: str) -> str:
    found = re.search(r'<svg [^>]*class="chart[^"]*"[^>]*aria-label="([^"]*)"', svg)
    assert found is not None
    return html.unescape(found[1])


def test_a_charts_text_alternative_says_its_values() -> None:
    """A chart is an image to assistive technology: its label was its title alone, so a screen reader heard
    none of the numbers (the reach page's states per depth, the difficulty cards' histogram are nowhere
    else on their pages). It now says every bar's value, with its note when that says something else, and
    every box's median, quartiles, whiskers and outliers."""
    one = bars("States first reached at each depth", ["0", "1", "2"], [("states", "#000", [1.0, 8.0, 88.0])],
               notes=[["", "par", ""]])
    assert _label(one) == "States first reached at each depth: 0: 1; 1: 8 (par); 2: 88"
    shares = bars("Deals", ["Challenge 1\n2p auto"], [("solvable", "#000", [0.99]), ("undecided", "#111", [0.01])],
                  fractions=True, notes=[["495"], ["5"]])
    assert _label(shares) == "Deals: Challenge 1 2p auto: solvable 0.99 (495), undecided 0.01 (5)"
    box = boxes("Challenge 0, 1 player(s)", {"auto": [0.1, 0.2, 0.3, 0.4, 9.0]}, [60.0])
    assert _label(box) == ("Challenge 0, 1 player(s): auto (5 deal(s)): median 0.3 s, box 0.2 to 0.4 s, whiskers "
                           "0.1 to 0.4 s, 1 beyond; limit line at 60 s")


def test_no_table_header_is_empty(tmp_path: Path) -> None:
    """A screen reader announces a column by its header: the reach page's value column, the odds page's bar
    column and a value table's page's names had an empty one."""
    page, values = tmp_path / "odds.html", tmp_path / "values.gz"
    position = [str(PUZZLES / "strato/challenge-0.toml"), "--position", "RRWR(RW)WWRW RRR WRR 1 -", "--quiet"]
    assert cli("odds", *position, "--html", str(page))[0] == 0
    heads = re.findall(r"<th(?: [^>]*)?>(.*?)</th>", page.read_text())
    assert "as a bar" in heads and all(head.strip() for head in heads), heads
    assert cli("odds", *position, "--table", str(values))[0] == 0
    assert cli("view", str(values), "--out", str(tmp_path / "values.html"))[0] == 0
    heads = re.findall(r"<th(?: [^>]*)?>(.*?)</th>", (tmp_path / "values.html").read_text())
    assert heads == ["rows", "how many"], heads
    head = (PUZZLES / "strato/challenge-0.toml").read_text().split("[[deals]]")[0]
    small = tmp_path / "small.toml"
    small.write_text(head.replace("limit = 6", "limit = 4").replace('left = "RRRR"', 'left = "RRR"')
                     .replace('right = "WWWW"', 'right = "W"') + '[[deals]]\nname = "solo-1"\nseed = 1\n')
    page = tmp_path / "reach.html"
    assert cli("reach", str(small), "--html", str(page), "--quiet")[0] == 0
    heads = re.findall(r"<th(?: [^>]*)?>(.*?)</th>", page.read_text())
    assert heads[:2] == ["the graph", "value"] and all(head.strip() for head in heads), heads


def test_a_deep_tree_fits_a_phone(browser: Any, tmp_path: Path) -> None:
    """At 375 px a policy or proof tree opened 22 levels deep widened the page to 430 px (14 px of indent a
    level): it indents less on a narrow screen, and what is deeper still scrolls in the tree's own box."""
    from stratagem.views.prooftree import dag_html

    depth = 40
    nodes = {k: {"state": f"s{k}", "children": [{"move": f"R1R:1L6>1L{k % 9 + 1}", "node": k + 1}] if k < depth else []}
             for k in range(depth + 1)}
    page = tmp_path / "deep.html"
    page.write_text(document("deep", dag_html([("<h2>the tree</h2>", 0)], nodes)))
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 375, "height": 800,
                                                                  "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.get(page.as_uri())
        browser.execute_script("document.querySelectorAll('details').forEach(function (d) { d.open = true; });")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 375
        twenty = browser.find_element("id", "node-22").find_element("tag name", "summary")
        assert twenty.rect["x"] + twenty.rect["width"] <= 375  # 22 levels down still on the screen
    finally:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": WINDOW[0], "height": WINDOW[1],
                                                                      "deviceScaleFactor": 1, "mobile": False})


def test_the_step_buttons_are_named_in_words(browser: Any, tmp_path: Path) -> None:
    """A screen reader names the replay's buttons "start", "back", "forward", "end": the arrows drawn on
    them were read out too ("vertical line, black left-pointing triangle, start")."""
    page = tmp_path / "buttons.html"
    page.write_text(document("buttons", _three_steps()))
    browser.get(page.as_uri())
    names = [b.accessible_name for b in browser.find_elements("css selector", ".replay .controls button")]
    assert names == ["start", "back", "forward", "end"]
    assert [b.text for b in browser.find_elements("css selector", ".replay .controls button")] == [
        "|\u25c0 start", "\u25c0 back", "forward \u25b6", "end \u25b6|"]  # still drawn


def test_every_chart_text_meets_aa_contrast() -> None:
    """Every text of a chart on its white (the box plot's time limit label was orange at 4.3:1), and the
    PNG's limit label, which is text too."""
    from stratagem.sweepplots import LIMIT_COLOUR

    drawn = (boxes("t", {"auto": [0.1, 0.2, 9.0]}, [60.0, 30.0])
             + bars("b", ["a", "b"], [("x", "#000", [1.0, 2.0]), ("y", "#111", [2.0, 1.0])],
                    notes=[["1", ""], ["", "2"]], y_label="deals"))
    fills = set(re.findall(r'<text [^>]*fill="(#\w+)"', drawn))
    assert fills and all(contrast(fill, "#fff") >= 4.5 for fill in fills), fills
    assert contrast(LIMIT_COLOUR, "#fff") >= 4.5


def test_a_strato_table_stays_legible_on_a_phone(browser: Any, records: dict[str, Path], tmp_path: Path) -> None:
    """At 375 px a Strato table (634 px drawn) was shrunk to the screen, its row labels 6 px and its letters
    9 px, and a pile of cards to 5 px letters: the table now shrinks no further than 480 px and the hands
    and pile keep their size, each scrolling sideways in its own box; the page does not."""
    page = tmp_path / "strato.html"
    assert run(["view", str(records["strato.json"]), "--out", str(page)]) == 0
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 375, "height": 800,
                                                                  "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.get(page.as_uri())
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 375
        board = browser.find_element("css selector", ".turn:not([hidden]) svg.table")
        assert board.rect["width"] >= 480
        for line in browser.find_elements("css selector", ".turn:not([hidden]) svg.cards"):
            assert line.rect["width"] == pytest.approx(float(line.get_attribute("width")), abs=1)
    finally:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": WINDOW[0], "height": WINDOW[1],
                                                                      "deviceScaleFactor": 1, "mobile": False})
