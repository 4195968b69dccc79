"""What a DRUP check reports: its verdict, the reasons a proof fails, and its progress callback.

Both checkers -- the pure-Python reference in :mod:`~stratagem.solvers.drup` and the compiled one
in :mod:`~stratagem.solvers.drup_compiled` -- return the same :class:`DrupVerdict` with the same
wording of the reasons, so that a record reads the same whichever engine checked it. They live here,
apart from both, so that neither checker imports the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["DrupProgress", "DrupVerdict", "empty_not_rup_reason", "no_conflict_reason", "not_rup_reason",
           "stopped_reason"]

#: Progress callback: ``(phase, steps_done, steps_total)`` with phase ``"forward"`` or ``"backward"``.
DrupProgress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class DrupVerdict:
    """Outcome of :func:`~stratagem.solvers.drup.check_drup` (and of the compiled checker).

    ``valid`` is true only if the proof refutes the formula; ``reason`` says why not (the empty
    string when valid), naming the proof line at fault where there is one.

    ``lemmas`` counts the lemmas (added clauses) in the proof; ``checked_lemmas`` those the backward
    pass found used and verified (up to and including the failing one, when one fails);
    ``core_clauses`` the original clauses the refutation used (after the check stops early, those
    marked so far); ``seconds`` is wall time. ``stopped`` is true when the time limit ended the check
    before a verdict: then ``valid`` is false and nothing is known about the proof, and ``stopped_at``
    says where it stopped (``in the backward pass, after 2,048 of 7,102 steps``) for a caller that names
    the limit itself: the seconds ``reason`` shows are those the check was given, often what was left of
    a command's limit, not the limit the user set.
    ``checker`` is the engine that ran: ``"python"`` (:mod:`~stratagem.solvers.drup`) or ``"compiled"``.
    """

    valid: bool
    reason: str
    lemmas: int
    checked_lemmas: int
    core_clauses: int
    seconds: float
    stopped: bool = False
    checker: str = "python"
    stopped_at: str = ""


def empty_not_rup_reason(line: int) -> str:
    """Why a proof fails whose empty clause at ``line`` does not follow."""
    return (f"the empty clause at proof line {line} is not RUP: unit propagation over the formula "
            "and the lemmas before it reaches no conflict")


def no_conflict_reason(lemmas: int) -> str:
    """Why a proof of ``lemmas`` lemmas fails that never reaches a conflict."""
    return (f"proof does not derive the empty clause: unit propagation over the formula and all {lemmas} "
            "lemmas reaches no conflict")


def not_rup_reason(line: int) -> str:
    """Why a proof fails whose lemma at ``line`` does not follow."""
    return f"lemma at proof line {line} is not RUP"


def stopped_reason(time_limit: float, phase: str, done: int, of: int) -> str:
    """Why a check stopped by its time limit has no verdict.

    ``time_limit`` is what the check was given, often the rest of a command's limit: shown to the
    hundredth of a second (``verify --time-limit 1`` once said "the time limit (0.240236 s)")."""
    shown = f"{time_limit:.2f}".rstrip("0").rstrip(".")
    return f"stopped by the time limit ({shown} s) {stopped_place(phase, done, of)}"


def stopped_place(phase: str, done: int, of: int) -> str:
    """Where a check the time limit stopped was (:attr:`DrupVerdict.stopped_at`)."""
    return f"in the {phase} pass, after {done:,} of {of:,} steps"
