"""Ctrl-C while a time-limited CaDiCaL call's fresh-interpreter child runs (``stratagem.solvers.satplan``).

A process with other threads alive (the CLI's own status line on a terminal runs one) starts its CaDiCaL child
as a fresh interpreter. A terminal's Ctrl-C, sent to the whole process group, reached that child too;
arriving while it imported its work (a tenth of a second or more), it began Python's traceback ("Traceback
(most recent call last):", cut short when the parent killed it) under the command's own "interrupted" line:
2 runs in 12 here. The parent decides what an interruption does and kills its child, so the child now runs
with SIGINT blocked; it stays in the parent's process group, so that Ctrl-Z stops it with its parent.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pysat.examples.genhard import PHP

from stratagem.solvers import satplan

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")


@pytest.fixture
def other_thread() -> Iterator[None]:
    """A second thread alive for the length of the test: the child is then a fresh interpreter."""
    done = threading.Event()
    thread = threading.Thread(target=done.wait, name="another", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def test_a_fresh_interpreter_child_holds_back_the_groups_ctrl_c(other_thread: None) -> None:
    connection, child = satplan._started(satplan._child, (PHP(9).clauses, False))  # minutes of CaDiCaL
    try:
        assert isinstance(child, satplan._Exec)
        # a terminal's Ctrl-C goes to the whole foreground process group: the child holds it back
        status = Path(f"/proc/{child.process.pid}/status").read_text()
        blocked = int(next(line for line in status.splitlines() if line.startswith("SigBlk:")).split()[1], 16)
        assert blocked & (1 << (signal.SIGINT - 1))
        assert os.getpgid(child.process.pid) == os.getpgid(0)  # Ctrl-Z still stops it with its parent
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())  # this thread hears it again
    finally:
        child.kill()
        child.join()
        connection.close()


#: A process with a second thread, in a time-limited solve of a hard formula when the Ctrl-C comes.
HELPER = textwrap.dedent("""
    import threading, time
    threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
    from pysat.examples.genhard import PHP
    from stratagem.solvers import satplan
    try:  # the Ctrl-C may come as soon as "solving" is out, even before the solve begins
        print("solving", flush=True)
        satplan.solve_cnf(PHP(9).clauses, 20.0)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
""")


def test_ctrl_c_during_a_solve_prints_only_the_parents_own_words() -> None:
    helper = subprocess.Popen([sys.executable, "-c", HELPER], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, start_new_session=True)  # a group of its own: the Ctrl-C goes to it alone
    try:
        assert helper.stdout is not None
        assert helper.stdout.readline().strip() == "solving"
        os.killpg(helper.pid, signal.SIGINT)  # as a terminal sends Ctrl-C: to the foreground process group
        out, err = helper.communicate(timeout=60)
    finally:
        if helper.poll() is None:
            helper.kill()
            helper.wait()
    assert out.strip() == "interrupted"
    assert "Traceback" not in err, err


@pytest.mark.parametrize("sent", [b"", b"\x80\x05\x95", pickle.dumps(sys.path) + b"\x80\x05\x95"],
                         ids=["nothing", "half the path", "the path and half the work"])
def test_a_child_whose_work_never_comes_ends_without_a_word(sent: bytes) -> None:
    """A parent interrupted while it wrote the work closed the pipe before it killed its child, which then
    printed Python's traceback of the EOFError on the command's stderr, under its "interrupted" (seen in a
    suite run in the background, whose Ctrl-C tests then ran with SIGINT at its default)."""
    work_r, work_w = os.pipe()
    answers_r, answers_w = os.pipe()
    child = subprocess.Popen([sys.executable, "-c", satplan._BOOT, str(work_r), str(answers_w), str(os.getpid())],
                             pass_fds=(work_r, answers_w), stderr=subprocess.PIPE)
    os.close(work_r)
    os.close(answers_w)
    os.write(work_w, sent)
    os.close(work_w)
    _, err = child.communicate(timeout=60)
    os.close(answers_r)
    assert child.returncode == 1 and err == b""


def test_a_forked_child_holds_back_the_groups_ctrl_c_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process of one thread forks its child; that child heard a terminal's Ctrl-C and could end before
    its parent read an answer, which the parent took for a crash ("the CaDiCaL process ended without an
    answer", an internal error) where it should say interrupted. It now holds SIGINT back as the fresh
    interpreter does, and the parent, which hears it, kills it (review 61)."""
    monkeypatch.setattr(satplan, "_threads", lambda: 1)  # the path of a process running one thread
    connection, child = satplan._started(satplan._child, (PHP(9).clauses, False))
    try:
        assert not isinstance(child, satplan._Exec)  # forked
        status = Path(f"/proc/{child.pid}/status").read_text()  # type: ignore[attr-defined]
        blocked = int(next(line for line in status.splitlines() if line.startswith("SigBlk:")).split()[1], 16)
        assert blocked & (1 << (signal.SIGINT - 1))
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())  # this thread hears it again
    finally:
        child.kill()
        child.join()
        connection.close()
