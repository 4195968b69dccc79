"""Reading puzzle files and records, with every problem located by file and key.

Puzzle files are hand-written TOML; records (lines, proofs, analyses) are JSON. Writing them (canonical
JSON, atomic files) is :mod:`stratagem.core.outputs`.

Every file read here is held to the input limits below (docs/formats.md, "Input limits") before any
game code sees it, so a hostile or broken file costs a bounded amount of memory and time and fails with
one line naming the file, the place and the limit, never with a Python error from deep inside a parser.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import stat
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from stratagem.core.errors import BadInput

T = TypeVar("T")

# -- input limits (docs/formats.md, "Input limits") -------------------------------------------------

#: A puzzle or position file is written by hand: the largest shipped one is under 3 KB, so 1 MiB is
#: several hundred times more than any real puzzle and still parses in well under a second.
MAX_PUZZLE_BYTES = 1 << 20
#: A JSON record (line, proof, proof tree, LP certificate). Proof trees hold about 150 bytes a node, so
#: 64 MiB is a tree of some 400,000 nodes, far beyond what `analyze --proof` writes for the shipped
#: positions (kilobytes), while a parsed record still fits in well under a gigabyte of memory.
MAX_RECORD_BYTES = 64 << 20
#: Tables and arrays inside tables and arrays. The formats nest at most about six levels (a proof
#: record's claim, a matrix proof's rows); 64 is ten times that and far from Python's recursion limit,
#: which a deeper file would otherwise hit inside the TOML or JSON parser.
MAX_NESTING = 64
#: TOML integers are 64-bit signed (TOML 1.0); JSON records hold nothing larger either (counts, seeds,
#: card numbers). Python would accept any size, and a 5000-digit number does not even convert.
MAX_INT = 2**63 - 1
MIN_INT = -(2**63)
#: The largest seed (of a deal, a match, a search): seeds are written into records and TOML files,
#: which hold 64-bit integers, so a larger one would make a file that no loader accepts.
MAX_SEED = MAX_INT
#: What a seed may be, for messages.
SEED_RANGE = f"seeds are whole numbers from 0 to {MAX_SEED} (2^63-1)"
#: The largest count or number an agent or search parameter may be (MCTS iterations, PIMC samples,
#: games in a match). Ten million MCTS iterations a move is already hours of play; a larger count (a
#: 50-digit one ran forever) is a typing mistake, refused in one line.
MAX_PARAMETER = 10_000_000
#: Digits in a row inside a string (a position's notation, a deal name, a table key such as a Stack
#: Attack card number, an exact fraction in a proof). Notations need a few; exact values in proof trees
#: and LP certificates (``"9/16"``) can grow long denominators, so the limit is a generous 1000, which
#: still keeps every number a notation parser reads with ``int`` below Python's 4300-digit limit.
MAX_DIGIT_RUN = 1000

#: Characters in a table key. Keys are names (``limit``, ``wind_crosses_tornado``) or short numbers (a
#: Stack Attack card); 100 keeps every message that quotes a key path on one readable line.
MAX_KEY_LENGTH = 100

#: Characters in one string of a file (a position's or a move's notation, a name, a file name). The longest
#: the commands write are positions of a few hundred characters (a proof tree's STAKD states: 160); 64 Ki
#: is a hundred times more, and keeps a record from carrying a string of megabytes into the parsers and
#: into the messages that quote it (a 10 MB move was a 10 MB line on stderr and 20 MB on stdout).
MAX_STRING_CHARS = 1 << 16

_DIGIT_RUN = re.compile(rf"\d{{{MAX_DIGIT_RUN + 1},}}")


def read_capped(handle: BinaryIO, max_bytes: int) -> bytes:
    """At most ``max_bytes + 1`` bytes of ``handle``, read in pieces (one read of the whole limit would
    allocate it all up front): one byte more than the limit says the file is too large.

    The pieces go into one growing buffer whose bytes are handed over without a copy: a list of pieces
    joined at the end held the file twice, so a gzip bomb read to the 1 GiB limit of a proof file took
    2.1 GB."""
    buffer = io.BytesIO()
    left = max_bytes + 1
    while left > 0:
        chunk = handle.read(min(left, 1 << 20))
        if not chunk:
            break
        buffer.write(chunk)
        left -= len(chunk)
    return buffer.getvalue()


def first_line_format(path: str | Path) -> object:
    """The ``format`` of the JSON object on the first line of ``path`` (at most 1 MiB read), or ``None``.

    For telling a JSON Lines file (a sweep's results) from a record after the record's reader refused it,
    so the file may be anything: only a regular file is opened (a FIFO blocked ``view`` for good), and a
    first line nested thousands deep (Python's recursion limit, exit 70 before) is no such file either."""
    try:
        with open_regular(path) as handle:
            first = json.loads(handle.readline(1 << 20))
    except (BadInput, OSError, ValueError, RecursionError):
        return None
    return first.get("format") if isinstance(first, dict) else None


#: ``os.open``'s flag for a descriptor that does not wait (POSIX), 0 where there is none (Windows).
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
#: ``os.open``'s flag for a descriptor without newline translation (Windows), 0 where all are so (POSIX).
_BINARY = getattr(os, "O_BINARY", 0)


def open_regular(path: str | Path) -> BinaryIO:
    """``path`` opened for reading in binary, or :class:`BadInput` saying why not.

    Only a regular file is read: a FIFO, a terminal or a device could block forever or never end, so it
    is refused at once. The file is opened without blocking and checked by its descriptor (not by its
    name first, which another process could change in between).

    Portable: Windows has neither ``O_NONBLOCK`` (nor a FIFO to block on) nor ``os.set_blocking`` before
    Python 3.12, and its ``os.open`` makes a text-mode descriptor unless told ``O_BINARY`` (reads then turn
    CR LF into LF and stop at a Ctrl-Z byte, so a puzzle's bytes and digest would differ): both flags are
    given where they exist. Before, the missing ``O_NONBLOCK`` stopped every command that reads a file."""
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _BINARY)
    except FileNotFoundError:
        raise BadInput(str(path), "", "no such file") from None
    except IsADirectoryError:
        raise BadInput(str(path), "", "is a directory, not a file") from None
    except OSError as exc:
        raise BadInput(str(path), "", f"cannot read: {exc.strerror or exc}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        what = "a directory" if stat.S_ISDIR(mode) else "not a regular file (a pipe, a device or a socket)"
        raise BadInput(str(path), "", f"is {what}: give a file")
    if _NONBLOCK:
        os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def read_text(path: str | Path, max_bytes: int = MAX_RECORD_BYTES) -> str:
    """A regular file's UTF-8 text, or :class:`BadInput` saying why it cannot be read (or that it is larger
    than ``max_bytes``: the file is read no further than that, whatever its kind)."""
    try:
        with open_regular(path) as handle:
            data = read_capped(handle, max_bytes)
    except OSError as exc:
        raise BadInput(str(path), "", f"cannot read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise BadInput(str(path), "", f"larger than the {_size(max_bytes)} this kind of file may have "
                       "(docs/formats.md, Input limits)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise BadInput(str(path), f"line {line}", "not UTF-8 text") from None


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


def _line_of_long_number(text: str) -> str:
    """The place of the first number too long to convert (what makes the parsers raise ValueError)."""
    match = re.search(r"\d{4000,}", text)
    if match is None:
        return ""
    return f"line {text.count(chr(10), 0, match.start()) + 1}"


class ReadStopped(Exception):
    """A parse's ``stop`` said to stop (a command's time limit ran out while it read a record)."""


#: How many JSON objects parsed, or values walked, between two calls of a parse's ``stop``.
STOP_EVERY = 4096


def _every(stop: Callable[[], bool] | None) -> Callable[[], None]:
    """A tick that calls ``stop`` every :data:`STOP_EVERY` ticks and raises :class:`ReadStopped` when it says
    so (a tick that does nothing without ``stop``)."""
    if stop is None:
        return lambda: None
    count = 0

    def tick() -> None:
        nonlocal count
        count += 1
        if count % STOP_EVERY == 0 and stop():
            raise ReadStopped

    return tick


def check_limits(data: Any, source: str, stop: Callable[[], bool] | None = None) -> None:
    """Refuse parsed data that breaks the input limits: nesting deeper than :data:`MAX_NESTING`, an
    integer outside 64 bits, a string longer than :data:`MAX_STRING_CHARS` or with more than
    :data:`MAX_DIGIT_RUN` digits in a row, or a table key longer than :data:`MAX_KEY_LENGTH`. ``source``
    names the file in the message; the place is the key path. ``stop`` is asked now and then whether to
    give up (:class:`ReadStopped`)."""
    path: list[str] = []
    tick = _every(stop)

    def where() -> str:
        return "".join(path).lstrip(".")

    def walk(value: Any, depth: int) -> None:
        tick()
        if isinstance(value, dict | list):
            if depth >= MAX_NESTING:
                raise BadInput(source, where(), f"nested more than {MAX_NESTING} levels deep "
                               "(docs/formats.md, Input limits)")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str):
                    if len(key) > MAX_KEY_LENGTH:
                        raise BadInput(source, where(), f"a key of {len(key)} characters (at most {MAX_KEY_LENGTH}): "
                                       f"{key[:20]!r}...")
                    path.append(f".{key}")
                else:
                    path.append(f"[{key}]")
                walk(item, depth + 1)
                path.pop()
        elif isinstance(value, int) and not isinstance(value, bool):
            if not MIN_INT <= value <= MAX_INT:
                raise BadInput(source, where(), f"an integer of {value.bit_length()} bits: numbers are at most "
                               "64-bit (-2^63 to 2^63-1)")
        elif isinstance(value, str):
            if len(value) > MAX_STRING_CHARS:
                raise BadInput(source, where(), f"a string of {len(value):,} characters (at most {MAX_STRING_CHARS:,}; "
                               "docs/formats.md, Input limits)")
            if _DIGIT_RUN.search(value):
                raise BadInput(source, where(), f"more than {MAX_DIGIT_RUN} digits in a row (no number in these "
                               "files is that long)")

    walk(data, 0)


def _parser_limit(exc: RecursionError | ValueError, source: str, text: str) -> BadInput:
    """What a parser's own limit means to a user: nesting too deep, or an integer of thousands of digits
    (Python's int conversion limit, a ValueError)."""
    if isinstance(exc, RecursionError):
        return BadInput(source, "", f"nested more than {MAX_NESTING} levels deep (docs/formats.md, Input limits)")
    return BadInput(source, _line_of_long_number(text), "a number of thousands of digits: numbers are at most 64-bit")


def load_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file, turning every failure into :class:`BadInput` naming the file and line."""
    source = str(path)
    # A byte-order mark (as some Windows editors save UTF-8) is not TOML: tomllib refused it as "Invalid
    # statement" at line 1, column 1, a message that points nowhere near the cause. It carries nothing.
    text = read_text(path, MAX_PUZZLE_BYTES).removeprefix("\ufeff")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        place = f"line {match.group(1)}, column {match.group(2)}" if match else ""
        problem = re.sub(r"\s*\(at line \d+, column \d+\)", "", message) or "malformed TOML"
        raise BadInput(source, place, f"malformed TOML: {problem}") from None
    except (RecursionError, ValueError) as exc:
        raise _parser_limit(exc, source, text) from None
    check_limits(data, source)
    return data


class _NonFinite(Exception):
    """``NaN``, ``Infinity`` or a float literal too large for a double, met while parsing JSON."""


def _non_finite(name: str) -> float:
    raise _NonFinite(name)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NonFinite(text)
    return value


class RepeatedKey(ValueError):
    """A key given twice in one JSON object, met while parsing (:func:`loads_once`); its text is the key."""


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different: a record with a key twice says two things, and a reader
    that keeps the first would see another record than the one checked (Python keeps the last)."""
    data = dict(pairs)
    if len(data) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RepeatedKey(key)
            seen.add(key)
    return data


def loads_once(text: str | bytes, stop: Callable[[], bool] | None = None, **options: Any) -> Any:
    """``json.loads`` that refuses a key given twice in one object (:class:`RepeatedKey`); ``stop`` is
    asked every :data:`STOP_EVERY` objects whether to give up (:class:`ReadStopped`)."""
    if stop is None:
        return json.loads(text, object_pairs_hook=_once_each, **options)
    tick = _every(stop)

    def once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        tick()
        return _once_each(pairs)

    return json.loads(text, object_pairs_hook=once_each, **options)


def parse_json_object(text: str, source: str, line: int | None = None,
                      stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """A JSON object from ``text`` (the whole of ``source``, or its line ``line``), every failure a
    :class:`BadInput`: malformed JSON, ``NaN`` or ``Infinity``, a key given twice in one object, a parser's
    own limit (nesting, a number of thousands of digits), or anything past :func:`check_limits`. ``stop``
    (a command's deadline) is asked now and then while a large record is parsed and checked: when it says
    so, :class:`ReadStopped`."""
    here = "" if line is None else f"line {line}"
    try:
        data = loads_once(text, stop, parse_constant=_non_finite, parse_float=_finite_float)
    except _NonFinite as exc:
        raise BadInput(source, here, f"{str(exc)[:40]} is not a finite number (records hold none)") from None
    except RepeatedKey as exc:
        raise BadInput(source, here, f"the key {str(exc)[:40]!r} is given twice in one object (a record says each "
                       "thing once)") from None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno if line is None else line}, column {exc.colno}"
        raise BadInput(source, where, f"malformed JSON: {exc.msg}") from None
    except (RecursionError, ValueError) as exc:
        limit = _parser_limit(exc, source, text)
        raise (limit if line is None else BadInput(source, here, limit.problem)) from None
    if not isinstance(data, dict):
        raise BadInput(source, here, "a record must be a JSON object")
    check_limits(data, source, stop)
    return data


def load_json(path: str | Path, stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Parse a JSON record, turning every failure into :class:`BadInput` (:func:`parse_json_object`; ``stop``
    as there)."""
    return parse_json_object(read_text(path), str(path), stop=stop)


class Section:
    """A TOML table with typed accessors that report ``file: key.path: problem`` on every mistake."""

    def __init__(self, data: dict[str, Any], source: str, path: str = "") -> None:
        self.data = data
        self.source = source
        self.path = path

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def error(self, key: str, problem: str) -> BadInput:
        return BadInput(self.source, self.where(key), problem)

    def has(self, key: str) -> bool:
        return key in self.data

    def get(self, key: str, kind: type[T], default: T | None = None, *, required: bool = False) -> T:
        """The value at ``key``, checked to be of ``kind`` (bool is never accepted as int)."""
        if key not in self.data:
            if required or default is None:
                raise self.error(key, "missing")
            return default
        value = self.data[key]
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if not ok:
            raise self.error(key, f"must be {_kind_name(kind)}, not {_kind_name(type(value))}")
        return value  # type: ignore[no-any-return]

    def seed(self, key: str = "seed", default: int | None = None, *, required: bool = False) -> int:
        """A seed at ``key``: a whole number from 0 to :data:`MAX_SEED`. Not a negative one: Python's
        ``random.Random(-5)`` is ``random.Random(5)``, so it would deal its positive twin's game."""
        value = self.get(key, int, default, required=required)
        if value < 0:
            raise self.error(key, f"{SEED_RANGE}, not {value}: a negative seed deals its positive twin's game")
        return value

    def table(self, key: str) -> Section:
        value = self.get(key, dict)
        return Section(value, self.source, self.where(key))

    def tables(self, key: str) -> list[Section]:
        value = self.get(key, list)
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                raise BadInput(self.source, f"{self.where(key)}[{i}]", "must be a table")
            out.append(Section(item, self.source, f"{self.where(key)}[{i}]"))
        return out

    def reject_unknown(self, allowed: set[str]) -> None:
        """Unknown keys are errors: a misspelt option must never be silently ignored."""
        for key in self.data:
            if key not in allowed:
                raise self.error(key, f"unknown key (expected one of: {', '.join(sorted(allowed))})")


def _kind_name(kind: type) -> str:
    return {
        int: "an integer",
        str: "a string",
        bool: "true or false",
        list: "an array",
        dict: "a table",
        float: "a number",
    }.get(kind, kind.__name__)
