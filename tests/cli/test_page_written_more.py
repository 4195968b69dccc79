"""``analyze --html`` and ``odds --html`` say that they wrote their page, as ``solve``, ``check`` and
``reach`` do (tests/cli/test_qa56_messages.py): all five wrote the page without a word, while ``--proof``
says its record was written. Not with ``--json``, whose stdout is the report alone."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import ROOT

SQUARE_IN_3 = str(ROOT / "puzzles" / "cardclash" / "square-in-3.toml")
CHALLENGE_0 = str(ROOT / "puzzles" / "strato" / "challenge-0.toml")
#: A hidden-pile position of challenge 0 won two times in three (tests/cli/test_odds.py): valued at once.
TWO_THIRDS = "RRWR(RW)WWRW RRR WRR 1 -"


def test_analyze_html_says_where_its_page_went(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page = tmp_path / "a.html"
    result = cli("analyze", SQUARE_IN_3, "--html", str(page))
    assert result.code == 0, result.err
    assert result.out.splitlines()[-1] == f"page written to {page}" and page.is_file()
    quiet = cli("analyze", SQUARE_IN_3, "--html", str(page), "--json")
    assert quiet.code == 0 and "page written" not in quiet.out
    json.loads(quiet.out)


def test_odds_html_says_where_its_page_went(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page = tmp_path / "o.html"
    result = cli("odds", CHALLENGE_0, "--position", TWO_THIRDS, "--html", str(page))
    assert result.code == 0, result.err
    assert result.out.splitlines()[-1] == f"page written to {page}" and page.is_file()
    table = cli("odds", CHALLENGE_0, "--deal", "solo-1", "--table", str(tmp_path / "t.gz"), "--html", str(page))
    assert table.code == 0, table.err
    assert table.out.splitlines()[-1] == f"page written to {page}"
    quiet = cli("odds", CHALLENGE_0, "--position", TWO_THIRDS, "--html", str(page), "--json")
    assert quiet.code == 0 and "page written" not in quiet.out
