"""docs/api.md's examples are run: every ```python block, in order, in one namespace.

The page promises that its examples run as shown; they are executed here the way a reader would type
them into one session started in the repository's root (a temporary folder with the shipped
``puzzles/`` in it, so the records the examples write land there). The asserts inside the examples
check the results they print.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
API = REPO / "docs" / "api.md"


def python_blocks(text: str) -> list[str]:
    """The code of each ```python block, in the order of the page."""
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.M | re.S)


def test_the_page_has_examples_with_asserts() -> None:
    blocks = python_blocks(API.read_text(encoding="utf-8"))
    assert len(blocks) >= 8
    assert sum("assert " in block for block in blocks) >= 7


def test_the_examples_run_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "puzzles").symlink_to(REPO / "puzzles", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "api_md"}
    for number, block in enumerate(python_blocks(API.read_text(encoding="utf-8")), start=1):
        try:
            exec(compile(block, f"docs/api.md, python block {number}", "exec"), namespace)
        except Exception as exc:  # name the block, whose text the traceback cannot show
            raise AssertionError(f"docs/api.md, python block {number} fails:\n{block}") from exc
    assert (tmp_path / "challenge-0-solo-1.json").is_file()
    assert (tmp_path / "solo-4.drup.gz").is_file()


def test_the_table_of_entry_points_names_their_parameters() -> None:
    """Each call in the page's table names the function's parameters, in order and by the names a keyword
    call must use (it said ``from_notation(game, ...)`` and ``check(path, ...)``, whose parameters are
    ``game_name`` and ``puzzle``); ``...`` stands for the rest."""
    import inspect

    import stratagem

    calls = re.findall(r"^\| `stratagem\.(\w+)\((.*?)\)` \|", API.read_text(encoding="utf-8"), flags=re.M)
    assert {name for name, _ in calls} >= {"load", "from_notation", "solve", "check", "analyze", "verify", "odds"}
    for name, arguments in calls:
        given = [a.strip().split("=")[0] for a in arguments.split(",") if a.strip() not in ("*", "...")]
        parameters = list(inspect.signature(getattr(stratagem, name)).parameters)
        assert given == [p for p in parameters if p in given] and set(given) <= set(parameters), (name, given)
