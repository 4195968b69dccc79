"""Strato proofs whose check ``verify`` must not certify (QA 62 mutation pass of
stratagem/verification/strato.py).

A ``relaxation-search`` certificate is certified only by a search that ran to the end: a mutant of
:func:`~stratagem.verification.strato.check_relaxation_search` that took a search the node limit stopped for
an exhaustive one certified optimality from a few expansions, and every test passed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.verification import verify

#: A deal whose relaxation bound (2) is below its optimum (4): its certificate is a relaxation search of
#: every line of up to 3 turns (tests/cli/test_relaxation_proofs.py has the same deal).
GAP_PUZZLE = """game = "strato"

[challenge]
name = "two rows with fog"
weathers = "RWFC"
rows = 2
pairs = ["RW", "FC"]
limit = 4
rows_required = 1

[challenge.goal]
left = "<"
right = ">>"

[[deals]]
name = "gap"
position = "RC(RW)RF/WC(FC)FC FRW CFRFFCWCRFWRRWFRFCWWRWWCC 1 -"
"""


@pytest.fixture(scope="module")
def searched(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("qa62_strato")
    (folder / "gap.toml").write_text(GAP_PUZZLE)
    path = folder / "gap.json"
    assert run(["solve", str(folder / "gap.toml"), "--method", "relaxed", "--quiet", "--proof", str(path)]) == 0
    record: dict[str, Any] = json.loads(Path(path).read_text())
    assert record["evidence"]["kind"] == "relaxation-search" and record["evidence"]["horizon"] == 3
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
