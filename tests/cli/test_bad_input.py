"""Bad input: one line on stderr naming file, place and problem; exit 2; no traceback; nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import PUZZLES, assert_bad_input

GOOD = (PUZZLES / "challenge-0.toml").read_text()


def _solve(cli, tmp_path: Path, text: str, *extra: str):
    path = tmp_path / "puzzle.toml"
    path.write_text(text)
    proof = tmp_path / "proof.json"
    result = cli("solve", str(path), "--proof", str(proof), *extra)
    assert not proof.exists(), "nothing may be written on bad input"
    return result


def test_malformed_toml(cli, tmp_path: Path) -> None:
    result = _solve(cli, tmp_path, GOOD.replace('limit = 6', 'limit = = 6'))
    assert_bad_input(result, "puzzle.toml", "line ", "malformed TOML")


def test_unknown_weather_letter_in_challenge(cli, tmp_path: Path) -> None:
    result = _solve(cli, tmp_path, GOOD.replace('weathers = "RW"', 'weathers = "RX"'))
    assert_bad_input(result, "puzzle.toml", "challenge.weathers", "unknown weather letter 'X'")


def test_unknown_weather_letter_in_goal(cli, tmp_path: Path) -> None:
    result = _solve(cli, tmp_path, GOOD.replace('left = "RRRR"', 'left = "RRQR"'))
    assert_bad_input(result, "challenge.goal.left", "'Q'")


def test_limit_above_eight(cli, tmp_path: Path) -> None:
    result = _solve(cli, tmp_path, GOOD.replace("limit = 6", "limit = 9"))
    assert_bad_input(result, "challenge.limit", "9", "8")


EXPLICIT = """
[[deals]]
name = "by-hand"
rows = ["{row}"]
hands = ["{hand}"]
pile = "{pile}"
"""


def _explicit(row: str, hand: str, pile: str) -> str:
    head = GOOD.split("[[deals]]")[0]
    return head + EXPLICIT.format(row=row, hand=hand, pile=pile)


def test_explicit_deal_is_accepted_when_legal(cli, tmp_path: Path) -> None:
    path = tmp_path / "ok.toml"
    path.write_text(_explicit("RW(RW)RW", "RRW", "WRWRWRWRWR"))
    assert cli("show", str(path)).code == 0


def test_layout_with_adjacent_same_weather(cli, tmp_path: Path) -> None:
    result = _solve(cli, tmp_path, _explicit("WR(RW)RW", "RRW", "WRWRW"))
    assert_bad_input(result, "puzzle.toml", "deals[0]", "adjacent R")


def test_more_cards_of_a_weather_than_the_deck_holds(cli, tmp_path: Path) -> None:
    result = _solve(cli, tmp_path, _explicit("RW(RW)RW", "RRR", "RRRRRRRWW"))
    assert_bad_input(result, "deals[0]", "R cards", "9")


def test_unknown_letter_in_explicit_row(cli, tmp_path: Path) -> None:
    result = _solve(cli, tmp_path, _explicit("RZ(RW)RW", "RRW", "WR"))
    assert_bad_input(result, "deals[0].rows[0]", "'Z'")


def test_unknown_option(cli, tmp_path: Path) -> None:
    result = _solve(cli, tmp_path, GOOD + "\n[options]\nwind_crosses = true\n")
    assert_bad_input(result, "options.wind_crosses", "unknown key")


def test_wrong_type(cli, tmp_path: Path) -> None:
    result = _solve(cli, tmp_path, GOOD.replace("rows = 1", 'rows = "one"'))
    assert_bad_input(result, "challenge.rows", "must be an integer")


def test_missing_file(cli, tmp_path: Path) -> None:
    assert_bad_input(cli("solve", str(tmp_path / "nope.toml")), "nope.toml", "no such file")


def test_unknown_deal_name(cli) -> None:
    assert_bad_input(cli("solve", str(PUZZLES / "challenge-0.toml"), "--deal", "nosuch"), "--deal", "nosuch")


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("solve", "x.toml", "--method", "magic"), "--method"),
        (("solve", "x.toml", "--colour"), "--colour"),
        (("frobnicate",), "frobnicate"),
        (("solve", "x.toml", "--players", "7"), "--players"),
    ],
)
def test_usage_errors_are_one_line(cli, args: tuple[str, ...], fragment: str) -> None:
    assert_bad_input(cli(*args), fragment)


def test_show_line_with_illegal_move_is_bad_input(cli, tmp_path: Path) -> None:
    import json

    proof = tmp_path / "p.json"
    cli("solve", str(PUZZLES / "challenge-0.toml"), "--proof", str(proof))
    record = json.loads(proof.read_text())
    line = record["line"]
    line["moves"][1] = "T1L"
    path = tmp_path / "line.json"
    path.write_text(json.dumps(line))
    assert_bad_input(cli("show", str(path)), "line.json", "moves[1]", "no T")
