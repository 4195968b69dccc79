"""Which checker ``engine="auto"`` picks: the compiled one from a hundred steps of work.

With the old threshold (20,000 weighed steps) every proof below some 20,000 steps went to the pure-Python
reference, which holds the GIL: SAT solves in a pool of threads queued behind each other on it (5 of 16
said unknown under a 20 s limit at load 9). The compiled checker is quicker from some fifty steps on and
runs without the GIL.
"""

from __future__ import annotations

import pytest
from pysat.examples.genhard import PHP

from stratagem.solvers import drup_compiled
from stratagem.solvers.drup import check_drup, check_drup_data
from stratagem.solvers.satplan import solve_cnf


def refutation(holes: int) -> tuple[list[list[int]], bytes]:
    clauses = PHP(holes).clauses
    answer = solve_cnf(clauses, None)
    assert answer is not None and answer[0] is False and answer[2] is not None
    return clauses, "".join(f"{line}\n" for line in answer[2]).encode()


def test_a_proof_of_two_thousand_steps_goes_to_the_compiled_checker() -> None:
    if not drup_compiled.available():
        pytest.skip("the compiled core is not built")
    clauses, proof = refutation(6)  # 1,971 steps over 133 clauses
    verdict, steps = check_drup_data(clauses, proof, "PHP(6)")
    assert verdict.valid and verdict.checker == "compiled" and 1_000 < steps < 20_000


def test_a_proof_of_a_step_stays_on_the_reference() -> None:
    assert check_drup([[1], [-1]], [(False, ())]).checker == "python"
