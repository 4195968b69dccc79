"""QA pass 56 on `stratagem sweep` and `stratagem report`: options that name nothing are refused, not
replaced by a default; an --open-results file of another game is refused and one that holds none of the
card's deals says so (never "not given"); hand-edited hidden records whose numbers disagree are refused at
their line; an open sweep of several methods counts each deal once; a larger --shuffles on a resumed
file says that the tasks already there are kept. Tiny sweeps throughout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import PUZZLES, ROOT, assert_bad_input

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
STAKD = str(ROOT / "puzzles" / "stakd" / "solo-1-tiny.toml")


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n" for r in records))
    return path


@pytest.fixture(scope="module")
def team_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two challenge-0 deals for two players, greedy, two shuffles each (a fraction of a second)."""
    from stratagem.cli.main import run

    out = tmp_path_factory.mktemp("qa56") / "team.jsonl"
    assert run(["sweep", CHALLENGE_0, "--information", "hidden", "--seeds", "4..5", "--players", "2",
                "--agents", "greedy", "--shuffles", "2", "--workers", "0", "--quiet", "--out", str(out)]) == 0
    return out


# --agents that names no agent was run as the default agent (belief, a slower and other experiment).

@pytest.mark.parametrize("agents", [",", "", " , "])
def test_agents_naming_no_agent_is_refused_not_replaced_by_the_default(cli, tmp_path: Path, agents: str) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "h.jsonl"
    result = cli("sweep", CHALLENGE_0, "--information", "hidden", "--seeds", "0..1", "--players", "2",
                 "--agents", agents, "--workers", "0", "--out", str(out))
    assert_bad_input(result, "--agents", "names no agent")
    assert not out.exists()


def test_more_shuffles_on_solo_deals_alone_is_refused(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "h.jsonl"
    result = cli("sweep", CHALLENGE_0, "--information", "hidden", "--seeds", "0..1", "--players", "1",
                 "--more-shuffles", "--workers", "0", "--out", str(out))
    assert_bad_input(result, "--more-shuffles")
    assert not out.exists()


# --open-results of another game was read as "not given"; a hidden file's refusal named no line.

def test_open_results_of_another_game_is_refused_at_its_line(cli, tmp_path: Path, team_file: Path) -> None:  # type: ignore[no-untyped-def]
    other = tmp_path / "stakd.jsonl"
    assert cli("sweep", STAKD, "--time-limit", "5", "--workers", "0", "--quiet", "--out", str(other)).code == 0
    card = tmp_path / "card"
    result = cli("report", str(team_file), "--open-results", str(other), "--out", str(card))
    assert_bad_input(result, str(other), "line 1", "stakd", "Strato")
    assert not card.exists()


def test_open_results_holding_hidden_records_names_the_line(cli, tmp_path: Path, team_file: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("report", str(team_file), "--open-results", str(team_file), "--out", str(tmp_path / "card"))
    assert_bad_input(result, str(team_file), "line 1", "hidden-information record")


def test_open_results_without_these_deals_says_so_not_not_given(cli, tmp_path: Path, team_file: Path) -> None:  # type: ignore[no-untyped-def]
    other = tmp_path / "open.jsonl"  # the same puzzle, other seeds: no deal of the card
    assert cli("sweep", CHALLENGE_0, "--seeds", "0..1", "--players", "2", "--time-limit", "10", "--workers", "0",
               "--quiet", "--out", str(other)).code == 0
    card = tmp_path / "card"
    result = cli("report", str(team_file), "--open-results", str(other), "--out", str(card), "--json")
    assert result.code == 0, result.err
    text = (card / "report.md").read_text()
    assert "Open information**: not given" not in text
    assert f"none of these deals is in `{other}`" in text
    opened = json.loads(result.out)["cards"][0]["open"]
    assert opened is not None and opened["deals"] == 0
    # not given at all: still null and "not given"
    result = cli("report", str(team_file), "--out", str(tmp_path / "plain"), "--json")
    assert json.loads(result.out)["cards"][0]["open"] is None
    assert "Open information**: not given" in (tmp_path / "plain" / "report.md").read_text()


# Hand-edited hidden records whose numbers disagree with each other reached the card.

def test_a_solo_record_whose_float_is_not_its_value_is_refused(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    solo = tmp_path / "solo.jsonl"
    assert cli("sweep", CHALLENGE_0, "--information", "hidden", "--seeds", "27..27", "--players", "1",
               "--time-limit", "30", "--workers", "0", "--quiet", "--out", str(solo)).code == 0
    record = _lines(solo)[0]
    assert record["status"] == "solved"
    record["odds"]["float"] = 0.5 if record["odds"]["float"] != 0.5 else 0.25  # the histogram would read this
    edited = _write(tmp_path / "edited.jsonl", [record])
    result = cli("report", str(edited), "--out", str(tmp_path / "card"))
    assert_bad_input(result, str(edited), "line 1", "odds.float")


@pytest.mark.parametrize(("field", "value", "fragment"), [
    ("agent", "guided", "team.agent"),  # the card groups by method, the reproduce command names the agent
    ("turns", 1, "team.turns"),  # the card's CPU per turn divides by it
])
def test_a_team_record_that_disagrees_with_itself_is_refused(cli, tmp_path: Path, team_file: Path, field: str,  # type: ignore[no-untyped-def]
                                                             value: Any, fragment: str) -> None:
    records = _lines(team_file)
    records[1]["team"][field] = value
    edited = _write(tmp_path / "edited.jsonl", records)
    result = cli("report", str(edited), "--out", str(tmp_path / "card"))
    assert_bad_input(result, str(edited), "line 2", fragment)
    again = cli("sweep", CHALLENGE_0, "--information", "hidden", "--seeds", "4..5", "--players", "2", "--agents",
                "greedy", "--shuffles", "2", "--workers", "0", "--out", str(edited))
    assert_bad_input(again, str(edited), "line 2", fragment)


# An open sweep of two methods counted each deal twice: "8 deals" of 4, lengths twice, one certified deal
# "resting on a search alone" because another method's record of it had no certificate.

def test_an_open_sweep_of_two_methods_counts_each_deal_once(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "sweep.jsonl"
    assert cli("sweep", CHALLENGE_0, "--count", "3", "--method", "auto", "--method", "astar", "--time-limit", "10",
               "--workers", "0", "--quiet", "--out", str(out)).code == 0
    records = _lines(out)
    assert len(records) == 6 and all(r["status"] == "solved" for r in records)
    assert all(r["certificate"] for r in records if r["method"] == "auto")
    assert not any(r["certificate"] for r in records if r["method"] == "astar")
    result = cli("report", str(out), "--out", str(tmp_path / "report"), "--no-plots", "--json")
    assert result.code == 0, result.err
    summary = json.loads(result.out)
    assert summary["deals"] == 3
    assert sum(summary["lengths"][0]["counts"].values()) == 3
    assert len({r["seed"] for r in summary["hardest"]}) == len(summary["hardest"]) == 3
    text = (tmp_path / "report" / "report.md").read_text()
    assert text.count("\n3 Strato deal(s) (6 deal-and-method records") == 1
    assert "for 3 decided deal(s); resting on a search alone: 0." in text
    # each method keeps its own row of the solvable fraction, over its own 3 deals
    rows = [line for line in text.splitlines() if line.startswith("| Challenge 0 | 1 | a")]
    assert [row.split("|")[4].strip() for row in rows] == ["3", "3"]


# The same command with a larger --shuffles ran nothing and said nothing: the user thought it played more.

def test_a_larger_shuffles_on_a_resumed_file_says_the_tasks_are_kept(cli, tmp_path: Path, team_file: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "team.jsonl"
    out.write_bytes(team_file.read_bytes())
    command = ["sweep", CHALLENGE_0, "--information", "hidden", "--seeds", "4..5", "--players", "2", "--agents",
               "greedy", "--workers", "0", "--out", str(out)]
    result = cli(*command, "--shuffles", "5")
    assert result.code == 0, result.err
    assert "2 agent task(s) already there were asked for fewer games than --shuffles 5" in result.err
    assert "--more-shuffles plays them again" in result.err
    assert out.read_bytes() == team_file.read_bytes()
    same = cli(*command, "--shuffles", "2")
    assert same.code == 0 and "fewer games" not in same.err
    quiet = cli(*command, "--shuffles", "5", "--quiet")
    assert quiet.code == 0 and quiet.err == ""


# Too many tasks named --count when the seeds were given with --seeds (and the other way for a hidden sweep).

@pytest.mark.parametrize(("information", "seeds", "named"), [
    ("open", ("--seeds", "0..199999"), "--seeds"),
    ("open", ("--count", "200000"), "--count"),
    ("hidden", ("--seeds", "0..199999"), "--seeds"),
    ("hidden", ("--count", "200000"), "--count"),
])
def test_too_many_tasks_names_the_option_the_seeds_were_given_with(cli, tmp_path: Path, information: str,  # type: ignore[no-untyped-def]
                                                                    seeds: tuple[str, str], named: str) -> None:
    out = tmp_path / "big.jsonl"
    agents = ("--agents", "greedy") if information == "hidden" else ()
    result = cli("sweep", CHALLENGE_0, "--information", information, *seeds, "--players", "2,3,4", *agents,
                 "--workers", "0", "--out", str(out))
    assert_bad_input(result, f"stratagem sweep: {named}: ", "more than the 250,000 tasks")
    assert not out.exists()


# Planning made a copy of the puzzle's setup for every task: some 2 KB a task, 20 GB at the 10,000,000
# tasks a sweep allows, before the first deal ran.

def test_planning_shares_the_puzzle_setup_between_tasks() -> None:
    import tracemalloc

    from stratagem.sweep import plan
    from stratagem.sweephidden import plan_hidden

    for planner, extra in ((plan, ()), (plan_hidden, (["greedy"],))):
        tracemalloc.start()
        try:
            tasks = planner([CHALLENGE_0], range(4000), [2], *extra)  # type: ignore[operator]
            held, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert len(tasks) == 4000
        assert held / len(tasks) < 800, (planner.__name__, held / len(tasks))  # was some 1,900 bytes a task
        assert len({id(task.setup) for task in tasks}) == 1


# A sweep whose stderr is not a terminal (a log file, a batch job) showed no progress at all until its end.

def test_a_sweep_logged_to_a_file_says_how_far_it_has_got(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from stratagem.cli import sweepprogress as command

    out = tmp_path / "s.jsonl"
    args = ["sweep", CHALLENGE_0, "--seeds", "0..2", "--time-limit", "10", "--workers", "0", "--out", str(out)]
    quick = cli(*args)  # within the interval: the summary alone, as the guides show it
    assert quick.code == 0 and quick.err.count("\n") == 1 and "sweep:" not in quick.err
    out.unlink()
    monkeypatch.setattr(command, "PLAIN_PROGRESS_EVERY", 0.0)
    logged = cli(*args)
    assert logged.code == 0, logged.err
    progress = [line for line in logged.err.splitlines() if line.startswith("sweep: ")]
    assert len(progress) == 2  # after the first and second deal; the third is the summary's
    for n, line in enumerate(progress, 1):
        assert line.startswith(f"sweep: {n} / 3 task(s) done ({n} solved, 0 unsolvable, 0 undecided), ")
        assert line.endswith(" s so far")
    assert logged.err.splitlines()[-1].startswith(f"{out}: 3 record(s) written")
    quiet = cli(*args, "--quiet")
    assert quiet.err == ""


# A task the limit stopped before its first game counted as a deal of the card's groupings: "2 deals,
# 3 / 3 won" with every game on one deal.

def test_a_deal_with_no_game_played_is_no_deal_of_the_groupings(cli, tmp_path: Path, team_file: Path) -> None:  # type: ignore[no-untyped-def]
    records = _lines(team_file)
    records[1].update(status="unknown", stopped_by="time")
    records[1]["team"].update(games=[], played=0, wins=0, turns=0, win_rate=None, win_rate_ci95=[0.0, 1.0])
    edited = _write(tmp_path / "cut.jsonl", records)
    result = cli("report", str(edited), "--out", str(tmp_path / "card"), "--json")
    assert result.code == 0, result.err
    team = json.loads(result.out)["cards"][0]["teams"][0]
    assert (team["deals"], team["cut_short"], team["games"]) == (2, 1, 2)  # the table says one was cut short
    played = {"deals": 1, "games": 2, "wins": records[0]["team"]["wins"]}
    assert team["by_open_optimum"] == {"-": played}
    assert sum(group["deals"] for group in team["by_deal_win_rate"].values()) == 1


# A designer who edits the card and runs the same command into the same file got one row of both versions
# ("8 deals, 4 solvable, 4 unsolvable: 0.500"), and the commands to reproduce named a file that no longer
# held the deals' version.

def _card(path: Path, limit: int) -> Path:
    path.write_text((PUZZLES / "challenge-0.toml").read_text().replace("limit = 6", f"limit = {limit}"))
    return path


def test_an_edited_card_swept_into_the_same_file_is_counted_apart(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import hashlib

    card, out = tmp_path / "card.toml", tmp_path / "sweep.jsonl"
    args = ["sweep", str(card), "--seeds", "0..1", "--time-limit", "10", "--workers", "0", "--out", str(out)]
    first = hashlib.sha256(_card(card, 5).read_bytes()).hexdigest()[:8]
    assert cli(*args).code == 0
    second = hashlib.sha256(_card(card, 4).read_bytes()).hexdigest()[:8]
    result = cli(*args)
    assert result.code == 0, result.err
    assert f"line 1 was made from {card} when the file held other bytes" in result.err
    assert [r["status"] for r in _lines(out)] == ["solved", "solved", "unsolvable", "unsolvable"]
    report = cli("report", str(out), "--out", str(tmp_path / "report"), "--no-plots", "--json")
    assert report.code == 0, report.err
    rows = {(row["challenge"], row["solvable"], row["unsolvable"]) for row in json.loads(report.out)["fractions"]}
    assert rows == {(f"Challenge 0 ({first})", 2, 0), (f"Challenge 0 ({second})", 0, 2)}
    text = (tmp_path / "report" / "report.md").read_text()
    assert f"Challenge 0 ({second}) from {card} (its bytes now)" in text
    assert f"Challenge 0 ({first}) from {card} (no longer its bytes)" in text
    again = cli(*args)  # nothing new to run: the file already holds this version's deals
    assert again.code == 0 and "other bytes" in again.err


def test_an_edited_card_swept_hidden_into_the_same_file_has_two_cards(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    card, out = tmp_path / "card.toml", tmp_path / "hidden.jsonl"
    args = ["sweep", str(card), "--information", "hidden", "--seeds", "0..1", "--players", "2", "--agents", "greedy",
            "--shuffles", "1", "--workers", "0", "--quiet", "--out", str(out)]
    _card(card, 5)
    assert cli(*args).code == 0
    _card(card, 4)
    assert cli(*args).code == 0
    result = cli("report", str(out), "--out", str(tmp_path / "card"), "--json")
    titles = [c["challenge"] for c in json.loads(result.out)["cards"]]
    assert len(titles) == len(set(titles)) == 2 and all(t.startswith("Challenge 0 (") for t in titles)


def test_one_version_of_a_card_keeps_its_plain_name(cli, tmp_path: Path, team_file: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("report", str(team_file), "--out", str(tmp_path / "card"), "--json")
    assert [c["challenge"] for c in json.loads(result.out)["cards"]] == ["Challenge 0"]


# --retry-uncertified ran the deals of A*, BFS, IDA* and CP-SAT again on every call: those methods answer by
# a search alone, so each retry appended the same uncertified answer and the next retry ran it again.

def test_retry_uncertified_leaves_methods_that_never_certify(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "sweep.jsonl"
    args = ["sweep", CHALLENGE_0, "--seeds", "0..1", "--method", "astar", "--time-limit", "10", "--workers", "0",
            "--out", str(out)]
    assert cli(*args, "--quiet").code == 0
    held = out.read_bytes()
    assert all(r["certificate"] is None for r in _lines(out))
    result = cli(*args, "--retry-uncertified")
    assert result.code == 0, result.err
    assert out.read_bytes() == held
    assert "2 deal(s) rest on a search alone by a method that gives no certificate (astar)" in result.err
    assert "0 record(s) written" in result.err
    report = cli("report", str(out), "--out", str(tmp_path / "report"), "--no-plots")
    text = (tmp_path / "report" / "report.md").read_text()
    assert "resting on a search alone: 2 (by methods that give no certificate, such as A*" in text
    assert "--retry-uncertified` runs them again" not in text and report.code == 0
    # auto's answers resting on A* are still run again (with more time its certificate may come)
    searched = [{**r, "method": "auto"} for r in _lines(out)]
    mixed = _write(tmp_path / "auto.jsonl", searched)
    again = cli("sweep", CHALLENGE_0, "--seeds", "0..1", "--time-limit", "10", "--workers", "0", "--out", str(mixed),
                "--retry-uncertified")
    assert again.code == 0 and "2 record(s) written" in again.err, again.err
    assert all(r["certificate"] for r in _lines(mixed)[2:])


# `sweep POSITION --count 50` wrote one record and said nothing of the 50 seeds asked for: a position file of
# another game is one task per method.

@pytest.mark.parametrize("option", [("--count", "50"), ("--seeds", "0..9"), ("--players", "2")])
def test_seeds_and_players_for_positions_alone_are_refused(cli, tmp_path: Path, option: tuple[str, str]) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "positions.jsonl"
    result = cli("sweep", STAKD, *option, "--time-limit", "5", "--workers", "0", "--out", str(out))
    assert_bad_input(result, option[0], "position file")
    assert not out.exists()


def test_seeds_with_a_strato_puzzle_beside_a_position_still_run(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "both.jsonl"
    result = cli("sweep", STAKD, CHALLENGE_0, "--count", "2", "--time-limit", "5", "--workers", "0", "--out", str(out))
    assert result.code == 0, result.err
    assert sorted(str(r["game"]) for r in _lines(out)) == ["stakd", "strato", "strato"]


def test_the_kept_tasks_note_leaves_out_the_tasks_a_retry_runs(cli, tmp_path: Path, team_file: Path) -> None:  # type: ignore[no-untyped-def]
    records = _lines(team_file)
    games = records[1]["team"]["games"][:1]
    records[1].update(status="unknown", stopped_by="time")
    records[1]["team"].update(games=games, played=1, wins=sum(1 for g in games if g[1]), turns=games[0][2])
    out = _write(tmp_path / "cut.jsonl", records)
    result = cli("sweep", CHALLENGE_0, "--information", "hidden", "--seeds", "4..5", "--players", "2", "--agents",
                 "greedy", "--shuffles", "5", "--retry-unknown", "--workers", "0", "--out", str(out))
    assert result.code == 0, result.err
    assert "1 agent task(s) already there were asked for fewer games than --shuffles 5" in result.err
    assert "1 record(s) written" in result.err
    assert _lines(out)[-1]["team"]["played"] == 5


# --open-results of a sweep with two methods took, for each deal, the record of the method first by name:
# A*'s search ("astar" < "auto"), so the card said "0 with a certificate" of deals auto had certified.

def test_open_results_of_two_methods_take_each_deals_best_answer(cli, tmp_path: Path, team_file: Path) -> None:  # type: ignore[no-untyped-def]
    other = tmp_path / "open.jsonl"
    assert cli("sweep", CHALLENGE_0, "--seeds", "4..5", "--players", "2", "--method", "auto", "--method", "astar",
               "--time-limit", "10", "--workers", "0", "--quiet", "--out", str(other)).code == 0
    by_method = {r["method"]: bool(r["certificate"]) for r in _lines(other)}
    assert by_method == {"auto": True, "astar": False}
    result = cli("report", str(team_file), "--open-results", str(other), "--out", str(tmp_path / "card"), "--json")
    opened = json.loads(result.out)["cards"][0]["open"]
    assert (opened["deals"], opened["solvable"], opened["certified"]) == (2, 2, 2)


# The commands that reproduce a deal named the puzzle unquoted: a designer's folder "My cards" gave a
# command the shell splits in two.

def test_reproduce_commands_quote_the_puzzles_path(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import shlex

    folder = tmp_path / "My cards (v2)"
    folder.mkdir()
    card = folder / "card's.toml"
    card.write_text((PUZZLES / "challenge-0.toml").read_text())
    out, hidden = tmp_path / "open.jsonl", tmp_path / "hidden.jsonl"
    assert cli("sweep", str(card), "--seeds", "0..1", "--time-limit", "10", "--workers", "0", "--quiet",
               "--out", str(out)).code == 0
    assert cli("sweep", str(card), "--information", "hidden", "--seeds", "0..1", "--players", "2", "--agents",
               "greedy", "--shuffles", "1", "--workers", "0", "--quiet", "--out", str(hidden)).code == 0
    summary = json.loads(cli("report", str(out), "--out", str(tmp_path / "r1"), "--no-plots", "--json").out)
    cards = json.loads(cli("report", str(hidden), "--out", str(tmp_path / "r2"), "--json").out)
    commands = [d["reproduce"] for d in summary["hardest"]] + [
        d["command"] for d in cards["cards"][0]["hardest"] + cards["cards"][0]["easiest"]]
    assert commands
    for command in commands:
        words = shlex.split(command)
        assert words[:3] in (["stratagem", "solve", str(card)], ["stratagem", "sweep", str(card)]), command


# --more-shuffles let new deals in with any --shuffles: a file of 2 games a deal took new deals of 1 game
# (a smaller count raises nothing), a mixed experiment without --force-settings.

def test_more_shuffles_adds_new_deals_only_with_a_count_no_smaller(cli, tmp_path: Path, team_file: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "team.jsonl"
    out.write_bytes(team_file.read_bytes())
    command = ["sweep", CHALLENGE_0, "--information", "hidden", "--seeds", "4..6", "--players", "2", "--agents",
               "greedy", "--more-shuffles", "--workers", "0", "--out", str(out)]
    smaller = cli(*command, "--shuffles", "1")
    assert_bad_input(smaller, str(out), "line 1", "--shuffles 1", "--force-settings")
    assert out.read_bytes() == team_file.read_bytes()
    larger = cli(*command, "--shuffles", "3")
    assert larger.code == 0, larger.err
    assert [(r["seed"], r["team"]["played"]) for r in _lines(out)[2:]] == [(4, 3), (5, 3), (6, 3)]


# A hidden sweep's summary said "2 solved, 0 unsolvable" of agent tasks, whose games may all be lost: a
# hidden record's "solved" means the task finished (every game played, or the solo odds exact).

def test_a_hidden_sweep_counts_its_tasks_finished_not_solved(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "h.jsonl"
    result = cli("sweep", CHALLENGE_0, "--information", "hidden", "--seeds", "4..5", "--players", "2",
                 "--agents", "greedy", "--shuffles", "2", "--workers", "0", "--out", str(out))
    assert result.code == 0, result.err
    assert result.err.splitlines()[-1] == (f"{out}: 2 record(s) written (2 finished, 0 cut short by a limit), "
                                           "0 already there")
    open_run = cli("sweep", CHALLENGE_0, "--seeds", "0..0", "--workers", "0", "--out", str(tmp_path / "o.jsonl"))
    assert open_run.err.splitlines()[-1].endswith("1 record(s) written (1 solved, 0 unsolvable, 0 undecided), "
                                                  "0 already there")
