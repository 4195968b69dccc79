"""Move notation.

``[!]CARD ROW END [:TARGET]``, e.g. ``R1L`` (rain at the left end of row 1, no effect), ``W1R:1R2>1R1``
(wind at the right end of row 1; the card 2nd from the right tornado moves next to it),
``!S2L:2R1`` (Redraw at the left end of row 2; the revealed top card is a sun, which discards 2R1).

Places are ``ROW SIDE DISTANCE`` (:func:`~stratagem.models.strato.rules.position.format_coord`). Targets:
``A`` for Sun (the discarded card); ``A>B`` when one card moves and ends up at B (Wind, Rain, Fog into
an empty place of the column); ``A<>B`` when two cards exchange places (Fog, Storm), in either order.
A Cloud's target has the form of the weather it copies.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from stratagem.core.callcaches import per_call
from stratagem.core.errors import NotationError
from stratagem.core.notation import check_notation_text
from stratagem.models.strato.rules.actions import Target
from stratagem.models.strato.rules.cards import WEATHERS
from stratagem.models.strato.rules.position import SIDE_LETTERS, Coord, format_coord, parse_coord


class Move(NamedTuple):
    """A play: the card's weather (for a Redraw, the revealed top card), row, end and target choice.

    ``target`` is empty when the action has no effect; ``exchange`` is true when its two places swap
    (Fog, Storm) rather than one card moving (Wind, Rain, Fog into an empty place), so the notation
    can show which.
    """

    card: str
    row: int
    end: int
    target: Target = ()
    redraw: bool = False
    exchange: bool = False


_MOVE_RE = re.compile(r"^(!?)([A-Z])([1-9])([LR])(?::(.+))?$")


@per_call
@lru_cache(maxsize=1 << 16)
def format_move(move: Move) -> str:
    """The move as text; see the module docstring. Remembered, as :func:`parse_move` is: a designer graph
    labels each of its edges, and the same few thousand moves label hundreds of thousands of them."""
    text = f"{'!' if move.redraw else ''}{move.card}{move.row + 1}{SIDE_LETTERS[move.end]}"
    if move.target:
        joiner = "<>" if move.exchange else ">"
        text += ":" + joiner.join(format_coord(c) for c in move.target)
    return text


@per_call
@lru_cache(maxsize=1 << 16)
def parse_move(text: str) -> Move:
    """Inverse of :func:`format_move` (syntax only; legality is the rules engine's job). Remembered: the
    moves of a value table's policy rows repeat (until the library call ends, :mod:`stratagem.core.callcaches`)."""
    check_notation_text(text)
    match = _MOVE_RE.match(text.strip())
    if not match:
        raise NotationError(f"move {text!r} is not of the form [!]CARD ROW END[:TARGET], e.g. W1R:1R2>1R1")
    bang, card, row, end, target_text = match.groups()
    if card not in WEATHERS:
        raise NotationError(f"unknown weather letter {card!r} in move {text!r} (use {''.join(WEATHERS)})")
    target: tuple[Coord, ...] = ()
    if target_text:
        parts = re.split(r"<>|>", target_text)
        if len(parts) > 2 or not all(parts):
            raise NotationError(f"target {target_text!r} of move {text!r} must be A, A>B or A<>B")
        target = tuple(parse_coord(p) for p in parts)
    exchange = "<>" in (target_text or "")
    return Move(card, int(row) - 1, SIDE_LETTERS.index(end), target, bool(bang), exchange)
