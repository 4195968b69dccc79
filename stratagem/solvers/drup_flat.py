"""DRUP proofs and CNF formulas as flat arrays: the input of the compiled checker.

:mod:`~stratagem.solvers.drup_compiled` checks proofs of tens of millions of lines, which as Python
tuples would take tens of gigabytes. Here clauses become slices of one integer array
(:class:`FlatClauses`), a proof adds per step whether it deletes and its proof line (:class:`FlatProof`),
and a text DRUP proof is parsed straight into those arrays by a compiled scan (:func:`parse_drup_flat`)
without making a Python object per line. Whatever the scan does not accept goes through the reference
parser, :func:`stratagem.solvers.dimacs.parse_drup_lines`, so the grammar and the error messages are the
reference's.

This module is a kernel of the compiled core (``setup.py`` compiles it with Cython in its pure-Python
mode when the package is installed). Where it was not compiled, text goes through the reference parser
too, which is quicker than the scan run as plain Python (and the compiled checker is then not used).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cython
import numpy as np

if cython.compiled:
    from cython.cimports.libc.string import memchr

__all__ = ["FlatClauses", "FlatProof", "flat_clauses", "flat_proof", "parse_drup_flat", "refuse_zero"]


@dataclass(frozen=True)
class FlatClauses:
    """Clauses as DIMACS literals in one array: clause ``i`` is ``lits[starts[i]:starts[i + 1]]``."""

    lits: np.ndarray
    starts: np.ndarray

    def __len__(self) -> int:
        return len(self.starts) - 1


@dataclass(frozen=True)
class FlatProof:
    """Proof steps as :class:`FlatClauses` plus, per step, whether it deletes and its proof line."""

    clauses: FlatClauses
    deletion: np.ndarray
    line_numbers: np.ndarray

    def __len__(self) -> int:
        return len(self.deletion)


def flat_clauses(clauses: Sequence[Sequence[int]]) -> FlatClauses:
    """``clauses`` as a :class:`FlatClauses`; a zero literal raises :class:`ValueError` as in the reference."""
    sizes = np.fromiter((len(c) for c in clauses), dtype=np.int64, count=len(clauses))
    starts = np.zeros(len(clauses) + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    lits = np.fromiter((lit for c in clauses for lit in c), dtype=np.int64, count=int(starts[-1]))
    flat = FlatClauses(lits, starts)
    refuse_zero(flat)
    return flat


def refuse_zero(flat: FlatClauses) -> None:
    """Raise :class:`ValueError` naming the first clause with a zero literal, as the reference does."""
    if len(flat.lits) and not flat.lits.all():
        at = int(np.searchsorted(flat.starts, int(np.argmin(np.abs(flat.lits))), side="right")) - 1
        raise ValueError(f"literal 0 in clause {flat.lits[flat.starts[at]:flat.starts[at + 1]].tolist()}")


def flat_proof(steps: Sequence[tuple[bool, Sequence[int]]], line_numbers: Sequence[int] | None = None) -> FlatProof:
    """Proof ``steps`` (``(is_deletion, clause)`` pairs) as a :class:`FlatProof`."""
    deletion = np.fromiter((d for d, _ in steps), dtype=np.bool_, count=len(steps))
    numbers = np.arange(1, len(steps) + 1, dtype=np.int64) if line_numbers is None else np.asarray(line_numbers,
                                                                                                   dtype=np.int64)
    return FlatProof(flat_clauses([c for _, c in steps]), deletion, numbers)


#: Whether :func:`parse_drup_flat` reads text with the scan below (compiled) or with the reference parser.
_SCAN_TEXT: bool = bool(cython.compiled)


def _scan_text_drup(data: cython.const[cython.uchar][::1], fill: cython.bint,  # type: ignore[valid-type]
                    lits: cython.int[::1],
                    starts: cython.longlong[::1], deletion: cython.uchar[::1],
                    numbers: cython.longlong[::1]) -> tuple[int, int, int]:
    """One pass over a text DRUP proof: count steps and literals, or (``fill``) store them.

    Returns ``(steps, literals, bad_line)``; ``bad_line`` is 0 when the text is well formed, else the
    first malformed line, which the reference parser then reports in words. The scan runs without the GIL.
    """
    counted: cython.longlong[::1] = np.zeros(2, dtype=np.int64)
    bad: cython.longlong
    with cython.nogil:
        bad = _scan(data, fill, lits, starts, deletion, numbers, counted)
    return int(counted[0]), int(counted[1]), int(bad)


@cython.cfunc
@cython.nogil
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
def _counted(counted: cython.longlong[::1], steps: cython.longlong, count: cython.longlong,
             bad: cython.longlong) -> cython.longlong:
    """Store the counts of a scan in ``counted`` (two entries) and hand on its bad line."""
    counted[0] = steps
    counted[1] = count
    return bad


@cython.cfunc
@cython.nogil
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
def _scan(data: cython.const[cython.uchar][::1], fill: cython.bint,  # type: ignore[valid-type]
          lits: cython.int[::1],
          starts: cython.longlong[::1], deletion: cython.uchar[::1], numbers: cython.longlong[::1],
          counted: cython.longlong[::1]) -> cython.longlong:
    """The scan of :func:`_scan_text_drup`: the bad line or 0; ``counted`` gets the steps and literals.

    Indexes: ``data`` only below ``end`` <= its length; the outputs (filled only on the second pass, with
    arrays sized by the first) below the step and literal counts of the first pass.
    """
    size: cython.Py_ssize_t = len(data)
    at: cython.Py_ssize_t = 0
    line: cython.longlong = 0
    steps: cython.Py_ssize_t = 0
    count: cython.Py_ssize_t = 0
    end: cython.Py_ssize_t
    i: cython.Py_ssize_t
    first: cython.Py_ssize_t
    digits: cython.int
    value: cython.longlong
    is_deletion: cython.bint
    closed: cython.bint
    negative: cython.bint
    found: cython.p_void
    start: cython.p_char = cython.NULL
    if cython.compiled and size:
        start = cython.cast(cython.p_char, cython.address(data[0]))
    while at < size:
        line += 1
        if cython.compiled:  # the C library's search for the line's end, many bytes at a time
            found = memchr(cython.address(data[at]), 10, size - at)
            end = size if found == cython.NULL else cython.cast(cython.p_char, found) - start
        else:
            end = at
            while end < size and data[end] != 10:
                end += 1
        i = at
        while i < end and (data[i] == 32 or data[i] == 9 or data[i] == 13):
            i += 1
        if i == end or data[i] == 99:  # blank line or comment ('c')
            at = end + 1
            continue
        is_deletion = False
        if data[i] == 100:  # 'd'
            is_deletion = True
            i += 1
            if i < end and not (data[i] == 32 or data[i] == 9):
                return _counted(counted, steps, count, line)
        first = count
        closed = False
        while True:
            while i < end and (data[i] == 32 or data[i] == 9 or data[i] == 13):
                i += 1
            if i == end:
                break
            if closed:
                return _counted(counted, steps, count, line)  # something after the closing 0
            negative = False
            if data[i] == 45:  # '-'
                negative = True
                i += 1
            digits = 0
            value = 0
            while i < end and 48 <= data[i] <= 57:
                value = value * 10 + (data[i] - 48)
                digits += 1
                i += 1
                if digits > 10:
                    return _counted(counted, steps, count, line)
            if digits == 0 or (i < end and not (data[i] == 32 or data[i] == 9 or data[i] == 13)):
                return _counted(counted, steps, count, line)
            if digits > 1 and data[i - digits] == 48:  # a leading zero: the reference parser words the refusal
                return _counted(counted, steps, count, line)
            if value == 0:
                closed = True
                continue
            if value > 2147483647:
                return _counted(counted, steps, count, line)
            if fill:
                lits[count] = -value if negative else value
            count += 1
        if not closed or (is_deletion and count == first):
            return _counted(counted, steps, count, line)
        if fill:
            starts[steps + 1] = count
            deletion[steps] = is_deletion
            numbers[steps] = line
        steps += 1
        at = end + 1
    return _counted(counted, steps, count, 0)


def parse_drup_flat(data: bytes, source: str) -> FlatProof:
    """A text or binary DRUP proof as a :class:`FlatProof`, with the grammar of ``parse_drup_lines``.

    Text is parsed by compiled code in two passes (count, then fill), its literals into ``int32`` (the scan
    leaves larger ones to the reference parser: 74 MB, not 149, for the level-2 example's 18.6 million); binary
    DRAT and malformed text go through :func:`stratagem.solvers.dimacs.parse_drup_lines`, which names the place
    at fault (its literals, from Python ints, are ``int64``).
    """
    from stratagem.solvers.dimacs import parse_drup_lines

    if data[:1] == b"a" or b"\0" in data or not _SCAN_TEXT or not data.isascii():
        return flat_proof(*parse_drup_lines(data, source))
    empty = np.zeros(0, dtype=np.int64)
    steps, count, bad = _scan_text_drup(data, False, np.zeros(0, dtype=np.int32), empty, np.zeros(0, dtype=np.uint8),
                                        empty)
    if bad:
        # The reference parser stops at the first malformed line and words the error; text it accepts
        # but the compiled scan does not (``+5``, literals beyond 32 bits, rare line breaks) it parses whole.
        return flat_proof(*parse_drup_lines(data, source))
    lits = np.zeros(count, dtype=np.int32)  # the scan takes literals up to 2^31 - 1: half the memory of int64
    starts = np.zeros(steps + 1, dtype=np.int64)
    deletion = np.zeros(steps, dtype=np.bool_)
    numbers = np.zeros(steps, dtype=np.int64)
    _scan_text_drup(data, True, lits, starts, deletion.view(np.uint8), numbers)
    return FlatProof(FlatClauses(lits, starts), deletion, numbers)
