"""Proof trees wrong on purpose that ``verify`` must refuse (QA 62 mutation pass of the proof-tree checker,
stratagem/solvers/prooftree.py).

Each forgery was certified by a mutant of the checker that every other test passed: a node whose ``id`` is
``true`` at entry 1 (``true == 1`` in Python, not in JSON), a reply listed twice under a text the notation
reads but the game does not write, and a tree through a simultaneous-move node (proof trees cover
sequential play; those games have matrix proofs), where the checker stopped without a word and left the
claim certified.
"""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput
from stratagem.loading import load_position
from stratagem.verification import verify

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """STAKD's only-move endgame: player 1 at least 1 (a win in 5 plies), 32 nodes, one half."""
    path = tmp_path_factory.mktemp("qa62_tree") / "tree.json"
    assert run(["analyze", str(PUZZLES / "stakd" / "endgame-2p-only-move.toml"), "--quiet", "--proof", str(path)]) == 0
    record: dict[str, Any] = json.loads(path.read_text())
    assert record["nodes"][1]["id"] == 1 and record["nodes"][1]["children"][0] == {"move": "T@12,4h", "node": 2}
    return record


def _refused(record: dict[str, Any]) -> str:
    verdict = verify(record)
    assert verdict.status == "invalid", verdict.to_json()
    assert [(c.claim, c.status) for c in verdict.claims] == [("claim", "invalid")]
    return verdict.problem


def test_the_genuine_tree_is_certified(tree: dict[str, Any]) -> None:
    assert verify(tree).status == "certified"


@pytest.mark.parametrize("nid", [True, 1.0, "1"], ids=["true", "float", "text"])
def test_a_node_whose_id_only_compares_equal_to_its_entry_is_refused(tree: dict[str, Any], nid: Any) -> None:
    forged = copy.deepcopy(tree)
    forged["nodes"][1]["id"] = nid
    assert "node 1: has id " in _refused(forged) and "but is entry 1 of the node list" in _refused(forged)


def test_a_reply_listed_again_under_a_text_the_game_does_not_write_is_refused(tree: dict[str, Any]) -> None:
    """'T@12,4h ' reads as the move T@12,4h, so it passes the legality check; the list of replies must
    still be the game's list, text for text."""
    forged = copy.deepcopy(tree)
    forged["nodes"][1]["children"].append({"move": "T@12,4h ", "node": 2})
    assert "node 1: lists 'T@12,4h ', not in the game's list of replies" in _refused(forged)


def test_a_proof_tree_through_a_simultaneous_move_node_is_refused() -> None:
    """Stack Attack's players move at once: a proof tree (sequential play only) is no proof of its value.
    With the refusal dropped, the root's value was never computed and nothing was reported: certified."""
    position = load_position(PUZZLES / "stackattack" / "2p-numbers-3-turns.toml")
    game, state = position.game, position.state
    start = game.format_state(state)
    record = {"format": "stratagem/prooftree@1", "game": game.name, "setup": json.loads(json.dumps(game.setup())),
              "start": start, "claim": {"player": 0, "bound": "at least", "value": -1},
              "halves": [{"side": "at least", "root": 0}],
              "nodes": [{"id": 0, "side": "at least", "state": start, "to_move": game.to_move(state), "value": -1,
                         "children": []}]}
    assert "node 0: is a simultaneous-move node; proof trees cover sequential play only" in _refused(record)


def test_a_proof_tree_checked_past_its_time_limit_is_unknown(tree: dict[str, Any]) -> None:
    """The record decides how many nodes there are, so the check reads the run's deadline at each node: with
    the time gone, the claim is unknown, not certified (a mutant reading the deadline only without a limit
    checked the tree in full and certified it)."""
    past = Deadline(1.0, started=time.perf_counter() - 10.0)
    verdict = verify(tree, time_limit=past)
    assert verdict.status == "unknown"
    assert [(c.claim, c.status) for c in verdict.claims] == [("claim", "unknown")]
    assert "positions of the proof tree were read" in verdict.claims[0].reason


@pytest.mark.parametrize("side", [[], {}, 1], ids=["list", "object", "number"])
def test_a_half_whose_side_is_no_text_is_bad_input(tree: dict[str, Any], side: Any) -> None:
    """Bad input (exit 2) naming the half, not an invalid proof (exit 1): the halves are found by side."""
    forged = copy.deepcopy(tree)
    forged["halves"][0]["side"] = side
    with pytest.raises(BadInput) as info:
        verify(forged)
    assert info.value.place == "halves[0].side"


@pytest.mark.parametrize(("child", "problem"), [
    ({"move": "T@12,4h", "node": 999}, "node 1, child 0 (move 'T@12,4h'): refers to node 999, which does not exist"),
    ({"move": 5, "node": 2}, "node 1, child 0: is not an object with a move text and a node"),
], ids=["no-such-node", "move-not-text"])
def test_a_reply_that_does_not_read_is_refused(tree: dict[str, Any], child: dict[str, Any], problem: str) -> None:
    """With these refusals dropped the node's value was never computed, nothing was reported, and the
    tree was certified."""
    forged = copy.deepcopy(tree)
    forged["nodes"][1]["children"][0] = child
    assert problem in _refused(forged)
