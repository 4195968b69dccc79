"""``stratagem report``: a sweep's results file as a markdown summary and PNG plots (:mod:`stratagem.sweepreport`),
with ``--html`` the same as one self-contained page (:mod:`stratagem.views.report`), and with ``--json``
the summary as one JSON document on stdout (``stratagem/report@1``).

On the results file of a hidden-information sweep (``sweep --information hidden``) it writes the
**difficulty cards** instead (:mod:`stratagem.difficulty`; ``--html``: :mod:`stratagem.views.difficulty`;
``--json``: ``stratagem/difficulty@1``), with the open-information optimum beside them taken from an open
sweep's results file given as ``--open-results``. A file mixing hidden and open records is refused.

A results file that is empty, or holds no whole record, is refused (exit 2, one line) before anything is
written: there is nothing to report, and empty plots and "every deal was decided" would say otherwise.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click

from stratagem.cli.options import json_option, note, quiet_option
from stratagem.core.errors import BadInput
from stratagem.core.outputs import check_not_an_input, check_writable_dir, dumps_record, write_atomic_files
from stratagem.sweephidden import hidden_record
from stratagem.sweeprecords import ResultsRecords, share_strings
from stratagem.sweepreport import summarise


@click.command()
@click.argument("results_file", type=click.Path(dir_okay=False))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Directory for report.md and the plots (made if missing).")
@click.option("--no-plots", is_flag=True, help="Only the markdown summary (no matplotlib needed).")
@click.option("--html", "with_html", is_flag=True,
              help="Also write report.html: the report as one self-contained page, plots in SVG, the hardest and "
                   "easiest deals replayed (no matplotlib needed).")
@click.option("--open-results", "open_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="For a hidden sweep's difficulty cards: an open sweep's results file, whose records of the same "
                   "deals (puzzle bytes, players, seed) give the open-information optimum beside them.")
@json_option("Print the summary as one JSON object (stratagem/report@1; a hidden sweep: stratagem/difficulty@1).")
@quiet_option("No notes on stderr (what was written, a torn last line, plots left out).")
def report(results_file: str, out_dir: str, no_plots: bool, with_html: bool, open_path: str | None, as_json: bool,
           quiet: bool) -> int:
    """Summarise a sweep's results file as markdown tables and PNG plots (a hidden sweep: difficulty cards)."""
    check_writable_dir(out_dir, "--out")
    records = ResultsRecords(results_file)  # read again as needed, not held: a report of an open sweep keeps
    hidden, mixed = _kinds(records)        # a few numbers a deal (summarise)
    if records.torn is not None:
        note(records.torn.replace("dropped, its task runs again", "left out of the report"), quiet)
    if mixed is not None:
        raise BadInput(results_file, f"line {mixed}", "mixes hidden- and open-information records: one sweep a file")
    if hidden:
        shared: dict[str, str] = {}
        return _cards([share_strings(r, shared) for r in records], results_file, open_path, out_dir, with_html,
                      as_json, quiet)
    if open_path is not None:
        raise click.UsageError("--open-results is for the results file of a hidden sweep (sweep --information hidden)")
    summary = summarise(records, results_file)
    # what lists every undecided deal where report.md and report.html list the first ones: this command with
    # --json, which writes the same files again
    listing = shlex.join(["stratagem", "report", results_file, "--out", out_dir] + ["--no-plots"] * no_plots
                         + ["--html"] * with_html + ["--json"])
    plots: dict[str, bytes] = {}
    if not no_plots:
        try:
            plots = summary.plots()
        except ImportError:
            note("matplotlib is not installed (pip install \"stratagem[plot]\"): no plots", quiet)
    page = None
    if with_html:
        from stratagem.views.report import report_page

        page = report_page(summary, lambda text: note(f"{results_file}: {text}", quiet), listing)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    # one set: a full disk or Ctrl-C part way left new plots beside an old report.md, or a new one beside
    # an old report.html
    files: list[tuple[str | Path, str | bytes]] = [(folder / name, data) for name, data in plots.items()]
    files.append((folder / "report.md", summary.markdown(sorted(plots), listing)))
    if page is not None:
        files.append((folder / "report.html", page))
    _refuse_inputs(files, [results_file])
    write_atomic_files(files)
    if as_json:
        click.echo(dumps_record(summary.to_json()), nl=False)
        return 0
    positions = f" and {len(summary.positions)} position(s)" if summary.positions else ""
    superseded = summary.held - len(summary.records)
    note(f"{folder / 'report.md'}: {summary.deal_count()} deal(s){positions}"
         + (f" from {summary.held} records ({superseded} superseded)" if superseded else "")
         + (f"; plots {', '.join(sorted(plots))}" if plots else "")
         + ("; page report.html" if page is not None else ""), quiet)
    return 0


def _kinds(records: Iterable[dict[str, Any]]) -> tuple[bool, int | None]:
    """Whether the records are a hidden sweep's (the first one says), and the line of the first record of the
    other kind, if any: read through, every line checked before either is told."""
    first: bool | None = None
    mixed: int | None = None
    for number, record in enumerate(records, 1):
        hidden = hidden_record(record)
        if first is None:
            first = hidden
        elif hidden != first and mixed is None:
            mixed = number
    return bool(first), mixed


def _cards(records: list[dict[str, Any]], results_file: str, open_path: str | None, out_dir: str, with_html: bool,
           as_json: bool, quiet: bool) -> int:
    """The difficulty cards of a hidden sweep: report.md, with ``--html`` report.html, with ``--json`` stdout."""
    from stratagem.difficulty import difficulty

    open_records: Iterable[dict[str, Any]] = ()
    if open_path is not None:
        # read again by difficulty, which keeps the records of the hidden sweep's deals alone: an open sweep's
        # file may be far larger than the hidden one's
        open_records = ResultsRecords(open_path)
        hidden_line, strato, first_game = None, False, None
        for number, record in enumerate(open_records, 1):  # the first read: every line checked
            if number == 1:
                first_game = record.get("game")
            if hidden_line is None and hidden_record(record):
                hidden_line = number
            strato = strato or record.get("game") == "strato"
        if hidden_line is not None:
            raise BadInput(open_path, f"line {hidden_line}", "a hidden-information record: --open-results takes an "
                           "open sweep's file")
        if not strato:
            raise BadInput(open_path, "line 1", f"a record of {first_game} positions: --open-results "
                           "takes an open sweep of Strato deals, the hidden sweep's puzzles")
        if open_records.torn is not None:
            note(open_records.torn.replace("dropped, its task runs again", "left out of the report"), quiet)
    cards = difficulty(records, results_file, open_records, open_path)
    page = None
    if with_html:
        from stratagem.views.difficulty import difficulty_page

        page = difficulty_page(cards)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    files: list[tuple[str | Path, str | bytes]] = [(folder / "report.md", cards.markdown())]
    if page is not None:
        files.append((folder / "report.html", page))
    _refuse_inputs(files, [results_file] + ([] if open_path is None else [open_path]))
    write_atomic_files(files)
    if as_json:
        click.echo(dumps_record(cards.to_json()), nl=False)
        return 0
    note(f"{folder / 'report.md'}: difficulty cards of {len(cards.cards)} challenge and player count(s) from "
         f"{cards.held} records" + ("; page report.html" if page is not None else ""), quiet)
    return 0


def _refuse_inputs(files: list[tuple[str | Path, str | bytes]], inputs: list[str]) -> None:
    """Refuse, before any of them is written, a report file that is a results file the command read
    (``report out/report.md --out out`` replaced the sweep's records with the report)."""
    for path, _ in files:
        check_not_an_input(str(path), inputs, "--out")
