"""Every shipped endgame position gets a proof from `analyze --proof` that `verify` accepts, and the
value agrees with what the position file says."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import ROOT

from stratagem.core.io import load_toml

PUZZLES = ROOT / "puzzles"
#: positions whose proofs take more than a few seconds to build (the default run skips them)
SLOW = {"square-in-7", "defence-holds", "strategic-defence", "three-players"}


def _positions() -> list[pytest.param]:
    out = []
    for game in ("stratatak", "cardclash", "stakd"):
        for path in sorted((PUZZLES / game).glob("*.toml")):
            data = load_toml(path)
            if game == "stakd" and data.get("position", {}).get("players", 2) == 1:
                continue
            if game == "stakd" and "pieces" in data.get("position", {}) and "endgame" not in path.stem:
                continue
            marks = [pytest.mark.slow] if path.stem in SLOW else []
            out.append(pytest.param(path, id=f"{game}/{path.stem}", marks=marks))
    return out


@pytest.mark.parametrize("path", _positions())
def test_shipped_position_proof_verifies(cli, tmp_path: Path, path: Path) -> None:
    proof = tmp_path / "proof.json"
    result = cli("analyze", str(path), "--proof", str(proof), "--no-rank", "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["status"] == "solved"
    checked = cli("verify", str(proof))
    assert checked.code == 0, checked.out + checked.err
    data = load_toml(path)
    if "solution" in data:  # Stratatak: player 1's exact value
        assert Fraction(str(report["value"])) == Fraction(str(data["solution"]["value"]))
    if data.get("claim", {}).get("winner", 0) > 0:  # Card Clash: that player (to move) forces a square
        assert report["value"] == 1 and report["player"] == data["claim"]["winner"]


def test_a_stopped_search_claims_no_value_and_writes_no_proof(cli, tmp_path: Path) -> None:
    position = str(PUZZLES / "cardclash" / "square-in-7.toml")
    result = cli("analyze", position, "--max-nodes", "200", "--no-rank", "--json")
    report = json.loads(result.out)
    assert report["status"] == "unknown" and report["value"] is None
    assert report["pv"], "the best line found so far is still shown"
    proof = tmp_path / "p.json"
    refused = cli("analyze", position, "--max-nodes", "200", "--no-rank", "--proof", str(proof))
    assert refused.code == 3 and "not established" in refused.err, "undetermined, not bad input"
    assert not proof.exists()
