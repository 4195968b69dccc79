"""``stratagem sweep``'s progress on stderr: a rich bar on a terminal, a plain line now and then in a log.

Kept apart from :mod:`stratagem.cli.sweep` (the options, the call and the summary) so that the command
module stays one screen of parsing and rendering (issue 32: no CLI module over ~250 lines).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from stratagem.sweep import AnyTask, Tally


def status_counts(by_status: dict[str, int], hidden: bool) -> str:
    """The records' statuses in words, for the progress and the summary. A hidden sweep's records say
    ``solved`` when the task finished (the solo odds exact, or every game of an agent task played) and
    ``unknown`` when a limit cut it short (an interval, or fewer games): "solved" said of an agent's games,
    which may all be lost, read as if the deals were won."""
    if hidden:
        return f"{by_status['solved']} finished, {by_status['unknown']} cut short by a limit"
    return f"{by_status['solved']} solved, {by_status['unsolvable']} unsolvable, {by_status['unknown']} undecided"


#: Seconds between the progress lines of a sweep whose stderr is not a terminal (a log file, a batch job).
PLAIN_PROGRESS_EVERY = 60.0


class SweepProgress:
    """A rich progress bar (done / total, solved / unsolvable / undecided, ETA) on a terminal's stderr; on
    any other stderr (a log of a sweep run for hours) a plain line at most every
    :data:`PLAIN_PROGRESS_EVERY` seconds, so that a short sweep prints only its summary."""

    def __init__(self, enabled: bool, total: int, hidden: bool = False) -> None:
        import time

        from rich.console import Console

        self.console = Console(stderr=True)
        self.plain = enabled and not self.console.is_terminal
        self.enabled = enabled and self.console.is_terminal
        self.total = total
        self.hidden = hidden
        self.bar: Any = None
        self.started = self.shown = time.monotonic()

    def __enter__(self) -> tuple[Any, Any]:
        if self.enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(TextColumn("sweep"), BarColumn(), MofNCompleteColumn(),
                                TextColumn("{task.fields[counts]}"), TimeRemainingColumn(), console=self.console)
            self.bar.start()
            self.task = self.bar.add_task("sweep", total=self.total, counts="")
        return self.on_record, self.on_failure

    def on_record(self, record: dict[str, Any], tally: Tally) -> None:
        counts = status_counts(tally.by_status, self.hidden)
        if self.bar is not None:
            self.bar.update(self.task, completed=tally.done + tally.failed, counts=counts)
        elif self.plain:
            import time

            now = time.monotonic()
            finished = tally.done + tally.failed
            if now - self.shown >= PLAIN_PROGRESS_EVERY and finished < self.total:
                self.shown = now
                click.echo(f"sweep: {finished:,} / {self.total:,} task(s) done ({counts}"
                           + (f", {tally.failed} failed" if tally.failed else "")
                           + f"), {now - self.started:,.0f} s so far", err=True)

    def on_failure(self, task: AnyTask, why: str) -> None:
        click.echo(f"{task.command()}: failed on the cluster ({why[:200]}); not recorded", err=True)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
