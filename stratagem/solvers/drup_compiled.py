"""The DRUP check of :mod:`stratagem.solvers.drup`, compiled with numba, for proofs of millions of lines.

The pure-Python checker in :mod:`~stratagem.solvers.drup` is the reference: short, and fast enough
for proofs of up to about a million lines. CaDiCaL's refutations of the longest Strato horizons run
to tens of millions of lines, which that checker would need days and tens of gigabytes for. This
module runs the same algorithm -- backward checking of reverse unit propagation, with deletions --
as one numba-compiled function over flat arrays:

* **Flat clause arena.** Every clause (formula, lemma, deletion) is a slice of one ``int32`` array
  of literal codes (``2 * var + negative``; ``int64`` beyond 2**30 variables), so a proof costs four
  bytes per literal instead of a Python object per literal. Text proofs are parsed straight into that array
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

The compiled function runs in a worker thread without the GIL; the calling thread reads its
progress counters from a shared array, reports them, and sets the stop flag there when the time
limit is up.

numba is an optional dependency (the ``fast`` extra); :func:`available` says whether it is installed.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np

from stratagem.solvers.drup_flat import FlatClauses, FlatProof, refuse_zero
from stratagem.solvers.drupverdict import (
    DrupProgress,
    DrupVerdict,
    empty_not_rup_reason,
    no_conflict_reason,
    not_rup_reason,
    stopped_reason,
)

try:  # numba is optional: without it the pure-Python checker is used
    import numba

    _jit: Any = numba.njit(cache=True, nogil=True)
except ImportError:  # pragma: no cover - exercised only where numba is missing
    numba = None  # type: ignore[assignment]
    _jit = None

__all__ = ["available", "check_flat"]


def available() -> bool:
    """Whether numba is installed, so that the compiled checker can run."""
    return numba is not None


# -- the compiled checker ----------------------------------------------------------------------------------------
#
# Literal codes are ``2 * var + negative`` over variables 1..nv-1. ``value[code]`` is 1 (true), -1 (false) or 0.
# Watch list ``code * 2 + core`` holds the entries watching literal ``code`` of unmarked (``core`` 0) or marked
# (``core`` 1) clauses. ``st`` holds the trail length, the end of the used watch pool and the pool-overflow flag.

#: Outcomes of :func:`_check_kernel` (``out[0]``).
_VALID = 0
_EMPTY_NOT_RUP = 1
_NO_CONFLICT = 2
_NOT_RUP = 3
_STOPPED = 4
_RESTORE_PROPAGATED = 5
_POOL_FULL = 6

#: Layout of the status array shared with the watcher thread.
_PHASE, _DONE, _STOP, _TOTAL = 0, 1, 2, 3
#: Phases in ``status[_PHASE]``.
_FORWARD, _BACKWARD = 1, 2
#: The stop flag is looked at once per this many proof steps.
_CLOCK_EVERY = 256


def _push(lst: int, blocker: int, code: int, stamp: int, lstart: np.ndarray, llen: np.ndarray, lcap: np.ndarray,
          pool: np.ndarray, st: np.ndarray) -> None:
    """Append the entry ``(blocker, code, stamp)`` to watch list ``lst``, moving the list to the pool's end if full.

    ``code`` is the clause id, or ``-(id + 1)`` for a binary clause. If the pool has no room, ``st[2]``
    is set and the entry is lost: the caller then gives up and the check is run again with a larger pool.
    """
    n = llen[lst]
    if n == lcap[lst]:
        room = max(4, 2 * n)
        end = st[1]
        if end + room > pool.shape[0]:
            st[2] = 1
            return
        old = lstart[lst]
        for i in range(n):
            pool[end + i, 0] = pool[old + i, 0]
            pool[end + i, 1] = pool[old + i, 1]
            pool[end + i, 2] = pool[old + i, 2]
        lstart[lst] = end
        lcap[lst] = room
        st[1] = end + room
    at = lstart[lst] + n
    pool[at, 0] = blocker
    pool[at, 1] = code
    pool[at, 2] = stamp
    llen[lst] = n + 1


def _compact(lstart: np.ndarray, llen: np.ndarray, lcap: np.ndarray, pool: np.ndarray, stamp: np.ndarray,
             st: np.ndarray) -> None:
    """Slide every watch list down the pool in order, dropping stale entries, so the free room is at the end."""
    write = 0
    for lst in np.argsort(lstart, kind="mergesort"):
        begin = lstart[lst]
        lstart[lst] = write
        for i in range(begin, begin + llen[lst]):
            code = pool[i, 1]
            cid = code if code >= 0 else -code - 1
            if pool[i, 2] == stamp[cid]:
                pool[write, 0] = pool[i, 0]
                pool[write, 1] = code
                pool[write, 2] = pool[i, 2]
                write += 1
        llen[lst] = write - lstart[lst]
        lcap[lst] = llen[lst]
    st[1] = write


def _assign(code: int, why: int, value: np.ndarray, reason: np.ndarray, position: np.ndarray, trail: np.ndarray,
            st: np.ndarray) -> None:
    var = code >> 1
    value[code] = 1
    value[code ^ 1] = -1
    reason[var] = why
    position[var] = st[0]
    trail[st[0]] = code
    st[0] += 1


def _backtrack(length: int, value: np.ndarray, reason: np.ndarray, trail: np.ndarray, st: np.ndarray,
               cone_marked: np.ndarray) -> None:
    for at in range(length, st[0]):
        code = trail[at]
        value[code] = 0
        value[code ^ 1] = 0
        reason[code >> 1] = -1
        cone_marked[code >> 1] = 0
    st[0] = length


def _propagate(head: int, lits: np.ndarray, cstart: np.ndarray, value: np.ndarray, reason: np.ndarray,
               position: np.ndarray, trail: np.ndarray, st: np.ndarray, stamp: np.ndarray, lstart: np.ndarray,
               llen: np.ndarray, lcap: np.ndarray, pool: np.ndarray) -> int:
    """Unit-propagate the trail from ``head``, marked clauses first; a falsified clause or -1.

    Each trail literal's marked list is visited as soon as it is on the trail; an unmarked list is
    visited only when no marked list is left, and that visit stops after its first assignment (the
    marked lists of the new literal go first), to go on from the same entry later. Entries kept slide
    down over dropped ones; when a visit stops early, the entries dropped so far are overwritten with
    stale ones (stamp -1) instead, so the list stays whole without moving its tail.

    This is the hot loop of the checker and is written as one function on purpose: numba counts
    references for every array handed to a helper, which cost half the time of a check when the
    list visit and the assignment were helpers.
    """
    core_head = head
    other_head = head
    resume = 0
    while True:
        if core_head < st[0]:
            false_lit = trail[core_head] ^ 1
            core = 1
            i = 0
        elif other_head < st[0]:
            false_lit = trail[other_head] ^ 1
            core = 0
            i = resume
        else:
            return -1
        lst = false_lit * 2 + core
        base = lstart[lst]
        n = llen[lst]
        keep = i
        stopped = False
        while i < n:
            at = base + i
            blocker = pool[at, 0]
            code = pool[at, 1]
            mark = pool[at, 2]
            i += 1
            if value[blocker] == 1:
                # Satisfied: kept without looking at the clause or its stamp (a stale entry kept
                # here is dropped the first time its blocker is not true).
                if keep != i - 1:
                    pool[base + keep, 0] = blocker
                    pool[base + keep, 1] = code
                    pool[base + keep, 2] = mark
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
                    pool[base + keep, 0] = other
                    pool[base + keep, 1] = code
                    pool[base + keep, 2] = mark
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
                            pool[lstart[target] + size, 0] = other
                            pool[lstart[target] + size, 1] = code
                            pool[lstart[target] + size, 2] = mark
                            llen[target] = size + 1
                        else:
                            _push(target, other, code, mark, lstart, llen, lcap, pool, st)
                        moved = True
                        break
                if moved:
                    continue
                blocker = other
            pool[base + keep, 0] = blocker
            pool[base + keep, 1] = code
            pool[base + keep, 2] = mark
            keep += 1
            if value[blocker] == -1:
                for rest in range(i, n):
                    pool[base + keep, 0] = pool[base + rest, 0]
                    pool[base + keep, 1] = pool[base + rest, 1]
                    pool[base + keep, 2] = pool[base + rest, 2]
                    keep += 1
                llen[lst] = keep
                return int(cid)
            # Assign the unit literal (as _assign does).
            var = blocker >> 1
            value[blocker] = 1
            value[blocker ^ 1] = -1
            reason[var] = cid
            position[var] = st[0]
            trail[st[0]] = blocker
            st[0] += 1
            if core == 0 and i < n:
                for gap in range(keep, i):
                    pool[base + gap, 2] = -1
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


def _watch(cid: int, core: int, lits: np.ndarray, cstart: np.ndarray, stamp: np.ndarray, lstart: np.ndarray,
           llen: np.ndarray, lcap: np.ndarray, pool: np.ndarray, st: np.ndarray) -> None:
    """Put entries for the two watched literals (positions 0 and 1) of clause ``cid`` on its lists."""
    begin = cstart[cid]
    first = lits[begin]
    second = lits[begin + 1]
    code = -cid - 1 if cstart[cid + 1] - begin == 2 else cid
    _push(first * 2 + core, second, code, stamp[cid], lstart, llen, lcap, pool, st)
    _push(second * 2 + core, first, code, stamp[cid], lstart, llen, lcap, pool, st)


def _mark(cid: int, lits: np.ndarray, cstart: np.ndarray, marked: np.ndarray, attached: np.ndarray,
          stamp: np.ndarray, lstart: np.ndarray, llen: np.ndarray, lcap: np.ndarray, pool: np.ndarray,
          st: np.ndarray) -> None:
    """Mark clause ``cid`` as used, moving its watches to the marked lists if it is attached."""
    if marked[cid]:
        return
    marked[cid] = 1
    if attached[cid] and cstart[cid + 1] - cstart[cid] >= 2:
        stamp[cid] += 1
        _watch(cid, 1, lits, cstart, stamp, lstart, llen, lcap, pool, st)


def _mark_cone(conflict: int, var: int, level: int, lits: np.ndarray, cstart: np.ndarray, reason: np.ndarray,
               position: np.ndarray, cone_marked: np.ndarray, marked: np.ndarray, attached: np.ndarray,
               seen: np.ndarray, stack: np.ndarray, touched: np.ndarray, stamp: np.ndarray, lstart: np.ndarray,
               llen: np.ndarray, lcap: np.ndarray, pool: np.ndarray, st: np.ndarray) -> None:
    """Mark ``conflict`` (unless -1) and every reason behind it or behind variable ``var`` (unless -1).

    Assignments at trail positions below ``level`` are the top level. Once the cone of such an
    assignment is marked it stays marked for as long as the assignment stays on the trail (its
    reasons are never deleted, and the trail is only cut back), so ``cone_marked`` records it and
    later conflicts do not walk it again.
    """
    top = 0
    count = 0
    if conflict >= 0:
        _mark(conflict, lits, cstart, marked, attached, stamp, lstart, llen, lcap, pool, st)
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
                _mark(why, lits, cstart, marked, attached, stamp, lstart, llen, lcap, pool, st)
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
            if not marked[why]:  # (tested here: a call costs reference counting on every array)
                _mark(why, lits, cstart, marked, attached, stamp, lstart, llen, lcap, pool, st)
            stack[top] = why
            top += 1
    for i in range(count):
        seen[touched[i]] = 0


def _attach(cid: int, lits: np.ndarray, cstart: np.ndarray, value: np.ndarray, reason: np.ndarray,
            position: np.ndarray, trail: np.ndarray, st: np.ndarray, marked: np.ndarray, attached: np.ndarray,
            stamp: np.ndarray, lstart: np.ndarray, llen: np.ndarray, lcap: np.ndarray, pool: np.ndarray) -> int:
    """Attach clause ``cid``, assigning its literal if it is unit; ``cid`` if it is falsified, else -1.

    The watches are two literals that are not false if there are two; otherwise the one that is not
    false and the false literal assigned last, so that cutting the trail back never leaves a false
    watch beside an unassigned one (as in the reference checker).
    """
    begin = cstart[cid]
    size = cstart[cid + 1] - begin
    attached[cid] = 1
    if size == 0:
        return cid
    if size == 1:
        lit = lits[begin]
        if value[lit] == 0:
            _assign(lit, cid, value, reason, position, trail, st)
        return cid if value[lit] == -1 else -1
    for w in range(2):  # selection: the best remaining literal goes to position w
        best = begin + w
        best_rank = -1
        for j in range(begin + w, begin + size):
            lit = lits[j]
            rank = st[0] + 1 if value[lit] != -1 else position[lit >> 1]
            if rank > best_rank:
                best = j
                best_rank = rank
        lit = lits[best]
        lits[best] = lits[begin + w]
        lits[begin + w] = lit
    _watch(cid, marked[cid], lits, cstart, stamp, lstart, llen, lcap, pool, st)
    first = lits[begin]
    if value[first] == -1:
        return cid
    if value[first] == 0 and value[lits[begin + 1]] == -1:
        _assign(first, cid, value, reason, position, trail, st)
    return -1


def _detach(cid: int, attached: np.ndarray, stamp: np.ndarray) -> None:
    """Take clause ``cid`` off the watch lists: its entries there are stale from now on."""
    attached[cid] = 0
    stamp[cid] += 1


def _is_reason(cid: int, lits: np.ndarray, cstart: np.ndarray, value: np.ndarray, reason: np.ndarray) -> bool:
    for j in range(cstart[cid], cstart[cid + 1]):
        lit = lits[j]
        if value[lit] == 1 and reason[lit >> 1] == cid:
            return True
    return False


def _clause_hash(cid: int, lits: np.ndarray, cstart: np.ndarray) -> int:
    """A hash of the clause's literal set: the same whatever the order of its literals."""
    total = (cstart[cid + 1] - cstart[cid]) * 0x2545F4914F6CDD1D
    for j in range(cstart[cid], cstart[cid + 1]):
        x = lits[j] * 0x1F3A4B5C6D7E8F91 + 0x165667B19E3779F9
        x = (x ^ (x >> 29)) * 0x3C79AC492BA7B653
        total += x ^ (x >> 32)
    return int(total)


def _normalize(lits: np.ndarray, cstart: np.ndarray, nv: int, tautology: np.ndarray) -> None:
    """Drop repeated literals from every clause (in place, compacting the arena) and flag tautologies."""
    stamp = np.zeros(2 * nv, dtype=np.int64)
    out = 0
    begin = cstart[0]
    for cid in range(len(cstart) - 1):
        end = cstart[cid + 1]
        cstart[cid] = out
        for j in range(begin, end):
            code = lits[j]
            if stamp[code] == cid + 1:
                continue
            if stamp[code ^ 1] == cid + 1:
                tautology[cid] = 1
            stamp[code] = cid + 1
            lits[out] = code
            out += 1
        begin = end
    cstart[len(cstart) - 1] = out


def _check_kernel(lits: np.ndarray, cstart: np.ndarray, originals: int, deletion: np.ndarray, nv: int,
                  pool_rows: int, status: np.ndarray, out: np.ndarray) -> None:
    """Check the proof whose steps are clauses ``originals..`` of the arena; results in ``out``.

    ``out`` = ``[outcome, step at fault, checked lemmas, core clauses]``. The watch lists share a pool
    of ``pool_rows`` entries; if that is too small the outcome is :data:`_POOL_FULL`.
    """
    st = np.zeros(3, dtype=np.int64)  # trail length, end of the used pool, pool overflow
    _check(lits, cstart, originals, deletion, nv, pool_rows, status, out, st)
    if st[2]:
        out[0] = _POOL_FULL


def _check(lits: np.ndarray, cstart: np.ndarray, originals: int, deletion: np.ndarray, nv: int, pool_rows: int,
           status: np.ndarray, out: np.ndarray, st: np.ndarray) -> None:
    clauses = len(cstart) - 1
    steps = clauses - originals
    tautology = np.zeros(clauses, dtype=np.uint8)
    _normalize(lits, cstart, nv, tautology)
    value = np.zeros(2 * nv, dtype=np.int8)
    reason = np.full(nv, -1, dtype=np.int64)
    position = np.zeros(nv, dtype=np.int64)
    trail = np.zeros(nv, dtype=np.int64)
    seen = np.zeros(nv, dtype=np.uint8)
    cone_marked = np.zeros(nv, dtype=np.uint8)
    stack = np.zeros(nv + 1, dtype=np.int64)
    touched = np.zeros(nv, dtype=np.int64)
    lstart = np.zeros(4 * nv, dtype=np.int64)
    llen = np.zeros(4 * nv, dtype=np.int64)
    lcap = np.zeros(4 * nv, dtype=np.int64)
    pool = np.zeros((pool_rows, 3), dtype=np.int32)
    clause_stamp = np.zeros(clauses, dtype=np.int64)
    marked = np.zeros(clauses, dtype=np.uint8)
    attached = np.zeros(clauses, dtype=np.uint8)
    step_clause = np.full(steps, -1, dtype=np.int64)
    trail_before = np.zeros(steps, dtype=np.int64)
    # Live clauses by literal set: open addressing on the hash, a chain of same-hash clauses behind each entry.
    size = 1
    while size < 2 * clauses + 2:
        size *= 2
    mask = size - 1
    table_key = np.zeros(size, dtype=np.int64)
    table_head = np.full(size, -1, dtype=np.int64)
    table_used = np.zeros(size, dtype=np.uint8)
    same_before = np.full(clauses, -1, dtype=np.int64)
    stamp = np.zeros(2 * nv, dtype=np.int64)  # literals of the deletion being matched
    out[0] = _VALID
    out[1] = -1
    out[2] = 0
    status[_PHASE] = _FORWARD
    status[_TOTAL] = steps

    conflict = -1
    conflict_step = -1
    for cid in range(originals + steps):
        if cid >= originals:
            step = cid - originals
            if step % _CLOCK_EVERY == 0:
                status[_DONE] = step
                if status[_STOP]:
                    out[0] = _STOPPED
                    return
        if st[1] > pool_rows - pool_rows // 4:
            _compact(lstart, llen, lcap, pool, clause_stamp, st)
            if st[1] > pool_rows // 2:
                st[2] = 1
        if st[2]:
            return
        if tautology[cid]:
            continue
        h = _clause_hash(cid, lits, cstart)
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
                if same and not _is_reason(copy, lits, cstart, value, reason):
                    if before < 0:
                        table_head[slot] = same_before[copy]
                    else:
                        same_before[before] = same_before[copy]
                    _detach(copy, attached, clause_stamp)
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
        head = st[0]
        if cid >= originals:
            step_clause[cid - originals] = cid
            trail_before[cid - originals] = head
        conflict = _attach(cid, lits, cstart, value, reason, position, trail, st, marked, attached, clause_stamp,
                           lstart, llen, lcap, pool)
        if conflict < 0:
            conflict = _propagate(head, lits, cstart, value, reason, position, trail, st, clause_stamp, lstart, llen,
                                  lcap, pool)
        if conflict >= 0:
            _mark_cone(conflict, -1, st[0], lits, cstart, reason, position, cone_marked, marked, attached, seen,
                       stack, touched, clause_stamp, lstart, llen, lcap, pool, st)
            if cid < originals:
                out[3] = marked[:originals].sum()
                return
            conflict_step = cid - originals
            break
    if conflict_step < 0:
        out[0] = _NO_CONFLICT
        return

    status[_PHASE] = _BACKWARD
    status[_TOTAL] = conflict_step + 1
    checked = 0
    for step in range(conflict_step, -1, -1):
        done = conflict_step - step
        if done % _CLOCK_EVERY == 0:
            status[_DONE] = done
            if status[_STOP]:
                out[0] = _STOPPED
                out[2] = checked
                out[3] = marked[:originals].sum()
                return
        if st[1] > pool_rows - pool_rows // 4:
            _compact(lstart, llen, lcap, pool, clause_stamp, st)
            if st[1] > pool_rows // 2:
                st[2] = 1
        if st[2]:
            return
        target = step_clause[step]
        if target < 0:
            continue
        if deletion[step]:
            length = st[0]
            if _attach(target, lits, cstart, value, reason, position, trail, st, marked, attached, clause_stamp,
                       lstart, llen, lcap, pool) >= 0 or st[0] != length:
                out[0] = _RESTORE_PROPAGATED
                out[1] = step
                return
            continue
        _backtrack(trail_before[step], value, reason, trail, st, cone_marked)
        _detach(target, attached, clause_stamp)
        if not marked[target]:
            continue
        checked += 1
        # Reverse unit propagation: assume the lemma false and propagate to a conflict.
        top = st[0]
        rup = False
        for j in range(cstart[target], cstart[target + 1]):
            lit = lits[j]
            if value[lit] == 1:
                _mark_cone(-1, lit >> 1, top, lits, cstart, reason, position, cone_marked, marked, attached, seen,
                           stack, touched, clause_stamp, lstart, llen, lcap, pool, st)
                rup = True
                break
            if value[lit] == 0:
                _assign(lit ^ 1, -1, value, reason, position, trail, st)
        if not rup:
            conflict = _propagate(top, lits, cstart, value, reason, position, trail, st, clause_stamp, lstart, llen,
                                  lcap, pool)
            if conflict >= 0:
                _mark_cone(conflict, -1, top, lits, cstart, reason, position, cone_marked, marked, attached, seen,
                           stack, touched, clause_stamp, lstart, llen, lcap, pool, st)
                rup = True
        _backtrack(top, value, reason, trail, st, cone_marked)
        if not rup:
            out[0] = _NOT_RUP
            out[1] = step
            out[2] = checked
            out[3] = marked[:originals].sum()
            return
    status[_DONE] = conflict_step + 1
    out[2] = checked
    out[3] = marked[:originals].sum()


if _jit is not None:
    _push = _jit(_push)
    _compact = _jit(_compact)
    _watch = _jit(_watch)
    _check = _jit(_check)
    _assign = _jit(_assign)
    _backtrack = _jit(_backtrack)
    _propagate = _jit(_propagate)
    _mark = _jit(_mark)
    _mark_cone = _jit(_mark_cone)
    _attach = _jit(_attach)
    _detach = _jit(_detach)
    _is_reason = _jit(_is_reason)
    _clause_hash = _jit(_clause_hash)
    _normalize = _jit(_normalize)
    _check_kernel = _jit(_check_kernel)


def _run_watched(codes: np.ndarray, starts: np.ndarray, originals: int, deletion: np.ndarray, nv: int,
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


def check_flat(formula: FlatClauses, proof: FlatProof, *, progress: DrupProgress | None = None,
               time_limit: float | None = None, pool_rows: int | None = None) -> DrupVerdict:
    """Check that ``proof`` refutes ``formula``, as :func:`stratagem.solvers.drup.check_drup` does.

    ``progress`` and ``time_limit`` work as there; progress is reported about ten times a second.
    ``pool_rows`` sets the first size of the watch pool (tests make it tiny to exercise its regrowth).
    """
    if numba is None:
        raise RuntimeError("the compiled DRUP checker needs numba (pip install 'stratagem[fast]')")
    started = time.perf_counter()
    originals = len(formula)
    if originals + len(proof) >= 1 << 30:
        raise ValueError(f"{originals + len(proof)} clauses: the compiled checker numbers clauses in 31 bits")
    refuse_zero(formula)
    refuse_zero(proof.clauses)
    lits = np.concatenate([formula.lits, proof.clauses.lits]).astype(np.int64, copy=False)
    starts = np.concatenate([formula.starts[:-1], proof.clauses.starts + formula.starts[-1]]).astype(np.int64)
    variables = np.abs(lits)
    if len(variables) and int(variables.max()) > 4 * len(variables) + 16:
        variables = np.unique(variables, return_inverse=True)[1].astype(np.int64) + 1  # dense renumbering
    nv = int(variables.max()) + 1 if len(variables) else 1
    codes = 2 * variables + (lits < 0)
    if nv < 1 << 30:
        codes = codes.astype(np.int32)  # half the memory, and of the traffic in clause visits
    del lits, variables
    deletion = proof.deletion.astype(np.uint8)
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
        reason = stopped_reason(time_limit or 0.0, phase, int(status[_DONE]), int(status[_TOTAL]))
        return DrupVerdict(False, reason, lemmas, checked, core, seconds, stopped=True, checker="compiled")
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
