"""Exact search: our plain alpha-beta (or expectiminimax, or paranoid) against OpenSpiel's
``alpha_beta_search`` (or ``expectiminimax``) on the same position, each stopped at a node budget."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from open_spiel.python.algorithms import minimax as spiel_minimax

from stratagem.analysis import return_bounds
from stratagem.core.errors import StratagemError
from stratagem.openspiel.peers.games import DEEP, NodeBudget, counting_open_game, cpu
from stratagem.solvers.alphabeta import alphabeta
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.multiplayer import paranoid


@dataclass(frozen=True)
class SearchRun:
    """One exact search: method, status (``solved`` or why it stopped), nodes, CPU seconds, value."""

    method: str
    status: str
    nodes: int
    seconds: float
    value: float | None


@dataclass(frozen=True)
class SearchPeer:
    ours: SearchRun
    theirs: SearchRun | None
    why_not: str = ""
    runs: int = 1

    @property
    def agree(self) -> bool | None:
        """Whether both values are known and equal (None when either search did not finish)."""
        if self.theirs is None or self.ours.value is None or self.theirs.value is None:
            return None
        return abs(self.ours.value - self.theirs.value) <= 1e-9


def search_peer(game: Any, state: Any, max_nodes: int, *, repeats: int = 3, cheap: float = 1.0) -> SearchPeer:
    """Our plain alpha-beta (or expectiminimax, where the position reaches chance) and OpenSpiel's,
    each stopped after ``max_nodes`` nodes; searches are deterministic, so a pair is repeated (up to
    ``repeats`` times, median CPU) only while both together took under ``cheap`` CPU seconds."""
    runs = [_search_pair(game, state, max_nodes)]
    while len(runs) < repeats and runs[0].ours.seconds + (runs[0].theirs.seconds if runs[0].theirs else 0) < cheap:
        runs.append(_search_pair(game, state, max_nodes))
    first = runs[0]
    ours = replace(first.ours, seconds=statistics.median(r.ours.seconds for r in runs))
    theirs = first.theirs
    if theirs is not None:
        theirs = replace(theirs, seconds=statistics.median(r.theirs.seconds for r in runs if r.theirs))
    return SearchPeer(ours, theirs, first.why_not, len(runs))


def _search_pair(game: Any, state: Any, max_nodes: int) -> SearchPeer:
    ours = _our_search(game, state, max_nodes)
    if game.num_players != 2:
        return SearchPeer(ours, None, f"OpenSpiel's searches take two players; this position has {game.num_players}")
    chance = ours.method == "expectiminimax"
    spiel, counter = counting_open_game(game, state, max_nodes, chance=chance)
    root = spiel.new_initial_state()
    player = max(root.current_player(), 0)
    started = cpu()
    status, value = "solved", None
    try:
        if chance:
            value = float(spiel_minimax.expectiminimax(root, DEEP, None, player)[0])
            method = "expectiminimax"
        else:
            value = float(spiel_minimax.alpha_beta_search(spiel, root, maximum_depth=DEEP,
                                                          maximizing_player_id=player)[0])
            method = "alpha_beta_search"
    except NodeBudget:
        status = "node budget"
        method = "expectiminimax" if chance else "alpha_beta_search"
    except RecursionError:
        status = "too deep for Python's recursion"
        method = "expectiminimax" if chance else "alpha_beta_search"
    theirs = SearchRun(method, status, counter.applied + 1, cpu() - started, value)
    return SearchPeer(ours, theirs)


def _our_search(game: Any, state: Any, max_nodes: int) -> SearchRun:
    options: dict[str, Any] = {"use_ordering": False, "use_tt": False, "max_nodes": max_nodes, "iterative": False}
    started = cpu()
    if game.num_players > 2:
        low, high = return_bounds(game)
        result = paranoid(game, state, lo=low, hi=high, **options)
        return SearchRun(result.method, "solved" if result.solved else "node budget", result.nodes,
                         cpu() - started, float(Fraction(result.value)) if result.solved and result.value is not None
                         else None)
    try:
        result = alphabeta(game, state, **options)
    except StratagemError as exc:
        if "chance" not in str(exc):
            raise
        low, high = return_bounds(game)
        started = cpu()
        result = expectiminimax(game, state, lo=low, hi=high, **options)
    seconds = cpu() - started
    value = float(Fraction(result.value)) if result.solved and result.value is not None else None
    status = "solved" if result.solved else "node budget"
    return SearchRun(result.method, status, result.nodes, seconds, value)
