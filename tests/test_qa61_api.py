"""QA 61, library API mends: messages that name the caller's own parameter, results equal by their answer,
one check of a player count, Strato's action names."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from stratagem.cli.main import run

ROOT = Path(__file__).resolve().parents[1]
CHALLENGE_0 = ROOT / "puzzles" / "strato" / "challenge-0.toml"


# -- one check of a player count (play had its own copy) -------------------------------------------------
@pytest.mark.parametrize("args", [
    ["play", "cardclash", "--agents", "random,random", "--players", "x"],
    ["play", "strato", str(CHALLENGE_0), "--agents", "random", "--players", "x"],
])
def test_both_plays_word_a_bad_player_count_alike(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert run(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("stratagem play: Invalid value for '--players': 'x' is not a "
                                               "player count "), err


def test_one_player_count_is_the_list_check_of_one() -> None:
    from stratagem.cli.options import player_count, player_counts

    assert player_count(" 3 ", most=6) == 3 and player_count(None) is None
    for text in ("2,3", "٢", "+2", "9" * 5000, "0", "7"):
        with pytest.raises(click.BadParameter) as one:
            player_count(text, most=6)
        assert "\n" not in one.value.format_message() and len(one.value.format_message()) < 120
        if text in ("0", "7"):
            assert one.value.format_message().endswith(f": {text} is not a player count from 1 to 6")
        elif "," not in text:
            with pytest.raises(click.BadParameter) as listed:
                player_counts(text, most=6)
            assert str(one.value.format_message()).split(" is not")[0] == \
                str(listed.value.format_message()).split(" is not")[0]


# -- results equal by their answer, not by the time it took -----------------------------------------------
def test_two_solves_of_one_deal_are_equal_whatever_their_timings() -> None:
    import dataclasses

    import stratagem
    from stratagem.solving import DealSolution

    first = stratagem.solve(str(CHALLENGE_0), "solo-1", method="astar")
    again = stratagem.solve(str(CHALLENGE_0), "solo-1", method="astar")
    slower = {**again.stats, "seconds": first.stats["seconds"] + 1.0}  # another run's wall time
    second = DealSolution(again.deal, dataclasses.replace(again.result, stats=slower))
    assert first == second and hash(first) == hash(second) and len({first, second}) == 1
    other = stratagem.solve(str(CHALLENGE_0), "solo-2", method="astar")
    assert other != first


def test_two_checks_of_one_stakd_puzzle_are_equal_whatever_their_timings() -> None:
    import dataclasses

    import stratagem

    first = stratagem.check(str(ROOT / "puzzles" / "stakd" / "solo-1-tiny.toml"))
    answer = first.answer
    slower = dataclasses.replace(answer, seconds=answer.seconds + 1.0,
                                 evidence={**answer.evidence, "solve_seconds": 9.0})
    again = dataclasses.replace(first, answer=slower)
    assert again == first and hash(again) == hash(first) and len({first, again}) == 1
    assert dataclasses.replace(first, answer=dataclasses.replace(answer, moves=answer.moves[:-1])) != first
    with pytest.raises(TypeError):
        answer.evidence["kind"] = "drup-refutation"  # an answer's evidence is read-only: it hashes


# -- library messages name the caller's keyword; the command line names its option ----------------------
def _planned_with_a_held_limit(tmp_path: Path) -> tuple[list, object]:
    from stratagem.sweep import ResultsFile, plan

    tasks = plan([CHALLENGE_0], [0, 1], [1], ("astar",), time_limit=45)
    results = ResultsFile(tmp_path / "r.jsonl")
    held = tasks[0]
    results.records = [{"puzzle_sha256": held.puzzle_sha256, "players": held.players, "seed": held.seed,
                        "method": held.method, "status": "solved", "time_limit": 30}]
    return tasks, results


def test_a_sweep_refusal_names_the_keywords_in_python_and_the_options_on_the_command_line(tmp_path: Path) -> None:
    from stratagem.cli.options import option_words
    from stratagem.sweep import SettingsMismatch, to_run

    tasks, results = _planned_with_a_held_limit(tmp_path)
    with pytest.raises(SettingsMismatch) as refused:
        to_run(tasks, results)  # type: ignore[arg-type]
    said = refused.value.problem
    assert "made with time_limit=30; this run would add 1 deal(s) with time_limit=45" in said
    assert "retry_unknown=True" in said and "force_settings=True to mix limits" in said and "--" not in said
    cli = refused.value.worded(option_words).problem
    assert "made with --time-limit 30; this run would add 1 deal(s) with --time-limit 45" in cli
    assert "--retry-unknown to re-run" in cli and "--force-settings to mix limits" in cli and "=" not in cli
    assert to_run(tasks, results, force_settings=True) == tasks[1:]


def test_check_names_deal_as_the_keyword_given_and_the_cli_as_its_option(
        capsys: pytest.CaptureFixture[str]) -> None:
    import stratagem
    from stratagem.core.errors import BadArgument

    tiny = str(ROOT / "puzzles" / "stakd" / "solo-1-tiny.toml")
    with pytest.raises(BadArgument) as refused:
        stratagem.check(tiny, deal="solo-1")
    assert refused.value.line() == "<argument>: deal: deal and players are for Strato puzzles"
    assert run(["check", tiny, "--deal", "solo-1"]) == 2
    assert capsys.readouterr().err.strip() == "stratagem check: --deal: --deal and --players are for Strato puzzles"


def test_a_verdict_says_how_to_recheck_in_both_spellings(tmp_path: Path) -> None:
    import stratagem

    record = tmp_path / "by-astar.json"
    solution = stratagem.solve(str(CHALLENGE_0), "solo-1", method="astar")
    assert "verify re-checks it with recheck=True, `stratagem verify --recheck`" in solution.optimality
    solution.write_proof(record)
    verdict = stratagem.verify(record)
    reasons = [claim.reason for claim in verdict.claims if claim.status == "not-certified"]
    assert reasons and all("recheck=True (`stratagem verify --recheck`)" in reason for reason in reasons), reasons
    assert "run with --recheck" not in str(verdict.to_json())


def test_without_dask_a_library_caller_is_told_workers_0(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from stratagem.core.errors import BadArgument
    from stratagem.sweepcluster import connect

    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` raises ImportError
    with pytest.raises(BadArgument) as refused:
        connect(2, None)
    assert refused.value.problem.endswith("(or run in this process with workers=0)")


# -- agents[i] is Python's index in the library, the CLI's --agents[N] counts from 1 ------------------------
def test_a_refused_agent_is_named_by_its_python_index_and_by_its_place_on_the_command_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    from stratagem.core.errors import BadInput
    from stratagem.matches import play
    from stratagem.teamplay import play_strato

    with pytest.raises(BadInput) as refused:
        play("stratatak", ["oracle", "random"], games=1)
    assert refused.value.place == "agents[0]"
    with pytest.raises(BadInput) as refused:
        play_strato(str(CHALLENGE_0), ["greedy", "oracle"], [1], 1, 0)
    assert refused.value.place == "agents[1]"
    assert run(["play", "stratatak", "--agents", "oracle,random", "--count", "1"]) == 2
    assert capsys.readouterr().err.startswith("stratagem play: --agents[1]: unknown agent 'oracle'")
    assert run(["play", "strato", str(CHALLENGE_0), "--agents", "greedy,oracle", "--count", "1"]) == 2
    assert capsys.readouterr().err.startswith("stratagem play: --agents[2]: ")


def test_ordinals() -> None:
    from stratagem.core.words import ordinal

    assert [ordinal(n) for n in (1, 2, 3, 10, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "first", "second", "third", "tenth", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"]


def test_a_solution_s_data_is_read_only_and_its_properties_are_editable_copies() -> None:
    import json

    import stratagem

    solution = stratagem.solve(str(CHALLENGE_0), "solo-1", method="astar")
    with pytest.raises(TypeError):
        solution.result.stats["seconds"] = 0.0
    with pytest.raises(TypeError):
        solution.result.evidence["certificate"] = True
    mine = solution.evidence
    mine["certificate"] = True  # a copy: the answer stays as it was
    assert solution.evidence["certificate"] is False and type(mine) is dict and type(solution.stats) is dict
    assert json.loads(json.dumps(solution.to_json()))["stats"] == solution.stats


def test_a_results_file_in_use_is_the_callers_results_in_python_and_out_on_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from stratagem.core.errors import BadInput
    from stratagem.sweep import ResultsFile

    out = tmp_path / "r.jsonl"
    held = ResultsFile(out)
    held.check()
    try:
        with pytest.raises(BadInput) as refused:
            ResultsFile(out).check()
        assert refused.value.line().startswith(f"{out}: results: another stratagem sweep is writing to this file")
        assert "--out" not in refused.value.line()
        assert run(["sweep", str(CHALLENGE_0), "--count", "1", "--workers", "0", "--out", str(out)]) == 2
        assert capsys.readouterr().err.startswith(f"{out}: --out: another stratagem sweep is writing to this file")
    finally:
        held.close()


def test_a_puzzle_with_two_deals_of_one_name_names_no_option(tmp_path: Path) -> None:
    import stratagem
    from stratagem.core.errors import BadInput

    twice = tmp_path / "twice.toml"
    twice.write_text(CHALLENGE_0.read_text(encoding="utf-8").replace('name = "solo-2"', 'name = "solo-1"'),
                     encoding="utf-8")
    with pytest.raises(BadInput) as refused:
        stratagem.load(str(twice), "solo-1")
    assert refused.value.problem == ("'solo-1' is already the name of deals[0]: each deal needs its own name (a deal "
                                     "is chosen by its name)")
