"""Signals, as a user sends them: Ctrl-C (SIGINT, to the whole process group as a terminal does) gives
exit 130 and one line "stratagem: interrupted", also inside a CaDiCaL call; SIGTERM gives exit 143 and
"stratagem: terminated". Either way no temporary ``.NAME.*`` file and no half-written output is left.

Each test starts ``python -m stratagem`` on a long job in a new session, waits until the job is well
under way, sends the signal, and reads what the process left behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import PUZZLES, ROOT

from stratagem.cli.exitcodes import INTERRUPTED, TERMINATED

LEVEL_2 = PUZZLES / "level-2-example.toml"


def _start(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("STRATAGEM_TRACEBACK", None)
    return subprocess.Popen([sys.executable, "-m", "stratagem", *args], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=_as_from_a_shell)


def _as_from_a_shell() -> None:
    """In the child: SIGINT and SIGTERM at their defaults, as a shell starts a command. The suite's own
    process may have SIGINT ignored by then (seen in the full default run: some earlier test or library
    leaves it so), and an ignored disposition is inherited across exec, so the command would never see
    the Ctrl-C this file sends."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _stop(process: subprocess.Popen[str], sig: int, group: bool = True) -> tuple[int, str]:
    if group:
        os.killpg(process.pid, sig)
    else:
        process.send_signal(sig)
    try:
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, err


def _wait_for(predicate, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_ctrl_c_during_a_search_is_exit_130(tmp_path: Path) -> None:
    process = _start(["reach", str(LEVEL_2), "--max-nodes", "5000000"], tmp_path)
    time.sleep(1.5)
    code, err = _stop(process, signal.SIGINT)
    assert code == INTERRUPTED, err
    assert err == "stratagem: interrupted\n"


def test_sigterm_while_the_graph_is_written_removes_the_temporary_file(tmp_path: Path) -> None:
    """The audit's case: ``reach --export graphml`` killed while writing left ``.g.graphml.XXXX`` behind."""
    process = _start(["reach", str(LEVEL_2), "--max-nodes", "60000", "--export", "graphml", "--out", "g.graphml"],
                     tmp_path)
    writing = _wait_for(lambda: any(p.name.startswith(".g.graphml.") and not p.name.endswith(".probe")
                                    for p in tmp_path.iterdir()), 120)  # the file, not --out's writability probe
    code, err = _stop(process, signal.SIGTERM, group=False)
    if not writing:
        pytest.skip("the graph was never caught being written")
    assert code == TERMINATED, err
    assert err == "stratagem: terminated\n"
    assert _leftovers(tmp_path) == []
    assert not (tmp_path / "g.graphml").exists()


def test_sigterm_during_a_search_is_exit_143(tmp_path: Path) -> None:
    process = _start(["reach", str(LEVEL_2), "--max-nodes", "5000000", "--export", "dot", "--out", "g.dot"],
                     tmp_path)
    time.sleep(1.5)
    code, err = _stop(process, signal.SIGTERM, group=False)
    assert code == TERMINATED, err
    assert err == "stratagem: terminated\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_ctrl_c_inside_a_time_limited_sat_solve_is_one_line(tmp_path: Path) -> None:
    """With a time limit CaDiCaL runs in a forked child; Ctrl-C reaches both, and only the parent speaks."""
    process = _start(["solve", str(LEVEL_2), "--method", "sat", "--time-limit", "300", "--proof", "p.json"],
                     tmp_path)
    time.sleep(8)
    code, err = _stop(process, signal.SIGINT)
    assert code == INTERRUPTED, err
    assert err == "stratagem: interrupted\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_ctrl_c_inside_an_unlimited_sat_solve_is_one_line(tmp_path: Path) -> None:
    process = _start(["solve", str(LEVEL_2), "--method", "sat", "--proof", "p.json"], tmp_path)
    time.sleep(8)
    code, err = _stop(process, signal.SIGINT)
    assert code == INTERRUPTED, err
    assert err == "stratagem: interrupted\n"
    assert list(tmp_path.iterdir()) == []


CADICAL_SCRIPT = """
import sys
from pysat.examples.genhard import PHP
from stratagem.solvers.satplan import solve_cnf
print("solving", flush=True)
try:
    solve_cnf(PHP(12).clauses, None)
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
    sys.exit(0)
print("finished", flush=True)
"""


def test_ctrl_c_inside_cadical_is_a_keyboard_interrupt(tmp_path: Path) -> None:
    """PySAT turns Ctrl-C in CaDiCaL into ``pysolvers.error``; the solver call turns it back into
    KeyboardInterrupt, which the CLI reports as "interrupted" with exit 130 (a pigeonhole formula keeps
    CaDiCaL busy for minutes, so the signal surely lands inside the call)."""
    def as_a_terminal_leaves_it() -> None:
        # SIGINT's disposition and mask are inherited: a test worker that ignores or blocks it (the full
        # suite's did, twice, in stop 42; the test alone passed) would make this child deaf to Ctrl-C.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-c", CADICAL_SCRIPT], cwd=tmp_path, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                               preexec_fn=as_a_terminal_leaves_it)
    assert process.stdout is not None
    assert process.stdout.readline() == "solving\n"
    time.sleep(1.5)
    os.killpg(process.pid, signal.SIGINT)
    try:
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert out == "KeyboardInterrupt\n", err
    assert process.returncode == 0


def test_a_swallowed_sigterm_still_stops_the_atomic_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bare ``except:`` in a library (networkx has one) can swallow the first ``Terminated``; the flag the
    handler sets still keeps every atomic writer from putting its file in place."""
    import networkx as nx

    from stratagem.core.errors import Terminated
    from stratagem.core.outputs import write_atomic
    from stratagem.solvers.dimacs import write_text_maybe_gz
    from stratagem.solvers.graph import write_dot

    monkeypatch.setattr(Terminated, "requested", True)
    for write in (lambda p: write_atomic(p, "x"), lambda p: write_text_maybe_gz(p, "x"),
                  lambda p: write_dot(nx.DiGraph(), p)):
        with pytest.raises(Terminated):
            write(tmp_path / "out")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [["show", str(LEVEL_2)],
                                  ["reach", str(PUZZLES / "challenge-0.toml"), "--json", "--max-nodes", "2000"]],
                         ids=["rich", "echo"])
def test_a_reader_that_stops_reading_is_exit_141_and_silent(tmp_path: Path, args: list[str]) -> None:
    """``stratagem ... | head``: exit 141 (128 + SIGPIPE) and nothing on stderr, whether the output goes
    through rich (whose own handling would exit 1, a checked "no") or through click."""
    process = _start(args, tmp_path)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=60) == 141
    assert err == ""


def test_a_reader_that_stops_in_the_middle_of_the_output_is_exit_141(tmp_path: Path) -> None:
    """``stratagem export ... | head -1`` on a long formula: the reader takes a little and closes while the
    rest is still in stdout's buffer. It once exited 0 (the buffer's failed flush at exit went unnoticed);
    it is exit 141 and silent, as when the pipe was closed from the start."""
    process = _start(["export", str(PUZZLES / "challenge-0.toml"), "--horizon", "8"], tmp_path)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.read(100)
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=60) == 141
    assert err == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["show", str(LEVEL_2)], ["--version"]], ids=["show", "version"])
def test_a_full_disk_is_one_line_and_exit_74(tmp_path: Path, args: list[str]) -> None:
    """Output to a full device: one line naming the system's reason, exit 74 (EX_IOERR); it was an
    "internal error" (exit 70), then, once stdout was written whole, a traceback at exit (exit 120)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("STRATAGEM_TRACEBACK", None)
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "stratagem", *args], cwd=tmp_path, env=env, text=True,
                              stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert done.returncode == 74, done.stderr
    assert done.stderr.strip().splitlines() == ["stratagem: cannot write the output: No space left on device"]


def test_a_closed_stdout_is_exit_74_and_a_refusal_without_stderr_still_exit_2(tmp_path: Path) -> None:
    """Started with stdout closed (``>&-``), a command that prints says so and exits 74 (it was an
    internal error, exit 70); with stderr unwritable, a refusal still exits 2 (its failed write made it 1,
    which reads as a checked "no")."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("STRATAGEM_TRACEBACK", None)
    closed = subprocess.run([sys.executable, "-m", "stratagem", "show", str(LEVEL_2)], cwd=tmp_path, env=env,
                            text=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60,
                            preexec_fn=lambda: os.close(1))
    assert closed.returncode == 74, closed.stderr
    assert closed.stderr.strip() == "stratagem: cannot write the output: standard output is closed"
    if Path("/dev/full").exists():
        with open("/dev/full", "w") as full:
            refused = subprocess.run([sys.executable, "-m", "stratagem", "show", str(tmp_path / "none.toml")],
                                     cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=full, timeout=60)
        assert refused.returncode == 2


def test_stop_on_signal_calls_the_solvers_stop_when_a_signal_arrives() -> None:
    """The bridge for native solvers that hold the main thread (CP-SAT): a signal reaches ``stop``."""
    import threading

    from stratagem.core.interrupt import stop_on_signal

    stopped = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda signum, frame: None)
    try:
        with stop_on_signal(stopped.set):
            os.kill(os.getpid(), signal.SIGINT)
            assert stopped.wait(5)
        quiet = threading.Event()
        with stop_on_signal(quiet.set):
            pass
        assert not quiet.is_set()
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.slow
@pytest.mark.parametrize(("sig", "code", "line"), [(signal.SIGINT, INTERRUPTED, "stratagem: interrupted\n"),
                                                   (signal.SIGTERM, TERMINATED, "stratagem: terminated\n")])
def test_a_signal_inside_cp_sat_is_interrupted_not_unknown(tmp_path: Path, sig: int, code: int, line: str) -> None:
    """CP-SAT caught Ctrl-C itself and answered "stopped" (exit 3, as if a limit had stopped it)."""
    process = _start(["check", str(ROOT / "puzzles" / "stakd" / "solo.toml"), "--method", "cpsat"], tmp_path)
    time.sleep(4)
    assert process.poll() is None, "the solve ended before the signal"
    got, err = _stop(process, sig)
    assert (got, err) == (code, line)


ORPHAN_SCRIPT = """
from pysat.examples.genhard import PHP
from stratagem.solvers.satplan import solve_cnf
print("solving", flush=True)
solve_cnf(PHP(12).clauses, 600.0)
"""


def test_a_time_limited_cadical_child_dies_with_its_parent(tmp_path: Path) -> None:
    """A killed parent (kill -9 of a sweep's Dask worker) must not leave its CaDiCaL child running alone:
    only the parent kept the deadline."""
    psutil = pytest.importorskip("psutil")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-c", ORPHAN_SCRIPT], cwd=tmp_path, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert process.stdout is not None
        assert process.stdout.readline() == "solving\n"
        deadline = time.monotonic() + 30
        children: list[Any] = []
        while not children and time.monotonic() < deadline:
            children = psutil.Process(process.pid).children()
            time.sleep(0.05)
        assert children, "no CaDiCaL child started"
        process.kill()
        process.wait(timeout=10)
        _, alive = psutil.wait_procs(children, timeout=10)
        assert alive == []
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
