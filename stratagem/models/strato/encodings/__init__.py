"""Strato deals written for other solvers: :mod:`.sat` (bounded-horizon CNF, with DRUP proofs),
:mod:`.cpsat` (the same model in CP-SAT) and :mod:`.pddl` (a classical planning task for Fast Downward
and the unified-planning planners). Each encoding follows the rules engine turn by turn and is
cross-checked against it; none is imported by the rules.
"""
