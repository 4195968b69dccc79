"""Random playouts (hypothesis chooses the seed and the player count) keep every invariant of the
structure, and the engine's fast move generator agrees with the rule-by-rule checker
(:func:`rules.placement_problem`), which is written separately, on every position reached."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.models.stakd.geometry import Geometry, square_lattice
from stratagem.models.stakd.notation import format_move, format_state, parse_move, parse_state
from stratagem.models.stakd.pieces import BASE, BOMBER, KINDS, hand_of
from stratagem.models.stakd.position import Move, State
from stratagem.models.stakd.rules import StakdGame, placement_problem, structure_problems, support


def footprint(geometry: Geometry, kind: str, anchor: tuple[int, int], orient: str) -> set[tuple[int, int]]:
    placement = geometry.placement(kind, anchor, orient)
    assert placement is not None
    return {geometry.nodes[i] for i in placement.nodes}


def check_invariants(game: StakdGame, start: State, state: State) -> None:
    geometry = game.geometry
    below: set[tuple[int, int]] = set()
    for k, layer in enumerate(state.layers):
        assert layer, f"layer {k} is empty"
        here: set[tuple[int, int]] = set()
        for i, piece in enumerate(layer):
            nodes = footprint(geometry, piece.kind, piece.anchor, piece.orient)
            assert not nodes & here, "two pieces share a node"
            assert (piece.kind == BASE) == (k == 0), "Bases and only Bases lie on layer 0"
            if k >= 1:
                assert nodes <= below, "no overhang: every node sits on a piece below"
            if i > 0:  # connection, in placement order
                touching = {(x + dx, y + dy) for x, y in nodes for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
                assert touching & here, "a later piece touches a piece already on its layer"
            here |= nodes
        assert sum(p.kind == BOMBER for p in layer) <= 1 and layer[0].kind != BOMBER
        below = here
    assert structure_problems(geometry, state.layers) == []
    for player in range(state.num_players):  # piece counts conserved
        placed = Counter(p.kind for _, p in state.pieces_in_order() if p.owner == player)
        was = Counter(p.kind for _, p in start.pieces_in_order() if p.owner == player)
        for i, kind in enumerate(KINDS):
            assert state.hands[player][i] + placed[kind] == start.hands[player][i] + was[kind]


def checker_moves(game: StakdGame, state: State) -> set[Move]:
    """Every placement the rule-by-rule checker allows, found without the move generator."""
    hand = state.hands[state.to_move]
    out: set[Move] = set()
    top = state.top
    for kind, n in zip(KINDS, hand, strict=True):
        if not n:
            continue
        for p in game.geometry.placements[kind]:
            for k in (top, top + 1):
                if placement_problem(game.geometry, state.layers, p, k, hand) == "":
                    out.add(Move(kind, p.anchor, p.orient, k))
    return out


def playout(game: StakdGame, seed: int, cross_check: bool) -> State:
    rng = random.Random(seed)
    start = state = game.initial_state()
    while not game.is_terminal(state):
        legal = game.legal_moves(state)
        assert legal and len(set(legal)) == len(legal)
        if cross_check and state.layers:
            assert set(legal) == checker_moves(game, state), format_state(state)
        move = rng.choice(legal)
        assert game.parse_move(state, format_move(move)) == move
        state = game.apply(state, move)
        # The game derives each new Support incrementally; it must equal one built from scratch.
        assert game.support(state.layers) == support(game.geometry, state.layers)
        assert parse_state(format_state(state)) == state
        check_invariants(game, start, state)
    assert all(state.out)
    assert len(game.returns(state)) == game.num_players
    return state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(1, 6))
def test_engine_random_playouts_keep_every_invariant(seed: int, players: int) -> None:
    playout(StakdGame(players), seed, cross_check=False)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6))
def test_engine_move_generator_agrees_with_the_rule_checker_solo(seed: int) -> None:
    hand = hand_of({"B": 2, "Q": 1, "T": 2, "D": 3, "U": 5, "X": 1})
    game = StakdGame(1, square_lattice(11, 3), State((), (hand,), 0, (False,)))
    playout(game, seed, cross_check=True)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6))
def test_engine_move_generator_agrees_with_the_rule_checker_two_players(seed: int) -> None:
    hand = hand_of({"B": 2, "Q": 1, "T": 1, "D": 2, "U": 3, "X": 2})
    game = StakdGame(2, start=State((), (hand, hand), 0, (False, False)))
    playout(game, seed, cross_check=True)


def test_engine_first_base_is_the_only_first_move_the_checker_accepts_up_to_translation() -> None:
    game = StakdGame(1)
    state = game.initial_state()
    assert [format_move(m) for m in game.legal_moves(state)] == ["B@3,1h"]
    assert game.apply(state, parse_move("B@3,1h")).layers[0][0].anchor == (3, 1)
