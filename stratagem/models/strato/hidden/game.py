"""Strato as the players meet it: the draw pile's order is hidden, and every draw is a chance event.

The open-information engine (:mod:`~stratagem.models.strato.rules.turns`) knows the pile's order, like a
double-dummy analysis. At the table nobody does: the pile is shuffled face down, and the seed forbids
showing or naming one's cards ("You cannot show your cards or name them to other players"). This module
is the game as a player sees it, with the pile held as a **multiset** whose order is decided one card at a
time, when a card is drawn: from the players' view a shuffled pile is exactly that, as every order of the
unseen cards is equally likely (docs/rules/strato.md, "Hidden information").

A turn, in phases (:data:`PLAY`, :data:`REVEAL`, :data:`TARGET`, :data:`DRAW`):

- **play** (the player to move decides): play a card from hand at an outer end, with its target choice,
  as in the open engine (``W1R:1R2>1R1``); or announce a Redraw at an end (``!1L``): the hand is
  discarded. The seed: "you must announce where you're going to place the card before revealing it".
- **reveal** (chance, after a Redraw): the pile's top card turns up; each weather ``w`` with probability
  ``count(w) / size`` of the pile.
- **target** (the same player decides): the revealed card is placed at the announced end and its target
  chosen (``!S1L:1R2``, the open engine's notation of the whole Redraw).
- **draw** (chance): after a play from hand one card, after a Redraw up to the hand size, one card at a
  time, each weather with probability ``count(w) / size``.

The end-of-turn checks are the open engine's (:func:`~stratagem.models.strato.rules.status.end_of_turn_status`):
a half-row over the limit loses and the goal wins as soon as the table shows it (the draws that would
follow change neither), else the draws are made and an empty pile with nothing in the next player's
hand loses. A move in the open engine and the same move here, with the cards drawn as that deal's pile
has them, lead to the same position (tested).

:class:`HiddenStrato` is the Game protocol with these chance nodes, and :class:`HiddenInformation`
(observation and sampler) for 2 to 4 players, whose hands are hidden from each other. With one player the
state *is* the player's information: the table, the hand, the multiset of unseen cards and the last
weather played (for Cloud), which makes solo Strato a Markov decision process
(:mod:`stratagem.models.strato.hidden.odds` computes its exact optimal win probability).

``strict_effect`` is refused here: under it a revealed card may have no legal play at the announced end,
and the seed says nothing of what then happens.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple

from stratagem.core.callcaches import per_call
from stratagem.core.errors import IllegalMove, NotationError, UnsupportedGame
from stratagem.core.game import CHANCE, TERMINAL, EqualByRules
from stratagem.core.notation import check_notation_text
from stratagem.models.strato.rules.actions import Outcome
from stratagem.models.strato.rules.cards import CLOUD, HAND_SIZE, WEATHERS
from stratagem.models.strato.rules.challenge import Challenge, Options
from stratagem.models.strato.rules.notation import Move, format_move, parse_move
from stratagem.models.strato.rules.position import (
    LOST,
    ONGOING,
    SIDE_LETTERS,
    STATUS_WORDS,
    WON,
    Row,
    State,
    format_rows,
    parse_rows,
)
from stratagem.models.strato.rules.status import end_of_turn_status, table_status
from stratagem.models.strato.rules.turns import each_table_outcome, redeal, table_outcomes, unseen_cards

__all__ = [
    "DRAW",
    "PLAY",
    "REVEAL",
    "TARGET",
    "HiddenState",
    "HiddenStrato",
    "announce",
    "format_hidden",
    "hide",
    "parse_hidden",
    "parse_play",
]

#: Phases of a turn: who acts next and how.
PLAY, REVEAL, TARGET, DRAW = 0, 1, 2, 3
PHASE_WORDS = {PLAY: "play", REVEAL: "reveal", TARGET: "target", DRAW: "draw"}
_PHASE_CODES = {word: code for code, word in PHASE_WORDS.items()}
#: A phase's details as written: the announced place (``1L``) and the cards still to draw (1 to a hand's size).
_PLACE = re.compile(r"[1-9][LR]")
_DRAWS = re.compile(f"[1-{max(HAND_SIZE.values())}]")


#: Entries the engine's caches hold before they are emptied (a value table's walk meets millions of states):
#: every outcome of a card at an end (a few KB an entry), one move's outcome, a table's end-of-turn status.
TABLES_KEPT = 200_000
OUTCOMES_KEPT = 2_000_000
TABLE_STATUSES_KEPT = 2_000_000


class HiddenState(NamedTuple):
    """A Strato position whose draw pile is a multiset (sorted weather letters), order undecided.

    ``to_move`` is the player whose turn it is, also while its chance events resolve. ``row``/``end``
    is the announced end during a Redraw (:data:`REVEAL`, :data:`TARGET`), ``card`` the revealed card
    (:data:`TARGET`), ``draws`` the cards still to draw into ``to_move``'s hand (:data:`DRAW`).
    """

    rows: tuple[Row, ...]
    hands: tuple[str, ...]
    pile: str
    to_move: int
    last: str
    status: int = ONGOING
    phase: int = PLAY
    row: int = -1
    end: int = -1
    card: str = ""
    draws: int = 0


def hide(state: State) -> HiddenState:
    """The open position ``state`` with its pile's order forgotten (the multiset kept)."""
    return HiddenState(state.rows, state.hands, "".join(sorted(state.pile)), state.to_move, state.last,
                       state.status)


def announce(row: int, end: int) -> Move:
    """The move that announces a Redraw at end ``end`` of row ``row`` (written ``!1L``)."""
    return Move("", row, end, (), True, False)


def parse_play(text: str) -> Move:
    """A decision's notation, syntax only: an announcement (``!1L``, :func:`announce`) or a card's play in the
    open notation (``W1R:1R2>1R1``, ``!S1L:1R2``); :class:`NotationError` if it is neither."""
    if len(text) == 3 and text[0] == "!" and text[1].isascii() and text[1].isdigit() and text[2] in SIDE_LETTERS:
        return announce(int(text[1]) - 1, SIDE_LETTERS.index(text[2]))
    return parse_move(text)


def _without(multiset: str, card: str) -> str:
    i = multiset.index(card)
    return multiset[:i] + multiset[i + 1:]


def _with(multiset: str, card: str) -> str:
    return "".join(sorted(multiset + card))


class HiddenStrato(EqualByRules):
    """Strato with the pile's order hidden: the Game protocol with a chance node for every draw.

    ``start`` is an open-information position (a deal); its pile's order is ignored. Each player sees
    the table, their own hand, how many cards every other hand holds, and (as the deck is known and the
    discard pile lies face up) the multiset of the cards they cannot see: the other hands and the pile
    together.
    """

    name = "strato-hidden"

    def __init__(self, challenge: Challenge, options: Options, start: State | HiddenState) -> None:
        if options.strict_effect:
            raise UnsupportedGame("hidden-information Strato needs strict_effect off: under it a revealed "
                                  "card may have no legal play at the announced end, which the seed leaves open")
        self.challenge = challenge
        self.options = options
        self.start = start if isinstance(start, HiddenState) else hide(start)
        self.num_players = len(self.start.hands)
        self.hand_size = HAND_SIZE[self.num_players]
        self._table_statuses: dict[tuple[Row, ...], int] = {}
        self._tables: dict[tuple[tuple[Row, ...], str, str, int, int], list[Outcome]] = {}
        self._outcomes: dict[tuple[tuple[Row, ...], str, Move], tuple[Move, tuple[Row, ...]]] = {}

    def _rules(self) -> tuple[Any, ...]:
        """What tells this game from another: the challenge, its options and the public start."""
        return (self.challenge, self.options, self.start)

    # -- Game protocol -------------------------------------------------------------------------
    def initial_state(self) -> HiddenState:
        return self.start

    def to_move(self, state: HiddenState) -> int:
        if state.status != ONGOING:
            return TERMINAL
        return CHANCE if state.phase in (REVEAL, DRAW) else state.to_move

    def is_terminal(self, state: HiddenState) -> bool:
        return state.status != ONGOING

    def returns(self, state: HiddenState) -> tuple[float, ...]:
        value = 1.0 if state.status == WON else -1.0 if state.status == LOST else 0.0
        return (value,) * self.num_players

    def legal_moves(self, state: HiddenState) -> list[Move]:
        return [move for move, _ in self.plays(state)]

    def chance_outcomes(self, state: HiddenState) -> list[tuple[str, Fraction]]:
        """Each weather of the pile with its exact probability of being the next card drawn."""
        if state.status != ONGOING or state.phase not in (REVEAL, DRAW):
            return []
        counts = Counter(state.pile)
        size = len(state.pile)
        return [(w, Fraction(counts[w], size)) for w in sorted(counts, key=WEATHERS.index)]

    def apply(self, state: HiddenState, move: Move | str) -> HiddenState:
        if state.status != ONGOING:
            raise IllegalMove("the game is over")
        if state.phase in (REVEAL, DRAW):
            if not isinstance(move, str) or move not in state.pile:
                raise IllegalMove(f"the pile holds no {move!r} to draw (it holds {state.pile or 'nothing'})")
            return self._drawn(state, move)
        if not isinstance(move, Move):
            raise IllegalMove(f"{move!r}: player {state.to_move + 1} is to play, not a chance event")
        return self.resolve(state, move)[1]

    def resolve(self, state: HiddenState, move: Move) -> tuple[Move, HiddenState]:
        """The legal move that ``move`` stands for (an exchange may name its places in either order), as
        :meth:`plays` lists it, and its state; :class:`IllegalMove` if there is none. Only the rules'
        outcomes of the move's own card at its own end are made (a policy's table names one move of forty)."""
        if state.status == ONGOING and state.phase in (PLAY, TARGET):
            if not move.card:
                if move == announce(move.row, move.end) and (move.row, move.end) in self._announcements(state):
                    return move, self._announced(state, move.row, move.end)
            elif self._placeable(state, move):
                found = self._outcome(state.rows, state.last, move)
                if found is not None:
                    return found[0], self._after_table(state, found[1], move.card, move.redraw)
        raise IllegalMove(f"{format_move(move) if move.card else _format_announce(move)} is not legal here")

    def format_move(self, state: HiddenState, move: Move | str) -> str:
        if isinstance(move, str):
            return move
        return format_move(move) if move.card else _format_announce(move)

    def parse_move(self, state: HiddenState, text: str) -> Move | str:
        """A play (``W1R:1R2>1R1``), an announcement (``!1L``), a target choice (``!S1L:1R2``) or, at a
        chance node, the weather drawn (``S``)."""
        check_notation_text(text)
        text = text.strip()
        if state.status == ONGOING and state.phase in (REVEAL, DRAW):
            if len(text) != 1 or text not in state.pile:
                raise IllegalMove(f"{text!r}: the next card comes from the pile ({state.pile or 'empty'})")
            return text
        try:
            return self.resolve(state, parse_play(text))[0]
        except IllegalMove:
            raise IllegalMove(f"{text} is not legal here") from None

    def format_state(self, state: HiddenState) -> str:
        return format_hidden(state)

    def parse_state(self, text: str) -> HiddenState:
        return parse_hidden(text)

    # -- HiddenInformation ---------------------------------------------------------------------
    def observation(self, state: HiddenState, player: int) -> Hashable:
        """What ``player`` knows: the table, their hand, every hand's size, the multiset of the cards
        they cannot see (the other hands and the pile), whose turn and phase it is, the announced end
        and revealed card, the last weather played and the result."""
        unseen = "".join(sorted(unseen_cards(state.hands, state.pile, player)))
        return (player, state.rows, state.hands[player], tuple(len(h) for h in state.hands), len(state.pile),
                unseen, state.to_move, state.last, state.status, state.phase, state.row, state.end, state.card,
                state.draws)

    def sample_state(self, state: HiddenState, player: int, rng: random.Random) -> HiddenState:
        """A state ``player`` cannot tell from ``state``: the unseen cards dealt uniformly at random into
        the other hands (their sizes kept), the rest into the pile."""
        hands, pile = redeal(state.hands, state.pile, player, rng)
        return state._replace(hands=hands, pile="".join(sorted(pile)))

    # -- move generation -----------------------------------------------------------------------
    def plays(self, state: HiddenState) -> list[tuple[Move, HiddenState]]:
        """Every legal move of the player to move with its state, in a fixed order: hand cards by
        weather, rows, ends, targets; then the Redraw announcements, rows and ends in order. At
        :data:`TARGET`, the revealed card's target choices."""
        out = [(Move(card, r, end, target, redraw, exchange), self._after_table(state, rows, card, redraw))
               for card, r, end, redraw, outcomes in self._placements(state)
               for target, rows, exchange in outcomes]
        out += [(announce(r, end), self._announced(state, r, end)) for r, end in self._announcements(state)]
        return out

    def play(self, state: HiddenState, index: int) -> tuple[Move, HiddenState]:
        """``plays(state)[index]``, without making the other moves' states (a value table's policy row needs
        one move of the forty or so; making them all was most of writing the table)."""
        left = index
        if left >= 0:
            for card, r, end, redraw, outcomes in self._placements(state):
                if left < len(outcomes):
                    target, rows, exchange = outcomes[left]
                    return Move(card, r, end, target, redraw, exchange), self._after_table(state, rows, card, redraw)
                left -= len(outcomes)
            announcements = self._announcements(state)
            if left < len(announcements):
                r, end = announcements[left]
                return announce(r, end), self._announced(state, r, end)
        raise IndexError(f"no play {index} at this state")

    def _placements(self, state: HiddenState) -> Iterator[tuple[str, int, int, bool, list[Outcome]]]:
        """The card placements of :meth:`plays` in its order, each as ``(card, row, end, redraw, outcomes)``
        with the rules' outcomes (target, rows, exchange) of that card at that end."""
        for card, r, end, redraw in self._places(state):
            yield card, r, end, redraw, self._table(state.rows, card, state.last, r, end)

    @staticmethod
    def _places(state: HiddenState) -> Iterator[tuple[str, int, int, bool]]:
        """Where a card may be placed, in :meth:`plays`'s order, as ``(card, row, end, redraw)``: the revealed
        card at the announced end (``target``), or each weather in hand at each end (``play``)."""
        if state.status != ONGOING:
            return
        if state.phase == TARGET:
            yield state.card, state.row, state.end, True
        elif state.phase == PLAY:
            for card in sorted(set(state.hands[state.to_move])):
                for r in range(len(state.rows)):
                    for end in (0, 1):
                        yield card, r, end, False

    @staticmethod
    def _placeable(state: HiddenState, move: Move) -> bool:
        """Whether ``move``'s card, row, end and Redraw mark are one of :meth:`_places` (the revealed card at
        the announced end, or a card of the hand at any end), without listing them all."""
        if not (0 <= move.row < len(state.rows) and move.end in (0, 1)):
            return False
        if state.phase == TARGET:
            return move.redraw and (move.card, move.row, move.end) == (state.card, state.row, state.end)
        return (state.phase == PLAY and not move.redraw and len(move.card) == 1
                and move.card in state.hands[state.to_move])

    @staticmethod
    def _announcements(state: HiddenState) -> list[tuple[int, int]]:
        """The Redraw announcements of :meth:`plays` (row, end), in its order: at a play state with a pile."""
        if state.status != ONGOING or state.phase != PLAY or not state.pile:
            return []
        return [(r, end) for r in range(len(state.rows)) for end in (0, 1)]

    @staticmethod
    def _announced(state: HiddenState, r: int, end: int) -> HiddenState:
        """The hand discarded and the place announced: the card is revealed next (a chance node)."""
        hands = state.hands[:state.to_move] + ("",) + state.hands[state.to_move + 1:]
        return state._replace(hands=hands, phase=REVEAL, row=r, end=end)

    def _table(self, rows: tuple[Row, ...], card: str, last: str, r: int, end: int) -> list[Outcome]:
        key = (rows, card, last, r, end)
        found = self._tables.get(key)
        if found is None:
            if len(self._tables) >= TABLES_KEPT:
                self._tables.clear()
            found = self._tables[key] = table_outcomes(rows, card, last, r, end, self.options)
        return found

    def _outcome(self, rows: tuple[Row, ...], last: str, move: Move) -> tuple[Move, tuple[Row, ...]] | None:
        """The legal placement ``move`` stands for (an exchange either way round) and the table it leaves,
        from the rules' outcomes of its card at its end; None if they hold no such target. Remembered by
        move, not by all the outcomes (a value table's walk meets millions of tables and needs one move of
        each)."""
        key = (rows, last, move)
        found = self._outcomes.get(key)
        if found is None:
            wanted = {move}
            if move.exchange:
                wanted.add(move._replace(target=move.target[::-1]))
            outcomes: Iterable[Outcome] | None = self._tables.get((rows, move.card, last, move.row, move.end))
            if outcomes is None:  # made one at a time, up to the move's own
                outcomes = each_table_outcome(rows, move.card, last, move.row, move.end, self.options)
            for target, after, exchange in outcomes:
                candidate = Move(move.card, move.row, move.end, target, move.redraw, exchange)
                if candidate in wanted:
                    if len(self._outcomes) >= OUTCOMES_KEPT:
                        self._outcomes.clear()
                    found = self._outcomes[key] = (candidate, after)
                    break
        return found

    def _after_table(self, state: HiddenState, rows: tuple[Row, ...], card: str, redraw: bool) -> HiddenState:
        """After the card is placed and resolved: the first two end-of-turn checks, else the draws."""
        p = state.to_move
        last = state.last if card == CLOUD else card
        hands = state.hands
        if not redraw:
            hand = state.hands[p]
            hands = hands[:p] + (_without(hand, card),) + hands[p + 1:]
        status = self._table_status(rows)
        if status != ONGOING:
            return HiddenState(rows, hands, state.pile, p, last, status)
        draws = min(self.hand_size if redraw else 1, len(state.pile))
        if draws == 0:
            return self._next_turn(rows, hands, state.pile, p, last)
        return HiddenState(rows, hands, state.pile, p, last, ONGOING, DRAW, -1, -1, "", draws)

    def _drawn(self, state: HiddenState, card: str) -> HiddenState:
        pile = _without(state.pile, card)
        if state.phase == REVEAL:
            return state._replace(pile=pile, phase=TARGET, card=card)
        p = state.to_move
        hands = state.hands[:p] + (_with(state.hands[p], card),) + state.hands[p + 1:]
        if state.draws > 1:
            return HiddenState(state.rows, hands, pile, p, state.last, ONGOING, DRAW, -1, -1, "", state.draws - 1)
        return self._next_turn(state.rows, hands, pile, p, state.last)

    def _next_turn(self, rows: tuple[Row, ...], hands: tuple[str, ...], pile: str, p: int, last: str) -> HiddenState:
        """Player ``p``'s draws are made: the last end-of-turn check (the table's two were made on these rows
        by :meth:`_after_table`, before the draws), and the next player to play."""
        nxt = (p + 1) % self.num_players
        status = end_of_turn_status(self.challenge, rows, pile, hands[nxt], table_checked=True)
        return HiddenState(rows, hands, pile, nxt, last, status)

    def _table_status(self, rows: tuple[Row, ...]) -> int:
        """:func:`table_status` of ``rows``, remembered (a value table's walk meets the same table under many
        hands and piles)."""
        status = self._table_statuses.get(rows)
        if status is None:
            if len(self._table_statuses) >= TABLE_STATUSES_KEPT:
                self._table_statuses.clear()
            status = self._table_statuses[rows] = table_status(self.challenge, rows)
        return status


def _format_announce(move: Move) -> str:
    return f"!{move.row + 1}{SIDE_LETTERS[move.end]}"


def format_hidden(state: HiddenState) -> str:
    """``ROWS HANDS {PILE} PLAYER LAST PHASE [won|lost]``, e.g. ``RW(RW)RW RRW {RRWWW} 1 - play``.

    As the open notation (:func:`~stratagem.models.strato.rules.position.format_state`), with the pile in
    braces (a multiset, sorted) and the phase: ``play``, ``reveal 1L`` (a Redraw announced at 1L),
    ``target 1L S`` (a sun revealed for it), ``draw 2`` (two cards still to draw)."""
    fields = [format_rows(state.rows), ",".join([h or "-" for h in state.hands]), "{" + state.pile + "}",
              str(state.to_move + 1), state.last or "-", PHASE_WORDS[state.phase]]
    if state.phase in (REVEAL, TARGET):
        fields.append(f"{state.row + 1}{SIDE_LETTERS[state.end]}")
    if state.phase == TARGET:
        fields.append(state.card)
    if state.phase == DRAW:
        fields.append(str(state.draws))
    if state.status != ONGOING:
        fields.append(STATUS_WORDS[state.status])
    return " ".join(fields)


def parse_hidden(text: str) -> HiddenState:
    """Inverse of :func:`format_hidden` (syntax only)."""
    check_notation_text(text)
    fields = text.split()
    if len(fields) < 6:
        raise NotationError(f"a hidden-pile position has at least 6 fields (ROWS HANDS {{PILE}} PLAYER LAST PHASE), "
                            f"found {len(fields)}")
    return HiddenState(parse_rows(fields[0]), *_parse_fields(tuple(fields[1:])))


@per_call
@lru_cache(maxsize=1 << 16)
def _parse_fields(fields: tuple[str, ...]) -> tuple[Any, ...]:
    """The fields of a hidden-pile position after its rows, parsed (remembered: a value table lists the same
    hand, pile and phase under many tables, and ``verify`` parses every row; until the library call ends,
    :mod:`stratagem.core.callcaches`)."""
    if "" in fields[0].split(","):  # "RR," read as a second, empty hand, as the open notation no longer does
        empty = fields[0].split(",").index("") + 1
        raise NotationError(f"hand {empty} is written as nothing: write - when it holds no card")
    hands = tuple("".join(sorted("" if h == "-" else h)) for h in fields[0].split(","))
    pile_text = fields[1]
    if not (pile_text.startswith("{") and pile_text.endswith("}")):
        raise NotationError(f"the pile {pile_text!r} must be a multiset in braces, e.g. {{RRWW}}")
    pile = "".join(sorted(pile_text[1:-1]))
    if not set(pile).issubset(WEATHERS) or not set("".join(hands)).issubset(WEATHERS):
        for letter in "".join(hands) + pile:
            if letter not in WEATHERS:
                raise NotationError(f"unknown weather letter {letter!r}")
    if not (fields[2].isascii() and fields[2].isdigit()) or not 1 <= int(fields[2]) <= len(hands):
        raise NotationError(f"player to move {fields[2]!r} must be a number from 1 to {len(hands)}")
    last = "" if fields[3] == "-" else fields[3]
    if last and (last not in WEATHERS or last == CLOUD):  # as the open notation's
        raise NotationError(f"last resolved weather {fields[3]!r} must be one of WRSFT or -")
    if fields[4] not in _PHASE_CODES:
        raise NotationError(f"phase {fields[4]!r} must be one of {', '.join(PHASE_WORDS.values())}")
    phase = _PHASE_CODES[fields[4]]
    rest = list(fields[5:])
    row = end = -1
    card = ""
    draws = 0
    # The details are checked as written, not by int(): it read '٣L', '+1L' and '1_0' as 3L, 1L and 10 (printed
    # back as other text), and took '0L' (row -1), 'draw -1', a card 'Q' or 'SS' for positions.
    needs = (2 if phase == TARGET else 1) if phase != PLAY else 0
    if len(rest) < needs or (phase in (REVEAL, TARGET) and not _PLACE.fullmatch(rest[0])) \
            or (phase == TARGET and (len(rest[1]) != 1 or rest[1] not in WEATHERS)) \
            or (phase == DRAW and not _DRAWS.fullmatch(rest[0])):
        raise NotationError(f"phase {fields[4]} needs its details (e.g. 'reveal 1L', 'target 1L S', "
                            f"'draw 2': a row 1-9 and end L or R, a weather letter, 1 to {max(HAND_SIZE.values())} "
                            "draws)")
    if phase in (REVEAL, TARGET):
        place = rest.pop(0)
        row, end = int(place[0]) - 1, SIDE_LETTERS.index(place[1])
    if phase == TARGET:
        card = rest.pop(0)
    if phase == DRAW:
        draws = int(rest.pop(0))
    status = ONGOING
    if rest:
        result = {w: code for code, w in STATUS_WORDS.items()}
        if len(rest) > 1 or rest[0] not in result:
            raise NotationError(f"unexpected {' '.join(rest)!r} at the end of the position")
        status = result[rest[0]]
    return hands, pile, int(fields[2]) - 1, last, status, phase, row, end, card, draws
