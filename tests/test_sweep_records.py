"""A sweep's statistics cannot be corrupted by what its results file holds: a record's key is the deal
(puzzle, players, seed, method), never the time limit; retrying re-runs only what it names; ``report``
counts one record per deal (the best-established); new deals with another time limit are refused unless
``--force-settings``; every record says where it came from (``provenance``)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.sweep import ResultsFile, best_records, plan, record_key, sweep, uncertified
from stratagem.sweepreport import summarise

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE_0 = ROOT / "puzzles" / "strato" / "challenge-0.toml"


def lines_of(path: Path) -> list[dict[str, Any]]:
    text = path.read_text()
    assert text.endswith("\n"), "a torn last line"
    return [json.loads(line) for line in text.splitlines()]


def write_lines(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def first_run(out: Path, seeds: range, limit: float = 30.0) -> list[dict[str, Any]]:
    results = ResultsFile(out)
    results.check()
    sweep(plan([str(CHALLENGE_0)], seeds, (1,), time_limit=limit), results, workers=0)
    return lines_of(out)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = run(list(args))
    return code, capsys.readouterr().err


def stopped(record: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """``record`` as a time limit would have left it: unknown, no line, no certificate."""
    return {**record, "status": "unknown", "length": None, "line": [], "best_length": None, "certificate": None,
            "solved_by": "sat", "stopped_by": "time", **changes}


def test_the_key_is_the_deal_not_the_time_limit(tmp_path: Path) -> None:
    records = first_run(tmp_path / "r.jsonl", range(1))
    record = records[0]
    assert record_key(record) == record_key({**record, "time_limit": 600.0})
    assert record_key(record) == record_key({**record, "time_limit": None})
    assert record_key(record) != record_key({**record, "seed": 1})
    assert record_key(record) != record_key({**record, "method": "sat"})


def test_retry_unknown_with_a_longer_limit_runs_only_the_undecided(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    solved = first_run(out, range(3))
    write_lines(out, [solved[0], stopped(solved[1]), solved[2]])
    code, err = cli(capsys, "sweep", str(CHALLENGE_0), "--count", "3", "--time-limit", "90", "--out", str(out),
                    "--workers", "0", "--retry-unknown")
    assert code == 0, err
    assert "1 record(s) written" in err and "2 already there" in err, err
    records = lines_of(out)
    assert len(records) == 4
    assert (records[3]["seed"], records[3]["time_limit"], records[3]["retry"]) == (1, 90.0, "unknown")
    assert records[3]["status"] == "solved"
    report = summarise(records, str(out))
    assert len(report.deals) == 3 and report.held == 4  # one per deal, whatever the file holds
    assert [r["status"] for r in report.deals] == ["solved"] * 3
    row = report.fractions()[0]
    assert (row["deals"], row["solvable"], row["undecided"]) == (3, 3, 0)


def test_report_counts_each_deal_once_and_the_best_established(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    solved = first_run(out, range(2))
    # Deal 0 solved, then a retry on a busier machine stopped: the proven answer stays the one counted.
    # Deal 1 recorded four times (a copy-paste of the file into itself).
    records = [solved[0], solved[1], stopped(solved[0], retry="unknown"), solved[1], solved[1], solved[1]]
    write_lines(out, records)
    report = summarise(records, str(out))
    assert len(report.deals) == 2 and report.held == 6
    assert all(r["status"] == "solved" for r in report.deals)
    row = report.fractions()[0]
    assert (row["deals"], row["solvable"]) == (2, 2)
    assert row["low"] == pytest.approx(0.342, abs=0.001)  # Wilson for 2 of 2, not for 5 of 5
    code, err = cli(capsys, "report", str(out), "--out", str(tmp_path / "rep"), "--no-plots")
    assert code == 0 and "2 deal(s) from 6 records (4 superseded)" in err, err
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "6 records, of which 4 superseded" in text
    assert "| Challenge 0 | 1 | auto | 2 | 2 | 0 | 0 |" in text
    # the superseded runs' time is in no row of the time table: it is said under it (it was said nowhere)
    extra = records[2]["seconds"] + 3 * records[1]["seconds"]
    assert report.superseded_seconds == pytest.approx(extra)
    assert f"took {extra:,.1f} s more, in no row above" in text
    assert summarise(solved, str(out)).superseded_seconds == 0


def test_a_certificate_outranks_a_search_and_the_latest_breaks_ties(tmp_path: Path) -> None:
    solved = first_run(tmp_path / "r.jsonl", range(1))[0]
    searched = {**solved, "certificate": None, "solved_by": "astar"}
    assert uncertified(searched) and not uncertified(solved)
    assert best_records([solved, searched])[record_key(solved)] is solved
    assert best_records([searched, solved])[record_key(solved)] is solved
    later = {**solved, "seconds": 1.0}
    assert best_records([solved, later])[record_key(solved)] is later
    with_line = stopped(solved, best_length=7)
    assert best_records([searched, with_line])[record_key(solved)] is searched


def test_decided_records_that_disagree_are_listed(tmp_path: Path) -> None:
    solved = first_run(tmp_path / "r.jsonl", range(1))[0]
    other = {**solved, "length": solved["length"] + 1, "retry": "uncertified"}
    report = summarise([solved, other], "r.jsonl")
    assert len(report.conflicts) == 1 and len(report.deals) == 1
    assert "1 deal(s) have decided records that disagree" in report.markdown()


def test_retry_uncertified_reruns_what_rests_on_a_search(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    solved = first_run(out, range(3))
    searched = {**solved[1], "certificate": None, "solved_by": "astar"}
    write_lines(out, [solved[0], searched, stopped(solved[2])])
    before = summarise(lines_of(out), str(out))
    assert "resting on a search alone: 1 (`stratagem sweep --retry-uncertified`" in before.markdown()
    args = ["sweep", str(CHALLENGE_0), "--count", "3", "--time-limit", "30", "--out", str(out), "--workers", "0"]
    code, err = cli(capsys, *args, "--retry-uncertified")
    assert code == 0 and "1 record(s) written" in err, err  # the searched one only, not the unknown one
    records = lines_of(out)
    assert (records[-1]["seed"], records[-1]["retry"]) == (1, "uncertified")
    assert records[-1]["certificate"] is not None
    code, err = cli(capsys, *args, "--retry-uncertified", "--retry-unknown")
    assert code == 0 and "1 record(s) written" in err, err  # now the unknown one
    after = summarise(lines_of(out), str(out))
    assert not [r for r in after.deals if uncertified(r) or r["status"] == "unknown"]
    assert "resting on a search alone: 0." in after.markdown()


def test_new_deals_with_another_time_limit_are_refused_unless_forced(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    first_run(out, range(1))
    before = out.read_bytes()
    args = ["sweep", str(CHALLENGE_0), "--count", "2", "--out", str(out), "--workers", "0"]
    code, err = cli(capsys, *args, "--time-limit", "45")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "line 1: made with --time-limit 30" in err and "--time-limit 45" in err and "--force-settings" in err
    assert out.read_bytes() == before
    code, err = cli(capsys, *args, "--time-limit", "45", "--retry-unknown")  # still a new deal at 45
    assert code == 2 and "--force-settings" in err, err
    code, err = cli(capsys, *args, "--time-limit", "30")  # the file's own limit: a plain resume
    assert code == 0 and "1 record(s) written" in err, err
    code, err = cli(capsys, *args, "--count", "3", "--time-limit", "45", "--force-settings")
    assert code == 0 and "1 record(s) written" in err, err
    assert [r["time_limit"] for r in lines_of(out)] == [30.0, 30.0, 45.0]


def test_records_carry_their_provenance(tmp_path: Path) -> None:
    records = first_run(tmp_path / "r.jsonl", range(1))
    source = records[0]["provenance"]
    assert source["stratagem"] == records[0]["version"]
    assert source["input"] == {"path": str(CHALLENGE_0), "sha256": hashlib.sha256(CHALLENGE_0.read_bytes()).hexdigest()}
    assert set(source) >= {"git", "python", "python_sat", "ortools", "compiled_core"}
    assert records[0]["retry"] is None


def test_a_last_record_without_its_newline_is_kept_and_ended(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    first_run(out, range(1))
    out.write_bytes(out.read_bytes().rstrip(b"\n"))  # a whole record, saved by an editor without the newline
    code, err = cli(capsys, "report", str(out), "--out", str(tmp_path / "rep"), "--no-plots")
    assert code == 0 and "1 deal(s)" in err, err
    code, err = cli(capsys, "sweep", str(CHALLENGE_0), "--count", "2", "--time-limit", "30", "--out", str(out),
                    "--workers", "0")
    assert code == 0 and "1 record(s) written" in err and "1 already there" in err, err
    assert [r["seed"] for r in lines_of(out)] == [0, 1]


def assert_one_line(code: int, err: str, *fragments: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    for fragment in fragments:
        assert fragment in err, (fragment, err)


@pytest.mark.parametrize(("name", "content", "fragments"), [
    ("wrong-format.jsonl", b'{"format": "stratagem/solve@1", "status": "solved"}', ("line 1", "stratagem/solve@1")),
    ("truncated.jsonl", b'{"best_length":null,"certificate":{"kind":"relax', ("no whole record", "torn")),
    ("garbage.jsonl", bytes(range(256)) * 4, ("line 1", "not a JSON record")),
    ("empty.jsonl", b"", ("is empty",)),
    ("not-json.jsonl", b"hello", ("line 1", "not a JSON record")),
])
def test_report_refuses_what_is_not_a_results_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                                   content: bytes, fragments: tuple[str, ...]) -> None:
    path = tmp_path / name
    path.write_bytes(content)  # one line, no final newline (or none at all)
    code, err = cli(capsys, "report", str(path), "--out", str(tmp_path / "rep"), "--no-plots")
    assert_one_line(code, err, name, *fragments)
    assert not (tmp_path / "rep" / "report.md").exists()


def test_an_empty_line_is_named_as_such(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An editor's blank line after the records was refused as 'not a JSON record', which sent the user
    looking for a broken record."""
    first = (ROOT / "results" / "strato-sweep" / "results.jsonl").read_bytes().splitlines()[0]
    path = tmp_path / "edited.jsonl"
    path.write_bytes(first + b"\n\n")
    code, err = cli(capsys, "report", str(path), "--out", str(tmp_path / "rep"), "--no-plots")
    assert_one_line(code, err, "edited.jsonl", "line 2", "an empty line", "remove it")


def test_report_refuses_a_huge_line_without_reading_it_all(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.jsonl"
    with open(path, "wb") as handle:
        handle.write(b'{"best_length":"' + b"x" * (70 << 20) + b'"}')
    code, err = cli(capsys, "report", str(path), "--out", str(tmp_path / "rep"), "--no-plots")
    assert_one_line(code, err, "huge.jsonl", "line 1", "longer than 1 MiB")


def test_a_fifo_is_refused_not_waited_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "results.jsonl"
    os.mkfifo(fifo)  # nobody writes to it: opening it to read in the usual way would block forever
    code, err = cli(capsys, "report", str(fifo), "--out", str(tmp_path / "rep"), "--no-plots")
    assert_one_line(code, err, str(fifo), "not a regular file")
    code, err = cli(capsys, "solve", str(fifo))
    assert_one_line(code, err, str(fifo), "not a regular file")
    code, err = cli(capsys, "verify", str(fifo))
    assert_one_line(code, err, str(fifo), "not a regular file")
    code, err = cli(capsys, "sweep", str(fifo), "--out", str(tmp_path / "r.jsonl"))
    assert_one_line(code, err, str(fifo), "not a regular file")


@pytest.mark.parametrize(("seeds", "fragment"), [
    ("0..99999999999999999999999", "2^63-1"),
    ("0..9223372036854775808", "2^63-1"),
    ("0..20000000", "at most 250,000"),
    ("1e3..2e3", "seed range"),
])
def test_seed_ranges_are_capped(tmp_path: Path, capsys: pytest.CaptureFixture[str], seeds: str, fragment: str) -> None:
    code, err = cli(capsys, "sweep", str(CHALLENGE_0), "--seeds", seeds, "--out", str(tmp_path / "r.jsonl"))
    assert_one_line(code, err, "--seeds", fragment)
    assert not (tmp_path / "r.jsonl").exists()


@pytest.mark.parametrize("address", ["☃://x", "tcp://", "host-without-port", "tcp://host:99999", ""])
def test_a_malformed_scheduler_address_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   address: str) -> None:
    pytest.importorskip("distributed")
    code, err = cli(capsys, "sweep", str(CHALLENGE_0), "--count", "1", "--out", str(tmp_path / "r.jsonl"),
                    "--scheduler", address, "--connect-timeout", "1")
    assert_one_line(code, err, "--scheduler")


def test_the_lengths_table_counts_undecided_deals_in_a_column_of_their_own(tmp_path: Path) -> None:
    """report.md's lengths table, like the page's, has an undecided column, so that each row adds up to the
    group's deals (a deal stopped by the limit was once left out of it without a word)."""
    solved = first_run(tmp_path / "r.jsonl", range(3))
    records = [solved[0], solved[1], stopped(solved[2])]
    length = solved[0]["length"]
    text = summarise(records, "r.jsonl").markdown()
    header = next(line for line in text.splitlines() if line.startswith("| challenge | players | ")
                  and "undecided" in line and "method" not in line)
    columns = [c.strip() for c in header.strip("|").split("|")]
    row = next(line for line in text.splitlines()[text.splitlines().index(header) + 2:]
               if line.startswith("| Challenge 0 | 1 |"))
    cells = dict(zip(columns, [c.strip() for c in row.strip("|").split("|")], strict=True))
    assert cells["undecided"] == "1"
    assert sum(int(cells[c]) for c in columns[2:]) == 3
    assert int(cells[str(length)]) == sum(r["length"] == length for r in solved[:2])


@pytest.mark.parametrize(("edit", "fragment"), [
    (lambda r: r.pop("puzzle"), "puzzle null is not a file name"),
    (lambda r: r.update(time_limit="10"), 'time_limit "10" is neither null nor a number of seconds'),
    (lambda r: r.update(time_limit=-1), "time_limit -1 is neither null"),
    (lambda r: r.update(length=10**30, lower_bound=10**30), "more turns than a Strato deck has cards"),
    (lambda r: r.update(length=5000, lower_bound=5000), "length 5000 is more turns"),
    (lambda r: r.update(length=3, lower_bound=3), "length 3 is not the"),
    (lambda r: r.update(method="bogus"), 'method "bogus" is not one of'),
    (lambda r: r.update(status="unsolvable", length=None), "line holds moves (status unsolvable"),
    (lambda r: r.update(status="unknown", length=None, best_length=None), "best_length null is not the"),
    (lambda r: r.update(challenge=5), "challenge 5 is not a name"),
    (lambda r: r.update(challenge=["x"]), 'challenge ["x"] is not a name'),
    (lambda r: r.update(game=5), "game 5 is not one of strato"),
    (lambda r: r["line"].__setitem__(-1, "Q9X"), "line's move 5 is not a move: move 'Q9X' is not of the form"),
], ids=["no-puzzle", "limit-text", "limit-negative", "length-huge", "length-5000", "length-not-the-line",
        "method", "unsolvable-with-line", "unknown-line-without-best", "challenge-number", "challenge-list",
        "game-number", "move-not-in-the-notation"])
def test_report_refuses_a_record_edited_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: Any,
                                                fragment: str) -> None:
    """Fields a report prints or draws as they are: a missing puzzle or a text time limit crashed it (exit
    70), a length of 10^30 overflowed it, one of 5000 made it draw 5000 bars for 81 s, and a length that is
    not its line's moves, a method no sweep has or a negative limit were drawn as if proven; a move not in
    the notation was read, and the report's page then said the line did not replay."""
    record = first_run(tmp_path / "r.jsonl", range(1))[0]
    edit(record)
    path = tmp_path / "edited.jsonl"
    write_lines(path, [record])
    code, err = cli(capsys, "report", str(path), "--out", str(tmp_path / "rep"))
    assert_one_line(code, err, "edited.jsonl", "line 1", fragment)
    assert not (tmp_path / "rep").exists()


@pytest.mark.parametrize(("reply", "fragment"), [
    (None, "no Dask scheduler answered within 1 s"),
    (b"HTTP/1.1 400 Bad Request\r\n\r\n", "its first bytes are not a Dask greeting"),
    (b"", "closed the connection without a whole greeting"),
    (b"\x40" + bytes(7), "no Dask scheduler answered within 1 s"),  # a greeting's length, then silence
], ids=["silent", "http", "closes", "stalls"])
def test_a_server_that_is_not_a_dask_scheduler_is_refused_within_the_timeout(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], reply: bytes | None, fragment: str) -> None:
    """``--scheduler`` at a port where something else listens: a silent server (a dashboard's HTTP port)
    kept the sweep waiting for minutes past ``--connect-timeout``, and one that answers with text crashed
    it (Dask read the bytes as a length of exabytes: MemoryError, exit 70)."""
    import socket
    import threading
    import time

    pytest.importorskip("distributed")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    port = server.getsockname()[1]
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            if reply is None or reply.startswith(b"\x40"):
                conn.sendall(reply or b"")
                held.append(conn)  # says nothing (more), keeps the connection open
            else:
                conn.sendall(reply)
                conn.close()

    threading.Thread(target=serve, daemon=True).start()
    try:
        started = time.monotonic()
        code, err = cli(capsys, "sweep", str(CHALLENGE_0), "--count", "1", "--out", str(tmp_path / "r.jsonl"),
                        "--scheduler", f"tcp://127.0.0.1:{port}", "--connect-timeout", "1")
        assert time.monotonic() - started < 1.2 * 1 + 1
    finally:
        server.close()
        for conn in held:
            conn.close()
    assert_one_line(code, err, "--scheduler", fragment)
    assert not (tmp_path / "r.jsonl").exists()


def test_an_undecided_deal_whose_bound_is_its_line_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The shipped sweep lists seed 280 as undecided with lower bound 10 and a line of 10: the SAT solver's
    refutations under assumptions, the certificate not reached. The report says so under the table (and
    only then)."""
    from stratagem.sweepreport import TIED_NOTE

    record = first_run(tmp_path / "r.jsonl", range(1))[0]
    n = len(record["line"])
    for lower, said in ((n, True), (n - 1, False)):
        path = tmp_path / f"tied{lower}.jsonl"
        write_lines(path, [stopped(record, line=record["line"], best_length=n, lower_bound=lower)])
        code, _ = cli(capsys, "report", str(path), "--out", str(tmp_path / f"rep{lower}"), "--no-plots", "--html")
        assert code == 0
        assert (TIED_NOTE in (tmp_path / f"rep{lower}" / "report.md").read_text()) is said
        page = (tmp_path / f"rep{lower}" / "report.html").read_text()
        assert ("the time ran out before the certificate the <code>sat</code> method" in page) is said


def test_a_record_with_a_key_twice_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``"status":"unsolvable","status":"solved"`` was read as its last spelling, solved, where verify and
    view refuse a key given twice."""
    record = first_run(tmp_path / "r.jsonl", range(1))[0]
    line = json.dumps(record)
    path = tmp_path / "twice.jsonl"
    path.write_text(line.replace('"status": ', '"status": "unsolvable", "status": ', 1) + "\n")
    code, err = cli(capsys, "report", str(path), "--out", str(tmp_path / "rep"))
    assert_one_line(code, err, "twice.jsonl", "line 1", "the key 'status' is given twice in one record")


def test_the_largest_sweep_fits_twice_in_a_results_file_its_resume_and_report_read() -> None:
    """Stop 58: a sweep could plan 10,000,000 tasks, but a results file past 1 GiB (some 740,000 records)
    is refused by the sweep's own resume and by report. The task cap is held to the file cap, with room
    for a retry of every task, measured on the shipped sweep's records."""
    from stratagem.sweeprecords import MAX_RESULTS_BYTES, MAX_TASKS

    shipped = Path(__file__).resolve().parent.parent / "results" / "strato-sweep" / "results.jsonl"
    longest = max(len(line) for line in shipped.read_bytes().splitlines())
    assert 2 * MAX_TASKS * longest < MAX_RESULTS_BYTES, (MAX_TASKS, longest)


def test_a_results_file_read_shares_its_repeated_strings(tmp_path: Path) -> None:
    # Each line parsed on its own made its keys, puzzle, digest and moves anew: 99,540 records took 316 MB
    # (66 MB shared), and a report of a file at the 1 GiB cap some 8 GB.
    from stratagem.sweeprecords import read_results

    shipped = (ROOT / "results" / "strato-sweep" / "results.jsonl").read_text().splitlines()[:3]
    path = tmp_path / "r.jsonl"
    path.write_text("".join(line + "\n" for line in shipped))
    records, _ = read_results(path)
    assert records == [{k: v for k, v in json.loads(line).items() if k != "provenance"} for line in shipped]
    first, second = records[0], records[1]
    assert first["puzzle"] is second["puzzle"] and first["puzzle_sha256"] is second["puzzle_sha256"]
    assert all(a is b for a, b in zip(first, second, strict=True))  # the keys (sorted in every record)
    moves = {id(m) for r in records for m in r["line"]}
    assert len(moves) == len({m for r in records for m in r["line"]})  # each move's text held once
    again = ResultsFile(path)
    again.check()
    assert again.records[0]["challenge"] is again.records[2]["challenge"]


def test_a_results_file_the_run_made_and_wrote_nothing_to_is_removed(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # A full disk at the first record left an empty results file behind (a failed run's half-made output).
    import errno

    from stratagem import sweeprecords

    line = (ROOT / "results" / "strato-sweep" / "results.jsonl").read_text(encoding="utf-8").split("\n", 1)[0]
    made, kept = tmp_path / "made.jsonl", tmp_path / "kept.jsonl"
    kept.write_bytes(b"")  # the user's own empty file stays, whatever happens
    for path in (made, kept):
        results = sweeprecords.ResultsFile(path)
        results.check()
        results.open()

        def full(fd: int, data: bytes) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(sweeprecords.os, "write", full)
        with pytest.raises(OSError):
            results.append(json.loads(line))
        monkeypatch.undo()
        results.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.jsonl"]
    written = sweeprecords.ResultsFile(made)  # a run that writes keeps its file
    written.check()
    written.open()
    written.append(json.loads(line))
    written.close()
    assert made.read_text(encoding="utf-8") == line + "\n"
