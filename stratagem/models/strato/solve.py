"""Solving a Strato deal: the shortest winning line and how its optimality is known, as one library call.

This is the pipeline behind ``stratagem solve`` (and ``check``, ``generate``, ``bench``), kept with the
game because every step is Strato's: its relaxation bound, its guided line search, its SAT encoding.
It lives in the library, not in the command line, so that a researcher gets the same answers from
Python (``solve(game)``) as from the shell, and the commands only parse, call and render.

Methods (``method=``):

- ``relaxed``: the relaxation bound of the start (:mod:`relaxation`, a certificate ``verify`` recomputes
  from the rules), then a depth-first search for a line of exactly that length (:mod:`guided`). When
  one exists, the line is optimal by the certificate; when the relaxation cannot reach a goal at all,
  the deal is unsolvable by it. Otherwise lines of one, two, ... more turns are searched for over the
  rules engine, pruned by the relaxed distances (:func:`guided.bounded_line`): the first line found is
  optimal, certified by the bound and the exhausted search of the horizon before it
  (``relaxation-search``, which ``verify`` repeats). A limit gives ``unknown`` with the bound proven.
- ``bfs``, ``astar``, ``idastar``: exhaustive searches (their optimality is exhaustive search, not a
  certificate). A* runs compiled over integer-packed states (:mod:`compiled_search`) when the deal fits
  the packing (:func:`packed.fits`: every shipped challenge does), over the Python engine otherwise.
- ``sat``: CaDiCaL over growing horizons; optimality by a DRUP refutation checked here. ``cpsat``: the
  same model in CP-SAT, no certificate.
- ``auto`` (the default): ``relaxed`` (its pruned search with half the time left and at most
  :data:`AUTO_BOUNDED_NODES` expansions); if that does not decide, A* (one-row deals) or a short A*
  then SAT from the bound up (the others), all within one deadline. Its A* has the relaxation's
  searches in its heuristic.

Every claim is worded so as not to overclaim: ``solved`` means a line with a lower-bound proof or an
exhaustive search (named in ``optimality``), and a time limit gives ``unknown`` with the best line found
and the bound proven.

Why one module of over 600 lines: it is one concept, the solve pipeline (each method's run, how its
answer's optimality is known, and the proof record it writes); its phases share one deadline and one
:class:`Solution` and are read together.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stratagem.core.deadline import Deadline, as_deadline
from stratagem.core.outputs import dumps_record, write_atomic_files
from stratagem.core.progress import ProgressFactory, no_progress
from stratagem.core.records import Line, Proof
from stratagem.core.words import plural
from stratagem.models.strato.encodings.sat import ENCODING, EncodingStopped, StratoCNF, max_turns, open_formula
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import WON
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.compiled_search import compiled_astar
from stratagem.models.strato.search.guided import bounded_line, goal_distances, guided_line, supports
from stratagem.models.strato.search.heuristic import lower_bound
from stratagem.models.strato.search.packed import fits
from stratagem.models.strato.search.planning import StratoPlanning
from stratagem.models.strato.search.relaxation import RELAXATION, RelaxationBound, relaxation_bound, tracks_ends
from stratagem.solvers.dimacs import data_maybe_gz, text_maybe_gz, write_dimacs
from stratagem.solvers.drup import DrupVerdict, check_drup_data
from stratagem.solvers.satplan import (
    Refutation,
    SatPlanResult,
    SolverProgress,
    horizon_search,
    incremental_search,
)
from stratagem.solvers.search import FOUND, SOLVED, UNKNOWN, UNSOLVABLE, SearchResult, astar, bfs, greedy, idastar

SEARCHES = {"bfs": bfs, "astar": astar, "idastar": idastar}
METHODS = ("relaxed", *SEARCHES, "sat", "cpsat", "auto")

METHOD_NAMES = {
    "relaxed": "the table-only relaxation bound with a guided line search, then a search pruned by it",
    "bfs": "breadth-first search",
    "astar": "A* with an admissible heuristic",
    "idastar": "IDA* with an admissible heuristic",
    "sat": "SAT (CaDiCaL 1.9.5) over growing horizons, incrementally",
    "cpsat": "CP-SAT over growing horizons",
    "greedy": "greedy best-first search",
}

#: How an answer names the solver that gave it ("CP-SAT stopped by its time limit", not "CPSAT").
BACKEND_NAMES = {"sat": "SAT", "cpsat": "CP-SAT"}

#: A search's ``stopped_by`` in words: "stopped by its node limit", not "its nodes limit".
LIMIT_NAMES = {"time": "time limit", "nodes": "node limit"}

INFORMATION = "open: the solver sees every hand and the order of the draw pile and chooses every play"

#: Share of a time limit kept for the greedy search for a best line, in case the method stops undecided
#: without one: the method runs until the other 75 % have passed, the fallback in what is left of the one
#: deadline, so the command as a whole keeps its limit.
FALLBACK_SHARE = 0.25

#: ``auto`` after the relaxation: A* on one-row deals; on deals with more rows, A* for at most
#: :data:`AUTO_ASTAR_NODES` expansions (:data:`AUTO_COMPILED_ASTAR_NODES` when it runs compiled; and half
#: the time left), then SAT for the rest (measured by ``stratagem bench strato``:
#: results/strato-methods.md).
AUTO_SEARCH_MAX_ROWS = 1
AUTO_ASTAR_NODES = 2_000
#: The same when A* runs compiled (:mod:`compiled_search`, some 20k expansions a second).
AUTO_COMPILED_ASTAR_NODES = 200_000

#: ``auto``'s search pruned by relaxed distances (:func:`run_bounded`), when the bound is below the optimum:
#: this share of the time left, and at most this many expansions, before A* and SAT take over.
AUTO_BOUNDED_SHARE = 0.5
AUTO_BOUNDED_NODES = 20_000

#: ``sat`` asks one CaDiCaL instance the horizons from ``SAT_WARM_UP`` below the best bound up,
#: ``SAT_WINDOW`` horizons per formula (:func:`~stratagem.solvers.satplan.incremental_search`), then
#: refutes the plain formula of the horizon below the first satisfiable one from scratch for the
#: certificate. Measured on the level-2 example's solo-1: horizon 9 refuted in 23-37 s this way, 84-94 s
#: from scratch.
SAT_WARM_UP = 3
SAT_WINDOW = 8

#: Expansions the guided search gets with the coarse relaxation before the sharp one is computed.
COARSE_NODES = 150

@dataclass
class Solution:
    """What a method found, in the terms a report and a proof record need.

    ``status``: ``solved`` (``moves`` is a shortest line, ``optimality`` says how that is known),
    ``unsolvable``, or ``unknown`` (``moves`` is the best line found, if any, not claimed shortest).
    ``lower_bound`` is proven; ``evidence`` is the proof record's evidence (``certificate`` true only
    for what ``stratagem verify`` re-checks independently); ``refutation`` the CNF and DRUP proof
    behind a ``drup-refutation``.
    """

    method: str
    status: str
    moves: tuple[Move, ...]
    lower_bound: int
    optimality: str
    #: Effort (nodes, seconds, per-phase detail): left out of ``==``, so that two runs that found the same
    #: answer are equal whatever their timings.
    stats: dict[str, Any] = field(compare=False)
    stopped_by: str | None = None
    best_line: dict[str, Any] | None = None
    evidence: dict[str, Any] = field(default_factory=dict)
    refutation: Refutation | None = None
    #: The relaxation certificate of the best bound proven on the way, if any (it certifies any line found
    #: later that is exactly that long).
    bound_evidence: dict[str, Any] | None = None
    #: The relaxation bound behind ``bound_evidence`` (its searches feed the compiled A*'s heuristic); not
    #: part of any record.
    relaxation: RelaxationBound | None = field(default=None, repr=False, compare=False)

    @property
    def optimal(self) -> bool:
        return self.status == SOLVED

    def claim(self) -> dict[str, Any]:
        """The claim a proof record of this solution makes: nothing when the search stopped undecided without
        a line (``solvable: false`` is unsolvability, which only ``unsolvable`` shows)."""
        if not self.moves and self.status != UNSOLVABLE:
            return {}
        return {
            "solvable": bool(self.moves),
            "length": len(self.moves) if self.moves else None,
            "optimal": self.status == SOLVED,
            "information": "open",
        }


#: How a start the rules already call won is known to need 0 turns.
ALREADY_WON = "the start is already won (the rules engine's verdict on it): a line of 0 turns, none shorter"


def solve(game: StratoGame, method: str = "auto", time_limit: float | Deadline | None = None,
          max_nodes: int | None = None,
          progress: ProgressFactory = no_progress, label: str = "deal",
          deadline: Deadline | None = None, fallback: bool = True) -> Solution:
    """The shortest winning line of ``game``'s deal (open information), with how it is known.

    One deadline (``time_limit``, seconds or a deadline already running, or ``deadline``) covers every
    phase, the fallback included. When the chosen method stops undecided without a line, a greedy search
    looks for some line (unless ``fallback`` is false); with a limit, the method stops when all but
    :data:`FALLBACK_SHARE` of it has passed, so that the fallback has that share and the whole call still
    ends at the deadline.
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (one of {', '.join(METHODS)})")
    if game.initial_state().status == WON:
        # Nothing to search: the rules say the start is won. The methods each said it their own way ("no
        # winning line of at most -1 turns"; relaxed: unknown) and the report, finding no line to record,
        # said the search had stopped before deciding.
        return Solution(method, SOLVED, (), 0, ALREADY_WON, {"nodes": 0, "seconds": 0.0})
    deadline = deadline or as_deadline(time_limit)
    main = deadline.part(1.0 - FALLBACK_SHARE) if fallback else deadline
    if method == "auto":
        solution = run_auto(game, main, max_nodes, progress, label)
    elif method == "relaxed":
        solution = run_relaxed(game, main, max_nodes, progress, label)
    elif method in ("sat", "cpsat"):
        solution = run_sat(game, main, progress, label, backend=method)
    else:
        solution = run_search(method, game, main, max_nodes, progress, label)
    if fallback and solution.status == UNKNOWN and not solution.moves:
        add_fallback_line(solution, game, deadline, max_nodes, progress, label)
    certify_by_bound(solution)
    return solution


def certify_by_bound(solution: Solution) -> None:
    """An undecided answer whose line is exactly as long as a relaxation bound proven on the way is optimal,
    with that bound as its certificate."""
    evidence = solution.bound_evidence
    if solution.status != UNKNOWN or not solution.moves or evidence is None or \
            certified_length(evidence) != len(solution.moves):
        return
    solution.status = SOLVED
    solution.lower_bound = len(solution.moves)
    solution.evidence = dict(evidence)
    solution.optimality = (f"no winning line is shorter than {plural(len(solution.moves), 'turn')}: "
                           f"{_certified_by(evidence)} "
                           f"(a certificate `stratagem verify` recomputes from the rules); the line was found by "
                           f"{METHOD_NAMES[(solution.best_line or {}).get('method', solution.method)]}")
    solution.stopped_by = None
    solution.best_line = None


def _certified_by(evidence: dict[str, Any]) -> str:
    """What a relaxation certificate rests on, in words (for an answer's ``optimality``)."""
    if evidence.get("kind") == "relaxation-bound":
        return "the relaxation bound"
    up_to = plural(evidence.get("horizon"), "turn")
    return f"the relaxation bound and a pruned exhaustive search of every line up to {up_to}"


def certified_length(evidence: dict[str, Any]) -> int | None:
    """The length of line a relaxation certificate shows optimal (``None``: not such a certificate)."""
    kind = evidence.get("kind")
    if kind == "relaxation-bound":
        value = evidence.get("bound")
        return value if isinstance(value, int) else None
    value = evidence.get("horizon")
    return value + 1 if kind == "relaxation-search" and isinstance(value, int) else None


# -- the relaxation bound and its guided line ------------------------------------------------------
def run_relaxed(game: StratoGame, deadline: Deadline, max_nodes: int | None, progress: ProgressFactory,
                label: str, search_share: float = 1.0, search_nodes: int | None = None) -> Solution:
    """The relaxation bound of the start and, when it supports one, a line of exactly that length; when
    there is none, lines of growing length by the pruned search (:func:`run_bounded`).

    Where a Storm crosses rows, the coarse relaxation (the other rows' ends unknown, a much smaller
    space) is tried first with a guided search of at most :data:`COARSE_NODES` expansions; only when it
    gives no line is the sharper one (ends tracked) computed. The pruned search gets ``search_share`` of
    the time left and at most ``search_nodes`` expansions (``max_nodes`` when given).
    """
    start = game.initial_state()
    heuristic = lower_bound(game.challenge, start)
    stats: dict[str, Any] = {"nodes": 0, "seconds": 0.0, "relaxation_seconds": 0.0, "line_seconds": 0.0}
    variants = [False, True] if tracks_ends(game.challenge, game.options, start) else [True]
    best: int | None = None
    best_evidence: dict[str, Any] | None = None
    best_bound: RelaxationBound | None = None
    described = ""
    searched = False
    exhausted: int | None = None  # the guided search showed that no line of this many turns exists
    for i, track_ends in enumerate(variants):
        last = i == len(variants) - 1
        with progress(f"relaxation bound of {label}", "variant", "rows done") as show:
            show(i + 1, 0)
            began = deadline.elapsed()
            bound = relaxation_bound(game.challenge, game.options, start, deadline=deadline, track_ends=track_ends,
                                     hint=best or 0)
            stats["relaxation_seconds"] = round(stats["relaxation_seconds"] + deadline.elapsed() - began, 3)
        stats["seconds"] = round(deadline.elapsed(), 3)
        if bound.stopped:
            break
        evidence = dict(bound.to_data(), kind="relaxation-bound", certificate=True)
        if bound.bound is None:
            return Solution("relaxed", UNSOLVABLE, (), heuristic,
                            f"no winning line at all: no relaxed line reaches a goal ({bound.describe()}; a "
                            "certificate `stratagem verify` recomputes from the rules)", stats, evidence=evidence)
        if best is None or bound.bound > best:
            best, described, best_evidence, best_bound = bound.bound, bound.describe(), evidence, bound
        if not supports(bound):
            continue
        searched = True
        cap = max_nodes if last else min(max_nodes or COARSE_NODES, COARSE_NODES)
        with progress(f"line of {plural(bound.bound, 'turn')} on {label}", "turns", "nodes expanded") as show:
            show(bound.bound, 0)
            found = guided_line(game, bound, deadline=deadline, max_nodes=cap)
        stats["nodes"] += found.expanded
        stats["line_seconds"] = round(stats["line_seconds"] + found.seconds, 3)
        stats["seconds"] = round(deadline.elapsed(), 3)
        if found.moves is not None:
            return Solution("relaxed", SOLVED, found.moves, bound.bound,
                            f"no winning line is shorter than {plural(bound.bound, 'turn')}: {bound.describe()} (a "
                            f"certificate `stratagem verify` recomputes from the rules)", stats, evidence=evidence)
        if found.exhausted and last:
            exhausted = bound.bound
            stats.update(bound_below_optimum=True, relaxation_bound=bound.bound)
            break
        if deadline.expired():
            break
    if best_bound is not None and best_evidence is not None and best is not None and best >= 1 \
            and (exhausted is not None or not searched) and not deadline.expired():
        return run_bounded(game, best_bound, best_evidence, exhausted, deadline, search_share,
                           max_nodes if max_nodes is not None else search_nodes, progress, label, stats)
    proven = max(best or 0, heuristic)
    if best is None:
        return Solution("relaxed", UNKNOWN, (), heuristic, "the time limit ran out while the relaxation bound was "
                        f"being computed; no winning line is shorter than {plural(heuristic, 'turn')} (admissible "
                        "heuristic), nothing more is proven", stats, stopped_by="time")
    if not searched:
        return Solution("relaxed", UNKNOWN, (), proven, f"no winning line is shorter than {plural(best, 'turn')} "
                        f"({described}); no guided search applies to this bound", stats,
                        bound_evidence=best_evidence, relaxation=best_bound)
    return Solution("relaxed", UNKNOWN, (), proven, f"no winning line is shorter than {plural(best, 'turn')} "
                    f"({described}); "
                    "no line of that length found before the limit", stats,
                    stopped_by="time" if deadline.expired() else "nodes", bound_evidence=best_evidence,
                    relaxation=best_bound)


def run_bounded(game: StratoGame, bound: RelaxationBound, evidence: dict[str, Any], exhausted: int | None,
                deadline: Deadline, share: float, max_nodes: int | None, progress: ProgressFactory, label: str,
                stats: dict[str, Any]) -> Solution:
    """Lines of growing length, from the relaxation bound up, by the search pruned by relaxed distances
    (:func:`guided.bounded_line`): the first horizon with a line gives a shortest line, and the
    search of the horizon before it, which found none, is the certificate (``relaxation-search``:
    ``verify`` repeats that search over the rules engine). ``exhausted``: the guided search already
    showed that no line of that many turns (the bound) exists. The searches get ``share`` of the time
    left on ``deadline`` and at most ``max_nodes`` expansions in all."""
    assert bound.bound is not None
    limit = deadline.part(share)
    distances = goal_distances(game, bound)
    horizon = bound.bound if exhausted is None else exhausted + 1
    proven = horizon  # no winning line is shorter than this
    nodes_left = max_nodes
    searches: list[dict[str, Any]] = []
    stopped = False
    while horizon <= max_turns(game.initial_state()):
        with progress(f"lines of at most {plural(horizon, 'turn')} on {label}", "horizon", "nodes expanded") as show:
            show(horizon, 0)
            found = bounded_line(game, distances, horizon, deadline=limit, max_nodes=nodes_left)
        searches.append({"horizon": horizon, "nodes": found.expanded, "seconds": round(found.seconds, 3)})
        stats["nodes"] += found.expanded
        stats["line_seconds"] = round(stats["line_seconds"] + found.seconds, 3)
        stats["seconds"] = round(deadline.elapsed(), 3)
        stats["bounded_searches"] = searches
        if nodes_left is not None:
            nodes_left -= found.expanded
        if found.moves is not None:
            n = len(found.moves)
            if n <= bound.bound:  # as long as the bound: the bound is the certificate
                return Solution("relaxed", SOLVED, found.moves, n,
                                f"no winning line is shorter than {plural(n, 'turn')}: {bound.describe()} (a "
                                "certificate `stratagem verify` recomputes from the rules)", stats, evidence=evidence)
            certificate = dict(evidence, kind="relaxation-search", horizon=n - 1, certificate=True)
            return Solution("relaxed", SOLVED, found.moves, n,
                            f"no winning line is shorter than {plural(n, 'turn')}: {bound.describe()}, and a search "
                            f"of every line of up to {plural(n - 1, 'turn')} pruned by it found none (exhaustive "
                            "search over the rules "
                            "engine; a certificate `stratagem verify` repeats)", stats, evidence=certificate,
                            bound_evidence=certificate, relaxation=bound)
        if not found.exhausted:
            stopped = True
            break
        proven = horizon + 1
        horizon += 1
    searched_to = dict(evidence, kind="relaxation-search", horizon=proven - 1, certificate=True) \
        if proven > bound.bound else evidence
    what = (f"no winning line is shorter than {plural(proven, 'turn')} ({bound.describe()}"
            + (f"; a search of every line up to {plural(proven - 1, 'turn')} pruned by it found none (exhaustive "
               "search)"
               if proven > bound.bound else "") + ")")
    if not stopped:  # every horizon up to the longest game searched: no line wins
        # the fields of exhaustive-search evidence (docs/formats.md 4.3), so that verify names the search
        searched = dict(searched_to, kind="exhaustive-search", certificate=False, method="relaxed",
                        lower_bound=proven, nodes=stats["nodes"])
        return Solution("relaxed", UNSOLVABLE, (), proven, f"{what}, and no game lasts longer (exhaustive search)",
                        stats, evidence=searched)
    return Solution("relaxed", UNKNOWN, (), proven, f"{what}; no line of {plural(horizon, 'turn')} found before the "
                    "limit",
                    stats, stopped_by="time" if limit.expired() else "nodes", bound_evidence=searched_to,
                    relaxation=bound)


# -- exhaustive searches --------------------------------------------------------------------------
def search_optimality(method: str, result: SearchResult[Any, Any]) -> str:
    """How a search result's claim was established, in words that do not overclaim."""
    name = METHOD_NAMES[method]
    if result.status == SOLVED:
        k = len(result.moves or ())
        return (
            f"{name} ruled out every line shorter than {plural(k, 'turn')} "
            f"(exhaustive search, no independent certificate; verify re-checks it with recheck=True, "
            "`stratagem verify --recheck`)"
        )
    if result.status == UNSOLVABLE:
        total = sum(result.stats.states_per_depth)
        counted = f"all {plural(total, 'reachable state')}" if total else "every reachable state"
        return f"{name} searched {counted} and none is a win (exhaustive search, no independent certificate)"
    return (
        f"{name} stopped by its {LIMIT_NAMES.get(str(result.stopped_by), 'limit')}; no winning line is shorter "
        f"than {plural(result.lower_bound, 'turn')}, nothing more is proven"
    )


def run_search(method: str, game: StratoGame, deadline: Deadline, max_nodes: int | None,
               progress: ProgressFactory, label: str, relaxation: RelaxationBound | None = None) -> Solution:
    """An exhaustive search. A* runs compiled (:mod:`compiled_search`: the same search with some twenty
    times as many expansions per CPU second, and ``relaxation``'s searches in its heuristic when given)
    when the deal fits the packing (:func:`packed.fits`), and over the Python engine otherwise;
    ``stats["engine"]`` says which."""
    problem = StratoPlanning(game)
    compiled = method == "astar" and fits(game) is None
    with progress(f"{method} on {label}", "bound", "nodes expanded") as show:
        if compiled:
            result = compiled_astar(game, time_limit=deadline.remaining(), max_nodes=max_nodes, progress=show,
                                    relaxation=relaxation)
        else:
            result = SEARCHES[method](problem, time_limit=deadline.remaining(), max_nodes=max_nodes, progress=show)
    solution = Solution(
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
            "engine": "compiled" if compiled else "python",
        },
        stopped_by=result.stopped_by,
    )
    if result.status in (SOLVED, UNSOLVABLE):
        solution.evidence = {
            "kind": "exhaustive-search",
            "certificate": False,
            "method": method,
            "lower_bound": result.lower_bound,
            "states_per_depth": list(result.stats.states_per_depth),
            "nodes": result.stats.expanded,
        }
    return solution


# -- SAT and CP-SAT --------------------------------------------------------------------------------
class SatProgressDisplay:
    """The SAT driver's reports (:class:`~stratagem.solvers.satplan.SolverProgress`) shown through the
    progress convention (a label and two figures): one status line per horizon, "sat on solo-1, horizon
    9: conflicts 40000, 3 solver calls", and for the certificate's refutation "sat on solo-1, refuting
    horizon 9 for the certificate: conflicts 20000, 1,425,227 proof lines written". Every figure is
    CaDiCaL's own count or the proof's lines on disk; when this PySAT does not let the proof's lines be
    counted, the certificate's line shows the solver calls instead of a guess."""

    def __init__(self, progress: ProgressFactory, title: str) -> None:
        self.progress = progress
        self.title = title
        self.stack = ExitStack()
        self.phase: tuple[int, bool] | None = None
        self.show: Callable[[int, int], None] = lambda a, b: None

    def __enter__(self) -> SatProgressDisplay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stack.close()

    def __call__(self, report: SolverProgress) -> None:
        proof = report.proof_lines is not None
        if (report.horizon, proof) != self.phase:
            self.stack.close()
            self.phase = (report.horizon, proof)
            if proof:
                shown = self.progress(f"{self.title}, refuting horizon {report.horizon} for the certificate",
                                      "conflicts", "proof lines written")
            else:
                shown = self.progress(f"{self.title}, horizon {report.horizon}", "conflicts", "solver calls")
            self.show = self.stack.enter_context(shown)
        self.show(report.conflicts or 0, report.proof_lines if report.proof_lines is not None else report.calls)


def run_sat(game: StratoGame, deadline: Deadline, progress: ProgressFactory, label: str, backend: str = "sat",
            known_bound: int = 0) -> Solution:
    """Horizons from the best known bound up, with CaDiCaL (checked refutations) or CP-SAT (no certificate).

    SAT's search runs incrementally (:data:`SAT_WARM_UP`); its claims rest only on the plain formula's
    refutation, checked here by the project's DRUP checker. A line found by SAT whose certificate ran out
    of time is kept as the best line, not claimed shortest. ``known_bound`` is a lower bound proven
    before (the relaxation's): horizons below it are not asked.
    """
    start = game.initial_state()
    bound = max(lower_bound(game.challenge, start), known_bound)
    first = max(0, bound - 1)
    last = max_turns(start)
    if backend == "cpsat" and deadline.expired():
        # not even OR-Tools' import (0.6 s, more under load) fits: a sub-second limit spent by the command's
        # start ran over by that much
        result: SatPlanResult[Move] = SatPlanResult("unknown", None, first, None, (), 0.0, "time")
    elif backend == "cpsat":
        # imported here: OR-Tools (with pandas) takes a second or more to load, which every other
        # method would pay out of its time limit
        from stratagem.models.strato.encodings.cpsat import StratoCPSAT

        result = _cpsat_horizons(game, StratoCPSAT, first, last, deadline, progress, label)
    else:
        with SatProgressDisplay(progress, f"{backend} on {label}") as display:
            result = incremental_search(functools.partial(open_formula, game),
                                        first=max(0, first - SAT_WARM_UP), last=last, step=SAT_WINDOW,
                                        time_limit=deadline.remaining(), prove=lambda k: StratoCNF(game, k),
                                        progress=display)
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
        verdict = check_own_refutation(refutation, progress, deadline.remaining())
        if verdict.stopped:
            return _unchecked(result, refutation, verdict, bound, stats)
        stats["proof_check_seconds"] = round(verdict.seconds, 3)
        checked = (f"CaDiCaL's DRUP refutation of horizon {refutation.horizon} ({refutation.num_vars} variables, "
                   f"{len(refutation.clauses)} clauses, {refutation.proof_lines} proof lines) "
                   f"checked by stratagem's DRUP checker")
    if result.status == SOLVED:
        k = len(result.moves or ())
        optimality = f"no winning line of at most {plural(k - 1, 'turn')}: {checked}"
    elif result.status == UNSOLVABLE:
        optimality = f"no winning line at all (the game lasts at most {plural(last, 'turn')}): {checked}"
    elif result.moves and result.lower_bound < len(result.moves):
        optimality = (f"{BACKEND_NAMES[backend]} found a line of {plural(len(result.moves), 'turn')}; not proven "
                      "shortest")
    elif result.moves:
        # The solver's own answers make the line shortest (the lower bound is its length), but the method
        # claims optimality only with the refutation stratagem's DRUP checker has checked.
        optimality = (f"{BACKEND_NAMES[backend]} found a line of {plural(len(result.moves), 'turn')} and refuted the "
                      "shorter "
                      f"horizons under assumptions, so it is shortest by the solver's word; its time limit ran "
                      f"out before the certificate (the plain refutation of {plural(len(result.moves) - 1, 'turn')}, "
                      "checked by stratagem's DRUP checker), so it is not claimed optimal")
    else:
        refuted = (f"horizons up to {result.lower_bound - 1} refuted" if result.lower_bound > bound
                   else f"no horizon refuted beyond the bound of {plural(bound, 'turn')}")
        optimality = f"{BACKEND_NAMES[backend]} stopped by its time limit; {refuted}, nothing more is proven"
    solution = Solution(
        method=backend,
        status=result.status if result.status != "unknown" else UNKNOWN,
        moves=tuple(result.moves or ()),
        lower_bound=max(result.lower_bound, bound),
        optimality=optimality,
        stats=stats,
        stopped_by=result.stopped_by,
        refutation=refutation if result.status in (SOLVED, UNSOLVABLE) else None,
    )
    if solution.refutation is not None and backend == "cpsat":
        solution.evidence = {
            "kind": "cpsat-infeasible",
            "certificate": False,
            "encoding": ENCODING,
            "horizon": solution.refutation.horizon,
            "variables": solution.refutation.num_vars,
        }
        solution.refutation = None
    elif solution.refutation is not None:
        solution.evidence = {
            "kind": "drup-refutation",
            "certificate": True,
            "encoding": ENCODING,
            "horizon": solution.refutation.horizon,
            "variables": solution.refutation.num_vars,
            "clauses": len(solution.refutation.clauses),
            "proof_lines": solution.refutation.proof_lines,
            "solver": "cadical195",
        }
    elif solution.moves:
        solution.best_line = {"method": backend, "status": "found", "nodes": None}
        solution.evidence = {"kind": "witness", "certificate": False, "method": backend,
                             "lower_bound": solution.lower_bound}
    return solution


def _cpsat_horizons(game: StratoGame, model: type[StratoCNF], first: int, last: int, deadline: Deadline,
                    progress: ProgressFactory, label: str) -> SatPlanResult[Move]:
    """CP-SAT over the horizons ``first .. last``, every build stopped at the deadline.

    Building one horizon's CP-SAT model takes seconds on challenge 1 (2.4 s for 8 turns at load 4), and
    the horizon search cannot interrupt a build: without a stop test the first build ran to its end
    after the time was up, and ``--time-limit 4`` took 6 s. A build the deadline stops answers
    ``unknown``, with the horizons refuted before it (CP-SAT's word, no certificate) as the bound.
    """
    started: list[int] = []

    def build(k: int) -> StratoCNF:
        started.append(k)
        return model(game, k, stop=deadline.expired)

    began = deadline.elapsed()
    with progress(f"cpsat on {label}", "horizon", "solver calls") as show:
        try:
            return horizon_search(build, first=first, last=last, time_limit=deadline.remaining(),
                                  backend="cpsat", progress=lambda report: show(report.horizon, report.calls))
        except EncodingStopped:
            # the horizon search builds k only after refuting k - 1 (or for k = first): below k, no win
            return SatPlanResult("unknown", None, started[-1], None, (), deadline.elapsed() - began, "time")


def _unchecked(result: SatPlanResult[Move], refutation: Refutation, verdict: DrupVerdict, bound: int,
               stats: dict[str, Any]) -> Solution:
    """SAT's answer when the time limit ran out while the project's checker was checking its proof: the
    line is the best found, nothing is claimed shortest."""
    stats["proof_check_seconds"] = round(verdict.seconds, 3)
    what = f"found a line of {plural(len(result.moves), 'turn')} and " if result.moves else ""
    optimality = (f"SAT {what}refuted horizon {refutation.horizon} with a DRUP proof of {refutation.proof_lines} "
                  f"lines, but the time limit ran out while stratagem's checker was checking it "
                  f"({verdict.reason}); not proven, the lower bound is the heuristic's")
    solution = Solution(method="sat", status=UNKNOWN, moves=tuple(result.moves or ()), lower_bound=bound,
                        optimality=optimality, stats=stats, stopped_by="time")
    if solution.moves:
        solution.best_line = {"method": "sat", "status": "found", "nodes": None}
        solution.evidence = {"kind": "witness", "certificate": False, "method": "sat",
                             "lower_bound": solution.lower_bound}
    return solution


# -- auto -------------------------------------------------------------------------------------------
def run_auto(game: StratoGame, deadline: Deadline, max_nodes: int | None, progress: ProgressFactory,
             label: str) -> Solution:
    """The relaxation bound and its guided line; if the bound is below the optimum (or unsupported), A*
    on one-row deals, and on the others a short A* then SAT from the bound up."""
    first = run_relaxed(game, deadline, max_nodes, progress, label, search_share=AUTO_BOUNDED_SHARE,
                        search_nodes=AUTO_BOUNDED_NODES)
    if first.status in (SOLVED, UNSOLVABLE) or deadline.expired():
        return first
    start = game.initial_state()
    if len(start.rows) <= AUTO_SEARCH_MAX_ROWS or max_nodes is not None:
        second = run_search("astar", game, deadline, max_nodes, progress, label, first.relaxation)
    else:
        left = deadline.remaining()
        nodes = AUTO_COMPILED_ASTAR_NODES if fits(game) is None else AUTO_ASTAR_NODES
        second = run_search("astar", game, Deadline(None if left is None else left / 2), nodes,
                            progress, label, first.relaxation)
        if second.status not in (SOLVED, UNSOLVABLE) and not deadline.expired():
            astar_first = {"status": second.status, "nodes": second.stats["nodes"],
                           "seconds": second.stats["seconds"], "lower_bound": second.lower_bound}
            second = run_sat(game, deadline, progress, label, known_bound=first.lower_bound)
            second.stats["astar_first"] = astar_first
    second.stats["relaxed_first"] = {"status": first.status, "lower_bound": first.lower_bound,
                                     "seconds": first.stats["seconds"], "nodes": first.stats.get("nodes")}
    second.lower_bound = max(second.lower_bound, first.lower_bound)
    second.bound_evidence = first.bound_evidence
    if second.status == SOLVED and second.moves and not (second.evidence or {}).get("certificate"):
        certify_line(game, second, first, deadline, progress, label)
    if second.status == UNKNOWN and first.lower_bound > 0:
        second.optimality += f"; {first.optimality}"
    return second


def certify_line(game: StratoGame, solution: Solution, relaxed: Solution, deadline: Deadline,
                 progress: ProgressFactory, label: str) -> None:
    """Give a line an exhaustive search showed optimal a certificate ``verify`` re-checks from the rules.

    When the relaxation phase before the search (``relaxed``) already proved the line's length, its
    evidence is the certificate. Otherwise the search pruned by relaxed distances runs once more, on
    every line one turn shorter than the one found, with the time left: exhausted without a line, it
    is a ``relaxation-search`` certificate; stopped by the limit, the line keeps the search's own
    (uncertified) evidence. A line shorter than an exhaustive search's optimum would be a bug in one of
    the two searches, and is raised as one.
    """
    n = len(solution.moves)
    evidence = relaxed.bound_evidence
    if evidence is not None and certified_length(evidence) == n:
        solution.evidence = dict(evidence)
    else:
        bound = relaxed.relaxation
        if evidence is None or bound is None or bound.bound is None or deadline.expired():
            return
        with progress(f"certifying the {n}-turn line of {label}", "horizon", "nodes expanded") as show:
            show(n - 1, 0)
            found = bounded_line(game, goal_distances(game, bound), n - 1, deadline=deadline)
        solution.stats["certify_search"] = {"horizon": n - 1, "nodes": found.expanded,
                                            "seconds": round(found.seconds, 3), "exhausted": found.exhausted}
        if found.moves is not None:
            raise AssertionError(f"{label}: the relaxation-pruned search found a {len(found.moves)}-turn line "
                                 f"where {solution.method} proved {plural(n, 'turn')} optimal")
        if not found.exhausted:
            return
        solution.evidence = dict(evidence, kind="relaxation-search", horizon=n - 1, certificate=True)
    solution.optimality = (f"no winning line is shorter than {plural(n, 'turn')}: {_certified_by(solution.evidence)} "
                           "(a certificate `stratagem verify` recomputes from the rules); the line was found by "
                           f"{METHOD_NAMES[solution.method]}, "
                           "whose exhaustive search agrees")


def add_fallback_line(solution: Solution, game: StratoGame, deadline: Deadline, max_nodes: int | None,
                      progress: ProgressFactory, label: str) -> None:
    """Anytime fallback: some winning line, clearly not claimed shortest, next to the proven bound.

    It runs in what is left of ``deadline`` (:func:`solve` keeps :data:`FALLBACK_SHARE` of a limit for
    it) and never past it; without a limit it runs until it finds one."""
    with progress(f"greedy line on {label}", "bound", "nodes expanded") as show:
        best = greedy(StratoPlanning(game), time_limit=deadline.remaining(), max_nodes=max_nodes, progress=show)
    solution.best_line = {"method": "greedy", "status": best.status, "nodes": best.stats.expanded}
    if best.status == FOUND:
        solution.moves = tuple(best.moves or ())
        solution.evidence = {"kind": "witness", "certificate": False, "method": "greedy",
                             "lower_bound": solution.lower_bound}
    elif best.status == UNSOLVABLE:  # the greedy search ran through the whole space
        solution.status = UNSOLVABLE
        solution.optimality = "greedy best-first search exhausted every reachable state: none is a win " \
                              "(exhaustive search, no independent certificate)"
        solution.evidence = {"kind": "exhaustive-search", "certificate": False, "method": "greedy",
                             "nodes": best.stats.expanded}


# -- proof records ----------------------------------------------------------------------------------
def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def refutation_files(path: str | Path) -> tuple[Path, Path]:
    """The CNF and the DRUP proof written beside the proof record ``path`` when its evidence is a refutation:
    ``NAME.cnf.gz`` and ``NAME.drup.gz`` for ``NAME.json`` (the names the record's ``cnf`` and ``proof``
    give). The commands check these paths before any work, with the record's own."""
    record = Path(path)
    stem = record.name.removesuffix(".json")
    return record.parent / f"{stem}.cnf.gz", record.parent / f"{stem}.drup.gz"


def check_own_refutation(refutation: Refutation, progress: Any, time_limit: float | None,
                         what: str = "horizon") -> DrupVerdict:
    """CaDiCaL's DRUP refutation checked by stratagem's checker before a search reports it (``solve --method
    sat``, ``reach --designer --proof``), with progress; the checker's verdict, whose ``stopped`` says the
    time ran out. A proof the checker rejects is a bug (:class:`RuntimeError`)."""
    with progress(f"checking the refutation of {what} {refutation.horizon}", "step", "steps in the proof") as checking:
        verdict, _ = check_drup_data(refutation.clauses, refutation.proof.data, "CaDiCaL's proof",
                                     time_limit=time_limit,
                                     progress=lambda phase, done, total: checking(done, total))
    if not verdict.stopped and not verdict.valid:
        raise RuntimeError(f"the DRUP checker rejects CaDiCaL's refutation of {what} {refutation.horizon}: "
                           f"{verdict.reason}")
    return verdict


def refutation_beside(path: str | Path, ref: Refutation) -> tuple[list[tuple[str | Path, str | bytes]], dict[str, str]]:
    """A refutation's CNF and DRUP proof as the files written beside the record ``path``
    (:func:`refutation_files`, gzip without a timestamp), for :func:`~stratagem.core.outputs.write_atomic_files`
    with the record; and the record's fields that name them, with the SHA-256 of each file's text (``cnf``,
    ``cnf_sha256``, ``proof``, ``proof_sha256``). A proof record's evidence holds these, and so does a reach
    report's ``par_sat`` (``reach --designer --proof``). The proof is compressed and hashed from the bytes the
    refutation holds (:class:`~stratagem.solvers.drattext.DrupText`), not from a copy."""
    cnf_path, proof_path = refutation_files(path)
    cnf_text = write_dimacs(ref.clauses, ref.num_vars, ref.comments)
    beside: list[tuple[str | Path, str | bytes]] = [(cnf_path, text_maybe_gz(cnf_path, cnf_text)),
                                                     (proof_path, data_maybe_gz(proof_path, ref.proof.data))]
    return beside, {"cnf": cnf_path.name, "cnf_sha256": _sha256(cnf_text), "proof": proof_path.name,
                    "proof_sha256": hashlib.sha256(ref.proof.data).hexdigest()}


def write_proof(path: str, solution: Solution, line: Line, provenance: dict[str, Any] | None = None) -> None:
    """The proof record and, for a refutation, its CNF and DRUP proof beside it (gzip, :func:`refutation_files`);
    ``provenance`` (:mod:`stratagem.core.provenance`), when given, is stored beside the claim as a description
    only."""
    evidence = dict(solution.evidence)
    beside: list[tuple[str | Path, str | bytes]] = []
    if solution.refutation is not None:
        beside, named = refutation_beside(path, solution.refutation)
        evidence.update(named)
    record = Proof(game="strato", claim=solution.claim(), line=line, evidence=evidence).to_json()
    if provenance is not None:
        record["provenance"] = provenance
    # One set: a record beside another run's CNF (a full disk at the DRUP file) fails verify.
    write_atomic_files([*beside, (path, dumps_record(record))])


__all__ = ["INFORMATION", "METHODS", "METHOD_NAMES", "RELAXATION", "Solution", "refutation_beside", "refutation_files",
           "solve", "write_proof"]
