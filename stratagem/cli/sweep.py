"""``stratagem sweep``: many seeded Strato deals at once, on Dask or in this process, into a resumable JSONL file.

The work is :mod:`stratagem.sweep`'s; this module parses the options, shows a progress bar and prints the
summary. Interrupted (Ctrl-C, SIGTERM), the run loses only the deals in flight: every record already
written is whole, and running the same command again does only what is missing.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import threading
from typing import Any

import click

from stratagem.cli.exitcodes import DONE, HUNG_UP, INTERRUPTED, TERMINATED, UNDETERMINED
from stratagem.cli.limits import TIME_LIMIT, TimeLimit, WholeRange
from stratagem.cli.options import Renamed, given, json_option, note, quiet_option
from stratagem.cli.sweepprogress import SweepProgress, status_counts
from stratagem.core.compiled import warn_once
from stratagem.core.errors import BadArgument, BadInput, HungUp, Terminated
from stratagem.core.outputs import dumps_record
from stratagem.models.strato.solve import METHODS
from stratagem.sweep import (
    MAX_TASKS,
    SWEEP_FORMAT,
    ResultsFile,
    Task,
    edited_puzzles,
    fewer_shuffles,
    never_certified,
    parse_seeds,
    plan,
    to_run,
)
from stratagem.sweep import sweep as run_sweep
from stratagem.sweephidden import DEFAULT_AGENT, HIDDEN, INFORMATION, MAX_SHUFFLES, OPEN, SOLO_METHOD, plan_hidden


def _int_list(text: str, option: str) -> list[int]:
    """``1,2,4`` as integers: a few ASCII digits each (int() also read '٢' as 2, and refused 5,000 digits with
    a message quoting them all)."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not all(re.fullmatch(r"-?[0-9]{1,9}", part) for part in parts):
        shown = repr(text) if len(text) <= 40 else repr(text[:40]) + "..."
        raise BadInput("<argument>", option, f"{shown} is not a comma-separated list of integers")
    values = [int(part) for part in parts]
    if not values:
        raise BadInput("<argument>", option, "an empty list")
    return values


#: The format name of ``sweep --json`` (docs/formats.md section 10.10): the run's summary.
SUMMARY_FORMAT = "stratagem/sweep-summary@1"


#: The longest ``--connect-timeout``: a day. Waiting longer for a scheduler is a typing mistake, and a wait
#: past what the platform's clock holds (``1e308``) failed inside the socket library (exit 70).
MAX_CONNECT_TIMEOUT = 86400.0


class ConnectTimeout(TimeLimit):
    """``--connect-timeout``: a time limit (finite, above 0) of at most :data:`MAX_CONNECT_TIMEOUT` seconds."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        seconds = super().convert(value, param, ctx)
        if seconds > MAX_CONNECT_TIMEOUT:
            self.fail(f"{value!r} seconds is more than a day ({MAX_CONNECT_TIMEOUT:g} s), the longest wait for a "
                      "scheduler", param, ctx)
        return seconds


@click.command()
@click.argument("puzzles", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--count", "deals", cls=Renamed, old=("--deals",), type=WholeRange(1, MAX_TASKS), default=None,
              help="Seeds 0 .. N-1 (default 100 unless --seeds is given).")
@click.option("--seeds", "seed_range", default=None, metavar="A..B", help="Seeds A to B, both included.")
@click.option("--players", "players_text", default="1", show_default=True, metavar="LIST",
              help="Player counts, comma-separated (1,2,4).")
@click.option("--information", type=click.Choice(INFORMATION), default=OPEN, show_default=True,
              help="open: solve each deal seeing every card. hidden: as players see it -- solo, the exact win "
                   "probability with the pile hidden (or 'unknown' with the proven interval); 2 to 4 players "
                   "(and solo with --solo-agents), each --agents kind's win rate over --shuffles shuffles of "
                   "the pile.")
@click.option("--agents", "agent_specs", default=None, metavar="A,B,...",
              help=f"With --information hidden: the agent kinds (default {DEFAULT_AGENT}); parameters as "
                   "name:key=value.")
@click.option("--solo-agents", is_flag=True,
              help="With --information hidden and 1 player: the --agents kinds also play each solo deal "
                   "--shuffles times (a win rate beside the exact or bounded odds: an estimate, not a proof).")
@click.option("--shuffles", type=WholeRange(1, MAX_SHUFFLES), default=4, show_default=True,
              help="With --information hidden: games per team task, the deal's hands kept and its pile shuffled "
                   "again for each.")
@click.option("--method", "methods", multiple=True, metavar="METHOD",
              help=f"Method (repeat for several; default auto): for Strato one of {', '.join(METHODS)}; "
                   "for other games' positions an `analyze` method.")
@click.option("--time-limit", type=TIME_LIMIT, default=60.0, show_default=True, metavar="S",
              help="Seconds allowed for each deal (all of its solve; hidden: the odds' search, or all of an agent's "
                   "shuffles); a deal it stops is recorded 'unknown' with what it had (its proven lower bound; hidden: "
                   "the odds' proven interval, or the games finished).")
@click.option("--proof-dir", type=click.Path(file_okay=False), default=None,
              help="Write each deal's proof record here; the record holds its sha256.")
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False),
              help=f"The results file ({SWEEP_FORMAT} JSON Lines); appended to, records already there are skipped.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run on an existing Dask cluster (tcp://host:8786) instead of an embedded one.")
@click.option("--workers", type=WholeRange(0, 1024), default=None,
              help="Worker processes of the embedded Dask cluster (default: one per core); 0 runs the deals "
                   "in this process, one after another.")
@click.option("--connect-timeout", type=ConnectTimeout(), default=10.0, show_default=True, metavar="S",
              help="Seconds to wait for --scheduler before giving up (at most 86400, a day).")
@click.option("--retry-unknown", is_flag=True,
              help="Run again the deals whose record in --out is 'unknown', with this run's --time-limit (the new "
                   "record is appended; a report counts the best-established record of each deal).")
@click.option("--retry-uncertified", is_flag=True,
              help="Run again the deals whose optimum (or unsolvability) in --out rests on a search alone, "
                   "without a certificate that `stratagem verify` re-checks (those of auto, relaxed and sat: "
                   "bfs, astar, idastar and cpsat never give one).")
@click.option("--more-shuffles", is_flag=True,
              help="With --information hidden: run again the agent tasks whose record in --out played fewer games "
                   "than --shuffles, all --shuffles of them (a game depends only on the deal, the shuffle's number "
                   "and the agent, so the first ones come out as before); the record of more games counts.")
@click.option("--force-settings", is_flag=True,
              help="Add new deals to --out even though its records were made with another --time-limit "
                   "(hidden sweeps: or another --shuffles) (refused without it: one results file, one experiment).")
@quiet_option("No progress bar and no summary on stderr.")
@json_option(f"Print the summary as one JSON object ({SUMMARY_FORMAT}) on stdout instead of the progress bar and "
             "the summary line.")
def sweep(puzzles: tuple[str, ...], deals: int | None, seed_range: str | None, players_text: str,
          information: str, agent_specs: str | None, solo_agents: bool, shuffles: int, methods: tuple[str, ...],
          time_limit: float, proof_dir: str | None, out_path: str, scheduler: str | None,
          workers: int | None, connect_timeout: float, retry_unknown: bool, retry_uncertified: bool,
          more_shuffles: bool, force_settings: bool, quiet: bool, as_json: bool) -> int:
    """Solve many seeded deals (Dask or in-process) into a resumable JSON Lines file of sweep records.

    Each PUZZLE is a Strato puzzle file (one task per player count, seed and method) or a position file of
    another game (one task per method, analysed as `stratagem analyze` does). With --information hidden,
    Strato only: per deal the solo win probability with the pile hidden, or teams' win rates.
    """
    if deals is not None and seed_range is not None:
        raise click.UsageError("give --count or --seeds, not both")
    if scheduler is not None and workers is not None:
        raise click.UsageError("--workers sizes the embedded cluster; an existing one (--scheduler) has its own")
    try:
        seeds = parse_seeds(seed_range) if seed_range is not None else range(deals or 100)
    except ValueError as exc:
        raise BadInput("<argument>", "--seeds", str(exc)) from None
    players = _int_list(players_text, "--players")
    hidden = information == HIDDEN
    if not hidden and (agent_specs is not None or given("shuffles") or solo_agents or more_shuffles):
        raise click.UsageError("--agents, --solo-agents, --shuffles and --more-shuffles are for --information hidden")
    if solo_agents and 1 not in players:
        raise click.UsageError("--solo-agents plays solo deals: give --players with 1")
    if (hidden and (agent_specs is not None or given("shuffles") or more_shuffles) and set(players) == {1}
            and not solo_agents):
        raise click.UsageError("--agents, --shuffles and --more-shuffles are for teams (--players 2 to 4), or for "
                               "the solo deals with --solo-agents: a solo deal alone gets its exact odds")
    if agent_specs is not None and not any(a.strip() for a in agent_specs.split(",")):
        # not the default agent in its place: that is another experiment than the one asked for
        raise BadInput("<argument>", "--agents", f"{agent_specs!r} names no agent kind (for example greedy,guided)")
    if hidden and (methods or proof_dir is not None or retry_uncertified):
        raise click.UsageError("--method, --proof-dir and --retry-uncertified are for --information open")
    results = ResultsFile(out_path)
    results.check()  # before any work: writable, a results file of ours, and no other sweep's now
    click.get_current_context().call_on_close(results.close)  # a refusal after this lets go of it too
    if proof_dir is not None:
        from stratagem.core.outputs import check_writable_dir

        check_writable_dir(proof_dir, "--proof-dir")
    tasks: list[Any]
    try:
        if hidden:
            agents = [a for a in (agent_specs or DEFAULT_AGENT).split(",") if a.strip()]
            known = [r["method"][len("hidden:"):] for r in results.records
                     if str(r.get("method", "")).startswith("hidden:") and r["method"] != SOLO_METHOD]
            tasks = list(plan_hidden(puzzles, seeds, players, agents, shuffles, time_limit,
                                     solo_agents=solo_agents, known=known))
        else:
            tasks = list(plan(puzzles, seeds, players, methods or ("auto",), time_limit, proof_dir))
            if (not any(isinstance(t, Task) for t in tasks)
                    and (deals is not None or seed_range is not None or given("players_text"))):
                # a position is one task per method: 50 seeds asked for would be one record, said nowhere
                raise click.UsageError("--count, --seeds and --players deal Strato puzzles; a position file of "
                                       "another game is one task per --method")
    except BadArgument as exc:  # the seeds: name the option they were given with
        if exc.source == "<argument>" and exc.parameter == "seeds":
            raise BadInput(exc.source, "--seeds" if seed_range is not None else "--count", exc.problem) from None
        raise
    # a settings mismatch is refused before any work
    todo = to_run(tasks, results, retry_unknown=retry_unknown, retry_uncertified=retry_uncertified,
                  more_shuffles=more_shuffles, force_settings=force_settings)
    count = len(todo)
    if results.torn is not None:
        note(results.torn, quiet)
    for path, line in edited_puzzles(tasks, results):
        note(f"{out_path}: line {line} was made from {path} when the file held other bytes: this run's deals of "
             "it are another puzzle's, which the report counts apart (each version under its SHA-256's first 8 "
             "digits)", quiet)
    if retry_uncertified:
        kept = never_certified(tasks, results)
        if kept:
            note(f"{out_path}: {sum(kept.values())} deal(s) rest on a search alone by a method that gives no "
                 f"certificate ({', '.join(sorted(kept))}): not run again, which would answer the same way; "
                 "--method auto, relaxed or sat can certify them", quiet)
    if hidden and not more_shuffles:
        fewer = fewer_shuffles(tasks, results, {t.key for t in todo})
        if fewer:
            note(f"{out_path}: {fewer} agent task(s) already there were asked for fewer games than --shuffles "
                 f"{shuffles} and are kept as they are (a task is a deal, not a number of games); "
                 "--more-shuffles plays them again", quiet)
    show = not (quiet or as_json)
    try:
        with SweepProgress(show, count, hidden) as (on_record, on_failure):
            tally = run_sweep(tasks, results, workers=workers, scheduler=scheduler, on_record=on_record,
                              on_failure=on_failure, connect_timeout=connect_timeout, retry_unknown=retry_unknown,
                              retry_uncertified=retry_uncertified, more_shuffles=more_shuffles,
                              force_settings=force_settings, on_note=lambda text: note(text, quiet),
                              on_start=warn_once)  # the compiled core's notice, after any refusal
    except (KeyboardInterrupt, Terminated) as exc:
        _exit_soon(INTERRUPTED if isinstance(exc, KeyboardInterrupt) else HUNG_UP if isinstance(exc, HungUp)
                   else TERMINATED)
        raise
    if as_json:
        click.echo(dumps_record({"format": SUMMARY_FORMAT, "out": out_path, "written": tally.done,
                                 "skipped": tally.skipped, "failed": tally.failed, "by_status": tally.by_status}),
                   nl=False)
    elif show:
        counts = status_counts(tally.by_status, hidden)
        click.echo(f"{out_path}: {tally.done} record(s) written ({counts}), {tally.skipped} already there"
                   + (f", {tally.failed} failed (run again to retry)" if tally.failed else ""), err=True)
    return UNDETERMINED if tally.failed else DONE


#: Seconds an interrupted sweep is given to finish exiting (the results file is already closed by then)
#: before it ends itself: Dask's threads and processes must not keep a stopped command alive.
EXIT_GRACE = 20.0


def _exit_soon(code: int) -> None:
    """Make sure the process ends within :data:`EXIT_GRACE` seconds with ``code``, whatever is left
    running: a daemon timer that, if the interpreter has not exited by then, flushes and exits hard."""
    def hard_exit() -> None:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)

    timer = threading.Timer(EXIT_GRACE, hard_exit)
    timer.daemon = True
    timer.start()
