"""Strato proofs whose check ``verify`` must not certify (QA 62 mutation pass of
stratagem/verification/strato.py).

A ``relaxation-search`` certificate is certified only by a search that ran to the end: a mutant of
:func:`~stratagem.verification.strato.check_relaxation_search` that took a search the node limit stopped for
an exhaustive one certified optimality from a few expansions, and every test passed. Other mutants that
passed every test dropped a refutation before a ``return`` (a relaxation search without a bound, or offered
for "no win at all"), which left the claim unreported and the record certified, or dropped the
certification of a relaxation search whose bound alone shows optimality.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.verification import verify
from tests.verification.test_independence import GAP as GAP_PUZZLE  # relaxation bound 2, optimum 4

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "strato"


@pytest.fixture(scope="module")
def searched(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("qa62_strato")
    (folder / "gap.toml").write_text(GAP_PUZZLE)
    path = folder / "gap.json"
    assert run(["solve", str(folder / "gap.toml"), "--method", "relaxed", "--quiet", "--proof", str(path)]) == 0
    record: dict[str, Any] = json.loads(Path(path).read_text())
    assert record["evidence"]["kind"] == "relaxation-search" and record["evidence"]["horizon"] == 3
    return record


@pytest.fixture(scope="module")
def bounded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Challenge 0's first deal: a 5-turn line whose relaxation bound is 5 (a relaxation-bound certificate)."""
    path = tmp_path_factory.mktemp("qa62_strato") / "bound.json"
    assert run(["solve", str(PUZZLES / "challenge-0.toml"), "--method", "relaxed", "--quiet", "--proof",
                str(path)]) == 0
    record: dict[str, Any] = json.loads(path.read_text())
    assert record["claim"]["length"] == 5 and record["evidence"]["kind"] == "relaxation-bound"
    assert record["evidence"]["bound"] == 5 and record["evidence"]["certificate"] is True
    return record


def _claims(verdict: Any) -> dict[str, tuple[str, str]]:
    return {c["claim"]: (c["status"], c.get("basis") or c.get("why") or "") for c in verdict.to_json()["claims"]}


def test_a_relaxation_search_the_node_limit_stops_leaves_optimality_unknown(searched: dict[str, Any]) -> None:
    verdict = verify(searched, nodes=1)
    assert verdict.status == "unknown"
    status, why = _claims(verdict)["optimal"]
    assert status == "unknown" and "stopped by the node limit (1 expansion)" in why
    assert not any("exhaustive search" in line for line in verdict.checked)


def test_the_same_search_run_to_the_end_certifies_optimality(searched: dict[str, Any]) -> None:
    verdict = verify(searched)
    assert verdict.status == "certified"
    status, basis = _claims(verdict)["optimal"]
    assert status == "certified" and "finds no line of up to 3 turns" in basis


def test_a_genuine_relaxation_bound_is_certified(bounded: dict[str, Any]) -> None:
    """Its evidence says ``certificate: true``, as a relaxation bound is (refused if the table said not)."""
    verdict = verify(bounded)
    assert verdict.status == "certified" and _claims(verdict)["optimal"][0] == "certified"


def test_a_relaxation_search_whose_bound_alone_shows_optimality_is_certified_by_it(
        bounded: dict[str, Any]) -> None:
    """Searched 4 turns deep with a recomputed bound of 5, no line of 4 turns can win: certified from the
    bound, the search not needed (the claim must be reported, not passed over)."""
    record = copy.deepcopy(bounded)
    record["evidence"] = {"kind": "relaxation-search", "certificate": True, "relaxation": "table-classes@1",
                          "bound": 5, "horizon": 4}
    verdict = verify(record)
    assert verdict.status == "certified"
    assert _claims(verdict)["optimal"] == ("certified", "the relaxation bound recomputed from the rules is 5 turns")
    assert "no win within 4 turns: the bound is 5" in verdict.checked


def test_a_relaxation_search_offered_for_no_win_at_all_is_refuted(searched: dict[str, Any]) -> None:
    forged = copy.deepcopy(searched)
    forged["claim"] = {"information": "open", "solvable": False, "length": None, "optimal": False}
    forged["line"].update(moves=[], length=0, result="")
    verdict = verify(forged)
    assert verdict.status == "invalid"
    status, why = _claims(verdict)["solvable"]
    assert status == "invalid" and why.startswith("evidence.kind: a relaxation search certifies no line shorter")


def test_a_relaxation_search_whose_bound_is_null_is_refuted(searched: dict[str, Any]) -> None:
    """A null bound passes the evidence's own check (a relaxation bound may be null: no goal reached), but a
    relaxation search needs the bound it pruned by."""
    forged = copy.deepcopy(searched)
    forged["evidence"]["bound"] = None
    verdict = verify(forged)
    assert verdict.status == "invalid"
    status, why = _claims(verdict)["optimal"]
    assert status == "invalid" and why.startswith("evidence.bound: must be an integer")


def test_a_drup_refutation_of_horizon_0_certifies_a_one_turn_line(tmp_path: Path) -> None:
    """The least horizon a refutation has: 'no win within 0 turns' makes a one-turn line optimal. A mutant
    refusing horizon 0 as bad input (with the negative horizons) passed every test."""
    head = (PUZZLES / "challenge-0.toml").read_text().split("[[deals]]")[0]
    (tmp_path / "met.toml").write_text(head + '[[deals]]\nname = "met"\nposition = "RRRR(RW)WWWW RRW WW 1 -"\n')
    path = tmp_path / "met.json"
    assert run(["solve", str(tmp_path / "met.toml"), "--method", "sat", "--quiet", "--proof", str(path)]) == 0
    record = json.loads(path.read_text())
    assert record["evidence"]["kind"] == "drup-refutation" and record["evidence"]["horizon"] == 0
    verdict = verify(path)
    assert verdict.status == "certified"
    status, basis = _claims(verdict)["optimal"]
    assert status == "certified" and "a win within 0 turns" in basis


def test_solvable_claimed_on_a_line_that_does_not_win_is_refuted(bounded: dict[str, Any]) -> None:
    """One turn short of the win, the line's flag cleared so that only the claim says it wins: refuted, not
    merely left uncertified (a mutant dropping the refutation reported the record not certified)."""
    forged = copy.deepcopy(bounded)
    forged["line"].update(moves=forged["line"]["moves"][:-1], length=4, result="")
    forged["claim"].update(length=4, optimal=False)
    verdict = verify(forged)
    assert verdict.status == "invalid"
    assert _claims(verdict)["solvable"] == (
        "invalid", "claim.solvable: claims a win but the replayed line does not end in one")
