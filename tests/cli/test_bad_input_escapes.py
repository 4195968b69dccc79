"""Bad input and limits that used to escape (issue 30): each is one line on stderr and its documented
exit code, and every ``--time-limit`` is the whole command's.

Seeds outside 0..2^63-1 (``--seed 1e30``); agent parameters of 50 digits; ``play --time-limit``; intervals
on mean return outside what a game can return; Ctrl-C reaching a run that ignores SIGINT; ``odds``'s
"(the none)" and its limit; ``generate --time-limit`` as a per-deal limit."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import PUZZLES, ROOT, Outcome, assert_bad_input

from stratagem.solvers.match import bootstrap_interval

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
CHALLENGE_1 = str(PUZZLES / "challenge-1.toml")
STRATATAK = str(next((ROOT / "puzzles" / "stratatak").glob("*.toml")))

#: The ``cli`` fixture of conftest.py: runs the command in this process.
Cli = Callable[..., Outcome]


def _stratagem(*args: str, timeout: float = 120) -> tuple[int, str, str, float]:
    """Run the command in a new process; (exit code, stdout, stderr, wall seconds)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "stratagem", *args], capture_output=True, text=True, env=env,
                          timeout=timeout, cwd=ROOT)
    return done.returncode, done.stdout, done.stderr, time.perf_counter() - started


@pytest.mark.parametrize("seed", ["1e30", "1000000000000000000000000000000", "-1", "0.5", "9223372036854775808",
                                  "9" * 5000])
@pytest.mark.parametrize("command", [
    ("analyze", STRATATAK, "--method", "mcts", "--iterations", "10"),
    ("play", "stratatak", "--agents", "random,random", "--count", "1"),
    ("generate", "strato", "--challenge", CHALLENGE_0, "--count", "1"),
])
def test_a_seed_out_of_range_is_one_line(cli: Cli, command: tuple[str, ...], seed: str) -> None:
    result = cli(*command, "--seed", seed)
    assert_bad_input(result, "--seed", "not a seed")
    assert len(result.err) < 300


def test_generate_refuses_seeds_that_would_run_past_the_range(cli: Cli) -> None:
    result = cli("generate", "strato", "--challenge", CHALLENGE_0, "--count", "1", "--seed", str(2**63 - 1),
                 "--tries", "2")
    assert_bad_input(result, "--seed", "2^63-1")


@pytest.mark.parametrize("spec", ["mcts:iterations=" + "9" * 50, "mcts:iterations=" + "9" * 5000,
                                  "mcts:exploration=1e308", "mcts:exploration=nan", "mcts:time_limit=inf"])
def test_agent_parameters_are_capped(cli: Cli, spec: str) -> None:
    result = cli("play", "stackattack", "--agents", f"{spec},random", "--count", "1")
    assert result.code == 2, result.err
    assert "Traceback" not in result.err and len(result.err.strip().splitlines()) == 1, result.err
    assert "agents[1]" in result.err


def test_strato_agent_parameters_are_capped(cli: Cli) -> None:
    result = cli("play", "strato", CHALLENGE_0, "--agents", "pimc:samples=" + "9" * 50, "--count", "1")
    assert_bad_input(result, "agents[1]", "out of range")


def test_play_time_limit_is_the_whole_match() -> None:
    code, out, err, wall = _stratagem("play", "stackattack", "--agents", "mcts:iterations=1000000,random",
                                      "--count", "20", "--time-limit", "2", "--json")
    assert code == 3, err
    assert wall < 1.2 * 2 + 1 + 1.5, wall  # the limit, its allowance, and the interpreter's start
    report = json.loads(out)
    assert report["stopped_by"] == "time" and report["games_planned"] == 20 and report["games"] < 20
    assert "stopped by the time limit" in err


def test_play_strato_time_limit_is_the_whole_match() -> None:
    code, out, err, wall = _stratagem("play", "strato", CHALLENGE_1, "--agents", "pimc:samples=100000",
                                      "--count", "5", "--time-limit", "2", "--json")
    assert code == 3, err
    assert wall < 1.2 * 2 + 1 + 1.5, wall
    assert json.loads(out)["stopped_by"] == "time"


def test_play_without_a_limit_is_unchanged(cli: Cli) -> None:
    first = cli("play", "stackattack", "--agents", "random,random", "--count", "8", "--seed", "3", "--json")
    second = cli("play", "stackattack", "--agents", "random,random", "--count", "8", "--seed", "3", "--json")
    assert first.code == 0 and first.out == second.out  # deterministic, the interval too
    report = json.loads(first.out)
    assert report["stopped_by"] is None and report["games"] == report["games_planned"] == 8


def test_mean_return_intervals_stay_within_the_returns(cli: Cli) -> None:
    """Stack Attack's returns are minus penalties, never positive, and skewed: the interval printed as
    -52.50 [-300.27, 195.27] before."""
    result = cli("play", "stackattack", "--agents", "random,random,random", "--count", "3", "--seed", "1",
                 "--json", "--games-detail")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    for agent in report["agents"]:
        low, high = agent["mean_return_ci95"]
        mine = [game["returns"][game["seats"].index(agent["label"])] for game in report["records"]]
        assert min(mine) <= low <= agent["mean_return"] <= high <= max(mine) <= 0


def test_bootstrap_interval() -> None:
    skewed = [0.0] * 9 + [-300.0]
    low, high = bootstrap_interval(skewed) or (0.0, 0.0)
    assert -300.0 <= low < -30.0 < high <= 0.0  # the mean, -30, inside; never above the best return
    assert bootstrap_interval(skewed) == (low, high)  # seeded: the same values, the same interval
    assert bootstrap_interval([1.0]) is None
    assert bootstrap_interval([2.0, 2.0, 2.0]) == (2.0, 2.0)
    ones = [1.0, 2.0, 3.0, 4.0, 5.0]
    low, high = bootstrap_interval(ones) or (0.0, 0.0)
    assert 1.0 <= low < 3.0 < high <= 5.0


def _send_ctrl_c_repeatedly(args: list[str], seconds: float) -> tuple[int, str]:
    """Start ``stratagem ARGS`` with SIGINT ignored (as ``nohup`` or a script's ``&`` leave it) in its own
    process group, and send the group SIGINT (what Ctrl-C does) every 0.3 s until it ends."""
    def ignore() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "stratagem", *args], preexec_fn=ignore, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        end = time.monotonic() + seconds
        while process.poll() is None and time.monotonic() < end:
            time.sleep(0.3)
            os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, err


@pytest.mark.slow
def test_ctrl_c_on_a_run_that_ignores_sigint_is_ignored() -> None:
    """SAT under --time-limit runs CaDiCaL in a forked child; PySAT's own SIGINT handler used to let Ctrl-C
    kill that child even though the command ignored SIGINT, and the parent reported an internal error
    (exit 70)."""
    code, err = _send_ctrl_c_repeatedly(["solve", CHALLENGE_1, "--deal", "7", "--players", "2", "--method", "sat",
                                         "--time-limit", "8"], 30)
    assert code in (0, 3), err
    assert "internal error" not in err and "interrupted" not in err


def test_odds_stopped_says_where_its_bound_comes_from_and_keeps_its_limit() -> None:
    code, out, err, wall = _stratagem("odds", CHALLENGE_1, "--deal", "1", "--time-limit", "2")
    assert code == 3, err
    text = out + err
    assert "(the none)" not in text
    assert "no policy was valued before the limit" in text or "policy's exact value" in text
    assert wall < 1.2 * 2 + 1 + 1.5, wall


def test_generate_time_limit_is_the_whole_command(tmp_path: Path) -> None:
    out = tmp_path / "gen.toml"
    code, _, err, wall = _stratagem("generate", "strato", "--challenge", CHALLENGE_1, "--count", "5",
                                    "--min-length", "9", "--time-limit", "2", "--deal-time-limit", "60",
                                    "--out", str(out))
    assert code == 3, err
    assert "stopped by the time limit" in err
    assert wall < 1.2 * 2 + 1 + 1.5, wall


@pytest.mark.parametrize("command", [
    ("play", "stratatak", "--agents", "random,random", "--count", "9" * 50),
    ("play", "stratatak", "--agents", "random,random", "--max-plies", "99999999999"),
    ("analyze", STRATATAK, "--method", "mcts", "--iterations", "9" * 50),
    ("analyze", STRATATAK, "--method", "pimc", "--as", "1", "--samples", "10000001"),
])
def test_counts_on_the_command_line_are_capped(cli: Cli, command: tuple[str, ...]) -> None:
    result = cli(*command)
    assert_bad_input(result, "10000000")
