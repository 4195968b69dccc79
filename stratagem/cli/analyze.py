"""``stratagem analyze POSITION``: the value of a position, the best moves, the principal variation, a proof.

Methods (``--method``):

- ``alphabeta``: exact two-player search (win/loss/draw with the distance to the result); positions
  with chance nodes go to ``expecti``; with three or more players to ``paranoid``.
- ``expecti``: expectiminimax with Star2 pruning, for positions with chance events.
- ``paranoid`` / ``maxn``: three or more players; each is labelled as the assumption it is.
- ``lp``: simultaneous-move games: backward induction with one exactly certified LP per node.
- ``mcts`` (open information), ``ismcts`` and ``pimc`` (from one player's observation, ``--as``),
  ``duct`` (simultaneous moves): estimates, never called a value unless MCTS-Solver proved it.
- ``auto`` (default): ``lp`` for simultaneous-move games, ``pimc`` with ``--as``, else ``alphabeta``.

Open analysis (every card known, like double-dummy bridge) is the default and is said so in the
output. A value is printed only when the search was exhaustive or certified; a depth, node or time
limit gives ``status: heuristic`` or ``unknown`` with the best line found so far, which is labelled
"best found so far (not proven)", never "best move".

Limits are total: ``--time-limit`` is one :class:`~stratagem.core.deadline.Deadline` for the whole
command. The root's search, the ranking of the root moves (``--rank``, the default) and the proof tree
(``--proof``) share it: the ranking gets what the root's search left, and a move not searched before it
ran out is listed as "not ranked". A move's value is shown only when its own search established it; when
the root's search was stopped but the ranking proved enough (every move solved, or one move reaching
the best return there is), the root's value is taken from the ranking and the summary says so, so the
summary and the move list never disagree. The LP backward induction also stops at ``--nodes`` positions
(default :data:`DEFAULT_LP_NODES`), which bounds its memory.

Exit codes (:mod:`stratagem.cli.exitcodes`): 0 when the status is ``solved`` or ``heuristic`` (a value, or
a depth-limited estimate the user asked for by ``--depth``), and for the Monte Carlo methods, whose
estimates are what they are asked for; 3 (undetermined) when an exact method (``alphabeta``, ``expecti``,
``paranoid``, ``maxn``, ``lp``) stopped without a value, or ``--proof`` was asked and the limit ran out
before the proof was written; 2 on bad input.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from random import Random
from typing import Any

import click

from stratagem.cli.exitcodes import DONE, UNDETERMINED
from stratagem.cli.games import Loaded, load_position
from stratagem.cli.limits import TIME_LIMIT
from stratagem.cli.progress import search_progress
from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput, StratagemError, UnsupportedGame
from stratagem.core.game import CHANCE, SIMULTANEOUS, TERMINAL, HiddenInformation, Simultaneous
from stratagem.core.io import check_writable, dumps_record, write_atomic
from stratagem.solvers.minimax import (
    NOT_RANKED,
    SOLVED,
    MinimaxResult,
    MoveValue,
    alphabeta,
    expectiminimax,
    maxn,
    paranoid,
    rank_key,
    rank_moves,
)
from stratagem.solvers.prooftree import ProofStopped, build_proof_tree, encode_value

ANALYSIS_FORMAT = "stratagem/analysis@1"
METHODS = ("auto", "alphabeta", "expecti", "paranoid", "maxn", "lp", "mcts", "ismcts", "pimc", "duct")
EXACT = ("alphabeta", "expecti", "paranoid", "maxn")
OPEN = "open: every card and pile is known to the analysis"
ARGUMENT = "<argument>"
#: Positions the LP backward induction values at most without ``--nodes``: it holds each in memory, about
#: a kilobyte apiece (measured on a seeded Stack Attack round: 33,615 positions in 75 MB, ~20,000 a second).
DEFAULT_LP_NODES = 500_000


def return_bounds(game: Any) -> tuple[int, int]:
    """The lowest and highest return a player can get (``return_bounds`` on the game, else -1 and 1)."""
    bounds = getattr(game, "return_bounds", None)
    if bounds is None:
        return (-1, 1)
    low, high = bounds() if callable(bounds) else bounds
    return (low, high)


def choose_method(method: str, loaded: Loaded, as_player: int | None) -> str:
    """What ``auto`` means for this position, and refusals of methods that cannot apply."""
    game = loaded.game
    simultaneous = isinstance(game, Simultaneous)
    if method == "auto":
        if simultaneous:
            return "pimc" if as_player is not None else "lp"
        if as_player is not None:
            return "pimc"
        return "paranoid" if game.num_players > 2 else "alphabeta"
    if method in EXACT and simultaneous:
        raise BadInput(loaded.source, "--method", f"{loaded.game_name} has simultaneous moves; use lp or duct")
    if method in ("lp", "duct") and not simultaneous:
        raise BadInput(loaded.source, "--method", f"{method} is for simultaneous-move games; "
                       f"{loaded.game_name} is played in turns")
    if method in ("pimc", "ismcts") and not isinstance(game, HiddenInformation):
        raise BadInput(loaded.source, "--method", f"{loaded.game_name} has no hidden information to sample")
    if method == "alphabeta" and game.num_players > 2:
        return "paranoid"
    return method


@click.command()
@click.argument("position", type=click.Path(dir_okay=False))
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="auto: lp for simultaneous moves, pimc with --as, else alphabeta (paranoid for 3+ players).")
@click.option("--depth", type=click.IntRange(1), default=None,
              help="Search depth in plies (lp: simultaneous turns); the cut uses the game's evaluation.")
@click.option("--time-limit", type=TIME_LIMIT, default=None, metavar="S",
              help="The whole command stops after S seconds (search, ranking and proof share them): status "
                   "unknown with the best found so far, exit 3 for an exact method.")
@click.option("--nodes", "max_nodes", type=click.IntRange(1), default=None,
              help="Stop a search after this many nodes (each ranked move's search too); lp: after this many "
                   f"positions valued, {DEFAULT_LP_NODES:,} without the option.")
@click.option("--iterations", type=click.IntRange(1), default=None, help="MCTS/ISMCTS/DUCT iterations (default 2000).")
@click.option("--samples", type=click.IntRange(1), default=None, help="PIMC samples (default 20).")
@click.option("--as", "as_player", type=click.IntRange(1, 6), default=None,
              help="Analyse from this player's observation (PIMC or ISMCTS) instead of open information.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of MCTS, ISMCTS, PIMC and DUCT.")
@click.option("--rank/--no-rank", default=True, show_default=True,
              help="Exact methods: search every root move to rank them (one search per move).")
@click.option("--proof", "proof_file", type=click.Path(dir_okay=False), default=None,
              help="Write the proof (proof tree, or LP certificates) of a solved value to this file.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as one JSON document.")
def analyze(position: str, method: str, depth: int | None, time_limit: float | None, max_nodes: int | None,
            iterations: int | None, samples: int | None, as_player: int | None, seed: int, rank: bool,
            proof_file: str | None, as_json: bool) -> int:
    """Value, best moves and principal variation of a position; a proof when the value is solved.

    Exact: alphabeta (expecti where chance remains), paranoid or maxn (3+ players, labelled), lp
    (simultaneous moves, exact certificates). Estimates: mcts (open), ismcts and pimc (--as), duct.
    Open analysis (every card known) is the default and is said so.
    """
    if proof_file is not None:
        check_writable(proof_file, "--proof")
    loaded = load_position(position)
    game, state = loaded.game, loaded.state
    if game.to_move(state) == TERMINAL:
        raise BadInput(position, "position", "the game is over in this position; there is nothing to analyse")
    chosen = choose_method(method, loaded, as_player)
    player = None if as_player is None else as_player - 1
    if player is not None and player >= game.num_players:
        raise BadInput(ARGUMENT, "--as", f"player {as_player} does not exist in a {game.num_players}-player game")
    if chosen in ("pimc", "ismcts") and player is None:
        raise BadInput(ARGUMENT, "--as", f"{chosen} analyses one player's observation: say which with --as")
    if proof_file is not None and chosen not in (*EXACT, "lp"):
        raise BadInput(ARGUMENT, "--proof", f"{chosen} gives estimates, which have no proof; "
                       "use alphabeta, expecti, paranoid or lp")
    started = time.perf_counter()
    deadline = Deadline(time_limit)
    limit = deadline if time_limit is not None else None
    report: dict[str, Any] = {
        "format": ANALYSIS_FORMAT,
        "game": loaded.game_name,
        "position": position,
        "name": loaded.name,
        "setup": game.setup(),
        "start": game.format_state(state),
        "to_move": _mover(game, state),
    }
    try:
        if chosen in EXACT:
            report.update(_exact(game, state, chosen, depth, limit, max_nodes, rank, as_json))
        elif chosen == "lp":
            report.update(_lp(game, state, depth, limit, max_nodes))
        elif chosen == "duct":
            report.update(_duct(game, state, iterations, seed, limit))
        elif chosen == "mcts":
            report.update(_mcts(game, state, iterations, limit, seed))
        elif chosen == "ismcts":
            report.update(_ismcts(game, state, player, iterations, limit, seed))
        else:
            report.update(_pimc(game, state, player, samples, limit, seed, depth))
    except UnsupportedGame as exc:
        raise BadInput(position, "--method", str(exc)) from None
    lp_results = report.pop("_results", None)
    # Estimates are what the Monte Carlo methods are asked for; an exact method without a value is not done.
    code = DONE if report["status"] in (SOLVED, "heuristic", "estimate") else UNDETERMINED
    if proof_file is not None:
        report["proof"], note = _write_proof(game, state, report, lp_results, proof_file, limit)
        if report["proof"] is None:
            code = UNDETERMINED
            click.echo(f"{proof_file}: no proof written: {note}", err=True)
    seconds = time.perf_counter() - started
    if as_json:
        click.echo(dumps_record(report), nl=False)
    else:
        _print(report, seconds)
    return code


# -- exact search -----------------------------------------------------------------------------------


def _search(method: str) -> Callable[..., MinimaxResult[Any]]:
    return {"alphabeta": alphabeta, "expecti": expectiminimax, "paranoid": paranoid, "maxn": maxn}[method]


def _options(game: Any, method: str, depth: int | None, limit: Deadline | None,
             max_nodes: int | None) -> dict[str, Any]:
    options: dict[str, Any] = {"depth": depth, "time_limit": limit, "max_nodes": max_nodes}
    if method in ("alphabeta", "expecti", "paranoid"):
        low, high = return_bounds(game)
        options.update(lo=low, hi=high)
    return options


def _exact(game: Any, state: Any, method: str, depth: int | None, limit: Deadline | None,
           max_nodes: int | None, rank: bool, quiet: bool) -> dict[str, Any]:
    """The root's search, then (``rank``) every root move's, all within the one deadline ``limit``.

    ``alphabeta`` learns that a game has chance only when its search meets a chance node, which may be
    in the ranking after a root search that stopped early; then the whole analysis is done again with
    ``expecti`` in what is left of the deadline, so the root and its moves are searched alike.
    """
    try:
        return _exact_with(game, state, method, depth, limit, max_nodes, rank, quiet)
    except StratagemError as exc:
        if method != "alphabeta" or "chance" not in str(exc):
            raise
    return _exact_with(game, state, "expecti", depth, limit, max_nodes, rank, quiet)


def _exact_with(game: Any, state: Any, method: str, depth: int | None, limit: Deadline | None,
                max_nodes: int | None, rank: bool, quiet: bool) -> dict[str, Any]:
    options = _options(game, method, depth, limit, max_nodes)
    with search_progress(f"{method} search", enabled=not quiet, first="depth", second="nodes") as update:
        options["progress"] = lambda iteration, nodes: update(iteration, nodes)
        result = _search(method)(game, state, **options)
    report = _minimax_report(game, state, method, result)
    battles_along = getattr(game, "battles_along", None)
    if battles_along is not None and result.solved and result.distance is not None:
        report["battles"] = battles_along(state, result.pv)
        report["summary"] += f" ({report['battles']} battle{'' if report['battles'] == 1 else 's'})"
    if rank and game.to_move(state) >= 0:
        options.pop("progress", None)
        ranked = rank_moves(game, state, _search(method), **options)
        if result.solved and result.best_move is not None:
            # The root's search established its best move's value; the list says so even if that move's
            # own search was stopped or never began.
            ranked = sorted((MoveValue(mv.move, result.value, result.distance, SOLVED, mv.assumption)
                             if mv.move == result.best_move and mv.status != SOLVED else mv for mv in ranked),
                            key=rank_key)
        report["moves"] = [
            {"move": game.format_move(state, mv.move),
             "value": _value(mv.value) if mv.status in (SOLVED, "heuristic") else None,
             "distance": mv.distance if mv.status == SOLVED else None, "status": mv.status}
            for mv in ranked
        ]
        unranked = sum(1 for mv in ranked if mv.status == NOT_RANKED)
        if unranked:
            report["not_ranked"] = unranked
        if report["status"] != SOLVED:
            _root_from_ranking(game, state, report, ranked)
    return report


def _root_from_ranking(game: Any, state: Any, report: dict[str, Any], ranked: Sequence[MoveValue[Any]]) -> None:
    """What the ranking establishes about the root when the root's own search did not.

    The root's player chooses, so its value is the best of its moves' values: established when every
    move's search solved it (value and distance), or when one solved move reaches the best return there is
    (the value; its distance only bounds the root's, unless every move was solved). Otherwise the best
    solved move is a proven lower bound, said as such. The report is made to agree with the move list.
    """
    solved = [mv for mv in ranked if mv.status == SOLVED and mv.value is not None]
    if not solved or report["status"] == "heuristic":
        return
    best = solved[0]  # ranked best first
    assert best.value is not None
    who = f"player {game.to_move(state) + 1}"
    low, high = return_bounds(game)
    text = game.format_move(state, best.move)
    plies = "" if best.distance is None else f" in {best.distance} {'ply' if best.distance == 1 else 'plies'}"
    every = len(solved) == len(ranked)
    if every or best.value == high:
        report.update(status=SOLVED, value=_value(best.value), best_move=text, best_found=None, pv=[text],
                      distance=best.distance if every else None, estimate=_value(best.value))
        if report.get("values") is None and game.num_players == 2 and report.get("assumption") == "open information":
            mover = game.to_move(state)
            report["values"] = [_value(best.value if p == mover else -best.value) for p in range(2)]
        outcome = ("wins" if best.value == high else "loses" if best.value == low else
                   f"gets {encode_value(best.value)}")
        if every:
            report["summary"] = (f"{who} to move {outcome}{plies} (the root's search was stopped; the ranking "
                                 f"searched every move to the end, {text} is best)")
        else:
            report["summary"] = (f"{who} to move wins (the root's search was stopped; the ranking proved that "
                                 f"{text} wins{plies}, so the value is established; a faster win by a move "
                                 "not ranked to the end is not ruled out)")
        return
    report["lower_bound"] = _value(best.value)
    report["summary"] = (f"no value established (the search was stopped); the ranking proved {text} "
                         f"worth {encode_value(best.value)}{plies} for {who}, so {who} gets at least that")


def _minimax_report(game: Any, state: Any, method: str, result: MinimaxResult[Any]) -> dict[str, Any]:
    best = None if result.best_move is None else game.format_move(state, result.best_move)
    return {
        "method": method,
        "information": OPEN,
        "assumption": result.assumption,
        "status": result.status,
        "player": result.player + 1,
        "value": _value(result.value),
        "values": None if result.values is None else [_value(v) for v in result.values],
        "estimate": _value(result.estimate),
        "distance": result.distance,
        # "best" only when established; otherwise the deepest completed iteration's choice, not a claim.
        "best_move": best if result.solved else None,
        "best_found": None if result.solved else best,
        "pv": _line(game, state, result.pv),
        "nodes": result.nodes,
        "depth": result.depth,
        "summary": _summary(game, result),
    }


def _summary(game: Any, result: MinimaxResult[Any]) -> str:
    """One sentence saying what was established, and nothing more."""
    if result.status == "unknown":
        return "no value established (the search was stopped or cut without an evaluation)"
    who = f"player {result.player + 1}"
    value = result.value
    if result.status == "heuristic":
        return f"heuristic estimate for {who}: {encode_value(value) if value is not None else '?'} (not a proof)"
    low, high = return_bounds(game)
    plies = "" if result.distance is None else f" in {result.distance} {'ply' if result.distance == 1 else 'plies'}"
    assumption = "" if result.assumption in ("", "open information") else f" ({result.assumption})"
    if value == high:
        return f"{who} to move wins{plies}{assumption}"
    if value == low:
        return f"{who} to move loses{plies}{assumption}"
    if value == 0 and result.distance is not None:
        return f"draw with best play{plies}{assumption}"
    return f"value for {who}: {encode_value(value) if value is not None else '?'}{assumption}"


# -- simultaneous moves -----------------------------------------------------------------------------


def _lp(game: Any, state: Any, depth: int | None, limit: Deadline | None, max_nodes: int | None) -> dict[str, Any]:
    from stratagem.solvers.simultaneous import InductionStopped, solve_each_player, solve_simultaneous

    cap = max_nodes if max_nodes is not None else DEFAULT_LP_NODES
    try:
        if game.num_players == 2:
            results = [solve_simultaneous(game, state, player=0, depth=depth, payoff="margin", time_limit=limit,
                                          max_nodes=cap)]
        else:
            results = list(solve_each_player(game, state, depth=depth, payoff="own", time_limit=limit,
                                             max_nodes=cap))
    except InductionStopped as stop:
        why = "time limit" if stop.stopped_by == "time" else f"node limit ({cap:,} positions)"
        return {
            "method": "lp",
            "information": OPEN,
            "assumption": ("zero-sum on the penalty difference" if game.num_players == 2
                           else "each player against the coalition of the others"),
            "status": "unknown",
            "stopped_by": stop.stopped_by,
            "nodes": stop.nodes,
            "summary": (f"no value established: the backward induction was stopped by its {why} after "
                        f"valuing {stop.nodes:,} positions ({stop.solved:,} matrix games solved)"),
        }
    certified = all(r.certified for r in results)
    exact = all(r.evaluated_leaves == 0 for r in results)
    status = "solved" if certified and exact else ("heuristic" if certified else "uncertified")
    per_player = []
    for result in results:
        root = result.root_node
        entry: dict[str, Any] = {
            "player": result.player + 1,
            "against": [p + 1 for p in result.opponents],
            "value": _value(result.value),
            "certified": result.certified,
            "nodes": len(result.nodes),
        }
        if root is not None:
            entry["strategy"] = {_player_move(game, state, result.player, m): _value(p)
                                 for m, p in zip(root.rows, root.solution.row, strict=True) if p}
            if game.num_players == 2:
                entry["opponent_strategy"] = {
                    _player_move(game, state, result.opponents[0], c[0]): _value(p)
                    for c, p in zip(root.columns, root.solution.col, strict=True) if p
                }
        per_player.append(entry)
    two = game.num_players == 2
    if two and results[0].evaluated_leaves == 0:
        from stratagem.solvers.simultaneous import expected_returns

        returns = expected_returns(game, results[0])
        for entry, value in zip(per_player, returns, strict=False):
            entry["expected_return"] = _value(value)
        if len(per_player) == 1:
            per_player.append({"player": 2, "against": [1], "expected_return": _value(returns[1])})
    return {
        "method": "lp",
        "information": OPEN,
        "assumption": ("zero-sum on the penalty difference" if two
                       else "each player against the coalition of the others"),
        "status": status,
        "payoff": "margin" if two else "own",
        "players": per_player,
        "summary": _lp_summary(per_player, two, status),
        "_results": results,
    }


def _lp_summary(per_player: Sequence[dict[str, Any]], two: bool, status: str) -> str:
    if status == "uncertified":
        return "an LP node failed its exact check: no value is claimed"
    kind = "value" if status == "solved" else "depth-limited value (evaluation at the cut)"
    if two:
        return f"{kind} for player 1 (opponent's points minus own): {per_player[0]['value']}"
    return "; ".join(f"player {e['player']} guarantees {e['value']} against the rest" for e in per_player)


def _duct(game: Any, state: Any, iterations: int | None, seed: int, limit: Deadline | None) -> dict[str, Any]:
    from stratagem.solvers.duct import duct

    result = duct(game, state, iterations=iterations or 2000, seed=seed, time_limit=limit)
    players = []
    for p in range(game.num_players):
        if not result.moves[p]:
            continue
        players.append({
            "player": p + 1,
            "strategy": {_player_move(game, state, p, m): round(f, 4)
                         for m, f in zip(result.moves[p], result.strategy[p], strict=True)},
            "mean_return": round(result.values[p], 4),
        })
    return {"method": "duct", "information": OPEN, "assumption": "", "status": "estimate",
            "iterations": result.iterations, "players": players,
            "summary": f"decoupled UCT estimate after {result.iterations} iterations (not a value)"}


# -- Monte Carlo ------------------------------------------------------------------------------------


def _seconds_left(limit: Deadline | None) -> float | None:
    return None if limit is None else limit.remaining()


def _mcts(game: Any, state: Any, iterations: int | None, limit: Deadline | None, seed: int) -> dict[str, Any]:
    from stratagem.solvers.mcts import uct

    if game.to_move(state) < 0:
        raise BadInput(ARGUMENT, "--method", "mcts needs a position where one player is to move")
    budget = iterations if iterations is not None or limit is not None else 2000
    result = uct(game, state, iterations=budget, time_limit=_seconds_left(limit), seed=seed,
                 value_range=_float_bounds(game))
    return _mc_report(game, result, "mcts", OPEN)


def _ismcts(game: Any, state: Any, player: int | None, iterations: int | None, limit: Deadline | None,
            seed: int) -> dict[str, Any]:
    from stratagem.solvers.mcts import ismcts

    _check_mover(game, state, player)
    budget = iterations if iterations is not None or limit is not None else 2000
    result = ismcts(game, state, iterations=budget, time_limit=_seconds_left(limit), seed=seed,
                    value_range=_float_bounds(game), player=player)
    return _mc_report(game, result, "ismcts", f"player {result.player + 1}'s observation (hidden cards sampled)")


def _mc_report(game: Any, result: Any, method: str, information: str) -> dict[str, Any]:
    moves = [{"move": m.notation, "visits": m.visits, "mean": round(m.mean, 4),
              "proven": None if m.proven_value is None else _value(m.proven_value)} for m in result.moves]
    moves.sort(key=lambda m: -m["visits"])
    proven = bool(result.proven)
    return {
        "method": method,
        "information": information,
        "assumption": "",
        "status": "solved" if proven else "estimate",
        "player": result.player + 1,
        "best_move": result.best_notation,
        "iterations": result.iterations,
        "value": None if not proven or result.value is None else _value(result.value[result.player]),
        "moves": moves,
        "summary": (f"MCTS-Solver proved the value {_value(result.value[result.player])} for player "
                    f"{result.player + 1}" if proven and result.value is not None else
                    f"{method} estimate after {result.iterations} iterations (not a value)"),
    }


def _pimc(game: Any, state: Any, player: int | None, samples: int | None, limit: Deadline | None,
          seed: int, depth: int | None) -> dict[str, Any]:
    if game.to_move(state) == SIMULTANEOUS:
        return _pimc_simultaneous(game, state, player, samples, seed, depth, limit)
    from stratagem.solvers.pimc import pimc

    _check_mover(game, state, player)

    def leaf(game: Any, state: Any, rng: Random) -> tuple[float, ...]:
        return _solve_each_sample(game, state, rng, limit)

    result = pimc(game, state, leaf, samples=samples or 20, time_limit=_seconds_left(limit), seed=seed)
    ordered = sorted(result.moves, key=lambda m: -m.mean)
    moves = [{"move": m.notation, "samples": m.count, "mean": round(m.mean, 4)} for m in ordered]
    return {
        "method": "pimc",
        "information": f"player {result.player + 1}'s observation (hidden cards sampled)",
        "assumption": "each sampled deal solved as if open (perfect-information Monte Carlo)",
        "status": "estimate",
        "player": result.player + 1,
        "samples": result.samples,
        "best_move": result.best_notation,
        "moves": moves,
        "summary": f"PIMC over {result.samples} sampled deals (an estimate, not a value)",
    }


#: Nodes one sampled deal may take before PIMC falls back to the game's evaluation.
SAMPLE_NODES = 50_000


def _solve_each_sample(game: Any, state: Any, rng: Random, limit: Deadline | None = None) -> tuple[float, ...]:
    """PIMC's leaf: solve the open position exactly when it is small (and time is left), else use the
    evaluation."""
    if game.is_terminal(state):
        return tuple(float(v) for v in game.returns(state))
    try:
        if game.num_players == 2:
            low, high = return_bounds(game)
            result = expectiminimax(game, state, lo=low, hi=high, max_nodes=SAMPLE_NODES, time_limit=limit)
        else:
            result = maxn(game, state, max_nodes=SAMPLE_NODES, time_limit=limit)
    except StratagemError:
        result = None
    if result is not None and result.values is not None:
        return tuple(float(v) for v in result.values)
    if hasattr(game, "evaluate"):
        return tuple(float(v) for v in game.evaluate(state))
    from stratagem.solvers.mcts import playout

    return tuple(float(v) for v in playout(game, state, rng, value_range=_float_bounds(game)))


#: Simultaneous turns each sampled deal is solved to when --depth is not given (evaluation at the cut).
SAMPLE_TURNS = 2


def _pimc_simultaneous(game: Any, state: Any, player: int | None, samples: int | None, seed: int,
                       depth: int | None, limit: Deadline | None) -> dict[str, Any]:
    from stratagem.solvers.pimc import pimc_simultaneous

    assert player is not None
    result = pimc_simultaneous(game, state, player, samples=samples or 20, seed=seed,
                               depth=depth if depth is not None else SAMPLE_TURNS, time_limit=limit)
    return {
        "method": "pimc",
        "information": result.information,
        "assumption": "each sampled deal solved open by LP; a card's worth is its payoff against the "
                      "others' equilibrium mix",
        "status": "estimate",
        "player": player + 1,
        "samples": result.samples,
        "best_move": result.best_notation,
        "moves": [{"move": m.notation, "samples": m.count, "mean": round(m.mean, 4)} for m in result.moves],
        "summary": f"PIMC card advice over {result.samples} sampled deals (an estimate, not a value)",
    }


# -- proofs -----------------------------------------------------------------------------------------


def _write_proof(game: Any, state: Any, report: dict[str, Any], lp_results: Any, proof_file: str,
                 limit: Deadline | None) -> tuple[dict[str, Any] | None, str]:
    """Write the proof of a solved value, within what is left of the deadline; ``(None, why)`` when there
    is nothing to prove because a limit stopped the work (nothing is written then)."""
    if report["status"] == "heuristic":
        raise BadInput(ARGUMENT, "--proof", "a depth-limited value (status heuristic) has no proof; "
                       "leave out --depth")
    if report["status"] != SOLVED:
        return None, f"the value was not established (status {report['status']}); nothing to prove"
    if report["method"] == "lp":
        from stratagem.solvers.simultaneous import matrix_proof

        proofs = [matrix_proof(game, r) for r in lp_results]
        record: dict[str, Any] = proofs[0] if len(proofs) == 1 else {
            "format": "stratagem/matrixproofs@1", "game": game.name, "setup": game.setup(),
            "start": game.format_state(state), "proofs": proofs}
        nodes = sum(len(p["nodes"]) for p in proofs)
    else:
        low, high = return_bounds(game)
        player = report["player"] - 1
        try:
            record = build_proof_tree(game, state, player=player, lo=low, hi=high, time_limit=limit)
        except ProofStopped as stop:
            return None, str(stop)
        record["setup"] = game.setup()
        nodes = len(record["nodes"])
    write_atomic(proof_file, dumps_record(record))
    return {"file": str(Path(proof_file)), "format": record["format"], "nodes": nodes}, ""


# -- helpers ----------------------------------------------------------------------------------------


def _check_mover(game: Any, state: Any, player: int | None) -> None:
    mover = game.to_move(state)
    if player is not None and mover != player:
        who = "a chance event" if mover == CHANCE else f"player {mover + 1}"
        raise BadInput(ARGUMENT, "--as", f"player {player + 1} is not to move in this position ({who} is)")


def _float_bounds(game: Any) -> tuple[float, float]:
    low, high = return_bounds(game)
    return (float(low), float(high))


def _mover(game: Any, state: Any) -> str:
    mover = game.to_move(state)
    if mover >= 0:
        return f"player {mover + 1}"
    return {CHANCE: "chance", SIMULTANEOUS: "everyone at once", TERMINAL: "nobody"}.get(mover, str(mover))


def _player_move(game: Any, state: Any, player: int, move: Any) -> str:
    fmt = getattr(game, "format_player_move", None)
    return str(fmt(state, player, move)) if fmt is not None else str(game.format_move(state, move))


def _line(game: Any, state: Any, moves: Sequence[Any]) -> list[str]:
    texts = []
    for move in moves:
        texts.append(game.format_move(state, move))
        state = game.apply(state, move)
    return texts


def _value(v: Any) -> Any:
    if v is None:
        return None
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def _print(report: dict[str, Any], seconds: float) -> None:
    from stratagem.cli.main import stdout

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
        return f"{move['move']} ({move['visits']} visits, {move['mean']})"
    if "samples" in move:
        return f"{move['move']} ({move['mean']})"
    status = move.get("status")
    if status == NOT_RANKED or move.get("value") is None:
        return f"{move['move']} ({'not ranked' if status == NOT_RANKED else 'unknown'})"
    distance = "" if move.get("distance") is None else f" in {move['distance']}"
    note = "" if status in (None, SOLVED) else f", {status}"
    return f"{move['move']} ({move['value']}{distance}{note})"
