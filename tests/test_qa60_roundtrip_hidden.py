"""Property-based round trips of Strato's hidden-pile notation (QA 60; docs/formats.md 4.10): positions
reached by random play (draws, Redraw announcements, reveals and target choices included) from the shipped
puzzles' deals and seeded deals of 1 to 4 players print to one canonical line that reads back, every
decision and chance outcome has its own text that reads back, and near-miss text is a NotationError or a
position whose text is a fixed point. The phase's details are read as written: int() took '٣L', '+1L' and
'draw 1_0' for 3L, 1L and 10 (printed back as other text), and '0L' (row -1), 'draw -1', a revealed card
'Q' and a last weather 'Q' were read as positions."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.core.errors import IllegalMove, NotationError
from stratagem.loading import StratoDeal, load
from stratagem.models.strato.hidden.game import HiddenState, HiddenStrato, format_hidden, parse_hidden, parse_play
from stratagem.models.strato.rules.notation import Move
from tests.test_qa60_roundtrip_notation import _canonical_line, _foreign_digit, mutated

ROOT = Path(__file__).resolve().parent.parent
STRATO = tuple(sorted(str(p.relative_to(ROOT)) for p in (ROOT / "puzzles" / "strato").glob("*.toml")))
RUNS = settings(deadline=None, derandomize=True, max_examples=120,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@functools.cache
def _game(path: str, seed: int | None, players: int | None) -> HiddenStrato:
    deal = load(ROOT / path, deal=seed, players=players)
    assert isinstance(deal, StratoDeal)
    return HiddenStrato(deal.challenge, deal.game.options, deal.start)


def _options(game: HiddenStrato, state: HiddenState) -> list[Move | str]:
    chance = game.chance_outcomes(state)
    return [outcome for outcome, _ in chance] if chance else [*game.legal_moves(state)]


@st.composite
def games_and_states(draw: st.DrawFn) -> tuple[HiddenStrato, HiddenState]:
    """A hidden-pile game and a state reached by up to 60 random moves and draws from its start."""
    path = draw(st.sampled_from(STRATO))
    if draw(st.booleans()):
        game = _game(path, None, None)
    else:
        game = _game(path, draw(st.integers(0, 2**31)), draw(st.integers(1, 4)))
    state = game.initial_state()
    for choice in draw(st.lists(st.integers(0, 2**16), max_size=60)):
        if game.is_terminal(state):
            break
        options = _options(game, state)
        state = game.apply(state, options[choice % len(options)])
    return game, state


@RUNS
@given(games_and_states())
def test_a_hidden_position_prints_to_canonical_text_that_reads_back(case: tuple[HiddenStrato, HiddenState]) -> None:
    game, state = case
    text = game.format_state(state)
    assert _canonical_line(text), text
    assert parse_hidden(text) == state and format_hidden(parse_hidden(text)) == text


@RUNS
@given(games_and_states())
def test_every_hidden_decision_and_draw_has_its_own_text_that_reads_back(case: tuple[HiddenStrato,
                                                                                     HiddenState]) -> None:
    game, state = case
    if game.is_terminal(state):
        return
    options = _options(game, state)
    texts = [game.format_move(state, move) for move in options]
    assert len(set(texts)) == len(texts), texts
    for move, text in zip(options, texts, strict=True):
        assert text.isascii() and " " not in text, text
        assert game.parse_move(state, text) == move, (format_hidden(state), text)
        if not game.chance_outcomes(state):
            parse_play(text)  # the syntax alone reads it too


@RUNS
@given(st.data(), games_and_states())
def test_near_miss_hidden_text_is_refused_or_read_canonically(data: st.DataObject,
                                                              case: tuple[HiddenStrato, HiddenState]) -> None:
    game, state = case
    text = data.draw(mutated(format_hidden(state)))
    try:
        read = parse_hidden(text)
    except NotationError as exc:
        assert "\n" not in str(exc)
    else:
        assert not _foreign_digit(text), text
        again = format_hidden(read)
        assert _canonical_line(again) and parse_hidden(again) == read, (text, again)
    if not game.is_terminal(state):
        options = _options(game, state)
        move = options[data.draw(st.integers(0, len(options) - 1))]
        text = data.draw(mutated(game.format_move(state, move)))
        try:
            parsed = game.parse_move(state, text)
        except (NotationError, IllegalMove):
            return
        assert not _foreign_digit(text), text
        assert parsed in options


@pytest.mark.parametrize("details", ["reveal ٣L", "reveal +1L", "reveal 0L", "reveal 1X", "reveal 10L",
                                     "target 1L Q", "target 1L SS", "target ٢R S", "draw -1", "draw ٣",
                                     "draw 1_0", "draw 0", "draw 99999999999999999999", "draw +2"])
def test_a_phase_detail_is_read_as_written(details: str) -> None:
    with pytest.raises(NotationError, match="needs its details|printable ASCII"):
        parse_hidden(f"RW(RW)RW RRW {{RRWWW}} 1 - {details}")


@pytest.mark.parametrize("last", ["Q", "C", "RW"])
def test_the_last_weather_of_a_hidden_position_is_checked_as_in_the_open_notation(last: str) -> None:
    with pytest.raises(NotationError, match="last resolved weather"):
        parse_hidden(f"RW(RW)RW RRW {{RRWWW}} 1 {last} play")


@pytest.mark.parametrize("text", ["RW(RW)RW RRW {RRWWW} 1 - reveal 1L", "RW(RW)RW RRW {RRWWW} 1 S target 2R C",
                                  "RW(RW)RW RRW {RRWWW} 1 - draw 3", "RW(RW)RW RRW {RRWWW} 1 W draw 1 lost"])
def test_every_phase_written_as_documented_still_reads_back(text: str) -> None:
    assert format_hidden(parse_hidden(text)) == text
