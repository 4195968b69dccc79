"""verify's relaxation on three rows with the other rows' ends tracked (QA 64 mutation pass of
stratagem/verification/relaxed.py).

The lemma and agreement tests never met a tracked view with two other rows: tracking needs a Storm and no
Fog to play, and three rows need six weathers, so a Fog stays in every seeded deal's pile. With one other
row, exchanging two tracked ends only reorders one pair (the same state), so three mutants of how tracked
ends are exchanged passed every test: no exchange of two ends of different classes (``a == b`` read as
``a != b``), no exchange after a Storm placed in the goal row, and an end set on the wrong side of its row
(``_put_end``). Here the positions are built by hand, a Fog on the table but none in hand or pile: every
legal turn of the rules from them must be a relaxed turn, and the bound must be the solver's (the ``_put_end``
mutant gave 4 for the first position, one turn above it: a relaxation certificate claiming 4 would have been
accepted). And a bound whose rows are too large to search is one turn, not 0.
"""

from __future__ import annotations

import random

import pytest

from stratagem.models.strato.rules.challenge import Options
from stratagem.models.strato.rules.position import ONGOING, State, parse_state
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.relaxation import relaxation_bound
from stratagem.verification.relaxed import relaxed_bound, view
from tests.models.strato.support import make_challenge
from tests.verification.test_relaxation_lemma import Tally, _check_turns

#: Three rows, the goal on the rain-wind row: a rain then a storm outward from the rain tornado, a wind beside
#: the wind tornado. Storm is a named class: a Storm placed in the goal row is a step toward the goal.
THREE_ROWS = make_challenge(weathers="RSFWCT", pairs=("RW", "ST", "FC"), limit=3, left="<T", right=">",
                            tornadoes="RW")
OPTIONS = Options()


def start(text: str) -> State:
    state = parse_state(text)
    assert state.status == ONGOING
    return state


def test_every_turn_from_three_rows_with_tracked_ends_is_a_relaxed_turn() -> None:
    rng = random.Random("qa64-tracked-ends")
    tally = Tally()
    for text in ("SFT(RW)/RFT(ST)W/(FC)C TST RRWSCT 1 -", "R(RW)C/TW(ST)RS/WR(FC)TC TWS RSTWCT 1 -"):
        anchor = start(text)
        assert view(THREE_ROWS, OPTIONS, anchor, 0).tracked and view(THREE_ROWS, OPTIONS, anchor, 0).others == 2
        game = StratoGame(THREE_ROWS, OPTIONS, anchor)
        state = anchor
        for _ in range(6):
            plays = game.plays(state)
            if state.status != ONGOING or not plays:
                break
            tally.turns += len(plays)
            _check_turns(THREE_ROWS, OPTIONS, anchor, state, plays, tally, view, rng)
            assert not tally.failures, tally.failures[0]
            state = rng.choice(plays)[1]
    assert tally.turns >= 100 and tally.tracked


#: Positions whose bound a mutant of the ends' exchange got wrong (one turn either way), with the bound.
BOUNDS = [("SFT(RW)/RFT(ST)W/(FC)C TST RR 1 -", 3)]


@pytest.mark.parametrize(("text", "bound"), BOUNDS)
def test_the_bound_with_two_other_rows_tracked_is_the_solvers(text: str, bound: int) -> None:
    state = start(text)
    ours = relaxed_bound(THREE_ROWS, OPTIONS, state).bound
    assert ours == relaxation_bound(THREE_ROWS, OPTIONS, state).bound == bound


def test_a_bound_with_no_row_searched_is_one_turn() -> None:
    """Rows whose relaxed space is too large (limit 8, three classes) are not searched and count 0; the bound
    is still 1, as a win is declared only at the end of a turn. A mutant that left it 0 passed every test
    (a certificate claiming 1 for a one-turn line would then be refused)."""
    challenge = make_challenge(weathers="RSWC", pairs=("RW", "SC"), limit=8, left="<<", right=">")
    state = start("WR(RW)R/S(SC)C RWS CCRR 1 -")
    bound = relaxed_bound(challenge, OPTIONS, state)
    assert [row.searched for row in bound.rows] == [False, False]
    assert bound.bound == relaxation_bound(challenge, OPTIONS, state).bound == 1
