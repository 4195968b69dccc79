"""A simultaneous-move certificate (``stratagem/matrixproof@1``, a Stack Attack round) as its matrices: at
every simultaneous node, the payoff of each pair of revealed cards, with both sides' mixed strategies on
the margins and the node's value.

The payoffs are not in the record: they are rebuilt here from the rules engine, walking the game from
the start as :mod:`stratagem.solvers.matrixproof`'s checker does (deeper nodes valued at the record's
values, which the page then shows for their own nodes), and each node's equilibrium is checked exactly
with :func:`stratagem.solvers.matrix.equilibrium_problem`. A node the walk does not reach, or that the
rules contradict, is shown as such rather than drawn from the record alone.

That walk (and a bound certificate's, :func:`bound_parts_html`) is not bounded by the record: one node at a
five-player start obliges 100,000 children. So each takes the command's deadline; when it passes, the page
draws the tables the walk completed, marks every other one not drawn and says why, and the caller is told
(``stopped``), so that a page cut short is never presented as complete.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.records import exact_text, parse_fraction
from stratagem.solvers.boundproof import check_bound_proof
from stratagem.solvers.matrix import equilibrium_problem
from stratagem.solvers.matrixproof import CheckStopped, TimedWalker, move_label
from stratagem.solvers.simultaneous import Exact
from stratagem.views.page import esc

#: Nodes drawn at most (a record may hold thousands; each is one table).
MAX_NODES = 60


class _Collector(TimedWalker):
    """Walks the game as the checker does and keeps each node's rebuilt matrix and labels (a matrix only once
    every cell is rebuilt); a ``deadline`` stops the walk as it stops the checker's."""

    def __init__(self, game: Any, player: int, payoff: str, values: dict[tuple[str, int | None], Fraction],
                 deadline: Deadline | None = None) -> None:
        super().__init__(game, player, payoff, deadline)
        self.values = values
        self.found: dict[tuple[str, int | None], tuple[list[str], list[str], tuple[tuple[Exact, ...], ...]]] = {}

    def simultaneous(self, state: Hashable, remaining: int | None, rows: tuple[Any, ...],
                     columns: tuple[tuple[Any, ...], ...]) -> Exact:
        key = (self.game.format_state(state), remaining)
        if key not in self.values:
            raise LookupError(f"the record has no node for state {key[0]!r}, which the start reaches")
        rows_text = [move_label(self.game, state, self.player, m) for m in rows]
        cols_text = [" + ".join(move_label(self.game, state, q, m) for q, m in zip(self.opponents, c, strict=True))
                     for c in columns]
        self.found[key] = (rows_text, cols_text, self.matrix(state, remaining, rows, columns))
        value = self.values[key]
        return value.numerator if value.denominator == 1 else value


def fraction(x: object) -> str:
    """An exact number (or a record's text of one) as the text output writes it: an integer as one (``-8``,
    not the record's ``-8/1``), else ``p/q``; what is no number is shown as it is (the check beside it says
    what is wrong), and a float (an estimate's frequency) as the record gives it."""
    return f"{x:g}" if isinstance(x, float) else exact_text(x)


def mix_table(who: str, mix: dict[str, Any]) -> str:
    """A mixed strategy as the certificates' tables show one: each move (in the game's notation) with its
    probability, in the record's order."""
    rows = "".join(f"<tr><th scope=\"row\">{esc(move)}</th><td class=\"num\"><b>{esc(fraction(p))}</b></td></tr>"
                   for move, p in mix.items())
    return (f"<div class=\"scroll\"><table class=\"mix\"><thead><tr><th scope=\"col\">{esc(who)} plays</th>"
            "<th scope=\"col\" class=\"num\">mix</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></div>")


def _cut_short(what: str, stop: CheckStopped, missing: int, shown: int, source: str,
               stopped: list[str] | None) -> str:
    """The page's notice that the deadline stopped the rebuild of ``what`` (``missing`` of the ``shown`` tables
    not drawn), and its line for the caller's ``stopped``."""
    words = (f"the time limit stopped the rebuild of the tables after {stop.positions:,} positions: {missing} of "
             f"{shown} {what} not drawn")
    if stopped is not None:
        stopped.append(f"{source}: {words}")
    return (f"<p class=\"warn\">The time limit stopped the rules engine's walk from the start after "
            f"{stop.positions:,} positions: {missing} of the {shown} {what} below {'is' if missing == 1 else 'are'} "
            "not drawn, and nothing is said of them. Each table drawn is complete. <code>stratagem verify</code> "
            "without a limit checks them all.</p>")


def matrices_html(game: Any, start: Any, data: dict[str, Any], source: str, *, deadline: Deadline | None = None,
                  stopped: list[str] | None = None) -> str:
    """Every node of the certificate as a table, root first.

    A ``deadline`` that passes stops the walk that rebuilds the matrices: the nodes whose matrix it did not
    complete are drawn as not rebuilt, and ``stopped``, when a list, receives one line saying so."""
    nodes = data.get("nodes") or []
    values = {(str(n.get("state")), n.get("depth")): parse_fraction(n.get("value"), source, f"nodes[{k}].value")
              for k, n in enumerate(nodes) if isinstance(n, dict)}
    collector = _Collector(game, int(data.get("player", 0)), str(data.get("payoff", "margin")), values, deadline)
    collector.start = start
    problem = ""
    cut: CheckStopped | None = None
    try:
        collector.value(start, data.get("depth"))
    except (LookupError, ValueError) as exc:
        problem = str(exc)
    except CheckStopped as stop:
        cut = stop
    parts = []
    if problem:
        parts.append(f"<p class=\"bad\">The rules engine's walk from the start stops: {esc(problem)}</p>")
    if cut is not None:
        shown = nodes[:MAX_NODES]
        missing = sum(1 for n in shown if (str(n.get("state")), n.get("depth")) not in collector.found)
        parts.append(_cut_short("matrices", cut, missing, len(shown), source, stopped))
    for k, node in enumerate(nodes[:MAX_NODES]):
        key = (str(node.get("state")), node.get("depth"))
        rows_s = [parse_fraction(p, source, f"nodes[{k}].row_strategy") for p in node.get("row_strategy", [])]
        cols_s = [parse_fraction(p, source, f"nodes[{k}].column_strategy") for p in node.get("column_strategy", [])]
        head = (f"<h3>Node {k}{' (the start)' if k == 0 else ''}: value {esc(fraction(node.get('value')))}</h3>"
                f"<p class=\"mono muted\">{esc(key[0])}</p>")
        found = collector.found.get(key)
        if found is None and cut is not None:
            parts.append(f"<div class=\"card matrix\" data-node=\"{k}\">{head}<p class=\"warn\">not drawn: the time "
                         "limit stopped the walk before this node's matrix was rebuilt</p></div>")
            continue
        if found is None:
            parts.append(f"<div class=\"card matrix\" data-node=\"{k}\">{head}<p class=\"bad\">not reached by the "
                         "rules engine's walk from the start: no matrix to show</p></div>")
            continue
        rows_text, cols_text, matrix = found
        fault = None
        if len(rows_s) == len(matrix) and matrix and len(cols_s) == len(matrix[0]):
            fault = equilibrium_problem(matrix, rows_s, cols_s, values[key])
        else:
            fault = "the strategies do not fit the matrix"
        verdict = ("<p class=\"ok\">both mixes checked exactly against this matrix: each guarantees the value</p>"
                   if fault is None else f"<p class=\"bad\">{esc(fault)}</p>")
        header = "".join(f"<th scope=\"col\" class=\"num\">{esc(c)}<br><span class=\"muted\">{esc(fraction(p))}"
                         "</span></th>" for c, p in zip(cols_text, cols_s, strict=False))
        body = []
        for r, (label, row) in enumerate(zip(rows_text, matrix, strict=False)):
            p = rows_s[r] if r < len(rows_s) else Fraction(0)
            cells = "".join(f"<td class=\"num\">{esc(fraction(x))}</td>" for x in row)
            body.append(f"<tr><th scope=\"row\">{esc(label)}</th><td class=\"num\"><b>{esc(fraction(p))}</b></td>"
                        f"{cells}</tr>")
        parts.append(f"<div class=\"card matrix\" data-node=\"{k}\">{head}<div class=\"scroll\"><table><thead><tr>"
                     f"<th scope=\"col\">player {int(data.get('player', 0)) + 1} plays</th>"
                     f"<th scope=\"col\" class=\"num\">mix</th>{header}</tr></thead>"
                     f"<tbody>{''.join(body)}</tbody></table></div>{verdict}</div>")
    if len(nodes) > MAX_NODES:
        parts.append(f"<p class=\"muted\">{len(nodes) - MAX_NODES} more node(s) not drawn; "
                     "<code>stratagem verify</code> checks them all.</p>")
    return "".join(parts)


def bound_parts_html(game: Any, start: Any, data: dict[str, Any], source: str, *, deadline: Deadline | None = None,
                     stopped: list[str] | None = None) -> str:
    """Every part of a bound certificate (``stratagem/matrixproof@2``) as a table, root first: a lower part
    as the player's played moves (with the mix) against every reply, an upper part as every move of the
    player against the opponents' played moves (with theirs); each cell the child's bound on that side,
    rebuilt from the rules engine by :func:`~stratagem.solvers.boundproof.check_bound_proof`.

    A ``deadline`` that passes stops that check: the parts it had checked are drawn (each complete), the
    others as not drawn, and ``stopped``, when a list, receives one line saying so."""
    tables: dict[tuple[str, int | None, int], Any] = {}
    parts = []
    nodes = [n for n in data.get("nodes") or [] if isinstance(n, list) and len(n) == 5]
    try:
        verdict = check_bound_proof(game, start, data, source, tables, deadline=deadline)
    except CheckStopped as stop:
        cut: CheckStopped | None = stop
        # a part is in ``tables`` only once all its cells are rebuilt and its inequalities hold
        keys = [(str(n[0]), n[1], side) for n in nodes for side in (0, 1) if n[3 + side] is not None][:MAX_NODES]
        parts.append(_cut_short("parts", stop, sum(1 for key in keys if key not in tables), len(keys), source,
                                stopped))
    else:
        cut = None
        if not verdict.valid:
            parts.append(f"<p class=\"bad\">The check from the start stops: {esc(verdict.reason)}</p>")
    drawn = 0
    for k, node in enumerate(nodes):
        for side, name in ((0, "lower"), (1, "upper")):
            if node[3 + side] is None or drawn >= MAX_NODES:
                continue
            drawn += 1
            head = (f"<h3>Node {k}{' (the start)' if k == 0 else ''}: {name} part, value {esc(fraction(node[2]))}</h3>"
                    f"<p class=\"mono muted\">{esc(node[0])}</p>")
            found = tables.get((str(node[0]), node[1], side))
            if found is None and cut is not None:
                parts.append(f"<div class=\"card matrix\" data-node=\"{k}\">{head}<p class=\"warn\">not drawn: the "
                             "time limit stopped the check before this part was checked</p></div>")
                continue
            if found is None:
                parts.append(f"<div class=\"card matrix\" data-node=\"{k}\">{head}<p class=\"bad\">not checked: "
                             "not reached from the start, or after the first problem</p></div>")
                continue
            rows, columns, cells = found
            what = "at least" if side == 0 else "at most"
            header = "".join(f"<th scope=\"col\" class=\"num\">{esc(c)}"
                             + (f"<br><span class=\"muted\">{esc(fraction(p))}</span>" if p is not None else "")
                             + "</th>" for c, p in columns)
            body = []
            for (label, p), line in zip(rows, cells, strict=False):
                mix = f"<b>{esc(fraction(p))}</b>" if p is not None else ""
                row = "".join(f"<td class=\"num\">{esc(fraction(x)) if x is not None else 'none'}</td>"
                              for x in line)
                body.append(f"<tr><th scope=\"row\">{esc(label)}</th><td class=\"num\">{mix}</td>{row}</tr>")
            parts.append(f"<div class=\"card matrix\" data-node=\"{k}\">{head}<div class=\"scroll\"><table><thead>"
                         f"<tr><th scope=\"col\">player {int(data.get('player', 0)) + 1} plays</th>"
                         f"<th scope=\"col\" class=\"num\">mix</th>{header}</tr></thead>"
                         f"<tbody>{''.join(body)}</tbody></table></div><p class=\"muted\">cells: each child's {name} "
                         f"bound; the mix holds {what} the value on every line</p></div>")
    total = sum((n[3] is not None) + (n[4] is not None) for n in nodes)
    if total > drawn:
        parts.append(f"<p class=\"muted\">{total - drawn} more part(s) not drawn; <code>stratagem verify</code> "
                     "checks them all.</p>")
    return "".join(parts)


__all__ = ["bound_parts_html", "fraction", "matrices_html", "mix_table"]
