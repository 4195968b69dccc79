"""Tiny reference games for testing the game-agnostic solvers (minimax, proof trees, MCTS, PIMC).

Each game implements the :class:`~stratagem.core.game.Game` protocol in full, notation included,
and is small enough that a brute-force search settles any position in well under a second:

* :class:`NimGame` -- normal-play Nim (whoever takes the last counter wins): two players, zero sum,
  no draws, many transpositions. Also a :class:`~stratagem.core.game.MoveOrdering` (moves that leave
  a nim-sum of zero first) and an :class:`~stratagem.core.game.Evaluation` (a deliberately weak guess).
* :class:`TicTacToeGame` -- noughts and crosses: two players, zero sum, with draws; ordering (centre,
  corners, edges) and an evaluation (open lines).
* :class:`PigGame` -- a short dice race with CHANCE nodes whose probabilities are unequal
  :class:`~fractions.Fraction` s (1/4, 1/2, 1/4), a turn limit that keeps the tree finite, and draws.
* :class:`CoinRowGame` -- three (or more) players take a coin from either end of a row; each scores
  what they took. General sum, so paranoid and max^n give different answers.

:func:`random_positions` plays random legal moves (chance outcomes drawn with their probabilities)
to produce many small test positions from one start. Other test modules import this file with
``from toygames import ...`` (tests in ``tests/solvers``) or ``from tests.solvers.toygames import ...``
(run as ``python -m pytest`` from the repository root).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from stratagem.core.errors import IllegalMove, NotationError
from stratagem.core.game import CHANCE, TERMINAL


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise NotationError(f"{what} {text!r} is not a whole number") from None


# --------------------------------------------------------------------------------------------------
# Nim


class NimState(NamedTuple):
    """Counters per pile and the player to move (0 or 1)."""

    piles: tuple[int, ...]
    player: int


#: A Nim move: (pile index from 0, counters taken).
NimMove = tuple[int, int]


class NimGame:
    """Normal-play Nim: take one or more counters from one pile; who takes the last counter wins.

    State notation ``3.2.1/0`` (piles, then the player to move); move notation ``2-3`` (from the
    2nd pile, counting from 1, take 3).

    With ``again_on_empty`` a player who empties a pile moves again, so turns do not simply
    alternate (a case negamax must get right); the last move always empties a pile, so at the end
    the player "to move" is the one who took the last counter.
    """

    name = "nim"
    num_players = 2

    def __init__(self, piles: tuple[int, ...] = (3, 2, 2), again_on_empty: bool = False) -> None:
        self.piles = piles
        self.again_on_empty = again_on_empty

    def initial_state(self) -> NimState:
        return NimState(self.piles, 0)

    def to_move(self, state: NimState) -> int:
        return TERMINAL if self.is_terminal(state) else state.player

    def legal_moves(self, state: NimState) -> Sequence[NimMove]:
        return [(i, take) for i, n in enumerate(state.piles) for take in range(1, n + 1)]

    def apply(self, state: NimState, move: NimMove) -> NimState:
        i, take = move
        if not (0 <= i < len(state.piles) and 1 <= take <= state.piles[i]):
            raise IllegalMove(f"cannot take {take} from pile {i + 1} of {state.piles}")
        piles = state.piles[:i] + (state.piles[i] - take,) + state.piles[i + 1 :]
        again = self.again_on_empty and piles[i] == 0
        return NimState(piles, state.player if again else 1 - state.player)

    def chance_outcomes(self, state: NimState) -> Sequence[tuple[NimMove, Fraction]]:
        return []

    def is_terminal(self, state: NimState) -> bool:
        return not any(state.piles)

    def returns(self, state: NimState) -> tuple[float, ...]:
        # The player to move at the end faces empty piles: the other player took the last counter
        # (with again_on_empty the player who took it keeps the turn).
        last = state.player if self.again_on_empty else 1 - state.player
        return (1, -1) if last == 0 else (-1, 1)

    def format_move(self, state: NimState, move: NimMove) -> str:
        return f"{move[0] + 1}-{move[1]}"

    def parse_move(self, state: NimState, text: str) -> NimMove:
        pile, sep, take = text.strip().partition("-")
        if not sep:
            raise NotationError(f"Nim move {text!r} is not PILE-TAKE, e.g. 2-3")
        move = (_int(pile, "pile") - 1, _int(take, "count"))
        if move not in self.legal_moves(state):
            raise IllegalMove(f"move {text!r} is not legal in {self.format_state(state)}")
        return move

    def format_state(self, state: NimState) -> str:
        return ".".join(str(n) for n in state.piles) + f"/{state.player}"

    def parse_state(self, text: str) -> NimState:
        piles_text, sep, player_text = text.strip().partition("/")
        if not sep or player_text not in ("0", "1"):
            raise NotationError(f"Nim state {text!r} is not PILES/PLAYER, e.g. 3.2.1/0")
        piles = tuple(_int(p, "pile") for p in piles_text.split("."))
        if any(n < 0 for n in piles):
            raise NotationError(f"Nim state {text!r} has a negative pile")
        return NimState(piles, int(player_text))

    def order_moves(self, state: NimState, moves: Sequence[NimMove]) -> Sequence[NimMove]:
        def leaves_zero(move: NimMove) -> bool:
            total = 0
            for i, n in enumerate(state.piles):
                total ^= n - move[1] if i == move[0] else n
            return total == 0

        return sorted(moves, key=lambda m: not leaves_zero(m))

    def evaluate(self, state: NimState) -> tuple[float, ...]:
        # Weak on purpose: more counters left looks slightly better for the player to move.
        guess = min(sum(state.piles), 4) / 10
        return (guess, -guess) if state.player == 0 else (-guess, guess)


# --------------------------------------------------------------------------------------------------
# Tic-tac-toe

_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_CELL_ORDER = (4, 0, 2, 6, 8, 1, 3, 5, 7)


class TicTacToeGame:
    """Noughts and crosses; X (player 0) moves first.

    A state is the board as 9 characters ``X``, ``O`` or ``.``, row by row (``XO..X...O``); the
    player to move follows from the counts. A move is the cell number 1-9, row by row.
    """

    name = "tictactoe"
    num_players = 2

    def initial_state(self) -> str:
        return "." * 9

    def _winner(self, board: str) -> str:
        for a, b, c in _LINES:
            if board[a] != "." and board[a] == board[b] == board[c]:
                return board[a]
        return ""

    def to_move(self, state: str) -> int:
        if self.is_terminal(state):
            return TERMINAL
        return 0 if state.count("X") == state.count("O") else 1

    def legal_moves(self, state: str) -> Sequence[int]:
        if self.is_terminal(state):
            return []
        return [i for i, c in enumerate(state) if c == "."]

    def apply(self, state: str, move: int) -> str:
        if move not in self.legal_moves(state):
            raise IllegalMove(f"cell {move + 1} is not free in {state}")
        mark = "X" if self.to_move(state) == 0 else "O"
        return state[:move] + mark + state[move + 1 :]

    def chance_outcomes(self, state: str) -> Sequence[tuple[int, Fraction]]:
        return []

    def is_terminal(self, state: str) -> bool:
        return bool(self._winner(state)) or "." not in state

    def returns(self, state: str) -> tuple[float, ...]:
        winner = self._winner(state)
        return (1, -1) if winner == "X" else (-1, 1) if winner == "O" else (0, 0)

    def format_move(self, state: str, move: int) -> str:
        return str(move + 1)

    def parse_move(self, state: str, text: str) -> int:
        move = _int(text.strip(), "cell") - 1
        if move not in self.legal_moves(state):
            raise IllegalMove(f"cell {text!r} is not a legal move in {state}")
        return move

    def format_state(self, state: str) -> str:
        return state

    def parse_state(self, text: str) -> str:
        text = text.strip()
        if len(text) != 9 or set(text) - set("XO."):
            raise NotationError(f"tic-tac-toe board {text!r} is not 9 characters of X, O and .")
        if text.count("X") - text.count("O") not in (0, 1):
            raise NotationError(f"tic-tac-toe board {text!r} has impossible counts of X and O")
        return text

    def order_moves(self, state: str, moves: Sequence[int]) -> Sequence[int]:
        return sorted(moves, key=_CELL_ORDER.index)

    def evaluate(self, state: str) -> tuple[float, ...]:
        open_x = sum(1 for line in _LINES if all(state[i] != "O" for i in line))
        open_o = sum(1 for line in _LINES if all(state[i] != "X" for i in line))
        guess = (open_x - open_o) / 10
        return (guess, -guess)


# --------------------------------------------------------------------------------------------------
# Pig, a dice race with chance nodes


class PigState(NamedTuple):
    """Banked scores, the points at risk this turn, the player, turns left, and a die in the air."""

    scores: tuple[int, int]
    at_risk: int
    player: int
    turns_left: int
    rolling: bool


#: Faces of the die with their probabilities; a 1 loses the points at risk and ends the turn.
PIG_DIE: tuple[tuple[int, Fraction], ...] = ((1, Fraction(1, 4)), (2, Fraction(1, 2)), (3, Fraction(1, 4)))


class PigGame:
    """A short game of Pig: roll to add to the points at risk, hold to bank them and pass the turn.

    Rolling a 1 loses the points at risk and passes the turn. Whoever banks (or reaches, while
    rolling) ``target`` points wins at once; after ``turns`` turns in all the higher banked score
    wins, equal scores draw. Moves are ``roll`` and ``hold``; after ``roll`` the die is a CHANCE node
    with outcomes ``1``, ``2``, ``3``. State notation ``2.0+3/1/4`` (scores, points at risk, player,
    turns left) with a trailing ``*`` while the die is rolling.
    """

    name = "pig"
    num_players = 2

    def __init__(self, target: int = 4, turns: int = 4) -> None:
        self.target = target
        self.turns = turns

    def initial_state(self) -> PigState:
        return PigState((0, 0), 0, 0, self.turns, False)

    def to_move(self, state: PigState) -> int:
        if self.is_terminal(state):
            return TERMINAL
        return CHANCE if state.rolling else state.player

    def legal_moves(self, state: PigState) -> Sequence[str]:
        if self.is_terminal(state) or state.rolling:
            return []
        return ["roll", "hold"]

    def _pass_turn(self, state: PigState, scores: tuple[int, int]) -> PigState:
        return PigState(scores, 0, 1 - state.player, state.turns_left - 1, False)

    def apply(self, state: PigState, move: Any) -> PigState:
        if state.rolling:
            faces = [face for face, _ in PIG_DIE]
            if move not in faces:
                raise IllegalMove(f"die face {move!r} is not one of {faces}")
            if move == 1:
                return self._pass_turn(state, state.scores)
            at_risk = state.at_risk + move
            if state.scores[state.player] + at_risk >= self.target:
                return self._pass_turn(state, self._bank(state, at_risk))
            return state._replace(at_risk=at_risk, rolling=False)
        if move not in self.legal_moves(state):
            raise IllegalMove(f"move {move!r} is not legal in {self.format_state(state)}")
        if move == "roll":
            return state._replace(rolling=True)
        return self._pass_turn(state, self._bank(state, state.at_risk))

    def _bank(self, state: PigState, points: int) -> tuple[int, int]:
        scores = list(state.scores)
        scores[state.player] += points
        return (scores[0], scores[1])

    def chance_outcomes(self, state: PigState) -> Sequence[tuple[Any, Fraction]]:
        return list(PIG_DIE) if state.rolling and not self.is_terminal(state) else []

    def is_terminal(self, state: PigState) -> bool:
        return max(state.scores) >= self.target or state.turns_left <= 0

    def returns(self, state: PigState) -> tuple[float, ...]:
        a, b = state.scores
        return (1, -1) if a > b else (-1, 1) if b > a else (0, 0)

    def format_move(self, state: PigState, move: Any) -> str:
        return str(move)

    def parse_move(self, state: PigState, text: str) -> Any:
        text = text.strip()
        if state.rolling:
            face = _int(text, "die face")
            if face not in [f for f, _ in PIG_DIE]:
                raise IllegalMove(f"die face {text!r} cannot come up")
            return face
        if text not in ("roll", "hold"):
            raise NotationError(f"Pig move {text!r} is not roll or hold")
        if text not in self.legal_moves(state):
            raise IllegalMove(f"move {text!r} is not legal in {self.format_state(state)}")
        return text

    def format_state(self, state: PigState) -> str:
        a, b = state.scores
        text = f"{a}.{b}+{state.at_risk}/{state.player}/{state.turns_left}"
        return text + ("*" if state.rolling else "")

    def parse_state(self, text: str) -> PigState:
        text = text.strip()
        rolling = text.endswith("*")
        body = text.removesuffix("*")
        try:
            scores_text, rest = body.split("+")
            a, b = scores_text.split(".")
            at_risk, player, turns_left = rest.split("/")
        except ValueError:
            raise NotationError(f"Pig state {text!r} is not A.B+RISK/PLAYER/TURNS[*]") from None
        if player not in ("0", "1"):
            raise NotationError(f"Pig state {text!r}: the player must be 0 or 1")
        return PigState((_int(a, "score"), _int(b, "score")), _int(at_risk, "points"), int(player),
                        _int(turns_left, "turns"), rolling)

    def evaluate(self, state: PigState) -> tuple[float, ...]:
        lead = (state.scores[0] - state.scores[1]) / (2 * self.target)
        return (lead, -lead)


# --------------------------------------------------------------------------------------------------
# Coin row, three players


class CoinRowState(NamedTuple):
    """Coins left in the row, what each player has taken so far, and the player to move."""

    coins: tuple[int, ...]
    scores: tuple[int, ...]
    player: int


class CoinRowGame:
    """Players in turn take the coin at the left (``L``) or right (``R``) end of a row of coins.

    Each player's return is the total value they took (general sum). With one coin left only ``L``
    is listed. State notation ``3.1.4|0.2.5|1``: coins, scores per player, player to move.
    """

    name = "coinrow"

    def __init__(self, coins: tuple[int, ...] = (3, 1, 4, 1, 5, 9, 2), num_players: int = 3) -> None:
        self.coins = coins
        self.num_players = num_players

    def initial_state(self) -> CoinRowState:
        return CoinRowState(self.coins, (0,) * self.num_players, 0)

    def to_move(self, state: CoinRowState) -> int:
        return TERMINAL if self.is_terminal(state) else state.player

    def legal_moves(self, state: CoinRowState) -> Sequence[str]:
        n = len(state.coins)
        return [] if n == 0 else ["L"] if n == 1 else ["L", "R"]

    def apply(self, state: CoinRowState, move: str) -> CoinRowState:
        if move not in self.legal_moves(state):
            raise IllegalMove(f"move {move!r} is not legal in {self.format_state(state)}")
        coin = state.coins[0] if move == "L" else state.coins[-1]
        coins = state.coins[1:] if move == "L" else state.coins[:-1]
        scores = tuple(s + coin if i == state.player else s for i, s in enumerate(state.scores))
        return CoinRowState(coins, scores, (state.player + 1) % self.num_players)

    def chance_outcomes(self, state: CoinRowState) -> Sequence[tuple[str, Fraction]]:
        return []

    def is_terminal(self, state: CoinRowState) -> bool:
        return not state.coins

    def returns(self, state: CoinRowState) -> tuple[float, ...]:
        return state.scores

    def format_move(self, state: CoinRowState, move: str) -> str:
        return move

    def parse_move(self, state: CoinRowState, text: str) -> str:
        text = text.strip()
        if text not in ("L", "R"):
            raise NotationError(f"coin-row move {text!r} is not L or R")
        if text not in self.legal_moves(state):
            raise IllegalMove(f"move {text!r} is not legal in {self.format_state(state)}")
        return text

    def format_state(self, state: CoinRowState) -> str:
        coins = ".".join(str(c) for c in state.coins)
        scores = ".".join(str(s) for s in state.scores)
        return f"{coins}|{scores}|{state.player}"

    def parse_state(self, text: str) -> CoinRowState:
        parts = text.strip().split("|")
        if len(parts) != 3:
            raise NotationError(f"coin-row state {text!r} is not COINS|SCORES|PLAYER")
        coins = tuple(_int(c, "coin") for c in parts[0].split(".")) if parts[0] else ()
        scores = tuple(_int(s, "score") for s in parts[1].split("."))
        player = _int(parts[2], "player")
        if len(scores) != self.num_players or not 0 <= player < self.num_players:
            raise NotationError(f"coin-row state {text!r} does not fit {self.num_players} players")
        return CoinRowState(coins, scores, player)

    def order_moves(self, state: CoinRowState, moves: Sequence[str]) -> Sequence[str]:
        return sorted(moves, key=lambda m: -(state.coins[0] if m == "L" else state.coins[-1]))

    def evaluate(self, state: CoinRowState) -> tuple[float, ...]:
        share = sum(state.coins) / self.num_players
        return tuple(s + share for s in state.scores)


# --------------------------------------------------------------------------------------------------


def random_positions(game: Any, rng: random.Random, count: int, max_plies: int,
                     start: Hashable | None = None) -> list[Any]:
    """``count`` states reached by 0..``max_plies`` random plies from ``start`` (default: the start).

    Chance outcomes are drawn with their probabilities; a playout stops early at a terminal state.
    """
    positions = []
    for _ in range(count):
        state = game.initial_state() if start is None else start
        for _ in range(rng.randint(0, max_plies)):
            if game.is_terminal(state):
                break
            if game.to_move(state) == CHANCE:
                outcomes = game.chance_outcomes(state)
                weights = [float(p) for _, p in outcomes]
                move = rng.choices([o for o, _ in outcomes], weights)[0]
            else:
                move = rng.choice(list(game.legal_moves(state)))
            state = game.apply(state, move)
        positions.append(state)
    return positions


def random_nim(rng: random.Random, piles: int = 3, most: int = 3, again_on_empty: bool = False) -> NimGame:
    """A Nim game with ``piles`` random piles of 0..``most`` counters."""
    return NimGame(tuple(rng.randint(0, most) for _ in range(piles)), again_on_empty)


def random_coin_row(rng: random.Random, length: int = 7, num_players: int = 3) -> CoinRowGame:
    """A coin-row game with ``length`` random coins worth 0..9."""
    return CoinRowGame(tuple(rng.randint(0, 9) for _ in range(length)), num_players)
