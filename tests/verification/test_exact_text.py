"""Values a record holds are shown without trusting them to be reasonable: ``Fraction("1e999999999")``
builds a billion-digit number, and two formatters of verify's and view's words once did that to a record's
value before any check had read it (verify and view hung)."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path

import pytest

from stratagem.cli.main import run
from stratagem.core.records import exact_text

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("value", "shown"), [
    ("-8/1", "-8"), ("6/4", "3/2"), ("7", "7"), (Fraction(-5), "-5"), (3, "3"), ("1/0", "1/0"),
    ("1e999999999", "1e999999999"), ("0.25", "0.25"), (True, "True"), ("x" * 100, "x" * 40),
])
def test_an_exact_value_is_written_as_the_outputs_write_it_and_nothing_else_is_computed(value: object,
                                                                                        shown: str) -> None:
    started = time.perf_counter()
    assert exact_text(value) == shown
    assert time.perf_counter() - started < 1


def test_verify_and_view_of_a_value_in_exponent_form_return_at_once(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A matrix proof whose value is "1e999999999": refused or reported in a moment, never hung."""
    record = tmp_path / "sa.json"
    puzzle = ROOT / "puzzles" / "stackattack" / "2p-actions-shield-2-turns.toml"
    assert run(["analyze", str(puzzle), "--proof", str(record), "--quiet"]) == 0
    data = json.loads(record.read_text())
    data["value"] = "1e999999999"
    record.write_text(json.dumps(data))
    for args in (["verify", str(record)], ["view", str(record), "--out", str(tmp_path / "p.html")]):
        started = time.perf_counter()
        code = run(args)
        capsys.readouterr()
        assert code in (1, 2) and time.perf_counter() - started < 10, (args, code)
