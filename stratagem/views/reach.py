"""A ``stratagem reach`` report (``stratagem/reach@3``, or an older ``@2`` or ``@1``) as a page: what the state
graph of a deal, or of its layout in designer mode, shows a designer.

The answer first, as the command states it (a win reachable with its par, unsolvable with the complete
graph as proof, or unknown when a limit cut the graph); the graph's facts, and in designer mode, where a limit
cut the graph before a win, what the par's A* run proved (and where it stopped without a par, SAT's), and whether
the report names a certificate of its par (``reach --designer --proof``; ``verify`` checks it, not the page); the states
first reached at each
depth as a chart (where the graph widens, and how deep it goes); and the par line replayed: with the rules
engine in deal mode, and in designer mode (any weather playable every turn, no hands) each move matched
against the designer game's own successors. The deal is rebuilt from the puzzle the report names; its start,
par line, par and answer must agree with it and with each other (:func:`reach_page`).
"""

from __future__ import annotations

from typing import Any

from stratagem.core.errors import BadInput
from stratagem.core.words import plural
from stratagem.models.strato.designer import Layout, StratoDesigner
from stratagem.models.strato.rules.notation import format_move
from stratagem.models.strato.rules.position import WON
from stratagem.solvers.replay import replay
from stratagem.verification.reach import REACH_FORMATS, claims_line, puzzle_path
from stratagem.views.charts import bars
from stratagem.views.page import GOAL, MOVE, esc, replay_frame, table
from stratagem.views.strato import describe_challenge, describe_move, goal_note, strato_replay, table_svg

__all__ = ["REACH", "REACH_FORMATS", "designer_replay", "reach_html", "reach_page"]

#: The format of ``stratagem reach --json`` (docs/formats.md 4.6). The formats a page is made of
#: (:data:`~stratagem.verification.reach.REACH_FORMATS`, the ones ``verify`` reads): ``@1`` (before ``par_sat``:
#: a par line only from the graph or A*) reads the same, without SAT's run; ``@2`` (before ``par_certificate``:
#: only SAT's par had a certificate, in ``par_sat``) with it there.
REACH = REACH_FORMATS[-1]


def reach_title(data: dict[str, Any]) -> str:
    """The answer in a few words, as the command's last line states it."""
    designer = data.get("mode") == "designer"
    if data.get("unsolvable") is True:
        return "every deal on this layout is unsolvable" if designer else "unsolvable"
    if data.get("goal_reachable"):  # the page checked the par line wins, with par its length
        par = data.get("par")
        return (f"designer par {plural(par, 'turn')} (a lower bound for every deal on this layout)" if designer
                else f"a win is reachable, par {plural(par, 'turn')}")
    searched, sat = data.get("par_search"), data.get("par_sat")
    if isinstance(searched, dict) and isinstance(searched.get("lower_bound"), int):
        bound = max(searched["lower_bound"], sat["lower_bound"] if isinstance(sat, dict) else 0)
        return (f"unknown: limits cut the graph{', A* and SAT' if isinstance(sat, dict) else ' and A*'} before a win "
                f"was reached; designer par at least {plural(bound, 'turn')}")
    return "unknown: a limit cut the graph before a win was reached"


def reach_page(data: dict[str, Any], source: str, deal: Any) -> tuple[str, str]:
    """The title and body of a reach report's page, ``deal`` (a :class:`~stratagem.loading.StratoDeal`)
    rebuilt from the puzzle it names. The report must be one ``reach`` could have written of that deal: its
    start the deal's (or its layout's), its par line a list of moves that replays and ends in a win, ``par``
    its length, and ``goal_reachable`` and ``unsolvable`` what that line and ``complete`` say; anything else
    is bad input naming the field, so a page never titles a report with what its own line contradicts."""
    moves = data.get("par_line")
    if moves is None:
        moves = []
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise BadInput(source, "par_line", "must be a list of move strings")
    read = puzzle_path(data, source)  # the file report_deal read the deal from
    if data.get("mode") == "designer":
        designer = StratoDesigner(deal.challenge, deal.game.options, deal.start.rows, deal.start.last)
        if data.get("start") != designer.format_state(designer.start()):
            raise BadInput(source, "start", f"is not the layout of {read}'s deal {deal.name}")
        replay_html, won = designer_replay(designer, moves, source)
    else:
        start = deal.game.format_state(deal.start)
        if data.get("start") != start:
            raise BadInput(source, "start", f"is not the start of {read}'s deal {deal.name}")
        result = replay(deal.game, deal.start, tuple(moves))
        if result.error_at is not None:
            raise BadInput(source, f"par_line[{result.error_at}]", result.error)
        replay_html = strato_replay(deal.challenge, result.states, moves)
        won = result.final.status == WON
    _check_answer(data, source, moves, won)
    return reach_html(data, deal.challenge, replay_html if moves else "")


def _check_answer(data: dict[str, Any], source: str, moves: list[str], won: bool) -> None:
    """The report's answer fields agree with its par line (replayed: ``won`` when its last move wins; a line
    of no move, ``par`` 0, where the start already wins)."""
    line = claims_line(data, moves)
    if line and not won:
        raise BadInput(source, "par_line", f"its {len(moves)} move(s) replay but do not win")
    if data.get("par") != (len(moves) if line else None):
        raise BadInput(source, "par", f"is {data.get('par')!r}, but the par line has {len(moves)} move(s)")
    complete = data.get("complete")
    if not isinstance(complete, bool):
        raise BadInput(source, "complete", "must be true or false")
    exhausted = _check_par_search(data, source, moves, complete)
    certificate = data.get("par_certificate")
    if certificate is not None and (not isinstance(certificate, dict) or not moves):
        raise BadInput(source, "par_certificate", "must be null or an object, and is made only for a par line of at "
                       "least one move")
    # A win reachable: solvable; no win in the complete graph (or A*'s exhausted space): unsolvable; no win in a
    # cut graph: unknown.
    for key, expected in (("goal_reachable", True if line else False if complete or exhausted else None),
                          ("unsolvable", False if line else True if complete or exhausted else None)):
        if data.get(key) is not expected:
            raise BadInput(source, key, f"is {data.get(key)!r}, but the report's par line, complete "
                           f"({str(complete).lower()}) and par_search say "
                           f"{'null' if expected is None else str(expected).lower()}")


def _check_par_search(data: dict[str, Any], source: str, moves: list[str], complete: bool) -> bool:
    """``par_search`` (the designer par's A* run, where a graph in designer mode was cut before a win) and
    ``par_sat`` (SAT's, where A* stopped without a par) agree with the rest of the report: the par line is the
    one that solved it, of its ``lower_bound``'s length; whether A* expanded every reachable layout without a
    win."""
    searched, sat = data.get("par_search"), data.get("par_sat")
    if searched is None:
        if sat is not None:
            raise BadInput(source, "par_sat", "is made only after the par's A* (par_search) stopped without a par")
        return False
    _check_search(searched, "par_search", ("solved", "unsolvable", "unknown"), source)
    if data.get("mode") != "designer" or complete or data.get("goal_states"):
        raise BadInput(source, "par_search", "is made only in designer mode, of a graph cut before a win")
    if sat is not None:
        _check_search(sat, "par_sat", ("solved", "unknown"), source)
        if searched["status"] != "unknown":
            raise BadInput(source, "par_sat", f"is made only after the par's A* stopped without a par, not "
                           f"after one {searched['status']!r}")
    solver, key = (sat, "par_sat") if sat is not None else (searched, "par_search")
    if (solver["status"] == "solved") != bool(moves):
        raise BadInput(source, f"{key}.status", f"is {solver['status']!r}, but the par line has "
                       f"{len(moves)} move(s)")
    if moves and solver["lower_bound"] != len(moves):
        raise BadInput(source, f"{key}.lower_bound", f"is {solver['lower_bound']}, but the par line has "
                       f"{len(moves)} move(s)")
    return bool(searched["status"] == "unsolvable")


def _check_search(searched: object, key: str, statuses: tuple[str, ...], source: str) -> None:
    """``searched`` is an object with one of ``statuses`` and an integer ``lower_bound``."""
    if not isinstance(searched, dict) or searched.get("status") not in statuses \
            or not isinstance(searched.get("lower_bound"), int) or isinstance(searched.get("lower_bound"), bool):
        raise BadInput(source, key, f"must be null or an object with a status ({', '.join(statuses)}) "
                       "and an integer lower_bound")


def designer_replay(designer: StratoDesigner, moves: list[str], source: str) -> tuple[str, bool]:
    """The designer par line, each move matched against the designer game's successors (bad input when one
    is not among them), each layout's rows drawn; and whether its last layout meets the goal."""
    challenge = designer.challenge
    layouts: list[Layout] = [designer.start()]
    for k, text in enumerate(moves):
        after = next((state for move, state in designer.successors(layouts[-1], distinct=False)
                      if format_move(move) == text), None)
        if after is None:
            raise BadInput(source, f"par_line[{k}]", f"{text!r} is not a designer move from the layout before it")
        layouts.append(after)
    width_half = max([challenge.limit] + [max(len(r.left), len(r.right)) for s in layouts for r in s.rows])
    panels = []
    for k, layout in enumerate(layouts):
        move = moves[k - 1] if k else ""
        caption = ("The layout" if k == 0 else
                   f"Turn {k}: <code>{esc(move)}</code> &mdash; {esc(describe_move(move))}")
        note = goal_note(layout.rows, challenge, "won" if designer.is_goal(layout) else "")
        panels.append(f"<h3>{caption}</h3>{table_svg(layout, challenge, width_half, move)}"
                      f"<p class=\"muted\">{note}</p>")
    return replay_frame(f"{len(moves)} turn(s)", panels, moves), designer.is_goal(layouts[-1])


def reach_html(data: dict[str, Any], challenge: Any, replay: str) -> tuple[str, str]:
    """The title and body of a reach report's page; ``replay``: the par line's replay (HTML, empty when
    there is no line)."""
    designer = data.get("mode") == "designer"
    title = f"Strato reachability: {reach_title(data)}"
    tone = {True: "bad", False: "ok"}.get(data.get("unsolvable"), "warn")  # type: ignore[arg-type]
    mode = ("designer mode: the deal's rows only, any weather of the challenge playable every turn, no hands"
            if designer else "the deal as dealt, every hand and the pile's order known")
    body = [f"<div class=\"card answer\"><p><b class=\"{tone}\" data-answer=\"{esc(data.get('unsolvable'))}\">"
            f"{esc(reach_title(data))}</b></p><p>{esc(data.get('conclusion', ''))}</p></div>",
            f"<p>{esc(describe_challenge(challenge))} Deal <code>{esc(data.get('deal'))}</code>, "
            f"{esc(data.get('players'))} player(s); {esc(mode)}.</p>"]
    complete = data.get("complete") is True
    at_least = "" if complete else "at least "
    facts = [("states", _count(data.get("states"))), ("edges", _count(data.get("edges"))),
             ("built", "complete: every reachable state expanded" if complete else
              f"cut by the {esc(data.get('stopped_by'))} limit: {_count(data.get('frontier'))} states left unexpanded"),
             ("winning states reached", _count(data.get("goal_states"))),
             ("par (fewest turns to a win)", esc(data.get("par")) if data.get("par") is not None else "none reached"),
             *_par_search_facts(data.get("par_search")), *_par_sat_facts(data),
             *_certificate_facts(data.get("par_certificate")), *_no_win_facts(data.get("no_win_certificate")),
             ("dead ends (no win reachable)", at_least + _count(data.get("dead_ends"))),
             ("strongly connected components", _count(data.get("strongly_connected_components"))
              + f" (largest: {_count(data.get('largest_component'))})")]
    body.append(table(["the graph", "value"], [[esc(name), value] for name, value in facts], sortable=False))
    depths = [n for n in data.get("states_per_depth") or [] if isinstance(n, int)]
    if depths:
        par = data.get("par") if isinstance(data.get("par"), int) else None
        # the par's bar is green and says "par" above it: not told from its orange neighbours by colour alone
        marked = (f" The bar at depth {par}, the par, is green and marked par." if par is not None
                  and par < len(depths) else "")
        body += ["<h2>States first reached at each depth</h2><p class=\"muted\">Depth: turns from the start."
                 + ("" if complete else " The graph was cut, so the last depths are not complete.") + marked + "</p>",
                 bars("States first reached at each depth", [str(d) for d in range(len(depths))],
                      [("states", MOVE, depths)], y_label="states", width=max(340, 76 + 30 * len(depths)),
                      colours=[GOAL if d == par else MOVE for d in range(len(depths))],
                      notes=[["par" if d == par else "" for d in range(len(depths))]])]
    if replay:
        how = ("Designer moves (any weather, every turn), each found among the designer game's moves." if designer
               else "Replayed with the rules engine.")
        body += [f"<h2>A line of par length</h2><p class=\"muted\">{how}</p>", replay]
    return title, "".join(body)


def _par_search_facts(searched: object) -> list[tuple[str, str]]:
    """The facts row of the designer par's A* run, if one ran (the graph cut before a win)."""
    if not isinstance(searched, dict):
        return []
    held = f"{_count(searched.get('states'))} layouts held, {_count(searched.get('expanded'))} expanded"
    found = {"solved": f"par {esc(searched.get('lower_bound'))}, proven",
             "unsolvable": "every reachable layout expanded, none wins"}.get(
        str(searched.get("status")),
        f"stopped by the {esc(searched.get('stopped_by'))} limit: par at least {esc(searched.get('lower_bound'))}")
    return [("par by A* (the graph cut before a win)", f"{found} ({held})")]


def _par_sat_facts(data: dict[str, Any]) -> list[tuple[str, str]]:
    """The facts row of the designer par's SAT run, if one ran (A* stopped without a par); in a ``@3`` report
    its certificate is the par's (:func:`_certificate_facts`)."""
    sat = data.get("par_sat")
    if not isinstance(sat, dict):
        return []
    solved = sat.get("status") == "solved"
    found = (f"par {esc(sat.get('lower_bound'))}: a line found, the horizon below refuted" if solved
             else f"stopped ({esc(sat.get('stopped_by'))}): par at least {esc(sat.get('lower_bound'))}")
    if sat.get("certificate") is True:  # named, not checked here: verify checks it (view --verify shows how)
        return [("par by SAT (A* stopped without one)", f"{found}, with a DRUP certificate the report names beside "
                 "it (not checked by this page: <code>stratagem verify</code> checks it)")]
    if isinstance(data.get("par_certificate"), dict):
        return [("par by SAT (A* stopped without one)", f"{found} (the par's certificate below)")]
    return [("par by SAT (A* stopped without one)", f"{found}, by the solver's word: not certified")]


def _certificate_facts(certificate: object) -> list[tuple[str, str]]:
    """The facts row of the par's certificate (``reach --designer --proof``), if the report has one."""
    if not isinstance(certificate, dict):
        return []
    horizon = esc(certificate.get("horizon"))
    if certificate.get("proof") is None:
        return [("par certificate", f"not certified: the time ran out before the DRUP refutation of horizon {horizon} "
                 "was written and checked")]
    return [("par certificate", f"a DRUP refutation of horizon {horizon} ({_count(certificate.get('proof_lines'))} "
             f"proof lines) the report names beside it: <code>{esc(certificate.get('proof'))}</code> (not checked by "
             "this page: <code>stratagem verify</code> checks it)")]


def _no_win_facts(certificate: object) -> list[tuple[str, str]]:
    """The facts row of a no-win certificate (``reach --designer --proof`` where the complete graph holds no
    win), if the report has one: named, not checked here."""
    if not isinstance(certificate, dict):
        return []
    return [("no-win certificate", f"the complete graph's {_count(certificate.get('layouts'))} layouts the report "
             f"names beside it: <code>{esc(certificate.get('file'))}</code>, closed under designer moves and none "
             "winning (not checked by this page: <code>stratagem verify</code> checks it)")]


def _count(value: object) -> str:
    return f"{value:,}" if isinstance(value, int) else esc(value)
