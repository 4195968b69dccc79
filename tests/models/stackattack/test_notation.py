"""Position and move notation: round trips, the draft's examples, malformed and impossible text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem.core.errors import NotationError
from stratagem.models.stackattack.notation import DEAL, KINDS, ROW_KINDS, Choice, format_move, parse_move
from stratagem.models.stackattack.position import State, format_state, parse_state
from stratagem.models.stackattack.rules import StackAttackGame

from .support import DRAFT, REPO

card_lists = st.lists(st.integers(1, 99), max_size=6).map(tuple)


@st.composite
def shapes(draw: st.DrawFn) -> State:
    """Well-formed text shapes (not necessarily legal positions) for the notation alone."""
    n = draw(st.integers(2, 6))
    state = State(
        rows=tuple(draw(card_lists) for _ in range(4)),
        hands=tuple(tuple(sorted(draw(card_lists))) for _ in range(n)),
        taken=tuple(tuple(sorted(draw(card_lists))) for _ in range(n)),
        scores=tuple(draw(st.integers(0, 99)) for _ in range(n)),
        round=draw(st.integers(1, 9)),
    )
    if draw(st.booleans()):
        state = state._replace(
            played=tuple(draw(st.integers(1, 64)) for _ in range(n)),
            activate=draw(card_lists),
            place=draw(card_lists),
            blocked=tuple(sorted(draw(st.sets(st.integers(0, 3))))),
        )
    return state


@settings(max_examples=100, deadline=None)
@given(shapes())
def test_engine_position_notation_round_trips(state: State) -> None:
    assert parse_state(format_state(state)) == state


@settings(max_examples=100, deadline=None)
@given(st.one_of(
    st.integers(1, 99),
    st.lists(st.integers(1, 99), min_size=2, max_size=6).map(tuple),
    st.builds(Choice, st.sampled_from(ROW_KINDS), st.integers(0, 3)),
    st.builds(Choice, st.sampled_from([k for k in KINDS if k not in ROW_KINDS]), st.integers(1, 64)),
))
def test_engine_move_notation_round_trips(move: int | tuple[int, ...] | Choice) -> None:
    assert parse_move(format_move(move)) == move


def _examples(kind: str) -> list[str]:
    text = DRAFT.read_text()
    blocks = re.findall(rf"```{kind}\n(.*?)```", text, re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_engine_draft_position_examples_round_trip_and_are_legal() -> None:
    examples = _examples("position")
    assert len(examples) >= 5
    game = StackAttackGame(2)
    for text in examples:
        state = game.parse_state(text)  # checked against the default deck
        assert format_state(state) == text


def test_engine_draft_move_examples_round_trip() -> None:
    examples = _examples("move")
    assert len(examples) >= 5
    for text in examples:
        assert format_move(parse_move(text)) == text
    assert parse_move("D37") == Choice(DEAL, 37)
    assert parse_move("T2") == Choice("T", 1)  # rows are 1-based in the notation


@pytest.mark.parametrize("text", [
    "12/28/47/63 50.51/30.31 -/- 0/0",             # a field missing
    "12/28/47/63 50.x/30.31 -/- 0/0 1",            # not a number
    "12/28/47/63 50.51/30.31 -/- 0/a 1",           # bad score
    "12/28/47/63 50.51/30.31 -/- 0/0 0",           # round 0
    "12/28/47/63 9/51 -/- 0/0 1 3/50 *- =3.50 #-",  # turn field without its mark
    "12/28/47/63 50.051/30.31 -/- 0/0 1",          # leading zero
])
def test_engine_malformed_position_raises(text: str) -> None:
    with pytest.raises(NotationError):
        parse_state(text)


@pytest.mark.parametrize(("text", "problem"), [
    ("12/28/47 50.51/30.31 -/- 0/0 1", "rows"),
    ("12/28/47/63 50.51 - 0 1", "2 to 6"),
    ("12/28/47/63 50.51/30.12 -/- 0/0 1", "twice"),
    ("12/28/47/65 50.51/30.31 -/- 0/0 1", "not in the deck"),
    ("12/28/47/63 50.51/30 -/- 0/0 1", "as many cards"),
    ("1.2.3.4.5.6/28/47/63 50/30 -/- 0/0 1", "Shield"),
    ("12/28/47/63 9/51 -/- 0/0 1 >12/28 *- =- #-", "nothing left"),
    ("12/28/47/63 9/51 -/- 0/0 1 >3/50 *3 =3.50 #-", "no action"),
    ("-/28/47/63 9/51 1/- 0/0 1", "dealt"),
])
def test_engine_impossible_position_raises(text: str, problem: str) -> None:
    with pytest.raises(NotationError, match=problem):
        StackAttackGame(2).parse_state(text)


@pytest.mark.parametrize("text", ["", "X3", "T0", "3,,4", "T", "-2"])
def test_engine_malformed_move_raises(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move(text)


def test_engine_rules_document_names_only_existing_tests() -> None:
    doc = (REPO / "docs" / "rules" / "stackattack.md").read_text()
    here = REPO / "tests" / "models" / "stackattack"
    names = re.findall(r"`([a-z_]+)::(test_[a-z0-9_*]+)`", doc)
    assert len(names) > 30
    for module, name in names:
        source = (here / f"test_{module}.py").read_text()
        pattern = re.escape(name).replace(r"\*", r"\w*")
        assert re.search(rf"def {pattern}\(", source), f"{module}::{name}"


@pytest.mark.parametrize(("start", "line", "end"), [
    ("12/28/47/63 50.51/30.31 -/- 0/0 1", ["50,30", "51,31"], "12/28.30.31/47.50.51/63 -/- -/- 0/0 1"),
    ("10/20.21/30/41 3.9/50.51 -/- 0/0 1", ["3,50", "T2", "9,51"], "10/3.9/30/41.50.51 -/- 20.21/- 0/0 1"),
])
def test_engine_draft_line_examples_replay(start: str, line: list[str], end: str) -> None:
    # The lines quoted in docs/drafts/formats-stackattack.md ("A line is a list of moves").
    draft = DRAFT.read_text()
    assert all(f"`{move}`" in draft for move in line)
    state = StackAttackGame(2).parse_state(start)
    game = StackAttackGame(2, start=state)
    for move in line:
        state = game.apply(state, game.parse_move(state, move))
        assert game.format_move(state, parse_move(move)) == move
    assert format_state(state) == end
