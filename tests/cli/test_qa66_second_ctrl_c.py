"""QA 66: a second Ctrl-C while a stopped command cleans up.

The first Ctrl-C unwinds the command: ``finally`` blocks remove a temporary ``.NAME.XXXX`` output, a
sweep lets go of its results file and removes ``OUT.lock``, and the CLI prints one line and exits 130.
A user who pressed Ctrl-C again meanwhile (the cleanup of a sweep on Dask takes seconds) raised a second
``KeyboardInterrupt`` inside that cleanup: the lock file or the half-written temporary file stayed, and
one that came while the process exited printed a traceback ("Exception ignored in atexit callback").
Now the stop under way goes on: a later Ctrl-C, SIGTERM or SIGHUP is ignored until the process has
ended, with the first one's exit code.

Each case is made exact rather than timed: the command runs under ``main()`` in a child process whose
code is patched to send itself SIGINT at the two moments (the first, mid-work; the second, inside the
cleanup), as a user's two Ctrl-Cs would arrive there.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import PUZZLES, ROOT

from stratagem.cli.exitcodes import INTERRUPTED
from tests.interpreted import without_core_notice

pytestmark = pytest.mark.skipif(os.name == "nt", reason="os.kill(SIGINT) ends a Windows process at once")

#: Sends this process SIGINT, as a Ctrl-C in its terminal would.
CTRL_C = "os.kill(os.getpid(), signal.SIGINT)"


def _run(tmp_path: Path, patch: str, args: list[str]) -> tuple[int, str]:
    """Run ``stratagem ARGS`` through :func:`stratagem.cli.main.main` in a child process, after ``patch``."""
    script = "import os, signal, sys\n" + textwrap.dedent(patch) + textwrap.dedent(f"""
        from stratagem.cli.main import main
        sys.argv = ["stratagem", *{args!r}]
        main()
        """)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("STRATAGEM_TRACEBACK", None)
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    return done.returncode, without_core_notice(done.stderr)  # without a compiler that is said first


def test_a_second_ctrl_c_while_a_sweep_lets_go_of_its_file_leaves_no_lock(tmp_path: Path) -> None:
    patch = f"""
        from stratagem.sweeprecords import ResultsFile
        append, close = ResultsFile.append, ResultsFile.close
        def appended(self, record):
            append(self, record)
            {CTRL_C}  # the first, once a record is in
        def closed(self):
            {CTRL_C}  # the second, as the sweep lets go of the file
            close(self)
        ResultsFile.append, ResultsFile.close = appended, closed
        """
    code, err = _run(tmp_path, patch, ["sweep", str(PUZZLES / "challenge-0.toml"), "--count", "3", "--players", "1",
                                       "--workers", "0", "--quiet", "--out", "r.jsonl"])
    assert (code, err) == (INTERRUPTED, "stratagem: interrupted\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.jsonl"]  # no r.jsonl.lock
    assert len((tmp_path / "r.jsonl").read_bytes().splitlines()) == 1


def test_a_second_ctrl_c_while_an_output_is_removed_leaves_no_half_written_file(tmp_path: Path) -> None:
    patch = f"""
        import pathlib
        import stratagem.core.outputs as outputs
        fchmod, unlink = os.fchmod, pathlib.Path.unlink
        def filling(fd, mode):  # the first, while the proof record is written to its temporary file
            fchmod(fd, mode)
            {CTRL_C}
        def removing(self, missing_ok=False):
            if self.name.startswith("."):
                {CTRL_C}  # the second, as the temporary file is removed
            unlink(self, missing_ok=missing_ok)
        outputs.os.fchmod, pathlib.Path.unlink = filling, removing
        """
    code, err = _run(tmp_path, patch, ["solve", str(PUZZLES / "challenge-0.toml"), "--quiet", "--proof", "p.json"])
    assert (code, err) == (INTERRUPTED, "stratagem: interrupted\n")
    assert list(tmp_path.iterdir()) == []  # neither p.json nor .p.json.XXXX


def test_a_second_ctrl_c_while_the_process_exits_prints_no_traceback(tmp_path: Path) -> None:
    patch = f"""
        import atexit
        atexit.register(lambda: {CTRL_C})  # runs last: Dask's and multiprocessing's run before it
        import stratagem.solving as solving
        solve = solving.solve
        def solved(*args, **kwargs):
            {CTRL_C}
            return solve(*args, **kwargs)
        solving.solve = solved
        """
    code, err = _run(tmp_path, patch, ["solve", str(PUZZLES / "challenge-0.toml"), "--quiet"])
    assert (code, err) == (INTERRUPTED, "stratagem: interrupted\n")


def test_a_ctrl_c_after_the_answer_keeps_its_exit_code(tmp_path: Path) -> None:
    code, err = _run(tmp_path, f"import atexit\natexit.register(lambda: {CTRL_C})\n",
                     ["solve", str(PUZZLES / "challenge-0.toml"), "--quiet"])
    assert (code, err) == (0, "")


def test_a_first_ctrl_c_still_stops_the_command(tmp_path: Path) -> None:
    """The stop is ignored only once one is under way: a Ctrl-C while an unrelated error is handled stops."""
    patch = f"""
        import stratagem.solving as solving
        solve = solving.solve
        def solved(*args, **kwargs):
            try:
                raise ValueError("handled")
            except ValueError:
                {CTRL_C}
            return solve(*args, **kwargs)
        solving.solve = solved
        """
    code, err = _run(tmp_path, patch, ["solve", str(PUZZLES / "challenge-0.toml"), "--quiet"])
    assert (code, err) == (INTERRUPTED, "stratagem: interrupted\n")



def test_a_ctrl_c_that_lands_in_a_weakref_callback_still_stops_the_command(tmp_path: Path) -> None:
    """Python runs the handler in whatever code comes next, here a callback the collector called, where
    the exception is "ignored": a traceback was printed and the command went on to exit 0."""
    patch = f"""
        import time, weakref
        import stratagem.solving as solving
        solve = solving.solve
        class Thing:
            pass
        def dropped(ref):
            {CTRL_C}
            (lambda: None)()  # a call: the handler runs here, inside the callback
        def solved(*args, **kwargs):
            thing = Thing()
            watch = weakref.ref(thing, dropped)
            del thing
            for _ in range(500):  # five seconds of work on: the Ctrl-C must stop it
                time.sleep(0.01)
            return solve(*args, **kwargs)
        solving.solve = solved
        """
    code, err = _run(tmp_path, patch, ["solve", str(PUZZLES / "challenge-0.toml"), "--quiet"])
    assert (code, err) == (INTERRUPTED, "stratagem: interrupted\n")
