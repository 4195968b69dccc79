"""The DRUP checker's backtracking resets the reason of each variable it unassigns, and of no other (QA 64
mutation pass of stratagem/solvers/drup.py).

A mutant that reset the reason of variable ``v // 2`` instead of ``v`` (``code >> 2`` for ``code >> 1``)
survived stop 62: a top-level variable then lost the reason behind it, the backward pass no longer marked
that reason, and an invalid lemma it rests on went unchecked. The forgery here makes it happen: the formula
is satisfiable (``a`` and ``c`` false), the proof adds the unit ``a`` (not RUP) and then ``c`` (RUP only with
``a``), which conflicts. The forward conflict's cone is ``c``'s, without ``a``; checking ``c`` backward
needs ``a``'s reason, the lemma ``a``, which must then be checked and refused. Variables are numbered in
the order the formula names them: ``a`` 0, ``c`` 1, ``d`` 2, ``e`` 3, so that unassigning ``c`` (1 // 2 = 0)
is what would have erased ``a``'s reason.
"""

from __future__ import annotations

import pytest

from stratagem.solvers import drup_compiled
from stratagem.solvers.drup import check_drup

A, C, D, E = 1, 2, 3, 4
#: Satisfiable: a and c false satisfy every clause.
FORMULA = [[-A, C, D], [-A, C, -D], [-C, E], [-C, -E]]

ENGINES = ["python", pytest.param("compiled", marks=pytest.mark.skipif(
    not drup_compiled.available(), reason="the compiled DRUP checker is not built"))]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_lemma_behind_a_reason_used_only_backward_is_checked(engine: str) -> None:
    verdict = check_drup(FORMULA, [(False, [A]), (False, [C])], engine=engine)  # type: ignore[arg-type]
    assert not verdict.valid
    assert verdict.reason == "lemma at proof line 1 is not RUP"


@pytest.mark.parametrize("engine", ENGINES)
def test_with_a_in_the_formula_the_same_proof_of_c_is_valid(engine: str) -> None:
    verdict = check_drup([*FORMULA, [A]], [(False, [C])], engine=engine)  # type: ignore[arg-type]
    assert verdict.valid, verdict.reason
