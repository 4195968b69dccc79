"""Fixtures of the page tests: records to draw (made by the CLI once per test module) and, for the browser
tests, one headless Chromium per module driven by Selenium through the system's chromedriver (no download
at run time).

A module of its own, imported by the test modules, rather than a ``conftest.py``: tests/cli's tests import
names from their ``conftest`` module, and a second ``conftest`` module would stand in for theirs when both
folders are given on one command line."""

from __future__ import annotations

import contextlib
import html
import io
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
#: The browser window; screenshots have this size.
WINDOW = (1200, 900)

#: Each record the tests draw: its file name and the command that makes it.
COMMANDS = {
    "strato.json": ["solve", str(PUZZLES / "strato/challenge-0.toml"), "--deal", "duo-3", "--proof"],
    "stakd.json": ["check", str(PUZZLES / "stakd/solo-1-tiny.toml"), "--proof"],
    "tree.json": ["analyze", str(PUZZLES / "cardclash/square-in-3.toml"), "--proof"],
    "matrices.json": ["analyze", str(PUZZLES / "stackattack/2p-actions-3-turns.toml"), "--proof"],
    # A position of challenge 0 worth exactly 2/3 with the pile hidden (tests/cli/test_odds.py).
    "policy.json": ["odds", str(PUZZLES / "strato/challenge-0.toml"), "--position", "RRWR(RW)WWRW RRR WRR 1 -",
                    "--proof"],
}


@pytest.fixture(scope="module", name="records")
def records_fixture(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The records of :data:`COMMANDS`, made once for the module."""
    folder = tmp_path_factory.mktemp("records")
    made = {}
    for name, command in COMMANDS.items():
        path = folder / name
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = run([*command, str(path)])
        assert code == 0 and path.is_file(), f"{command}: exit {code}"
        made[name] = path
    return made


def cli(*args: str) -> tuple[int, str, str]:
    """Run ``stratagem ARGS``: its exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run(list(args))
    return code, out.getvalue(), err.getvalue()


def page_title(page: str) -> str:
    """A page's ``<h1>``, as text."""
    found = re.search(r"<h1>(.*?)</h1>", page)
    assert found is not None
    return html.unescape(found[1])


def _no_browser(reason: str) -> None:
    """Skip with ``reason``, or fail where CI requires the browser tests to run."""
    if os.environ.get("STRATAGEM_REQUIRE_BROWSER") == "1":
        pytest.fail(f"STRATAGEM_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module", name="browser")
def browser_fixture() -> Iterator[Any]:
    """A headless Chromium with its console log kept, or a skip saying what is missing."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _no_browser("selenium is not installed (pip install -e '.[dev]')")
    binary = next((found for name in ("chromium", "chromium-browser", "google-chrome")
                   if (found := shutil.which(name))), None)
    driver_path = shutil.which("chromedriver")
    if binary is None or driver_path is None:
        _no_browser("no Chromium and chromedriver on PATH (Debian: apt-get install chromium chromium-driver)")
    offline = os.environ.get("SE_OFFLINE")
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must not download a browser or a driver
    options = webdriver.ChromeOptions()
    options.binary_location = str(binary)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", f"--window-size={WINDOW[0]},{WINDOW[1]}", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=str(driver_path)), options=options)
    # The page's viewport, exactly (the window's size includes the browser's own bars).
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": WINDOW[0], "height": WINDOW[1],
                                                                  "deviceScaleFactor": 1, "mobile": False})
    try:
        yield driver
    finally:
        driver.quit()
        if offline is None:
            os.environ.pop("SE_OFFLINE", None)
        else:
            os.environ["SE_OFFLINE"] = offline
