"""A sweep on a Dask cluster set up by hand (``--scheduler``): an address it cannot use is one line, and a
task that fails because of how the workers were started says what to do (QA pass of the Dask sweeps), and
daemonic workers (``dask worker``'s default) answer SAT tasks."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import stratagem.sweep as sweep_module
from stratagem.sweep import DAEMON_HINT, ResultsFile, plan, sweep
from tests.interpreted import without_core_notice

ROOT = Path(__file__).resolve().parents[1]
CHALLENGE_0 = ROOT / "puzzles" / "strato" / "challenge-0.toml"


@pytest.mark.parametrize(("address", "fragment"), [
    ("tls://127.0.0.1:9", "a tls:// scheduler needs Dask's TLS settings, and none are set"),
    ("tcp://127.0.0.1:8786/", "not a scheduler address (such as tcp://host:8786)"),
], ids=["tls-without-settings", "trailing-slash"])
def test_a_scheduler_address_the_client_cannot_use_is_one_line_at_once(tmp_path: Path, address: str,
                                                                       fragment: str) -> None:
    """A tls:// address without Dask's TLS settings failed as Dask's client was made, and the half-made
    client's finaliser then waited 6 s past the error line and printed a traceback under it (7 s in all,
    with --connect-timeout 3); an address with a trailing slash was refused with Python's bare
    "invalid literal for int()". Run as a process, as the finaliser speaks at the interpreter's exit."""
    pytest.importorskip("distributed")
    env = {key: value for key, value in os.environ.items() if not key.startswith("DASK_DISTRIBUTED__COMM__TLS")}
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "stratagem", "sweep", str(CHALLENGE_0), "--count", "1",
                           "--out", str(tmp_path / "r.jsonl"), "--scheduler", address, "--connect-timeout", "3"],
                          capture_output=True, text=True, env={**env, "PYTHONPATH": str(ROOT)}, timeout=60)
    elapsed = time.monotonic() - started
    assert done.returncode == 2, done.stderr
    refusal = without_core_notice(done.stderr)  # an install without a compiler says so first
    assert refusal.count("\n") == 1 and "Traceback" not in refusal, done.stderr
    assert fragment in refusal and "--scheduler" in refusal, done.stderr
    assert elapsed < 5.0, elapsed  # well within the connect timeout's 3 s plus start-up, not 3 + 6 s
    assert not (tmp_path / "r.jsonl").exists() and not (tmp_path / "r.jsonl.lock").exists()


def test_a_sat_task_on_daemonic_workers_is_answered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``dask worker`` starts its workers as daemons, which may not start a multiprocessing child. A worker
    runs several threads, so the SAT method's CaDiCaL child is there a fresh interpreter (``subprocess``,
    which a daemon may start; ``stratagem.solvers.satplan``), and the task is answered: every such task
    used to fail (with the hint of the test below)."""
    distributed = pytest.importorskip("distributed")
    import dask

    with dask.config.set({"distributed.worker.daemon": True}):  # as `dask worker` starts them by default
        cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                           dashboard_address=":0")
    client = distributed.Client(cluster, set_as_default=False)
    monkeypatch.setattr(sweep_module, "connect", lambda *args: client)
    failures: list[tuple[Any, str]] = []
    out = tmp_path / "r.jsonl"
    results = ResultsFile(out)
    results.check()
    try:
        assert all(client.run(lambda: __import__("multiprocessing").current_process().daemon).values())
        tally = sweep(plan([str(CHALLENGE_0)], range(1), (1,), ("sat",), 30.0), results, workers=1,
                      on_failure=lambda task, why: failures.append((task, why)))
    finally:
        cluster.close()  # sweep() closed the client; the cluster is this test's
    assert failures == [] and tally.failed == 0 and tally.done == 1 and tally.by_status["solved"] == 1


def test_a_daemonic_workers_refusal_to_start_a_child_says_how_to_start_them() -> None:
    """Should a task still fork its child there (work that cannot be sent to a fresh interpreter), Python's
    "AssertionError: daemonic processes are not allowed to have children" named neither the cause nor the
    setting that cures it; the failure says both."""
    refusal = AssertionError("daemonic processes are not allowed to have children")
    assert sweep_module.failure_words(refusal) == DAEMON_HINT
    assert "DASK_DISTRIBUTED__WORKER__DAEMON=False" in DAEMON_HINT


def test_a_scheduler_without_workers_is_said_and_the_sweep_goes_on_when_one_joins(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A --scheduler with no worker yet made Dask wait for one without a word: the sweep looked hung (15 s of
    nothing, no progress line for a minute off a terminal). It now says so once, then runs its deals when a
    worker joins; with a worker there it says nothing."""
    distributed = pytest.importorskip("distributed")
    import dask

    with dask.config.set({"distributed.worker.daemon": False}):
        cluster = distributed.LocalCluster(n_workers=0, threads_per_worker=1, processes=True,
                                           dashboard_address=":0")
    monkeypatch.setattr(sweep_module, "connect",
                        lambda *args: distributed.Client(cluster.scheduler_address, set_as_default=False))
    notes: list[str] = []

    def joins(text: str) -> None:
        notes.append(text)
        cluster.scale(1)  # the worker the note asks for

    out = tmp_path / "r.jsonl"
    fallback = threading.Timer(15.0, lambda: cluster.scale(1))  # without the note, a failure rather than a hang
    fallback.start()
    try:
        for seeds in (range(1), range(1, 2)):
            results = ResultsFile(out)
            results.check()
            tally = sweep(plan([str(CHALLENGE_0)], seeds, (1,), ("auto",), 30.0), results,
                          scheduler=cluster.scheduler_address, on_note=joins)
            assert tally.done == 1 and tally.failed == 0, (tally, notes)
    finally:
        fallback.cancel()
        cluster.close()
    assert len(notes) == 1, notes  # the second sweep found the worker there
    assert notes[0].startswith(f"{cluster.scheduler_address}: the scheduler has no worker yet; the sweep waits")
    assert out.read_text().count("\n") == 2


def test_a_task_whose_workers_died_names_the_last_worker(capsys: pytest.CaptureFixture[str]) -> None:
    """A task Dask gave up on (KilledWorker) was reported with Dask's 400-character sentence cut at 200:
    "... The last worker that attempt to run the task );", the worker's address (whose log says why) cut
    off. The line now keeps it."""
    scheduler = pytest.importorskip("distributed.scheduler")
    from types import SimpleNamespace

    from stratagem.cli.sweepprogress import SweepProgress

    killed = scheduler.KilledWorker("run_task-0123456789abcdef0123456789abcdef-3",
                                    SimpleNamespace(address="tcp://127.0.0.1:42424"), 3)
    task = plan([str(CHALLENGE_0)], range(1), (1,), ("auto",), 30.0)[0]
    SweepProgress(False, 1).on_failure(task, sweep_module.failure_words(killed))
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "KilledWorker: 4 worker(s) died" in err and "the last tcp://127.0.0.1:42424" in err, err
