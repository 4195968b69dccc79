"""QA pass 55: agents in ``play`` -- solo scoring, duplicate and reserved agent parameters, time limits."""

from __future__ import annotations

import copy
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, assert_bad_input

from stratagem.cli.exitcodes import TERMINATED
from stratagem.core.deadline import Deadline
from stratagem.engines import resolve
from stratagem.matches import new_game
from stratagem.solvers.agents import AgentError, make_agent
from stratagem.solvers.duct import DuctAgent
from stratagem.solvers.match import within


def _row(out: str) -> dict[str, object]:
    agents = json.loads(out)["agents"]
    assert len(agents) == 1
    row: dict[str, object] = agents[0]
    return row


def test_a_lost_solo_stakd_game_is_a_loss_not_a_win(cli) -> None:  # type: ignore[no-untyped-def]
    # greedy cannot place the seed's whole solo set: return -1, which is a loss with no one to beat
    result = cli("play", "stakd", "--agents", "greedy", "--count", "2", "--json", "--quiet")
    assert result.code == 0, result.err
    row = _row(result.out)
    assert row["mean_return"] == -1.0
    assert (row["wins"], row["draws"], row["losses"]) == (0, 0, 2)
    assert row["win_rate"] == 0.0


def test_a_won_solo_stakd_game_is_a_win(cli) -> None:  # type: ignore[no-untyped-def]
    tiny = ROOT / "puzzles" / "stakd" / "solo-1-tiny.toml"
    result = cli("play", "stakd", "--agents", "greedy", "--count", "2", "--position", str(tiny), "--json", "--quiet")
    assert result.code == 0, result.err
    row = _row(result.out)
    assert row["mean_return"] == 1.0
    assert (row["wins"], row["draws"], row["losses"]) == (2, 0, 0)


def _timed(cli, *args: str) -> tuple[object, float]:  # type: ignore[no-untyped-def]
    began = time.perf_counter()
    result = cli(*args)
    return result, time.perf_counter() - began


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_play_time_limit_bounds_a_duct_agent(cli, engine: str) -> None:  # type: ignore[no-untyped-def]
    """A duct search of a million iterations ran for minutes under ``--time-limit 3``: duct had no time limit
    for the match's deadline to cut."""
    result, seconds = _timed(cli, "play", "stackattack", "--agents", "duct:iterations=1000000,greedy", "--count", "4",
                             "--time-limit", "1", "--engine", engine, "--quiet")
    assert result.code == 3, result.err  # type: ignore[attr-defined]
    assert seconds < 2.2


def test_play_time_limit_is_shared_by_the_searches_of_one_simultaneous_move(cli) -> None:  # type: ignore[no-untyped-def]
    """Both players of a reveal searched for the whole time left, so one move took twice the limit."""
    result, seconds = _timed(cli, "play", "stackattack", "--agents",
                             "mcts:iterations=10000000,mcts:iterations=10000000", "--count", "2", "--time-limit", "1",
                             "--quiet")
    assert result.code == 3, result.err  # type: ignore[attr-defined]
    assert seconds < 1.6


def test_duct_takes_a_time_limit(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("play", "stackattack", "--agents", "duct:iterations=1000000:time_limit=0.02,greedy", "--count", "2",
                 "--json", "--quiet")
    assert result.code == 0, result.err
    duct = json.loads(result.out)["agents"][0]
    assert duct["params"]["time_limit"] == 0.02
    assert duct["games"] == 2


def test_within_gives_a_duct_agent_a_copy_with_the_time_left() -> None:
    agent = DuctAgent(1_000_000)
    limited = within(agent, Deadline(5.0))
    assert limited is not agent
    assert agent.time_limit is None  # the caller's agent is not changed
    assert 0 < limited.time_limit <= 5.0
    assert limited.iterations == agent.iterations
    assert limited._last is agent._last  # one search cache: a node searched once stays searched once
    shorter = DuctAgent(1000, time_limit=0.5)
    assert within(shorter, Deadline(5.0)) is shorter


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_play_time_limit_bounds_pimc_at_a_simultaneous_move(cli, engine: str) -> None:  # type: ignore[no-untyped-def]
    """PIMC at Stack Attack's reveals sampled all its ``samples`` whatever the time limit (60 s and running
    under ``--time-limit 2``)."""
    result, seconds = _timed(cli, "play", "stackattack", "--agents", "pimc:samples=100000,greedy", "--count", "2",
                             "--time-limit", "1", "--engine", engine, "--quiet")
    assert result.code == 3, result.err  # type: ignore[attr-defined]
    assert seconds < 2.2


def _as_from_a_shell() -> None:
    """In the child: SIGTERM at its default, as a shell starts a command (see test_signals.py)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@pytest.mark.parametrize("agent", ["duct:iterations=10000000", "mcts:iterations=10000000"])
def test_sigterm_during_a_compiled_search_is_exit_143_at_once(agent: str) -> None:
    """The compiled DUCT and UCT loops run no bytecode, so Python's SIGTERM handler never ran: two SIGTERMs
    over 8 s left a ten-million-iteration search running (and growing). Where the compiled core is not built
    the searches run on the reference engine, which the match says first, and stop as at once."""
    choice = resolve(new_game("stakd", 2), "compiled")
    said = "" if choice.engine is not None else f"note: {choice.note}\n"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("STRATAGEM_TRACEBACK", None)
    process = subprocess.Popen([sys.executable, "-m", "stratagem", "play", "stakd", "--agents", f"{agent},greedy",
                                "--count", "2", "--engine", "compiled", "--quiet"], env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                               preexec_fn=_as_from_a_shell)
    try:
        time.sleep(2.0)  # well into the first search
        assert process.poll() is None, process.communicate()
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=2.0)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == TERMINATED, err
    assert err == said + "stratagem: terminated\n"


@pytest.mark.parametrize("spec", ["mcts:name=greedy:iterations=10", "duct:name=x", "pimc:name=x", "random:name=x"])
def test_an_agent_parameter_called_name_is_refused(cli, spec: str) -> None:  # type: ignore[no-untyped-def]
    """``make_agent(name, extra, **params)`` took ``name=`` as its own argument: exit 70, an internal error."""
    result = cli("play", "stratatak", "--agents", f"{spec},greedy", "--count", "1")
    assert_bad_input(result, "--agents[1]", "no parameter 'name'")
    assert "name," not in result.err.split("its parameters:")[-1]  # not offered as one of the parameters


def test_make_agent_takes_name_and_extra_positionally_only() -> None:
    with pytest.raises(AgentError, match="no parameter 'name'"):
        make_agent("mcts", None, name="greedy")
    with pytest.raises(AgentError, match="no parameter 'extra'"):
        make_agent("mcts", extra=None)


@pytest.mark.parametrize("spec", ["mcts:iterations=5:iterations=6", "duct:gamma=0.1:gamma=0.1", "greedy:x=1:x=2"])
def test_a_repeated_agent_parameter_is_refused_by_play(cli, spec: str) -> None:  # type: ignore[no-untyped-def]
    key = spec.split(":")[1].split("=")[0]
    result = cli("play", "stackattack", "--agents", f"greedy,{spec}", "--count", "1")
    assert_bad_input(result, "--agents[2]", f"parameter {key!r} is given twice")


def test_a_repeated_agent_parameter_is_refused_by_play_strato(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("play", "strato", str(ROOT / "puzzles" / "strato" / "challenge-0.toml"), "--agents",
                 "pimc:samples=2:samples=3", "--count", "1")
    assert_bad_input(result, "parameter 'samples' is given twice")


def test_a_repeated_agent_parameter_is_refused_by_sweep(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "s.jsonl"
    result = cli("sweep", str(ROOT / "puzzles" / "strato" / "challenge-0.toml"), "--information", "hidden",
                 "--players", "2", "--seeds", "4..5", "--agents", "pimc:samples=2:samples=3", "--out", str(out))
    assert_bad_input(result, "--agents", "parameter 'samples' is given twice")
    assert not out.exists()


@pytest.fixture(scope="module")
def square_proof(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A proof tree of a Card Clash puzzle, as ``analyze --proof`` writes it."""
    from stratagem.cli.main import run

    path = tmp_path_factory.mktemp("proof") / "t.json"
    assert run(["analyze", str(ROOT / "puzzles" / "cardclash" / "square-in-3.toml"), "--proof", str(path),
                "--quiet"]) == 0
    proof: dict[str, Any] = json.loads(path.read_text())
    return proof


@pytest.mark.parametrize("side", [[], {}, ["at least"], 1])
def test_verify_refuses_a_half_whose_side_is_no_text(cli, tmp_path: Path, square_proof: dict[str, Any],  # type: ignore[no-untyped-def]
                                                     side: Any) -> None:
    """``halves[0].side = []`` was used as a dict key: exit 70, TypeError: unhashable list."""
    record = copy.deepcopy(square_proof)
    record["halves"][0]["side"] = side
    path = tmp_path / "t.json"
    path.write_text(json.dumps(record))
    assert_bad_input(cli("verify", str(path)), "t.json", "halves[0].side")


@pytest.mark.parametrize("dirty", [[], {}])
def test_verify_shows_a_provenance_whose_dirty_flag_is_a_list(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                              square_proof: dict[str, Any], dirty: Any) -> None:
    """The provenance line looked ``provenance.git.dirty`` up in a dict: a list there was exit 70."""
    record = copy.deepcopy(square_proof)
    # Set whole: a record made outside a git checkout (CI's archive) has "git": null.
    record["provenance"]["git"] = {"commit": "0" * 40, "dirty": dirty}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(record))
    result = cli("verify", str(path))
    assert result.code == 0, result.err
    assert "made by (as the record states it, not checked)" in result.out


@pytest.mark.parametrize(("where", "value"), [("side", []), ("bound", []), ("bound", {})])
def test_check_proof_tree_reports_unhashable_fields_as_problems(square_proof: dict[str, Any], where: str,
                                                                value: Any) -> None:
    from stratagem.loading import position_from_record
    from stratagem.solvers.prooftree import check_proof_tree

    record = copy.deepcopy(square_proof)
    if where == "side":
        record["halves"][0]["side"] = value
    else:
        record["claim"]["bound"] = value
    game, state = position_from_record(record["game"], record["setup"], record["start"], "t.json")
    verdict = check_proof_tree(game, state, record)
    assert not verdict.valid
    assert verdict.problems[0].place == ("halves[0].side" if where == "side" else "claim.bound")


def test_within_keeps_an_mcts_agents_tree() -> None:
    """Under a time limit every move's agent was a dataclasses.replace copy, whose tree (kept between moves
    under ``reuse``) started empty: ``reuse`` did nothing in a match with --time-limit."""
    from stratagem.solvers.agents import MctsAgent

    agent = MctsAgent(iterations=100, time_limit=60.0)
    limited = within(agent, Deadline(5.0))
    assert limited is not agent and agent.time_limit == 60.0 and 0 < limited.time_limit <= 5.0
    assert limited.tree is agent.tree and limited.compiled_tree is agent.compiled_tree
