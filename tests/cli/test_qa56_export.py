"""QA 56 (export, generate): what the exports and the generated deals promise, checked from the outside.

- A DIMACS export of a start that has already ended played on from it: a won start was unsatisfiable
  within 0 turns, and a lost start with a half-row over the limit (the cards past it had no place in the
  state) was satisfiable within 1, a "win" the rules never allow.
- A PDDL export of a won start needed a turn (plan cost 1, the optimum being 0), and of a lost one let
  the planner play on.
- A PDDL problem took the deal's name as it is written in the puzzle file: ``hard one (v2)`` or ``2p``
  made a file no planner reads.
- ``--horizon`` went to 200 whatever the deal: a three-row deal's formula of 200 turns needs some 20 GB,
  for a question the deal's last turn (its cards in hand and pile) already answers.
- ``generate`` kept whatever ``certified_solve`` called solved; it now keeps only an optimum with its
  certificate, and its TOML header names the relaxation-search certificate too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import PUZZLES, assert_bad_input
from pysat.formula import CNF
from pysat.solvers import Solver

from stratagem import generating
from stratagem.loading import load_strato
from stratagem.models.strato.encodings.pddl import domain, problem
from stratagem.models.strato.solve import Solution
from stratagem.solvers.fast_downward import driver, plan
from stratagem.solvers.search import SOLVED, UNKNOWN

HEAD = (PUZZLES / "challenge-0.toml").read_text().split("[[deals]]")[0]

# Ended starts of challenge 0 (limit 6): won (four rains and four winds by their tornadoes); lost with
# the left half-row over the limit, where a wind played on the right and one card moved would meet the
# goal within the six places the formula has.
ENDED = HEAD + """
[[deals]]
name = "won"
position = "WRRRR(RW)WWWW RRW RRWWRW 1 W won"

[[deals]]
name = "over"
position = "RRWRRRR(RW)WWW W - 1 W lost"

[[deals]]
name = "empty"
position = "RW(RW)RW - - 1 W lost"
"""


def _satisfiable(text: str) -> bool:
    with Solver(name="cadical153", bootstrap_with=CNF(from_string=text).clauses) as solver:
        return bool(solver.solve())


@pytest.fixture
def ended(tmp_path: Path) -> Path:
    path = tmp_path / "ended.toml"
    path.write_text(ENDED)
    return path


@pytest.mark.parametrize(("deal", "expected"), [("won", True), ("over", False), ("empty", False)])
def test_dimacs_of_an_ended_start_says_what_the_rules_say(cli, ended: Path, deal: str, expected: bool) -> None:  # type: ignore[no-untyped-def]
    """Won: a win within every horizon, 0 included; lost: within none (the over-limit start was SAT at 1)."""
    for horizon in (0, 1):
        if deal == "empty" and horizon > 0:
            continue  # no card left: the deal lasts 0 turns, and a larger horizon is refused
        result = cli("export", str(ended), "--deal", deal, "--horizon", str(horizon))
        assert result.code == 0, result.err
        assert _satisfiable(result.out) is expected, (deal, horizon)
        assert ("the start has ended" in result.out.splitlines()[1]) is True


def test_sat_solve_of_an_ended_start_no_longer_fails_inside(cli, ended: Path) -> None:  # type: ignore[no-untyped-def]
    """``solve --method sat`` rebuilt the same formula and failed with an internal error (exit 70)."""
    over = cli("solve", str(ended), "--deal", "over", "--method", "sat", "--json")
    assert over.code == 1, over.err
    assert json.loads(over.out)["status"] == "unsolvable"
    won = cli("solve", str(ended), "--deal", "won", "--method", "sat", "--json")
    assert won.code == 0, won.err
    assert json.loads(won.out)["status"] == "solved" and json.loads(won.out)["line"] == []


@pytest.mark.parametrize("axiom_free", [False, True])
def test_pddl_of_an_ended_start_has_the_empty_plan_or_none(ended: Path, axiom_free: bool) -> None:
    """A won start's goal holds in the initial state; a lost start has no ``(ready)``, the precondition
    of every turn's first action (``play``, ``redraw``), so nothing can be done."""
    loaded = load_strato(str(ended))
    init = {}
    for deal in ("won", "over"):
        text = problem(loaded.game(loaded.find_deal(deal, None)), name=deal, axiom_free=axiom_free)
        init[deal] = text.split("(:init", 1)[1].split("(:goal", 1)[0]
    assert "(ready)" in init["won"] and ("(won)" if axiom_free else "(started)") in init["won"]
    assert "(ready)" not in init["over"] and "(started)" not in init["over"] and "(won)" not in init["over"]
    ongoing = problem(loaded.game(loaded.find_deal("0", 1)), axiom_free=axiom_free)
    assert "(ready)" in ongoing and "(started)" not in ongoing.split("(:goal", 1)[0]


def test_fast_downward_agrees_on_ended_starts(ended: Path, tmp_path: Path) -> None:
    """With the ``planners`` extra: cost 0 for the won start, unsolvable for the lost one (blind A*)."""
    if driver() is None:
        pytest.skip("needs Fast Downward (the planners extra)")
    loaded = load_strato(str(ended))
    for deal, cost in (("won", 0), ("over", None)):
        game = loaded.game(loaded.find_deal(deal, None))
        for axiom_free in (False, True):
            run = plan(domain(game, axiom_free=axiom_free), problem(game, name=deal, axiom_free=axiom_free),
                       "astar(blind())", 60)
            assert run.status == ("solved" if cost is not None else "unsolvable"), run.message
            assert run.cost == cost


def test_pddl_problem_names_are_pddl_names(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A deal named ``hard one (v2)`` or ``2p`` wrote ``(define (problem hard one (v2))``, which no parser
    reads; the problem is named after the deal, made a PDDL name. unified-planning reads both now."""
    reader = pytest.importorskip("unified_planning.io").PDDLReader
    text = (PUZZLES / "challenge-0.toml").read_text()
    puzzle = tmp_path / "names.toml"
    puzzle.write_text(text.replace('name = "solo-1"', 'name = "hard one (v2)"').replace('name = "solo-2"',
                                                                                       'name = "2p"'))
    for deal, expected in (("hard one (v2)", "hard-one-v2"), ("2p", "deal-2p")):
        out = tmp_path / "deal.pddl"
        result = cli("export", str(puzzle), "--format", "pddl", "--deal", deal, "--out", str(out), "--quiet")
        assert result.code == 0, result.err
        assert out.read_text().startswith(f"(define (problem {expected}) ")
        parsed = reader().parse_problem(str(tmp_path / "deal-domain.pddl"), str(out))
        assert parsed.name == expected


def test_a_horizon_past_the_deals_last_turn_is_refused_before_anything_is_written(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Challenge 0's solo-1 holds 3 cards in hand and 11 in the pile: 14 turns at most."""
    out = tmp_path / "f.cnf"
    refused = cli("export", str(PUZZLES / "challenge-0.toml"), "--horizon", "15", "--out", str(out))
    assert_bad_input(refused, "challenge-0.toml: --horizon:", "lasts at most 14 turns", "--horizon 14 or less")
    assert not out.exists()
    assert_bad_input(cli("export", str(PUZZLES / "challenge-0.toml"), "--horizon", "55"), "--horizon", "0<=x<=54")
    assert cli("export", str(PUZZLES / "challenge-0.toml"), "--horizon", "14", "--out", str(out)).code == 0
    assert out.exists()


def _uncertified(game, deadline) -> Solution:  # type: ignore[no-untyped-def]
    """An answer of five turns called solved, with no certificate behind it."""
    return Solution("sat", SOLVED, tuple(range(5)), 5, "asserted", {}, evidence={})  # type: ignore[arg-type]


def test_generate_keeps_no_deal_without_its_certificate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generating, "certified_solve", _uncertified)
    _, _, found = generating.generate(str(PUZZLES / "challenge-0.toml"), 1, seed=4, min_length=5, tries=2)
    assert found.deals == []
    assert [t["outcome"] for t in found.tried] == ["undecided", "undecided"]
    assert all(t["optimal_length"] is None for t in found.tried)


def test_generate_calls_a_deal_with_a_short_line_too_short_even_undecided(monkeypatch: pytest.MonkeyPatch) -> None:
    """A winning line of 5 turns makes the optimum at most 5: too short for 6, whatever was proven."""
    def short_line(game, deadline):  # type: ignore[no-untyped-def]
        return Solution("sat", UNKNOWN, tuple(range(5)), 3, "stopped", {})  # type: ignore[arg-type]

    monkeypatch.setattr(generating, "certified_solve", short_line)
    _, _, found = generating.generate(str(PUZZLES / "challenge-0.toml"), 1, seed=4, min_length=6, tries=1)
    assert found.tried == [{"seed": 4, "outcome": "too short", "optimal_length": None, "evidence": None}]


def test_generate_toml_names_every_certificate_a_length_may_rest_on(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("generate", "strato", "--challenge", str(PUZZLES / "challenge-0.toml"), "--count", "1",
                 "--seed", "3", "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["tried"] == [{"optimal_length": 5, "outcome": "kept", "seed": 3, "evidence": "relaxation-bound"}]
    assert "a pruned search of every shorter line" in report["toml"]


def test_a_failure_making_the_pddl_problem_leaves_the_earlier_pair_untouched(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The domain was written before the problem was made: a failure in between left a new domain (which,
    axiom-free, belongs to one deal) beside the earlier problem, a pair no planner should be given."""
    from stratagem.cli import export as export_module

    out, level_2 = tmp_path / "deal.pddl", str(PUZZLES / "level-2-example.toml")
    assert cli("export", level_2, "--format", "pddl", "--axiom-free", "--deal", "duo-1", "--out", str(out),
               "--quiet").code == 0
    before = (tmp_path / "deal-domain.pddl").read_text(), out.read_text()

    def broken(*args: object, **kwargs: object) -> str:
        raise MemoryError("out of memory")

    monkeypatch.setattr(export_module, "problem", broken)
    loaded = load_strato(level_2)
    assert domain(loaded.game(loaded.find_deal("4", 2)), axiom_free=True) != before[0]  # tornadoes paired apart
    failed = cli("export", level_2, "--format", "pddl", "--axiom-free", "--deal", "4", "--players", "2", "--out",
                 str(out))
    assert failed.code != 0
    assert ((tmp_path / "deal-domain.pddl").read_text(), out.read_text()) == before


def test_show_names_a_bad_move_of_a_proof_record_by_its_place_and_players_by_its_name(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A proof record holds its moves under ``line``: a bad one was named ``moves[2]``, a key the file does
    not have; ``show position.toml --players 2`` blamed ``--deal``, which was not given."""
    proof = tmp_path / "p.json"
    assert cli("solve", str(PUZZLES / "challenge-0.toml"), "--proof", str(proof), "--quiet").code == 0
    record = json.loads(proof.read_text())
    record["line"]["moves"][2] = "W1R:1L9>1L2"
    proof.write_text(json.dumps(record))
    assert_bad_input(cli("show", str(proof)), f"{proof}: line.moves[2]: W1R:1L9>1L2: not a legal target choice")
    line = tmp_path / "l.json"
    line.write_text(json.dumps(record["line"]))
    assert_bad_input(cli("show", str(line)), f"{line}: moves[2]: W1R:1L9>1L2")
    stakd = str(PUZZLES.parent / "stakd" / "solo-1-tiny.toml")
    assert_bad_input(cli("show", stakd, "--players", "2"), f"{stakd}: --players: --deal and --players are for Strato")
    assert_bad_input(cli("show", stakd, "--deal", "x"), f"{stakd}: --deal: --deal and --players are for Strato")


def test_generate_counts_a_deal_a_search_shows_unsolvable_as_unsolvable(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Twelve rain cards wanted, nine in the box: no deal can be won; the pruned search of every line the
    deal can last shows it (a search `verify --recheck` repeats, not an independent certificate), and the
    seed is counted unsolvable, not undecided."""
    puzzle = tmp_path / "twelve.toml"
    puzzle.write_text('game = "strato"\n[challenge]\nweathers = "RW"\nrows = 1\npairs = ["RW"]\nlimit = 8\n'
                      '[challenge.goal]\nleft = "RRRRRR"\nright = "RRRRRR"\n')
    result = cli("generate", "strato", "--challenge", str(puzzle), "--count", "1", "--tries", "1", "--json")
    assert result.code == 1, result.err
    report = json.loads(result.out)
    assert report["tried"] == [{"optimal_length": None, "outcome": "unsolvable", "seed": 0,
                                "evidence": "exhaustive-search"}]
    assert report["skipped"]["unsolvable"] == 1 and report["toml"] is None


def test_generate_writes_a_readable_puzzle_whatever_the_challenge_files_name(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The header's command named the challenge file as it is: a newline in the name ended the comment
    line, and the puzzle written could not be read (``line 2: malformed TOML``)."""
    challenge = tmp_path / "two\nlines.toml"
    challenge.write_text((PUZZLES / "challenge-0.toml").read_text())
    out = tmp_path / "gen.toml"
    assert cli("generate", "strato", "--challenge", str(challenge), "--count", "1", "--quiet", "--out",
               str(out)).code == 0
    assert f"--challenge '{tmp_path}/two\\nlines.toml' --count 1" in out.read_text().splitlines()[0]
    assert [d.name for d in load_strato(str(out)).deals] == ["seed-0"]


def test_show_draws_names_with_square_brackets_as_written(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Names and descriptions are free text in a puzzle file; read as rich markup, ``[/red]`` ended
    ``show`` with an internal error (exit 70) and ``[bold]`` vanished into the drawing."""
    puzzle = tmp_path / "brackets.toml"
    puzzle.write_text((PUZZLES / "challenge-0.toml").read_text().replace('name = "Challenge 0"', 'name = "Ch [/red] x"')
                      .replace('name = "solo-1"', 'name = "a [/] b [bold]c"'))
    shown = cli("show", str(puzzle))
    assert shown.code == 0, shown.err
    assert shown.out.startswith("Ch [/red] x (level 0)") and "deal a [/] b [bold]c (seed 1" in shown.out
    assert "deals in this file: a [/] b [bold]c, solo-2" in shown.out
    data = json.loads(cli("show", str(puzzle), "--json").out)
    assert data["challenge"].startswith("Ch [/red] x (level 0)") and data["deal"] == "a [/] b [bold]c"
    position = tmp_path / "stakd.toml"
    position.write_text('game = "stakd"\nname = "[/x] tiny"\ndescription = "[red]no colour[/]"\n\n[position]\n'
                        'pieces = "B1T1D2U2"\n')
    shown = cli("show", str(position))
    assert shown.code == 0, shown.err
    assert "stakd — [/x] tiny" in shown.out and "[red]no colour[/]" in shown.out
