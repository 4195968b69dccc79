"""A switch a library message names set to False is written as the command reads it back (stop 63):
``option_words`` wrote ``rank=False`` as ``--rank False``, which ``odds`` reads as ``--rank`` and a puzzle
named ``False``, and ``force_settings=False`` as ``--force-settings False``, which turns the flag on."""

from __future__ import annotations

import shlex
from pathlib import Path

import click
import pytest

from stratagem.cli.main import COMMANDS, cli, run
from stratagem.cli.options import option_for, option_words
from stratagem.core.errors import BadInput, Param

CHALLENGE_0 = Path(__file__).resolve().parents[2] / "puzzles" / "strato" / "challenge-0.toml"


def _switches() -> list[tuple[str, str]]:
    """Every command's boolean flags whose library parameter is named as the option (``rank``: ``--rank``)."""
    found = []
    for name in COMMANDS:
        command = cli.get_command(click.Context(cli), name)
        assert command is not None
        for param in command.params:
            if (isinstance(param, click.Option) and param.is_flag and param.is_bool_flag and param.name
                    and option_for(param.name) in param.opts):
                found.append((name, param.name))
    return found


@pytest.mark.parametrize(("name", "parameter"), _switches())
@pytest.mark.parametrize("value", [True, False])
def test_a_switch_is_written_as_the_command_reads_it_back(name: str, parameter: str, value: bool) -> None:
    command = cli.get_command(click.Context(cli), name)
    assert command is not None
    words = option_words(Param(parameter, value), command)
    ctx = command.make_context(name, shlex.split(words), resilient_parsing=True)
    assert ctx.params[parameter] is value, f"{name} {words!r}"


def test_the_switches_are_found() -> None:
    """Both kinds are among them: a --rank/--no-rank switch and a flag with no --no- form."""
    switches = set(_switches())
    assert {("odds", "rank"), ("analyze", "rank"), ("sweep", "force_settings"), ("sweep", "retry_unknown")} <= switches
    odds = cli.get_command(click.Context(cli), "odds")
    sweep = cli.get_command(click.Context(cli), "sweep")
    assert option_words(Param("rank", False), odds) == "--no-rank"
    assert option_words(Param("force_settings", False), sweep) == ""
    assert option_words(Param("rank", False)) == "--no-rank"  # no command named: click's off side


def test_a_refusal_names_the_switch_as_the_command_reads_it(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """The command line's refusal spells a library message's switch for the command that ran."""
    import stratagem.winprobability

    def refuse(*args: object, **kwargs: object) -> None:
        raise BadInput("<argument>", "deal", ("give ", Param("rank", False), " for the best move only"))

    monkeypatch.setattr(stratagem.winprobability, "odds_deal", refuse)
    assert run(["odds", str(CHALLENGE_0)]) == 2
    assert capsys.readouterr().err == "stratagem odds: deal: give --no-rank for the best move only\n"
