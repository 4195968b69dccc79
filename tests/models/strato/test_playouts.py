"""Invariants over random playouts from seeded deals (seed "How to Play", "Weather Actions";
docs/rules/strato.md): cards are conserved, half-rows stay contiguous, tornadoes never move, hands are
refilled, targets never name the card just played, and the end-of-turn status follows the rules."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem.models.strato.rules.actions import resolved_weather
from stratagem.models.strato.rules.cards import CLOUD, SUN, WEATHERS
from stratagem.models.strato.rules.challenge import Challenge, Options
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import LOST, ONGOING, WON, Coord, State, format_state, parse_state
from stratagem.models.strato.rules.turns import StratoGame

from .support import cards_in_play, make_challenge, puzzle_challenge

CHALLENGES: dict[str, Challenge] = {
    "challenge-0": puzzle_challenge("challenge-0"),
    "challenge-1": puzzle_challenge("challenge-1"),
    "level-2-example": puzzle_challenge("level-2-example"),
    "three-rows": make_challenge(weathers="RSFWCT", pairs=(), limit=8, left="<<<", right=">>>", name="three rows"),
}


def _played_coord(state: State, move: Move) -> Coord:
    return Coord(move.row, move.end, len(state.rows[move.row].half(move.end)))


def _discarded(state: State, move: Move) -> Counter[str]:
    """The cards a move takes out of the game: the hand on a Redraw, the sun's target."""
    out: Counter[str] = Counter(state.hands[state.to_move] if move.redraw else "")
    if resolved_weather(move.card, state.last) == SUN and move.target:
        (coord,) = move.target
        placed = state.rows[coord.row].half(coord.side)
        if (coord.row, coord.side) == (move.row, move.end):
            placed += move.card
        out[placed[coord.dist]] += 1
    return out


def check_step(game: StratoGame, before: State, move: Move, after: State) -> None:
    challenge = game.challenge
    # tornadoes never move
    assert [(r.left_tornado, r.right_tornado) for r in after.rows] == [
        (r.left_tornado, r.right_tornado) for r in before.rows
    ]
    # half-rows are contiguous strings of cards counted from the tornado; the notation round-trips
    for row in after.rows:
        assert all(card in WEATHERS for card in row.left + row.right)
    assert parse_state(format_state(after)) == after
    # cards conserved: before = after + what the move discarded
    assert cards_in_play(before) == cards_in_play(after) + _discarded(before, move)
    table_before = sum(len(r.left) + len(r.right) for r in before.rows)
    table_after = sum(len(r.left) + len(r.right) for r in after.rows)
    sun_effect = resolved_weather(move.card, before.last) == SUN and bool(move.target)
    assert table_after == table_before + 1 - sun_effect
    # the target never names the card just played
    played = _played_coord(before, move)
    if move.target:
        assert move.target[0] != played
        if move.exchange:
            assert played not in move.target
    # drawing: the mover's hand is full again while the pile lasts
    mover = before.to_move
    if after.pile:
        assert len(after.hands[mover]) == game.hand_size
    if not move.redraw:
        assert len(after.hands[mover]) == len(before.hands[mover]) - (0 if before.pile else 1)
    assert after.to_move == (mover + 1) % game.num_players
    assert after.last == (before.last if move.card == CLOUD else move.card)
    # end of turn, in the ruled order
    over = any(max(len(r.left), len(r.right)) > challenge.limit for r in after.rows)
    if over:
        assert after.status == LOST
    elif challenge.victory(after.rows):
        assert after.status == WON
    elif not after.pile and not after.hands[after.to_move]:
        assert after.status == LOST
    else:
        assert after.status == ONGOING


@settings(max_examples=80, deadline=None)
@given(
    name=st.sampled_from(sorted(CHALLENGES)),
    seed=st.integers(0, 10**6),
    players=st.integers(1, 4),
    strict=st.booleans(),
    crossing=st.booleans(),
    walk=st.randoms(use_true_random=False),
)
def test_seed_random_playouts_keep_every_invariant(
    name: str, seed: int, players: int, strict: bool, crossing: bool, walk: random.Random
) -> None:
    challenge = CHALLENGES[name]
    game = StratoGame(
        challenge, Options(strict_effect=strict, wind_crosses_tornado=crossing), seeded_deal(challenge, seed, players)
    )
    state = game.initial_state()
    total = sum(cards_in_play(state).values())
    discarded = 0
    for _ in range(60):
        plays = game.plays(state)
        if not plays:
            assert game.is_terminal(state)
            break
        moves = [m for m, _ in plays]
        assert len(set(moves)) == len(moves)  # each legal move is listed once
        move, after = walk.choice(plays)
        assert game.apply(state, move) == after
        check_step(game, state, move, after)
        discarded += sum(_discarded(state, move).values())
        assert sum(cards_in_play(after).values()) + discarded == total
        state = after
