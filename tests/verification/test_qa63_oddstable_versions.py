"""A value table of each format version is checked with that version's rows (QA 63 mutation pass of
stratagem/verification/oddstable.py).

A mutant that read plans only from format ``@4`` on (``version > 3`` for ``version >= 3``) passed every
test: a genuine ``@3`` table, whose policy rows are plans, was then refused ("needs format @3 or later").
The tests refused plans in an ``@2`` table and cuts in an ``@3`` one, but certified no ``@3`` table.
"""

from __future__ import annotations

from pathlib import Path

from stratagem.verification import verify
from stratagem.verification.oddstable import CUT, read_table
from tests.verification.test_oddstable import deal_table, plan_rows, rewrite


def test_a_version_3_table_with_plans_is_certified(tmp_path: Path) -> None:
    path, _ = deal_table(tmp_path)
    head, rows = read_table(path)
    assert plan_rows(rows) and not any(CUT in row.split(" ", 3)[2] for row in rows if row.startswith("policy "))
    head["format"] = "stratagem/strato-odds-table@3"
    verdict = verify(rewrite(path, rows, head))
    assert verdict.status == "certified", verdict.problem
