"""The commands that results/, docs/, the README and the scripts' usage examples quote still parse as
written (QA 62).

Every table under results/ says how it was made (``Written by `stratagem bench strato```, ``Made by `python
scripts/strato_hidden.py ...```), and the docs quote commands in running text. tests/test_readme.py runs the
``$ stratagem`` commands of the README's and the guides' fenced blocks; the others -- inline code spans,
indented blocks, the results' headers -- are only quoted, so a renamed option or script argument would leave
them stale with no test failing. Each one is parsed here, never run:

- ``stratagem COMMAND ...`` (or ``python -m stratagem ...``): by click's own parser, the command's
  ``make_context`` with ``resilient_parsing`` off, so an option that no longer exists, a value a choice or a
  number refuses, an argument too many, an unknown command, or an old spelling kept for one release
  (:class:`~stratagem.cli.options.Renamed`, which would still parse) fails the test;
- ``python scripts/NAME.py ...``: the script exists and its own argparse parser accepts the arguments (the
  script runs up to its ``parse_args``, which stops it there); a script without argparse is only looked for.

A quote is often a fragment naming an option in passing (`stratagem odds --table`, `stratagem sweep
--information hidden`): a required argument or option it leaves out is given a stand-in, and an option at
its end without a value is read as naming that option. Words in capitals (``FILE``, ``PUZZLE``,
``OUT.toml``) are placeholders, given a value the parameter's type accepts; brackets mark optional parts
(checked too) and ``...`` elided ones; a shell operator (``&&``, ``|``, ``>``) ends the command. A script's
quote may leave out its positional arguments (the prose around it names them), not a required option.

tests/test_qa60_donewhen.py looks for option names alone, in more places (the package's messages too); this
test parses, so it also catches a value, an arity or a required option that no longer fits (results/
strato-hidden.md quoted strato_hidden_exact.py without its required ``--tables``).
"""

from __future__ import annotations

import argparse
import ast
import re
import runpy
import shlex
import sys
from pathlib import Path
from unittest import mock

import click
import pytest

from stratagem.cli.main import COMMANDS, cli
from stratagem.cli.options import Renamed

REPO = Path(__file__).resolve().parents[1]
#: Every document whose quoted commands are parsed.
DOCUMENTS = sorted({*REPO.glob("results/*.md"), *REPO.glob("results/*/*.md"), *REPO.glob("docs/**/*.md"),
                    REPO / "README.md"})

_COMMAND = re.compile(r"(?:\$ )?((?:python -m )?stratagem (?:[a-z]|--?[a-z])|python scripts/\w+\.py\b)")
_PLACEHOLDER = re.compile(r"[A-Z][A-Z0-9_]*(?:\.[a-z0-9.]+)?")
_SHELL_END = re.compile(r"\s(?:&&|\|\|?|>|;|#)\s.*")


def quoted_commands(text: str) -> list[tuple[int, str]]:
    """Every command a markdown document quotes, with its line: a fenced block's line, an indented block's
    line, or an inline code span (which may wrap over lines), starting with ``stratagem``, ``python -m
    stratagem`` or ``python scripts/``; a leading ``$ `` left out, whitespace made single spaces."""
    found: list[tuple[int, str]] = []
    lines = text.split("\n")
    prose = list(lines)
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), len(lines))
            found += [(k + 1, lines[k].strip()) for k in range(i + 1, end)]
            prose[i:end + 1] = [""] * (min(end, len(lines) - 1) + 1 - i)
            i = end + 1
            continue
        if lines[i].startswith("    ") and (i == 0 or not lines[i - 1].strip() or lines[i - 1].startswith("    ")):
            start, command = i, lines[i].strip()
            while command.endswith("\\") and i + 1 < len(lines):  # a shell line continued
                prose[i] = ""
                i += 1
                command = command[:-1] + " " + lines[i].strip()
            found.append((start + 1, command))
            prose[i] = ""
        i += 1
    joined = "\n".join(prose)
    found += [(joined.count("\n", 0, span.start()) + 1, span.group(1)) for span in re.finditer(r"`([^`]+)`", joined)]
    commands = []
    for line, quote in found:
        quote = " ".join(quote.split())
        quote = quote[2:] if quote.startswith("$ ") else quote
        if _COMMAND.match(quote):
            commands.append((line, quote))
    return sorted(commands)


def _words(quote: str) -> list[str]:
    """The quote's words (shell quoting undone) up to a shell operator, without brackets and elisions."""
    words = [word.strip("[]") for word in shlex.split(_SHELL_END.sub("", quote))]
    words = [word for word in words if word not in ("", "...")]
    return ["stratagem", *words[3:]] if words[:3] == ["python", "-m", "stratagem"] else words


def _stand_in(param: click.Parameter, word: str) -> str:
    """``word``, or for a placeholder a value of the parameter's type."""
    if not _PLACEHOLDER.fullmatch(word):
        return word
    kind = param.type
    if isinstance(kind, click.Choice):
        return str(kind.choices[0])
    if isinstance(kind, (click.Path, click.types.StringParamType)):
        return word
    return str(getattr(kind, "min", None) or 1)


def stratagem_problem(words: list[str]) -> str | None:
    """Why click refuses the quoted ``stratagem`` command ``words``, or ``None`` when it parses."""
    root = click.Context(cli, info_name="stratagem")
    if words[1].startswith("-"):
        known = {name for param in cli.params for name in param.opts} | {"-h", "--help"}
        unknown = [word for word in words[1:] if word not in known]
        return f"no such option {unknown[0]!r} of stratagem" if unknown else None
    if words[1] not in COMMANDS:
        return f"no such command {words[1]!r}"
    command = cli.get_command(root, words[1])
    assert command is not None
    options = {name: param for param in command.params if isinstance(param, click.Option) for name in param.opts}
    for param in command.params:
        for old in getattr(param, "old", ()) if isinstance(param, Renamed) else ():
            if any(word.split("=")[0] == old for word in words):
                return f"{old} is the old spelling of {param.opts[0]}"
    positional = [param for param in command.params if isinstance(param, click.Argument)]
    args: list[str] = []
    rest = iter(words[2:])
    for word in rest:
        option = options.get(word)
        if option is not None and not option.is_flag and not option.count:
            args.append(word)
            value = next(rest, None)
            if value is not None:
                args.append(_stand_in(option, value))
        elif word.startswith("-") or not positional:
            args.append(word)
        else:
            args.append(_stand_in(positional[0], word))
            if positional[0].nargs == 1:
                positional.pop(0)
    stood_in: set[str | None] = set()
    while True:
        try:
            command.make_context(words[1], list(args), parent=root, resilient_parsing=False)
            return None
        except click.MissingParameter as exc:  # a fragment: the parameter it leaves out gets a stand-in
            missing = exc.param
            if missing is None or missing.name in stood_in:
                return exc.format_message()
            stood_in.add(missing.name)
            stand_in = _stand_in(missing, "VALUE")
            args += [missing.opts[0], stand_in] if isinstance(missing, click.Option) else [stand_in]
        except click.BadOptionUsage as exc:  # `stratagem odds --table`: the option named, not given
            if not args or args[-1] != exc.option_name or "requires an argument" not in exc.format_message():
                return exc.format_message()
            args.pop()
        except click.ClickException as exc:
            return exc.format_message()


class _Parsed(Exception):
    """The script's parser accepted the arguments: the script stops before doing anything."""


class _Refused(Exception):
    """The script's parser refused the arguments (what ``ArgumentParser.error`` would have printed)."""

    def __init__(self, message: str, parser: argparse.ArgumentParser) -> None:
        super().__init__(message)
        self.parser = parser


def _script_stand_in(parser: argparse.ArgumentParser, arguments: list[str]) -> list[str]:
    """``arguments`` with each placeholder given a value its argparse action accepts."""
    positional = [action for action in parser._actions if not action.option_strings]
    out: list[str] = []
    index = 0
    for k, word in enumerate(arguments):
        action = parser._option_string_actions.get(arguments[k - 1]) if k else None
        if action is None or action.nargs == 0:
            if word.startswith("-"):
                out.append(word)
                continue
            action = positional[min(index, len(positional) - 1)] if positional else None
            index += 1
        if action is not None and _PLACEHOLDER.fullmatch(word):
            word = (str(next(iter(action.choices))) if action.choices
                    else "1" if action.type in (int, float) else word)
        out.append(word)
    return out


def _parse_with_script(path: Path, arguments: list[str]) -> None:
    """Run the script up to its ``parse_args`` on ``arguments``: :class:`_Parsed` when they are accepted,
    :class:`_Refused` when not. ``sys.argv`` and ``sys.path`` are put back."""
    real_parse = argparse.ArgumentParser.parse_args

    def parse_only(parser: argparse.ArgumentParser, args: object = None, namespace: object = None) -> None:
        real_parse(parser, _script_stand_in(parser, arguments))
        raise _Parsed

    def refuse(parser: argparse.ArgumentParser, message: str) -> None:
        raise _Refused(message, parser)

    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [str(path), *arguments]
    try:
        with mock.patch.object(argparse.ArgumentParser, "parse_args", parse_only), \
                mock.patch.object(argparse.ArgumentParser, "error", refuse):
            runpy.run_path(str(path), run_name="__main__")
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    raise AssertionError(f"{path.name} ended without parsing its arguments")


def script_problem(words: list[str]) -> str | None:
    """Why the quoted ``python scripts/NAME.py ...`` command ``words`` would not start, or ``None``."""
    path = REPO / words[1]
    if not path.is_file():
        return f"no such script {words[1]}"
    if "argparse" not in path.read_text(encoding="utf-8"):
        return None  # its arguments cannot be checked without running it
    arguments = words[2:]
    while True:
        try:
            _parse_with_script(path, arguments)
        except _Parsed:
            return None
        except _Refused as exc:
            missing = re.fullmatch(r"the following arguments are required: (.+)", str(exc))
            if missing is None or any(name.startswith("-") for name in missing.group(1).split(", ")):
                return str(exc)
            left_out = [action for action in exc.parser._actions if not action.option_strings
                        and (action.metavar or action.dest) in missing.group(1).split(", ")]
            arguments = [*arguments, *(str(next(iter(action.choices))) if action.choices else "1"
                                       for action in left_out)]


def command_problem(quote: str) -> str | None:
    """Why a quoted command would not parse as written, or ``None`` when it does."""
    try:
        words = _words(quote)
    except ValueError as exc:  # unbalanced shell quoting
        return str(exc)
    return stratagem_problem(words) if words[0] == "stratagem" else script_problem(words)


def _docstring(script: Path) -> tuple[int, str]:
    """A script's module docstring as its source spells it (usage examples indented, a backslash ending a
    line kept) and the line it starts on."""
    source = script.read_text(encoding="utf-8")
    first = ast.parse(source).body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return first.lineno, "\n".join(source.split("\n")[first.lineno - 1:first.end_lineno])
    return 1, ""


QUOTES = [(document.relative_to(REPO).as_posix(), line, quote) for document in DOCUMENTS
          for line, quote in quoted_commands(document.read_text(encoding="utf-8"))]
QUOTES += [(script.relative_to(REPO).as_posix(), start + line - 1, quote)
           for script in sorted((REPO / "scripts").glob("*.py"))
           for start, text in [_docstring(script)] for line, quote in quoted_commands(text)]


def test_the_quotes_are_found() -> None:
    """The extraction sees the results' headers, inline fragments, indented commands, and the scripts'
    usage examples (their docstrings), a line continued with a backslash joined."""
    quotes = {(document, quote) for document, _, quote in QUOTES}
    assert len(QUOTES) >= 300
    made = [document.relative_to(REPO).as_posix() for document in DOCUMENTS
            if re.search(r"(?:Written|Made) by `", document.read_text(encoding="utf-8"))]
    assert len(made) >= 15 and set(made) <= {document for document, _ in quotes}, "a results header's command"
    assert ("results/startup.md", "python scripts/startup.py --runs 11") in quotes
    assert ("docs/formats.md", "stratagem verify FILE [--recheck] [--time-limit S] [--max-nodes N] [--json]") in quotes
    assert any(document == "results/strato-difficulty/README.md" and quote.startswith("stratagem report results/")
               for document, quote in quotes), "an indented block's command"
    assert any("\n" not in quote and quote.startswith("python scripts/strato_hidden_exact.py --within")
               for _, quote in quotes), "a span wrapped over two lines"
    assert any(document == "scripts/strato_policy_sample.py" and quote.endswith("puzzles/strato/level-2-example.toml")
               for document, quote in quotes), "a usage example continued with a backslash"


def test_every_quoted_stratagem_command_parses() -> None:
    """Every quoted ``stratagem`` command parses with today's options and values."""
    problems = [f"{document}:{line}: `{quote}`: {problem}" for document, line, quote in QUOTES
                if not quote.startswith("python scripts/") and (problem := command_problem(quote))]
    assert not problems, "\n".join(problems)


def test_every_quoted_script_command_parses() -> None:
    """Every quoted ``python scripts/...`` command names a script whose parser accepts its arguments."""
    problems = [f"{document}:{line}: `{quote}`: {problem}" for document, line, quote in QUOTES
                if quote.startswith("python scripts/") and (problem := command_problem(quote))]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("quote", "problem"), [
    ("stratagem solve puzzles/strato/challenge-0.toml --no-such-option", "No such option"),
    ("stratagem bench strato --only-pears", "No such option"),
    ("stratagem solve PUZZLE --method astra", "Invalid value for '--method'"),
    ("stratagem sweep PUZZLE --count many --out x.jsonl", "Invalid value for '--count'"),
    ("stratagem verify FILE --nodes 5", "--nodes is the old spelling of --max-nodes"),
    ("stratagem play stratatak --games 20", "--games is the old spelling of --count"),
    ("stratagem verify a.json b.json", "unexpected extra argument"),
    ("stratagem benchmark strato", "no such command 'benchmark'"),
    ("stratagem --verbose", "no such option '--verbose'"),
    ("python scripts/no_such_script.py --runs 3", "no such script"),
    ("python scripts/startup.py --runs eleven", "invalid int value"),
    ("python scripts/strato_hidden_exact.py --within --seconds 600 --deal DEAL PUZZLE", "required: --tables"),
    ("python scripts/engine_speed.py chess --runs 3", "invalid choice"),
])
def test_a_stale_quote_is_refused(quote: str, problem: str) -> None:
    """A renamed or unknown option, a refused value, an old spelling, an unknown command or script, and a
    script's missing required option are each reported."""
    found = command_problem(quote)
    assert found is not None and problem in found, found


@pytest.mark.parametrize("quote", [
    "stratagem odds --table",
    "stratagem sweep --information hidden",
    "stratagem report RESULTS --out DIR --html",
    "stratagem verify FILE [--recheck] [--time-limit S] [--max-nodes N] [--json]",
    "stratagem generate strato --challenge FILE --count N --seed S --min-length K [--players P] --out OUT.toml",
    "stratagem analyze ... --method lp --proof FILE",
    "stratagem verify p.json && publish",
    "stratagem --version",
    "python scripts/strato_clairvoyant.py --orders 30 --seconds 10",
    "python scripts/engine_speed.py GAME --out results/GAME.md",
    "python scripts/view_screenshots.py",
])
def test_a_fragment_or_placeholder_is_read_as_meant(quote: str) -> None:
    """A fragment naming an option, placeholders, optional parts, elisions and a script's positional
    arguments left to the prose all parse."""
    assert command_problem(quote) is None


def test_quotes_are_extracted_from_every_kind_of_block() -> None:
    """Fenced, indented and inline quotes are found with their lines; prose and other code are not."""
    text = ("# Title\n\nWritten by `stratagem bench\nstakd`, see `stratagem.core` and `scripts/x.py`.\n\n"
            "    stratagem report R \\\n      --out D\n\n```\n$ stratagem solve P\nsolved\n```\n"
            "Then `python scripts/startup.py --runs 3` and `stratagem: internal error`.\n")
    assert quoted_commands(text) == [(3, "stratagem bench stakd"), (6, "stratagem report R --out D"),
                                     (10, "stratagem solve P"), (13, "python scripts/startup.py --runs 3")]
