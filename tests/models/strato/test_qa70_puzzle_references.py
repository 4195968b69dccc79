"""The shipped puzzle files' headers name files: each must ship, or docs/rules/<game>.md must say what it was.

The Strato headers cite ``seeds/README.md`` and ``RULINGS.md``, working notes that do not ship with the
project. The headers cannot be edited without parting the shipped records from their puzzle (a record
names the puzzle by the SHA-256 of its bytes), so the rules page explains the two names instead
(docs/rules/strato.md, Part 4). These tests hold both halves of that: every name a header cites is a
file of the project or explained on the game's rules page, and the shipped records do name the files'
current bytes (which is why the words stay).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from .support import REPO

#: A file name a comment cites: a path ending in ``.md``.
CITED = re.compile(r"[\w./-]*\w\.md\b")

PUZZLE_FILES = sorted((REPO / "puzzles").glob("*/*.toml"))


def _cited(path: Path) -> list[str]:
    """The ``.md`` names cited in the comment lines of a puzzle file."""
    names: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        comment = line.partition("#")[2] if "#" in line else ""
        names.extend(CITED.findall(comment))
    return names


def _explanation(game: str) -> str:
    """The part of docs/rules/<game>.md about the puzzle files' headers ("" when the page has none)."""
    page = (REPO / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    start = page.find("**Two names in the headers that are not files of the project.**")
    return "" if start < 0 else page[start:page.find("\n\n", start)]


def test_the_strato_headers_cite_the_two_working_notes() -> None:
    cited = {name for path in PUZZLE_FILES if path.parent.name == "strato" for name in _cited(path)}
    assert cited == {"seeds/README.md", "RULINGS.md"}


@pytest.mark.parametrize("path", PUZZLE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_file_a_puzzle_header_names_ships_or_is_explained(path: Path) -> None:
    explanation = _explanation(path.parent.name)
    for name in _cited(path):
        if (REPO / name).is_file() or (path.parent / name).is_file() or (REPO / "docs" / name).is_file():
            continue
        assert f"`{name}`" in explanation, f"{path.name} cites {name}, which does not ship and is not explained"
        assert "neither ships" in explanation


def test_the_shipped_records_name_the_puzzle_files_current_bytes() -> None:
    """The explanation's reason holds: every shipped sweep record's ``puzzle_sha256`` is its file's digest now."""
    digests = {path.relative_to(REPO).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
               for path in PUZZLE_FILES}
    counted = 0
    for results in ("results/strato-sweep/results.jsonl", "results/strato-difficulty/results.jsonl"):
        for line in (REPO / results).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            assert record["puzzle_sha256"] == digests[record["puzzle"]], (results, record["puzzle"])
            counted += 1
    assert counted == 4977 + 5000
