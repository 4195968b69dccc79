"""A sweep refused only once it runs (a scheduler it cannot reach) says so in one line, even on an install
without the compiled core: the core's notice is given as the first task starts, never before a refusal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from stratagem.core.errors import BadInput
from stratagem.sweep import ResultsFile, plan, sweep
from tests.interpreted import interpreted_package

ROOT = Path(__file__).resolve().parents[1]
CHALLENGE_0 = ROOT / "puzzles" / "strato" / "challenge-0.toml"


def test_on_start_comes_once_before_the_first_record(tmp_path: Path) -> None:
    """``on_start`` is told once, after the results file is open and before any task's record."""
    events: list[str] = []
    results = ResultsFile(tmp_path / "r.jsonl")
    results.check()
    tally = sweep(plan([CHALLENGE_0], [0, 1], [1]), results, workers=0,
                  on_start=lambda: events.append("start"), on_record=lambda record, tally: events.append("record"))
    assert tally.done == 2
    assert events == ["start", "record", "record"]


def test_on_start_is_not_told_of_a_sweep_refused_at_its_scheduler(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    events: list[str] = []
    results = ResultsFile(tmp_path / "r.jsonl")
    results.check()
    env = {key: os.environ.pop(key) for key in list(os.environ) if key.startswith("DASK_DISTRIBUTED__COMM__TLS")}
    try:
        with pytest.raises(BadInput):
            sweep(plan([CHALLENGE_0], [0], [1]), results, scheduler="tls://127.0.0.1:9", connect_timeout=3,
                  on_start=lambda: events.append("start"))
    finally:
        os.environ.update(env)
    assert events == []


def test_without_the_compiled_core_a_refused_scheduler_is_still_one_line(tmp_path: Path) -> None:
    """Stop 68 found two lines there: the notice that the compiled core is missing, then the refusal."""
    pytest.importorskip("distributed")
    package = interpreted_package(tmp_path / "pure")
    env = {key: value for key, value in os.environ.items() if not key.startswith("DASK_DISTRIBUTED__COMM__TLS")}
    env["PYTHONPATH"] = str(package)
    assert not [p for p in (package / "stratagem").rglob("*") if p.suffix in (".so", ".pyd")]  # no compiled core
    done = subprocess.run([sys.executable, "-m", "stratagem", "sweep", str(CHALLENGE_0), "--count", "1",
                           "--out", str(tmp_path / "r.jsonl"), "--scheduler", "tls://127.0.0.1:9",
                           "--connect-timeout", "3"],
                          capture_output=True, text=True, env=env, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "--scheduler" in done.stderr, done.stderr
    assert "compiled core" not in done.stderr
    assert not (tmp_path / "r.jsonl").exists() or not (tmp_path / "r.jsonl").read_text()
