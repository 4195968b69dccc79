"""Where commands print: the consoles for results (stdout) and notes (stderr), and error lines that
name the options the user typed.

Every command renders through these, so that a closed pipe (``stratagem ... | head``) is reported the
same way everywhere (exit 141 from :func:`stratagem.cli.main.run`), whichever command was printing.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from rich.console import Console

from stratagem.core.errors import BadInput


class _Console(Console):
    """rich's console, except that a reader who stopped reading (``| head``) is reported like everywhere
    else in the CLI (exit 141, see :func:`stratagem.cli.main.run`), not by rich's own ``SystemExit(1)``,
    which would read as a checked "no"."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


#: The width of results printed to a file or a pipe: rich's own default, fixed.
FILE_WIDTH = 80


def _results_width() -> int | None:
    """``None`` (the terminal's width) when standard output is a terminal, else :data:`FILE_WIDTH`.

    rich otherwise takes the width from ``COLUMNS`` or from whichever of stdin, stdout and stderr is a
    terminal, so ``stratagem play ... > games.txt`` typed in a 40-column window wrote its table folded
    to 40 columns (``greed`` / ``y``, numbers split across lines), and an exported ``COLUMNS`` did the
    same to a pipe: output that is kept must be the same bytes wherever it was typed."""
    try:
        return None if sys.stdout.isatty() else FILE_WIDTH
    except (AttributeError, ValueError, OSError):  # closed or replaced by something without a descriptor
        return FILE_WIDTH


def stdout() -> Console:
    """The console commands print their results on: the terminal's width on a terminal, else
    :data:`FILE_WIDTH` columns whatever ``COLUMNS`` or the terminal the command was typed in says."""
    return _Console(highlight=False, soft_wrap=True, width=_results_width())


def stderr() -> Console:
    """The console for notes on stderr."""
    return _Console(stderr=True, highlight=False, soft_wrap=True)


def page_written(path: str | None, as_json: bool, *, column: bool = False) -> None:
    """The line that says ``--html FILE`` wrote its page (nothing without ``--html``), on stdout after the
    report, as ``--proof``'s line says its record was written; like it, not printed with ``--json``, whose
    stdout is the report alone, and printed with ``--quiet``, which quiets only the progress. ``column``:
    in a report whose lines are labels in a column (STAKD's solo answer), as its ``record`` line."""
    if path is None or as_json:
        return
    text = f"page      {path}" if column else f"page written to {path}"
    stdout().print(text, markup=False)


@contextmanager
def as_options(options: Mapping[str, str]) -> Iterator[None]:
    """Name the user's options in the library's refusals: a :class:`BadInput` whose source or place is
    a parameter of the library call (``as_player``, ``agents[1]``) is raised again naming the option
    the user typed (``--as``, ``--agents[2]``), so the one stderr line points at what to change. The items of
    a list, which the library indexes from 0 as Python does, count from 1 in the comma list of the option
    (docs/guide/endgames.md says so): ``agents[0]`` is ``--agents[1]``, the first agent given."""
    try:
        yield
    except BadInput as exc:
        head, bracket, rest = exc.place.partition("[")
        index, closing, after = rest.partition("]")
        if bracket and closing and index.isascii() and index.isdigit():
            rest = f"{int(index) + 1}]{after}"
        place = options[head] + bracket + rest if head in options else exc.place
        source = options.get(exc.source, exc.source)
        if (source, place) == (exc.source, exc.place):
            raise
        raise BadInput(source, place, exc.words or exc.problem) from None

