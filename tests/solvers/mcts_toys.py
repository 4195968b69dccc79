"""Tiny games for the Monte Carlo tests that ``toygames.py`` does not cover.

* :class:`GuessGame` -- hidden information: a card 0..2 lies face down; player 0 guesses it (+1 if
  right, -1 if wrong) or passes for a sure +0.2 (player 1 gets the negation and never moves). Seen by
  player 0, guessing is worth 1/3 - 2/3 = -1/3 < 0.2, so an honest hidden-information search passes;
  a search that peeks at the card guesses it. With ``bonus_on=c`` the move ``bonus`` (+1) is legal
  only when the card is ``c`` -- deliberately unfair, to test that PIMC counts a move only in the
  samples where it is legal.
* :class:`DominanceGame` -- one simultaneous turn: player 0 picks ``a`` or ``b``, player 1 ``x`` or
  ``y``; player 0 gets ``a``: +1 against either, ``b``: -1 against ``x`` and 0 against ``y`` (player
  1 the negation). ``a`` strictly dominates ``b``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from random import Random
from typing import Any, NamedTuple

from stratagem.core.errors import IllegalMove, NotationError
from stratagem.core.game import SIMULTANEOUS, TERMINAL

#: Player 0's sure return for passing in :class:`GuessGame`.
PASS_VALUE = 0.2


class GuessState(NamedTuple):
    """The face-down card and player 0's move (empty until made)."""

    card: int
    move: str


class GuessGame:
    """See the module docstring. State notation ``CARD/MOVE`` (``1/`` before the move)."""

    name = "guess"
    num_players = 2
    cards = (0, 1, 2)

    def __init__(self, card: int = 0, bonus_on: int | None = None) -> None:
        self.card = card
        self.bonus_on = bonus_on

    def initial_state(self) -> GuessState:
        return GuessState(self.card, "")

    def to_move(self, state: GuessState) -> int:
        return TERMINAL if self.is_terminal(state) else 0

    def legal_moves(self, state: GuessState) -> Sequence[str]:
        if self.is_terminal(state):
            return []
        moves = [f"guess-{c}" for c in self.cards] + ["pass"]
        return moves + ["bonus"] if state.card == self.bonus_on else moves

    def apply(self, state: GuessState, move: str) -> GuessState:
        if move not in self.legal_moves(state):
            raise IllegalMove(f"{move!r} is not legal in {self.format_state(state)}")
        return state._replace(move=move)

    def chance_outcomes(self, state: GuessState) -> Sequence[tuple[str, Fraction]]:
        return []

    def is_terminal(self, state: GuessState) -> bool:
        return state.move != ""

    def returns(self, state: GuessState) -> tuple[float, ...]:
        if state.move == "pass":
            value = PASS_VALUE
        elif state.move == "bonus":
            value = 1.0
        else:
            value = 1.0 if state.move == f"guess-{state.card}" else -1.0
        return (value, -value)

    def format_move(self, state: GuessState, move: str) -> str:
        return move

    def parse_move(self, state: GuessState, text: str) -> str:
        if text not in self.legal_moves(state):
            raise IllegalMove(f"{text!r} is not legal in {self.format_state(state)}")
        return text

    def format_state(self, state: GuessState) -> str:
        return f"{state.card}/{state.move}"

    def parse_state(self, text: str) -> GuessState:
        card, sep, move = text.partition("/")
        if not sep or card not in ("0", "1", "2"):
            raise NotationError(f"guess state {text!r} is not CARD/MOVE")
        return GuessState(int(card), move)

    def observation(self, state: GuessState, player: int) -> Hashable:
        # Player 1 sees the card; player 0 sees only the move made.
        return state if player == 1 else state.move

    def sample_state(self, state: GuessState, player: int, rng: Random) -> GuessState:
        if player == 1:
            return state
        return state._replace(card=rng.choice(self.cards))


class DominanceGame:
    """See the module docstring. State: ``""`` before the turn, else the joint move like ``"a,y"``."""

    name = "dominance"
    num_players = 2
    payoff = {("a", "x"): 1.0, ("a", "y"): 1.0, ("b", "x"): -1.0, ("b", "y"): 0.0}

    def initial_state(self) -> str:
        return ""

    def to_move(self, state: str) -> int:
        return TERMINAL if state else SIMULTANEOUS

    def legal_moves(self, state: str) -> Sequence[Any]:
        return []

    def player_moves(self, state: str, player: int) -> Sequence[str]:
        return [] if state else (["a", "b"] if player == 0 else ["x", "y"])

    def apply(self, state: str, move: Any) -> str:
        if state or len(move) != 2 or (move[0], move[1]) not in self.payoff:
            raise IllegalMove(f"{move!r} is not a joint move here")
        return f"{move[0]},{move[1]}"

    def chance_outcomes(self, state: str) -> Sequence[tuple[Any, Fraction]]:
        return []

    def is_terminal(self, state: str) -> bool:
        return bool(state)

    def returns(self, state: str) -> tuple[float, ...]:
        first, second = state.split(",")
        value = self.payoff[(first, second)]
        return (value, -value)

    def format_move(self, state: str, move: Any) -> str:
        return ",".join(move) if isinstance(move, tuple) else str(move)

    def parse_move(self, state: str, text: str) -> Any:
        parts = tuple(text.split(","))
        if parts not in self.payoff:
            raise NotationError(f"{text!r} is not a joint move like a,x")
        return parts

    def format_state(self, state: str) -> str:
        return state

    def parse_state(self, text: str) -> str:
        return text
