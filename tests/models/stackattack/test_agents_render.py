"""Baseline agents ("lowest", "cautious") and the text drawing for ``stratagem show``."""

from __future__ import annotations

from random import Random

from stratagem.core.game import CHANCE, SIMULTANEOUS
from stratagem.models.stackattack.agents import cautious_card, decide, greedy_move, lone_penalty, lowest_card
from stratagem.models.stackattack.puzzle import dealt_round
from stratagem.models.stackattack.render import draw
from stratagem.models.stackattack.rules import Options, StackAttackGame

from .support import play, position


def test_engine_lowest_agent_plays_the_lowest_card() -> None:
    game, state = position("10/20/30/40 45.46/44.47 -/- 0/0 1")
    assert greedy_move(game, state, Random(0)) == (45, 44)
    assert lowest_card(game, state, 1, Random(0)) == 44


def test_engine_cautious_agent_avoids_the_sixth_card() -> None:
    # 7 would be the sixth card of row 1 (5 points); 9 would too; 50 takes nothing.
    game, state = position("1.2.3.4.6/20/30/40 7.50/9.51 -/- 0/0 1")
    assert lone_penalty(game, state, 7) == 5 and lone_penalty(game, state, 50) == 0
    assert cautious_card(game, state, 0, Random(0)) == 50


def test_engine_simple_decision_takes_the_cheapest_row() -> None:
    game, state = position("10/20.21/30/41 3.9/50.51 -/- 0/0 1")
    mid = play(game, state, "3,50")
    assert game.to_move(mid) == 0
    assert game.format_move(mid, decide(game, mid)) == "T4"  # 41: 1 point, the cheapest


def test_engine_greedy_agents_finish_a_game() -> None:
    game = StackAttackGame(4)
    rng = Random(1)
    state = game.initial_state()
    while not game.is_terminal(state):
        state = game.apply(state, greedy_move(game, state, rng))
    assert max(game.totals(state)) >= 64


def test_engine_drawing_shows_rows_hands_and_the_pending_decision() -> None:
    game, state = position("10/20/30/40 16.2/45.46 -/- 0/0 1")
    lines = draw(game, state)
    assert "row 1: 10(3)" in lines[1] and "16(1B)" in "\n".join(lines)
    mid = play(game, state, "16,45")
    text = "\n".join(draw(game, mid))
    assert "P1 decides (block)" in text
    dealt = dealt_round(StackAttackGame(2, Options(actions=False)), Random(0))
    assert len(draw(game, dealt)) == 1 + 4 + 2
    fresh = StackAttackGame(2)
    assert game.to_move(dealt) == SIMULTANEOUS and fresh.to_move(fresh.initial_state()) == CHANCE


def test_engine_card_agents_choose_a_card_from_the_players_hand() -> None:
    from stratagem.models.stackattack.agents import CARD_AGENTS

    game, state = position("10/20/30/40 45.46.12/44.47.13 -/- 0/0 1")
    for name, agent in CARD_AGENTS.items():
        for player in (0, 1):
            assert agent(game, state, player, Random(2)) in state.hands[player], name
