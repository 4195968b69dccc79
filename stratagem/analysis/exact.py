"""The exact searches of a position: the root's search and the ranking of its moves, under one deadline.

``alphabeta`` (with chance: ``expecti``), ``paranoid`` and ``maxn`` search the root, then (``rank``)
every root move in what the root's search left of the deadline. A move's value is given only when its
own search established it. When the root's search was stopped but the ranking proved enough (every move
solved, or one move reaching the best return there is), the root's value is taken from the ranking
(:func:`_root_from_ranking`) and the summary says so, so the summary and the move list never disagree.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from typing import Any

from stratagem.analysis.horizon import within_horizon
from stratagem.analysis.report import OPEN, record_value
from stratagem.core.deadline import Deadline
from stratagem.core.errors import StratagemError
from stratagem.core.progress import ProgressFactory
from stratagem.solvers.alphabeta import alphabeta, return_bounds
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.gametree import NOT_RANKED, SOLVED, MinimaxResult
from stratagem.solvers.multiplayer import maxn, paranoid
from stratagem.solvers.prooftree import encode_value
from stratagem.solvers.ranking import MoveValue, rank_moves
from stratagem.solvers.transposition import TranspositionTable


def _search(method: str, engine: Any = None) -> Callable[..., MinimaxResult[Any]]:
    """The solver's search function a method name stands for (on ``engine``, a compiled engine, when the
    method has a compiled search there)."""
    if engine is not None and method == "alphabeta":
        return _compiled_alphabeta(engine)
    if engine is not None:
        return _compiled_numeric(method, engine)
    return {"alphabeta": alphabeta, "expecti": expectiminimax, "paranoid": paranoid, "maxn": maxn}[method]


#: The share of a time limit the compiled exhaustive search of ``expecti``, ``paranoid`` or ``maxn`` gets;
#: in the rest, when it was stopped, the Python search's iterative deepening finds a best move so far.
FAST_SHARE = 0.8

#: The methods whose Python search deepens iteratively under a time limit.
DEEPENING = ("expecti", "paranoid", "maxn")


def _compiled_numeric(method: str, engine: Any) -> Callable[..., MinimaxResult[Any]]:
    """``expecti``, ``paranoid`` or ``maxn`` with the Python search's signature, searched exhaustively on the
    compiled ``engine`` (:mod:`~stratagem.solvers.compiled_expectimax`, :mod:`~stratagem.solvers.compiled_maxn`;
    their own tables, so a ``tt`` given is not used). A depth limit needs the game's evaluation, and a value
    beyond 64-bit fractions or a line deeper than the kernel's scratch needs Python's numbers and memory:
    those searches stay Python's. Under a time limit the kernels get :data:`FAST_SHARE` of it; stopped,
    they have no move to show (one pass, no iterations), so the Python search, deepening iteratively in
    the time left, gives the best move found so far, as a time limit's answer should."""
    from stratagem.solvers.compiled_expectimax import (
        FractionsTooLarge,
        expectiminimax_compiled,
        paranoid_compiled,
    )
    from stratagem.solvers.compiled_maxn import maxn_compiled

    pythons: dict[str, Callable[..., MinimaxResult[Any]]] = {"expecti": expectiminimax, "paranoid": paranoid,
                                                             "maxn": maxn}
    compiled: dict[str, Callable[..., MinimaxResult[Any]]] = {
        "expecti": expectiminimax_compiled, "paranoid": paranoid_compiled, "maxn": maxn_compiled}
    python, fast = pythons[method], compiled[method]

    def search(game: Any, state: Any, *args: Any, depth: int | None = None, tt: Any = None,
               **options: Any) -> MinimaxResult[Any]:
        if tt is not None:
            options["tt"] = tt  # the Python search's table (maxn takes none)
        if depth is not None:
            return python(game, state, *args, depth=depth, **options)
        given = options.get("time_limit")
        limit = given if isinstance(given, Deadline) and given.seconds is not None and method in DEEPENING else None
        fast_options = {k: v for k, v in options.items() if k != "tt"}
        if limit is not None:
            fast_options["time_limit"] = limit.part(FAST_SHARE)
        try:
            found = fast(game, engine, state, *args, **fast_options)
        except FractionsTooLarge:
            return python(game, state, *args, **options)
        except StratagemError as exc:
            if "longer than" not in str(exc):
                raise
            return python(game, state, *args, **options)
        nodes_spent = options.get("max_nodes") is not None and found.nodes >= options["max_nodes"]
        if found.solved or limit is None or nodes_spent or limit.expired():
            return found
        # Stopped by its share of the time: the kernel searches in one pass and keeps no move. The Python
        # search deepens iteratively, so in the rest of the time it gives the best move found so far (or,
        # on a small tree, the answer); its nodes are added to the kernel's.
        deepened = python(game, state, *args, **options)
        return dataclasses.replace(deepened, nodes=found.nodes + deepened.nodes,
                                   seconds=found.seconds + deepened.seconds)

    search.stands_for = python  # type: ignore[attr-defined]  # the ranking passes what the Python search takes
    return search


def kernel_built(method: str) -> bool:
    """Whether ``method``'s compiled search kernel is built and up to date."""
    from stratagem.analysis.methods import SEARCH_KERNEL
    from stratagem.core.compiled import status

    core = status()
    return SEARCH_KERNEL[method] not in core.missing and SEARCH_KERNEL[method] not in core.stale


def _compiled_alphabeta(engine: Any) -> Callable[..., MinimaxResult[Any]]:
    """:func:`~stratagem.solvers.alphabeta.alphabeta`'s signature, searched exhaustively on the compiled
    ``engine`` (:func:`~stratagem.solvers.compiled_alphabeta.alphabeta_compiled`; its own table, so a
    ``tt`` given is not used). A depth limit needs the game's evaluation: that search stays Python's."""
    from stratagem.solvers.compiled_alphabeta import alphabeta_compiled

    def search(game: Any, state: Any, *, depth: int | None = None, tt: Any = None,
               **options: Any) -> MinimaxResult[Any]:
        if depth is not None:
            return alphabeta(game, state, depth=depth, tt=tt, **options)
        return alphabeta_compiled(game, engine, state, **options)

    return search


def _options(game: Any, method: str, depth: int | None, limit: Deadline | None,
             max_nodes: int | None) -> dict[str, Any]:
    """The keyword arguments of ``method``'s search: the limits, and the game's return bounds for the
    searches that prune with them."""
    options: dict[str, Any] = {"depth": depth, "time_limit": limit, "max_nodes": max_nodes}
    if method in ("alphabeta", "expecti", "paranoid"):
        low, high = return_bounds(game)
        # One transposition table for the root's search and the ranking of its moves: the ranking
        # starts from what the root's search learnt.
        options.update(lo=low, hi=high, tt=TranspositionTable())
    return options


def exact_report(game: Any, state: Any, method: str, depth: int | None, limit: Deadline | None,
                 max_nodes: int | None, rank: bool, show: ProgressFactory, engine: Any = None) -> dict[str, Any]:
    """The report of an exact method: the root's search, then (``rank``) every root move's, all within
    the one deadline ``limit``.

    ``alphabeta`` learns that a game has chance only when its search meets a chance node, which may be
    in the ranking after a root search that stopped early; then the whole analysis is done again with
    ``expecti`` in what is left of the deadline, so the root and its moves are searched alike. ``engine``
    (a game's compiled engine, or None for the reference engine) is where the search runs; ``expecti``
    after ``alphabeta`` runs there too where its kernel is built.
    """
    try:
        return _exact_with(game, state, method, depth, limit, max_nodes, rank, show, engine)
    except StratagemError as exc:
        if method != "alphabeta" or "chance" not in str(exc):
            raise
    return _exact_with(game, state, "expecti", depth, limit, max_nodes, rank, show,
                       engine if depth is None and kernel_built("expecti") else None)


def _exact_with(game: Any, state: Any, method: str, depth: int | None, limit: Deadline | None,
                max_nodes: int | None, rank: bool, show: ProgressFactory, engine: Any = None) -> dict[str, Any]:
    """:func:`exact_report` with one method (no fallback to ``expecti``)."""
    options = _options(game, method, depth, limit, max_nodes)
    with show(f"{method} search", "depth", "nodes") as update:
        options["progress"] = lambda iteration, nodes: update(iteration, nodes)
        result = _search(method, engine)(game, state, **options)
    report = _minimax_report(game, state, method, result)
    battles_along = getattr(game, "battles_along", None)
    if battles_along is not None and result.solved and result.distance is not None:
        report["battles"] = battles_along(state, result.pv)
        report["summary"] += f" ({report['battles']} battle{'' if report['battles'] == 1 else 's'})"
    if result.solved:
        report["summary"] = within_horizon(game, state, result.value, report["summary"])
    if rank and game.to_move(state) >= 0:
        options.pop("progress", None)
        known = {}
        if result.solved and result.best_move is not None:
            # The root's search established its best move's value: the list says so, and that move is
            # not searched again.
            known[result.best_move] = MoveValue(result.best_move, result.value, result.distance, SOLVED,
                                                result.assumption)
        ranked = _rank(game, state, method, options, show, known, engine)
        report["moves"] = [
            {"move": game.format_move(state, mv.move),
             "value": record_value(mv.value) if mv.status in (SOLVED, "heuristic") else None,
             "distance": mv.distance if mv.status == SOLVED else None, "status": mv.status}
            for mv in ranked
        ]
        unranked = sum(1 for mv in ranked if mv.status == NOT_RANKED)
        if unranked:
            report["not_ranked"] = unranked
        if report["status"] != SOLVED:
            _root_from_ranking(game, state, report, ranked)
    return report


def _rank(game: Any, state: Any, method: str, options: dict[str, Any], show: ProgressFactory,
          known: dict[Any, MoveValue[Any]], engine: Any = None) -> list[MoveValue[Any]]:
    """Every root move ranked by ``method``'s search, the display saying which move is being searched
    ("ranking move 3 of 12: b2: depth 5, 40,000 nodes")."""
    with ExitStack() as displays:
        update: list[Callable[[int, int], None]] = [lambda depth, nodes: None]

        def announce(number: int, count: int, move: Any) -> None:
            displays.close()  # the previous move's display
            label = f"ranking move {number} of {count}: {game.format_move(state, move)}"
            update[0] = displays.enter_context(show(label, "depth", "nodes"))

        return rank_moves(game, state, _search(method, engine), on_move=announce, known=known,
                          progress=lambda depth, nodes: update[0](depth, nodes), **options)


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
        report.update(status=SOLVED, value=record_value(best.value), best_move=text, best_found=None, pv=[text],
                      distance=best.distance if every else None, estimate=record_value(best.value))
        if report.get("values") is None and game.num_players == 2 and report.get("assumption") == "open information":
            mover = game.to_move(state)
            report["values"] = [record_value(best.value if p == mover else -best.value) for p in range(2)]
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
    report["lower_bound"] = record_value(best.value)
    report["summary"] = (f"no value established (the search was stopped); the ranking proved {text} "
                         f"worth {encode_value(best.value)}{plies} for {who}, so {who} gets at least that")


def _minimax_report(game: Any, state: Any, method: str, result: MinimaxResult[Any]) -> dict[str, Any]:
    """The report of the root's search alone, before the ranking adds to it."""
    best = None if result.best_move is None else game.format_move(state, result.best_move)
    return {
        "method": method,
        "information": OPEN,
        "assumption": result.assumption,
        "status": result.status,
        "player": result.player + 1,
        "value": record_value(result.value),
        "values": None if result.values is None else [record_value(v) for v in result.values],
        "estimate": record_value(result.estimate),
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
        reached = f" after its depth-{result.depth} iteration" if result.depth else ""
        estimate = ("" if result.estimate is None else
                    f"; that iteration's estimate {encode_value(result.estimate)} rests on the game's evaluation")
        return (f"no value established: the search was stopped{reached}{estimate}, so no bound narrower than "
                "the game's range of returns is proven")
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


def _line(game: Any, state: Any, moves: Sequence[Any]) -> list[str]:
    """The moves of a line in the game's notation, each written in the position it is played from."""
    texts = []
    for move in moves:
        texts.append(game.format_move(state, move))
        state = game.apply(state, move)
    return texts
