"""Position and move notation (position.py, battlefield.py): round-trips over seeded playouts, the
examples of docs/formats.md, section 8, and malformed text raising NotationError."""

from __future__ import annotations

import random
import re

import pytest

from stratagem.core.errors import NotationError
from stratagem.models.cardclash.position import PASS, Move, State, format_move, format_state, parse_move, parse_state
from stratagem.models.cardclash.rules import CardClashGame
from tests.models.cardclash.support import DRAFT


def _playout_states(players: int, strategic: bool, seed: int) -> list[State]:
    game = CardClashGame(players, width=4, height=4, strategic=strategic, seed=seed)
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    while not game.is_terminal(state):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        states.append(state)
    return states


@pytest.mark.parametrize(("players", "strategic"), [(2, False), (2, True), (3, True), (6, False)])
def test_engine_position_notation_round_trips(players: int, strategic: bool) -> None:
    for seed in range(3):
        for state in _playout_states(players, strategic, seed):
            text = format_state(state)
            assert parse_state(text) == state
            assert format_state(parse_state(text)) == text


def test_engine_move_notation_round_trips() -> None:
    game = CardClashGame(2, width=4, height=4)
    rng = random.Random(3)
    state = game.initial_state()
    while not game.is_terminal(state):
        for move in game.legal_moves(state):
            assert game.parse_move(state, game.format_move(state, move)) == move
        state = game.apply(state, rng.choice(game.legal_moves(state)))


def test_engine_position_fields() -> None:
    state = parse_state("r6,b5/r2,. 2346,25BX 3B,44 1")
    assert [c.stack for c in state.board] == [("r6",), ("b5",), ("r2",)]
    assert state.hands == ("2346", "25BX") and state.piles == ("3B", "44") and state.to_move == 0
    full = parse_state("r2 -,- -,- 2 passes=1 out=r6b6 round=2 flags=1,0 won=1,2")
    assert (full.passes, full.removed, full.round, full.flags, full.winners) == (1, "r6b6", 2, (1, 0), (0, 1))


def test_engine_hands_are_stored_sorted() -> None:
    assert parse_state("r2 X64B,2 -,- 1").hands == ("46BX", "2")


def test_engine_move_fields() -> None:
    assert parse_move("r", "r6@0,-1") == Move("6", 0, -1)
    assert parse_move("r", "6@3,2") == Move("6", 3, 2)
    assert parse_move("r", "pass") == PASS
    assert format_move("b", Move("X", -1, 0)) == "bX@-1,0"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "r2 3 - 1",  # one player
        "r2 3,4 - 1",  # one pile for two hands
        "r2 3,4 -,- 3",  # no player 3
        "r2 3,4 -,- 0",
        "r2 3,Q -,- 1",
        "g2 3,4 -,- 1",  # green in a two-player game
        "r2 3,4 -,- 1 colour=red",
        "r2 3,4 -,- 1 passes=1 passes=1",
        "r2 3,4 -,- 1 flags=1",
        "r2 3,4 -,- 1 out=r",
        "r2 3,4 -,- 1 won=3",
        "r2,. 3,4 -,- 1",
    ],
)
def test_engine_malformed_position_raises(text: str) -> None:
    with pytest.raises(NotationError):
        parse_state(text)


@pytest.mark.parametrize("text", ["r6", "r6@", "r6@a,b", "b6@0,0", "rQ@0,0", "6 @0,0", "passes"])
def test_engine_malformed_move_raises(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move("r", text)


def _draft_examples() -> list[list[str]]:
    """The ``cardclash`` code blocks of the notation draft, as lists of lines."""
    text = DRAFT.read_text(encoding="utf-8")
    return [block.strip().splitlines() for block in re.findall(r"```cardclash\n(.*?)```", text, re.S)]


def test_engine_draft_examples_round_trip_and_replay() -> None:
    """Every block: ``position:`` (round-trips), then ``move:`` lines applied in turn, ``after:`` the result.
    ``options:`` (first line, optional) names ``strategic`` or ``WxH`` the moves are played under."""
    blocks = _draft_examples()
    assert len(blocks) >= 4
    for lines in blocks:
        strategic, width, height = False, 6, 6
        state: State | None = None
        game: CardClashGame | None = None
        for line in lines:
            key, _, value = line.partition(":")
            value = value.split("#")[0].strip()
            if key == "options":
                strategic = "strategic" in value
                size = re.search(r"(\d+)x(\d+)", value)
                if size:
                    width, height = int(size.group(1)), int(size.group(2))
            elif key == "position":
                state = parse_state(value)
                assert format_state(state) == value
                game = CardClashGame(state.players, width=width, height=height, strategic=strategic)
            elif key == "move":
                assert state is not None and game is not None
                move = game.parse_move(state, value)
                assert game.format_move(state, move) == value
                state = game.apply(state, move)
            elif key == "after":
                assert state is not None and format_state(state) == value
            else:
                raise AssertionError(f"unknown example line {line!r}")
