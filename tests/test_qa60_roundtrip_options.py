"""Property-based round trips of the command line's number options (QA 60): every whole-number option of
every command, ``--time-limit`` and ``--seed`` read a value written in ASCII back to it, and refuse
near-miss text with click's usage error. click reads integers with ``int()`` and the time limit was read
with ``float()``, which also take other scripts' digits and underscores: ``--max-nodes ٣٠٠٠``,
``--players ٢``, ``--count 1_0`` and ``--time-limit ١٠`` were read as 3000, 2, 10 and 10 s, where every
seed and notation refuses them."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.cli.limits import TIME_LIMIT, WholeRange
from stratagem.cli.main import cli, run
from stratagem.cli.seeds import SEED
from tests.test_qa60_roundtrip_notation import _foreign_digit, mutated

ROOT = Path(__file__).resolve().parent.parent
RUNS = settings(deadline=None, derandomize=True, max_examples=150,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _whole_options() -> list[tuple[str, click.Parameter]]:
    """Every option of every command whose value is a whole number in a range."""
    context = click.Context(cli)
    found = []
    for name in cli.list_commands(context):
        command = cli.get_command(context, name)
        assert command is not None
        found += [(f"{name} {param.opts[0]}", param) for param in command.params
                  if isinstance(param.type, click.IntRange)]
    return found


WHOLE = _whole_options()


def test_every_whole_number_option_reads_ascii_digits_only() -> None:
    assert len(WHOLE) > 15
    for where, param in WHOLE:
        assert isinstance(param.type, WholeRange), where
        with pytest.raises(click.BadParameter):
            param.type.convert("٣", param, None)


@RUNS
@given(st.data(), st.sampled_from(WHOLE))
def test_a_whole_number_option_reads_its_value_back_and_refuses_near_misses(data: st.DataObject,
                                                                           option: tuple[str, click.Parameter]) -> None:
    where, param = option
    kind: Any = param.type  # an IntRange (WHOLE holds no other); click types convert for the value, not text
    low = int(kind.min) if kind.min is not None else 0
    high = int(kind.max) if kind.max is not None else low + 10**9
    value = data.draw(st.integers(low, high))
    assert kind.convert(str(value), param, None) == value
    text = data.draw(mutated(str(value)))
    try:
        read = kind.convert(text, param, None)
    except click.BadParameter as exc:
        assert "\n" not in exc.format_message()
        return
    assert not _foreign_digit(text) and "_" not in text, (where, text)
    assert kind.convert(str(read), param, None) == read


@RUNS
@given(st.data(), st.floats(min_value=1e-6, max_value=1e9))
def test_a_time_limit_reads_its_value_back_and_refuses_near_misses(data: st.DataObject, seconds: float) -> None:
    assert TIME_LIMIT.convert(repr(seconds), None, None) == seconds
    text = data.draw(mutated(repr(seconds)))
    try:
        read = TIME_LIMIT.convert(text, None, None)
    except click.BadParameter:
        return
    assert not _foreign_digit(text) and "_" not in text, text
    assert math.isfinite(read) and read > 0 and TIME_LIMIT.convert(repr(read), None, None) == read


@RUNS
@given(st.integers(0, 2**63 - 1))
def test_a_seed_reads_its_value_back(seed: int) -> None:
    assert SEED.convert(str(seed), None, None) == seed


@pytest.mark.parametrize("args", [
    ["analyze", "cardclash/square-in-3.toml", "--max-nodes", "٣٠٠٠"],
    ["analyze", "cardclash/square-in-3.toml", "--time-limit", "١٠"],
    ["solve", "strato/challenge-0.toml", "--deal", "3", "--players", "٢"],
    ["sweep", "strato/challenge-0.toml", "--count", "1_0", "--workers", "0", "--out", "{out}"],
    ["analyze", "cardclash/square-in-3.toml", "--time-limit", "1_0"],
])
def test_an_option_in_other_digits_is_a_usage_error(args: list[str], tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    args = [args[0], str(ROOT / "puzzles" / args[1]), *(a.format(out=tmp_path / "r.jsonl") for a in args[2:])]
    assert run(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and ("is not a valid integer" in err[0] or "is not a number of seconds" in err[0]), err


@RUNS
@given(st.lists(st.integers(1, 4), min_size=1, max_size=4, unique=True), st.data())
def test_a_list_of_player_counts_reads_back_and_refuses_near_misses(counts: list[int], data: st.DataObject) -> None:
    from stratagem.cli.options import player_counts

    text = ",".join(map(str, counts))
    assert player_counts(text, most=4) == tuple(counts)
    near = data.draw(mutated(text))
    try:
        read = player_counts(near, most=4)
    except click.BadParameter as exc:
        assert "\n" not in exc.format_message() and len(exc.format_message()) < 200
        return
    assert not _foreign_digit(near) and "_" not in near and "+" not in near, near
    assert player_counts(",".join(map(str, read)), most=4) == read


@pytest.mark.parametrize("args", [
    ["play", "cardclash", "--agents", "random,random", "--players", "9" * 5000],  # was an internal error
    ["play", "strato", "strato/challenge-0.toml", "--agents", "random", "--players", "1,٢"],
    ["sweep", "strato/challenge-0.toml", "--players", "٢", "--seeds", "0..0", "--workers", "0", "--out", "{out}"],
    ["sweep", "strato/challenge-0.toml", "--players", "9" * 5000, "--seeds", "0..0", "--out", "{out}"],
])
def test_a_player_count_in_other_digits_or_of_thousands_is_one_short_line(args: list[str], tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(ROOT / "puzzles" / a) if a.endswith(".toml") else a.format(out=tmp_path / "r.jsonl") for a in args]
    assert run(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and len(err[0]) < 200 and "--players" in err[0], err
    assert not (tmp_path / "r.jsonl").exists()
