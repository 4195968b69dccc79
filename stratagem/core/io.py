"""Reading puzzle files and writing records, with every problem located by file and key.

Puzzle files are hand-written TOML; records (lines, proofs, analyses) are JSON with sorted keys and
no timestamps, so the same input always gives byte-identical output. Files are written atomically:
a failed run never leaves half a file behind.

Every file read here is held to the input limits below (docs/formats.md, "Input limits") before any
game code sees it, so a hostile or broken file costs a bounded amount of memory and time and fails with
one line naming the file, the place and the limit, never with a Python error from deep inside a parser.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import math
import os
import re
import signal
import stat
import tempfile
import tomllib
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from stratagem.core.errors import BadArgument, BadInput, check_termination
from stratagem.core.interrupt import signals_held

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


def open_regular(path: str | Path) -> BinaryIO:
    """``path`` opened for reading in binary, or :class:`BadInput` saying why not.

    Only a regular file is read: a FIFO, a terminal or a device could block forever or never end, so it
    is refused at once. The file is opened without blocking and checked by its descriptor (not by its
    name first, which another process could change in between)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
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


#: A lone UTF-16 surrogate: what Python decodes a byte of a file name that is not UTF-8 to (surrogateescape).
_SURROGATE = re.compile("[\ud800-\udfff]")


def utf8(text: str) -> bytes:
    """``text`` as the UTF-8 bytes of a file, a lone surrogate (a byte of a path that is not UTF-8) written as
    its ``\\uXXXX`` escape, which is how JSON spells it and reads it back: strict encoding stopped
    ``solve --proof``, ``--html``, ``export`` and ``sweep --out`` with an internal error (exit 70) on such a
    puzzle path, which the records and pages name."""
    return text.encode("utf-8", "backslashreplace")


def escape_surrogates(text: str) -> str:
    """JSON ``text`` with every lone surrogate written as its ``\\uXXXX`` escape (only string contents can
    hold one). A path that is not UTF-8 (``c\\xff.toml``, read as ``'c\\udcff.toml'``) made a record that
    UTF-8 cannot encode: ``solve --proof`` stopped with an internal error and ``--json`` wrote a byte that
    is not UTF-8. Escaped, the record is UTF-8 and reads back to the same path."""
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def dumps_record(record: dict[str, Any]) -> str:
    """The canonical JSON text of a record: sorted keys, two-space indent, trailing newline; non-ASCII
    characters as they are, lone surrogates escaped (:func:`escape_surrogates`)."""
    return escape_surrogates(json.dumps(record, sort_keys=True, indent=2, ensure_ascii=False)) + "\n"


def file_mode() -> int:
    """The permissions an ordinary ``open`` would give a new file: 0o666 less the process umask.

    ``mkstemp`` makes its files private (0o600); a record renamed into place from one would stay so,
    unlike every other file the user writes. (The umask is read by setting and restoring it.)"""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _same_file(one: str, other: str) -> bool:
    """Whether two paths name one file: by name, or through another spelling or a link. A path through a
    directory that is not there (``sub/../x`` with no ``sub``) names no file, though it resolves to one."""
    if not (Path(one).parent.is_dir() and Path(other).parent.is_dir()):
        return False
    if Path(one).resolve() == Path(other).resolve():
        return True
    with contextlib.suppress(OSError):
        return os.path.samefile(one, other)
    return False


def check_not_an_input(path: str, inputs: Sequence[str], option: str) -> None:
    """Refuse an output path that is one of the command's input files (by name or as the same file through
    another name or a link): writing it would replace what the command reads, before anyone can compare."""
    for given in inputs:
        if _same_file(path, given):
            raise BadInput(path, option, f"is the input file {given}; give another file")


def check_outputs(outputs: Sequence[tuple[str | None, str]], inputs: Sequence[str]) -> None:
    """Refuse, before any work, each output (path, option) that cannot be written (:func:`check_writable`),
    that is one of the ``inputs``, or that another output names too (a ``--proof`` and an ``--html`` of one
    file: the page replaced the proof). ``None`` outputs are not asked for."""
    for number, (path, option) in enumerate(outputs):
        if path is None:
            continue
        check_not_an_input(path, inputs, option)
        for other, other_option in outputs[:number]:
            if other is not None and _same_file(path, other):
                raise BadInput(path, option, f"is also the {other_option} file; give each its own")
        check_writable(path, option)


def check_writable(path: str, option: str, appends: bool = False) -> None:
    """Refuse an output path that cannot be written, before any work is done.

    ``option`` names the command-line option (``--proof``, ``--out``) or the API's parameter (``table``;
    :class:`~stratagem.core.errors.BadArgument`) in the message. The path must be
    a file name (not empty, not a directory), must not be something a rename would clobber (a device,
    a pipe, a symbolic link such as ``/dev/stdout``), and its directory must exist and take a new file:
    that last part is tried for real, with a temporary file removed at once, because permission bits do
    not say whether a file system (``/proc``, a read-only mount) accepts it. ``appends``: the output is
    appended to the file a line at a time (a sweep's results), which the refusal of a pipe says. A file
    no one may write (mode 0444) is refused too: a rename replaces it whatever its mode, so a result kept
    read-only on purpose was silently replaced (and root's permission check passes every file).
    """
    if not path:
        raise BadArgument("<argument>", option, "an empty file name")
    target = Path(path)
    if target.is_dir():
        raise BadArgument(path, option, "is a directory; give a file name")
    if target.is_symlink() or (target.exists() and not target.is_file()):
        how = ("records are appended to it and read back on resume" if appends
               else "the output replaces the file it is written to")
        raise BadArgument(path, option, f"is not a regular file ({how})")
    if target.exists() and not target.stat().st_mode & 0o222:  # the rename would replace it all the same
        raise BadArgument(path, option, "is read-only (no one may write it), and the output would replace it: "
                          "make it writable (chmod u+w) or give another file")
    parent = target.parent
    if not parent.is_dir():
        problem = "is not a directory" if parent.exists() else "does not exist"
        raise BadArgument(path, option, f"cannot write: the directory {str(parent)!r} {problem}")
    failed = _probe(parent, f".{target.name}.")
    if failed is not None:
        raise BadArgument(path, option, f"cannot create a file in {str(parent)!r} ({failed.strerror or failed})")


def check_writable_dir(path: str, option: str) -> None:
    """Refuse an output directory that cannot be made or written in, before any work is done.

    The directory may not exist yet (the command makes it); then its nearest existing ancestor must
    take new entries. As in :func:`check_writable`, that is tried with a temporary file."""
    if not path:
        raise BadArgument("<argument>", option, "an empty directory name")
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise BadArgument(path, option, "exists and is not a directory")
    existing = folder
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise BadArgument(path, option, f"cannot make the directory: {str(existing)!r} is not a directory")
    failed = _probe(existing, ".stratagem.")
    if failed is not None:
        raise BadArgument(path, option, f"cannot create a file in {str(existing)!r} ({failed.strerror or failed})")


#: The signals that end a run (Ctrl-C, and SIGTERM, which ``stratagem`` turns into an exception).
_STOPPING = {signal.SIGINT, signal.SIGTERM}


def _probe(directory: Path, prefix: str) -> OSError | None:
    """Whether ``directory`` takes a new file, tried with a temporary ``PREFIXXXXX.probe`` removed at once;
    the error when it does not. Ctrl-C and SIGTERM wait until the probe is gone (held back, then raised as
    usual): a signal between its making and its removal left it behind."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)
    try:
        try:
            fd, probe = tempfile.mkstemp(prefix=prefix, suffix=".probe", dir=directory)
        except OSError as exc:
            return exc
        os.close(fd)
        os.unlink(probe)
        return None
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def write_atomic(path: str | Path, text: str | bytes) -> None:
    """Write ``text`` (or bytes, such as an image) to ``path``: readers see the old file or the whole new one.

    The text goes to a temporary file ``.NAME.XXXX`` beside ``path``, which then replaces it; if
    anything goes wrong, including an interruption (Ctrl-C, or SIGTERM, which ``stratagem`` turns into
    an exception), the temporary file is removed and ``path`` is untouched. The file gets the usual
    permissions (:func:`file_mode`). A file system error becomes :class:`BadInput` naming ``path``.
    """
    data = utf8(text) if isinstance(text, str) else text
    write_atomic_with(path, lambda handle: handle.write(data))


def write_atomic_with(path: str | Path, fill: Callable[[BinaryIO], object]) -> None:
    """:func:`write_atomic` of what ``fill`` writes to the binary handle it is given (a file too large to
    hold in memory first, such as a value table of millions of rows)."""
    tmp = _temporary_with(path, fill)
    pending = _PENDING.get()
    if pending is not None:  # inside one_set(): put in place with the set's other files
        pending.append((tmp, path))
        return
    try:
        check_termination()
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise write_error(path, exc) from None
        raise


def write_atomic_files(files: Sequence[tuple[str | Path, str | bytes]]) -> None:
    """Write several files that belong together (a proof record and the CNF and DRUP proof it names by
    their SHA-256, a PDDL domain and its problem, a report's tables and plots) as one: readers see the old
    set or the whole new one.

    Each file's text goes to its own temporary file first (as :func:`write_atomic`); only when every one
    is whole are they renamed into place, in the order given (a record last, after the files it names),
    with Ctrl-C and SIGTERM held back until the last rename. A full disk, a failed write or an interruption
    before then removes every temporary file and leaves every earlier file untouched: writing them one by
    one, a disk that filled up at the second left a new CNF beside the old record, which then failed
    ``verify``. Errors are those of :func:`write_atomic`, naming the file that failed. (A rename that
    fails part way, in a directory that has just taken the temporary files, leaves those before it.)
    """
    with one_set():
        for path, text in files:
            write_atomic(path, text)


#: The files written so far inside :func:`one_set` (temporary name, target), waiting to be put in place.
_PENDING: ContextVar[list[tuple[str, str | Path]] | None] = ContextVar("stratagem_pending_writes", default=None)


@contextlib.contextmanager
def one_set() -> Iterator[None]:
    """Every file written atomically in the body (:func:`write_atomic`, :func:`write_atomic_with`,
    :func:`write_atomic_files`) is written to its temporary file as usual, but put in place only when the
    body ends without an exception: all of them together, with Ctrl-C and SIGTERM held back until the
    last rename. Otherwise none is, and every temporary file is removed.

    For the outputs of one answer written by different code (``solve --proof P --html H``: the library
    writes the record, the command the page): a full disk at the page replaced the proof and left the old
    page beside it (exit 74), where a failed run is to leave every earlier file untouched. Nested, the
    body's files belong to the outer set. The files are not there to be read back inside the body."""
    if _PENDING.get() is not None:
        yield
        return
    pending: list[tuple[str, str | Path]] = []
    token = _PENDING.set(pending)
    try:
        try:
            yield
        finally:
            _PENDING.reset(token)
        check_termination()
        with signals_held():
            while pending:
                tmp, path = pending[0]
                try:
                    os.replace(tmp, path)
                except OSError as exc:
                    raise write_error(path, exc) from None
                pending.pop(0)
    finally:
        for tmp, _ in pending:
            Path(tmp).unlink(missing_ok=True)


def _temporary_with(path: str | Path, fill: Callable[[BinaryIO], object]) -> str:
    """A temporary file ``.NAME.XXXX`` beside ``path`` holding what ``fill`` wrote, with the usual
    permissions (:func:`file_mode`); its name. On any failure it is removed, and an :class:`OSError`
    becomes the error :func:`write_atomic` raises (naming ``path``)."""
    target = Path(path)
    if not target.name:
        raise BadInput(str(path) or "<argument>", "", "not a file name")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise write_error(path, exc) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), file_mode())
            fill(handle)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise write_error(path, exc) from None
        raise
    return tmp


#: The errors of a write that failed for want of room or of a working device: not the input, not a bug
#: (``stratagem`` exits 74, "the output could not be written").
WRITE_FAILURES = (errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG)


def write_error(path: str | Path, exc: OSError) -> Exception:
    """What a failed write of ``path`` is: a full disk, a quota or an I/O error stays an :class:`OSError`
    (exit 74), naming the file; any other failure (a folder that is not there, no permission) is
    :class:`BadInput` (exit 2)."""
    if exc.errno in WRITE_FAILURES:
        return OSError(exc.errno, f"{path}: {exc.strerror or exc}")
    return BadInput(str(path), "", f"cannot write: {exc.strerror or exc}")
