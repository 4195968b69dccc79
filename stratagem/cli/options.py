"""Options every command spells the same way, and old spellings kept for one release.

One concept has one name on every command (``tests/cli/test_option_names.py`` walks the command tree
and fails on two spellings of one concept): ``--max-nodes`` for a node or state limit, ``--count`` for
"how many", ``--players`` for player counts (a list such as ``1,2,4`` where several make sense: ``sweep``,
``play strato``; elsewhere one deal or one match has one count), ``--quiet`` for "no progress and no notes
on stderr" (errors, and warnings that something asked for was not done, are still printed) and ``--json``
for one JSON document on stdout.

An option renamed for that keeps its old spelling for one release (:class:`Renamed`): the old name
parses into the same value and prints one line on stderr saying what to type instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import click
from click.core import ParameterSource

from stratagem.core.errors import Param, number_text

F = TypeVar("F", bound=Callable[..., Any])

#: Each concept's canonical option and the other spellings it may not have (old spellings are allowed
#: only as a :class:`Renamed` option's ``old`` names, for one release). Read by the option-name test.
CONCEPTS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "node or state limit": ("--max-nodes", ("--nodes", "--max-states", "--states", "--node-limit", "--budget")),
    "how many": ("--count", ("--deals", "--games", "--number", "-n")),
    "player counts": ("--players", ("--player-count", "--num-players", "--nplayers")),
    "time limit": ("--time-limit", ("--timeout", "--seconds", "--time")),
    "output path": ("--out", ("--output", "-o", "--out-dir")),
    "quiet": ("--quiet", ("-q", "--silent", "--no-progress")),
    "JSON output": ("--json", ("--as-json", "--format-json")),
    "seed": ("--seed", ("--random-seed", "--rng-seed")),
}


#: The API parameters whose option is not the parameter's own name spelt with dashes (``max_states`` is
#: ``--max-nodes``; ``games`` is "how many", ``--count``; a sweep's ``methods`` are its repeated ``--method``;
#: ``as_player`` is ``--as``; a sweep's ``results`` file is its ``--out``).
OPTION_OF: Mapping[str, str] = {"max_states": "--max-nodes", "games": "--count", "methods": "--method",
                              "as_player": "--as", "results": "--out"}


def option_for(parameter: str) -> str:
    """The option a command takes for the API's ``parameter`` (:class:`~stratagem.core.errors.BadArgument`
    names the parameter; the CLI shows this): ``deal`` is ``--deal``, ``time_limit`` ``--time-limit``,
    ``max_states`` ``--max-nodes``; an option (``--out``) is itself. Words after the name stay as they are
    (``proof (the refutation's CNF)`` is ``--proof (the refutation's CNF)``)."""
    name, space, rest = parameter.partition(" ")
    if not name.startswith("-"):
        name = OPTION_OF.get(name, "--" + name.replace("_", "-"))
    return name + space + rest


def option_words(param: Param, command: click.Command | None = None) -> str:
    """A parameter a library message names (:class:`~stratagem.core.errors.Param`) as the option a command
    takes: ``force_settings=True`` is ``--force-settings``, ``time_limit=120`` ``--time-limit 120``, ``deal``
    ``--deal``.

    A switch set to False is written as click reads it back on ``command`` (the command the message is
    for): ``rank=False`` is ``--no-rank`` where the option is ``--rank/--no-rank``, and a flag with no
    ``--no-`` form is left out (empty words: its default is off). Without ``command`` it is
    ``--no-NAME``, click's spelling of a switch's off side (a flag that has none would refuse it: the CLI
    names the command, :func:`stratagem.cli.main.run`). It was ``--flag False``, which no command parses."""
    option = option_for(param.name)
    if param.value is ... or param.value is True:
        return option
    if param.value is False:
        switch = _switch(command, option)
        if switch is None:
            return "--no-" + option.removeprefix("--")
        return switch.secondary_opts[0] if switch.secondary_opts else ""
    return f"{option} {number_text(param.value)}" if isinstance(param.value, float) else f"{option} {param.value}"


def _switch(command: click.Command | None, option: str) -> click.Option | None:
    """``command``'s boolean flag spelt ``option``, if it has one."""
    for param in () if command is None else command.params:
        if isinstance(param, click.Option) and param.is_flag and param.is_bool_flag and option in param.opts:
            return param
    return None


def _old_dest(name: str | None) -> str:
    return f"{name}__old_spelling"


class Renamed(click.Option):
    """An option whose ``old`` spellings still parse into the same value for one release, each use
    printing one deprecation line on stderr. The old names are left out of ``--help``."""

    def __init__(self, *args: Any, old: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.old = tuple(old)

    def add_to_parser(self, parser: Any, ctx: click.Context) -> None:
        super().add_to_parser(parser, ctx)
        if not self.old:
            return
        if self.is_flag:
            parser.add_option(obj=self, opts=self.old, dest=_old_dest(self.name), action="store_const",
                              const=self.flag_activation_value)
        else:
            parser.add_option(obj=self, opts=self.old, dest=_old_dest(self.name),
                              action="append" if self.multiple else "store", nargs=self.nargs)

    def consume_value(self, ctx: click.Context, opts: Mapping[str, Any]) -> tuple[Any, ParameterSource]:
        old = _old_dest(self.name)
        if self.name not in opts and old in opts:
            new = self.opts[0]
            click.echo(f"{ctx.command_path}: {'/'.join(self.old)} is deprecated, use {new} (the old spelling "
                       "goes in the next release)", err=True)
            opts = {**opts, self.name: opts[old]}
        elif self.name in opts and old in opts:
            raise click.UsageError(f"give {self.opts[0]} once (not also as {'/'.join(self.old)})", ctx)
        return super().consume_value(ctx, opts)


def json_option(help_text: str = "Print the result as one JSON document on stdout.") -> Callable[[F], F]:
    """``--json`` (into the parameter ``as_json``)."""
    return click.option("--json", "as_json", is_flag=True, help=help_text)


def quiet_option(help_text: str = "No progress and no notes on stderr (errors, and warnings that something asked "
                                  "for was not done, still are).") -> Callable[[F], F]:
    """``--quiet`` (into the parameter ``quiet``)."""
    return click.option("--quiet", is_flag=True, help=help_text)


def note(text: str, quiet: bool) -> None:
    """A note on stderr (what was written, what was left out), unless ``--quiet``."""
    if not quiet:
        click.echo(text, err=True)


def player_counts(text: str | None, param: str = "--players", *, default: tuple[int, ...] = (1,),
                  most: int = 8) -> tuple[int, ...]:
    """``--players`` as a list of counts (``2`` or ``1,2,4``), each from 1 to ``most``, in the order
    given, without repeats; ``default`` when not given."""
    if text is None:
        return default
    counts: list[int] = []
    for part in text.split(","):
        count = _count(part, param, most, "(give N or a list such as 1,2,4)")
        if count not in counts:
            counts.append(count)
    return tuple(counts)


def player_count(text: str | None, param: str = "--players", *, most: int = 8) -> int | None:
    """``--players`` as one count from 1 to ``most`` (a match has one; a list is refused), None when not
    given. The same check of the digits as :func:`player_counts`: play kept a copy of it."""
    if text is None:
        return None
    return _count(text, param, most, f"from 1 to {most}", one=True)


def _count(text: str, param: str, most: int, hint: str, one: bool = False) -> int:
    """One player count of ``param``, from 1 to ``most``; a usage error saying so (its ``hint``) for
    anything else, in one short line (of a count out of range, ``one`` repeats the hint)."""
    digits = text.strip()
    # ASCII digits, a few: int() also read '٢' and '+2' as 2, and quoted 5,000 digits whole in its message
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 9):
        shown = repr(digits) if len(digits) <= 30 else repr(digits[:30]) + "..."
        raise click.BadParameter(f"{shown} is not a player count {hint}", param_hint=f"'{param}'")
    count = int(digits)
    if not 1 <= count <= most:
        raise click.BadParameter(f"{count} is not a player count {hint}" if one else
                                 f"{count} players: give 1 to {most}", param_hint=f"'{param}'")
    return count


def given(name: str) -> bool:
    """Whether the option ``name`` of the command now running was given on the command line (not left at
    its default): for options that only make sense together."""
    source = click.get_current_context().get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"
