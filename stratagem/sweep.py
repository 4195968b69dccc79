"""Many Strato deals at once: one ``stratagem/sweep@1`` record per (puzzle, players, seed, method), resumable.

A designer's question is rarely "solve deal 3" but "across random deals of my challenge card, with 1, 2
or 4 players: what fraction is solvable, how long are the optimal lines, which deals are hardest?".
:func:`plan` turns puzzle files, seeds, player counts and methods into :class:`Task` objects; :func:`run_task`
solves one (a seeded deal, :func:`stratagem.solving.solve` within the per-deal time limit) and returns its
record; :func:`sweep` runs the tasks that a results file does not hold yet, in this process
(``workers=0``) or on Dask (an embedded ``distributed.LocalCluster`` of processes, or an existing
scheduler), and appends each record to the file as it arrives (:class:`ResultsFile`).

Records (docs/formats.md, "Sweep records") are deterministic apart from ``seconds`` -- and apart from
what a time limit cut short, which depends on the machine: such a deal has status ``unknown`` with the
proven lower bound and the length of the best line found.

Resuming: a task's key is the puzzle's SHA-256 (its bytes, not its path), the player count, the seed and
the method -- never the time limit, so that running a deal again with a longer limit gives a second
record of the same deal, not a second deal. Running the same sweep again skips the keys already in the
file. The file is only ever appended to; of a key recorded more than once, the *best-established*
record counts (:func:`best_records`), for resuming and for ``stratagem report`` alike. Each record is
one line written by one ``write`` and ``fsync``-ed, so a killed run loses only the tasks in flight; a torn
last line (a crash of the machine mid-write) is dropped when the file is next opened, with a note.

Settings: a results file is one experiment, made with one time limit. A run that would add new deals
with a different limit than the records already there is refused (:class:`SettingsMismatch`) unless
told (``force_settings``); retrying (``retry_unknown``, ``retry_uncertified``) may use any limit, and
marks its records ``"retry"`` so that they are not taken for the file's settings. Every record carries
its provenance (:mod:`stratagem.core.provenance`): the code that made it.

Dask is an extra (``pip install "stratagem[dist]"``) and imported only when a sweep uses it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stratagem import __version__
from stratagem.core.errors import BadInput
from stratagem.core.io import MAX_SEED, check_writable, open_regular
from stratagem.core.provenance import provenance
from stratagem.loading import deal_of, game_of_file, load_position, load_strato
from stratagem.models.strato.rules.puzzle import Puzzle, setup_from_data
from stratagem.models.strato.solve import METHODS
from stratagem.solvers.search import SOLVED

#: The format name of a sweep record (docs/formats.md, "Sweep records").
SWEEP_FORMAT = "stratagem/sweep@1"

#: The statuses a record may have, as :func:`stratagem.solving.solve` gives them.
STATUSES = ("solved", "unsolvable", "unknown")

#: How to get the Dask executor when it is missing.
DIST_HINT = 'pip install "stratagem[dist]" (or run in this process with --workers 0)'

#: Seconds to wait for an existing scheduler (``--scheduler``) before giving up.
CONNECT_TIMEOUT = 10.0

#: The most tasks one sweep may plan (``--count`` has the same cap): ten million records are some 6 GB.
MAX_TASKS = 10_000_000

#: The longest line a results file may hold. A record is under a few KB (its line is at most a few
#: dozen moves); anything longer is not a record of ours, and is refused before it is parsed.
MAX_LINE_BYTES = 1 << 20

#: The largest results file read (some two million records).
MAX_RESULTS_BYTES = 1 << 30

#: Why a record was made by a retry (its ``"retry"`` field; ``None`` for a first run).
RETRY_UNKNOWN = "unknown"
RETRY_UNCERTIFIED = "uncertified"


@dataclass(frozen=True)
class Task:
    """One deal to solve: everything a worker needs, without reading a file (``setup`` is the puzzle's
    challenge and options, as a record holds them), so the same task runs on a remote cluster."""

    puzzle: str
    puzzle_sha256: str
    challenge: str
    setup: dict[str, Any] = field(hash=False, compare=False)
    players: int
    seed: int
    method: str
    time_limit: float | None
    proof_dir: str | None = None

    retry: str | None = None

    @property
    def key(self) -> str:
        """What makes two tasks the same deal: the puzzle's bytes, players, seed, method (not the limit)."""
        return task_key(self.puzzle_sha256, self.players, self.seed, self.method)

    def command(self) -> str:
        """The ``stratagem solve`` command that reproduces this task."""
        limit = f" --time-limit {self.time_limit:g}" if self.time_limit is not None else ""
        return (f"stratagem solve {self.puzzle} --deal {self.seed} --players {self.players} "
                f"--method {self.method}{limit}")


@dataclass(frozen=True)
class PositionTask:
    """One position of another game (STAKD Elite, Stratatak, Stack Attack, Card Clash) to analyse with
    ``method`` (:func:`stratagem.analysis.analyze`). ``text`` is the file's text: the worker reads no file."""

    puzzle: str
    puzzle_sha256: str
    game: str
    text: str
    method: str
    time_limit: float | None
    proof_dir: str | None = None

    retry: str | None = None

    @property
    def key(self) -> str:
        """The position's bytes and the method (no players, no seed, not the limit)."""
        return task_key(self.puzzle_sha256, None, None, self.method)

    def command(self) -> str:
        """The ``stratagem analyze`` command that reproduces this task."""
        limit = f" --time-limit {self.time_limit:g}" if self.time_limit is not None else ""
        return f"stratagem analyze {self.puzzle} --method {self.method}{limit}"


def task_key(puzzle_sha256: str, players: int | None, seed: int | None, method: str) -> str:
    """The key of a task (and of its records): the deal and the method, one string compared as is. The
    time limit is not part of it: a deal run again with another limit is the same deal."""
    return json.dumps([puzzle_sha256, players, seed, method])


def record_key(record: dict[str, Any]) -> str:
    """The key of a record, as :meth:`Task.key` gives it for the task that made it."""
    return task_key(record["puzzle_sha256"], record["players"], record["seed"], record["method"])


def parse_seeds(text: str) -> range:
    """``A..B`` (both included) as a range; :class:`ValueError` with the reason otherwise. Seeds are
    0 to :data:`~stratagem.core.io.MAX_SEED` (records hold 64-bit integers), at most :data:`MAX_TASKS`."""
    first, sep, last = text.partition("..")
    shown = text if len(text) <= 60 else text[:57] + "..."
    if not sep or len(first.strip()) > 30 or len(last.strip()) > 30:
        raise ValueError(f"{shown!r} is not a seed range A..B (for example 0..499)")
    try:
        a, b = int(first), int(last)
    except ValueError:
        raise ValueError(f"{shown!r} is not a seed range A..B (for example 0..499)") from None
    if a > b or a < 0:
        raise ValueError(f"{shown!r} is not a seed range A..B with 0 <= A <= B")
    if b > MAX_SEED:
        raise ValueError(f"{shown!r}: seeds go up to {MAX_SEED} (2^63-1)")
    if b - a + 1 > MAX_TASKS:
        raise ValueError(f"{shown!r} is {b - a + 1:,} seeds; a sweep runs at most {MAX_TASKS:,}")
    return range(a, b + 1)


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


def best_records(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """One record per key: the best-established one (:func:`outcome_rank`), the latest among equals.

    Not simply the latest: a retry on a busier machine, or with a shorter limit, may stop where an
    earlier run decided the deal, and what was proven stays proven; a certificate outranks a search.
    Among equally established records the latest counts (a retry with a longer limit comes later)."""
    best: dict[str, dict[str, Any]] = {}
    for record in records:
        key = record_key(record)
        if key not in best or outcome_rank(record) >= outcome_rank(best[key]):
            best[key] = record
    return best


def uncertified(record: dict[str, Any]) -> bool:
    """A Strato record whose answer (an optimum, or unsolvability) rests on a search alone: no certificate
    that ``verify`` re-checks (``certificate`` is null)."""
    return (record.get("game", "strato") == "strato" and record.get("status") in ("solved", "unsolvable")
            and not record.get("certificate"))


class SettingsMismatch(BadInput):
    """A sweep would add deals with other settings (time limit) than the records already in the file."""


def plan(puzzles: Sequence[str | Path], seeds: Iterable[int], players: Iterable[int],
         methods: Iterable[str] = ("auto",), time_limit: float | None = None,
         proof_dir: str | Path | None = None) -> list[Task | PositionTask]:
    """The tasks of a sweep: every puzzle × player count × seed × method, in that order, each once; a
    position file of another game gives one task per method (``seeds`` and ``players`` are for Strato).
    Every method is checked here, against each puzzle it is to run on.

    Each puzzle file is read and checked here (a mistake is :class:`BadInput` before any work), and its
    bytes hashed."""
    seeds, players, methods = list(seeds), list(players), list(methods)
    if len(puzzles) * len(seeds) * len(players) * len(methods) > MAX_TASKS:
        raise BadInput("<argument>", "--count", f"{len(puzzles)} puzzle(s) x {len(seeds):,} seed(s) x {len(players)} "
                       f"player count(s) x {len(methods)} method(s) is more than the {MAX_TASKS:,} tasks a sweep runs")
    limit = None if time_limit is None else float(time_limit)  # 10 and 10.0 are one key
    strato = any(game_of_file(path) == "strato" for path in puzzles)
    for method in methods if strato else ():
        if method not in METHODS:
            raise BadInput("<argument>", "--method", f"unknown method {method!r} (one of {', '.join(METHODS)})")
    for count in players:
        if not 1 <= count <= 4:
            raise BadInput("<argument>", "--players", f"Strato is played by 1 to 4 players, not {count}")
    tasks: dict[str, Task | PositionTask] = {}
    for path in puzzles:
        game = game_of_file(path)
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        if game != "strato":
            loaded = load_position(path)  # checked here: a broken file is bad input before any work
            text = Path(path).read_text(encoding="utf-8")
            for method in methods:
                _check_position_method(loaded, method)
                position = PositionTask(str(path), digest, game, text, method, limit,
                                        None if proof_dir is None else str(proof_dir))
                tasks.setdefault(position.key, position)
            continue
        puzzle = load_strato(path)
        for count in players:
            for seed in seeds:
                for method in methods:
                    task = Task(str(path), digest, puzzle.challenge.name, puzzle.setup(), count, seed, method,
                                limit, None if proof_dir is None else str(proof_dir))
                    tasks.setdefault(task.key, task)
    return list(tasks.values())


def _check_position_method(position: Any, method: str) -> None:
    """Refuse, before any work, an ``analyze`` method that cannot run on this position (a Strato method
    given to a sweep that also holds other games' positions, say), naming the file."""
    from stratagem.analysis.methods import resolve_method

    try:
        resolve_method(position, method)
    except BadInput as exc:
        raise BadInput(position.source, "--method", f"{method}: {exc.problem}") from None


def run_task(task: Task | PositionTask) -> dict[str, Any]:
    """Solve one task's deal (or analyse its position) and return its ``stratagem/sweep@1`` record (this
    runs on a worker)."""
    if isinstance(task, PositionTask):
        return run_position_task(task)
    from stratagem.solving import solve

    started = time.perf_counter()
    challenge, options = setup_from_data(task.setup, task.puzzle)
    puzzle = Puzzle(task.puzzle, challenge, options, ())
    deal = deal_of(puzzle, task.seed, task.players)
    answer = solve(deal, method=task.method, time_limit=task.time_limit)
    source = provenance(task.puzzle, task.puzzle_sha256)
    result = answer.result
    evidence = answer.evidence
    certificate: dict[str, Any] | None = None
    if evidence.get("certificate"):
        certificate = {"kind": evidence.get("kind"), "proof": None, "sha256": None}
    if task.proof_dir is not None and answer.has_proof():
        name = f"{Path(task.puzzle).stem}-{task.puzzle_sha256[:8]}-p{task.players}-s{task.seed}-{task.method}.json"
        path = Path(task.proof_dir) / name
        answer.write_proof(path, source)
        if certificate is None:
            certificate = {"kind": evidence.get("kind"), "proof": None, "sha256": None}
        certificate["proof"] = name
        certificate["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    solved = result.status == SOLVED
    return {
        "format": SWEEP_FORMAT,
        "game": "strato",
        "puzzle": task.puzzle,
        "puzzle_sha256": task.puzzle_sha256,
        "challenge": task.challenge,
        "players": task.players,
        "seed": task.seed,
        "method": task.method,
        "time_limit": task.time_limit,
        "status": result.status,
        "length": len(result.moves) if solved else None,
        "lower_bound": result.lower_bound,
        "best_length": len(result.moves) if result.moves and not solved else None,
        "line": list(answer.line_text),
        "solved_by": result.method,
        "stopped_by": result.stopped_by,
        "certificate": certificate,
        "seconds": round(time.perf_counter() - started, 3),
        "version": __version__,
        "retry": task.retry,
        "provenance": source,
    }


def run_position_task(task: PositionTask) -> dict[str, Any]:
    """Analyse one position (from the task's text, in a temporary file of the same name) into its record."""
    import tempfile

    from stratagem.analysis import analyze

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="stratagem-sweep-") as folder:
        path = Path(folder) / Path(task.puzzle).name
        path.write_text(task.text, encoding="utf-8")
        analysis = analyze(path, method=task.method, time_limit=task.time_limit)
    report = analysis.to_json()
    certificate: dict[str, Any] | None = None
    if task.proof_dir is not None and report.get("status") == "solved":
        name = f"{Path(task.puzzle).stem}-{task.puzzle_sha256[:8]}-{task.method}.json"
        proof = Path(task.proof_dir) / name
        analysis.write_proof(proof, provenance=provenance(task.puzzle, task.puzzle_sha256))
        certificate = {"kind": "proof-tree", "proof": name, "sha256": hashlib.sha256(proof.read_bytes()).hexdigest()}
    solved = report.get("status") == "solved"
    return {
        "format": SWEEP_FORMAT,
        "game": task.game,
        "puzzle": task.puzzle,
        "puzzle_sha256": task.puzzle_sha256,
        "challenge": report.get("name") or Path(task.puzzle).stem,
        "players": None,
        "seed": None,
        "method": task.method,
        "time_limit": task.time_limit,
        "status": report.get("status"),
        "summary": report.get("summary"),
        "value": report.get("value"),
        "length": report.get("distance") if solved else None,
        "lower_bound": report.get("lower_bound"),
        "best_length": None,
        "line": list(report.get("pv") or []),
        "best_move": report.get("best_move"),
        "solved_by": report.get("method"),
        "stopped_by": report.get("stopped_by"),
        "certificate": certificate,
        "seconds": round(time.perf_counter() - started, 3),
        "version": __version__,
        "retry": task.retry,
        "provenance": provenance(task.puzzle, task.puzzle_sha256),
    }


def dumps_line(record: dict[str, Any]) -> str:
    """A record as one line of JSON (sorted keys, no spaces), newline included."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


class ResultsFile:
    """A JSON Lines file of sweep records, read to learn what is done and appended to whole lines at a time.

    :meth:`check` reads and checks the file (another format, a malformed line other than the last, a line
    longer than :data:`MAX_LINE_BYTES`, or something that is not a regular file is :class:`BadInput`:
    the file is not ours to change); a last line without its newline is kept when it is a whole record,
    and dropped (as torn) when it is the beginning of one. :meth:`open` opens it for appending.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.records: list[dict[str, Any]] = []
        self.torn: str | None = None
        self._fd: int | None = None
        self._good_bytes = 0
        self._needs_newline = False

    def check(self) -> None:
        """Refuse, before any work, a results file that cannot be appended to or holds something else."""
        target = Path(self.path)
        if target.exists() and target.is_file() and not target.is_symlink():
            if not os.access(target, os.R_OK | os.W_OK):
                raise BadInput(self.path, "--out", "cannot append: no permission to read and write the file")
        else:
            check_writable(self.path, "--out")
        self.records = list(self._read())

    def _read(self) -> Iterator[dict[str, Any]]:
        if not Path(self.path).exists() and not Path(self.path).is_symlink():
            return
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
                    yield parse_record(raw, self.path, number)
                    offset += len(raw)
                    continue
                # The last line, without its newline: a whole record someone saved without one, or the
                # beginning of a record a crash cut short (records start with '{"', keys sorted).
                if raw.startswith(b'{"'[: len(raw)]) and not _is_json(raw):
                    self.torn = (f"{self.path}: line {number} is torn (a run stopped while writing it); "
                                 "dropped, its task runs again")
                    break
                record = parse_record(raw, self.path, number)
                self._needs_newline = True
                offset += len(raw)
                yield record
        self._good_bytes = offset

    def done(self, retry_unknown: bool = False, retry_uncertified: bool = False) -> set[str]:
        """The keys of the tasks this file holds a record of, less those to run again: with
        ``retry_unknown``, those whose best record (:func:`best_records`) is ``unknown``; with
        ``retry_uncertified``, those whose best record's answer rests on a search alone (:func:`uncertified`)."""
        best = best_records(self.records)
        return {key for key, r in best.items()
                if not (retry_unknown and r.get("status") == "unknown")
                and not (retry_uncertified and uncertified(r))}

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
        appending (made if missing)."""
        if self.torn is not None:
            os.truncate(self.path, self._good_bytes)
            self.torn = None
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        if self._needs_newline:
            os.write(self._fd, b"\n")
            self._needs_newline = False

    def append(self, record: dict[str, Any]) -> None:
        """Write one record as one whole line, and make it durable before going on."""
        assert self._fd is not None, "open() the results file first"
        data = dumps_line(record).encode("utf-8")
        written = os.write(self._fd, data)
        if written != len(data):  # a full disk: never leave half a line for the next run to trip on
            raise BadInput(self.path, "", "cannot write: the disk took part of a record")
        os.fsync(self._fd)
        self.records.append(record)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _is_json(raw: bytes) -> bool:
    try:
        json.loads(raw)
    except (ValueError, RecursionError):
        return False
    return True


def parse_record(raw: bytes, source: str, number: int) -> dict[str, Any]:
    """One line of a results file as a sweep record, or :class:`BadInput` naming the line."""
    place = f"line {number}"
    try:
        record = json.loads(raw)
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
    return record


def read_results(path: str | Path) -> tuple[list[dict[str, Any]], str | None]:
    """The records of a results file, for reports, and a note when a torn last line was left out.

    :class:`BadInput` for what is not a results file: missing, not a regular file (a pipe would block),
    a line that is not a sweep record, or no whole record at all (an empty file, or one torn line)."""
    results = ResultsFile(path)
    records = list(results._read())
    if not Path(path).exists():
        raise BadInput(str(path), "", "no such file")
    if not records:
        problem = ("holds no whole record: its only line is torn (a run stopped while writing it)"
                   if results.torn else "is empty: no sweep record to report")
        raise BadInput(str(path), "", problem)
    return records, results.torn


@dataclass
class Tally:
    """What a sweep has done so far: records written, by status, out of ``total`` tasks to run."""

    total: int
    skipped: int
    done: int = 0
    failed: int = 0
    by_status: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))

    def add(self, record: dict[str, Any]) -> None:
        self.done += 1
        status = record["status"] if record["status"] in STATUSES else "unknown"  # a heuristic value, an estimate
        self.by_status[status] += 1


#: Called after each record is written, with the record and the tally.
OnRecord = Callable[[dict[str, Any], Tally], None]


def to_run(tasks: Sequence[Task | PositionTask], results: ResultsFile, *, retry_unknown: bool = False,
           retry_uncertified: bool = False, force_settings: bool = False) -> list[Task | PositionTask]:
    """The tasks a sweep runs: those ``results`` holds no record of, and those it retries (each marked
    with why, its ``retry``). :class:`SettingsMismatch` when new deals would get another time limit than
    the file's first-run records, unless ``force_settings``."""
    held = {record_key(r) for r in results.records}
    done = results.done(retry_unknown, retry_uncertified)
    best = best_records(results.records)
    out: list[Task | PositionTask] = []
    for task in tasks:
        if task.key not in held:
            out.append(task)
        elif task.key not in done:
            why = RETRY_UNKNOWN if best[task.key].get("status") == "unknown" else RETRY_UNCERTIFIED
            out.append(dataclasses.replace(task, retry=why))
    new = [t for t in out if t.retry is None]
    limits = results.time_limits()
    if new and not force_settings:
        limit = new[0].time_limit
        other = {seen: line for seen, line in limits.items() if seen != limit}
        if other:
            held_limit, line = min(other.items(), key=lambda item: item[1])
            raise SettingsMismatch(results.path, f"line {line}", (
                f"made with {_limit_text(held_limit)}; this run would add {len(new):,} deal(s) with "
                f"{_limit_text(limit)}: give the file's limit to resume, --retry-unknown to re-run only its "
                "undecided deals, or --force-settings to mix limits in one file"))
    return out


def _limit_text(limit: float | None) -> str:
    return "no time limit" if limit is None else f"--time-limit {limit:g}"


def sweep(tasks: Sequence[Task | PositionTask], results: ResultsFile, *, workers: int | None = None,
          scheduler: str | None = None, on_record: OnRecord | None = None,
          on_failure: Callable[[Task | PositionTask, str], None] | None = None,
          connect_timeout: float = CONNECT_TIMEOUT, retry_unknown: bool = False, retry_uncertified: bool = False,
          force_settings: bool = False) -> Tally:
    """Run the tasks whose records ``results`` does not hold yet, appending each record as it arrives.

    ``workers=0`` runs them here, one after another; otherwise on Dask: ``scheduler`` (an address such
    as ``tcp://host:8786``) or an embedded ``LocalCluster`` of ``workers`` processes (``None``: one per
    core). ``results`` must have been :meth:`~ResultsFile.check`-ed. A task whose worker died more
    often than Dask allows is reported to ``on_failure`` and left out (the next run tries it again).
    ``retry_unknown`` runs again the tasks whose best record is ``unknown`` (with a longer limit, after a
    faster release, or on a quieter machine); ``retry_uncertified`` those whose optimum rests on a search
    alone. The new record is appended after the old one; :func:`best_records` chooses which counts.
    New deals with another time limit than the file's are refused (:func:`to_run`) unless ``force_settings``.
    """
    todo = to_run(tasks, results, retry_unknown=retry_unknown, retry_uncertified=retry_uncertified,
                  force_settings=force_settings)
    tally = Tally(total=len(todo), skipped=len(tasks) - len(todo))
    if tally.total and any(t.proof_dir for t in todo):
        for folder in {t.proof_dir for t in todo if t.proof_dir}:
            Path(folder).mkdir(parents=True, exist_ok=True)
    client = None if workers == 0 and scheduler is None else connect(workers, scheduler, connect_timeout)
    results.open()
    try:
        if client is None:
            for task in todo:
                _keep(run_task(task), results, tally, on_record)
        elif todo:
            _run_on_dask(client, todo, results, tally, on_record, on_failure)
    finally:
        results.close()
        if client is not None:
            close(client)
    return tally


def _keep(record: dict[str, Any], results: ResultsFile, tally: Tally, on_record: OnRecord | None) -> None:
    results.append(record)
    tally.add(record)
    if on_record is not None:
        on_record(record, tally)


def _run_on_dask(client: Any, todo: list[Task | PositionTask], results: ResultsFile, tally: Tally,
                 on_record: OnRecord | None, on_failure: Callable[[Task | PositionTask, str], None] | None) -> None:
    from distributed import as_completed

    futures = client.map(run_task, todo, pure=False)
    task_of = {f.key: t for f, t in zip(futures, todo, strict=True)}
    for future in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
        try:
            record = future.result()
        except Exception as exc:  # a worker died too often (KilledWorker), or a bug on the worker
            tally.failed += 1
            if on_failure is not None:
                on_failure(task_of[future.key], f"{type(exc).__name__}: {exc}")
            continue
        _keep(record, results, tally, on_record)


def connect(workers: int | None, scheduler: str | None, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A Dask client: of the scheduler at ``scheduler``, or of a new ``LocalCluster`` of ``workers`` processes."""
    try:
        import logging

        from distributed import Client, LocalCluster
    except ImportError:
        raise BadInput("<argument>", "--workers", f"the Dask executor needs dask[distributed]: {DIST_HINT}") from None
    if scheduler is not None:
        _check_address(scheduler)
        try:
            return Client(scheduler, timeout=timeout, set_as_default=False)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            problem = " ".join(str(exc).split())[:200] or type(exc).__name__
            raise BadInput(scheduler, "--scheduler", f"cannot reach the Dask scheduler: {problem}") from None
    import dask

    # The SAT method runs its solver in a child process (to stop it at the time limit); a daemonic Dask
    # worker may not have children, so the embedded cluster's workers are not daemons.
    dask.config.set({"distributed.worker.daemon": False})
    count = workers if workers is not None else (os.cpu_count() or 1)
    # Workers log at ERROR with a traceback when the scheduler goes first at shutdown (after Ctrl-C or
    # SIGTERM); a task's own error reaches the command through its future, so only CRITICAL is shown.
    cluster = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=count, threads_per_worker=1, processes=True, dashboard_address=":0",
        silence_logs=logging.CRITICAL)
    client = Client(cluster, set_as_default=False)  # type: ignore[no-untyped-call]
    client.run(_ignore_sigint)
    # The worker processes' ids, to end them ourselves if closing the cluster does not (see close()).
    client.stratagem_worker_pids = sorted(client.run(os.getpid).values())  # type: ignore[attr-defined]
    return client


def _check_address(scheduler: str) -> None:
    """Refuse a scheduler address Dask cannot even parse, before a client is made: a client whose
    address was refused is left half-built, and its finaliser prints a traceback at exit."""
    from distributed.comm.registry import get_backend

    shown = " ".join(scheduler.split())[:80] or "''"
    scheme, sep, rest = scheduler.partition("://")
    if not sep:
        scheme, rest = "tcp", scheduler  # Dask's default for host:port
    if not rest or not scheduler.isprintable() or not scheme.isascii():
        raise BadInput(shown, "--scheduler", "not a scheduler address (such as tcp://host:8786)")
    try:
        backend = get_backend(scheme)
    except ValueError as exc:
        raise BadInput(shown, "--scheduler", " ".join(str(exc).split())[:200]) from None
    try:
        _, port = backend.get_address_host_port(rest)  # type: ignore[no-untyped-call]
    except NotImplementedError:  # an address without host and port (inproc://)
        return
    except ValueError as exc:
        raise BadInput(shown, "--scheduler", " ".join(str(exc).split())[:200]) from None
    if not 0 < port < 65536:
        raise BadInput(shown, "--scheduler", f"port {port} is not a TCP port (1 to 65535)")


def _ignore_sigint() -> None:
    """Run on each embedded worker: Ctrl-C reaches the whole process group, and the command (not each
    worker, with a traceback) is the one to answer it, by closing the cluster."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: Seconds :func:`close` waits for Dask to close a client and its embedded cluster before it kills the
#: cluster's worker processes itself.
CLOSE_TIMEOUT = 10.0


def close(client: Any, timeout: float = CLOSE_TIMEOUT) -> bool:
    """Close a client and, when the sweep made it, its cluster (its worker processes end).

    Bounded: Dask's close runs in a helper thread given ``timeout`` seconds. A cluster interrupted
    mid-task can take longer than that, or never finish (seen once after SIGTERM on a long run: the
    command did not exit); then the embedded cluster's worker processes are killed and the command
    goes on. Returns whether Dask's close finished in time.
    """
    import signal
    import threading

    cluster: Any = getattr(client, "cluster", None)
    embedded = cluster is not None and type(cluster).__name__ == "LocalCluster"

    closed: list[bool] = []

    def shut() -> None:
        try:
            client.close(timeout=timeout)
            if embedded:
                cluster.close(timeout=timeout)
            closed.append(True)
        except Exception:  # noqa: BLE001 - a close that fails is one that did not finish: handled below
            pass

    closer = threading.Thread(target=shut, name="close-dask", daemon=True)
    closer.start()
    closer.join(timeout)
    if closed:
        return True
    for pid in getattr(client, "stratagem_worker_pids", []) if embedded else []:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    return False


__all__ = ["SWEEP_FORMAT", "PositionTask", "ResultsFile", "SettingsMismatch", "Tally", "Task", "best_records",
           "outcome_rank", "parse_seeds", "plan", "read_results", "record_key", "run_task", "sweep", "to_run",
           "uncertified"]
