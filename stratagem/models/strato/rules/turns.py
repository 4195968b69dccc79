"""Turns of Strato and the Game protocol.

A turn (seed "How to Play", docs/rules/strato.md): the player to move plays one card from hand at an outer end of
any row and resolves its action, then draws one card if the draw pile is not empty. Or, instead, a
Redraw: discard the whole hand, play the top card of the draw pile at a chosen end, resolve it, then
draw back up to hand size. With open information the solver knows every hand and the pile order.

End of turn, in this order: a half-row longer than the limit -> defeat; the victory condition holds on
the required number of rows -> victory; the draw pile is empty and the next player has no card ->
defeat. A player who has cards but no legal play (only possible with ``strict_effect``) can no longer
play, which the seed ("until a player can no longer play") makes a defeat.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator, Sequence
from fractions import Fraction
from typing import Any

from stratagem.core.errors import IllegalMove, NotationError
from stratagem.core.game import TERMINAL, EqualByRules
from stratagem.models.strato.rules.actions import Outcome, each_outcome, resolved_weather
from stratagem.models.strato.rules.cards import CLOUD, HAND_SIZE
from stratagem.models.strato.rules.challenge import Challenge, Options
from stratagem.models.strato.rules.notation import Move, format_move, parse_move
from stratagem.models.strato.rules.position import ONGOING, WON, Coord, Row, State
from stratagem.models.strato.rules.status import end_of_turn_status


def table_outcomes(
    rows: tuple[Row, ...], card: str, last: str, r: int, end: int, options: Options
) -> list[Outcome]:
    """What playing ``card`` at end ``end`` of row ``r`` can do to the table: every target choice.

    The card is placed, then its action (for Cloud, the ``last`` weather's) resolves. A card with no
    changing choice yields one outcome without a target (played with no effect), or none at all under
    ``strict_effect``. This is the table half of a turn, shared by the game and by designer mode
    (where hands do not matter).
    """
    return list(each_table_outcome(rows, card, last, r, end, options))


def each_table_outcome(
    rows: tuple[Row, ...], card: str, last: str, r: int, end: int, options: Options
) -> Iterator[Outcome]:
    """:func:`table_outcomes` one at a time, in the same order (a caller after one target stops at it)."""
    row = rows[r]
    cards = row.half(end) + card
    placed = rows[:r] + (row.with_half(end, cards),) + rows[r + 1 :]
    played = Coord(r, end, len(cards) - 1)
    changed = False
    for choice in each_outcome(resolved_weather(card, last), placed, played, options):
        changed = True
        yield choice
    if not changed and not options.strict_effect:
        yield ((), placed, False)


def unseen_cards(hands: tuple[str, ...], pile: str, player: int) -> str:
    """The cards ``player`` cannot see: the pile, then the other hands (sort it for the multiset)."""
    return pile + "".join(h for p, h in enumerate(hands) if p != player)


def redeal(hands: tuple[str, ...], pile: str, player: int, rng: random.Random) -> tuple[tuple[str, ...], str]:
    """The cards ``player`` cannot see (the other hands and the pile) shuffled uniformly at random: the
    other hands dealt again (their sizes kept, each sorted) and the rest as the pile, in shuffled order.

    The shuffle starts from the unseen cards in sorted order, so the result depends only on what
    ``player`` sees (the multiset of unseen cards, the hands' sizes) and on ``rng``: two states that
    ``player`` cannot tell apart give the same deal for the same seed."""
    unseen = sorted(unseen_cards(hands, pile, player))
    rng.shuffle(unseen)
    dealt = list(hands)
    for p in range(len(dealt)):
        if p != player:
            size = len(dealt[p])
            dealt[p] = "".join(sorted(unseen[:size]))
            del unseen[:size]
    return tuple(dealt), "".join(unseen)


#: Verdicts a :class:`StratoGame` remembers before it forgets them all: unbounded, one game object kept
#: for a long run (random playouts, a researcher's self-play) grew by about 0.4 MB every 1,000 tables met
#: (48,000 verdicts and 15 MB over 200 random two-player games of challenge 1), without end.
VICTORIES_KEPT = 1_000_000


class StratoGame(EqualByRules):
    """The rules of one Strato deal: a challenge, its options and the start position."""

    name = "strato"

    def __init__(self, challenge: Challenge, options: Options, start: State) -> None:
        self.challenge = challenge
        self.options = options
        self.start = start
        self.num_players = len(start.hands)
        self.hand_size = HAND_SIZE[self.num_players]
        # Victory depends on the rows alone, and many states share rows: remember each verdict.
        self._victory: dict[tuple[Row, ...], bool] = {}

    def _rules(self) -> tuple[Any, ...]:
        """What tells this game from another: the challenge, its options and the start."""
        return (self.challenge, self.options, self.start)

    # -- Game protocol -------------------------------------------------------------------------
    def initial_state(self) -> State:
        return self.start

    def to_move(self, state: State) -> int:
        return TERMINAL if self.is_terminal(state) else state.to_move

    def legal_moves(self, state: State) -> list[Move]:
        return [move for move, _ in self.plays(state)]

    def apply(self, state: State, move: Move) -> State:
        return self._match(state, move)[1]

    def _match(self, state: State, move: Move) -> tuple[Move, State]:
        """The legal move ``move`` stands for (an exchange may name its places in either order)."""
        if state.status != ONGOING:
            raise IllegalMove("the game is over")
        wanted = {move}
        if move.exchange:
            wanted.add(move._replace(target=move.target[::-1]))
        for candidate, after in self._plays_of(state, move.card, move.redraw, move.row, move.end):
            if candidate in wanted:
                return candidate, after
        raise IllegalMove(self.why_illegal(state, move))

    def chance_outcomes(self, state: State) -> Sequence[tuple[Move, Fraction]]:
        return ()

    def is_terminal(self, state: State) -> bool:
        return state.status != ONGOING or not any(True for _ in self.plays(state))

    def returns(self, state: State) -> tuple[float, ...]:
        value = 1.0 if state.status == WON else -1.0 if self.is_terminal(state) else 0.0
        return (value,) * self.num_players

    def format_move(self, state: State, move: Move) -> str:
        return format_move(move)

    def parse_move(self, state: State, text: str) -> Move:
        return self._match(state, parse_move(text))[0]

    def format_state(self, state: State) -> str:
        from stratagem.models.strato.rules.position import format_state

        return format_state(state)

    def parse_state(self, text: str) -> State:
        """Inverse of :meth:`format_state`, checked against this game's challenge: what no play can
        change, and the written result against the table
        (:func:`~stratagem.models.strato.rules.status.status_problem`)."""
        from stratagem.models.strato.rules.deal import DealError, check_position
        from stratagem.models.strato.rules.position import parse_state

        state = parse_state(text)
        try:
            check_position(self.challenge, state)
        except DealError as exc:
            raise NotationError(str(exc)) from None
        return state

    # -- HiddenInformation: what a player sees (docs/rules/strato.md, "Hidden information") -----------
    def observation(self, state: State, player: int) -> Hashable:
        """What ``player`` knows: the table, their own hand, every hand's size, the pile's size, the
        multiset of the cards they cannot see (the other hands and the pile: the deck is known and the
        discard pile lies face up), whose turn it is, the last weather played and the result. Not the
        pile's order, nor which unseen card is in which other hand (the seed: "You cannot show your
        cards or name them to other players")."""
        unseen = "".join(sorted(unseen_cards(state.hands, state.pile, player)))
        return (player, state.rows, state.hands[player], tuple(len(h) for h in state.hands), len(state.pile),
                unseen, state.to_move, state.last, state.status)

    def sample_state(self, state: State, player: int, rng: random.Random) -> State:
        """A state ``player`` cannot tell from ``state``: the unseen cards shuffled uniformly into the
        other hands (their sizes kept) and the pile's order."""
        hands, pile = redeal(state.hands, state.pile, player, rng)
        return state._replace(hands=hands, pile=pile)

    # -- move generation -----------------------------------------------------------------------
    def plays(self, state: State) -> list[tuple[Move, State]]:
        """Every legal move with the state it leads to, in a fixed order.

        Order: cards of the hand by weather (each distinct weather once: cards of one weather are
        interchangeable), then the Redraw; within each, rows in order, left end before right end,
        then target choices in the order the action lists them.
        """
        if state.status != ONGOING:
            return []
        hand = state.hands[state.to_move]
        out: list[tuple[Move, State]] = []
        for card in sorted(set(hand)):
            for r in range(len(state.rows)):
                for end in (0, 1):
                    out.extend(self._plays_of(state, card, False, r, end))
        if state.pile:
            for r in range(len(state.rows)):
                for end in (0, 1):
                    out.extend(self._plays_of(state, state.pile[0], True, r, end))
        return out

    def _plays_of(self, state: State, card: str, redraw: bool, r: int, end: int) -> list[tuple[Move, State]]:
        """The legal moves that play ``card`` (from hand, or by Redraw) at end ``end`` of row ``r``."""
        if state.status != ONGOING or not 0 <= r < len(state.rows) or end not in (0, 1):
            return []
        if redraw:
            if not state.pile or state.pile[0] != card:
                return []
        elif card not in state.hands[state.to_move]:
            return []
        choices = table_outcomes(state.rows, card, state.last, r, end, self.options)
        if not choices:  # strict_effect and nothing to change: not a legal play
            return []
        next_state = self._after_play(state, card, redraw)
        return [
            (Move(card, r, end, target, redraw, exchange), self._end_of_turn(next_state, rows))
            for target, rows, exchange in choices
        ]

    def _after_play(self, state: State, card: str, redraw: bool) -> State:
        """Hands, pile and last weather after the card left hand (or pile) and the player drew."""
        p = state.to_move
        pile = state.pile
        if redraw:
            pile = pile[1:]
            drawn, pile = pile[: self.hand_size], pile[self.hand_size :]
            hand = drawn
        else:
            hand = state.hands[p].replace(card, "", 1)
            if pile:
                hand, pile = hand + pile[0], pile[1:]
        hand = "".join(sorted(hand))
        last = state.last if card == CLOUD else card
        hands = state.hands[:p] + (hand,) + state.hands[p + 1 :]
        return State(state.rows, hands, pile, (p + 1) % self.num_players, last, ONGOING)

    def _end_of_turn(self, state: State, rows: tuple[Row, ...]) -> State:
        """The end-of-turn checks, in the seed's order, on the new rows."""
        status = end_of_turn_status(self.challenge, rows, state.pile, state.hands[state.to_move], self._won)
        return State(rows, state.hands, state.pile, state.to_move, state.last, status)

    def _won(self, rows: tuple[Row, ...]) -> bool:
        verdict = self._victory.get(rows)
        if verdict is None:
            if len(self._victory) >= VICTORIES_KEPT:
                self._victory.clear()
            verdict = self._victory[rows] = self.challenge.victory(rows)
        return verdict

    # -- explanations --------------------------------------------------------------------------
    def why_illegal(self, state: State, move: Move) -> str:
        """A one-line reason why ``move`` is not legal in ``state``."""
        text = format_move(move)
        if state.status != ONGOING:
            return f"{text}: the game is over"
        if not 0 <= move.row < len(state.rows):
            return f"{text}: there is no row {move.row + 1} (rows 1-{len(state.rows)})"
        if move.redraw:
            if not state.pile:
                return f"{text}: Redraw needs a draw pile, and it is empty"
            if state.pile[0] != move.card:
                return f"{text}: the top card of the draw pile is {state.pile[0]}, not {move.card}"
        elif move.card not in state.hands[state.to_move]:
            hand = state.hands[state.to_move] or "no cards"
            return f"{text}: player {state.to_move + 1} holds {hand}, no {move.card}"
        options = [m for m, _ in self._plays_of(state, move.card, move.redraw, move.row, move.end)]
        if not options:
            return f"{text}: with strict_effect this card can change nothing here"
        shown = ", ".join(format_move(m) for m in options[:8]) + (" ..." if len(options) > 8 else "")
        return f"{text}: not a legal target choice here (legal: {shown})"
