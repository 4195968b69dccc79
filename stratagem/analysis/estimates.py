"""The Monte Carlo methods: estimates of a position, never called a value unless MCTS-Solver proved it.

- ``mcts``: UCT with MCTS-Solver over the open position;
- ``ismcts``: information-set MCTS from one player's observation (the hidden cards sampled);
- ``pimc``: perfect-information Monte Carlo from one player's observation: each sampled deal solved as
  if open (exactly when small, else by the game's evaluation or a playout); for simultaneous moves, by
  LP to a few turns;
- ``duct``: decoupled UCT for simultaneous moves, giving empirical mixed strategies.

Each works within the analysis's one deadline and is steered by its ``seed``. ``mcts`` and ``ismcts`` run
the search the ``mcts`` and ``ismcts`` agents run by default (:mod:`stratagem.solvers.agents`): guided by
what the game hands over, its move ordering (with progressive widening) and the playout length it declares
before its evaluation takes over, on the reference engine; its compiled guide on the compiled one. A game
that hands over nothing is searched plain. The summary says which search ran (:func:`search_words`), so an
estimate is never compared with another search's unawares.
"""

from __future__ import annotations

from random import Random
from typing import Any

from stratagem.analysis.horizon import within_horizon
from stratagem.analysis.methods import ARGUMENT
from stratagem.analysis.report import OPEN, player_move, record_value
from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadArgument, StratagemError
from stratagem.core.game import CHANCE, SIMULTANEOUS
from stratagem.core.io import MAX_PARAMETER
from stratagem.solvers.alphabeta import return_bounds
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.multiplayer import maxn


def _seconds_left(limit: Deadline | None) -> float | None:
    """What is left of the deadline in seconds, for the searches that take seconds (None: no limit)."""
    return None if limit is None else limit.remaining()


def mcts_report(game: Any, state: Any, iterations: int | None, limit: Deadline | None,
                seed: int, engine: Any = None) -> dict[str, Any]:
    """The report of UCT (MCTS-Solver) over the open position; 2000 iterations without a limit.

    On the reference engine (``engine`` None) it is :func:`~stratagem.solvers.mcts.uct` with its
    defaults (guided by the game's move ordering where it has one); on a compiled engine it is the same
    UCT in C (:func:`~stratagem.solvers.compiled_uct.uct_compiled`), guided where the game hands over a
    compiled guide (Card Clash, Stratatak, STAKD), plain elsewhere. The summary says which
    (:func:`search_words`).
    """
    if game.to_move(state) < 0:
        raise BadArgument(ARGUMENT, "method", "mcts needs a position where one player is to move")
    budget = iterations if iterations is not None or limit is not None else 2000
    if engine is not None:
        from stratagem.solvers.compiled_uct import uct_compiled

        result = uct_compiled(game, engine, state, iterations=budget, time_limit=_seconds_left(limit), seed=seed,
                              value_range=_float_bounds(game))
    else:
        from stratagem.solvers.mcts import uct

        result = uct(game, state, iterations=budget, time_limit=_seconds_left(limit), seed=seed,
                     value_range=_float_bounds(game))
    return _mc_report(game, state, result, "mcts", OPEN, search_words(game, engine, observed=False))


def ismcts_report(game: Any, state: Any, player: int | None, iterations: int | None, limit: Deadline | None,
                  seed: int, engine: Any = None) -> dict[str, Any]:
    """The report of information-set MCTS from ``player``'s observation (counted from 0), the search the
    ``ismcts`` agent runs by default: guided (``guided=True``), on the reference engine (``engine`` None)
    :func:`~stratagem.solvers.mcts.ismcts`, on a compiled engine the same search in C
    (:func:`~stratagem.solvers.compiled_ismcts.ismcts_compiled`), which takes the game's compiled guide
    (Card Clash's, Stratatak's) and runs plain without one (Stack Attack's, whose reference search has no
    move ordering or cut-off to take either). The analysis runs it where ``play`` runs the agent
    (:func:`~stratagem.analysis.methods.engine_for`); the summary says which search ran
    (:func:`search_words`): a user comparing it with ``--method mcts`` (guided too) or with ``play`` compares
    one kind of search."""
    _check_mover(game, state, player)
    budget = iterations if iterations is not None or limit is not None else 2000
    if engine is not None:
        from stratagem.solvers.compiled_ismcts import ismcts_compiled

        result = ismcts_compiled(game, engine, state, iterations=budget, time_limit=_seconds_left(limit), seed=seed,
                                 value_range=_float_bounds(game), player=player, guided=True)
    else:
        from stratagem.solvers.mcts import ismcts

        result = ismcts(game, state, iterations=budget, time_limit=_seconds_left(limit), seed=seed,
                        value_range=_float_bounds(game), player=player, guided=True)
    return _mc_report(game, state, result, "ismcts", f"player {result.player + 1}'s observation (hidden cards sampled)",
                      search_words(game, engine, observed=True))


def search_words(game: Any, engine: Any, *, observed: bool) -> str:
    """Which search ``mcts`` (``observed`` False) or ``ismcts`` (True) runs on ``engine`` (None: the
    reference engine), as the summary says it: "guided by the game's move order ..." or "plain ...".

    Guided, the reference search takes the game's :class:`~stratagem.core.game.MoveOrdering` (open UCT
    not at simultaneous moves, :class:`~stratagem.solvers.mcts.engine.Search`'s rule) and the
    ``rollout_limit`` it declares; the compiled one takes the game's compiled guide, its order and its
    ``rollout_limit``, and is plain without one. A cut-off of 0 values each new leaf by the game's
    evaluation alone; none, random playouts to the end."""
    if engine is not None:
        from stratagem.solvers.compiled_uct import compiled_guide

        guide = compiled_guide(game, engine)
        if guide is None:
            return "plain: random playouts to the end (the compiled engine has no guide for this game)"
        ordered, cut = True, int(guide.rollout_limit)
    else:
        from stratagem.solvers.mcts.engine import declared_rollout_limit, orders_moves

        ordered = orders_moves(game, observed=observed)
        declared = declared_rollout_limit(game)
        cut = -1 if declared is None else declared
    if not ordered and cut < 0:
        return "plain: random playouts to the end (the game gives no move order or evaluation cut-off)"
    if not ordered:
        return (f"guided by the game's evaluation {'at each new leaf' if cut == 0 else f'after {cut} plies of playout'}"
                " (no move order)")
    order = "guided by the game's move order (progressive widening)"
    if cut == 0:
        return f"{order} and its evaluation at each new leaf"
    if cut < 0:
        return f"{order}, random playouts to the end"
    return f"{order}, playouts cut after {cut} plies and scored by the game's evaluation"


def _mc_report(game: Any, state: Any, result: Any, method: str, information: str, search: str) -> dict[str, Any]:
    """The report of an MCTS or ISMCTS result: the moves by visits, a value only when it was proved; an
    estimate's summary says which ``search`` ran (:func:`search_words`)."""
    moves = [{"move": m.notation, "visits": m.visits, "mean": round(m.mean, 4) if m.visits else None,
              "proven": None if m.proven_value is None else record_value(m.proven_value)} for m in result.moves]
    moves.sort(key=lambda m: -m["visits"])
    proven = bool(result.proven)
    if not result.iterations:
        return {"method": method, "information": information, "assumption": "", **_nothing_sampled(
            f"no {method} estimate: the time limit ran out before the first iteration"),
            "player": result.player + 1, "iterations": 0, "value": None, "moves": moves}
    return {
        "method": method,
        "information": information,
        "assumption": "",
        "status": "solved" if proven else "estimate",
        "player": result.player + 1,
        "best_move": result.best_notation,
        "iterations": result.iterations,
        "value": None if not proven or result.value is None else record_value(result.value[result.player]),
        "moves": moves,
        "summary": (within_horizon(game, state, result.value[result.player],
                                   f"MCTS-Solver proved the value {result.value[result.player]:.6g} for player "
                                   f"{result.player + 1} (a sum of exact returns in floating point, to 6 digits)")
                    if proven and result.value is not None else
                    f"{method} estimate after {result.iterations} iterations (not a value): {search}"),
    }


def pimc_report(game: Any, state: Any, player: int | None, samples: int | None, limit: Deadline | None,
                seed: int, depth: int | None, engine: Any = None) -> dict[str, Any]:
    """The report of PIMC from ``player``'s observation (counted from 0): the moves by their mean over
    the sampled deals, each solved on the game's compiled ``engine`` where one is given (turn-based games;
    the simultaneous-move PIMC solves by LP in Python)."""
    if game.to_move(state) == SIMULTANEOUS:
        return _pimc_simultaneous(game, state, player, samples, seed, depth, limit)
    from stratagem.solvers.pimc import pimc

    _check_mover(game, state, player)

    def leaf(game: Any, state: Any, rng: Random) -> tuple[float, ...]:
        return _solve_each_sample(game, state, rng, limit, engine)

    result = pimc(game, state, leaf, samples=samples or 20, time_limit=_seconds_left(limit), seed=seed)
    ordered = sorted(result.moves, key=lambda m: -m.mean)
    moves = [{"move": m.notation, "samples": m.count, "mean": round(m.mean, 4) if m.count else None}
             for m in ordered]
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
        **({} if result.samples else _nothing_sampled(_NO_SAMPLE)),
    }


#: The summary of PIMC when the time limit ran out before one sampled deal was solved.
_NO_SAMPLE = "no PIMC estimate: the time limit ran out before the first sampled deal was solved"


def _nothing_sampled(summary: str) -> dict[str, Any]:
    """A Monte Carlo report's status, best move and summary when the time limit left no iteration or
    sample: nothing was estimated, so nothing is best (each move's 0.0 was printed as an estimate, and the
    first legal move as "best by the estimate", exit 0)."""
    return {"status": "unknown", "best_move": None, "summary": summary}


#: Nodes one sampled deal may take before PIMC falls back to the game's evaluation.
SAMPLE_NODES = 50_000


def _solve_each_sample(game: Any, state: Any, rng: Random, limit: Deadline | None = None,
                       engine: Any = None) -> tuple[float, ...]:
    """PIMC's leaf: solve the open position exactly when it is small (and time is left), else use the
    evaluation. On a compiled ``engine`` the search is the compiled one with the same node budget: the
    same exact values, some 50 times sooner (a sampled deal of Card Clash took 13 s in Python); a value
    the kernel cannot hold (:class:`~stratagem.solvers.compiled_expectimax.FractionsTooLarge`, a line past
    its scratch) is searched in Python."""
    if game.is_terminal(state):
        return tuple(float(v) for v in game.returns(state))
    result = _solve_open(game, state, limit, engine)
    if result is not None and result.values is not None:
        return tuple(float(v) for v in result.values)
    if hasattr(game, "evaluate"):
        return tuple(float(v) for v in game.evaluate(state))
    from stratagem.solvers.mcts import playout

    return tuple(float(v) for v in playout(game, state, rng, value_range=_float_bounds(game)))


def _solve_open(game: Any, state: Any, limit: Deadline | None, engine: Any) -> Any:
    """One sampled deal searched within :data:`SAMPLE_NODES`: expectiminimax for two players, max^n (one
    pass: solved to its end or not at all) for more; on the compiled ``engine`` first, in Python when there
    is none or the kernel refuses the deal. ``None`` when the Python search refuses it too."""
    two = game.num_players == 2
    low, high = return_bounds(game) if two else (None, None)
    if engine is not None:
        from stratagem.solvers.compiled_expectimax import expectiminimax_compiled
        from stratagem.solvers.compiled_maxn import maxn_compiled

        try:
            if two:
                return expectiminimax_compiled(game, engine, state, lo=low, hi=high, max_nodes=SAMPLE_NODES,
                                               time_limit=limit)
            return maxn_compiled(game, engine, state, max_nodes=SAMPLE_NODES, time_limit=limit)
        except StratagemError:
            pass  # a value or a line the kernel cannot hold: the Python search below
    try:
        if two:
            return expectiminimax(game, state, lo=low, hi=high, max_nodes=SAMPLE_NODES, time_limit=limit)
        return maxn(game, state, max_nodes=SAMPLE_NODES, time_limit=limit, iterative=False)
    except StratagemError:
        return None


#: Simultaneous turns each sampled deal is solved to when --depth is not given (evaluation at the cut).
SAMPLE_TURNS = 2


def _pimc_simultaneous(game: Any, state: Any, player: int | None, samples: int | None, seed: int,
                       depth: int | None, limit: Deadline | None) -> dict[str, Any]:
    """PIMC card advice for a simultaneous-move position: each sampled deal solved open by LP."""
    from stratagem.solvers.pimc import pimc_simultaneous

    assert player is not None
    turns = depth if depth is not None else SAMPLE_TURNS
    result = pimc_simultaneous(game, state, player, samples=samples or 20, seed=seed, depth=turns,
                               time_limit=limit)
    return {
        "method": "pimc",
        "information": result.information,
        # The cut is said: without --depth each deal is solved 2 turns deep, the evaluation beyond, and the
        # label said only "solved open by LP", as if to the end.
        "assumption": f"each sampled deal solved open by LP for at most {turns} simultaneous "
                      f"turn{'' if turns == 1 else 's'} (the game's evaluation beyond; the depth limit, depth or "
                      "--depth, sets it); a card's "
                      "worth is its payoff against the others' equilibrium mix",
        "status": "estimate",
        "player": player + 1,
        "samples": result.samples,
        "best_move": result.best_notation,
        "moves": [{"move": m.notation, "samples": m.count, "mean": round(m.mean, 4) if m.count else None}
                  for m in result.moves],
        "summary": f"PIMC card advice over {result.samples} sampled deals (an estimate, not a value)",
        **({} if result.samples else _nothing_sampled(_NO_SAMPLE)),
    }


def duct_report(game: Any, state: Any, iterations: int | None, seed: int,
                limit: Deadline | None, engine: Any = None) -> dict[str, Any]:
    """The report of decoupled UCT: each player's empirical strategy and mean return (not a value); on a
    compiled engine the same search in C (:func:`~stratagem.solvers.compiled_duct.duct_compiled`)."""
    # As for MCTS: 2000 iterations without a limit; with one and no --iterations, as many as it allows (it
    # ran 2000 all the same, 0.07 s of a 2 s limit).
    budget = iterations if iterations is not None else MAX_PARAMETER if limit is not None else 2000
    if engine is not None:
        from stratagem.solvers.compiled_duct import duct_compiled

        result = duct_compiled(game, engine, state, iterations=budget, seed=seed, time_limit=limit)
    else:
        from stratagem.solvers.duct import duct

        result = duct(game, state, iterations=budget, seed=seed, time_limit=limit)
    players = []
    for p in range(game.num_players):
        if not result.moves[p]:
            continue
        players.append({
            "player": p + 1,
            "strategy": {player_move(game, state, p, m): round(f, 4)
                         for m, f in zip(result.moves[p], result.strategy[p], strict=True)},
            "mean_return": round(result.values[p], 4),
        })
    return {"method": "duct", "information": OPEN, "assumption": "", "status": "estimate",
            "iterations": result.iterations, "players": players,
            "summary": f"decoupled UCT estimate after {result.iterations} iterations (not a value)"}


def _check_mover(game: Any, state: Any, player: int | None) -> None:
    """Refuse to analyse from ``player``'s observation when another player (or chance) is to move, or every
    player at once (a simultaneous node, which ISMCTS does not search: PIMC and DUCT do)."""
    mover = game.to_move(state)
    if player is not None and mover == SIMULTANEOUS:
        raise BadArgument(ARGUMENT, "as_player", "every player moves at once in this position, which ismcts does "
                                              "not search: use pimc with it, or duct without it")
    if player is not None and mover != player:
        who = "a chance event" if mover == CHANCE else f"player {mover + 1}"
        raise BadArgument(ARGUMENT, "as_player", f"player {player + 1} is not to move in this position ({who} is)")


def _float_bounds(game: Any) -> tuple[float, float]:
    """The game's lowest and highest return as floats (the Monte Carlo value range)."""
    low, high = return_bounds(game)
    return (float(low), float(high))

