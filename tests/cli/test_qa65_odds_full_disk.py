"""QA 65: ``odds --table`` whose table's disk is full still prints what the search found.

The search behind ``--table`` can take minutes; the table is written after it. A disk that refused the
table (full, a quota, an I/O error) ended the command with "cannot write the output" (exit 74) and nothing
else, so the values the search had found were lost with it. Now the report is printed all the same, stderr
says in one line that the table is not there and why, and the exit is still 74.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
from conftest import PUZZLES

import stratagem.models.strato.hidden.valuetable as valuetable

POSITION = "RRWR(RW)WWRW RRR WRR 1 -"


def _full(*args, **kwargs):  # type: ignore[no-untyped-def]
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("as_json", [False, True])
def test_a_full_disk_keeps_the_values_found(cli, tmp_path: Path, monkeypatch, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    table = tmp_path / "t.gz"
    found = cli("odds", str(PUZZLES / "challenge-0.toml"), "--position", POSITION, "--table", str(table),
                *(["--json"] if as_json else []))
    assert found.code == 0, found.err
    monkeypatch.setattr(valuetable, "write_table", _full)
    table.unlink()
    result = cli("odds", str(PUZZLES / "challenge-0.toml"), "--position", POSITION, "--table", str(table),
                 *(["--json"] if as_json else []))
    assert result.code == 74, result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{table}: no value table written: No space left on device")
    assert not table.exists()
    if as_json:
        report, before = json.loads(result.out), json.loads(found.out)
        assert report["table"] is None and "No space left" in report["table_note"]
        assert report["win_probability"] == before["win_probability"] is not None  # the search's value stands
    else:
        assert "win probability 2/3 = 0.6667 (exact: compiled search" in result.out
        assert "value table written" not in result.out


def test_the_library_returns_the_bounds_with_the_refusal(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import stratagem
    from stratagem.winprobability import odds_bounds

    monkeypatch.setattr(valuetable, "write_table", _full)
    deal = stratagem.load(str(PUZZLES / "challenge-0.toml"), "solo-1")
    bounds = odds_bounds(deal, tmp_path / "t.gz", time_limit=60)
    assert bounds.table is None and bounds.table_error is not None and bounds.table_error.errno == errno.ENOSPC
    assert bounds.status == "solved" and bounds.lower == bounds.upper == 1


def test_other_os_errors_are_not_taken_for_a_full_disk(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import stratagem
    from stratagem.winprobability import odds_bounds

    def denied(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(valuetable, "write_table", denied)
    with pytest.raises(PermissionError):
        odds_bounds(stratagem.load(str(PUZZLES / "challenge-0.toml"), "solo-1"), tmp_path / "t.gz", time_limit=60)
