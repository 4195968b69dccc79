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
from tests.verification.test_oddstable import POSITIONS, deal_table, plan_rows, refused, rewrite, rows_of, table


def test_a_version_3_table_with_plans_is_certified(tmp_path: Path) -> None:
    path, _ = deal_table(tmp_path)
    head, rows = read_table(path)
    assert plan_rows(rows) and not any(CUT in row.split(" ", 3)[2] for row in rows if row.startswith("policy "))
    head["format"] = "stratagem/strato-odds-table@3"
    verdict = verify(rewrite(path, rows, head))
    assert verdict.status == "certified", verdict.problem


def test_a_frontier_row_worth_other_than_1_is_refused(tmp_path: Path) -> None:
    """A ``frontier`` row stands for 1 (its upper bound) whatever it says, but one that says otherwise is a
    false row: a mutant comparing its denominator with itself accepted ``frontier 1/2``."""
    path, solver = table(tmp_path, POSITIONS[1], max_states=300)
    rows = rows_of(path)
    frontier = [i for i, row in enumerate(rows) if row.startswith("frontier ")]
    assert frontier and verify(path).status in ("certified", "invalid")
    i = frontier[0]
    rows[i] = f"frontier 1/2 {rows[i].split(' ', 2)[2]}"
    assert "a frontier state is worth 1, not 1/2" in refused(rewrite(path, rows))
