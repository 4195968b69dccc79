"""``stratagem verify``: check every claim of a line or proof record with the rules engine alone.

The checking is :func:`stratagem.verification.verify`; this command parses its arguments, calls it,
prints the verdict and turns it into the exit code.

Nothing in a record is trusted (its result flags, bounds, claims): what is checked is rebuilt from the
rules engine and the record's setup and start position. Each claim the record makes is reported with
a status:

- ``certified``: checked here, and the report names what checked it (the replayed line, a DRUP
  refutation of a CNF rebuilt from the rules, a relaxation bound recomputed from the rules, a proof
  tree replayed move by move, a plain enumeration run by ``--recheck``);
- ``not-certified``: only asserted: the record's evidence is a search it reports (an exhaustive
  search, CP-SAT's INFEASIBLE answer), which is not repeated without ``--recheck``;
- ``unknown``: the check of that claim was stopped by ``--time-limit`` or ``--max-nodes``;
- ``invalid``: the rules or a recomputation contradict it.

Exit codes (:mod:`stratagem.cli.exitcodes`, docs/formats.md §4.5): 0 when every claim is certified;
1 when anything is invalid; 2 when the file cannot be read (malformed JSON, unknown format, a move
that does not parse) or a limit is not a finite positive number; 3 when the record replays and
nothing in it is wrong, but some claim is not certified or unknown.
"""

from __future__ import annotations

from typing import Any

import click

from stratagem.cli.exitcodes import DONE, NO, UNDETERMINED
from stratagem.cli.limits import NODE_LIMIT, TIME_LIMIT
from stratagem.cli.options import Renamed, json_option, quiet_option
from stratagem.cli.progress import terminal_progress
from stratagem.core.deadline import command_deadline
from stratagem.core.io import ReadStopped
from stratagem.core.outputs import dumps_record
from stratagem.core.provenance import describe
from stratagem.solvers.replay import DEFAULT_MAX_STATES
from stratagem.verification import CERTIFIED, DEFAULT_SOLO_NODES, INVALID, UNKNOWN, Verdict, load_record
from stratagem.verification import verify as verify_record
from stratagem.verification.oddstable import is_table, table_header
from stratagem.verification.policy import DEFAULT_RECHECK_STATES
from stratagem.verification.strato import SEARCH_NODES


@click.command()
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--recheck", is_flag=True,
              help="Also check claims whose evidence is only a search the record reports (optimality or "
                   "unsolvability by an exhaustive search or CP-SAT) by a plain enumeration of the rules.")
@click.option("--time-limit", type=TIME_LIMIT, default=None, metavar="S",
              help="Seconds for the whole run (reading the record, the re-check, a DRUP check, a relaxation "
                   "bound); a claim whose check it stops is reported unknown (exit 3).")
@click.option("--max-nodes", "nodes", cls=Renamed, old=("--nodes",), type=NODE_LIMIT, default=None,
              metavar="N",
              help=f"For --recheck: at most N states kept by the Strato enumeration (default "
                   f"{DEFAULT_MAX_STATES:,}, about 600 MB), by the search over a hidden-pile policy record's "
                   f"information states (default {DEFAULT_RECHECK_STATES:,}) or positions expanded by the STAKD "
                   f"search (default {DEFAULT_SOLO_NODES:,}); with or without it, at most N positions expanded by "
                   f"the search a relaxation-search certificate repeats (default {SEARCH_NODES:,}). When it runs "
                   f"out the claim is unknown (exit 3).")
@json_option("Print the verdict as one JSON object (stratagem/verdict@1).")
@quiet_option()
def verify(record: str, recheck: bool, time_limit: float | None, nodes: int | None, as_json: bool,
           quiet: bool) -> int:
    """Check every claim of a line or proof record, or a reach report, with the rules engine alone.

    Each claim is reported certified (checked here, saying by what), not certified (only asserted by
    the record: run with --recheck), unknown (a limit stopped its check) or invalid.
    Exit 0: every claim certified; 1: something is invalid; 2: unreadable input; 3: nothing is wrong
    but some claim is not certified or unknown.
    """
    # A record is read once: the verdict and the provenance line come from the same data (a value table
    # is gzip text, which verify reads itself; its provenance is in its header line, read here apart).
    # The limit is the command's, reading included: a record of tens of MB takes seconds to parse and walk.
    deadline = command_deadline(time_limit)
    table = is_table(record)
    try:
        data = None if table else load_record(record, stop=deadline.expired)
    except ReadStopped:
        data = None  # verify_record meets the expired deadline at once and says so, as for any claim
    progress = terminal_progress(enabled=not quiet)
    if data is None:
        verdict = verify_record(record, recheck, deadline, nodes, progress=progress)
    else:
        verdict = verify_record(data, recheck, deadline, nodes, source=record, progress=progress)
    if not as_json:
        _show_provenance(table_header(record) if table else data)
    return _report(verdict, as_json)


def _show_provenance(data: dict[str, Any] | None) -> None:
    """One line saying what the record says made it (:func:`stratagem.core.provenance.describe`): shown,
    never checked or required, and no part of the verdict."""
    stated = describe(data)
    if stated is not None:
        click.echo(f"made by (as the record states it, not checked): {stated}")


def _report(verdict: Verdict, as_json: bool) -> int:
    """Print the verdict (human or JSON); the exit code: 0 all certified, 1 invalid, 3 not all certified."""
    status, kind = verdict.status, verdict.kind
    if as_json:
        click.echo(dumps_record(verdict.to_json()), nl=False)
    else:
        for item in verdict.checked:
            click.echo(f"checked: {item}")
        for item in verdict.notes:
            click.echo(f"note: {item}")
        for claim in verdict.claims:
            click.echo(claim.text())
        if status == INVALID:
            click.echo(f"{kind} INVALID")
        elif status == CERTIFIED:
            click.echo(f"{kind} valid: every claim certified")
        else:
            open_claims = verdict.open_claims
            count = len(open_claims)
            unknown = sum(c.status == UNKNOWN for c in open_claims)
            stopped = f" ({unknown} unknown: a limit stopped the check)" if unknown else ""
            click.echo(f"{kind} checks, but {count} claim{'s' if count != 1 else ''} not certified{stopped}")
    if status == INVALID:
        click.echo(verdict.problem or f"{verdict.source}: a claim is invalid", err=True)
        return NO
    return DONE if status == CERTIFIED else UNDETERMINED
