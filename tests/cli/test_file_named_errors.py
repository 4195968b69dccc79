"""Refusals that name the file and the option given (QA 56): ``odds --deal duo-1`` said only
'players: ... this deal has 2 players', naming neither the file nor the deal, and ``solve --deal 3`` of a
STAKD file said 'Invalid value for --deal/--players/--max-nodes', naming options not given."""

from __future__ import annotations

from conftest import ROOT

CHALLENGE_0 = str(ROOT / "puzzles" / "strato" / "challenge-0.toml")
STAKD_SOLO = str(ROOT / "puzzles" / "stakd" / "solo-1-tiny.toml")


def test_odds_of_a_team_deal_names_the_file_and_the_deal(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("odds", CHALLENGE_0, "--deal", "duo-1")
    assert result.code == 2
    assert result.err.strip() == (f"{CHALLENGE_0}: --deal: deal 'duo-1' has 2 players: the exact win probability "
                                  "is for solo play (play strato estimates team play)")


def test_solve_of_a_stakd_file_names_the_option_given(cli) -> None:  # type: ignore[no-untyped-def]
    for option, value in (("--deal", "3"), ("--players", "2"), ("--max-nodes", "9")):
        result = cli("solve", STAKD_SOLO, option, value)
        assert result.code == 2 and len(result.err.strip().splitlines()) == 1
        assert f"Invalid value for {option}: is for Strato puzzles; {STAKD_SOLO} is a STAKD solo" in result.err
