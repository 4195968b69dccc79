"""Notation of cards, plays, moves and positions: round trips, fields, errors, and the examples of
docs/formats.md, section 6."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem.core.errors import IllegalMove, NotationError
from stratagem.core.game import CHANCE
from stratagem.models.stratatak.cards import Options, format_cards, parse_cards
from stratagem.models.stratatak.position import State, format_state, parse_state
from stratagem.models.stratatak.rules import StratatakGame, deal
from tests.docsection import FormatsSection

GAME = StratatakGame()
DRAFT = FormatsSection("## 6. Stratatak notation")


def random_states(seed: int, game: StratatakGame, count: int) -> list[State]:
    """States met along a seeded random playout (every phase shows up)."""
    rng = random.Random(seed)
    state = deal(game.options, rng)
    out = [state]
    while len(out) < count:
        if game.is_terminal(state):
            state = deal(game.options, rng)
        elif game.to_move(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            state = game.apply(state, rng.choice(outcomes)[0])
        else:
            state = game.apply(state, rng.choice(list(game.legal_moves(state))))
        out.append(state)
    return out


def test_engine_card_notation_round_trips() -> None:
    for text in ["B1", "R10", "*", "B3B4*", "G9G9R9B9**"]:
        cards = parse_cards(text)
        assert parse_cards(format_cards(cards)) == cards
    assert parse_cards("*B4B3") == ("B3", "B4", "*")  # any order; stored sorted
    assert format_cards(()) == "-" and parse_cards("-") == ()


@pytest.mark.parametrize("bad", ["", "B", "X3", "B0", "B03", "b3", "B3 B4", "B3,B4", "**x"])
def test_engine_malformed_cards_raise(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_cards(bad)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([7, 3]))
def test_engine_position_notation_round_trips_on_random_states(seed: int, hand_size: int) -> None:
    game = StratatakGame(Options(hand_size=hand_size))
    for state in random_states(seed, game, 40):
        text = format_state(state)
        assert parse_state(text) == state
        assert game.parse_state(text) == state  # and the position passes the checks


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_engine_move_notation_round_trips_on_random_states(seed: int) -> None:
    game = StratatakGame(Options(hand_size=3))
    for state in random_states(seed, game, 30):
        if game.is_terminal(state):
            continue
        chance = game.to_move(state) == CHANCE
        moves = [o for o, _ in game.chance_outcomes(state)] if chance else list(game.legal_moves(state))
        for move in moves:
            assert game.parse_move(state, game.format_move(state, move)) == move


def test_engine_position_fields() -> None:
    state = GAME.parse_state("B3B4*,R7G7 B1R2{G3*} R5R5 B9 D2")
    assert state.hands == (("B3", "B4", "*"), ("R7", "G7"))
    assert state.pile == ("B1", "R2") and state.shuffled == ("G3", "*")
    assert state.discard == ("R5", "R5") and state.table == ("B9",)
    assert state.attacker == 0 and state.defender == 1 and GAME.to_move(state) == 1


def test_engine_draw_pile_keeps_its_order() -> None:
    assert parse_state("B1,R1 G2B1 - - A1").pile == ("G2", "B1")
    assert format_state(parse_state("B1,R1 G2B1 - - A1")) == "B1,R1 G2B1 - - A1"


@pytest.mark.parametrize(
    "bad",
    ["B1,R1 - - -", "B1 - - - A1", "B1,R1,G1 - - - A1", "B1,R1 - - - Z1", "B1,R1 - - - A3",
     "B1,R1 G1 - - A1 6", "B1,R1 G1 - - A1 b", "B1,R1 {} - - A1",
     "B1,R1 G1{G2 - - A1", "B1,R1 ?x - - A1", "B1,R1 ?2 - - A1"],
)  # fmt: skip
def test_engine_malformed_position_raises(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_state(bad)


def test_engine_chance_moves_are_marked_with_a_plus() -> None:
    game = StratatakGame(Options(hand_size=3))
    state = game.parse_state("B9,G1 {R1***} - - C2")
    assert game.format_move(state, ("*",)) == "+*"
    assert game.parse_move(state, "+R1") == ("R1",)
    with pytest.raises(NotationError):
        game.parse_move(state, "R1")
    with pytest.raises(IllegalMove):
        game.parse_move(state, "+G9")
    with pytest.raises(IllegalMove):
        GAME.parse_move(GAME.parse_state("B1,R1 G1 - - A1"), "+B1")


def _draft_examples() -> list[tuple[str, str]]:
    """``position:`` and ``move:`` examples of the draft: lines like ``- position `...` `` in code spans."""
    text = DRAFT.read_text(encoding="utf-8")
    return re.findall(r"<!-- (position|setup3|tiny) -->\s*`([^`]+)`", text)


def test_engine_every_example_of_the_formats_draft_round_trips() -> None:
    examples = _draft_examples()
    assert len(examples) >= 5
    for kind, text in examples:
        game = {"setup3": StratatakGame(Options(hand_size=3)),
                "tiny": StratatakGame(Options(max_count=2, copies=1, stars=1, hand_size=2))}.get(
            kind, StratatakGame(Options(battle_limit=6)) if " b" in text else GAME)  # bN: only under a limit
        state = game.parse_state(text)
        assert game.format_state(state) == text
