"""QA 65 (portability): the commands on Windows and macOS, as far as Linux can show them.

The project was developed and tested on Linux only. On a Windows Python every command stopped at its
first import (``signal.SIGHUP``), then at the first file it read (``os.O_NONBLOCK``) or wrote
(``signal.pthread_sigmask``); ``sweep`` and ``report`` at ``import fcntl``; ``solve --method sat`` with a
time limit at multiprocessing's 'fork'; and ``--json`` and the sweep's records came out with CR LF line
ends. The commands run here in an interpreter that lacks what Windows lacks (tests/cli/windowslike.py);
macOS, which can fork but should not, is a platform name. Each test fails on the old code.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from windowslike import PRELUDE

from stratagem import sweepcluster
from stratagem.cli import wholewrites
from stratagem.solvers import satplan

ROOT = Path(__file__).resolve().parents[2]
CHALLENGE_0 = ROOT / "puzzles" / "strato" / "challenge-0.toml"


def windows_like(code: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """Run ``code`` in a fresh interpreter after :data:`PRELUDE`; stdout and stderr as bytes."""
    return subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(code)], cwd=cwd, capture_output=True,
                          timeout=300, check=False)


def stratagem_windows_like(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """The console script's ``main`` with ``args``, in the Windows-like interpreter."""
    return windows_like(f"import sys\nsys.argv = ['stratagem', *{list(args)!r}]\n"
                        "from stratagem.cli.main import main\nmain()\n", tmp_path)


def test_solve_writes_its_proof_and_prints_json_with_lf_line_ends(tmp_path: Path) -> None:
    """Every command stopped before (SIGHUP at import, then pthread_sigmask and O_NONBLOCK); ``--json``
    was written through a text stream that turns LF into Windows' CR LF."""
    proof = tmp_path / "p.json"
    done = stratagem_windows_like(tmp_path, "solve", str(CHALLENGE_0), "--proof", str(proof), "--json")
    assert done.returncode == 0, done.stderr.decode()
    assert b"\r" not in done.stdout and json.loads(done.stdout)["status"] == "solved"
    assert b"\r" not in proof.read_bytes()
    checked = stratagem_windows_like(tmp_path, "verify", str(proof))
    assert checked.returncode == 0 and b"proof valid: every claim certified" in checked.stdout, checked.stderr


def test_a_sweep_takes_its_lock_and_writes_lf_records(tmp_path: Path) -> None:
    """``import fcntl`` stopped every sweep and report; the results file, opened without O_BINARY, had
    each record's LF written as CR LF."""
    out = tmp_path / "r.jsonl"
    done = stratagem_windows_like(tmp_path, "sweep", str(CHALLENGE_0), "--seeds", "1..2", "--workers", "0",
                                  "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr.decode()
    data = out.read_bytes()
    assert b"\r" not in data and data.count(b"\n") == 2
    assert not Path(f"{out}.lock").exists()


def test_a_torn_line_after_cr_lf_records_is_cut_where_it_begins(tmp_path: Path) -> None:
    """A results file with CR LF line ends (edited on Windows) and a torn last line: read through a
    text-mode descriptor (no O_BINARY), each CR LF counted one byte, so the cut meant for the torn line fell
    inside the records before it."""
    out = tmp_path / "r.jsonl"
    first = stratagem_windows_like(tmp_path, "sweep", str(CHALLENGE_0), "--seeds", "1..2", "--workers", "0",
                                   "--out", str(out), "--quiet")
    assert first.returncode == 0, first.stderr.decode()
    records = out.read_bytes().replace(b"\n", b"\r\n")
    out.write_bytes(records + b'{"format": "strato')
    again = stratagem_windows_like(tmp_path, "sweep", str(CHALLENGE_0), "--seeds", "1..3", "--workers", "0",
                                   "--out", str(out), "--quiet")
    assert again.returncode == 0, again.stderr.decode()
    data = out.read_bytes()
    assert data.startswith(records) and data.count(b"\n") == 3 and data.endswith(b"}\n")


def test_a_second_sweep_is_refused_by_the_windows_lock(tmp_path: Path) -> None:
    """Windows locks with ``msvcrt.locking``; the lock file is removed once closed (an open file cannot
    be removed there)."""
    done = windows_like(f"""
        from stratagem.core.errors import BadInput
        from stratagem.sweeprecords import ResultsFile
        first = ResultsFile({str(tmp_path / 'r.jsonl')!r})
        first.check()
        try:
            ResultsFile(first.path).check()
        except BadInput as exc:
            print("refused:", exc)
        first.close()
        import os
        print("lock left:", os.path.exists(first.lock_path))
        """, tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    assert b"refused: " in done.stdout and b"another stratagem sweep is writing" in done.stdout
    assert b"lock left: False" in done.stdout


def test_solve_sat_with_a_limit_starts_its_solver_by_spawn(tmp_path: Path) -> None:
    """The limit's CaDiCaL child was always asked of the 'fork' context, which Windows lacks: exit 70."""
    proof = tmp_path / "sat.json"
    done = stratagem_windows_like(tmp_path, "solve", str(CHALLENGE_0), "--method", "sat", "--time-limit", "60",
                                  "--proof", str(proof), "--quiet")
    assert done.returncode == 0, done.stderr.decode()
    record = json.loads(proof.read_text(encoding="utf-8"))
    assert record["claim"]["optimal"] and record["evidence"]["kind"] == "drup-refutation"
    checked = stratagem_windows_like(tmp_path, "verify", str(proof))
    assert checked.returncode == 0 and b"proof valid: every claim certified" in checked.stdout, checked.stderr


def test_the_dask_cluster_starts_without_blocking_signals(tmp_path: Path) -> None:
    """The embedded cluster's start blocked SIGINT and SIGHUP with pthread_sigmask, which Windows lacks."""
    done = windows_like("""
        from stratagem.sweepcluster import _held_from_workers
        with _held_from_workers() as release:
            release()
        print("started")
        """, tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == b"started", done.stderr.decode()


def test_closing_a_stuck_cluster_kills_its_workers_without_sigkill(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows has no SIGKILL (os.kill's SIGTERM ends a process there): the workers of a cluster whose close
    did not finish were killed with it, an AttributeError on Windows."""
    worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    stuck = threading.Event()

    class LocalCluster:
        def close(self, timeout: float) -> None:
            stuck.wait(30)

    class Client:
        cluster = LocalCluster()
        stratagem_worker_pids = [worker.pid]

        def close(self, timeout: float) -> None:
            stuck.wait(30)

    monkeypatch.delattr(signal, "SIGKILL")
    try:
        assert sweepcluster.close(Client(), timeout=0.2) is False
        assert worker.wait(timeout=10) == -signal.SIGTERM
    finally:
        stuck.set()
        if worker.poll() is None:
            worker.kill()
            worker.wait()


def test_on_macos_the_sat_child_is_a_fresh_interpreter_not_a_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fork is unsafe on macOS even with one thread (its system libraries); the child was forked whenever
    the process ran one thread."""
    real = satplan.multiprocessing.get_context

    def no_fork(method: str | None = None):  # type: ignore[no-untyped-def]
        assert method != "fork", "forked on macOS"
        return real(method)

    monkeypatch.setattr(satplan.sys, "platform", "darwin")
    monkeypatch.setattr(satplan, "_threads", lambda: 1)
    monkeypatch.setattr(satplan.multiprocessing, "get_context", no_fork)
    clauses = [[1, 2], [-1], [-2]]
    started = time.perf_counter()
    assert satplan.solve_cnf(clauses, 60.0) == satplan.solve_cnf(clauses, None)
    assert time.perf_counter() - started < 60


def test_git_checks_out_every_text_file_with_lf(tmp_path: Path) -> None:
    """Git for Windows turns LF into CR LF at checkout by default (core.autocrlf): the puzzles' bytes, which
    the shipped sweep records and proofs name by their SHA-256, then differed from every record's
    ``puzzle_sha256``. ``.gitattributes`` keeps LF."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    names = ["puzzles/strato/challenge-0.toml", "results/strato-certified.md", "stratagem/sweep.py"]
    done = subprocess.run(["git", "check-attr", "eol", "--", *names], cwd=ROOT, capture_output=True, text=True,
                          check=True, env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1"})
    assert done.stdout.splitlines() == [f"{name}: eol: lf" for name in names]


def test_strato_bench_imports_without_the_resource_module(tmp_path: Path) -> None:
    """``import resource`` (Fast Downward's CPU times) stopped every Strato bench on Windows at import; there
    the planner table is left out, as without the ``planners`` extra."""
    done = windows_like("""
        import stratagem.bench.strato
        from stratagem.solvers import fast_downward
        print("driver:", fast_downward.driver())
        """, tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == b"driver: None", done.stderr.decode()


def test_a_windows_console_keeps_its_own_stdout(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Python writes to a Windows console as text (``_WindowsConsoleIO``); UTF-8 bytes written to its
    descriptor instead showed each '·' or '←' as two or three characters of the console's code page."""

    class _WindowsConsoleIO(io.RawIOBase):  # the name is what tells; a file stands in for the console
        def __init__(self, fd: int) -> None:
            self.fd = fd

        def fileno(self) -> int:
            return self.fd

        def writable(self) -> bool:
            return True

    with open(tmp_path / "console", "wb") as console:
        stdout = io.TextIOWrapper(io.BufferedWriter(_WindowsConsoleIO(console.fileno())), encoding="utf-8")
        monkeypatch.setattr(sys, "stdout", stdout)
        wholewrites.write_stdout_whole()
        assert sys.stdout is stdout


def test_ctrl_c_stops_a_native_solver_call(tmp_path: Path) -> None:
    """Around CP-SAT, Ctrl-C calls the solver's stop from a thread watching Python's wake-up descriptor.
    That descriptor was a pipe made non-blocking with os.set_blocking, which Windows' Python 3.11 lacks
    (and Windows takes only a socket there): the watch was left out, so Ctrl-C waited for the solver."""
    done = windows_like("""
        import signal, threading
        from stratagem.core.interrupt import stop_on_signal
        signal.signal(signal.SIGINT, lambda signum, frame: None)
        stopped = threading.Event()
        with stop_on_signal(stopped.set):
            signal.raise_signal(signal.SIGINT)
            print("stopped:", stopped.wait(10))
        """, tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == b"stopped: True", done.stderr.decode()


def test_setup_run_again_by_a_spawned_worker_builds_nothing(tmp_path: Path) -> None:
    """Cython's process pool, started with 'spawn' (macOS, Windows), runs setup.py again in each worker as
    ``__mp_main__``: unguarded, each called setup() (a build of its own) and died, and ``python setup.py
    build_ext --inplace`` of two or more kernels ended in BrokenProcessPool. Run so here, it calls nothing."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import runpy, setuptools
        calls = []
        setuptools.setup = lambda **kwargs: calls.append(kwargs)
        runpy.run_path("setup.py", run_name="__mp_main__")
        print("setup() calls:", len(calls))
        runpy.run_path("setup.py", run_name="__main__")
        print("setup() calls:", len(calls))
        """)], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "STRATAGEM_PURE_PYTHON": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["setup() calls: 0", "setup() calls: 1"]
