"""``stratagem sweep --information hidden`` (issue 29): solo records hold the compiled exact value or, stopped,
only the proven interval [0, 1]; team records hold each agent's wins over reshuffles of the deal; records
are deterministic apart from timings; resuming and retrying never count a deal twice; hidden and open
records are not mixed; settings are checked per puzzle and method; bad options are one line."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.core.errors import BadInput
from stratagem.difficulty import reproduce_hidden
from stratagem.loading import deal_of, load_strato
from stratagem.models.strato.hidden.exact import compiled_odds
from stratagem.models.strato.hidden.game import HiddenStrato
from stratagem.solvers.match import wilson_interval
from stratagem.sweep import ResultsFile, SettingsMismatch, best_records, record_key, sweep
from stratagem.sweephidden import SOLO_METHOD, HiddenTask, plan_hidden, run_hidden_task, shuffled_start

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE_0 = str(ROOT / "puzzles" / "strato" / "challenge-0.toml")
CHALLENGE_1 = str(ROOT / "puzzles" / "strato" / "challenge-1.toml")
#: A challenge-0 solo deal whose exact value the compiled search finds in a fraction of a second.
QUICK_SOLO_SEED = 27
TIMINGS = ("seconds", "cpu_seconds", "provenance")


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def stable(record: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in record.items() if k not in TIMINGS}
    if "odds" in out:
        out["odds"] = {k: v for k, v in out["odds"].items() if k not in ("search_cpu_seconds", "memory", "states")}
    return out


def run_into(out: Path, tasks: list[HiddenTask], **options: Any) -> int:
    results = ResultsFile(out)
    results.check()
    return sweep(tasks, results, workers=0, **options).done


def test_plan_makes_a_solo_task_for_one_player_and_one_per_agent_for_teams() -> None:
    tasks = plan_hidden([CHALLENGE_0], range(3), [1, 2], ["greedy", "cpimc:samples=2"], shuffles=5, time_limit=10)
    solo = [t for t in tasks if t.players == 1]
    teams = [t for t in tasks if t.players == 2]
    assert [t.method for t in solo] == [SOLO_METHOD] * 3 and all(t.shuffles == 1 for t in solo)
    assert sorted({t.method for t in teams}) == ["hidden:cpimc:samples=2", "hidden:greedy"]
    assert len(teams) == 6 and all(t.shuffles == 5 for t in teams)
    assert len({t.key for t in tasks}) == len(tasks)
    # neither the limit nor the shuffles make another deal
    again = plan_hidden([CHALLENGE_0], range(3), [1, 2], ["greedy", "cpimc:samples=2"], shuffles=2, time_limit=99)
    assert [t.key for t in again] == [t.key for t in tasks]


def test_solo_agents_add_an_agent_task_to_each_solo_deal_and_reproduce_it() -> None:
    """Without ``--solo-agents`` a solo deal is the exact odds alone; with it, each agent kind also plays the
    solo deal (its own task and key), and the command that reproduces its record says so."""
    plain = plan_hidden([CHALLENGE_0], range(2), [1, 2], ["greedy"], shuffles=3)
    both = plan_hidden([CHALLENGE_0], range(2), [1, 2], ["greedy"], shuffles=3, solo_agents=True)
    added = [t for t in both if t.key not in {p.key for p in plain}]
    assert [(t.players, t.method, t.shuffles) for t in added] == [(1, "hidden:greedy", 3)] * 2
    record = run_hidden_task(added[0])
    assert record["players"] == 1 and record["team"]["played"] == 3 and record_key(record) == added[0].key
    assert reproduce_hidden(record) == added[0].command()
    assert added[0].command().endswith("--agents greedy --shuffles 3 --solo-agents --workers 0 --out deal.jsonl")
    [again] = [t for t in plan_hidden([CHALLENGE_0], [0], [1], ["greedy"], shuffles=3, solo_agents=True)
               if t.agent is not None]
    assert again.key == added[0].key


@pytest.mark.parametrize(("kwargs", "fragment"), [
    ({"agents": ["nosuch"]}, "unknown Strato agent"),
    ({"agents": ["cpimc:samples=0"]}, "samples >= 1"),
    ({"shuffles": 0}, "shuffles: between 1"),
    ({"players": [5]}, "1 to 4 players"),
])
def test_plan_refuses_bad_settings_before_any_work(kwargs: dict[str, Any], fragment: str) -> None:
    args: dict[str, Any] = {"puzzles": [CHALLENGE_0], "seeds": range(2), "players": [1, 2]}
    args.update(kwargs)
    with pytest.raises(BadInput, match=fragment):
        plan_hidden(**args)


def test_a_solo_record_holds_the_compiled_exact_value() -> None:
    [task] = plan_hidden([CHALLENGE_0], [QUICK_SOLO_SEED], [1], time_limit=None)
    record = run_hidden_task(task)
    deal = deal_of(load_strato(CHALLENGE_0), QUICK_SOLO_SEED, 1)
    expected = compiled_odds(HiddenStrato(deal.challenge, deal.game.options, deal.start))
    assert record["status"] == "solved" and expected.status == "solved"
    assert Fraction(record["odds"]["value"]) == expected.value
    assert record["odds"]["low"] == record["odds"]["high"] == record["odds"]["value"]
    assert record["odds"]["lower_from"] == "search"
    assert record["information"] == "hidden" and record["provenance"]["input"]["sha256"] == task.puzzle_sha256


def test_a_stopped_solo_search_claims_only_the_interval_it_proved() -> None:
    """Stopped: the record holds ``odds_interval``'s interval (the policy's value below, 1 above as the
    optimum's search proved nothing at its root), no value."""
    [task] = plan_hidden([CHALLENGE_1], [0], [1], time_limit=0.5)
    record = run_hidden_task(task)
    assert record["status"] == "unknown"
    assert record["odds"]["value"] is None
    low, high = Fraction(record["odds"]["low"]), Fraction(record["odds"]["high"])
    assert high == 1 and 0 <= low < 1
    assert record["odds"]["lower_from"] == ("guided policy" if low > 0 else "none")
    assert record["stopped_by"]


def test_a_team_record_counts_each_shuffle_and_is_deterministic() -> None:
    [task] = plan_hidden([CHALLENGE_0], [4], [2], ["greedy"], shuffles=4, time_limit=None)
    first, again = run_hidden_task(task), run_hidden_task(task)
    assert stable(first) == stable(again)
    team = first["team"]
    assert first["status"] == "solved" and team["played"] == 4 == len(team["games"])
    assert [g[0] for g in team["games"]] == [0, 1, 2, 3]
    assert team["wins"] == sum(1 for _, won, _ in team["games"] if won)
    assert team["win_rate_ci95"] == list(wilson_interval(team["wins"], 4))
    # the shuffles keep the hands and deal the pile otherwise
    deal = deal_of(load_strato(CHALLENGE_0), 4, 2)
    starts = [shuffled_start(deal.start, 4, 2, k) for k in range(4)]
    assert all(s.hands == deal.start.hands and sorted(s.pile) == sorted(deal.start.pile) for s in starts)
    assert len({s.pile for s in starts}) > 1


def test_a_team_task_stopped_by_its_limit_is_unknown_with_the_games_played() -> None:
    [task] = plan_hidden([CHALLENGE_1], [0], [2], ["cpimc:samples=64:nodes=20000"], shuffles=50, time_limit=0.2)
    record = run_hidden_task(task)
    assert record["status"] == "unknown" and record["stopped_by"] == "time"
    assert record["team"]["played"] < 50


def test_resume_and_retry_never_count_a_deal_twice(tmp_path: Path) -> None:
    out = tmp_path / "hidden.jsonl"
    tasks = (plan_hidden([CHALLENGE_1], [0], [1], time_limit=0.05)
             + plan_hidden([CHALLENGE_0], [4, 5], [2], ["greedy"], shuffles=2, time_limit=60))
    assert run_into(out, tasks) == 3
    assert run_into(out, tasks) == 0  # resumed: nothing left
    assert run_into(out, tasks, retry_unknown=True) == 1  # only the stopped solo search runs again
    records = lines_of(out)
    assert len(records) == 4
    best = best_records(records)
    assert len(best) == 3 and set(best) == {t.key for t in tasks}
    assert sum(1 for r in records if r["method"] == SOLO_METHOD) == 2
    assert [r["retry"] for r in records if r["method"] == SOLO_METHOD] == [None, "unknown"]


def counted(*records: dict[str, Any]) -> dict[str, Any]:
    """The record that counts of records of one deal."""
    [kept] = best_records(records).values()
    return kept


def test_of_two_undecided_odds_records_the_one_that_proves_more_counts() -> None:
    """A retry that proves a lower floor (a busier machine, a shorter limit) does not hide what an earlier
    run proved; among equal floors the latest counts, and an exact value outranks any interval."""
    def solo(low: str | None, status: str = "unknown", value: str | None = None) -> dict[str, Any]:
        return {"puzzle_sha256": "ab" * 32, "players": 1, "seed": 0, "method": SOLO_METHOD, "status": status,
                "odds": {"value": value, "low": low, "high": "1"}}

    more, less, same, exact = solo("1/2"), solo("1/3"), solo("1/2"), solo("2/3", "solved", "2/3")
    assert counted(more, less) is more
    assert counted(less, more) is more
    assert counted(more, same) is same
    assert counted(more, exact, less) is exact
    assert counted(solo(None), solo("0"))["odds"]["low"] == "0"


def test_more_shuffles_plays_an_agent_task_again_with_every_game_and_counts_the_longer_record(
        tmp_path: Path) -> None:
    """``--more-shuffles``: only the agent tasks with fewer games than asked run again (not the solo search,
    not a task already at that count); the new record holds all the games, its first ones the same as the
    record before; new deals still need the file's settings."""
    out = tmp_path / "hidden.jsonl"
    first = (plan_hidden([CHALLENGE_0], [QUICK_SOLO_SEED], [1], time_limit=60)
             + plan_hidden([CHALLENGE_0], [4, 5], [2], ["greedy"], shuffles=2, time_limit=60))
    assert run_into(out, first) == 3
    more = (plan_hidden([CHALLENGE_0], [QUICK_SOLO_SEED], [1], time_limit=60)
            + plan_hidden([CHALLENGE_0], [4, 5], [2], ["greedy"], shuffles=5, time_limit=60))
    assert run_into(out, more) == 0  # without the option: resumed, nothing missing
    assert run_into(out, more, more_shuffles=True) == 2
    assert run_into(out, more, more_shuffles=True) == 0  # done: five games each
    records = lines_of(out)
    assert [(r["seed"], r["retry"], r["team"]["played"]) for r in records if "team" in r] == [
        (4, None, 2), (5, None, 2), (4, "shuffles", 5), (5, "shuffles", 5)]
    for seed in (4, 5):
        old, new = (r["team"]["games"] for r in records if r.get("team") and r["seed"] == seed)
        assert new[:2] == old and [g[0] for g in new] == [0, 1, 2, 3, 4]
    best = best_records(records)
    assert sorted(r["team"]["played"] for r in best.values() if "team" in r) == [5, 5]
    # new deals take the counted records' shuffles (5 now), not the first run's 2 any more: with 2 they
    # are refused, with 5 they are added (they were once refused, and 2 accepted)
    # (named as the keyword arguments a library caller gives: the CLI names its options)
    with pytest.raises(SettingsMismatch, match=r"time_limit=60 and shuffles=2 \(its counted records: shuffles=5\)"):
        run_into(out, plan_hidden([CHALLENGE_0], [6], [2], ["greedy"], shuffles=2, time_limit=60))
    run_into(out, plan_hidden([CHALLENGE_0], [6], [2], ["greedy"], shuffles=5, time_limit=60))
    # a run with --more-shuffles raises its deals to its count and adds new ones with it, in one go
    run_into(out, plan_hidden([CHALLENGE_0], [4, 5, 6, 7], [2], ["greedy"], shuffles=6, time_limit=60),
             more_shuffles=True)
    best = best_records(lines_of(out))
    assert sorted((r["seed"], r["team"]["played"]) for r in best.values() if "team" in r) == [
        (4, 6), (5, 6), (6, 6), (7, 6)]
    with pytest.raises(SettingsMismatch, match="made with time_limit=60"):  # the limit is still the first run's
        run_into(out, plan_hidden([CHALLENGE_0], [8], [2], ["greedy"], shuffles=6, time_limit=30))


def test_of_two_agent_records_the_one_of_more_games_counts() -> None:
    """A record of more games counts, even one the limit stopped, over a finished one of fewer; among
    equal counts the latest."""
    def team(played: int, status: str = "solved") -> dict[str, Any]:
        return {"puzzle_sha256": "ab" * 32, "players": 2, "seed": 0, "method": "hidden:greedy", "status": status,
                "team": {"played": played, "shuffles": 10}}

    few, many, stopped, again = team(2), team(10), team(7, "unknown"), team(10)
    assert counted(many, few) is many
    assert counted(few, stopped) is stopped
    assert counted(stopped, few) is stopped
    assert counted(many, again) is again


def test_settings_are_checked_per_puzzle_and_method(tmp_path: Path) -> None:
    out = tmp_path / "hidden.jsonl"
    run_into(out, plan_hidden([CHALLENGE_0], [4], [2], ["greedy"], shuffles=2, time_limit=60))
    # another method of the same puzzle may have its own limit (solo searches and team play differ)
    run_into(out, plan_hidden([CHALLENGE_1], [0], [1], time_limit=0.05))
    with pytest.raises(SettingsMismatch, match="shuffles=2"):
        run_into(out, plan_hidden([CHALLENGE_0], [5], [2], ["greedy"], shuffles=3, time_limit=60))
    with pytest.raises(SettingsMismatch, match="made with time_limit=60"):
        run_into(out, plan_hidden([CHALLENGE_0], [5], [2], ["greedy"], shuffles=2, time_limit=30))
    assert run_into(out, plan_hidden([CHALLENGE_0], [5], [2], ["greedy"], shuffles=3, time_limit=60),
                    force_settings=True) == 1


def test_open_and_hidden_records_are_not_mixed(tmp_path: Path) -> None:
    out = tmp_path / "mixed.jsonl"
    record = {"format": "stratagem/sweep@1", "game": "strato", "puzzle": "c.toml", "puzzle_sha256": "x",
              "challenge": "Challenge 0",
              "players": 1, "seed": 0, "method": "auto", "status": "solved", "time_limit": 60.0, "length": 5,
              "line": ["R1L:1R2>1R1"] * 5}
    out.write_text(json.dumps(record) + "\n")
    with pytest.raises(BadInput, match="open-information record"):
        run_into(out, plan_hidden([CHALLENGE_0], [4], [2], ["greedy"], shuffles=1))
    assert lines_of(out) == [record]


def test_reproduce_command_names_the_task() -> None:
    [task] = plan_hidden([CHALLENGE_0], [7], [4], ["greedy"], shuffles=3, time_limit=12)
    assert task.command() == (f"stratagem sweep {CHALLENGE_0} --information hidden --seeds 7..7 --players 4 "
                              "--agents greedy --shuffles 3 --time-limit 12 --workers 0 --out deal.jsonl")
    assert record_key(run_hidden_task(task)) == task.key


@pytest.mark.parametrize(("args", "fragment"), [
    (["--shuffles", "3"], "--information hidden"),
    (["--agents", "greedy"], "--information hidden"),
    (["--solo-agents"], "--information hidden"),
    (["--more-shuffles"], "--information hidden"),
    (["--information", "hidden", "--players", "2", "--solo-agents"], "--players with 1"),
    (["--information", "hidden", "--method", "auto"], "--information open"),
    (["--information", "hidden", "--players", "2", "--agents", "nosuch"], "unknown Strato agent"),
    (["--information", "hidden", "--agents", "greedy"], "--solo-agents"),  # solo deals alone: the agents unused
    (["--information", "hidden", "--players", "1", "--shuffles", "3"], "--solo-agents"),
])
def test_cli_refuses_options_of_the_other_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                               fragment: str) -> None:
    code = run(["sweep", CHALLENGE_0, "--count", "1", "--out", str(tmp_path / "x.jsonl"), *args])
    err = capsys.readouterr().err
    assert code == 2 and fragment in err and "Traceback" not in err
    assert not (tmp_path / "x.jsonl").exists()


def test_cli_hidden_sweep_writes_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "h.jsonl"
    code = run(["sweep", CHALLENGE_0, "--information", "hidden", "--seeds", "4..5", "--players", "2", "--agents",
                "greedy", "--shuffles", "2", "--workers", "0", "--quiet", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    records = lines_of(out)
    assert [(r["seed"], r["team"]["played"]) for r in records] == [(4, 2), (5, 2)]
    base = ["sweep", CHALLENGE_0, "--information", "hidden", "--seeds", "4..5", "--players", "2", "--agents",
            "greedy", "--shuffles", "3", "--workers", "0", "--out", str(out)]
    code = run([*base, "--more-shuffles"])
    err = capsys.readouterr().err
    assert code == 0 and "2 record(s) written" in err, err
    assert [(r["seed"], r["retry"], r["team"]["played"]) for r in lines_of(out)[2:]] == [
        (4, "shuffles", 3), (5, "shuffles", 3)]


def test_one_agent_written_two_ways_is_one_agent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``belief:samples=8:nodes=1000`` and ``belief:nodes=1000:samples=8`` are one agent: planned once, and a
    resumed sweep that spells it the other way finds the file's records instead of playing the deals again
    under a second name (the report once compared the agent with itself)."""
    from stratagem.solvers.agents import canonical_agent_spec

    assert canonical_agent_spec(" belief:samples=8:nodes=1000") == "belief:nodes=1000:samples=8"
    assert canonical_agent_spec("mcts:a=1:a=2") == "mcts:a=2"
    assert canonical_agent_spec("belief:samples=08:nodes=1000") == "belief:nodes=1000:samples=8"  # value as read
    assert canonical_agent_spec("ismcts:time_limit=5.0") == canonical_agent_spec("ismcts:time_limit=5")
    one, other = "belief:samples=8:nodes=1000", "belief:nodes=1000:samples=8"
    assert [t.agent for t in plan_hidden([CHALLENGE_0], [0], [2], [one, other], shuffles=1)] == [one]
    assert [t.agent for t in plan_hidden([CHALLENGE_0], [0], [2], [other], shuffles=1, known=[one])] == [one]
    out = tmp_path / "q.jsonl"
    base = ["sweep", str(CHALLENGE_0), "--information", "hidden", "--players", "2", "--shuffles", "1",
            "--workers", "0", "--out", str(out), "--quiet"]
    assert run([*base, "--seeds", "0..0", "--agents", one]) == 0
    assert run([*base, "--seeds", "0..1", "--agents", other]) == 0
    assert [r["method"] for r in lines_of(out)] == [f"hidden:{one}"] * 2


def test_a_challenge_whose_solo_piles_the_search_cannot_count_is_refused_before_any_work(tmp_path: Path) -> None:
    """A three-row challenge's solo pile (39 cards) has some 2e26 to 3e26 orders, past the exact search's 64-bit
    weights: the sweep stopped at its first such task with '<deal>: pile: ...', naming neither the puzzle
    nor the seed. It is refused when planned, naming both; its teams are still planned."""
    puzzle = tmp_path / "three.toml"
    puzzle.write_text('game = "strato"\n[challenge]\nname = "Three rows"\nlevel = 3\nweathers = "RSWCFT"\nrows = 3\n'
                      'limit = 8\nrows_required = 3\n[challenge.goal]\nleft = "<<<<"\nright = ">>>>"\n')
    with pytest.raises(BadInput, match=r"three.toml: seed 4: solo odds: the pile's 39 cards have \d\.\d+e\+26 orders"):
        plan_hidden([str(puzzle)], [4, 5], [1], time_limit=5)
    assert len(plan_hidden([str(puzzle)], [4, 5], [2], ["greedy"], shuffles=1, time_limit=5)) == 2
