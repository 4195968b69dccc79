"""``stratagem solve``: the shortest winning line of a Strato deal, and how its optimality is known.

The answer is :func:`stratagem.solving.solve` (for a STAKD solo set, :func:`stratagem.checking.check_solo`);
this command parses its arguments, calls it, reports the answer (:mod:`stratagem.cli.reports`) and turns
it into the exit code.

Exit codes (:mod:`stratagem.cli.exitcodes`), the same rule as ``check``: 0 when the answer is established
(a line proven shortest; for a STAKD solo set, a placement of every piece), 1 when the deal is proven
unsolvable (no winning line exists; a STAKD set that cannot be placed), 2 on bad input, 3 when a limit
stopped the work first (status ``unknown``: the best line found, if any, is shown but not claimed
shortest). ``--time-limit`` is the limit of the whole command, counted from the start of the process:
the imports, every phase of the method, the greedy fallback and the checking of a refutation share one
deadline.
"""

from __future__ import annotations

import click

from stratagem.checking import check_solo
from stratagem.cli.exitcodes import DONE, NO, UNDETERMINED
from stratagem.cli.limits import NODE_LIMIT, TIME_LIMIT, WholeRange
from stratagem.cli.options import json_option, quiet_option
from stratagem.cli.output import page_written
from stratagem.cli.progress import terminal_progress
from stratagem.cli.reports import report_deal_solution, report_solo_check
from stratagem.core.compiled import warn_once
from stratagem.core.deadline import command_deadline
from stratagem.core.outputs import check_outputs
from stratagem.loading import as_deal, game_of_file
from stratagem.models.strato.solve import METHODS
from stratagem.solvers.search import SOLVED, UNSOLVABLE
from stratagem.solving import proof_outputs
from stratagem.solving import solve as solve_deal


@click.command()
@click.argument("puzzle", type=click.Path(dir_okay=False))
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="relaxed (relaxation bound, certified, and a line of that length; below the optimum, lines "
                   "of growing length by a search pruned by it, certified too), bfs, astar, idastar (search), sat "
                   "(checked refutations), cpsat, or auto: relaxed (its pruned search for half the time left and "
                   "20,000 expansions at most), then A* on one-row deals, otherwise A* for 200,000 expansions "
                   "(2,000 when it cannot run compiled) and SAT from the bound up.")
@click.option("--deal", "deal_key", metavar="NAME|SEED", default=None,
              help="A deal named in the file, or an integer seed for a new seeded deal (default: the first deal).")
@click.option("--players", type=WholeRange(1, 4), default=None, help="Player count for a seeded deal.")
@json_option("Print one JSON object (stratagem/solve@1).")
@quiet_option()
@click.option("--time-limit", type=TIME_LIMIT, default=None, metavar="S",
              help="Stop after S seconds (the whole command) with status 'unknown' and exit 3.")
@click.option("--max-nodes", type=NODE_LIMIT, default=None, metavar="N",
              help="Stop a search after N expansions with status 'unknown' (auto then runs A*).")
@click.option("--proof", "proof_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write a proof record (stratagem/proof@1) that `stratagem verify` checks.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also write the answer as one self-contained HTML page (its line replayed; `stratagem view`).")
def solve(
    puzzle: str,
    method: str,
    deal_key: str | None,
    players: int | None,
    as_json: bool,
    quiet: bool,
    time_limit: float | None,
    max_nodes: int | None,
    proof_path: str | None,
    html_path: str | None,
) -> int:
    """Find the shortest winning line of a Strato deal (open information), or place a STAKD solo set.

    Exit 0 solved, 1 proven unsolvable, 2 bad input, 3 unknown (a limit stopped it first).
    """
    check_outputs(proof_outputs(proof_path, html_path, method), [puzzle])
    if game_of_file(puzzle) == "stakd":
        given = [name for name, value in (("--deal", deal_key), ("--players", players), ("--max-nodes", max_nodes))
                 if value is not None]
        if given:
            raise click.BadParameter(f"is for Strato puzzles; {puzzle} is a STAKD solo puzzle (one set, placed "
                                     "by sat or cpsat)", param_hint=given[0])
        if method not in ("auto", "sat", "cpsat"):
            raise click.BadParameter(f"STAKD solo puzzles are solved by sat or cpsat, not {method}",
                                     param_hint="--method")
        answer = check_solo(puzzle, method, command_deadline(time_limit))  # from the command's start
        report_solo_check(answer, as_json, proof_path, html_path)
        page_written(html_path, as_json, column=True)
        return {True: DONE, False: NO, None: UNDETERMINED}[answer.winnable]
    deal = as_deal(puzzle, deal_key, players)
    if max_nodes is not None and method in ("sat", "cpsat"):
        raise click.BadParameter(f"limits a search (relaxed, bfs, astar, idastar), not {method}; use --time-limit",
                                 param_hint="--max-nodes")
    warn_once()
    solution = solve_deal(deal, method=method, time_limit=command_deadline(time_limit), max_nodes=max_nodes,
                          progress=terminal_progress(enabled=not (as_json or quiet)))
    report_deal_solution(solution, as_json, proof_path, html_path)
    page_written(html_path, as_json)
    return {SOLVED: DONE, UNSOLVABLE: NO}.get(solution.status, UNDETERMINED)
