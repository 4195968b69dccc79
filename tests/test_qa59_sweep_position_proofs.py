"""A sweep of position files with ``--proof-dir``: what its records say about the proof each task wrote.

formats.md 10.8: a solved position's record names the proof written in ``certificate``. Found in the QA 59
docs pass: every such certificate was called ``kind: proof-tree``, also the bound certificate
(``stratagem/matrixproof@2``) an ``lp`` analysis writes; and a method whose solved answer has no proof
(MCTS-Solver's ``mcts`` proving a mate in one) made ``write_proof`` refuse, which ended the whole sweep with
exit 2 after the work, and no record.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

import stratagem
from stratagem.analysis import Analysis, ProofNotWritten
from stratagem.cli.main import run
from stratagem.sweep import ResultsFile, plan, sweep

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def swept(tmp_path: Path, position: Path, method: str) -> dict[str, Any]:
    """The one record of sweeping ``position`` with ``method`` and a proof folder, in this process."""
    results = ResultsFile(tmp_path / "results.jsonl")
    results.check()
    tally = sweep(plan([position], (), (), (method,), time_limit=30.0, proof_dir=tmp_path / "proofs"), results,
                  workers=0)
    assert tally.done == 1
    (record,) = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    return record


def test_an_lp_certificate_is_named_as_one(tmp_path: Path) -> None:
    record = swept(tmp_path, PUZZLES / "stackattack" / "2p-numbers-3-turns.toml", "lp")
    assert record["status"] == "solved" and record["certificate"]["kind"] == "bound-certificate"
    proof = tmp_path / "proofs" / record["certificate"]["proof"]
    assert json.loads(proof.read_text())["format"] == "stratagem/matrixproof@2"
    assert record["certificate"]["sha256"] == hashlib.sha256(proof.read_bytes()).hexdigest()
    assert stratagem.verify(proof).valid


def test_a_proof_tree_is_still_a_proof_tree(tmp_path: Path) -> None:
    record = swept(tmp_path, PUZZLES / "cardclash" / "square-in-3.toml", "auto")
    assert record["certificate"]["kind"] == "proof-tree"
    proof = tmp_path / "proofs" / record["certificate"]["proof"]
    assert json.loads(proof.read_text())["format"] == "stratagem/prooftree@1"


def test_a_solved_answer_without_a_proof_is_recorded_without_a_certificate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = PUZZLES / "cardclash" / "square-in-1.toml"
    assert stratagem.analyze(position, method="mcts", time_limit=5).status == "solved"  # MCTS-Solver's proof
    out = tmp_path / "results.jsonl"
    code = run(["sweep", str(position), "--method", "mcts", "--time-limit", "5", "--workers", "0", "--out", str(out),
                "--proof-dir", str(tmp_path / "proofs")])
    assert code == 0, capsys.readouterr().err
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["status"] == "solved" and record["certificate"] is None
    assert not (tmp_path / "proofs").exists() or not any((tmp_path / "proofs").iterdir())


def test_a_proof_the_time_limit_stops_leaves_the_record_without_a_certificate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def stopped(self: Analysis, *args: Any, **kwargs: Any) -> None:
        raise ProofNotWritten("the time limit ran out while the proof tree was built")

    monkeypatch.setattr(Analysis, "write_proof", stopped)
    record = swept(tmp_path, PUZZLES / "cardclash" / "square-in-3.toml", "auto")
    assert record["status"] == "solved" and record["certificate"] is None
