"""Move and position notation (notation.py, docs/formats.md, section 5): round-trips over random values,
every example of the draft, and malformed text raising NotationError."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratagem.core.errors import NotationError
from stratagem.core.io import Section
from stratagem.models.stakd.notation import (
    format_hand,
    format_move,
    format_state,
    parse_hand,
    parse_move,
    parse_state,
)
from stratagem.models.stakd.pieces import KINDS
from stratagem.models.stakd.position import Move, Piece, State
from stratagem.models.stakd.puzzle import checked_game

from .support import DRAFT

coords = st.tuples(st.integers(0, 40), st.integers(0, 40))
orients = st.sampled_from(["", "h", "v"])
kinds = st.sampled_from(KINDS)
hands = st.tuples(*[st.integers(0, 20)] * len(KINDS))


@st.composite
def states(draw: st.DrawFn) -> State:
    n = draw(st.integers(1, 6))
    piece = st.builds(Piece, kinds, coords, orients, st.integers(0, n - 1))
    layers = draw(st.lists(st.lists(piece, min_size=1, max_size=5).map(tuple), max_size=4).map(tuple))
    out = draw(st.lists(st.booleans(), min_size=n, max_size=n).map(tuple))
    return State(layers, tuple(draw(hands) for _ in range(n)), draw(st.integers(0, n - 1)), out)


@given(kinds, coords, orients)
def test_engine_move_notation_round_trips(kind: str, anchor: tuple[int, int], orient: str) -> None:
    move = Move(kind, anchor, orient, -1)
    assert parse_move(format_move(move)) == move


@given(hands)
def test_engine_hand_notation_round_trips(hand: tuple[int, ...]) -> None:
    assert parse_hand(format_hand(hand)) == hand


@given(states())
def test_engine_position_notation_round_trips(state: State) -> None:
    assert parse_state(format_state(state)) == state


def test_engine_notation_fields() -> None:
    assert format_move(Move("D", (3, 4), "h", 1)) == "D@3,4h"
    assert format_move(Move("U", (2, 1), "", 1)) == "U@2,1"
    state = parse_state("1B@3,1h;1B@0,0h/1D@3,1h B1U2,-,X3 2 out:3")
    assert state.layers[1] == (Piece("D", (3, 1), "h", 0),)
    assert state.hands == ((1, 0, 0, 0, 2, 0), (0,) * 6, (0, 0, 0, 0, 0, 3))
    assert state.to_move == 1 and state.out == (False, False, True)
    assert format_hand((2, 4, 6, 10, 16, 1)) == "B2Q4T6D10U16X1"
    assert parse_hand("U16B2") == parse_hand("B2U16")  # any order is read


@pytest.mark.parametrize(
    "text",
    ["", "D3,4h", "D@3;4h", "Z@1,1", "D@-1,2h", "D@1,2H", "D@a,2h"],
)
def test_engine_malformed_move_raises(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "- B2 1 out:1 extra",
        "- B2 0",
        "- B2 2",
        "- B2X 1",
        "- B2B1 1",
        "- B2,B2,B2,B2,B2,B2,B2 1",
        "1B@3,1h// B1 1",
        "3B@3,1h B1,B1 1",
        "0B@3,1h B1 1",
        "- B1 1 gone:1",
        "- B1 1 out:2",
        "B@3,1h B1 1",
    ],
)
def test_engine_malformed_position_raises(text: str) -> None:
    with pytest.raises(NotationError):
        parse_state(text)


def _draft_examples() -> tuple[list[str], list[str]]:
    text = DRAFT.read_text(encoding="utf-8")
    positions = re.findall(r"^position: `([^`]+)`", text, re.M)
    moves = re.findall(r"^move: `([^`]+)`", text, re.M)
    return positions, moves


def test_engine_every_example_of_the_formats_draft_round_trips() -> None:
    positions, moves = _draft_examples()
    assert positions and moves
    for text in positions:
        state = parse_state(text)
        assert format_state(state) == text
        checked_game(state, Section({}, "draft"), "draft", "example")  # a legal structure too
    for text in moves:
        assert format_move(parse_move(text)) == text
