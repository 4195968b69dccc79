"""``stratagem check PUZZLE``: is it solvable at all? A witness line, or a certificate that it is not.

The answer is :func:`stratagem.checking.check`; this command parses its arguments, calls it, reports
the answer (:mod:`stratagem.cli.reports`) and turns it into the exit code.

- STAKD solo puzzles: "can every piece be placed?" answered by the SAT model (default; an impossible
  puzzle gets a DRUP refutation checked by the project's checker) or the CP-SAT model (an INFEASIBLE
  answer carries no certificate, and says so). A witness is replayed through the rules engine first.
- Strato deals: the solving methods of ``stratagem solve`` (a winning line, or an exhaustive search /
  refutation of every horizon up to the game's length).

Exit codes (:mod:`stratagem.cli.exitcodes`): 0 when solvable (a witness), 1 when a check established
that no line exists, 2 on bad input, 3 when the time limit stopped the solver first: status ``unknown``,
nothing claimed either way. ``--time-limit`` is the limit of the whole command (one deadline for the
solver and the checking of its proof).

``--proof FILE`` with a stopped solver: there is no answer to record, so **nothing is written** (no
record, no CNF or DRUP file) and one line on stderr says so; the report on stdout (status ``unknown``)
is printed as usual and the exit code is 3. A record is only ever the record of an answer, so that a
file named by ``--proof`` that exists is always one ``verify`` can check. (Before, this case was refused
as bad input, exit 2, and the report thrown away.)
"""

from __future__ import annotations

import click

from stratagem.checking import SoloCheck
from stratagem.checking import check as check_puzzle
from stratagem.cli.exitcodes import DONE, NO, UNDETERMINED
from stratagem.cli.limits import TIME_LIMIT, WholeRange
from stratagem.cli.options import json_option, quiet_option
from stratagem.cli.output import page_written
from stratagem.cli.progress import terminal_progress
from stratagem.cli.reports import report_deal_solution, report_solo_check
from stratagem.core.deadline import command_deadline
from stratagem.core.outputs import check_outputs
from stratagem.solvers.search import SOLVED, UNSOLVABLE
from stratagem.solving import proof_outputs


@click.command()
@click.argument("puzzle", type=click.Path(dir_okay=False))
@click.option("--method", type=click.Choice(["auto", "sat", "cpsat"]), default="auto", show_default=True,
              help="STAKD: auto is sat (refutations are checked DRUP proofs); cpsat answers without a certificate. "
                   "Strato: the method of `stratagem solve --method` of that name.")
@click.option("--time-limit", type=TIME_LIMIT, default=None, metavar="S",
              help="Stop after S seconds (the whole command) with status 'unknown' and exit 3.")
@click.option("--deal", "deal_key", metavar="NAME|SEED", default=None, help="Strato: which deal (default: the first).")
@click.option("--players", type=WholeRange(1, 4), default=None, help="Strato: player count for a seeded deal.")
@click.option("--proof", "proof_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the answer as a proof record (stratagem/proof@1) that `stratagem verify` checks.")
@json_option("Print one JSON object: stratagem/check@1 for a STAKD solo puzzle, stratagem/solve@1 (as `solve "
             "--json`) for a Strato deal.")
@quiet_option()
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also write the answer as one self-contained HTML page (its line replayed; `stratagem view`).")
def check(puzzle: str, method: str, time_limit: float | None, deal_key: str | None, players: int | None,
          proof_path: str | None, as_json: bool, quiet: bool, html_path: str | None) -> int:
    """Is the puzzle solvable? A replayed witness line, or a certificate that no line exists.

    Exit 0 solvable, 1 not solvable (established), 2 bad input, 3 unknown (the time limit stopped it;
    with --proof nothing is written).
    """
    check_outputs(proof_outputs(proof_path, html_path, method), [puzzle])
    # the limit counts from the start of the command, as solve's does: given as seconds, it began only here,
    # after the imports (challenge 1, --time-limit 0.5 took 2.0 s where solve took 0.9 s)
    answer = check_puzzle(puzzle, deal_key, method, command_deadline(time_limit), players=players,
                          progress=terminal_progress(enabled=not (as_json or quiet)))
    if isinstance(answer, SoloCheck):
        report_solo_check(answer, as_json, proof_path, html_path)
        page_written(html_path, as_json, column=True)
        return {True: DONE, False: NO, None: UNDETERMINED}[answer.winnable]
    report_deal_solution(answer, as_json, proof_path, html_path)
    page_written(html_path, as_json)
    # check asks "is there a line?": a line found is the answer, even when solve cannot call it shortest.
    if answer.status == UNSOLVABLE:
        return NO
    return DONE if answer.moves or answer.status == SOLVED else UNDETERMINED
