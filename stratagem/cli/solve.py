"""``stratagem solve``: the shortest winning line of a Strato deal, and how its optimality is known."""

from __future__ import annotations

from typing import Any

import click

from stratagem.cli.games import load_strato
from stratagem.cli.progress import search_progress
from stratagem.cli.render import describe_challenge, draw_rows, draw_state
from stratagem.core.io import dumps_record, write_atomic
from stratagem.core.records import SOLVE_FORMAT, Line, Proof
from stratagem.models.strato.notation import format_move
from stratagem.models.strato.planning import StratoPlanning
from stratagem.models.strato.position import format_state
from stratagem.solvers.search import (
    FOUND,
    SOLVED,
    UNKNOWN,
    UNSOLVABLE,
    SearchResult,
    astar,
    bfs,
    greedy,
    idastar,
)

METHODS = {"bfs": bfs, "astar": astar, "idastar": idastar}

METHOD_NAMES = {
    "bfs": "breadth-first search",
    "astar": "A* with an admissible heuristic",
    "idastar": "IDA* with an admissible heuristic",
}

#: Share of the time limit given to the greedy search for a best line when the optimal search stops.
FALLBACK_SHARE = 0.25

INFORMATION = "open: the solver sees every hand and the order of the draw pile and chooses every play"


def optimality(method: str, result: SearchResult[Any, Any]) -> str:
    """How the result's claim was established, in words that do not overclaim."""
    name = METHOD_NAMES[method]
    if result.status == SOLVED:
        k = len(result.moves or ())
        return (
            f"{name} ruled out every line shorter than {k} turns "
            f"(exhaustive search, no independent certificate; `stratagem verify --recheck` re-checks it)"
        )
    if result.status == UNSOLVABLE:
        total = sum(result.stats.states_per_depth)
        counted = f"all {total} reachable states" if total else "every reachable state"
        return f"{name} searched {counted} and none is a win (exhaustive search, no independent certificate)"
    return (
        f"{name} stopped by its {result.stopped_by} limit; no winning line is shorter than "
        f"{result.lower_bound} turns, nothing more is proven"
    )


@click.command()
@click.argument("puzzle", type=click.Path(dir_okay=False))
@click.option("--method", type=click.Choice(sorted(METHODS)), default="astar", show_default=True,
              help="Search: breadth-first, A* or IDA* (all optimal in turns).")
@click.option("--deal", "deal_key", metavar="NAME|SEED", default=None,
              help="A deal named in the file, or an integer seed for a new seeded deal (default: the first deal).")
@click.option("--players", type=click.IntRange(1, 4), default=None, help="Player count for a seeded deal.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (stratagem/solve@1).")
@click.option("--time-limit", type=click.FloatRange(min=0), default=None, metavar="S",
              help="Stop after S seconds with status 'unknown'.")
@click.option("--max-nodes", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop after N expansions with status 'unknown'.")
@click.option("--proof", "proof_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write a proof record (stratagem/proof@1) that `stratagem verify` checks.")
def solve(
    puzzle: str,
    method: str,
    deal_key: str | None,
    players: int | None,
    as_json: bool,
    time_limit: float | None,
    max_nodes: int | None,
    proof_path: str | None,
) -> int:
    """Find the shortest winning line of a Strato deal (open information)."""
    loaded = load_strato(puzzle)
    spec = loaded.find_deal(deal_key, players)
    game = loaded.game(spec)
    start = game.initial_state()
    problem = StratoPlanning(game)
    with search_progress(f"{method} on {spec.name}", enabled=not as_json) as progress:
        result = METHODS[method](problem, time_limit=time_limit, max_nodes=max_nodes, progress=progress)
    best = None
    if result.status == UNKNOWN:
        # Anytime fallback: some winning line, clearly not claimed shortest, next to the proven bound.
        budget = None if time_limit is None else max(1.0, FALLBACK_SHARE * time_limit)
        with search_progress(f"greedy line on {spec.name}", enabled=not as_json) as progress:
            best = greedy(problem, time_limit=budget, max_nodes=max_nodes, progress=progress)
        if best.status == UNSOLVABLE:  # the greedy search ran through the whole space
            result = SearchResult(method, UNSOLVABLE, None, result.lower_bound, best.stats, None)
            best = None

    found = best is not None and best.status == FOUND
    moves = result.moves or (best.moves if best is not None and found else None) or ()
    states = [start]
    for move in moves:
        states.append(game.apply(states[-1], move))
    line_text = [format_move(m) for m in moves]
    outcome = "won" if moves else ""
    line = Line("strato", loaded.setup(), format_state(start), tuple(line_text), outcome)

    report = {
        "format": SOLVE_FORMAT,
        "game": "strato",
        "puzzle": puzzle,
        "deal": spec.name,
        "seed": spec.seed,
        "players": game.num_players,
        "information": "open",
        "start": format_state(start),
        "status": result.status,
        "length": len(moves) if moves else None,
        "line": line_text,
        "optimal": result.status == SOLVED,
        "optimality": optimality(method, result),
        "lower_bound": result.lower_bound,
        "method": method,
        "stopped_by": result.stopped_by,
        "best_line": (
            None if best is None else {"method": "greedy", "status": best.status, "nodes": best.stats.expanded}
        ),
        "stats": {
            "nodes": result.stats.expanded,
            "generated": result.stats.generated,
            "seconds": round(result.stats.seconds, 3),
            "states_per_depth": list(result.stats.states_per_depth),
        },
    }

    proof_note = ""
    if proof_path is not None:
        if result.status == SOLVED or result.status == UNSOLVABLE:
            proof = Proof(
                game="strato",
                claim={
                    "solvable": result.status == SOLVED,
                    "length": len(moves) if moves else None,
                    "optimal": result.status == SOLVED,
                    "information": "open",
                },
                line=line,
                evidence={
                    "kind": "exhaustive-search",
                    "certificate": False,
                    "method": method,
                    "lower_bound": result.lower_bound,
                    "states_per_depth": list(result.stats.states_per_depth),
                    "nodes": result.stats.expanded,
                },
            )
            write_atomic(proof_path, dumps_record(proof.to_json()))
            proof_note = f"proof record written to {proof_path}"
        else:
            proof_note = "no proof record written: the search stopped before deciding"
            click.echo(f"{proof_path}: {proof_note}", err=True)

    if as_json:
        click.echo(dumps_record(report), nl=False)
        return 0

    from stratagem.cli.main import stdout

    out = stdout()
    out.print(describe_challenge(loaded.challenge))
    seed = f"seed {spec.seed}, " if spec.seed is not None else ""
    out.print(f"deal {spec.name} ({seed}{game.num_players} player(s)); information: {INFORMATION}")
    out.print(f"start  [dim]{format_state(start)}[/]")
    for line_ in draw_state(start, loaded.challenge):
        out.print(line_)
    for turn, (move, text) in enumerate(zip(moves, line_text, strict=True), start=1):
        player = states[turn - 1].to_move + 1
        redraw = " (Redraw)" if move.redraw else ""
        out.print(f"turn {turn}  player {player}  [bold]{text}[/]{redraw}")
        for line_ in draw_rows(states[turn], loaded.challenge):
            out.print(line_)
    if result.status == SOLVED:
        out.print(f"[bold green]solved[/] in {len(moves)} turns, optimal: {report['optimality']}")
    elif result.status == UNSOLVABLE:
        out.print(f"[bold red]unsolvable[/]: {report['optimality']}")
    else:
        if moves:
            out.print(f"best line found: {len(moves)} turns (greedy best-first search; not known to be shortest)")
        out.print(f"[bold yellow]unknown[/]: {report['optimality']}")
    out.print(f"method {method}, {result.stats.expanded:,} nodes expanded, {result.stats.seconds:.2f} s")
    if proof_note:
        out.print(proof_note)
    return 0
