"""A proof tree (``stratagem/prooftree@1``) as a collapsible tree: each position a node that opens onto its
children, the move that leads to each, whose turn it is and the value the record gives it; at the
proving player's nodes the one move chosen, elsewhere every reply.

A proof is a DAG (a position reached twice within a half is one node): a node is drawn in full where
the walk first meets it and as a reference afterwards. Small trees also draw each node's position with
the game's own drawing. The page draws what the record holds; what is checked is said beside it (the
caller passes :func:`stratagem.verification.verify`'s report, or the page says the tree is the record's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from stratagem.views.page import esc

#: Nodes drawn in full at most; the rest of a larger tree is counted, not drawn.
MAX_DRAWN = 2500
#: Trees up to this many nodes get each node's position drawn inside it.
DRAW_POSITIONS = 400
WHO = {-1: "chance", -3: "end of play"}


def _label(node: dict[str, Any]) -> str:
    mover = node.get("to_move")
    who = WHO.get(mover, f"player {mover + 1} to move") if isinstance(mover, int) else "?"
    return f"<span class=\"val\">{esc(who)}, value {esc(node.get('value'))}</span>"


def tree_html(data: dict[str, Any], draw: Callable[[str], str] | None = None) -> str:
    """The halves of the proof, each as nested ``<details>``; ``draw`` turns a state's notation into HTML."""
    nodes = data.get("nodes") or []
    by_id = {n.get("id"): n for n in nodes if isinstance(n, dict)}
    drawing = draw if draw is not None and len(nodes) <= DRAW_POSITIONS else None
    seen: set[Any] = set()
    drawn = 0
    out: list[str] = []

    def walk(node_id: Any, move: str, depth: int, extra: str) -> None:
        nonlocal drawn
        node = by_id.get(node_id)
        head = (f"<span class=\"mv\">{esc(move)}</span> " if move else "") + extra
        if node is None:
            out.append(f"<div class=\"leaf bad\">{head}missing node {esc(node_id)}</div>")
            return
        if node_id in seen:
            out.append(f"<div class=\"leaf\">{head}{_label(node)} <span class=\"muted\">(the position of node "
                       f"{esc(node_id)}, drawn above)</span></div>")
            return
        seen.add(node_id)
        drawn += 1
        children = node.get("children") or []
        if drawn > MAX_DRAWN:
            out.append(f"<div class=\"leaf muted\">{head}(not drawn: the tree is larger than {MAX_DRAWN} nodes)</div>")
            return
        state = str(node.get("state"))
        picture = drawing(state) if drawing else f"<div class=\"mono muted\">{esc(state)}</div>"
        if not children:
            out.append(f"<details class=\"node\" data-node=\"{esc(node_id)}\"><summary>{head}{_label(node)}"
                       f"</summary>{picture}</details>")
            return
        replies = "one move" if len(children) == 1 else f"{len(children)} replies"
        opened = " open" if depth < 2 else ""
        out.append(f"<details class=\"node\" data-node=\"{esc(node_id)}\"{opened}><summary>{head}{_label(node)} "
                   f"<span class=\"muted\">({replies})</span></summary>{picture}")
        for child in children:
            chance = child.get("probability")
            probability = f"<span class=\"muted\">p={esc(chance)}</span> " if chance is not None else ""
            walk(child.get("node"), str(child.get("move", "")), depth + 1, probability)
        out.append("</details>")

    for half in data.get("halves") or []:
        out.append(f"<h3>The &ldquo;{esc(half.get('side'))}&rdquo; half: {esc(half.get('plies'))} plies at most</h3>"
                   "<div class=\"tree\">")
        walk(half.get("root"), "", 0, "start: ")
        out.append("</div>")
    if len(nodes) > MAX_DRAWN:
        out.append(f"<p class=\"muted\">{len(nodes)} nodes in all; the first {MAX_DRAWN} met are drawn.</p>")
    return "".join(out)


__all__ = ["tree_html"]
