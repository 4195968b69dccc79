"""``report`` on a large results file without holding its records (stop 62). ``summarise`` of records it
reads again (a results file, :class:`ResultsRecords`) keeps each deal's best record as a
:class:`KeptRecord` of a few fields and reads the file a second time for the records it shows whole (the
hardest and easiest deals, the records of keys that disagree); its report is the one of the records held."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

from stratagem.core.errors import BadInput
from stratagem.sweeprecords import ResultsRecords, read_results
from stratagem.sweepreport import KeptRecord, summarise

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "results" / "strato-sweep" / "results.jsonl"


def _lines(count: int) -> list[str]:
    with SHIPPED.open() as handle:
        return [line.rstrip("\n") for line in islice(handle, count)]


class _Reread:
    """Records made anew each time they are read, as a results file read again gives them: ``count`` deals
    from the shipped sweep's first 500 records with new seeds."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.lines = _lines(500)

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for n in range(self.count):
            record = json.loads(self.lines[n % len(self.lines)])
            record["seed"] = 10**6 + n
            yield record


#: Deals of the two memory tests: 5,000 by default (3.2 -> 0.9 CPU s for summarise's; the bytes a deal
#: are the same: 298 at the peak and 269 kept, against 299 and 263 of 20,000), 20,000 in the slow run.
COUNTS = [pytest.param(5_000, id="5000"), pytest.param(20_000, id="20000", marks=pytest.mark.slow)]


@pytest.mark.parametrize("count", COUNTS)
def test_summarise_of_records_read_again_holds_a_fraction_of_them(count: int) -> None:
    """Python's own count (tracemalloc: the same on every run). The records, parsed, take some 3,050 bytes a
    deal (870 with their strings shared, as ``read_results`` shares them); summarise held its best one of
    each deal whole, so at least that (3,253 bytes a deal at its peak); it now peaks at some 360 bytes a deal and
    keeps some 260."""
    source = _Reread(count)
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        held = list(source)
        size = tracemalloc.get_traced_memory()[0] - start
        del held
        tracemalloc.reset_peak()
        start = tracemalloc.get_traced_memory()[0]
        summary = summarise(source, "big.jsonl")
        peak = tracemalloc.get_traced_memory()[1] - start
        kept = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert summary.deal_count() == source.count and summary.held == source.count
    assert peak < size / 4, f"{peak / source.count:.0f} bytes a deal at the peak, records {size / source.count:.0f}"
    assert kept < size / 8, f"{kept / source.count:.0f} bytes a deal kept"


def _mixed_file(tmp_path: Path) -> Path:
    """A results file with what a report tells apart: deals retried (superseded), a deal whose decided
    records disagree, two versions of a challenge, undecided deals and a last line without its newline."""
    records = [json.loads(line) for line in _lines(300)]
    solved = [r for r in records if r["status"] == "solved"]
    again = [dict(solved[3], seconds=9.5), dict(solved[5], length=solved[5]["length"] + 1, line=solved[5]["line"]
                                                + solved[5]["line"][:1])]
    other = dict(solved[7], puzzle_sha256="0" * 64, seed=10**9)
    unknown = dict(solved[9], status="unknown", length=None, best_length=None, line=[], certificate=None,
                   seed=10**9 + 1)
    position = {"format": "stratagem/sweep@1", "game": "stakd", "puzzle": "p.toml", "puzzle_sha256": "ab" * 32,
                "challenge": "P", "players": None, "seed": None, "method": "auto", "status": "unknown", "length": None,
                "line": [], "summary": "open", "seconds": 0.5, "time_limit": 30.0, "certificate": None}
    positions = [position, dict(position, status="solved", length=3, line=["a", "b", "c"], summary="won")]
    path = tmp_path / "results.jsonl"
    text = "".join(json.dumps(r) + "\n" for r in records[:100] + positions + records[100:] + again + [other, unknown])
    path.write_text(text.rstrip("\n"))
    return path


def test_a_report_of_records_read_again_is_the_report_of_the_records_held(tmp_path: Path) -> None:
    path = _mixed_file(tmp_path)
    held, _ = read_results(path)
    before = summarise(held, str(path))
    records = ResultsRecords(path)
    assert sum(1 for _ in records) == len(held)  # the first read: every line checked
    after = summarise(records, str(path))
    assert after.markdown() == before.markdown() and after.to_json() == before.to_json()
    assert after.conflicts == before.conflicts and len(after.conflicts) == 1
    assert after.versions == before.versions == frozenset({"Challenge 0"})
    assert after.superseded_seconds == before.superseded_seconds > 0
    assert all(isinstance(r, KeptRecord) for r in after.deals)
    assert after.positions == before.positions == [held[101]]  # another game's record: kept whole, the better one
    # the hardest and easiest deals whole, lines and all, for the page's replays
    assert after.hardest() == before.hardest() and after.easiest() == before.easiest()
    assert all(r["line"] for r in after.hardest())


def test_a_kept_record_reads_as_its_record_and_refuses_what_it_does_not_keep(tmp_path: Path) -> None:
    path = _mixed_file(tmp_path)
    records = ResultsRecords(path)
    list(records)
    kept = summarise(records, str(path)).deals[0]
    record = read_results(path)[0][0]
    fields = [name for name in kept if name != "certificate"]
    assert len(fields) == 12 and {name: kept[name] for name in fields} == {name: record[name] for name in fields}
    assert kept.get("information", "open") == "open" and "information" not in kept  # absent, as in the record
    assert kept["certificate"] is True  # whether there is one
    with pytest.raises(KeyError):
        kept["information"]
    with pytest.raises(AttributeError):  # not kept: never a silent None
        kept.get("line")


def test_records_read_again_are_the_ones_first_read(tmp_path: Path) -> None:
    """A sweep appending to the file between two reads adds nothing to the second; a file changed otherwise
    is refused, naming the line."""
    path = _mixed_file(tmp_path)
    records = ResultsRecords(path)
    first = list(records)
    with path.open("a") as handle:
        handle.write("\n" + _lines(1)[0] + "\n")
    assert list(records) == first
    path.write_text(path.read_text().replace('"seed"', '"seed', 1))
    with pytest.raises(BadInput, match=r"line 1: changed while the report read it"):
        list(records)


def test_records_read_are_refused_as_read_results_refuses_them(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(BadInput, match="is empty: no sweep record to report"):
        list(ResultsRecords(empty))
    with pytest.raises(BadInput, match="no such file"):
        list(ResultsRecords(tmp_path / "missing.jsonl"))
    torn = tmp_path / "torn.jsonl"
    torn.write_text(_lines(1)[0][:40])
    with pytest.raises(BadInput, match="its only line is torn"):
        list(ResultsRecords(torn))


@pytest.mark.parametrize("count", COUNTS)
def test_difficulty_keeps_the_open_records_of_the_hidden_sweeps_deals_alone(count: int) -> None:
    """``report HIDDEN --open-results OPEN`` held every record of OPEN (500 MB for an open file of 353,364
    deals beside the shipped hidden sweep of 5,000, now 59 MB): the cards read only the open records of the
    hidden sweep's deals, and ``difficulty`` now keeps those alone."""
    from stratagem.difficulty import difficulty

    hidden_file = ROOT / "results" / "strato-difficulty" / "results.jsonl"
    with hidden_file.open() as handle:
        hidden = [json.loads(line) for line in islice(handle, 200)]
    source = _Reread(count)  # deals of seeds from 10**6: none of the hidden sweep's (peak: 13 bytes a record
    # of 5,000, 5 of 20,000)
    shipped, _ = read_results(SHIPPED)
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        held = list(source)
        size = tracemalloc.get_traced_memory()[0] - start
        del held
        tracemalloc.reset_peak()
        start = tracemalloc.get_traced_memory()[0]
        cards = difficulty(hidden, "hidden.jsonl", source, "open.jsonl")
        peak = tracemalloc.get_traced_memory()[1] - start
    finally:
        tracemalloc.stop()
    assert peak < size / 20, f"{peak / source.count:.0f} bytes an open record, records {size / source.count:.0f}"
    assert not any(card.open for card in cards.cards)
    # the open records of its deals are still found, read once as from a list
    found = difficulty(hidden, "h.jsonl", iter(shipped), "o.jsonl")
    assert any(card.open for card in found.cards)
    assert found.to_json() == difficulty(hidden, "h.jsonl", shipped, "o.jsonl").to_json()


def test_the_files_a_report_reads_are_refused_as_before(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Read as they are needed rather than held, the results file and ``--open-results`` are refused with the
    same lines: a hidden record among the open ones, a file mixing the two, a malformed line past them."""
    from stratagem.cli.main import run

    hidden_lines = (ROOT / "results" / "strato-difficulty" / "results.jsonl").read_text().splitlines()[:2]
    hidden = tmp_path / "hidden.jsonl"
    hidden.write_text("".join(line + "\n" for line in hidden_lines))
    open_file = tmp_path / "open.jsonl"
    open_file.write_text("".join(line + "\n" for line in _lines(2) + hidden_lines[:1] + _lines(1)))
    assert run(["report", str(hidden), "--open-results", str(open_file), "--out", str(tmp_path / "a")]) == 2
    err = capsys.readouterr().err
    assert err == (f"{open_file}: line 3: a hidden-information record: --open-results takes an open sweep's "
                   "file\n"), err
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("".join(line + "\n" for line in _lines(2) + hidden_lines[:1] + ["{}"]))
    assert run(["report", str(mixed), "--out", str(tmp_path / "b")]) == 2
    err = capsys.readouterr().err  # every line is checked first: the malformed last one is told
    assert err.startswith(f"{mixed}: line 4: ") and len(err.strip().splitlines()) == 1, err
    mixed.write_text("".join(line + "\n" for line in _lines(2) + hidden_lines[:1]))
    assert run(["report", str(mixed), "--out", str(tmp_path / "b")]) == 2
    err = capsys.readouterr().err
    assert err == f"{mixed}: line 3: mixes hidden- and open-information records: one sweep a file\n", err
    assert not (tmp_path / "a").exists() and not (tmp_path / "b" / "report.md").exists()


def test_a_torn_last_line_is_left_out_of_the_report_with_a_note(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Of the results file and of ``--open-results`` alike, as when the records were held."""
    from stratagem.cli.main import run

    results = tmp_path / "results.jsonl"
    results.write_text("".join(line + "\n" for line in _lines(3)) + _lines(4)[3][:50])
    assert run(["report", str(results), "--out", str(tmp_path / "a"), "--no-plots"]) == 0
    err = capsys.readouterr().err
    assert f"{results}: line 4 is torn (a run stopped while writing it); left out of the report" in err, err
    assert "3 Strato deal(s)" in (tmp_path / "a" / "report.md").read_text()
    hidden = tmp_path / "hidden.jsonl"
    hidden.write_text((ROOT / "results" / "strato-difficulty" / "results.jsonl").read_text().splitlines()[0] + "\n")
    assert run(["report", str(hidden), "--open-results", str(results), "--out", str(tmp_path / "b")]) == 0
    err = capsys.readouterr().err
    assert f"{results}: line 4 is torn (a run stopped while writing it); left out of the report" in err, err
