"""``stratagem report``: a sweep's results file as a markdown summary and PNG plots (:mod:`stratagem.sweepreport`),
with ``--html`` the same as one self-contained page (:mod:`stratagem.views.report`), and with ``--json``
the summary as one JSON document on stdout (``stratagem/report@1``).

A results file that is empty, or holds no whole record, is refused (exit 2, one line) before anything is
written: there is nothing to report, and empty plots and "every deal was decided" would say otherwise.
"""

from __future__ import annotations

from pathlib import Path

import click

from stratagem.cli.options import json_option, note, quiet_option
from stratagem.core.io import check_writable_dir, dumps_record, write_atomic
from stratagem.sweep import read_results
from stratagem.sweepreport import summarise


@click.command()
@click.argument("results_file", type=click.Path(dir_okay=False))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Directory for report.md and the plots (made if missing).")
@click.option("--no-plots", is_flag=True, help="Only the markdown summary (no matplotlib needed).")
@click.option("--html", "with_html", is_flag=True,
              help="Also write report.html: the report as one self-contained page, plots in SVG, the hardest and "
                   "easiest deals replayed (no matplotlib needed).")
@json_option("Print the summary as one JSON object (stratagem/report@1).")
@quiet_option("No notes on stderr (what was written, a torn last line, plots left out).")
def report(results_file: str, out_dir: str, no_plots: bool, with_html: bool, as_json: bool, quiet: bool) -> int:
    """Summarise a sweep's results file as markdown tables and PNG plots."""
    check_writable_dir(out_dir, "--out")
    records, torn = read_results(results_file)
    if torn is not None:
        note(torn.replace("dropped, its task runs again", "left out of the report"), quiet)
    summary = summarise(records, results_file)
    plots: dict[str, bytes] = {}
    if not no_plots:
        try:
            plots = summary.plots()
        except ImportError:
            note("matplotlib is not installed (pip install \"stratagem[plot]\"): no plots", quiet)
    page = None
    if with_html:
        from stratagem.views.report import report_page

        page = report_page(summary)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in plots.items():
        write_atomic(folder / name, data)
    write_atomic(folder / "report.md", summary.markdown(sorted(plots)))
    if page is not None:
        write_atomic(folder / "report.html", page)
    if as_json:
        click.echo(dumps_record(summary.to_json()), nl=False)
        return 0
    positions = f" and {len(summary.positions)} position(s)" if summary.positions else ""
    superseded = summary.held - len(summary.records)
    note(f"{folder / 'report.md'}: {len(summary.deals)} deal(s){positions}"
         + (f" from {summary.held} records ({superseded} superseded)" if superseded else "")
         + (f"; plots {', '.join(sorted(plots))}" if plots else "")
         + ("; page report.html" if page is not None else ""), quiet)
    return 0
