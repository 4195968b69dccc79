"""Verifying a line or proof record: every claim it makes, checked with the rules engine alone.

Nothing in a record is trusted (its result flags, bounds, claims): what is checked is rebuilt from the
rules engine and the record's setup and start position. Each claim the record makes is reported with
a status:

- ``certified``: checked here, and the report names what checked it (the replayed line, a DRUP
  refutation of a CNF rebuilt from the rules, a relaxation bound recomputed from the rules, a proof
  tree replayed move by move, a plain enumeration run by ``recheck``);
- ``not-certified``: only asserted: the record's evidence is a search it reports (an exhaustive
  search, CP-SAT's INFEASIBLE answer), which is not repeated without ``recheck``;
- ``unknown``: the check of that claim was stopped by the time limit or the node limit;
- ``invalid``: the rules or a recomputation contradict it.

:func:`verify` is the one call (``stratagem verify`` parses its arguments, calls it, prints the
:class:`Verdict` and turns its status into the exit code). A record that cannot be read (malformed
JSON, unknown format, a move that does not parse) raises :class:`~stratagem.core.errors.BadInput`.

The package, one module per concept: :mod:`.verdict` (the verdict, its claims' statuses and the run's
limits), :mod:`.lines` (replaying a line), :mod:`.strato` (a Strato proof's claims), :mod:`.stakd` (a
STAKD solo proof's claim), :mod:`.refutations` (DRUP refutations against CNFs rebuilt from the rules),
:mod:`.evidence` (the files a certificate names; evidence that is none), :mod:`.gameproofs` (proof
trees and matrix proofs of game values), :mod:`.policy` (solo Strato policies with the pile hidden) and
:mod:`.reach` (a ``reach`` report's par, and in designer mode its certificate).
This module holds :func:`verify`, which reads the record and hands each kind to its check.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from stratagem.core.callcaches import scoped
from stratagem.core.deadline import Deadline, as_deadline, check_run_limits
from stratagem.core.errors import BadInput, check_switch
from stratagem.core.io import ReadStopped, first_line_format, load_json
from stratagem.core.progress import ProgressFactory, no_progress
from stratagem.core.records import LINE_FORMAT, POLICY_FORMAT, PROOF_FORMAT, Line, Proof, quoted
from stratagem.solvers.matrixproof import MATRIXPROOF_FORMAT
from stratagem.solvers.prooftree import PROOFTREE_FORMAT
from stratagem.verification.gameproofs import GAME_PROOFS, check_game_proof
from stratagem.verification.lines import check_line
from stratagem.verification.reach import REACH_FORMATS, check_reach
from stratagem.verification.stakd import DEFAULT_SOLO_NODES as DEFAULT_SOLO_NODES  # public: the CLI's default
from stratagem.verification.stakd import check_solo
from stratagem.verification.strato import check_strato
from stratagem.verification.verdict import (
    CERTIFIED,
    INVALID,
    NOT_CERTIFIED,
    UNKNOWN,
    VERDICT_FORMAT,
    ClaimReport,
    Limits,
    Verdict,
)


@scoped
def verify(record: str | Path | dict[str, Any], recheck: bool = False, time_limit: float | Deadline | None = None,
           nodes: int | None = None, *, source: str | None = None,
           progress: ProgressFactory = no_progress) -> Verdict:
    """Check every claim of a line or proof record (a file, or its JSON data) with the rules engine alone.

    ``recheck`` also checks claims whose evidence is only a search the record reports (optimality or
    unsolvability by an exhaustive search or CP-SAT) by a plain enumeration of the rules; ``nodes``
    caps it (states kept by the Strato enumeration, default
    :data:`~stratagem.solvers.replay.DEFAULT_MAX_STATES`; positions expanded by the STAKD search,
    default :data:`DEFAULT_SOLO_NODES`). ``time_limit`` is in seconds for the whole run, reading the record
    included (or a :class:`~stratagem.core.deadline.Deadline` already running, a command's); a claim whose
    check a limit stops is reported ``unknown``, and a record the limit stops reading leaves its claims
    unknown, none checked. The CNF and DRUP files a refutation names are read
    beside the record's file (beside ``source`` for data, the current folder by default).
    """
    check_run_limits(time_limit, nodes, "nodes")
    if not isinstance(record, str | Path | dict):
        raise BadInput("<argument>", "record", f"a record's file or its JSON data, not {type(record).__name__}")
    limits = Limits(as_deadline(time_limit), nodes, check_switch(recheck, "recheck"), progress)
    if isinstance(record, dict):
        data, name = record, source or "<record>"
    else:
        name = source or str(record)
        from stratagem.verification.oddstable import check_odds_table, is_table

        if is_table(record):  # a value table (stratagem/strato-odds-table@4, @3, @2 or @1): gzip text, not JSON
            verdict = Verdict(name, "proof")
            check_odds_table(record, verdict, name, limits)
            return _nothing_to_recheck(verdict, "a value table", limits)
        try:
            data = load_record(record, stop=limits.deadline.expired)
        except ReadStopped:
            verdict = Verdict(name, "proof")
            verdict.unknown("record", "the record's claims", limits.stopped_words("while the record was read: "
                                                                                  "none of its claims was checked"))
            return verdict
    fmt = data.get("format")
    if fmt is not None and not isinstance(fmt, str):  # a list or an object: unhashable in the lookups below
        raise BadInput(name, "format", f"must be a string naming the record's format, not {quoted(fmt)}")
    if fmt == LINE_FORMAT:
        verdict = Verdict(name, "line")
        check_line(Line.from_json(data, name), verdict, "", bare=True)
        verdict.unknown_fields(data, (*LINE_FIELDS, "provenance"), f"a {LINE_FORMAT} record")
        return _nothing_to_recheck(verdict, "a line record", limits)
    verdict = Verdict(name, "proof")
    if fmt == POLICY_FORMAT:
        from stratagem.verification.policy import check_policy

        check_policy(data, verdict, name, limits)
        return verdict
    if fmt in GAME_PROOFS:
        check_game_proof(data, verdict, name, limits)
        return _nothing_to_recheck(verdict, f"a {fmt} record", limits)
    if fmt in REACH_FORMATS:
        verdict = Verdict(name, "report")
        check_reach(data, verdict, name, limits)
        return _nothing_to_recheck(verdict, f"a {fmt} report", limits)
    if fmt != PROOF_FORMAT:
        from stratagem.verification.oddstable import TABLE_FORMAT

        known = ", ".join((LINE_FORMAT, PROOF_FORMAT, POLICY_FORMAT, *GAME_PROOFS, *REACH_FORMATS,
                           f"{TABLE_FORMAT} (gzip)"))
        if fmt in REPORTS:
            raise BadInput(name, "format", f"{fmt} is the report `stratagem {REPORTS[fmt]} --json` prints, not a "
                           f"record verify checks: `stratagem {REPORTS[fmt]} --proof FILE` writes that record (in "
                           "Python, the result's write_proof)")
        raise _results_file(record, name) or BadInput(name, "format", f"unknown record format {fmt!r} (expected "
                                                      f"one of {known})")
    proof = Proof.from_json(data, name)
    if proof.line is None:
        raise BadInput(name, "line", "a proof record carries the start position as a line")
    if proof.game not in ("strato", "stakd"):
        raise BadInput(name, "game", f"{PROOF_FORMAT} records are Strato or STAKD solo proofs, not "
                       f"{proof.game[:40]!r} (game values are {PROOFTREE_FORMAT} or {MATRIXPROOF_FORMAT})")
    if proof.line.game != proof.game:
        raise BadInput(name, "line.game", f"is {proof.line.game[:40]!r}, but the proof is about {proof.game!r}")
    replayed = check_line(proof.line, verdict, "line.", bare=False)
    verdict.unknown_fields(data, (*PROOF_FIELDS, "provenance"), f"a {PROOF_FORMAT} record")
    verdict.unknown_fields(data["line"], LINE_FIELDS, f"a proof record's line ({LINE_FORMAT})", "line.")
    if replayed is None:
        for key in sorted(k for k in proof.claim if k != "information"):
            verdict.not_certified(key, f"the claim's {key!r}", "not checked: the record's line does not replay")
    else:
        game, start, final = replayed
        if proof.game == "stakd" and game.num_players != 1:
            raise BadInput(name, "line.setup.players", "a STAKD proof record is about a solo puzzle (1 player)")
        if proof.game == "stakd":
            check_solo(proof, game, start, final, verdict, name, limits)
            verdict.unchecked(proof.claim, STAKD_CLAIMS, "a STAKD solo proof")
        else:
            check_strato(proof, game, start, final, verdict, name, limits)
            verdict.unchecked(proof.claim, STRATO_CLAIMS, "a Strato proof")
    return verdict


#: The reports the commands print with ``--json`` (no record: the one ``--proof`` writes is), by format, and
#: the command that prints each: ``verify`` of one names it so (it said only "unknown record format").
REPORTS = {"stratagem/analysis@1": "analyze", "stratagem/check@1": "check", "stratagem/solve@1": "solve"}

#: The fields of a line record and of a proof record (docs/formats.md 4.2, 4.3), besides their ``provenance``:
#: any other is reported not certified.
LINE_FIELDS = ("format", "game", "setup", "start", "moves", "length", "result")
PROOF_FIELDS = ("format", "game", "claim", "line", "evidence")

#: The keys of a proof record's ``claim`` that :func:`verify` checks, by game (any other is reported not
#: certified): Strato's answer (``information`` says what it is about), and STAKD's.
STRATO_CLAIMS = ("information", "solvable", "length", "optimal")
STAKD_CLAIMS = ("winnable",)


def _nothing_to_recheck(verdict: Verdict, kind: str, limits: Limits) -> Verdict:
    """Say so when ``recheck`` or ``nodes`` was asked of a record none of whose claims rests on a search it
    would repeat: every claim of ``kind`` is checked from the record itself, and the options did nothing."""
    # named for both readers (the note is the same in the library's verdict and in the command's output)
    asked = [name for name, given in (("recheck=True (--recheck)", limits.recheck),
                                      ("nodes (--max-nodes)", limits.nodes is not None)) if given]
    if asked:
        verdict.notes.append(f"{' and '.join(asked)} did nothing: no claim of {kind} rests on a search to repeat "
                             "(each is checked from the record itself)")
    return verdict


def load_record(path: str | Path, stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """A JSON record as ``verify`` reads it (:func:`~stratagem.core.io.load_json`, ``stop`` as there), a
    sweep's results file refused as what it is."""
    try:
        return load_json(path, stop)
    except BadInput as exc:
        raise _results_file(path, str(path)) or exc from None


def _results_file(record: str | Path | dict[str, Any], name: str) -> BadInput | None:
    """The refusal of a sweep's results file (one ``stratagem/sweep@1`` record a line), which is not a record
    ``verify`` checks, named as such; ``None`` for anything else. (With two lines it was "malformed JSON:
    Extra data", with one an unknown record format.)"""
    from stratagem.sweeprecords import SWEEP_FORMAT

    fmt = record.get("format") if isinstance(record, dict) else first_line_format(record)
    if fmt != SWEEP_FORMAT:
        return None
    return BadInput(name, "format", f"a results file of `stratagem sweep` ({SWEEP_FORMAT} records, one a line): "
                    "`stratagem report` reads it; verify checks the records `--proof` writes")


__all__ = ["CERTIFIED", "INVALID", "NOT_CERTIFIED", "UNKNOWN", "VERDICT_FORMAT", "ClaimReport", "Limits",
           "Verdict", "load_record", "verify"]
