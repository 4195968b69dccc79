"""Proof DAGs: built for solved positions of every toy game they verify; corrupted, they are rejected.

Each corruption test starts from a proof the builder wrote, breaks one thing in it the way a buggy
solver or a hand edit could, and checks that the checker names the problem and its place.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from toygames import CoinRowGame, NimGame, PigGame, TicTacToeGame, random_coin_row, random_positions

from stratagem.core.errors import StratagemError
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.multiplayer import paranoid
from stratagem.solvers.plainminimax import plain_minimax
from stratagem.solvers.prooftree import (
    AT_LEAST,
    AT_MOST,
    EXACTLY,
    PROOFTREE_FORMAT,
    build_proof_tree,
    check_proof_tree,
    decode_value,
)
from tests.docsection import FormatsSection

REPO = Path(__file__).resolve().parents[2]
DRAFT = FormatsSection("### 9.1 Proof trees")

Tree = dict[str, Any]


def assert_valid(game: Any, state: Any, tree: Tree) -> None:
    verdict = check_proof_tree(game, state, json.loads(json.dumps(tree)))
    assert verdict.valid, [p.line() for p in verdict.problems]


def assert_rejected(game: Any, state: Any, tree: Tree, pattern: str) -> None:
    verdict = check_proof_tree(game, state, tree)
    assert not verdict.valid
    lines = [p.line() for p in verdict.problems]
    assert any(re.search(pattern, line) for line in lines), lines


def test_proofs_of_solved_nim_and_tictactoe_positions_verify_and_match_the_value() -> None:
    rng = random.Random(2)
    cases: list[tuple[Any, Any]] = [(NimGame((1, 2, 3)), s) for s in random_positions(NimGame((1, 2, 3)), rng, 15, 4)]
    cases += [(TicTacToeGame(), s) for s in random_positions(TicTacToeGame(), rng, 15, 6)]
    again = NimGame((2, 2, 3), again_on_empty=True)
    cases += [(again, s) for s in random_positions(again, rng, 10, 3)]
    for game, state in cases:
        tree = build_proof_tree(game, state, lo=-1, hi=1)
        assert_valid(game, state, tree)
        claim = tree["claim"]
        value = plain_minimax(game, state).value_for(claim["player"])
        assert decode_value(claim["value"]) == value


def test_proofs_with_chance_verify_with_exact_fraction_values() -> None:
    rng = random.Random(3)
    game = PigGame(target=3, turns=3)
    for state in random_positions(game, rng, 12, 5) + [PigGame().initial_state()]:
        full = PigGame() if state == PigGame().initial_state() else game
        tree = build_proof_tree(full, state, lo=-1, hi=1)
        assert_valid(full, state, tree)
        expected = expectiminimax(full, state, lo=-1, hi=1).value_for(tree["claim"]["player"])
        assert decode_value(tree["claim"]["value"]) == expected
    tree = build_proof_tree(PigGame(), PigGame().initial_state(), lo=-1, hi=1)
    assert tree["claim"]["bound"] == EXACTLY and isinstance(decode_value(tree["claim"]["value"]), Fraction)


def test_three_player_proofs_certify_the_paranoid_value() -> None:
    rng = random.Random(4)
    for _ in range(8):
        game = random_coin_row(rng, length=6)
        for player in range(3):
            tree = build_proof_tree(game, game.initial_state(), player=player)
            assert_valid(game, game.initial_state(), tree)
            assert decode_value(tree["claim"]["value"]) == paranoid(game, game.initial_state(), player).value


def test_a_win_needs_only_the_at_least_half_and_a_draw_needs_both() -> None:
    nim = NimGame((1, 2))
    win = build_proof_tree(nim, nim.initial_state(), lo=-1, hi=1)
    assert win["claim"] == {"player": 0, "bound": AT_LEAST, "value": 1}
    assert [h["side"] for h in win["halves"]] == [AT_LEAST]
    ttt = TicTacToeGame()
    draw = build_proof_tree(ttt, ttt.initial_state(), lo=-1, hi=1)
    assert draw["claim"] == {"player": 0, "bound": EXACTLY, "value": 0}
    assert [h["side"] for h in draw["halves"]] == [AT_LEAST, AT_MOST]
    assert_valid(ttt, ttt.initial_state(), draw)
    lost = build_proof_tree(nim, nim.initial_state()._replace(piles=(1, 1)), lo=-1, hi=1)
    assert lost["claim"]["bound"] == AT_MOST and lost["claim"]["value"] == -1


def test_identical_positions_are_one_node_within_a_half() -> None:
    game = TicTacToeGame()
    tree = build_proof_tree(game, game.initial_state(), lo=-1, hi=1)
    keys = [(n["side"], n["state"]) for n in tree["nodes"]]
    assert len(keys) == len(set(keys))


def test_a_false_claim_is_not_built() -> None:
    game = TicTacToeGame()
    with pytest.raises(StratagemError, match="false"):
        build_proof_tree(game, game.initial_state(), value=1, bound=AT_LEAST)


def test_the_examples_in_the_format_draft_verify() -> None:
    blocks = re.findall(r"```json\n(.*?)```", DRAFT.read_text(), re.S)
    assert len(blocks) == 2
    games: dict[str, Any] = {"nim": NimGame((1, 2)), "pig": PigGame(target=2, turns=2)}
    for block in blocks:
        tree = json.loads(block)
        game = games[tree["game"]]
        assert_valid(game, game.parse_state(tree["start"]), tree)
        assert tree == build_proof_tree(game, game.parse_state(tree["start"]), lo=-1, hi=1)


# ----------------------------------------------------------------------------------------------
# Corrupted proofs


def draw_proof() -> tuple[TicTacToeGame, str, Tree]:
    game = TicTacToeGame()
    state = "X...O...."
    return game, state, build_proof_tree(game, state, lo=-1, hi=1)


def find(tree: Tree, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    return next(n for n in tree["nodes"] if test(n))


def test_rejects_a_missing_reply() -> None:
    game, state, tree = draw_proof()
    node = find(tree, lambda n: n["side"] == AT_LEAST and n["to_move"] == 1 and len(n["children"]) >= 2)
    dropped = node["children"].pop()
    assert_rejected(game, state, tree, rf"node {node['id']}: misses the reply '{dropped['move']}'")


def test_rejects_a_missing_chance_outcome() -> None:
    game = PigGame(target=2, turns=2)
    tree = build_proof_tree(game, game.initial_state(), lo=-1, hi=1)
    node = find(tree, lambda n: n["to_move"] == -1)
    node["children"].pop(0)
    assert_rejected(game, game.initial_state(), tree, rf"node {node['id']}: misses the chance outcome '1'")


def test_rejects_a_wrong_chance_probability() -> None:
    game = PigGame(target=2, turns=2)
    tree = build_proof_tree(game, game.initial_state(), lo=-1, hi=1)
    node = find(tree, lambda n: n["to_move"] == -1)
    node["children"][0]["probability"] = "1/3"
    assert_rejected(game, game.initial_state(), tree, r"move '1': has probability '1/3' but the rules give 1/4")


def test_rejects_a_wrong_terminal_value() -> None:
    game, state, tree = draw_proof()
    node = find(tree, lambda n: n["to_move"] == -3)
    node["value"] = 1 if node["value"] != 1 else -1
    assert_rejected(game, state, tree, rf"node {node['id']}: claims value .* but recomputes")


def test_rejects_a_position_passed_off_as_terminal() -> None:
    game, state, tree = draw_proof()
    node = find(tree, lambda n: n["to_move"] == 1 and n["side"] == AT_LEAST)
    node["children"] = []
    node["to_move"] = -3
    assert_rejected(game, state, tree, rf"node {node['id']}: says player -3 moves but the rules say 1")


def test_rejects_an_illegal_move() -> None:
    game, state, tree = draw_proof()
    root = tree["nodes"][tree["halves"][0]["root"]]
    root["children"][0]["move"] = "5"  # cell 5 holds the O already
    assert_rejected(game, state, tree, r"move '5': is not a legal move here")


def test_rejects_a_move_that_does_not_parse() -> None:
    game, state, tree = draw_proof()
    root = tree["nodes"][tree["halves"][0]["root"]]
    root["children"][0]["move"] = "centre"
    assert_rejected(game, state, tree, r"move 'centre': is not a legal move here")


def test_rejects_a_wrong_child_state() -> None:
    game, state, tree = draw_proof()
    root = tree["nodes"][tree["halves"][1]["root"]]  # the at-most half lists every move of X
    first, second = root["children"][0], root["children"][1]
    # Point the first move at the second move's position: it parses, but the move does not lead there.
    right = tree["nodes"][first["node"]]["state"]
    first["node"] = second["node"]
    assert_rejected(game, state, tree, rf"move '{first['move']}': leads to '{right}', not to node {second['node']}")


def test_rejects_a_state_text_that_does_not_parse() -> None:
    game, state, tree = draw_proof()
    node = find(tree, lambda n: n["to_move"] == -3)
    node["state"] = "XOXOXOXOZ"
    assert_rejected(game, state, tree, rf"node {node['id']}: state 'XOXOXOXOZ' does not parse")


def test_rejects_a_wrong_claim() -> None:
    game, state, tree = draw_proof()
    tree["claim"]["value"] = 1  # the position is a draw, not a win for X
    assert_rejected(game, state, tree, r"the 'at least' half: recomputes to 0, which does not show at least 1")


def test_rejects_a_win_claimed_from_a_draw_proof() -> None:
    game, state, tree = draw_proof()
    tree["claim"] = {"player": 0, "bound": AT_LEAST, "value": 1}
    assert_rejected(game, state, tree, r"does not show at least 1")


def test_rejects_a_claim_without_the_half_it_needs() -> None:
    game, state, tree = draw_proof()
    tree["halves"] = tree["halves"][:1]
    assert_rejected(game, state, tree, r"needs an 'at most' half")


def test_rejects_two_moves_at_a_node_where_the_half_chooses_one() -> None:
    game = NimGame((1, 2))
    tree = build_proof_tree(game, game.initial_state(), lo=-1, hi=1)
    # A second, well-proven move at player 0's own node: 1-1 to 0.2/1, where player 1 can take both
    # counters (0.0/0, player 0 loses) or one (0.1/0, the existing node where player 0 wins).
    win_node = find(tree, lambda n: n["state"] == "0.1/0")["id"]
    n = len(tree["nodes"])
    tree["nodes"] += [
        {"id": n, "side": AT_LEAST, "state": "0.2/1", "to_move": 1, "value": -1,
         "children": [{"move": "2-1", "node": win_node}, {"move": "2-2", "node": n + 1}]},
        {"id": n + 1, "side": AT_LEAST, "state": "0.0/0", "to_move": -3, "value": -1, "children": []},
    ]
    tree["nodes"][0]["children"].append({"move": "1-1", "node": n})
    assert_rejected(game, game.initial_state(), tree, r"node 0: is player 0's choice .* needs exactly one move")


def test_rejects_an_at_most_half_that_reuses_the_at_least_halfs_nodes() -> None:
    """A false "exactly": a worse move of the mover proven "at least" its value, and the "at most" half rooted
    at the same node. The check once skipped the nodes it had valued for the other half, so this passed."""
    game, state = TicTacToeGame(), "X.......O"  # X to move wins; three of X's moves only draw
    mover = game.to_move(state)
    worse = next(m for m in game.legal_moves(state) if plain_minimax(game, game.apply(state, m)).value_for(0) == 0)
    low = build_proof_tree(game, game.apply(state, worse), player=0, lo=-1, hi=1)
    assert (mover, low["claim"]["value"], plain_minimax(game, state).value_for(0)) == (0, 0, 1)
    below = next(h for h in low["halves"] if h["side"] == AT_LEAST)
    shift = [dict(n, id=n["id"] + 1, children=[dict(c, node=c["node"] + 1) for c in n["children"]])
             for n in low["nodes"]]
    root = {"id": 0, "side": AT_LEAST, "state": state, "to_move": mover, "value": low["claim"]["value"],
            "children": [{"move": game.format_move(state, worse), "node": below["root"] + 1}]}
    forged = dict(low, nodes=[root, *shift], claim={"player": 0, "bound": EXACTLY, "value": low["claim"]["value"]},
                  halves=[{"side": side, "root": 0, "plies": below["plies"] + 1} for side in (AT_LEAST, AT_MOST)])
    assert_rejected(game, state, forged, r"node 0: belongs to the 'at least' half but is reached from the 'at most'")


def test_rejects_a_cycle() -> None:
    game = NimGame((1, 2))
    tree = build_proof_tree(game, game.initial_state(), lo=-1, hi=1)
    leaf_parent = find(tree, lambda n: any(tree["nodes"][c["node"]]["to_move"] == -3 for c in n["children"]))
    leaf_parent["children"][0]["node"] = tree["halves"][0]["root"]
    assert_rejected(game, game.initial_state(), tree, r"the proof has a cycle")


def test_rejects_a_proof_of_another_position() -> None:
    game, state, tree = draw_proof()
    assert_rejected(game, "....X....", tree, r"start: the proof starts from 'X...O....'")


def test_rejects_a_wrong_plies_count_and_a_wrong_format() -> None:
    game, state, tree = draw_proof()
    bad = copy.deepcopy(tree)
    bad["halves"][0]["plies"] += 1
    assert_rejected(game, state, bad, r"plies")
    bad = copy.deepcopy(tree)
    bad["format"] = "stratagem/line@1"
    assert_rejected(game, state, bad, re.escape(PROOFTREE_FORMAT))


def test_every_problem_names_a_place() -> None:
    game, state, tree = draw_proof()
    for node in tree["nodes"]:
        if node["to_move"] == -3:
            node["value"] = 7
    verdict = check_proof_tree(game, state, tree)
    assert not verdict.valid
    assert all(p.place.startswith("node ") for p in verdict.problems)


def test_proof_for_a_terminal_start_is_a_single_node() -> None:
    game = CoinRowGame((), 3)
    state = game.parse_state("|4.0.2|1")
    tree = build_proof_tree(game, state, player=0)
    assert len(tree["nodes"]) == 2 and tree["claim"]["value"] == 4  # one node per half
    assert_valid(game, state, tree)


def test_proofs_built_with_the_bound_cutoffs_verify_like_those_without() -> None:
    # With lo/hi the oracle stops a node at the highest (lowest) possible value; the proofs must
    # still verify and certify the same claims as proofs built by the unbounded search.
    rng = random.Random(31)
    game = TicTacToeGame()
    positions = [s for s in random_positions(game, rng, 40, 6) if not game.is_terminal(s)][:12]
    assert len(positions) >= 8
    for state in positions:
        bounded = build_proof_tree(game, state, lo=-1, hi=1)
        unbounded = build_proof_tree(game, state)
        assert_valid(game, state, bounded)
        assert bounded["claim"]["value"] == unbounded["claim"]["value"]
        if bounded["claim"]["value"] == 1:
            assert bounded["claim"]["bound"] == AT_LEAST
