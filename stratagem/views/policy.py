"""A Strato deal with the pile's order hidden, as pages: a policy record (``stratagem/policy@1``) as a
strategy a player can follow, and a ``stratagem odds`` report (``stratagem/odds@1``,
``stratagem/odds-bounds@1``) as its answer.

A policy is what a player who cannot see the pile's order does: one move at each position they can be in
and, for each card that can turn up, what follows. The page shows it three ways: the start (the table, the
hand, and the cards left, whose order is hidden); the likeliest game under the policy (each draw the card
most likely to turn up), a replay to step through; and the whole policy as a tree that opens node by node
-- at a decision the move played, at a draw every card that can turn up with its probability, down to won
and lost games and to ``cut`` positions, where the policy gives up (counted lost). Beside each node is
the policy's win probability from there, computed by the page from the record's own nodes (its chance
probabilities and its leaves' payoffs, bottom-up, as exact fractions). The page first checks the record as
``verify`` does: it is replayed through the rules with the game its setup names (every node's state the
rules', every move legal, every card with its probability, every leaf's result, one move per information
state) and must be worth what it claims. The positions drawn are
the rules engine's. A record that fails is bad input, unless verify's report (``view --verify``) already
found it invalid: the page then draws what the replay reached and says where it broke. Only
``verify`` certifies: "no policy does better" is its to check, not the page's.

An odds report is the command's answer: the win probability (exact, or the interval proven, with what
stopped the search), the start, and the first moves ranked by their exact win probability, each move
checked legal at the start by the rules engine. A report is no certificate: the page says which record
``stratagem verify`` checks (the ``--proof`` policy or the ``--table`` value table).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from stratagem.core.errors import BadInput, NotationError
from stratagem.core.records import parse_fraction
from stratagem.loading import load_strato
from stratagem.models.strato.hidden.game import (
    DRAW,
    PLAY,
    REVEAL,
    TARGET,
    HiddenState,
    HiddenStrato,
    format_hidden,
    hide,
    parse_hidden,
)
from stratagem.models.strato.rules.deal import DealError, check_position
from stratagem.models.strato.rules.position import LOST, ONGOING, WON, State
from stratagem.solvers.mdp import check_policy_dag
from stratagem.verification.policy import win_payoff
from stratagem.views.page import INK, MOVE, esc, hashable, replay_frame, table
from stratagem.views.prooftree import DRAW_POSITIONS, dag_html
from stratagem.views.strato import NAMES, cards_svg, describe_challenge, describe_move, goal_note, table_svg

__all__ = ["odds_report_html", "policy_html", "policy_values", "table_html"]

#: Formats of the two ``stratagem odds`` reports (docs/formats.md 10.9).
ODDS, BOUNDS = "stratagem/odds@1", "stratagem/odds-bounds@1"


def probability(value: Fraction | None) -> str:
    """``2/3 (0.6667)``; ``?`` for a value the record does not determine."""
    if value is None:
        return "?"
    return str(value) if value.denominator == 1 else f"{value} ({float(value):.4f})"


def _value(text: object) -> Fraction | None:
    """A record's exact fraction, or None for anything else (the page draws what it can of a bad record;
    ``verify`` names the problem)."""
    try:
        return parse_fraction(text, "", "")
    except BadInput:
        return None


def policy_values(by_id: dict[Any, dict[str, Any]], root: Any) -> dict[Any, Fraction | None]:
    """The policy's win probability at every node reachable from ``root``, from the record's nodes alone: a
    leaf's payoff, 0 at a cut, the one child's value at a decision, the probability-weighted mean at a
    chance node. None where the record does not determine it (a node missing or malformed below, or a
    cycle). Iterative, as a policy may be deep."""
    values: dict[Any, Fraction | None] = {}
    open_: set[Any] = set()
    stack: list[tuple[Any, bool]] = [(root, False)] if hashable(root) else []
    while stack:
        node_id, expanded = stack.pop()
        if node_id in values:
            continue
        node = by_id.get(node_id)
        links = [link for link in _links(node) if hashable(link[1])] if node is not None else []
        if not expanded:
            if node_id in open_ or node is None:
                values[node_id] = None  # a cycle, or a missing node
                continue
            open_.add(node_id)
            stack.append((node_id, True))
            stack += [(child, False) for _, child, _ in links if child not in values]
            continue
        open_.discard(node_id)
        assert node is not None
        kind = node.get("kind")
        value: Fraction | None
        if kind == "leaf":
            value = _value(node.get("payoff"))
        elif kind == "cut":
            value = Fraction(0)
        elif kind == "decision" and links:
            value = values.get(links[0][1])
        elif kind == "chance" and links:
            known = [(weight, worth) for _, child, weight in links
                     if weight is not None and (worth := values.get(child)) is not None]
            value = sum((w * v for w, v in known), Fraction(0)) if len(known) == len(links) else None
        else:
            value = None
        values[node_id] = value
    return values


def _links(node: dict[str, Any]) -> list[tuple[str, Any, Fraction | None]]:
    """A node's edges as (move, child, probability): the decision's one move, or each card a chance node
    draws."""
    if node.get("kind") == "decision":
        return [(str(node.get("move")), node.get("child"), None)]
    if node.get("kind") == "chance":
        return [(str(o[0]), o[2], _value(o[1])) for o in node.get("outcomes") or []
                if isinstance(o, list) and len(o) == 3]
    return []


def hidden_panel(state: HiddenState, challenge: Any, width_half: int, caption: str = "", move: str = "") -> str:
    """A hidden-pile position: the table, each hand, the cards left (the pile's order is hidden, so they are
    drawn sorted), and what happens next in the turn."""
    note = goal_note(state.rows, challenge, {WON: "won", LOST: "lost"}.get(state.status, ""))
    next_step = _next_step(state)
    parts = [f"<h3>{caption}</h3>" if caption else "", table_svg(state, challenge, width_half, move),
             f"<p class=\"muted\">{note}{'; ' + esc(next_step) if next_step else ''}</p>"]
    for p, hand in enumerate(state.hands):
        parts.append(cards_svg(hand, f"player {p + 1}'s hand" if len(state.hands) > 1 else "the hand"))
    parts.append(cards_svg(state.pile, "pile, order hidden", small=True))
    return "".join(parts)


def _next_step(state: HiddenState) -> str:
    """What the turn does next, in words (empty at a turn to play or a finished game)."""
    if state.status in (WON, LOST):
        return ""
    end = f"row {state.row + 1}, {'left' if state.end == 0 else 'right'} end"
    if state.phase == REVEAL:
        return f"a Redraw was announced at {end}: the top card of the pile turns up next"
    if state.phase == TARGET:
        return f"the Redraw turned up {NAMES.get(state.card, state.card)} at {end}: its target is chosen next"
    if state.phase == DRAW:
        return f"{state.draws} card{'s' if state.draws != 1 else ''} to draw"
    return ""


def policy_html(data: dict[str, Any], source: str, verdict: Any, game: HiddenStrato,
                start: HiddenState) -> tuple[str, str, str]:
    """The title, what the page checked (words) and the body of a policy record's page (``game`` and
    ``start`` rebuilt from its setup).

    The record is replayed as verify replays it (:func:`~stratagem.solvers.mdp.check_policy_dag`: every
    node's state the rules', every move legal, every card with the rules' probability, every leaf's
    result, one move per information state) and its value must be the one it claims: a record that fails
    is bad input, unless ``verdict`` already found it invalid (the page then draws the nodes the replay
    reached and says where it broke)."""
    nodes = [n for n in data.get("nodes") or [] if isinstance(n, dict)]
    by_id = {n.get("id"): n for n in nodes if hashable(n.get("id"))}
    root = nodes[0].get("id") if nodes else None
    values = policy_values(by_id, root)
    claim = data["claim"] if isinstance(data.get("claim"), dict) else {}
    title = _policy_title(claim, verdict)
    challenge = game.challenge
    invalid = getattr(verdict, "status", None) == "invalid"
    check = check_policy_dag(game, start, data.get("nodes"), win_payoff,
                             information=lambda state: game.observation(state, 0))
    broken = check.problem
    if broken and not invalid:
        place, _, problem = broken.partition(": ")
        raise BadInput(source, place, problem)
    claimed = _value(claim.get("win_probability"))
    if not broken and claimed != check.value and not invalid:
        raise BadInput(source, "claim.win_probability", f"the record claims {claim.get('win_probability')!r}; its "
                       f"policy, replayed with the rules, is worth {check.value}")
    checked = ("" if broken else f"the policy replays through the rules with the pile's order hidden (every move "
               f"legal, every card drawn with its probability, every leaf's result, one move per information "
               f"state), and its {len(nodes):,} nodes are worth {probability(check.value)}, as the record claims")
    states = {node_id: state for node_id, state in enumerate(check.states) if state is not None}
    width_half = max([challenge.limit] + [max(len(r.left), len(r.right)) for s in states.values() for r in s.rows])
    value = values.get(root)
    summary = (f"<div class=\"card answer\"><p>Played as this policy plays it, the deal is won with probability "
               f"<b data-value=\"{esc(value)}\">{esc(probability(value))}</b>, as the page computes it from the "
               f"record's {len(nodes):,} nodes. The player sees the table, the hand and which cards are left, "
               "never the pile's order; every card drawn is a chance event.</p></div>")
    body = [summary, f"<p>{esc(describe_challenge(challenge))}</p>"]
    if broken:
        body.append(f"<p><span class=\"bad\">the policy does not replay:</span> {esc(broken)} (the positions from "
                    "there on are not drawn)</p>")
    likeliest = _likeliest(by_id, root)
    if len(likeliest) < 2:
        body += ["<h2>The start</h2>", hidden_panel(start, challenge, width_half)]
    else:  # the replay opens on the start
        panels, moves = [], []
        for k, (move, node_id) in enumerate(likeliest):
            state = states.get(node_id)  # None once the record stops replaying
            caption = "Start of the deal" if k == 0 else f"{_edge_words(move)}"
            if by_id.get(node_id, {}).get("kind") == "cut":
                caption += " &mdash; <b class=\"bad\" data-status=\"cut\">the policy gives up here (counted lost)</b>"
            panels.append(hidden_panel(state, challenge, width_half, caption, move if not move.startswith("draw")
                                       else "") if state is not None else f"<h3>{esc(caption)}</h3>")
            if k:
                moves.append(move)
        body += ["<h2>The likeliest game under this policy</h2><p class=\"muted\">Each draw is the card most likely "
                 "to turn up (the first listed of equally likely ones); every other card's game is in the tree "
                 "below.</p>", replay_frame(f"{len(moves)} step(s)", panels, moves, ident="likeliest", unit="step")]

    by_text = {format_hidden(state): state for state in states.values()}

    def draw(text: str) -> str:
        state = by_text.get(text)
        if state is None:
            return f"<div class=\"mono bad\">{esc(text)} (not replayed: not drawn)</div>"
        if state.phase in (DRAW, REVEAL) and state.status not in (WON, LOST):
            # The position after the move, before its draw: said in words, not drawn again.
            return (f"<div class=\"muted\">after the move, {esc(_next_step(state))} <span class=\"mono\">"
                    f"({esc(text)})</span></div>")
        return hidden_panel(state, challenge, width_half)

    def label(node: dict[str, Any]) -> str:
        kind, worth = node.get("kind"), values.get(node.get("id"))
        words = {"decision": "to play", "chance": "cards to draw", "leaf": "game over", "cut": "given up here, "
                 "counted lost"}.get(str(kind), f"a node of kind {kind!r}")
        if kind == "leaf":
            words = {Fraction(1): "won", Fraction(0): "lost"}.get(worth, "game over") if worth is not None else words
        return (f"<span class=\"val\" data-value=\"{esc(worth if worth is not None else '?')}\">{esc(words)}; "
                f"wins with probability {esc(probability(worth))}</span>")

    def fanout(node: dict[str, Any]) -> str:
        count = len(node.get("children") or [])
        return "one move" if node.get("kind") == "decision" else f"{count} card{'s' if count != 1 else ''} can turn up"

    shaped = {node_id: {**node, "children": [{"move": _edge_text(move, node), "node": child,
                                              **({"probability": str(p)} if p is not None else {})}
                                             for move, child, p in _links(node)]}
              for node_id, node in by_id.items()}
    drawn = draw if len(nodes) <= DRAW_POSITIONS else None
    body += ["<h2>The whole policy</h2><p class=\"muted\">At a decision, the one move the policy plays; at a draw, "
             "each card that can turn up (p: its probability). Each node says the policy's win probability from "
             "there, computed from the record's nodes"
             + (", which this page replayed with the rules (above)" if not broken else "") + ".</p>",
             dag_html([("", root)], shaped, label=label, fanout=fanout, draw=drawn)]
    return title, checked, "".join(body)


def _edge_text(move: str, node: dict[str, Any]) -> str:
    return f"draw {move}" if node.get("kind") == "chance" else move


def _edge_words(move: str) -> str:
    if move.startswith("draw "):
        card = move.split()[1]
        return f"{NAMES.get(card, card)} is drawn"
    return f"The player plays <code>{esc(move)}</code> &mdash; {esc(describe_move(move))}"


def _likeliest(by_id: dict[Any, dict[str, Any]], root: Any) -> list[tuple[str, Any]]:
    """The game the policy plays when each draw is the likeliest card (the first listed of equally likely
    ones): (the edge taken, the node reached), the start first with an empty edge. Every edge is a step: a
    move leads to the position before its draw, a draw to the next position."""
    path: list[tuple[str, Any]] = [("", root)]
    node_id, seen = root, {root}
    while True:
        node = by_id.get(node_id)
        links = [link for link in _links(node) if hashable(link[1])] if node is not None else []
        if not links:
            return path
        if node is not None and node.get("kind") == "chance":
            best = max(range(len(links)), key=lambda i: (links[i][2] or Fraction(0), -i))
            move, child, _ = links[best]
        else:
            move, child, _ = links[0]
        if child in seen:
            return path
        seen.add(child)
        path.append((_edge_text(move, node or {}), child))
        node_id = child


def _policy_title(claim: dict[str, Any], verdict: Any) -> str:
    """The page's title, said no stronger than the record's claims and verify's report of them."""
    claimed = _value(claim.get("win_probability"))
    statuses = {c.claim: c.status for c in getattr(verdict, "claims", [])}
    checked = {"certified": "certified", "invalid": "invalid"}
    words = f"a policy that wins with probability {probability(claimed)}"
    if verdict is None:
        words += " (as the record claims)"
    else:
        words += f" ({checked.get(statuses.get('win_probability', ''), 'not certified')})"
    if claim.get("optimal") is True:
        status = statuses.get("optimal")
        words += (", optimal (certified)" if status == "certified" else ", optimal: invalid" if status == "invalid"
                  else ", claimed optimal")
    return "Strato, pile hidden: " + words


def table_html(data: dict[str, Any], source: str, verdict: Any, game: HiddenStrato,
               start: HiddenState) -> tuple[str, str]:
    """The title and body of a value table's page (``odds --table``): its header's claim, said no stronger
    than verify's report of it, the start and the table's counts. The rows are verify's to check; the page
    reads the header only."""
    claim = data["claim"] if isinstance(data.get("claim"), dict) else {}
    high = _probability(claim, "upper_bound", source, required=True, place="claim")
    low = _probability(claim, "lower_bound", source, place="claim")
    if claim.get("exact") is True and low is not None and low == high:
        words = f"the win probability is exactly {probability(low)}"
    else:
        words = f"the win probability is between {probability(low or Fraction(0))} and {probability(high)}"
    statuses = [c.status for c in getattr(verdict, "claims", [])]
    if verdict is None:
        words += " (as the table claims)"
    elif "invalid" in statuses or getattr(verdict, "status", None) == "invalid":
        words += " (invalid)"
    else:
        words += " (certified)" if statuses and set(statuses) == {"certified"} else " (not certified)"
    counts = [(name, data.get(key)) for name, key in (("rows (information states)", "states"),
                                                      ("policy rows (the lower bound's moves)", "policy"),
                                                      ("frontier rows (upper bound 1, counted lost)", "frontier"),
                                                      ("cut draws (counted lost)", "cut"))]
    rows = [[esc(name), f"{value:,}" if isinstance(value, int) else esc(value)] for name, value in counts
            if value is not None]
    body = [f"<div class=\"card answer\"><p><b>{esc(words)}</b></p><p>A value table is a certificate: "
            "<code>stratagem verify</code> walks it from the start with the rules alone, each decision's value "
            "the best of its moves, each draw's the mean of its cards; this page reads its header only.</p></div>",
            f"<p>{esc(describe_challenge(game.challenge))} Deal <code>{esc(data.get('deal'))}</code> (the header's "
            "name; the game is rebuilt from its setup and start); the pile's order hidden, solo.</p>",
            "<h2>The start</h2>", hidden_panel(start, game.challenge, game.challenge.limit),
            "<h2>The table, as its header counts it</h2><p class=\"muted\">Counts the header states, not checked "
            "(verify counts what it reaches: its report above says so).</p>",
            table(["rows", "how many"], rows, numeric={1}, sortable=False)]
    return f"Strato, pile hidden: {words}", "".join(body)


def odds_report_html(data: dict[str, Any], source: str, game: HiddenStrato, start: HiddenState) -> tuple[str, str]:
    """The title and body of an ``odds`` report's page (``game`` and ``start``: the deal rebuilt from its
    puzzle). Each ranked move is checked legal at the start (bad input otherwise)."""
    status = data.get("status")
    if status not in ("solved", "unknown"):
        raise BadInput(source, "status", f"is {status!r}: an odds report is solved or unknown")
    if data.get("format") == BOUNDS:
        low = _probability(data, "lower_bound", source, required=True)
        high = _probability(data, "upper_bound", source, required=True)
        if status == "solved" and low is not None and low == high:
            words, tone = f"wins with probability {probability(low)}, exactly", "ok"
        else:
            words, tone = f"unknown: between {probability(low)} and {probability(high)}", "warn"
        how = ("the compiled search's answer, as the report states it; its value table "
               + (f"<code>{esc(data['table'])}</code> is the certificate <code>stratagem verify</code> checks"
                  if data.get("table") else f"was not written ({esc(data.get('table_note') or 'no table')})"))
        states, cpu = data.get("states"), data.get("cpu_seconds")
        facts = [", ".join(([f"{states:,} states kept by the optimum's search"] if isinstance(states, int) else [])
                           + ([f"{cpu} CPU s"] if isinstance(cpu, int | float) else []))]
    else:
        value = _probability(data, "win_probability", source, required=status == "solved")
        low = _probability(data, "lower_bound", source, required=True)
        if status == "solved" and value is not None:
            words, tone = f"wins with probability {probability(value)}, exactly", "ok"
            search = str(data.get("search") or "exhaustive expectimax")  # reports before stop 71 do not name it
            how = (f"the {esc(search)} over {data.get('states', 0):,} states (a search the report states; "
                   "the <code>--proof</code> policy record is what <code>stratagem verify</code> checks)")
        else:
            made_by = str(data.get("lower_bound_from"))
            source_words = ("no policy was valued before the limit: the lower bound is the trivial 0"
                            if made_by == "none" else f"the lower bound is the {made_by}'s exact value")
            words, tone = f"unknown: at least {probability(low)}", "warn"
            how = f"stopped by the {esc(data.get('stopped_by'))}; {esc(source_words)}"
        greedy = _probability(data, "greedy", source)
        facts = [f"greedy agent: {probability(greedy)}" if greedy is not None else ""]
    title = f"Strato, pile hidden: {words}"
    body = [f"<div class=\"card answer\"><p><b class=\"{tone}\" data-answer=\"{esc(status)}\">{esc(words)}</b></p>"
            f"<p>{how}</p>" + "".join(f"<p class=\"muted\">{esc(f)}</p>" for f in facts if f) + "</div>",
            f"<p>{esc(describe_challenge(game.challenge))} Deal <code>{esc(data.get('deal'))}</code>; "
            f"{esc(data.get('information', ''))}.</p>", "<h2>The start</h2>",
            hidden_panel(start, game.challenge, game.challenge.limit)]
    ranking = [entry for entry in data.get("ranking") or [] if isinstance(entry, dict)]
    if ranking:
        rows = []
        for k, entry in enumerate(ranking):
            move = str(entry.get("move"))
            try:
                game.parse_move(start, move)
            except (NotationError, ValueError) as exc:
                raise BadInput(source, f"ranking[{k}].move", f"{move!r} is not a legal first move: {exc}") from None
            worth = _probability(entry, "win_probability", source, required=True, place=f"ranking[{k}]")
            rows.append([str(k + 1), f"<code>{esc(move)}</code>", esc(describe_move(move)), esc(probability(worth)),
                         _bar(worth)])
        which = ("every first move" if data.get("ranked") else
                 f"the first moves valued before the {esc(data.get('ranking_stopped_by'))} stopped the ranking"
                 if data.get("ranking_stopped_by") else "the best first move")
        _check_ranking(data, ranking, value if data.get("format") != BOUNDS and status == "solved" else None, source)
        worths = [float(_value(entry.get("win_probability")) or 0) for entry in ranking]
        body += [f"<h2>First moves</h2><p class=\"muted\">{which}, with its exact win probability when the rest "
                 "is played best.</p>",
                 table(["#", "move", "in words", "win probability", "as a bar"], rows, numeric={0, 3},
                       sort_keys={3: worths, 4: worths})]
    steps = data.get("steps")
    if isinstance(steps, list) and steps:
        body.append("<h2>What the search did</h2><ol>" + "".join(f"<li>{esc(s)}</li>" for s in steps) + "</ol>")
    return title, "".join(body)


def _check_ranking(data: dict[str, Any], ranking: list[dict[str, Any]], value: Fraction | None, source: str) -> None:
    """Refuse a solved report whose first moves contradict its value: the start is the solo player's
    decision, so no move is worth more than it, and the best of every move (``ranked``), or the one best
    move a report without a ranking gives, is worth it exactly. A page drew "wins with probability 3/4,
    exactly" above a table whose best move was worth 2/3. ``value``: the solved report's, else nothing
    is checked (a stopped ranking holds only the moves valued before the limit)."""
    if value is None:
        return
    worths = [_value(entry.get("win_probability")) for entry in ranking]
    for k, worth in enumerate(worths):
        if worth is not None and worth > value:
            raise BadInput(source, f"ranking[{k}].win_probability", f"{probability(worth)} is above the report's "
                           f"win_probability {probability(value)}: no first move is worth more than the start")
    complete = bool(data.get("ranked")) or not data.get("ranking_stopped_by")
    best = max((w for w in worths if w is not None), default=None)
    if complete and best is not None and best != value:
        raise BadInput(source, "win_probability", f"is {probability(value)}, but the best first move of the report's "
                       f"ranking is worth {probability(best)}: the start's value is its best move's")


def _probability(data: dict[str, Any], key: str, source: str, *, required: bool = False,
                 place: str = "") -> Fraction | None:
    """``data[key]``, a probability written as an exact fraction in [0, 1] (None when absent and not
    ``required``); bad input otherwise, named ``place.key``."""
    text = data.get(key)
    where = f"{place}.{key}" if place else key
    if text is None and not required:
        return None
    value = _value(text)
    if value is None or not 0 <= value <= 1:
        raise BadInput(source, where, f"{text!r} is not a probability (an exact fraction from 0 to 1)")
    return value


def _bar(value: Fraction | None) -> str:
    """A probability as a bar 160 px wide at 1."""
    if value is None:
        return ""
    width = round(160 * float(value), 1)
    return (f"<svg width=\"164\" height=\"14\" viewBox=\"0 0 164 14\" role=\"img\" aria-label=\"{float(value):.4f}\">"
            f"<rect x=\"0\" y=\"2\" width=\"160\" height=\"10\" fill=\"none\" stroke=\"{INK}\" "
            "stroke-opacity=\"0.25\"/>"
            f"<rect x=\"0\" y=\"2\" width=\"{width}\" height=\"10\" fill=\"{MOVE}\"/></svg>")


def odds_start(data: dict[str, Any], source: str) -> tuple[HiddenStrato, HiddenState]:
    """The deal of an ``odds`` report, rebuilt from the puzzle it names (its start must be the deal's, or,
    for a ``--position``, a position of the puzzle's challenge)."""
    from stratagem.winprobability import odds_deal

    puzzle, deal = data.get("puzzle"), data.get("deal")
    if not isinstance(puzzle, str):
        raise BadInput(source, "puzzle", "missing: the report names no puzzle file to rebuild the deal from")
    text = data.get("start")
    if not isinstance(text, str):
        raise BadInput(source, "start", "missing or not a string")
    try:
        start = parse_hidden(text)
    except (NotationError, ValueError) as exc:
        raise BadInput(source, "start", f"not a hidden-pile position: {exc}") from None
    if len(start.hands) != 1 or start.phase != PLAY or start.status != ONGOING:
        raise BadInput(source, "start", "an odds report's start is a solo player's turn to play")
    seeded = re.fullmatch(r"seed-([0-9]+)", deal) if isinstance(deal, str) else None
    try:
        if deal == "position":
            loaded = load_strato(puzzle)
            try:
                check_position(loaded.challenge, State(start.rows, start.hands, start.pile, start.to_move,
                                                       start.last, ONGOING))
            except DealError as exc:
                raise BadInput(source, "start", str(exc)) from None
            return HiddenStrato(loaded.challenge, loaded.options, start), start
        try:
            found = odds_deal(puzzle, deal if isinstance(deal, str | int) else None)
        except BadInput:
            if seeded is None:
                raise
            found = odds_deal(puzzle, int(seeded[1]))  # a seeded deal is named seed-N, not in the file
    except BadInput as exc:
        if exc.source == source:
            raise
        raise BadInput(source, "puzzle", f"cannot rebuild the deal: {exc}") from None
    game = HiddenStrato(found.challenge, found.game.options, found.start)
    if hide(found.start) != start:
        raise BadInput(source, "start", f"is not the start of {puzzle}'s deal {deal} (hidden: "
                       f"{text!r} against the deal's)")
    return game, start
