"""Records ``verify`` cannot read are bad input naming the place, never an internal error (QA 62 mutation
pass of stratagem/verification/__init__.py and gameproofs.py: each refusal below could be dropped with
every test passing; without it the check went on and failed with a traceback, exit 70)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.core.errors import BadInput
from stratagem.verification import verify

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def _refused(record: Any) -> BadInput:
    with pytest.raises(BadInput) as info:
        verify(record)
    return info.value


@pytest.mark.parametrize("record", [123, None, ["stratagem/line@1"]], ids=["number", "none", "list"])
def test_a_record_that_is_neither_a_file_nor_its_data_is_bad_input(record: Any) -> None:
    refused = _refused(record)
    assert (refused.place, refused.problem) == ("record", f"a record's file or its JSON data, not "
                                                          f"{type(record).__name__}")


def test_a_proof_record_without_a_line_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "solo.json"
    run(["check", str(PUZZLES / "stakd" / "solo-1-tiny.toml"), "--quiet", "--proof", str(path)])
    record = json.loads(path.read_text())
    record["line"] = None
    refused = _refused(record)
    assert (refused.place, refused.problem) == ("line", "a proof record carries the start position as a line")


@pytest.mark.parametrize("claim", [None, [], "player 1 at least 1"], ids=["missing", "list", "text"])
def test_a_proof_tree_whose_claim_is_no_object_is_bad_input(tmp_path: Path, claim: Any) -> None:
    path = tmp_path / "tree.json"
    assert run(["analyze", str(PUZZLES / "stakd" / "endgame-2p-only-move.toml"), "--quiet", "--proof",
                str(path)]) == 0
    record = json.loads(path.read_text())
    record["claim"] = claim
    refused = _refused(record)
    assert (refused.place, refused.problem) == ("claim", "missing or not an object")


@pytest.mark.parametrize(("proofs", "place", "problem"), [
    (None, "proofs", "must be a non-empty list of "), ([], "proofs", "must be a non-empty list of "),
    ({"0": {}}, "proofs", "must be a non-empty list of "), ([5, 6], "proofs[0]", "must be an object"),
], ids=["null", "empty", "object", "numbers"])
def test_a_bundle_whose_proofs_are_no_list_of_records_is_bad_input(proofs: Any, place: str, problem: str) -> None:
    from stratagem.loading import load_position
    from stratagem.solvers.matrixproof import MATRIXPROOFS_FORMAT

    position = load_position(PUZZLES / "stackattack" / "2p-numbers-3-turns.toml")
    game = position.game
    record = {"format": MATRIXPROOFS_FORMAT, "game": game.name, "setup": json.loads(json.dumps(game.setup())),
              "start": game.format_state(position.state), "proofs": proofs}
    refused = _refused(record)
    assert refused.place == place and refused.problem.startswith(problem)
