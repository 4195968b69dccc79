"""``stratagem reach``: the reachable state graph of a Strato deal, or of its layout in designer mode.

Two graphs can be built from a puzzle file:

* **deal** (default): every position reachable in the chosen deal with open information (the solver
  sees every hand and the pile and chooses every play), as :class:`StratoPlanning` searches it for
  ``solve``. Lost positions (a half-row over the limit, or no card left to play) are *not* states of
  the graph, exactly as ``solve`` never enters them: play cannot go on from there, and counting them
  would only inflate the dead ends with states nobody can stand in. A position all of whose plays
  lose therefore has no successors and counts as a dead end, like every position from which no win
  is reachable. With this choice the graph of an unsolvable deal holds exactly the states
  ``solve --method bfs`` reports exhausting.
* **designer** (``--designer``): the chosen deal's rows only, any weather of the challenge playable
  each turn (:mod:`stratagem.models.strato.designer`). Its par is a lower bound on every deal on that
  layout, and a complete designer graph with no win proves every deal on the layout unsolvable. A designer
  graph cut before a win (challenge 1's layouts pass 200,000 states at depth 4) is followed by the par's
  searches (:func:`~stratagem.models.strato.reachability.search_par`) in the rest of the build's share of the
  time (the graph has :data:`DESIGNER_GRAPH_SHARE` of it): A* under the same state limit, then, where A* stops
  without a par (the level-2 example's layouts), SAT from A*'s bound (the solver's word).

The graph is built breadth-first up to ``--max-nodes`` states or ``--time-limit`` seconds; a graph
stopped by a limit is reported as truncated, and then "no win found" proves nothing. The time limit is
the command's, counted from its start: the build stops when :data:`BUILD_SHARE` of what is left has passed
(with ``--export``, the smaller :data:`DOT_BUILD_SHARE` or :data:`GRAPHML_BUILD_SHARE`), leaving the rest to
the analysis of the graph (components, dead ends, par line) and the export, whose costs grow with the graph.
``--export`` writes it as GraphML or DOT to ``--out`` (an export the limit ends before its last line writes no
file, and the report says so); ``--html`` the report's page (:mod:`stratagem.views.reach`); ``--proof FILE``
(designer mode) the report with its par's certificate, or that no win is reachable, for ``verify`` (it costs).

Exit codes, as ``solve``'s: 0 a win is reachable, 1 the complete graph (or the par's A*, every layout
expanded) proves the deal (or every deal on the layout) unsolvable, 3 the graph is truncated and proves nothing
either way (in designer mode: nor did the par's searches), or the limit ended the export.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from stratagem.cli.exitcodes import DONE, NO, UNDETERMINED
from stratagem.cli.limits import NODE_LIMIT, TIME_LIMIT, WholeRange
from stratagem.cli.options import Renamed, json_option, quiet_option
from stratagem.cli.output import page_written
from stratagem.cli.progress import search_progress, terminal_progress
from stratagem.cli.render import describe_challenge, draw_rows, draw_state
from stratagem.cli.reports import write_page
from stratagem.core.deadline import command_deadline
from stratagem.core.errors import BadInput
from stratagem.core.outputs import check_outputs, dumps_record, one_set
from stratagem.core.words import plural
from stratagem.loading import load_strato
from stratagem.models.strato import reachability
from stratagem.models.strato.designer import StratoDesigner
from stratagem.models.strato.reachability import conclusion, par_search_fields, par_search_lines
from stratagem.models.strato.rules.notation import format_move
from stratagem.models.strato.rules.position import format_state
from stratagem.models.strato.search.planning import StratoPlanning
from stratagem.solvers.graph import (
    ExportStopped,
    build_graph,
    graph_facts,
    shortest_line,
    write_dot,
    write_graphml,
)

REACH_FORMAT = "stratagem/reach@3"

EXPORTS = {"graphml": write_graphml, "dot": write_dot}

DEFAULT_MAX_STATES = 200_000

#: Share of ``--time-limit`` the build may use; the analysis of what was built takes about a tenth of the
#: build's time (measured on the level-2 example's duo-1: 2.0 s of build, 0.2 s of analysis).
BUILD_SHARE = 0.85
#: The same with ``--export graphml``: networkx's GraphML writer took about twice the build's time
#: (challenge 1 solo-1 at a 5-s limit: 4.3 s of build, then 9 s of writing, 13.7 s in all) and 0.3 of the
#: limit was left to the build; the project's streaming writer gives the same bytes in a sixth of the time
#: (the level-2 example's duo-1, 59,977 states: 2.15 CPU s of build, 4.06 s networkx's writing, 0.64 s its
#: own), 0.3 of the build's time, and the analysis takes up to 0.14 of it: a share of 0.6 leaves 0.4 of the
#: limit for the 0.26 they need, with room for a machine whose load changes while the command runs.
GRAPHML_BUILD_SHARE = 0.6
#: The same with ``--export dot``: the DOT writer takes 0.11-0.19 of the build's time and the analysis up to
#: 0.14 (challenge 0, challenge 1 and the level-2 example at a 4-s build), so the build's share of 0.85 ran
#: the command to 1.13 times the limit and more on a loaded machine (challenge 1's layout, ``--designer
#: --time-limit 10 --export dot``: 14.05 s wall). 0.7 of the limit leaves 0.93 of it for all three.
DOT_BUILD_SHARE = 0.7
#: In designer mode, the graph's part of the build's share; the rest is the par's searches (A*, then SAT) when
#: the graph is cut before a win (challenge 1's layouts pass 200,000 states at depth 4, where A* finds par 7 in
#: 0.13 CPU s).
DESIGNER_GRAPH_SHARE = 0.6

DEAL_INFORMATION = "open: the solver sees every hand and the order of the draw pile and chooses every play"
DESIGNER_RULES = "designer mode: the deal's rows only; each turn any weather of the challenge, at any end of any row"
LOST_NOTE = (
    "lost positions are not states of the graph (as in `solve`); a state whose every play loses is a dead end"
)


@click.command()
@click.argument("puzzle", type=click.Path(dir_okay=False))
@click.option("--deal", "deal_key", metavar="NAME|SEED", default=None,
              help="A deal named in the file, or an integer seed for a new seeded deal (default: the first deal).")
@click.option("--players", type=WholeRange(1, 4), default=None,
              help="Player count for a seeded deal (not with --designer, whose graph holds no hands).")
@click.option("--designer", is_flag=True,
              help="Designer mode: the deal's rows only, any weather of the challenge playable every turn "
                   "(a graph cut before a win is followed by A*, then SAT, searching for the par).")
@click.option("--max-nodes", "max_states", cls=Renamed, old=("--max-states",), type=NODE_LIMIT,
              default=DEFAULT_MAX_STATES, show_default=True, metavar="N",
              help="Stop building (graph truncated) rather than hold more than N states.")
@click.option("--time-limit", type=TIME_LIMIT, default=None, metavar="S",
              help="Stop building (graph truncated) after S seconds.")
@click.option("--export", "export_format", type=click.Choice(sorted(EXPORTS)), default=None,
              help="Write the graph in this format to --out.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="The file --export writes.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also write the answer as one self-contained page: the graph's facts, the states per depth "
                   "as a chart and the par line replayed.")
@click.option("--proof", "proof_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help=f"With --designer: write the report ({REACH_FORMAT}) to FILE for `stratagem verify`, certifying the "
                   "par (a checked DRUP proof beside it, NAME.drup.gz) or no win (the whole graph's NAME.layouts.gz).")
@json_option(f"Print one JSON object ({REACH_FORMAT}).")
@quiet_option()
def reach(
    puzzle: str,
    deal_key: str | None,
    players: int | None,
    designer: bool,
    max_states: int,
    time_limit: float | None,
    export_format: str | None,
    out_path: str | None,
    html_path: str | None,
    proof_path: str | None,
    as_json: bool,
    quiet: bool,
) -> int:
    """Build the reachable state graph of a Strato deal (or its layout) and report what it shows."""
    if export_format is not None and out_path is None:
        raise BadInput("<argument>", f"--export {export_format}", "needs --out FILE to write the graph to")
    if out_path is not None and export_format is None:
        raise BadInput("<argument>", "--out", "needs --export graphml|dot to say what to write")
    if designer and players is not None:  # it changed the heading only: a seeded deal's rows come before its hands
        raise BadInput("<argument>", "--players", "changes nothing in designer mode: its graph is the deal's rows "
                       "alone, and a seeded deal's rows are laid out before the hands, the same for every player count")
    check_outputs([(out_path, "--out"), (html_path, "--html"), *reachability.report_outputs(proof_path, designer)],
                  [puzzle])

    deadline = command_deadline(time_limit)
    loaded = load_strato(puzzle)
    spec = loaded.find_deal(deal_key, players)
    game = loaded.game(spec)
    start = game.initial_state()
    mode = "designer" if designer else "deal"
    label = f"{mode} graph of {spec.name}"
    share = {"graphml": GRAPHML_BUILD_SHARE, "dot": DOT_BUILD_SHARE}.get(export_format or "", BUILD_SHARE)
    search_phase = deadline.part(share)  # the build, and in designer mode the par's A* after it
    graph_phase = search_phase.part(DESIGNER_GRAPH_SHARE) if designer else search_phase
    left = graph_phase.remaining()
    build_limit = None if left is None else max(left, 1e-9)
    layout = StratoDesigner(loaded.challenge, loaded.options, start.rows, start.last) if designer else None
    with search_progress(label, enabled=not (as_json or quiet), first="depth", second="states") as progress:
        if layout is not None:
            graph = build_graph(layout, label=layout.format_state, move_label=format_move,
                                max_states=max_states, time_limit=build_limit, progress=progress)
        else:
            planning = StratoPlanning(game)
            graph = build_graph(planning, label=format_state, move_label=format_move,
                                max_states=max_states, time_limit=build_limit, progress=progress)
    facts = graph_facts(graph)
    line = shortest_line(graph)
    start_label = str(graph.nodes[0]["label"])
    layouts = reachability.no_win_layouts(graph, facts, designer, proof_path)  # before the graph is emptied
    if export_format is None or out_path is None:
        graph.clear()  # not read again: free for the par's searches (level-2 peak 1,563 -> 1,371 MB)
    par_search, line, certificate = reachability.par_and_certificate(  # designer mode: where the graph has no win
        layout, facts, line, spec.name, search_phase, max_states, terminal_progress(not (as_json or quiet)),
        prove=proof_path is not None)
    unsolvable, verdict = conclusion(facts, designer, par_search, certificate)

    export: dict[str, Any] | None = None
    export_stopped: ExportStopped | None = None
    with one_set():  # the exported graph and the page of one answer: both in place, or neither
        if export_format is not None and out_path is not None:
            graph.graph["name"] = f"{Path(puzzle).name} {spec.name} {mode}"
            try:
                EXPORTS[export_format](graph, out_path, deadline)  # a full disk: OSError naming the file, exit 74
            except ExportStopped as stopped:
                export_stopped = stopped
                click.echo(f"{out_path}: graph not written: the {time_limit} s time limit ended its writing "
                           f"({stopped})", err=True)
            export = {"format": export_format, "path": out_path, "written": export_stopped is None}

        if as_json or html_path is not None or proof_path is not None:
            report: dict[str, Any] = {
                "format": REACH_FORMAT,
                "game": "strato",
                "puzzle": puzzle,
                "deal": spec.name,
                "seed": spec.seed,
                "players": game.num_players,
                "mode": mode,
                "information": None if designer else "open",
                "start": start_label,
                "limits": {"max_states": max_states, "time_limit": time_limit},
                **facts.to_json(),
                **par_search_fields(par_search),
                **reachability.certificate_fields(certificate),
                "par_line": line,
                "unsolvable": unsolvable,
                "conclusion": verdict,
                "export": export,
            }
            reachability.write_report(proof_path, report, certificate, layouts)
            if html_path is not None:
                write_page(html_path, report, f"{puzzle}, deal {spec.name}")
    if as_json:
        click.echo(dumps_record(report), nl=False)
        return _exit_code(unsolvable, export_stopped is not None)

    from stratagem.cli.output import stdout
    out = stdout()
    out.print(describe_challenge(loaded.challenge))
    seed = f"seed {spec.seed}, " if spec.seed is not None else ""
    if designer:
        out.print(f"layout of deal {escape(spec.name)} ({seed}{game.num_players} player(s)); {DESIGNER_RULES}")
        out.print(f"start  [dim]{start_label}[/]")
        for text in draw_rows(start, loaded.challenge):
            out.print(text)
    else:
        out.print(f"deal {escape(spec.name)} ({seed}{game.num_players} player(s)); information: {DEAL_INFORMATION}")
        out.print(f"start  [dim]{start_label}[/]")
        for text in draw_state(start, loaded.challenge):
            out.print(text)
        out.print(f"[dim]{LOST_NOTE}[/]")
    if facts.complete:
        out.print(f"graph: {plural(facts.states, 'state', grouped=True)}, {plural(facts.edges, 'edge', grouped=True)}, "
                  "complete (every reachable state expanded)")
    else:
        why = f"the state limit ({max_states:,})" if facts.stopped_by == "states" else f"the {time_limit} s time limit"
        unexpanded = plural(facts.frontier, "state", grouped=True)
        out.print(f"graph: {plural(facts.states, 'state', grouped=True)}, {plural(facts.edges, 'edge', grouped=True)}, "
                  f"[bold yellow]truncated[/] by {why}: {unexpanded} left unexpanded")
    if facts.goal_reachable:
        out.print(f"winning states: {facts.goal_states:,} reached; "
                  f"par {plural(facts.par, 'turn')}: {' '.join(line or ())}")
    else:
        out.print("winning states: none reached")
    for text in par_search_lines(par_search, certificate) if par_search is not None else ():
        out.print(text)
    dead = "" if facts.complete else "at least "
    out.print(f"dead-end states (no win reachable): {dead}{facts.dead_ends:,}")
    part = "" if facts.complete else " in the part built"
    out.print(f"strongly connected components: {facts.strongly_connected_components:,}{part} "
              f"(largest: {facts.largest_component:,} {'state' if facts.largest_component == 1 else 'states'})")
    out.print(f"states per depth: {' '.join(str(n) for n in facts.states_per_depth)}")
    colour = {True: "bold red", False: "bold green", None: "bold yellow"}[unsolvable]
    word = {True: "unsolvable", False: "win reachable", None: "unknown"}[unsolvable]
    out.print(f"[{colour}]{word}[/]: {verdict}")
    if export is not None and export_stopped is None:
        out.print(f"graph written to {export['path']} ({export['format']})")
    page_written(html_path, as_json)
    if proof_path is not None:
        out.print(escape(reachability.report_written(proof_path, certificate, line, layouts)))
    return _exit_code(unsolvable, export_stopped is not None)


def _exit_code(unsolvable: bool | None, export_stopped: bool = False) -> int:
    """As ``solve``'s: 0 a win is reachable, 1 proven unsolvable (the complete graph, or the par's A* over
    every layout), 3 unknown (the graph is truncated, so no win found proves nothing, and in designer mode the
    par's A* was stopped too), and 3 when the time limit ended the export. The report is written in every case,
    the export whenever it finished."""
    if export_stopped:
        return UNDETERMINED
    return {False: DONE, True: NO, None: UNDETERMINED}[unsolvable]
