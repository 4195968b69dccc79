"""Row, position and move notation (docs/rules/strato.md "Suggested notation"; position.py, notation.py):
round-trips over random values, and malformed text raising NotationError with a message."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem.core.errors import NotationError
from stratagem.models.strato.rules.cards import WEATHERS
from stratagem.models.strato.rules.notation import Move, format_move, parse_move
from stratagem.models.strato.rules.position import (
    LEFT,
    LOST,
    ONGOING,
    RIGHT,
    WON,
    Coord,
    Row,
    State,
    format_coord,
    format_row,
    format_rows,
    format_state,
    parse_coord,
    parse_row,
    parse_rows,
    parse_state,
)

weather = st.sampled_from(WEATHERS)
cards = st.text(alphabet=WEATHERS, max_size=9)
rows = st.builds(Row, weather, weather, cards, cards)
row_tuples = st.lists(rows, min_size=1, max_size=3).map(tuple)
hands = st.lists(cards.map(lambda h: "".join(sorted(h))), min_size=1, max_size=4).map(tuple)


@st.composite
def states(draw: st.DrawFn) -> State:
    hs = draw(hands)
    return State(
        rows=draw(row_tuples),
        hands=hs,
        pile=draw(st.text(alphabet=WEATHERS, max_size=30)),
        to_move=draw(st.integers(0, len(hs) - 1)),
        last=draw(st.sampled_from(("", "W", "R", "S", "F", "T"))),
        status=draw(st.sampled_from((ONGOING, WON, LOST))),
    )


coords = st.builds(Coord, st.integers(0, 8), st.sampled_from((LEFT, RIGHT)), st.integers(0, 98))


@st.composite
def moves(draw: st.DrawFn) -> Move:
    target = tuple(draw(st.lists(coords, max_size=2)))
    return Move(
        card=draw(weather),
        row=draw(st.integers(0, 8)),
        end=draw(st.sampled_from((LEFT, RIGHT))),
        target=target,
        redraw=draw(st.booleans()),
        exchange=len(target) == 2 and draw(st.booleans()),
    )


# --- round-trips ---------------------------------------------------------------------------------------


@settings(max_examples=200)
@given(rows)
def test_ruling_row_notation_round_trips(row: Row) -> None:
    assert parse_row(format_row(row)) == row


@settings(max_examples=100)
@given(row_tuples)
def test_ruling_rows_notation_round_trips(value: tuple[Row, ...]) -> None:
    assert parse_rows(format_rows(value)) == value


@settings(max_examples=200)
@given(states())
def test_engine_position_notation_round_trips(state: State) -> None:
    assert parse_state(format_state(state)) == state


@settings(max_examples=200)
@given(moves())
def test_engine_move_notation_round_trips(move: Move) -> None:
    assert parse_move(format_move(move)) == move


@settings(max_examples=100)
@given(coords)
def test_engine_place_notation_round_trips(coord: Coord) -> None:
    assert parse_coord(format_coord(coord)) == coord


# --- what the notation means -------------------------------------------------------------------------------


def test_ruling_row_reads_left_to_right_as_on_the_table() -> None:
    row = parse_row("SF(RW)TC")
    # Half-rows are stored outward from their tornado: F touches the rain tornado, T the wind tornado.
    assert row == Row("R", "W", "FS", "TC")
    assert format_row(row) == "SF(RW)TC"
    assert str(Coord(0, LEFT, 0)) == "1L1" and row.left[0] == "F"


def test_engine_position_fields() -> None:
    state = parse_state("RW(RW)RW/(ST) RRW,-,WS WRWR 3 F won")
    assert state.hands == ("RRW", "", "SW")  # hands are kept sorted
    assert (state.pile, state.to_move, state.last, state.status) == ("WRWR", 2, "F", WON)
    assert format_state(state) == "RW(RW)RW/(ST) RRW,-,SW WRWR 3 F won"
    assert format_state(parse_state("(RW) - - 1 -")) == "(RW) - - 1 -"


def test_engine_move_fields() -> None:
    assert parse_move("W1R:1R2>1R1") == Move("W", 0, RIGHT, (Coord(0, RIGHT, 1), Coord(0, RIGHT, 0)))
    assert parse_move("!S2L:2R1") == Move("S", 1, LEFT, (Coord(1, RIGHT, 0),), redraw=True)
    assert parse_move("F3R:1L1<>2L1").exchange
    assert parse_move("R1L") == Move("R", 0, LEFT)


# --- malformed text ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("RW(R)RW", "not of the form LEFT"),
        ("RWRW", "not of the form LEFT"),
        ("rw(rw)rw", "not of the form LEFT"),
        ("RW(RW)RX", "unknown weather letter 'X'"),
        ("RW(RW)R W", "not of the form LEFT"),
    ],
)
def test_engine_malformed_row_raises(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_row(text)


@pytest.mark.parametrize("text", ["", "  ", "RW(RW)RW/", "RW(RW)RW//(ST)"])
def test_engine_malformed_rows_raise(text: str) -> None:
    with pytest.raises(NotationError):
        parse_rows(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("RW(RW)RW RRW WRWR 1", "5 or 6 fields"),
        ("RW(RW)RW RRW WRWR 1 - won extra", "5 or 6 fields"),
        ("RW(RW)RW RRW WRWR 0 -", "from 1 to 1"),
        ("RW(RW)RW RRW,WW WRWR 3 -", "from 1 to 2"),
        ("RW(RW)RW RRW WRWR x -", "player to move"),
        ("RW(RW)RW RRW WRWR 1 C", "last resolved weather"),
        ("RW(RW)RW RRW WRWR 1 X", "last resolved weather"),
        ("RW(RW)RW RRW WRWR 1 - draw", "'won' or 'lost'"),
        ("RW(RW)RW RXW WRWR 1 -", "unknown weather letter 'X' in hand"),
        ("RW(RW)RW RRW WRQR 1 -", "unknown weather letter 'Q' in draw pile"),
        ("RW(XW)RW RRW WRWR 1 -", "unknown weather letter 'X'"),
        ("RW(RW)RW R,R,R,R,R WRWR 1 -", "5 hands: Strato is played by 1 to 4 players"),
    ],
)
def test_engine_malformed_position_raises(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_state(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("W1X", "not of the form"),
        ("W0L", "not of the form"),
        ("w1L", "not of the form"),
        ("X1L", "unknown weather letter 'X'"),
        ("W1L:", "not of the form"),
        ("W1L:1L1>1L2>1L3", "must be A, A>B or A<>B"),
        ("W1L:1L1>", "must be A, A>B or A<>B"),
        ("W1L:1Q1", "place '1Q1' is not ROW SIDE DISTANCE"),
        ("W1L:1L0", "place '1L0'"),
        ("W1L:1L1<1L2", "not ROW SIDE DISTANCE"),
        ("!!W1L", "not of the form"),
    ],
)
def test_engine_malformed_move_raises(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_move(text)


@settings(max_examples=300)
@given(st.text(alphabet="WRSFCTX!:<>()/LR0123456789 -,", max_size=20))
def test_engine_parsers_raise_only_notation_errors(text: str) -> None:
    for parse in (parse_row, parse_rows, parse_state, parse_move, parse_coord):
        with contextlib.suppress(NotationError):
            parse(text)
