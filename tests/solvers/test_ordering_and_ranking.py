"""Move ordering (the games' threat-first orderings, killer moves) and the ranking's shared table change
how much is searched, never what is found: the same values and distances as plain search, and proof
trees the checker accepts.

The truth here is the search with every enhancement off (no ordering, no killers, no table) and, on the
toy games, plain minimax over the whole tree.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from toygames import TicTacToeGame, random_positions

from stratagem.loading import load_position
from stratagem.solvers.alphabeta import alphabeta, return_bounds
from stratagem.solvers.gametree import Engine
from stratagem.solvers.plainminimax import plain_minimax
from stratagem.solvers.prooftree import build_proof_tree, check_proof_tree
from stratagem.solvers.ranking import rank_moves
from stratagem.solvers.transposition import TranspositionTable

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
#: Shipped endgames whose plain search (no ordering, no table) takes well under a second.
QUICK = ("stratatak/attacker-only-one-way", "stratatak/defender-holds", "stratatak/lone-star",
         "stakd/endgame-2p-bomber", "stakd/endgame-2p-lost", "stakd/endgame-2p-only-move",
         "cardclash/strategic-defence", "cardclash/strategic-double-threat", "cardclash/strategic-uncover")


@pytest.mark.parametrize("name", QUICK)
def test_ordered_search_equals_plain_search_and_its_proof_verifies(name: str) -> None:
    loaded = load_position(PUZZLES / f"{name}.toml")
    game, state = loaded.game, loaded.state
    low, high = return_bounds(game)
    ordered = alphabeta(game, state, lo=low, hi=high)
    plain = alphabeta(game, state, lo=low, hi=high, use_ordering=False, use_tt=False)
    assert ordered.solved and plain.solved
    assert (ordered.value, ordered.distance) == (plain.value, plain.distance)
    proof = build_proof_tree(game, state, player=game.to_move(state), lo=low, hi=high)
    verdict = check_proof_tree(game, state, proof)
    assert verdict.valid, verdict.problems
    assert verdict.values[proof["halves"][0]["side"]] == ordered.value


@pytest.mark.parametrize("name", ("stratatak/attacker-only-one-way", "cardclash/strategic-double-threat",
                                  "stakd/endgame-2p-bomber"))
def test_ranking_sharing_the_root_table_equals_ranking_alone(name: str) -> None:
    loaded = load_position(PUZZLES / f"{name}.toml")
    game, state = loaded.game, loaded.state
    low, high = return_bounds(game)
    table = TranspositionTable()
    root = alphabeta(game, state, lo=low, hi=high, tt=table)
    assert len(table) > 0
    shared = rank_moves(game, state, lo=low, hi=high, tt=table)
    alone = rank_moves(game, state, lo=low, hi=high, use_tt=False, use_ordering=False)
    assert [(m.move, m.value, m.distance) for m in shared] == [(m.move, m.value, m.distance) for m in alone]
    assert shared[0].value == root.value
    assert all(m.nodes > 0 for m in shared if m.distance != 1)


def test_stratatak_attack_ordering_puts_unanswerable_attacks_first_and_keeps_every_move() -> None:
    loaded = load_position(PUZZLES / "stratatak/attacker-only-one-way.toml")
    game, state = loaded.game, loaded.state
    moves = list(game.legal_moves(state))
    ordered = list(game.order_moves(state, moves))
    assert sorted(ordered) == sorted(moves)
    # The lone G2 beats none of the four single cards, so the weakest of them leads: G3 (the only win).
    assert game.format_move(state, ordered[0]) == "G3"
    assert alphabeta(game, state).best_move == ordered[0]


def test_killer_moves_follow_the_games_first_choice_and_keep_two_per_ply() -> None:
    game = TicTacToeGame()
    engine = Engine(game, tt=None, ordering=True, time_limit=None, max_nodes=None, progress=None,
                    progress_every=1)
    state = "X...O...."
    game_order = list(game.order_moves(state, list(game.legal_moves(state))))
    engine.path.add(state)
    for killer in (game_order[-1], game_order[-2], game_order[-3]):
        engine.cutoff(killer)
    assert engine.killers[1] == [game_order[-3], game_order[-2]]  # the last two, newest first
    moves = engine.moves(state, None)
    assert sorted(moves) == sorted(game_order)
    assert moves[:3] == [game_order[0], game_order[-3], game_order[-2]]
    assert engine.moves(state, game_order[4])[0] == game_order[4]  # the table's move still leads


def test_killers_never_change_a_value_on_random_tictactoe_positions() -> None:
    game = TicTacToeGame()
    positions = [s for s in random_positions(game, random.Random(5), 80, 7)
                 if not game.is_terminal(s) and s.count(".") <= 5][:12]
    assert len(positions) >= 8
    for state in positions:
        fast = alphabeta(game, state)
        reference = plain_minimax(game, state)
        assert fast.value == reference.value
        if fast.value != 0:  # a draw's distance is the length of the line found, not a value
            assert fast.distance == reference.distance


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_the_ranked_moves_start_with_the_best_move_the_analysis_names(tmp_path: Path, engine: str) -> None:
    """Two moves losing in 2: the analysis named R3 best and listed B2 first (ties in the game's order)."""
    import stratagem

    path = tmp_path / "tie.toml"
    path.write_text('game = "stratatak"\n[options]\nbattle_limit = 4\n[position]\nstate = "B2R3,G5 - - - A1"\n')
    analysis = stratagem.analyze(path, engine=engine)
    moves = analysis.to_json()["moves"]
    assert [m["value"] for m in moves] == [-1, -1] and moves[0]["distance"] == moves[1]["distance"]
    assert moves[0]["move"] == analysis.to_json()["best_move"]
