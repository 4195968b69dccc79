"""drat-trim's second opinion on a DRUP refutation: its "s NOT VERIFIED" refutes the claim (QA 64 mutation
pass of stratagem/verification/refutations.py).

drat-trim is not on PATH here, so no test reached its verdicts, and a mutant that passed over "invalid"
(certifying the refutation on stratagem's checker alone, with a note) survived stop 62. Its run is replaced
here by what it would answer; the refutation itself is genuine (challenge 0, one turn from the goal: "no win
within 0 turns").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.verification import refutations, verify

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "strato"


@pytest.fixture(scope="module")
def refuted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("qa64_drat")
    head = (PUZZLES / "challenge-0.toml").read_text().split("[[deals]]")[0]
    (folder / "met.toml").write_text(head + '[[deals]]\nname = "met"\nposition = "RRRR(RW)WWWW RRW WW 1 -"\n')
    path = folder / "met.json"
    assert run(["solve", str(folder / "met.toml"), "--method", "sat", "--quiet", "--proof", str(path)]) == 0
    record: dict[str, Any] = json.loads(path.read_text())
    assert record["evidence"]["kind"] == "drup-refutation"
    return path


def optimal(verdict: Any) -> tuple[str, str]:
    claim = next(c for c in verdict.claims if c.claim == "optimal")
    return claim.status, claim.reason


def test_drat_trims_not_verified_refutes_the_claim(refuted: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refutations, "_drat_trim", lambda *args: "invalid")
    verdict = verify(refuted)
    assert verdict.status == "invalid"
    assert optimal(verdict) == ("invalid", "evidence.proof: drat-trim says s NOT VERIFIED")


def test_drat_trims_verified_is_a_second_opinion(refuted: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refutations, "_drat_trim", lambda *args: "valid")
    verdict = verify(refuted)
    assert verdict.status == "certified"
    assert "drat-trim agrees: s VERIFIED" in verdict.checked
