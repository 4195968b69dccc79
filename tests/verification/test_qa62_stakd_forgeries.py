"""STAKD solo proofs wrong on purpose that ``verify`` must refuse (QA 62 mutation pass of
stratagem/verification/stakd.py).

Each test holds a forged record that a mutant of :func:`~stratagem.verification.stakd.check_solo`
certified or left not certified, where the real check refutes it: the checks it pins (a ``winnable`` that
is no JSON boolean, moves or a "won" flag on an unplaceability proof, a start the rules already end) had no
test that failed without them. The forgeries keep a genuine DRUP refutation beside them, so a check
dropped lets the forgery through as certified, not merely unchecked.
"""

from __future__ import annotations

import copy
import gzip
import json
import time
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput
from stratagem.verification import verify

ROOT = Path(__file__).resolve().parents[2]
STAKD = ROOT / "puzzles" / "stakd"


def _record(folder: Path, puzzle: str) -> tuple[dict[str, Any], Path]:
    path = folder / f"{puzzle}.json"
    run(["check", str(STAKD / f"{puzzle}.toml"), "--quiet", "--proof", str(path)])  # exit 1 says "impossible"
    return json.loads(path.read_text()), path


@pytest.fixture(scope="module")
def refuted(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """solo-4-impossible's proof (winnable: false, a DRUP refutation beside it) and its file."""
    return _record(tmp_path_factory.mktemp("qa62_stakd"), "solo-4-impossible")


@pytest.fixture(scope="module")
def witness(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """solo-1-tiny's proof (winnable: true, a witness line of 6 placements) and its file."""
    return _record(tmp_path_factory.mktemp("qa62_stakd"), "solo-1-tiny")


def _claims(record: dict[str, Any], beside: Path) -> tuple[str, dict[str, tuple[str, str]]]:
    verdict = verify(record, source=str(beside)).to_json()
    return verdict["status"], {c["claim"]: (c["status"], c.get("basis") or c.get("why") or "")
                               for c in verdict["claims"]}


def test_the_genuine_refutation_is_certified(refuted: tuple[dict[str, Any], Path]) -> None:
    record, path = refuted
    status, claims = _claims(record, path)
    assert status == "certified" and claims["winnable"][0] == "certified"
    assert "DRUP refutation" in claims["winnable"][1]


def test_a_witness_certifies_its_winnable_claim_by_name(witness: tuple[dict[str, Any], Path]) -> None:
    """The claim must be reported, not only pass: a check that reported nothing for a winning witness
    left a verdict "certified" with no claim in it."""
    record, path = witness
    status, claims = _claims(record, path)
    assert status == "certified"
    assert claims == {"winnable": ("certified", "the line replays to a won position after 6 placements")}


@pytest.mark.parametrize("winnable", [0, None, "false", [False]], ids=["zero", "null", "text", "list"])
def test_a_winnable_that_is_no_json_boolean_is_refuted_even_beside_a_valid_refutation(
        refuted: tuple[dict[str, Any], Path], winnable: Any) -> None:
    """0 == False in Python, but a record writing 0 (or null, or "false") has not claimed "the pieces
    cannot all be placed": with that check dropped, the genuine refutation beside it certified the claim."""
    record, path = refuted
    forged = copy.deepcopy(record)
    forged["claim"]["winnable"] = winnable
    status, claims = _claims(forged, path)
    assert status == "invalid" and claims["winnable"] == ("invalid", "claim.winnable: must be true or false")


def test_an_unplaceability_proof_that_carries_moves_is_refuted(refuted: tuple[dict[str, Any], Path]) -> None:
    """The refutation is about the start; a line that places a piece says something else, and with that
    check dropped the genuine refutation certified the record whatever its moves."""
    record, path = refuted
    forged = copy.deepcopy(record)
    forged["line"].update(moves=["B@3,1h"], length=1)  # the one legal first placement
    status, claims = _claims(forged, path)
    assert status == "invalid" and claims["winnable"][0] == "invalid"
    assert claims["winnable"][1].startswith("line.moves: ")


def test_an_unplaceability_proof_whose_line_says_won_is_refuted(refuted: tuple[dict[str, Any], Path]) -> None:
    record, path = refuted
    forged = copy.deepcopy(record)
    forged["line"]["result"] = "won"
    status, claims = _claims(forged, path)
    assert status == "invalid" and claims["winnable"][0] == "invalid"
    assert claims["winnable"][1].startswith("line.result: ")


def test_unplaceable_claimed_at_a_start_already_won_is_refuted(witness: tuple[dict[str, Any], Path]) -> None:
    """The rules end play at a start where every piece is placed: that start is won, whatever the
    evidence says; with that check dropped the claim was only "not certified" (CP-SAT's word)."""
    record, path = witness
    forged = copy.deepcopy(record)
    forged["claim"] = {"winnable": False}
    forged["line"].update(start="1B@0,0h/1T@0,0h;1D@3,0h/1D@0,0h;1U@2,0;1U@3,0 - 1 out:1", moves=[], length=0,
                          result="")
    forged["evidence"] = {"kind": "cpsat-infeasible", "method": "cpsat"}
    status, claims = _claims(forged, path)
    assert status == "invalid"
    assert claims["winnable"] == ("invalid", "claim.winnable: the start is already won")


def test_unplaceable_at_a_start_the_rules_end_unwon_is_certified_by_the_rules(
        witness: tuple[dict[str, Any], Path]) -> None:
    """A start where a piece is left in hand and none can be placed is over and lost: the rules alone
    certify it, whatever the evidence (here CP-SAT's word, which alone certifies nothing)."""
    record, path = witness
    forged = copy.deepcopy(record)
    forged["claim"] = {"winnable": False}
    forged["line"].update(start="1B@0,0h/1T@0,0h;1D@3,0h/1D@0,0h;1U@2,0;1U@3,0 B1 1 out:1", moves=[], length=0,
                          result="")
    forged["evidence"] = {"kind": "cpsat-infeasible", "method": "cpsat"}
    status, claims = _claims(forged, path)
    assert status == "certified" and claims["winnable"][0] == "certified"
    assert claims["winnable"][1].startswith("the rules end play at the start")


def test_a_recheck_whose_time_ran_out_before_it_began_is_unknown(refuted: tuple[dict[str, Any], Path]) -> None:
    """Never certified by default: with the deadline past before the re-check, the claim is reported
    unknown (a check that reported nothing there left the verdict "certified", with no claim)."""
    record, path = refuted
    forged = copy.deepcopy(record)
    forged["evidence"] = {"kind": "cpsat-infeasible", "method": "cpsat"}
    past = Deadline(1.0, started=time.perf_counter() - 10.0)
    verdict = verify(forged, recheck=True, time_limit=past, source=str(path)).to_json()
    assert verdict["status"] == "unknown"
    assert [(c["claim"], c["status"]) for c in verdict["claims"]] == [("winnable", "unknown")]
    assert "before the re-check began" in verdict["claims"][0]["why"]


def test_a_drup_refutation_that_does_not_check_is_refuted(refuted: tuple[dict[str, Any], Path],
                                                          tmp_path: Path) -> None:
    """The formula beside the record is the genuine one, the refutation is not: a proof whose only step is
    the empty clause refutes nothing. With the checker's 'not valid' passed over, the record was certified."""
    record, path = refuted
    for key in ("cnf", "proof"):  # the genuine formula; a proof of one empty clause
        (tmp_path / record["evidence"][key]).write_bytes((path.parent / record["evidence"][key]).read_bytes())
    (tmp_path / record["evidence"]["proof"]).write_bytes(gzip.compress(b"0\n"))
    status, claims = _claims(record, tmp_path / path.name)
    assert status == "invalid" and claims["winnable"][0] == "invalid"
    assert claims["winnable"][1].startswith(f"evidence.proof: {record['evidence']['proof']}: ")


@pytest.mark.parametrize("key", ["cnf", "proof"])
def test_a_refutation_naming_a_file_outside_the_records_folder_is_bad_input(
        refuted: tuple[dict[str, Any], Path], tmp_path: Path, key: str) -> None:
    """The files must sit beside the record: '../name' is refused even where that file exists and checks
    (with the refusal dropped, the genuine files one folder up were read and the record certified)."""
    record, path = refuted
    (tmp_path / "records").mkdir()
    for folder in (tmp_path, tmp_path / "records"):  # the other file is beside the record, as it must be
        for name in (record["evidence"]["cnf"], record["evidence"]["proof"]):
            (folder / name).write_bytes((path.parent / name).read_bytes())
    forged = copy.deepcopy(record)
    forged["evidence"][key] = f"../{record['evidence'][key]}"
    with pytest.raises(BadInput) as info:
        verify(forged, source=str(tmp_path / "records" / path.name))
    assert info.value.place == f"evidence.{key}" and info.value.problem == "must name a file beside the record"
