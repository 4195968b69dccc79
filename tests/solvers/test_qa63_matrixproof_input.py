"""A ``stratagem/matrixproof@1`` record whose nodes do not read is bad input, not a verdict or a crash (QA 63
mutation pass of stratagem/solvers/matrixproof.py).

Two mutants of the node reader passed every test: one that no longer refused a node depth that is no
integer (the node was then looked up under a key the walk never makes, and the record refuted as "not
reached" instead of refused as unreadable, exit 2), and one that looked a non-string number up in the
reader's memo of parsed texts (a list there raised ``TypeError``, a traceback, instead of naming the place).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from simtoys import PenniesGame

from stratagem.core.errors import BadInput
from stratagem.solvers.boundproof import bound_proof, bound_proof_text, check_bound_proof
from stratagem.solvers.matrixproof import check_matrix_proof
from stratagem.solvers.simultaneous import solve_simultaneous
from tests.solvers.test_simultaneous import WEIGHTED, proof_of


@pytest.fixture(scope="module")
def good() -> tuple[Any, dict[str, Any]]:
    game = PenniesGame(2, WEIGHTED)
    proof = proof_of(game)
    assert check_matrix_proof(game, game.initial_state(), proof).valid
    assert proof["nodes"]
    return game, proof


@pytest.mark.parametrize(("field", "wrong"), [
    *(("depth", depth) for depth in ("1", 1.5, True, [1])),  # a node depth that is no integer
    *(("value", value) for value in ([1, 2], {"n": 1}, 1)),  # a node value that is no text
])
def test_a_node_depth_or_value_of_the_wrong_type_is_bad_input(good: tuple[Any, dict[str, Any]], field: str,
                                                              wrong: object) -> None:
    game, proof = good
    forged = copy.deepcopy(proof)
    forged["nodes"][0][field] = wrong
    with pytest.raises(BadInput) as info:
        check_matrix_proof(game, game.initial_state(), forged, "p.json")
    assert info.value.place == f"nodes[0].{field}"


@pytest.mark.parametrize("player", [2, -1, "0", 0.0, None])
def test_a_bound_certificates_player_that_is_no_player_is_bad_input(player: object) -> None:
    """The ``matrixproof@2`` reader (boundproof.py) likewise: a mutant that no longer refused a player who is
    not one of the game's refuted the record ("opponents ... are not every other player") instead."""
    game = PenniesGame(2, WEIGHTED)
    good = json.loads(bound_proof_text(bound_proof(game, solve_simultaneous(game, game.initial_state()))))
    assert check_bound_proof(game, game.initial_state(), good).valid
    forged = dict(good, player=player)
    with pytest.raises(BadInput) as info:
        check_bound_proof(game, game.initial_state(), forged, "p.json")
    assert info.value.place == "player"
