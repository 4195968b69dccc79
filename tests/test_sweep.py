"""``stratagem sweep`` and ``stratagem report``: records equal to in-process solves, on a real Dask
LocalCluster too; resuming skips what is done; a torn last line is dropped with a note; SIGTERM loses only
the tasks in flight; bad input is one line and exit 2 with the existing results file untouched."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.solving import solve
from stratagem.sweep import SWEEP_FORMAT, ResultsFile, plan, record_key, sweep, uncertified
from stratagem.sweepreport import summarise
from tests.interpreted import without_core_notice

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE_0 = ROOT / "puzzles" / "strato" / "challenge-0.toml"


def lines_of(path: Path) -> list[dict[str, Any]]:
    text = path.read_text()
    assert text.endswith("\n"), "a torn last line"
    return [json.loads(line) for line in text.splitlines()]


def by_key(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The records by key, ``seconds`` and ``provenance`` left out (the commit and the dirty flag of a
    checkout change when a commit lands between two runs); each key must occur once."""
    keyed = {record_key(r): {k: v for k, v in r.items() if k not in ("seconds", "provenance")} for r in records}
    assert len(keyed) == len(records), "a task recorded twice"
    return keyed


def run_sweep(out: Path, seeds: range, players: tuple[int, ...] = (1, 2), workers: int = 0) -> None:
    results = ResultsFile(out)
    results.check()
    sweep(plan([str(CHALLENGE_0)], seeds, players, time_limit=30.0), results, workers=workers)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = run(list(args))
    return code, capsys.readouterr().err


def assert_one_line(code: int, err: str, *fragments: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    for fragment in fragments:
        assert fragment in err, (fragment, err)


def test_sequential_records_are_the_in_process_solves(tmp_path: Path) -> None:
    import hashlib

    from stratagem import verify

    out = tmp_path / "results.jsonl"
    results = ResultsFile(out)
    results.check()
    sweep(plan([str(CHALLENGE_0)], range(3), (1, 2), time_limit=30.0, proof_dir=tmp_path / "proofs"), results,
          workers=0)
    records = lines_of(out)
    assert len(records) == 6
    for record in records:
        assert record["format"] == SWEEP_FORMAT
        answer = solve(CHALLENGE_0, record["seed"], players=record["players"], time_limit=30.0)
        assert record["status"] == answer.status == "solved"
        assert record["length"] == len(answer.moves)
        assert record["lower_bound"] == answer.lower_bound
        assert record["line"] == list(answer.line_text)
        assert record["certificate"]["kind"] == answer.evidence["kind"]
        proof = tmp_path / "proofs" / record["certificate"]["proof"]
        assert record["certificate"]["sha256"] == hashlib.sha256(proof.read_bytes()).hexdigest()
    assert verify(proof).valid  # the proof records are the ones `stratagem verify` checks


def test_a_search_only_answer_written_to_the_proof_dir_is_no_certificate(tmp_path: Path) -> None:
    """With --proof-dir, an A* optimum's record once named its proof file under ``certificate``, so the
    report counted it certified and --retry-uncertified skipped it, though ``verify`` (without --recheck)
    does not certify it: the file is now under ``search_proof`` and ``certificate`` stays null."""
    import hashlib

    from stratagem import verify

    out = tmp_path / "results.jsonl"
    results = ResultsFile(out)
    results.check()
    sweep(plan([str(CHALLENGE_0)], range(2), (1,), ("astar",), time_limit=30.0, proof_dir=tmp_path / "proofs"),
          results, workers=0)
    for record in lines_of(out):
        assert record["status"] == "solved" and record["certificate"] is None
        written = record["search_proof"]
        assert written["kind"] == "exhaustive-search"
        proof = tmp_path / "proofs" / written["proof"]
        assert written["sha256"] == hashlib.sha256(proof.read_bytes()).hexdigest()
        assert verify(proof).status == "not-certified"
        assert uncertified(record)


def test_local_cluster_gives_the_sequential_records(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    here, there = tmp_path / "here.jsonl", tmp_path / "cluster.jsonl"
    run_sweep(here, range(4))
    run_sweep(there, range(4), workers=2)  # a real LocalCluster of two worker processes
    assert by_key(lines_of(there)) == by_key(lines_of(here))


def test_resume_runs_only_the_missing_tasks(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    run_sweep(out, range(2))
    first = out.read_bytes()
    results = ResultsFile(out)
    results.check()
    tally = sweep(plan([str(CHALLENGE_0)], range(4), (1, 2), time_limit=30.0), results, workers=0)
    assert (tally.skipped, tally.done) == (4, 4)
    assert out.read_bytes().startswith(first)  # appended, nothing rewritten
    reference = tmp_path / "reference.jsonl"
    run_sweep(reference, range(4))
    assert by_key(lines_of(out)) == by_key(lines_of(reference))


def test_retry_unknown_runs_again_only_the_undecided_and_appends(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.jsonl"
    run_sweep(out, range(2), players=(1,))
    solved = lines_of(out)
    stopped = dict(solved[1], status="unknown", length=None, line=None, seconds=30.0)  # as a time limit leaves it
    out.write_text(json.dumps(solved[0]) + "\n" + json.dumps(stopped) + "\n")
    args = ["sweep", str(CHALLENGE_0), "--count", "2", "--time-limit", "30", "--out", str(out), "--workers", "0"]
    code, err = cli(capsys, *args)
    assert code == 0 and "0 record(s) written" in err, err  # a plain resume keeps the unknown record
    code, err = cli(capsys, *args, "--retry-unknown")
    assert code == 0 and "1 record(s) written" in err and "1 already there" in err, err
    records = lines_of(out)
    assert [r["status"] for r in records] == ["solved", "unknown", "solved"]  # appended, never rewritten
    assert records[2]["seed"] == stopped["seed"] and records[2]["line"] == solved[1]["line"]
    report = summarise(records, str(out))
    assert len(report.deals) == 2 and all(r["status"] == "solved" for r in report.deals)  # the last counts
    code, err = cli(capsys, *args, "--retry-unknown")
    assert code == 0 and "0 record(s) written" in err, err


def test_a_torn_last_line_is_dropped_with_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.jsonl"
    run_sweep(out, range(2), players=(1,))
    whole = out.read_text()
    out.write_text(whole + whole.splitlines()[0][:40])  # a crash in the middle of a third record
    code, err = cli(capsys, "sweep", str(CHALLENGE_0), "--count", "3", "--time-limit", "30", "--out", str(out),
                    "--workers", "0")
    assert code == 0, err
    assert "line 3 is torn" in err and "dropped" in err
    records = lines_of(out)
    assert sorted(r["seed"] for r in records) == [0, 1, 2]
    assert out.read_text().startswith(whole)


def test_report_writes_the_summary_and_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.jsonl"
    run_sweep(out, range(3))
    undecided = {**lines_of(out)[0], "seed": 99, "status": "unknown", "length": None, "lower_bound": 7,
                 "best_length": None, "line": [], "certificate": None}
    with open(out, "a") as handle:
        handle.write(json.dumps(undecided) + "\n")
    summary = summarise(lines_of(out), str(out))
    row = next(r for r in summary.fractions() if r["players"] == 1)
    assert (row["solvable"], row["undecided"], row["deals"]) == (3, 1, 4)
    assert 0.4 < row["low"] < 0.5 and row["high"] == 1.0  # Wilson, 3 of 3 decided: (0.439, 1)
    pytest.importorskip("matplotlib")
    many = summarise([{**lines_of(out)[0], "seed": seed} for seed in range(19)], str(out))
    assert many.fractions()[0]["high"] < 1.0 == many.fractions()[0]["fraction"]  # rounds below 1 ...
    assert many.plots()["solvable.png"].startswith(b"\x89PNG")  # ... and is still plotted
    code, err = cli(capsys, "report", str(out), "--out", str(tmp_path / "report"))
    assert code == 0, err
    text = (tmp_path / "report" / "report.md").read_text()
    assert "| Challenge 0 | 1 | auto | 4 | 3 | 0 | 1 | 1.000 (0.439 - 1.000) |" in text
    assert "| Challenge 0 | 1 | 99 | 7 | - | `stratagem solve" in text  # the undecided deal, its bound
    assert f"`stratagem solve {CHALLENGE_0} --deal 0 --players 1 --method auto --time-limit 30`" in text
    for name in ("solvable.png", "lengths.png", "seconds.png"):
        assert (tmp_path / "report" / name).read_bytes().startswith(b"\x89PNG")


def test_bad_input_leaves_the_results_file_untouched(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.jsonl"
    other.write_text('{"format": "stratagem/solve@1", "status": "solved"}\n')
    before = other.read_bytes()
    code, err = cli(capsys, "sweep", str(CHALLENGE_0), "--count", "2", "--out", str(other), "--workers", "0")
    assert_one_line(code, err, "line 1", "stratagem/solve@1", SWEEP_FORMAT)
    assert other.read_bytes() == before

    torn_inside = tmp_path / "inside.jsonl"
    run_sweep(torn_inside, range(2), players=(1,))
    good = torn_inside.read_text().splitlines()
    torn_inside.write_text(good[0][:30] + "\n" + good[1] + "\n")  # a broken line that is not the last
    before = torn_inside.read_bytes()
    code, err = cli(capsys, "sweep", str(CHALLENGE_0), "--count", "2", "--out", str(torn_inside), "--workers", "0")
    assert_one_line(code, err, "line 1", "not a JSON record")
    assert torn_inside.read_bytes() == before

    code, err = cli(capsys, "sweep", str(CHALLENGE_0), "--count", "2", "--out", str(tmp_path / "no" / "r.jsonl"))
    assert_one_line(code, err, "--out", "does not exist")
    code, err = cli(capsys, "sweep", str(CHALLENGE_0), "--count", "2", "--out", str(tmp_path))
    assert_one_line(code, err, "--out")

    code, err = cli(capsys, "report", str(other), "--out", str(tmp_path / "rep"))
    assert_one_line(code, err, "stratagem/solve@1")
    code, err = cli(capsys, "sweep", str(CHALLENGE_0), "--seeds", "5..2", "--out", str(tmp_path / "x.jsonl"))
    assert_one_line(code, err, "--seeds")


def test_an_unreachable_scheduler_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "results.jsonl"
    run_sweep(out, range(1), players=(1,))
    before = out.read_bytes()
    code, err = cli(capsys, "sweep", str(CHALLENGE_0), "--count", "2", "--out", str(out), "--time-limit", "30",
                    "--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "0.5")
    assert_one_line(code, err, "tcp://127.0.0.1:9", "--scheduler", "cannot reach")
    assert out.read_bytes() == before


def _start(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "stratagem", *args], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def _terminate_after(process: subprocess.Popen[str], out: Path, lines: int, sig: int = signal.SIGTERM,
                     group: bool = False) -> tuple[int, str]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= lines:
            break
        time.sleep(0.01)
    if group:  # Ctrl-C: the terminal signals the whole process group, workers too
        os.killpg(process.pid, sig)
    else:  # to the parent only, as `kill PID` does
        process.send_signal(sig)
    try:
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, err


@pytest.mark.parametrize(("workers", "sig"), [("0", signal.SIGTERM),
                                              pytest.param("2", signal.SIGTERM, marks=pytest.mark.slow),
                                              pytest.param("2", signal.SIGINT, marks=pytest.mark.slow)])
def test_sigterm_then_resume_records_each_task_once(tmp_path: Path, workers: str, sig: int) -> None:
    out = tmp_path / "results.jsonl"
    args = ["sweep", str(CHALLENGE_0), "--count", "40", "--players", "1", "--time-limit", "30", "--out", str(out),
            "--workers", workers, "--quiet"]
    code, err = _terminate_after(_start(args, tmp_path), out, 5, sig, group=sig == signal.SIGINT)
    err = without_core_notice(err)  # an install without a compiler says so first
    assert (code, err.strip()) == ((143, "stratagem: terminated") if sig == signal.SIGTERM else
                                   (130, "stratagem: interrupted"))
    interrupted = lines_of(out)  # whole lines only
    assert 5 <= len(interrupted) < 40
    resumed = subprocess.run([sys.executable, "-m", "stratagem", *args], cwd=tmp_path, capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    reference = tmp_path / "reference.jsonl"
    run_sweep(reference, range(40), players=(1,))
    assert by_key(lines_of(out)) == by_key(lines_of(reference))


@pytest.mark.slow
def test_a_killed_worker_loses_nothing(tmp_path: Path) -> None:
    psutil = pytest.importorskip("psutil")
    pytest.importorskip("distributed")
    out = tmp_path / "results.jsonl"
    args = ["sweep", str(CHALLENGE_0), "--count", "60", "--players", "1", "--time-limit", "30", "--out", str(out),
            "--workers", "2", "--quiet"]
    process = _start(args, tmp_path)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (out.exists() and out.read_bytes().count(b"\n") >= 5):
        time.sleep(0.01)
    workers = [p for p in psutil.Process(process.pid).children() if "multiprocessing" in " ".join(p.cmdline())
               and "resource_tracker" not in " ".join(p.cmdline())]
    assert workers, "no worker process found"
    workers[0].kill()  # kill -9 of one worker: its task in flight runs again elsewhere
    _, err = process.communicate(timeout=300)
    assert process.returncode in (0, 3), err
    if process.returncode == 3:  # the task failed too often: a second run completes the file
        again = subprocess.run([sys.executable, "-m", "stratagem", *args], cwd=tmp_path, capture_output=True,
                               text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
        assert again.returncode == 0, again.stderr
    reference = tmp_path / "reference.jsonl"
    run_sweep(reference, range(60), players=(1,))
    assert by_key(lines_of(out)) == by_key(lines_of(reference))


def test_positions_of_other_games_are_analysed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from stratagem.analysis import analyze

    positions = [ROOT / "puzzles" / "stratatak" / "lone-star.toml",
                 ROOT / "puzzles" / "stakd" / "endgame-2p-bomber.toml"]
    out = tmp_path / "results.jsonl"
    args = ["sweep", *map(str, positions), "--time-limit", "30", "--out", str(out), "--workers", "0"]
    code, err = cli(capsys, *args)
    assert code == 0, err
    records = {r["puzzle"]: r for r in lines_of(out)}
    assert len(records) == 2
    for path in positions:
        expected = analyze(path, time_limit=30.0).to_json()
        record = records[str(path)]
        assert (record["game"], record["status"], record["line"], record["summary"]) == (
            expected["game"], "solved", expected["pv"], expected["summary"])
        assert record["length"] == expected["distance"] and record["players"] is None
    code, err = cli(capsys, *args)
    assert code == 0 and "0 record(s) written" in err and "2 already there" in err
    code, err = cli(capsys, "report", str(out), "--out", str(tmp_path / "report"), "--no-plots")
    assert code == 0, err
    text = (tmp_path / "report" / "report.md").read_text()
    assert "| stratatak | Lone Star | auto | solved | player 1 to move loses in 6 plies (3 battles) |" in text


def test_a_method_that_cannot_run_on_a_position_is_refused_before_any_work(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.jsonl"
    position = ROOT / "puzzles" / "cardclash" / "defence-holds.toml"
    code, err = cli(capsys, "sweep", str(position), "--method", "relaxed", "--out", str(out), "--workers", "0")
    assert_one_line(code, err, "defence-holds.toml: --method: relaxed: unknown method")
    assert not out.exists()


def test_without_dask_the_command_says_how_to_install_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` raises ImportError
    out = tmp_path / "results.jsonl"
    code, err = cli(capsys, "sweep", str(CHALLENGE_0), "--count", "2", "--out", str(out), "--workers", "2")
    assert_one_line(code, err, 'pip install "stratagem[dist]"', "--workers 0")
    assert not out.exists() or out.read_bytes() == b""


class LocalCluster:
    """Stands in for an embedded Dask cluster whose close never finishes (seen once after SIGTERM)."""

    def close(self, timeout: float | None = None) -> None:
        time.sleep(3600)


class HangingClient:
    def __init__(self, worker: int) -> None:
        self.cluster = LocalCluster()
        self.stratagem_worker_pids = [worker]

    def close(self, timeout: float | None = None) -> None:
        pass


def test_a_cluster_that_does_not_close_has_its_workers_killed() -> None:
    from stratagem.sweep import close

    worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        started = time.monotonic()
        assert close(HangingClient(worker.pid), timeout=0.5) is False
        assert time.monotonic() - started < 5
        assert worker.wait(timeout=10) == -signal.SIGKILL
    finally:
        if worker.poll() is None:
            worker.kill()


EXIT_SCRIPT = """
import threading, time
import stratagem.cli.sweep as command
command.EXIT_GRACE = 0.5
threading.Thread(target=time.sleep, args=(600,)).start()  # a thread that would keep the process alive
command._exit_soon(143)
"""


def test_an_interrupted_sweep_exits_even_if_a_thread_lingers(tmp_path: Path) -> None:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", EXIT_SCRIPT], cwd=tmp_path, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 143
    assert time.monotonic() - started < 30


def test_a_range_of_seeds_is_counted_and_bounded_without_listing_it() -> None:
    """Stop 58 (caps pass): 40 million seeds were listed and checked one by one, 5.8 s and 434 MB, before the
    task count refused them. A range is counted as it is, and its ends are the seeds checked."""
    from stratagem.core.errors import BadInput
    from stratagem.core.io import MAX_SEED

    challenge = str(CHALLENGE_0)
    began = time.process_time()
    with pytest.raises(BadInput, match="10,000,000,000 seed"):
        plan([challenge], range(10**10), [1])  # listed, it would not fit in memory
    assert time.process_time() - began < 1.0
    for seeds in (range(-1, 3), range(MAX_SEED - 1, MAX_SEED + 2)):
        with pytest.raises(BadInput, match="seed"):
            plan([challenge], seeds, [1])
    tasks = plan([challenge], range(MAX_SEED - 1, MAX_SEED + 1), [1])
    assert [task.seed for task in tasks] == [MAX_SEED - 1, MAX_SEED]  # type: ignore[union-attr]
    assert [t.seed for t in plan([challenge], range(3, 6), [1])] == [t.seed for t in plan([challenge], [3, 4, 5], [1])]  # type: ignore[union-attr]
