"""A record whose ``format`` is not a string is refused as bad input by ``verify``: the slow fuzz run of
stop 63 (tests/cli/test_fuzz.py, ``test_mutated_records_thoroughly``) found that a proof record with
``"format": []`` made ``verify`` fail with an internal error ("unhashable type: 'list'", exit 70) where
``show``, ``view`` and ``report`` already said what was wrong (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import PUZZLES, assert_bad_input

from stratagem.core.errors import BadInput
from stratagem.verification import verify


@pytest.mark.parametrize("value", [[], {"a": 1}, 5, True, ["stratagem/proof@1"]])
def test_a_format_that_is_not_a_string_is_bad_input(cli: Any, tmp_path: Path, value: object) -> None:
    record = tmp_path / "p.json"
    assert cli("solve", str(PUZZLES / "challenge-0.toml"), "--method", "relaxed", "--proof", str(record),
               "--quiet").code == 0
    data = json.loads(record.read_text())
    data["format"] = value
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    assert_bad_input(cli("verify", str(forged)), "forged.json", "format: must be a string naming the record's format")
    with pytest.raises(BadInput, match="format: must be a string"):  # the library refuses it the same way
        verify(data)


def test_a_missing_format_is_still_an_unknown_record_format(cli: Any, tmp_path: Path) -> None:
    forged = tmp_path / "none.json"
    forged.write_text(json.dumps({"game": "strato"}))
    assert_bad_input(cli("verify", str(forged)), "none.json", "unknown record format None")
