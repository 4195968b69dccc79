"""Tests of the DRUP checker and the DIMACS / DRUP text helpers.

The truth is known independently: the formulas are unsatisfiable by construction (pigeonhole,
every sign pattern) or by a second solver (MiniSat, for random formulas), and every corrupted
proof that the checker accepts is checked to refute a formula that really is unsatisfiable --
the checker may only ever be generous with proofs of true facts. A naive forward checker written
here (plain unit propagation over a list of clauses, every lemma checked) gives the other bound:
whatever it accepts, the backward checker must accept too.
"""

from __future__ import annotations

import gzip
import importlib.machinery
import os
import random
import re
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from stratagem.core.errors import BadInput
from stratagem.solvers import drup, drup_compiled
from stratagem.solvers.dimacs import (
    parse_dimacs,
    parse_drup,
    parse_drup_lines,
    read_text_maybe_gz,
    write_dimacs,
    write_text_maybe_gz,
)
from stratagem.solvers.drup import DrupVerdict, check_drup, run_drat_trim

Clauses = list[list[int]]
Steps = list[tuple[bool, tuple[int, ...]]]


@pytest.fixture(autouse=True, scope="module", params=["python", "compiled"])
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every test here runs with the reference checker and again with the compiled one.

    ``check_drup``'s default engine picks by proof size; the threshold is moved so that it picks the
    engine under test for every proof.
    """
    if request.param == "compiled" and not drup_compiled.available():
        pytest.skip("the compiled core is not built")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(drup, "COMPILED_FROM", 0 if request.param == "compiled" else 1 << 62)
        yield request.param

# -- formulas and proofs -------------------------------------------------------------------------


def pigeonhole(holes: int) -> Clauses:
    """PHP(holes + 1, holes): every pigeon in some hole, no two pigeons in one hole."""

    def var(pigeon: int, hole: int) -> int:
        return pigeon * holes + hole + 1

    clauses = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for p in range(holes + 1):
            for q in range(p + 1, holes + 1):
                clauses.append([-var(p, h), -var(q, h)])
    return clauses


def all_signs(variables: int) -> Clauses:
    """The 2**n clauses over n variables with every sign pattern: unsatisfiable."""
    return [[v if bits >> (v - 1) & 1 else -v for v in range(1, variables + 1)] for bits in range(2**variables)]


def xor(variables: list[int], parity: int) -> Clauses:
    """Clauses saying that an odd (parity 1) or even (0) number of ``variables`` are true."""
    clauses = []
    for bits in range(2 ** len(variables)):
        true = [bits >> i & 1 for i in range(len(variables))]
        if sum(true) % 2 != parity:  # forbid this assignment
            clauses.append([-v if t else v for v, t in zip(variables, true, strict=True)])
    return clauses


def random_3sat(variables: int, ratio: float, seed: int) -> Clauses:
    """A random 3-SAT formula above the threshold, redrawn until it is unsatisfiable."""
    rng = random.Random(seed)
    while True:
        clauses = [
            [v * rng.choice((1, -1)) for v in rng.sample(range(1, variables + 1), 3)]
            for _ in range(int(ratio * variables))
        ]
        if not satisfiable(clauses):
            return clauses


def satisfiable(clauses: Sequence[Sequence[int]]) -> bool:
    """The verdict of MiniSat, a solver other than the one whose proofs are checked."""
    with Solver(name="minisat22", bootstrap_with=[list(c) for c in clauses]) as solver:
        return bool(solver.solve())


def cadical_proof(clauses: Sequence[Sequence[int]]) -> list[str] | None:
    """CaDiCaL's DRUP proof lines for ``clauses``, or ``None`` if it finds them satisfiable."""
    with Solver(name="cadical195", bootstrap_with=[list(c) for c in clauses], with_proof=True) as solver:
        if solver.solve():
            return None
        proof = solver.get_proof()
        assert proof is not None
        return list(proof)


def check(clauses: Sequence[Sequence[int]], lines: Sequence[str]) -> DrupVerdict:
    return check_drup(clauses, parse_drup(lines, "proof"))


INSTANCES: dict[str, Clauses] = {
    "php4-3": pigeonhole(3),
    "php5-4": pigeonhole(4),
    "php6-5": pigeonhole(5),
    "php7-6": pigeonhole(6),
    "3sat-40-a": random_3sat(40, 5.0, seed=1),
    "3sat-50-b": random_3sat(50, 4.8, seed=2),
    "all-signs-4": all_signs(4),
    "xor-chain": xor([1, 2, 3], 1) + xor([3, 4, 5], 1) + xor([1, 2, 4, 5], 1),
}
PROOFS: dict[str, list[str]] = {}


def proof_of(name: str) -> list[str]:
    if name not in PROOFS:
        proof = cadical_proof(INSTANCES[name])
        assert proof is not None, f"{name} should be unsatisfiable"
        PROOFS[name] = proof
    return PROOFS[name]


def lemma_indices(lines: Sequence[str]) -> list[int]:
    """Indices of the non-empty lemmas of a text proof."""
    return [i for i, line in enumerate(lines) if not line.startswith("d") and line.split() != ["0"]]


def named_line(verdict: DrupVerdict, lines: Sequence[str]) -> int:
    """The proof line a rejection names; it must be a lemma of ``lines``."""
    match = re.search(r"proof line (\d+)", verdict.reason)
    assert match is not None, verdict.reason
    number = int(match.group(1))
    assert 1 <= number <= len(lines)
    assert not lines[number - 1].startswith("d")
    return number


def needed_lemmas(clauses: Clauses, lines: list[str], limit: int) -> list[int]:
    """Up to ``limit`` lemma indices, from the end back, whose single removal makes the proof fail."""
    needed = []
    for index in reversed(lemma_indices(lines)):
        verdict = check(clauses, lines[:index] + lines[index + 1 :])
        if not verdict.valid:
            named_line(verdict, lines[:index] + lines[index + 1 :])
            needed.append(index)
            if len(needed) == limit:
                break
    return needed


# -- a naive reference checker -------------------------------------------------------------------


def naive_propagates_to_conflict(database: list[frozenset[int]], assumed: set[int]) -> bool:
    """Whether unit propagation from ``assumed`` over ``database`` falsifies a clause."""
    true = set(assumed)
    changed = True
    while changed:
        changed = False
        for clause in database:
            if clause & true:
                continue
            open_lits = [lit for lit in clause if -lit not in true]
            if not open_lits:
                return True
            if len(open_lits) == 1:
                true.add(open_lits[0])
                changed = True
    return False


def naive_forward_check(clauses: Sequence[Sequence[int]], steps: Steps) -> bool:
    """Every lemma RUP over the current clauses, every deletion honoured, until the empty clause."""
    database = [frozenset(c) for c in clauses]
    for deletion, clause in steps:
        key = frozenset(clause)
        if deletion:
            if key in database:
                database.remove(key)
            continue
        if not any(-lit in key for lit in key) and not naive_propagates_to_conflict(database, {-lit for lit in key}):
            return False
        if not key:
            return True
        database.append(key)
    return naive_propagates_to_conflict(database, set())


# -- valid proofs --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(INSTANCES))
def test_cadical_proofs_check_valid(name: str) -> None:
    lines = proof_of(name)
    steps = parse_drup(lines, "proof")
    verdict = check_drup(INSTANCES[name], steps)
    assert verdict.valid, verdict.reason
    assert verdict.reason == ""
    assert verdict.lemmas == sum(1 for deletion, _ in steps if not deletion)
    assert 0 <= verdict.checked_lemmas <= verdict.lemmas
    assert 1 <= verdict.core_clauses <= len(INSTANCES[name])
    assert verdict.seconds >= 0


def test_pigeonhole_uses_every_clause() -> None:
    # PHP is minimally unsatisfiable, so any refutation must use each of its clauses.
    verdict = check(pigeonhole(4), proof_of("php5-4"))
    assert verdict.valid and verdict.core_clauses == len(pigeonhole(4))


def test_progress_is_reported() -> None:
    calls: list[tuple[str, int, int]] = []
    verdict = check_drup(
        INSTANCES["php7-6"], parse_drup(proof_of("php7-6"), "proof"), progress=lambda *a: calls.append(a)
    )
    assert verdict.valid
    assert {phase for phase, _, _ in calls} == {"forward", "backward"}
    assert all(0 <= done <= total for _, done, total in calls)


def test_a_time_limit_stops_the_check_without_a_verdict() -> None:
    steps = parse_drup(proof_of("php7-6"), "proof")
    stopped = check_drup(INSTANCES["php7-6"], steps, time_limit=0.0)
    assert stopped.stopped and not stopped.valid
    assert "stopped by the time limit (0 s) in the forward pass, after 0 of" in stopped.reason
    finished = check_drup(INSTANCES["php7-6"], steps, time_limit=3600.0)
    assert finished.valid and not finished.stopped


# -- corrupted proofs ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(INSTANCES))
def test_dropping_a_used_lemma_is_rejected(name: str) -> None:
    # Dropping a lemma may be harmless (CaDiCaL's proofs have redundant lemmas), but on every
    # instance some single drop must be rejected, naming a lemma line of the shortened proof.
    clauses, lines = INSTANCES[name], proof_of(name)
    assert needed_lemmas(clauses, lines, limit=1), f"no single-lemma drop was rejected on {name}"


@pytest.mark.parametrize("name", list(INSTANCES))
def test_flipping_a_literal_of_a_used_lemma_is_rejected(name: str) -> None:
    clauses, lines = INSTANCES[name], proof_of(name)
    rejected = 0
    for index in needed_lemmas(clauses, lines, limit=3):
        lits = lines[index].split()[:-1]
        for at in range(len(lits)):
            flipped = [*lits[:at], str(-int(lits[at])), *lits[at + 1 :], "0"]
            corrupted = [*lines[:index], " ".join(flipped), *lines[index + 1 :]]
            verdict = check(clauses, corrupted)
            if verdict.valid:
                continue  # the flipped lemma may happen to be implied as well
            rejected += 1
            named_line(verdict, corrupted)
    assert rejected > 0


@pytest.mark.parametrize("name", list(INSTANCES))
def test_proof_against_a_weaker_formula_is_rejected(name: str) -> None:
    clauses, lines = INSTANCES[name], proof_of(name)
    rng = random.Random(name)
    order = list(range(len(clauses)))
    rng.shuffle(order)
    rejected_sat = 0
    for removed in order[:12]:
        weaker = clauses[:removed] + clauses[removed + 1 :]
        verdict = check(weaker, lines)
        if verdict.valid:
            assert not satisfiable(weaker), f"accepted a refutation of a satisfiable formula (without clause {removed})"
        else:
            named_line(verdict, lines)
            rejected_sat += satisfiable(weaker)
    if name.startswith(("php", "all-signs", "xor")):
        assert rejected_sat == 12  # minimally unsatisfiable: each removal leaves a satisfiable formula


def conflict_point(clauses: Clauses, steps: Steps) -> int:
    """The smallest k such that the first k steps already refute ``clauses`` (binary search)."""
    low, high = 0, len(steps)
    assert check_drup(clauses, steps).valid
    while low < high:
        middle = (low + high) // 2
        if check_drup(clauses, steps[:middle]).valid:
            high = middle
        else:
            low = middle + 1
    return low


@pytest.mark.parametrize("name", list(INSTANCES))
def test_proof_cut_before_its_conflict_is_rejected(name: str) -> None:
    clauses = INSTANCES[name]
    steps = parse_drup(proof_of(name), "proof")
    k = conflict_point(clauses, steps)
    assert k >= 1
    assert not steps[k - 1][0]  # the step that completes the refutation adds a lemma
    # Without the empty clause and the lemmas from the conflict point on:
    cut = [step for step in steps[: k - 1] if step[1]]
    verdict = check_drup(clauses, cut)
    assert not verdict.valid
    assert verdict.reason.startswith("proof does not derive the empty clause")
    # The same with a claimed empty clause at the end:
    verdict = check_drup(clauses, [*cut, (False, ())])
    assert not verdict.valid
    assert verdict.reason.startswith(f"the empty clause at proof line {len(cut) + 1} is not RUP")


def test_final_empty_clause_is_optional_once_propagation_conflicts() -> None:
    # CaDiCaL ends with "0", but the unit before it already makes propagation conflict.
    lines = proof_of("php5-4")
    assert lines[-1] == "0"
    assert check(pigeonhole(4), lines[:-1]).valid


SATISFIABLE = [[1, 2], [-1, 3], [-2, -3], [3, 4, -1]]


@pytest.mark.parametrize(
    "lines",
    [
        [],
        ["0"],
        ["1 0", "0"],
        ["3 0", "-3 0", "0"],
        ["d 1 2 0", "d -1 3 0", "0"],
        ["1 2 0", "1 -2 0", "d 1 2 0", "1 0", "-1 0", "0"],
        ["-2 -3 0", "2 3 0", "-3 0", "-2 0", "0"],
    ],
)
def test_fabricated_proof_of_a_satisfiable_formula_is_rejected(lines: list[str]) -> None:
    assert satisfiable(SATISFIABLE)
    verdict = check(SATISFIABLE, lines)
    assert not verdict.valid
    assert verdict.reason


# -- hand-built proofs -----------------------------------------------------------------------------

EIGHT = all_signs(3)


def test_hand_built_rup_lemmas() -> None:
    lines = ["1 2 0", "1 -2 0", "1 0", "-1 2 0", "-1 -2 0", "0"]
    verdict = check(EIGHT, lines)
    assert verdict == DrupVerdict(True, "", 6, 4, 8, verdict.seconds, checker=verdict.checker)
    # Adding "-1 2" already conflicts: the last two lines are never looked at, even if wrong.
    assert check(EIGHT, ["1 2 0", "1 -2 0", "1 0", "-1 2 0", "7 0", "0"]).valid


def test_hand_built_non_rup_lemma_is_named() -> None:
    # "1" does not follow from the formula by unit propagation; "2" follows once "1" is there.
    verdict = check(EIGHT, ["1 0", "2 0", "0"])
    assert not verdict.valid
    assert verdict.reason == "lemma at proof line 1 is not RUP"
    assert verdict.checked_lemmas == 2


def test_unused_wrong_lemma_is_not_checked() -> None:
    # Backward checking, as drat-trim's: a lemma the refutation does not use is never checked.
    verdict = check(EIGHT, ["9 0", "1 2 0", "1 -2 0", "1 0", "-1 2 0", "0"])
    assert verdict.valid
    assert verdict.lemmas == 6 and verdict.checked_lemmas == 4


def test_deletion_is_honoured() -> None:
    lines = ["1 2 0", "1 -2 0", "1 0", "-1 2 0", "0"]
    assert check(EIGHT, lines).valid
    verdict = check(EIGHT, ["d 1 2 3 0", *lines])
    assert verdict.reason == "lemma at proof line 2 is not RUP"
    # Matching ignores order and repeated literals; a deletion that matches nothing is ignored.
    assert check(EIGHT, ["d 3 2 1 1 0", *lines]).reason == "lemma at proof line 2 is not RUP"
    assert check(EIGHT, ["d 1 2 0", "d 4 0", *lines]).valid
    # One copy is removed per deletion.
    assert check([*EIGHT, [1, 2, 3]], ["d 1 2 3 0", *lines]).valid


def test_deletion_of_a_reason_clause_is_ignored() -> None:
    # The unit clause "1" sets 1 at the top level; deleting it would make "2" fail.
    clauses = [[1], [-1, 2, 3], [-1, 2, -3], [-1, -2, 3], [-1, -2, -3]]
    assert check(clauses, ["d 1 0", "2 0", "0"]).valid
    assert not naive_forward_check(clauses, parse_drup(["d 1 0", "2 0", "0"], "proof"))
    # ... while a unit clause whose literal another clause had set already can go.
    clauses = [[1], [-1, 4], [4], [-4, 2, 3], [-4, 2, -3], [-4, -2, 3], [-4, -2, -3]]
    assert check(clauses, ["d 4 0", "2 0", "0"]).valid
    assert check(clauses, ["d 4 0", "d -1 4 0", "2 0", "0"]).valid  # -1 4 is the reason now


@pytest.mark.parametrize(
    ("clauses", "lines", "valid"),
    [
        ([[]], [], True),
        ([[1, 2], []], [], True),
        ([[1], [-1]], [], True),
        ([[1], [-1]], ["0", "d -1 0"], True),
        ([[1, 1, 2], [-1, -1], [-2, -2, 1], [3, -3], [2, 2, 2, -1]], None, True),
        ([[1, -1, 2], [-2], [2, 3], [-3, 2]], None, True),
        ([[1, 2], [-1, 3], [-2, 3], [-3, 4], [-3, -4], [1, -2], [5, -5, 1]], None, True),
        ([[1, -1]], ["0"], False),
        ([[1, -1]], ["1 -1 0", "0"], False),
        ([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["2 2 0"], True),
        ([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["2 7 -7 0", "0"], False),
        ([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["2 100000 0", "2 -100000 0", "2 0"], True),
        ([[10**9, 2], [-(10**9), 2], [-2]], [], True),
    ],
)
def test_awkward_inputs(clauses: Clauses, lines: list[str] | None, valid: bool) -> None:
    # None: use CaDiCaL's proof (it deletes the input's tautologies and clauses with repeats).
    proof = cadical_proof(clauses) if lines is None else lines
    assert proof is not None
    verdict = check(clauses, proof)
    assert verdict.valid == valid, verdict.reason


def test_empty_input_clause_is_the_core() -> None:
    verdict = check_drup([[1, 2], [], [3]], [])
    assert verdict.valid and verdict.core_clauses == 1 and verdict.lemmas == 0


def test_zero_literal_and_bad_line_numbers_raise() -> None:
    with pytest.raises(ValueError, match="literal 0"):
        check_drup([[1, 0]], [])
    with pytest.raises(ValueError, match="line numbers"):
        check_drup([[1]], [(False, ())], line_numbers=[1, 2])


def test_line_numbers_from_the_parser_are_reported() -> None:
    text = "c a comment\n\n1 0\nc another\n2 0\n0\n"
    steps, numbers = parse_drup_lines(text, "p.drup")
    assert numbers == [3, 5, 6]
    verdict = check_drup(EIGHT, steps, line_numbers=numbers)
    assert verdict.reason == "lemma at proof line 3 is not RUP"


# -- properties ------------------------------------------------------------------------------------


def cnf_over(variables: int) -> st.SearchStrategy[Clauses]:
    literal = st.integers(1, variables).flatmap(lambda v: st.sampled_from([v, -v]))
    return st.lists(st.lists(literal, min_size=2, max_size=3), min_size=2 * variables, max_size=7 * variables)


#: Small random formulas around the satisfiability threshold: about half are unsatisfiable.
small_cnf = st.integers(3, 8).flatmap(cnf_over)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_cnf)
def test_cadical_proofs_of_random_formulas(clauses: Clauses) -> None:
    proof = cadical_proof(clauses)
    event(
        "satisfiable"
        if proof is None
        else f"unsatisfiable, proof of {'10 or more' if len(proof) >= 10 else 'under 10'} lines"
    )
    if proof is None:
        assert satisfiable(clauses)
        assert not check_drup(clauses, []).valid
        assert not check_drup(clauses, [(False, ())]).valid
        return
    assert not satisfiable(clauses)
    verdict = check_drup(clauses, parse_drup(proof, "proof"))
    assert verdict.valid, verdict.reason


def minimal_core(clauses: Clauses) -> Clauses:
    """An unsatisfiable subset of ``clauses`` from which no clause can be left out."""
    core = list(clauses)
    at = 0
    while at < len(core):
        if satisfiable(core[:at] + core[at + 1 :]):
            at += 1
        else:
            del core[at]
    return core


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_cnf)
def test_proofs_fail_on_every_weakening_of_a_minimal_core(clauses: Clauses) -> None:
    # Soundness where it is easiest to get wrong: the formula is one clause short of unsatisfiable.
    if satisfiable(clauses):
        return
    core = minimal_core(clauses)
    proof = cadical_proof(core)
    assert proof is not None
    assert check(core, proof).valid
    for removed in range(len(core)):
        weaker = core[:removed] + core[removed + 1 :]
        verdict = check(weaker, proof)
        assert not verdict.valid, f"accepted a refutation of satisfiable {weaker}"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_cnf, st.data())
def test_accepted_mutations_refute_unsatisfiable_formulas(clauses: Clauses, data: st.DataObject) -> None:
    # Soundness: mutate the formula and the proof at random; whenever the checker accepts, the
    # (mutated) formula must really be unsatisfiable.
    proof = cadical_proof(clauses)
    proof_from_cadical = proof is not None
    if proof is None:
        proof = data.draw(st.lists(st.sampled_from(["1 0", "-1 0", "1 2 0", "-2 0", "d 1 2 0", "0"]), max_size=6))
    steps: Steps = parse_drup(proof, "proof")
    formula = list(clauses)
    for _ in range(data.draw(st.integers(1, 6))):
        kind = data.draw(st.sampled_from(["drop clause", "drop step", "flip literal", "add deletion"]))
        if kind == "drop clause" and formula:
            del formula[data.draw(st.integers(0, len(formula) - 1))]
        elif kind == "drop step" and steps:
            del steps[data.draw(st.integers(0, len(steps) - 1))]
        elif kind == "flip literal" and any(c for _, c in steps):
            at = data.draw(st.sampled_from([i for i, (_, c) in enumerate(steps) if c]))
            deletion, clause = steps[at]
            j = data.draw(st.integers(0, len(clause) - 1))
            steps[at] = (deletion, (*clause[:j], -clause[j], *clause[j + 1 :]))
        elif kind == "add deletion" and formula:
            victim = tuple(formula[data.draw(st.integers(0, len(formula) - 1))])
            steps.insert(data.draw(st.integers(0, len(steps))), (True, victim))
    verdict = check_drup(formula, steps)
    sat = satisfiable(formula)
    source = "cadical proof" if proof_from_cadical else "random proof"
    event(
        f"{source}, {'satisfiable' if sat else 'unsatisfiable'} formula, {'accepted' if verdict.valid else 'rejected'}"
    )
    if verdict.valid:
        assert not sat, "accepted a refutation of a satisfiable formula"
    else:
        assert verdict.reason
    if naive_forward_check(formula, steps):
        assert verdict.valid, verdict.reason


# -- DIMACS and DRUP text ----------------------------------------------------------------------------


def test_write_dimacs_layout() -> None:
    text = write_dimacs([[1, -2], [], [3]], 3, ["made by a test", "two\nlines"])
    assert text == "c made by a test\nc two\nc lines\np cnf 3 3\n1 -2 0\n0\n3 0\n"
    with pytest.raises(ValueError, match="literal 4"):
        write_dimacs([[4]], 3)
    with pytest.raises(ValueError, match="literal 0"):
        write_dimacs([[0]], 3)


@given(st.data())
def test_dimacs_round_trip(data: st.DataObject) -> None:
    num_vars = data.draw(st.integers(1, 9))
    clauses = data.draw(st.lists(st.lists(st.integers(-num_vars, num_vars).filter(bool), max_size=4), max_size=8))
    assert parse_dimacs(write_dimacs(clauses, num_vars, ["x"]), "f.cnf") == (num_vars, [tuple(c) for c in clauses])


def test_parse_dimacs_accepts_spread_clauses_and_satlib_end() -> None:
    text = "c hi\np cnf 3 2\n1 -2\n 3 0 -1\n0\n%\n0\n"
    assert parse_dimacs(text, "f.cnf") == (3, [(1, -2, 3), (-1,)])


@pytest.mark.parametrize(
    ("text", "place", "problem"),
    [
        ("1 2 0\n", "line 1", "clause before the header"),
        ("c only\n", "", "no header line"),
        ("p cnf 2 1\np cnf 2 1\n1 0\n", "line 2", "second header line (the first is line 1)"),
        ("p dnf 2 1\n", "line 1", "expected a header"),
        ("p cnf two 1\n", "line 1", "expected an integer, found 'two'"),
        ("p cnf 2 -1\n", "line 1", "must not be negative"),
        ("p cnf 2 2\n1 2 0\n\n1 x 0\n", "line 4", "expected an integer, found 'x'"),
        ("p cnf 2 1\n1 3 0\n", "line 2", "literal 3 names a variable above the declared 2"),
        ("p cnf 2 2\n1 0\n-1\n2", "line 3", "the last clause is not ended by 0"),
        ("c x\np cnf 2 3\n1 0\n2 0\n", "line 2", "the header declares 3 clauses, the file has 2"),
    ],
)
def test_parse_dimacs_errors_name_the_line(text: str, place: str, problem: str) -> None:
    with pytest.raises(BadInput) as caught:
        parse_dimacs(text, "f.cnf")
    assert caught.value.source == "f.cnf"
    assert caught.value.place == place
    assert problem in caught.value.problem


def test_parse_drup_text_and_lines() -> None:
    text = "1 -2 0\nd 1 -2 0\n\nc note\n  -3   4 0  \n0\n"
    assert parse_drup(text, "p") == [(False, (1, -2)), (True, (1, -2)), (False, (-3, 4)), (False, ())]
    assert parse_drup(text.splitlines(), "p") == parse_drup(text, "p")
    assert parse_drup(text.encode(), "p") == parse_drup(text, "p")
    assert parse_drup_lines(text, "p")[1] == [1, 2, 5, 6]


#: Malformed text proofs: the text, the place named and the problem stated.
DRUP_ERRORS = [
    ("1 2 0\n1 2\n", "line 2", "must end with 0"),
    ("1 0 2 0\n", "line 1", "0 inside a proof step"),
    ("1 0\nd 0\n", "line 2", "deletion of the empty clause"),
    ("1 0\n\n1 y 0\n", "line 3", "expected an integer, found 'y'"),
    ("d\n", "line 1", "must end with 0"),
    ("a 1 0\n", "line 1", "expected an integer, found 'a'"),
    ("1 0\n2 0\nd1 0\n", "line 3", "expected an integer, found 'd1'"),
]


@pytest.mark.parametrize(("text", "place", "problem"), DRUP_ERRORS)
def test_parse_drup_errors_name_the_line(text: str, place: str, problem: str) -> None:
    with pytest.raises(BadInput) as caught:
        parse_drup(text, "p.drup")
    assert (caught.value.source, caught.value.place) == ("p.drup", place)
    assert problem in caught.value.problem
    assert caught.value.line().startswith(f"p.drup: {place}: ")


def encode_binary(steps: Steps) -> bytes:
    """Binary DRAT, written from the format's description, to test the reader against."""
    out = bytearray()
    for deletion, clause in steps:
        out.append(0x64 if deletion else 0x61)
        for lit in clause:
            code = 2 * abs(lit) + (lit < 0)
            while code >= 0x80:
                out.append(code & 0x7F | 0x80)
                code >>= 7
            out.append(code)
        out.append(0)
    return bytes(out)


@given(
    st.lists(
        st.tuples(st.booleans(), st.lists(st.integers(-(2**31) + 1, 2**31 - 1).filter(bool), max_size=5).map(tuple))
    )
)
def test_binary_proofs_parse(steps: Steps) -> None:
    steps = [(deletion and bool(clause), clause) for deletion, clause in steps]
    data = encode_binary(steps)
    parsed, numbers = parse_drup_lines(data, "p.bin")
    assert parsed == steps
    assert numbers == list(range(1, len(steps) + 1))


def test_binary_proof_errors() -> None:
    with pytest.raises(BadInput, match="step not ended by a zero byte"):
        parse_drup(b"a\x02\x04", "p.bin")
    with pytest.raises(BadInput, match="expected 'a' or 'd'"):
        parse_drup(b"a\x02\x00x\x00", "p.bin")
    with pytest.raises(BadInput, match="deletion of the empty clause"):
        parse_drup(b"a\x00d\x00", "p.bin")
    with pytest.raises(BadInput, match="names no variable"):
        parse_drup(b"a\x01\x00", "p.bin")


def test_binary_and_text_proofs_check_alike() -> None:
    clauses, lines = INSTANCES["php6-5"], proof_of("php6-5")
    steps = parse_drup(lines, "proof")
    assert parse_drup(encode_binary(steps), "p.bin") == steps
    assert check_drup(clauses, steps).valid


# -- files -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["f.cnf", "f.cnf.gz"])
def test_text_files_round_trip_atomically(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    text = write_dimacs(pigeonhole(3), 12, ["php"])
    write_text_maybe_gz(path, "old")
    write_text_maybe_gz(path, text)
    assert read_text_maybe_gz(path) == text
    assert read_text_maybe_gz(str(path)) == text
    assert sorted(os.listdir(tmp_path)) == [name]  # no temporary file left behind
    if name.endswith(".gz"):
        assert gzip.decompress(path.read_bytes()).decode() == text
        first = path.read_bytes()
        write_text_maybe_gz(path, text)
        assert path.read_bytes() == first  # no timestamp in the gzip header
    else:
        assert path.read_text() == text


def test_reading_a_bad_file_names_it(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="no such file") as caught:
        read_text_maybe_gz(tmp_path / "missing.cnf")
    assert caught.value.source == str(tmp_path / "missing.cnf")
    (tmp_path / "plain.gz").write_text("not gzip")
    with pytest.raises(BadInput, match="cannot read"):
        read_text_maybe_gz(tmp_path / "plain.gz")


def test_failed_write_leaves_nothing(tmp_path: Path) -> None:
    """A write that fails is bad input naming the file (one line in the CLI), and leaves nothing."""
    with pytest.raises(BadInput, match="f.cnf: cannot write"):
        write_text_maybe_gz(tmp_path / "no-such-dir" / "f.cnf", "x")
    assert os.listdir(tmp_path) == []


# -- drat-trim ---------------------------------------------------------------------------------------


def fake_drat_trim(directory: Path, script: str) -> None:
    program = directory / "drat-trim"
    program.write_text("#!/bin/sh\n" + script + "\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)


def test_run_drat_trim_without_the_program(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert run_drat_trim(tmp_path / "f.cnf", tmp_path / "f.drup", 5) is None


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ('echo "c parsing"; echo "s VERIFIED"', "valid"),
        ('echo "s NOT VERIFIED"; exit 1', "invalid"),
        ('echo "c oops" >&2; exit 3', "error: drat-trim exited with code 3 without a verdict: c oops"),
        ("exec sleep 5", "error: drat-trim did not finish within 0.5 s"),
    ],
)
def test_run_drat_trim_reads_the_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str, expected: str
) -> None:
    fake_drat_trim(tmp_path, script)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    assert run_drat_trim(tmp_path / "f.cnf", tmp_path / "f.drup", 0.5) == expected


def test_run_drat_trim_on_a_real_proof_if_installed(tmp_path: Path) -> None:
    clauses, lines = INSTANCES["php5-4"], proof_of("php5-4")
    cnf, proof = tmp_path / "f.cnf", tmp_path / "f.drup"
    write_text_maybe_gz(cnf, write_dimacs(clauses, 20))
    write_text_maybe_gz(proof, "\n".join(lines) + "\n")
    assert parse_drup(read_text_maybe_gz(proof), str(proof)) == parse_drup(lines, "proof")
    result = run_drat_trim(cnf, proof, 60)
    if result is None:
        pytest.skip("drat-trim is not installed")
    assert result == "valid"


# -- which engine runs -----------------------------------------------------------------------------------


def test_available_says_whether_the_compiled_checker_is_compiled() -> None:
    extension = str(drup_compiled.__file__).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    assert drup_compiled.available() == extension


def test_an_uncompiled_checker_is_never_picked(monkeypatch: pytest.MonkeyPatch) -> None:
    # Not compiled, the compiled checker's code runs as plain Python, slower than the reference: "auto"
    # then takes the reference even for the longest proofs, and asking for "compiled" says it is not built.
    monkeypatch.setattr(drup_compiled, "available", lambda: False)
    monkeypatch.setattr(drup, "COMPILED_FROM", 0)
    assert check_drup([[1], [-1]], [(False, ())]).checker == "python"
    assert drup.check_drup_data([[1], [-1]], b"0\n", "p")[0].checker == "python"
    with pytest.raises(RuntimeError, match="the compiled DRUP checker is not built") as caught:
        check_drup([[1], [-1]], [(False, ())], engine="compiled")
    assert "numba" not in str(caught.value) and "fast" not in str(caught.value)
