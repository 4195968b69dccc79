"""The horizon search of a ``relaxation-search`` certificate (:func:`~stratagem.verification.bounded.win_within`)
must find a win whose every position is exactly as far from the goal as the relaxation says (QA 63 mutation
pass of stratagem/verification/bounded.py).

Where every goal row is needed and the distances add, the search prunes a position when the rows'
relaxed distances sum to more than the turns left. No test reached that branch with real distances: a
mutant that pruned at *equal* (``lower[i] >= room``, ``room <= lower[i]``) passed every test, and such a
search would miss every tight winning line and so certify "no win within the horizon" where one exists (a
non-shortest line accepted as optimal). On the Level 2 example's first deal the relaxation bound is the
optimum (10 turns) and no card changes rows, so along an optimal line the sum is exactly the turns left:
every position of it is tight.
"""

from __future__ import annotations

from pathlib import Path

from stratagem.models.strato.rules.position import WON
from stratagem.solving import as_deal
from stratagem.verification.bounded import win_within
from stratagem.verification.relaxed import GoalDistances, relaxed_bound, views

LEVEL_2 = Path(__file__).resolve().parents[2] / "puzzles" / "strato" / "level-2-example.toml"


def test_a_win_whose_every_position_is_tight_is_found_at_the_exact_horizon() -> None:
    game = as_deal(LEVEL_2, "solo-1").game
    start = game.initial_state()
    bound = relaxed_bound(game.challenge, game.options, start)
    assert (bound.bound, bound.combine) == (10, "sum")  # every row needed, the distances add
    assert game.challenge.rows_required == len(views(game.challenge, game.options, start)) == 2
    distances = GoalDistances(views(game.challenge, game.options, start))
    found = win_within(game, distances, "sum", 10, 2_000)  # 93 positions expanded: a node cap, not a wait
    assert found.exhausted and found.line is not None and len(found.line) == 10
    state = start
    for move in found.line:  # the line is a win by the rules
        state = game.apply(state, move)
    assert state.status == WON
    # and none is shorter: the bound is 10, so the search at 9 turns ends at once without a line
    shorter = win_within(game, GoalDistances(views(game.challenge, game.options, start)), "sum", 9, 2_000)
    assert shorter.exhausted and shorter.line is None
