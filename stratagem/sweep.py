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
told (``force_settings``); retrying (``retry_unknown``, ``retry_uncertified``, ``more_shuffles``) may use
any limit (and any number of shuffles), and
marks its records ``"retry"`` so that they are not taken for the file's settings. Every record carries
its provenance (:mod:`stratagem.core.provenance`): the code that made it.

Dask is an extra (``pip install "stratagem[dist]"``) and imported only when a sweep uses it.

With ``--information hidden`` the tasks are :class:`~stratagem.sweephidden.HiddenTask` objects (the solo
win probability with the pile hidden, and team agents' win rates over shuffles of each deal), planned,
run and checked by :mod:`stratagem.sweephidden`, resumed and retried here like any other task.

This module plans and runs the tasks; the results file and its records are :mod:`stratagem.sweeprecords`,
the Dask client :mod:`stratagem.sweepcluster` (their public names are importable from here too).
"""

from __future__ import annotations

import dataclasses
import hashlib
import shlex
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stratagem import __version__
from stratagem.core.deadline import as_deadline, check_run_limits
from stratagem.core.errors import BadArgument, BadInput, Param, number_text
from stratagem.core.io import MAX_SEED, SEED_RANGE
from stratagem.core.numbers import is_whole
from stratagem.core.provenance import provenance
from stratagem.loading import deal_of, game_of_file, load_position, load_strato
from stratagem.models.strato.rules.puzzle import Puzzle, setup_from_data
from stratagem.models.strato.solve import METHODS
from stratagem.solvers.search import SOLVED
from stratagem.sweepcluster import CONNECT_TIMEOUT, DIST_HINT, close, connect
from stratagem.sweephidden import HiddenTask, check_hidden_settings, hidden_record, run_hidden_task
from stratagem.sweeprecords import (
    MAX_LINE_BYTES,
    MAX_RESULTS_BYTES,
    MAX_TASKS,
    STATUSES,
    SWEEP_FORMAT,
    ResultsFile,
    SettingsMismatch,
    best_records,
    dumps_line,
    games_played,
    outcome_rank,
    parse_record,
    read_results,
    record_key,
    retry_may_certify,
    task_key,
    uncertified,
)

#: Why a record was made by a retry (its ``"retry"`` field; ``None`` for a first run).
RETRY_UNKNOWN = "unknown"
RETRY_UNCERTIFIED = "uncertified"
RETRY_SHUFFLES = "shuffles"


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
        limit = f" --time-limit {number_text(self.time_limit)}" if self.time_limit is not None else ""
        return (f"stratagem solve {shlex.quote(self.puzzle)} --deal {self.seed} --players {self.players} "
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
        limit = f" --time-limit {number_text(self.time_limit)}" if self.time_limit is not None else ""
        return f"stratagem analyze {shlex.quote(self.puzzle)} --method {self.method}{limit}"


#: Any task a sweep runs.
AnyTask = Task | PositionTask | HiddenTask


def parse_seeds(text: str) -> range:
    """``A..B`` (both included) as a range; :class:`ValueError` with the reason otherwise. Seeds are
    0 to :data:`~stratagem.core.io.MAX_SEED` (records hold 64-bit integers), at most :data:`MAX_TASKS`."""
    first, sep, last = text.partition("..")
    shown = text if len(text) <= 60 else text[:57] + "..."
    if not sep or len(first.strip()) > 30 or len(last.strip()) > 30:
        raise ValueError(f"{shown!r} is not a seed range A..B (for example 0..499)")
    # ASCII digits, as every seed is read (cli.seeds): int() also took '٣..٥' and '1_0..2_0' for 3..5 and 10..20
    if not all(end.strip().isascii() and end.strip().isdigit() for end in (first, last)):
        raise ValueError(f"{shown!r} is not a seed range A..B (for example 0..499)")
    a, b = int(first), int(last)
    if a > b or a < 0:
        raise ValueError(f"{shown!r} is not a seed range A..B with 0 <= A <= B")
    if b > MAX_SEED:
        raise ValueError(f"{shown!r}: seeds go up to {MAX_SEED} (2^63-1)")
    if b - a + 1 > MAX_TASKS:
        raise ValueError(f"{shown!r} is {b - a + 1:,} seeds; a sweep runs at most {MAX_TASKS:,}")
    return range(a, b + 1)


def plan(puzzles: Sequence[str | Path], seeds: Iterable[int], players: Iterable[int],
         methods: Iterable[str] = ("auto",), time_limit: float | None = None,
         proof_dir: str | Path | None = None) -> list[Task | PositionTask]:
    """The tasks of a sweep: every puzzle × player count × seed × method, in that order, each once; a
    position file of another game gives one task per method (``seeds`` and ``players`` are for Strato).
    Every method is checked here, against each puzzle it is to run on.

    Each puzzle file is read and checked here (a mistake is :class:`BadInput` before any work), and its
    bytes hashed; so are the seeds (0 to 2^63-1) and the time limit (a :class:`ValueError`, as every entry
    point's): a negative seed or a limit of -1 s was planned, and stopped the sweep at its task.
    """
    if isinstance(puzzles, str | Path):  # a str is a Sequence too: it was read letter by letter ('/: is a directory')
        raise BadInput("<argument>", "puzzles", f"a list of puzzle files, not one {type(puzzles).__name__}")
    check_run_limits(time_limit)
    players, methods = list(players), list(methods)
    # a rising range (--seeds A..B) is counted and bounded by its ends: listing and checking 40 million seeds
    # one by one took 5.8 s and 434 MB before the task count refused them
    if isinstance(seeds, range) and seeds.step == 1:
        checked: Sequence[int] = seeds[::max(len(seeds) - 1, 1)]  # its first and last seed
    else:
        seeds = checked = list(seeds)
    if len(puzzles) * len(seeds) * len(players) * len(methods) > MAX_TASKS:
        raise BadArgument("<argument>", "seeds", f"{len(puzzles)} puzzle(s) x {len(seeds):,} seed(s) x {len(players)} "
                          f"player count(s) x {len(methods)} method(s) is more than the {MAX_TASKS:,} tasks a sweep "
                          "runs")
    for seed in checked:
        if not is_whole(seed, 0, MAX_SEED):
            raise BadArgument("<argument>", "seeds", f"seed {seed!r:.24}: {SEED_RANGE}")
    limit = None if time_limit is None else float(time_limit)  # 10 and 10.0 are one key
    strato = any(game_of_file(path) == "strato" for path in puzzles)
    for method in methods if strato else ():
        if method not in METHODS:
            raise BadArgument("<argument>", "methods", f"unknown method {method!r} (one of {', '.join(METHODS)})")
    for count in players:
        if not 1 <= count <= 4:
            raise BadArgument("<argument>", "players", f"Strato is played by 1 to 4 players, not {count}")
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
        setup = puzzle.setup()  # one dict for the puzzle's tasks, not one each (2 KB a task at 250,000 tasks: 500 MB)
        folder = None if proof_dir is None else str(proof_dir)
        for count in players:
            for seed in seeds:
                for method in methods:
                    task = Task(str(path), digest, puzzle.challenge.name, setup, count, seed, method, limit, folder)
                    tasks.setdefault(task.key, task)
    return list(tasks.values())


def _check_position_method(position: Any, method: str) -> None:
    """Refuse, before any work, an ``analyze`` method that cannot run on this position (a Strato method
    given to a sweep that also holds other games' positions, say), naming the file."""
    from stratagem.analysis.methods import resolve_method

    try:
        resolve_method(position, method)
    except BadInput as exc:
        problem = exc.problem if exc.problem.startswith(method) else f"{method}: {exc.problem}"
        raise BadArgument(position.source, "methods", problem) from None


def run_task(task: AnyTask) -> dict[str, Any]:
    """Solve one task's deal (or analyse its position, or play it with the cards hidden) and return its
    ``stratagem/sweep@1`` record (this runs on a worker)."""
    if isinstance(task, PositionTask):
        return run_position_task(task)
    if isinstance(task, HiddenTask):
        return run_hidden_task(task)
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
    written: dict[str, Any] | None = None  # the proof record of a search-only answer (no certificate)
    if task.proof_dir is not None and answer.has_proof():
        name = f"{Path(task.puzzle).stem}-{task.puzzle_sha256[:8]}-p{task.players}-s{task.seed}-{task.method}.json"
        path = Path(task.proof_dir) / name
        answer.write_proof(path, source)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if certificate is not None:
            certificate.update(proof=name, sha256=digest)
        else:  # a record of the search's answer is not a certificate: `certificate` stays null
            written = {"kind": evidence.get("kind"), "proof": name, "sha256": digest}
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
        **({} if written is None else {"search_proof": written}),
        "seconds": round(time.perf_counter() - started, 3),
        "version": __version__,
        "retry": task.retry,
        "provenance": source,
    }


def _has_proof(analysis: Any) -> bool:
    """Whether the method of ``analysis`` gives a proof at all (:func:`stratagem.analysis.check_provable`)."""
    from stratagem.analysis import check_provable

    try:
        check_provable(analysis.method, analysis.game_rules.num_players)
    except BadInput:
        return False
    return True


#: A position record's ``certificate.kind`` for each format of proof an analysis writes (formats.md 9, 10.8).
POSITION_PROOF_KINDS = {"stratagem/prooftree@1": "proof-tree", "stratagem/matrixproof@2": "bound-certificate",
                        "stratagem/matrixproofs@1": "bound-certificate"}


def run_position_task(task: PositionTask) -> dict[str, Any]:
    """Analyse one position (from the task's text, in a temporary file of the same name) into its record.

    With a proof folder, a solved value's proof goes there within the task's one time limit (the analysis's
    own deadline, as ``stratagem analyze --proof`` shares it), and ``certificate`` names it by its kind. A
    solved answer with no proof to write (MCTS-Solver's, a max^n value of three or more players) or whose
    proof the limit stopped is recorded without a certificate: the record is the analysis's, the proof an
    addition, and refusing it after the work ended the whole sweep with nothing written."""
    import tempfile

    from stratagem.analysis import ProofNotWritten, analyze

    started = time.perf_counter()
    limit = None if task.time_limit is None else as_deadline(task.time_limit)
    with tempfile.TemporaryDirectory(prefix="stratagem-sweep-") as folder:
        path = Path(folder) / Path(task.puzzle).name
        path.write_text(task.text, encoding="utf-8")
        analysis = analyze(path, method=task.method, time_limit=limit)
    report = analysis.to_json()
    certificate: dict[str, Any] | None = None
    if task.proof_dir is not None and report.get("status") == "solved" and _has_proof(analysis):
        name = f"{Path(task.puzzle).stem}-{task.puzzle_sha256[:8]}-{task.method}.json"
        proof = Path(task.proof_dir) / name
        try:
            written = analysis.write_proof(proof, limit, provenance(task.puzzle, task.puzzle_sha256))
        except ProofNotWritten:
            written = None
        if written is not None:
            certificate = {"kind": POSITION_PROOF_KINDS.get(written.format, written.format), "proof": name,
                           "sha256": hashlib.sha256(proof.read_bytes()).hexdigest()}
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


def to_run(tasks: Sequence[AnyTask], results: ResultsFile, *, retry_unknown: bool = False,
           retry_uncertified: bool = False, more_shuffles: bool = False,
           force_settings: bool = False) -> list[AnyTask]:
    """The tasks a sweep runs: those ``results`` holds no record of, and those it retries (each marked
    with why, its ``retry``): with ``more_shuffles``, also the agent tasks of a hidden sweep whose best
    record played fewer games than the task's ``shuffles`` (the retry plays all of them).
    :class:`SettingsMismatch` when new deals would get another time limit than the file's first-run
    records, unless ``force_settings``."""
    held = {record_key(r) for r in results.records}
    done = results.done(retry_unknown, retry_uncertified)
    best = best_records(results.records)
    out: list[AnyTask] = []
    for task in tasks:
        if task.key not in held:
            out.append(task)
        elif task.key not in done:
            why = RETRY_UNKNOWN if best[task.key].get("status") == "unknown" else RETRY_UNCERTIFIED
            out.append(dataclasses.replace(task, retry=why))
        elif (more_shuffles and isinstance(task, HiddenTask) and task.agent is not None
              and games_played(best[task.key]) < task.shuffles):
            out.append(dataclasses.replace(task, retry=RETRY_SHUFFLES))
    new = [t for t in out if t.retry is None]
    hidden = any(isinstance(t, HiddenTask) for t in tasks)
    for number, record in enumerate(results.records, 1):  # one sweep a file, --force-settings or not
        if hidden_record(record) != hidden:
            held_kind, mine = ("an open", "hidden") if hidden else ("a hidden", "open")
            raise BadInput(results.path, f"line {number}", f"holds {held_kind}-information record: a results file "
                           f"is one sweep; give the {mine}-information sweep a file of its own")
    if hidden:
        if not force_settings:
            check_hidden_settings([t for t in tasks if isinstance(t, HiddenTask)], results,
                                  [t for t in new if isinstance(t, HiddenTask)], more_shuffles)
        return out
    limits = results.time_limits()
    if new and not force_settings:
        limit = new[0].time_limit
        other = {seen: line for seen, line in limits.items() if seen != limit}
        if other:
            held_limit, line = min(other.items(), key=lambda item: item[1])
            raise SettingsMismatch(results.path, f"line {line}", (
                "made with ", _limit_words(held_limit), f"; this run would add {len(new):,} deal(s) with ",
                _limit_words(limit), ": "
                + ("give the file's limit to resume" if held_limit is not None else
                   "the command line always sets a limit, so resume it from Python (time_limit=None)")
                + ", ", Param("retry_unknown", True), " to re-run only its undecided deals, or ",
                Param("force_settings", True), " to mix limits in one file"))
    return out


def edited_puzzles(tasks: Sequence[AnyTask], results: ResultsFile) -> list[tuple[str, int]]:
    """The puzzle files of this run that the results file has records of under the same name but other bytes
    (a card edited since), each with the first such line: a designer should know that the file now holds
    two versions of the card, however rightly they are kept apart."""
    now = {str(t.puzzle): t.puzzle_sha256 for t in tasks}
    found: dict[str, int] = {}
    for number, record in enumerate(results.records, 1):
        path = str(record.get("puzzle"))
        if path in now and path not in found and record.get("puzzle_sha256") != now[path]:
            found[path] = number
    return sorted(found.items(), key=lambda item: item[1])


def never_certified(tasks: Sequence[AnyTask], results: ResultsFile) -> dict[str, int]:
    """The uncertified deals of this run's tasks whose method cannot certify, counted by method: what
    --retry-uncertified leaves as it is."""
    best = best_records(results.records)
    kept: dict[str, int] = {}
    for task in tasks:
        record = best.get(task.key)
        if record is not None and uncertified(record) and not retry_may_certify(record):
            kept[task.method] = kept.get(task.method, 0) + 1
    return kept


def fewer_shuffles(tasks: Sequence[AnyTask], results: ResultsFile, running: set[str]) -> int:
    """How many of a hidden sweep's agent tasks the results file holds with a counted record asked for fewer
    games than the task's ``shuffles``, and this run does not run again (``running``: a --retry-unknown
    retry plays this run's --shuffles): the same command with a larger --shuffles does not play them,
    and saying nothing would let the user think it had."""
    best = best_records(results.records)
    return sum(1 for t in tasks if isinstance(t, HiddenTask) and t.agent is not None and t.key in best
               and t.key not in running and int((best[t.key].get("team") or {}).get("shuffles") or 0) < t.shuffles)


def _limit_words(limit: float | None) -> str | Param:
    """A time limit as a refusal names it: the parameter with its value (``time_limit=120``, or the CLI's
    ``--time-limit 120``), or "no time limit"."""
    return "no time limit" if limit is None else Param("time_limit", float(limit))


def sweep(tasks: Sequence[AnyTask], results: ResultsFile, *, workers: int | None = None,
          scheduler: str | None = None, on_record: OnRecord | None = None,
          on_failure: Callable[[AnyTask, str], None] | None = None,
          connect_timeout: float = CONNECT_TIMEOUT, retry_unknown: bool = False, retry_uncertified: bool = False,
          more_shuffles: bool = False, force_settings: bool = False,
          on_note: Callable[[str], None] | None = None, on_start: Callable[[], None] | None = None) -> Tally:
    """Run the tasks whose records ``results`` does not hold yet, appending each record as it arrives.

    ``workers=0`` runs them here, one after another; otherwise on Dask: ``scheduler`` (an address such
    as ``tcp://host:8786``) or an embedded ``LocalCluster`` of ``workers`` processes (``None``: one per
    core). ``results`` must have been :meth:`~ResultsFile.check`-ed. A task whose worker died more
    often than Dask allows is reported to ``on_failure`` and left out (the next run tries it again).
    ``retry_unknown`` runs again the tasks whose best record is ``unknown`` (with a longer limit, after a
    faster release, or on a quieter machine); ``retry_uncertified`` those whose optimum rests on a search
    alone; ``more_shuffles`` the agent tasks of a hidden sweep whose record played fewer games than
    asked. The new record is appended after the old one; :func:`best_records` chooses which counts.
    New deals with another time limit than the file's are refused (:func:`to_run`) unless ``force_settings``.
    ``on_note`` is told when the ``scheduler`` has no worker as the run starts: Dask then waits for one
    without a word, and a sweep that waits looked the same as one that hung. ``on_start`` is called once
    the cluster is reached and the results file is open, just before the first task: what a caller has
    to say about the run (the command line's notice of a missing compiled core) then never comes before
    a refusal of the scheduler, the workers or the file, which stays the one line on stderr.
    """
    client = None
    try:  # however it ends, the results file is let go of (ResultsFile.close)
        todo = to_run(tasks, results, retry_unknown=retry_unknown, retry_uncertified=retry_uncertified,
                      more_shuffles=more_shuffles, force_settings=force_settings)
        tally = Tally(total=len(todo), skipped=len(tasks) - len(todo))
        if tally.total and any(t.proof_dir for t in todo):
            for folder in {t.proof_dir for t in todo if t.proof_dir}:
                Path(folder).mkdir(parents=True, exist_ok=True)
        client = None if workers == 0 and scheduler is None else connect(workers, scheduler, connect_timeout)
        if client is not None and scheduler is not None and todo and on_note is not None and not _has_workers(client):
            on_note(f"{scheduler}: the scheduler has no worker yet; the sweep waits for one (start workers with "
                    f"`dask worker {scheduler}`, or stop the sweep: the next run does what is missing)")
        results.open()
        if on_start is not None:
            on_start()
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


def _has_workers(client: Any) -> bool:
    """Whether the client's scheduler has a worker now (one that cannot be asked counts as one: say nothing)."""
    try:
        return bool(client.scheduler_info().get("workers"))
    except Exception:  # noqa: BLE001 - a note's question must not stop the sweep
        return True


def _keep(record: dict[str, Any], results: ResultsFile, tally: Tally, on_record: OnRecord | None) -> None:
    results.append(record)
    tally.add(record)
    if on_record is not None:
        on_record(record, tally)


#: What a task that failed because its worker is a daemon is said to need: ``dask worker`` starts its
#: workers as daemons (under a nanny), and the SAT method's solver runs in a child process, which a
#: daemon may not start (Python's words: "daemonic processes are not allowed to have children").
DAEMON_HINT = ("a daemonic Dask worker cannot start the SAT solver's child process: start the workers with "
               "DASK_DISTRIBUTED__WORKER__DAEMON=False (or dask worker --no-nanny)")


def failure_words(exc: BaseException) -> str:
    """Why a task failed on the cluster, in one line: the exception, or for a daemonic worker's refusal to
    start a child process, what to do about it (:data:`DAEMON_HINT`): Python's assertion alone named
    neither the cause nor the cure, and every SAT task of such a cluster fails alike. Dask's KilledWorker
    is said short enough to keep the last worker's address, which its long sentence pushed past the cut."""
    words = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, AssertionError) and "daemonic processes are not allowed to have children" in str(exc):
        return DAEMON_HINT
    failures, last = getattr(exc, "allowed_failures", None), getattr(getattr(exc, "last_worker", None), "address", None)
    if type(exc).__name__ == "KilledWorker" and isinstance(failures, int) and last is not None:
        # Dask's own sentence is 400 characters, the worker's address past the 200 a failure line shows
        return (f"KilledWorker: {failures + 1} worker(s) died while it was given to them (Dask's allowed-failures "
                f"{failures}), the last {last}: its log says why")
    return words


def _run_on_dask(client: Any, todo: list[AnyTask], results: ResultsFile, tally: Tally,
                 on_record: OnRecord | None, on_failure: Callable[[AnyTask, str], None] | None) -> None:
    from distributed import as_completed

    futures = client.map(run_task, todo, pure=False)
    task_of = {f.key: t for f, t in zip(futures, todo, strict=True)}
    for future in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
        try:
            record = future.result()
        except Exception as exc:  # a worker died too often (KilledWorker), or a bug on the worker
            tally.failed += 1
            if on_failure is not None:
                on_failure(task_of[future.key], failure_words(exc))
            continue
        _keep(record, results, tally, on_record)


__all__ = ["CONNECT_TIMEOUT", "DIST_HINT", "MAX_LINE_BYTES", "MAX_RESULTS_BYTES", "MAX_TASKS", "STATUSES",
           "SWEEP_FORMAT", "AnyTask", "HiddenTask", "PositionTask", "ResultsFile", "SettingsMismatch", "Tally", "Task",
           "best_records", "close", "connect", "dumps_line", "edited_puzzles", "fewer_shuffles", "never_certified",
           "outcome_rank", "parse_record", "parse_seeds", "plan", "read_results", "record_key", "run_task", "sweep",
           "task_key", "to_run", "uncertified"]
