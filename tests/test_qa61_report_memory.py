"""``report``'s memory on a large results file (QA 61). On a 210 MB file of 353,367 deals ``report --html``
peaked at 617 MB: the 306 MB its records hold, and while finding the deals whose decided records disagree,
a set of answers and a list of records for every deal-and-method key (250 MB more). It now keeps a key's
first answer alone and gathers the records of the keys that disagree in a second pass: 497 MB."""

from __future__ import annotations

import json
import tracemalloc
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

from stratagem.sweepreport import summarise

ROOT = Path(__file__).resolve().parents[1]


def _deals(count: int) -> list[dict[str, Any]]:
    """``count`` records of distinct deals, made from the shipped sweep's first records with new seeds."""
    with (ROOT / "results" / "strato-sweep" / "results.jsonl").open() as handle:
        shipped = [json.loads(line) for line in islice(handle, 500)]
    return [{**shipped[n % len(shipped)], "seed": 10**6 + n} for n in range(count)]


@pytest.mark.parametrize("count", [
    # 5,000 by default: the same bytes a deal (the code before 3a58d39 704 of either count, now 149 of either)
    # in a quarter of the time; 20,000 in the slow run
    pytest.param(5_000, id="5000"),
    pytest.param(20_000, id="20000", marks=pytest.mark.slow),
])
def test_summarise_holds_little_beyond_the_records(count: int) -> None:
    """Python's own count of the memory summarise takes (tracemalloc: the same on every run): some 675
    bytes a deal before, some 210 now; the records themselves take some 870."""
    records = _deals(count)
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        summary = summarise(records, "big.jsonl")
        peak = tracemalloc.get_traced_memory()[1] - start
    finally:
        tracemalloc.stop()
    assert summary.deal_count() == len(records)
    assert peak / len(records) < 400, f"{peak / len(records):.0f} bytes a deal"


def test_disagreeing_records_are_listed_by_key_in_the_files_order() -> None:
    """The conflicts are as before: each key whose decided records disagree, in the order its first decided
    record comes, with its decided records in the file's order (an unknown record is not one of them)."""
    a, b, c = ({**record, "status": "solved", "length": 7} for record in _deals(3))
    records = [b, a, {**a, "length": 8}, c, {**b, "status": "unknown"}, {**c}, {**b, "status": "unsolvable",
                                                                             "length": None}, {**a, "length": 9}]
    conflicts = summarise(records, "r.jsonl").conflicts
    assert conflicts == ((records[0], records[6]), (records[1], records[2], records[7]))
