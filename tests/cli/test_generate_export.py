"""`stratagem generate` writes loadable deals with proven lengths; `stratagem export` writes DIMACS."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import PUZZLES

from stratagem.models.strato.rules.puzzle import load_puzzle
from stratagem.solvers.dimacs import parse_dimacs

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")


def test_generate_writes_deals_whose_claimed_length_solve_confirms(cli, tmp_path: Path) -> None:
    out = tmp_path / "gen.toml"
    result = cli("generate", "strato", "--challenge", CHALLENGE_0, "--count", "2", "--min-length", "5",
                 "--seed", "40", "--players", "2", "--out", str(out))
    assert result.code == 0, result.err
    puzzle = load_puzzle(out)
    assert len(puzzle.deals) == 2
    assert puzzle.challenge == load_puzzle(CHALLENGE_0).challenge
    for spec in puzzle.deals:
        assert spec.players == 2 and spec.optimal_length is not None and spec.optimal_length >= 5
        solved = json.loads(cli("solve", str(out), "--deal", spec.name, "--json").out)
        assert solved["length"] == spec.optimal_length


def test_generate_is_deterministic(cli, tmp_path: Path) -> None:
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    for path in (a, b):
        cli("generate", "strato", "--challenge", CHALLENGE_0, "--count", "1", "--seed", "7", "--out", str(path))
    assert a.read_bytes() == b.read_bytes()


def test_generate_reports_a_shortfall(cli, tmp_path: Path) -> None:
    out = tmp_path / "none.toml"
    result = cli("generate", "strato", "--challenge", CHALLENGE_0, "--count", "1", "--min-length", "9",
                 "--seed", "1", "--tries", "2", "--out", str(out))
    assert result.code == 1
    assert "too short" in result.err and "no deal kept: no puzzle written" in result.err
    assert not out.exists()  # a file of no deals would read as seed 0's deal, which may be one rejected here


def test_a_wrong_optimal_length_claim_is_reported(cli, tmp_path: Path) -> None:
    text = (PUZZLES / "challenge-0.toml").read_text().replace(
        'name = "solo-1"\nseed = 1\n', 'name = "solo-1"\nseed = 1\noptimal_length = 4\n')
    path = tmp_path / "claim.toml"
    path.write_text(text)
    result = cli("solve", str(path), "--json")
    assert result.code == 0
    assert "optimal_length = 4" in result.err and "5 turns" in result.err


def test_export_dimacs_parses_and_names_variables(cli, tmp_path: Path) -> None:
    out = tmp_path / "f.cnf"
    result = cli("export", CHALLENGE_0, "--horizon", "3", "--out", str(out))
    assert result.code == 0, result.err
    text = out.read_text()
    num_vars, clauses = parse_dimacs(text, str(out))
    assert num_vars > 0 and clauses
    assert "c v 1 S 0 0 0 R" in text


def test_export_pddl_writes_domain_and_problem(cli, tmp_path: Path) -> None:
    out = tmp_path / "deal.pddl"
    result = cli("export", CHALLENGE_0, "--format", "pddl", "--deal", "duo-1", "--out", str(out))
    assert result.code == 0, result.err
    domain_text = (tmp_path / "deal-domain.pddl").read_text()
    problem_text = out.read_text()
    assert domain_text.startswith("(define (domain strato)") and ":action-costs" in domain_text
    assert "(:domain strato)" in problem_text and "(turn pl0)" in problem_text
    assert domain_text.count("(") == domain_text.count(")")
    assert problem_text.count("(") == problem_text.count(")")


def test_export_pddl_needs_out_and_dimacs_needs_a_horizon(cli) -> None:
    assert cli("export", CHALLENGE_0, "--format", "pddl").code == 2
    assert cli("export", CHALLENGE_0).code == 2


def test_an_output_that_is_the_input_is_refused_before_any_work(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """``export ch0.toml --out ch0.toml`` replaced the puzzle by DIMACS, and ``generate`` a hand-written
    deals file by the generated one; by its name, another spelling of it or a link, it is refused now."""
    puzzle = tmp_path / "ch0.toml"
    text = (PUZZLES / "challenge-0.toml").read_text()
    puzzle.write_text(text)
    (tmp_path / "link.toml").symlink_to(puzzle)
    for out in (str(puzzle), str(tmp_path / "." / "ch0.toml"), str(tmp_path / "link.toml")):
        refused = cli("export", str(puzzle), "--horizon", "3", "--out", out)
        assert refused.code == 2 and "is the input file" in refused.err, refused.err
        refused = cli("generate", "strato", "--challenge", str(puzzle), "--count", "1", "--out", out)
        assert refused.code == 2 and "is the input file" in refused.err, refused.err
    assert puzzle.read_text() == text


def test_show_of_a_record_refuses_deal_and_players(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A record holds its own start: ``--deal`` and ``--players`` were ignored without a word."""
    record = tmp_path / "tiny.json"
    assert cli("check", str(PUZZLES.parent / "stakd" / "solo-1-tiny.toml"), "--proof", str(record),
               "--quiet").code == 0
    refused = cli("show", str(record), "--deal", "nope", "--players", "3")
    assert refused.code == 2 and "a record holds its own start" in refused.err
    assert cli("show", str(record)).code == 0


def test_every_command_refuses_to_write_over_its_input_or_one_file_twice(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """solve, check, analyze, odds and reach wrote their proof, page, table or graph over the puzzle they
    read, and ``--proof x --html x`` replaced the proof by the page; all are refused before any work."""
    puzzle = tmp_path / "c0.toml"
    text = (PUZZLES / "challenge-0.toml").read_text()
    puzzle.write_text(text)
    position = tmp_path / "ls.toml"
    position.write_text((PUZZLES.parent / "stratatak" / "lone-star.toml").read_text())
    p = str(puzzle)
    for args in (["solve", p, "--proof", p], ["solve", p, "--html", p], ["check", p, "--proof", p],
                 ["odds", p, "--proof", p], ["odds", p, "--table", p], ["reach", p, "--export", "dot", "--out", p],
                 ["analyze", str(position), "--proof", str(position)]):
        refused = cli(*args)
        assert refused.code == 2 and "is the input file" in refused.err, (args, refused.err)
    twice = cli("solve", p, "--proof", str(tmp_path / "x.json"), "--html", str(tmp_path / "x.json"))
    assert twice.code == 2 and "--html: is also the --proof file" in twice.err
    assert puzzle.read_text() == text and not (tmp_path / "x.json").exists()


def test_an_output_through_a_missing_directory_is_refused_as_unwritable(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """``--out sub/../ch0.toml`` with no ``sub`` was refused as "the input file", which names it by its
    resolved spelling; the system cannot open that path at all, and that is what the refusal says now."""
    puzzle = tmp_path / "ch0.toml"
    text = (PUZZLES / "challenge-0.toml").read_text()
    puzzle.write_text(text)
    out = str(tmp_path / "sub" / ".." / "ch0.toml")
    for args in (["export", str(puzzle), "--horizon", "3", "--out", out], ["solve", str(puzzle), "--proof", out]):
        refused = cli(*args)
        assert refused.code == 2 and "does not exist" in refused.err and "input file" not in refused.err, \
            (args, refused.err)
    assert puzzle.read_text() == text and not (tmp_path / "sub").exists()
