"""``verify --time-limit`` covers reading the record (QA 56): the deadline began after the JSON was parsed
and walked for the input limits, so a 36 MB proof tree (square-in-5's proof padded with 2,000,000 nodes
no edge reaches, under the 64 MiB record cap) took 4.2 s under ``--time-limit 2``, and a record at the cap
about 9 s whatever the limit. The parse and the walk now ask the command's deadline every few thousand
objects; a record the limit stops reading leaves its claims unknown (exit 3), none checked."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput
from stratagem.core.io import STOP_EVERY, ReadStopped, check_limits, parse_json_object
from stratagem.verification import CERTIFIED, UNKNOWN
from stratagem.verification import verify as verify_record

ROOT = Path(__file__).resolve().parents[2]
SQUARE_IN_3 = ROOT / "puzzles" / "cardclash" / "square-in-3.toml"


@pytest.fixture(scope="module")
def padded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """square-in-3's proof tree padded with 300,000 nodes no edge reaches (a few MB, some 0.3-0.6 s to
    parse and walk)."""
    folder = tmp_path_factory.mktemp("read-deadline")
    proof = folder / "proof.json"
    assert run(["analyze", str(SQUARE_IN_3), "--proof", str(proof), "--quiet"]) in (0, 3)
    data: dict[str, Any] = json.loads(proof.read_text())
    data["nodes"] += [{"id": 10**7 + i} for i in range(300_000)]
    padded = folder / "padded.json"
    padded.write_text(json.dumps(data))
    return padded


def test_the_parse_and_the_walk_ask_their_stop() -> None:
    text = json.dumps({"nodes": [{"id": i} for i in range(3 * STOP_EVERY)]})
    with pytest.raises(ReadStopped):
        parse_json_object(text, "f.json", stop=lambda: True)
    data = parse_json_object(text, "f.json", stop=lambda: False)  # asked, and told to go on: the same data
    assert data == json.loads(text)
    with pytest.raises(ReadStopped):
        check_limits(data, "f.json", stop=lambda: True)
    small = json.dumps({"nodes": [{"id": i} for i in range(10)]})
    assert parse_json_object(small, "f.json", stop=lambda: True) == json.loads(small)  # asked only now and then


def test_a_stop_does_not_hide_bad_input() -> None:
    with pytest.raises(BadInput, match="given twice"):
        parse_json_object('{"a": 1, "a": 2}', "f.json", stop=lambda: False)


def test_verify_stops_reading_at_the_commands_deadline(padded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    limit = 0.05
    started = time.perf_counter()
    code = run(["verify", str(padded), "--time-limit", str(limit)])
    took = time.perf_counter() - started
    out, _ = capsys.readouterr()
    assert code == 3, out
    assert "the time limit (0.05 s) ran out while the record was read: none of its claims was checked" in out
    assert "certified:" not in out.replace("not certified", "")
    assert took < 1.2 * limit + 1


def test_without_a_limit_the_padded_record_is_read_and_checked(padded: Path) -> None:
    verdict = verify_record(padded)
    assert verdict.status == CERTIFIED, verdict.claims


def test_the_library_takes_a_running_deadline(padded: Path) -> None:
    """A caller's deadline already spent stops the read; the claim is unknown, never valid or invalid."""
    verdict = verify_record(padded, time_limit=Deadline(1e-9))
    assert [claim.status for claim in verdict.claims] == [UNKNOWN]
    assert verdict.problem == ""
