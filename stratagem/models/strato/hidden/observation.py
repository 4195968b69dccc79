"""What one Strato player sees, as the one thing an agent is handed (issue 29).

A player at the table sees the rows, their own hand, how many cards each other hand holds and how many
the pile holds, the discard pile (face up: the cards a Sun removed and the hands a Redraw discarded),
whose turn and which phase of it (an announced Redraw end, a revealed card, draws still to make) and the
last weather played. As the deck is known (nine cards of each weather in play), the multiset of cards
they cannot see -- the other hands and the pile together -- follows. They never see which unseen card
lies in which other hand, nor the pile's order (docs/rules/strato.md, "Hidden information").

:class:`StratoObservation` holds exactly that, and :func:`observe` makes it from a true state. An agent
(:mod:`.agents`) gets an observation and a *public* game (:func:`public_game`: the challenge, the
options and a start built from public facts only), never the true state: what it decides is a function of
the observation, the rules and its random stream, whatever the hidden cards are. Where an agent needs a
full state to search from, :meth:`StratoObservation.state` gives the **canonical** one: the unseen cards
in sorted order dealt to the other hands in seat order, the rest as the pile (a multiset) -- one fixed
state per observation, so that ``sample_state`` (which redeals the unseen cards from sorted order) draws
the same samples for the same observation and seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from stratagem.models.strato.hidden.game import PLAY, HiddenState, HiddenStrato
from stratagem.models.strato.rules.cards import COPIES_PER_WEATHER
from stratagem.models.strato.rules.challenge import Challenge, Options
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import Row

__all__ = ["PublicPlay", "StratoObservation", "observe", "public_game", "public_play", "public_state"]


class PublicPlay(NamedTuple):
    """One decision everybody at the table saw: who made it, the table and the last weather before it,
    the size of that player's hand then, the phase (a play from hand or a Redraw's announcement at
    :data:`~stratagem.models.strato.hidden.game.PLAY`, a Redraw's target at ``TARGET``) and the move.
    Nothing in it is hidden: the card played from hand is laid face up."""

    player: int
    rows: tuple[Row, ...]
    last: str
    hand_size: int
    phase: int
    move: Move


def public_play(state: HiddenState, move: Move) -> PublicPlay:
    """What the table sees of ``move`` made by the player to move in ``state``."""
    return PublicPlay(state.to_move, state.rows, state.last, len(state.hands[state.to_move]), state.phase, move)


@dataclass(frozen=True)
class StratoObservation:
    """Everything ``player`` knows of a hidden-pile Strato state, and nothing else.

    ``unseen`` and ``discard`` are multisets (weather letters in alphabetical order, as hands are
    kept); ``hand_sizes`` counts every player's hand, ``pile_size`` the pile. ``phase``,
    ``row``/``end``, ``card`` and ``draws`` are the turn's phase as
    :class:`~stratagem.models.strato.hidden.game.HiddenState` has them (public: an announced end, a
    revealed card, the draws left).
    """

    challenge: Challenge
    options: Options
    player: int
    rows: tuple[Row, ...]
    hand: str
    hand_sizes: tuple[int, ...]
    pile_size: int
    unseen: str
    discard: str
    to_move: int
    last: str
    status: int
    phase: int = PLAY
    row: int = -1
    end: int = -1
    card: str = ""
    draws: int = 0
    #: The decisions made so far in the game, oldest first, as the table saw them (:class:`PublicPlay`):
    #: what an agent may infer the other hands from. Empty when the caller kept no history.
    plays: tuple[PublicPlay, ...] = ()

    def state(self) -> HiddenState:
        """The canonical state of this observation: the unseen cards, sorted, dealt to the other hands in
        seat order (each hand its size), the rest as the pile. A function of the observation alone."""
        rest = self.unseen
        hands = []
        for p, size in enumerate(self.hand_sizes):
            if p == self.player:
                hands.append(self.hand)
            else:
                hands.append(rest[:size])
                rest = rest[size:]
        return HiddenState(self.rows, tuple(hands), rest, self.to_move, self.last, self.status, self.phase,
                           self.row, self.end, self.card, self.draws)


def _deck(challenge: Challenge) -> Counter[str]:
    return Counter({w: COPIES_PER_WEATHER for w in challenge.weathers})


def _table(rows: tuple[Row, ...]) -> Counter[str]:
    return Counter("".join(row.left + row.right for row in rows))


def observe(game: HiddenStrato, state: HiddenState, player: int | None = None,
            plays: Sequence[PublicPlay] = ()) -> StratoObservation:
    """What ``player`` (by default the player to move) sees of the true ``state``, with the game's
    public history ``plays`` (the decisions made so far, oldest first)."""
    seat = state.to_move if player is None else player
    unseen = Counter(state.pile)
    for p, hand in enumerate(state.hands):
        if p != seat:
            unseen.update(hand)
    gone = _deck(game.challenge) - _table(state.rows) - Counter(state.hands[seat]) - Counter(state.card) - unseen
    return StratoObservation(
        game.challenge, game.options, seat, state.rows, state.hands[seat], tuple(len(h) for h in state.hands),
        len(state.pile), "".join(sorted(unseen.elements())),
        "".join(sorted(gone.elements())), state.to_move, state.last, state.status,
        state.phase, state.row, state.end, state.card, state.draws, tuple(plays))


def public_state(game: HiddenStrato, state: HiddenState) -> HiddenState:
    """``state`` as nobody in particular sees it: every card in a hand or the pile, sorted, dealt to the
    hands in seat order (each its size), the rest as the pile. Depends only on public facts."""
    cards = sorted("".join(state.hands) + state.pile)
    hands = []
    for hand in state.hands:
        hands.append("".join(sorted(cards[:len(hand)])))
        del cards[:len(hand)]
    return state._replace(hands=tuple(hands), pile="".join(sorted(cards)))


def public_game(game: HiddenStrato) -> HiddenStrato:
    """The rules an agent is handed: ``game``'s challenge and options with :func:`public_state` of its
    start (so no hand can be read from it)."""
    return HiddenStrato(game.challenge, game.options, public_state(game, game.start))
