"""STAKD solo placement in CP-SAT: the model of :mod:`.sat`, built by the same code, native where it fits.

:class:`SoloCPSAT` reuses :class:`~.sat.SoloCNF`'s construction (one source of truth for the rules and
for the argument that the constraints are equivalent to them; see the :mod:`.sat` docstring) and only
changes how each kind of constraint is handed over: clauses become ``AddBoolOr``, at-most-one becomes
``AddAtMostOne`` (or a linear ``<= 1`` under its condition), and the piece counts and the six-piece
minimum become linear constraints instead of sequential counters.

CP-SAT gives no certificate: an INFEASIBLE answer is reported as "CP-SAT says INFEASIBLE, no
certificate" by the driver (:mod:`.solo`). It runs with a fixed seed and a chosen number of workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from stratagem.models.stakd.sat import SoloCNF
from stratagem.solvers.cpsatlits import CpSatLiterals


@dataclass
class SoloCPSAT(SoloCNF):
    """The solo model of :class:`SoloCNF` as a CP-SAT model (``model``)."""

    model: Any = field(default=None)

    def __post_init__(self) -> None:
        self.model = cp_model.CpModel()
        self._lit = CpSatLiterals(self.model)
        super().__post_init__()

    def add(self, *lits: int) -> None:
        self.model.AddBoolOr([self._lit(x) for x in lits])

    def at_most_one(self, lits: Sequence[int], cond: Sequence[int] = ()) -> None:
        if len(lits) <= 1:
            return
        if cond:
            self.model.Add(sum(self._lit(x) for x in lits) <= 1).OnlyEnforceIf([self._lit(c) for c in cond])
        else:
            self.model.AddAtMostOne([self._lit(x) for x in lits])

    def cardinality(self, lits: Sequence[int], low: int, high: int | None, cond: Sequence[int] = ()) -> None:
        total = sum(self._lit(x) for x in lits)
        enforce = [self._lit(c) for c in cond]
        if low > 0:
            constraint = self.model.Add(total >= low)
            if enforce:
                constraint.OnlyEnforceIf(enforce)
        if high is not None:
            constraint = self.model.Add(total <= high)
            if enforce:
                constraint.OnlyEnforceIf(enforce)

    @property
    def constraints(self) -> int:
        return len(self.model.Proto().constraints)

    def solve_cpsat(self, time_limit: float | None = None, workers: int = 1,
                    seed: int = 0) -> tuple[bool | None, list[int] | None]:
        """``(True, assignment)``, ``(False, None)`` when INFEASIBLE, ``(None, None)`` when stopped.

        The assignment is in PySAT's form (``v`` or ``-v`` per variable) so :meth:`decode` reads it.
        """
        return self._lit.solve(time_limit, workers, seed)
