"""Strato states as integer vectors for the compiled search (:mod:`search_kernel`), and back.

A deal *fits* the packing when its half-rows hold at most 8 cards (the card limit; a longer half-row
loses at once and is never stored), it has at most 4 rows and the draw pile at most 63 cards: then a
state packs into ``rows + 1`` 64-bit integers (:func:`search_kernel.pack`). Every shipped challenge
fits (the limit is at most 8 by the rules, the deck has 54 cards).

The unpacked vector (slots named by :class:`Layout`): for each row and side the half-row's length and
its cards outward from the tornado; for each player the hand's size and its cards (sorted); the pile
position (cards drawn so far from the deal's pile: the pile is always a suffix of it); the player to
move; the last weather (-1 for none); the result (0 ongoing, 1 won, -1 lost). Weathers are numbered
in letter order, ``C F R S T W``, so sorted hands stay sorted.

:func:`compiled_plays` is the compiled move generator seen as the engine's ``plays``: the property
test holds the two equal on random states.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from stratagem.models.strato.rules.cards import CLOUD, HAND_SIZE, MAX_LIMIT
from stratagem.models.strato.rules.challenge import (
    ANY_CARD,
    Challenge,
    CountGoal,
    HalfGoal,
    SequenceGoal,
    resolve_token,
)
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import Coord, Row, State
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search import search_kernel as kernel

#: Weather letters by number in the compiled code.
LETTERS = "CFRSTW"
NUMBER = {w: i for i, w in enumerate(LETTERS)}

MAX_ROWS = 4
MAX_PILE = 63


def fits(game: StratoGame) -> str | None:
    """Why ``game``'s deal does not fit the packing, or ``None`` when it does."""
    start = game.initial_state()
    if game.challenge.limit > MAX_LIMIT:
        return f"card limit {game.challenge.limit} > {MAX_LIMIT}"
    if len(start.rows) > MAX_ROWS:
        return f"{len(start.rows)} rows > {MAX_ROWS}"
    if len(start.pile) > MAX_PILE:
        return f"a pile of {len(start.pile)} cards > {MAX_PILE}"
    if any(len(h) > 3 for h in start.hands) or len(start.hands) > 4:
        return "more than 4 hands or 3 cards in a hand"
    if any(len(row.left) > game.challenge.limit or len(row.right) > game.challenge.limit for row in start.rows):
        return "a half-row over the card limit at the start"
    return None


@dataclass(frozen=True)
class Layout:
    """Where each field of a state lies in the vector (see the module docstring)."""

    rows: int
    maxl: int
    players: int

    def half(self, r: int, side: int) -> int:
        return (r * 2 + side) * (self.maxl + 1)

    def hand(self, p: int) -> int:
        return 2 * self.rows * (self.maxl + 1) + 4 * p

    @property
    def tail(self) -> int:
        return 2 * self.rows * (self.maxl + 1) + 4 * self.players

    @property
    def size(self) -> int:
        return self.tail + 4


def _goal_arrays(challenge: Challenge, rows: tuple[Row, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                                       np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The victory condition resolved for each row (tornadoes never move): eligibility, per half the
    kind (0 none, 1 sequence, 2 counts), the sequence (-1 for any card), the counted window and the
    least count of each weather (the largest any token asks), the goal's needs (summed, as
    :meth:`~stratagem.models.strato.rules.challenge.CountGoal.needs`) and length."""
    n = len(rows)
    goal = challenge.goal
    eligible = np.array([goal.eligible(row) for row in rows], np.int64)
    kind = np.zeros((n, 2), np.int64)
    seq = np.full((n, 2, MAX_LIMIT + 1), -1, np.int64)
    seq_len = np.zeros((n, 2), np.int64)
    nearest = np.zeros((n, 2), np.int64)
    met_need = np.zeros((n, 2, 6), np.int64)
    needs = np.zeros((n, 2, 6), np.int64)
    goal_len = np.zeros((n, 2), np.int64)
    for r, row in enumerate(rows):
        for side, half_goal in ((0, goal.left), (1, goal.right)):
            if half_goal is None:
                continue
            _half_goal(half_goal, row, r, side, kind, seq, seq_len, nearest, met_need)
            for weather, count in half_goal.needs(row).items():
                needs[r, side, NUMBER[weather]] += count
            goal_len[r, side] = half_goal.length()
    return eligible, kind, seq, seq_len, nearest, met_need, needs, goal_len


def _half_goal(half_goal: HalfGoal, row: Row, r: int, side: int, kind: np.ndarray, seq: np.ndarray,
               seq_len: np.ndarray, nearest: np.ndarray, met_need: np.ndarray) -> None:
    if isinstance(half_goal, SequenceGoal):
        if len(half_goal.pattern) > MAX_LIMIT + 1:
            raise ValueError("a goal sequence longer than any half-row")
        kind[r, side] = 1
        seq_len[r, side] = len(half_goal.pattern)
        for i, token in enumerate(half_goal.pattern):
            seq[r, side, i] = -1 if token == ANY_CARD else NUMBER[resolve_token(token, row)]
    else:
        assert isinstance(half_goal, CountGoal)
        kind[r, side] = 2
        nearest[r, side] = half_goal.nearest
        # Each key names another weather on every row the kernel tests (an eligible one): a challenge
        # whose counts name one twice there is refused when it is made (rules.challenge.count_goal_problem).
        for token, count in half_goal.counts:
            met_need[r, side, NUMBER[resolve_token(token, row)]] = count


class Packing:
    """One deal's compiled view: the kernel's parameters (``spec``, a :class:`search_kernel.Spec`), and
    states to vectors and back.

    ``blank_last``: the last weather is forgotten after every turn (the planning view of a deal
    without Cloud, :class:`~stratagem.models.strato.search.planning.StratoPlanning`).
    """

    def __init__(self, game: StratoGame, blank_last: bool = False) -> None:
        why = fits(game)
        if why is not None:
            raise ValueError(f"the deal does not fit the compiled search: {why}")
        self.game = game
        start = game.initial_state()
        self.rows_on_table = start.rows
        self.pile = start.pile
        self.layout = Layout(len(start.rows), game.challenge.limit + 3, len(start.hands))
        challenge = game.challenge
        eligible = [r for r, row in enumerate(start.rows) if challenge.goal.eligible(row)]
        from itertools import combinations

        combos = np.array(list(combinations(eligible, challenge.rows_required)), np.int64).reshape(
            -1, challenge.rows_required)
        self.spec = kernel.Spec(
            self.layout.rows, self.layout.maxl, challenge.limit, self.layout.players, HAND_SIZE[len(start.hands)],
            np.array([NUMBER[c] for c in self.pile], np.int64), game.options.strict_effect,
            game.options.wind_crosses_tornado, blank_last, *_goal_arrays(challenge, start.rows),
            challenge.rows_required, combos,
        )

    def vector(self, state: State) -> np.ndarray:
        """``state`` as a vector (its pile must be a suffix of the deal's, its rows the deal's tornadoes)."""
        lay = self.layout
        if not self.pile.endswith(state.pile):
            raise ValueError("the state's pile is not what is left of the deal's pile")
        a = [0] * lay.size  # a list, then one array: setting a numpy array's items one by one is slower
        for r, row in enumerate(state.rows):
            for side, cards in ((0, row.left), (1, row.right)):
                base = lay.half(r, side)
                a[base] = len(cards)
                a[base + 1: base + 1 + len(cards)] = [NUMBER[c] for c in cards]
        for p, hand in enumerate(state.hands):
            base = lay.hand(p)
            a[base] = len(hand)
            a[base + 1: base + 1 + len(hand)] = [NUMBER[c] for c in hand]
        a[lay.tail] = len(self.pile) - len(state.pile)
        a[lay.tail + 1] = state.to_move
        a[lay.tail + 2] = NUMBER[state.last] if state.last else -1
        a[lay.tail + 3] = state.status
        return np.array(a, np.int64)

    def state(self, a: np.ndarray) -> State:
        """Inverse of :meth:`vector`."""
        lay = self.layout
        rows = []
        for r, row in enumerate(self.rows_on_table):
            halves = []
            for side in (0, 1):
                base = lay.half(r, side)
                halves.append("".join(LETTERS[int(c)] for c in a[base + 1: base + 1 + int(a[base])]))
            rows.append(Row(row.left_tornado, row.right_tornado, halves[0], halves[1]))
        hands = []
        for p in range(lay.players):
            base = lay.hand(p)
            hands.append("".join(LETTERS[int(c)] for c in a[base + 1: base + 1 + int(a[base])]))
        tail = lay.tail
        last = int(a[tail + 2])
        return State(tuple(rows), tuple(hands), self.pile[int(a[tail]):], int(a[tail + 1]),
                     LETTERS[last] if last >= 0 else "", int(a[tail + 3]))

    def move(self, fields: np.ndarray) -> Move:
        """The move a kernel's move record stands for (:func:`move_of`)."""
        return move_of(fields)

    def key_state(self, key: np.ndarray) -> State:
        """The state a packed key stands for."""
        a = np.empty(self.layout.size, np.int64)
        kernel.unpack(np.ascontiguousarray(key, np.int64), self.spec, a)
        return self.state(a)


def move_of(fields: np.ndarray) -> Move:
    """The :class:`~stratagem.models.strato.rules.notation.Move` a kernel's move record stands for."""
    f = [int(x) for x in fields]
    targets = tuple(Coord(f[4 + 3 * i], f[5 + 3 * i], f[6 + 3 * i]) for i in range(f[3]))
    return Move(LETTERS[f[0]], f[1], f[2], targets, bool(f[10]), bool(f[11]))


def compiled_plays(packing: Packing, state: State) -> list[tuple[Move, State]]:
    """The compiled move generator's moves of ``state`` and their states (the engine's ``plays``)."""
    size = packing.layout.size
    states = np.empty((kernel.MAX_MOVES, size), np.int64)
    moves = np.empty((kernel.MAX_MOVES, kernel.MOVE_FIELDS), np.int64)
    after = np.empty(size, np.int64)
    count = kernel.plays(packing.vector(state), packing.spec, after, states, moves)
    return [(move_of(moves[i]), packing.state(states[i])) for i in range(count)]


def compiled_lower_bound(packing: Packing, state: State) -> int:
    """:func:`~stratagem.models.strato.search.heuristic.lower_bound` computed by the kernel."""
    return int(kernel.lower_bound(packing.vector(state), packing.spec, np.zeros((4, 8), np.int64)))


def blank_last(game: StratoGame) -> bool:
    """Whether the planning view forgets the last weather (no Cloud in the challenge)."""
    return CLOUD not in game.challenge.weathers
