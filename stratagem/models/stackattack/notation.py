"""Move notation.

Four kinds of move:

- at a simultaneous node, one player's choice is a card number (``37``); the joint move, one card per
  player in player order, is the turn's **reveal**: ``37,12,5``;
- an in-turn decision of one player is a letter and a number (:class:`Choice`): ``T2`` take row 2
  (a card lower than every open row, or whose row is blocked), ``P2`` place a Shield in row 2 taking
  nothing (same situations), ``B3`` block row 3 for this turn, ``S41`` swap the Switch card with the
  revealed card 41 (held by another player);
- a chance outcome while a round is dealt is ``D37``: card 37 is dealt to the next place (hands in
  player order, 10 cards each, then the four rows).

Rows are numbered from 1 in the notation and from 0 inside :class:`Choice`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from stratagem.core.errors import NotationError
from stratagem.core.notation import check_notation_text

TAKE, SHIELD_PLACE, BLOCK_ROW, SWAP, DEAL = "T", "P", "B", "S", "D"
ROW_KINDS = (TAKE, SHIELD_PLACE, BLOCK_ROW)
KINDS = (TAKE, SHIELD_PLACE, BLOCK_ROW, SWAP, DEAL)


class Choice(NamedTuple):
    """An in-turn decision or a dealt card: ``kind`` (one of KINDS) and a row index or card number."""

    kind: str
    value: int


#: A card (one player's simultaneous choice), a joint reveal (one card per player) or a Choice.
Move = int | tuple[int, ...] | Choice

_CHOICE_RE = re.compile(r"^([TPBSD])([1-9][0-9]*)$")


def format_choice(choice: Choice) -> str:
    value = choice.value + 1 if choice.kind in ROW_KINDS else choice.value
    return f"{choice.kind}{value}"


def format_move(move: Move) -> str:
    """``37``, ``37,12,5``, ``T2``, ``P2``, ``B3``, ``S41`` or ``D37``."""
    if isinstance(move, Choice):
        return format_choice(move)
    if isinstance(move, tuple):
        return ",".join(str(c) for c in move)
    return str(move)


def _card(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or text.startswith("0"):
        raise NotationError(f"{text!r} is not a card number")
    return int(text)


def parse_move(text: str) -> Move:
    """Inverse of :func:`format_move` (shape only; the game checks legality)."""
    check_notation_text(text)
    text = text.strip()
    match = _CHOICE_RE.match(text)
    if match:
        kind, number = match.group(1), int(match.group(2))
        return Choice(kind, number - 1 if kind in ROW_KINDS else number)
    if " " in text:  # "37, 12" was read as the reveal 37,12: a move is one word, as every game's is
        if text[:1].isalpha():
            raise NotationError(f"move {text!r} holds a space: a decision is its letter and number alone, e.g. T2")
        raise NotationError(f"move {text!r} holds a space: a reveal joins its cards with commas alone, e.g. 37,12,5")
    if "," in text:
        return tuple(_card(part) for part in text.split(","))
    if text[:1].isalpha():
        raise NotationError(f"move {text!r}: a decision is T, P, B (row) or S, D (card) and a number, e.g. T2")
    return _card(text)
