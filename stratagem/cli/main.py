"""``stratagem``: the command-line application.

Exit codes (:mod:`stratagem.cli.exitcodes`): 0 done, 1 a checked negative answer, 2 bad input or usage
(one line on stderr naming the file, the place and the problem), 3 undetermined, 130 interrupted by
SIGINT (Ctrl-C), 143 terminated by SIGTERM, 129 hung up (SIGHUP: the terminal closed), 70 an internal
error (a bug: one line, never a traceback unless ``STRATAGEM_TRACEBACK=1``).

Signals: Ctrl-C raises :class:`KeyboardInterrupt` and :func:`main` makes SIGTERM raise
:class:`~stratagem.core.errors.Terminated` and SIGHUP its :class:`~stratagem.core.errors.HungUp` (unless
SIGHUP is ignored, as under ``nohup``), so each one unwinds the stack: ``finally`` blocks run, atomic
writes remove their temporary files, and :func:`run` prints one line and returns 130, 143 or 129.
Once one stop is under way, another (a second Ctrl-C while the first one's cleanup runs, or while the
process exits) is ignored: it would interrupt the cleanup (a lock or a temporary file left behind) or
print a traceback; one that Python raised where it cannot propagate (a garbage collector's callback) is
sent again rather than printed and lost (:mod:`stratagem.cli.stopping`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from typing import Any

import click

from stratagem import __version__
from stratagem.cli.exitcodes import (
    BAD_INPUT,
    BROKEN_PIPE,
    CANNOT_WRITE,
    HUNG_UP,
    INTERNAL_ERROR,
    INTERRUPTED,
    TERMINATED,
)
from stratagem.cli.options import option_for, option_words
from stratagem.cli.stopping import Stop, exiting, install_handlers
from stratagem.cli.wholewrites import write_stdout_whole
from stratagem.core.deadline import begin_command
from stratagem.core.errors import BadArgument, BadInput, HungUp, StratagemError, Terminated, check_termination
from stratagem.core.interrupt import native_state_abandoned
from stratagem.core.outputs import WRITE_FAILURES as FILE_WRITE_FAILURES

COMMANDS_HELP = ("Optimal lines and proofs for Strato, STAKD Elite, Stratatak, Stack Attack and "
                 "Stratego Card Clash.")


#: Each command's module (``stratagem.cli.<module>``, attribute of the same name as the command, except
#: where noted). A command's module is imported only when that command runs, so that one command does not
#: pay for the libraries of the others (OR-Tools, numpy, matplotlib).
COMMANDS = ("solve", "show", "verify", "bench", "reach", "generate", "export", "play", "analyze", "check", "sweep",
            "report", "odds", "view")

#: Each command's summary -- the first paragraph of its docstring, on one line -- for ``stratagem --help``,
#: which lists the commands without importing them (importing all ten would load numpy, OR-Tools and
#: networkx, and take most of a second). ``tests/cli/test_main_help.py`` keeps it equal to the docstrings.
SUMMARIES = {
    "solve": "Find the shortest winning line of a Strato deal (open information), or place a STAKD solo set.",
    "show": "Draw a puzzle or position file, or a line/proof record (.json) move by move.",
    "verify": "Check every claim of a line or proof record, or a reach report, with the rules engine alone.",
    "bench": "Measure every method on the shipped puzzles; write results/<game>*.md.",
    "reach": "Build the reachable state graph of a Strato deal (or its layout) and report what it shows.",
    "generate": "Write seeded deals of a challenge with proven optimal length >= --min-length.",
    "export": "Write a deal as DIMACS (a horizon's CNF with a variable legend) or PDDL (domain and problem).",
    "play": "Play a match between agents and report win rates with 95% confidence intervals.",
    "analyze": "Value, best moves and principal variation of a position; a proof when the value is solved.",
    "check": "Is the puzzle solvable? A replayed witness line, or a certificate that no line exists.",
    "sweep": "Solve many seeded deals (Dask or in-process) into a resumable JSON Lines file of sweep records.",
    "report": "Summarise a sweep's results file as markdown tables and PNG plots (a hidden sweep: difficulty cards).",
    "odds": "Exact solo win probability of a Strato deal with the pile's order hidden, and its best first moves.",
    "view": "Draw a line, proof or report record as one self-contained HTML page (replay, tree or matrices).",
}


class LazyGroup(click.Group):
    """A command group that imports a command's module when the command is first asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The "Commands" section of ``--help``, from :data:`SUMMARIES`: the same rows click would write
        (each summary shortened to the width left beside the longest name), without importing a command."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, click.Command(name, help=SUMMARIES[name]).get_short_help_str(limit)) for name in COMMANDS]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        import importlib

        command = getattr(importlib.import_module(f"stratagem.cli.{cmd_name}"), cmd_name)
        assert isinstance(command, click.Command)
        return command


def _version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``--version``: the version and the state of the compiled core (on stderr when it is incomplete)."""
    if not value or ctx.resilient_parsing:
        return
    from stratagem.core.compiled import status

    core = status()
    click.echo(f"stratagem {__version__}" + (f" ({core.describe()})" if core.complete else ""))
    if not core.complete:
        click.echo(core.describe(), err=True)
    ctx.exit()


@click.group(cls=LazyGroup, help=COMMANDS_HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="Show the version and whether the compiled core is built, and exit.")
def cli() -> None:
    """The command group; each command lives in its own module."""


def say(message: str) -> None:
    """One line on stderr, or nothing when stderr cannot be written (a full disk, closed): the exit code
    still says what happened, where a failed write would have turned it into 1, a checked "no"."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        click.echo(message, err=True)


def fail(message: str) -> int:
    """Print one line on stderr; the exit code for bad input."""
    say(message)
    return BAD_INPUT


def one_line(text: str, limit: int = 300) -> str:
    """``text`` on one line, cut to ``limit`` characters (an exception's message may hold anything)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _invoke(args: list[str] | None) -> Any:
    """Parse ``args`` and run the command, without click's own handling of Ctrl-C (which prints a blank
    line and turns it into ``Abort``); everything raised reaches :func:`run`."""
    argv = sys.argv[1:] if args is None else list(args)
    if args is None:  # shell completion (_STRATAGEM_COMPLETE=...), as click's own main offers it
        cli._main_shell_completion({}, "stratagem", None)
    with cli.make_context("stratagem", argv) as ctx:
        return cli.invoke(ctx)


def run(args: list[str] | None = None, *, from_process_start: bool = False) -> int:
    """Run the CLI and return its exit code, turning every user-facing error into one stderr line.

    An exception that is not a :class:`StratagemError` or a click error is a bug in stratagem. It is
    reported as one line ``stratagem: internal error: TYPE: message`` with exit code 70 (EX_SOFTWARE),
    not 2: bad input is the user's to fix, a crash is ours, and scripts must be able to tell them apart.
    ``STRATAGEM_TRACEBACK=1`` lets the exception through, with its traceback, for debugging.
    ``from_process_start``: the command is this process's own (:func:`main`), so its ``--time-limit``
    counts from the start of the process; otherwise from this call.
    """
    Terminated.requested = Terminated.hung_up = Stop.reported = False
    begin_command(from_process_start)
    try:
        result: Any = _invoke(args)
        sys.stdout.flush()  # a reader gone mid-output (| head) fails this flush: exit 141, not 0 at exit
        check_termination()  # SIGTERM arrived but a library swallowed its exception
    except BadInput as exc:
        if isinstance(exc, BadArgument):  # the API's parameter, given here as an option
            exc = BadInput(exc.source, option_for(exc.parameter), exc.words or exc.problem)
        if exc.words is not None:  # the parameters its words name, as the options of the command that ran
            command = _command(args)
            options = cli.get_command(click.Context(cli), command) if command else None
            exc = exc.worded(lambda param: option_words(param, options))
        if exc.source == ARGUMENT:  # the command line itself: name the command, as click's own errors do
            where = f"stratagem {_command(args)}".rstrip()
            return fail(one_line(f"{where}: {exc.place}: {exc.problem}" if exc.place else f"{where}: {exc.problem}",
                                 2000))
        return fail(one_line(str(exc), 2000))
    except StratagemError as exc:  # a solver's refusal: it knows no file, so name the command at least
        command = _command(args)
        return fail(one_line(f"stratagem {command}: {exc}" if command else f"stratagem: {exc}", 2000))
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        return BAD_INPUT
    except click.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx is not None else "stratagem"
        return fail(f"{where}: {one_line(exc.format_message(), 2000)}")
    except click.ClickException as exc:
        return fail(f"stratagem: {one_line(exc.format_message(), 2000)}")
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.exceptions.Abort:
        return fail("stratagem: aborted")
    except KeyboardInterrupt:
        Stop.reported = True
        say("stratagem: interrupted")
        return INTERRUPTED
    except Terminated as exc:
        Stop.reported = True
        return _terminated(exc)
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE
    except OSError as exc:
        if exc.errno not in WRITE_FAILURES:
            return _internal_error(exc)
        _silence_stdout()  # what is left in stdout's buffer would fail again at exit, with a traceback
        say(f"stratagem: cannot write the output: {exc.strerror or exc}")
        return CANNOT_WRITE
    except Exception as exc:
        return _internal_error(exc)
    return int(result or 0)


#: The errors of a write that failed for want of room or of a working device (not a bug, not the input):
#: a file's (:data:`stratagem.core.outputs.WRITE_FAILURES`), or standard output closed.
WRITE_FAILURES = (*FILE_WRITE_FAILURES, errno.EBADF)


def _internal_error(exc: Exception) -> int:
    """A bug: one line naming the exception (``STRATAGEM_TRACEBACK=1`` lets it through instead)."""
    if os.environ.get("STRATAGEM_TRACEBACK"):
        raise exc
    say(f"stratagem: internal error: {type(exc).__name__}: {one_line(str(exc))} "
        "(a bug; STRATAGEM_TRACEBACK=1 shows where)")
    return INTERNAL_ERROR


def _command(args: list[str] | None) -> str:
    """The command named on the command line (empty when there is none)."""
    argv = sys.argv[1:] if args is None else args
    return next((word for word in argv if word in COMMANDS), "")


#: The ``source`` of a :class:`BadInput` about the command line rather than a file.
ARGUMENT = "<argument>"


def _silence_stdout() -> None:
    """After a broken pipe, send what is left of stdout (and its flush at exit) nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _terminated(exc: Terminated) -> int:
    """One line for SIGTERM or SIGHUP, and its exit code."""
    if isinstance(exc, HungUp):
        say("stratagem: hung up")  # the terminal may be gone: say() then writes nothing
        return HUNG_UP
    say("stratagem: terminated")
    return TERMINATED


def main() -> None:
    """Console-script entry point: SIGTERM unwinds like Ctrl-C, then the exit code of :func:`run`; a signal
    once a stop is under way, or once the code is decided, is ignored, and one raised where Python cannot let
    it through is sent again (:mod:`stratagem.cli.stopping`)."""
    install_handlers()
    write_stdout_whole()
    try:
        code = run(from_process_start=True)
    except KeyboardInterrupt:  # the signal came after run() had finished, before the exit
        say("stratagem: interrupted")
        code = INTERRUPTED
    except Terminated as exc:
        code = _terminated(exc)
    exiting()
    if native_state_abandoned():  # a signal left a native solver mid-call: free nothing (core.interrupt)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError, AttributeError):
                stream.flush()
        os._exit(code)
    sys.exit(code)
