"""DIMACS-style literals in a CP-SAT model, so a CNF builder can emit CP-SAT constraints instead.

The SAT models build their constraints over integer literals (``v`` / ``-v``); their CP-SAT variants
run the same construction and hand each constraint to CP-SAT. This maps each variable to a CP-SAT
Boolean on first use and reads a solution back in PySAT's form, so the SAT model's decoder applies.
"""

from __future__ import annotations

from typing import Any


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
