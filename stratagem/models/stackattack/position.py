"""Stack Attack positions and their text notation.

A :class:`State` holds everything play depends on with open information (every hand known):

- ``rows``: the four rows, each a tuple of card numbers in the order they were laid (last = the end
  cards are placed after). A row is empty only while a round is being dealt.
- ``hands``: each player's hand, sorted ascending.
- ``taken``: the penalty cards each player has collected this round, sorted (public on the table).
- ``scores``: each player's total carried over from earlier rounds (this round not yet added).
- ``round``: the round number, from 1.
- the turn being resolved, empty between turns: ``played`` (the revealed card each player holds now;
  a Switch changes who holds what), ``activate`` (action cards not yet activated, ascending: actions
  always activate lowest first), ``place`` (played cards not yet placed, in resolution order:
  ascending, or descending when a Decreasing card was revealed) and ``blocked`` (rows, 0-based, that
  a Block closed for this turn).

The turn number is not stored: every player plays one card a turn, so it is ``10 - cards in hand``
(+1 between turns). Cards never dealt this round are not part of the state: each round is a fresh
shuffle, and what is not on the table or in a hand is simply unseen.

Notation (docs/formats.md, section 7)::

    ROWS HANDS TAKEN SCORES ROUND [>PLAYED *ACTIVATE =PLACE #BLOCKED]

Card lists are numbers joined by ``.`` (``-`` for none); rows and per-player fields are joined by
``/``; blocked rows are 1-based. Example: ``12.28/47/63/5 3.20/9.41 -/17.22 0/12 1``.
"""

from __future__ import annotations

from typing import NamedTuple

from stratagem.core.errors import NotationError
from stratagem.core.notation import check_notation_text
from stratagem.models.stackattack.cards import (
    END_SCORE,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROW_LIMIT,
    ROWS,
    SHIELD,
    Deck,
)

Cards = tuple[int, ...]


class State(NamedTuple):
    """A Stack Attack position with open information (see the module docstring)."""

    rows: tuple[Cards, ...]
    hands: tuple[Cards, ...]
    taken: tuple[Cards, ...]
    scores: tuple[int, ...]
    round: int = 1
    played: Cards = ()
    activate: Cards = ()
    place: Cards = ()
    blocked: Cards = ()

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def in_turn(self) -> bool:
        """True while a revealed turn is being resolved."""
        return bool(self.played)

    @property
    def dealing(self) -> bool:
        """True while a round is being dealt (a row is empty only then)."""
        return not all(self.rows)

    def holder(self, card: int) -> int:
        """The player who holds revealed card ``card`` now."""
        return self.played.index(card)


def format_cards(cards: Cards) -> str:
    """``3.17.22``; ``-`` for no card."""
    return ".".join(map(str, cards)) if cards else "-"


def parse_cards(text: str, what: str) -> Cards:
    """Inverse of :func:`format_cards`."""
    if text == "-":
        return ()
    parts = text.split(".")
    for part in parts:
        if not (part.isascii() and part.isdigit()) or part.startswith("0"):
            raise NotationError(f"{what} {text!r}: {part!r} is not a card number (cards are joined by '.')")
    return tuple(int(p) for p in parts)


def _format_group(groups: tuple[Cards, ...]) -> str:
    return "/".join([".".join(map(str, g)) if g else "-" for g in groups])  # format_cards of each, inline


def _parse_group(text: str, what: str) -> tuple[Cards, ...]:
    return tuple(parse_cards(part, f"{what} {i + 1}") for i, part in enumerate(text.split("/")))


def format_state(state: State) -> str:
    """The position in the notation of the module docstring."""
    fields = [
        _format_group(state.rows),
        _format_group(state.hands),
        _format_group(state.taken),
        "/".join(map(str, state.scores)),
        str(state.round),
    ]
    if state.in_turn:
        fields += [
            ">" + "/".join(str(c) for c in state.played),
            "*" + format_cards(state.activate),
            "=" + format_cards(state.place),
            "#" + format_cards(tuple(r + 1 for r in state.blocked)),
        ]
    return " ".join(fields)


def parse_state(text: str) -> State:
    """Inverse of :func:`format_state`; checks the shape, not the rules (see :func:`check_state`)."""
    check_notation_text(text)
    fields = text.split()
    if len(fields) not in (5, 9):
        raise NotationError(
            f"a position has 5 fields (ROWS HANDS TAKEN SCORES ROUND) or 9 during a turn "
            f"(+ >PLAYED *ACTIVATE =PLACE #BLOCKED), found {len(fields)}"
        )
    rows = _parse_group(fields[0], "row")
    # Hands and penalty piles are sets: read in any order, kept ascending.
    hands = tuple(tuple(sorted(h)) for h in _parse_group(fields[1], "hand"))
    taken = tuple(tuple(sorted(t)) for t in _parse_group(fields[2], "penalty pile"))
    scores: list[int] = []
    for part in fields[3].split("/"):
        if not (part.isascii() and part.isdigit()):
            raise NotationError(f"score {part!r} is not a non-negative whole number")
        scores.append(int(part))
    if not (fields[4].isascii() and fields[4].isdigit()) or int(fields[4]) < 1:
        raise NotationError(f"round {fields[4]!r} is not a number from 1")
    state = State(rows, hands, taken, tuple(scores), int(fields[4]))
    if len(fields) == 9:
        marks = (">", "*", "=", "#")
        for mark, field in zip(marks, fields[5:], strict=True):
            if not field.startswith(mark):
                raise NotationError(f"turn field {field!r} should start with {mark!r} "
                                    "(>PLAYED *ACTIVATE =PLACE #BLOCKED)")
        played = []
        for part in fields[5][1:].split("/"):
            if not (part.isascii() and part.isdigit()) or part.startswith("0"):
                raise NotationError(f"played card {part!r} is not a card number")
            played.append(int(part))
        blocked = parse_cards(fields[8][1:], "blocked rows")
        state = state._replace(
            played=tuple(played),
            activate=parse_cards(fields[6][1:], "activation queue"),
            place=parse_cards(fields[7][1:], "placement queue"),
            blocked=tuple(sorted(r - 1 for r in blocked)),
        )
    return state


def check_state(state: State, deck: Deck) -> None:
    """Raise NotationError naming the first way ``state`` cannot occur in play with ``deck``."""
    n = state.players
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise NotationError(f"{n} hands: Stack Attack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if len(state.taken) != n or len(state.scores) != n:
        raise NotationError(f"{n} hands but {len(state.taken)} penalty piles and {len(state.scores)} scores")
    if len(state.rows) != ROWS:
        raise NotationError(f"{len(state.rows)} rows: the table has {ROWS}")
    if n * HAND_SIZE + ROWS > deck.size:
        raise NotationError(f"{n} players need {n * HAND_SIZE + ROWS} cards, the deck has {deck.size}")
    seen: set[int] = set()
    for where, cards in (
        [(f"row {i + 1}", r) for i, r in enumerate(state.rows)]
        + [(f"hand {i + 1}", h) for i, h in enumerate(state.hands)]
        + [(f"penalty pile {i + 1}", t) for i, t in enumerate(state.taken)]
        + [("placement queue", state.place)]
    ):
        for card in cards:
            if not 1 <= card <= deck.size:
                raise NotationError(f"{where}: card {card} is not in the deck (1-{deck.size})")
            if card in seen:
                raise NotationError(f"{where}: card {card} appears twice")
            seen.add(card)
    # Scores carried from rounds already over decide when the game ends; a game whose total reached the
    # end score was over before this round (a composed endgame may carry any smaller score, even in round 1).
    for i, score in enumerate(state.scores):
        if score >= END_SCORE:
            raise NotationError(f"player {i + 1} carries {score} points: the game ended when a total reached "
                                f"{END_SCORE}, so no round follows")
    for i, hand in enumerate(state.hands):
        if len(hand) > HAND_SIZE:
            raise NotationError(f"hand {i + 1} holds {len(hand)} cards, more than {HAND_SIZE}")
    for i, row in enumerate(state.rows):
        # The sixth card rule: a card that would be the 6th (or later, after a Shield) takes the row and
        # starts it, so every card beyond the fifth is a Shield, which goes there without taking.
        for at, card in enumerate(row[ROW_LIMIT:], start=ROW_LIMIT + 1):
            if deck.action(card) != SHIELD:
                raise NotationError(f"row {i + 1} holds {len(row)} cards and its card {at} is {card}: only a Shield "
                                    f"may go beyond {ROW_LIMIT} (any other card there takes the row)")
        for before, after in zip(row, row[1:], strict=False):  # a card goes after the highest lower last card
            if after < before and deck.action(after) != SHIELD:
                raise NotationError(f"row {i + 1}: card {after} follows {before}: a card goes after a lower last card "
                                    "(only a Shield goes at the end of any row)")
    if state.dealing:
        if state.in_turn or any(state.taken):
            raise NotationError("a row is empty, so the round is being dealt: no turn or penalty cards yet")
        return
    if len({len(h) for h in state.hands}) != 1:
        raise NotationError("every player plays one card a turn, so all hands hold as many cards")
    if not state.in_turn:
        if state.activate or state.place or state.blocked:
            raise NotationError("queues and blocked rows belong to a turn being resolved")
        return
    if len(state.played) != n:
        raise NotationError(f"{len(state.played)} played cards for {n} players")
    if len(set(state.played)) != n:
        raise NotationError("a card is played twice")
    table = set().union(*state.rows, *state.taken, state.place)
    for card in state.played:
        if card not in table:
            raise NotationError(f"played card {card} is neither on the table, taken nor waiting to be placed")
    if not set(state.place) <= set(state.played):
        raise NotationError("the placement queue holds a card nobody played")
    if list(state.activate) != sorted(state.activate) or not set(state.activate) <= set(state.place):
        raise NotationError("the activation queue must be ascending and hold played cards not yet placed")
    for card in state.activate:
        if deck.action(card) is None:
            raise NotationError(f"card {card} in the activation queue has no action")
    if not state.activate and not state.place:
        raise NotationError("a turn with nothing left to resolve is over: leave out the turn fields")
    if any(not 0 <= r < ROWS for r in state.blocked) or len(set(state.blocked)) != len(state.blocked):
        raise NotationError(f"blocked rows must be distinct numbers 1-{ROWS}")
