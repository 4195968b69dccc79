"""``stratagem solve``: the shortest winning line of a Strato deal, and how its optimality is known."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from stratagem.cli.games import game_of_file, load_strato
from stratagem.cli.progress import search_progress
from stratagem.cli.render import describe_challenge, draw_rows, draw_state
from stratagem.core.io import dumps_record, write_atomic
from stratagem.core.records import SOLVE_FORMAT, Line, Proof
from stratagem.models.strato.cpsat import StratoCPSAT
from stratagem.models.strato.heuristic import lower_bound
from stratagem.models.strato.notation import Move, format_move
from stratagem.models.strato.planning import StratoPlanning
from stratagem.models.strato.position import State, format_state
from stratagem.models.strato.rules import StratoGame
from stratagem.models.strato.sat import ENCODING, StratoCNF, max_turns
from stratagem.solvers.dimacs import write_dimacs, write_text_maybe_gz
from stratagem.solvers.drup import DrupVerdict, check_drup_data
from stratagem.solvers.satplan import Refutation, SatPlanResult, horizon_search, incremental_search
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

SEARCHES = {"bfs": bfs, "astar": astar, "idastar": idastar}
METHODS = (*SEARCHES, "sat", "cpsat", "auto")

METHOD_NAMES = {
    "bfs": "breadth-first search",
    "astar": "A* with an admissible heuristic",
    "idastar": "IDA* with an admissible heuristic",
    "sat": "SAT (CaDiCaL 1.9.5) over growing horizons, incrementally",
    "cpsat": "CP-SAT over growing horizons",
}

#: Share of the time limit given to the greedy search for a best line when the optimal search stops.
FALLBACK_SHARE = 0.25

#: ``auto``: A* on one-row deals; on deals with more rows, A* for at most :data:`AUTO_ASTAR_NODES`
#: expansions (and half the time limit), then SAT for the time left. Measured by ``stratagem bench
#: strato`` (results/strato-methods.md and strato-search.md, one run, 10 s per method, encoding 4): on
#: the one-row deals of challenge 0 A* takes 0.55-1.8 of BFS's time and SAT 0.64-1.9, but SAT then
#: spends 0.2-2.6 times its solving time checking its proof, so A* is faster end to end. On challenge 1,
#: A* decides four deals in 11-1,546 expansions (0.01-1.9 s) where SAT needs 0.9-3.3 s, and SAT decides
#: solo-2 and duo-2 (3.6 s and 2.3 s) where A* stops; on the level-2 example nothing decides within 10 s.
#: A line from A* comes with exhaustive-search evidence, not a certificate: ``--method sat`` gives one.
AUTO_SEARCH_MAX_ROWS = 1
AUTO_ASTAR_NODES = 2_000


def auto_method(start: State) -> str:
    """The first method ``--method auto`` runs on a deal (see :data:`AUTO_SEARCH_MAX_ROWS`)."""
    return "astar" if len(start.rows) <= AUTO_SEARCH_MAX_ROWS else "astar+sat"


def run_auto(game: StratoGame, time_limit: float | None, label: str, quiet: bool) -> Outcome:
    """A* with a small budget, then SAT for the time left (deals with more than one row)."""
    started = time.perf_counter()
    first = run_search("astar", game, None if time_limit is None else time_limit / 2, AUTO_ASTAR_NODES,
                       label, quiet)
    if first.status in (SOLVED, UNSOLVABLE):
        return first
    remaining = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - started))
    outcome = run_sat(game, remaining, label, quiet)
    outcome.stats["astar_first"] = {"status": first.status, "nodes": first.stats["nodes"],
                                    "seconds": first.stats["seconds"], "lower_bound": first.lower_bound}
    outcome.lower_bound = max(outcome.lower_bound, first.lower_bound)
    return outcome


INFORMATION = "open: the solver sees every hand and the order of the draw pile and chooses every play"


@dataclass
class Outcome:
    """What any method found, in the terms the report and the proof record need."""

    method: str
    status: str
    moves: tuple[Move, ...]
    lower_bound: int
    optimality: str
    stats: dict[str, Any]
    stopped_by: str | None = None
    best_line: dict[str, Any] | None = None
    evidence: dict[str, Any] = field(default_factory=dict)
    refutation: Refutation | None = None


def search_optimality(method: str, result: SearchResult[Any, Any]) -> str:
    """How a search result's claim was established, in words that do not overclaim."""
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


def run_search(method: str, game: StratoGame, time_limit: float | None, max_nodes: int | None,
               label: str, quiet: bool) -> Outcome:
    problem = StratoPlanning(game)
    with search_progress(f"{method} on {label}", enabled=not quiet) as progress:
        result = SEARCHES[method](problem, time_limit=time_limit, max_nodes=max_nodes, progress=progress)
    outcome = Outcome(
        method=method,
        status=result.status,
        moves=tuple(result.moves or ()),
        lower_bound=result.lower_bound,
        optimality=search_optimality(method, result),
        stats={
            "nodes": result.stats.expanded,
            "generated": result.stats.generated,
            "seconds": round(result.stats.seconds, 3),
            "states_per_depth": list(result.stats.states_per_depth),
        },
        stopped_by=result.stopped_by,
    )
    if result.status in (SOLVED, UNSOLVABLE):
        outcome.evidence = {
            "kind": "exhaustive-search",
            "certificate": False,
            "method": method,
            "lower_bound": result.lower_bound,
            "states_per_depth": list(result.stats.states_per_depth),
            "nodes": result.stats.expanded,
        }
    return outcome


#: ``--method sat`` asks one CaDiCaL instance the horizons from ``SAT_WARM_UP`` below the heuristic's
#: bound up, ``SAT_WINDOW`` horizons per formula (:func:`~stratagem.solvers.satplan.incremental_search`;
#: the easy small horizons teach the solver clauses it keeps), then refutes the plain formula of the
#: horizon below the first satisfiable one from scratch for the certificate. Measured on the level-2
#: example's solo-1: horizon 9 refuted in 23-37 s this way, 84-94 s from scratch.
SAT_WARM_UP = 3
SAT_WINDOW = 8


def run_sat(game: StratoGame, time_limit: float | None, label: str, quiet: bool, backend: str = "sat") -> Outcome:
    """Horizons from the heuristic's bound up, with CaDiCaL (checked refutations) or CP-SAT (no certificate).

    SAT's search runs incrementally (:data:`SAT_WARM_UP`); its claims rest only on the plain formula's
    refutation, checked here by the project's DRUP checker. A line found by SAT whose certificate ran out
    of time is kept as the best line, not claimed shortest.
    """
    start = game.initial_state()
    bound = lower_bound(game.challenge, start)
    first = max(0, bound - 1)
    last = max_turns(start)
    with search_progress(f"{backend} on {label}", enabled=not quiet) as progress:
        if backend == "cpsat":
            result = horizon_search(lambda k: StratoCPSAT(game, k), first=first, last=last, time_limit=time_limit,
                                    progress=progress, backend=backend)
        else:
            result = incremental_search(lambda lo, hi: StratoCNF(game, hi, open_from=lo),
                                        first=max(0, first - SAT_WARM_UP), last=last, step=SAT_WINDOW,
                                        time_limit=time_limit, prove=lambda k: StratoCNF(game, k),
                                        progress=progress)
    runs = [
        {"horizon": r.horizon, "satisfiable": r.satisfiable, "variables": r.variables, "clauses": r.clauses,
         "proof_lines": r.proof_lines, "seconds": round(r.seconds, 3)}
        for r in result.runs
    ]
    stats: dict[str, Any] = {"nodes": None, "seconds": round(result.seconds, 3), "horizons": runs}
    refutation = result.refutation
    checked = ""
    if backend == "cpsat":
        if refutation is not None:
            checked = (f"CP-SAT found horizon {refutation.horizon} INFEASIBLE ({refutation.num_vars} variables), "
                       "no certificate")
    elif refutation is not None and result.status in (SOLVED, UNSOLVABLE):
        left = None if time_limit is None else max(0.0, time_limit - result.seconds)
        with search_progress(f"checking the refutation of horizon {refutation.horizon}", enabled=not quiet,
                             first="step", second="steps in the proof") as checking:
            verdict, _ = check_drup_data(refutation.clauses, "".join(f"{step}\n" for step in refutation.proof).encode(),
                                         "CaDiCaL's proof", time_limit=left,
                                         progress=lambda phase, done, total: checking(done, total))
        if verdict.stopped:
            return _unchecked(result, refutation, verdict, bound, stats)
        if not verdict.valid:
            raise RuntimeError(f"the DRUP checker rejects CaDiCaL's refutation of horizon {refutation.horizon}: "
                               f"{verdict.reason}")
        stats["proof_check_seconds"] = round(verdict.seconds, 3)
        checked = (f"CaDiCaL's DRUP refutation of horizon {refutation.horizon} ({refutation.num_vars} variables, "
                   f"{len(refutation.clauses)} clauses, {len(refutation.proof)} proof lines) "
                   f"checked by stratagem's DRUP checker")
    if result.status == SOLVED:
        k = len(result.moves or ())
        optimality = f"no winning line of at most {k - 1} turns: {checked}"
    elif result.status == UNSOLVABLE:
        optimality = f"no winning line at all (the game lasts at most {last} turns): {checked}"
    elif result.moves and result.lower_bound < len(result.moves):
        optimality = f"{backend.upper()} found a line of {len(result.moves)} turns; not proven shortest"
    elif result.moves:
        optimality = (f"{backend.upper()} found a line of {len(result.moves)} turns and refuted the shorter "
                      f"horizons under assumptions, but its time limit ran out before the certificate "
                      f"(the plain refutation of {len(result.moves) - 1} turns); not proven shortest")
    else:
        refuted = (f"horizons up to {result.lower_bound - 1} refuted" if result.lower_bound > bound
                   else f"no horizon refuted beyond the heuristic's bound of {bound} turns")
        optimality = f"{backend.upper()} stopped by its time limit; {refuted}, nothing more is proven"
    outcome = Outcome(
        method=backend,
        status=result.status if result.status != "unknown" else UNKNOWN,
        moves=tuple(result.moves or ()),
        lower_bound=max(result.lower_bound, bound),
        optimality=optimality,
        stats=stats,
        stopped_by=result.stopped_by,
        refutation=refutation if result.status in (SOLVED, UNSOLVABLE) else None,
    )
    if outcome.refutation is not None and backend == "cpsat":
        outcome.evidence = {
            "kind": "cpsat-infeasible",
            "certificate": False,
            "encoding": ENCODING,
            "horizon": outcome.refutation.horizon,
            "variables": outcome.refutation.num_vars,
        }
        outcome.refutation = None
    elif outcome.refutation is not None:
        outcome.evidence = {
            "kind": "drup-refutation",
            "certificate": True,
            "encoding": ENCODING,
            "horizon": outcome.refutation.horizon,
            "variables": outcome.refutation.num_vars,
            "clauses": len(outcome.refutation.clauses),
            "proof_lines": len(outcome.refutation.proof),
            "solver": "cadical195",
        }
    elif outcome.moves:
        outcome.best_line = {"method": backend, "status": "found", "nodes": None}
        outcome.evidence = {"kind": "witness", "certificate": False, "method": backend,
                            "lower_bound": outcome.lower_bound}
    return outcome


def _unchecked(result: SatPlanResult[Move], refutation: Refutation, verdict: DrupVerdict, bound: int,
               stats: dict[str, Any]) -> Outcome:
    """SAT's answer when the time limit ran out while the project's checker was checking its proof: the
    line is the best found, nothing is claimed shortest."""
    stats["proof_check_seconds"] = round(verdict.seconds, 3)
    what = f"found a line of {len(result.moves)} turns and " if result.moves else ""
    optimality = (f"SAT {what}refuted horizon {refutation.horizon} with a DRUP proof of {len(refutation.proof)} "
                  f"lines, but the time limit ran out while stratagem's checker was checking it "
                  f"({verdict.reason}); not proven, the lower bound is the heuristic's")
    outcome = Outcome(method="sat", status=UNKNOWN, moves=tuple(result.moves or ()), lower_bound=bound,
                      optimality=optimality, stats=stats, stopped_by="time")
    if outcome.moves:
        outcome.best_line = {"method": "sat", "status": "found", "nodes": None}
        outcome.evidence = {"kind": "witness", "certificate": False, "method": "sat",
                            "lower_bound": outcome.lower_bound}
    return outcome


def add_fallback_line(outcome: Outcome, game: StratoGame, time_limit: float | None, max_nodes: int | None,
                      label: str, quiet: bool) -> None:
    """Anytime fallback: some winning line, clearly not claimed shortest, next to the proven bound."""
    budget = None if time_limit is None else max(1.0, FALLBACK_SHARE * time_limit)
    with search_progress(f"greedy line on {label}", enabled=not quiet) as progress:
        best = greedy(StratoPlanning(game), time_limit=budget, max_nodes=max_nodes, progress=progress)
    outcome.best_line = {"method": "greedy", "status": best.status, "nodes": best.stats.expanded}
    if best.status == FOUND:
        outcome.moves = tuple(best.moves or ())
        outcome.evidence = {"kind": "witness", "certificate": False, "method": "greedy",
                            "lower_bound": outcome.lower_bound}
    elif best.status == UNSOLVABLE:  # the greedy search ran through the whole space
        outcome.status = UNSOLVABLE
        outcome.optimality = "greedy best-first search exhausted every reachable state: none is a win " \
                             "(exhaustive search, no independent certificate)"
        outcome.evidence = {"kind": "exhaustive-search", "certificate": False, "method": "greedy",
                            "nodes": best.stats.expanded}


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_proof(path: str, outcome: Outcome, line: Line) -> None:
    """The proof record and, for a refutation, its CNF and DRUP proof beside it (gzip)."""
    evidence = dict(outcome.evidence)
    if outcome.refutation is not None:
        ref = outcome.refutation
        stem = Path(path).name.removesuffix(".json")
        cnf_name, proof_name = f"{stem}.cnf.gz", f"{stem}.drup.gz"
        cnf_text = write_dimacs(ref.clauses, ref.num_vars, ref.comments)
        proof_text = "".join(step + "\n" for step in ref.proof)
        folder = Path(path).parent
        write_text_maybe_gz(folder / cnf_name, cnf_text)
        write_text_maybe_gz(folder / proof_name, proof_text)
        evidence.update({"cnf": cnf_name, "cnf_sha256": _sha256(cnf_text), "proof": proof_name,
                         "proof_sha256": _sha256(proof_text)})
    proof = Proof(
        game="strato",
        claim={
            "solvable": bool(outcome.moves),
            "length": len(outcome.moves) if outcome.moves else None,
            "optimal": outcome.status == SOLVED,
            "information": "open",
        },
        line=line,
        evidence=evidence,
    )
    write_atomic(path, dumps_record(proof.to_json()))


@click.command()
@click.argument("puzzle", type=click.Path(dir_okay=False))
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="bfs, astar, idastar (search), sat (checked refutations), cpsat, or auto: "
                   "A* on one-row deals; otherwise A* for 2,000 expansions, then SAT.")
@click.option("--deal", "deal_key", metavar="NAME|SEED", default=None,
              help="A deal named in the file, or an integer seed for a new seeded deal (default: the first deal).")
@click.option("--players", type=click.IntRange(1, 4), default=None, help="Player count for a seeded deal.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (stratagem/solve@1).")
@click.option("--time-limit", type=click.FloatRange(min=0), default=None, metavar="S",
              help="Stop after S seconds with status 'unknown'.")
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
    """Find the shortest winning line of a Strato deal (open information), or place a STAKD solo set."""
    if game_of_file(puzzle) == "stakd":
        from stratagem.cli.check import check_stakd

        if deal_key is not None or players is not None or max_nodes is not None:
            raise click.BadParameter("is for Strato puzzles", param_hint="--deal/--players/--max-nodes")
        if method not in ("auto", "sat", "cpsat"):
            raise click.BadParameter(f"STAKD solo puzzles are solved by sat or cpsat, not {method}",
                                     param_hint="--method")
        check_stakd(puzzle, "sat" if method == "auto" else method, time_limit, proof_path, as_json)
        return 0
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
) -> tuple[int, str]:
    """``solve`` on a Strato deal; returns the exit code and the status (solved/unsolvable/unknown)."""
    loaded = load_strato(puzzle)
    spec = loaded.find_deal(deal_key, players)
    game = loaded.game(spec)
    start = game.initial_state()
    if proof_path is not None and not Path(proof_path).resolve().parent.is_dir():
        raise click.BadParameter(f"folder of {proof_path!r} does not exist", param_hint="--proof")
    if method == "auto":
        method = "astar" if max_nodes is not None else auto_method(start)
    if max_nodes is not None and method in ("sat", "cpsat"):
        raise click.BadParameter(f"limits a search (bfs, astar, idastar), not {method}; use --time-limit",
                                 param_hint="--max-nodes")
    if method == "astar+sat":
        outcome = run_auto(game, time_limit, spec.name, as_json)
    elif method in ("sat", "cpsat"):
        outcome = run_sat(game, time_limit, spec.name, as_json, backend=method)
    else:
        outcome = run_search(method, game, time_limit, max_nodes, spec.name, as_json)
    if outcome.status == UNKNOWN and not outcome.moves:
        add_fallback_line(outcome, game, time_limit, max_nodes, spec.name, as_json)

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

    if as_json:
        click.echo(dumps_record(report), nl=False)
        return 0, outcome.status

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
            found_by = (outcome.best_line or {}).get("method", "greedy")
            found_by = "greedy best-first search" if found_by == "greedy" else METHOD_NAMES[found_by]
            out.print(f"best line found: {len(moves)} turns ({found_by}; not known to be shortest)")
        out.print(f"[bold yellow]unknown[/]: {outcome.optimality}")
    nodes = outcome.stats.get("nodes")
    effort = f"{nodes:,} nodes expanded, " if nodes is not None else f"{len(outcome.stats.get('horizons', []))} " \
        "solver calls, "
    out.print(f"method {outcome.method}, {effort}{outcome.stats['seconds']:.2f} s")
    if proof_note:
        out.print(proof_note)
    return 0, outcome.status
