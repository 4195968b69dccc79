"""``stratagem report``: a sweep's results file as a markdown summary and PNG plots (:mod:`stratagem.sweepreport`)."""

from __future__ import annotations

from pathlib import Path

import click

from stratagem.core.io import check_writable_dir, write_atomic
from stratagem.sweep import read_results
from stratagem.sweepreport import summarise


@click.command()
@click.argument("results_file", type=click.Path(dir_okay=False))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Directory for report.md and the plots (made if missing).")
@click.option("--no-plots", is_flag=True, help="Only the markdown summary (no matplotlib needed).")
def report(results_file: str, out_dir: str, no_plots: bool) -> int:
    """Summarise a sweep's results file as markdown tables and PNG plots."""
    check_writable_dir(out_dir, "--out")
    records, torn = read_results(results_file)
    if torn is not None:
        click.echo(torn.replace("dropped, its task runs again", "left out of the report"), err=True)
    summary = summarise(records, results_file)
    plots: dict[str, bytes] = {}
    if not no_plots:
        try:
            plots = summary.plots()
        except ImportError:
            click.echo("matplotlib is not installed (pip install \"stratagem[plot]\"): no plots", err=True)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in plots.items():
        write_atomic(folder / name, data)
    write_atomic(folder / "report.md", summary.markdown(sorted(plots)))
    positions = f" and {len(summary.positions)} position(s)" if summary.positions else ""
    superseded = summary.held - len(summary.records)
    click.echo(f"{folder / 'report.md'}: {len(summary.deals)} deal(s){positions}"
               + (f" from {summary.held} records ({superseded} superseded)" if superseded else "")
               + (f"; plots {', '.join(sorted(plots))}" if plots else ""), err=True)
    return 0
