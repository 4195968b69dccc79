"""What ``stratagem verify`` reports: a :class:`Verdict` holding one :class:`ClaimReport` per claim of
the record, each with its status, and the :class:`Limits` every check of one run shares.

The statuses, from best to worst: ``certified`` (checked here, and the report names what checked it),
``not-certified`` (only asserted by the record), ``unknown`` (a limit stopped the check) and
``invalid`` (the rules or a recomputation contradict the claim). The checking modules
(:mod:`.lines`, :mod:`.strato`, :mod:`.stakd`, :mod:`.refutations`, :mod:`.gameproofs`) fill a verdict
in through its recording methods; :meth:`Verdict.to_json` is the ``stratagem/verdict@1`` record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.progress import ProgressFactory, no_progress
from stratagem.core.records import quoted

VERDICT_FORMAT = "stratagem/verdict@1"

CERTIFIED, NOT_CERTIFIED, UNKNOWN, INVALID = "certified", "not-certified", "unknown", "invalid"
#: How each status starts its line in the human report.
STATUS_WORDS = {CERTIFIED: "certified", NOT_CERTIFIED: "not certified", UNKNOWN: "unknown", INVALID: "INVALID"}



@dataclass(frozen=True)
class ClaimReport:
    """One claim of the record and what became of it.

    ``claim`` names the record's field the claim comes from (``solvable``, ``length``, ``optimal``,
    ``winnable``, a line's ``moves`` and ``result``, a game proof's ``claim`` or ``value``);
    ``statement`` says in words what is claimed; ``reason`` is the basis when ``status`` is certified
    and why not otherwise.
    """

    claim: str
    statement: str
    status: str
    reason: str

    def to_json(self) -> dict[str, str]:
        """The claim's entry in a verdict record: its ``basis`` when certified, else ``why`` not."""
        return {"claim": self.claim, "statement": self.statement, "status": self.status,
                "basis" if self.status == CERTIFIED else "why": self.reason}

    def text(self) -> str:
        """The claim's line in the human report."""
        return f"{STATUS_WORDS[self.status]}: {self.statement} — {self.reason}"


@dataclass
class Verdict:
    """What became of a record's claims: a report for each, what was checked, and the first fault found.

    ``source`` is the record's file (or the name given for a record passed as data), ``kind`` ``line``
    or ``proof``. ``checked`` lists what was established on the way, ``notes`` what could not be done
    (no drat-trim for a second opinion ...), ``problem`` the first reason the record is invalid
    (``file: place: what``), empty when there is none. While :func:`verify` runs, the recording
    methods (:meth:`certify`, :meth:`refute` ...) fill it in; afterwards it is only read.
    """

    source: str
    kind: str = "proof"
    checked: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    claims: list[ClaimReport] = field(default_factory=list)
    problem: str = ""

    def _fault(self, place: str, problem: str) -> None:
        """A fault of the record (the first one is the line on stderr); always with the claim line of
        :meth:`refute`, so that the report and ``--json`` show it, and the status is the worst claim's."""
        if not self.problem:
            self.problem = f"{self.source}: {place}: {problem}"

    def certify(self, claim: str, statement: str, basis: str) -> None:
        """The claim is checked here; ``basis`` names what checked it."""
        self.claims.append(ClaimReport(claim, statement, CERTIFIED, basis))

    def not_certified(self, claim: str, statement: str, why: str) -> None:
        """The claim is only asserted by the record; ``why`` says why it was not checked."""
        self.claims.append(ClaimReport(claim, statement, NOT_CERTIFIED, why))

    def unchecked(self, claim: Any, checked: Sequence[str], kind: str) -> None:
        """Each key of the record's ``claim`` object that no check of ``kind`` reads (``checked`` are those it
        reads) is reported not certified: a record may say more than ``verify`` knows how to check, and
        what it does not check it must not pass over in silence."""
        if not isinstance(claim, dict):
            return
        for key in sorted(k for k in claim if k not in checked):
            self.not_certified(str(key)[:40], f"the record's claim {str(key)[:40]!r}: {quoted(claim[key])}",
                               f"not a claim verify checks in {kind} (it checks {', '.join(checked)})")

    def unknown_fields(self, data: Any, known: Sequence[str], kind: str, place: str = "") -> None:
        """Each field of ``data`` (a record, or its ``line`` with ``place`` ``"line."``) that is not one of
        ``known``, the fields of ``kind``, is reported not certified: ``"optimal": true`` written beside a
        line record's moves was passed over, and the record verified as valid."""
        if not isinstance(data, dict):
            return
        for key in sorted(str(k) for k in data if k not in known):
            self.not_certified(f"{place}{key[:40]}", f"the record's field {place + key[:40]!r}: {quoted(data[key])}",
                               f"not a field of {kind}: verify does not check it")

    def unknown(self, claim: str, statement: str, why: str) -> None:
        """The claim's check was stopped; ``why`` says by which limit."""
        self.claims.append(ClaimReport(claim, statement, UNKNOWN, why))

    def refute(self, claim: str, statement: str, place: str, problem: str) -> None:
        """The claim is contradicted: the record is invalid, and ``place: problem`` says where and why."""
        self._fault(place, problem)
        self.claims.append(ClaimReport(claim, statement, INVALID, f"{place}: {problem}"))

    @property
    def status(self) -> str:
        """``invalid`` over ``unknown`` over ``not-certified`` over ``certified``."""
        found = {c.status for c in self.claims}
        if self.problem or INVALID in found:
            return INVALID
        for status in (UNKNOWN, NOT_CERTIFIED):
            if status in found:
                return status
        return CERTIFIED

    @property
    def valid(self) -> bool:
        """Every claim certified (the only case ``stratagem verify`` exits 0)."""
        return self.status == CERTIFIED

    @property
    def open_claims(self) -> list[ClaimReport]:
        """The claims neither certified nor invalid: only asserted, or their check was stopped."""
        return [c for c in self.claims if c.status in (NOT_CERTIFIED, UNKNOWN)]

    def to_json(self) -> dict[str, Any]:
        """The verdict record (``stratagem/verdict@1``, docs/formats.md), as ``stratagem verify --json`` prints it."""
        return {
            "format": VERDICT_FORMAT,
            "record": self.source,
            "kind": self.kind,
            "status": self.status,
            "valid": self.valid,
            "problem": self.problem or None,
            "claims": [c.to_json() for c in self.claims],
            "checked": list(self.checked),  # a copy: editing the record must not edit the verdict
            "not_checked": self.notes + [f"{c.statement}: {c.reason}" for c in self.open_claims],
        }


@dataclass(frozen=True)
class Limits:
    """The limits of one verify run: one deadline for all of it, the node limit of the re-check, whether
    to re-check what the record only reports, and where to show progress."""

    deadline: Deadline
    nodes: int | None
    recheck: bool
    progress: ProgressFactory = no_progress

    def stopped_words(self, what: str) -> str:
        """Which limit stopped a check ``what`` (``before the re-check began`` ...), as a claim's reason."""
        if self.deadline.expired():
            return self.out_of_time(what)
        return f"the node limit ran out {what}"

    def out_of_time(self, what: str) -> str:
        """The time limit stopped a check ``what``, in the words of :meth:`stopped_words`: for a check that
        has no node limit (a DRUP proof's), which may stop a moment before the deadline it was given."""
        seconds = self.deadline.seconds
        return f"the time limit{'' if seconds is None else f' ({seconds:g} s)'} ran out {what}"
