"""DIMACS-style literals in a CP-SAT model, so a CNF builder can emit CP-SAT constraints instead.

The SAT models build their constraints over integer literals (``v`` / ``-v``); their CP-SAT variants
run the same construction and hand each constraint to CP-SAT. This maps each variable to a CP-SAT
Boolean on first use, solves the model, and reads a solution back in PySAT's form, so the SAT model's
decoder applies.
"""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from stratagem.core.interrupt import stop_on_signal


class CpSatLiterals:
    """``literals(lit)``: the CP-SAT literal of DIMACS literal ``lit`` in ``model``."""

    def __init__(self, model: Any) -> None:
        self.model = model
        #: DIMACS variable -> CP-SAT Boolean variable, in order of first use
        self.vars: dict[int, Any] = {}

    def __call__(self, lit: int) -> Any:
        var = self.vars.get(abs(lit))
        if var is None:
            var = self.vars[abs(lit)] = self.model.NewBoolVar(f"v{abs(lit)}")
        return var if lit > 0 else var.Not()

    def assignment(self, solver: Any) -> list[int]:
        """The solver's solution as PySAT's model: ``v`` or ``-v`` for every variable used."""
        return [v if solver.BooleanValue(var) else -v for v, var in self.vars.items()]

    def solve(self, time_limit: float | None, workers: int = 1, seed: int = 0) -> tuple[bool | None, list[int] | None]:
        """CP-SAT on the model (``workers`` threads, ``seed``): ``(True, assignment)`` in PySAT's form,
        ``(False, None)`` when infeasible, ``(None, None)`` when ``time_limit`` seconds ran out first. A
        signal (Ctrl-C, SIGTERM) stops the search and is left to its handler: CP-SAT does not catch it and
        answer "stopped" as if the limit had."""
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        solver.parameters.random_seed = seed
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(0.01, time_limit)
        solver.parameters.catch_sigint_signal = False  # Ctrl-C: interrupted, not "stopped"
        with stop_on_signal(solver.StopSearch):
            status = solver.Solve(self.model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return True, self.assignment(solver)
        if status == cp_model.INFEASIBLE:
            return False, None
        return None, None
