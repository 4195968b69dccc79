"""Bad input to the hidden-information commands that used to escape (a user's pass over ``odds``,
``verify`` of tables and policies, hidden sweeps, ``report`` and ``play strato``): each is one line on
stderr and exit 2, nothing written, or the answer says what it checked.

- ``odds --table`` on a team deal, and any ``--max-nodes`` past a C integer, ended in a traceback (70);
- a negative seed dealt its positive twin's deal under another name;
- ``report`` crashed on a sweep record edited by hand (hidden or open), or drew impossible numbers
  (``low`` above ``high``) on the card as proven;
- an open sweep could be appended to a hidden results file (and a hidden one to an open file with
  ``--force-settings``), and a hidden sweep planned past the ten-million-task cap;
- a value table's header or row had no length cap (a small gzip file of one huge line);
- ``play strato`` took the competitive games' options and ignored them, and a hidden sweep of solo deals
  ignored ``--agents``;
- a claim written as a JSON float was read as an exact value; a policy record worth 1 was "not
  certified" optimal without ``--recheck``; ``verify`` of a table never named the position it checked.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import PUZZLES, ROOT, Outcome, assert_bad_input

from stratagem.verification import oddstable

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
STRATATAK = str(next((ROOT / "puzzles" / "stratatak").glob("*.toml")))
DIFFICULTY = ROOT / "results" / "strato-difficulty" / "results.jsonl"
OPEN_SWEEP = ROOT / "results" / "strato-sweep" / "results.jsonl"
#: A challenge-0 position won by one play (W1R), whatever is drawn: its exact value is 1.
CERTAIN = "RRRR(RW)WWW WRR WRR 1 -"

Cli = Callable[..., Outcome]


def _lines(path: Path, *numbers: int) -> list[str]:
    """The records on the given 0-based lines of a results file."""
    wanted, out = set(numbers), {}
    with path.open(encoding="utf-8") as source:
        for number, line in enumerate(source):
            if number in wanted:
                out[number] = line
            if len(out) == len(wanted):
                break
    return [out[n] for n in numbers]


def test_odds_table_refuses_a_team_deal_in_one_line(cli: Cli, tmp_path: Path) -> None:
    table = tmp_path / "d.gz"
    result = cli("odds", CHALLENGE_0, "--deal", "duo-1", "--table", str(table), "--time-limit", "5")
    assert_bad_input(result, "players", "solo play", "2 players")
    assert not table.exists()


@pytest.mark.parametrize("command", [
    ("odds", CHALLENGE_0, "--table", "t.gz"),
    ("odds", CHALLENGE_0),
    ("analyze", STRATATAK),
    ("solve", CHALLENGE_0),
    ("reach", CHALLENGE_0),
])
@pytest.mark.parametrize("nodes", ["99999999999999999999", str(2 ** 63), str(10 ** 12 + 1)])
def test_a_node_limit_past_the_cap_is_one_line(cli: Cli, command: tuple[str, ...], nodes: str) -> None:
    result = cli(*command, "--max-nodes", nodes, "--time-limit", "5")
    assert_bad_input(result, "--max-nodes", "1000000000000")


def test_the_largest_node_limit_is_taken(cli: Cli) -> None:
    result = cli("analyze", STRATATAK, "--max-nodes", str(10 ** 12), "--time-limit", "5")
    assert result.code in (0, 3), result.err
    assert "Traceback" not in result.err and "internal error" not in result.err


def test_a_negative_seed_is_refused_not_dealt_as_its_twin(cli: Cli, tmp_path: Path) -> None:
    assert_bad_input(cli("odds", CHALLENGE_0, "--deal", "-5"), "--deal", "seed -5", "from 0")
    text = Path(CHALLENGE_0).read_text(encoding="utf-8").replace("seed = 2\n", "seed = -2\n", 1)
    assert "seed = -2" in text
    forged = tmp_path / "negative.toml"
    forged.write_text(text, encoding="utf-8")
    assert_bad_input(cli("odds", str(forged)), str(forged), "seed", "from 0")


def test_odds_says_which_limit_stopped_the_greedy_policy(cli: Cli) -> None:
    result = cli("odds", CHALLENGE_0, "--max-nodes", "1")
    assert result.code == 3
    assert "greedy agent  not valued (state limit)" in result.out


#: Hand edits of a hidden sweep's records: (line of the three kept, dotted field, new value or DELETE,
#: what the one-line refusal says). Line 0 is a solo deal solved, 1 a solo deal stopped, 2 a team's games.
DELETE = object()
EDITS: list[tuple[int, str, Any, str]] = [
    (0, "odds.low", "abc", "odds.low or odds.high is not a probability"),
    (1, "odds.low", "3/2", "odds.low or odds.high is not a probability"),
    (1, "odds.low", "1e99999999", "odds.low or odds.high is not a probability"),  # Fraction took minutes
    (0, "odds.high", "1/2", "odds.low 1 is above odds.high 1/2"),
    (0, "odds", None, "odds is not an object"),
    (0, "odds.value", "1/2", "odds.value is not the exact value"),
    (0, "odds.float", None, "odds.float is not a number"),
    (1, "odds.value", "1/2", "odds.value is not null"),
    (1, "odds.lower_from", "a guess", "odds.lower_from"),
    (2, "team", DELETE, "team is not an object"),
    (2, "team.wins", 99, "team.wins is not the number of won team.games"),
    (2, "team.wins", -1, "team.wins is not the number of won team.games"),
    (2, "team.games", "x", "team.games is not a list"),
    (2, "team.played", 3, "team.played is not the number of team.games"),
    (2, "team.turns", "many", "team.turns is not a count"),
    (2, "players", 9, "players 9 is not a Strato player count"),
    (2, "seed", -4, "seed -4 is not a seed"),
    (2, "cpu_seconds", "x", "cpu_seconds \"x\" is not a number of seconds"),
    (0, "status", "unsolvable", "status \"unsolvable\" is not solved or unknown"),
]


def _edit(record: dict[str, Any], field: str, value: Any) -> None:
    *parents, last = field.split(".")
    for key in parents:
        record = record[key]
    if value is DELETE:
        del record[last]
    else:
        record[last] = value


@pytest.mark.parametrize(("line", "field", "value", "problem"), EDITS)
def test_report_refuses_a_hidden_record_edited_by_hand(cli: Cli, tmp_path: Path, line: int, field: str, value: Any,
                                                       problem: str) -> None:
    records = [json.loads(text) for text in _lines(DIFFICULTY, 0, 200, 400)]
    assert (records[0]["status"], records[1]["status"], "team" in records[2]) == ("solved", "unknown", True)
    _edit(records[line], field, value)
    results = tmp_path / "hidden.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    out = tmp_path / "card"
    result = cli("report", str(results), "--out", str(out))
    assert_bad_input(result, str(results), f"line {line + 1}", problem)
    assert not (out / "report.md").exists()


#: Hand edits of an open sweep's first record (a solo deal solved with a certificate), as above.
OPEN_EDITS: list[tuple[str, Any, str]] = [
    ("length", "x", "length \"x\" is not a number of turns"),
    ("length", None, "length null is not a number of turns (status solved)"),
    ("lower_bound", "x", "lower_bound \"x\" is neither null nor a number of turns"),
    ("line", "abc", "line is not a list of moves"),
    ("certificate", "x", "certificate \"x\" is neither null nor an object"),
    ("players", 9, "players 9 is not a Strato player count"),
    ("seconds", "x", "seconds \"x\" is not a number of seconds"),
    ("lower_bound", 40, "lower_bound 40 is above the length"),
    ("status", "unsolvable", "length 5 with status unsolvable"),
    ("status", "unknown", "length 5 with status unknown"),
]


@pytest.mark.parametrize(("field", "value", "problem"), OPEN_EDITS)
def test_report_refuses_an_open_record_edited_by_hand(cli: Cli, tmp_path: Path, field: str, value: Any,
                                                      problem: str) -> None:
    records = [json.loads(text) for text in _lines(OPEN_SWEEP, 0, 1)]
    assert records[0]["status"] == "solved" and records[0]["certificate"]
    records[0][field] = value
    results = tmp_path / "open.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    out = tmp_path / "report"
    result = cli("report", str(results), "--out", str(out), "--no-plots")
    assert_bad_input(result, str(results), "line 1", problem)
    assert not (out / "report.md").exists()


def test_of_two_undecided_open_records_the_higher_bound_counts() -> None:
    """The latest counted among undecided records, so a quick retry proving less (3) displaced a record
    proving more (4), though what was proven stays proven."""
    from stratagem.sweeprecords import best_records

    first = json.loads(_lines(OPEN_SWEEP, 0)[0])
    first.update(status="unknown", length=None, certificate=None, lower_bound=4, best_length=None, line=[])
    retry = dict(first, lower_bound=3, retry="unknown")
    assert list(best_records([first, retry]).values()) == [first]
    assert list(best_records([retry, first]).values()) == [first]


def test_the_kept_records_make_a_card(cli: Cli, tmp_path: Path) -> None:
    """The records the edits start from are good as they are: each refusal above is the edit's."""
    results = tmp_path / "hidden.jsonl"
    results.write_text("".join(_lines(DIFFICULTY, 0, 200, 400)), encoding="utf-8")
    result = cli("report", str(results), "--out", str(tmp_path / "card"))
    assert result.code == 0, result.err
    assert (tmp_path / "card" / "report.md").exists()


def test_a_results_file_holds_one_kind_of_sweep(cli: Cli, tmp_path: Path) -> None:
    hidden = tmp_path / "hidden.jsonl"
    hidden.write_text("".join(_lines(DIFFICULTY, 0)), encoding="utf-8")
    before = hidden.read_bytes()
    result = cli("sweep", CHALLENGE_0, "--information", "open", "--seeds", "1..1", "--workers", "0",
                 "--time-limit", "30", "--out", str(hidden))
    assert_bad_input(result, "line 1", "holds a hidden-information record",
                     "give the open-information sweep a file of its own")
    assert hidden.read_bytes() == before
    opened = tmp_path / "open.jsonl"
    opened.write_text("".join(_lines(OPEN_SWEEP, 0)), encoding="utf-8")
    before = opened.read_bytes()
    result = cli("sweep", CHALLENGE_0, "--information", "hidden", "--seeds", "1..1", "--workers", "0",
                 "--time-limit", "5", "--force-settings", "--out", str(opened))
    assert_bad_input(result, "line 1", "holds an open-information record",
                     "give the hidden-information sweep a file of its own")
    assert opened.read_bytes() == before


def test_a_hidden_sweep_refuses_more_tasks_than_the_cap(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "big.jsonl"
    result = cli("sweep", CHALLENGE_0, "--information", "hidden", "--seeds", "0..99999", "--players", "2,3,4",
                 "--agents", "greedy", "--workers", "0", "--out", str(out))
    assert_bad_input(result, "--seeds", "100,000 seed(s) x 3 task(s) a deal", "250,000")
    assert not out.exists()


def test_solo_deals_alone_refuse_agents_they_would_not_use(cli: Cli, tmp_path: Path) -> None:
    result = cli("sweep", CHALLENGE_0, "--information", "hidden", "--seeds", "1..1", "--players", "1", "--agents",
                 "greedy", "--workers", "0", "--out", str(tmp_path / "s.jsonl"))
    assert_bad_input(result, "--agents", "--solo-agents")


@pytest.mark.parametrize("option", [("--max-plies", "1"), ("--position", CHALLENGE_0), ("--engine", "reference"),
                                    ("--games-detail",)])
def test_play_strato_refuses_the_competitive_games_options(cli: Cli, option: tuple[str, ...]) -> None:
    result = cli("play", "strato", CHALLENGE_0, "--agents", "greedy", "--players", "2", "--count", "1", *option)
    assert_bad_input(result, option[0], "not Strato's")


@pytest.fixture(scope="module")
def solo_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Challenge 0 solo-1's value table (exact 1, 77 rows), written once."""
    from stratagem.cli.main import run

    path = tmp_path_factory.mktemp("table") / "solo-1.gz"
    assert run(["odds", CHALLENGE_0, "--deal", "solo-1", "--table", str(path), "--quiet"]) == 0
    return path


def _table(path: Path, header: dict[str, Any] | str, rows: list[str]) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as sink:
        sink.write((header if isinstance(header, str) else json.dumps(header)) + "\n")
        sink.writelines(row + "\n" for row in rows)
    return path


def test_a_value_tables_lines_are_capped(cli: Cli, tmp_path: Path, solo_table: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    header, rows = oddstable.read_table(solo_table)
    huge_header = _table(tmp_path / "header.gz", "{" + " " * (oddstable.MAX_HEADER_CHARS + 1) + "}", rows)
    assert_bad_input(cli("verify", str(huge_header)), "line 1", "header longer than")
    huge_row = _table(tmp_path / "row.gz", header, [*rows[:5], "value 1 " + "R" * oddstable.MAX_ROW_CHARS, *rows[5:]])
    assert_bad_input(cli("verify", str(huge_row)), "line 7", "longer than 4,096 characters")
    monkeypatch.setattr(oddstable, "MAX_TABLE_ROWS", len(rows) - 1)
    assert_bad_input(cli("verify", str(solo_table)), f"line {len(rows) + 1}", "rows: more than any search writes")
    monkeypatch.setattr(oddstable, "MAX_TABLE_ROWS", len(rows))
    assert cli("verify", str(solo_table)).code == 0


@pytest.mark.parametrize("value", [1.0, 0.6666, 1])
def test_a_table_claim_must_be_written_as_an_exact_fraction(cli: Cli, tmp_path: Path, solo_table: Path,
                                                            value: float) -> None:
    header, rows = oddstable.read_table(solo_table)
    header["claim"]["upper_bound"] = value
    result = cli("verify", str(_table(tmp_path / "float.gz", header, rows)))
    assert_bad_input(result, "claim.upper_bound", "exact fraction")


def test_a_policy_claim_must_be_written_as_an_exact_fraction(cli: Cli, tmp_path: Path) -> None:
    record = tmp_path / "one.json"
    assert cli("odds", CHALLENGE_0, "--position", CERTAIN, "--no-rank", "--proof", str(record)).code == 0
    data = json.loads(record.read_text(encoding="utf-8"))
    data["claim"]["win_probability"] = 1.0
    forged = tmp_path / "float.json"
    forged.write_text(json.dumps(data), encoding="utf-8")
    assert_bad_input(cli("verify", str(forged)), "claim.win_probability", "exact fraction")


def test_a_certain_win_is_certified_optimal_without_a_recheck(cli: Cli, tmp_path: Path) -> None:
    record = tmp_path / "one.json"
    assert cli("odds", CHALLENGE_0, "--position", CERTAIN, "--no-rank", "--proof", str(record)).code == 0
    claim = json.loads(record.read_text(encoding="utf-8"))["claim"]
    assert (claim["optimal"], claim["win_probability"]) == (True, "1")
    result = cli("verify", str(record))
    assert result.code == 0, result.out
    assert "certified: no policy wins with a probability above 1 — a probability is at most 1" in result.out


def test_verify_of_a_table_names_the_position_it_checked(cli: Cli, tmp_path: Path, solo_table: Path) -> None:
    header, rows = oddstable.read_table(solo_table)
    header["deal"] = "solo-2"  # a label: the start is solo-1's, and that is what is certified
    result = cli("verify", str(_table(tmp_path / "relabelled.gz", header, rows)))
    assert result.code == 0, result.out
    assert f"checked: the position: Challenge 0, start {header['start']}" in result.out
    assert "note: the header's deal name 'solo-2' is a label" in result.out
