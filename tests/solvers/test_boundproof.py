"""Tests of the one-sided bound certificates (``stratagem/matrixproof@2``) and their checker.

Every record is written from a solved result, sent through JSON as a file would be, and checked from
the rules engine; then forged on purpose, one flaw at a time, and each forgery must be refused.
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any

import pytest
from simtoys import GoofspielGame, OddOneOutGame, PenniesGame

from stratagem.core.errors import BadInput
from stratagem.core.outputs import dumps_record
from stratagem.solvers.boundproof import BOUNDPROOF_FORMAT, bound_proof, bound_proof_text, check_bound_proof
from stratagem.solvers.matrixproof import matrix_proof
from stratagem.solvers.simultaneous import solve_simultaneous
from tests.solvers.test_simultaneous import WEIGHTED, stackattack

F = Fraction


def record_of(game: Any, state: Any, **options: Any) -> dict[str, Any]:
    result = solve_simultaneous(game, state, **options)
    data: dict[str, Any] = json.loads(bound_proof_text(bound_proof(game, result)))
    assert F(data["value"]) == result.value
    return data


def reason(game: Any, state: Any, data: dict[str, Any]) -> str:
    verdict = check_bound_proof(game, state, data)
    assert not verdict.valid
    return verdict.reason


@pytest.mark.parametrize(
    ("game", "options"),
    [
        (PenniesGame(2, WEIGHTED, gamble=True), {}),
        (PenniesGame(3, WEIGHTED, gamble=True), {"depth": 2}),
        (GoofspielGame(3), {}),
        (GoofspielGame(4), {}),
        (OddOneOutGame(2), {"player": 1}),
    ],
)
def test_bound_proofs_of_toy_games_check(game: Any, options: dict[str, Any]) -> None:
    data = record_of(game, game.initial_state(), **options)
    assert data["format"] == BOUNDPROOF_FORMAT
    verdict = check_bound_proof(game, game.initial_state(), data)
    assert verdict.valid, verdict.reason
    assert verdict.nodes_checked >= 2  # the start's two parts at least


@pytest.mark.parametrize("name", ["2p-numbers-3-turns", "2p-actions-3-turns", "2p-actions-shield-2-turns",
                                  "3p-actions-2-turns"])
def test_bound_proofs_of_stack_attack_endgames_check_and_are_smaller(name: str) -> None:
    position = stackattack(name)
    game, state = position.game, position.state
    result = solve_simultaneous(game, state, player=0, payoff="margin")
    data = json.loads(bound_proof_text(bound_proof(game, result)))
    verdict = check_bound_proof(game, state, data)
    assert verdict.valid, verdict.reason
    assert len(data["nodes"]) <= len(result.nodes)
    # smaller than the record analyze wrote before (matrixproof@1, canonical indented JSON)
    assert len(bound_proof_text(bound_proof(game, result))) < len(dumps_record(matrix_proof(game, result)))


def test_the_record_is_written_the_same_byte_for_byte() -> None:
    position = stackattack("2p-actions-3-turns")
    game, state = position.game, position.state
    first = bound_proof_text(bound_proof(game, solve_simultaneous(game, state, player=0, payoff="margin")))
    again = bound_proof_text(bound_proof(game, solve_simultaneous(game, state, player=0, payoff="margin")))
    assert first == again and first.endswith("\n")
    assert json.loads(first)["nodes"][0][0] == game.format_state(state)  # the start first


# --- forgeries ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mixed() -> tuple[Any, Any, dict[str, Any]]:
    """2p-actions-3-turns: it has mixed nodes (two moves or more with positive probability)."""
    position = stackattack("2p-actions-3-turns")
    data = record_of(position.game, position.state, player=0, payoff="margin")
    assert check_bound_proof(position.game, position.state, data).valid
    return position.game, position.state, data


def mixed_part(data: dict[str, Any]) -> tuple[int, int]:
    for k, node in enumerate(data["nodes"]):
        for side in (3, 4):
            if node[side] is not None and len(node[side]) >= 2:
                return k, side
    raise AssertionError("no mixed part")


def test_a_strategy_moved_by_one_unit_is_refused(mixed: tuple[Any, Any, dict[str, Any]]) -> None:
    game, state, good = mixed
    k, side = mixed_part(good)
    forged = copy.deepcopy(good)
    part = forged["nodes"][k][side]
    probabilities = [F(p) for _, p in part]
    unit = F(1, 10**15)  # one unit of a fine denominator: still a distribution, no longer optimal
    probabilities[0] += unit
    probabilities[1] -= unit
    for item, p in zip(part, probabilities, strict=True):
        item[1] = f"{p.numerator}/{p.denominator}"
    why = reason(game, state, forged)
    assert f"nodes[{k}][{side}]" in why and ("gets only" in why or "concedes" in why)


def test_a_probability_sum_other_than_one_is_refused(mixed: tuple[Any, Any, dict[str, Any]]) -> None:
    game, state, good = mixed
    k, side = mixed_part(good)
    forged = copy.deepcopy(good)
    p = F(forged["nodes"][k][side][0][1]) + 1
    forged["nodes"][k][side][0][1] = f"{p.numerator}/{p.denominator}"
    assert "sum to" in reason(game, state, forged)
    zero = copy.deepcopy(good)
    zero["nodes"][k][side].append(["no such move" if side == 3 else ["no such move"], "0/1"])
    assert "not positive" in reason(game, state, zero)


def test_a_support_on_an_illegal_move_is_refused(mixed: tuple[Any, Any, dict[str, Any]]) -> None:
    game, state, good = mixed
    for side in (3, 4):
        forged = copy.deepcopy(good)
        node = forged["nodes"][0]
        node[side][0][0] = "99" if side == 3 else ["99"]  # no card 99 in any hand
        why = reason(game, state, forged)
        assert "nodes[0]" in why and "is not a legal move here" in why
    twice = copy.deepcopy(good)
    k, side = mixed_part(good)
    twice["nodes"][k][side][1][0] = twice["nodes"][k][side][0][0]
    assert "listed twice" in reason(game, state, twice)


def test_a_missing_reply_is_refused(mixed: tuple[Any, Any, dict[str, Any]]) -> None:
    game, state, good = mixed
    refused = 0
    for k in range(1, len(good["nodes"])):
        for side in (3, 4):
            if good["nodes"][k][side] is None:
                continue
            forged = copy.deepcopy(good)
            other = 7 - side
            if forged["nodes"][k][other] is None:
                del forged["nodes"][k]
            else:
                forged["nodes"][k][side] = None
            why = reason(game, state, forged)  # every part written is needed: none can go
            assert "has no lower bound" in why or "has no upper bound" in why, why
            refused += 1
    assert refused >= 2


def test_a_wrong_value_above_the_terminals_or_at_the_start_is_refused(mixed: tuple[Any, Any, dict[str, Any]]) -> None:
    game, state, good = mixed
    # the last node written is deepest in the walk's order: its children are terminal positions. A value
    # made false on the side the node proves (above what its lower part holds, below its upper part's);
    # the other way is a weaker bound, still true, and may be accepted
    for k in (len(good["nodes"]) - 1, 0):
        sides = [d for d, part in ((1, good["nodes"][k][3]), (-1, good["nodes"][k][4])) if part is not None]
        for delta in sides:
            forged = copy.deepcopy(good)
            value = F(forged["nodes"][k][2]) + delta
            forged["nodes"][k][2] = f"{value.numerator}/{value.denominator}"
            why = reason(game, state, forged)
            assert f"nodes[{k}]" in why or "the start" in why, why
    claim = copy.deepcopy(good)
    value = F(claim["value"]) + F(1, 3)
    claim["value"] = f"{value.numerator}/{value.denominator}"
    assert "the proof claims" in reason(game, state, claim)


def test_a_forged_child_bound_is_refused() -> None:
    # a child's value raised (or lowered) where its parent's part would accept it: the child's own part
    # must then prove the forged number, and cannot
    position = stackattack("2p-numbers-3-turns")
    game, state = position.game, position.state
    good = record_of(game, state, player=0, payoff="margin")
    assert len(good["nodes"]) >= 3
    for k in range(1, len(good["nodes"])):
        node = good["nodes"][k]
        delta = 1 if node[3] is not None else -1  # a better bound on the side the parents use
        forged = copy.deepcopy(good)
        value = F(node[2]) + delta
        forged["nodes"][k][2] = f"{value.numerator}/{value.denominator}"
        why = reason(game, state, forged)
        assert f"nodes[{k}]" in why, why


Mixed = tuple[Any, Any, dict[str, Any]]


def test_an_unneeded_part_or_node_is_refused_and_a_bad_shape_is_bad_input(mixed: Mixed) -> None:
    game, state, good = mixed
    extra = copy.deepcopy(good)
    extra["nodes"].append([extra["start"] + " ", None, "0/1", None, [[["1"], "1/1"]]])
    assert "not needed from the start" in reason(game, state, extra)
    for broken, place in ((lambda d: d["nodes"].__setitem__(0, {"state": "x"}), "nodes[0]"),
                          (lambda d: d["nodes"][0].__setitem__(3, "1/1"), "nodes[0][3]"),
                          (lambda d: d["nodes"][0].__setitem__(2, "half"), "nodes[0][2]"),
                          (lambda d: d.__setitem__("format", "stratagem/matrixproof@3"), "format")):
        forged = copy.deepcopy(good)
        broken(forged)
        with pytest.raises(BadInput) as exc:
            check_bound_proof(game, state, forged, "p.json")
        assert exc.value.place == place
    nothing = copy.deepcopy(good)
    nothing["nodes"][0][3] = nothing["nodes"][0][4] = None
    with pytest.raises(BadInput, match="a lower part, an upper part or both"):
        check_bound_proof(game, state, nothing, "p.json")


def test_the_other_start_or_a_coalition_record_for_two_players_is_refused(mixed: Mixed) -> None:
    game, state, good = mixed
    other = copy.deepcopy(good)
    other["opponents"] = [0]
    assert "opponents" in reason(game, state, other)
    start = copy.deepcopy(good)
    start["start"] = "elsewhere"
    assert "start" in reason(game, state, start)
