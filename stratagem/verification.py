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
"""

from __future__ import annotations

import math
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput
from stratagem.core.io import load_json
from stratagem.core.progress import ProgressFactory, no_progress
from stratagem.core.records import LINE_FORMAT, PROOF_FORMAT, Line, Proof
from stratagem.loading import game_from_record, position_from_record
from stratagem.models.strato.sat import ENCODING, StratoCNF, max_turns
from stratagem.solvers.dimacs import read_bytes_maybe_gz, read_text_maybe_gz, write_dimacs
from stratagem.solvers.drup import check_drup_data, run_drat_trim
from stratagem.solvers.matrixproof import MATRIXPROOF_FORMAT, MATRIXPROOFS_FORMAT, check_matrix_proof
from stratagem.solvers.prooftree import PROOFTREE_FORMAT, check_proof_tree
from stratagem.solvers.replay import DEFAULT_MAX_STATES, is_win, no_win_within, replay

VERDICT_FORMAT = "stratagem/verdict@1"

CERTIFIED, NOT_CERTIFIED, UNKNOWN, INVALID = "certified", "not-certified", "unknown", "invalid"
#: How each status starts its line in the human report.
STATUS_WORDS = {CERTIFIED: "certified", NOT_CERTIFIED: "not certified", UNKNOWN: "unknown", INVALID: "INVALID"}

#: The default node limit of the STAKD solo re-check (positions expanded; its memo of hopeless
#: positions holds at most that many keys). The Strato enumeration's default is
#: :data:`stratagem.solvers.replay.DEFAULT_MAX_STATES` (distinct states kept).
DEFAULT_SOLO_NODES = 1_000_000


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
        return {"claim": self.claim, "statement": self.statement, "status": self.status,
                "basis" if self.status == CERTIFIED else "why": self.reason}

    def text(self) -> str:
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

    def invalid(self, place: str, problem: str) -> None:
        """A fault of the record (the first one is the line on stderr)."""
        if not self.problem:
            self.problem = f"{self.source}: {place}: {problem}"

    def certify(self, claim: str, statement: str, basis: str) -> None:
        self.claims.append(ClaimReport(claim, statement, CERTIFIED, basis))

    def not_certified(self, claim: str, statement: str, why: str) -> None:
        self.claims.append(ClaimReport(claim, statement, NOT_CERTIFIED, why))

    def unknown(self, claim: str, statement: str, why: str) -> None:
        self.claims.append(ClaimReport(claim, statement, UNKNOWN, why))

    def refute(self, claim: str, statement: str, place: str, problem: str) -> None:
        """The claim is contradicted: the record is invalid, and ``place: problem`` says where and why."""
        self.invalid(place, problem)
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
            "checked": self.checked,
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
        if self.deadline.expired():
            return f"the time limit ({self.deadline.seconds:g} s) ran out {what}"
        return f"the node limit ran out {what}"


def check_line(line: Line, verdict: Verdict, place: str, bare: bool) -> tuple[Any, Any, Any] | None:
    """Replay a line; return (game, start, final state) when it replays.

    For a bare line record (``bare``) its claims are reported here: that every move is legal, and
    ``result: won``, which is certified only when the replayed final position is won by the rules
    (``is_win``), never from the flag.
    """
    game, start = game_from_record(line.game, line.setup, line.start, verdict.source)
    result = replay(game, start, line.moves)
    n = len(line.moves)
    legal = f"the {n} moves are legal from the start" if n else "the start position fits the setup"
    if result.unreadable:
        raise BadInput(verdict.source, f"{place}moves[{result.error_at}]", result.error)
    if not result.ok:
        verdict.refute("moves", legal, f"{place}moves[{result.error_at}]", result.error)
        return None
    if line.moves:
        verdict.checked.append(f"all {n} moves are legal under the rules engine")
    else:
        verdict.checked.append("the start position reads and fits the setup")
    final = result.final
    won = is_win(game, final)
    if won:
        verdict.checked.append(f"the line ends in a won position after {n} turns")
    if line.result not in ("", "won"):
        verdict.invalid(f"{place}result", f"unknown result {line.result!r} (expected 'won' or empty)")
    if bare:
        verdict.certify("moves", legal, "replayed move by move through the rules engine")
        if line.result == "won":
            statement = "the line ends in a win"
            if won:
                verdict.certify("result", statement, f"the replayed position after {n} turns is won by the rules")
            else:
                verdict.refute("result", statement, "result", "the line claims a win but its last position is not won")
    return game, start, final


def verify(record: str | Path | dict[str, Any], recheck: bool = False, time_limit: float | None = None,
           nodes: int | None = None, *, source: str | None = None,
           progress: ProgressFactory = no_progress) -> Verdict:
    """Check every claim of a line or proof record (a file, or its JSON data) with the rules engine alone.

    ``recheck`` also checks claims whose evidence is only a search the record reports (optimality or
    unsolvability by an exhaustive search or CP-SAT) by a plain enumeration of the rules; ``nodes``
    caps it (states kept by the Strato enumeration, default
    :data:`~stratagem.solvers.replay.DEFAULT_MAX_STATES`; positions expanded by the STAKD search,
    default :data:`DEFAULT_SOLO_NODES`). ``time_limit`` is in seconds for the whole run; a claim whose
    check a limit stops is reported ``unknown``. The CNF and DRUP files a refutation names are read
    beside the record's file (beside ``source`` for data, the current folder by default).
    """
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise ValueError(f"time_limit must be a finite number of seconds above 0, not {time_limit!r}")
    if nodes is not None and nodes < 1:
        raise ValueError(f"nodes must be at least 1, not {nodes!r}")
    if isinstance(record, dict):
        data, name = record, source or "<record>"
    else:
        name = source or str(record)
        data = load_json(record)
    limits = Limits(Deadline(time_limit), nodes, recheck, progress)
    fmt = data.get("format")
    if fmt == LINE_FORMAT:
        verdict = Verdict(name, "line")
        check_line(Line.from_json(data, name), verdict, "", bare=True)
        return verdict
    verdict = Verdict(name, "proof")
    if fmt in GAME_PROOFS:
        check_game_proof(data, verdict, name)
        return verdict
    if fmt != PROOF_FORMAT:
        known = ", ".join((LINE_FORMAT, PROOF_FORMAT, *GAME_PROOFS))
        raise BadInput(name, "format", f"unknown record format {fmt!r} (expected one of {known})")
    proof = Proof.from_json(data, name)
    if proof.line is None:
        raise BadInput(name, "line", "a proof record carries the start position as a line")
    if proof.game not in ("strato", "stakd"):
        raise BadInput(name, "game", f"{PROOF_FORMAT} records are Strato or STAKD solo proofs, not "
                       f"{proof.game[:40]!r} (game values are {PROOFTREE_FORMAT} or {MATRIXPROOF_FORMAT})")
    if proof.line.game != proof.game:
        raise BadInput(name, "line.game", f"is {proof.line.game[:40]!r}, but the proof is about {proof.game!r}")
    replayed = check_line(proof.line, verdict, "line.", bare=False)
    if replayed is None:
        for key in sorted(k for k in proof.claim if k != "information"):
            verdict.not_certified(key, f"the claim's {key!r}", "not checked: the record's line does not replay")
    else:
        game, start, final = replayed
        if proof.game == "stakd" and game.num_players != 1:
            raise BadInput(name, "line.setup.players", "a STAKD proof record is about a solo puzzle (1 player)")
        if proof.game == "stakd":
            check_solo(proof, game, start, final, verdict, name, limits)
        else:
            check_strato(proof, game, start, final, verdict, name, limits)
    return verdict


def check_strato(proof: Proof, game: Any, start: Any, final: Any, verdict: Verdict, record: str,
                 limits: Limits) -> None:
    """A Strato proof's claims: ``solvable``, ``length`` and ``optimal``, or ``solvable: false``.

    That a line wins and how long it is are certified by the replay alone. "No shorter win" and "no
    win at all" rest on the evidence: a certificate (relaxation bound, DRUP refutation) is checked
    against what is rebuilt from the rules; anything else is not certified unless ``--recheck``
    repeats it by a plain enumeration.
    """
    assert proof.line is not None
    claim, n = proof.claim, len(proof.line.moves)
    solvable = claim.get("solvable")
    if solvable is True:
        statement = "a winning line exists"
        won = is_win(game, final)
        if won:
            verdict.certify("solvable", statement, f"the line replays to a won position after {n} turns")
        else:
            verdict.refute("solvable", statement, "claim.solvable",
                           "claims a win but the replayed line does not end in one")
        length = claim.get("length")
        words = f"the winning line is {length} turns long"
        if length != n or isinstance(length, bool):
            verdict.refute("length", words, "claim.length", f"says {length!r} but the line has {n} moves")
        elif won:
            verdict.certify("length", words, "counted on the replayed line")
        else:
            verdict.not_certified("length", words, "the line does not end in a win")
        optimal = claim.get("optimal")
        if optimal is True:
            if won:
                no_win_claim(proof, "optimal", f"no winning line is shorter than {n} turns", n - 1, game, start,
                             verdict, record, limits)
            else:
                verdict.not_certified("optimal", f"no winning line is shorter than {n} turns",
                                      "not checked: the line does not end in a win")
        elif optimal not in (False, None):
            verdict.refute("optimal", "the line is shortest", "claim.optimal", "must be true or false")
    elif solvable is False:
        statement = "no line from the start wins (unsolvable)"
        if proof.line.moves:
            verdict.refute("solvable", statement, "line.moves", "an unsolvability proof carries no moves")
            return
        if claim.get("length") is not None or claim.get("optimal") not in (False, None):
            verdict.invalid("claim", "an unsolvability claim has no length and no optimal line")
        no_win_claim(proof, "solvable", statement, None, game, start, verdict, record, limits)
    else:
        verdict.refute("solvable", "the deal is solvable, or not", "claim.solvable", "must be true or false")


def no_win_claim(proof: Proof, name: str, statement: str, horizon: int | None, game: Any, start: Any,
                 verdict: Verdict, record: str, limits: Limits) -> None:
    """Report the claim "no win within ``horizon`` turns" (``None``: no win at all) from the evidence."""
    evidence = proof.evidence
    kind = evidence.get("kind")
    if kind == "relaxation-bound":
        check_relaxation_bound(evidence, name, statement, horizon, game, start, verdict, limits)
    elif kind == "drup-refutation":
        check_refutation(evidence, name, statement, horizon, game, start, verdict, record, limits)
    elif limits.recheck:
        recheck_enumeration(name, statement, horizon, game, start, verdict, limits)
    else:
        subject = "optimality" if horizon is not None else "unsolvability"
        verdict.not_certified(name, statement, _not_certified_why(subject, evidence))


def _not_certified_why(subject: str, evidence: dict[str, Any]) -> str:
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
    return f"{subject} rests on {basis}; not repeated here — run with --recheck"


def recheck_enumeration(name: str, statement: str, horizon: int | None, game: Any, start: Any, verdict: Verdict,
                        limits: Limits) -> None:
    """``--recheck``: a plain breadth-first enumeration over the rules engine, under the run's limits."""
    if limits.deadline.expired():
        verdict.unknown(name, statement, limits.stopped_words("before the re-check began"))
        return
    cap = limits.nodes if limits.nodes is not None else DEFAULT_MAX_STATES
    with limits.progress("re-checking by plain enumeration", "depth", "states") as show:
        result = no_win_within(game, start, horizon, progress=show, deadline=limits.deadline, max_states=cap)
    if result.no_win is None:
        why = ("the time limit" if result.stopped_by == "time" else f"the node limit ({cap:,} states)")
        verdict.unknown(name, statement, f"the re-check was stopped by {why} after {result.states:,} states, "
                        f"{len(result.per_depth) - 1} turns deep")
    elif result.no_win:
        if horizon is None:
            basis = f"no win anywhere: plain enumeration of all {result.states:,} reachable states"
        else:
            basis = f"no win within {horizon} turns: plain enumeration of {result.states:,} states"
        verdict.certify(name, statement, basis + " (rules engine only)")
    elif horizon is None:
        verdict.refute(name, statement, "claim.solvable", "a winning line exists (found by the plain enumeration)")
    else:
        verdict.refute(name, statement, "claim.optimal",
                       f"a win exists within {horizon} turns: the line is not shortest")


def check_refutation(evidence: dict[str, Any], name: str, statement: str, horizon: int | None, game: Any,
                     start: Any, verdict: Verdict, record: str, limits: Limits) -> None:
    """A DRUP certificate: rebuild the CNF from the rules, then check the refutation against it.

    The CNF is not taken from the record: it is encoded again from the setup and start position with
    the named encoding, so the refutation is checked against what the claim means. The stored CNF
    must be that same formula (it is kept for external checkers such as drat-trim, which also runs
    when it is on PATH). The refuted horizon must be the claim's: the line's length minus one for
    optimality, at least the game's maximum length for unsolvability.
    """
    if evidence.get("encoding") != ENCODING:
        raise BadInput(record, "evidence.encoding", f"unknown encoding {evidence.get('encoding')!r} "
                       f"(this version checks {ENCODING})")
    refuted = evidence.get("horizon")
    if not isinstance(refuted, int) or isinstance(refuted, bool) or refuted < 0:
        raise BadInput(record, "evidence.horizon", "must be a non-negative integer")
    if horizon is not None and refuted != horizon:
        verdict.refute(name, statement, "evidence.horizon",
                       f"refutes {refuted} turns; optimality of {horizon + 1} needs {horizon}")
        return
    if horizon is None and refuted < max_turns(start):
        verdict.refute(name, statement, "evidence.horizon",
                       f"refutes {refuted} turns, but the game can last {max_turns(start)}")
        return
    names = files_beside(record, evidence)
    cnf = StratoCNF(game, refuted)
    cnf_text = write_dimacs(cnf.clauses, cnf.num_vars, cnf.comments)
    if read_text_maybe_gz(names["cnf"]) != cnf_text:
        verdict.refute(name, statement, "evidence.cnf",
                       f"{names['cnf'].name} is not the {ENCODING} CNF of {refuted} turns for this deal")
        return
    verdict.checked.append(f"the CNF ({cnf.num_vars} variables, {len(cnf.clauses)} clauses) is {ENCODING} "
                           f"for 'a win within {refuted} turns', rebuilt from the rules")
    if limits.deadline.expired():
        verdict.unknown(name, statement, limits.stopped_words("before the DRUP refutation was checked"))
        return
    with limits.progress(f"checking {names['proof'].name}", "step", "steps in the proof") as checking:
        result, steps = check_drup_data(cnf.clauses, read_bytes_maybe_gz(names["proof"]), str(names["proof"]),
                                        progress=lambda phase, done, total: checking(done, total),
                                        time_limit=limits.deadline.remaining())
    if result.stopped:
        verdict.unknown(name, statement, f"the DRUP refutation's check was {result.reason}")
        return
    if not result.valid:
        verdict.refute(name, statement, "evidence.proof", f"{names['proof'].name}: {result.reason}")
        return
    basis = (f"the DRUP refutation ({steps} steps, {result.checked_lemmas} lemmas checked) is valid "
             f"(stratagem's checker, {result.checker} engine): no win within {refuted} turns")
    verdict.checked.append(basis)
    second = _drat_trim(cnf_text, names["proof"], limits.deadline)
    if second is None:
        verdict.notes.append("drat-trim is not on PATH: no second opinion")
    elif second == NO_TIME:
        verdict.notes.append("no time was left for drat-trim: no second opinion")
    elif second == "valid":
        verdict.checked.append("drat-trim agrees: s VERIFIED")
    elif second == "invalid":
        verdict.refute(name, statement, "evidence.proof", "drat-trim says s NOT VERIFIED")
        return
    else:
        verdict.notes.append(f"drat-trim gave no verdict ({second}): no second opinion")
    verdict.certify(name, statement, f"a DRUP refutation of the CNF rebuilt from the rules ({ENCODING}, "
                    f"a win within {refuted} turns), checked by stratagem's checker")


def check_relaxation_bound(evidence: dict[str, Any], name: str, statement: str, horizon: int | None, game: Any,
                           start: Any, verdict: Verdict, limits: Limits) -> None:
    """A relaxation certificate: recompute the bound from the rules and the deal, trusting nothing in the record.

    The record only names the relaxation and the bound it claims; both must match what is recomputed
    here. Optimality (``horizon`` = length - 1) is certified only when the recomputed bound equals the
    line's length, unsolvability (``horizon`` ``None``) only when the relaxation reaches no goal at all.
    A recomputation cut short by the time limit leaves the claim unknown, not invalid.
    """
    from stratagem.models.strato.relaxation import RELAXATION, relaxation_bound

    if evidence.get("relaxation") != RELAXATION:
        verdict.refute(name, statement, "evidence.relaxation", f"names relaxation {evidence.get('relaxation')!r}; "
                       f"this version checks {RELAXATION!r}")
        return
    ends = evidence.get("ends", "tracked")
    if ends not in ("tracked", "unknown"):
        verdict.refute(name, statement, "evidence.ends", f"must be 'tracked' or 'unknown', not {ends!r}")
        return
    claimed = evidence.get("bound")
    if limits.deadline.expired():
        verdict.unknown(name, statement, limits.stopped_words("before the relaxation bound was recomputed"))
        return
    with limits.progress("recomputing the relaxation bound", "row", "rows") as show:
        show(0, 0)
        # the claimed bound is only where the pruned search starts: what it finds does not depend on it
        hint = claimed if isinstance(claimed, int) and 0 <= claimed <= 100 else 0
        bound = relaxation_bound(game.challenge, game.options, start, deadline=limits.deadline,
                                 track_ends=ends == "tracked", hint=hint)
    if bound.stopped:
        verdict.unknown(name, statement, limits.stopped_words("while the relaxation bound was recomputed"))
        return
    if claimed != bound.bound or isinstance(claimed, bool):
        verdict.refute(name, statement, "evidence.bound", f"claims {claimed!r}, but the relaxation recomputed "
                       f"from the rules gives {bound.bound if bound.bound is not None else 'no goal (null)'}")
        return
    verdict.checked.append(f"the relaxation bound, recomputed from the rules and the deal: {bound.describe()}")
    if horizon is None:
        if bound.bound is not None:
            verdict.refute(name, statement, "claim.solvable", f"claims no win at all, but the relaxation bound is "
                           f"{bound.bound} turns: it does not rule out a win")
        else:
            verdict.checked.append("no win at all: the relaxation reaches no goal")
            verdict.certify(name, statement, "the relaxation recomputed from the rules reaches no goal")
    elif bound.bound != horizon + 1:
        verdict.refute(name, statement, "claim.optimal", f"the relaxation bound is {bound.bound} turns but the line "
                       f"has {horizon + 1}: its optimality is not certified by this bound")
    else:
        verdict.checked.append(f"no win within {horizon} turns: the bound equals the line's length")
        verdict.certify(name, statement, f"the relaxation bound recomputed from the rules is {bound.bound} turns, "
                        "the line's length")


def files_beside(record: str, evidence: dict[str, Any]) -> dict[str, Path]:
    """The CNF and proof files a refutation's evidence names, which must sit beside the record."""
    names = {}
    for key in ("cnf", "proof"):
        name = evidence.get(key)
        if not isinstance(name, str) or not name or "/" in name or "\\" in name:
            raise BadInput(record, f"evidence.{key}", "must name a file beside the record")
        names[key] = Path(record).parent / name
    return names


#: What :func:`_drat_trim` returns when the run's time limit leaves it less than half a second.
NO_TIME = "no time"


def _drat_trim(cnf_text: str, proof_path: Path, deadline: Deadline) -> str | None:
    """drat-trim's verdict (see :func:`run_drat_trim`), within what is left of the run's time limit."""
    if shutil.which("drat-trim") is None:
        return None
    left = deadline.remaining()
    if left is not None and left < 0.5:
        return NO_TIME
    with tempfile.TemporaryDirectory() as tmp:
        cnf_file, proof_file = Path(tmp) / "f.cnf", Path(tmp) / "p.drup"
        cnf_file.write_text(cnf_text, encoding="utf-8")
        proof_file.write_text(read_text_maybe_gz(proof_path), encoding="utf-8")
        return run_drat_trim(cnf_file, proof_file, timeout=600 if left is None else min(600.0, left))


#: Proof records of game values: AND/OR proof trees, LP certificates of simultaneous-move nodes.
GAME_PROOFS = (PROOFTREE_FORMAT, MATRIXPROOF_FORMAT, MATRIXPROOFS_FORMAT)


def check_game_proof(data: dict[str, Any], verdict: Verdict, record: str) -> None:
    """Rebuild the game from the record's setup and start, then check the proof with the rules alone."""
    game_name, setup, start = data.get("game"), data.get("setup"), data.get("start")
    if not isinstance(game_name, str):
        raise BadInput(record, "game", "missing or not a string")
    if not isinstance(setup, dict):
        raise BadInput(record, "setup", "missing or not an object (the game's options)")
    if not isinstance(start, str):
        raise BadInput(record, "start", "missing or not a string")
    game, state = position_from_record(game_name, setup, start, record)
    fmt = data["format"]
    if fmt == PROOFTREE_FORMAT:
        result = check_proof_tree(game, state, data)
        words = _claim_words(result.claim) if result.claim != "nothing" else "the proof tree's claim"
        if not result.valid:
            verdict.refute("claim", words, result.problems[0].place, result.problems[0].problem)
            return
        basis = (f"the proof tree ({result.nodes:,} nodes) replays through the rules engine: "
                 f"every reply, chance outcome and terminal checked")
        verdict.certify("claim", words, basis)
        return
    proofs = [data] if fmt == MATRIXPROOF_FORMAT else data.get("proofs")
    if not isinstance(proofs, list) or not proofs:
        raise BadInput(record, "proofs", "must be a non-empty list of stratagem/matrixproof@1 records")
    for i, proof in enumerate(proofs):
        place = "" if fmt == MATRIXPROOF_FORMAT else f"proofs[{i}]: "
        if not isinstance(proof, dict):
            raise BadInput(record, f"proofs[{i}]", "must be an object")
        words = f"{place}the value {proof.get('value')} ({proof.get('label')})"
        if proof.get("start") != start:
            verdict.refute("value", words, f"{place}start", "differs from the bundle's start")
            return
        checked = check_matrix_proof(game, state, proof, record)
        words = f"{place}player {int(proof['player']) + 1}: value {proof.get('value')} ({proof.get('label')})"
        if not checked.valid:
            verdict.refute("value", words, f"{place}nodes", checked.reason)
            return
        basis = f"{checked.nodes_checked} simultaneous nodes rebuilt from the rules and checked exactly"
        verdict.certify("value", words, basis)


def _claim_words(claim: str) -> str:
    """``player 0 at least 1`` with players counted from 1, as the rest of the CLI does."""
    words = claim.split(" ", 2)
    if len(words) == 3 and words[0] == "player" and words[1].isdigit():
        return f"player {int(words[1]) + 1} {words[2]}"
    return claim


def check_solo(proof: Proof, game: Any, start: Any, final: Any, verdict: Verdict, record: str,
               limits: Limits) -> None:
    """A STAKD solo answer: a witness line that places every piece, or a refutation of the question.

    ``winnable: true`` is certified by the replayed line ending in a won position (not by the line's
    ``result`` flag). ``winnable: false`` is certified by a DRUP refutation of a CNF rebuilt from the
    rules, or by ``--recheck``'s exhaustive search; CP-SAT's INFEASIBLE answer alone is not certified.
    """
    from stratagem.models.stakd.sat import ENCODING as SOLO_ENCODING
    from stratagem.models.stakd.sat import SoloCNF
    from stratagem.models.stakd.search import IMPOSSIBLE, SOLVED, solo_search

    assert proof.line is not None
    winnable = proof.claim.get("winnable")
    if winnable is True:
        statement = "every piece can be placed"
        if is_win(game, final):
            verdict.certify("winnable", statement, f"the line replays to a won position after "
                            f"{len(proof.line.moves)} placements")
        else:
            verdict.refute("winnable", statement, "claim.winnable",
                           "claims every piece can be placed, but the replayed line does not end in a win")
        return
    if winnable is not False:
        verdict.refute("winnable", "every piece can be placed, or not", "claim.winnable", "must be true or false")
        return
    statement = "the pieces cannot all be placed"
    if proof.line.moves:
        verdict.refute("winnable", statement, "line.moves",
                       "a proof that the pieces cannot all be placed carries no moves")
        return
    evidence = proof.evidence
    kind = evidence.get("kind")
    if kind == "drup-refutation":
        if evidence.get("encoding") != SOLO_ENCODING:
            raise BadInput(record, "evidence.encoding", f"unknown encoding {evidence.get('encoding')!r} "
                           f"(this version checks {SOLO_ENCODING})")
        symmetry = evidence.get("symmetry", True)
        if not isinstance(symmetry, bool):
            raise BadInput(record, "evidence.symmetry", "must be true or false")
        names = files_beside(record, evidence)
        cnf = SoloCNF(game, start, symmetry)
        cnf_text = write_dimacs(cnf.clauses, cnf.num_vars, cnf.comments)
        if read_text_maybe_gz(names["cnf"]) != cnf_text:
            verdict.refute("winnable", statement, "evidence.cnf",
                           f"{names['cnf'].name} is not the {SOLO_ENCODING} formula of this position")
            return
        verdict.checked.append(f"the CNF is {SOLO_ENCODING} for this position, rebuilt from the rules")
        if limits.deadline.expired():
            verdict.unknown("winnable", statement, limits.stopped_words("before the DRUP refutation was checked"))
            return
        drup, steps = check_drup_data(cnf.clauses, read_bytes_maybe_gz(names["proof"]), str(names["proof"]),
                                      time_limit=limits.deadline.remaining())
        if drup.stopped:
            verdict.unknown("winnable", statement, f"the DRUP refutation's check was {drup.reason}")
            return
        if not drup.valid:
            verdict.refute("winnable", statement, "evidence.proof", f"{names['proof'].name}: {drup.reason}")
            return
        verdict.checked.append(f"the DRUP refutation is valid ({steps} steps; stratagem's checker, {drup.checker} "
                               "engine): the pieces cannot all be placed")
        verdict.certify("winnable", statement, f"a DRUP refutation of the CNF rebuilt from the rules "
                        f"({SOLO_ENCODING}), checked by stratagem's checker")
    elif limits.recheck:
        if limits.deadline.expired():
            verdict.unknown("winnable", statement, limits.stopped_words("before the re-check began"))
            return
        cap = limits.nodes if limits.nodes is not None else DEFAULT_SOLO_NODES
        result = solo_search(game, start, node_limit=cap, deadline=limits.deadline)
        if result.status == IMPOSSIBLE:
            basis = f"exhaustive search of {result.nodes:,} positions: no way to place every piece"
            verdict.certify("winnable", statement, basis + " (rules engine only)")
        elif result.status == SOLVED:
            found = len(result.line or ())
            verdict.refute("winnable", statement, "claim.winnable",
                           f"the exhaustive re-check places every piece ({found} placements)")
        else:
            why = "the time limit" if limits.deadline.expired() else f"the node limit ({cap:,} positions)"
            verdict.unknown("winnable", statement,
                            f"the re-check was stopped by {why} after {result.nodes:,} positions")
    else:
        verdict.not_certified("winnable", statement, _not_certified_why("the claim", evidence))


__all__ = ["CERTIFIED", "INVALID", "NOT_CERTIFIED", "UNKNOWN", "VERDICT_FORMAT", "ClaimReport", "Limits",
           "Verdict", "verify"]
