"""How ``verify`` reads what it is given, before any claim is checked: one reader, with the records' limits,
for JSON records and a value table's header, and a key given twice refused rather than read as its last
spelling. Each case here was an internal error (exit 70) or a record read two ways."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import PUZZLES, Outcome, assert_bad_input

Cli = Callable[..., Outcome]
POSITION = "RRWR(RW)WWRW RRR WRR 1 -"  # the README's two-thirds position of challenge 0


@pytest.fixture(scope="module")
def table_text(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[str]]:
    """A genuine value table's header line and rows (made once: the odds command writes it)."""
    from stratagem.cli.main import run

    path = tmp_path_factory.mktemp("table") / "t.gz"
    assert run(["odds", str(PUZZLES / "challenge-0.toml"), "--position", POSITION, "--table", str(path),
                "--quiet"]) == 0
    header, *rows = gzip.decompress(path.read_bytes()).decode().splitlines()
    return header, rows


def _table(tmp_path: Path, header: str, rows: list[str]) -> str:
    path = tmp_path / "forged.gz"
    path.write_bytes(gzip.compress(("\n".join([header, *rows]) + "\n").encode()))
    return str(path)


def test_a_genuine_table_verifies(cli: Cli, tmp_path: Path, table_text: tuple[str, list[str]]) -> None:
    header, rows = table_text
    assert cli("verify", _table(tmp_path, header, rows)).code == 0


@pytest.mark.parametrize(("edit", "fragment"), [
    (lambda h: h.replace('"deal": ', '"level": ' + "9" * 5000 + ', "deal": ', 1), "thousands of digits"),
    (lambda h: h.replace('"deal": ', '"x": ' + "[" * 200_000 + "]" * 200_000 + ', "deal": ', 1),
     "nested more than"),
    (lambda h: h.replace('"deal": ', '"claim": {"exact": true}, "deal": ', 1), "the key 'claim' is given twice"),
    (lambda h: h.replace('"deal": ', '"x": NaN, "deal": ', 1), "NaN is not a finite number"),
], ids=["long-integer", "deep-nesting", "key-twice", "nan"])
def test_a_table_header_is_read_as_a_record_is(cli: Cli, tmp_path: Path, table_text: tuple[str, list[str]],
                                               edit: Callable[[str], str], fragment: str) -> None:
    """The header was read by a bare json.loads: a 5000-digit number or deep nesting was exit 70, and a
    second ``claim`` key replaced the first."""
    header, rows = table_text
    forged = edit(header)
    assert forged != header
    assert_bad_input(cli("verify", _table(tmp_path, forged, rows)), "forged.gz: line 1: ", fragment)


def test_a_record_with_a_key_twice_is_refused(cli: Cli, tmp_path: Path) -> None:
    """``"claim"`` twice: a reader keeping the first saw another claim than the one checked (the last)."""
    record = tmp_path / "p.json"
    assert cli("solve", str(PUZZLES / "challenge-0.toml"), "--method", "relaxed", "--proof", str(record),
               "--quiet").code == 0
    assert cli("verify", str(record)).code == 0
    text = record.read_text()
    forged = tmp_path / "twice.json"
    forged.write_text(text.replace('"claim":', '"claim": {"optimal": false}, "claim":', 1))
    assert_bad_input(cli("verify", str(forged)), "twice.json", "the key 'claim' is given twice")


@pytest.mark.parametrize("lines", [1, 2])
def test_a_sweep_results_file_is_named_as_one(cli: Cli, tmp_path: Path, lines: int) -> None:
    """A results file of two records was "malformed JSON: Extra data"; of one, an unknown record format."""
    shipped = (PUZZLES.parent.parent / "results" / "strato-sweep" / "results.jsonl").read_text().splitlines()
    path = tmp_path / "sw.jsonl"
    path.write_text("\n".join(shipped[:lines]) + "\n")
    assert json.loads(shipped[0])["format"] == "stratagem/sweep@1"
    assert_bad_input(cli("verify", str(path)), "sw.jsonl: format: a results file of `stratagem sweep`",
                     "`stratagem report` reads it")
