"""Guided UCT (the game's move ordering with progressive widening, leaves valued by its evaluation) and
tree reuse between moves: the solver still proves only true values, widening follows the game's order,
and a kept tree is found again and is deterministic."""

from __future__ import annotations

import math
import random
from pathlib import Path

from test_mcts import comparable, exhaustive_value
from toygames import NimGame, TicTacToeGame, random_nim

from stratagem.loading import load_position
from stratagem.solvers.agents import make_agent
from stratagem.solvers.mcts import DEFAULT_WIDENING, SearchTree, uct

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


class EvaluatedNim(NimGame):
    """Nim that declares its evaluation good enough to value a new leaf alone (as Card Clash does)."""

    rollout_limit = 0


def test_guided_solver_proves_the_true_value_of_random_nim_positions() -> None:
    rng = random.Random(11)
    for checked in range(12):
        game = random_nim(rng)
        state = game.initial_state()
        result = uct(game, state, iterations=20_000, seed=checked)
        assert result.proven and result.value is not None
        assert result.value[0] == exhaustive_value(game, state)


def test_widening_expands_moves_in_the_games_order() -> None:
    game = TicTacToeGame()
    state = game.initial_state()
    order = [game.format_move(state, m) for m in game.order_moves(state, list(game.legal_moves(state)))]
    iterations = 6
    guided = uct(game, state, iterations=iterations, seed=0)
    visited = {m.notation for m in guided.moves if m.visits}
    # A root visited n times has tried its first ceil(W * sqrt(n)) moves (n counts from before the visit).
    allowed = max(k for k in range(1, 10) if k - 1 < DEFAULT_WIDENING * math.sqrt(k))
    tried = min(allowed, iterations)
    assert visited == set(order[:tried]) and tried < len(order)
    plain = uct(game, state, iterations=9, seed=0, guided=False)
    assert all(m.visits == 1 for m in plain.moves)  # plain UCT tries every move once first


def test_a_game_declaring_rollout_limit_zero_values_leaves_by_its_evaluation() -> None:
    game = EvaluatedNim((3, 2, 2))
    state = game.initial_state()
    moves = list(game.legal_moves(state))
    declared = uct(game, state, iterations=len(moves), seed=0)  # guided: the declared limit 0 applies
    explicit = uct(NimGame((3, 2, 2)), state, iterations=len(moves), seed=0, rollout_limit=0)
    assert comparable(declared) == comparable(explicit)
    for entry in explicit.moves:
        if entry.visits == 1 and entry.proven_value is None:
            child = game.apply(state, entry.move)
            assert entry.mean == game.evaluate(child)[0]


def test_tree_reuse_finds_the_position_two_plies_on_and_is_deterministic() -> None:
    game = TicTacToeGame()
    state = game.initial_state()
    runs = []
    for _ in range(2):
        tree = SearchTree()
        first = uct(game, state, iterations=400, seed=1, tree=tree)
        assert first.best_move is not None
        after = game.apply(state, first.best_move)
        reply = game.legal_moves(after)[0]
        later = game.apply(after, reply)
        second = uct(game, later, iterations=50, seed=2, tree=tree)
        assert (tree.fresh, tree.reused) == (1, 1)
        assert sum(m.visits for m in second.moves) > 50  # statistics carried over from the first search
        runs.append((comparable(first), comparable(second)))
    assert runs[0] == runs[1]
    other = SearchTree()
    uct(game, state, iterations=100, seed=1, tree=other)
    uct(game, state, iterations=100, seed=1, tree=other, guided=False)  # other settings: start afresh
    assert (other.fresh, other.reused) == (2, 0)


def test_mcts_agent_plays_a_card_clash_win_in_one_and_reports_its_settings() -> None:
    loaded = load_position(PUZZLES / "cardclash/square-in-1.toml")
    game, state = loaded.game, loaded.state
    agent = make_agent("mcts", iterations=50)
    move = agent.choose(game, state, random.Random(0))
    after = game.apply(state, move)
    assert game.is_terminal(after) and game.returns(after)[game.to_move(state)] > 0
    params = agent.params  # type: ignore[attr-defined]
    assert (params["guided"], params["reuse"]) == (True, True)
    evaluated = make_agent("mcts", iterations=50, rollout_limit=0)
    assert evaluated.params["rollout_limit"] == 0  # type: ignore[attr-defined]
