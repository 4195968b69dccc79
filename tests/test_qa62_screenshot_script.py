"""``scripts/view_screenshots.py`` refuses a picture it does not make (stop 62): a misspelt name (or
``--help``) started Chromium, made nothing, said nothing and exited 0."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "view_screenshots.py"


def test_an_unknown_picture_is_refused_naming_the_pictures() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "strato-replay.png", "strato-polcy.png"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert "no such picture: strato-polcy.png" in done.stderr and "strato-policy.png" in done.stderr
    assert done.stdout == ""


def test_help_describes_the_script() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0 and "report-lengths.png" in done.stdout
