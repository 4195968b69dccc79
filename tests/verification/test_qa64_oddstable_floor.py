"""The value table's floor rows rest on the half-row bound of :func:`turns_needed`: a turn lengthens the goal
half-rows by two at most, so a shortfall of ``s`` cards needs ``ceil(s / 2)`` turns (QA 64 mutation pass of
stratagem/verification/oddstable.py).

No test reached a floor that the half-row bound alone decides, so four mutants of ``max(supply, (short + 1) //
2, 1)`` passed them all: ``(short + 2) // 2`` (one turn too many for an even shortfall) and ``max(..., 2)``
accepted a ``floor 0`` row, and so an upper bound of 0, on a state won in one turn by a Rain that adds two
cards to the rain half-row; ``(short - 1) // 2`` and ``(short + 1) // 3`` (too few turns) refused a genuine
floor, a shortfall of three cards with one card left. Two more passed them: one that counted the cards left as
the hand less the pile (the tests' piles were empty) accepted the forged floor with a wind in the pile, and
one that counted the cards that are no Fog, Storm or Cloud as those that can carry a card between rows
refused a genuine floor (a rain that only another row holds, two winds to play). Each table here is one row,
the start's, written by hand (the solver never writes a floor row at a start it can win, so a forged one has
to be made).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from stratagem.models.strato.hidden.game import HiddenStrato, parse_hidden
from stratagem.models.strato.rules.challenge import Challenge, Options
from stratagem.models.strato.rules.position import WON
from stratagem.verification import verify
from stratagem.verification.oddstable import TABLE_FORMAT, floor_holds, turns_needed
from tests.models.strato.support import make_challenge, puzzle_challenge

#: Challenge 0 (goal: RRRR outward from the rain tornado, WWWW from the wind tornado). The rain half-row is
#: two cards short, the wind half-row is met with a rain beyond it, one rain card is left: played at the
#: left end, it takes the right end's rain and inserts it next to the rain tornado, and the game is won.
WON_IN_ONE = "RR(RW)WWWWR R {} 1 - play"
#: The same with a wind in the pile: two cards left.
WON_IN_ONE_PILE = "RR(RW)WWWWR R {W} 1 - play"
#: The rain half-row three cards short (three rains on the table, one in hand: the supply bound is one turn),
#: one card left: the half-row bound is two turns, one to play. Lost.
THREE_SHORT = "R(RW)WWWWRR R {} 1 - play"
#: Two rows (rain-wind, sun-cloud), the goal two cards of the left tornado's weather beside it, one row
#: enough. The rain row lacks one rain, which only the other row holds; the hand holds two winds, and a Wind
#: moves cards within its own row: only a Fog, a Storm or a Cloud carries one across. No sun anywhere. Lost.
NO_CARRIER = make_challenge(weathers="RWSC", pairs=("RW", "SC"), limit=4, left="<<", right=None)
RAIN_ELSEWHERE = "R(RW)/R(SC) WW {} 1 - play"


def one_row_table(tmp_path: Path, start: str, row: str, upper: str, challenge: Challenge | None = None) -> Path:
    """A value table of ``start`` (challenge 0 unless named) holding the one row ``row``, claiming ``upper``
    exactly."""
    challenge = challenge or puzzle_challenge("challenge-0")
    header = {"format": TABLE_FORMAT, "game": "strato", "setup": {"challenge": challenge.to_data()}, "start": start,
              "claim": {"upper_bound": upper, "lower_bound": upper, "exact": True}}
    path = tmp_path / "odds.tbl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write(f"{json.dumps(header)}\n{row}\n")
    return path


def test_the_positions_are_what_the_tests_say() -> None:
    challenge = puzzle_challenge("challenge-0")
    for text in (WON_IN_ONE, WON_IN_ONE_PILE):
        won = HiddenStrato(challenge, Options(), parse_hidden(text))
        start = won.initial_state()
        assert any(won.apply(start, move).status == WON for move in won.legal_moves(start))
    for text, turns, floor in ((WON_IN_ONE, 1, False), (WON_IN_ONE_PILE, 1, False), (THREE_SHORT, 2, True)):
        state = parse_hidden(text)
        assert turns_needed(challenge, state.rows) == turns
        assert floor_holds(challenge, state.rows, state.hands[0], state.pile) is floor
    state = parse_hidden(RAIN_ELSEWHERE)
    assert turns_needed(NO_CARRIER, state.rows) == 1 and floor_holds(NO_CARRIER, state.rows, state.hands[0], "")


@pytest.mark.parametrize("start", [WON_IN_ONE, WON_IN_ONE_PILE])
def test_a_floor_row_on_a_state_won_in_one_turn_is_refused(tmp_path: Path, start: str) -> None:
    """Two cards short in one half-row, one card to play: the half-row bound is one turn, within the cards
    left, so the floor does not hold; ``floor 0`` there (an upper bound of 0 on a won game) is refused."""
    verdict = verify(one_row_table(tmp_path, start, f"floor 0 {start}", "0"))
    assert verdict.status == "invalid"
    assert "not a floor" in verdict.problem


def test_the_same_state_is_certified_won_by_its_policy(tmp_path: Path) -> None:
    verdict = verify(one_row_table(tmp_path, WON_IN_ONE, f"policy 1 R1L:1R5>1L1 {WON_IN_ONE}", "1"))
    assert verdict.status == "certified", verdict.problem


def test_a_floor_resting_on_the_half_row_bound_is_certified(tmp_path: Path) -> None:
    """Three cards short, one card left: two turns needed, so ``floor 0`` at the start is a genuine floor."""
    verdict = verify(one_row_table(tmp_path, THREE_SHORT, f"floor 0 {THREE_SHORT}", "0"))
    assert verdict.status == "certified", verdict.problem
    assert {c.claim for c in verdict.claims if c.status == "certified"} == {"upper_bound", "lower_bound", "exact"}


def test_a_floor_where_no_card_can_carry_the_missing_rain_is_certified(tmp_path: Path) -> None:
    """The turn bound is one turn, within the two cards left; the floor holds because the one rain missing
    is in the other row and neither wind can carry it across."""
    verdict = verify(one_row_table(tmp_path, RAIN_ELSEWHERE, f"floor 0 {RAIN_ELSEWHERE}", "0", NO_CARRIER))
    assert verdict.status == "certified", verdict.problem
