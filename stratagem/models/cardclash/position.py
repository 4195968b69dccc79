"""Positions and moves of Card Clash, and their text notation.

A :class:`State` is everything play depends on with open information: the battlefield, every hand (a
sorted string of ranks: a hand holds its owner's colour only), every draw pile (top first), the player
to move, how many players in a row have passed, the cards the strategic variant took off the table,
the winners once the round is over, and the round number with the flags won in earlier rounds. States
are immutable tuples, so they hash fast and can be shared freely.

Notation (``docs/formats.md, section 8``)::

    BATTLEFIELD HANDS PILES PLAYER [passes=N] [out=CARDS] [round=N] [flags=F,F,..] [won=P,..]

``r6,b5/r2,. 2346,25BX 3B,44 1``: a red Marshal and a blue General in the top row, a red Scout
under the Marshal in the row below; red holds 2346 and blue 25BX, red's pile is a Sergeant then a
Bomb, blue's two Majors. Hands and piles are comma-separated per player (``-`` when empty), piles
top first; the player to move counts from 1. Optional fields are written only when they differ from their default.

A move is ``r6@x,y`` (the mover's colour and rank, then the cell in the battlefield's coordinates,
which may be -1 or one past the edge to grow it) or ``pass``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from stratagem.core.errors import NotationError
from stratagem.core.notation import check_notation_text
from stratagem.models.cardclash.battlefield import Board, format_board, parse_board
from stratagem.models.cardclash.cards import COLOURS, MAX_PLAYERS, MIN_PLAYERS, RANKS, sort_ranks


class State(NamedTuple):
    """A Card Clash position with open information (one round; see rules.py)."""

    board: Board
    hands: tuple[str, ...]
    piles: tuple[str, ...]
    to_move: int
    passes: int = 0
    removed: str = ""
    winners: tuple[int, ...] = ()
    round: int = 1
    flags: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return len(self.hands)


class Move(NamedTuple):
    """Lay a card of ``rank`` at (x, y); the empty rank is a pass."""

    rank: str
    x: int = 0
    y: int = 0


PASS = Move("")


def sort_cards(cards: str) -> str:
    """Two-character cards in canonical order: by colour (seat order), then rank."""
    pairs = [cards[i : i + 2] for i in range(0, len(cards), 2)]
    return "".join(sorted(pairs, key=lambda c: (COLOURS.index(c[0]), RANKS.index(c[1]))))


def _format_ranks(ranks: str) -> str:
    return ranks or "-"


def _parse_ranks(text: str, what: str) -> str:
    if text == "-":
        return ""
    if not text:  # "25BX," read as a second, empty hand: more likely a hand left out than one played out
        raise NotationError(f"{what} is written as nothing: write - when it holds no card")
    for rank in text:
        if rank not in RANKS:
            raise NotationError(f"unknown rank {rank!r} in {what} {text!r} (ranks: {RANKS})")
    return text


def _format_numbers(numbers: tuple[int, ...]) -> str:
    return ",".join(str(n) for n in numbers)


def format_state(state: State) -> str:
    """The position in one line; see the module docstring."""
    fields = [
        format_board(state.board),
        ",".join(_format_ranks(h) for h in state.hands),
        ",".join(_format_ranks(p) for p in state.piles),
        str(state.to_move + 1),
    ]
    if state.passes:
        fields.append(f"passes={state.passes}")
    if state.removed:
        fields.append(f"out={state.removed}")
    if state.round != 1:
        fields.append(f"round={state.round}")
    if any(state.flags):
        fields.append(f"flags={_format_numbers(state.flags)}")
    if state.winners:
        fields.append(f"won={_format_numbers(tuple(w + 1 for w in state.winners))}")
    return " ".join(fields)


def _parse_int(text: str, what: str, low: int, high: int) -> int:
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise NotationError(f"{what} {text!r} must be a number from {low} to {high}")
    return int(text)


def parse_state(text: str) -> State:
    """Inverse of :func:`format_state`."""
    check_notation_text(text)
    fields = text.split()
    if len(fields) < 4:
        raise NotationError(
            f"a position has at least 4 fields (BATTLEFIELD HANDS PILES PLAYER [key=value ...]), found {len(fields)}"
        )
    board = parse_board(fields[0])
    # A hand is a multiset: read in any order, kept in the order of RANKS. A pile's order is play's.
    hands = tuple(sort_ranks(_parse_ranks(h, f"hand {i + 1}")) for i, h in enumerate(fields[1].split(",")))
    piles = tuple(_parse_ranks(p, f"draw pile {i + 1}") for i, p in enumerate(fields[2].split(",")))
    n = len(hands)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise NotationError(f"{n} hands: Card Clash is played by {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if len(piles) != n:
        raise NotationError(f"{n} hands but {len(piles)} draw piles")
    for cell in board:
        for card in cell.stack:
            if COLOURS.index(card[0]) >= n:
                raise NotationError(f"card {card} belongs to no player of a {n}-player game (colours {COLOURS[:n]})")
    to_move = _parse_int(fields[3], "player to move", 1, n) - 1
    extra: dict[str, str] = {}
    for field in fields[4:]:
        key, eq, value = field.partition("=")
        if not eq or key not in ("passes", "out", "round", "flags", "won") or key in extra:
            raise NotationError(f"field {field!r} is not one of passes=, out=, round=, flags=, won= (each once)")
        extra[key] = value
    passes = _parse_int(extra.get("passes", "0"), "passes", 0, n)
    removed = extra.get("out", "")
    if "out" in extra and not removed:
        raise NotationError("out= names no card: leave the field out when the variant took none off the table")
    if len(removed) % 2 or not re.fullmatch(rf"([{COLOURS[:n]}][{RANKS}])*", removed):
        raise NotationError(f"out={removed!r} is not a run of cards of the players' colours such as r6b6")
    round_no = _parse_int(extra.get("round", "1"), "round", 1, 99)
    flags = tuple(_parse_int(f, "flags", 0, 99) for f in extra["flags"].split(",")) if "flags" in extra else (0,) * n
    if len(flags) != n:
        raise NotationError(f"flags={extra['flags']} names {len(flags)} players, not {n}")
    winners: tuple[int, ...] = ()
    if "won" in extra:  # in any order (a set), each winner once
        named = [_parse_int(w, "winner", 1, n) - 1 for w in extra["won"].split(",")]
        if len(set(named)) != len(named):
            raise NotationError(f"won={extra['won']} names a winner twice")
        winners = tuple(sorted(named))
    return State(board, hands, piles, to_move, passes, sort_cards(removed), winners, round_no, flags)


#: ASCII digits only (re.ASCII): a plain \d took '３' and '٣' too, which int() reads, so "r6@٣,0" was read as r6@3,0.
_MOVE_RE = re.compile(rf"^([{COLOURS}]?)([{RANKS}])@(-?\d+),(-?\d+)$", re.ASCII)


def format_move(colour: str, move: Move) -> str:
    """``r6@0,-1`` or ``pass``."""
    return "pass" if move == PASS else f"{colour}{move.rank}@{move.x},{move.y}"


def parse_move(colour: str, text: str) -> Move:
    """Inverse of :func:`format_move`; the colour may be left out, and must be the mover's if given."""
    check_notation_text(text)
    text = text.strip()
    if text == "pass":
        return PASS
    match = _MOVE_RE.match(text)
    if not match:
        raise NotationError(f"move {text!r} is not CARD@X,Y (e.g. r6@0,-1) or pass")
    if "-0" in (match.group(3), match.group(4)):  # read as 0: a slip for 0, or for -1 (left of or above it)?
        raise NotationError(f"move {text!r}: -0 is no coordinate; write 0, or -1 for the column left of the "
                            "battlefield or the row above it")
    if match.group(1) and match.group(1) != colour:
        raise NotationError(f"move {text!r} plays a {match.group(1)!r} card but {colour!r} is to move")
    return Move(match.group(2), int(match.group(3)), int(match.group(4)))
