"""Tests of backward induction over simultaneous-move games and of its matrix proofs.

The truth comes from :func:`brute_force`, a plain recursive evaluator written here that shares no
code with the solver (no memo, no LP: matrix stages by :func:`simtoys.brute_force_value`), and from
values derived in the comments.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections.abc import Hashable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from simtoys import GoofspielGame, OddOneOutGame, PenniesGame, brute_force_value

from stratagem.core.errors import BadInput
from stratagem.core.game import CHANCE, SIMULTANEOUS
from stratagem.solvers.matrix import check_equilibrium
from stratagem.solvers.matrixproof import MATRIXPROOF_FORMAT, check_matrix_proof, matrix_proof
from stratagem.solvers.simultaneous import (
    COALITION,
    ZERO_SUM,
    SimultaneousResult,
    UnsupportedGame,
    solve_each_player,
    solve_simultaneous,
)
from tests.docsection import FormatsSection

F = Fraction
WEIGHTED = {("H", "H"): 2, ("H", "T"): 0, ("T", "H"): 0, ("T", "T"): 1}


def brute_force(game: Any, state: Hashable, player: int, remaining: int | None = None) -> Fraction:
    """``player``'s value by plain recursion: max at its nodes, min at the others', matrices at once."""
    if game.is_terminal(state):
        return F(game.returns(state)[player])
    mover = game.to_move(state)
    if mover == CHANCE:
        return sum(
            (p * brute_force(game, game.apply(state, o), player, remaining) for o, p in game.chance_outcomes(state)),
            F(0),
        )
    if mover == SIMULTANEOUS:
        if remaining == 0:
            return F(game.evaluate(state)[player])
        below = None if remaining is None else remaining - 1
        others = [q for q in range(game.num_players) if q != player]
        matrix = []
        for mine in game.player_moves(state, player):
            line = []
            for theirs in itertools.product(*(game.player_moves(state, q) for q in others)):
                joint = dict(zip(others, theirs, strict=True))
                joint[player] = mine
                move = tuple(joint[q] for q in range(game.num_players))
                line.append(brute_force(game, game.apply(state, move), player, below))
            matrix.append(line)
        return brute_force_value(matrix)
    values = [brute_force(game, game.apply(state, m), player, remaining) for m in game.legal_moves(state)]
    return max(values) if mover == player else min(values)


def assert_every_node_checks(result: SimultaneousResult) -> None:
    assert result.certified
    for node in result.nodes:
        assert check_equilibrium(node.matrix, node.solution.row, node.solution.col, node.value)


GAMES = [
    pytest.param(PenniesGame(1), id="pennies-1-turn"),
    pytest.param(PenniesGame(3), id="pennies-3-turns"),
    pytest.param(PenniesGame(2, WEIGHTED), id="weighted-pennies-2-turns"),
    pytest.param(PenniesGame(3, WEIGHTED, gamble=True), id="weighted-pennies-gamble-3-turns"),
    pytest.param(GoofspielGame(3), id="goofspiel-3-random-prizes"),
    pytest.param(GoofspielGame(3, random_prizes=False), id="goofspiel-3-prizes-in-order"),
]


@pytest.mark.parametrize("game", GAMES)
def test_backward_induction_equals_brute_force_on_two_player_toys(game: Any) -> None:
    for player in (0, 1):
        result = solve_simultaneous(game, game.initial_state(), player=player)
        assert result.value == brute_force(game, game.initial_state(), player)
        assert result.label == ZERO_SUM
        assert result.evaluated_leaves == 0
        assert_every_node_checks(result)


def test_backward_induction_equals_brute_force_from_positions_inside_goofspiel() -> None:
    game = GoofspielGame(3)
    start = game.apply(game.initial_state(), 2)  # prize 2 revealed first
    after_bid = game.apply(start, (3, 1))  # player 0 takes it with the 3
    for state in (start, after_bid, game.apply(after_bid, 3)):
        assert solve_simultaneous(game, state).value == brute_force(game, state, 0)


def test_weighted_pennies_value_is_two_thirds_per_turn() -> None:
    # Each turn is the matrix [[2, 0], [0, 1]] whose value is 2/3 (test_matrix derives it), and
    # turns add up independently, so two turns are worth 4/3 with the mix (1/3, 2/3) every time.
    game = PenniesGame(2, WEIGHTED)
    result = solve_simultaneous(game, game.initial_state())
    assert result.value == F(4, 3)
    root = result.root_node
    assert root is not None
    assert root.rows == ("H", "T")
    assert root.solution.row == (F(1, 3), F(2, 3))
    assert root.solution.col == (F(1, 3), F(2, 3))


def test_symmetric_goofspiel_is_worth_zero() -> None:
    # Both players hold the same cards and play by the same rules, so neither can guarantee more
    # than the other: the value of the symmetric zero-sum game is 0.
    game = GoofspielGame(3)
    assert solve_simultaneous(game, game.initial_state()).value == 0


def test_gamble_decision_and_chance_nodes_enter_the_values() -> None:
    # One turn of matching pennies where the loser of the turn may gamble. If player 0 wins the
    # turn (+1), player 1 chooses between accepting (+1 for player 0) and gambling (reversed -1 or
    # doubled +2, 1/2 each: +1/2 for player 0) and gambles. If player 0 loses (-1), it chooses
    # between -1 and 1/2 * (+1) + 1/2 * (-2) = -1/2 and gambles too. So the turn's matrix is
    # [[1/2, -1/2], [-1/2, 1/2]], matching pennies at half the stakes, with value 0.
    game = PenniesGame(1, gamble=True)
    result = solve_simultaneous(game, game.initial_state())
    root = result.root_node
    assert root is not None
    assert root.matrix == ((F(1, 2), F(-1, 2)), (F(-1, 2), F(1, 2)))
    assert result.value == 0


def test_three_players_each_play_against_the_coalition_of_the_others() -> None:
    game = OddOneOutGame(2)
    results = solve_each_player(game, game.initial_state())
    for player, result in enumerate(results):
        assert result.label == COALITION
        assert result.player == player
        assert result.opponents == tuple(q for q in range(3) if q != player)
        assert result.value == brute_force(game, game.initial_state(), player)
        assert_every_node_checks(result)
    # The other two can always make one of themselves the odd one out (they show different
    # faces), who then charges the player 2: -2 per turn, -4 over two turns.
    assert [r.value for r in results] == [-4, -4, -4]
    root = results[0].root_node
    assert root is not None
    assert root.columns == ((0, 0), (0, 1), (1, 0), (1, 1))  # joint moves of players 1 and 2


@pytest.mark.parametrize("depth", [0, 1, 2])
def test_depth_limit_uses_evaluate_and_equals_depth_limited_brute_force(depth: int) -> None:
    game = PenniesGame(3, WEIGHTED, gamble=True)
    result = solve_simultaneous(game, game.initial_state(), depth=depth)
    assert result.value == brute_force(game, game.initial_state(), 0, depth)
    assert result.evaluated_leaves > 0
    assert result.depth == depth
    assert_every_node_checks(result)


def test_margin_payoff_of_a_zero_sum_game_is_twice_the_own_value() -> None:
    # margin = own - other = own - (-own) = 2 * own when the returns sum to zero.
    game = PenniesGame(2, WEIGHTED)
    own = solve_simultaneous(game, game.initial_state()).value
    assert solve_simultaneous(game, game.initial_state(), payoff="margin").value == 2 * own


def test_depth_limit_needs_evaluate_and_simultaneous_nodes_need_player_moves() -> None:
    class NoEvaluate(PenniesGame):
        evaluate = None  # type: ignore[assignment]

    class NoPlayerMoves(PenniesGame):
        player_moves = None  # type: ignore[assignment]

    game = NoEvaluate(2)
    assert solve_simultaneous(game, game.initial_state()).value == 0  # no cut, no evaluate needed
    with pytest.raises(UnsupportedGame, match="evaluate"):
        solve_simultaneous(game, game.initial_state(), depth=1)
    bare = NoPlayerMoves(1)
    with pytest.raises(UnsupportedGame, match="player_moves"):
        solve_simultaneous(bare, bare.initial_state())


# --- proofs ------------------------------------------------------------------------------------


def proof_of(game: Any, **options: Any) -> dict[str, Any]:
    result = solve_simultaneous(game, game.initial_state(), **options)
    proof: dict[str, Any] = json.loads(json.dumps(matrix_proof(game, result)))  # through JSON, as a file would
    return proof


def rejected(game: Any, proof: dict[str, Any]) -> str:
    verdict = check_matrix_proof(game, game.initial_state(), proof)
    assert not verdict.valid
    return verdict.reason


@pytest.mark.parametrize(
    ("game", "options"),
    [
        (PenniesGame(2, WEIGHTED, gamble=True), {}),
        (PenniesGame(3, WEIGHTED, gamble=True), {"depth": 2}),
        (GoofspielGame(3), {}),
        (OddOneOutGame(2), {"player": 1}),
    ],
)
def test_matrix_proof_round_trips_and_checks(game: Any, options: dict[str, Any]) -> None:
    proof = proof_of(game, **options)
    assert proof["format"] == MATRIXPROOF_FORMAT
    verdict = check_matrix_proof(game, game.initial_state(), proof)
    assert verdict.valid, verdict.reason
    assert verdict.nodes_checked == len(proof["nodes"])


def test_proof_labels_use_format_player_move_or_fall_back_to_format_move() -> None:
    pennies = proof_of(PenniesGame(1))
    assert pennies["nodes"][0]["rows"] == ["H", "T"]
    assert pennies["nodes"][0]["columns"] == [["H"], ["T"]]
    odd = proof_of(OddOneOutGame(1))  # no format_player_move: format_move of each component
    assert odd["nodes"][0]["columns"] == [["0", "0"], ["0", "1"], ["1", "0"], ["1", "1"]]
    assert odd["value"] == "-2/1"


def test_proof_with_a_perturbed_strategy_is_rejected() -> None:
    game = PenniesGame(2, WEIGHTED)
    proof = proof_of(game)
    proof["nodes"][0]["row_strategy"] = ["34/100", "66/100"]
    assert "against column" in rejected(game, proof)


def test_proof_with_a_column_strategy_that_does_not_sum_to_one_is_rejected() -> None:
    game = PenniesGame(2, WEIGHTED)
    proof = proof_of(game)
    proof["nodes"][1]["column_strategy"] = ["1/3", "1/3"]
    assert "sums to 2/3" in rejected(game, proof)


def test_proof_with_a_wrong_node_value_is_rejected() -> None:
    game = PenniesGame(2, WEIGHTED)
    proof = proof_of(game)
    deepest = proof["nodes"][-1]
    deepest["value"] = "1/1"  # the true value of every last-turn node is 2/3 above its score
    assert "nodes[" in rejected(game, proof)


def test_proof_with_a_wrong_root_value_is_rejected() -> None:
    game = GoofspielGame(3)
    proof = proof_of(game)
    proof["value"] = "1/5"
    assert "the proof claims 1/5" in rejected(game, proof)


def test_proof_with_a_missing_node_is_rejected() -> None:
    game = GoofspielGame(3)
    proof = proof_of(game)
    del proof["nodes"][len(proof["nodes"]) // 2]
    assert rejected(game, proof).startswith("no node for state")


def test_proof_with_an_illegal_move_is_rejected() -> None:
    game = GoofspielGame(3)
    proof = proof_of(game)
    proof["nodes"][0]["rows"][0] = "4"  # there is no card 4
    assert "are not player 0's moves" in rejected(game, proof)
    proof = proof_of(OddOneOutGame(1))
    proof["nodes"][0]["columns"][3] = ["1", "2"]
    assert "joint moves" in rejected(OddOneOutGame(1), proof)


def test_proof_with_a_node_the_start_does_not_reach_is_rejected() -> None:
    game = PenniesGame(2)
    proof = proof_of(game)
    stray = copy.deepcopy(proof["nodes"][-1])
    stray["state"] = "1/2 +7 play +0"
    proof["nodes"].append(stray)
    assert "is not reached from the start" in rejected(game, proof)


def test_proof_for_another_start_or_claim_is_rejected() -> None:
    game = PenniesGame(2, WEIGHTED)
    proof = proof_of(game)
    verdict = check_matrix_proof(game, game.apply(game.initial_state(), ("H", "H")), proof)
    assert not verdict.valid and "is not the given position" in verdict.reason
    margin = copy.deepcopy(proof)
    margin["payoff"] = "margin"  # every value doubles, so the claimed ones no longer hold
    assert rejected(game, margin)
    other_player = copy.deepcopy(proof)
    other_player["player"] = 1
    assert rejected(game, other_player)


def test_unreadable_proofs_raise_bad_input() -> None:
    game = PenniesGame(1)
    good = proof_of(game)
    cases = [
        ("format", "stratagem/proof@1", "format"),
        ("value", "0.5", "value"),
        ("payoff", "sum", "payoff"),
        ("player", 2, "player"),
        ("nodes", {}, "nodes"),
    ]
    for key, bad, place in cases:
        proof = copy.deepcopy(good)
        proof[key] = bad
        with pytest.raises(BadInput) as info:
            check_matrix_proof(game, game.initial_state(), proof, "p.json")
        assert info.value.place == place
    proof = copy.deepcopy(good)
    proof["nodes"][0]["row_strategy"][0] = 0.5
    with pytest.raises(BadInput, match=r"nodes\[0\]\.row_strategy\[0\]"):
        check_matrix_proof(game, game.initial_state(), proof, "p.json")
    proof = copy.deepcopy(good)
    proof["nodes"].append(copy.deepcopy(proof["nodes"][0]))
    with pytest.raises(BadInput, match="a second node"):
        check_matrix_proof(game, game.initial_state(), proof, "p.json")


def test_the_format_draft_example_is_what_the_solver_writes_and_checks() -> None:
    draft = FormatsSection("### 9.2 Matrix proofs")
    blocks = re.findall(r"```json\n(.*?)```", draft.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) == 1
    example = json.loads(blocks[0])
    game = PenniesGame(1, WEIGHTED)
    assert check_matrix_proof(game, game.initial_state(), example).valid
    assert example == proof_of(game)


def test_proof_for_other_game_options_is_rejected() -> None:
    class WithSetup(PenniesGame):
        def setup(self) -> dict[str, Any]:
            return {"turns": self.turns, "gamble": self.gamble}

    game = WithSetup(1)
    proof = proof_of(game)
    assert proof["setup"] == {"turns": 1, "gamble": False}
    assert check_matrix_proof(game, game.initial_state(), proof).valid
    proof["setup"] = {"turns": 1, "gamble": True}
    assert "is not the game's options" in rejected(game, proof)


# --- Stack Attack endgames (issue 20): against brute force, forced reveals, forged saddle points -------------

STACKATTACK = Path(__file__).resolve().parents[2] / "puzzles" / "stackattack"


def stackattack(name: str) -> Any:
    from stratagem.models.stackattack.puzzle import load_position

    return load_position(STACKATTACK / f"{name}.toml")


@pytest.mark.parametrize("name", ["2p-actions-shield-2-turns", "2p-numbers-3-turns", "2p-actions-3-turns"])
def test_backward_induction_equals_brute_force_on_stack_attack_endgames(name: str) -> None:
    position = stackattack(name)
    game, state = position.game, position.state
    result = solve_simultaneous(game, state, player=0)
    assert result.value == brute_force(game, state, 0)
    assert_every_node_checks(result)


def test_a_reveal_with_one_card_each_is_forced_and_has_no_node_unless_it_is_the_start() -> None:
    position = stackattack("2p-numbers-3-turns")
    game, state = position.game, position.state
    result = solve_simultaneous(game, state, player=0, payoff="margin")
    assert all(len(node.rows) > 1 for node in result.nodes)  # 1x1 nodes are valued as their only child
    assert result.node(state) is result.root_node is result.nodes[-1]
    # the last turn itself, asked about, is a node of its own: the analysis describes what it was given
    last = state
    for reveal in ((33, 5), (36, 13)):
        last = game.apply(last, reveal)
        while game.to_move(last) != SIMULTANEOUS:  # a row to take: the first choice
            last = game.apply(last, game.legal_moves(last)[0])
    assert [len(h) for h in last.hands] == [1, 1]
    alone = solve_simultaneous(game, last, player=0, payoff="margin")
    assert alone.root_node is not None and alone.root_node.rows == (44,)
    assert alone.value == alone.root_node.value


def test_stack_attack_proof_with_a_forged_saddle_point_or_a_wrong_saddle_value_is_rejected() -> None:
    position = stackattack("2p-numbers-3-turns")
    game, state = position.game, position.state
    result = solve_simultaneous(game, state, player=0, payoff="margin")
    good = json.loads(json.dumps(matrix_proof(game, result)))
    assert check_matrix_proof(game, state, good).valid
    # a saddle-point node with a pure pair that is no saddle: claim that pair's entry as the value
    forged_pair = None
    for k, node in enumerate(reversed(result.nodes)):
        if node.solution.method != "saddle point":
            continue
        a = node.matrix
        for i, line in enumerate(a):
            for j, entry in enumerate(line):
                if entry != min(line) or entry != max(row[j] for row in a):
                    forged_pair = (k, i, j, entry)
                    break
            if forged_pair:
                break
        if forged_pair:
            break
    assert forged_pair is not None
    k, i, j, entry = forged_pair
    forged = copy.deepcopy(good)
    node = forged["nodes"][k]
    node["row_strategy"] = ["1/1" if r == i else "0/1" for r in range(len(node["rows"]))]
    node["column_strategy"] = ["1/1" if c == j else "0/1" for c in range(len(node["columns"]))]
    node["value"] = f"{F(entry).numerator}/{F(entry).denominator}"
    verdict = check_matrix_proof(game, state, forged)
    assert not verdict.valid and f"nodes[{k}]" in verdict.reason
    assert "gets only" in verdict.reason or "against the column strategy" in verdict.reason
    # the true saddle with its value off by one
    wrong = copy.deepcopy(good)
    saddle = next(n for n, solved in zip(wrong["nodes"], reversed(result.nodes), strict=True)
                  if solved.solution.method == "saddle point")
    value = F(saddle["value"].split("/")[0]) / F(saddle["value"].split("/")[1])
    saddle["value"] = f"{(value + 1).numerator}/{(value + 1).denominator}"
    assert not check_matrix_proof(game, state, wrong).valid


def test_stack_attack_proof_with_a_mixed_strategy_off_by_a_hair_is_rejected() -> None:
    # verify checks mixed strategies in integers over common denominators: a shift of 10^-15 between two
    # moves of a mixed node (still a distribution) is caught at that node, and so is the value off as much
    position = stackattack("2p-actions-3-turns")
    game, state = position.game, position.state
    good = json.loads(json.dumps(matrix_proof(game, solve_simultaneous(game, state, player=0, payoff="margin"))))
    assert check_matrix_proof(game, state, good).valid
    k = next(i for i, n in enumerate(good["nodes"]) if sum(p != "0/1" for p in n["row_strategy"]) >= 2)
    hair = F(1, 10**15)
    for key in ("row_strategy", "column_strategy"):
        forged = copy.deepcopy(good)
        strategy = [F(p) for p in forged["nodes"][k][key]]
        first, second = [i for i, p in enumerate(strategy) if p][:2]
        strategy[first] += hair
        strategy[second] -= hair
        forged["nodes"][k][key] = [f"{p.numerator}/{p.denominator}" for p in strategy]
        verdict = check_matrix_proof(game, state, forged)
        assert not verdict.valid and f"nodes[{k}]" in verdict.reason, key
    off = copy.deepcopy(good)
    value = F(off["nodes"][k]["value"]) + hair
    off["nodes"][k]["value"] = f"{value.numerator}/{value.denominator}"
    verdict = check_matrix_proof(game, state, off)
    assert not verdict.valid and f"nodes[{k}]" in verdict.reason
