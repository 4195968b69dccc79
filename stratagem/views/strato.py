"""A Strato line as it looks on the table: every row as cards around its tornado pair, each player's hand
and the draw pile, turn by turn, the card just played and where its action took effect highlighted, and
the rows that meet the goal marked.

The positions are not read from the record: they are rebuilt by replaying its moves with the rules
engine (the caller hands in the engine's states), so a page never shows a table the rules do not give.
The highlight is read from the move's text (its row and end, and the places its target names) and drawn
on the engine's position after the move.

A drawing is an image to assistive technology, so each says its position in its label as the text output
draws it (``row 1: R W [R|W] S``, ``player 1 (to move): W R C``): the cards, not only "the table".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from stratagem.views.page import GOAL, INK, MOVE, MUTED, esc, replay_frame

#: Weather letters and their names (docs/formats.md section 2.1), and the colours cards are drawn in. A
#: card's letter is drawn in its ``EDGE`` colour on its ``FILL`` (13 px bold on the pile's small cards) and
#: a tornado's in white on its ``EDGE``: every pair is at least 4.5:1 (WCAG AA for text of any size; Wind's
#: and Sun's letters were 2.9:1, their tornadoes' 3.3-3.4:1).
NAMES = {"W": "Wind", "R": "Rain", "S": "Sun", "F": "Fog", "C": "Cloud", "T": "Storm"}
FILL = {"W": "#d7f3f7", "R": "#d6e4ff", "S": "#fff1b8", "F": "#e9ecef", "C": "#f3d9fa", "T": "#ffd8d8"}
EDGE = {"W": "#0b7285", "R": "#1c5fd4", "S": "#8a6100", "F": "#5c636a", "C": "#862e9c", "T": "#b02525"}

CARD_W, CARD_H, GAP, LABEL = 34, 46, 4, 62
#: Room for "player 1 (to move)" before a hand's cards.
HAND_LABEL = 150
_MOVE = re.compile(r"^(!?)([A-Z])([1-9][0-9]?)([LR])(?::(.*))?$")
_PLACE = re.compile(r"([1-9][0-9]?)([LR])([1-9][0-9]?)")
_ANNOUNCE = re.compile(r"!([1-9][0-9]?)([LR])")


def card_svg(x: float, y: float, letter: str, mark: str = "", small: bool = False) -> str:
    """One card: a rounded rectangle in its weather's colour with its letter (``mark``: ``played`` draws a
    thick outline, ``target`` a dashed one)."""
    w, h = (22, 30) if small else (CARD_W, CARD_H)
    outline = ""
    if mark == "played":
        outline = f"<rect x=\"{x - 3}\" y=\"{y - 3}\" width=\"{w + 6}\" height=\"{h + 6}\" rx=\"7\" fill=\"none\" " \
                  f"stroke=\"{MOVE}\" stroke-width=\"3\"/>"
    elif mark == "target":
        outline = f"<rect x=\"{x - 3}\" y=\"{y - 3}\" width=\"{w + 6}\" height=\"{h + 6}\" rx=\"7\" fill=\"none\" " \
                  f"stroke=\"{MOVE}\" stroke-width=\"2\" stroke-dasharray=\"4 3\"/>"
    size = 13 if small else 19
    data = f' data-mark="{mark}"' if mark else ""
    return (f"<g class=\"card\" data-card=\"{letter}\"{data}>"
            f"<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"5\" fill=\"{FILL.get(letter, '#fff')}\" "
            f"stroke=\"{EDGE.get(letter, INK)}\" stroke-width=\"1.5\"/>{outline}"
            f"<text x=\"{x + w / 2}\" y=\"{y + h / 2 + size * 0.36}\" text-anchor=\"middle\" font-size=\"{size}\" "
            f"font-weight=\"700\" fill=\"{EDGE.get(letter, INK)}\" font-family=\"DejaVu Sans, sans-serif\">"
            f"{esc(letter)}</text></g>")


def highlights(move: str) -> tuple[tuple[int, int] | None, set[tuple[int, int, int]]]:
    """From a move's text: the (row, side) whose outer end the card went to, and the places (row, side,
    distance; all from 0) its action left a card at. Sun's target is gone after the move: not drawn."""
    found = _MOVE.match(move)
    if found is None:
        return None, set()
    _, _letter, row, end, target = found.groups()
    places: set[tuple[int, int, int]] = set()
    if target and ">" in target:
        parts = target.split("<>") if "<>" in target else target.split(">")[1:]
        for part in parts:
            place = _PLACE.fullmatch(part.strip())
            if place:
                places.add((int(place[1]) - 1, "LR".index(place[2]), int(place[3]) - 1))
    return (int(row) - 1, "LR".index(end)), places


def describe_move(move: str) -> str:
    """A move in words: ``Wind to row 1, right end; the card at 1R2 moves to 1R1``; with the pile hidden, a
    Redraw's announcement (``!1L``) too."""
    announced = _ANNOUNCE.fullmatch(move)
    if announced:
        return f"announces a Redraw at row {announced[1]}, {'left' if announced[2] == 'L' else 'right'} end"
    found = _MOVE.match(move)
    if found is None:
        return move
    redraw, letter, row, end, target = found.groups()
    words = f"{NAMES.get(letter, letter)} to row {row}, {'left' if end == 'L' else 'right'} end"
    if redraw:
        words = "Redraw: the top card of the pile, " + words
    if not target:
        return words + "; no effect"
    if "<>" in target:
        a, b = target.split("<>")
        return words + f"; the cards at {a} and {b} change places"
    if ">" in target:
        a, b = target.split(">")
        return words + f"; the card at {a} ends up at {b}"
    return words + f"; the card at {target} is discarded"


def row_text(row: Any) -> str:
    """A row as the text output draws it, left to right, without its free places: ``R W [R|W] S``."""
    return " ".join(part for part in (" ".join(row.left[::-1]), f"[{row.left_tornado}|{row.right_tornado}]",
                                      " ".join(row.right)) if part)


def table_text(state: Any, challenge: Any) -> str:
    """The rows in words for the drawing's label: ``the table: row 1: R W [R|W] S, meets the goal; ...``."""
    rows = [f"row {r + 1}: {row_text(row)}{', meets the goal' if challenge.goal.met(row) else ''}"
            for r, row in enumerate(state.rows)]
    return "the table: " + "; ".join(rows)


def table_svg(state: Any, challenge: Any, width_half: int, move: str = "") -> str:
    """The rows of ``state`` as cards, ``width_half`` places on each side of the tornadoes, labelled with
    :func:`table_text`. It sits in a box that scrolls sideways: on a narrow screen the drawing is shrunk no
    further than 480 px (page.py), as at 375 px its row labels were 6 px and its letters 9 px."""
    placed, targets = highlights(move) if move else (None, set())
    step = CARD_W + GAP
    centre = LABEL + width_half * step
    height = len(state.rows) * (CARD_H + 18) + 6
    width = centre + 2 * step + width_half * step + 40
    parts = [f"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"table\" width=\"{width}\" height=\"{height}\" "
             f"viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{esc(table_text(state, challenge))}\">"]
    for r, row in enumerate(state.rows):
        y = 6 + r * (CARD_H + 18)
        met = challenge.goal.met(row)
        eligible = challenge.goal.eligible(row)
        parts.append(f"<g class=\"row\" data-row=\"{r + 1}\" data-goal=\"{'met' if met else 'open'}\">")
        if met:
            parts.append(f"<rect x=\"2\" y=\"{y - 4}\" width=\"{width - 4}\" height=\"{CARD_H + 8}\" rx=\"8\" "
                         f"fill=\"#e6f4ea\" stroke=\"{GOAL}\" stroke-width=\"2\"/>")
        parts.append(f"<text x=\"8\" y=\"{y + CARD_H / 2 + 5}\" font-size=\"13\" fill=\"{INK}\">row {r + 1}</text>")
        if eligible and challenge.goal.tornadoes:
            parts.append(f"<text x=\"8\" y=\"{y + CARD_H / 2 + 19}\" font-size=\"10\" fill=\"{MUTED}\">goal row"
                         "</text>")
        for side, half in ((0, row.left), (1, row.right)):
            for slot in range(max(width_half, len(half))):
                x = centre - (slot + 1) * step if side == 0 else centre + 2 * step + slot * step
                if slot >= len(half):
                    if slot < challenge.limit:
                        parts.append(f"<rect x=\"{x}\" y=\"{y}\" width=\"{CARD_W}\" height=\"{CARD_H}\" rx=\"5\" "
                                     "fill=\"none\" stroke=\"#c5ccd3\" stroke-dasharray=\"3 3\"/>")
                    continue
                mark = ""
                if placed == (r, side) and slot == len(half) - 1:
                    mark = "played"
                elif (r, side, slot) in targets:
                    mark = "target"
                parts.append(card_svg(x, y, half[slot], mark))
        for k, tornado in enumerate((row.left_tornado, row.right_tornado)):
            x = centre + k * step
            parts.append(f"<rect x=\"{x}\" y=\"{y - 2}\" width=\"{CARD_W}\" height=\"{CARD_H + 4}\" rx=\"16\" "
                         f"fill=\"{EDGE.get(tornado, INK)}\"/><text x=\"{x + CARD_W / 2}\" y=\"{y + CARD_H / 2 + 6}\" "
                         f"text-anchor=\"middle\" font-size=\"17\" font-weight=\"700\" fill=\"#fff\" "
                         f"font-family=\"DejaVu Sans, sans-serif\">{esc(tornado)}</text>")
        if met:
            parts.append(f"<text class=\"goal-mark\" x=\"{width - 34}\" y=\"{y + CARD_H / 2 + 7}\" font-size=\"20\" "
                         f"fill=\"{GOAL}\" font-weight=\"700\">&#x2713;</text>")
        parts.append("</g>")
    parts.append("</svg>")
    return f"<div class=\"scroll\">{''.join(parts)}</div>"


def cards_svg(cards: str, label: str, small: bool = False, limit: int = 40) -> str:
    """A hand or the pile: its cards in a line (the first ``limit``; the pile top first), labelled with every
    card. On a narrow screen the line keeps its size and scrolls sideways in its box (a pile of 25 shrunk to
    375 px had 5 px letters)."""
    w = 22 if small else CARD_W
    shown = cards[:limit]
    start = HAND_LABEL
    width = start + (len(shown) * (w + 3) if cards else 60) + (40 if len(cards) > limit else 0)
    height = (30 if small else CARD_H) + 6
    parts = [f"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"cards\" width=\"{width}\" height=\"{height}\" "
             f"viewBox=\"0 0 {width} {height}\" role=\"img\" "
             f"aria-label=\"{esc(label)}: {esc(' '.join(cards) or '(empty)')}\">",
             f"<text x=\"0\" y=\"{height / 2 + 4}\" font-size=\"13\" fill=\"{INK}\">{esc(label)}</text>"]
    for i, letter in enumerate(shown):
        parts.append(card_svg(start + i * (w + 3), 3, letter, small=small))
    if not cards:
        parts.append(f"<text x=\"{start}\" y=\"{height / 2 + 4}\" font-size=\"13\" fill=\"{MUTED}\">(empty)</text>")
    if len(cards) > limit:
        parts.append(f"<text x=\"{width - 36}\" y=\"{height / 2 + 4}\" font-size=\"12\" fill=\"{MUTED}\">"
                     f"+{len(cards) - limit}</text>")
    parts.append("</svg>")
    return f"<div class=\"scroll\">{''.join(parts)}</div>"


def goal_note(rows: Sequence[Any], challenge: Any, status: str) -> str:
    """Under a drawing of ``rows``: how many rows meet the goal, and (``status`` ``won`` or ``lost``, else
    empty) how the game stands, marked for the page's script and tests (``data-status``)."""
    meeting = sum(1 for row in rows if challenge.goal.met(row))
    return (f"{meeting} of {challenge.rows_required} required row(s) meet the goal"
            + (f"; the game is <b class=\"{'ok' if status == 'won' else 'bad'}\" data-status=\"{status}\">"
               f"{status}</b>" if status else ""))


def panel(state: Any, challenge: Any, width_half: int, turn: int, move: str, player: int) -> str:
    """One step of the replay: a caption, the table, the hands and the pile."""
    if turn == 0:
        caption = "Start of the deal"
    else:
        caption = f"Turn {turn}: player {player} plays <code>{esc(move)}</code> &mdash; {esc(describe_move(move))}"
    parts = [f"<h3>{caption}</h3>", table_svg(state, challenge, width_half, move),
             f"<p class=\"muted\">{goal_note(state.rows, challenge, {1: 'won', -1: 'lost'}.get(state.status, ''))}</p>"]
    for p, hand in enumerate(state.hands):
        arrow = " (to move)" if p == state.to_move and not state.status else ""
        parts.append(cards_svg(hand, f"player {p + 1}{arrow}"))
    parts.append(cards_svg(state.pile, f"pile ({len(state.pile)}, top first)", small=True))
    return "".join(parts)


def strato_replay(challenge: Any, states: Sequence[Any], moves: Sequence[str], ident: str = "replay",
                  print_every: bool = True) -> str:
    """The stepping replay of a Strato line: ``states[k]`` is the engine's position after ``moves[:k]``
    (``print_every``: as :func:`~stratagem.views.page.replay_frame`)."""
    width_half = max([challenge.limit] + [max(len(r.left), len(r.right)) for s in states for r in s.rows])
    panels = [panel(state, challenge, width_half, k, moves[k - 1] if k else "",
                    states[k - 1].to_move + 1 if k else 0) for k, state in enumerate(states)]
    return replay_frame(f"{len(moves)} turn(s)", panels, list(moves), ident, print_every=print_every)


def describe_challenge(challenge: Any) -> str:
    """The challenge card in words."""
    goal = challenge.goal
    halves = []
    for name, half in (("left", goal.left), ("right", goal.right)):
        halves.append(f"the {name} half-row {half.describe() if half is not None else 'anything'}")
    which = f" (rows with tornadoes {goal.tornadoes})" if goal.tornadoes else ""
    return (f"{challenge.name} (level {challenge.level}): weathers {challenge.weathers}, at most {challenge.limit} "
            f"cards a half-row; {challenge.rows_required} of {challenge.rows} row(s){which} must have "
            + " and ".join(halves) + ".")


__all__ = ["NAMES", "card_svg", "describe_challenge", "describe_move", "goal_note", "highlights", "row_text",
           "strato_replay", "table_text"]
