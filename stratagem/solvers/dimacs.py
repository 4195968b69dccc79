"""DIMACS CNF and DRUP proof text: writing, strict parsing, and gzip-transparent file access.

The SAT-based proofs of this project ("no plan of length k-1 exists") are handed to a reader as two
files: the formula in DIMACS CNF and the solver's refutation in DRUP. This module is the plain text
layer under :mod:`stratagem.solvers.drup`: it knows the formats, not what a proof means.

* :func:`write_dimacs` / :func:`parse_dimacs` -- the ``p cnf`` format. The parser is strict: the
  header must come before any clause and agree with what follows, every clause ends with ``0``,
  and every literal names a declared variable. A malformed file raises
  :class:`~stratagem.core.errors.BadInput` naming the line.
* :func:`parse_drup` -- one proof step per line, ``l1 l2 ... 0`` for an added lemma and
  ``d l1 l2 ... 0`` for a deletion; a line ``0`` adds the empty clause. Blank lines and lines
  starting with ``c`` are skipped. Bytes in the binary DRAT encoding (``a``/``d`` byte, then
  variable-length literals, then a zero byte; what CaDiCaL writes before PySAT translates it) are
  read too. Lemmas may use variables the formula does not declare (DRAT allows extension
  variables), so proof literals are not range-checked against the formula; only their size is
  (at most :data:`MAX_LITERAL`, what the compiled checker's 64-bit arrays hold).
* :func:`read_bytes_maybe_gz`, :func:`read_text_maybe_gz` / :func:`write_text_maybe_gz` -- a path
  ending in ``.gz`` is gzip-compressed; writing is atomic (a temporary file in the same directory,
  then :func:`os.replace`), so an interrupted run never leaves half a proof behind.
"""

from __future__ import annotations

import gzip
import os
import re
from collections.abc import Callable, Iterable, Sequence
from typing import BinaryIO

from stratagem.core.errors import BadInput
from stratagem.core.io import open_regular, read_capped
from stratagem.core.outputs import utf8, write_atomic_with

#: The most bytes a CNF or DRUP file may hold once decompressed (docs/formats.md, "Input limits"). The
#: refutations of the shipped puzzles are a few megabytes; 1 GiB leaves room for proofs hundreds of times
#: longer while a gzip bomb of a few kilobytes cannot make ``verify`` hold more than that in memory.
MAX_PROOF_BYTES = 1 << 30

#: The largest magnitude a proof literal may have: a 64-bit signed integer's (and not its negative end,
#: whose magnitude it cannot hold). The compiled checker keeps literals in 64-bit arrays; a literal beyond
#: them stopped it with an internal OverflowError where the reference checker answered.
MAX_LITERAL = (1 << 63) - 1
_TOO_LARGE = f"a literal beyond {MAX_LITERAL} in size (a 64-bit integer)"

__all__ = [
    "Clause",
    "data_maybe_gz",
    "DimacsStopped",
    "ProofStep",
    "parse_dimacs",
    "parse_drup",
    "parse_drup_lines",
    "read_bytes_maybe_gz",
    "read_text_maybe_gz",
    "text_maybe_gz",
    "write_dimacs",
    "write_text_maybe_gz",
]

#: A clause: nonzero DIMACS literals, ``v`` for a variable and ``-v`` for its negation.
Clause = tuple[int, ...]
#: One proof step: ``(is_deletion, clause)``.
ProofStep = tuple[bool, Clause]


class DimacsStopped(Exception):
    """:func:`write_dimacs` was stopped by its ``stop`` test; no text was returned."""


#: How many clauses :func:`write_dimacs` writes between two asks of its stop test.
_CLAUSES_PER_STOP_TEST = 1 << 16


def write_dimacs(clauses: Sequence[Sequence[int]], num_vars: int, comments: Iterable[str] = (),
                 stop: Callable[[], bool] | None = None) -> str:
    """The DIMACS CNF text of ``clauses`` over variables ``1..num_vars``, comment lines first.

    Each comment becomes one ``c`` line per line of its text. Raises :class:`ValueError` on a zero
    literal or one whose variable exceeds ``num_vars``, since such a file would not parse back.
    ``stop`` (a :class:`~stratagem.core.deadline.Deadline` will do) is asked every 65,536 clauses; when it
    answers true, :class:`DimacsStopped` is raised: tens of millions of clauses take seconds to write.
    """
    if num_vars < 0:
        raise ValueError(f"num_vars must not be negative, got {num_vars}")
    out: list[str] = []
    for comment in comments:
        for line in comment.splitlines() or [""]:
            out.append(f"c {line}".rstrip() + "\n")
    out.append(f"p cnf {num_vars} {len(clauses)}\n")
    for index, clause in enumerate(clauses):
        if stop is not None and not index % _CLAUSES_PER_STOP_TEST and stop():
            raise DimacsStopped(f"stopped after {index} of {len(clauses)} clauses")
        for lit in clause:
            if lit == 0 or abs(lit) > num_vars:
                raise ValueError(f"clause {index}: literal {lit} is not in 1..{num_vars} or its negation")
        out.append(" ".join([*map(str, clause), "0"]) + "\n")
    return "".join(out)


#: An integer as DIMACS and DRUP write it: ASCII digits with an optional sign, no leading zero. int() alone
#: also took other scripts' digits ('٣') and underscores ('1_0'), which no other reader of these formats
#: takes; and drat-trim reads literals with C's ``%i``, for which ``010`` is octal 8 (``0x10`` is 16), so a
#: leading zero would make a proof read as one proof here and as another there.
_INTEGER = re.compile(r"[+-]?(?:0|[1-9][0-9]*)")
_LEADING_ZERO = re.compile(r"[+-]?0[0-9]+")


def _int_token(token: str, source: str, place: str) -> int:
    """``token`` as an integer, or :class:`BadInput` naming ``place``."""
    if not _INTEGER.fullmatch(token):
        shown = repr(token) if len(token) <= 40 else repr(token[:40]) + "..."
        if _LEADING_ZERO.fullmatch(token):
            raise BadInput(source, place, f"an integer with a leading zero, {shown}: drat-trim reads it as an "
                           "octal number; write it without the zero")
        raise BadInput(source, place, f"expected an integer, found {shown}")
    if len(token) > 100:  # int() refuses more than 4,300 digits with a ValueError; no count or literal needs 100
        raise BadInput(source, place, _TOO_LARGE)
    return int(token)


def parse_dimacs(text: str, source: str) -> tuple[int, list[Clause]]:
    """``(num_vars, clauses)`` from DIMACS CNF text; ``source`` names the text in error messages.

    Comment lines (``c ...``) may appear anywhere; a line starting with ``%`` ends the formula (the
    SATLIB convention). A clause may span lines. Raises :class:`BadInput` with the line number on a
    missing, repeated or malformed header, a token that is not an integer, a literal outside the
    declared variables, a clause not ended by ``0``, or a clause count that differs from the header.
    """
    num_vars: int | None = None
    declared = 0
    header_line = 0
    clauses: list[Clause] = []
    current: list[int] = []
    current_line = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        place = f"line {number}"
        if not line or line.startswith("c"):
            continue
        if line.startswith("%"):
            break
        if line.startswith("p"):
            fields = line.split()
            if num_vars is not None:
                raise BadInput(source, place, f"second header line (the first is line {header_line})")
            if len(fields) != 4 or fields[0] != "p" or fields[1] != "cnf":
                raise BadInput(source, place, f"expected a header 'p cnf VARIABLES CLAUSES', found {line!r}")
            num_vars = _int_token(fields[2], source, place)
            declared = _int_token(fields[3], source, place)
            if num_vars < 0 or declared < 0:
                raise BadInput(source, place, "the header's counts must not be negative")
            header_line = number
            continue
        if num_vars is None:
            raise BadInput(source, place, "clause before the header line 'p cnf VARIABLES CLAUSES'")
        for token in line.split():
            lit = _int_token(token, source, place)
            if lit == 0:
                clauses.append(tuple(current))
                current = []
                continue
            if abs(lit) > num_vars:
                raise BadInput(source, place, f"literal {lit} names a variable above the declared {num_vars}")
            if not current:
                current_line = number
            current.append(lit)
    if num_vars is None:
        raise BadInput(source, "", "no header line 'p cnf VARIABLES CLAUSES'")
    if current:
        raise BadInput(source, f"line {current_line}", "the last clause is not ended by 0")
    if len(clauses) != declared:
        raise BadInput(
            source, f"line {header_line}", f"the header declares {declared} clauses, the file has {len(clauses)}"
        )
    return num_vars, clauses


def parse_drup_lines(proof: str | bytes | Iterable[str], source: str) -> tuple[list[ProofStep], list[int]]:
    """The steps of a DRUP proof and, for each step, the line it came from (1-based).

    ``proof`` is the proof text, a sequence of lines (such as PySAT's ``get_proof()``), or bytes --
    text or the binary encoding, told apart by a leading ``a`` or a zero byte, which no text proof has.
    For binary input the "line" of a step is its 1-based position among the steps, and errors name
    the byte offset. Raises :class:`BadInput` on a malformed step.
    """
    if isinstance(proof, bytes | bytearray):
        if proof[:1] == b"a" or 0 in proof:
            return _parse_binary_drup(bytes(proof), source)
        try:
            proof = proof.decode("ascii")
        except UnicodeDecodeError:
            raise BadInput(source, "", "proof is neither text nor binary DRAT") from None
    lines = proof.splitlines() if isinstance(proof, str) else proof
    steps: list[ProofStep] = []
    numbers: list[int] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        place = f"line {number}"
        tokens = line.split()
        deletion = tokens[0] == "d"
        if deletion:
            tokens = tokens[1:]
        lits = [_int_token(token, source, place) for token in tokens]
        if lits and max(map(abs, lits)) > MAX_LITERAL:
            raise BadInput(source, place, _TOO_LARGE)
        if not lits or lits[-1] != 0:
            raise BadInput(source, place, "a proof step must end with 0")
        if 0 in lits[:-1]:
            raise BadInput(source, place, "0 inside a proof step (one step per line)")
        if deletion and len(lits) == 1:
            raise BadInput(source, place, "deletion of the empty clause")
        steps.append((deletion, tuple(lits[:-1])))
        numbers.append(number)
    return steps, numbers


def parse_drup(proof: str | bytes | Iterable[str], source: str) -> list[ProofStep]:
    """The steps ``(is_deletion, clause)`` of a DRUP proof; see :func:`parse_drup_lines`."""
    return parse_drup_lines(proof, source)[0]


def _parse_binary_drup(data: bytes, source: str) -> tuple[list[ProofStep], list[int]]:
    """Steps of a binary DRAT proof: ``a``/``d``, literals as 7-bit groups (low first), zero byte.

    A literal ``l`` is stored as ``2 * |l| + (l < 0)``, each byte carrying seven bits and a high bit
    that says more bytes follow.
    """
    steps: list[ProofStep] = []
    at = 0
    size = len(data)
    while at < size:
        kind = data[at]
        if kind not in (0x61, 0x64):
            raise BadInput(source, f"byte {at}", f"expected 'a' or 'd' to start a step, found byte {kind}")
        start = at
        at += 1
        lits: list[int] = []
        while True:
            if at >= size:
                raise BadInput(source, f"byte {start}", "step not ended by a zero byte")
            if data[at] == 0:
                at += 1
                break
            code = 0
            shift = 0
            while True:
                if at >= size:
                    raise BadInput(source, f"byte {start}", "step not ended by a zero byte")
                byte = data[at]
                at += 1
                code |= (byte & 0x7F) << shift
                shift += 7
                if not byte & 0x80:
                    break
                if shift > 64:  # longer than any literal of MAX_LITERAL's size
                    raise BadInput(source, f"byte {start}", _TOO_LARGE)
            if code >> 1 > MAX_LITERAL:
                raise BadInput(source, f"byte {start}", _TOO_LARGE)
            if code < 2:
                raise BadInput(source, f"byte {at - 1}", f"literal code {code} names no variable")
            lits.append(-(code >> 1) if code & 1 else code >> 1)
        if kind == 0x64 and not lits:
            raise BadInput(source, f"byte {start}", "deletion of the empty clause")
        steps.append((kind == 0x64, tuple(lits)))
    return steps, list(range(1, len(steps) + 1))


def read_bytes_maybe_gz(path: str | os.PathLike[str]) -> bytes:
    """The bytes of ``path``, decompressed first if its name ends in ``.gz``.

    A file that cannot be read, or larger than :data:`MAX_PROOF_BYTES` once decompressed, raises
    :class:`BadInput` naming the path.
    """
    name = os.fspath(path)
    try:
        with open_regular(name) as plain:  # a pipe or a device is refused, never waited on
            if name.endswith(".gz"):
                with gzip.GzipFile(fileobj=plain, mode="rb") as handle:
                    data = read_capped(handle, MAX_PROOF_BYTES)  # type: ignore[arg-type]
            else:
                data = read_capped(plain, MAX_PROOF_BYTES)
    except (OSError, EOFError) as error:  # gzip.BadGzipFile is an OSError
        raise BadInput(name, "", f"cannot read: {error}") from None
    if len(data) > MAX_PROOF_BYTES:
        raise BadInput(name, "", f"more than {MAX_PROOF_BYTES >> 20} MiB (decompressed): larger than a CNF or "
                       "proof file may be (docs/formats.md, Input limits)")
    return data


def read_text_maybe_gz(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of ``path``, decompressed first if its name ends in ``.gz``.

    A file that cannot be read or decoded raises :class:`BadInput` naming the path.
    """
    try:
        return read_bytes_maybe_gz(path).decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadInput(os.fspath(path), "", f"cannot read: {error}") from None


def text_maybe_gz(path: str | os.PathLike[str], text: str) -> bytes:
    """The bytes :func:`write_text_maybe_gz` writes to ``path``: ``text`` in UTF-8, gzip-compressed if the
    name ends in ``.gz`` (a header without a timestamp, so the same text gives the same bytes). For
    :func:`~stratagem.core.outputs.write_atomic_files`, which writes a proof's files as one set."""
    return data_maybe_gz(path, utf8(text))  # a comment naming a puzzle path that is not UTF-8 keeps it escaped


#: The gzip level of the files written: zlib's own default. Python's ``gzip.compress`` defaults to 9, which
#: on the level-2 example's 101 MB designer proof took 15.5 CPU s for 16.93 MB, where 6 takes 4.6 s for
#: 17.07 MB (stop 69). The records hold the SHA-256 of the text, not of the ``.gz``, so no digest changes.
GZIP_LEVEL = 6


def data_maybe_gz(path: str | os.PathLike[str], data: bytes) -> bytes:
    """:func:`text_maybe_gz` of text already encoded (``data``), such as a DRUP proof's
    (:class:`~stratagem.solvers.drattext.DrupText`), without a copy of it."""
    return gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0) if os.fspath(path).endswith(".gz") else data


def write_text_maybe_gz(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``, gzip-compressed if the name ends in ``.gz``, atomically.

    :func:`~stratagem.core.outputs.write_atomic_with`: the data goes to a temporary file beside ``path`` which
    then replaces it, so a reader sees the old file or the complete new one (also when interrupted: the
    temporary file is removed), with the permissions an ordinary ``open`` would give it. A full disk or an
    I/O error stays an :class:`OSError` naming ``path`` (the CLI's exit 74, as for every output), any other
    file system error becomes :class:`BadInput` naming it. The data is flushed to disk before the rename.
    """
    data = text_maybe_gz(path, text)

    def fill(out: BinaryIO) -> None:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())

    write_atomic_with(os.fspath(path), fill)
