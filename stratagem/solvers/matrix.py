"""Zero-sum matrix games: solved as linear programs with GLOP, then certified in exact arithmetic.

A matrix game is a table of payoffs to the *row* player, who maximises; the *column* player
minimises the same number. Its value v and optimal mixed strategies are the solution of a linear
program, which OR-Tools' GLOP solves in floating point. A floating-point answer is not a proof, so
:func:`solve_matrix` turns it into rational strategies and checks them exactly:

1. A pure saddle point (an entry that is the minimum of its row and the maximum of its column) is
   found exactly first, on the entries as they are (ints stay ints: no Fraction is built); it needs
   no LP at all, and its certificate is the saddle itself: the two pure strategies, which
   :func:`equilibrium_problem` re-checks by comparing the entry with its row and column.
2. A 2x2 game without a saddle point has both strategies fully mixed and equalising, a closed form
   solved exactly (no LP): most mixed nodes of a card-game endgame are its second-to-last turn. A
   larger game first loses its dominated moves, then is tried on exact supports (the whole game left
   when it is square, and up to 3x3 every two moves against two), each candidate checked exactly on
   the whole game (step 4): in the Stack Attack endgames that leaves GLOP almost nothing.
   Otherwise GLOP solves the row player's LP and the column player's LP.
3. Each side's float strategy gives a *support* (the moves it plays). Optimal strategies equalise
   the opponent's payoffs over the opponent's support, so the support's equalities are re-solved
   exactly with :class:`fractions.Fraction` by Gaussian elimination. If that gives no valid
   strategy, nearby supports (a looser or tighter threshold, one move dropped, the binding columns
   instead of the opponent's support) are tried, and finally the float strategy rounded with
   ``limit_denominator``.
4. Every candidate is *checked exactly*: a row strategy x guarantees ``min_j (xA)_j``, a column
   strategy y concedes at most ``max_i (Ay)_i``. By weak duality the first never exceeds the second;
   when the best of each side meet, both strategies are optimal and their common number is the
   value. That is the certificate, and :func:`check_equilibrium` re-checks it from scratch.

A game where the two never meet is returned with ``certified=False`` and the exact bounds the
strategies do guarantee; it is never silently accepted.

Why one module of over 600 lines: solving a matrix game and certifying the answer are one concept here --
every way of solving (saddle, 2x2, supports, GLOP) ends in the same exact check, and the check's helpers
(common denominators, supports) are the solvers' too; a separate checker module would import them all back.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from stratagem.core.callcaches import per_call
from stratagem.core.errors import StratagemError

__all__ = [
    "Matrix",
    "MatrixSolution",
    "check_equilibrium",
    "equilibrium_problem",
    "guarantee_of_column",
    "guarantee_of_row",
    "saddle_solution",
    "two_by_two_solution",
    "solve_matrix",
]

#: Payoffs to the row player; entries are ints or Fractions, never floats.
Matrix = Sequence[Sequence[Fraction | int]]

#: Thresholds below which a float probability counts as "not played" when reading a support.
_SUPPORT_THRESHOLDS = (1e-9, 1e-7, 1e-5, 1e-3)
#: Denominator limits tried, smallest first, when rounding a float strategy to rationals.
_DENOMINATORS = (2, 6, 12, 60, 100, 1000, 10**4, 10**6, 10**9)
#: Limit on the denominator of a float hint given to a free variable of an equalising system.
_HINT_DENOMINATOR = 10**6


class LPFailure(StratagemError):
    """GLOP could not solve a matrix game's LP (it always should: the LP is feasible and bounded)."""


@dataclass(frozen=True)
class MatrixSolution:
    """The solution of a zero-sum matrix game with its exact certificate.

    ``row`` and ``col`` are mixed strategies (probabilities in row and column order). ``lower`` is
    what ``row`` guarantees the row player against every column and ``upper`` what ``col`` concedes
    at most against every row, both exact. ``certified`` is true exactly when ``lower == upper``; then
    ``value`` is the game's value, proven. Otherwise ``value`` is the LP's float value as a fraction
    clamped to ``[lower, upper]`` and is only an estimate. ``method`` says how the strategies were
    found: ``"saddle point"``, ``"support"`` (exact equalities on a support), ``"rounding"`` or
    ``"uncertified"``.
    """

    value: Fraction
    row: tuple[Fraction, ...]
    col: tuple[Fraction, ...]
    certified: bool
    lower: Fraction
    upper: Fraction
    lp_value: float
    method: str


def solve_matrix(matrix: Matrix) -> MatrixSolution:
    """Solve a zero-sum matrix game (payoffs to the maximising row player) with an exact certificate."""
    _check_entries(matrix)
    saddle = _saddle_point(matrix)
    if saddle is not None:
        return saddle
    a = _as_fractions(matrix)
    if len(a) == 2 and len(a[0]) == 2:
        mixed = _two_by_two(a)
        if mixed is not None:
            return mixed
    else:
        reduced = _undominated(a)
        if reduced is not None:
            return reduced
    x_float, v_float = _solve_lp(a)
    b = _negated_transpose(a)
    y_float, w_float = _solve_lp(b)
    lp_value = (v_float - w_float) / 2  # both estimate the value; average the two float answers

    best_row: tuple[Fraction, ...] | None = None
    best_col: tuple[Fraction, ...] | None = None
    lower = upper = Fraction(0)
    row_method = col_method = "uncertified"
    rows = _candidates(a, x_float, y_float, v_float)
    cols = _candidates(b, y_float, x_float, w_float)
    for row_found, col_found in itertools.zip_longest(rows, cols):
        if row_found is not None:
            x, how = row_found
            g = guarantee_of_row(a, x)
            if best_row is None or g > lower:
                best_row, lower, row_method = x, g, how
        if col_found is not None:
            y, how = col_found
            g = guarantee_of_column(a, y)
            if best_col is None or g < upper:
                best_col, upper, col_method = y, g, how
        if best_row is not None and best_col is not None and lower == upper:
            method = "support" if row_method == col_method == "support" else "rounding"
            return MatrixSolution(lower, best_row, best_col, True, lower, upper, lp_value, method)
    assert best_row is not None and best_col is not None  # rounding always yields a candidate
    estimate = min(max(Fraction(lp_value).limit_denominator(_HINT_DENOMINATOR), lower), upper)
    return MatrixSolution(estimate, best_row, best_col, False, lower, upper, lp_value, "uncertified")


def guarantee_of_row(matrix: Matrix, row: Sequence[Fraction | int]) -> Fraction:
    """What the row strategy guarantees the row player: its worst payoff over the columns, exactly."""
    cells, scale = _integers(matrix)
    weights, total = _scaled(row)
    n = len(matrix[0])
    worst = min(sum(w * cells[i][j] for i, w in enumerate(weights) if w) for j in range(n))
    return Fraction(worst, scale * total)


def guarantee_of_column(matrix: Matrix, col: Sequence[Fraction | int]) -> Fraction:
    """The most the column strategy concedes: the row player's best payoff against it, exactly."""
    cells, scale = _integers(matrix)
    weights, total = _scaled(col)
    best = max(sum(w * line[j] for j, w in enumerate(weights) if w) for line in cells)
    return Fraction(best, scale * total)


def _integers(matrix: Matrix) -> tuple[list[list[int]], int]:
    """The matrix as integers over one common denominator: ``matrix[i][j] == cells[i][j] / scale``."""
    flat, scale = _scaled([entry for line in matrix for entry in line])
    n = len(matrix[0])
    return [flat[k:k + n] for k in range(0, len(flat), n)], scale


def equilibrium_problem(
    matrix: Matrix, row: Sequence[Fraction | int], col: Sequence[Fraction | int], value: Fraction | int
) -> str | None:
    """Why ``(row, col, value)`` is not an exact solution of the matrix game, or None when it is.

    Checks that both are probability vectors of the right length (non-negative, summing to 1, no
    floats), that ``row`` guarantees at least ``value`` against every column and that ``col``
    concedes at most ``value`` against every row. Together these prove that ``value`` is the game's
    value and both strategies are optimal.
    """
    try:
        _check_entries(matrix)
    except ValueError as exc:
        return str(exc)
    if not _exact(value):
        return "the value must be an int or a Fraction"
    a = matrix
    scaled = []
    for side, strategy, size in (("row", row, len(a)), ("column", col, len(a[0]))):
        if len(strategy) != size:
            return f"the {side} strategy has {len(strategy)} entries for {size} {side}s"
        for k, p in enumerate(strategy):
            if not _exact(p):
                return f"the {side} strategy's entry {k} is not an int or a Fraction"
        numerators, denominator = _scaled(strategy)  # exact, over one common denominator
        for k, n in enumerate(numerators):
            if n < 0:
                return f"the {side} strategy's entry {k} is negative ({strategy[k]})"
        if sum(numerators) != denominator:
            return f"the {side} strategy sums to {Fraction(sum(numerators), denominator)}, not 1"
        scaled.append((numerators, denominator))
    (xs, dx), (ys, dy) = scaled
    pure_row, pure_col = _pure_scaled(xs, dx), _pure_scaled(ys, dy)
    if pure_row is not None and pure_col is not None:
        return _saddle_problem(a, pure_row, pure_col, value)
    return _mixed_problem(a, xs, dx, ys, dy, value)


def check_equilibrium(
    matrix: Matrix, row: Sequence[Fraction | int], col: Sequence[Fraction | int], value: Fraction | int
) -> bool:
    """True when ``row`` and ``col`` are optimal and ``value`` is the game's value, checked exactly."""
    return equilibrium_problem(matrix, row, col, value) is None


# --- building blocks --------------------------------------------------------------------------


#: The exact types themselves (not bool, which is an int's subclass): a quick test before :func:`_exact`.
_EXACT_TYPES = frozenset((int, Fraction))


def _exact(x: object) -> bool:
    """True for an int (not a bool) or a Fraction: the numbers exact checks accept."""
    return isinstance(x, int | Fraction) and not isinstance(x, bool)


def _check_entries(matrix: Matrix) -> None:
    """Refuse a ragged or empty table and inexact entries (ValueError naming the first)."""
    if len(matrix) == 0 or len(matrix[0]) == 0:
        raise ValueError("a matrix game needs at least one row and one column")
    width = len(matrix[0])
    for i, line in enumerate(matrix):
        if len(line) != width:
            raise ValueError(f"row {i} has {len(line)} entries, row 0 has {width}")
        if all(type(entry) in _EXACT_TYPES for entry in line):  # the usual case, checked at C speed
            continue
        for j, entry in enumerate(line):
            if not _exact(entry):
                raise ValueError(f"entry ({i}, {j}) is {entry!r}; entries must be ints or Fractions")


def _as_fractions(matrix: Matrix) -> list[list[Fraction]]:
    """The matrix as lists of Fractions, for the LP path; refuses what :func:`_check_entries` refuses."""
    _check_entries(matrix)
    return [[Fraction(entry) for entry in line] for line in matrix]


def _saddle_problem(a: Matrix, i: int, j: int, value: Fraction | int) -> str | None:
    """Why pure row ``i`` against pure column ``j`` is no saddle point worth ``value``, or None.

    The same inequalities as for mixed strategies, with one move each side: row ``i`` gets at least
    ``value`` against every column (the entry is the least of its row) and no row gets more than
    ``value`` against column ``j`` (the entry is the greatest of its column).
    """
    for k, entry in enumerate(a[i]):
        if entry < value:
            return f"the row strategy gets only {entry} < {value} against column {k}"
    for k, line in enumerate(a):
        if line[j] > value:
            return f"row {k} gets {line[j]} > {value} against the column strategy"
    return None


def _scaled(numbers: Sequence[Fraction | int]) -> tuple[list[int], int]:
    """Exact numbers as integers over one common denominator: ``(numerators, denominator)``."""
    denominator = 1
    for x in numbers:
        d = x.denominator  # an int's denominator is 1
        if denominator % d:
            denominator = denominator // math.gcd(denominator, d) * d
    return [x.numerator * (denominator // x.denominator) for x in numbers], denominator


def _pure_scaled(numerators: list[int], denominator: int) -> int | None:
    """The move a strategy given over a common denominator plays alone (its numerator is the
    denominator, every other 0), None for a mixed one."""
    ones = [k for k, n in enumerate(numerators) if n == denominator]
    if len(ones) == 1 and sum(numerators) == denominator:  # non-negative: the rest are 0
        return ones[0]
    return None


def _mixed_problem(a: Matrix, xs: list[int], dx: int, ys: list[int], dy: int, value: Fraction | int) -> str | None:
    """The inequalities of :func:`equilibrium_problem` for mixed strategies, in integers.

    The strategies come over their common denominators (``xs / dx``, ``ys / dy``); the entries are
    brought to theirs (``da``) and the value is ``vn / vd``, so that ``sum_i x_i a_ij >= v`` becomes
    ``vd * sum_i X_i A_ij >= vn * dx * da`` with integer ``X`` and ``A``: the same exact test without a
    Fraction (and its gcd) per term. A failing test is reported with the exact Fraction.
    """
    entries, da = _scaled([entry for line in a for entry in line])
    width = len(a[0])
    grid = [entries[k * width:(k + 1) * width] for k in range(len(a))]
    vn, vd = value.numerator, value.denominator
    for j in range(width):
        got = sum(x * line[j] for x, line in zip(xs, grid, strict=True) if x)
        if got * vd < vn * dx * da:
            return f"the row strategy gets only {Fraction(got, dx * da)} < {value} against column {j}"
    for i, line in enumerate(grid):
        got = sum(y * entry for y, entry in zip(ys, line, strict=True) if y)
        if got * vd > vn * dy * da:
            return f"row {i} gets {Fraction(got, dy * da)} > {value} against the column strategy"
    return None


def _negated_transpose(a: list[list[Fraction]]) -> list[list[Fraction]]:
    """The column player's game seen as a row player's: rows and columns swapped, payoffs negated."""
    return [[-a[i][j] for i in range(len(a))] for j in range(len(a[0]))]


def _saddle_point(a: Matrix) -> MatrixSolution | None:
    """The exact solution when the game has a pure saddle point (first best row and column).

    The best row guarantees its least entry and the best column concedes at most its greatest; when
    the two numbers meet, that entry is the value. Computed on the entries as given (ints or
    Fractions), so an integer game costs integer comparisons only.
    """
    row_mins = [min(line) for line in a]
    col_maxs = [max(column) for column in zip(*a, strict=True)]
    lower, upper = max(row_mins), min(col_maxs)
    if lower != upper:
        return None
    i, j = row_mins.index(lower), col_maxs.index(upper)
    value = lower if type(lower) is Fraction else _whole(lower)
    return MatrixSolution(value, _pure(len(a), i), _pure(len(col_maxs), j), True, value, value, float(lower),
                          "saddle point")


# The solutions below are shared between the nodes of one search, which meet the same small games many
# times; they last one library call (core.callcaches, as the induction runs in a call scope): kept after
# it, the few hundred made at a six-turn Stack Attack analysis's peak held 127 MB of the 287 MB its
# process kept once the analysis was dropped.
@per_call
@functools.lru_cache(maxsize=4096)
def saddle_solution(rows: int, columns: int, i: int, j: int, value: int) -> MatrixSolution:
    """The solution :func:`solve_matrix` returns for an integer game whose first best row ``i`` and first
    best column ``j`` meet at ``value`` (a saddle point found by the caller, e.g. a compiled walk on its
    integer entries): the same fields, built without looking at the matrix again (and shared between
    calls: a solution is immutable, and building a frozen dataclass costs microseconds)."""
    exact = _whole(value)
    return MatrixSolution(exact, _pure(rows, i), _pure(columns, j), True, exact, exact, float(value), "saddle point")


@per_call
@functools.lru_cache(maxsize=16384)
def two_by_two_solution(w: int, x: int, y: int, z: int) -> MatrixSolution | None:
    """What :func:`solve_matrix` returns for the integer game ``[[w, x], [y, z]]`` when it has no pure saddle
    point (the caller has tested that) and the closed form holds (:func:`_two_by_two`), else None (then
    ``solve_matrix`` itself must be asked). Exact integer arithmetic: both equalising strategies and the value
    over the one denominator ``w - x - y + z``; each side's guarantee is checked on both lines, as the
    closed form's candidates are. Shared between calls (a solution is immutable)."""
    denominator = w - x - y + z
    if denominator == 0:
        return None
    p_top, q_top, value_top = z - y, z - x, w * z - x * y
    if denominator < 0:  # the same fractions over a positive denominator
        denominator, p_top, q_top, value_top = -denominator, -p_top, -q_top, -value_top
    if not (0 <= p_top <= denominator and 0 <= q_top <= denominator):
        return None
    # row mix (p, 1 - p) against each column, column mix (q, 1 - q) against each row: all equal the value
    for got in (p_top * w + (denominator - p_top) * y, p_top * x + (denominator - p_top) * z,
                q_top * w + (denominator - q_top) * x, q_top * y + (denominator - q_top) * z):
        if got != value_top:
            return None
    p, q, value = Fraction(p_top, denominator), Fraction(q_top, denominator), Fraction(value_top, denominator)
    return MatrixSolution(value, (p, 1 - p), (q, 1 - q), True, value, value, float(value), "support")


@per_call
@functools.lru_cache(maxsize=256)
def _pure(size: int, k: int) -> tuple[Fraction, ...]:
    """The pure strategy playing move ``k`` of ``size`` (Fractions 0 and 1; shared, they are immutable)."""
    return tuple(Fraction(1) if m == k else Fraction(0) for m in range(size))


@per_call
@functools.lru_cache(maxsize=4096)
def _whole(n: int) -> Fraction:
    """``Fraction(n)``, kept for the small values most saddle points have."""
    return Fraction(n)


def _two_by_two(a: list[list[Fraction]]) -> MatrixSolution | None:
    """The exact solution of a 2x2 game without a pure saddle point, None if the check fails.

    Without a saddle point each side's optimal strategy mixes both moves and makes the other side
    indifferent: the row player plays row 0 with p = (d - c) / (a - b - c + d), the column player
    column 0 with q = (d - b) / (a - b - c + d), and the value is (ad - bc) / (a - b - c + d) for
    ``[[a, b], [c, d]]`` (the denominator is not 0 when there is no saddle point). The strategies are
    then checked exactly, as every candidate is.
    """
    (w, x), (y, z) = a
    denominator = w - x - y + z
    if denominator == 0:
        return None
    p, q = (z - y) / denominator, (z - x) / denominator
    if not (0 <= p <= 1 and 0 <= q <= 1):
        return None
    row, col = (p, 1 - p), (q, 1 - q)
    lower, upper = guarantee_of_row(a, row), guarantee_of_column(a, col)
    if lower != upper:
        return None
    return MatrixSolution(lower, row, col, True, lower, upper, float(lower), "support")


def _undominated(a: list[list[Fraction]]) -> MatrixSolution | None:
    """The solution found on the game left by removing dominated moves, without an LP, when there is one.

    A row no better than another against every column (weakly dominated) and a column no better for
    the column player than another against every row can be removed, one at a time, without changing
    the value; optimal strategies of what is left, with probability 0 on the removed moves, are
    optimal in the whole game. Most larger games of a card-game endgame come down to 2x2 this way and
    are solved in closed form without an LP; what is left is tried with both sides fully mixed when it is
    square (each side's equalities solved exactly), and up to 3x3 on every 2x2 support. The strategies
    found are checked exactly on the whole game, as every candidate is; None when no support gives a
    checked equilibrium (then GLOP).
    """
    rows, cols = list(range(len(a))), list(range(len(a[0])))
    cells = _integers(a)[0]  # the same order as a's, compared at integer speed
    removed = True
    while removed and (len(rows) > 2 or len(cols) > 2):
        removed = False
        for i in rows:
            if any(k != i and all(cells[k][j] >= cells[i][j] for j in cols) for k in rows):
                rows.remove(i)
                removed = True
                break
        for j in cols:
            if any(k != j and all(cells[i][k] <= cells[i][j] for i in rows) for k in cols):
                cols.remove(j)
                removed = True
                break
    for support_rows, support_cols in _supports(rows, cols):
        found = _on_support(a, support_rows, support_cols)
        if found is not None:
            return found
    return None


def _supports(rows: list[int], cols: list[int]) -> Iterator[tuple[list[int], list[int]]]:
    """Supports to try for the game of ``rows`` and ``cols`` (what dominance left): both whole when it
    is square, then, up to 3x3, every two rows against every two columns."""
    if len(rows) == len(cols):
        yield rows, cols
    if len(rows) <= 3 and len(cols) <= 3:
        for pair_rows in itertools.combinations(rows, 2):
            for pair_cols in itertools.combinations(cols, 2):
                if len(rows) != 2 or len(cols) != 2:  # (a 2x2 game was tried whole)
                    yield list(pair_rows), list(pair_cols)


def _on_support(a: list[list[Fraction]], rows: list[int], cols: list[int]) -> MatrixSolution | None:
    """Both sides mixing over exactly ``rows`` and ``cols`` (as many of each), each making the other
    indifferent there, when that is an exact equilibrium of the whole game ``a``; else None."""
    sub = [[a[i][j] for j in cols] for i in rows]
    if len(rows) == 2:
        small = _two_by_two(sub)
        if small is None:
            return None
        mix_rows, mix_cols = small.row, small.col
    else:
        everything = list(range(len(rows)))
        hint = [0.0] * len(rows)
        found_rows = _equaliser(sub, everything, everything, hint, 0.0)
        found_cols = _equaliser(_negated_transpose(sub), everything, everything, hint, 0.0)
        if found_rows is None or found_cols is None:
            return None
        mix_rows, mix_cols = found_rows, found_cols
    zero = Fraction(0)
    row, col = [zero] * len(a), [zero] * len(a[0])
    for k, i in enumerate(rows):
        row[i] = mix_rows[k]
    for k, j in enumerate(cols):
        col[j] = mix_cols[k]
    lower, upper = guarantee_of_row(a, row), guarantee_of_column(a, col)
    if lower != upper:
        return None
    return MatrixSolution(lower, tuple(row), tuple(col), True, lower, upper, float(lower), "support")


def _solve_lp(a: list[list[Fraction]]) -> tuple[list[float], float]:
    """GLOP's optimal row strategy and value: maximise v with ``sum_i x_i a_ij >= v`` for every j."""
    # Imported here, not at the top: checking a certificate (check_equilibrium, verify) needs no LP, and
    # OR-Tools takes a tenth of a second to load.
    from ortools.linear_solver import pywraplp

    solver = pywraplp.Solver.CreateSolver("GLOP")
    if solver is None:
        raise LPFailure("OR-Tools has no GLOP solver")
    inf = solver.infinity()
    xs = [solver.NumVar(0.0, 1.0, f"x{i}") for i in range(len(a))]
    v = solver.NumVar(-inf, inf, "v")
    total = solver.Constraint(1.0, 1.0)
    for x in xs:
        total.SetCoefficient(x, 1.0)
    for j in range(len(a[0])):
        column = solver.Constraint(0.0, inf)
        for i, x in enumerate(xs):
            column.SetCoefficient(x, float(a[i][j]))
        column.SetCoefficient(v, -1.0)
    objective = solver.Objective()
    objective.SetCoefficient(v, 1.0)
    objective.SetMaximization()
    status = solver.Solve()
    if status != pywraplp.Solver.OPTIMAL:
        raise LPFailure(f"GLOP returned status {status} on a {len(a)}x{len(a[0])} matrix game")
    return [max(0.0, float(x.solution_value())) for x in xs], float(v.solution_value())


def _candidates(
    a: list[list[Fraction]], mine: list[float], theirs: list[float], value: float
) -> Iterator[tuple[tuple[Fraction, ...], str]]:
    """Rational row strategies to try, most likely first, each with how it was found.

    ``mine`` is the float row strategy, ``theirs`` the float column strategy and ``value`` the float
    value. Supports come from thresholds on ``mine``; the equalities are over ``theirs``'s support
    (where an optimal row strategy makes every column pay the value) or over the float solution's
    binding columns. Each distinct candidate is yielded once.
    """
    seen: set[tuple[Fraction, ...]] = set()
    payoffs = [sum(mine[i] * float(a[i][j]) for i in range(len(a))) for j in range(len(a[0]))]
    attempts: list[tuple[list[int], list[int]]] = []
    for tol in _SUPPORT_THRESHOLDS:
        support = [i for i, p in enumerate(mine) if p > tol]
        opposed = [j for j, p in enumerate(theirs) if p > tol]
        binding = [j for j, got in enumerate(payoffs) if abs(got - value) <= max(tol, 1e-9) * (1 + abs(value))]
        attempts += [(support, opposed), (support, binding)]
    for tol in _SUPPORT_THRESHOLDS[:1]:
        support = [i for i, p in enumerate(mine) if p > tol]
        opposed = [j for j, p in enumerate(theirs) if p > tol]
        if len(support) > 1:
            attempts += [([i for i in support if i != k], opposed) for k in support]
    for support, equalities in attempts:
        if not support or not equalities:
            continue
        x = _equaliser(a, support, equalities, mine, value)
        if x is not None and x not in seen:
            seen.add(x)
            yield x, "support"
    for limit in _DENOMINATORS:
        x = _rounded(mine, limit)
        if x is not None and x not in seen:
            seen.add(x)
            yield x, "rounding"


def _equaliser(
    a: list[list[Fraction]], support: list[int], equalities: list[int], hint: list[float], value: float
) -> tuple[Fraction, ...] | None:
    """The row strategy on ``support`` that pays the same against every column in ``equalities``.

    Unknowns are the support's probabilities and the common payoff v; equations are
    ``sum_i x_i a_ij = v`` for j in ``equalities`` and ``sum_i x_i = 1``. Solved exactly; free
    unknowns (a degenerate support) take the float hint. None if inconsistent or not a distribution.
    """
    k = len(support)
    rows: list[list[Fraction]] = []
    for j in equalities:
        rows.append([a[i][j] for i in support] + [Fraction(-1), Fraction(0)])
    rows.append([Fraction(1)] * k + [Fraction(0), Fraction(1)])
    hints = [Fraction(hint[i]).limit_denominator(_HINT_DENOMINATOR) for i in support]
    hints.append(Fraction(value).limit_denominator(_HINT_DENOMINATOR))
    solution = _solve_linear(rows, hints)
    if solution is None:
        return None
    probabilities = solution[:k]
    if any(p < 0 for p in probabilities):
        return None
    x = [Fraction(0)] * len(a)
    for i, p in zip(support, probabilities, strict=True):
        x[i] = p
    return tuple(x)


def _solve_linear(rows: list[list[Fraction]], hints: list[Fraction]) -> list[Fraction] | None:
    """One exact solution of the augmented system ``rows`` (last entry of each row is the right side).

    Gauss-Jordan elimination over the rationals; None when inconsistent. Free unknowns take their
    ``hints`` value, so an underdetermined system gives the solution nearest the float answer.
    """
    m = [list(r) for r in rows]
    n = len(hints)
    pivots: list[int] = []
    r = 0
    for c in range(n):
        pivot = next((k for k in range(r, len(m)) if m[k][c] != 0), None)
        if pivot is None:
            continue
        m[r], m[pivot] = m[pivot], m[r]
        lead = m[r][c]
        m[r] = [e / lead for e in m[r]]
        for k in range(len(m)):
            if k != r and m[k][c] != 0:
                factor = m[k][c]
                m[k] = [e - factor * p for e, p in zip(m[k], m[r], strict=True)]
        pivots.append(c)
        r += 1
        if r == len(m):
            break
    if any(all(e == 0 for e in line[:n]) and line[n] != 0 for line in m[r:]):
        return None
    solution = list(hints)
    free = [c for c in range(n) if c not in pivots]
    for row_index, c in enumerate(pivots):
        line = m[row_index]
        solution[c] = line[n] - sum((line[f] * hints[f] for f in free), Fraction(0))
    return solution


def _rounded(strategy: list[float], limit: int) -> tuple[Fraction, ...] | None:
    """The float strategy rounded to fractions with denominators up to ``limit``, renormalised."""
    rounded = [Fraction(p).limit_denominator(limit) if p > 0 else Fraction(0) for p in strategy]
    total = sum(rounded, Fraction(0))
    if total <= 0:
        return None
    return tuple(p / total for p in rounded)
