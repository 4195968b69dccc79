"""``stratagem odds PUZZLE --deal D``: the exact solo win probability of a Strato deal, the pile hidden.

Every other Strato answer assumes open information (the pile's order known, like double-dummy bridge).
This one is the player's: from the deal's table and hand, with the pile shuffled face down, what is the
best achievable probability of winning, and which first move achieves it? The work is
:func:`stratagem.winprobability.odds_of`; this module parses the options, prints the report and turns it into the
exit code.

Why its own command rather than an ``analyze`` method: ``analyze`` values positions of the competitive
games for their players (alpha-beta, LP, estimates); this is a Strato deal (read with ``--deal`` like
``solve`` and ``check``), its answer a probability and its proof a policy (``stratagem/policy@1``), not a
game value and a proof tree. ``--html FILE`` also writes the answer as a page (:mod:`stratagem.views.policy`):
the start, the value or the interval, the ranked first moves.

Exit codes: 0 the exact value was found (and, with ``--table``, its table written), 2 bad input (a deal with
more than one player ...), 3 the time or state limit stopped the search (status ``unknown``, with the proven
lower bound and its policy), or the table asked for was not written (the limit stopped its writing, or it
has more rows than ``verify`` reads; stderr says which), 74 the table's disk refused it (full, a quota, an
I/O error: the values found are printed all the same, the table is not there).
"""

from __future__ import annotations

import sys
from typing import Any

import click
from rich.markup import escape

from stratagem.cli.exitcodes import CANNOT_WRITE, DONE, UNDETERMINED
from stratagem.cli.limits import NODE_LIMIT, TIME_LIMIT
from stratagem.cli.options import Renamed, given, json_option, quiet_option
from stratagem.cli.options import note as stderr_note
from stratagem.cli.output import page_written
from stratagem.cli.progress import terminal_progress
from stratagem.cli.reports import write_page
from stratagem.core.compiled import warn_once
from stratagem.core.deadline import command_deadline
from stratagem.core.outputs import check_outputs, dumps_record, one_set


def _percent(value: object) -> str:
    return f"{float(value):.4f}" if value is not None else "-"  # type: ignore[arg-type]


@click.command()
@click.argument("puzzle", type=click.Path(dir_okay=False))
@click.option("--deal", "deal_key", metavar="NAME|SEED", default=None, help="Which deal (default: the first).")
@click.option("--position", "position", metavar="TEXT", default=None,
              help="Start from this position of the puzzle's challenge instead (open notation, "
                   "'ROWS HAND PILE 1 LAST'; the pile's order is ignored).")
@click.option("--time-limit", type=TIME_LIMIT, default=None, metavar="S",
              help="Stop after S seconds (the whole command): status 'unknown' with the proven lower bound, exit 3.")
@click.option("--max-nodes", "max_states", cls=Renamed, old=("--states",), type=NODE_LIMIT, default=None,
              help="Stop after keeping this many states (default 20,000,000: about 2.6 GB at most, as measured on "
                   "challenge 1; a pile of more than 2^62 orders goes to the plain search: 3,000,000, about 1 KB "
                   "each).")
@click.option("--rank/--no-rank", default=True, show_default=True,
              help="Value every first move exactly (else only the best one).")
@click.option("--proof", "proof_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the policy as a proof DAG (stratagem/policy@1) that `stratagem verify` replays.")
@click.option("--table", "table_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Search for a proven interval instead (whole challenge-1 deals: the exact value, or the "
                   "exact value of a guided policy below it) and write its value table (gzip, "
                   "stratagem/strato-odds-table@4) that `stratagem verify` checks without a search. No ranking of "
                   "first moves; not with --proof.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also write the answer as one self-contained page: the start, the win probability and the "
                   "ranked first moves (`stratagem view` draws a --proof policy as a tree).")
@json_option("Print one JSON object (stratagem/odds@1; with --table, stratagem/odds-bounds@1).")
@quiet_option()
def odds(puzzle: str, deal_key: str | None, position: str | None, time_limit: float | None,
         max_states: int | None, rank: bool, proof_path: str | None, table_path: str | None, html_path: str | None,
         as_json: bool, quiet: bool) -> int:
    """Exact solo win probability of a Strato deal with the pile's order hidden, and its best first moves.

    The player sees the table, their hand and which cards are left, not their order; each draw is a
    chance event. The value is exact (a fraction), found by the compiled exhaustive expectimax; the
    policy that achieves it is the proof. With --table, the search gives the exact value or a proven
    interval, and its value table is the certificate. Exit 0 exact, 2 bad input, 3 stopped by a limit.
    """
    from stratagem.models.strato.hidden.odds import SEARCHED_BY
    from stratagem.winprobability import odds_bounds, odds_deal, odds_of

    if table_path is not None and proof_path is not None:
        raise click.UsageError("give --proof (the optimal policy) or --table (the interval search's value "
                               "table), not both")
    if table_path is not None and given("rank"):
        raise click.UsageError("--rank and --no-rank are for the exact search: --table values the start only")
    check_outputs([(proof_path, "--proof"), (table_path, "--table"), (html_path, "--html")], [puzzle])
    if position is not None and deal_key is not None:
        raise click.UsageError("give --deal or --position, not both")
    deal = odds_deal(puzzle, deal_key, position)
    warn_once()  # the odds search is a kernel of the compiled core: plain Python is far slower
    if table_path is not None:
        with one_set():  # the value table and the page of one answer: both in place, or neither
            bounds = odds_bounds(deal, table_path, time_limit=command_deadline(time_limit), max_states=max_states,
                                 progress=terminal_progress(enabled=not (as_json or quiet)))
            if bounds.table is None and bounds.table_error is None:
                click.echo(f"{table_path}: {bounds.table_note}", err=True)
            if html_path is not None:
                write_page(html_path, bounds.to_json(), f"{deal.source}, deal {deal.name}")
        if as_json:
            click.echo(dumps_record(bounds.to_json()), nl=False)
        else:
            _print_bounds(bounds)
        page_written(html_path, as_json)
        if bounds.table_error is not None:  # the values above stand; the disk refused the certificate
            click.echo(f"{table_path}: {bounds.table_note} (the values above were found; nothing is written there)",
                       err=True)
            return CANNOT_WRITE
        # the table asked for and not written (a limit stopped its writing, or it has more rows than verify
        # reads): part of the work undone, as an export a limit stopped, even where the value is exact
        return DONE if bounds.status == "solved" and bounds.table is not None else UNDETERMINED
    answer = odds_of(deal, time_limit=command_deadline(time_limit), max_states=max_states, rank=rank,
                     progress=terminal_progress(enabled=not (as_json or quiet)))
    note = ""
    with one_set():  # the policy record and the page of one answer: both in place, or neither
        if proof_path is not None:
            if answer.write_proof(proof_path):
                note = f"policy record written to {proof_path}"
            else:
                note = "no policy record written: no policy was valued before the limit"
                click.echo(f"{proof_path}: {note}", err=True)
        if html_path is not None:
            write_page(html_path, answer.to_json(), f"{deal.source}, deal {deal.name}")
    if as_json:
        click.echo(dumps_record(answer.to_json()), nl=False)
    else:
        _print(answer, note)
    page_written(html_path, as_json)
    if answer.status != "solved" and position is None and answer.result.searched_by == SEARCHED_BY:
        sys.stdout.flush()  # the note follows the report it is about, on a terminal and in a captured stream
        stderr_note("note: where the exact search does not finish, --table FILE gives a proven interval (the exact "
                    "value of a guided policy below it) and a value table that verify checks", quiet)
    return DONE if answer.status == "solved" else UNDETERMINED


def _print(answer: object, note: str) -> None:
    from stratagem.cli.output import stdout
    from stratagem.winprobability import DealOdds

    assert isinstance(answer, DealOdds)
    r, deal = answer.result, answer.deal
    out = stdout()
    _heading(out, deal, answer.to_json()["start"])
    if r.status == "solved":
        out.print(f"win probability {r.value} = {_percent(r.value)} (exact: {r.searched_by} over "
                  f"{r.states:,} states, {r.seconds:.1f} s)")
    else:
        source = (f"the {r.proof_source}'s exact value" if r.proof_source != "none" else
                  "no policy was valued before the limit: the trivial bound")
        out.print(f"win probability unknown: stopped by the {r.stopped_by} after {r.states:,} states "
                  f"({r.seconds:.1f} s); proven at least {r.lower_bound} = {_percent(r.lower_bound)} ({source})")
    out.print(f"greedy agent  {r.greedy if r.greedy is not None else f'not valued ({r.greedy_stopped_by})'}"
              + (f" = {_percent(r.greedy)}" if r.greedy is not None else ""))
    if r.ranking:
        if r.ranked:
            heading = "first moves, exact win probability"
        elif r.ranking_stopped_by:
            heading = (f"first moves, exact win probability (the {r.ranking_stopped_by} stopped the ranking: "
                       "the moves valued before it)")
        else:
            heading = "first move, exact win probability (best only)"
        out.print(heading)
        for move, value in r.ranking:
            out.print(f"  {move:<14} {value} = {_percent(value)}")
    if note:
        out.print(note)


def _heading(out: Any, deal: Any, start: str) -> None:
    """The two lines every odds report starts with: the deal and what the player sees, then the start."""
    out.print(f"{escape(deal.challenge.name)}, deal {escape(deal.name)}, solo; information: the pile's order hidden "
              "(the player sees the table, the hand and which cards are left)")
    out.print(f"start  [dim]{start}[/]")


def _print_bounds(bounds: object) -> None:
    from stratagem.cli.output import stdout
    from stratagem.winprobability import DealBounds

    assert isinstance(bounds, DealBounds)
    out = stdout()
    _heading(out, bounds.deal, bounds.to_json()["start"])
    size = f"{bounds.states:,} states kept, {bounds.memory / 2 ** 20:,.0f} MB, {bounds.cpu_seconds:.1f} s CPU"
    if bounds.status == "solved":
        out.print(f"win probability {bounds.lower} = {_percent(bounds.lower)} (exact: compiled search, {size})")
    else:
        out.print(f"win probability between {bounds.lower} = {_percent(bounds.lower)} and {bounds.upper} = "
                  f"{_percent(bounds.upper)} (proven; the compiled search stopped: {size})")
    out.print("search  " + "; ".join(bounds.steps))
    if bounds.table is not None:
        out.print(f"value table written to {bounds.table} ({bounds.table_rows:,} rows); check it with "
                  f"`stratagem verify {bounds.table}`")
