"""The horizon driver: grow ``k`` until "a goal within ``k`` steps" is satisfiable, keeping the refutation.

Game-agnostic: a game supplies ``build(k)``, an object with the CNF of "a goal within ``k`` steps"
(``clauses``, ``num_vars``, ``comments``) and ``decode(model)``, which turns a satisfying assignment
into moves *and replays them through the game's rules engine* (a model bug must surface as an error,
never as an answer).

Each horizon is solved by CaDiCaL 1.9.5 (PySAT's ``cadical195``) with DRUP proof output. When horizon
``k`` is the first satisfiable one, the CNF and proof of horizon ``k - 1`` are the certificate that no
line of fewer than ``k`` steps exists (the formula says "within", so one refutation covers every
shorter length); ``stratagem verify`` re-checks that proof with the project's own checker. When even
the game's maximum length is unsatisfiable, that refutation proves there is no line at all.

PySAT cannot interrupt CaDiCaL, so a time limit runs each solve in a forked child process that is
stopped when the time is up; the result is then ``unknown`` with the horizons refuted so far.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from pysat.solvers import Solver

M = TypeVar("M")
M_co = TypeVar("M_co", covariant=True)

SOLVER = "cadical195"


class HorizonModel(Protocol[M_co]):
    """The CNF of one horizon and how to read a line out of its models."""

    clauses: list[list[int]]
    comments: list[str]

    @property
    def num_vars(self) -> int: ...

    def decode(self, model: Sequence[int]) -> tuple[M_co, ...]: ...


@dataclass(frozen=True)
class Refutation:
    """A CNF with its DRUP refutation: "no goal within ``horizon`` steps"."""

    horizon: int
    num_vars: int
    clauses: list[list[int]]
    proof: list[str]
    comments: list[str]


@dataclass(frozen=True)
class HorizonRun:
    """One solver call: the horizon, its answer (``None``: stopped), formula size and time."""

    horizon: int
    satisfiable: bool | None
    variables: int
    clauses: int
    proof_lines: int
    seconds: float


@dataclass(frozen=True)
class SatPlanResult(Generic[M]):
    """Outcome of the horizon search.

    ``status``: ``solved`` (``moves`` is shortest: ``refutation`` refutes horizon ``lower_bound - 1``),
    ``unsolvable`` (``refutation`` refutes the maximum length), ``unknown`` (stopped by the time limit;
    ``lower_bound`` is the last refuted horizon plus one, ``refutation`` that horizon's, if any).
    """

    status: str
    moves: tuple[M, ...] | None
    lower_bound: int
    refutation: Refutation | None
    runs: tuple[HorizonRun, ...]
    seconds: float
    stopped_by: str | None


def _solve(clauses: list[list[int]], want_proof: bool) -> tuple[bool, list[int] | None, list[str] | None]:
    with Solver(name=SOLVER, bootstrap_with=clauses, with_proof=want_proof) as solver:
        sat = bool(solver.solve())
        model = list(solver.get_model()) if sat else None
        proof = list(solver.get_proof()) if (want_proof and not sat) else None
    return sat, model, proof


def _child(conn: Any, clauses: list[list[int]], want_proof: bool) -> None:
    conn.send(_solve(clauses, want_proof))
    conn.close()


def _solve_within(
    clauses: list[list[int]], want_proof: bool, seconds: float | None
) -> tuple[bool, list[int] | None, list[str] | None] | None:
    """Solve, or return ``None`` if ``seconds`` ran out first."""
    if seconds is None:
        return _solve(clauses, want_proof)
    if seconds <= 0:
        return None
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_child, args=(child, clauses, want_proof), daemon=True)
    process.start()
    child.close()
    try:
        if parent.poll(seconds):
            answer: tuple[bool, list[int] | None, list[str] | None] = parent.recv()
            return answer
        return None
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        parent.close()


def horizon_search(
    build: Callable[[int], HorizonModel[M]],
    *,
    first: int,
    last: int,
    time_limit: float | None = None,
    want_proof: bool = True,
    progress: Callable[[int, int], None] | None = None,
    backend: str = "sat",
) -> SatPlanResult[M]:
    """Solve horizons ``first, first + 1, ... last`` until one is satisfiable.

    ``first`` should be a proven lower bound minus one (or 0), so that the first unsatisfiable
    horizon before the satisfiable one is solved and its refutation kept. ``last`` is the game's
    maximum length: refuting it proves that no line exists.

    ``backend="cpsat"`` solves each horizon with the model's own ``solve_cpsat(time_limit)`` (CP-SAT):
    the same search, but infeasibility comes without a certificate (``refutation`` keeps the horizon
    and formula size, with an empty proof).
    """
    started = time.perf_counter()
    runs: list[HorizonRun] = []
    refutation: Refutation | None = None
    lower = first
    for k in range(first, last + 1):
        if progress is not None:
            progress(k, len(runs))
        model_k = build(k)
        remaining = None if time_limit is None else time_limit - (time.perf_counter() - started)
        t0 = time.perf_counter()
        answer: tuple[bool, list[int] | None, list[str] | None] | None
        if backend == "cpsat":
            sat_or_none, cp_assignment = model_k.solve_cpsat(remaining)  # type: ignore[attr-defined]
            answer = None if sat_or_none is None else (sat_or_none, cp_assignment, None)
        else:
            answer = _solve_within(model_k.clauses, want_proof, remaining)
        spent = time.perf_counter() - t0
        if answer is None:
            runs.append(HorizonRun(k, None, model_k.num_vars, len(model_k.clauses), 0, spent))
            return SatPlanResult("unknown", None, lower, refutation, tuple(runs), time.perf_counter() - started, "time")
        sat, model, proof = answer
        runs.append(HorizonRun(k, sat, model_k.num_vars, len(model_k.clauses), len(proof or ()), spent))
        if sat:
            assert model is not None
            moves = model_k.decode(model)
            if len(moves) != k and refutation is not None and refutation.horizon == k - 1:
                raise RuntimeError(f"horizon {k} decoded to a line of {len(moves)} steps after refuting {k - 1}")
            if refutation is None and k > 0:
                # Nothing below k was refuted (first > 0 without a proof): the line is not proven shortest.
                return SatPlanResult("unknown", moves, lower, None, tuple(runs), time.perf_counter() - started, None)
            return SatPlanResult("solved", moves, len(moves), refutation, tuple(runs),
                                 time.perf_counter() - started, None)
        refutation = Refutation(k, model_k.num_vars, model_k.clauses, proof or [], model_k.comments)
        lower = k + 1
    return SatPlanResult("unsolvable", None, lower, refutation, tuple(runs), time.perf_counter() - started, None)
