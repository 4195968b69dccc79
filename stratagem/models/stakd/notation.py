"""Move and position notation.

Move: ``KIND@X,Y[ORIENT]``, e.g. ``D@3,4h`` = a Duo whose anchor is node (3, 4) (column 3, row 4), lying
horizontally (to the right of the anchor); ``T@2,0v`` = a Trio downwards from (2, 0); ``U@5,1`` = a Uni
(one-node pieces have no orientation letter). Kinds: ``B`` Base, ``Q`` Quad, ``T`` Trio, ``D`` Duo,
``U`` Uni, ``X`` Bomber. The layer is not written: a placement fits the current layer or starts the
next one, never both, and the rules engine knows which.

Position: ``LAYERS HANDS PLAYER [out:P,Q,...]``.

- ``LAYERS``: layers bottom first separated by ``/``; each layer its pieces in placement order separated
  by ``;``; a piece is its owner (1-based) followed by its move text: ``1B@3,1h;1B@2,2h/1D@3,1h``.
  ``-`` for an empty table.
- ``HANDS``: one per player separated by ``,``: kind letters each followed by a count, biggest kind
  first, ``-`` for an empty hand: ``B2Q4T6D10U16X1``.
- ``PLAYER``: the player to move, 1-based.
- ``out:1,3``: the players who are out, when any are.

The solo set from an empty table: ``- B2Q4T6D10U16X1 1``.
"""

from __future__ import annotations

import re

from stratagem.core.errors import NotationError
from stratagem.core.notation import check_notation_text
from stratagem.models.stakd.pieces import KIND_INDEX, KINDS, MAX_PLAYERS, Hand
from stratagem.models.stakd.position import Move, Piece, State

_KINDS = "".join(KINDS)
# re.ASCII: \d alone also matches other scripts' digits ('３', '٣'), which int() reads, so "D@３,4h" was taken
# for D@3,4h and printed back as other text; the notation's numbers are ASCII digits, as the other games' are.
_MOVE_RE = re.compile(rf"^([{_KINDS}])@(\d+),(\d+)([a-z]*)$", re.ASCII)
_PIECE_RE = re.compile(rf"^(\d)([{_KINDS}])@(\d+),(\d+)([a-z]*)$", re.ASCII)
_HAND_RE = re.compile(rf"([{_KINDS}])(\d+)", re.ASCII)

#: Input limit (docs/formats.md, "Input limits"): pieces of one kind in a hand. The box holds at most 32
#: of a kind (Unis), so no hand can hold more; a larger count only cost memory (U99999999 took 1.3 GB).
MAX_OF_A_KIND = 32


def format_placement(kind: str, anchor: tuple[int, int], orient: str) -> str:
    return f"{kind}@{anchor[0]},{anchor[1]}{orient}"


def format_move(move: Move) -> str:
    """``D@3,4h``; see the module docstring."""
    return format_placement(move.kind, move.anchor, move.orient)


def parse_placement(text: str) -> tuple[str, tuple[int, int], str]:
    """``(kind, anchor, orient)`` from move text (syntax only)."""
    check_notation_text(text)
    match = _MOVE_RE.match(text.strip())
    if not match:
        raise NotationError(f"move {text!r} is not of the form KIND@X,Y[ORIENT], e.g. D@3,4h or U@2,1")
    kind, x, y, orient = match.groups()
    return kind, (int(x), int(y)), orient


def parse_move(text: str, layer: int = -1) -> Move:
    """A move from text; ``layer`` is filled in by the rules engine (-1 = not known yet)."""
    kind, anchor, orient = parse_placement(text)
    return Move(kind, anchor, orient, layer)


def format_piece(piece: Piece) -> str:
    return f"{piece.owner + 1}{format_placement(piece.kind, piece.anchor, piece.orient)}"


def parse_piece(text: str) -> Piece:
    check_notation_text(text)
    match = _PIECE_RE.match(text.strip())
    if not match:
        raise NotationError(f"piece {text!r} is not of the form OWNER KIND@X,Y[ORIENT], e.g. 1D@3,4h")
    owner, kind, x, y, orient = match.groups()
    if int(owner) < 1:
        raise NotationError(f"piece {text!r}: owners are numbered from 1")
    return Piece(kind, (int(x), int(y)), orient, int(owner) - 1)


def format_layers(layers: tuple[tuple[Piece, ...], ...]) -> str:
    if not layers:
        return "-"
    return "/".join(";".join(format_piece(p) for p in layer) for layer in layers)


def parse_layers(text: str) -> tuple[tuple[Piece, ...], ...]:
    """Inverse of :func:`format_layers`: pieces separated by ``;``, layers by ``/``, nothing else between them
    (a position file's ``layers`` took ``1B@3,1h; 1B@0,0h``, which a position's text cannot hold)."""
    check_notation_text(text)
    text = text.strip()
    if " " in text:
        raise NotationError(f"layers {text!r} hold a space: pieces are separated by ; and layers by / alone")
    if text == "-":
        return ()
    layers = []
    for k, part in enumerate(text.split("/")):
        if not part:
            raise NotationError(f"layer {k} is empty; write layers bottom first, separated by /")
        layers.append(tuple(parse_piece(p) for p in part.split(";")))
    return tuple(layers)


def format_hand(hand: Hand) -> str:
    """``B2Q4T6D10U16X1``, ``-`` when empty."""
    text = "".join(f"{kind}{n}" for kind, n in zip(KINDS, hand, strict=True) if n)
    return text or "-"


def parse_hand(text: str) -> Hand:
    """Inverse of :func:`format_hand`; kinds in any order, each at most once, each with a count from 1."""
    check_notation_text(text)
    if text == "-":
        return (0,) * len(KINDS)
    counts = [0] * len(KINDS)
    seen = set()
    if not text or "".join(m.group(0) for m in _HAND_RE.finditer(text)) != text:
        raise NotationError(f"hand {text!r} is not kind letters with counts, e.g. B2Q4T6D10U16X1 (or -)")
    for match in _HAND_RE.finditer(text):
        kind, digits = match.group(1), match.group(2)
        n = int(digits) if len(digits) <= 3 else MAX_OF_A_KIND + 1
        if n > MAX_OF_A_KIND:
            raise NotationError(f"hand {text!r}: at most {MAX_OF_A_KIND} pieces of a kind (the box's most)")
        if n == 0:  # "U0" read as no Uni: more likely a count cut short (U10) than a kind written for nothing
            raise NotationError(f"hand {text!r}: {kind}0 holds no piece; leave out a kind the hand does not hold")
        if kind in seen:
            raise NotationError(f"hand {text!r} names {kind} twice")
        seen.add(kind)
        counts[KIND_INDEX[kind]] = n
    return tuple(counts)


def format_state(state: State) -> str:
    """``LAYERS HANDS PLAYER [out:...]``; see the module docstring."""
    fields = [format_layers(state.layers), ",".join(format_hand(h) for h in state.hands), str(state.to_move + 1)]
    if any(state.out):
        fields.append("out:" + ",".join(str(p + 1) for p, o in enumerate(state.out) if o))
    return " ".join(fields)


def parse_state(text: str) -> State:
    """Inverse of :func:`format_state` (syntax and counts; the rules engine checks the structure)."""
    check_notation_text(text)
    fields = text.split()
    if len(fields) not in (3, 4):
        raise NotationError(f"a position has 3 or 4 fields (LAYERS HANDS PLAYER [out:...]), found {len(fields)}")
    layers = parse_layers(fields[0])
    hands = tuple(parse_hand(h) for h in fields[1].split(","))
    n = len(hands)
    if not 1 <= n <= MAX_PLAYERS:
        raise NotationError(f"{n} hands: STAKD is played by 1 to {MAX_PLAYERS} players")
    for layer in layers:
        for piece in layer:
            if piece.owner >= n:
                raise NotationError(f"piece {format_piece(piece)} belongs to player {piece.owner + 1} of {n}")
    if not (fields[2].isascii() and fields[2].isdigit()) or not 1 <= int(fields[2]) <= n:
        raise NotationError(f"player to move {fields[2]!r} must be a number from 1 to {n}")
    out = [False] * n
    if len(fields) == 4:
        if not fields[3].startswith("out:"):
            raise NotationError(f"fourth field {fields[3]!r} must be out:P,Q,... (players who are out)")
        for word in fields[3][4:].split(","):  # in any order: a set
            if not (word.isascii() and word.isdigit()) or not 1 <= int(word) <= n:
                raise NotationError(f"out player {word!r} must be a number from 1 to {n}")
            if out[int(word) - 1]:
                raise NotationError(f"{fields[3]} names player {word} twice")
            out[int(word) - 1] = True
    return State(layers, hands, int(fields[2]) - 1, tuple(out))
