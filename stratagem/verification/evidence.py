"""The evidence of a Strato or STAKD proof record: the files a certificate names, and what evidence that
is no certificate is worth.

A DRUP refutation's CNF and proof files must sit beside the record (a name, never a path), so that a
record cannot point the checker at files elsewhere. Evidence that is only a search the record reports
(an exhaustive search, CP-SAT's INFEASIBLE) leaves its claim not certified, and the reason says how to
check it (:data:`RECHECK`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stratagem.core.errors import BadInput


def files_beside(record: str, evidence: dict[str, Any], place: str = "evidence.",
                 keys: tuple[str, ...] = ("cnf", "proof")) -> dict[str, Path]:
    """The files a certificate names under ``keys`` (a refutation's CNF and proof), which must sit beside the
    record as regular files (each refusal names the record and the field, not only the file: ``place`` and the
    key, a reach report's ``par_certificate.`` (``par_sat.`` in ``stratagem/reach@2``) or
    ``no_win_certificate.``, or a proof record's ``evidence.``)."""
    names = {}
    for key in keys:
        name = evidence.get(key)
        if not isinstance(name, str) or not name or "/" in name or "\\" in name or name in (".", ".."):
            raise BadInput(record, f"{place}{key}", "must name a file beside the record")
        path = Path(record).parent / name
        try:  # a name too long for the file system, or with a NUL byte, is no file either (it raised, exit 70)
            there, regular = path.exists(), path.is_file()
        except (OSError, ValueError) as exc:
            raise BadInput(record, f"{place}{key}", f"{name[:80]!r}: no file beside the record has this name "
                           f"({getattr(exc, 'strerror', None) or exc})") from None
        if not there:
            raise BadInput(record, f"{place}{key}", f"{name[:80]!r}: no such file beside the record")
        if not regular:  # a FIFO, a device or a link to one: the record names it, the checker never reads it
            raise BadInput(record, f"{place}{key}", f"{name[:80]!r} beside the record is not a regular file")
        names[key] = path
    return names


#: How :func:`~stratagem.verification.verify` is asked to repeat a search a record reports, named for both
#: readers of a verdict (the same text reaches a library caller and ``stratagem verify``'s output): the keyword
#: and the option. "run with --recheck" told a library caller of an option it never typed.
RECHECK = "recheck=True (`stratagem verify --recheck`)"


def not_certified_why(subject: str, evidence: dict[str, Any]) -> str:
    """Why a claim resting on evidence that is not a certificate is not certified, and how to check it."""
    kind = evidence.get("kind")
    if kind == "exhaustive-search":
        method = evidence.get("method")
        basis = f"an exhaustive search the record reports ({method})" if isinstance(method, str) else \
            "an exhaustive search the record reports"
    elif kind == "cpsat-infeasible":
        basis = "CP-SAT's INFEASIBLE answer, which comes without a certificate"
    elif kind == "witness":
        basis = "a witness line only, which bounds nothing from below"
    else:
        basis = f"evidence of kind {kind!r}, which is not a certificate this version checks"
    return f"{subject} rests on {basis}; not repeated here — verify repeats it with {RECHECK}"
