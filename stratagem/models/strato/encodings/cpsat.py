"""Strato's horizon model in CP-SAT: the same variables and constraints as :mod:`sat`, native where it fits.

The CP-SAT model is built by the same code as the CNF (one source of truth for the rules), with each
kind of constraint handed to CP-SAT in its own terms: clauses as ``AddBoolOr``, at-most-one and
exactly-one as ``AddAtMostOne``/``AddExactlyOne``, and the victory counts as linear constraints
``sum(...) >= n`` enforced by the row's literal, instead of the sequential-counter clauses the CNF
needs. Clauses that belong to turn ``t`` keep their guard: they are enforced only while the game is
not yet won (``OnlyEnforceIf(not done[t])``).

CP-SAT gives no refutation certificate: an INFEASIBLE horizon is reported as exactly that. It runs
with one worker and a fixed seed, so the same deal gives the same line every time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from stratagem.models.strato.encodings.sat import ACTION_WEATHERS, StratoCNF
from stratagem.models.strato.rules.notation import Move
from stratagem.solvers.cpsatlits import CpSatLiterals


@dataclass
class StratoCPSAT(StratoCNF):
    """The horizon model of :class:`StratoCNF` as a CP-SAT model."""

    model: Any = field(default=None)
    rows_apart: bool = True

    def __post_init__(self) -> None:
        self.model = cp_model.CpModel()
        self._lit = CpSatLiterals(self.model)
        super().__post_init__()

    def _enforce(self, constraint: Any) -> None:
        if self._guard:
            constraint.OnlyEnforceIf(self._lit(-self._guard))

    def add(self, *lits: int) -> None:
        self._enforce(self.model.AddBoolOr([self._lit(x) for x in lits]))

    def at_most_one(self, lits: Sequence[int]) -> None:
        if self._guard:
            self._enforce(self.model.Add(sum(self._lit(x) for x in lits) <= 1))
        else:
            self.model.AddAtMostOne([self._lit(x) for x in lits])

    def exactly_one(self, lits: Sequence[int]) -> None:
        if self._guard:
            self._enforce(self.model.Add(sum(self._lit(x) for x in lits) == 1))
        else:
            self.model.AddExactlyOne([self._lit(x) for x in lits])

    def at_least(self, lits: Sequence[int], bound: int, cond: int, select: int = 0) -> None:
        if bound <= 0:
            return
        enforce = [self._lit(cond)] + ([self._lit(-self._guard)] if self._guard else [])
        if select:
            enforce.append(self._lit(select))
        self.model.Add(sum(self._lit(x) for x in lits) >= bound).OnlyEnforceIf(enforce)

    def hint_line(self, moves: Sequence[Move]) -> None:
        """Hint the states and plays of ``moves`` (replayed by the rules engine) to the solver.

        A hint is not a constraint: CP-SAT starts its search from it and still decides feasibility in
        its own model, so "feasible" after a hint means the model accepts a win within the horizon
        (usually that line, found at once instead of after minutes of search).
        """
        states = [self.start]
        for move in moves[: self.horizon]:
            states.append(self.game.apply(states[-1], move))
        for t, state in enumerate(states):
            for h in range(self.halves):
                cards = state.rows[h // 2].half(h % 2)
                for j in range(self.limit):
                    for w in self.weathers:
                        self._hint(("S", t, h, j, w), j < len(cards) and cards[j] == w)
            for p, hand in enumerate(state.hands):
                for w in self.weathers:
                    for c in range(self.hand_size + 1):
                        self._hint(("hand", t, p, w, c), hand.count(w) == c)
            for k in range(len(self.pile) + 1):
                self._hint(("drawn", t, k), k == len(self.pile) - len(state.pile))
            for w in ACTION_WEATHERS:
                self._hint(("last", t, w), state.last == w)
        for t, move in enumerate(moves[: self.horizon]):
            for w in self.weathers:
                self._hint(("card", t, w), move.card == w)
            for h in range(self.halves):
                self._hint(("play", t, h), h == 2 * move.row + move.end)
            self._hint(("redraw", t), move.redraw)

    def _hint(self, key: tuple[object, ...], value: bool) -> None:
        index = self.pool.obj2id.get(key)
        if index is not None and index in self._lit.vars:
            self.model.AddHint(self._lit.vars[index], int(value))  # OR-Tools 9.8 refuses a bool

    @property
    def constraints(self) -> int:
        return len(self.model.Proto().constraints)

    def solve_cpsat(
        self, time_limit: float | None, assumptions: Sequence[int] = ()
    ) -> tuple[bool | None, list[int] | None]:
        """``(True, model)``, ``(False, None)`` when infeasible, ``(None, None)`` when stopped.

        ``assumptions`` (literals, as :meth:`StratoCNF.assumptions` gives them for an open horizon) hold
        for this solve only.
        """
        self.model.ClearAssumptions()
        if assumptions:
            self.model.AddAssumptions([self._lit(x) for x in assumptions])
        return self._lit.solve(time_limit)
