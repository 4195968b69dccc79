"""CaDiCaL's binary DRAT proof as the DRUP text a certificate holds, in memory proportionate to the proof.

PySAT has CaDiCaL write its proof in binary DRAT to a temporary file, and its ``get_proof()`` turns that
into a Python list of one ``str`` per proof line, byte by byte in Python. A refutation of millions of
lines (the level-2 example's designer par: 3 million lines, 16.9 MB as gzip) then lived as such lists,
pickled from the solver's child process, joined into text once for the check and once more for the file
(the command peaked at 1.7 GB; 1.5 GB without those copies, the rest being the checker's arrays and the
designer graph: docs/design.md, section 11). Here the binary file is read as bytes and turned into the text
in chunks by numpy (:func:`drat_text_chunks`), and a certificate keeps that text as one bytes object
(:class:`DrupText`): checked from those bytes, hashed and compressed from the same bytes. The text is
byte for byte what joining ``get_proof()``'s lines, each ending in a newline, gave (including its
reading of a proof cut short), so records written before and after are the same.

The binary encoding: each step is ``a`` (a lemma) or ``d`` (a deletion), then its literals, each a
variable-length integer (seven bits a byte, least significant first, the high bit set on every byte but
the last) of ``2 * variable + (1 if negative)``, then a zero byte. No other byte is zero.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

__all__ = ["DrupText", "drat_text", "drat_text_chunks", "gathered"]

#: Bytes of binary proof turned into text at a time: numpy's working arrays take some 100 bytes per byte of
#: it, 12-15 MB whatever the proof's size (a CaDiCaL proof of 8 MB binary, 18.5 MB text: 12.5 MB over the
#: text at 128 KB, 29 MB at 256 KB, 106 MB at 1 MB, in about the same CPU time).
CHUNK = 1 << 17

_ADD = ord("a")
_DELETE = ord("d")
_POWERS = 10 ** np.arange(20, dtype=np.uint64)


@dataclass(frozen=True)
class DrupText:
    """A DRUP proof as the text its file holds (``data``: ASCII, each line ending in a newline) and its
    number of lines. ``len()`` is the lines and iterating gives them as ``str`` without their newline,
    as the list of lines a refutation held before, so a caller that counted or joined those still does."""

    data: bytes
    lines: int

    def __len__(self) -> int:
        return self.lines

    def __iter__(self) -> Iterator[str]:
        data, start = self.data, 0
        while start < len(data):
            end = data.find(b"\n", start)
            if end < 0:
                end = len(data)
            yield data[start:end].decode("ascii")
            start = end + 1


def _decode(chunk: memoryview) -> bytes:
    """The text of ``chunk``: whole steps of binary DRAT, each ending in its zero byte."""
    raw = np.frombuffer(chunk, dtype=np.uint8)
    ends = np.flatnonzero(raw == 0)
    heads = np.empty(len(ends), dtype=np.int64)
    heads[0] = 0
    heads[1:] = ends[:-1] + 1
    kinds = raw[heads]
    if not np.all((kinds == _ADD) | (kinds == _DELETE)):
        bad = int(heads[np.flatnonzero((kinds != _ADD) & (kinds != _DELETE))[0]])
        raise ValueError(f"binary DRAT proof: a step begins with byte {raw[bad]}, not 'a' or 'd'")
    deleting = kinds == _DELETE
    body = np.ones(len(raw), dtype=bool)
    body[ends] = False
    body[heads] = False
    where = np.flatnonzero(body)  # the literals' bytes, in order
    values = raw[where]
    last = values < 0x80  # the last byte of each literal
    # Literal i is the bytes firsts[i] .. lasts[i] of ``values``; each byte's place in its literal.
    lasts = np.flatnonzero(last)
    firsts = np.empty(len(lasts), dtype=np.int64)
    if len(lasts):
        firsts[0] = 0
        firsts[1:] = lasts[:-1] + 1
    literal_of: np.ndarray = np.cumsum(last) - last
    place = np.arange(len(values), dtype=np.int64) - firsts[literal_of]
    if len(values) and int(place.max()) > 8:
        raise ValueError("binary DRAT proof: a literal of more than 63 bits")
    shifted = (values & 0x7F).astype(np.uint64) << (7 * place).astype(np.uint64)
    coded = np.add.reduceat(shifted, firsts) if len(firsts) else np.zeros(0, dtype=np.uint64)
    magnitude = coded >> np.uint64(1)
    # variable 0 (no solver writes it) is "0", as PySAT wrote it (str(-0))
    negative = (((coded & np.uint64(1)) == 1) & (magnitude > 0)).astype(np.int64)
    digits = np.searchsorted(_POWERS, magnitude, side="right")
    digits[magnitude == 0] = 1
    # Each step's text: "d " for a deletion, then each literal and a space, then "0\n".
    step_of_literal = np.searchsorted(ends, where[lasts])
    lengths = negative + digits + 1
    per_step = np.bincount(step_of_literal, weights=lengths, minlength=len(ends)).astype(np.int64)
    per_step += 2 + 2 * deleting
    step_start = np.zeros(len(ends), dtype=np.int64)
    np.cumsum(per_step[:-1], out=step_start[1:])
    out = np.full(int(per_step.sum()), ord(" "), dtype=np.uint8)
    out[step_start[deleting]] = _DELETE
    closing = step_start + per_step
    out[closing - 2] = ord("0")
    out[closing - 1] = ord("\n")
    # A literal's text starts after its step's prefix and the literals before it in the step.
    before = np.cumsum(lengths) - lengths
    first_literal = np.searchsorted(step_of_literal, step_of_literal)  # of the literal's step
    at = step_start[step_of_literal] + 2 * deleting[step_of_literal] + before - before[first_literal]
    out[at[negative == 1]] = ord("-")
    units = at + negative + digits - 1  # where the last digit goes
    rest = magnitude.copy()
    live = np.arange(len(rest))
    for _ in range(20):
        out[units[live]] = (rest[live] % 10).astype(np.uint8) + ord("0")
        rest[live] //= 10
        units[live] -= 1
        live = live[rest[live] > 0]
        if not len(live):
            break
    return out.tobytes()


def _tail(tail: bytes) -> bytes:
    """The text PySAT's ``get_proof()`` made of a last step cut short (no zero byte ending it): a lemma
    with no whole literal became ``0``, anything else nothing."""
    if tail[:1] == bytes([_ADD]) and all(byte >= 0x80 for byte in tail[1:]):
        return b"0\n"
    return b""


def drat_text_chunks(binary: bytes, chunk: int = CHUNK) -> Iterator[bytes]:
    """The DRUP text of the binary DRAT proof ``binary``, in pieces of about ``chunk`` bytes of binary each.

    Equal, joined, to ``"".join(line + "\\n" for line in get_proof())`` in PySAT: the same reading,
    including ``get_proof``'s strip of ASCII white space at either end and its ``0`` for a lemma cut
    short. A step that begins with neither ``a`` nor ``d`` raises :class:`ValueError` (PySAT's raised
    an ``AssertionError``)."""
    binary = binary.strip()
    view = memoryview(binary)
    start = 0
    size = len(binary)
    while start < size:
        end = binary.rfind(b"\0", start, min(size, start + chunk))
        if end < 0:  # a step longer than a chunk: take it whole
            end = binary.find(b"\0", start + chunk)
            if end < 0:
                break
        yield _decode(view[start:end + 1])
        start = end + 1
    if start < size:
        tail = binary[start:]
        if tail[:1] not in (b"a", b"d"):
            raise ValueError(f"binary DRAT proof: a step begins with byte {tail[0]}, not 'a' or 'd'")
        text = _tail(tail)
        if text:
            yield text


def gathered(pieces: Iterator[bytes]) -> DrupText:
    """``pieces`` of DRUP text as one :class:`DrupText`. Gathered in a :class:`io.BytesIO`, whose value is its
    own buffer (grown in place, where the C library remaps large blocks), not a copy: the text is held once,
    where joining a list of the pieces held it twice."""
    buffer = io.BytesIO()
    for piece in pieces:
        buffer.write(piece)
    data = buffer.getvalue()
    return DrupText(data, data.count(b"\n"))


def drat_text(binary: bytes) -> DrupText:
    """The binary DRAT proof ``binary`` as :class:`DrupText` (:func:`drat_text_chunks`)."""
    return gathered(drat_text_chunks(binary))
