"""What a reachable state graph of a Strato deal, or of its layout in designer mode, proves: the answer in
words (:func:`conclusion`), and where a designer graph was cut before a win, the par's searches
(:func:`search_par`: A*, then SAT where A* stops without a par) and what they proved, as the report's fields
(:func:`par_search_fields`, ``stratagem/reach@3``) and as lines of text (:func:`par_search_lines`); and the
designer par's certificate (:func:`certify_par`, :func:`certificate_fields`), whichever search found the par.

A win reached (by the graph, or by a par search's line) makes the deal solvable, or in designer mode bounds
every deal on the layout from below by the par; a complete graph without one (or an A* that expanded every
layout) proves it, or every deal on the layout, unsolvable; anything else proves nothing about a win, though
a stopped A* still proves a lower bound on the par. A par found by SAT rests on CaDiCaL's refutation of the
horizon below (:mod:`~stratagem.models.strato.designer_sat`): its line is replayed; its refutation is the
solver's word, not a certificate.

A par is certified only with ``reach --designer --proof``, whichever search found it: the plain designer
formula of the horizon below the par (``strato-designer-sat@4``) refuted from scratch by CaDiCaL with DRUP
output and the proof checked here by stratagem's checker (as ``solve --method sat`` does), the same
certificate for a par the breadth-first graph, A* or SAT found (SAT makes it in its own search, the others
after theirs: :func:`certify_par`); the words say "certified" only then, and the report written with it is
what ``stratagem verify`` checks again. The graph's and A*'s searches prove their par too, but ``verify``
cannot check a search it does not repeat; it checks a refutation against the formula it rebuilds. Par 0 (a
layout that already meets the goal) has no certificate: no line is shorter than none, so there is no horizon
to refute, and its replay (no move, a winning table) is the whole proof. A layout whose complete graph holds
no win cannot have such a certificate: refuting "a designer line within k turns" for one k says nothing about
longer lines, and designer mode has no longest game. Its certificate is the graph's layouts themselves
(:func:`no_win_layouts`): a set that holds the start, is closed under designer mode's moves and holds no win,
which ``verify`` checks locally (:mod:`stratagem.verification.closure`). ``stratagem reach`` renders these.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput
from stratagem.core.progress import ProgressFactory
from stratagem.core.words import plural
from stratagem.models.strato.designer import StratoDesigner, designer_par
from stratagem.models.strato.designer_rules import designer_game
from stratagem.models.strato.designer_sat import DESIGNER_ENCODING, SOLVER, designer_par_sat, plain_designer_formula
from stratagem.models.strato.rules.notation import Move, format_move
from stratagem.solvers.graph import GraphFacts
from stratagem.solvers.satplan import HorizonRun, Refutation, SatPlanResult, horizon_search
from stratagem.solvers.search import SearchResult

__all__ = ["ASTAR_SHARE", "ParCertificate", "ParSearch", "certificate_fields", "certify_par", "conclusion",
           "par_and_certificate", "par_search_fields", "par_search_lines", "report_outputs", "report_written",
           "layouts_file", "no_win_layouts", "search_par", "write_report"]

#: A*'s part of the time the graph left the par's searches; the rest is SAT's, where A* stops without a par.
#: A* that finds a par finds it fast (challenge 1's first layout: 0.13 CPU s); where it does not, the layers it
#: holds grow 4-10 times a turn and more time rarely raises its bound, while SAT decides the level-2 example's
#: layouts in 30-47 CPU s.
ASTAR_SHARE = 0.5


@dataclass(frozen=True)
class ParSearch:
    """The designer par's searches where the graph was cut before a win: ``astar``, and ``sat`` where A*
    stopped without a par (``None`` where A* answered). ``proof``: where SAT was asked to prove its par,
    ``"checked"`` (``sat.refutation`` is the DRUP refutation of the horizon below, checked by stratagem's
    checker) or ``"time"`` (the time ran out before the proof or its check: the par is the solver's word);
    ``None`` where no proof was asked."""

    astar: SearchResult[Any, Move]
    sat: SatPlanResult[Move] | None = None
    proof: str | None = None

    @property
    def certificate(self) -> Refutation | None:
        """SAT's checked DRUP refutation of the horizon below its par, if it has one."""
        if self.sat is not None and self.sat.status == "solved" and self.proof == "checked":
            return self.sat.refutation
        return None

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
               progress: ProgressFactory, prove: bool = False) -> ParSearch:
    """The designer par of a layout whose graph was cut before a win: A*
    (:func:`~stratagem.models.strato.designer.designer_par`) under ``max_states`` layouts held and
    :data:`ASTAR_SHARE` of ``deadline``'s time; where it stops without a par, SAT
    (:func:`~stratagem.models.strato.designer_sat.designer_par_sat`) from the horizon below A*'s bound, in the
    rest of the time (without a limit, until it decides or has asked its horizons). With ``prove``, a par SAT
    finds is certified in that time too: the horizon below refuted again with DRUP output, and the proof
    checked by stratagem's checker (:attr:`ParSearch.proof`); a checker that rejects it is a bug
    (:class:`RuntimeError`), as in ``solve``."""
    part = deadline.part(ASTAR_SHARE)
    with progress(f"designer par of {name} by A*", "bound", "layouts expanded") as show:
        found = designer_par(layout, time_limit=_seconds(part), max_states=max_states, progress=show)
    if found.status != "unknown":
        return ParSearch(found)
    with progress(f"designer par of {name} by SAT", "horizon", "conflicts") as show:
        sat = designer_par_sat(layout, first=max(0, found.lower_bound - 1), time_limit=_seconds(deadline),
                               progress=lambda report: show(report.horizon, report.conflicts or 0), prove=prove)
    if sat.moves is not None and len(sat.moves) < found.lower_bound:  # a replayed line: A*'s bound was wrong
        raise RuntimeError(f"SAT found a designer line of {len(sat.moves)} turns, under A*'s bound "
                           f"{found.lower_bound}")
    if not prove:
        return ParSearch(found, sat)
    if sat.status == "unknown" and sat.moves is not None and sat.lower_bound == len(sat.moves) > 0:
        # the horizons below refuted under assumptions, then the time ran out in the proof: the par as without
        # prove, the solver's word
        return ParSearch(found, replace(sat, status="solved", refutation=None), "time")
    if sat.status != "solved" or sat.refutation is None:
        return ParSearch(found, sat)
    from stratagem.models.strato.solve import check_own_refutation

    if check_own_refutation(sat.refutation, progress, _seconds(deadline), "designer horizon").stopped:
        return ParSearch(found, replace(sat, refutation=None), "time")
    return ParSearch(found, sat, "checked")


@dataclass(frozen=True)
class ParCertificate:
    """The designer par's certificate, asked by ``reach --designer --proof``: designer mode's plain formula of
    ``horizon`` (the par minus one) refuted by CaDiCaL with DRUP output, the proof checked by stratagem's
    checker (``refutation``); or, where the time ran out before the proof or its check, no ``refutation`` and
    ``stopped_by`` ``"time"`` (the par then rests on the search that found it, not certified)."""

    horizon: int
    refutation: Refutation | None = None
    stopped_by: str | None = None


def certify_par(layout: StratoDesigner, par: int, name: str, deadline: Deadline, progress: ProgressFactory,
                par_search: ParSearch | None = None) -> ParCertificate | None:
    """The certificate of designer par ``par`` of ``layout`` (``reach --designer --proof``), within
    ``deadline``: where SAT found the par with ``prove`` (``par_search``), the refutation its search made and
    checked; where the breadth-first graph or A* found it, the plain formula of horizon ``par - 1``
    (:func:`~stratagem.models.strato.designer_sat.plain_designer_formula`) refuted from scratch by CaDiCaL
    with DRUP output (:func:`~stratagem.solvers.satplan.horizon_search` of that one horizon) and checked by
    stratagem's checker, the same certificate. ``None`` for par 0: no horizon is below it.

    A horizon below a par the graph or A* proved that CaDiCaL satisfies, or a proof the checker rejects, is
    a bug (:class:`RuntimeError`), as in ``solve``."""
    if par <= 0:
        return None
    if par_search is not None and par_search.sat is not None and par_search.astar.moves is None \
            and par_search.moves is not None and par_search.proof is not None:
        return ParCertificate(par - 1, par_search.certificate, "time" if par_search.certificate is None else None)
    from stratagem.models.strato.solve import check_own_refutation

    game = designer_game(layout)
    with progress(f"certificate of {name}'s designer par {par}", "horizon", "conflicts") as show:
        refuted = horizon_search(partial(plain_designer_formula, game), first=par - 1, last=par - 1,
                                 time_limit=_seconds(deadline),
                                 progress=lambda report: show(report.horizon, report.conflicts or 0))
    if refuted.moves is not None:
        raise RuntimeError(f"CaDiCaL found a designer line of {len(refuted.moves)} turns, under the par {par} "
                           "the search proved")
    if refuted.status != "unsolvable" or refuted.refutation is None:
        return ParCertificate(par - 1, None, "time")
    if check_own_refutation(refuted.refutation, progress, _seconds(deadline), "designer horizon").stopped:
        return ParCertificate(par - 1, None, "time")
    return ParCertificate(par - 1, refuted.refutation)


def par_and_certificate(layout: StratoDesigner | None, facts: GraphFacts, line: list[str] | None, name: str,
                        deadline: Deadline, max_states: int, progress: ProgressFactory, prove: bool = False,
                        ) -> tuple[ParSearch | None, list[str] | None, ParCertificate | None]:
    """What ``reach --designer`` adds to the designer graph of ``layout`` (``facts``, its shortest winning
    ``line`` or ``None``), within ``deadline``: where the graph was cut before a win, the par's searches
    (:func:`search_par`) and the line they found; and with ``prove`` (``--proof``), the certificate of the par,
    whichever found it (:func:`certify_par`). Returns the searches (``None`` where the graph decided), the par
    line, and the certificate (``None`` where none was asked, or there is no par, or par 0). Nothing is added
    to a deal's graph (``layout`` ``None``)."""
    if layout is None:
        return None, line, None
    par_search = None
    if not facts.complete and not facts.goal_reachable:
        par_search = search_par(layout, name, deadline, max_states, progress, prove=prove)
        if par_search.moves is not None:
            line = [format_move(move) for move in par_search.moves]
    if not prove or line is None:
        return par_search, line, None
    return par_search, line, certify_par(layout, len(line), name, deadline, progress, par_search)


def _seconds(deadline: Deadline) -> float | None:
    """The time left, never zero (a limit of zero seconds means none to the searches)."""
    left = deadline.remaining()
    return None if left is None else max(left, 1e-9)


def conclusion(facts: GraphFacts, designer: bool, par_search: ParSearch | None = None,
               certificate: ParCertificate | None = None) -> tuple[bool | None, str]:
    """Whether the deal (or, in designer mode, every deal on the layout) is unsolvable, and why, in words;
    ``par_search``: the designer par's searches where the graph was cut before a win; ``certificate``: the
    designer par's, where ``--proof`` asked one."""
    if par_search is not None:
        return _searched_conclusion(facts, par_search, certificate)
    if facts.goal_reachable:
        if designer:
            return False, (
                f"a winning table is reachable; designer par {facts.par}{_certified_par(certificate)} is a lower "
                "bound on the optimal "
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


def _certified_par(certificate: ParCertificate | None) -> str:
    """What a par the graph or A* found adds, in words, where ``--proof`` asked its certificate."""
    return "" if certificate is None else f" ({_refuted_how(certificate, None)})"


def _searched_conclusion(facts: GraphFacts, par_search: ParSearch, certificate: ParCertificate | None,
                         ) -> tuple[bool | None, str]:
    """The designer answer of a graph cut before a win, from the par's searches."""
    astar, sat = par_search.astar, par_search.sat
    held = plural(_held(astar), "layout", grouped=True)
    cut = f"the graph was cut at {plural(facts.states, 'state', grouped=True)} before one"
    if astar.moves is not None:
        return False, (
            f"a winning table is reachable: {cut}, and A* (the game's admissible bound; {held} held) found a "
            f"line; designer par {len(astar.moves)}{_certified_par(certificate)} {LOWER_BOUND_NOTE}"
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
        how = _refuted_how(certificate, par_search)
        return False, (
            f"a winning table is reachable: {cut}, {stopped}, and the SAT solver found a designer line of "
            f"{plural(k, 'turn')} and refuted every line of {k - 1} ({how}); designer par {k} {LOWER_BOUND_NOTE}"
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
            "encoding": DESIGNER_ENCODING,
            "status": sat.status,
            "lower_bound": par_search.lower_bound if sat.status == "solved" else sat.lower_bound,
            "horizons": [{"horizon": run.horizon, "satisfiable": run.satisfiable} for run in _asked(sat)],
            "stopped_by": sat.stopped_by,
        },
    }


def _asked(sat: SatPlanResult[Move]) -> tuple[HorizonRun, ...]:
    """The horizons the SAT search asked, up to the first satisfiable one: without the certificate's run after
    it (the horizon below asked again from scratch), which is no horizon of the search."""
    found = next((n for n, run in enumerate(sat.runs) if run.satisfiable), None)
    return sat.runs if found is None else sat.runs[:found + 1]


def certificate_fields(certificate: ParCertificate | None) -> dict[str, Any]:
    """The report's ``par_certificate``: ``null`` where none was asked (no ``--proof``) or the par has none (no
    par, or par 0); else the encoding, the solver and the horizon refuted (the par minus one), with the
    formula's and the proof's sizes where the proof was checked, or ``cnf``/``proof`` ``null`` and
    ``stopped_by`` ``"time"`` where the time ran out before it. The files' names and digests are added by
    whoever writes them (:func:`write_report`)."""
    if certificate is None:
        return {"par_certificate": None}
    fields: dict[str, Any] = {"encoding": DESIGNER_ENCODING, "solver": SOLVER, "horizon": certificate.horizon}
    ref = certificate.refutation
    if ref is not None:
        fields.update(variables=ref.num_vars, clauses=len(ref.clauses), proof_lines=ref.proof_lines)
    else:
        fields.update(cnf=None, proof=None, stopped_by=certificate.stopped_by)
    return {"par_certificate": fields}


def _refuted_how(certificate: ParCertificate | None, par_search: ParSearch | None) -> str:
    """How the horizon below the par was refuted, in words: certified, or (SAT's par, ``par_search``) the
    solver's word and why."""
    ref = None if certificate is None else certificate.refutation
    if certificate is not None and ref is not None:
        return (f"certified: CaDiCaL's DRUP refutation of horizon {ref.horizon} "
                f"({plural(ref.proof_lines, 'proof line', grouped=True)}) checked by stratagem's DRUP checker")
    word = "CaDiCaL's word, " if par_search is not None else ""
    if certificate is not None:
        return (f"{word}not certified: the time ran out before CaDiCaL's DRUP refutation of horizon "
                f"{certificate.horizon} was written and checked")
    return f"{word}not certified"




def par_search_lines(par_search: ParSearch, certificate: ParCertificate | None = None) -> list[str]:
    """The text report's lines of the designer par's searches: A*'s, then SAT's where it ran; ``certificate``:
    the par's, where ``--proof`` asked one."""
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
    runs = _asked(sat)
    asked = f"horizons {runs[0].horizon}-{runs[-1].horizon}" if runs else "no horizon"
    if par_search.moves is not None:
        k = len(par_search.moves)
        how = "the solver's word, not certified" if certificate is None or certificate.refutation is None else \
            "a DRUP proof checked by stratagem's checker, certified"
        lines.append(f"designer par by SAT ({SOLVER}, {asked}; {k - 1} refuted, {how}): "
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


def report_outputs(path: str | None, designer: bool) -> list[tuple[str | None, str]]:
    """``reach --proof``'s files, for :func:`~stratagem.core.outputs.check_outputs` to refuse before any work
    as ``solve`` refuses its own: the report, and beside it the refutation's CNF and DRUP proof
    (:func:`~stratagem.models.strato.solve.refutation_files`). Only in designer mode (``designer``): a deal's
    optimum is certified by ``solve --proof``."""
    if path is None:
        return []
    if not designer:
        raise BadInput("<argument>", "--proof", "is for --designer: it certifies the designer par (a deal's "
                       "optimum is certified by `stratagem solve --method sat --proof FILE`)")
    from stratagem.models.strato.solve import refutation_files

    cnf, drup = refutation_files(path)
    return [(path, "--proof"), (str(cnf), "--proof (the refutation's CNF, written beside the report)"),
            (str(drup), "--proof (the refutation's DRUP proof, written beside the report)"),
            (str(layouts_file(path)), "--proof (the no-win certificate's layouts, written beside the report)")]


def layouts_file(path: str | Path) -> Path:
    """Where ``reach --designer --proof NAME.json`` writes a no-win certificate's layouts: ``NAME.layouts.gz``."""
    record = Path(path)
    return record.parent / f"{record.name.removesuffix('.json')}.layouts.gz"


def no_win_layouts(graph: Any, facts: GraphFacts, designer: bool, path: str | None) -> list[str] | None:
    """The no-win certificate of a designer layout (``--proof`` given: ``path``): where its complete graph
    holds no win, every layout of it in designer mode's notation, sorted. Each of their designer moves leads
    to one of them and none meets the goal, which ``verify`` checks (:mod:`stratagem.verification.closure`).
    ``None`` where there is nothing of the kind to certify. Taken before the graph is emptied."""
    if path is None or not designer or not facts.complete or facts.goal_reachable:
        return None
    return sorted(str(data["label"]) for _, data in graph.nodes(data=True))


def puzzle_from(puzzle: str, report: str) -> str | None:
    """The puzzle file's path from the folder of the report written at ``report`` (both as given, from the
    working folder), in ``/`` form, so that ``verify`` finds the puzzle from wherever it is run as long as the
    two keep their places; ``None`` where there is no such path (another drive on Windows)."""
    try:
        relative = os.path.relpath(os.path.abspath(puzzle), os.path.dirname(os.path.abspath(report)))
    except ValueError:
        return None
    return Path(relative).as_posix()


def write_report(path: str | None, report: dict[str, Any], certificate: ParCertificate | None,
                 layouts: list[str] | None = None) -> None:
    """A reach report written for ``verify`` (``reach --proof FILE``; nothing without a ``path``): where
    the par has a checked certificate, its CNF and DRUP proof beside the report (``NAME.cnf.gz``,
    ``NAME.drup.gz``), named in ``par_certificate`` with the SHA-256 of their text as a ``solve`` proof record's
    evidence names its own (:func:`~stratagem.models.strato.solve.refutation_beside`), then the report, as
    one set (:func:`~stratagem.core.outputs.write_atomic_files`); a no-win certificate's ``layouts``
    (:func:`no_win_layouts`) go beside it as ``NAME.layouts.gz``, named in ``no_win_certificate`` with their
    count and the SHA-256 of their text. ``report`` gains the names, and the puzzle's path from the report's
    folder (``puzzle_from_report``, :func:`puzzle_from`): the report ``--json`` prints is the one written."""
    from stratagem.core.outputs import dumps_record, write_atomic_files
    from stratagem.models.strato.solve import refutation_beside

    if path is None:
        return
    report["puzzle_from_report"] = puzzle_from(report["puzzle"], path)
    beside: list[tuple[str | Path, str | bytes]] = []
    if certificate is not None and certificate.refutation is not None:
        beside, named = refutation_beside(path, certificate.refutation)
        report["par_certificate"].update(named)
    if layouts is not None:
        from stratagem.solvers.dimacs import data_maybe_gz

        data = "".join(f"{layout}\n" for layout in layouts).encode()
        file = layouts_file(path)
        beside.append((file, data_maybe_gz(file, data)))
        report["no_win_certificate"] = {"file": file.name, "layouts": len(layouts),
                                        "layouts_sha256": hashlib.sha256(data).hexdigest()}
    write_atomic_files([*beside, (path, dumps_record(report))])


def report_written(path: str, certificate: ParCertificate | None, line: list[str] | None,
                   layouts: list[str] | None = None) -> str:
    """The text report's last line after ``reach --proof``: where the report went, and whether the certificate
    of its par (``line``'s length), or that no win is reachable (``layouts``), is beside it, or why not."""
    if layouts is not None:
        return (f"report written to {path} with its no-win certificate beside it: the complete graph's "
                f"{plural(len(layouts), 'layout', grouped=True)}, closed under designer moves and none winning")
    if certificate is not None and certificate.refutation is not None:
        return f"report written to {path} with the par's certificate beside it"
    if line == []:
        return (f"report written to {path} (designer par 0 needs no certificate: the layout already meets the goal, "
                "and no line is shorter than none)")
    if certificate is not None:
        return (f"report written to {path} (no certificate: {_refuted_how(certificate, None)}; `stratagem verify` "
                "reports the par not certified)")
    return f"report written to {path} (no certificate: `stratagem verify` reports its par or bound not certified)"
