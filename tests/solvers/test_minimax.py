"""The minimax family against brute force on the tiny reference games of ``toygames``.

The reference values come from :func:`plain_minimax` (every node, no pruning, no table) or from
small brute-force recursions written here, so every fast search is checked against an independent
computation of the same definition rather than against numbers worked out by hand.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from toygames import (
    CoinRowGame,
    NimGame,
    PigGame,
    TicTacToeGame,
    random_coin_row,
    random_nim,
    random_positions,
)

from stratagem.core.errors import StratagemError
from stratagem.core.game import CHANCE, TERMINAL
from stratagem.solvers.alphabeta import alphabeta
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.gametree import ASSUME_MAXN, ASSUME_OPEN, ASSUME_PARANOID, HEURISTIC, SOLVED, UNKNOWN
from stratagem.solvers.multiplayer import maxn, paranoid
from stratagem.solvers.plainminimax import plain_minimax
from stratagem.solvers.ranking import rank_moves
from stratagem.solvers.transposition import TranspositionTable

#: Every combination of enhancements the tests compare; a 4-entry table forces replacements.
ALPHABETA_VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "iterative": {"iterative": True},
    "no-tt": {"use_tt": False},
    "tiny-tt": {"tt_size": 4},
    "no-ordering": {"use_ordering": False},
    "iterative-tiny-tt": {"iterative": True, "tt_size": 4},
    "bare": {"use_tt": False, "use_ordering": False, "iterative": False},
    "no-bound-cutoffs": {"lo": -math.inf, "hi": math.inf},
    "wide-bounds": {"lo": -2, "hi": 3},
    "no-bound-cutoffs-bare": {"lo": -math.inf, "hi": math.inf, "use_tt": False, "use_ordering": False},
}


def replay_to_end(game: Any, state: Any, moves: Sequence[Any]) -> Any:
    for move in moves:
        assert move in game.legal_moves(state)
        state = game.apply(state, move)
    return state


def check_against_plain(game: Any, state: Any) -> None:
    expected = plain_minimax(game, state)
    assert expected.status == SOLVED
    for name, options in ALPHABETA_VARIANTS.items():
        got = alphabeta(game, state, **options)
        assert got.status == SOLVED, name
        assert got.value == expected.value, (name, game.format_state(state))
        assert got.values == expected.values, name
        if expected.value != 0:
            assert got.distance == expected.distance, (name, game.format_state(state))
        end = replay_to_end(game, state, got.pv)
        assert game.is_terminal(end), name
        assert game.returns(end)[got.player] == got.value, name
        assert len(got.pv) == got.distance, name


def test_alphabeta_equals_plain_minimax_on_random_nim_games() -> None:
    rng = random.Random(5)
    for _ in range(70):
        game = random_nim(rng, piles=3, most=3)
        for state in random_positions(game, rng, 1, 3):
            check_against_plain(game, state)


def test_alphabeta_equals_plain_minimax_when_a_player_moves_twice_in_a_row() -> None:
    rng = random.Random(6)
    for _ in range(40):
        game = random_nim(rng, piles=3, most=3, again_on_empty=True)
        for state in random_positions(game, rng, 1, 2):
            check_against_plain(game, state)


def test_alphabeta_equals_plain_minimax_on_random_tictactoe_positions() -> None:
    rng = random.Random(7)
    game = TicTacToeGame()
    positions = [s for s in random_positions(game, rng, 80, 7) if s.count(".") <= 6][:40]
    assert len(positions) >= 30
    for state in positions:
        check_against_plain(game, state)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=3), min_size=1, max_size=3), st.integers(0, 1))
def test_alphabeta_equals_plain_minimax_on_any_small_nim(piles: list[int], player: int) -> None:
    game = NimGame(tuple(piles))
    check_against_plain(game, game.initial_state()._replace(player=player))


def test_transposition_table_on_and_off_give_the_same_values_and_distances() -> None:
    rng = random.Random(11)
    for _ in range(30):
        game = random_nim(rng, piles=4, most=3)
        on = alphabeta(game, game.initial_state())
        off = alphabeta(game, game.initial_state(), use_tt=False)
        assert (on.value, on.distance) == (off.value, off.distance)
        assert off.tt is None
        assert on.tt is not None or game.is_terminal(game.initial_state())


def test_faster_win_and_slower_loss_are_preferred() -> None:
    # Nim 3.0.0/0: taking all 3 wins in 1 ply; taking 1 or 2 also wins but later (or loses).
    game = NimGame((3, 0, 0))
    result = alphabeta(game, game.initial_state())
    assert (result.value, result.distance, result.pv) == (1, 1, ((0, 3),))
    # Nim 1.1/0 is lost for the mover in 2 plies whatever they do; the loss is reported at 2 plies.
    lost = alphabeta(NimGame((1, 1)), NimGame((1, 1)).initial_state())
    assert (lost.value, lost.values, lost.distance) == (-1, (-1, 1), 2)


def test_value_for_player_zero_and_player_to_move() -> None:
    game = NimGame((1, 1))
    state = game.initial_state()._replace(player=1)
    result = alphabeta(game, state)
    assert result.player == 1 and result.value == -1
    assert result.value_for(0) == 1 and result.value_for(1) == -1


def test_depth_limited_search_with_evaluation_is_labelled_heuristic() -> None:
    game = TicTacToeGame()
    state = game.initial_state()
    limited = alphabeta(game, state, depth=2)
    reference = plain_minimax(game, state, depth=2)
    assert limited.status == HEURISTIC and reference.status == HEURISTIC
    assert limited.value == reference.value  # tic-tac-toe states recur only at the same depth
    assert limited.distance is None


class BareNim:
    """Nim without the optional capabilities (no ordering hint, no evaluation)."""

    name = "bare-nim"
    num_players = 2

    def __init__(self, piles: tuple[int, ...]) -> None:
        self._nim = NimGame(piles)

    def initial_state(self) -> Any:
        return self._nim.initial_state()

    def to_move(self, state: Any) -> int:
        return self._nim.to_move(state)

    def legal_moves(self, state: Any) -> Sequence[Any]:
        return self._nim.legal_moves(state)

    def apply(self, state: Any, move: Any) -> Any:
        return self._nim.apply(state, move)

    def chance_outcomes(self, state: Any) -> Sequence[tuple[Any, Fraction]]:
        return []

    def is_terminal(self, state: Any) -> bool:
        return self._nim.is_terminal(state)

    def returns(self, state: Any) -> tuple[float, ...]:
        return self._nim.returns(state)

    def format_move(self, state: Any, move: Any) -> str:
        return self._nim.format_move(state, move)

    def parse_move(self, state: Any, text: str) -> Any:
        return self._nim.parse_move(state, text)

    def format_state(self, state: Any) -> str:
        return self._nim.format_state(state)

    def parse_state(self, text: str) -> Any:
        return self._nim.parse_state(text)


def test_depth_limited_search_without_evaluation_claims_nothing() -> None:
    game = BareNim((3, 3, 3))
    result = alphabeta(game, game.initial_state(), depth=2)
    assert result.status == UNKNOWN and result.value is None and result.values is None
    assert result.best_move in game.legal_moves(game.initial_state())
    solved = alphabeta(game, game.initial_state())
    assert solved.status == SOLVED and solved.value == plain_minimax(game, game.initial_state()).value


def test_node_limit_stops_with_unknown_and_the_best_move_so_far() -> None:
    game = TicTacToeGame()
    result = alphabeta(game, game.initial_state(), max_nodes=300)
    assert result.status == UNKNOWN and result.value is None
    assert result.best_move in game.legal_moves(game.initial_state())
    assert result.estimate is not None and result.depth is not None


def test_time_limit_stops_with_unknown() -> None:
    game = NimGame((4, 4, 4, 4))
    result = alphabeta(game, game.initial_state(), time_limit=0.0, use_tt=False)
    assert result.status == UNKNOWN and result.value is None


def test_progress_callback_is_called_every_n_nodes() -> None:
    calls: list[tuple[int, int]] = []
    game = TicTacToeGame()
    result = alphabeta(game, game.initial_state(), progress=lambda d, n: calls.append((d, n)), progress_every=100)
    assert calls and all(n % 100 == 0 for _, n in calls)
    assert len(calls) == result.nodes // 100


def test_alphabeta_refuses_chance_and_more_than_two_players() -> None:
    pig = PigGame()
    with pytest.raises(StratagemError, match="expectiminimax"):
        alphabeta(pig, pig.initial_state())
    coins = CoinRowGame()
    with pytest.raises(StratagemError, match="paranoid"):
        alphabeta(coins, coins.initial_state())


class Loop:
    """A two-player game whose two positions lead to each other forever."""

    name = "loop"
    num_players = 2

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        return state

    def legal_moves(self, state: int) -> Sequence[str]:
        return ["go"]

    def apply(self, state: int, move: str) -> int:
        return 1 - state

    def chance_outcomes(self, state: int) -> Sequence[tuple[str, Fraction]]:
        return []

    def is_terminal(self, state: int) -> bool:
        return False

    def returns(self, state: int) -> tuple[float, ...]:
        return (0, 0)

    def format_move(self, state: int, move: str) -> str:
        return move

    def parse_move(self, state: int, text: str) -> str:
        return text

    def format_state(self, state: int) -> str:
        return str(state)

    def parse_state(self, text: str) -> int:
        return int(text)


def test_a_position_repeating_on_a_line_is_reported_not_searched_forever() -> None:
    with pytest.raises(StratagemError, match="repeats"):
        alphabeta(Loop(), 0, use_tt=False, iterative=False)


def test_transposition_table_prefers_deep_entries_and_evicts_oldest_shallow_ones() -> None:
    table = TranspositionTable(4)  # two depth-preferred slots, two always-replace slots
    table.put("a", (5, 0, (1, 0), None))
    table.put("b", (5, 0, (1, 0), None))
    table.put("c", (1, 0, (1, 0), None))  # shallower than the oldest deep entry: goes to the other tier
    table.put("d", (1, 0, (1, 0), None))
    table.put("e", (1, 0, (1, 0), None))  # evicts "c", the oldest always-replace entry
    assert [k for k in "abcde" if table.get(k) is not None] == ["a", "b", "d", "e"]
    table.put("f", (9, 0, (1, 0), None))  # deeper than the oldest deep entry "a": replaces it, "a" demoted
    assert table.get("f") is not None and table.get("a") is not None and table.get("d") is None
    assert len(table) == 4 and table.stats().evictions == 2


def test_expectiminimax_with_star1_and_star2_equals_plain_expectimax() -> None:
    rng = random.Random(13)
    game = PigGame(target=3, turns=3)
    variants: list[dict[str, Any]] = [{"star": 0}, {"star": 1}, {"star": 2}, {"star": 1, "use_tt": False},
                                      {"star": 2, "tt_size": 8}, {"star": 2, "use_ordering": False}]
    for state in random_positions(game, rng, 40, 6):
        expected = plain_minimax(game, state)
        for options in variants:
            got = expectiminimax(game, state, lo=-1, hi=1, **options)
            assert got.status == SOLVED
            assert got.value == expected.value, (options, game.format_state(state))


def test_expectiminimax_value_of_pig_is_an_exact_fraction() -> None:
    game = PigGame()
    result = expectiminimax(game, game.initial_state(), lo=-1, hi=1)
    reference = plain_minimax(game, game.initial_state())
    assert isinstance(result.value, Fraction) and result.value == reference.value
    assert result.values == (result.value, -result.value) and result.distance is None
    assert result.pv and result.pv[0] == result.best_move


def test_expectiminimax_rejects_returns_outside_the_declared_bounds() -> None:
    game = PigGame()
    with pytest.raises(StratagemError, match="bounds"):
        expectiminimax(game, game.initial_state(), lo=0, hi=1)


def brute_paranoid(game: Any, state: Any, player: int) -> Any:
    if game.is_terminal(state):
        return game.returns(state)[player]
    mover = game.to_move(state)
    if mover == CHANCE:
        return sum(p * brute_paranoid(game, game.apply(state, o), player) for o, p in game.chance_outcomes(state))
    values = [brute_paranoid(game, game.apply(state, m), player) for m in game.legal_moves(state)]
    return max(values) if mover == player else min(values)


def brute_maxn(game: Any, state: Any) -> tuple[Any, ...]:
    if game.is_terminal(state):
        return tuple(game.returns(state))
    mover = game.to_move(state)
    best: tuple[Any, ...] = ()
    for move in game.legal_moves(state):
        vec = brute_maxn(game, game.apply(state, move))
        if not best or vec[mover] > best[mover]:
            best = vec
    return best


def test_paranoid_equals_brute_force_on_random_coin_rows() -> None:
    rng = random.Random(17)
    for _ in range(25):
        game = random_coin_row(rng, length=rng.randint(1, 8))
        state = game.initial_state()
        for player in range(3):
            result = paranoid(game, state, player)
            assert result.value == brute_paranoid(game, state, player)
            assert result.assumption == ASSUME_PARANOID and result.values is None
            assert paranoid(game, state, player, use_tt=False, iterative=False).value == result.value


def test_paranoid_on_a_two_player_game_is_the_minimax_value() -> None:
    game = TicTacToeGame()
    state = "X...O...."
    assert paranoid(game, state).value == plain_minimax(game, state).value


def test_maxn_equals_brute_force_on_random_coin_rows() -> None:
    rng = random.Random(19)
    for _ in range(25):
        game = random_coin_row(rng, length=rng.randint(1, 8))
        result = maxn(game, game.initial_state())
        assert result.values == brute_maxn(game, game.initial_state())
        assert result.assumption == ASSUME_MAXN and result.status == SOLVED
        end = replay_to_end(game, game.initial_state(), result.pv)
        assert game.to_move(end) == TERMINAL and tuple(game.returns(end)) == result.values


def test_maxn_under_a_limit_deepens_and_a_stopped_search_names_the_deepest_passs_move() -> None:
    """Stopped by a limit, max^n named no move (one pass); it now deepens iteratively under a limit, and
    the move named is the one the deepest finished pass chose, a depth-limited search's own choice."""
    rng = random.Random(29)
    named = 0
    for _ in range(20):
        game = random_coin_row(rng, length=rng.randint(5, 8))
        state = game.initial_state()
        whole = maxn(game, state)
        assert maxn(game, state, max_nodes=10 ** 6).values == whole.values  # finished: the same answer
        assert maxn(game, state, max_nodes=10 ** 6, iterative=False).nodes < maxn(game, state, max_nodes=10 ** 6).nodes
        for nodes in (20, 60, 200):
            stopped = maxn(game, state, max_nodes=nodes)
            if stopped.status != UNKNOWN:
                continue
            assert stopped.value is None and stopped.values is None and stopped.pv == ()
            if stopped.depth is None:
                assert stopped.best_move is None  # not even the first pass finished
                continue
            named += 1
            assert stopped.best_move == maxn(game, state, depth=stopped.depth).best_move
            one_pass = maxn(game, state, max_nodes=nodes, iterative=False)
            assert one_pass.status != UNKNOWN or one_pass.best_move is None  # stopped in its one pass: none
    assert named >= 10


def test_paranoid_is_more_pessimistic_than_maxn() -> None:
    rng = random.Random(23)
    for _ in range(20):
        game = random_coin_row(rng)
        state = game.initial_state()
        assert paranoid(game, state, 0).value <= maxn(game, state).values[0]  # type: ignore[index]


def test_results_name_the_assumption_behind_them() -> None:
    nim = NimGame((2, 1))
    assert alphabeta(nim, nim.initial_state()).assumption == ASSUME_OPEN
    assert plain_minimax(nim, nim.initial_state()).assumption == ASSUME_OPEN


def test_rank_moves_orders_every_move_by_value_then_distance() -> None:
    game = NimGame((2, 3))
    state = game.initial_state()
    ranked = rank_moves(game, state)
    assert sorted(m.move for m in ranked) == sorted(game.legal_moves(state))
    for entry in ranked:
        child = plain_minimax(game, game.apply(state, entry.move)) if not game.is_terminal(
            game.apply(state, entry.move)) else None
        assert entry.value == (child.value_for(0) if child else game.returns(game.apply(state, entry.move))[0])
    assert ranked[0].value == alphabeta(game, state).value
    values = [m.value for m in ranked]
    assert values == sorted(values, reverse=True)  # type: ignore[type-var]


def test_rank_moves_with_paranoid_and_expectiminimax() -> None:
    coins = CoinRowGame((3, 1, 4, 1))
    ranked = rank_moves(coins, coins.initial_state(), paranoid)
    assert ranked[0].value == paranoid(coins, coins.initial_state()).value
    assert all(m.assumption == ASSUME_PARANOID for m in ranked)
    pig = PigGame(target=3, turns=3)
    ranked_pig = rank_moves(pig, pig.initial_state(), expectiminimax, lo=-1, hi=1)
    assert ranked_pig[0].value == plain_minimax(pig, pig.initial_state()).value


# -- bound cutoffs (mate-distance pruning) and shared tables ----------------------------------------

#: X to move wins at once in cell 1 (the first empty cell); four other moves are open.
TICTACTOE_WIN_IN_1 = ".XX.O.O.."


def test_bound_cutoffs_stop_at_a_win_on_the_next_ply() -> None:
    game = TicTacToeGame()
    state = TICTACTOE_WIN_IN_1
    assert game.is_terminal(game.apply(state, 0))
    variants: list[dict[str, Any]] = [{}, {"use_ordering": False}, {"use_tt": False, "use_ordering": False}]
    for options in variants:
        cut = alphabeta(game, state, **options)
        full = alphabeta(game, state, lo=-math.inf, hi=math.inf, **options)
        assert (cut.value, cut.distance, cut.pv) == (full.value, full.distance, full.pv) == (1, 1, (0,))
        # The first move reaches the best possible score: no other root move is searched. The
        # count is the root, the winning child and the principal variation's replay of it.
        assert cut.nodes == 3
        # Without the cutoffs each of the four other root moves is visited at least once.
        assert full.nodes >= cut.nodes + 4


def test_bound_cutoffs_prune_below_the_root_without_changing_distances() -> None:
    # Nim 2.2.1: lines end at different depths, so wins and losses at several distances compete.
    rng = random.Random(17)
    fewer = 0
    for _ in range(30):
        game = random_nim(rng, piles=4, most=3)
        state = game.initial_state()
        if game.is_terminal(state):
            continue
        cut = alphabeta(game, state, use_tt=False)
        full = alphabeta(game, state, use_tt=False, lo=-math.inf, hi=math.inf)
        assert (cut.value, cut.distance) == (full.value, full.distance)
        assert cut.nodes <= full.nodes
        fewer += cut.nodes < full.nodes
    assert fewer > 0


def test_expectiminimax_bounds_stop_at_the_highest_value() -> None:
    game = TicTacToeGame()
    state = TICTACTOE_WIN_IN_1
    bounded = expectiminimax(game, state, lo=-1, hi=1, use_ordering=False)
    unbounded = expectiminimax(game, state, use_ordering=False)
    assert bounded.value == unbounded.value == 1
    assert bounded.nodes < unbounded.nodes


class DoubledNim(NimGame):
    """Nim paying 2 to the winner and -2 to the loser, with the bounds declared."""

    name = "doubled-nim"
    return_bounds = (-2, 2)

    def returns(self, state: Any) -> tuple[float, ...]:
        return tuple(2 * r for r in super().returns(state))


class UndeclaredDoubledNim(DoubledNim):
    """The same returns without declaring them: alphabeta's default bounds are -1 and 1."""

    name = "undeclared-doubled-nim"
    return_bounds = None  # type: ignore[assignment]


def test_alphabeta_takes_the_bounds_the_game_declares() -> None:
    rng = random.Random(19)
    for _ in range(20):
        piles = tuple(rng.randint(0, 3) for _ in range(3))
        game = DoubledNim(piles)
        state = game.initial_state()
        if game.is_terminal(state):
            continue
        expected = plain_minimax(game, state)
        got = alphabeta(game, state)
        assert (got.value, got.distance) == (expected.value, expected.distance)
        assert got.value in (-2, 2)


def test_a_return_outside_the_bounds_is_refused_not_pruned_silently() -> None:
    game = UndeclaredDoubledNim((2, 1))
    with pytest.raises(StratagemError, match="outside the bounds"):
        alphabeta(game, game.initial_state())
    with pytest.raises(StratagemError, match="outside the bounds"):
        alphabeta(NimGame((2, 1)), NimGame((2, 1)).initial_state(), lo=0, hi=1)
    assert alphabeta(game, game.initial_state(), lo=-2, hi=2).value == plain_minimax(game, game.initial_state()).value
    with pytest.raises(ValueError):
        alphabeta(game, game.initial_state(), lo=-2)


def test_rank_moves_with_a_shared_table_equals_separate_searches() -> None:
    rng = random.Random(23)
    game = TicTacToeGame()
    positions = [s for s in random_positions(game, rng, 80, 7) if not game.is_terminal(s) and s.count(".") <= 6][:10]
    assert len(positions) >= 8
    for state in positions:
        shared = rank_moves(game, state)
        separate = rank_moves(game, state, use_tt=False)
        assert [(m.move, m.value, m.distance) for m in shared] == [(m.move, m.value, m.distance) for m in separate]
        for entry in shared:
            child = game.apply(state, entry.move)
            if not game.is_terminal(child):
                reference = plain_minimax(game, child)
                assert entry.value == reference.value_for(game.to_move(state))
                if entry.value != 0:
                    assert entry.distance == reference.distance + 1  # type: ignore[operator]
    pig = PigGame(target=3, turns=3)
    decisions = [s for s in random_positions(pig, random.Random(29), 3, 4) if pig.to_move(s) >= 0]
    assert decisions
    for state in decisions:
        shared_pig = rank_moves(pig, state, expectiminimax, lo=-1, hi=1)
        separate_pig = rank_moves(pig, state, expectiminimax, lo=-1, hi=1, use_tt=False)
        assert [(m.move, m.value) for m in shared_pig] == [(m.move, m.value) for m in separate_pig]


def test_a_table_passed_in_is_filled_and_reused() -> None:
    game = TicTacToeGame()
    state = "X...O...."
    table = TranspositionTable()
    first = alphabeta(game, state, tt=table)
    assert len(table) > 0 and first.tt is not None
    again = alphabeta(game, state, tt=table)
    assert (again.value, again.distance, again.pv) == (first.value, first.distance, first.pv)
    assert again.nodes < first.nodes
