"""What the user's environment does to a command: signals at awkward moments, pipes, locales, terminals,
permissions and places (HOME, TMPDIR, a read-only checkout).

Each test that sends a signal starts ``python -m stratagem`` in a new session with SIGINT and SIGTERM
at their defaults (as a shell starts a command), sends it to the whole process group as a terminal does,
and reads what the command and its children left on stderr and on disk.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import PUZZLES, ROOT

from stratagem.cli.exitcodes import HUNG_UP, INTERRUPTED
from tests.interpreted import without_core_notice


def _as_from_a_shell() -> None:
    """In the child: SIGINT and SIGTERM at their defaults and unblocked, as a shell starts a command."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


def _environment(**changes: str | None) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("STRATAGEM_TRACEBACK", None)
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def _start(args: list[str], cwd: Path, **env: str | None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "stratagem", *args], cwd=cwd, env=_environment(**env),
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=_as_from_a_shell)


def _finish(process: subprocess.Popen[str], timeout: float = 60) -> tuple[int, str, str]:
    try:
        out, err = process.communicate(timeout=timeout)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, out, without_core_notice(err)  # without a compiler that is said first


def _children(pid: int) -> list[str]:
    """The command lines of ``pid``'s child processes (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
            if int(fields[1]) == pid:
                found.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"))
        except (OSError, ValueError, IndexError):
            continue
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ctrl_c_while_the_embedded_cluster_starts_is_one_line(tmp_path: Path) -> None:
    """Ctrl-C in the second or two a Dask sweep takes to start its workers: each worker, already in the
    terminal's process group but not yet told to ignore Ctrl-C, printed a ``KeyboardInterrupt`` traceback
    from the middle of its imports, and the command, stopped inside ``LocalCluster``, left Dask's close at
    exit a second traceback (``AssertionError: Status.init``). The signal is held back until the cluster
    is whole: one line, exit 130, no record file."""
    pytest.importorskip("distributed")
    process = _start(["sweep", str(PUZZLES / "challenge-1.toml"), "--count", "20", "--players", "1",
                      "--time-limit", "5", "--workers", "1", "--out", "s.jsonl"], tmp_path)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if any("spawn_main" in line for line in _children(process.pid)):
            break
        time.sleep(0.005)
    assert process.poll() is None, "the sweep ended before its worker started"
    time.sleep(0.3)
    os.killpg(process.pid, signal.SIGINT)  # a worker is starting: its imports take about a second
    code, _, err = _finish(process)
    assert (code, err) == (INTERRUPTED, "stratagem: interrupted\n")
    assert [p.name for p in tmp_path.iterdir()] == []


def _run(args: list[str], cwd: Path, **env: str | None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "stratagem", *args], cwd=cwd, env=_environment(**env), text=True,
                          capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    done.stderr = without_core_notice(done.stderr)  # without a compiler that is said first
    return done


def test_a_home_that_cannot_hold_matplotlib_s_cache_leaves_report_s_stderr_alone(tmp_path: Path) -> None:
    """``HOME`` where no directory can be made (a service account's, a container's; here a file): matplotlib
    used a temporary cache and said so in two log lines on stderr ("mkdir -p failed ...", "Matplotlib
    created a temporary cache directory ..."), even under ``--quiet``. The report and its plots are the
    same; stderr holds the command's own note only."""
    pytest.importorskip("matplotlib")
    home = tmp_path / "home"
    home.write_text("not a directory\n")
    broken = {"HOME": str(home), "XDG_CONFIG_HOME": None, "XDG_CACHE_HOME": None, "MPLCONFIGDIR": None}
    swept = _run(["sweep", str(PUZZLES / "challenge-0.toml"), "--count", "2", "--players", "1", "--workers", "0",
                  "--out", "s.jsonl", "--quiet"], tmp_path, **broken)
    assert (swept.returncode, swept.stderr) == (0, "")
    quiet = _run(["report", "s.jsonl", "--out", "quiet", "--quiet"], tmp_path, **broken)
    assert (quiet.returncode, quiet.stderr) == (0, "")
    told = _run(["report", "s.jsonl", "--out", "told"], tmp_path, **broken)
    assert told.returncode == 0
    assert told.stderr.splitlines() == ["told/report.md: 2 deal(s); plots lengths.png, seconds.png, solvable.png"]
    assert sorted(p.name for p in (tmp_path / "quiet").iterdir()) == ["lengths.png", "report.md", "seconds.png",
                                                                      "solvable.png"]


def _hang_up_at_defaults() -> None:
    _as_from_a_shell()
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def _hang_up_ignored() -> None:  # as ``nohup`` starts a command
    _as_from_a_shell()
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def _sweep(tmp_path: Path, count: int, preexec: object) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "stratagem", "sweep", str(PUZZLES / "challenge-1.toml"),
                             "--count", str(count), "--players", "1", "--time-limit", "1", "--workers", "0",
                             "--out", "s.jsonl"], cwd=tmp_path, env=_environment(), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=preexec)  # type: ignore[arg-type]


def _records(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def test_a_hang_up_ends_a_command_as_sigterm_does_with_exit_129(tmp_path: Path) -> None:
    """The terminal closed (SIGHUP, to the foreground process group): the command was killed where it stood,
    leaving the sweep's ``OUT.lock`` beside its results (and, in the middle of an atomic write, the
    ``.NAME.XXXX`` temporary file). It unwinds as for SIGTERM: one line, exit 129 (128 + SIGHUP), nothing
    left but whole records, and the next run goes on from them."""
    process = _sweep(tmp_path, 40, _hang_up_at_defaults)
    assert _wait_until(lambda: len(_records(tmp_path / "s.jsonl")) >= 1, 60), "no record was written"
    os.killpg(process.pid, signal.SIGHUP)
    code, _, err = _finish(process)
    assert (code, err) == (HUNG_UP, "stratagem: hung up\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.jsonl"]
    assert all(line.endswith("}") for line in _records(tmp_path / "s.jsonl"))


def test_a_hang_up_is_left_alone_when_nohup_ignores_it(tmp_path: Path) -> None:
    """Under ``nohup`` (SIGHUP ignored) the hang-up must not stop the command: it finishes its work."""
    process = _sweep(tmp_path, 3, _hang_up_ignored)
    assert _wait_until(lambda: len(_records(tmp_path / "s.jsonl")) >= 1, 60), "no record was written"
    os.killpg(process.pid, signal.SIGHUP)
    code, _, err = _finish(process)
    assert code == 0, err
    assert len(_records(tmp_path / "s.jsonl")) == 3


def _wait_until(predicate, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def test_signals_held_holds_a_hang_up_back_too() -> None:
    """The renames of a set of files happen all or none: a hang-up there waited for none of it."""
    from stratagem.core.interrupt import signals_held

    seen: list[str] = []
    previous = signal.signal(signal.SIGHUP, lambda signum, frame: seen.append("handled"))
    try:
        with signals_held():
            signal.raise_signal(signal.SIGHUP)
            seen.append("body done")
        assert seen == ["body done", "handled"]
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_a_hang_up_of_a_dask_sweep_is_one_line(tmp_path: Path) -> None:
    """SIGHUP to the whole process group of a sweep on the embedded cluster: it killed multiprocessing's
    resource tracker too, whose relaunch printed a dozen ``KeyError`` tracebacks under the command's line.
    The tracker and the workers are started with SIGHUP blocked, so the command alone answers it."""
    pytest.importorskip("distributed")
    process = subprocess.Popen([sys.executable, "-m", "stratagem", "sweep", str(PUZZLES / "challenge-1.toml"),
                                "--count", "40", "--players", "1", "--time-limit", "2", "--workers", "1",
                                "--out", "s.jsonl"], cwd=tmp_path, env=_environment(), text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                               preexec_fn=_hang_up_at_defaults)
    assert _wait_until(lambda: len(_records(tmp_path / "s.jsonl")) >= 1, 60), "no record was written"
    os.killpg(process.pid, signal.SIGHUP)
    code, _, err = _finish(process)
    assert (code, err) == (HUNG_UP, "stratagem: hung up\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.jsonl"]


def test_the_value_table_is_spooled_beside_it_not_in_the_temporary_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli) -> None:  # type: ignore[no-untyped-def]
    """``odds --table`` spooled its rows (about 85 bytes each, hundreds of MB for a ten-minute table) in
    the system's temporary directory, often a small RAM-backed /tmp: a full one failed the command as
    "cannot write the output" though the table's folder had room. The temporary directory here is
    unusable (a file), as a full one is: the table is written all the same."""
    import tempfile

    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    monkeypatch.setattr(tempfile, "tempdir", str(blocked))
    table = tmp_path / "odds.gz"
    result = cli("odds", str(PUZZLES / "challenge-0.toml"), "--table", str(table), "--quiet")
    assert result.code == 0, result.err
    assert table.stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["not-a-folder", "odds.gz"]


PROOF_SCRIPT = """
import resource, sys
from pysat.examples.genhard import PHP
from stratagem.solvers.satplan import solve_cnf
resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 16, 1 << 16))  # a file of the temporary directory: 64 KB at most
try:
    sat, _, proof = solve_cnf(PHP(8).clauses, None if sys.argv[1] == "none" else 60.0)
    print("answered", sat, len(proof or []))
except OSError as exc:
    print("OSError", exc.errno, exc.strerror)
"""


@pytest.mark.skipif(not hasattr(os, "fstatvfs"), reason="POSIX")
@pytest.mark.parametrize("limit", ["none", "60"], ids=["in-process", "child"])
def test_a_proof_the_temporary_directory_could_not_hold_is_said_not_checked(tmp_path: Path, limit: str) -> None:
    """CaDiCaL writes its proof into PySAT's temporary file in ``TMPDIR``; a write the disk refused (full:
    a small RAM-backed /tmp; a quota; here the file size limit) was lost without a word, the cut proof
    went to the DRUP checker, and ``solve --method sat`` ended in an internal error ("the DRUP checker
    rejects CaDiCaL's refutation ... (a bug)"). The refutation of the pigeonhole formula PHP(8) is a
    1 MB proof: the solver now says the temporary directory could not hold it, in-process and from the
    child a time limit runs it in."""
    import errno

    done = subprocess.run([sys.executable, "-c", PROOF_SCRIPT, limit], cwd=tmp_path, env=_environment(),
                          text=True, capture_output=True, timeout=120)
    assert done.stderr == ""
    assert done.stdout.startswith(f"OSError {errno.EIO} CaDiCaL's proof could not be written whole in the "
                                  "temporary directory "), done.stdout


@pytest.mark.parametrize("args", [["solve", str(PUZZLES / "challenge-0.toml"), "--proof", "p.json"],
                                  ["sweep", str(PUZZLES / "challenge-0.toml"), "--count", "1", "--workers", "1",
                                   "--out", "{absolute}"]],
                         ids=["relative-output", "dask-workers"])
def test_a_working_directory_removed_under_the_shell_is_one_line(tmp_path: Path, args: list[str]) -> None:
    """A shell left in a folder that was removed can still start commands: an output named relative to it
    was an internal error (``FileNotFoundError`` from resolving it, exit 70), and an embedded Dask cluster,
    whose workers start in it, "internal error: RuntimeError: Nanny failed to start." Both are refused
    before any work, in one line that says why."""
    if "--workers" in args:
        pytest.importorskip("distributed")
    gone = tmp_path / "gone"
    gone.mkdir()
    args = [arg.replace("{absolute}", str(tmp_path / "s.jsonl")) for arg in args]
    done = subprocess.run([sys.executable, "-m", "stratagem", *args], cwd=gone, env=_environment(), text=True,
                          capture_output=True, timeout=120, preexec_fn=lambda: os.rmdir(gone))
    assert done.returncode == 2, done.stderr
    assert len(without_core_notice(done.stderr).splitlines()) == 1, done.stderr
    assert "the current directory no longer exists" in done.stderr
    assert list(tmp_path.iterdir()) == []
