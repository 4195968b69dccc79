"""Rows, positions and their text notation.

A row is ``left half-row | left tornado | right tornado | right half-row``. Each half-row is stored as a
string read *outward from its tornado* (index 0 touches the tornado), because every rule and every
victory condition counts from the tornado. On the table and in the notation a row reads left to
right: ``RW(RW)RW`` is rain, wind, rain tornado, wind tornado, rain, wind (docs/rules/strato.md).

A :class:`State` is everything play depends on with open information: the rows, every hand (a sorted
string of weathers: cards of one weather are interchangeable), the draw pile top first, the player to
move, the weather the last played card resolved as (for Cloud) and whether the game is won or lost.
States are immutable tuples, so they hash fast and can be shared freely.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from stratagem.core.callcaches import per_call
from stratagem.core.errors import NotationError
from stratagem.core.notation import check_notation_text
from stratagem.models.strato.rules.cards import WEATHERS

LEFT, RIGHT = 0, 1
SIDE_LETTERS = "LR"

ONGOING, WON, LOST = 0, 1, -1
STATUS_WORDS = {WON: "won", LOST: "lost"}


class Row(NamedTuple):
    """One row: its tornado pair and its two half-rows (each read outward from its tornado)."""

    left_tornado: str
    right_tornado: str
    left: str
    right: str

    def half(self, side: int) -> str:
        return self.left if side == LEFT else self.right

    def with_half(self, side: int, cards: str) -> Row:
        if side == LEFT:
            return Row(self.left_tornado, self.right_tornado, cards, self.right)
        return Row(self.left_tornado, self.right_tornado, self.left, cards)


class State(NamedTuple):
    """A Strato position with open information."""

    rows: tuple[Row, ...]
    hands: tuple[str, ...]
    pile: str
    to_move: int
    last: str
    status: int = ONGOING


class Coord(NamedTuple):
    """A card's place: row index, side (LEFT/RIGHT) and distance (0 = touching the tornado)."""

    row: int
    side: int
    dist: int

    def __str__(self) -> str:
        return f"{self.row + 1}{SIDE_LETTERS[self.side]}{self.dist + 1}"


_ROW_RE = re.compile(r"^([A-Z]*)\(([A-Z])([A-Z])\)([A-Z]*)$")
_COORD_RE = re.compile(r"^([1-9])([LR])([1-9][0-9]?)$")


def format_row(row: Row) -> str:
    """``RW(RW)RW``: the row as it lies on the table, left to right."""
    return f"{row.left[::-1]}({row.left_tornado}{row.right_tornado}){row.right}"


def parse_row(text: str) -> Row:
    """Inverse of :func:`format_row`."""
    check_notation_text(text)
    match = _ROW_RE.match(text.strip())
    if not match:
        raise NotationError(f"row {text!r} is not of the form LEFT(TT)RIGHT, e.g. RW(RW)RW")
    left, lt, rt, right = match.groups()
    for letter in left + lt + rt + right:
        if letter not in WEATHERS:
            raise NotationError(f"unknown weather letter {letter!r} in row {text!r} (use {''.join(WEATHERS)})")
    return Row(lt, rt, left[::-1], right)


@per_call
@lru_cache(maxsize=1 << 16)
def format_rows(rows: tuple[Row, ...]) -> str:
    """Rows separated by ``/`` (remembered: a value table's check formats the same table under many hands
    and piles; until the library call ends, :mod:`stratagem.core.callcaches`)."""
    return "/".join(format_row(row) for row in rows)


@per_call
@lru_cache(maxsize=1 << 16)
def parse_rows(text: str) -> tuple[Row, ...]:
    """Inverse of :func:`format_rows` (remembered: a value table lists the same table under many hands and
    piles, and ``verify`` parses every row; until the library call ends, :mod:`stratagem.core.callcaches`)."""
    if not text.strip():
        raise NotationError("no rows given")
    return tuple(parse_row(part) for part in text.strip().split("/"))


def format_coord(coord: Coord) -> str:
    """``1L3``: row 1, left half-row, third card from the tornado."""
    return str(coord)


def parse_coord(text: str) -> Coord:
    """Inverse of :func:`format_coord`."""
    match = _COORD_RE.match(text)
    if not match:
        raise NotationError(f"place {text!r} is not ROW SIDE DISTANCE, e.g. 1L3")
    return Coord(int(match.group(1)) - 1, SIDE_LETTERS.index(match.group(2)), int(match.group(3)) - 1)


def _format_cards(cards: str) -> str:
    return cards if cards else "-"


def _parse_cards(text: str, what: str) -> str:
    if text == "-":
        return ""
    if not text:  # "RR," read as a second, empty hand: more likely a hand left out than one played out
        raise NotationError(f"{what} is written as nothing: write - when it holds no card")
    for letter in text:
        if letter not in WEATHERS:
            raise NotationError(f"unknown weather letter {letter!r} in {what} {text!r}")
    return text


def format_state(state: State) -> str:
    """``ROWS HANDS PILE PLAYER LAST [won|lost]``.

    ``RW(RW)RW RRW,WW WRWR 1 -``: rows; hands separated by commas (``-`` for an empty hand); the draw
    pile top first (``-`` when empty); the player to move counted from 1; the weather the last card
    resolved as (``-`` for none); and ``won`` or ``lost`` once the game has ended.
    """
    fields = [
        format_rows(state.rows),
        ",".join(_format_cards(hand) for hand in state.hands),
        _format_cards(state.pile),
        str(state.to_move + 1),
        state.last or "-",
    ]
    if state.status != ONGOING:
        fields.append(STATUS_WORDS[state.status])
    return " ".join(fields)


def parse_state(text: str) -> State:
    """Inverse of :func:`format_state`."""
    check_notation_text(text)
    fields = text.split()
    if len(fields) not in (5, 6):
        raise NotationError(
            f"a position has 5 or 6 fields (ROWS HANDS PILE PLAYER LAST [won|lost]), found {len(fields)}"
        )
    rows = parse_rows(fields[0])
    # A hand is a multiset: read in any order, kept sorted.
    hands = tuple("".join(sorted(_parse_cards(h, f"hand {i + 1}"))) for i, h in enumerate(fields[1].split(",")))
    if not 1 <= len(hands) <= 4:
        raise NotationError(f"{len(hands)} hands: Strato is played by 1 to 4 players")
    pile = _parse_cards(fields[2], "draw pile")
    if not (fields[3].isascii() and fields[3].isdigit()) or not 1 <= int(fields[3]) <= len(hands):
        raise NotationError(f"player to move {fields[3]!r} must be a number from 1 to {len(hands)}")
    last = "" if fields[4] == "-" else fields[4]
    if last and (last not in WEATHERS or last == "C"):
        raise NotationError(f"last resolved weather {fields[4]!r} must be one of WRSFT or -")
    status = ONGOING
    if len(fields) == 6:
        words = {word: code for code, word in STATUS_WORDS.items()}
        if fields[5] not in words:
            raise NotationError(f"game status {fields[5]!r} must be 'won' or 'lost'")
        status = words[fields[5]]
    return State(rows, hands, pile, int(fields[3]) - 1, last, status)
