"""Property-based round trips of the small values the records and the command line spell in text (QA 60):
exact fractions (``fraction_text`` / ``parse_fraction``), seed ranges (``--seeds A..B``), seeds
(``--seed``) and agent specs (``name:key=value``, ``canonical_agent_spec``). Each value prints to text that
reads back to it, near-miss text is refused with the reader's own error, and digits are ASCII: '٣/4' was
read as 3/4, ``--seeds ٣..٥`` and ``1_0..2_0`` as 3..5 and 10..20, and an agent parameter '٣' as 3
(spelt back as another text); ``views.policy`` read a deal 'seed-٣' as seed 3."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.cli.seeds import SEED
from stratagem.core.errors import BadInput
from stratagem.core.io import MAX_SEED
from stratagem.core.records import fraction_text, parse_fraction
from stratagem.solvers.agents import AgentError, canonical_agent_spec, parse_agent_spec
from stratagem.sweep import parse_seeds
from stratagem.sweeprecords import MAX_TASKS
from tests.test_qa60_roundtrip_notation import _foreign_digit, mutated

ROOT = Path(__file__).resolve().parent.parent
RUNS = settings(deadline=None, derandomize=True, max_examples=200,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

fractions = st.fractions(max_denominator=10**30).filter(lambda x: abs(x.numerator) < 10**300)


@RUNS
@given(fractions)
def test_a_fraction_prints_as_p_over_q_and_reads_back(value: Fraction) -> None:
    text = fraction_text(value)
    assert text == f"{value.numerator}/{value.denominator}" and text.isascii()
    assert parse_fraction(text, "r.json", "value") == value
    assert parse_fraction(str(value.numerator), "r.json", "value") == value.numerator


@RUNS
@given(st.data(), fractions)
def test_near_miss_fraction_text_is_bad_input_or_a_fraction(data: st.DataObject, value: Fraction) -> None:
    text = data.draw(mutated(fraction_text(value)))
    try:
        read = parse_fraction(text, "r.json", "value")
    except BadInput as exc:
        assert exc.line().startswith("r.json: value: ") and "\n" not in exc.line()
        return
    assert not _foreign_digit(text) and text.isascii(), text
    assert parse_fraction(fraction_text(read), "r.json", "value") == read


@st.composite
def seed_ranges(draw: st.DrawFn) -> range:
    first = draw(st.integers(0, MAX_SEED))
    last = draw(st.integers(first, min(MAX_SEED, first + MAX_TASKS - 1)))
    return range(first, last + 1)


@RUNS
@given(seed_ranges())
def test_a_seed_range_prints_as_a_dot_dot_b_and_reads_back(seeds: range) -> None:
    assert parse_seeds(f"{seeds[0]}..{seeds[-1]}") == seeds
    assert SEED.convert(str(seeds[0]), None, None) == seeds[0]


@RUNS
@given(st.data(), seed_ranges())
def test_near_miss_seed_text_is_refused_with_its_own_error_or_read(data: st.DataObject, seeds: range) -> None:
    text = data.draw(mutated(f"{seeds[0]}..{seeds[-1]}"))
    try:
        read = parse_seeds(text)
    except ValueError as exc:
        assert "\n" not in str(exc)
    else:
        assert not _foreign_digit(text) and "_" not in text, text
        assert parse_seeds(f"{read[0]}..{read[-1]}") == read
    seed = data.draw(mutated(str(seeds[0])))
    try:
        value = SEED.convert(seed, None, None)
    except click.BadParameter:
        return
    assert not _foreign_digit(seed) and SEED.convert(str(value), None, None) == value


words = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz_"), min_size=1, max_size=8)
parameter_values = (st.integers(-10**6, 10**6) | st.floats(-1e6, 1e6, allow_nan=False) | st.booleans() | st.none()
                    | words)


def _spelt(value: object) -> str:
    """A parameter's value as someone types it: true, false, none, a number, a word."""
    if value is None or isinstance(value, bool):
        return {True: "true", False: "false", None: "none"}[value]
    return repr(value) if isinstance(value, int | float) else str(value)


@RUNS
@given(words, st.dictionaries(words, parameter_values, max_size=4))
def test_an_agent_spec_has_one_canonical_spelling_that_reads_back(name: str, params: dict[str, object]) -> None:
    spec = ":".join([name, *(f"{key}={_spelt(value)}" for key, value in params.items())])
    read_name, read = parse_agent_spec(spec)
    assert read_name == name and read.keys() == params.keys()
    canonical = canonical_agent_spec(spec)
    assert canonical_agent_spec(canonical) == canonical
    assert parse_agent_spec(canonical) == (name, read)  # 1.0 and 1 read alike (time_limit=1.0 is time_limit=1)
    reordered = ":".join([name, *reversed(spec.split(":")[1:])])
    assert canonical_agent_spec(reordered) == canonical


@RUNS
@given(st.data(), words, st.dictionaries(words, st.integers(0, 10**6), min_size=1, max_size=3))
def test_near_miss_agent_specs_are_agent_errors_or_read_as_written(data: st.DataObject, name: str,
                                                                   params: dict[str, int]) -> None:
    spec = data.draw(mutated(":".join([name, *(f"{key}={value}" for key, value in params.items())])))
    try:
        _, read = parse_agent_spec(spec)
    except AgentError as exc:
        assert "\n" not in str(exc)
        return
    for value in read.values():
        assert not (isinstance(value, int) and _foreign_digit(spec) and str(value) not in spec), spec


@pytest.mark.parametrize("text", ["٣/4", "3/٤", "１", "-٣"])
def test_a_fraction_in_other_digits_is_bad_input(text: str) -> None:
    with pytest.raises(BadInput, match="expected an exact fraction"):
        parse_fraction(text, "r.json", "value")


@pytest.mark.parametrize("text", ["٣..٥", "0..١", "1_0..2_0", "+1..2", "0..1_0"])
def test_a_seed_range_in_other_digits_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="is not a seed range A..B"):
        parse_seeds(text)


def test_an_agent_parameter_in_other_digits_is_a_word_not_a_number() -> None:
    assert parse_agent_spec("mcts:iterations=٣") == ("mcts", {"iterations": "٣"})
    assert canonical_agent_spec("mcts:iterations=٣") == "mcts:iterations=٣"
    assert parse_agent_spec("mcts:iterations=3:c=0.5") == ("mcts", {"iterations": 3, "c": 0.5})


def test_an_odds_page_reads_a_seeded_deal_in_ascii_digits_only() -> None:
    from stratagem.loading import StratoDeal, load
    from stratagem.models.strato.hidden.game import format_hidden, hide
    from stratagem.views.policy import odds_start

    puzzle = str(ROOT / "puzzles" / "strato" / "challenge-0.toml")
    deal = load(puzzle, deal=3)
    assert isinstance(deal, StratoDeal)
    report = {"puzzle": puzzle, "deal": "seed-3", "start": format_hidden(hide(deal.start))}
    assert odds_start(report, "o.json")[1] == hide(deal.start)
    with pytest.raises(BadInput):  # was read as seed 3
        odds_start({**report, "deal": "seed-٣"}, "o.json")
