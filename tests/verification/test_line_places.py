"""A proof record's line refused at the place it has in the record: ``line.moves[1]``, not ``moves[1]`` (QA
56: a hand-edited proof with a number for a move was refused at a key the record does not have)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stratagem.cli.main import run

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def proof(tmp_path_factory: pytest.TempPathFactory) -> dict:  # type: ignore[type-arg]
    path = tmp_path_factory.mktemp("line-places") / "p.json"
    assert run(["solve", str(ROOT / "puzzles" / "strato" / "challenge-0.toml"), "--proof", str(path), "--quiet"]) == 0
    return json.loads(path.read_text())  # type: ignore[no-any-return]


@pytest.mark.parametrize(("edit", "place"), [
    (lambda line: line["moves"].__setitem__(1, 7), "line.moves[1]"),
    (lambda line: line.__setitem__("length", 99), "line.length"),
    (lambda line: line.__setitem__("start", None), "line.start"),
    (lambda line: line.__setitem__("format", "stratagem/line@9"), "line.format"),
])
def test_the_place_is_the_records(proof: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # type: ignore[type-arg]
                                  edit, place: str) -> None:  # type: ignore[no-untyped-def]
    record = json.loads(json.dumps(proof))
    edit(record["line"])
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(record))
    for command in (["verify", str(path)], ["show", str(path)]):
        assert run(command) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"{path}: {place}:") and len(err.splitlines()) == 1, (command, err)
