"""The difficulty cards' page (``report --html`` on a hidden sweep, issue 29) in a real browser: it loads
whole with the network off, asks for no resource, draws the solo histogram, sorts a table when its header
is clicked, and logs no error. Skipped where no browser is installed (like the other page tests); under
``-m slow``, as starting its own browser takes 10-20 s on a loaded machine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pagesupport import browser_fixture  # noqa: F401 (the fixture)

from stratagem.cli.main import run

pytestmark = pytest.mark.slow

SHA = "cd" * 32


def _records() -> list[dict[str, Any]]:
    base = {"format": "stratagem/sweep@1", "game": "strato", "information": "hidden",
            "puzzle": "puzzles/strato/challenge-0.toml", "puzzle_sha256": SHA, "challenge": "Challenge 0",
            "time_limit": 30.0, "retry": None, "cpu_seconds": 1.0}
    out = []
    for seed, value in enumerate(["1", "1/2", None, "3/4"]):
        odds = ({"value": value, "low": value, "high": value, "float": float(eval(value))} if value else
                {"value": None, "low": "0", "high": "1", "float": None})
        out.append({**base, "players": 1, "seed": seed, "method": "hidden:odds",
                    "status": "solved" if value else "unknown", "odds": odds})
    for seed, wins in enumerate([0, 1, 2]):
        out.append({**base, "players": 2, "seed": seed, "method": "hidden:greedy", "status": "solved",
                    "team": {"agent": "greedy", "shuffles": 2, "played": 2, "wins": wins, "turns": 14,
                             "games": [[0, wins > 0, 7], [1, wins > 1, 7]]}})
    return out


def test_the_difficulty_page_loads_offline(browser: Any, tmp_path: Path) -> None:
    results = tmp_path / "hidden.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in _records()))
    assert run(["report", str(results), "--out", str(tmp_path / "card"), "--html", "--quiet"]) == 0
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0,
                                                                 "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        browser.get_log("browser")
        browser.get((tmp_path / "card" / "report.html").as_uri())
        assert browser.execute_script("return document.readyState") == "complete"
        charts = [c.get_attribute("aria-label") for c in browser.find_elements("css selector", "svg.chart")]
        assert any(c.startswith("Challenge 0, solo: deals by exact win probability: ") for c in charts), \
            "the solo histogram is not drawn"
        assert len(browser.find_elements("css selector", "section.card")) == 2
        assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
        table = browser.find_elements("css selector", "table.sortable")[0]
        table.find_elements("css selector", "th")[0].click()
        assert table.find_element("css selector", "th").get_attribute("aria-sort") == "ascending"
        assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0,
                                                                     "downloadThroughput": -1, "uploadThroughput": -1})
