"""``stratagem solve``: the shortest winning line of a Strato deal, and how its optimality is known.

Exit codes (:mod:`stratagem.cli.exitcodes`), the same rule as ``check``: 0 when the answer is established
(a line proven shortest; for a STAKD solo set, a placement of every piece), 1 when the deal is proven
unsolvable (no winning line exists; a STAKD set that cannot be placed), 2 on bad input, 3 when a limit
stopped the work first (status ``unknown``: the best line found, if any, is shown but not claimed
shortest). ``--time-limit`` is the limit of the whole command: every phase of the method, the greedy
fallback and the checking of a refutation share one deadline.
"""

from __future__ import annotations

from pathlib import Path

import click

from stratagem.cli.exitcodes import DONE, NO, UNDETERMINED
from stratagem.cli.games import game_of_file, load_strato
from stratagem.cli.limits import TIME_LIMIT
from stratagem.cli.progress import search_progress
from stratagem.cli.render import describe_challenge, draw_rows, draw_state
from stratagem.core.io import check_writable, dumps_record
from stratagem.core.records import SOLVE_FORMAT, Line
from stratagem.models.strato.notation import format_move
from stratagem.models.strato.position import State, format_state
from stratagem.models.strato.solve import INFORMATION, METHOD_NAMES, METHODS, write_proof
from stratagem.models.strato.solve import solve as solve_deal
from stratagem.solvers.search import SOLVED, UNSOLVABLE


@click.command()
@click.argument("puzzle", type=click.Path(dir_okay=False))
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="relaxed (relaxation bound, certified, and a line of that length), bfs, astar, idastar "
                   "(search), sat (checked refutations), cpsat, or auto: relaxed, then if the bound is below "
                   "the optimum A* on one-row deals, otherwise A* for 2,000 expansions and SAT from the bound up.")
@click.option("--deal", "deal_key", metavar="NAME|SEED", default=None,
              help="A deal named in the file, or an integer seed for a new seeded deal (default: the first deal).")
@click.option("--players", type=click.IntRange(1, 4), default=None, help="Player count for a seeded deal.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (stratagem/solve@1).")
@click.option("--time-limit", type=TIME_LIMIT, default=None, metavar="S",
              help="Stop after S seconds (the whole command) with status 'unknown' and exit 3.")
@click.option("--max-nodes", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop a search after N expansions with status 'unknown' (auto then runs A*).")
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
    """Find the shortest winning line of a Strato deal (open information), or place a STAKD solo set.

    Exit 0 solved, 1 proven unsolvable, 2 bad input, 3 unknown (a limit stopped it first).
    """
    if proof_path is not None:
        check_writable(proof_path, "--proof")
    if game_of_file(puzzle) == "stakd":
        from stratagem.cli.check import check_stakd

        if deal_key is not None or players is not None or max_nodes is not None:
            raise click.BadParameter("is for Strato puzzles", param_hint="--deal/--players/--max-nodes")
        if method not in ("auto", "sat", "cpsat"):
            raise click.BadParameter(f"STAKD solo puzzles are solved by sat or cpsat, not {method}",
                                     param_hint="--method")
        return check_stakd(puzzle, "sat" if method == "auto" else method, time_limit, proof_path, as_json)
    return solve_strato(puzzle, method, deal_key, players, as_json, time_limit, max_nodes, proof_path)[0]


def solve_strato(
    puzzle: str,
    method: str,
    deal_key: str | None,
    players: int | None,
    as_json: bool,
    time_limit: float | None,
    max_nodes: int | None,
    proof_path: str | None,
) -> tuple[int, str, bool]:
    """``solve`` on a Strato deal: the exit code (0 solved, 1 unsolvable, 3 unknown), the status, and whether
    a winning line was found (shortest or not)."""
    loaded = load_strato(puzzle)
    spec = loaded.find_deal(deal_key, players)
    game = loaded.game(spec)
    start = game.initial_state()
    if proof_path is not None and not Path(proof_path).resolve().parent.is_dir():
        raise click.BadParameter(f"folder of {proof_path!r} does not exist", param_hint="--proof")
    if max_nodes is not None and method in ("sat", "cpsat"):
        raise click.BadParameter(f"limits a search (relaxed, bfs, astar, idastar), not {method}; use --time-limit",
                                 param_hint="--max-nodes")

    def progress(label: str, first: str, second: str):  # type: ignore[no-untyped-def]
        return search_progress(label, enabled=not as_json, first=first, second=second)

    outcome = solve_deal(game, method, time_limit, max_nodes, progress=progress, label=spec.name)

    moves = outcome.moves
    states: list[State] = [start]
    for move in moves:
        states.append(game.apply(states[-1], move))
    line_text = [format_move(m) for m in moves]
    line = Line("strato", loaded.setup(), format_state(start), tuple(line_text), "won" if moves else "")

    report = {
        "format": SOLVE_FORMAT,
        "game": "strato",
        "puzzle": puzzle,
        "deal": spec.name,
        "seed": spec.seed,
        "players": game.num_players,
        "information": "open",
        "start": format_state(start),
        "status": outcome.status,
        "length": len(moves) if moves else None,
        "line": line_text,
        "optimal": outcome.status == SOLVED,
        "optimality": outcome.optimality,
        "lower_bound": outcome.lower_bound,
        "method": outcome.method,
        "stopped_by": outcome.stopped_by,
        "best_line": outcome.best_line,
        "stats": outcome.stats,
    }

    if spec.optimal_length is not None and outcome.status == SOLVED and len(moves) != spec.optimal_length:
        click.echo(f"{puzzle}: deal {spec.name!r}: the file says optimal_length = {spec.optimal_length}, "
                   f"but the shortest line has {len(moves)} turns", err=True)

    proof_note = ""
    if proof_path is not None:
        if moves or outcome.status == UNSOLVABLE:  # a witness line, or the evidence of exhaustion
            write_proof(proof_path, outcome, line)
            proof_note = f"proof record written to {proof_path}"
        else:
            proof_note = "no proof record written: the search stopped before deciding"
            click.echo(f"{proof_path}: {proof_note}", err=True)

    code = {SOLVED: DONE, UNSOLVABLE: NO}.get(outcome.status, UNDETERMINED)
    if as_json:
        click.echo(dumps_record(report), nl=False)
        return code, outcome.status, bool(moves)

    from stratagem.cli.main import stdout

    out = stdout()
    out.print(describe_challenge(loaded.challenge))
    seed = f"seed {spec.seed}, " if spec.seed is not None else ""
    out.print(f"deal {spec.name} ({seed}{game.num_players} player(s)); information: {INFORMATION}")
    out.print(f"start  [dim]{format_state(start)}[/]")
    for text in draw_state(start, loaded.challenge):
        out.print(text)
    for turn, (move, text) in enumerate(zip(moves, line_text, strict=True), start=1):
        player = states[turn - 1].to_move + 1
        redraw = " (Redraw)" if move.redraw else ""
        out.print(f"turn {turn}  player {player}  [bold]{text}[/]{redraw}")
        for row_text in draw_rows(states[turn], loaded.challenge):
            out.print(row_text)
    if outcome.status == SOLVED:
        out.print(f"[bold green]solved[/] in {len(moves)} turns, optimal: {outcome.optimality}")
    elif outcome.status == UNSOLVABLE:
        out.print(f"[bold red]unsolvable[/]: {outcome.optimality}")
    else:
        if moves:
            found_by = METHOD_NAMES[(outcome.best_line or {}).get("method", "greedy")]
            out.print(f"best line found: {len(moves)} turns ({found_by}; not known to be shortest)")
        out.print(f"[bold yellow]unknown[/]: {outcome.optimality}")
    nodes = outcome.stats.get("nodes")
    effort = f"{nodes:,} nodes expanded, " if nodes is not None else f"{len(outcome.stats.get('horizons', []))} " \
        "solver calls, "
    out.print(f"method {outcome.method}, {effort}{outcome.stats['seconds']:.2f} s")
    if proof_note:
        out.print(proof_note)
    return code, outcome.status, bool(moves)
