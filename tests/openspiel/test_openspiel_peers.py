"""The peers measurements (stratagem.openspiel.peers) on shipped positions, with tiny budgets."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("cvxpy")

from stratagem.loading import load_position  # noqa: E402
from stratagem.openspiel import peers  # noqa: E402
from stratagem.openspiel.cardclash import DealtCardClash  # noqa: E402

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def position(path: str):  # type: ignore[no-untyped-def]
    return load_position(PUZZLES / path)


@pytest.mark.parametrize("path", ["stakd/endgame-2p-bomber.toml", "stakd/endgame-2p-lost.toml",
                                  "stakd/endgame-2p-only-move.toml", "stratatak/lone-star.toml",
                                  "cardclash/strategic-defence.toml"])
def test_openspiel_alpha_beta_finds_our_value(path: str) -> None:
    loaded = position(path)
    row = peers.search_peer(loaded.game, loaded.state, 50_000, repeats=1)
    assert row.ours.status == "solved" and row.theirs is not None and row.theirs.status == "solved"
    assert row.theirs.method == "alpha_beta_search"
    assert row.agree is True and row.ours.value == row.theirs.value
    assert row.theirs.nodes > 1


def test_a_search_past_its_budget_is_stopped_not_valued() -> None:
    loaded = position("stratatak/reshuffle-gamble.toml")
    row = peers.search_peer(loaded.game, loaded.state, 300, repeats=1)
    assert row.ours.method == "expectiminimax" and row.theirs is not None
    assert row.theirs.method == "expectiminimax"
    assert row.theirs.status == "node budget" and row.theirs.value is None and row.agree is None
    assert row.theirs.nodes == 301


def test_three_players_have_no_openspiel_search() -> None:
    loaded = position("cardclash/three-players.toml")
    row = peers.search_peer(loaded.game, loaded.state, 200, repeats=1)
    assert row.theirs is None and "two players" in row.why_not


def test_uct_speed_counts_both_searches() -> None:
    loaded = position("stakd/endgame-2p-lost.toml")
    row = peers.uct_speed(loaded.game, loaded.state, 60, repeats=1)
    assert row.ours_rate > 0 and row.theirs_rate > 0 and row.ratio > 0


def test_stage_games_agree_with_openspiel_lp() -> None:
    loaded = position("stackattack/2p-actions-shield-2-turns.toml")
    row = peers.stage_peer(loaded.game, loaded.state, 20, repeats=1)
    assert row.measured == min(20, row.stage_games) > 0
    assert row.ours_certified == row.measured
    assert row.largest_difference < 1e-5


@pytest.mark.parametrize("name", ["stakd", "cardclash", "stratatak"])
def test_equal_time_match_plays_whole_games(name: str) -> None:
    game = peers.match_game(name)
    if name == "stratatak":
        from stratagem.models.stratatak.cards import Options
        from stratagem.models.stratatak.rules import StratatakGame

        game = StratatakGame(Options(battle_limit=4))
    match = peers.equal_time_match(game, 0.002, 2, trial=5, rounds=1,
                                   rollout_limit=None if name == "stakd" else 5)
    agents = match.result.agents
    assert [a.name for a in agents] == ["mcts", "openspiel-mcts"]
    assert agents[0].games == 2
    # every game ends: decided, or (Stratatak) stopped undecided by the battle limit, which counts as
    # unfinished (never a draw), well before the match's ply cap
    assert all(r.returns is not None or (name == "stratatak" and r.plies < match.result.max_plies)
               for r in match.result.records)
    assert match.ours_simulations >= 1 and match.theirs_simulations >= 1
    assert match.ours_cpu_per_move > 0 and match.theirs_cpu_per_move > 0


def test_cardclash_match_game_deals_afresh() -> None:
    game = peers.match_game("cardclash")
    assert isinstance(game, DealtCardClash)
    assert game.to_move(game.initial_state()) < 0  # the deal is chance
    assert game.rollout_limit == game.rules.rollout_limit == 0  # guided mcts values leaves as on the engine


def test_counting_game_stops_at_its_budget() -> None:
    loaded = position("stakd/endgame-2p-lost.toml")
    counter = peers.CountingGame(loaded.game, 2)
    state = loaded.state
    for _ in range(2):
        state = counter.apply(state, loaded.game.legal_moves(state)[0])
    assert counter.applied == 2
    with pytest.raises(peers.NodeBudget):
        counter.apply(state, loaded.game.legal_moves(state)[0])


STRATO = str(PUZZLES / "strato" / "challenge-0.toml")


@pytest.mark.parametrize(("text", "value"), [("RRWR(RW)WWRW RRR WRR 1 -", "2/3"), ("RRWR(RW)WWRW RRR RR 1 -", "0"),
                                             ("RRWR(RW)WWWR RRR WR 1 -", "1")])
def test_strato_expectiminimax_finds_our_exact_solo_value(text: str, value: str) -> None:
    from fractions import Fraction

    row = peers.strato_exact_peer(STRATO, text, 100_000, repeats=1)
    assert row.exact == Fraction(value)
    assert row.ours.status == row.plain.status == row.theirs.status == "solved"
    assert row.agree is True and row.plain.value == row.ours.value == float(Fraction(value))
    assert row.compiled.status == "solved" and row.compiled.value == float(Fraction(value))  # what odds runs
    assert row.theirs.nodes > row.plain.nodes  # a tree search without memory meets states again


def test_strato_expectiminimax_past_its_budget_is_stopped_not_valued() -> None:
    row = peers.strato_exact_peer(STRATO, "RRWR(RW)WWRW RRR WRR 1 -", 500, repeats=1)
    assert row.theirs.status == "node budget" and row.theirs.value is None and row.agree is None
    assert row.theirs.nodes == 501


def test_remembered_plays_apply_as_the_engine_does() -> None:
    game = peers.strato_spiel_game(STRATO, "RRWR(RW)WWRW RRR WRR 1 -").engine.game
    counter = peers.RememberedPlays(game, None)
    state = game.initial_state()
    for move in game.legal_moves(state):
        assert counter.apply(state, move) == game.apply(state, move)
    assert counter.legal_moves(state) == game.legal_moves(state)
    assert counter.applied == len(game.legal_moves(state))


def test_strato_team_match_plays_every_agent_on_the_same_deals() -> None:
    rows = peers.strato_team_match(STRATO, 1, 1, 0.002, calibration=0, pimc=False)
    assert [r.label for r in rows] == ["greedy", "ismcts", "mcts", "openspiel-mcts"]
    assert all(r.games == 1 and r.moves > 0 and 0 <= r.wins <= 1 for r in rows)
    assert all(r.budget is not None and r.budget >= 1 for r in rows[1:])
    assert rows[-1].budget is not None and rows[-1].budget >= peers.MIN_BOT_SIMULATIONS


def test_strato_uct_speed_runs_both_searches_on_the_hidden_pile() -> None:
    ((seed, row),) = peers.strato_uct_speed(STRATO, 1, range(1), 30, repeats=1)
    assert seed == 0 and row.ours_rate > 0 and row.theirs_rate > 0
