"""The results file of a sweep and its records: one ``stratagem/sweep@1`` record a line (docs/formats.md,
"Sweep records"), their keys, which of a deal's records counts, and the file read and appended to whole
lines at a time (a torn last line dropped with a note, anything else that is not a record refused).

:mod:`stratagem.sweep` writes it; :mod:`stratagem.sweepreport` reads it.

Why one module of over 600 lines: it is the one format, ``stratagem/sweep@1`` and the file that holds it;
which record counts, what a record must hold to be read, and how the file is read and appended to change
together whenever a field is added, and both the sweep and the report take all of them from here.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import importlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from stratagem.core.errors import BadArgument, BadInput, NotationError
from stratagem.core.io import MAX_SEED, SEED_RANGE, RepeatedKey, loads_once, open_regular
from stratagem.core.numbers import is_whole
from stratagem.core.outputs import check_writable, escape_surrogates, utf8, write_error
from stratagem.core.records import parse_fraction, quoted
from stratagem.loading import GAMES
from stratagem.models.strato.rules.cards import COPIES_PER_WEATHER, WEATHERS
from stratagem.models.strato.rules.notation import parse_move

#: The format name of a sweep record (docs/formats.md, "Sweep records").
SWEEP_FORMAT = "stratagem/sweep@1"

#: The statuses a record may have, as :func:`stratagem.solving.solve` gives them.
STATUSES = ("solved", "unsolvable", "unknown")

#: The longest line a results file may hold. A record is under a few KB (its line is at most a few
#: dozen moves); anything longer is not a record of ours, and is refused before it is parsed.
MAX_LINE_BYTES = 1 << 20

#: The largest results file read (some 740,000 records of 1.4 KB). ``report`` reads it and holds none of its
#: records (:class:`ResultsRecords`): a few fields of each deal's best record, under 0.5 KB a deal at its peak
#: (for a 210 MB file of 353,364 deals, 250 MB in stop 62, where holding the records took 549 MB; 166 MB RSS
#: in stop 63 with no key object a deal, against 198 MB for stop 62's code on that machine), so under 1 GB at
#: this cap (some 1.8 million records of the shipped sweep's size). :func:`read_results` holds them, their
#: strings shared, at some 1.45 times the file.
MAX_RESULTS_BYTES = 1 << 30

#: The most turns a Strato record's lengths may hold: every turn plays a card of the box.
MAX_TURNS = COPIES_PER_WEATHER * len(WEATHERS)

#: The most tasks one sweep may plan, open or hidden (``--count`` has the same cap). A record is some 1.4 KB
#: (its provenance most of it), so a results file of :data:`MAX_RESULTS_BYTES` holds some 740,000: room for
#: the largest sweep run about three times over (a retry appends its records). At ten million tasks, a
#: sweep wrote a file that its own resume and ``report`` refused past its first 740,000 records.
MAX_TASKS = 250_000


class SettingsMismatch(BadInput):
    """A sweep would add deals with other settings (time limit) than the records already in the file."""


def task_key(puzzle_sha256: str, players: int | None, seed: int | None, method: str) -> str:
    """The key of a task (and of its records): the deal and the method, one string compared as is. The
    time limit is not part of it: a deal run again with another limit is the same deal."""
    return json.dumps([puzzle_sha256, players, seed, method])


def record_key(record: Mapping[str, Any]) -> str:
    """The key of a record, as :meth:`Task.key` gives it for the task that made it."""
    return task_key(record["puzzle_sha256"], record["players"], record["seed"], record["method"])


def outcome_rank(record: dict[str, Any]) -> int:
    """How well established a record's answer is, for choosing among the records of one deal: 3 an
    optimum or an unsolvability with a certificate that ``verify`` re-checks (other games: ``solved``),
    2 one resting on a search alone, 1 a line found but its optimality open, 0 nothing decided."""
    status = record.get("status")
    if record.get("game", "strato") != "strato":
        return 3 if status == "solved" else 0
    if status in ("solved", "unsolvable"):
        return 3 if record.get("certificate") else 2
    return 1 if record.get("best_length") is not None else 0


def proven_floor(record: dict[str, Any]) -> Fraction:
    """What an undecided record proves, for choosing between two of one deal (the one that proves more is
    the better established): a hidden-pile odds record's lower end, an open Strato record's lower bound on
    any winning line; 0 for any other record."""
    if record.get("status") != "unknown":
        return Fraction(0)
    odds = record.get("odds")
    if isinstance(odds, dict):
        return Fraction(odds.get("low") or 0)
    if record.get("game", "strato") == "strato" and isinstance(record.get("lower_bound"), int):
        return Fraction(record["lower_bound"])
    return Fraction(0)


def games_played(record: dict[str, Any]) -> int:
    """The games a hidden sweep's agent record played (0 for any other record)."""
    team = record.get("team")
    return int(team.get("played") or 0) if isinstance(team, dict) else 0


def standing(record: dict[str, Any]) -> tuple[int, Fraction]:
    """How well established a record is among the records of its deal (the same key, so the same kind):
    an agent record by the games it played (more games, a better estimate, whether or not the limit
    stopped it), any other by :func:`outcome_rank` and then, for undecided odds, :func:`proven_floor`."""
    if isinstance(record.get("team"), dict):
        return games_played(record), Fraction(0)
    return outcome_rank(record), proven_floor(record)


def best_records(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """One record per key: the best-established one (:func:`standing`), the latest among equals.

    Not simply the latest: a retry on a busier machine, or with a shorter limit, may stop where an
    earlier run decided the deal, or prove less than it did, and what was proven stays proven; a
    certificate outranks a search; an agent's record of more games outranks one of fewer. Among equally
    established records the latest counts (a retry with a longer limit comes later)."""
    best: dict[str, dict[str, Any]] = {}
    for record in records:
        key = record_key(record)
        if key not in best or standing(record) >= standing(best[key]):
            best[key] = record
    return best


def version_label(name: str, digest: str) -> str:
    """A challenge's name when a results file holds two versions of its puzzle (a card edited between two
    runs): ``NAME (SHA8)``, the first 8 hex digits of that version's SHA-256, in every report and card."""
    return f"{name} ({digest[:8]})"


#: The Strato methods whose answers can carry a certificate that ``verify`` re-checks
#: (:mod:`stratagem.models.strato.solve`): ``bfs``, ``astar``, ``idastar`` and ``cpsat`` answer by a search
#: alone, so running their deals again (``--retry-uncertified``) cannot certify them.
CERTIFYING_METHODS = frozenset({"relaxed", "sat", "auto"})


def retry_may_certify(record: Mapping[str, Any]) -> bool:
    """Whether running an uncertified record's task again may give it a certificate: its method can."""
    return uncertified(record) and record.get("method") in CERTIFYING_METHODS


def uncertified(record: Mapping[str, Any]) -> bool:
    """A Strato record whose answer (an optimum, or unsolvability) rests on a search alone: no certificate
    that ``verify`` re-checks (``certificate`` is null). Hidden-information records claim no optimum."""
    return (record.get("game", "strato") == "strato" and record.get("information", "open") == "open"
            and record.get("status") in ("solved", "unsolvable")
            and not record.get("certificate"))


def dumps_line(record: dict[str, Any]) -> str:
    """A record as one line of JSON (sorted keys, no spaces), newline included; a lone surrogate (a puzzle
    path that is not UTF-8) escaped, as in every record (:func:`~stratagem.core.outputs.escape_surrogates`)."""
    return escape_surrogates(json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)) + "\n"


class ResultsFile:
    """A JSON Lines file of sweep records, read to learn what is done and appended to whole lines at a time.

    :meth:`check` reads and checks the file (another format, a malformed line other than the last, a line
    longer than :data:`MAX_LINE_BYTES`, or something that is not a regular file is :class:`BadInput`:
    the file is not ours to change); a last line without its newline is kept when it is a whole record,
    and dropped (as torn) when it is the beginning of one. :meth:`open` opens it for appending.

    From :meth:`check` to :meth:`close` the file is this run's: an exclusive lock on ``PATH.lock`` beside
    it (``flock``, so a run that dies lets go of it; ``msvcrt.locking`` on Windows) refuses a second sweep
    into the same file, which read the same records and ran the same tasks again. :meth:`close` removes
    the lock file. Both files are opened binary, so a record's line ends in LF on Windows too.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.records: list[dict[str, Any]] = []
        self.torn: str | None = None
        self._fd: int | None = None
        self._good_bytes = 0
        self._needs_newline = False
        self._lock: int | None = None
        self._made = False  # open() made the file: close() removes it if no record went in

    @property
    def lock_path(self) -> str:
        """The lock file that marks the results file as being written by a sweep (:meth:`check`)."""
        return f"{self.path}.lock"

    def check(self) -> None:
        """Refuse, before any work, a results file that cannot be appended to, holds something else, or is
        being written by another sweep; take it for this run (until :meth:`close`)."""
        target = Path(self.path)
        if target.exists() and target.is_file() and not target.is_symlink():
            if not os.access(target, os.R_OK | os.W_OK) or not target.stat().st_mode & 0o222:  # root may, but
                # a file no one may write was made read-only to keep it
                raise BadArgument(self.path, "results", "cannot append: no permission to read and write the file")
        else:
            check_writable(self.path, "results", appends=True)
        self._take()
        try:
            self.records = list(self._read())
        except BaseException:
            self.close()
            raise

    def _take(self) -> None:
        """Lock :attr:`lock_path` for this run, or refuse: another sweep holds it."""
        if self._lock is not None:
            return
        while True:
            try:
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | _BINARY, 0o666)
            except OSError as exc:  # a results file in a folder that takes no new file
                raise BadArgument(self.path, "results", f"cannot make the lock file {self.lock_path} beside it "
                               f"({exc.strerror}): a sweep needs to make one there") from None
            if not _lock_at_once(fd):
                os.close(fd)
                raise BadArgument(self.path, "results", f"another stratagem sweep is writing to this file (it holds "
                               f"{self.lock_path}): let it finish, or give another results file") from None
            try:  # the lock file a run that was closing removed is no lock: take the one there now
                same = os.stat(self.lock_path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                self._lock = fd
                return
            os.close(fd)

    def _read(self, share: bool = True) -> Iterator[dict[str, Any]]:
        """The file's records, each checked whole (:func:`parse_record`); with ``share``, their repeated strings
        shared (:func:`share_strings`): a reader that keeps none of them (:class:`ResultsRecords`) has no use
        for the table, which grows with every distinct short string the file holds."""
        if not Path(self.path).exists() and not Path(self.path).is_symlink():
            return
        shared: dict[str, str] = {}

        def keep(record: dict[str, Any]) -> dict[str, Any]:
            return share_strings(record, shared) if share else record

        with open_regular(self.path) as handle:
            offset = 0
            number = 0
            while True:
                raw = handle.readline(MAX_LINE_BYTES + 1)
                if not raw:
                    break
                number += 1
                if len(raw) > MAX_LINE_BYTES:
                    raise BadInput(self.path, f"line {number}", f"longer than {MAX_LINE_BYTES >> 20} MiB: not a "
                                   f"{SWEEP_FORMAT} record (a record is a few KB)")
                if offset + len(raw) > MAX_RESULTS_BYTES:
                    raise BadInput(self.path, "", f"larger than a results file may be ({MAX_RESULTS_BYTES >> 30} GiB); "
                                   "start a new one")
                if raw.endswith(b"\n"):
                    yield keep(parse_record(raw, self.path, number))
                    offset += len(raw)
                    continue
                # The last line, without its newline: a whole record someone saved without one, or the
                # beginning of a record a crash cut short (records start with '{"', keys sorted).
                if raw.startswith(b'{"'[: len(raw)]) and not _is_json(raw):
                    self.torn = (f"{self.path}: line {number} is torn (a run stopped while writing it); "
                                 "dropped, its task runs again")
                    break
                record = keep(parse_record(raw, self.path, number))
                self._needs_newline = True
                offset += len(raw)
                yield record
        self._good_bytes = offset

    def done(self, retry_unknown: bool = False, retry_uncertified: bool = False) -> set[str]:
        """The keys of the tasks this file holds a record of, less those to run again: with
        ``retry_unknown``, those whose best record (:func:`best_records`) is ``unknown``; with
        ``retry_uncertified``, those whose best record's answer rests on a search alone (:func:`uncertified`)
        and whose method can certify (:func:`retry_may_certify`: an A* answer run again is an A* answer again)."""
        best = best_records(self.records)
        return {key for key, r in best.items()
                if not (retry_unknown and r.get("status") == "unknown")
                and not (retry_uncertified and retry_may_certify(r))}

    def time_limits(self) -> dict[float | None, int]:
        """The time limits of the file's first-run records (not its retries), each with its first line."""
        limits: dict[float | None, int] = {}
        for number, record in enumerate(self.records, 1):
            if not record.get("retry"):
                limit = record.get("time_limit")
                limits.setdefault(None if limit is None else float(limit), number)
        return limits

    def open(self) -> None:
        """Drop a torn last line, end a last record written without its newline, and open the file for
        appending (made if missing; :meth:`close` removes a file it made that no record went into)."""
        if self.torn is not None:
            os.truncate(self.path, self._good_bytes)
            self.torn = None
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL | _BINARY, 0o666)
            self._made = True
        except FileExistsError:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | _BINARY, 0o666)
        if self._needs_newline:
            os.write(self._fd, b"\n")
            self._needs_newline = False

    def append(self, record: dict[str, Any]) -> None:
        """Write one record as one whole line, and make it durable before going on.

        A write that fails (a full disk: the CLI's exit 74, naming the file) or that the disk took only part
        of cuts the file back to where the line began: a run that stops there leaves no half line."""
        assert self._fd is not None, "open() the results file first"
        data = utf8(dumps_line(record))
        begun = os.fstat(self._fd).st_size
        try:
            if os.write(self._fd, data) != len(data):  # the disk took part of it: the rest finds it full
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            os.fsync(self._fd)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, begun)
            raise write_error(self.path, exc) from None
        self.records.append(record)

    def close(self) -> None:
        """Close the file and let go of it (the lock file is removed). A file :meth:`open` made and no
        record went into (a full disk or a stop before the first) is removed too: a failed run leaves no
        empty results file behind."""
        if self._fd is not None:
            empty = self._made and os.fstat(self._fd).st_size == 0
            os.close(self._fd)
            self._fd = None
            if empty:
                with contextlib.suppress(OSError):
                    os.unlink(self.path)
            self._made = False
        if self._lock is not None:
            if _FLOCK is None:  # Windows: an open file cannot be removed; one another sweep opened since stays
                os.close(self._lock)
                with contextlib.suppress(OSError):
                    os.unlink(self.lock_path)
            else:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.lock_path)
                os.close(self._lock)
            self._lock = None


#: ``os.open``'s flag for a descriptor that writes LF as LF (Windows' default descriptor writes CR LF, which
#: made every record line differ from the same run's elsewhere), 0 where every descriptor is so (POSIX).
_BINARY = getattr(os, "O_BINARY", 0)

try:
    _FLOCK: Any = importlib.import_module("fcntl")
except ImportError:  # Windows: no fcntl, whose import stopped every sweep and report before; msvcrt locks
    _FLOCK = None


def _lock_at_once(fd: int) -> bool:
    """Lock the open file ``fd`` for this process without waiting; False if another holds it. ``flock``
    where there is one (POSIX); on Windows, ``msvcrt.locking`` of its first byte (released when it is
    closed)."""
    if _FLOCK is None:
        msvcrt: Any = importlib.import_module("msvcrt")
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    try:
        _FLOCK.flock(fd, _FLOCK.LOCK_EX | _FLOCK.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _is_json(raw: bytes) -> bool:
    try:
        json.loads(raw)
    except (ValueError, RecursionError):
        return False
    return True


#: The longest string :func:`share_strings` shares: a record's names, digests and moves, not its notes.
SHARED_STRING_CHARS = 128


def share_strings(value: Any, shared: dict[str, str]) -> Any:
    """``value`` (a parsed record) with each key and each short string replaced by the first equal one in
    ``shared`` (which it fills): every record of a file repeats its keys, its puzzle, challenge, digest,
    method and most of its moves, and each line parsed on its own made each anew. 99,540 records of the
    shipped sweep took 316 MB as parsed, 66 MB shared, in the same time; a results file at its 1 GiB cap
    holds some 1.8 million. Strings are immutable, so sharing them changes nothing a reader sees."""
    if isinstance(value, str):
        return shared.setdefault(value, value) if len(value) <= SHARED_STRING_CHARS else value
    if isinstance(value, dict):
        return {shared.setdefault(key, key): share_strings(item, shared) for key, item in value.items()}
    if isinstance(value, list):
        return [share_strings(item, shared) for item in value]
    return value


def parse_record(raw: bytes, source: str, number: int) -> dict[str, Any]:
    """One line of a results file as a sweep record, or :class:`BadInput` naming the line."""
    place = f"line {number}"
    if not raw.strip():
        raise BadInput(source, place, "an empty line (a results file holds one stratagem/sweep@1 record a line, "
                       "and no empty line: remove it)")
    try:
        record = loads_once(raw)
    except RepeatedKey as exc:  # as in every record: the last spelling was read
        raise BadInput(source, place, f"the key {str(exc)[:40]!r} is given twice in one record (a record says each "
                       "thing once)") from None
    except (ValueError, RecursionError):
        raise BadInput(source, place, "not a JSON record (a results file holds one stratagem/sweep@1 "
                       "record a line)") from None
    if not isinstance(record, dict) or record.get("format") != SWEEP_FORMAT:
        shown = record.get("format") if isinstance(record, dict) else None
        what = f"a {str(shown)[:40]!r} record" if isinstance(shown, str) else "not a sweep record"
        raise BadInput(source, place, f"{what}, not {SWEEP_FORMAT}: give a results file of `stratagem sweep`")
    try:
        record_key(record)
    except KeyError as exc:
        raise BadInput(source, place, f"a {SWEEP_FORMAT} record without {exc.args[0]!r}") from None
    except TypeError:  # a value json.dumps cannot write cannot come from json.loads; kept for safety
        raise BadInput(source, place, f"a {SWEEP_FORMAT} record whose key fields are malformed") from None
    status_ok = isinstance(record.get("status"), str) if record.get("game") != "strato" else (
        record.get("status") in STATUSES)
    if not status_ok:
        raise BadInput(source, place, f"status {str(record.get('status'))[:20]!r} (one of {', '.join(STATUSES)})")
    hidden = record.get("information") == "hidden"
    problem = hidden_problem(record) if hidden else open_problem(record)
    if problem:
        raise BadInput(source, place, f"a{' hidden-information' if hidden else ''} record whose {problem}")
    return record


#: A hidden record's ``odds.lower_from`` (docs/formats.md; absent from records made before the field).
LOWER_FROM = ("search", "guided policy", "none")



def _count(value: Any) -> bool:
    return is_whole(value, 0)


def _probability(value: Any) -> Fraction | None:
    """A win probability written as a fraction's text (``"37/45"``, ``"1"``), or ``None`` if it is not one
    (read as records write it: ``Fraction`` would also build ``1e99999999``, which takes minutes)."""
    try:
        found = parse_fraction(value, "", "")
    except BadInput:
        return None
    return found if 0 <= found <= 1 else None


def _seconds_problem(record: dict[str, Any]) -> str:
    for key in ("seconds", "cpu_seconds"):
        value = record.get(key, 0)
        if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value < float("inf"):
            return f"{key} {quoted(value)} is not a number of seconds"
    return ""


def _turns(value: Any) -> bool:
    return value is None or _count(value)


def _deal_problem(record: dict[str, Any]) -> str:
    """What is wrong with a Strato record's deal (``players`` 1 to 4, ``seed`` from 0 to 2^63-1), or ``""``.
    A larger seed is none a sweep deals (``--seeds`` stops there): the report's command to reproduce it
    (``solve --deal SEED``) was refused, and a seed of 4,000 digits was printed whole."""
    players = record.get("players")
    if not is_whole(players, 1, 4):
        return f"players {quoted(players)} is not a Strato player count (1 to 4)"
    if not is_whole(record.get("seed"), 0, MAX_SEED):
        return f"seed {quoted(record.get('seed'))} is not a seed ({SEED_RANGE})"
    return ""


@functools.cache
def _strato_methods() -> tuple[str, ...]:
    from stratagem.models.strato.solve import METHODS

    return METHODS


def _common_problem(record: dict[str, Any]) -> str:
    """What is wrong with the fields every record has that a report prints or groups by as they are:
    ``puzzle`` (a file name, in every command a report gives), ``game`` (one of the five), ``challenge`` (a
    name), ``method`` and ``time_limit`` (``null`` or seconds above 0)."""
    if not isinstance(record.get("puzzle"), str) or not record["puzzle"]:
        return f"puzzle {quoted(record.get('puzzle'))} is not a file name"
    if record.get("game", "strato") not in GAMES:
        return f"game {quoted(record.get('game'))} is not one of {', '.join(GAMES)}"
    if not isinstance(record.get("challenge"), str):
        return f"challenge {quoted(record.get('challenge'))} is not a name"
    if not isinstance(record.get("method"), str):
        return f"method {quoted(record.get('method'))} is not a method's name"
    limit = record.get("time_limit")
    if limit is not None and (not isinstance(limit, int | float) or isinstance(limit, bool)
                              or not 0 < limit < float("inf")):
        return f"time_limit {quoted(limit)} is neither null nor a number of seconds above 0"
    return ""


def open_problem(record: dict[str, Any]) -> str:
    """What is wrong with an open sweep's record as reports and sweeps read it, or ``""``: its puzzle,
    method and time limit; a Strato record's deal (players 1 to 4, a seed), method (one ``solve`` has) and
    line (a ``solved`` record's ``length`` is its line's moves, an ``unknown`` one's ``best_length`` too, at
    most :data:`MAX_TURNS`, each move in the notation); every record's lengths (``null`` or whole numbers),
    ``line`` (moves as text), ``certificate`` (``null`` or an object) and seconds."""
    if problem := _common_problem(record):
        return problem
    strato = record.get("game", "strato") == "strato"
    if strato:
        if problem := _deal_problem(record):
            return problem
        if record["method"] not in _strato_methods():
            return f"method {quoted(record['method'])} is not one of {', '.join(_strato_methods())}"
        if record.get("status") == "solved" and not _count(record.get("length")):
            return f"length {quoted(record.get('length'))} is not a number of turns (status solved)"
    for key in ("length", "lower_bound", "best_length"):
        if not _turns(record.get(key)):
            return f"{key} {quoted(record.get(key))} is neither null nor a number of turns"
        if strato and record.get(key) is not None and record[key] > MAX_TURNS:
            return f"{key} {quoted(record[key])} is more turns than a Strato deck has cards ({MAX_TURNS})"
    status, length, bound = record.get("status"), record.get("length"), record.get("lower_bound")
    if status != "solved" and length is not None:
        return f"length {length} with status {status}: only a solved record has an optimal length"
    if status == "unsolvable" and record.get("line"):
        return "line holds moves (status unsolvable: there is no winning line)"
    if length is not None and bound is not None and bound > length:
        return f"lower_bound {bound} is above the length {length}"
    line = record.get("line") or []
    if not isinstance(line, list) or not all(isinstance(move, str) for move in line):
        return "line is not a list of moves"
    if strato:
        for number, move in enumerate(line, start=1):
            try:
                parse_move(move)
            except NotationError as exc:
                return f"line's move {number} is not a move: {exc}"
        moves = len(line)
        if status == "solved" and length != moves:
            return f"length {length} is not the {moves} moves of its line"
        if status == "unknown" and (record.get("best_length") or 0) != moves:
            return f"best_length {quoted(record.get('best_length'))} is not the {moves} moves of its line"
    certificate = record.get("certificate")
    if certificate is not None and not isinstance(certificate, dict):
        return f"certificate {quoted(certificate)} is neither null nor an object"
    return _seconds_problem(record)


def hidden_problem(record: dict[str, Any]) -> str:
    """What is wrong with a hidden sweep's record (``information`` ``"hidden"``) as reports and sweeps read it,
    or ``""``: its key fields, its status, and its ``odds`` (a solo deal's value or proven interval, ``0 <=
    low <= high <= 1``) or ``team`` (an agent's games: ``wins`` and ``played`` counted from ``games``).
    A report draws its cards from these fields, so a file edited by hand must not reach it as numbers that
    no sweep writes."""
    method = record.get("method")
    if problem := _common_problem(record) or _deal_problem(record):
        return problem
    if not isinstance(method, str) or not method.startswith("hidden:"):
        return f"method {quoted(method)} is not hidden:odds or hidden:AGENT"
    if record.get("status") not in ("solved", "unknown"):
        return f"status {quoted(record.get('status'))} is not solved or unknown"
    if problem := _seconds_problem(record):
        return problem
    if method == "hidden:odds":
        return _odds_problem(record.get("odds"), record["status"])
    if problem := _team_problem(record.get("team"), record["status"]):
        return problem
    if record["team"]["agent"] != method.removeprefix("hidden:"):  # the card groups by method, reproduces by agent
        return f"team.agent {quoted(record['team']['agent'])} is not the agent of its method {quoted(method)}"
    return ""


def _odds_problem(odds: Any, status: str) -> str:
    if not isinstance(odds, dict):
        return "odds is not an object"
    low, high = _probability(odds.get("low")), _probability(odds.get("high"))
    if low is None or high is None:
        return "odds.low or odds.high is not a probability written as a fraction (such as 37/45)"
    if low > high:
        return f"odds.low {odds['low']} is above odds.high {odds['high']}"
    if status == "solved":
        if _probability(odds.get("value")) != low or low != high:
            return "odds.value is not the exact value that odds.low and odds.high both give (status solved)"
        if not isinstance(odds.get("float"), int | float) or isinstance(odds.get("float"), bool):
            return "odds.float is not a number (status solved)"
        if odds["float"] != float(low):  # the card's histogram and quantiles read it
            return f"odds.float {odds['float']!r} is not odds.value {odds['value']} as a float"
    elif odds.get("value") is not None:
        return "odds.value is not null (status unknown: the value was not found)"
    if odds.get("lower_from", LOWER_FROM[0]) not in LOWER_FROM:
        return f"odds.lower_from is not one of {', '.join(LOWER_FROM)}"
    for key in ("states", "policy_states", "memory"):
        if key in odds and not _count(odds[key]):
            return f"odds.{key} is not a count"
    return ""


def _team_problem(team: Any, status: str) -> str:
    if not isinstance(team, dict):
        return "team is not an object (an agent's games)"
    games = team.get("games")
    if not isinstance(team.get("agent"), str):
        return "team.agent is not an agent's spec"
    if not isinstance(games, list) or not all(
            isinstance(g, list) and len(g) == 3 and _count(g[0]) and isinstance(g[1], bool) and _count(g[2])
            for g in games):
        return "team.games is not a list of [shuffle, won, turns]"
    if len({g[0] for g in games}) != len(games):
        return "team.games plays a shuffle twice (each shuffle of the deal is played once)"
    if not _count(team.get("shuffles")) or team.get("played") != len(games) or len(games) > team["shuffles"]:
        return "team.played is not the number of team.games, at most team.shuffles"
    if team.get("wins") != sum(1 for g in games if g[1]):
        return "team.wins is not the number of won team.games"
    if "turns" in team and not _count(team["turns"]):
        return "team.turns is not a count"
    if "turns" in team and team["turns"] != sum(g[2] for g in games):  # the card's CPU per turn reads it
        return "team.turns is not the sum of team.games' turns"
    if status == "solved" and len(games) != team["shuffles"]:
        return "team.games are fewer than team.shuffles (status solved: every shuffle played)"
    return ""


def read_results(path: str | Path) -> tuple[list[dict[str, Any]], str | None]:
    """The records of a results file, for reports, and a note when a torn last line was left out.

    :class:`BadInput` for what is not a results file: missing, not a regular file (a pipe would block),
    a line that is not a sweep record, or no whole record at all (an empty file, or one torn line)."""
    results = ResultsFile(path)
    # A report reads no record's provenance (every record was checked whole as it was read), and held as Python
    # objects it was most of the ~9 KB a record took: 100,000 records, 900 MB. It is left out here (and the
    # strings of the rest are shared as they are read: ResultsFile._read).
    records = [{key: value for key, value in record.items() if key != "provenance"} for record in results._read()]
    if not Path(path).exists():
        raise BadInput(str(path), "", "no such file")
    if not records:
        raise _no_record(str(path), results.torn)
    return records, results.torn


def _no_record(path: str, torn: str | None) -> BadInput:
    """The refusal of a results file that holds no whole record (``torn``: its only line was torn)."""
    return BadInput(path, "", "holds no whole record: its only line is torn (a run stopped while writing it)"
                    if torn else "is empty: no sweep record to report")


class ResultsRecords:
    """The records of a results file for a report that keeps few of them: each time they are iterated the
    file is read again, one record at a time (its provenance left out, as :func:`read_results` leaves it).

    The first iteration checks every line (:meth:`ResultsFile._read`), as :func:`read_results` does and with
    its :class:`BadInput` (a missing or empty file at the end of it), and notes a torn last line in
    :attr:`torn`. Each later one reads the same records again, parsed without the checks already made, and
    no further than the first read went: a sweep appending to the file meanwhile adds nothing, and a file
    changed otherwise is :class:`BadInput` naming the line.

    Why: held as Python objects, a file's records take some 1.45 times the file (:data:`MAX_RESULTS_BYTES`);
    :func:`stratagem.sweepreport.summarise` keeps a few numbers a deal and reads the file again for the
    records it shows whole.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        #: The note on a torn last line (left out), once the records were read through.
        self.torn: str | None = None
        self._count: int | None = None  # the records the first read found, once it was read through

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return self._first() if self._count is None else self._again(self._count)

    def _first(self) -> Iterator[dict[str, Any]]:
        results = ResultsFile(self.path)
        count = 0
        for record in results._read(share=False):
            count += 1
            record.pop("provenance", None)
            yield record
        if not Path(self.path).exists():
            raise BadInput(self.path, "", "no such file")
        if not count:
            raise _no_record(self.path, results.torn)
        self.torn, self._count = results.torn, count

    def _again(self, count: int) -> Iterator[dict[str, Any]]:
        with open_regular(self.path) as handle:
            for number in range(1, count + 1):
                raw = handle.readline(MAX_LINE_BYTES + 1)
                try:
                    record = json.loads(raw)
                except (ValueError, RecursionError):
                    record = None
                if not isinstance(record, dict) or record.get("format") != SWEEP_FORMAT:
                    raise BadInput(self.path, f"line {number}", "changed while the report read it (the file was "
                                   "read twice): run the report again")
                record.pop("provenance", None)
                yield record
