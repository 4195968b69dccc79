"""A ``stratagem reach`` report's par, checked: its par line replayed, and in designer mode the par's
certificate (``par_certificate``, written by ``reach --designer --proof FILE`` whichever search found the par;
``par_sat`` in a ``stratagem/reach@2`` report, where only a par SAT found had one) checked against designer
mode's formula rebuilt from the layout.

The layout (or deal) is rebuilt from the puzzle file the report names (:func:`report_deal`; a relative path
from the working folder, else from the report's folder: :func:`puzzle_path`), never taken from the report,
whose ``start`` must be it. The claims:

- ``par_line``: a line of ``par`` turns that wins: in designer mode each move is found among designer
  mode's successors (:class:`~stratagem.models.strato.designer_rules.DesignerRules`, the rules
  :class:`~stratagem.models.strato.designer.StratoDesigner` searches with, plain Python: any weather of the
  challenge each turn), and the last layout must meet the goal; in deal mode the rules engine replays it.
  Certified by that replay.
- ``par``: no line is shorter. Certified only by a designer report's certificate: ``par_certificate`` (in
  ``@2``: ``par_sat`` with ``certificate`` true) whose ``horizon`` is the par line's length minus one, and
  beside the report the CNF and the DRUP proof it names (as a ``solve --proof`` record's evidence names its
  own), the CNF equal to the formula rebuilt here and the proof checked by stratagem's DRUP checker
  (:func:`~stratagem.verification.refutations.check_designer_refutation`). The certificate does not depend
  on which search found the par: a longer line with the refutation of a shorter horizon is refused, as the
  horizon must be its length minus one. A par resting on the graph's breadth-first search, on A*, or on the
  SAT solver's refutations under assumptions (a report without ``--proof``, or one whose time ran out before
  the proof) is reported not certified, never valid. Par 0 (a layout that already meets the goal: no move,
  ``par`` 0) needs no certificate: its replay is the proof, as no line is shorter than none.
- ``unsolvable: true``: in designer mode, certified by a no-win certificate (``no_win_certificate``, written
  by ``reach --designer --proof`` where the complete graph holds no win): the layouts in the file it names
  beside the report must hold the start, no winning table, and every layout each of their designer moves
  leads to (:mod:`~stratagem.verification.closure`, designer mode's rules, plain Python). Without one it
  rests on a complete graph (or an A* over every layout) the report states; not certified.

The graph's facts (states, edges, dead ends, components, states per depth) are what the build counted, not
claims of a par: a note says they are not checked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stratagem.core.errors import BadInput
from stratagem.core.words import plural
from stratagem.loading import StratoDeal, load
from stratagem.verification.verdict import Limits, Verdict

#: The reach reports ``verify`` reads (docs/formats.md 4.6): ``@1`` has no ``par_sat``, so its par is never
#: certified; ``@2`` holds the certificate of a par SAT found in ``par_sat``; ``@3`` holds any par's in
#: ``par_certificate`` (the fields moved: a reader of ``@2`` would take an ``@3`` par for uncertified).
REACH_FORMATS = ("stratagem/reach@1", "stratagem/reach@2", "stratagem/reach@3")


def puzzle_path(data: dict[str, Any], source: str) -> str:
    """Where a report's puzzle is read: ``puzzle`` as the report gives it (``reach`` writes the path it was
    given, so a relative one is from the folder it ran in); where no file is there and it is relative,
    ``puzzle_from_report`` (the same file's path from the report's folder, written by ``reach --proof``) from
    the report's folder, then ``puzzle`` from there, so that a report checked from another folder, or moved
    with its puzzle, still finds it. The file read is never trusted either way: the report's layout must be
    the one rebuilt from it."""
    puzzle = data["puzzle"]
    if Path(puzzle).is_absolute() or Path(puzzle).exists():
        return str(puzzle)
    folder = Path(source).parent
    for candidate in (data.get("puzzle_from_report"), puzzle):
        if isinstance(candidate, str) and candidate and not Path(candidate).is_absolute() \
                and (folder / candidate).is_file():
            return str(folder / candidate)
    return str(puzzle)


def claims_line(data: dict[str, Any], moves: list[str]) -> bool:
    """Whether the report claims a par line: ``moves`` (its ``par_line``) is not empty, or it is the line of no
    move of par 0, a start that already wins (the graph's shortest line is then empty, not null)."""
    return bool(moves) or (data.get("par_line") == [] and data.get("par") == 0)


def report_deal(data: dict[str, Any], source: str) -> StratoDeal:
    """The Strato deal a report names, from its puzzle file: a deal by its name, or a seeded deal (named
    ``seed-N``, not in the file) dealt again from its seed for its player count."""
    puzzle = data.get("puzzle")
    if not isinstance(puzzle, str):
        raise BadInput(source, "puzzle", "missing: the report names no puzzle file to rebuild the rules from")
    puzzle = puzzle_path(data, source)
    deal, players = data.get("deal"), None
    if deal is None or (isinstance(data.get("seed"), int) and deal == f"seed-{data['seed']}"):
        deal, players = data.get("seed"), data.get("players")
    try:
        loaded = load(puzzle, None if deal is None else str(deal) if not isinstance(deal, int) else deal, players)
    except BadInput as exc:  # the puzzle's own refusal, named as the report's field that led to it
        raise BadInput(source, "puzzle", f"cannot rebuild the deal: {exc}") from None
    if not isinstance(loaded, StratoDeal):
        raise BadInput(source, "puzzle", f"{puzzle} is a {loaded.game_name} position, not a Strato puzzle")
    return loaded


def check_reach(data: dict[str, Any], verdict: Verdict, name: str, limits: Limits) -> None:
    """Check a reach report's par (see the module docstring), filling in ``verdict``."""
    from stratagem.models.strato.designer_rules import DesignerRules, designer_game
    from stratagem.models.strato.rules.position import WON
    from stratagem.solvers.replay import replay
    from stratagem.verification.refutations import check_designer_refutation

    moves = data.get("par_line")
    if moves is None:
        moves = []
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise BadInput(name, "par_line", "must be a list of move strings")
    line = claims_line(data, moves)
    mode = data.get("mode")
    if mode not in ("designer", "deal"):
        raise BadInput(name, "mode", f"must be 'designer' or 'deal', not {str(mode)[:40]!r}")
    deal = report_deal(data, name)
    designer = mode == "designer"
    n = len(moves)
    if designer:
        layout = DesignerRules(deal.challenge, deal.game.options, deal.start.rows, deal.start.last)
        start_text = layout.format_state(layout.start())
        line_words = f"a designer line of {plural(n, 'turn')} from the layout reaches a winning table"
    else:
        start_text = deal.game.format_state(deal.start)
        line_words = f"a line of {plural(n, 'turn')} from the deal's start wins"
    read = puzzle_path(data, name)  # ``puzzle`` is a str: report_deal refused the report otherwise
    if data.get("start") != start_text:
        verdict.refute("start", "the report's start", "start",
                       f"is not the {'layout' if designer else 'start'} of {read}'s deal {deal.name}")
        return
    verdict.checked.append(f"the {'layout' if designer else 'start'} is {deal.name}'s, rebuilt from {read}")
    if line:
        if designer:
            state = layout.start()
            for k, text in enumerate(moves):
                after = next((s for move, s in layout.successors(state, distinct=False) if _move_text(move) == text),
                             None)
                if after is None:
                    verdict.refute("par_line", line_words, f"par_line[{k}]",
                                   f"{text[:60]!r} is not a designer move from the layout before it")
                    return
                state = after
            won, how = layout.is_goal(state), ("each move found among designer mode's moves (its rules, plain Python)"
                                               if moves else "the layout meets the goal (designer mode's rules, "
                                               "plain Python)")
        else:
            result = replay(deal.game, deal.start, tuple(moves))
            if result.error_at is not None:
                verdict.refute("par_line", line_words, f"par_line[{result.error_at}]", str(result.error))
                return
            won, how = result.final.status == WON, "replayed move by move through the rules engine"
        if not won:
            verdict.refute("par_line", line_words, "par_line", f"its {plural(n, 'move')} replay but do not win")
            return
        verdict.certify("par_line", line_words, how)
    par = data.get("par")
    if par != (n if line else None):
        verdict.refute("par", f"the report's par {str(par)[:20]}", "par",
                       f"is {str(par)[:20]}, but the par line has {plural(n, 'move')}")
        return
    evidence, place = _certificate(data, designer, name)
    if evidence is not None and not moves:
        raise BadInput(name, place.rstrip("."), "certifies a par of at least one turn, but the report's par line "
                       "has no move")
    if line:
        statement = (f"designer par {plural(n, 'turn')}: no designer line from the layout is shorter" if designer
                     else f"par {plural(n, 'turn')}: no winning line from the deal's start is shorter")
        if not moves:
            verdict.certify("par", statement, "no line is shorter than none: the start already wins, as replayed "
                            "above (no horizon below to refute)")
        elif evidence is None:
            verdict.not_certified("par", statement, _uncertified(data, designer))
        elif place == "par_sat." and (evidence.get("status") != "solved" or evidence.get("lower_bound") != n):
            verdict.refute("par", statement, "par_sat", f"claims a certificate, but its status is "
                           f"{str(evidence.get('status'))[:20]!r} and lower_bound "
                           f"{str(evidence.get('lower_bound'))[:20]}, not 'solved' and the par line's {n}")
            return
        elif evidence.get("proof") is None and evidence.get("cnf") is None and evidence.get("stopped_by") == "time":
            verdict.not_certified("par", statement, "the time ran out before CaDiCaL's DRUP refutation of the "
                                  "horizon below was written and checked: `stratagem reach --designer --proof FILE` "
                                  "with more time writes it")
        else:
            check_designer_refutation(evidence, "par", statement, n - 1, designer_game(layout), verdict, name, limits,
                                      place)
    elif data.get("unsolvable") is not True:
        verdict.not_certified("par", *_undecided(data, designer))
    if data.get("unsolvable") is True:
        if line:
            verdict.refute("unsolvable", "the report's unsolvable: true", "unsolvable",
                           "is true, but the par line wins")
        elif designer and data.get("no_win_certificate") is not None:
            _check_no_win(data, layout, verdict, name, limits)
        else:
            verdict.not_certified("unsolvable", "no win is reachable" + (" on this layout" if designer else ""),
                                  "rests on the complete graph (or A* over every layout) the report states; "
                                  "`stratagem reach` builds it again, verify does not"
                                  + ("; `stratagem reach --designer --proof FILE` writes its layouts, which verify "
                                     "checks" if designer else ""))
    elif data.get("no_win_certificate") is not None:
        raise BadInput(name, "no_win_certificate", "certifies that no win is reachable, but the report's "
                       "unsolvable is not true")
    verdict.notes.append("the graph's facts (states, edges, dead ends, components, states per depth) are what "
                         "the build counted, not checked here")


def _check_no_win(data: dict[str, Any], layout: Any, verdict: Verdict, name: str, limits: Limits) -> None:
    """Check a designer report's no-win certificate (see the module docstring): read the layouts file it
    names beside the report and check that they are closed under designer moves, hold the start and no win."""
    from stratagem.solvers.dimacs import read_text_maybe_gz
    from stratagem.verification.closure import check_closure, read_layouts
    from stratagem.verification.evidence import files_beside
    from stratagem.verification.refutations import note_digests

    evidence = data["no_win_certificate"]
    statement = "no win is reachable on this layout: no designer line, however long, meets the goal"
    if not isinstance(evidence, dict):
        raise BadInput(name, "no_win_certificate", "must be null or an object")
    path = files_beside(name, evidence, "no_win_certificate.", keys=("file",))["file"]
    text = read_text_maybe_gz(path)
    note_digests(evidence, {"layouts": text.encode()}, {"layouts": path}, verdict)  # ``layouts_sha256``
    layouts = read_layouts(layout, text, str(path), "layouts")
    if evidence.get("layouts") != len(layouts):
        verdict.notes.append(f"the report counts {str(evidence.get('layouts'))[:20]} layouts, {path.name} holds "
                             f"{len(layouts):,}: the check reads the file")
    found = check_closure(layout, layouts, limits.deadline)
    if found.stopped:
        verdict.not_certified("unsolvable", statement, limits.out_of_time(
            f"after {found.checked:,} of the {len(layouts):,} layouts of {path.name} were checked"))
    elif found.problem is not None:
        verdict.refute("unsolvable", statement, "no_win_certificate", f"{path.name}: {found.problem}")
    else:
        verdict.certify("unsolvable", statement,
                        f"the {plural(len(layouts), 'layout', grouped=True)} of {path.name} hold the start and no "
                        "winning table, and every designer move of each leads to one of them (designer mode's "
                        "rules, plain Python)")


def _move_text(move: Any) -> str:
    from stratagem.models.strato.rules.notation import format_move

    return format_move(move)


def _certificate(data: dict[str, Any], designer: bool, name: str) -> tuple[dict[str, Any] | None, str]:
    """The report's certificate of its par, ``None`` where it has none, and the place its fields are named
    under in a refusal: ``par_certificate`` (``@3``, made for any designer par with ``--proof``), or in a
    ``@2`` report ``par_sat`` where its ``certificate`` is true (only SAT's par had one; ``@1`` had none)."""
    if data.get("format") in ("stratagem/reach@1", "stratagem/reach@2"):
        sat = data.get("par_sat")
        certificate = sat.get("certificate") if isinstance(sat, dict) else None
        if certificate is not None and not isinstance(certificate, bool):
            raise BadInput(name, "par_sat.certificate", "must be true or false")
        return (sat if designer and isinstance(sat, dict) and certificate else None), "par_sat."
    evidence = data.get("par_certificate")
    if evidence is not None and not isinstance(evidence, dict):
        raise BadInput(name, "par_certificate", "must be null or an object")
    if evidence is not None and not designer:
        raise BadInput(name, "par_certificate", "is made only in designer mode (`stratagem solve --method sat "
                       "--proof FILE` certifies a deal's optimum)")
    return evidence, "par_certificate."


def _undecided(data: dict[str, Any], designer: bool) -> tuple[str, str]:
    """A report without a par line: what it still claims (the lower bound its searches proved, or nothing), and
    why that is not certified: a report that decided nothing is never valid."""
    bounds = [found["lower_bound"] for found in (data.get("par_search"), data.get("par_sat"))
              if isinstance(found, dict) and isinstance(found.get("lower_bound"), int)]
    if bounds:
        return (f"every designer line takes at least {plural(max(bounds), 'turn')}",
                "rests on A*'s search and the SAT solver's refutations the report states; not repeated here")
    return (f"no win was reached{' on this layout' if designer else ''}: nothing is proven either way",
            "the report decided nothing (a limit cut the graph before a win)")


def _uncertified(data: dict[str, Any], designer: bool) -> str:
    """Why a par without a certificate is not certified, and how to get one."""
    sat = data.get("par_sat")
    if isinstance(sat, dict):
        return ("rests on the SAT solver's refutation of the horizon below under assumptions, which comes without a "
                "certificate: `stratagem reach --designer --proof FILE` writes one that verify checks")
    searched = data.get("par_search")
    basis = "A*'s search" if isinstance(searched, dict) else "the graph's breadth-first search"
    return (f"rests on {basis} the report states; not repeated here (`stratagem reach` runs it again"
            + (")" if not designer else "; `stratagem reach --designer --proof FILE` writes a certificate that "
               "verify checks)"))
