"""Tiny simultaneous-move games for testing the game-agnostic matrix, induction and DUCT solvers.

Each implements the :class:`~stratagem.core.game.Game` protocol and
:class:`~stratagem.core.game.Simultaneous` (``player_moves``; ``apply`` takes a joint move, one move
per player) plus :class:`~stratagem.core.game.Evaluation`, and is small enough for brute force:

* :class:`PenniesGame` -- matching pennies repeated for a few turns, with a payoff table (so a turn
  can have a non-trivial rational value) and, as an option, a *gamble*: the loser of a turn may
  accept the loss (an ordinary decision node) or gamble (a chance node: reversed or doubled, 1/2 each).
* :class:`GoofspielGame` -- goofspiel with cards 1..n: a prize card is revealed (a chance node, or the
  next in order when ``random_prizes`` is false), both players bid a card at once, the higher bid
  takes the prize, a tie discards it; whoever has more points at the end wins (+1/-1, 0 for a tie).
* :class:`OddOneOutGame` -- three players show 0 or 1 at once; if exactly one differs, that player
  scores 2 and then chooses (a decision node) which of the other two loses 2. Zero-sum over three.

Other test modules import this file with ``from simtoys import ...``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from stratagem.core.errors import IllegalMove, NotationError
from stratagem.core.game import CHANCE, SIMULTANEOUS, TERMINAL

#: Matching pennies: player 0 wins 1 on a match and loses 1 otherwise.
MATCHING = {("H", "H"): 1, ("H", "T"): -1, ("T", "H"): -1, ("T", "T"): 1}


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


class PenniesState(NamedTuple):
    turn: int
    score: int  # player 0's total; player 1's is its negation
    phase: str  # "play" (simultaneous), "decide" (the loser's choice) or "gamble" (chance)
    stake: int  # the unsettled result of the last turn, in the "decide" and "gamble" phases


class PenniesGame:
    """Matching pennies over ``turns`` turns with the payoff ``table`` (to player 0) per turn."""

    name = "pennies"
    num_players = 2

    def __init__(self, turns: int = 2, table: dict[tuple[str, str], int] | None = None, gamble: bool = False):
        self.turns = turns
        self.table = dict(MATCHING if table is None else table)
        self.gamble = gamble

    def initial_state(self) -> PenniesState:
        return PenniesState(0, 0, "play", 0)

    def to_move(self, state: PenniesState) -> int:
        if state.phase == "decide":
            return 1 if state.stake > 0 else 0
        if state.phase == "gamble":
            return CHANCE
        return TERMINAL if state.turn >= self.turns else SIMULTANEOUS

    def player_moves(self, state: PenniesState, player: int) -> Sequence[str]:
        return ("H", "T")

    def legal_moves(self, state: PenniesState) -> Sequence[str]:
        return ("accept", "gamble") if state.phase == "decide" else ()

    def chance_outcomes(self, state: PenniesState) -> Sequence[tuple[str, Fraction]]:
        return (("reverse", Fraction(1, 2)), ("double", Fraction(1, 2))) if state.phase == "gamble" else ()

    def apply(self, state: PenniesState, move: Any) -> PenniesState:
        turn, score, phase, stake = state
        if phase == "play" and state.turn < self.turns:
            if not (isinstance(move, tuple) and len(move) == 2 and all(m in ("H", "T") for m in move)):
                raise IllegalMove(f"not a joint move of two coins: {move!r}")
            result = self.table[(move[0], move[1])]
            if self.gamble and result != 0:
                return PenniesState(turn, score, "decide", result)
            return PenniesState(turn + 1, score + result, "play", 0)
        if phase == "decide" and move in ("accept", "gamble"):
            if move == "accept":
                return PenniesState(turn + 1, score + stake, "play", 0)
            return PenniesState(turn, score, "gamble", stake)
        if phase == "gamble" and move in ("reverse", "double"):
            return PenniesState(turn + 1, score + (-stake if move == "reverse" else 2 * stake), "play", 0)
        raise IllegalMove(f"{move!r} in {self.format_state(state)}")

    def is_terminal(self, state: PenniesState) -> bool:
        return self.to_move(state) == TERMINAL

    def returns(self, state: PenniesState) -> tuple[float, ...]:
        return (state.score, -state.score)

    def evaluate(self, state: PenniesState) -> tuple[float, ...]:
        return (state.score + state.stake / 2, -state.score - state.stake / 2)

    def format_move(self, state: PenniesState, move: Any) -> str:
        return "".join(move) if isinstance(move, tuple) else str(move)

    def format_player_move(self, state: PenniesState, player: int, move: str) -> str:
        return move

    def parse_move(self, state: PenniesState, text: str) -> Any:
        if state.phase == "play" and len(text) == 2:
            return (text[0], text[1])
        return text

    def format_state(self, state: PenniesState) -> str:
        return f"{state.turn}/{self.turns} {state.score:+d} {state.phase} {state.stake:+d}"

    def parse_state(self, text: str) -> PenniesState:
        try:
            turn, score, phase, stake = text.split()
            return PenniesState(int(turn.split("/")[0]), int(score), phase, int(stake))
        except ValueError as exc:
            raise NotationError(text) from exc


class GoofState(NamedTuple):
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    prizes: tuple[int, ...]  # prize cards not yet revealed
    prize: int  # the prize on the table, 0 when none is revealed
    points: tuple[int, int]


class GoofspielGame:
    """Goofspiel with cards ``1..cards`` for each player and as prizes."""

    name = "goofspiel"
    num_players = 2

    def __init__(self, cards: int = 3, random_prizes: bool = True) -> None:
        self.cards = cards
        self.random_prizes = random_prizes

    def initial_state(self) -> GoofState:
        deck = tuple(range(1, self.cards + 1))
        if self.random_prizes:
            return GoofState((deck, deck), deck, 0, (0, 0))
        return GoofState((deck, deck), deck[:-1], deck[-1], (0, 0))

    def to_move(self, state: GoofState) -> int:
        if state.prize:
            return SIMULTANEOUS
        return CHANCE if state.prizes else TERMINAL

    def player_moves(self, state: GoofState, player: int) -> Sequence[int]:
        return state.hands[player]

    def legal_moves(self, state: GoofState) -> Sequence[int]:
        return ()

    def chance_outcomes(self, state: GoofState) -> Sequence[tuple[int, Fraction]]:
        if state.prize or not state.prizes:
            return ()
        return tuple((p, Fraction(1, len(state.prizes))) for p in state.prizes)

    def apply(self, state: GoofState, move: Any) -> GoofState:
        if not state.prize:
            if move not in state.prizes:
                raise IllegalMove(f"prize {move!r} is not left")
            return GoofState(state.hands, tuple(p for p in state.prizes if p != move), move, state.points)
        if not (isinstance(move, tuple) and len(move) == 2):
            raise IllegalMove(f"not a joint bid: {move!r}")
        a, b = move
        if a not in state.hands[0] or b not in state.hands[1]:
            raise IllegalMove(f"bid {move!r} not in hand")
        points = list(state.points)
        if a != b:
            points[0 if a > b else 1] += state.prize
        hands = (tuple(c for c in state.hands[0] if c != a), tuple(c for c in state.hands[1] if c != b))
        prizes, prize = state.prizes, 0
        if not self.random_prizes and prizes:
            prizes, prize = prizes[:-1], prizes[-1]
        return GoofState(hands, prizes, prize, (points[0], points[1]))

    def is_terminal(self, state: GoofState) -> bool:
        return self.to_move(state) == TERMINAL

    def returns(self, state: GoofState) -> tuple[float, ...]:
        s = _sign(state.points[0] - state.points[1])
        return (s, -s)

    def evaluate(self, state: GoofState) -> tuple[float, ...]:
        s = _sign(state.points[0] - state.points[1])
        return (s, -s)

    def format_move(self, state: GoofState, move: Any) -> str:
        if isinstance(move, tuple):
            return f"{move[0]}-{move[1]}"
        return f"P{move}" if not state.prize else str(move)

    def format_player_move(self, state: GoofState, player: int, move: int) -> str:
        return str(move)

    def parse_move(self, state: GoofState, text: str) -> Any:
        if text.startswith("P"):
            return int(text[1:])
        a, _, b = text.partition("-")
        return (int(a), int(b))

    def format_state(self, state: GoofState) -> str:
        hands = "/".join("".join(map(str, h)) or "-" for h in state.hands)
        prizes = "".join(map(str, state.prizes)) or "-"
        return f"{hands} prizes:{prizes} up:{state.prize} {state.points[0]}-{state.points[1]}"

    def parse_state(self, text: str) -> GoofState:
        raise NotationError("not needed by the tests")


class OddState(NamedTuple):
    turn: int
    scores: tuple[int, int, int]
    odd: int  # the odd player choosing whom to charge, -1 when nobody is choosing


class OddOneOutGame:
    """Three players show 0 or 1 at once for ``turns`` turns (see the module docstring)."""

    name = "oddoneout"
    num_players = 3

    def __init__(self, turns: int = 2) -> None:
        self.turns = turns

    def initial_state(self) -> OddState:
        return OddState(0, (0, 0, 0), -1)

    def to_move(self, state: OddState) -> int:
        if state.odd >= 0:
            return state.odd
        return TERMINAL if state.turn >= self.turns else SIMULTANEOUS

    def player_moves(self, state: OddState, player: int) -> Sequence[int]:
        return (0, 1)

    def legal_moves(self, state: OddState) -> Sequence[int]:
        return tuple(q for q in range(3) if q != state.odd) if state.odd >= 0 else ()

    def chance_outcomes(self, state: OddState) -> Sequence[tuple[int, Fraction]]:
        return ()

    def apply(self, state: OddState, move: Any) -> OddState:
        scores = list(state.scores)
        if state.odd >= 0:
            if move not in self.legal_moves(state):
                raise IllegalMove(f"player {move!r} cannot be charged")
            scores[move] -= 2
            return OddState(state.turn + 1, (scores[0], scores[1], scores[2]), -1)
        if not (isinstance(move, tuple) and len(move) == 3 and all(m in (0, 1) for m in move)):
            raise IllegalMove(f"not a joint move of three: {move!r}")
        ones = sum(move)
        if ones in (0, 3):
            return OddState(state.turn + 1, state.scores, -1)
        odd = move.index(1) if ones == 1 else move.index(0)
        scores[odd] += 2
        return OddState(state.turn, (scores[0], scores[1], scores[2]), odd)

    def is_terminal(self, state: OddState) -> bool:
        return self.to_move(state) == TERMINAL

    def returns(self, state: OddState) -> tuple[float, ...]:
        return tuple(float(s) for s in state.scores)

    def evaluate(self, state: OddState) -> tuple[float, ...]:
        return self.returns(state)

    def format_move(self, state: OddState, move: Any) -> str:
        if isinstance(move, tuple):
            return "".join(map(str, move))
        return f"charge{move}" if state.odd >= 0 else str(move)

    def parse_move(self, state: OddState, text: str) -> Any:
        if text.startswith("charge"):
            return int(text[6:])
        return tuple(int(c) for c in text)

    def format_state(self, state: OddState) -> str:
        return f"t{state.turn} {','.join(map(str, state.scores))} odd{state.odd}"

    def parse_state(self, text: str) -> OddState:
        raise NotationError("not needed by the tests")


# --- a brute-force matrix-game solver, independent of stratagem.solvers.matrix ------------------


def _solve_unique(rows: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """The unique solution of a square system by Gaussian elimination, or None if it is singular."""
    n = len(rows)
    m = [list(r) + [b] for r, b in zip(rows, rhs, strict=True)]
    for c in range(n):
        pivot = next((k for k in range(c, n) if m[k][c] != 0), None)
        if pivot is None:
            return None
        m[c], m[pivot] = m[pivot], m[c]
        for k in range(n):
            if k != c and m[k][c] != 0:
                f = m[k][c] / m[c][c]
                m[k] = [a - f * b for a, b in zip(m[k], m[c], strict=True)]
    return [m[k][n] / m[k][k] for k in range(n)]


def _equalising(a: list[list[Fraction]], rows: tuple[int, ...], cols: tuple[int, ...]) -> list[Fraction] | None:
    """x on ``rows`` paying the same v against every column of ``cols``; returns x (full length) + [v]."""
    k = len(rows)
    system = [[a[i][j] for i in rows] + [Fraction(-1)] for j in cols] + [[Fraction(1)] * k + [Fraction(0)]]
    solution = _solve_unique(system, [Fraction(0)] * k + [Fraction(1)])
    if solution is None or any(p < 0 for p in solution[:k]):
        return None
    x = [Fraction(0)] * len(a)
    for i, p in zip(rows, solution, strict=False):
        x[i] = p
    return x + [solution[k]]


def brute_force_value(matrix: Sequence[Sequence[Fraction | int]]) -> Fraction:
    """The value of a zero-sum matrix game by enumerating square supports exactly (Shapley-Snow).

    Every matrix game has optimal strategies whose supports index a square submatrix on which both
    equalising systems have a unique solution (Shapley and Snow, 1950), so enumerating square
    support pairs, solving both systems and keeping the first pair that checks finds the value.
    """
    import itertools

    a = [[Fraction(e) for e in line] for line in matrix]
    m, n = len(a), len(a[0])
    transposed = [[-a[i][j] for i in range(m)] for j in range(n)]
    for k in range(1, min(m, n) + 1):
        for rows in itertools.combinations(range(m), k):
            for cols in itertools.combinations(range(n), k):
                x = _equalising(a, rows, cols)
                y = _equalising(transposed, cols, rows)
                if x is None or y is None:
                    continue
                v = x[-1]
                if all(sum(x[i] * a[i][j] for i in range(m)) >= v for j in range(n)) and all(
                    sum(y[j] * a[i][j] for j in range(n)) <= v for i in range(m)
                ):
                    return v
    raise AssertionError(f"no square support solves {matrix}")
