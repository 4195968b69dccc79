"""The exact LP values of the shipped endgames do not change when the induction gets faster (issue 20).

The expected values were computed by the backward induction as it stood before issue 20's part 6
(commit 5a6e488: every position memoised, Fractions throughout, a node for every reveal) and are
pinned here: the faster induction (integers, forced reveals, saddle points without an LP, a bounded
memo) must find exactly the same numbers. Two players: player 1's value on the penalty difference;
three or more: each player's guarantee against the coalition of the others.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from stratagem.models.stackattack.puzzle import load_position
from stratagem.models.stackattack.rules import StackAttackGame
from stratagem.solvers.simultaneous import solve_each_player, solve_simultaneous

from .support import PUZZLES

BEFORE = {
    "2p-actions-3-turns": ["-22153/5391"],
    "2p-actions-shield-2-turns": ["-5"],
    "2p-numbers-3-turns": ["21"],
    "3p-actions-2-turns": ["-8", "0", "-11"],
    "3p-numbers-3-turns": ["-27/4", "-171/29", "-5077/425"],
    "4p-actions-2-turns": ["-46/3", "-8", "-13", "-396/13"],
    "4p-numbers-2-turns": ["-3", "-6", "-267/11", "-85/11"],
    # the five-turn endgames: 285,768 and 320,563 matrix games before (42 s and 50 s of CPU)
    "2p-numbers-5-turns": ["7838750/916637"],
    "2p-actions-5-turns": ["-146844713584565/23490284284084"],
    # the six-turn endgame the bench makes (issue 28; no "before": solved first by the compiled induction,
    # 199,031 matrix games, and its certificate checked by verify on the rules engine)
    "2p-numbers-6-turns": ["-6"],
}
SLOW = {"2p-numbers-5-turns", "2p-actions-5-turns", "2p-numbers-6-turns"}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=[pytest.mark.slow] if n in SLOW else []) for n in BEFORE]
)
def test_engine_lp_values_of_the_shipped_endgames_are_unchanged(name: str) -> None:
    position = load_position(PUZZLES / f"{name}.toml")
    game, state = position.game, position.state
    if game.num_players == 2:
        results = [solve_simultaneous(game, state, player=0, payoff="margin")]
    else:
        results = list(solve_each_player(game, state, payoff="own"))
    assert [r.value for r in results] == [Fraction(v) for v in BEFORE[name]]
    assert all(r.certified and r.evaluated_leaves == 0 for r in results)


def test_engine_every_shipped_endgame_has_its_pinned_value() -> None:
    assert {p.stem for p in PUZZLES.glob("*.toml")} == set(BEFORE)


def test_engine_bank_clears_piles_and_scores_in_endgame_scope_only() -> None:
    position = load_position(PUZZLES / "2p-numbers-3-turns.toml")  # piles 32 / 21.49.51.53.59.64, scores 23/31
    game, state = position.game, position.state
    split = game.bank(state)
    assert split is not None
    rest, banked = split
    assert rest.taken == ((), ()) and rest.scores == (0, 0)
    assert (rest.rows, rest.hands, rest.round) == (state.rows, state.hands, state.round)
    assert banked == tuple(-t for t in game.totals(state)) == (-23 - 1, -31 - 6)
    assert game.bank(rest) == (rest, (0, 0)) and game.bank(rest)[0] is rest  # nothing banked: the same object
    whole_game = StackAttackGame(2, position.game.options._replace(scope="game"), state)
    assert whole_game.bank(state) is None  # whether the game ends depends on the totals


def test_engine_banked_values_add_to_the_value_of_the_cleared_position() -> None:
    position = load_position(PUZZLES / "2p-actions-3-turns.toml")
    game, state = position.game, position.state
    rest, banked = game.bank(state)
    whole = solve_simultaneous(game, state, player=0, payoff="margin")
    cleared = solve_simultaneous(game, rest, player=0, payoff="margin")
    assert whole.value == cleared.value + (banked[0] - banked[1])
    below = [n.state for n in whole.nodes if n.state is not state]
    assert below and all(s.taken == ((), ()) and s.scores == (0, 0) for s in below)
