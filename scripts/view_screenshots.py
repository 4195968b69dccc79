"""The screenshots of docs/images/: the pages of `stratagem view` and `stratagem report --html`, opened in
headless Chromium (Selenium with the system's chromedriver) and saved as PNG.

Run from the repository root after `pip install -e '.[dev]'` and, on Debian, `apt-get install chromium
chromium-driver`:

    python scripts/view_screenshots.py            # every picture (about 40 s: two solves take most of it)
    python scripts/view_screenshots.py strato-policy.png   # only the pictures named

Each record is made by the same commands as docs/guide/views.md ("Seeing the answer"), in a temporary
folder; the report is drawn from results/strato-sweep/results.jsonl.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
WIDTH, HEIGHT = 1200, 820

#: (picture, commands making the record, the record to view, keys pressed before the picture).
PICTURES = [
    ("strato-replay.png", [["solve", "{p}/strato/challenge-1.toml", "--deal", "solo-1", "--proof", "solo-1.json"]],
     "solo-1.json", "end"),
    ("stakd-solo.png", [["check", "{p}/stakd/solo.toml", "--proof", "stakd-solo.json"]], "stakd-solo.json", "end"),
    ("cardclash-tree.png", [["analyze", "{p}/cardclash/square-in-5.toml", "--proof", "sq5-tree.json"]],
     "sq5-tree.json", "tree"),
    ("stackattack-matrices.png", [["analyze", "{p}/stackattack/2p-actions-3-turns.toml", "--proof", "sa-cert.json"]],
     "sa-cert.json", "top"),
    ("strato-policy.png", [["odds", "{p}/strato/challenge-0.toml", "--position", "RRWR(RW)WWRW RRR WRR 1 -",
                            "--proof", "two-thirds.json"]], "two-thirds.json", "policy"),
    ("strato-reach.png", [["reach", "{p}/strato/challenge-0.toml", "--designer", "--json", ">", "reach.json"]],
     "reach.json", "top"),
]


def driver() -> object:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                     f"--window-size={WIDTH},{HEIGHT + 200}"):
        options.add_argument(argument)
    chrome = webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver")), options=options)
    chrome.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
    return chrome


#: Every picture this script makes: those of :data:`PICTURES` and the report's.
NAMES = [picture for picture, *_ in PICTURES] + ["report-lengths.png"]


def wanted_pictures(argv: list[str] | None = None) -> set[str]:
    """The pictures named on the command line (none: every picture); an unknown name is refused (exit 2)
    before Chromium starts: a misspelt one made nothing and said nothing."""
    parser = argparse.ArgumentParser(description="Remake the screenshots of docs/images/ in headless Chromium.")
    parser.add_argument("pictures", nargs="*", metavar="PICTURE",
                        help=f"pictures to remake (default: all): {', '.join(NAMES)}")
    named = parser.parse_args(argv).pictures
    unknown = [name for name in named if name not in NAMES]
    if unknown:
        parser.error(f"no such picture: {', '.join(unknown)} (the pictures: {', '.join(NAMES)})")
    return set(named)


def main() -> int:
    wanted = wanted_pictures()
    from selenium.webdriver.common.keys import Keys

    chrome = driver()
    stratagem = [sys.executable, "-m", "stratagem"]
    with tempfile.TemporaryDirectory() as work:
        for picture, commands, record, action in PICTURES:
            if wanted and picture not in wanted:
                continue
            for command in commands:
                # ``> FILE`` at the end of a command: its standard output is the record (a report of --json)
                target = command[-1] if len(command) > 2 and command[-2] == ">" else None
                parts = [part.format(p=ROOT / "puzzles") for part in (command[:-2] if target else command)]
                made = subprocess.run(stratagem + parts, cwd=work, check=False, capture_output=True, encoding="utf-8")
                if made.returncode not in (0, 3):
                    raise SystemExit(f"{' '.join(parts)}: exit {made.returncode}: {made.stderr}")
                if target:
                    (Path(work) / target).write_text(made.stdout, encoding="utf-8", newline="\n")
            subprocess.run(stratagem + ["view", record], cwd=work, check=True, stdout=subprocess.DEVNULL)
            chrome.get((Path(work) / record).with_suffix(".html").as_uri())  # type: ignore[attr-defined]
            if action == "end":
                # the replay takes its keys only while it has the focus (the page scrolls otherwise)
                chrome.find_element("css selector", ".replay").send_keys(Keys.END)  # type: ignore[attr-defined]
            elif action == "policy":  # the likeliest game at its end, from its heading
                chrome.find_element("css selector", ".replay").send_keys(Keys.END)  # type: ignore[attr-defined]
                chrome.execute_script(  # type: ignore[attr-defined]
                    "for (const h of document.querySelectorAll('h2')) if (h.textContent.startsWith('The likeliest')) "
                    "window.scrollTo(0, h.offsetTop - 10);")
            elif action == "tree":  # the start's drawing and the tree's first nodes
                chrome.execute_script(  # type: ignore[attr-defined]
                    "for (const h of document.querySelectorAll('h2')) if (h.textContent === 'The tree') "
                    "window.scrollTo(0, h.offsetTop - 280);")
            chrome.save_screenshot(str(IMAGES / picture))  # type: ignore[attr-defined]
            print(IMAGES / picture)
        if wanted and "report-lengths.png" not in wanted:
            chrome.quit()  # type: ignore[attr-defined]
            return 0
        out = Path(work) / "report"
        subprocess.run(stratagem + ["report", str(ROOT / "results/strato-sweep/results.jsonl"), "--out", str(out),
                                    "--html", "--no-plots"], cwd=ROOT, check=True, stderr=subprocess.DEVNULL)
        chrome.get((out / "report.html").as_uri())  # type: ignore[attr-defined]
        chrome.execute_script("window.scrollTo(0, document.querySelectorAll('h2')[1].offsetTop - 10);")  # type: ignore[attr-defined]
        chrome.save_screenshot(str(IMAGES / "report-lengths.png"))  # type: ignore[attr-defined]
        print(IMAGES / "report-lengths.png")
    chrome.quit()  # type: ignore[attr-defined]
    return 0


if __name__ == "__main__":
    sys.exit(main())
