"""The project's own DRUP checker: does a clausal proof really refute a CNF formula?

A claim such as "no plan of length k-1 exists" rests on a SAT solver saying UNSAT. The solver
(CaDiCaL, through PySAT) can justify that answer with a DRUP proof: a list of clauses it learned
(*lemmas*) and of clauses it dropped (*deletions*), ending with the empty clause. This module checks
such a proof independently of the solver, so the claim rests on this small checker instead of on a
large solver.

**What is checked.** Every lemma must follow from the clauses present when it is added (the
formula plus earlier lemmas, minus deleted clauses) by *reverse unit propagation* (RUP): asserting
the negation of each of its literals and unit-propagating yields a conflict. The proof refutes the
formula once that clause database propagates to a conflict on its own: normally when the empty
clause is added, or earlier if a lemma already makes propagation conflict (the empty clause is
then RUP and adds nothing). Anything after that point is not looked at.

**Backward checking**, as drat-trim does it. A forward pass adds all lemmas unchecked, with
propagation at the top level, until the database conflicts. The clauses in that conflict's
implication graph are *marked*. A backward pass then undoes the proof step by step and checks only
marked lemmas, each against the database as it was when the lemma was added, marking in turn the
clauses its own conflict used. Lemmas the refutation never uses are never checked, which is what
makes proofs from a real solver (most of whose lemmas are dead ends) cheap to check. Soundness
does not suffer: every clause the final conflict depends on is, transitively, an original clause or
a marked lemma that was shown RUP from clauses before it.

**Deletions** only make the database smaller, so they can never make a wrong proof pass; they are
honoured to keep propagation as weak as the solver's (and the check fast), with two exceptions
that drat-trim makes by default too:

* a deletion that matches no clause present is ignored (CaDiCaL deletes, for instance, the
  tautologies of the input, which the checker never stores);
* a deletion of a clause that is at that moment the *reason* of a top-level assignment -- a
  "(pseudo) unit clause" in drat-trim's words, which includes every unit clause whose literal it
  set -- is ignored. Solvers keep such assignments after deleting their reason; honouring the
  deletion would make later, correct lemmas fail, and in backward checking it would make the
  top-level assignment depend on the time of the check. Keeping the clause cannot let a wrong
  proof pass: it is an original clause or a lemma, and a lemma that a check uses is itself checked.

Clauses are matched for deletion as sets of literals (duplicate literals removed, order ignored);
one copy is removed per deletion.

**Implementation.** Two watched literals per clause and a trail of assignments; the top-level
part of the trail only grows in the forward pass (no reason is ever deleted), so the backward pass
restores the database at each lemma by cutting the trail back to its recorded length. Variables
are renumbered densely, so lemmas may use variables the formula does not mention (extension
variables), and any DIMACS numbering costs memory only for the variables used. In CPython this
checks a few thousand (long lemmas, dense formulas such as pigeonhole) to tens of thousands of
proof lines a second.

For proofs of millions of lines, :mod:`stratagem.solvers.drup_compiled` runs the same algorithm
as C code (a kernel of the compiled core, built when the package is installed); ``engine`` in
:func:`check_drup` and :func:`check_drup_data` picks between the two, and the tests run every case
on both.

:func:`run_drat_trim` runs the external drat-trim checker instead, when it is installed, as a second
opinion.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import time
from collections.abc import Sequence
from typing import Literal

from stratagem.core.errors import BadInput
from stratagem.solvers.drupverdict import (
    DrupProgress,
    DrupVerdict,
    empty_not_rup_reason,
    no_conflict_reason,
    not_rup_reason,
    stopped_place,
    stopped_reason,
)

__all__ = ["COMPILED_FROM", "MAX_PROOF_STEPS", "DrupProgress", "DrupVerdict", "Engine", "check_drup", "check_drup_data",
           "run_drat_trim"]

#: Which checker runs: the pure-Python reference, the compiled one, or the compiled one when it pays.
Engine = Literal["auto", "python", "compiled"]

#: ``engine="auto"`` uses the compiled checker (when the compiled core is built) for proofs of this much work or
#: more: the proof's steps, counted once more for every :data:`CLAUSES_PER_WEIGHT` clauses of the formula (each
#: unit propagation of the reference walks the clauses it watches). Below it the reference takes a few
#: milliseconds, less than the compiled checker's set-up (2-4 ms). It was 20,000, where the reference takes about
#: a second, holding the GIL all along: threads checking proofs at once (a pool of SAT solves) queued behind
#: each other there (challenge 0's refutation of horizon 4, 13,696 steps: 1.0 s by the reference, 0.06 s
#: compiled, which runs without the GIL); pigeonhole PHP(6)'s 1,971 steps: 185 ms against 12 ms.
COMPILED_FROM = 100

#: The formula size that weighs each proof step once more in :data:`COMPILED_FROM`'s count. By steps alone, a
#: STAKD refutation of 14,217 steps over 73,171 clauses (B3Q1U1X2 on 19x5) went to the reference and took 29 s
#: there (the compiled checker: 0.1 s); duo-3's 13,329 steps over 11,968 clauses take it about a second.
CLAUSES_PER_WEIGHT = 20_000

#: The most steps a DRUP proof may have (docs/formats.md, Input limits). The checkers hold some 150 bytes a
#: step (10.5 million steps of ``d 1 2 0``: 1.57 GB), so without it a gzip file of a few kilobytes asked for
#: tens of gigabytes (1000 MiB of such lines, within the 1 GiB of a proof file: an internal MemoryError at
#: a 4 GB memory limit, the machine's memory without one). The largest proofs measured have 0.8 million
#: (Strato) and 1.2 million (random 3-SAT) steps.
MAX_PROOF_STEPS = 10_000_000

#: ``progress`` is called once per this many proof steps in each pass.
_PROGRESS_EVERY = 4096

#: The time limit is looked at once per this many proof steps (a backward step can take milliseconds).
_CLOCK_EVERY = 256

#: Value of a literal in :attr:`_Checker.value`.
_TRUE = 1
_FALSE = -1
_UNSET = 0

#: Reason of an assignment that was assumed (a negated lemma literal) rather than propagated.
_ASSUMED = -1


class _Checker:
    """The clause database, the assignment and the two passes over one proof.

    Literals are coded as ``2 * var + (1 if negative else 0)`` over dense variable numbers, so a
    literal's negation is ``code ^ 1``. Clause ``cid`` has its literals in ``lits[cid]``.

    While it is attached, a clause ``(a, b)`` of two literals is ``(b, cid)`` in ``binary[a]`` and
    ``(a, cid)`` in ``binary[b]``: propagating it moves no watch, and most clauses of a planning
    encoding, and many lemmas, are binary. A longer clause is watched by its first two literals:
    ``watches[lits[cid][0]]`` and ``watches[lits[cid][1]]`` hold one entry ``(blocker, cid, stamp)``
    each, where ``blocker`` is some literal of the clause; while it is true the clause is satisfied
    and is not looked at. Detaching a long clause only bumps ``stamp_of[cid]``: entries with an older
    stamp are stale and are dropped when propagation meets them, so a detach costs nothing however
    long the watch lists are.
    """

    def __init__(self) -> None:
        self.var_of: dict[int, int] = {}
        self.value: list[int] = []
        self.reason: list[int] = []
        self.position: list[int] = []
        self.seen = bytearray()
        self.watches: list[list[tuple[int, int, int]]] = []
        self.stamp_of: list[int] = []
        self.binary: list[list[tuple[int, int]]] = []
        self.trail: list[int] = []
        self.head = 0
        self.lits: list[list[int]] = []
        self.marked = bytearray()

    # -- clauses -----------------------------------------------------------------------------------

    def codes(self, clause: Sequence[int]) -> list[int] | None:
        """``clause`` in literal codes without repeated literals, or ``None`` if it is a tautology."""
        codes: dict[int, None] = {}
        for lit in clause:
            if lit == 0:
                raise ValueError(f"literal 0 in clause {list(clause)}")
            var = self.var_of.get(abs(lit))
            if var is None:
                var = len(self.reason)
                self.var_of[abs(lit)] = var
                self.value += (_UNSET, _UNSET)
                self.reason.append(_ASSUMED)
                self.position.append(0)
                self.seen.append(0)
                self.watches += ([], [])
                self.binary += ([], [])
            codes[2 * var + (lit < 0)] = None
        for code in codes:
            if code ^ 1 in codes:
                return None
        return list(codes)

    def new_clause(self, codes: list[int]) -> int:
        """Store ``codes`` as a new clause (not yet attached) and return its id."""
        self.lits.append(codes)
        self.marked.append(0)
        self.stamp_of.append(0)
        return len(self.lits) - 1

    def attach(self, cid: int) -> int:
        """Put clause ``cid`` into the watch lists, assigning its literal if it is unit.

        Returns ``cid`` if every literal is already false (a conflict), else ``-1``. The watches are
        two literals that are not false if there are two; otherwise the one that is not false (true,
        or unassigned and then assigned here) and the false literal assigned last, so that cutting
        the trail back never leaves a false watch beside an unassigned one.
        """
        c = self.lits[cid]
        value = self.value
        if len(c) == 1:
            if value[c[0]] == _UNSET:
                self.assign(c[0], cid)
            return cid if value[c[0]] == _FALSE else -1
        if not c:
            return cid
        position = self.position
        # Sort key: not-false literals first, then false ones from the latest assignment back.
        order = sorted(
            range(len(c)),
            key=lambda i: -1 if value[c[i]] != _FALSE else len(self.trail) - position[c[i] >> 1],
        )
        first, second = c[order[0]], c[order[1]]
        rest = [c[i] for i in order[2:]]
        c[:] = [first, second, *rest]
        if len(c) == 2:
            self.binary[first].append((second, cid))
            self.binary[second].append((first, cid))
        else:
            stamp = self.stamp_of[cid]
            self.watches[first].append((second, cid, stamp))
            self.watches[second].append((first, cid, stamp))
        if value[first] == _FALSE:
            return cid
        if value[first] == _UNSET and value[second] == _FALSE:
            self.assign(first, cid)
        return -1

    def detach(self, cid: int) -> None:
        """Take clause ``cid`` out of the watch lists (it must be attached)."""
        c = self.lits[cid]
        if len(c) == 2:
            self.binary[c[0]].remove((c[1], cid))
            self.binary[c[1]].remove((c[0], cid))
        elif len(c) > 2:
            self.stamp_of[cid] += 1  # both watch entries are stale from now on

    def is_reason(self, cid: int) -> bool:
        """Whether clause ``cid`` is the reason of a current assignment."""
        value, reason = self.value, self.reason
        return any(value[code] == _TRUE and reason[code >> 1] == cid for code in self.lits[cid])

    # -- assignment --------------------------------------------------------------------------------

    def assign(self, code: int, why: int) -> None:
        """Make literal ``code`` true, with reason clause ``why`` (or :data:`_ASSUMED`)."""
        var = code >> 1
        self.value[code] = _TRUE
        self.value[code ^ 1] = _FALSE
        self.reason[var] = why
        self.position[var] = len(self.trail)
        self.trail.append(code)

    def backtrack(self, length: int) -> None:
        """Unassign everything on the trail from index ``length`` on."""
        value, reason, trail = self.value, self.reason, self.trail
        for code in trail[length:]:
            value[code] = _UNSET
            value[code ^ 1] = _UNSET
            reason[code >> 1] = _ASSUMED
        del trail[length:]
        self.head = length

    def propagate(self) -> int:
        """Unit-propagate the trail from :attr:`head`; the id of a falsified clause, or ``-1``.

        The hot loop of the checker, so assignments are written out here rather than through
        :meth:`assign`.
        """
        value, reason, position = self.value, self.reason, self.position
        watches, binary, lits, trail = self.watches, self.binary, self.lits, self.trail
        stamp_of = self.stamp_of
        head = self.head
        while head < len(trail):
            false_lit = trail[head] ^ 1
            head += 1
            for other, cid in binary[false_lit]:
                if value[other] == _TRUE:
                    continue
                if value[other] == _FALSE:
                    self.head = head
                    return cid
                value[other] = _TRUE
                value[other ^ 1] = _FALSE
                reason[other >> 1] = cid
                position[other >> 1] = len(trail)
                trail.append(other)
            entries = iter(watches[false_lit])
            kept: list[tuple[int, int, int]] = []
            keep = kept.append
            watches[false_lit] = kept
            for entry in entries:
                cid = entry[1]
                if stamp_of[cid] != entry[2]:
                    continue  # stale: the clause was detached since this entry was made
                if value[entry[0]] == _TRUE:
                    keep(entry)
                    continue
                c = lits[cid]
                if c[0] == false_lit:
                    c[0] = c[1]
                    c[1] = false_lit
                other = c[0]
                if value[other] == _TRUE:
                    keep((other, cid, entry[2]))
                    continue
                for k in range(2, len(c)):
                    lit = c[k]
                    if value[lit] != _FALSE:
                        c[1] = lit
                        c[k] = false_lit
                        watches[lit].append((other, cid, entry[2]))
                        break
                else:
                    keep(entry)
                    if value[other] == _FALSE:
                        kept.extend(entries)
                        self.head = head
                        return cid
                    value[other] = _TRUE
                    value[other ^ 1] = _FALSE
                    reason[other >> 1] = cid
                    position[other >> 1] = len(trail)
                    trail.append(other)
        self.head = head
        return -1

    # -- conflict analysis -------------------------------------------------------------------------

    def mark_cone(self, conflict: int, variables: Sequence[int] = ()) -> None:
        """Mark clause ``conflict`` (unless ``-1``) and every reason behind it or behind ``variables``."""
        seen, reason, lits, marked = self.seen, self.reason, self.lits, self.marked
        touched: list[int] = []
        stack: list[int] = []
        if conflict >= 0:
            marked[conflict] = 1
            stack.append(conflict)
        for var in variables:
            seen[var] = 1
            touched.append(var)
            if reason[var] >= 0:
                marked[reason[var]] = 1
                stack.append(reason[var])
        while stack:
            for code in lits[stack.pop()]:
                var = code >> 1
                if seen[var]:
                    continue
                seen[var] = 1
                touched.append(var)
                why = reason[var]
                if why >= 0:
                    marked[why] = 1
                    stack.append(why)
        for var in touched:
            seen[var] = 0

    def is_rup(self, cid: int) -> bool:
        """Whether clause ``cid`` (detached) is RUP now; if so, mark the clauses its conflict used.

        The trail must be a propagated top level (:attr:`head` at its end); it is left as found.
        """
        top = len(self.trail)
        value = self.value
        for code in self.lits[cid]:
            if value[code] == _TRUE:
                # Already true at the top level: its negation conflicts with the reasons behind it.
                self.mark_cone(-1, [code >> 1])
                self.backtrack(top)
                return True
            if value[code] == _UNSET:
                self.assign(code ^ 1, _ASSUMED)
        conflict = self.propagate()
        if conflict >= 0:
            self.mark_cone(conflict)
        self.backtrack(top)
        return conflict >= 0


def _compiled(engine: Engine, steps: int, clauses: int = 0) -> bool:
    """Whether ``engine`` means the compiled checker for a proof of ``steps`` steps against ``clauses`` clauses."""
    from stratagem.solvers import drup_compiled

    if engine == "compiled":
        if not drup_compiled.available():  # it would run as plain Python, slower than the reference
            raise RuntimeError("the compiled DRUP checker is not built in this install (stratagem --version lists "
                               "the compiled core): reinstall where a C compiler is present, or use engine 'python'")
        return True
    if engine == "auto":
        return steps * (1 + clauses // CLAUSES_PER_WEIGHT) >= COMPILED_FROM and drup_compiled.available()
    if engine != "python":
        raise ValueError(f"unknown DRUP checker engine {engine!r}")
    return False


def check_drup(
    clauses: Sequence[Sequence[int]],
    steps: Sequence[tuple[bool, Sequence[int]]],
    *,
    progress: DrupProgress | None = None,
    line_numbers: Sequence[int] | None = None,
    time_limit: float | None = None,
    engine: Engine = "auto",
) -> DrupVerdict:
    """Check that the DRUP proof ``steps`` refutes the CNF ``clauses``; see the module docstring.

    ``engine`` picks the checker: ``"python"`` (the reference in this module), ``"compiled"``
    (:mod:`stratagem.solvers.drup_compiled`, which needs the compiled core) or ``"auto"``, the compiled
    one for proofs of :data:`COMPILED_FROM` work or more (steps weighed by the formula's size) when it is built.

    ``steps`` are ``(is_deletion, clause)`` pairs in proof order, as from
    :func:`stratagem.solvers.dimacs.parse_drup`. Failures name "proof line N": ``line_numbers[i]``
    for step ``i`` when given (:func:`~stratagem.solvers.dimacs.parse_drup_lines` returns them),
    else ``i + 1`` -- the line in PySAT's ``get_proof()`` list. Clauses may contain repeated
    literals, be tautologies, units or empty. A zero literal raises :class:`ValueError`, and so does
    a literal beyond ``2**63 - 1`` in size when the compiled checker runs (text and binary proofs
    refuse such literals as they are read, :data:`~stratagem.solvers.dimacs.MAX_LITERAL`).

    ``progress(phase, done, total)`` is called every few thousand steps of each pass. With
    ``time_limit`` (seconds) the check stops there, with a verdict that is ``stopped`` and not valid:
    a proof of millions of lines can take this checker hours.
    """
    if line_numbers is not None and len(line_numbers) != len(steps):
        raise ValueError(f"{len(line_numbers)} line numbers for {len(steps)} proof steps")
    if _compiled(engine, len(steps), len(clauses)):
        from stratagem.solvers import drup_compiled, drup_flat

        try:
            flat = drup_flat.flat_proof(steps, line_numbers)
            formula = drup_flat.flat_clauses(clauses)
        except OverflowError:  # the reference takes literals of any size; the compiled arrays hold 64 bits
            raise ValueError("a literal beyond 2**63 - 1 in size: the compiled checker holds 64-bit literals") from None
        return drup_compiled.check_flat(formula, flat, progress=progress, time_limit=time_limit)
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    lemmas = sum(1 for deletion, _ in steps if not deletion)
    total = len(steps)
    checker = _Checker()
    originals = len(clauses)

    def line(step: int) -> int:
        return line_numbers[step] if line_numbers is not None else step + 1

    def verdict(reason: str, checked: int = 0) -> DrupVerdict:
        core = sum(checker.marked[:originals])
        return DrupVerdict(not reason, reason, lemmas, checked, core, time.perf_counter() - started)

    def out_of_time(phase: str, done: int, of: int, checked: int = 0) -> DrupVerdict | None:
        if deadline is None or time.perf_counter() < deadline:
            return None
        reason = stopped_reason(time_limit or 0.0, phase, done, of)
        return dataclasses.replace(verdict(reason, checked), stopped=True, stopped_at=stopped_place(phase, done, of))

    # Forward pass: the formula, then every step unchecked, until the database conflicts.
    index: dict[tuple[int, ...], list[int]] = {}
    conflict = -1
    for clause in clauses:
        codes = checker.codes(clause)
        cid = checker.new_clause(codes if codes is not None else [])
        if codes is None:
            continue  # a tautology keeps its id, so ids follow the input, but is never attached
        index.setdefault(tuple(sorted(codes)), []).append(cid)
        conflict = checker.attach(cid)
        if conflict < 0:
            conflict = checker.propagate()
        if conflict >= 0:
            break
    if conflict >= 0:
        checker.mark_cone(conflict)
        return verdict("")

    step_clause = [-1] * total  # clause id added or deleted by each step, -1 if none
    trail_before = [0] * total  # top-level trail length before each lemma was added
    conflict_step = -1
    for step, (deletion, clause) in enumerate(steps):
        if progress is not None and step % _PROGRESS_EVERY == 0:
            progress("forward", step, total)
        if step % _CLOCK_EVERY == 0 and (stop := out_of_time("forward", step, total)) is not None:
            return stop
        codes = checker.codes(clause)
        if codes is None:
            continue  # a tautological lemma is trivially RUP; a tautology is never stored to delete
        key = tuple(sorted(codes))
        if deletion:
            copies = index.get(key, [])
            for at in range(len(copies) - 1, -1, -1):
                if not checker.is_reason(copies[at]):
                    cid = copies.pop(at)
                    checker.detach(cid)
                    step_clause[step] = cid
                    break
            continue
        if not codes:
            return verdict(empty_not_rup_reason(line(step)))
        cid = checker.new_clause(codes)
        index.setdefault(key, []).append(cid)
        step_clause[step] = cid
        trail_before[step] = len(checker.trail)
        conflict = checker.attach(cid)
        if conflict < 0:
            conflict = checker.propagate()
        if conflict >= 0:
            conflict_step = step
            break
    if conflict_step < 0:
        return verdict(no_conflict_reason(lemmas))
    checker.mark_cone(conflict)

    # Backward pass: undo the steps in reverse, checking each marked lemma where it was added.
    checked = 0
    for step in range(conflict_step, -1, -1):
        done = conflict_step - step
        if progress is not None and done % _PROGRESS_EVERY == 0:
            progress("backward", done, conflict_step + 1)
        if done % _CLOCK_EVERY == 0 and (stop := out_of_time("backward", done, conflict_step + 1, checked)):
            return stop
        cid = step_clause[step]
        if cid < 0:
            continue
        if steps[step][0]:
            # Undo a deletion. The clause was present over a propagated trail then, so it can
            # be neither unit nor falsified now.
            length = len(checker.trail)
            if checker.attach(cid) >= 0 or len(checker.trail) != length:
                raise AssertionError(f"drup checker: restoring the clause deleted at step {step} propagated")
            continue
        checker.backtrack(trail_before[step])
        checker.detach(cid)
        if checker.marked[cid]:
            checked += 1
            if not checker.is_rup(cid):
                return verdict(not_rup_reason(line(step)), checked)
    if progress is not None:
        progress("backward", conflict_step + 1, conflict_step + 1)
    return verdict("", checked)


def check_drup_data(
    clauses: Sequence[Sequence[int]],
    data: bytes,
    source: str,
    *,
    progress: DrupProgress | None = None,
    time_limit: float | None = None,
    engine: Engine = "auto",
) -> tuple[DrupVerdict, int]:
    """Parse the DRUP proof ``data`` (text or binary, as a file holds it) and check it against ``clauses``.

    Returns the verdict and the number of proof steps. With the compiled checker the text is parsed
    straight into arrays, so a proof of tens of millions of lines never becomes Python tuples; with
    the reference checker it goes through :func:`~stratagem.solvers.dimacs.parse_drup_lines`. A
    malformed proof raises :class:`~stratagem.core.errors.BadInput` naming ``source`` and the line.
    """
    from stratagem.solvers import drup_compiled, drup_flat
    from stratagem.solvers.dimacs import parse_drup_lines

    binary = data[:1] == b"a" or 0 in data  # as parse_drup_lines tells the two encodings apart
    lines = data.count(b"\n") + 1
    most = data.count(0) if binary else lines  # a bound on the steps: a zero byte ends each binary step
    if most > MAX_PROOF_STEPS:
        raise BadInput(source, "", f"more than {MAX_PROOF_STEPS:,} {'steps' if binary else 'lines'}: more than a "
                       "DRUP proof may have (docs/formats.md, Input limits)")
    if _compiled(engine, lines, len(clauses)):
        flat = drup_flat.parse_drup_flat(data, source)
        verdict = drup_compiled.check_flat(drup_flat.flat_clauses(clauses), flat, progress=progress,
                                           time_limit=time_limit)
        return verdict, len(flat)
    steps, numbers = parse_drup_lines(data, source)
    return check_drup(clauses, steps, line_numbers=numbers, progress=progress, time_limit=time_limit,
                      engine="python"), len(steps)


def run_drat_trim(cnf_path: str | os.PathLike[str], proof_path: str | os.PathLike[str], timeout: float) -> str | None:
    """A second opinion from the external ``drat-trim`` checker, if it is on ``PATH``.

    Returns ``None`` when drat-trim is not installed, ``"valid"`` when it prints ``s VERIFIED``,
    ``"invalid"`` when it prints ``s NOT VERIFIED``, and ``"error: ..."`` for anything else (a
    timeout after ``timeout`` seconds, a crash, output without a verdict).
    """
    program = shutil.which("drat-trim")
    if program is None:
        return None
    try:
        done = subprocess.run(
            [program, os.fspath(cnf_path), os.fspath(proof_path)],
            capture_output=True,
            encoding="utf-8",  # not the locale's (Windows: cp1252, which has no character for some bytes)
            errors="replace",
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"error: drat-trim did not finish within {timeout:g} s"
    except OSError as error:
        return f"error: cannot run drat-trim: {error}"
    for raw in done.stdout.splitlines():
        line = raw.strip()
        if line == "s VERIFIED":
            return "valid"
        if line == "s NOT VERIFIED":
            return "invalid"
    last = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[-1]
    return f"error: drat-trim exited with code {done.returncode} without a verdict: {last}"
