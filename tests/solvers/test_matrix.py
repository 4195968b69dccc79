"""Tests of the zero-sum matrix-game solver (GLOP LP plus exact rational certificate).

The truth comes from :func:`simtoys.brute_force_value`, an exact support enumeration that shares no
code with the solver, and from classic games whose solutions are derived in the comments.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from simtoys import brute_force_value

from stratagem.solvers import matrix as matrix_module
from stratagem.solvers.matrix import (
    MatrixSolution,
    check_equilibrium,
    equilibrium_problem,
    guarantee_of_column,
    guarantee_of_row,
    solve_matrix,
)

F = Fraction

MATCHING_PENNIES = [[1, -1], [-1, 1]]
ROCK_PAPER_SCISSORS = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]


def assert_certified(matrix: list[list[int]] | list[list[Fraction]], solution: MatrixSolution) -> None:
    assert solution.certified
    assert solution.lower == solution.value == solution.upper
    assert check_equilibrium(matrix, solution.row, solution.col, solution.value)
    assert all(isinstance(p, Fraction) for p in solution.row + solution.col)


def test_matching_pennies_is_exactly_half_half_with_value_zero() -> None:
    solution = solve_matrix(MATCHING_PENNIES)
    assert_certified(MATCHING_PENNIES, solution)
    assert solution.value == 0
    assert solution.row == (F(1, 2), F(1, 2))
    assert solution.col == (F(1, 2), F(1, 2))


def test_rock_paper_scissors_is_exactly_a_third_each_with_value_zero() -> None:
    solution = solve_matrix(ROCK_PAPER_SCISSORS)
    assert_certified(ROCK_PAPER_SCISSORS, solution)
    assert solution.value == 0
    assert solution.row == (F(1, 3),) * 3
    assert solution.col == (F(1, 3),) * 3


def test_dominated_strategies_give_a_pure_saddle_point() -> None:
    # Row 0 beats row 1 in every column and column 1 is smaller than column 0 in every row, so
    # the row player plays row 0, the column player column 1, and the value is the entry 1.
    matrix = [[3, 1], [2, 0]]
    solution = solve_matrix(matrix)
    assert_certified(matrix, solution)
    assert (solution.value, solution.row, solution.col) == (F(1), (F(1), F(0)), (F(0), F(1)))
    assert solution.method == "saddle point"


def test_dominated_row_leaves_the_column_player_the_smallest_entry() -> None:
    # Row 1 is larger than row 0 in every column, so the row player plays row 1; against it the
    # column player takes the smallest entry, column 0, and the value is 2.
    matrix = [[1, 3, 5], [2, 4, 6]]
    solution = solve_matrix(matrix)
    assert_certified(matrix, solution)
    assert (solution.value, solution.row, solution.col) == (F(2), (F(0), F(1)), (F(1), F(0), F(0)))


def test_game_with_value_two_thirds_has_exact_rational_strategies() -> None:
    # [[2, 0], [0, 1]]: the row mix (x, 1-x) equalises 2x = 1-x, so x = 1/3 and v = 2/3; the column
    # mix (y, 1-y) equalises 2y = 1-y the same way, so y = 1/3.
    matrix = [[2, 0], [0, 1]]
    solution = solve_matrix(matrix)
    assert_certified(matrix, solution)
    assert solution.value == F(2, 3)
    assert solution.row == (F(1, 3), F(2, 3))
    assert solution.col == (F(1, 3), F(2, 3))


def test_game_with_fraction_entries_has_value_one_third() -> None:
    # [[1, 0], [0, 1/2]]: x = (1-x)/2 gives x = 1/3 and v = 1/3; likewise y = 1/3.
    matrix = [[F(1), F(0)], [F(0), F(1, 2)]]
    solution = solve_matrix(matrix)
    assert_certified(matrix, solution)
    assert solution.value == F(1, 3)
    assert solution.row == (F(1, 3), F(2, 3))


@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 3)])
def test_lp_value_equals_brute_force_support_enumeration(shape: tuple[int, int]) -> None:
    rng = random.Random(f"matrix-{shape}")
    m, n = shape
    for _ in range(25):
        matrix = [[rng.randint(-4, 4) for _ in range(n)] for _ in range(m)]
        solution = solve_matrix(matrix)
        assert_certified(matrix, solution)
        assert solution.value == brute_force_value(matrix), matrix


def test_degenerate_games_with_many_ties_are_certified() -> None:
    # Entries from {-1, 0, 1} give duplicate rows, equal columns and non-unique optima.
    rng = random.Random("degenerate")
    for _ in range(60):
        m, n = rng.randint(2, 4), rng.randint(2, 4)
        matrix = [[rng.randint(-1, 1) for _ in range(n)] for _ in range(m)]
        solution = solve_matrix(matrix)
        assert_certified(matrix, solution)
        assert solution.value == brute_force_value(matrix), matrix


def test_larger_games_with_fraction_entries_are_certified() -> None:
    rng = random.Random("larger")
    for size in (6, 8, 10):
        matrix = [[F(rng.randint(-20, 20), rng.randint(1, 7)) for _ in range(size)] for _ in range(size + 1)]
        solution = solve_matrix(matrix)
        assert_certified(matrix, solution)


def test_check_equilibrium_rejects_perturbed_strategies_and_values() -> None:
    half = (F(1, 2), F(1, 2))
    assert check_equilibrium(MATCHING_PENNIES, half, half, 0)
    tilted = (F(51, 100), F(49, 100))
    assert not check_equilibrium(MATCHING_PENNIES, tilted, half, 0)  # column 1 gets the row below 0
    assert not check_equilibrium(MATCHING_PENNIES, half, tilted, 0)  # row 0 gets above 0
    assert not check_equilibrium(MATCHING_PENNIES, half, half, F(1, 100))
    assert not check_equilibrium(MATCHING_PENNIES, half, half, F(-1, 100))
    solution = solve_matrix(ROCK_PAPER_SCISSORS)
    shifted = (F(1, 3) + F(1, 1000), F(1, 3) - F(1, 1000), F(1, 3))
    assert not check_equilibrium(ROCK_PAPER_SCISSORS, shifted, solution.col, 0)


def test_check_equilibrium_rejects_non_distributions_and_floats() -> None:
    half = (F(1, 2), F(1, 2))
    assert "sums to" in (equilibrium_problem(MATCHING_PENNIES, (F(1, 2), F(1, 3)), half, 0) or "")
    assert "negative" in (equilibrium_problem(MATCHING_PENNIES, (F(3, 2), F(-1, 2)), half, 0) or "")
    assert "entries" in (equilibrium_problem(MATCHING_PENNIES, (F(1),), half, 0) or "")
    assert not check_equilibrium(MATCHING_PENNIES, (0.5, 0.5), half, 0)  # type: ignore[arg-type]
    assert not check_equilibrium([[1.0, -1.0], [-1.0, 1.0]], half, half, 0)  # type: ignore[list-item]


def test_guarantees_bound_the_value_from_both_sides() -> None:
    # Any row strategy guarantees at most the value, any column strategy concedes at least it.
    rng = random.Random("bounds")
    for _ in range(20):
        matrix = [[rng.randint(-3, 3) for _ in range(3)] for _ in range(3)]
        value = solve_matrix(matrix).value
        weights = [F(rng.randint(0, 5)) for _ in range(3)]
        if sum(weights) == 0:
            continue
        mix = [w / sum(weights) for w in weights]
        assert guarantee_of_row(matrix, mix) <= value <= guarantee_of_column(matrix, mix)


def test_a_node_whose_exact_check_fails_is_reported_uncertified(monkeypatch: pytest.MonkeyPatch) -> None:
    # A broken LP that answers "always rock" for both sides leaves only pure candidates, which
    # guarantee -1 and concede 1 in rock-paper-scissors: the gap must be reported, never hidden.
    def wrong_lp(a: list[list[Fraction]]) -> tuple[list[float], float]:
        return [1.0] + [0.0] * (len(a) - 1), 0.0

    monkeypatch.setattr(matrix_module, "_solve_lp", wrong_lp)
    monkeypatch.setattr(matrix_module, "_undominated", lambda a: None)  # the LP path, not the exact supports
    solution = solve_matrix(ROCK_PAPER_SCISSORS)
    assert not solution.certified
    assert solution.method == "uncertified"
    assert solution.lower < solution.upper
    assert solution.lower <= solution.value <= solution.upper
    assert not check_equilibrium(ROCK_PAPER_SCISSORS, solution.row, solution.col, solution.value)


def test_malformed_matrices_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one row"):
        solve_matrix([])
    with pytest.raises(ValueError, match="row 1 has 1 entries"):
        solve_matrix([[1, 2], [3]])
    with pytest.raises(ValueError, match="ints or Fractions"):
        solve_matrix([[0.5, 1]])  # type: ignore[list-item]


def test_one_row_or_one_column_games_are_pure() -> None:
    assert solve_matrix([[3, -2, 5]]).value == -2
    assert solve_matrix([[3], [-2], [5]]).value == 5


# --- pure saddle points: found without an LP, certified by the saddle itself --------------------------


def test_a_saddle_point_is_found_on_integer_entries_without_an_lp(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_lp(*_: object) -> None:
        raise AssertionError("a pure saddle point needs no LP")

    monkeypatch.setattr(matrix_module, "_solve_lp", no_lp)
    # Row 1 guarantees 2 (its least entry); column 0 concedes at most 2 (its greatest): 2 is the value.
    matrix = [[1, 5, 0], [2, 3, 4], [0, 6, 1]]
    solution = solve_matrix(matrix)
    assert solution.method == "saddle point" and solution.value == 2
    assert solution.row == (0, 1, 0) and solution.col == (1, 0, 0)
    assert_certified(matrix, solution)


def test_a_forged_saddle_point_is_rejected_by_the_exact_check() -> None:
    matrix = [[1, 5, 0], [2, 3, 4], [0, 6, 1]]  # the one saddle is (row 1, column 0), worth 2
    assert equilibrium_problem(matrix, [0, 1, 0], [1, 0, 0], 2) is None
    # (row 1, column 1) is worth 3, but row 1 gets only 2 against column 0
    assert "gets only 2 < 3 against column 0" in str(equilibrium_problem(matrix, [0, 1, 0], [0, 1, 0], 3))
    # (row 0, column 2) is worth 0, but row 1 gets 4 > 0 against column 2
    assert "row 1 gets 4 > 0" in str(equilibrium_problem(matrix, [1, 0, 0], [0, 0, 1], 0))
    # the right saddle with a wrong value either way
    assert "against column 0" in str(equilibrium_problem(matrix, [0, 1, 0], [1, 0, 0], F(5, 2)))
    assert "against the column strategy" in str(equilibrium_problem(matrix, [0, 1, 0], [1, 0, 0], 1))
    # every pure pair: accepted exactly when its entry is the least of its row and the greatest of its column
    for i in range(3):
        for j in range(3):
            entry = matrix[i][j]
            saddle = entry == min(matrix[i]) and entry == max(line[j] for line in matrix)
            problem = equilibrium_problem(matrix, [int(k == i) for k in range(3)], [int(k == j) for k in range(3)],
                                          entry)
            assert (problem is None) == saddle == ((i, j) == (1, 0))


def test_a_two_by_two_game_without_a_saddle_point_is_solved_in_closed_form_without_an_lp(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_lp(*_: object) -> None:
        raise AssertionError("a 2x2 game needs no LP")

    monkeypatch.setattr(matrix_module, "_solve_lp", no_lp)
    # Payoffs 2 for two heads, 1 for two tails: each side plays heads with 1/3 (2x = 1 - x), value 2/3.
    solution = solve_matrix([[2, 0], [0, 1]])
    assert solution.value == F(2, 3) and solution.row == (F(1, 3), F(2, 3)) == solution.col
    assert solution.method == "support"
    assert_certified([[2, 0], [0, 1]], solution)
    rng = random.Random(7)
    for _ in range(200):
        matrix = [[F(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(2)] for _ in range(2)]
        solution = solve_matrix(matrix)
        assert solution.value == brute_force_value(matrix)
        assert_certified(matrix, solution)


def test_small_games_are_solved_on_exact_supports_without_an_lp(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_lp(a: list[list[Fraction]]) -> tuple[list[float], float]:
        raise AssertionError("these games need no LP")

    monkeypatch.setattr(matrix_module, "_solve_lp", no_lp)
    games: list[list[list[F | int]]] = [
        [list(line) for line in ROCK_PAPER_SCISSORS],  # fully mixed 3x3
        [[3, -1, 0], [-1, 1, 0], [0, 0, -5]],  # row 2 and column 2 dominated: a 2x2 game is left
        [[2, 0, 1], [0, 2, 1], [1, 1, 0]],  # no dominance, no saddle; the equilibrium mixes two and two
        [[1, -1, F(1, 2)], [-1, 1, F(1, 2)]],  # 2x3: the third column dominated
    ]
    for matrix in games:
        solution = solve_matrix(matrix)
        assert solution.certified and solution.method == "support", matrix
        assert check_equilibrium(matrix, solution.row, solution.col, solution.value)
    assert solve_matrix(games[2]).value == 1


def test_the_integer_check_of_mixed_strategies_misses_no_epsilon() -> None:
    # Fraction entries, strategies over different denominators: checked over common denominators, so a
    # change of one part in 10^12 to a strategy or the value is still caught, with the exact numbers named.
    matrix: list[list[F | int]] = [[F(7, 3), F(-1, 2), 1], [F(-5, 6), F(9, 4), 0]]
    solution = solve_matrix(matrix)
    assert solution.certified and len([p for p in solution.row if p]) == 2
    row, col, value = solution.row, solution.col, solution.value
    assert equilibrium_problem(matrix, row, col, value) is None
    tiny = F(1, 10**12)
    assert "gets only" in str(equilibrium_problem(matrix, row, col, value + tiny))
    assert "against the column strategy" in str(equilibrium_problem(matrix, row, col, value - tiny))
    tilted = (row[0] + tiny, row[1] - tiny)
    assert "gets only" in str(equilibrium_problem(matrix, tilted, col, value))
    played = [k for k, p in enumerate(col) if p]
    assert len(played) == 2  # a mixed equilibrium: move a little weight from one column to the other
    leaning = list(col)
    leaning[played[0]] += tiny
    leaning[played[1]] -= tiny
    assert sum(leaning) == 1
    assert "against the column strategy" in str(equilibrium_problem(matrix, row, leaning, value))
    assert "sums to" in str(equilibrium_problem(matrix, (row[0] + tiny, row[1]), col, value))
    assert "negative" in str(equilibrium_problem(matrix, (F(3, 2), F(-1, 2)), col, value))


def test_the_integer_shortcuts_give_solve_matrixs_very_solutions() -> None:
    # saddle_solution and two_by_two_solution serve the compiled induction: what they return must be what
    # solve_matrix returns for the same game (the certificates are compared record for record)
    from stratagem.solvers.matrix import saddle_solution, two_by_two_solution

    rng = random.Random(5)
    mixed = saddles = 0
    for k in range(3000):
        rows, columns = (2, 2) if k % 2 else (rng.randint(1, 4), rng.randint(1, 4))
        a = tuple(tuple(rng.randint(-5, 5) for _ in range(columns)) for _ in range(rows))
        solved = solve_matrix(a)
        if solved.method == "saddle point":
            i, j = solved.row.index(1), solved.col.index(1)
            assert saddle_solution(rows, columns, i, j, int(solved.value)) == solved
            saddles += 1
        elif rows == columns == 2:
            assert two_by_two_solution(a[0][0], a[0][1], a[1][0], a[1][1]) == solved
            mixed += 1
    assert saddles > 100 and mixed > 50
