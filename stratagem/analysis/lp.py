"""The ``lp`` method: backward induction over a simultaneous-move game, one exactly certified LP per node.

Two players: a zero-sum game on the penalty difference (``payoff`` ``margin``), with both players'
mixed strategies at the root and each one's expected return when both play them. Three or more: each
player's guarantee against the coalition of the others (``own``). A value is claimed only when every LP
node passed its exact check and no leaf was evaluated (``solved``); a depth cut gives ``heuristic``, a
failed check ``uncertified``. The induction keeps simultaneous and chance positions in memory (and a bounded
scratch of forced ones), so it stops after valuing ``max_nodes`` positions (default :data:`DEFAULT_LP_NODES`)
and reports ``unknown`` then: a cap on work, and with it on memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stratagem.analysis.report import OPEN, player_move, record_value
from stratagem.core.deadline import Deadline

#: Positions the LP backward induction values at most without ``max_nodes``. Only simultaneous and chance
#: positions are kept (decisions and terminals are not; forced reveals in a scratch memo of 100,000), so
#: memory grows far slower than the count: the two-player five-turn Stack Attack endgames value all their
#: positions (1.1 and 1.3 million) in 150-180 MB peak (issue 20; the induction before it kept every
#: position: 0.8 GB for 0.9 million).
DEFAULT_LP_NODES = 5_000_000


def lp_report(game: Any, state: Any, depth: int | None, limit: Deadline | None,
              max_nodes: int | None, engine: Any = None) -> dict[str, Any]:
    """The report of the induction from ``state``: its value(s), the root's strategies, or why it stopped.

    ``engine`` is the game's compiled engine (:mod:`stratagem.engines`) or None for the rules engine: with
    an engine that offers the induction's extension (``engine.simultaneous()``, a
    :class:`~stratagem.solvers.induction_kernel.SimultaneousPacked` with a bound on its lines) the walk
    runs compiled, with the same nodes, matrices and certificates; otherwise on the rules engine.
    A solved value's bound certificates ride along under ``_results`` (not part of the record; None for
    a value with no proof): all that :meth:`~stratagem.analysis.result.Analysis.write_proof` writes. They are
    made here, as the induction ends (0.12 CPU s for 2p-numbers-5-turns and 6-turns, 0.8 and 1.2 MB), so
    that an analysis its caller keeps does not keep the induction too (its compiled walk: 69 and 302 MB).
    """
    from stratagem.solvers.boundproof import bound_proof
    from stratagem.solvers.simultaneous import InductionStopped, solve_each_player, solve_simultaneous

    packed = packed_induction(engine)
    cap = max_nodes if max_nodes is not None else DEFAULT_LP_NODES
    try:
        if game.num_players == 2:
            results = [solve_simultaneous(game, state, player=0, depth=depth, payoff="margin", time_limit=limit,
                                          max_nodes=cap, packed=packed)]
        else:
            results = list(solve_each_player(game, state, depth=depth, payoff="own", time_limit=limit,
                                             max_nodes=cap, packed=packed))
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
            "value": record_value(result.value),
            "certified": result.certified,
            "nodes": len(result.nodes),
        }
        if root is not None:
            entry["strategy"] = {player_move(game, state, result.player, m): record_value(p)
                                 for m, p in zip(root.rows, root.solution.row, strict=True) if p}
            if game.num_players == 2:
                entry["opponent_strategy"] = {
                    player_move(game, state, result.opponents[0], c[0]): record_value(p)
                    for c, p in zip(root.columns, root.solution.col, strict=True) if p
                }
        per_player.append(entry)
    two = game.num_players == 2
    if two and results[0].evaluated_leaves == 0:
        from stratagem.solvers.simultaneous import expected_returns

        returns = expected_returns(game, results[0])
        for entry, value in zip(per_player, returns, strict=False):
            entry["expected_return"] = record_value(value)
        if len(per_player) == 1:
            per_player.append({"player": 2, "against": [1], "expected_return": record_value(returns[1])})
    return {
        "method": "lp",
        "information": OPEN,
        "assumption": ("zero-sum on the penalty difference" if two
                       else "each player against the coalition of the others"),
        "status": status,
        "payoff": "margin" if two else "own",
        "players": per_player,
        "summary": _lp_summary(per_player, two, status),
        "_results": [bound_proof(game, r) for r in results] if status == "solved" else None,
    }


def packed_induction(engine: Any) -> Any:
    """The compiled induction's view of a compiled engine (None: walk the rules engine): the engine's
    ``simultaneous()`` where it has one and its lines are bounded (Stack Attack's ``scope = "round"``)."""
    maker = getattr(engine, "simultaneous", None)
    if maker is None:
        return None
    packed = maker()
    return packed if packed.max_plies > 0 else None


def _lp_summary(per_player: Sequence[dict[str, Any]], two: bool, status: str) -> str:
    """One sentence saying what the induction established, and nothing more."""
    if status == "uncertified":
        return "an LP node failed its exact check: no value is claimed"
    kind = "value" if status == "solved" else "depth-limited value (evaluation at the cut)"
    if two:
        return f"{kind} for player 1 (opponent's points minus own): {per_player[0]['value']}"
    if status != "solved":  # "guarantees" is a proof's word: a cut game's value rests on the evaluation
        return f"{kind}, each player against the rest: " + "; ".join(
            f"player {e['player']} {e['value']}" for e in per_player)
    return "; ".join(f"player {e['player']} guarantees {e['value']} against the rest" for e in per_player)
