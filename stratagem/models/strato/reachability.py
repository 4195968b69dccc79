"""What a reachable state graph of a Strato deal, or of its layout in designer mode, proves: the answer in
words (:func:`conclusion`), and where a designer graph was cut before a win, the par's searches
(:func:`search_par`: A*, then SAT where A* stops without a par) and what they proved, as the report's fields
(:func:`par_search_fields`, ``stratagem/reach@2``) and as lines of text (:func:`par_search_lines`).

A win reached (by the graph, or by a par search's line) makes the deal solvable, or in designer mode bounds
every deal on the layout from below by the par; a complete graph without one (or an A* that expanded every
layout) proves it, or every deal on the layout, unsolvable; anything else proves nothing about a win, though
a stopped A* still proves a lower bound on the par. A par found by SAT rests on CaDiCaL's refutation of the
horizon below (:mod:`~stratagem.models.strato.designer_sat`): its line is replayed, its refutation is the
solver's word, not a certificate, and the words say so. ``stratagem reach`` renders these.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.progress import ProgressFactory
from stratagem.core.words import plural
from stratagem.models.strato.designer import StratoDesigner, designer_par
from stratagem.models.strato.designer_sat import SOLVER, designer_par_sat
from stratagem.models.strato.encodings.sat import ENCODING
from stratagem.models.strato.rules.notation import Move, format_move
from stratagem.solvers.graph import GraphFacts
from stratagem.solvers.satplan import SatPlanResult
from stratagem.solvers.search import SearchResult

__all__ = ["ASTAR_SHARE", "ParSearch", "conclusion", "par_search_fields", "par_search_lines", "search_par"]

#: A*'s part of the time the graph left the par's searches; the rest is SAT's, where A* stops without a par.
#: A* that finds a par finds it fast (challenge 1's first layout: 0.13 CPU s); where it does not, the layers it
#: holds grow 4-10 times a turn and more time rarely raises its bound, while SAT decides the level-2 example's
#: layouts in 30-47 CPU s.
ASTAR_SHARE = 0.5


@dataclass(frozen=True)
class ParSearch:
    """The designer par's searches where the graph was cut before a win: ``astar``, and ``sat`` where A*
    stopped without a par (``None`` where A* answered)."""

    astar: SearchResult[Any, Move]
    sat: SatPlanResult[Move] | None = None

    @property
    def moves(self) -> tuple[Move, ...] | None:
        """A line of par length: A*'s, or SAT's where it found one and refuted the horizon below."""
        if self.astar.moves is not None:
            return tuple(self.astar.moves)
        if self.sat is not None and self.sat.status == "solved":
            return self.sat.moves
        return None

    @property
    def lower_bound(self) -> int:
        """The par, when found; else every designer line takes at least this many turns (A*'s bound, raised
        by the horizons the SAT solver refuted)."""
        if self.moves is not None:
            return len(self.moves)
        return max(self.astar.lower_bound, self.sat.lower_bound if self.sat is not None else 0)


def search_par(layout: StratoDesigner, name: str, deadline: Deadline, max_states: int,
               progress: ProgressFactory) -> ParSearch:
    """The designer par of a layout whose graph was cut before a win: A*
    (:func:`~stratagem.models.strato.designer.designer_par`) under ``max_states`` layouts held and
    :data:`ASTAR_SHARE` of ``deadline``'s time; where it stops without a par, SAT
    (:func:`~stratagem.models.strato.designer_sat.designer_par_sat`) from the horizon below A*'s bound, in the
    rest of the time (without a limit, until it decides or has asked its horizons)."""
    part = deadline.part(ASTAR_SHARE)
    with progress(f"designer par of {name} by A*", "bound", "layouts expanded") as show:
        found = designer_par(layout, time_limit=_seconds(part), max_states=max_states, progress=show)
    if found.status != "unknown":
        return ParSearch(found)
    with progress(f"designer par of {name} by SAT", "horizon", "conflicts") as show:
        sat = designer_par_sat(layout, first=max(0, found.lower_bound - 1), time_limit=_seconds(deadline),
                               progress=lambda report: show(report.horizon, report.conflicts or 0))
    if sat.moves is not None and len(sat.moves) < found.lower_bound:  # a replayed line: A*'s bound was wrong
        raise RuntimeError(f"SAT found a designer line of {len(sat.moves)} turns, under A*'s bound "
                           f"{found.lower_bound}")
    return ParSearch(found, sat)


def _seconds(deadline: Deadline) -> float | None:
    """The time left, never zero (a limit of zero seconds means none to the searches)."""
    left = deadline.remaining()
    return None if left is None else max(left, 1e-9)


def conclusion(facts: GraphFacts, designer: bool, par_search: ParSearch | None = None,
               ) -> tuple[bool | None, str]:
    """Whether the deal (or, in designer mode, every deal on the layout) is unsolvable, and why, in words;
    ``par_search``: the designer par's searches where the graph was cut before a win."""
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


LOWER_BOUND_NOTE = ("is a lower bound on the optimal length of every deal on this layout (cards permitting, not a "
                    "line of any deal)")


def _searched_conclusion(facts: GraphFacts, par_search: ParSearch) -> tuple[bool | None, str]:
    """The designer answer of a graph cut before a win, from the par's searches."""
    astar, sat = par_search.astar, par_search.sat
    held = plural(_held(astar), "layout", grouped=True)
    cut = f"the graph was cut at {plural(facts.states, 'state', grouped=True)} before one"
    if astar.moves is not None:
        return False, (
            f"a winning table is reachable: {cut}, and A* (the game's admissible bound; {held} held) found a "
            f"line; designer par {len(astar.moves)} {LOWER_BOUND_NOTE}"
        )
    if astar.status == "unsolvable":
        return True, (
            "no winning table is reachable even with every weather always at hand: every deal on this layout "
            f"is unsolvable (A* expanded every reachable layout, {held}, and none wins)"
        )
    stop = {"states": "the state limit", "time": "the time limit"}.get(astar.stopped_by or "", "a limit")
    stopped = f"A* (the game's admissible bound) was stopped by {stop} at {held}"
    if sat is not None and par_search.moves is not None:
        k = len(par_search.moves)
        return False, (
            f"a winning table is reachable: {cut}, {stopped}, and the SAT solver found a designer line of "
            f"{plural(k, 'turn')} and refuted every line of {k - 1} (CaDiCaL's word, not certified); designer par "
            f"{k} {LOWER_BOUND_NOTE}"
        )
    raised = ""
    if sat is not None and sat.lower_bound > astar.lower_bound:
        raised = (f" (A* proved {astar.lower_bound}; the SAT solver refuted every line of "
                  f"{sat.lower_bound - 1}, its word, not certified)")
    return None, (
        f"no winning state among the {plural(facts.states, 'state', grouped=True)} built (the graph is "
        f"truncated), and {stopped}{', and the SAT solver too' if sat is not None else ''}: whether a win is "
        f"reachable is not proven either way, but every designer line takes at least "
        f"{plural(par_search.lower_bound, 'turn')}{raised}, so no deal on this layout is won in fewer"
    )


def par_search_fields(par_search: ParSearch | None) -> dict[str, Any]:
    """The report's fields from the designer par's searches: ``par_search`` (A*'s run) and ``par_sat`` (SAT's),
    each ``null`` where it did not run, and where A* ran, ``goal_reachable`` and ``par`` as they proved them."""
    if par_search is None:
        return {"par_search": None, "par_sat": None}
    astar, sat, moves = par_search.astar, par_search.sat, par_search.moves
    return {
        "goal_reachable": True if moves is not None else False if astar.status == "unsolvable" else None,
        "par": len(moves) if moves is not None else None,
        "par_search": {
            "method": "astar",
            "status": astar.status,
            "lower_bound": astar.lower_bound,
            "expanded": astar.stats.expanded,
            "generated": astar.stats.generated,
            "states": _held(astar),
            "stopped_by": astar.stopped_by,
        },
        "par_sat": None if sat is None else {
            "method": "sat",
            "solver": SOLVER,
            "encoding": f"{ENCODING} designer",
            "certificate": False,
            "status": sat.status,
            "lower_bound": par_search.lower_bound if sat.status == "solved" else sat.lower_bound,
            "horizons": [{"horizon": run.horizon, "satisfiable": run.satisfiable} for run in sat.runs],
            "stopped_by": sat.stopped_by,
        },
    }


def par_search_lines(par_search: ParSearch) -> list[str]:
    """The text report's lines of the designer par's searches: A*'s, then SAT's where it ran."""
    astar, sat = par_search.astar, par_search.sat
    held = plural(_held(astar), "layout", grouped=True)
    if astar.moves is not None:
        line = " ".join(format_move(move) for move in astar.moves)
        return [f"designer par by A* (the graph cut before a win; {held} held): "
                f"par {plural(len(astar.moves), 'turn')}: {line}"]
    if astar.status == "unsolvable":
        return [f"designer par by A*: every reachable layout expanded ({held}), none wins"]
    lines = [f"designer par by A* (the graph cut before a win): at least {plural(astar.lower_bound, 'turn')}, "
             f"stopped by its {astar.stopped_by} limit with {held} held"]
    if sat is None:
        return lines
    asked = f"horizons {sat.runs[0].horizon}-{sat.runs[-1].horizon}" if sat.runs else "no horizon"
    if par_search.moves is not None:
        k = len(par_search.moves)
        lines.append(f"designer par by SAT ({SOLVER}, {asked}; {k - 1} refuted, the solver's word, not certified): "
                     f"par {plural(k, 'turn')}: {' '.join(format_move(move) for move in par_search.moves)}")
    elif sat.stopped_by == "horizons":
        lines.append(f"designer par by SAT ({SOLVER}): every horizon asked, up to {sat.lower_bound - 1}, refuted "
                     f"(the solver's word, not certified): at least {plural(sat.lower_bound, 'turn')}")
    elif not any(run.satisfiable is False for run in sat.runs):
        lines.append(f"designer par by SAT ({SOLVER}): stopped by its {sat.stopped_by} limit before it refuted a "
                     "horizon")
    else:
        lines.append(f"designer par by SAT ({SOLVER}, {asked}): stopped by its {sat.stopped_by} limit; horizons up to "
                     f"{sat.lower_bound - 1} refuted (the solver's word, not certified)")
    return lines


def _held(astar: SearchResult[Any, Any]) -> int:
    """The layouts A* held: its table of best ``g``, counted by depth in its statistics."""
    return sum(astar.stats.states_per_depth)
