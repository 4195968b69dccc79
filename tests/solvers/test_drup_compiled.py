"""The compiled DRUP checker's own parts: its text parser, its watch pool, its engine switch.

Its verdicts on right and wrong proofs are tested in ``test_drup.py``, which runs every test with
both checkers.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_drup import DRUP_ERRORS, INSTANCES, cadical_proof, lemma_indices, pigeonhole, proof_of

from stratagem.core.errors import BadInput
from stratagem.solvers import drup_compiled, drup_flat
from stratagem.solvers.dimacs import parse_drup_lines
from stratagem.solvers.drup import check_drup, check_drup_data

pytestmark = pytest.mark.skipif(not drup_compiled.available(), reason="the compiled core is not built")


def as_steps(proof: drup_flat.FlatProof) -> tuple[list[tuple[bool, tuple[int, ...]]], list[int]]:
    """A flat proof back as ``(is_deletion, clause)`` steps and line numbers."""
    lits, starts = proof.clauses.lits, proof.clauses.starts
    steps = [(bool(proof.deletion[i]), tuple(int(x) for x in lits[starts[i]:starts[i + 1]])) for i in range(len(proof))]
    return steps, [int(n) for n in proof.line_numbers]


# -- parsing ---------------------------------------------------------------------------------------------------------


def test_flat_parse_reads_what_the_reference_reads() -> None:
    text = "1 -2 0\nd 1 -2 0\n\nc note\n  -3   4 0  \r\n0\n\td\t5 0\n2147483647 0\n"
    assert as_steps(drup_flat.parse_drup_flat(text.encode(), "p")) == parse_drup_lines(text, "p")


@given(st.lists(st.tuples(st.booleans(), st.lists(st.integers(-(2**31) + 1, 2**31 - 1).filter(bool), max_size=6)),
                max_size=30),
       st.lists(st.sampled_from(["", "c comment", "   "]), max_size=5))
@settings(max_examples=60, deadline=None)
def test_flat_parse_agrees_with_the_reference_on_random_proofs(steps: list[tuple[bool, list[int]]],
                                                               noise: list[str]) -> None:
    lines = [("d " if deletion and clause else "") + " ".join(map(str, [*clause, 0])) for deletion, clause in steps]
    for extra in noise:
        lines.insert(len(extra) % (len(lines) + 1), extra)
    data = ("\n".join(lines) + "\n").encode()
    assert as_steps(drup_flat.parse_drup_flat(data, "p")) == parse_drup_lines(data, "p")


@pytest.mark.parametrize(("text", "place", "problem"), DRUP_ERRORS)
def test_flat_parse_errors_are_the_reference_errors(text: str, place: str, problem: str) -> None:
    # As bytes, as a file holds them (so "a 1 0" is binary DRAT to both parsers).
    with pytest.raises(BadInput) as expected:
        parse_drup_lines(text.encode(), "p.drup")
    with pytest.raises(BadInput) as caught:
        drup_flat.parse_drup_flat(text.encode(), "p.drup")
    assert caught.value.line() == expected.value.line()


def test_text_the_compiled_scan_refuses_but_the_reference_accepts_is_still_read() -> None:
    # ``+3`` and a literal beyond 32 bits are fine for Python's int(); the scan hands them over.
    text = "+3 -4 0\n8589934592 0\n"
    assert as_steps(drup_flat.parse_drup_flat(text.encode(), "p")) == parse_drup_lines(text, "p")


# -- the watch pool and the numbering ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["php7-6", "3sat-50-b"])
def test_a_tiny_watch_pool_grows_and_gives_the_same_verdicts(name: str) -> None:
    clauses, lines = INSTANCES[name], proof_of(name)
    formula = drup_flat.flat_clauses(clauses)
    proofs = [lines] + [lines[:i] + lines[i + 1:] for i in reversed(lemma_indices(lines)[-6:])]
    for proof in proofs:
        flat = drup_flat.parse_drup_flat(("\n".join(proof) + "\n").encode(), "p")
        roomy = drup_compiled.check_flat(formula, flat)
        tiny = drup_compiled.check_flat(formula, flat, pool_rows=8)
        assert (tiny.valid, tiny.reason, tiny.checked_lemmas, tiny.core_clauses) == (
            roomy.valid, roomy.reason, roomy.checked_lemmas, roomy.core_clauses)


def test_huge_variable_numbers_are_renumbered() -> None:
    # Pigeonhole with every variable moved far up: the arrays follow the variables used, not the largest.
    shift = 10**9
    clauses = [[lit + shift if lit > 0 else lit - shift for lit in clause] for clause in pigeonhole(4)]
    lines = [" ".join(str(int(x) + shift if int(x) > 0 else int(x) - shift if int(x) < 0 else 0)
                      for x in line.removeprefix("d ").split()) for line in proof_of("php5-4")]
    lines = [("d " if old.startswith("d") else "") + new for old, new in zip(proof_of("php5-4"), lines, strict=True)]
    verdict, steps = check_drup_data(clauses, ("\n".join(lines) + "\n").encode(), "p", engine="compiled")
    assert verdict.valid and steps == len(lines)
    assert verdict.core_clauses == len(clauses)


# -- the engine switch ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(INSTANCES))
def test_both_engines_take_the_same_bytes_to_the_same_answer(name: str) -> None:
    clauses, lines = INSTANCES[name], proof_of(name)
    data = ("\n".join(lines) + "\n").encode()
    reference, steps = check_drup_data(clauses, data, "p", engine="python")
    compiled, same_steps = check_drup_data(clauses, data, "p", engine="compiled")
    assert reference.valid and compiled.valid and steps == same_steps == len(lines)
    assert (reference.checker, compiled.checker) == ("python", "compiled")
    assert compiled.lemmas == reference.lemmas
    cut = ("\n".join(lines[: len(lines) // 3]) + "\n").encode()
    assert not check_drup_data(clauses, cut, "p", engine="compiled")[0].valid


def test_a_wrong_lemma_is_named_alike_by_both_engines() -> None:
    # A satisfiable formula (3 true) "refuted" through the lemma -3, which does not follow from it.
    clauses = [[1, 2, 3], [-1], [-2]]
    for engine in ("python", "compiled"):
        verdict = check_drup(clauses, [(False, (-3,)), (False, ())], engine=engine)
        assert not verdict.valid and verdict.reason == "lemma at proof line 1 is not RUP", engine


def test_a_time_limit_of_zero_stops_the_compiled_check() -> None:
    data = ("\n".join(proof_of("php7-6")) + "\n").encode()
    verdict, _ = check_drup_data(INSTANCES["php7-6"], data, "p", engine="compiled", time_limit=0.0)
    assert verdict.stopped and not verdict.valid
    assert verdict.reason.startswith("stopped by the time limit (0 s) in the forward pass")


def test_engine_names_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown DRUP checker engine 'fast'"):
        check_drup([[1], [-1]], [(False, ())], engine="fast")  # type: ignore[arg-type]


def test_a_zero_literal_is_refused_by_the_flat_path_too() -> None:
    with pytest.raises(ValueError, match=r"literal 0 in clause \[1, 0\]"):
        check_drup([[1, 0]], [], engine="compiled")
    formula = drup_flat.FlatClauses(np.array([2, 0], dtype=np.int64), np.array([0, 2], dtype=np.int64))
    with pytest.raises(ValueError, match=r"literal 0 in clause \[2, 0\]"):
        drup_compiled.check_flat(formula, drup_flat.flat_proof([]))


def test_random_unsatisfiable_formulas_get_the_same_validity_from_both_engines() -> None:
    rng = random.Random(7)
    for _ in range(20):
        variables = rng.randint(8, 14)
        clauses = [[rng.choice([-1, 1]) * rng.randint(1, variables) for _ in range(3)] for _ in range(6 * variables)]
        lines = cadical_proof(clauses)
        if lines is None:
            continue
        data = ("\n".join(lines) + "\n").encode()
        assert check_drup_data(clauses, data, "p", engine="python")[0].valid
        assert check_drup_data(clauses, data, "p", engine="compiled")[0].valid
