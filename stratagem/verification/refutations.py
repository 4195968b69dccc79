"""DRUP refutations: the claim "no win" checked as the refutation of a CNF rebuilt from the rules.

The CNF is never taken from the record: it is encoded again from the setup and start position with the
encoding the evidence names (Strato: :data:`~stratagem.models.strato.encodings.sat.ENCODING`, a win within a
horizon; STAKD solo: ``stakd-solo-sat``, every piece placed), and the refutation is checked against that
formula by stratagem's own DRUP checker, so it proves what the claim means. The stored CNF must be the
same formula (it is kept for external checkers); for Strato, drat-trim gives a second opinion when it is
on PATH and time is left.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput
from stratagem.core.words import plural
from stratagem.solvers.dimacs import DimacsStopped, read_bytes_maybe_gz, read_text_maybe_gz, write_dimacs
from stratagem.solvers.drup import check_drup_data, run_drat_trim
from stratagem.verification.evidence import files_beside
from stratagem.verification.verdict import Limits, Verdict


def check_strato_refutation(evidence: dict[str, Any], name: str, statement: str, horizon: int | None, game: Any,
                            start: Any, verdict: Verdict, record: str, limits: Limits) -> None:
    """A Strato DRUP certificate: rebuild the CNF from the rules, then check the refutation against it.

    The CNF is not taken from the record: it is encoded again from the setup and start position with
    the named encoding, so the refutation is checked against what the claim means. The stored CNF
    must be that same formula (it is kept for external checkers such as drat-trim, which also runs
    when it is on PATH). The refuted horizon must be the claim's: the line's length minus one for
    optimality, the game's maximum length for unsolvability (a longer one says no more, and a forged
    horizon of 100,000 turns had verify build a formula of gigabytes for minutes, past its time limit).
    The rebuild stops at the run's deadline, leaving the claim unknown.
    """
    # imported here, so that checking any other certificate never loads the SAT encoding (and its demand
    # clauses): they are the trusted base of this certificate alone (docs/verification.md)
    from stratagem.models.strato.encodings.sat import ENCODING, StratoCNF, max_turns

    refuted = _refuted_horizon(evidence, ENCODING, record, "evidence.")
    if horizon is not None and refuted != horizon:
        verdict.refute(name, statement, "evidence.horizon",
                       f"refutes {plural(refuted, 'turn')}; optimality of {plural(horizon + 1, 'turn')} needs "
                       f"{horizon}")
        return
    longest = max_turns(start)
    if horizon is None and refuted < longest:
        verdict.refute(name, statement, "evidence.horizon",
                       f"refutes {plural(refuted, 'turn')}, but the game can last {longest}")
        return
    if horizon is None and refuted > longest:
        verdict.refute(name, statement, "evidence.horizon",
                       f"refutes {plural(refuted, 'turn')}, but no game from this start lasts more than "
                       f"{plural(longest, 'turn')}: a refutation of 'no win' refutes {longest}")
        return
    _check_rebuilt(evidence, name, statement, refuted, lambda stop: StratoCNF(game, refuted, stop=stop), ENCODING,
                   "a win", "this deal", verdict, record, limits, "evidence.")


def check_designer_refutation(evidence: dict[str, Any], name: str, statement: str, horizon: int, game: Any,
                              verdict: Verdict, record: str, limits: Limits, place: str = "par_certificate.") -> None:
    """A reach report's certificate of its designer par (``reach --designer --proof``: ``par_certificate``, or in
    a ``stratagem/reach@2`` report ``par_sat``, named by ``place`` in a refusal): designer
    mode's formula (:data:`~stratagem.models.strato.encodings.sat.DESIGNER_ENCODING`, the encoding with
    ``designer=True``) of the horizon below the par rebuilt from the layout (``game``:
    :func:`~stratagem.models.strato.designer_rules.designer_game` of the layout the puzzle deals, never the
    report's), the stored CNF that formula, and the DRUP refutation checked against it, as for a deal's
    (:func:`check_strato_refutation`). ``horizon`` is the par line's length minus one: a refutation of any
    other horizon proves nothing about this par."""
    # imported here, as for a deal's certificate: the encoding is this certificate's trusted base alone
    from stratagem.models.strato.encodings.sat import DESIGNER_ENCODING, StratoCNF

    refuted = _refuted_horizon(evidence, DESIGNER_ENCODING, record, place)
    if refuted != horizon:
        verdict.refute(name, statement, f"{place}horizon",
                       f"refutes {plural(refuted, 'turn')}; a designer par of {plural(horizon + 1, 'turn')} needs "
                       f"{horizon}")
        return
    _check_rebuilt(evidence, name, statement, refuted,
                   lambda stop: StratoCNF(game, refuted, designer=True, stop=stop),
                   DESIGNER_ENCODING, "a designer line", "this layout", verdict, record, limits, place)


def _refuted_horizon(evidence: dict[str, Any], encoding: str, record: str, place: str) -> int:
    """The horizon a refutation's evidence says it refutes, once its encoding is the one this version checks
    (bad input otherwise, naming the field under ``place``)."""
    if evidence.get("encoding") != encoding:
        raise BadInput(record, f"{place}encoding", f"unknown encoding {evidence.get('encoding')!r} "
                       f"(this version checks {encoding})")
    refuted = evidence.get("horizon")
    if not isinstance(refuted, int) or isinstance(refuted, bool) or refuted < 0:
        raise BadInput(record, f"{place}horizon", "must be a non-negative integer")
    return refuted


def _check_rebuilt(evidence: dict[str, Any], name: str, statement: str, refuted: int, build: Any, encoding: str,
                   goal: str, subject: str, verdict: Verdict, record: str, limits: Limits, place: str) -> None:
    """The part every Strato refutation shares: the files beside the record, the formula of "``goal`` within
    ``refuted`` turns" rebuilt by ``build(stop)`` (``encoding``'s, of ``subject``), the stored CNF compared with
    it, its DRUP refutation checked by stratagem's checker, and drat-trim's second opinion. ``place``
    prefixes the record's fields named in a refusal (``evidence.`` in a proof record, ``par_certificate.`` in a
    reach report, ``par_sat.`` in an earlier one)."""
    from stratagem.models.strato.encodings.sat import EncodingStopped

    names = files_beside(record, evidence, place)
    if limits.deadline.expired():
        verdict.unknown(name, statement, limits.stopped_words("before the CNF was rebuilt from the rules"))
        return
    try:
        cnf = build(limits.deadline.expired)
    except EncodingStopped:
        verdict.unknown(name, statement, limits.stopped_words("while the CNF was rebuilt from the rules"))
        return
    cnf_text = write_dimacs(cnf.clauses, cnf.num_vars, cnf.comments)
    stored = read_text_maybe_gz(names["cnf"])
    if not is_the_formula(stored, cnf_text, names["cnf"], verdict):
        verdict.refute(name, statement, f"{place}cnf",
                       f"{names['cnf'].name} is not the {encoding} CNF of {plural(refuted, 'turn')} for {subject}")
        return
    verdict.checked.append(f"the CNF ({cnf.num_vars} variables, {len(cnf.clauses)} clauses) is {encoding} "
                           f"for '{goal} within {plural(refuted, 'turn')}', rebuilt from the rules")
    if limits.deadline.expired():
        verdict.unknown(name, statement, limits.stopped_words("before the DRUP refutation was checked"))
        return
    proof_data = read_bytes_maybe_gz(names["proof"])
    note_digests(evidence, {"cnf": stored.encode("utf-8"), "proof": proof_data}, names, verdict)
    with limits.progress(f"checking {names['proof'].name}", "step", "steps in the proof") as checking:
        result, steps = check_drup_data(cnf.clauses, proof_data, str(names["proof"]),
                                        progress=lambda phase, done, total: checking(done, total),
                                        time_limit=limits.deadline.remaining())
    if result.stopped:
        verdict.unknown(name, statement, limits.out_of_time(f"in the DRUP refutation's check, {result.stopped_at}"))
        return
    if not result.valid:
        verdict.refute(name, statement, f"{place}proof", f"{names['proof'].name}: {result.reason}")
        return
    basis = (f"the DRUP refutation ({plural(steps, 'step')}, {plural(result.checked_lemmas, 'lemma')} checked) is "
             f"valid (stratagem's checker, {result.checker} engine): no {goal[2:]} within {plural(refuted, 'turn')}")
    verdict.checked.append(basis)
    second = _drat_trim(cnf_text, proof_data, limits.deadline)
    if second is None:
        verdict.notes.append("drat-trim is not on PATH: no second opinion")
    elif second == NO_TIME:
        verdict.notes.append("no time was left for drat-trim: no second opinion")
    elif second.startswith(NOT_STAGED):
        verdict.notes.append(f"drat-trim gave no second opinion: {second}")
    elif second == "valid":
        verdict.checked.append("drat-trim agrees: s VERIFIED")
    elif second == "invalid":
        verdict.refute(name, statement, f"{place}proof", "drat-trim says s NOT VERIFIED")
        return
    else:
        verdict.notes.append(f"drat-trim gave no verdict ({second}): no second opinion")
    verdict.certify(name, statement, f"a DRUP refutation of the CNF rebuilt from the rules ({encoding}, "
                    f"{goal} within {plural(refuted, 'turn')}), checked by stratagem's checker")


#: A count of one in a comment line, as the formulas' writers spell it since stop 61 ("a win within 1 turn",
#: "1 Base layout, 1 node"); before, they wrote "1 turns", "1 Base layouts", "1 nodes".
_COUNT_OF_ONE = re.compile(r"(?<![0-9])1 (turn|Base layout|node)(?=[ ,)]|$)", re.MULTILINE)


def is_the_formula(stored: str, rebuilt: str, path: Path, verdict: Verdict) -> bool:
    """Whether ``stored`` (the CNF file's text) is ``rebuilt`` (the formula written again from the rules)
    byte for byte, or differs from it only in its comment lines' counts of one as the writers spelt them
    in earlier versions (``c strato-sat@4: Strato, a win within 1 turns``), which a note then says: such a file is
    the same formula, written by an earlier version, and its refutation is checked as well. Any other
    difference (a clause, the header, a comment naming another horizon) is not the formula."""
    if stored == rebuilt:
        return True
    head, sep, clauses = rebuilt.partition("p cnf ")
    earlier = _COUNT_OF_ONE.sub(lambda found: f"1 {found.group(1)}s", head) + sep + clauses
    if earlier != rebuilt and stored == earlier:
        verdict.notes.append(f"{path.name}'s comments count one thing in the plural ('1 turns'), as earlier "
                             "versions of stratagem wrote them: the clauses are the formula's, byte for byte")
        return True
    return False


def note_digests(evidence: dict[str, Any], texts: dict[str, bytes], names: dict[str, Path], verdict: Verdict) -> None:
    """A note for each ``cnf_sha256``/``proof_sha256`` the evidence gives that is not the SHA-256 of its file's
    text. The files themselves are what is checked, so a wrong digest makes nothing false certified, but
    it says the record and the files beside it do not belong together (a record edited, or files
    swapped); it passed without a word."""
    for key, data in texts.items():
        stated = evidence.get(f"{key}_sha256")
        if isinstance(stated, str) and stated != hashlib.sha256(data).hexdigest():
            verdict.notes.append(f"the record's {key}_sha256 is not the SHA-256 of {names[key].name}'s text: the "
                                 "file was checked, not the digest; the record and the file may not belong together")


def check_solo_refutation(evidence: dict[str, Any], statement: str, game: Any, start: Any, verdict: Verdict,
                          record: str, limits: Limits) -> None:
    """A STAKD solo DRUP certificate of ``winnable: false``: rebuild the CNF from the rules (with the
    symmetry breaking the evidence says), then check the refutation against it."""
    from stratagem.models.stakd.sat import ENCODING as SOLO_ENCODING
    from stratagem.models.stakd.sat import BuildStopped, SoloCNF

    if evidence.get("encoding") != SOLO_ENCODING:
        raise BadInput(record, "evidence.encoding", f"unknown encoding {evidence.get('encoding')!r} "
                       f"(this version checks {SOLO_ENCODING})")
    symmetry = evidence.get("symmetry", True)
    if not isinstance(symmetry, bool):
        raise BadInput(record, "evidence.symmetry", "must be true or false")
    names = files_beside(record, evidence)
    try:  # four Bases' formula takes half a minute to build: the run's one deadline covers it (45 s under 3)
        cnf = SoloCNF(game, start, symmetry, deadline=limits.deadline)
        cnf_text = write_dimacs(cnf.clauses, cnf.num_vars, cnf.comments, stop=limits.deadline.expired)
    except (BuildStopped, DimacsStopped):
        verdict.unknown("winnable", statement, limits.stopped_words("while the CNF was rebuilt from the rules"))
        return
    stored = read_text_maybe_gz(names["cnf"])
    if not is_the_formula(stored, cnf_text, names["cnf"], verdict):
        verdict.refute("winnable", statement, "evidence.cnf",
                       f"{names['cnf'].name} is not the {SOLO_ENCODING} formula of this position")
        return
    verdict.checked.append(f"the CNF is {SOLO_ENCODING} for this position, rebuilt from the rules")
    if limits.deadline.expired():
        verdict.unknown("winnable", statement, limits.stopped_words("before the DRUP refutation was checked"))
        return
    proof_data = read_bytes_maybe_gz(names["proof"])
    note_digests(evidence, {"cnf": stored.encode("utf-8"), "proof": proof_data}, names, verdict)
    drup, steps = check_drup_data(cnf.clauses, proof_data, str(names["proof"]),
                                  time_limit=limits.deadline.remaining())
    if drup.stopped:
        verdict.unknown("winnable", statement,
                        limits.out_of_time(f"in the DRUP refutation's check, {drup.stopped_at}"))
        return
    if not drup.valid:
        verdict.refute("winnable", statement, "evidence.proof", f"{names['proof'].name}: {drup.reason}")
        return
    verdict.checked.append(f"the DRUP refutation is valid ({plural(steps, 'step')}; stratagem's checker, "
                           f"{drup.checker} "
                           "engine): the pieces cannot all be placed")
    verdict.certify("winnable", statement, f"a DRUP refutation of the CNF rebuilt from the rules "
                    f"({SOLO_ENCODING}), checked by stratagem's checker")


#: What :func:`_drat_trim` returns when the run's time limit leaves it less than half a second.
NO_TIME = "no time"

#: How :func:`_drat_trim`'s answer begins when the temporary directory could not hold drat-trim's two files.
NOT_STAGED = "the formula and the proof could not be written for it"


def _drat_trim(cnf_text: str, proof_data: bytes, deadline: Deadline) -> str | None:
    """drat-trim's verdict (see :func:`run_drat_trim`) on the rebuilt formula and the proof's bytes as
    stratagem's checker read them, within what is left of the run's time limit.

    drat-trim reads plain files by name, and the records' files are gzip-compressed, so the two are
    written, uncompressed, to a folder of the temporary directory (``TMPDIR``, else the system's, often a
    small RAM-backed ``/tmp``; the level-2 example's proof is 1.17 million lines) and removed after. drat-trim is
    a second opinion, asked after stratagem's own checker has accepted the refutation: a directory that
    cannot hold them (full, over a quota or a file size limit, missing) leaves it unasked, and the answer,
    which starts with :data:`NOT_STAGED`, names the directory and the system's reason (the verdict notes it,
    as it notes a drat-trim not on PATH) -- never an error that loses the verdict, and never a proof cut
    short given to drat-trim, whose "s NOT VERIFIED" on it would refute a valid claim. A file is handed over
    only when its size on disk is what was written.
    """
    if shutil.which("drat-trim") is None:
        return None
    left = deadline.remaining()
    if left is not None and left < 0.5:
        return NO_TIME
    where, folder = "", None
    try:
        where = tempfile.gettempdir()
        folder = Path(tempfile.mkdtemp(prefix="stratagem-drat-"))
        cnf_file, proof_file = folder / "f.cnf", folder / "p.drup"
        for path, data in ((cnf_file, cnf_text.encode("utf-8")), (proof_file, proof_data)):
            path.write_bytes(data)
            if path.stat().st_size != len(data):
                return f"{NOT_STAGED} whole in the temporary directory {where} (set TMPDIR to a folder with room)"
        left = deadline.remaining()  # writing tens of megabytes takes time too
        if left is not None and left < 0.5:
            return NO_TIME
        return run_drat_trim(cnf_file, proof_file, timeout=600 if left is None else min(600.0, left))
    except OSError as error:  # run_drat_trim catches its own: this is the staging's
        place = f" {where}" if where else ""
        return (f"{NOT_STAGED} in the temporary directory{place} ({error.strerror or error}; set TMPDIR to a "
                "folder with room)")
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
