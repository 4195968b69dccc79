"""``stratagem view RECORD``: a record as one self-contained HTML page (:mod:`stratagem.views`).

Lines, proofs, ``solve``/``check``/``analyze``/``odds``/``reach`` reports, proof trees, Stack Attack
certificates and Strato policies (``odds --proof``): the positions are rebuilt by replaying the record
with the rules engine, and the record's claims are shown as the record's. ``--verify`` runs
:func:`stratagem.verification.verify` on it first and shows its report claim by claim.

``--time-limit S`` is the limit of the whole command. Two phases of ``view`` do work that a record does not
bound: ``--verify``'s check, and the walk from the start that rebuilds a Stack Attack certificate's tables
(one node at a five-player start obliges 100,000 children). ``--verify`` is given S, counted from its own
start (:func:`~stratagem.verification.verify` takes seconds, not a deadline; a claim it stops is shown
``unknown``), and the rebuild stops at the command's deadline (counted from the command's start, so after a
verify the time limit stopped, it stops at once): the page then draws only the tables the walk completed,
marks the others not drawn and says so. Without ``--verify`` the option is taken for a certificate, whose
page makes that walk, and refused for any other record, where it would limit nothing. Leaving it out is
how to ask for no limit.

Exit codes: 0 the page was written (with ``--verify``: and every claim is certified), 2 bad input (a
record that does not read, an output path that cannot be written, and without ``--verify`` a move that
does not replay: one line on stderr naming the file and the place). With ``--verify`` the page is written
whatever the verdict, and the exit code is ``verify``'s: 1 when a claim is invalid (its problem on stderr;
a line that does not replay is such a record, and its page shows the line up to the move that breaks it
and why), 3 when a claim is not certified, so a script that checks pages need not run ``verify`` a second
time. A page whose tables the time limit cut short is written too, one line on stderr says what was not
drawn, and the exit code is 3 (unless a claim is invalid: 1), as for a claim a limit stopped: part of
what the page shows of the record was not rebuilt and checked.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from stratagem.cli.exitcodes import DONE, NO, UNDETERMINED
from stratagem.cli.limits import TIME_LIMIT
from stratagem.cli.options import json_option, quiet_option
from stratagem.core.deadline import command_deadline
from stratagem.core.io import first_line_format, load_json
from stratagem.core.outputs import check_outputs, dumps_record, write_atomic

if TYPE_CHECKING:
    from stratagem.verification.verdict import Verdict

#: The format name of ``view --json`` (docs/formats.md section 10.10).
VIEW_FORMAT = "stratagem/view@1"


@click.command()
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Where to write the page (default: the record's name with .html).")
@click.option("--verify", "run_verify", is_flag=True,
              help="Check the record with `stratagem verify` first, show its report on the page and exit "
                   "as verify does (0 all certified, 1 invalid, 3 not all certified).")
@click.option("--time-limit", type=TIME_LIMIT, default=None, metavar="S",
              help="Stop after S seconds in all: --verify's check (claims not checked by then: unknown) and "
                   "the rebuild of a certificate's tables (tables not rebuilt by then: not drawn, exit 3).")
@json_option(f"Print one JSON object ({VIEW_FORMAT}: the record, the page written, verify's status) instead of "
             "the line naming the page.")
@quiet_option("Accepted for uniformity: view prints nothing on stderr but problems (an error, an invalid claim, "
              "tables the time limit left out).")
def view(record: str, out_path: str | None, run_verify: bool, time_limit: float | None, as_json: bool,
         quiet: bool) -> int:
    """Draw a line, proof or report record as one self-contained HTML page (replay, tree or matrices)."""
    from stratagem.verification.oddstable import is_table, table_header
    from stratagem.views import record_page
    from stratagem.views.records import BOUNDPROOF, MATRIXPROOF, MATRIXPROOFS, REPORTS

    deadline = command_deadline(time_limit)
    target = out_path if out_path is not None else str(Path(record).with_suffix(".html"))
    # without --out the page's name is the record's: say so rather than name an option not given
    check_outputs([(target, "--out" if out_path is not None else "the page (the record's name with .html; "
                    "give --out)")], [record])
    # A value table (odds --table) is gzip text: its page draws its header; --verify checks its rows.
    table = is_table(record)
    data = table_header(record) if table else _load_record(record)
    if time_limit is not None and not run_verify and data.get("format") not in (MATRIXPROOF, MATRIXPROOFS, BOUNDPROOF):
        raise click.BadParameter("limits the check --verify makes and the rebuild of a certificate's tables; "
                                 "this record's page has neither: give --verify too, or leave it out",
                                 param_hint="--time-limit")
    verdict = None
    if run_verify:
        from stratagem.verification import verify

        if data.get("format") in REPORTS:
            raise click.BadParameter(f"{record} is a {data['format']} report, not a record `stratagem verify` "
                                     f"checks: view it without --verify, or {REPORTS[data['format']]}",
                                     param_hint="--verify")
        # verify is given the command's deadline, which counts from the process's start: given the seconds, it
        # counted them from its own start, after the record was read (a 48 MB proof tree: --time-limit 5 took
        # 8.1 s); the same deadline then bounds the rebuild
        verdict = verify(record if table else data, time_limit=deadline, source=record)
    stopped: list[str] = []
    page = record_page(data, record, verdict, deadline=deadline, stopped=stopped)
    write_atomic(target, page)
    if as_json:
        click.echo(dumps_record({"format": VIEW_FORMAT, "record": record, "out": target,
                                 "verified": None if verdict is None else verdict.status}), nl=False)
    else:
        click.echo(f"page written to {target}")
    code = _verdict_code(verdict)
    for line in stopped:
        click.echo(line, err=True)
    return UNDETERMINED if stopped and code == DONE else code


#: What ``view`` says of a sweep's results file, which holds a record a line and is drawn by ``report``.
RESULTS_FILE = ("a sweep's results file (stratagem/sweep@1, one record a line), not a record `stratagem view` draws: "
                "`stratagem report FILE --out DIR --html` draws it")


def _load_record(record: str) -> dict[str, Any]:
    """The record in the file ``record``; a sweep's results file, the one JSON Lines file a user is likely
    to give (its second line was reported as "malformed JSON: Extra data"), is refused naming the command
    that draws it."""
    from stratagem.core.errors import BadInput
    from stratagem.sweeprecords import SWEEP_FORMAT

    try:
        data = load_json(record)
    except BadInput:
        if first_line_format(record) == SWEEP_FORMAT:
            raise BadInput(record, "", RESULTS_FILE) from None
        raise
    if data.get("format") == SWEEP_FORMAT:  # a results file of one line
        raise BadInput(record, "", RESULTS_FILE)
    return data


def _verdict_code(verdict: Verdict | None) -> int:
    """The exit code of a page: ``verify``'s for a checked record (the problem of an invalid one on stderr)."""
    from stratagem.verification.verdict import CERTIFIED, INVALID

    if verdict is None or verdict.status == CERTIFIED:
        return DONE
    if verdict.status == INVALID:
        click.echo(verdict.problem or f"{verdict.source}: a claim is invalid", err=True)
        return NO
    return UNDETERMINED
