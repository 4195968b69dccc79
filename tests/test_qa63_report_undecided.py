"""``report`` on a large sweep (stop 63): its first read keeps no key object a deal (:class:`_BestByKey`,
exact about keys whose hashes collide), and its page lists the first undecided deals, as report.md does,
with how many more and the command that lists them all (a sweep with thousands of undecided deals made a
page of thousands of rows)."""

from __future__ import annotations

import json
import re
import shlex
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.sweepreport import UNDECIDED_ROWS, summarise

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_qa62_report_stream import _lines, _Reread  # noqa: E402  (the records read again, stop 62's)


@pytest.mark.parametrize("count", [
    # 5,000 by default: the same bytes a deal (stop 63's summarise 369 against 362 of 20,000, now 298 against
    # 299) in a quarter of the time; 20,000 in the slow run
    pytest.param(5_000, id="5000"),
    pytest.param(20_000, id="20000", marks=pytest.mark.slow),
])
def test_summarise_keeps_no_key_object_a_deal(count: int) -> None:
    """Python's own count (tracemalloc: the same on every run), deals read again: summarise peaked at
    some 370 bytes a deal, 72 of them a tuple of the key's four fields and some 60 the dict's entry; it now
    peaks at some 290 (the best records in a list, their places in an array of four-byte numbers)."""
    source = _Reread(count)
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        summary = summarise(source, "big.jsonl")
        peak = tracemalloc.get_traced_memory()[1] - start
    finally:
        tracemalloc.stop()
    assert summary.deal_count() == source.count
    assert peak / source.count < 330, f"{peak / source.count:.0f} bytes a deal at the peak"


def _record(sha: str, seed: int, method: str = "astar", **fields: Any) -> dict[str, Any]:
    return {"puzzle_sha256": sha, "players": 1, "seed": seed, "method": method, **fields}


def test_keys_whose_hashes_collide_are_two_keys() -> None:
    """CPython hashes -1 as -2, so two keys that differ only there have the same hash: the table tells them
    apart by the keys themselves, as a dict does, and a key's later record takes its first one's place."""
    from stratagem.sweepreport import _BestByKey, _key

    sha = "ab" * 32
    one, two = _record(sha, -1, n=1), _record(sha, -2, n=2)
    assert hash(_key(one)) == hash(_key(two)) and _key(one) != _key(two)
    table = _BestByKey()
    table.put(_key(one), one)
    assert table.get(_key(two)) is None
    table.put(_key(two), two)
    assert table.get(_key(one)) is one and table.get(_key(two)) is two
    again = _record(sha, -1, n=3)
    table.put(_key(again), again)
    assert table.records == [again, two]
    # past many growths, as a dict keeps them: a key's last record in the place its first came, a key of
    # another form (its JSON text) too
    many = [_record(sha, seed, method) for seed in range(-300, 300) for method in ("astar", "auto")]
    many.append(_record(sha, None, "auto"))  # type: ignore[arg-type]
    held = {_key(r): r for r in [again, two] + many}
    for record in many:
        table.put(_key(record), record)
    assert table.records == list(held.values()) and len(held) == len(many)
    assert all(table.get(key) is record for key, record in held.items())


def _undecided_file(tmp_path: Path, count: int) -> Path:
    """The shipped sweep's first 40 records and ``count`` undecided deals of challenge 0, lower bounds 3 to 7."""
    records = [json.loads(line) for line in _lines(40)]
    base = next(r for r in records if r["status"] == "solved" and r["challenge"] == "Challenge 0")
    stopped = [dict(base, status="unknown", length=None, line=[], best_length=None, certificate=None,
                    solved_by=None, stopped_by="time", lower_bound=3 + n % 5, seed=10**6 + n) for n in range(count)]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records + stopped))
    return path


def test_the_page_lists_the_first_undecided_deals_and_the_command_that_lists_them_all(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    count = UNDECIDED_ROWS + 12
    results, out = _undecided_file(tmp_path, count), tmp_path / "report"
    assert run(["report", str(results), "--out", str(out), "--html", "--no-plots", "--quiet"]) == 0
    page, md = (out / "report.html").read_text(), (out / "report.md").read_text()
    part = page.split('id="undecided"', 1)[1].split('id="times"', 1)[0]
    seeds = re.findall(r"--deal (\d+) ", part)
    assert len(seeds) == UNDECIDED_ROWS  # the page listed all 62
    md_part = md.split("## Deals whose optimum is undecided", 1)[1].split("## Time per deal", 1)[0]
    assert re.findall(r"--deal (\d+) ", md_part) == seeds  # the same deals, in the same order, as report.md
    listing = shlex.join(["stratagem", "report", str(results), "--out", str(out), "--no-plots", "--html", "--json"])
    said = f"And 12 more, in the same order: `{listing}` lists all {count}"
    assert said in md_part
    assert said.replace("`", "<code>", 1).replace("`", "</code>", 1).replace('"', "&quot;") in part
    files = {name: (out / name).read_bytes() for name in ("report.md", "report.html")}
    capsys.readouterr()
    # the command named lists every one, and writes the same files again
    assert run(shlex.split(listing)[1:]) == 0
    listed = json.loads(capsys.readouterr().out)["undecided"]
    assert len(listed) == count and [str(r["seed"]) for r in listed[:UNDECIDED_ROWS]] == seeds
    assert {name: (out / name).read_bytes() for name in files} == files


def test_a_page_of_few_undecided_deals_lists_them_all_and_says_no_more(tmp_path: Path) -> None:
    results, out = _undecided_file(tmp_path, UNDECIDED_ROWS), tmp_path / "report"
    assert run(["report", str(results), "--out", str(out), "--html", "--no-plots", "--quiet"]) == 0
    part = (out / "report.html").read_text().split('id="undecided"', 1)[1].split('id="times"', 1)[0]
    assert len(re.findall(r"--deal (\d+) ", part)) == UNDECIDED_ROWS and "more, in the same order" not in part
