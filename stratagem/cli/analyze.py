"""``stratagem analyze POSITION``: the value of a position, the best moves, the principal variation, a proof.

The analysis is :func:`stratagem.analysis.analyze`; this module parses the options, calls it, writes
the proof (:meth:`~stratagem.analysis.Analysis.write_proof`) and renders the result.

The methods, what each claims and how the limits are shared are described in :mod:`stratagem.analysis`.
On the command line, ``--time-limit`` is one :class:`~stratagem.core.deadline.Deadline` for the whole
command: the root's search, the ranking of the root moves (``--rank``, the default unless ``--proof``
is given) and the proof (``--proof``) share it, and the root's search and the ranking share one
transposition table. A value is printed only when the search was exhaustive or certified; otherwise
the best line is labelled "best found so far (not proven)", never "best move".

Exit codes (:mod:`stratagem.cli.exitcodes`): 0 when the status is ``solved`` or ``heuristic`` (a value, or
a depth-limited estimate the user asked for by ``--depth``), and for the Monte Carlo methods, whose
estimates are what they are asked for; 3 (undetermined) when an exact method (``alphabeta``, ``expecti``,
``paranoid``, ``maxn``, ``lp``) stopped without a value, or a Monte Carlo method before its first iteration
or sample (nothing estimated: status ``unknown``, no best move), or ``--proof`` was asked and none was written (the
limit ran out first, or ``--depth`` cut the search and left the value to the game's evaluation; the analysis
is printed all the same); 2 on bad input.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import click
from click.core import ParameterSource

from stratagem.analysis import DEFAULT_LP_NODES, EXACT, METHODS, ProofNotWritten, check_provable, resolve_method
from stratagem.analysis import analyze as analyse_position
from stratagem.cli.exitcodes import DONE, UNDETERMINED
from stratagem.cli.limits import NODE_LIMIT, TIME_LIMIT, WholeRange
from stratagem.cli.options import Renamed, json_option, note, quiet_option
from stratagem.cli.output import as_options, page_written, stdout
from stratagem.cli.progress import terminal_progress
from stratagem.cli.seeds import SEED
from stratagem.core.deadline import command_deadline
from stratagem.core.errors import BadInput
from stratagem.core.game import Simultaneous
from stratagem.core.io import MAX_PARAMETER
from stratagem.core.outputs import check_outputs, dumps_record, one_set, write_atomic
from stratagem.core.provenance import provenance
from stratagem.engines import ENGINES
from stratagem.loading import load_position
from stratagem.solvers.gametree import NOT_RANKED, SOLVED

#: The library's parameter names in its refusals, and the options they are on the command line.
OPTIONS = {"method": "--method", "as_player": "--as", "proof": "--proof"}


@click.command()
@click.argument("position", type=click.Path(dir_okay=False))
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="auto: lp for simultaneous moves, pimc with --as, else alphabeta (paranoid for 3+ players, "
                   "maxn for one).")
@click.option("--depth", type=WholeRange(1, MAX_PARAMETER), default=None,
              help="Search depth in plies (lp: simultaneous turns); the cut uses the game's evaluation.")
@click.option("--time-limit", type=TIME_LIMIT, default=None, metavar="S",
              help="The whole command stops after S seconds (search, ranking and proof share them): status "
                   "unknown with the best found so far, exit 3 for an exact method.")
@click.option("--max-nodes", "max_nodes", cls=Renamed, old=("--nodes",), type=NODE_LIMIT, default=None,
              help="Stop a search after this many nodes (each ranked move's search too); lp: after this many "
                   f"positions valued, {DEFAULT_LP_NODES:,} without the option.")
@click.option("--iterations", type=WholeRange(1, MAX_PARAMETER), default=None,
              help="MCTS/ISMCTS/DUCT iterations (default: 2000, or with --time-limit as many as the limit allows).")
@click.option("--samples", type=WholeRange(1, MAX_PARAMETER), default=None, help="PIMC samples (default 20).")
@click.option("--as", "as_player", type=WholeRange(1, 6), default=None,
              help="Analyse from this player's observation (PIMC or ISMCTS) instead of open information.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of MCTS, ISMCTS, PIMC and DUCT.")
@click.option("--rank/--no-rank", default=None,
              help="Exact methods: search every root move to rank them (one search per move). Default: on, "
                   "but off with --proof, where the proof is what was asked (the ranking can cost thousands "
                   "of times the proof's nodes).")
@click.option("--proof", "proof_file", type=click.Path(dir_okay=False), default=None,
              help="Write the proof (proof tree, or LP certificates) of a solved value to this file.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also write the analysis as one self-contained HTML page (its line replayed; `stratagem view`).")
@json_option("Print the analysis as one JSON document.")
@quiet_option()
@click.option("--engine", type=click.Choice(ENGINES), default=None,
              help="Rules engine of the search: compiled (the default where the game has a compiled engine; "
                   "every method searches in C there except a depth-limited exact search, pimc of a "
                   "simultaneous-move game and lp where the engine has no bounded induction, which run on the "
                   "rules engine, and by default ismcts of a game with no compiled guide (Stack Attack), "
                   "which runs where play runs the ismcts agent) or reference (the Python rules engine).")
def analyze(position: str, method: str, depth: int | None, time_limit: float | None, max_nodes: int | None,
            iterations: int | None, samples: int | None, as_player: int | None, seed: int, rank: bool | None,
            proof_file: str | None, html_path: str | None, as_json: bool, quiet: bool, engine: str | None) -> int:
    """Value, best moves and principal variation of a position; a proof when the value is solved.

    Exact: alphabeta (expecti where chance remains), paranoid or maxn (3+ players, labelled), lp
    (simultaneous moves, exact certificates). Estimates: mcts (open), ismcts and pimc (--as), duct;
    mcts and ismcts search as the agents of those names do (guided by the game's move order where it
    has one), and their summary says by what, or that the search ran plain.
    Open analysis (every card known) is the default and is said so.
    """
    check_outputs([(proof_file, "--proof"), (html_path, "--html")], [position])
    seeded = click.get_current_context().get_parameter_source("seed") != ParameterSource.DEFAULT
    given = {"--depth": depth is not None, "--max-nodes": max_nodes is not None, "--iterations": iterations is not None,
             "--samples": samples is not None, "--seed": seeded, "--as": as_player is not None, "--rank": rank is True}
    if rank is None:
        rank = proof_file is None
    with as_options(OPTIONS):
        loaded = load_position(position)
        chosen = resolve_method(loaded, method, as_player)
        _refuse_unused(given, chosen, isinstance(loaded.game, Simultaneous))
        if proof_file is not None:
            check_provable(chosen, loaded.game.num_players)
        started = time.perf_counter()
        deadline = command_deadline(time_limit)  # the command's: loading the position counts too
        limit = deadline if time_limit is not None else None
        analysis = analyse_position(loaded, chosen, depth=depth, time_limit=limit, max_nodes=max_nodes, rank=rank,
                                    as_player=as_player, iterations=iterations, samples=samples, seed=seed,
                                    progress=terminal_progress(enabled=not (as_json or quiet)), engine=engine)
        if analysis.engine_note:
            note(f"note: {analysis.engine_note}", quiet)
        report = analysis.to_json()
        # Estimates are what the Monte Carlo methods are asked for; an exact method without a value is not done.
        code = DONE if analysis.status in (SOLVED, "heuristic", "estimate") else UNDETERMINED
        with one_set():  # the proof and the page of one answer: both in place, or neither
            if proof_file is not None:
                try:
                    report["proof"] = analysis.write_proof(proof_file, limit, provenance(position)).to_json()
                except ProofNotWritten as exc:
                    report["proof"] = None
                    code = UNDETERMINED
                    click.echo(f"{proof_file}: no proof written: {exc}", err=True)
            seconds = time.perf_counter() - started
            if html_path is not None:
                from stratagem.views import record_page

                write_atomic(html_path, record_page(report, position))
    if as_json:
        click.echo(dumps_record(report), nl=False)
    else:
        _print(report, seconds)
    page_written(html_path, as_json)
    return code


#: The methods each option is for: given to another method, it would do nothing, and is refused up front.
USED_BY = {
    "--depth": (*EXACT, "lp"),  # and pimc's sampled deals of simultaneous moves (each solved by LP to a depth)
    "--max-nodes": (*EXACT, "lp"),
    "--iterations": ("mcts", "ismcts", "duct"),
    "--samples": ("pimc",),
    "--seed": ("mcts", "ismcts", "pimc", "duct"),
    "--as": ("pimc", "ismcts"),
    "--rank": EXACT,
}


def _refuse_unused(given: dict[str, bool], method: str, simultaneous: bool) -> None:
    """Refuse an option the chosen method does not use (``--samples`` with alphabeta, ``--as`` with an open
    analysis, ``--depth`` with MCTS ...): each was accepted and silently did nothing (``--as 1 --method
    alphabeta`` printed an open analysis)."""
    for option, used in given.items():
        users = USED_BY[option] + (("pimc",) if option == "--depth" and simultaneous else ())
        if used and method not in users:
            raise BadInput("stratagem analyze", option, f"is for {', '.join(users)}; {method} does not use it: "
                           "leave it out")


def _print(report: dict[str, Any], seconds: float) -> None:
    out = stdout()
    title = report["game"] + (f" — {report['name']}" if report.get("name") else "")
    out.print(f"[bold]{title}[/]   ({report['information']})")
    out.print(f"position  [dim]{report['start']}[/]   to move: {report['to_move']}")
    assumption = f", assumption: {report['assumption']}" if report.get("assumption") else ""
    out.print(f"method    {report['method']}{assumption}")
    out.print(f"result    [bold]{report['summary']}[/]   (status: {report['status']})")
    shown = report.get("best_move") or report.get("best_found")
    if shown and report["status"] == SOLVED:
        out.print(f"best move {shown}")
    elif shown:
        kind = {"heuristic": "by the evaluation", "estimate": "by the estimate"}.get(report["status"], "found so far")
        out.print(f"best {kind} (not proven): {shown}")
    if report.get("pv"):
        unproven = "" if report["status"] == SOLVED else " (not proven)"
        out.print(f"line      {' '.join(report['pv'])}{unproven}")
    for entry in report.get("players", []):
        strategy = ", ".join(f"{m}: {p}" for m, p in entry.get("strategy", {}).items())
        value = f"value {entry['value']}" if "value" in entry else ""
        if "mean_return" in entry:
            value = f"mean return {entry['mean_return']}"
        if "expected_return" in entry:
            approx = float(Fraction(str(entry["expected_return"])))
            value += f"{', ' if value else ''}expected return {approx:.3f} with these mixes"
        out.print(f"player {entry['player']}  {value}" + (f"   mix {strategy}" if strategy else ""))
        if "opponent_strategy" in entry:
            mix = ", ".join(f"{m}: {p}" for m, p in entry["opponent_strategy"].items())
            out.print(f"          opponent's mix {mix}")
    moves = report.get("moves") or []
    if moves:
        out.print("moves     " + "   ".join(_move_text(m) for m in moves[:12])
                  + ("   ..." if len(moves) > 12 else ""))
        if report.get("not_ranked"):
            out.print(f"          {report['not_ranked']} of {len(moves)} moves not ranked: the time limit ran out")
    counts = [f"{report[k]:,} {k}" for k in ("nodes", "iterations", "samples") if report.get(k)]
    out.print(f"[dim]{', '.join(counts)}{', ' if counts else ''}{seconds:.2f} s[/]")
    if report.get("proof"):
        proof = report["proof"]
        out.print(f"proof     {proof['file']} ({proof['format']}, {proof['nodes']:,} nodes); "
                  f"check it with `stratagem verify {proof['file']}`")


def _move_text(move: dict[str, Any]) -> str:
    if "visits" in move:
        value = move.get("proven")  # a float sum of exact returns: shown to 6 digits, not its rounding error
        proven = "" if value is None else f", proven {value:.6g}" if isinstance(value, float) else f", proven {value}"
        mean = "" if move["mean"] is None else f", {move['mean']}"  # no visit, no mean
        return f"{move['move']} ({move['visits']} visits{mean}{proven})"
    if "samples" in move:
        return f"{move['move']} ({'not sampled' if move['mean'] is None else move['mean']})"
    status = move.get("status")
    if status == NOT_RANKED or move.get("value") is None:
        return f"{move['move']} ({'not ranked' if status == NOT_RANKED else 'unknown'})"
    distance = "" if move.get("distance") is None else f" in {move['distance']}"
    note = "" if status in (None, SOLVED) else f", {status}"
    return f"{move['move']} ({move['value']}{distance}{note})"
