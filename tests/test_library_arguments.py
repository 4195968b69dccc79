"""The library's entry points as a script meets them: arguments of the wrong kind are refused by name, the
names docs/api.md spells out in full resolve after a plain ``import stratagem``, and a result's record is a
copy (editing what ``to_json()`` or a property handed out changes nothing the result says next), and its
repr says what it is in a line, not in its proofs' megabytes."""

from __future__ import annotations

import contextlib
import copy
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import stratagem
from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput
from stratagem.generating import generate
from stratagem.winprobability import odds_bounds

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE_0 = str(ROOT / "puzzles" / "strato" / "challenge-0.toml")
TINY = str(ROOT / "puzzles" / "stakd" / "solo-1-tiny.toml")
POSITION = "RRWR(RW)WWRW RRR WRR 1 -"


def test_the_documented_error_names_resolve_after_a_plain_import() -> None:
    # A fresh interpreter: in this one the test modules have loaded every submodule already. The except
    # clause names a module no call had loaded; it raised AttributeError over the BadInput it was to catch.
    script = (
        "import stratagem\n"
        "try:\n"
        "    stratagem.solve('no-such-file.toml')\n"
        "except (stratagem.analysis.ProofNotWritten, stratagem.core.errors.BadInput) as exc:\n"
        "    print(type(exc).__name__, exc)\n"
        "print(stratagem.BadInput is stratagem.core.errors.BadInput)\n"
    )
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines() == ["BadInput no-such-file.toml: no such file", "True"]


def test_no_such_name_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        _ = stratagem.no_such_name


@pytest.mark.parametrize(("call", "ending"), [
    (lambda p: stratagem.check(p), "not Position"),
    # odds takes a Strato Position (as solve does), so another game's is refused as such
    (lambda p: stratagem.odds(p), "STAKD solo puzzles)"),
    (lambda p: stratagem.odds(p, position=POSITION), "STAKD solo puzzles)"),
])
def test_a_loaded_position_given_for_a_puzzle_file_is_refused_by_name(call, ending: str) -> None:  # type: ignore[no-untyped-def]
    # It was read as a file named by the Position's whole repr: "...: cannot read: File name too long".
    position = stratagem.load(TINY)
    with pytest.raises(BadInput) as caught:
        call(position)
    assert (caught.value.source, caught.value.place) == ("<argument>", "puzzle")
    assert caught.value.problem.endswith(ending)


def test_load_refuses_a_path_deal_or_player_count_of_the_wrong_kind() -> None:
    with pytest.raises(BadInput, match=r"^<argument>: path: a file's path, not NoneType$"):
        stratagem.load(None)  # type: ignore[arg-type]  # it said "None: no such file"
    # players="2" said "Strato is played by 1 to 4 players, not 2"; deal=1.5 looked for a deal named '1.5'
    with pytest.raises(BadInput, match=r"^<argument>: players: a whole number of players, not str '2'$"):
        stratagem.load(CHALLENGE_0, deal=3, players="2")  # type: ignore[arg-type]
    with pytest.raises(BadInput, match=r"^<argument>: deal: a deal's name or a whole-number seed, not float 1.5$"):
        stratagem.load(CHALLENGE_0, deal=1.5)  # type: ignore[arg-type]
    with pytest.raises(BadInput, match=r"^<argument>: deal: .* not bool True$"):
        stratagem.load(CHALLENGE_0, deal=True)


def test_odds_bounds_refuses_a_file_name_for_a_deal() -> None:
    with pytest.raises(BadInput, match=r"^<argument>: deal: a loaded Strato deal \(stratagem.load\), a StratoGame or a "
                                       r"Strato Position \(stratagem.from_notation\), not str$"):
        odds_bounds(CHALLENGE_0, "table.gz", time_limit=5)  # type: ignore[arg-type]  # was AttributeError


def test_odds_refuses_a_deal_and_a_position_together() -> None:
    # The position was valued and the deal dropped without a word (`stratagem odds` refuses both options).
    with pytest.raises(ValueError, match="give deal or position, not both"):
        stratagem.odds(CHALLENGE_0, "solo-1", position=POSITION)
    with pytest.raises(BadInput, match=r"^<argument>: position: a position in the open notation, not int$"):
        stratagem.odds(CHALLENGE_0, position=5)  # type: ignore[arg-type]


@pytest.mark.parametrize(("arguments", "message"), [
    ({"seed": -5}, "seed must be a whole number from 0 to 9223372036854775807, not -5"),
    ({"players": 0}, "players must be a whole number from 1 to 4, not 0"),
    ({"count": 0}, "count must be a whole number from 1, not 0"),
    ({"tries": 0}, "tries must be a whole number from 1, not 0"),
    ({"min_length": 0}, "min_length must be a whole number from 1, not 0"),
    ({"deal_limit": -1.0}, "deal_limit must be a finite number of seconds above 0, not -1.0"),
])
def test_generate_refuses_what_the_command_refuses(arguments: dict[str, int | float], message: str) -> None:
    # seed=-5 kept deals named 'seed--5' (a negative seed deals its positive twin) that no file loads;
    # players=0 silently meant the challenge's count; count=0 and tries=0 ran and kept nothing.
    given: dict[str, int | float] = {"count": 1, **arguments}
    count = int(given.pop("count"))
    with pytest.raises(ValueError) as caught:
        generate(CHALLENGE_0, count, **given)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_a_solution_hands_out_copies_of_its_stats_and_record() -> None:
    solution = stratagem.solve(CHALLENGE_0, "solo-1")
    before = copy.deepcopy(solution.to_json())
    solution.stats["nodes"] = -1                 # was the solution's own dict: its report then said -1
    solution.to_json()["stats"]["nodes"] = -2
    assert solution.to_json()["stats"] == before["stats"] and solution.stats == before["stats"]


def test_a_verdict_record_is_a_copy_of_what_was_checked(tmp_path: Path) -> None:
    solution = stratagem.solve(CHALLENGE_0, "solo-1")
    assert solution.write_proof(tmp_path / "proof.json")
    verdict = stratagem.verify(tmp_path / "proof.json")
    checked = list(verdict.checked)
    verdict.to_json()["checked"].append("forged")  # appended to the verdict's own list
    assert verdict.checked == checked and verdict.to_json()["checked"] == checked


def test_a_result_reprs_as_its_deal_status_and_line() -> None:
    # The generated reprs spelt out the whole puzzle and, for a SAT answer or a refutation, the CNF and the
    # DRUP proof: 639 KB printed by an interactive session for challenge 0's four-3.
    by_sat = stratagem.solve(CHALLENGE_0, "four-3", method="sat")
    assert repr(by_sat) == (
        "DealSolution(deal=StratoDeal(source=" + repr(CHALLENGE_0) + ", name='four-3', players=4, "
        "start='RW(RW)RW WW,RW,RW,RW WWRRRR 1 -'), status='solved', "
        f"line={' '.join(by_sat.line_text)!r}, lower_bound=5, method='sat')")
    refuted = stratagem.check(str(ROOT / "puzzles" / "stakd" / "solo-4-impossible.toml"))
    assert repr(refuted).endswith("status='not winnable', line='', evidence='drup-refutation')")
    odds = stratagem.odds(CHALLENGE_0, position=POSITION)
    assert repr(odds).endswith("status='solved', value=Fraction(2, 3), lower_bound=Fraction(2, 3), "
                               f"states={odds.result.states})")
    assert max(len(repr(result)) for result in (by_sat, refuted, odds)) < 400


@pytest.mark.parametrize("method", ["sat", "cpsat"])
def test_check_takes_a_running_deadline_as_solve_does(method: str) -> None:
    # A Strato puzzle's check (solve) took one; a STAKD puzzle's failed with "TypeError: must be real number,
    # not Deadline" from inside the solo solver.
    answer = stratagem.check(TINY, method=method, time_limit=Deadline(60))
    assert isinstance(answer, stratagem.SoloCheck) and answer.status == "winnable"
    stopped = stratagem.check(str(ROOT / "puzzles" / "stakd" / "solo.toml"), method=method, time_limit=Deadline(0.5))
    assert stopped.status == "unknown" and stopped.claim() == {}


@pytest.mark.parametrize("time_limit", [None, 60.0])
def test_check_shows_a_stakd_solver_its_progress(time_limit: float | None) -> None:
    # check took progress= for a STAKD puzzle and showed nothing: the SAT solver of a large solo puzzle runs
    # for minutes with the command's status line blank.
    shown: list[tuple[str, str, str, int, int]] = []

    @contextlib.contextmanager
    def progress(label: str, first: str, second: str) -> Iterator[Callable[[int, int], None]]:
        yield lambda a, b: shown.append((label, first, second, a, b))

    answer = stratagem.check(str(ROOT / "puzzles" / "stakd" / "solo-4-impossible.toml"), time_limit=time_limit,
                             progress=progress)
    assert isinstance(answer, stratagem.SoloCheck) and answer.winnable is False
    assert shown and {s[:3] for s in shown} == {("sat on solo-4-impossible.toml", "conflicts", "proof lines")}
    assert shown[-1][4] == answer.evidence["proof_lines"]  # the last report: when the solver ended


def test_solve_takes_a_strato_position_and_refuses_another_games(tmp_path: Path) -> None:
    # A Strato position given in notation could be solved only through its rules object; given itself it was
    # read as a file named by its repr ("File name too long"), as was a STAKD position.
    deal = stratagem.load(CHALLENGE_0, "solo-1")
    assert isinstance(deal, stratagem.StratoDeal)
    met = stratagem.from_notation("strato", POSITION, deal.setup())
    solution = stratagem.solve(met, method="sat")
    assert (solution.status, len(solution.line_text), solution.deal.source) == ("solved", 3, "<notation>")
    assert solution.evidence["kind"] == "drup-refutation" and solution.write_proof(tmp_path / "met.json")
    assert stratagem.verify(tmp_path / "met.json").valid
    with pytest.raises(BadInput) as caught:
        stratagem.solve(stratagem.load(TINY))
    assert (caught.value.place, caught.value.problem.split(" (")[0]) == (
        "puzzle", "solve takes Strato deals, not a stakd position")


def test_a_sweep_plan_refuses_a_bad_seed_limit_or_file_list_before_any_work() -> None:
    # A negative seed and a limit of -1 s were planned, and the sweep stopped at their task after running the
    # ones before it; one file name given for the list was read letter by letter ("/: is a directory").
    from stratagem.sweep import plan

    with pytest.raises(BadInput, match=r"^<argument>: seeds: seed -1: seeds are whole numbers from 0 to "):
        plan([CHALLENGE_0], seeds=[0, -1], players=[1], time_limit=30)
    with pytest.raises(ValueError, match=r"^time_limit must be a finite number of seconds above 0, not -1$"):
        plan([CHALLENGE_0], seeds=[0], players=[1], time_limit=-1)
    with pytest.raises(BadInput, match=r"^<argument>: puzzles: a list of puzzle files, not one str$"):
        plan(CHALLENGE_0, seeds=[0], players=[1])
    assert len(plan([CHALLENGE_0], seeds=range(2), players=[1, 2], time_limit=30)) == 4


def test_the_documented_types_are_in_the_signatures() -> None:
    # A script type-checked with mypy --strict got Any where the docs name a type: record_page's verdict
    # ("pass a Verdict from stratagem.verify") and the puzzle generate returns.
    import typing

    from stratagem.models.strato.rules.puzzle import Puzzle
    from stratagem.verification.verdict import Verdict
    from stratagem.views import record_page

    assert typing.get_type_hints(record_page)["verdict"] == Verdict | None
    assert typing.get_args(typing.get_type_hints(generate)["return"])[0] is Puzzle


def test_load_names_the_strato_only_argument_given_for_a_position() -> None:
    # players=2 for a STAKD position was reported at 'deal', which had not been given.
    with pytest.raises(BadInput) as caught:
        stratagem.load(TINY, players=2)
    assert (caught.value.place, caught.value.problem) == ("players", "deal and players are for Strato puzzles, "
                                                          "not stakd positions")
    with pytest.raises(BadInput, match=r": deal: deal and players are for Strato puzzles"):
        stratagem.load(TINY, deal="x", players=2)


def test_generate_takes_its_deadline_in_seconds() -> None:
    # deadline=60 failed with "AttributeError: 'int' object has no attribute 'expired'"; only a Deadline ran.
    _, players, found = generate(CHALLENGE_0, 1, deadline=60)
    assert (players, found.stopped_by, [deal["name"] for deal in found.deals]) == (1, None, ["seed-0"])
    with pytest.raises(ValueError, match="^deadline must be a Deadline or a finite number of seconds above 0, not 0$"):
        generate(CHALLENGE_0, 1, deadline=0)


def test_difficulty_cards_refuse_an_open_sweeps_records(tmp_path: Path) -> None:
    # An open sweep's records gave a bare KeyError: 'team' from inside the cards.
    from stratagem.difficulty import difficulty
    from stratagem.sweep import ResultsFile, plan, sweep

    results = ResultsFile(tmp_path / "open.jsonl")
    results.check()
    sweep(plan([CHALLENGE_0], seeds=[0], players=[1], time_limit=30), results, workers=0)
    with pytest.raises(BadInput, match=r"^open.jsonl: record 1: an open-information record: difficulty cards"):
        difficulty(results.records, "open.jsonl")
    assert difficulty([], "none.jsonl", results.records).cards == []  # open records are the open_records


def test_a_sweep_report_refuses_a_hidden_sweeps_records() -> None:
    # A hidden solo record ('solved': its win probability found, here 1/2) was counted as a deal proven
    # solvable; the command sends such a file to the difficulty cards, a library caller got the wrong report.
    from stratagem.sweephidden import plan_hidden, run_hidden_task
    from stratagem.sweeprecords import hidden_problem
    from stratagem.sweepreport import summarise

    [task] = plan_hidden([CHALLENGE_0], [27], [1], time_limit=30)
    record = run_hidden_task(task)  # won whatever the order (1): made a half, as a harder deal's would be
    record["odds"].update(value="1/2", low="1/2", high="1/2", float=0.5)
    assert record["status"] == "solved" and hidden_problem(record) == ""
    with pytest.raises(BadInput, match=r"^hidden.jsonl: record 1: a hidden-information record: this report is of"):
        summarise([record], "hidden.jsonl")


def test_odds_bounds_refuses_a_table_it_cannot_write_before_searching(tmp_path: Path) -> None:
    # The folder that is not there was found when the table was written, after the whole search.
    shown: list[str] = []

    @contextlib.contextmanager
    def progress(label: str, first: str, second: str) -> Iterator[Callable[[int, int], None]]:
        shown.append(label)
        yield lambda a, b: None

    deal = stratagem.load(CHALLENGE_0, "solo-1")
    assert isinstance(deal, stratagem.StratoDeal)
    table = tmp_path / "no-such-folder" / "solo-1.gz"
    with pytest.raises(BadInput, match=r": table: cannot write: the directory .* does not exist$"):
        odds_bounds(deal, table, time_limit=60, progress=progress)
    assert shown == []


@pytest.mark.parametrize(("arguments", "parameter"), [
    ({"method": "ismcts", "as_player": 2, "iterations": 10}, "as_player"),  # player 1 is to move
    ({"method": "alphabeta", "engine": "fast"}, "engine"),
])
def test_an_analysis_argument_that_cannot_be_used_is_refused_by_its_parameter(arguments, parameter: str) -> None:  # type: ignore[no-untyped-def]
    # These were plain BadInput naming the parameter as a place, so the CLI's own wording of the
    # parameter (option_for) never applied and a library caller could not tell them from a bad file.
    with pytest.raises(stratagem.core.errors.BadArgument) as caught:
        stratagem.analyze(str(ROOT / "puzzles" / "stratatak" / "lone-star.toml"), **arguments)
    assert caught.value.parameter == parameter
    assert "--" not in caught.value.problem  # the library's words, not the command line's


@pytest.mark.parametrize("call", [
    lambda: stratagem.analyze(str(ROOT / "puzzles" / "stratatak" / "lone-star.toml"), rank="no"),  # type: ignore[arg-type]
    lambda: stratagem.odds(CHALLENGE_0, "solo-1", rank=0),  # type: ignore[arg-type]
    lambda: stratagem.verify({"format": "stratagem/solution@1"}, recheck="false"),  # type: ignore[arg-type]
])
def test_a_switch_takes_true_or_false_only(call: Callable[[], object]) -> None:
    # Read by truthiness: rank="no" ranked every move, recheck="false" rechecked.
    with pytest.raises(stratagem.core.errors.BadArgument, match="True or False, not"):
        call()
