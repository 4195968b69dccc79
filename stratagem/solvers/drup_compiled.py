"""The DRUP check of :mod:`stratagem.solvers.drup`, compiled ahead of time, for proofs of millions of lines.

The pure-Python checker in :mod:`~stratagem.solvers.drup` is the reference: short, and fast enough
for proofs of up to about a million lines. CaDiCaL's refutations of the longest Strato horizons run
to tens of millions of lines, which that checker would need days and tens of gigabytes for. This
module runs the same algorithm -- backward checking of reverse unit propagation, with deletions --
as C code over flat arrays:

* **Flat clause arena.** Every clause (formula, lemma, deletion) is a slice of one ``int32`` array
  of literal codes (``2 * var + negative``), so a proof costs four bytes per literal instead of a
  Python object per literal. Text proofs are parsed straight into that array
  (:func:`~stratagem.solvers.drup_flat.parse_drup_flat`) without making a Python tuple per line.
* **Watch lists in one pool.** Each literal has two watch lists (unmarked and marked clauses),
  slices of one array of entries ``(blocker, clause, stamp)``; a list that fills up moves to the end
  of the pool with twice the room, and the pool is compacted in place when it runs low. As in the
  reference, a binary clause needs no clause access (its blocker is the other literal), a satisfied
  blocker skips the clause, and detaching a clause only bumps its stamp, which makes its entries stale.
* **Top-level cones marked once.** When a conflict's cone reaches a top-level assignment, the
  reasons behind it are marked once; while that assignment stays on the trail (the backward pass
  only cuts the trail back) later conflicts stop there instead of walking the same graph again.
* **Core-first propagation**, as drat-trim does it. Clauses already marked as used by the
  refutation are on separate watch lists, and a RUP check propagates with them to a fixpoint before
  it takes one step with an unmarked clause. Conflicts then lean on clauses that are checked
  anyway, so fewer lemmas get marked and checked. Which lemmas are checked can therefore differ from
  the reference checker's, never whether the ones used are sound: a proof passes only if every
  lemma the final conflict transitively uses was verified.

Everything else -- the forward pass with top-level propagation, deletions matched as literal sets
and ignored for clauses that are the reason of a top-level assignment, the backward pass cutting
the top-level trail back to its recorded length -- follows the reference checker step for step, and
the tests run both on the same proofs, right and wrong.

This module is a kernel of the compiled core: ``setup.py`` compiles it with Cython (pure-Python
mode) when the package is installed, and Python imports the extension instead of this file. The
check (:class:`_Check`) runs in a worker thread without the GIL; the calling thread reads its
progress counters from a shared array, reports them, and sets the stop flag there when the time
limit is up. Where the package was installed without a compiler the same code runs as plain Python,
with the same verdicts but slower than the reference checker; :func:`available` says which, and
``engine="auto"`` uses this checker only when it is compiled.

Why one module of over 600 lines: it is one concept, the compiled DRUP checker, and one kernel (Cython
compiles a module as a unit, and the checker's C-typed class must live with the functions that call it
without Python overhead).
"""

from __future__ import annotations

import threading
import time
from typing import Any

import cython
import numpy as np

from stratagem.solvers.drup_flat import FlatClauses, FlatProof, refuse_zero
from stratagem.solvers.drupverdict import (
    DrupProgress,
    DrupVerdict,
    empty_not_rup_reason,
    no_conflict_reason,
    not_rup_reason,
    stopped_place,
    stopped_reason,
)

__all__ = ["available", "check_flat"]


def available() -> bool:
    """Whether this checker runs compiled (the compiled core was built), so that it pays to use it."""
    return bool(cython.compiled)


# -- the compiled checker ----------------------------------------------------------------------------------------
#
# Literal codes are ``2 * var + negative`` over variables 1..nv-1. ``value[code]`` is 1 (true), -1 (false) or 0.
# Watch list ``code * 2 + core`` holds the entries watching literal ``code`` of unmarked (``core`` 0) or marked
# (``core`` 1) clauses. Entry ``e`` of the pool is ``pool[3 * e : 3 * e + 3]`` = (blocker, clause code, stamp).

#: Outcomes of :class:`_Check` (``out[0]``).
_VALID = cython.declare(cython.longlong, 0)
_EMPTY_NOT_RUP = cython.declare(cython.longlong, 1)
_NO_CONFLICT = cython.declare(cython.longlong, 2)
_NOT_RUP = cython.declare(cython.longlong, 3)
_STOPPED = cython.declare(cython.longlong, 4)
_RESTORE_PROPAGATED = cython.declare(cython.longlong, 5)
_POOL_FULL = cython.declare(cython.longlong, 6)

#: Layout of the status array shared with the watcher thread.
_PHASE = cython.declare(cython.Py_ssize_t, 0)
_DONE = cython.declare(cython.Py_ssize_t, 1)
_STOP = cython.declare(cython.Py_ssize_t, 2)
_TOTAL = cython.declare(cython.Py_ssize_t, 3)
#: Phases in ``status[_PHASE]``.
_FORWARD = cython.declare(cython.longlong, 1)
_BACKWARD = cython.declare(cython.longlong, 2)
#: The stop flag is looked at once per this many proof steps.
_CLOCK_EVERY = cython.declare(cython.longlong, 256)
#: The multipliers and the offset of :meth:`_Check._clause_hash` (typed, so that the C code wraps around).
_MIX_SIZE = cython.declare(cython.ulonglong, 0x2545F4914F6CDD1D)
_MIX_LIT = cython.declare(cython.ulonglong, 0x1F3A4B5C6D7E8F91)
_MIX_ADD = cython.declare(cython.ulonglong, 0x165667B19E3779F9)
_MIX_MORE = cython.declare(cython.ulonglong, 0x3C79AC492BA7B653)


def _filled(size: int, dtype: Any, fill: int = 0) -> Any:
    """``size`` copies of ``fill``: an array for the compiled check, a list (quicker to index) interpreted."""
    return np.full(size, fill, dtype=dtype) if cython.compiled else [fill] * size


@cython.final
@cython.cclass
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
class _Check:
    """One run of the check over a clause arena: the clause database, the assignment and the watch pool.

    Every index below is a literal code (< ``2 * nv``), a variable (< ``nv``), a clause id (< the
    number of clauses), a step (< the number of steps), a list number (< ``4 * nv``), a trail position
    (< ``nv``: a variable is on the trail at most once) or a pool entry below ``pool_rows`` (:meth:`_push`
    checks the room before it writes), which is why bounds checks are off; every array is set in
    ``__init__``, which is why the check that a memoryview is set is off too.
    """

    lits: cython.int[::1]
    cstart: cython.longlong[::1]
    deletion: cython.uchar[::1]
    status: cython.longlong[::1]
    out: cython.longlong[::1]
    originals: cython.longlong
    pool_rows: cython.longlong
    mask: cython.longlong
    value: cython.schar[::1]
    reason: cython.longlong[::1]
    position: cython.longlong[::1]
    trail: cython.longlong[::1]
    seen: cython.uchar[::1]
    cone_marked: cython.uchar[::1]
    stack: cython.longlong[::1]
    touched: cython.longlong[::1]
    lstart: cython.longlong[::1]
    llen: cython.longlong[::1]
    lcap: cython.longlong[::1]
    order: cython.longlong[::1]
    pool: cython.int[::1]
    clause_stamp: cython.longlong[::1]
    marked: cython.uchar[::1]
    attached: cython.uchar[::1]
    tautology: cython.uchar[::1]
    step_clause: cython.longlong[::1]
    trail_before: cython.longlong[::1]
    table_key: cython.ulonglong[::1]
    table_head: cython.longlong[::1]
    table_used: cython.uchar[::1]
    same_before: cython.longlong[::1]
    lit_stamp: cython.longlong[::1]
    trail_len: cython.longlong
    pool_end: cython.longlong
    pool_full: cython.bint

    def __init__(self, lits: Any, cstart: Any, originals: int, deletion: Any, nv: int, pool_rows: int,
                 status: Any, out: Any) -> None:
        """The check of the proof whose steps are clauses ``originals..`` of the arena ``lits``/``cstart``.

        The arena is normalised and reordered in place. ``out`` receives ``[outcome, step at fault,
        checked lemmas, core clauses]``; the watch lists share a pool of ``pool_rows`` entries, and if
        that is too small the outcome is :data:`_POOL_FULL`.
        """
        clauses = len(cstart) - 1
        steps = clauses - originals
        self.lits = lits
        self.cstart = cstart
        self.deletion = deletion
        self.status = status
        self.out = out
        self.originals = originals
        self.pool_rows = pool_rows
        self.value = _filled(2 * nv, np.int8)
        self.reason = _filled(nv, np.int64, -1)
        self.position = _filled(nv, np.int64)
        self.trail = _filled(nv, np.int64)
        self.seen = _filled(nv, np.uint8)
        self.cone_marked = _filled(nv, np.uint8)
        self.stack = _filled(nv + 1, np.int64)
        self.touched = _filled(nv, np.int64)
        self.lstart = _filled(4 * nv, np.int64)
        self.llen = _filled(4 * nv, np.int64)
        self.lcap = _filled(4 * nv, np.int64)
        self.order = _filled(4 * nv, np.int64)
        self.pool = _filled(3 * pool_rows, np.int32)
        self.clause_stamp = _filled(clauses, np.int64)
        self.marked = _filled(clauses, np.uint8)
        self.attached = _filled(clauses, np.uint8)
        self.tautology = _filled(clauses, np.uint8)
        self.step_clause = _filled(steps, np.int64, -1)
        self.trail_before = _filled(steps, np.int64)
        # Live clauses by literal set: open addressing on the hash, a chain of same-hash clauses behind each entry.
        size = 1
        while size < 2 * clauses + 2:
            size *= 2
        self.mask = size - 1
        self.table_key = _filled(size, np.uint64)
        self.table_head = _filled(size, np.int64, -1)
        self.table_used = _filled(size, np.uint8)
        self.same_before = _filled(clauses, np.int64, -1)
        self.lit_stamp = _filled(2 * nv, np.int64)  # literals of the clause being normalised or deleted
        self.trail_len = 0
        self.pool_end = 0
        self.pool_full = False

    def run(self) -> None:
        """Run the check, without the GIL where it is compiled; the outcome is in ``out``."""
        with cython.nogil:
            self._check()
        if self.pool_full:
            self.out[0] = _POOL_FULL

    # -- the watch pool ----------------------------------------------------------------------------------------

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _push(self, lst: cython.longlong, blocker: cython.longlong, code: cython.longlong,
              stamp: cython.longlong) -> cython.void:
        """Append the entry ``(blocker, code, stamp)`` to watch list ``lst``, moving the list to the pool's end if full.

        ``code`` is the clause id, or ``-(id + 1)`` for a binary clause. If the pool has no room,
        :attr:`pool_full` is set and the entry is lost: the check then gives up and is run again with
        a larger pool.
        """
        pool: cython.int[::1] = self.pool
        n: cython.longlong = self.llen[lst]
        room: cython.longlong
        end: cython.longlong
        old: cython.longlong
        i: cython.longlong
        at: cython.longlong
        if n == self.lcap[lst]:
            room = max(4, 2 * n)
            end = self.pool_end
            if end + room > self.pool_rows:
                self.pool_full = True
                return
            old = self.lstart[lst]
            for i in range(3 * n):
                pool[3 * end + i] = pool[3 * old + i]
            self.lstart[lst] = end
            self.lcap[lst] = room
            self.pool_end = end + room
        at = 3 * (self.lstart[lst] + n)
        pool[at] = blocker
        pool[at + 1] = code
        pool[at + 2] = stamp
        self.llen[lst] = n + 1

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _after(self, a: cython.longlong, b: cython.longlong) -> cython.bint:
        """Whether watch list ``a`` comes after list ``b`` in the pool (by start, then by number)."""
        return self.lstart[a] > self.lstart[b] or (self.lstart[a] == self.lstart[b] and a > b)

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _sift(self, root: cython.longlong, end: cython.longlong) -> cython.void:
        """Move ``order[root]`` down the heap ``order[:end]`` to where it belongs (the last list at the top)."""
        order: cython.longlong[::1] = self.order
        child: cython.longlong
        swap: cython.longlong
        while True:
            child = 2 * root + 1
            if child >= end:
                return
            if child + 1 < end and self._after(order[child + 1], order[child]):
                child += 1
            if not self._after(order[child], order[root]):
                return
            swap = order[root]
            order[root] = order[child]
            order[child] = swap
            root = child

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _compact(self) -> cython.void:
        """Slide every watch list down the pool in order, dropping stale entries, so the free room is at the end.

        The lists with room are put in pool order first (a heapsort of their numbers in :attr:`order`);
        a list without room holds nothing and only gets a start.
        """
        order: cython.longlong[::1] = self.order
        lstart: cython.longlong[::1] = self.lstart
        llen: cython.longlong[::1] = self.llen
        lcap: cython.longlong[::1] = self.lcap
        pool: cython.int[::1] = self.pool
        stamp: cython.longlong[::1] = self.clause_stamp
        lists: cython.longlong = len(lstart)
        count: cython.longlong = 0
        lst: cython.longlong
        k: cython.longlong
        i: cython.longlong
        begin: cython.longlong
        code: cython.longlong
        cid: cython.longlong
        swap: cython.longlong
        write: cython.longlong = 0
        for lst in range(lists):
            if lcap[lst] > 0:
                order[count] = lst
                count += 1
            else:
                lstart[lst] = 0
        for k in range(count // 2 - 1, -1, -1):
            self._sift(k, count)
        for k in range(count - 1, 0, -1):
            swap = order[0]
            order[0] = order[k]
            order[k] = swap
            self._sift(0, k)
        for k in range(count):
            lst = order[k]
            begin = lstart[lst]
            lstart[lst] = write
            for i in range(begin, begin + llen[lst]):
                code = pool[3 * i + 1]
                cid = code if code >= 0 else -code - 1
                if pool[3 * i + 2] == stamp[cid]:
                    pool[3 * write] = pool[3 * i]
                    pool[3 * write + 1] = code
                    pool[3 * write + 2] = pool[3 * i + 2]
                    write += 1
            llen[lst] = write - lstart[lst]
            lcap[lst] = llen[lst]
        self.pool_end = write

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _watch(self, cid: cython.longlong, core: cython.longlong) -> cython.void:
        """Put entries for the two watched literals (positions 0 and 1) of clause ``cid`` on its lists."""
        begin: cython.longlong = self.cstart[cid]
        first: cython.longlong = self.lits[begin]
        second: cython.longlong = self.lits[begin + 1]
        code: cython.longlong = -cid - 1 if self.cstart[cid + 1] - begin == 2 else cid
        self._push(first * 2 + core, second, code, self.clause_stamp[cid])
        self._push(second * 2 + core, first, code, self.clause_stamp[cid])

    # -- the assignment ----------------------------------------------------------------------------------------

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _assign(self, code: cython.longlong, why: cython.longlong) -> cython.void:
        """Make literal ``code`` true, with reason clause ``why`` (or -1 when assumed)."""
        var: cython.longlong = code >> 1
        self.value[code] = 1
        self.value[code ^ 1] = -1
        self.reason[var] = why
        self.position[var] = self.trail_len
        self.trail[self.trail_len] = code
        self.trail_len += 1

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _backtrack(self, length: cython.longlong) -> cython.void:
        """Unassign everything on the trail from position ``length`` on."""
        at: cython.longlong
        code: cython.longlong
        for at in range(length, self.trail_len):
            code = self.trail[at]
            self.value[code] = 0
            self.value[code ^ 1] = 0
            self.reason[code >> 1] = -1
            self.cone_marked[code >> 1] = 0
        self.trail_len = length

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _propagate(self, head: cython.longlong) -> cython.longlong:
        """Unit-propagate the trail from ``head``, marked clauses first; a falsified clause or -1.

        Each trail literal's marked list is visited as soon as it is on the trail; an unmarked list is
        visited only when no marked list is left, and that visit stops after its first assignment (the
        marked lists of the new literal go first), to go on from the same entry later. Entries kept slide
        down over dropped ones; when a visit stops early, the entries dropped so far are overwritten with
        stale ones (stamp -1) instead, so the list stays whole without moving its tail.

        This is the hot loop of the checker: the arrays are held in locals, the trail length too (written
        back on return), and the common cases of :meth:`_push` and :meth:`_assign` are written out.
        """
        lits: cython.int[::1] = self.lits
        cstart: cython.longlong[::1] = self.cstart
        value: cython.schar[::1] = self.value
        reason: cython.longlong[::1] = self.reason
        position: cython.longlong[::1] = self.position
        trail: cython.longlong[::1] = self.trail
        stamp: cython.longlong[::1] = self.clause_stamp
        lstart: cython.longlong[::1] = self.lstart
        llen: cython.longlong[::1] = self.llen
        lcap: cython.longlong[::1] = self.lcap
        pool: cython.int[::1] = self.pool
        length: cython.longlong = self.trail_len
        core_head: cython.longlong = head
        other_head: cython.longlong = head
        resume: cython.longlong = 0
        false_lit: cython.longlong
        core: cython.longlong
        i: cython.longlong
        lst: cython.longlong
        base: cython.longlong
        n: cython.longlong
        keep: cython.longlong
        at: cython.longlong
        blocker: cython.longlong
        code: cython.longlong
        mark: cython.longlong
        cid: cython.longlong
        begin: cython.longlong
        other: cython.longlong
        j: cython.longlong
        lit: cython.longlong
        target: cython.longlong
        size: cython.longlong
        rest: cython.longlong
        var: cython.longlong
        gap: cython.longlong
        stopped: cython.bint
        moved: cython.bint
        while True:
            if core_head < length:
                false_lit = trail[core_head] ^ 1
                core = 1
                i = 0
            elif other_head < length:
                false_lit = trail[other_head] ^ 1
                core = 0
                i = resume
            else:
                self.trail_len = length
                return -1
            lst = false_lit * 2 + core
            base = lstart[lst]
            n = llen[lst]
            keep = i
            stopped = False
            while i < n:
                at = 3 * (base + i)
                blocker = pool[at]
                code = pool[at + 1]
                mark = pool[at + 2]
                i += 1
                if value[blocker] == 1:
                    # Satisfied: kept without looking at the clause or its stamp (a stale entry kept
                    # here is dropped the first time its blocker is not true).
                    if keep != i - 1:
                        at = 3 * (base + keep)
                        pool[at] = blocker
                        pool[at + 1] = code
                        pool[at + 2] = mark
                    keep += 1
                    continue
                cid = code if code >= 0 else -code - 1
                if mark != stamp[cid]:
                    continue  # stale: detached, moved to the marked lists, or overwritten
                if code >= 0:
                    begin = cstart[cid]
                    if lits[begin] == false_lit:
                        lits[begin] = lits[begin + 1]
                        lits[begin + 1] = false_lit
                    other = lits[begin]
                    if other != blocker and value[other] == 1:
                        at = 3 * (base + keep)
                        pool[at] = other
                        pool[at + 1] = code
                        pool[at + 2] = mark
                        keep += 1
                        continue
                    moved = False
                    for j in range(begin + 2, cstart[cid + 1]):
                        lit = lits[j]
                        if value[lit] != -1:
                            lits[begin + 1] = lit
                            lits[j] = false_lit
                            target = lit * 2 + core
                            size = llen[target]
                            if size < lcap[target]:  # the common case of _push, without a call
                                at = 3 * (lstart[target] + size)
                                pool[at] = other
                                pool[at + 1] = code
                                pool[at + 2] = mark
                                llen[target] = size + 1
                            else:
                                self._push(target, other, code, mark)
                            moved = True
                            break
                    if moved:
                        continue
                    blocker = other
                at = 3 * (base + keep)
                pool[at] = blocker
                pool[at + 1] = code
                pool[at + 2] = mark
                keep += 1
                if value[blocker] == -1:
                    for rest in range(i, n):
                        pool[3 * (base + keep)] = pool[3 * (base + rest)]
                        pool[3 * (base + keep) + 1] = pool[3 * (base + rest) + 1]
                        pool[3 * (base + keep) + 2] = pool[3 * (base + rest) + 2]
                        keep += 1
                    llen[lst] = keep
                    self.trail_len = length
                    return cid
                # Assign the unit literal (as _assign does).
                var = blocker >> 1
                value[blocker] = 1
                value[blocker ^ 1] = -1
                reason[var] = cid
                position[var] = length
                trail[length] = blocker
                length += 1
                if core == 0 and i < n:
                    for gap in range(keep, i):
                        pool[3 * (base + gap) + 2] = -1
                    stopped = True
                    break
            if stopped:
                resume = i
                continue
            llen[lst] = keep
            if core:
                core_head += 1
            else:
                other_head += 1
                resume = 0

    # -- marking the clauses a conflict used -------------------------------------------------------------------

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _mark(self, cid: cython.longlong) -> cython.void:
        """Mark clause ``cid`` as used, moving its watches to the marked lists if it is attached."""
        if self.marked[cid]:
            return
        self.marked[cid] = 1
        if self.attached[cid] and self.cstart[cid + 1] - self.cstart[cid] >= 2:
            self.clause_stamp[cid] += 1
            self._watch(cid, 1)

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _mark_cone(self, conflict: cython.longlong, var: cython.longlong, level: cython.longlong) -> cython.void:
        """Mark ``conflict`` (unless -1) and every reason behind it or behind variable ``var`` (unless -1).

        Assignments at trail positions below ``level`` are the top level. Once the cone of such an
        assignment is marked it stays marked for as long as the assignment stays on the trail (its
        reasons are never deleted, and the trail is only cut back), so ``cone_marked`` records it and
        later conflicts do not walk it again.
        """
        lits: cython.int[::1] = self.lits
        cstart: cython.longlong[::1] = self.cstart
        reason: cython.longlong[::1] = self.reason
        position: cython.longlong[::1] = self.position
        cone_marked: cython.uchar[::1] = self.cone_marked
        marked: cython.uchar[::1] = self.marked
        seen: cython.uchar[::1] = self.seen
        stack: cython.longlong[::1] = self.stack
        touched: cython.longlong[::1] = self.touched
        top: cython.longlong = 0
        count: cython.longlong = 0
        why: cython.longlong
        cid: cython.longlong
        j: cython.longlong
        v: cython.longlong
        i: cython.longlong
        if conflict >= 0:
            self._mark(conflict)
            stack[top] = conflict
            top += 1
        if var >= 0:
            seen[var] = 1
            touched[count] = var
            count += 1
            why = reason[var]
            if why >= 0 and not (position[var] < level and cone_marked[var]):
                if position[var] < level:
                    cone_marked[var] = 1
                if not marked[why]:
                    self._mark(why)
                stack[top] = why
                top += 1
        while top > 0:
            top -= 1
            cid = stack[top]
            for j in range(cstart[cid], cstart[cid + 1]):
                v = lits[j] >> 1
                if seen[v]:
                    continue
                seen[v] = 1
                touched[count] = v
                count += 1
                why = reason[v]
                if why < 0:
                    continue
                if position[v] < level:
                    if cone_marked[v]:
                        continue
                    cone_marked[v] = 1
                if not marked[why]:
                    self._mark(why)
                stack[top] = why
                top += 1
        for i in range(count):
            seen[touched[i]] = 0

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _core(self) -> cython.longlong:
        """How many original clauses are marked."""
        total: cython.longlong = 0
        cid: cython.longlong
        for cid in range(self.originals):
            total += self.marked[cid]
        return total

    # -- clauses -----------------------------------------------------------------------------------------------

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _attach(self, cid: cython.longlong) -> cython.longlong:
        """Attach clause ``cid``, assigning its literal if it is unit; ``cid`` if it is falsified, else -1.

        The watches are two literals that are not false if there are two; otherwise the one that is not
        false and the false literal assigned last, so that cutting the trail back never leaves a false
        watch beside an unassigned one (as in the reference checker).
        """
        lits: cython.int[::1] = self.lits
        value: cython.schar[::1] = self.value
        begin: cython.longlong = self.cstart[cid]
        size: cython.longlong = self.cstart[cid + 1] - begin
        lit: cython.longlong
        w: cython.longlong
        best: cython.longlong
        best_rank: cython.longlong
        rank: cython.longlong
        j: cython.longlong
        first: cython.longlong
        self.attached[cid] = 1
        if size == 0:
            return cid
        if size == 1:
            lit = lits[begin]
            if value[lit] == 0:
                self._assign(lit, cid)
            return cid if value[lit] == -1 else -1
        for w in range(2):  # selection: the best remaining literal goes to position w
            best = begin + w
            best_rank = -1
            for j in range(begin + w, begin + size):
                lit = lits[j]
                rank = self.trail_len + 1 if value[lit] != -1 else self.position[lit >> 1]
                if rank > best_rank:
                    best = j
                    best_rank = rank
            lit = lits[best]
            lits[best] = lits[begin + w]
            lits[begin + w] = lit
        self._watch(cid, self.marked[cid])
        first = lits[begin]
        if value[first] == -1:
            return cid
        if value[first] == 0 and value[lits[begin + 1]] == -1:
            self._assign(first, cid)
        return -1

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _detach(self, cid: cython.longlong) -> cython.void:
        """Take clause ``cid`` off the watch lists: its entries there are stale from now on."""
        self.attached[cid] = 0
        self.clause_stamp[cid] += 1

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _is_reason(self, cid: cython.longlong) -> cython.bint:
        """Whether clause ``cid`` is the reason of a current assignment."""
        j: cython.longlong
        lit: cython.longlong
        for j in range(self.cstart[cid], self.cstart[cid + 1]):
            lit = self.lits[j]
            if self.value[lit] == 1 and self.reason[lit >> 1] == cid:
                return True
        return False

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _clause_hash(self, cid: cython.longlong) -> cython.ulonglong:
        """A hash of the clause's literal set: the same whatever the order of its literals.

        Compiled, it wraps around at 64 bits; interpreted, it does not, which gives other values but the
        same answers (the hash only spreads clauses over the table; deletions compare the literals).
        """
        total: cython.ulonglong = (self.cstart[cid + 1] - self.cstart[cid]) * _MIX_SIZE
        x: cython.ulonglong
        j: cython.longlong
        for j in range(self.cstart[cid], self.cstart[cid + 1]):
            x = self.lits[j]
            x = x * _MIX_LIT + _MIX_ADD
            x = (x ^ (x >> 29)) * _MIX_MORE
            total += x ^ (x >> 32)
        return total

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _normalize(self) -> cython.void:
        """Drop repeated literals from every clause (in place, compacting the arena) and flag tautologies."""
        lits: cython.int[::1] = self.lits
        cstart: cython.longlong[::1] = self.cstart
        stamp: cython.longlong[::1] = self.lit_stamp
        clauses: cython.longlong = len(cstart) - 1
        out: cython.longlong = 0
        begin: cython.longlong = cstart[0]
        end: cython.longlong
        cid: cython.longlong
        j: cython.longlong
        code: cython.longlong
        for cid in range(clauses):
            end = cstart[cid + 1]
            cstart[cid] = out
            for j in range(begin, end):
                code = lits[j]
                if stamp[code] == cid + 1:
                    continue
                if stamp[code ^ 1] == cid + 1:
                    self.tautology[cid] = 1
                stamp[code] = cid + 1
                lits[out] = code
                out += 1
            begin = end
        cstart[clauses] = out
        for j in range(len(stamp)):
            stamp[j] = 0

    # -- the two passes ----------------------------------------------------------------------------------------

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _make_room(self) -> cython.bint:
        """Compact the watch pool when it runs low; whether the check must give up for want of room."""
        if self.pool_end > self.pool_rows - self.pool_rows // 4:
            self._compact()
            if self.pool_end > self.pool_rows // 2:
                self.pool_full = True
        return self.pool_full

    @cython.cfunc
    @cython.nogil
    @cython.exceptval(check=False)
    def _check(self) -> cython.void:
        """Both passes over the proof: the forward pass to the first conflict, then the backward check."""
        lits: cython.int[::1] = self.lits
        cstart: cython.longlong[::1] = self.cstart
        deletion: cython.uchar[::1] = self.deletion
        status: cython.longlong[::1] = self.status
        out: cython.longlong[::1] = self.out
        value: cython.schar[::1] = self.value
        marked: cython.uchar[::1] = self.marked
        step_clause: cython.longlong[::1] = self.step_clause
        trail_before: cython.longlong[::1] = self.trail_before
        table_key: cython.ulonglong[::1] = self.table_key
        table_head: cython.longlong[::1] = self.table_head
        table_used: cython.uchar[::1] = self.table_used
        same_before: cython.longlong[::1] = self.same_before
        stamp: cython.longlong[::1] = self.lit_stamp
        originals: cython.longlong = self.originals
        clauses: cython.longlong = len(cstart) - 1
        steps: cython.longlong = clauses - originals
        mask: cython.longlong = self.mask
        conflict: cython.longlong = -1
        conflict_step: cython.longlong = -1
        checked: cython.longlong = 0
        cid: cython.longlong
        step: cython.longlong
        h: cython.ulonglong
        slot: cython.longlong
        stamp_value: cython.longlong
        size_needed: cython.longlong
        before: cython.longlong
        copy: cython.longlong
        same: cython.bint
        head: cython.longlong
        j: cython.longlong
        done: cython.longlong
        target: cython.longlong
        length: cython.longlong
        top: cython.longlong
        lit: cython.longlong
        rup: cython.bint
        self._normalize()
        out[0] = _VALID
        out[1] = -1
        out[2] = 0
        status[_PHASE] = _FORWARD
        status[_TOTAL] = steps

        for cid in range(originals + steps):
            if cid >= originals:
                step = cid - originals
                if step % _CLOCK_EVERY == 0:
                    status[_DONE] = step
                    if status[_STOP]:
                        out[0] = _STOPPED
                        return
            if self._make_room():
                return
            if self.tautology[cid]:
                continue
            h = self._clause_hash(cid)
            slot = h & mask
            while table_used[slot] and table_key[slot] != h:
                slot = (slot + 1) & mask
            if cid >= originals and deletion[cid - originals]:
                # One live copy of this literal set that is not the reason of a top-level assignment.
                stamp_value = cid + 1
                for j in range(cstart[cid], cstart[cid + 1]):
                    stamp[lits[j]] = stamp_value
                size_needed = cstart[cid + 1] - cstart[cid]
                before = -1
                copy = table_head[slot] if table_used[slot] else -1
                while copy >= 0:
                    same = cstart[copy + 1] - cstart[copy] == size_needed
                    if same:
                        for j in range(cstart[copy], cstart[copy + 1]):
                            if stamp[lits[j]] != stamp_value:
                                same = False
                                break
                    if same and not self._is_reason(copy):
                        if before < 0:
                            table_head[slot] = same_before[copy]
                        else:
                            same_before[before] = same_before[copy]
                        self._detach(copy)
                        step_clause[cid - originals] = copy
                        break
                    before = copy
                    copy = same_before[copy]
                continue
            if cid >= originals and cstart[cid + 1] == cstart[cid]:
                out[0] = _EMPTY_NOT_RUP
                out[1] = cid - originals
                return
            if table_used[slot]:
                same_before[cid] = table_head[slot]
            table_used[slot] = 1
            table_key[slot] = h
            table_head[slot] = cid
            head = self.trail_len
            if cid >= originals:
                step_clause[cid - originals] = cid
                trail_before[cid - originals] = head
            conflict = self._attach(cid)
            if conflict < 0:
                conflict = self._propagate(head)
            if conflict >= 0:
                self._mark_cone(conflict, -1, self.trail_len)
                if cid < originals:
                    out[3] = self._core()
                    return
                conflict_step = cid - originals
                break
        if conflict_step < 0:
            out[0] = _NO_CONFLICT
            return

        status[_PHASE] = _BACKWARD
        status[_TOTAL] = conflict_step + 1
        for step in range(conflict_step, -1, -1):
            done = conflict_step - step
            if done % _CLOCK_EVERY == 0:
                status[_DONE] = done
                if status[_STOP]:
                    out[0] = _STOPPED
                    out[2] = checked
                    out[3] = self._core()
                    return
            if self._make_room():
                return
            target = step_clause[step]
            if target < 0:
                continue
            if deletion[step]:
                length = self.trail_len
                if self._attach(target) >= 0 or self.trail_len != length:
                    out[0] = _RESTORE_PROPAGATED
                    out[1] = step
                    return
                continue
            self._backtrack(trail_before[step])
            self._detach(target)
            if not marked[target]:
                continue
            checked += 1
            # Reverse unit propagation: assume the lemma false and propagate to a conflict.
            top = self.trail_len
            rup = False
            for j in range(cstart[target], cstart[target + 1]):
                lit = lits[j]
                if value[lit] == 1:
                    self._mark_cone(-1, lit >> 1, top)
                    rup = True
                    break
                if value[lit] == 0:
                    self._assign(lit ^ 1, -1)
            if not rup:
                conflict = self._propagate(top)
                if conflict >= 0:
                    self._mark_cone(conflict, -1, top)
                    rup = True
            self._backtrack(top)
            if not rup:
                out[0] = _NOT_RUP
                out[1] = step
                out[2] = checked
                out[3] = self._core()
                return
        status[_DONE] = conflict_step + 1
        out[2] = checked
        out[3] = self._core()


def _check_kernel(lits: Any, cstart: Any, originals: int, deletion: Any, nv: int, pool_rows: int, status: Any,
                  out: Any) -> None:
    """Check the proof whose steps are clauses ``originals..`` of the arena; results in ``out`` (:class:`_Check`)."""
    _Check(lits, cstart, originals, deletion, nv, pool_rows, status, out).run()


def _run_watched(codes: Any, starts: Any, originals: int, deletion: Any, nv: int,
                 pool_rows: int, status: np.ndarray, out: np.ndarray, failure: list[BaseException],
                 progress: DrupProgress | None, deadline: float | None) -> None:
    """Run the kernel in a thread, reporting its progress and raising its stop flag at ``deadline``."""

    def run() -> None:
        try:
            _check_kernel(codes, starts, originals, deletion, nv, pool_rows, status, out)
        except BaseException as error:  # noqa: BLE001 - handed to the calling thread
            failure.append(error)

    if deadline is not None and time.perf_counter() >= deadline:
        status[_STOP] = 1
    if progress is not None:
        progress("forward", 0, len(deletion))
    worker = threading.Thread(target=run, name="drup-check", daemon=True)
    worker.start()
    reported = (-1, -1)
    while worker.is_alive():
        worker.join(0.1)
        phase = "backward" if status[_PHASE] == _BACKWARD else "forward"
        if progress is not None and status[_PHASE] and (int(status[_PHASE]), int(status[_DONE])) != reported:
            reported = (int(status[_PHASE]), int(status[_DONE]))
            progress(phase, int(status[_DONE]), int(status[_TOTAL]))
        if deadline is not None and time.perf_counter() >= deadline:
            status[_STOP] = 1


def _codes(formula: np.ndarray, proof: np.ndarray) -> np.ndarray:
    """The literal codes (``2 * var + negative``, ``int32``) of the literals ``formula`` then ``proof``, the
    variables renumbered densely where they are sparse. Made in place in one array of codes where the literals
    fit (a proof of 18.6 million literals: 100 MB at the peak, where ``2 * abs(lits) + (lits < 0)`` over an
    ``int64`` copy took 500 MB, the most the check held)."""
    size = len(formula) + len(proof)
    largest = 0
    for part in (formula, proof):
        if len(part):
            largest = max(largest, int(part.max()), -int(part.min()))
    if largest <= min(4 * size + 16, (1 << 30) - 1):
        codes = np.concatenate([formula, proof], dtype=np.int32, casting="unsafe")  # in range: checked above
        negative = codes < 0
        np.abs(codes, out=codes)
        codes *= 2
        codes += negative
        return codes
    variables = np.abs(np.concatenate([formula, proof]).astype(np.int64, copy=False))
    variables = np.unique(variables, return_inverse=True)[1].astype(np.int64) + 1  # dense renumbering
    if len(variables) and int(variables.max()) >= 1 << 30:
        raise ValueError(f"{int(variables.max())} variables: the compiled checker codes literals in 31 bits")
    signs = np.concatenate([formula < 0, proof < 0])
    renumbered: np.ndarray = (2 * variables + signs).astype(np.int32)
    return renumbered


def check_flat(formula: FlatClauses, proof: FlatProof, *, progress: DrupProgress | None = None,
               time_limit: float | None = None, pool_rows: int | None = None) -> DrupVerdict:
    """Check that ``proof`` refutes ``formula``, as :func:`stratagem.solvers.drup.check_drup` does.

    ``progress`` and ``time_limit`` work as there; progress is reported about ten times a second.
    ``pool_rows`` sets the first size of the watch pool (tests make it tiny to exercise its regrowth).
    """
    started = time.perf_counter()
    originals = len(formula)
    if originals + len(proof) >= 1 << 30:
        raise ValueError(f"{originals + len(proof)} clauses: the compiled checker numbers clauses in 31 bits")
    refuse_zero(formula)
    refuse_zero(proof.clauses)
    starts = np.concatenate([formula.starts[:-1], proof.clauses.starts + formula.starts[-1]]).astype(np.int64)
    codes: Any = _codes(formula.lits, proof.clauses.lits)
    nv = (int(codes.max()) >> 1) + 1 if len(codes) else 1
    deletion: Any = proof.deletion.astype(np.uint8)
    if not cython.compiled:  # interpreted, Python ints in lists are quicker to index than numpy scalars
        codes, starts, deletion = codes.tolist(), starts.tolist(), deletion.tolist()
    deadline = None if time_limit is None else started + time_limit
    lemmas = int(np.count_nonzero(~proof.deletion))
    # Room for both watches of every formula clause and of a million live lemmas, four times over;
    # doubled whenever a run finds it too small.
    if pool_rows is None:
        pool_rows = 8 * (originals + min(lemmas, 1_000_000)) + 1024
    while True:
        status = np.zeros(4, dtype=np.int64)
        out = np.zeros(4, dtype=np.int64)
        failure: list[BaseException] = []
        _run_watched(codes, starts, originals, deletion, nv, pool_rows, status, out, failure, progress, deadline)
        if failure:
            raise failure[0]
        if out[0] != _POOL_FULL:
            break
        pool_rows *= 2
    outcome, step, checked, core = (int(x) for x in out)
    seconds = time.perf_counter() - started
    if outcome == _RESTORE_PROPAGATED:
        raise AssertionError(f"drup checker: restoring the clause deleted at step {step} propagated")
    if outcome == _STOPPED:
        phase = "backward" if status[_PHASE] == _BACKWARD else "forward"
        done, total = int(status[_DONE]), int(status[_TOTAL])
        return DrupVerdict(False, stopped_reason(time_limit or 0.0, phase, done, total), lemmas, checked, core, seconds,
                           stopped=True, checker="compiled", stopped_at=stopped_place(phase, done, total))
    if progress is not None and outcome == _VALID and status[_PHASE] == _BACKWARD:
        progress("backward", int(status[_TOTAL]), int(status[_TOTAL]))
    line = int(proof.line_numbers[step]) if step >= 0 else 0
    reason = {
        _VALID: "",
        _EMPTY_NOT_RUP: empty_not_rup_reason(line),
        _NO_CONFLICT: no_conflict_reason(lemmas),
        _NOT_RUP: not_rup_reason(line),
    }[outcome]
    return DrupVerdict(not reason, reason, lemmas, checked, core, seconds, checker="compiled")
