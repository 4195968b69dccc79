"""``verify --recheck`` and ``--max-nodes`` of a record none of whose claims rests on a search (a game's proof
tree, a value table, a line) did nothing and said nothing (QA 56): a user could believe something more
had been re-checked. They still change nothing, and the verdict says so in a note."""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.cli.main import run
from stratagem.verification import CERTIFIED
from stratagem.verification import verify as verify_record

ROOT = Path(__file__).resolve().parents[2]
SQUARE_IN_3 = ROOT / "puzzles" / "cardclash" / "square-in-3.toml"
CHALLENGE_0 = ROOT / "puzzles" / "strato" / "challenge-0.toml"


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("recheck-notes")
    proof, table = folder / "proof.json", folder / "table.gz"
    assert run(["analyze", str(SQUARE_IN_3), "--proof", str(proof), "--quiet"]) == 0
    assert run(["odds", str(CHALLENGE_0), "--deal", "solo-1", "--table", str(table), "--quiet"]) == 0
    return proof, table


def test_the_options_are_said_to_do_nothing(records: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    proof, table = records
    capsys.readouterr()
    assert run(["verify", str(proof), "--recheck", "--max-nodes", "10"]) == 0
    out = capsys.readouterr().out
    assert ("note: recheck=True (--recheck) and nodes (--max-nodes) did nothing: no claim of a "
            "stratagem/prooftree@1 record rests on a "
            "search to repeat") in out
    assert run(["verify", str(table), "--recheck"]) == 0
    assert ("note: recheck=True (--recheck) did nothing: no claim of a value table rests on a search"
            in capsys.readouterr().out)


def test_without_the_options_no_note(records: tuple[Path, Path]) -> None:
    for record in records:
        verdict = verify_record(record)
        assert verdict.status == CERTIFIED and not any("did nothing" in note for note in verdict.notes)
        again = verify_record(record, recheck=True, nodes=5)
        assert again.status == CERTIFIED and again.notes[:-1] == verdict.notes
        assert again.notes[-1].startswith("recheck=True (--recheck) and nodes (--max-nodes) did nothing")
        assert [c.status for c in again.claims] == [c.status for c in verdict.claims]
