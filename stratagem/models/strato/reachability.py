"""What a reachable state graph of a Strato deal, or of its layout in designer mode, proves: the answer in
words (:func:`conclusion`), and where a designer graph was cut before a win, what the par's A* run
(:func:`~stratagem.models.strato.designer.designer_par`) proved, as the report's fields
(:func:`par_search_fields`, ``stratagem/reach@1``) and as a line of text (:func:`par_search_line`).

A win reached (by the graph, or by A*'s line) makes the deal solvable, or in designer mode bounds every deal
on the layout from below by the par; a complete graph without one (or an A* that expanded every layout)
proves it, or every deal on the layout, unsolvable; anything else proves nothing about a win, though a
stopped A* still proves a lower bound on the par. ``stratagem reach`` renders these.
"""

from __future__ import annotations

from typing import Any

from stratagem.core.words import plural
from stratagem.models.strato.rules.notation import format_move
from stratagem.solvers.graph import GraphFacts
from stratagem.solvers.search import SearchResult

__all__ = ["conclusion", "par_search_fields", "par_search_line"]


def conclusion(facts: GraphFacts, designer: bool, par_search: SearchResult[Any, Any] | None = None,
               ) -> tuple[bool | None, str]:
    """Whether the deal (or, in designer mode, every deal on the layout) is unsolvable, and why, in words;
    ``par_search``: the designer par's A* run where the graph was cut before a win."""
    if par_search is not None:
        return _searched_conclusion(facts, par_search)
    if facts.goal_reachable:
        if designer:
            return False, (
                f"a winning table is reachable; designer par {facts.par} is a lower bound on the optimal "
                f"length of every deal on this layout (cards permitting, not a line of any deal)"
            )
        return False, ("a winning position is reachable: the deal is solvable, its shortest win takes "
                       f"{plural(facts.par, 'turn')}")
    if not facts.complete:
        return None, (
            f"no winning state among the {plural(facts.states, 'state', grouped=True)} built, but the graph is "
            f"truncated ({plural(facts.frontier, 'state', grouped=True)} left unexpanded): nothing is proven either way"
        )
    if designer:
        return True, (
            "no winning table is reachable even with every weather always at hand: every deal on this layout "
            f"is unsolvable (the complete designer graph of {plural(facts.states, 'state', grouped=True)} is the proof)"
        )
    searched = plural(facts.states, "state", grouped=True)
    return True, f"no winning position is reachable: the deal is unsolvable (all {searched} searched)"


def _searched_conclusion(facts: GraphFacts, par_search: SearchResult[Any, Any]) -> tuple[bool | None, str]:
    """The designer answer of a graph cut before a win, from the par's A* run."""
    held = plural(_held(par_search), "layout", grouped=True)
    if par_search.moves is not None:
        return False, (
            f"a winning table is reachable: the graph was cut at {plural(facts.states, 'state', grouped=True)} "
            f"before one, and A* (the game's admissible bound; {held} held) found a line; designer par "
            f"{len(par_search.moves)} is a lower bound on the optimal length of every deal on this layout "
            f"(cards permitting, not a line of any deal)"
        )
    if par_search.status == "unsolvable":
        return True, (
            "no winning table is reachable even with every weather always at hand: every deal on this layout "
            f"is unsolvable (A* expanded every reachable layout, {held}, and none wins)"
        )
    stop = {"states": "the state limit", "time": "the time limit"}.get(par_search.stopped_by or "", "a limit")
    return None, (
        f"no winning state among the {plural(facts.states, 'state', grouped=True)} built (the graph is "
        f"truncated), and A* (the game's admissible bound) was stopped by {stop} at {held}: whether a win is "
        f"reachable is not proven either way, but every designer line takes at least "
        f"{plural(par_search.lower_bound, 'turn')}, so no deal on this layout is won in fewer"
    )


def par_search_fields(par_search: SearchResult[Any, Any] | None) -> dict[str, Any]:
    """The report's fields from the designer par's A* run: ``par_search`` (``null`` where the graph answered),
    and where it ran, ``goal_reachable`` and ``par`` as it proved them."""
    if par_search is None:
        return {"par_search": None}
    solved = par_search.moves is not None
    return {
        "goal_reachable": True if solved else False if par_search.status == "unsolvable" else None,
        "par": len(par_search.moves) if par_search.moves is not None else None,
        "par_search": {
            "method": "astar",
            "status": par_search.status,
            "lower_bound": par_search.lower_bound,
            "expanded": par_search.stats.expanded,
            "generated": par_search.stats.generated,
            "states": _held(par_search),
            "stopped_by": par_search.stopped_by,
        },
    }


def par_search_line(par_search: SearchResult[Any, Any]) -> str:
    """The text report's line of the designer par's A* run."""
    held = plural(_held(par_search), "layout", grouped=True)
    if par_search.moves is not None:
        line = " ".join(format_move(move) for move in par_search.moves)
        return (f"designer par by A* (the graph cut before a win; {held} held): "
                f"par {plural(len(par_search.moves), 'turn')}: {line}")
    if par_search.status == "unsolvable":
        return f"designer par by A*: every reachable layout expanded ({held}), none wins"
    return (f"designer par by A* (the graph cut before a win): at least {plural(par_search.lower_bound, 'turn')}, "
            f"stopped by its {par_search.stopped_by} limit with {held} held")


def _held(par_search: SearchResult[Any, Any]) -> int:
    """The layouts A* held: its table of best ``g``, counted by depth in its statistics."""
    return sum(par_search.stats.states_per_depth)
