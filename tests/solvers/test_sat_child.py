"""How a time-limited CaDiCaL call starts its child process (``stratagem.solvers.satplan``).

A process running one thread forks it; a process with other threads alive must not fork (the child
could inherit a lock held by another thread: Python 3.12+ warns "use of fork() may lead to deadlocks in
the child"), so it starts a fresh interpreter. The tests hold another thread alive and make ``os.fork``
fail: before the change, every time-limited call forked from whichever thread called it.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pysat.examples.genhard import PHP

import stratagem
from stratagem.models.strato.encodings.sat import StratoCNF, max_turns
from stratagem.models.strato.rules.puzzle import load_puzzle
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.solvers import satplan
from stratagem.solvers.satplan import incremental_search, solve_cnf

ROOT = Path(__file__).resolve().parents[2]
PUZZLE = ROOT / "puzzles" / "strato" / "challenge-0.toml"


@pytest.fixture
def other_thread() -> Iterator[None]:
    """A second thread alive for the length of the test."""
    done = threading.Event()
    thread = threading.Thread(target=done.wait, name="another", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


@pytest.fixture
def no_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused() -> int:
        raise AssertionError("os.fork() called with another thread alive")

    monkeypatch.setattr(os, "fork", refused)


def duo_3() -> StratoGame:
    puzzle = load_puzzle(PUZZLE)
    return puzzle.game(puzzle.find_deal("duo-3"))


def open_formula(game: StratoGame, lo: int, hi: int) -> StratoCNF:
    return StratoCNF(game, hi, open_from=lo)


@pytest.mark.usefixtures("other_thread", "no_fork")
def test_a_refutation_with_other_threads_alive_comes_from_a_child_that_was_not_forked() -> None:
    answer = solve_cnf(PHP(4).clauses, 30.0)
    assert answer is not None
    sat, model, proof = answer
    assert (sat, model) == (False, None) and proof and list(proof)[-1].strip() == "0"


@pytest.mark.usefixtures("other_thread", "no_fork")
def test_a_model_and_the_reports_come_back_from_such_a_child() -> None:
    seen: list[tuple[int, int | None]] = []
    answer = solve_cnf([[1, 2], [-1], [2, 3]], 30.0, lambda conflicts, lines: seen.append((conflicts, lines)))
    assert answer is not None
    sat, model, proof = answer
    assert sat is True and model is not None and {-1, 2} <= set(model) and proof is None
    assert seen and seen[-1][0] >= 0  # the child's reports reach the caller's callback


@pytest.mark.usefixtures("other_thread", "no_fork")
def test_such_a_child_is_stopped_at_the_deadline() -> None:
    started = time.perf_counter()
    assert solve_cnf(PHP(12).clauses, 0.5) is None  # PHP(12) takes CaDiCaL minutes
    assert time.perf_counter() - started < 0.5 * 1.2 + 1


@pytest.mark.usefixtures("other_thread", "no_fork")
def test_the_incremental_search_with_a_builder_that_pickles_does_not_fork() -> None:
    game = duo_3()
    result = incremental_search(functools.partial(open_formula, game), first=0,
                                last=max_turns(game.initial_state()), time_limit=60.0)
    assert result.status == "solved" and len(result.moves or ()) == 5


@pytest.mark.usefixtures("other_thread")
def test_a_builder_that_does_not_pickle_is_still_answered() -> None:
    """A lambda cannot be sent to a fresh interpreter: that search forks, as it did before."""
    game = duo_3()
    result = incremental_search(lambda lo, hi: StratoCNF(game, hi, open_from=lo), first=0,
                                last=max_turns(game.initial_state()), time_limit=60.0)
    assert result.status == "solved" and len(result.moves or ()) == 5


def test_one_thread_still_forks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Alone, the process forks (nothing to copy, no interpreter to start): the cheap way stays."""
    forks: list[int] = []
    real = os.fork

    def counted() -> int:
        forks.append(1)
        return real()

    monkeypatch.setattr(os, "fork", counted)
    monkeypatch.setattr(satplan, "_threads", lambda: 1)
    answer = solve_cnf(PHP(3).clauses, 30.0)
    assert answer is not None and answer[0] is False and forks == [1]


ORPHAN_SCRIPT = """
import threading
from pysat.examples.genhard import PHP
from stratagem.solvers.satplan import solve_cnf
threading.Thread(target=threading.Event().wait, daemon=True).start()
print("solving", flush=True)
solve_cnf(PHP(12).clauses, 600.0)
"""


def test_a_child_started_with_other_threads_alive_dies_with_its_parent(tmp_path: Path) -> None:
    psutil = pytest.importorskip("psutil")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-c", ORPHAN_SCRIPT], cwd=tmp_path, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    children: list[Any] = []
    try:
        assert process.stdout is not None
        assert process.stdout.readline() == "solving\n"
        deadline = time.monotonic() + 30
        while not children and time.monotonic() < deadline:
            children = psutil.Process(process.pid).children()
            time.sleep(0.05)
        assert children, "no CaDiCaL child started"
        assert "_exec_child" in " ".join(children[0].cmdline())  # a fresh interpreter, not a fork
        process.kill()
        process.wait(timeout=10)
        gone, alive = psutil.wait_procs(children, timeout=10)
        assert not alive, "the CaDiCaL child outlived its killed parent"
    finally:
        for child in children:
            if child.is_running():
                child.kill()
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_cli_process_runs_one_thread_once_numpy_is_loaded() -> None:
    """OpenBLAS (loaded with numpy) starts a thread per extra core; the CLI asks it for none, so its SAT
    child is forked. On a machine with one core there is nothing to see."""
    if not Path("/proc/self/task").is_dir():
        pytest.skip("no /proc to count threads")
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    env["PYTHONPATH"] = str(ROOT)
    code = ("import os, stratagem.cli.main, numpy, stratagem.solvers.packed_uct\n"
            "print(len(os.listdir('/proc/self/task')))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1"


@pytest.mark.usefixtures("other_thread", "no_fork")
def test_a_strato_sat_solve_with_other_threads_alive_does_not_fork() -> None:
    """``solve --method sat``'s incremental search hands a builder that pickles (no lambda), so from a
    process with several threads it too runs its CaDiCaL in a fresh interpreter."""
    solution = stratagem.solve(PUZZLE, "duo-3", method="sat", time_limit=60)
    assert solution.status == "solved" and len(solution.moves) == 5
