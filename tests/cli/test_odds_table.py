"""``stratagem odds --table``: the compiled hidden-pile search from the command line, its value table
through ``verify``, one limit for the search and the table, and the options it refuses."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import PUZZLES, ROOT

from stratagem import __version__
from stratagem.cli.main import run
from stratagem.core.provenance import file_sha256

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
CHALLENGE_1 = str(PUZZLES / "challenge-1.toml")


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_sure_win_is_exact_and_its_table_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "solo-1.gz"
    code, out, _ = cli(capsys, "odds", CHALLENGE_0, "--deal", "solo-1", "--table", str(table), "--json")
    assert code == 0
    report = json.loads(out)
    assert report["format"] == "stratagem/odds-bounds@1"
    assert report["status"] == "solved"
    assert report["win_probability"] == report["lower_bound"] == report["upper_bound"] == "1"
    assert report["table"] == str(table) and report["table_rows"] > 0
    header = json.loads(gzip.decompress(table.read_bytes()).split(b"\n", 1)[0])
    assert header["format"] == "stratagem/strato-odds-table@4"
    assert header["claim"] == {"upper_bound": "1", "lower_bound": "1", "exact": True}
    code, out, _ = cli(capsys, "verify", str(table), "--json")
    assert code == 0, out
    assert json.loads(out)["status"] == "certified"


def test_the_table_says_what_made_it_and_verify_shows_it_unchecked(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The header's ``provenance`` names the code and the puzzle file (its digest); ``verify`` prints it as
    the table states it, and its verdict is the same with the provenance forged."""
    table = tmp_path / "solo-1.gz"
    assert cli(capsys, "odds", CHALLENGE_0, "--deal", "solo-1", "--table", str(table), "--quiet")[0] == 0
    head, rows = gzip.decompress(table.read_bytes()).split(b"\n", 1)
    header = json.loads(head)
    assert header["provenance"]["input"] == {"path": CHALLENGE_0, "sha256": file_sha256(CHALLENGE_0)}
    assert header["provenance"]["stratagem"] == __version__
    code, out, _ = cli(capsys, "verify", str(table))
    assert code == 0 and "made by (as the record states it, not checked): stratagem " in out
    header["provenance"] = {"stratagem": "0.0.0-forged", "git": None}
    forged = tmp_path / "forged.gz"
    forged.write_bytes(gzip.compress(json.dumps(header).encode() + b"\n" + rows))
    code, out, _ = cli(capsys, "verify", str(forged))
    assert code == 0 and "stratagem 0.0.0-forged" in out and "every claim certified" in out


def test_the_table_is_the_same_bytes_wherever_and_whenever_it_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "a.gz", tmp_path / "b.gz"
    for path in (first, second):
        assert cli(capsys, "odds", CHALLENGE_0, "--deal", "solo-2", "--table", str(path), "--quiet")[0] == 0
    assert first.read_bytes() == second.read_bytes()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


def test_a_truncated_table_is_bad_input_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The checker reads a table's rows as it walks them (a table of millions is not held whole): a gzip
    stream cut short is found while reading and is bad input (exit 2, one line naming the file), not a
    traceback, whether the header or only the rows are whole."""
    table = tmp_path / "whole.gz"
    assert cli(capsys, "odds", CHALLENGE_0, "--deal", "solo-1", "--table", str(table), "--quiet")[0] == 0
    data = table.read_bytes()
    for keep in (len(data) // 2, len(data) - 12):
        cut = tmp_path / f"cut-{keep}.gz"
        cut.write_bytes(data[:keep])
        code, out, err = cli(capsys, "verify", str(cut))
        assert code == 2 and out == "", (keep, out)
        assert len(err.strip().splitlines()) == 1 and str(cut) in err and "gzip" in err, err



def test_verify_of_a_table_keeps_to_its_time_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """One deadline for the whole command, the table's check included: a check the limit stops certifies
    nothing, says where it stopped, and exits 3 (not all certified, nothing wrong found)."""
    from stratagem.verification import oddstable

    table = tmp_path / "t.gz"
    assert cli(capsys, "odds", CHALLENGE_0, "--deal", "solo-1", "--table", str(table), "--quiet")[0] == 0
    monkeypatch.setattr(oddstable, "CLOCK_ROWS", 1)  # the clock looked at every row: this table is small
    code, out, _ = cli(capsys, "verify", str(table), "--time-limit", "1e-6")
    assert code == 3, out
    assert out.splitlines()[1].startswith("checked: the position: Challenge 0, start ")  # read before the rows
    lines = [line for line in out.splitlines() if not line.startswith(("made by ", "checked: ", "note: "))]
    assert [line.split(" ", 1)[0] for line in lines[:3]] == ["unknown:"] * 3 and "certified:" not in out
    assert "ran out after 1 row was read, before any was checked" in lines[0]


def test_a_position_reports_the_exact_fraction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the same two-thirds position tests/cli/test_odds.py values with the plain search
    table = tmp_path / "t.gz"
    code, out, _ = cli(capsys, "odds", CHALLENGE_0, "--position", "RRWR(RW)WWRW RRR WRR 1 -", "--table", str(table))
    assert code == 0
    assert "win probability 2/3 = 0.6667 (exact: compiled search" in out
    assert f"check it with `stratagem verify {table}`" in out
    assert cli(capsys, "verify", str(table))[0] == 0


@pytest.mark.parametrize("extra", [("--proof", "p.json"), ("--no-rank",), ("--rank",)])
def test_options_of_the_plain_search_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 extra: tuple[str, ...]) -> None:
    table = tmp_path / "t.gz"
    args = [a if a != "p.json" else str(tmp_path / a) for a in extra]
    code, _, err = cli(capsys, "odds", CHALLENGE_0, "--deal", "solo-1", "--table", str(table), *args)
    assert code == 2
    assert "--table" in err
    assert not table.exists()


def test_an_unwritable_table_is_refused_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "odds", CHALLENGE_1, "--deal", "solo-3", "--table", str(tmp_path / "no" / "t.gz"))
    assert code == 2
    assert "--table" in err and "does not exist" in err
    assert len(err.strip().splitlines()) == 1


def test_a_challenge_1_deal_gets_a_proven_interval_within_its_limit(tmp_path: Path) -> None:
    table = tmp_path / "solo-3.gz"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "stratagem", "odds", CHALLENGE_1, "--deal", "solo-3",
                           "--time-limit", "4", "--table", str(table), "--json"],
                          capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)
    wall = time.perf_counter() - started
    assert done.returncode == 3, done.stderr
    assert wall < 1.2 * 4 + 1 + 1.5, wall  # the standard, and an interpreter's start on a loaded machine
    report = json.loads(done.stdout)
    assert report["status"] == "unknown" and report["win_probability"] is None
    assert 0 <= report["lower_bound_float"] <= report["upper_bound_float"] <= 1
    if report["table"] is None:  # the limit stopped the writing: nothing half-written, and it says so
        assert not table.exists()
        assert "no value table written" in done.stderr
    else:
        header = json.loads(gzip.decompress(table.read_bytes()).split(b"\n", 1)[0])
        assert header["claim"]["lower_bound"] == report["lower_bound"]
        assert header["claim"]["upper_bound"] == report["upper_bound"]


def test_the_table_is_the_finest_pass_that_can_be_written_in_the_time_left() -> None:
    """A policy pass's table costs more to write than its search took: ``odds --table`` writes the finest
    finished pass whose table fits the time left (at ``WRITE_SECONDS_PER_STATE`` a state, with a margin), else
    the coarsest."""
    from types import SimpleNamespace

    from stratagem.winprobability import WRITE_MARGIN, WRITE_SECONDS_PER_STATE, _pass_to_write

    def kept(states: int) -> SimpleNamespace:
        return SimpleNamespace(kernel=SimpleNamespace(stats=lambda: (states, 0, 0, 0)))

    passes = (kept(1_000), kept(10_000), kept(100_000))
    per = WRITE_MARGIN * WRITE_SECONDS_PER_STATE
    assert _pass_to_write(passes, None) is passes[2]
    assert _pass_to_write(passes, 100_000 * per) is passes[2]
    assert _pass_to_write(passes, 50_000 * per) is passes[1]
    assert _pass_to_write(passes, 10 * per) is passes[0]
    assert _pass_to_write((), 1.0) is None


def test_the_stopped_pass_is_written_with_the_finest_one_when_both_fit() -> None:
    from types import SimpleNamespace

    from stratagem.winprobability import WRITE_MARGIN, WRITE_SECONDS_PER_STATE, _sources_to_write

    def kept(states: int) -> SimpleNamespace:
        return SimpleNamespace(kernel=SimpleNamespace(stats=lambda: (states, 0, 0, 0)))

    coarse, fine, stopped = kept(1_000), kept(10_000), kept(15_000)
    found = SimpleNamespace(passes=(coarse, fine), policy=fine, unfinished=stopped)
    per = WRITE_MARGIN * WRITE_SECONDS_PER_STATE
    assert _sources_to_write(found, None) == (stopped, fine)
    assert _sources_to_write(found, 25_100 * per) == (stopped, fine)
    assert _sources_to_write(found, 24_000 * per) == (fine,)
    assert _sources_to_write(found, 5_000 * per) == (coarse,)
    assert _sources_to_write(SimpleNamespace(passes=(coarse, fine), policy=fine, unfinished=None), None) == (fine,)
    assert _sources_to_write(SimpleNamespace(passes=(), policy=None, unfinished=stopped), None) == (stopped,)
    assert _sources_to_write(SimpleNamespace(passes=(), policy=None, unfinished=None), None) == ()


def test_a_table_of_more_rows_than_verify_reads_is_not_written(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop 58: verify reads at most MAX_TABLE_ROWS rows (20 million, a few GB of checking); a search that
    made more would write a table its own check refuses. The writer says so and writes nothing."""
    from stratagem.verification import oddstable

    monkeypatch.setattr(oddstable, "MAX_TABLE_ROWS", 10)  # solo-1's table has 77 rows
    table = tmp_path / "solo-1.gz"
    code, out, err = cli(capsys, "odds", CHALLENGE_0, "--deal", "solo-1", "--table", str(table), "--json")
    report = json.loads(out)
    assert report["table"] is None and not table.exists() and list(tmp_path.iterdir()) == []
    assert "no value table written: " in err and "77 rows, more than the 10 verify reads" in err, err
    # the value is exact, but the table asked for is not there: part of the work undone (exit 3, as an
    # export a limit stopped; it was 0 before stop 63)
    assert code == 3 and report["win_probability"] == "1" and report["status"] == "solved"
