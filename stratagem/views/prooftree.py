"""A proof tree (``stratagem/prooftree@1``) as a collapsible tree: each position a node that opens onto its
children, the move that leads to each, whose turn it is and the value the record gives it; at the
proving player's nodes the one move chosen, elsewhere every reply.

A proof is a DAG (a position reached twice within a half is one node): a node is drawn in full where
the walk first meets it and afterwards as a link to it. Small trees also draw each node's position with
the game's own drawing, folded under the node's line (``position``): drawn open, every node a reader
opened took a drawing of some 380 px before its replies, and a 400-node tree opened in full was 150,000 px
long. A tree larger than :data:`MAX_DRAWN` nodes is drawn nearest its roots first, both halves together
(breadth-first), so that every half shows its first moves and the cut falls deep in the tree rather than
across the top of the half met last. The page draws what the record holds; what is checked is said
beside it (the caller passes :func:`stratagem.verification.verify`'s report, or the page says the tree is
the record's).

The tree opens on its first two levels. With scripts on, buttons above it open one level more, every
node, or fold it back to two levels, and open or fold every position; printed, it opens level by level
only while it stays within :data:`stratagem.views.page.PRINT_LINES` lines (a 2,500-node tree opened in
full printed 140 pages) and says in print how many lines it left folded and how to print them all.
Each node carries its depth (``data-depth``) for those buttons and for the printing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from stratagem.views.page import esc, hashable

#: Nodes drawn in full at most (those nearest the roots); the rest of a larger tree is counted, not drawn.
MAX_DRAWN = 2500
#: Trees up to this many nodes get each node's position drawn, in a fold under the node's line.
DRAW_POSITIONS = 400
WHO = {-1: "chance", -3: "end of play"}


def _label(node: dict[str, Any]) -> str:
    mover = node.get("to_move")
    who = WHO.get(mover, f"player {mover + 1} to move") if isinstance(mover, int) else "?"
    return f"<span class=\"val\">{esc(who)}, value {esc(node.get('value'))}</span>"


def _nearest(roots: list[Any], by_id: dict[Any, dict[str, Any]], budget: int) -> set[Any]:
    """The ``budget`` nodes nearest the ``roots`` together (breadth-first, the roots first): the nodes the
    page draws in full. The set holds every node on some path to each of its nodes, so the walk meets
    each of them below a node it drew."""
    chosen: set[Any] = set()
    layer = list(roots)
    while layer and len(chosen) < budget:
        below: list[Any] = []
        for node_id in layer:
            if not hashable(node_id) or node_id in chosen or node_id not in by_id or len(chosen) >= budget:
                continue
            chosen.add(node_id)
            children = by_id[node_id].get("children")
            if isinstance(children, list):
                below += [child.get("node") for child in children if isinstance(child, dict)]
        layer = below
    return chosen


def _anchor(node_id: Any) -> str:
    return f"node-{node_id}"


def dag_html(roots: list[tuple[str, Any]], by_id: dict[Any, dict[str, Any]], *,
             label: Callable[[dict[str, Any]], str] = _label, fanout: Callable[[dict[str, Any]], str] | None = None,
             draw: Callable[[str], str] | None = None, budget: int | None = None) -> str:
    """A DAG of positions as nested ``<details>``, one tree per root (``roots``: each root's heading, HTML,
    and its id). A node is ``{"state", "children": [{"move", "node", "probability"?}]}``; ``label`` says what a
    node is (HTML), ``fanout`` what its children are (default: ``one move`` or ``N replies``) and ``draw``
    turns a state's notation into HTML (else the notation is shown). The ``budget`` nodes nearest the roots
    (default :data:`MAX_DRAWN`) are drawn in full, each once: a node met again links to where it is drawn.
    The trees share one box (``<div class="trees">``) with the buttons that open and fold them; a position
    drawn by ``draw`` is folded under its node's line."""
    budget = MAX_DRAWN if budget is None else budget
    shown = _nearest([root for _, root in roots], by_id, budget)
    seen: set[Any] = set()
    out: list[str] = []

    def replies(node: dict[str, Any]) -> str:
        count = len(node.get("children") or [])
        return "one move" if count == 1 else f"{count} replies"

    def entries(node: dict[str, Any]) -> list[dict[str, Any]]:
        """A node's children as the record gives them, those that are no object left out (the page draws
        what it can of a broken record; verify says what is wrong)."""
        children = node.get("children")
        return [child for child in children if isinstance(child, dict)] if isinstance(children, list) else []

    def walk(root: Any) -> None:
        """Draw the tree below ``root`` depth first, children in their order: with a stack of its own, not
        by recursion (a chain of 2,500 drawn nodes, the budget, went past Python's recursion limit)."""
        todo: list[tuple[Any, str, int, str] | None] = [(root, "", 0, "start: ")]  # None: close a node
        while todo:
            item = todo.pop()
            if item is None:
                out.append("</details>")
                continue
            node_id, move, depth, extra = item
            node = by_id.get(node_id) if hashable(node_id) else None
            head = (f"<span class=\"mv\">{esc(move)}</span> " if move else "") + extra
            if node is None:
                out.append(f"<div class=\"leaf bad\">{head}missing node {esc(node_id)}</div>")
                continue
            if node_id in seen:
                out.append(f"<div class=\"leaf\">{head}{label(node)} <span class=\"muted\">(the position of "
                           f"<a href=\"#{esc(_anchor(node_id))}\">node {esc(node_id)}</a>, drawn above)</span></div>")
                continue
            if node_id not in shown:
                out.append(f"<div class=\"leaf muted\">{head}{label(node)} (not drawn: the tree is larger than "
                           f"{budget} nodes)</div>")
                continue
            seen.add(node_id)
            children = entries(node)
            state = str(node.get("state"))
            picture = draw(state) if draw else f"<div class=\"mono muted\">{esc(state)}</div>"
            ident = f"data-node=\"{esc(node_id)}\" id=\"{esc(_anchor(node_id))}\" data-depth=\"{depth}\""
            if not children:
                out.append(f"<details class=\"node\" {ident}><summary>{head}{label(node)}</summary>{picture}</details>")
                continue
            if draw:  # the drawing folded under the line, so an opened node shows its replies next
                picture = f"<details class=\"pos\"><summary>position</summary>{picture}</details>"
            opened = " open" if depth < 2 else ""
            out.append(f"<details class=\"node\" {ident}{opened}><summary>{head}{label(node)} "
                       f"<span class=\"muted\">({esc((fanout or replies)(node))})</span></summary>{picture}")
            todo.append(None)
            for child in reversed(children):
                chance = child.get("probability")
                probability = f"<span class=\"muted\">p={esc(chance)}</span> " if chance is not None else ""
                todo.append((child.get("node"), str(child.get("move", "")), depth + 1, probability))

    out.append(_tools(draw is not None))
    for heading, root in roots:
        out.append(f"{heading}<div class=\"tree\">")
        walk(root)
        out.append("</div>")
    if len(by_id) > budget:
        out.append(f"<p class=\"muted\">{len(by_id)} nodes in all; the {len(shown)} nearest the start"
                   + (" (of both halves together)" if len(roots) > 1 else "") + " are drawn.</p>")
    out.append("</div>")
    return "".join(out)


def _tools(positions: bool) -> str:
    """The opening of a tree's box (``<div class="trees">``, which the caller's closing ``</div>`` ends)
    and its buttons: one level more, every node, back to the first two levels, and with drawn positions
    every position open or folded. Hidden until the page's script shows them (without scripts they
    would do nothing)."""
    buttons = [("deeper", "Open one level more"), ("all", "Open every node"), ("top", "Fold to two levels")]
    if positions:
        buttons += [("positions", "Show every position"), ("nopositions", "Fold every position")]
    return ("<div class=\"trees\"><div class=\"tree-tools\" hidden>"
            + "".join(f"<button type=\"button\" data-tree=\"{name}\">{words}</button>" for name, words in buttons)
            + "</div>")


def tree_html(data: dict[str, Any], draw: Callable[[str], str] | None = None) -> str:
    """The halves of the proof, each as nested ``<details>``; ``draw`` turns a state's notation into HTML."""
    given, sides = data.get("nodes"), data.get("halves")
    nodes: list[Any] = given if isinstance(given, list) else []
    by_id = {n.get("id"): n for n in nodes if isinstance(n, dict) and hashable(n.get("id"))}
    halves = [half for half in sides if isinstance(half, dict)] if isinstance(sides, list) else []
    roots = [(f"<h3>The &ldquo;{esc(half.get('side'))}&rdquo; half: {esc(half.get('plies'))} plies at most</h3>",
              half.get("root")) for half in halves]
    return dag_html(roots, by_id, draw=draw if draw is not None and len(nodes) <= DRAW_POSITIONS else None)


__all__ = ["dag_html", "tree_html"]
