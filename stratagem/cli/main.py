"""``stratagem``: the command-line application.

Exit codes (DESIGN.md): 0 done, 1 a negative answer where the command is a check (an invalid line or
proof), 2 bad input or usage, always as one line on stderr naming the file, the place and the problem.
"""

from __future__ import annotations

import sys
from typing import Any

import click
from rich.console import Console

from stratagem import __version__
from stratagem.core.errors import StratagemError

COMMANDS_HELP = ("Optimal lines and proofs for Strato, STAKD Elite, Stratatak, Stack Attack and "
                 "Stratego Card Clash.")


def stdout() -> Console:
    return Console(highlight=False, soft_wrap=True)


def stderr() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


#: Each command's module (``stratagem.cli.<module>``, attribute of the same name as the command, except
#: where noted). A command's module is imported only when that command runs, so that one command does not
#: pay for the libraries of the others (OR-Tools, numba, matplotlib).
COMMANDS = ("solve", "show", "verify", "bench", "reach", "generate", "export", "play", "analyze", "check")


class LazyGroup(click.Group):
    """A command group that imports a command's module when the command is first asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        import importlib

        command = getattr(importlib.import_module(f"stratagem.cli.{cmd_name}"), cmd_name)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LazyGroup, help=COMMANDS_HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="stratagem")
def cli() -> None:
    """The command group; each command lives in its own module."""


def fail(message: str) -> int:
    """Print one line on stderr; the exit code for bad input."""
    click.echo(message, err=True)
    return 2


def run(args: list[str] | None = None) -> int:
    """Run the CLI and return its exit code, turning every user-facing error into one stderr line."""
    try:
        result: Any = cli.main(args=args, prog_name="stratagem", standalone_mode=False)
    except StratagemError as exc:
        return fail(str(exc))
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        return 2
    except click.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx is not None else "stratagem"
        return fail(f"{where}: {exc.format_message()}")
    except click.ClickException as exc:
        return fail(f"stratagem: {exc.format_message()}")
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.exceptions.Abort:
        return fail("stratagem: aborted")
    except KeyboardInterrupt:
        return fail("stratagem: interrupted")
    return int(result or 0)


def main() -> None:
    """Console-script entry point."""
    sys.exit(run())

