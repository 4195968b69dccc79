"""A matrix proof that is no JSON object is bad input for a library caller too (QA 64 mutation pass of
stratagem/solvers/matrixproof.py).

``verify`` reads a record as a JSON object before the checker sees it, so a mutant that no longer refused
a proof that is no object passed every test; but :func:`check_matrix_proof` promises :class:`BadInput` for a
record that does not read, and without the check a list or a string raised ``AttributeError``.
"""

from __future__ import annotations

import pytest
from simtoys import PenniesGame

from stratagem.core.errors import BadInput
from stratagem.solvers.matrixproof import check_matrix_proof
from tests.solvers.test_simultaneous import WEIGHTED


@pytest.mark.parametrize("proof", [[], "stratagem/matrixproof@1", 5, None])
def test_a_matrix_proof_that_is_no_object_is_bad_input(proof: object) -> None:
    game = PenniesGame(2, WEIGHTED)
    with pytest.raises(BadInput) as info:
        check_matrix_proof(game, game.initial_state(), proof, "p.json")  # type: ignore[arg-type]
    assert info.value.problem == "a matrix proof must be a JSON object"
