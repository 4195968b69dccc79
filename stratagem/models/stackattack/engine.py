# cython: infer_types=True, boundscheck=False, wraparound=False
"""Stack Attack's compiled engine: the rules of :mod:`rules` over packed states (a ``PackedGame``).

A Cython kernel in pure-Python mode (``setup.py`` compiles it at install; uncompiled it runs as the same
Python, slowly). :class:`StackAttackEngine` plays every rule and ruling of the reference engine
(:class:`~stratagem.models.stackattack.rules.StackAttackGame`): 2-6 players, the action cards (Block,
Shield, Decreasing, Switch) or the plain number game, any deck of the configuration (size, action cards,
penalties), both scopes (``round``: the round's end is terminal; ``game``: the next round is dealt, one
CHANCE node a card, until a total reaches 64), and the reference's automatic resolution of decisions with
one option (:meth:`apply` returns the state at the next decision, reveal, deal or end, as the reference's
``apply`` does). ``tests/models/stackattack/test_engine.py`` holds it to the reference move for move.

**State slots** (``width`` 64-bit words; ``n`` players, ``RC`` = 5 + the deck's Shield cards is the room
of a row, ``PW`` = ceil(cards / 32) words per penalty pile):

==================  =====================================================================================
``rows``            4 blocks of ``1 + RC`` words: the row's length, then its cards in the order laid
``hands``           ``n`` blocks of 11 words: the hand's size, then its cards ascending
``taken``           ``n`` blocks of ``PW`` words: the penalty pile as a bit set (card c is bit (c-1) % 32
                    of word (c-1) // 32)
``points``          ``n`` words: each pile's penalty points (kept with the pile, so a total is one add)
``scores``          ``n`` words: the carried scores
``round``           1 word
``played``          ``1 + n`` words: ``n`` while a turn is resolved (else 0), then the card each player
                    holds now
``activate``        ``1 + n`` words: the count, then the action cards still to activate, ascending
``place``           ``1 + n`` words: the count, then the cards still to place, in resolution order
``blocked``         1 word: the rows blocked this turn as a bit set (row r is bit r)
==================  =====================================================================================

**Move records** (``move_width`` = 1 + ``n`` words): ``[kind, v1, ..., vn]`` with kind :data:`REVEAL` (a
joint move: ``v1..vn`` the card each player reveals, in player order), :data:`TAKE`, :data:`SHIELD_PLACE`
or :data:`BLOCK_ROW` (``v1`` a row, 0-based), :data:`SWAP` (``v1`` the card taken) or :data:`DEAL`
(``v1`` the card dealt); unused words are 0. At a SIMULTANEOUS state :meth:`legal` writes every joint
reveal, the product of the hands with the last player's card changing fastest (the reference's
``legal_moves`` order): up to ``10**n`` records, so ``max_moves`` is ``10**n`` for ``n`` players (a
million for six; searches over many players take each player's cards from
:class:`StackAttackSimultaneous` instead). Chance outcomes (the cards left to deal, ascending) all weigh 1.
Decisions are listed in the reference's order. ``to_move`` of a terminal state is 0 (ask ``terminal``
first); returns are minus each player's total (carried score + this round's penalty points). The key
(:meth:`pack`) holds the state in 16-bit lanes, about a third of its words.

:class:`StackAttackSimultaneous` adds what the compiled backward induction
(:mod:`stratagem.solvers.induction_kernel`) needs beyond the interface: each player's cards at a reveal,
the joint record of one card each, the reference's ``bank`` (the position with empty piles and no scores,
in ``scope = "round"`` only) and ``evaluate``.

Indexes are not bounds-checked (the header's directives). What makes them safe: the state vectors are
``encode``'s and the engine's own (lengths within their slots, cards of the deck), a record's cards are
looked up in the hands (a reveal) or checked against the deck (a deal) before they index anything, a
decision must equal one the engine listed, a row is checked for room before a card is added, and every
write into a caller's buffer is checked against the buffer's rows first.

Limits (``encode`` raises ``ValueError`` beyond them): none
beyond the reference's checked states (hands of at most 10 cards, rows within 5 + Shields, decks up to
the puzzle format's 1,000 cards).

Why one module of over 600 lines: it is one concept, Stack Attack's rules over packed states (the
compiled twin of the rules engine, held to it move for move); its functions share the state layout and
call one another at C level, which Cython inlines only within one module.
"""

from __future__ import annotations

from typing import Any

import cython
import numpy as np

if cython.compiled:
    from cython.cimports.stratagem.core.packed import CHANCE, SIMULTANEOUS, PackedGame
    from cython.cimports.stratagem.solvers.induction_kernel import SimultaneousPacked
else:
    from stratagem.core.packed import CHANCE, SIMULTANEOUS, PackedGame
    from stratagem.solvers.induction_kernel import SimultaneousPacked

#: Move kinds (word 0 of a move record).
REVEAL = cython.declare(cython.longlong, 0)
TAKE = cython.declare(cython.longlong, 1)
SHIELD_PLACE = cython.declare(cython.longlong, 2)
BLOCK_ROW = cython.declare(cython.longlong, 3)
SWAP = cython.declare(cython.longlong, 4)
DEAL = cython.declare(cython.longlong, 5)

#: Action codes of the cards (0: none).
A_BLOCK = cython.declare(cython.longlong, 1)
A_SHIELD = cython.declare(cython.longlong, 2)
A_DECREASING = cython.declare(cython.longlong, 3)
A_SWITCH = cython.declare(cython.longlong, 4)

NROWS = cython.declare(cython.Py_ssize_t, 4)
LIMIT = cython.declare(cython.Py_ssize_t, 5)
HAND = cython.declare(cython.Py_ssize_t, 10)
END = cython.declare(cython.longlong, 64)

_KIND_LETTERS = {1: "T", 2: "P", 3: "B", 4: "S", 5: "D"}


@cython.cclass
class StackAttackEngine(PackedGame):  # type: ignore[misc]
    """One Stack Attack game (player count and options) over packed states (see the module docstring)."""

    n: cython.Py_ssize_t
    size: cython.Py_ssize_t
    rc: cython.Py_ssize_t
    pw: cython.Py_ssize_t
    round_scope: cython.bint
    o_hands: cython.Py_ssize_t
    o_taken: cython.Py_ssize_t
    o_points: cython.Py_ssize_t
    o_scores: cython.Py_ssize_t
    o_round: cython.Py_ssize_t
    o_played: cython.Py_ssize_t
    o_act: cython.Py_ssize_t
    o_place: cython.Py_ssize_t
    o_blocked: cython.Py_ssize_t
    action: cython.longlong[::1]
    penalty: cython.longlong[::1]
    _choice: cython.longlong[:, ::1]
    _weights: cython.longlong[::1]
    game: object

    def __init__(self, game: Any) -> None:
        n = int(game.num_players)
        deck = game.deck
        size = int(deck.size)
        shields = sum(1 for _, a in deck.actions if a == "shield")
        rc = LIMIT + shields
        pw = (size + 31) // 32
        o_hands = NROWS * (1 + rc)
        o_taken = o_hands + n * (1 + HAND)
        o_points = o_taken + n * pw
        o_scores = o_points + n
        o_round = o_scores + n
        o_played = o_round + 1
        o_act = o_played + 1 + n
        o_place = o_act + 1 + n
        o_blocked = o_place + 1 + n
        # The key: every word but the round in a 16-bit lane (a pile word in two), three lanes a word, and
        # the round in a word of its own (see pack).
        lanes = o_blocked + n * pw
        PackedGame.__init__(self, o_blocked + 1, 1 + n, max(10**n, size, 8), n, (lanes + 2) // 3 + 1)
        self.game = game
        self.n, self.size, self.rc, self.pw = n, size, rc, pw
        self.round_scope = game.options.scope == "round"
        self.o_hands, self.o_taken, self.o_points, self.o_scores = o_hands, o_taken, o_points, o_scores
        self.o_round, self.o_played, self.o_act, self.o_place, self.o_blocked = o_round, o_played, o_act, o_place, \
            o_blocked
        codes = {"block": 1, "shield": 2, "decreasing": 3, "switch": 4}
        action = np.zeros(size + 1, np.int64)
        for number, name in deck.actions:
            action[number] = codes[name]
        self.action = action
        self.penalty = np.array((0, *deck.penalties), np.int64)
        self._choice = np.zeros((8, 2), np.int64)
        self._weights = np.zeros(max(size, 8), np.int64)

    @staticmethod
    def from_game(game: Any) -> StackAttackEngine:
        """The engine of a reference :class:`~stratagem.models.stackattack.rules.StackAttackGame`."""
        return StackAttackEngine(game)

    # -- small pieces of a state ------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(check=False)
    def _designated(self, s: cython.longlong[::1], card: cython.longlong) -> cython.Py_ssize_t:
        """Seed section 5: the row whose last card is the highest still lower than ``card``, or -1."""
        best: cython.Py_ssize_t = -1
        best_end: cython.longlong = 0
        r: cython.Py_ssize_t
        base: cython.Py_ssize_t
        length: cython.longlong
        end: cython.longlong
        for r in range(NROWS):
            base = r * (1 + self.rc)
            length = s[base]
            if length > 0:
                end = s[base + length]
                if best_end < end < card:
                    best = r
                    best_end = end
        return best

    @cython.cfunc
    @cython.exceptval(check=False)
    def _holder(self, s: cython.longlong[::1], card: cython.longlong) -> cython.Py_ssize_t:
        p: cython.Py_ssize_t
        for p in range(self.n):
            if s[self.o_played + 1 + p] == card:
                return p
        return -1

    @cython.cfunc
    @cython.exceptval(check=False)
    def _total(self, s: cython.longlong[::1], p: cython.Py_ssize_t) -> cython.longlong:
        return s[self.o_scores + p] + s[self.o_points + p]

    @cython.cfunc
    @cython.exceptval(check=False)
    def _dealing(self, s: cython.longlong[::1]) -> cython.bint:
        r: cython.Py_ssize_t
        for r in range(NROWS):  # noqa: SIM110 (a C loop; any() over a generator would be Python)
            if s[r * (1 + self.rc)] == 0:
                return True
        return False

    @cython.cfunc
    @cython.exceptval(check=False)
    def _hands_left(self, s: cython.longlong[::1]) -> cython.bint:
        p: cython.Py_ssize_t
        for p in range(self.n):  # noqa: SIM110 (a C loop)
            if s[self.o_hands + p * (1 + HAND)] > 0:
                return True
        return False

    @cython.cfunc
    @cython.exceptval(check=False)
    def _ended(self, s: cython.longlong[::1]) -> cython.bint:
        p: cython.Py_ssize_t
        if self.round_scope:
            return True
        for p in range(self.n):  # noqa: SIM110 (a C loop)
            if self._total(s, p) >= END:
                return True
        return False

    @cython.cfunc
    @cython.exceptval(-1)
    def _choices(self, s: cython.longlong[::1]) -> cython.Py_ssize_t:
        """The options of the next step of a turn being resolved into ``_choice`` (kind, value); how many."""
        ch: cython.longlong[:, ::1] = self._choice
        count: cython.Py_ssize_t = 0
        blocked: cython.longlong = s[self.o_blocked]
        r: cython.Py_ssize_t
        q: cython.Py_ssize_t
        nblocked: cython.Py_ssize_t = 0
        card: cython.longlong
        other: cython.longlong
        kind: cython.longlong
        target: cython.Py_ssize_t
        for r in range(NROWS):
            if blocked >> r & 1:
                nblocked += 1
        if s[self.o_act] > 0:
            card = s[self.o_act + 1]
            if self.action[card] == A_BLOCK:  # any row, so long as one row stays open
                for r in range(NROWS):
                    if (blocked >> r & 1) or nblocked + 1 < NROWS:
                        ch[count, 0] = BLOCK_ROW
                        ch[count, 1] = r
                        count += 1
                return count
            for q in range(self.n):  # Switch: another player's revealed card, in player order
                other = s[self.o_played + 1 + q]
                if other != card:
                    ch[count, 0] = SWAP
                    ch[count, 1] = other
                    count += 1
            return count
        card = s[self.o_place + 1]
        kind = SHIELD_PLACE if self.action[card] == A_SHIELD else TAKE
        target = self._designated(s, card)
        if target >= 0 and not (blocked >> target & 1):
            ch[0, 0] = kind
            ch[0, 1] = target
            return 1
        for r in range(NROWS):
            if not (blocked >> r & 1):
                ch[count, 0] = kind
                ch[count, 1] = r
                count += 1
        return count

    @cython.cfunc
    @cython.exceptval(-1)
    def _take(self, s: cython.longlong[::1], p: cython.Py_ssize_t, r: cython.Py_ssize_t) -> cython.int:
        """Player ``p`` takes row ``r`` into their pile (the row is left empty)."""
        base: cython.Py_ssize_t = r * (1 + self.rc)
        i: cython.Py_ssize_t
        c: cython.longlong
        pile: cython.Py_ssize_t = self.o_taken + p * self.pw
        for i in range(s[base]):
            c = s[base + 1 + i] - 1
            s[pile + c // 32] |= cython.cast(cython.longlong, 1) << (c % 32)
            s[self.o_points + p] += self.penalty[c + 1]
        s[base] = 0
        return 0

    @cython.cfunc
    @cython.exceptval(-1)
    def _put(self, s: cython.longlong[::1], r: cython.Py_ssize_t, on_row: cython.bint) -> cython.int:
        """The next card of the placement queue goes to row ``r`` (the reference's ``_place``)."""
        card: cython.longlong = s[self.o_place + 1]
        base: cython.Py_ssize_t = r * (1 + self.rc)
        length: cython.longlong = s[base]
        i: cython.Py_ssize_t
        count: cython.longlong = s[self.o_place]
        for i in range(1, count):
            s[self.o_place + i] = s[self.o_place + i + 1]
        s[self.o_place + count] = 0
        s[self.o_place] = count - 1
        if on_row and (length < LIMIT or self.action[card] == A_SHIELD):
            if length >= self.rc:
                raise ValueError("a Stack Attack row is longer than the engine's room")
            s[base + 1 + length] = card
            s[base] = length + 1
            return 0
        self._take(s, self._holder(s, card), r)
        s[base] = 1
        s[base + 1] = card
        for i in range(1, self.rc):
            s[base + 1 + i] = 0
        return 0

    @cython.cfunc
    @cython.exceptval(-1)
    def _step(self, s: cython.longlong[::1], kind: cython.longlong, value: cython.longlong) -> cython.int:
        """The next step of the turn made with the choice (kind, value) (the reference's ``_step``)."""
        i: cython.Py_ssize_t
        count: cython.longlong
        holder: cython.Py_ssize_t
        other: cython.Py_ssize_t
        card: cython.longlong
        if s[self.o_act] > 0:
            card = s[self.o_act + 1]
            count = s[self.o_act]
            for i in range(1, count):
                s[self.o_act + i] = s[self.o_act + i + 1]
            s[self.o_act + count] = 0
            s[self.o_act] = count - 1
            if kind == BLOCK_ROW:
                s[self.o_blocked] |= cython.cast(cython.longlong, 1) << value
                return 0
            holder = self._holder(s, card)
            other = self._holder(s, value)
            s[self.o_played + 1 + holder] = value
            s[self.o_played + 1 + other] = card
            return 0
        return self._put(s, value, kind == SHIELD_PLACE or value == self._designated(s, s[self.o_place + 1]))

    @cython.cfunc
    @cython.exceptval(-1)
    def _end_turn(self, s: cython.longlong[::1]) -> cython.int:
        i: cython.Py_ssize_t
        for i in range(self.o_played, self.o_blocked + 1):
            s[i] = 0
        return 0

    @cython.cfunc
    @cython.exceptval(-1)
    def _place_cards(self, s: cython.longlong[::1]) -> cython.int:
        """Place the queued cards while each has a single option; stop at a row to choose, or end the turn."""
        card: cython.longlong
        target: cython.Py_ssize_t
        on_row: cython.bint
        r: cython.Py_ssize_t
        opened: cython.Py_ssize_t
        blocked: cython.longlong = s[self.o_blocked]
        while s[self.o_place] > 0:
            card = s[self.o_place + 1]
            target = self._designated(s, card)
            if target >= 0 and not (blocked >> target & 1):
                on_row = True
            else:
                opened = 0
                for r in range(NROWS):
                    if not (blocked >> r & 1):
                        opened += 1
                if opened > 1:  # the card's holder chooses the row
                    return 0
                for r in range(NROWS):
                    if not (blocked >> r & 1):
                        target = r
                        break
                on_row = self.action[card] == A_SHIELD
            self._put(s, target, on_row)
        self._end_turn(s)
        return 0

    @cython.cfunc
    @cython.exceptval(-1)
    def _advance(self, s: cython.longlong[::1]) -> cython.int:
        """Resolve every step with a single option; stop at a decision with two or more."""
        count: cython.Py_ssize_t
        i: cython.Py_ssize_t
        while s[self.o_played] > 0:
            if s[self.o_act] == 0:
                return self._place_cards(s)
            count = self._choices(s)
            if count > 1:
                return 0
            if count == 1:
                self._step(s, self._choice[0, 0], self._choice[0, 1])
            else:
                for i in range(1, s[self.o_act]):
                    s[self.o_act + i] = s[self.o_act + i + 1]
                s[self.o_act + s[self.o_act]] = 0
                s[self.o_act] -= 1
        return 0

    # -- the interface ------------------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(-3, check=False)
    def to_move(self, state: cython.longlong[::1]) -> cython.Py_ssize_t:
        if state[self.o_played] > 0:
            if state[self.o_act] > 0:
                return self._holder(state, state[self.o_act + 1])
            return self._holder(state, state[self.o_place + 1])
        if self._dealing(state):
            return CHANCE
        if self._hands_left(state):
            return SIMULTANEOUS
        return 0 if self._ended(state) else CHANCE

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def legal(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1]) -> cython.Py_ssize_t:
        who: cython.Py_ssize_t = self.to_move(state)
        count: cython.Py_ssize_t
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        p: cython.Py_ssize_t
        total: cython.Py_ssize_t
        size: cython.Py_ssize_t
        rest: cython.Py_ssize_t
        if who == CHANCE:
            return self._outcomes(state, moves, self._weights)
        if who == SIMULTANEOUS:
            total = 1
            for p in range(self.n):
                total *= state[self.o_hands + p * (1 + HAND)]
            if total > moves.shape[0]:
                raise ValueError("more joint reveals than the move buffer holds")
            for i in range(total):
                moves[i, 0] = REVEAL
                rest = i
                for p in range(self.n - 1, -1, -1):  # the last player's card changes fastest
                    size = state[self.o_hands + p * (1 + HAND)]
                    moves[i, 1 + p] = state[self.o_hands + p * (1 + HAND) + 1 + rest % size]
                    rest //= size
            return total
        if self.terminal_state(state):
            return 0
        count = self._choices(state)
        for i in range(count):
            moves[i, 0] = self._choice[i, 0]
            moves[i, 1] = self._choice[i, 1]
            for j in range(2, self.n + 1):
                moves[i, j] = 0
        return count

    @cython.cfunc
    @cython.exceptval(-1)
    def _outcomes(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1],
                  weights: cython.longlong[::1]) -> cython.Py_ssize_t:
        """The cards left to deal (every card at the end of a round), ascending, weight 1 each."""
        used = np.zeros(self.size + 1, np.uint8)
        mark: cython.uchar[::1] = used
        count: cython.Py_ssize_t = 0
        c: cython.Py_ssize_t
        j: cython.Py_ssize_t
        r: cython.Py_ssize_t
        p: cython.Py_ssize_t
        base: cython.Py_ssize_t
        if self._dealing(state):
            for r in range(NROWS):
                base = r * (1 + self.rc)
                for j in range(state[base]):
                    mark[state[base + 1 + j]] = 1
            for p in range(self.n):
                base = self.o_hands + p * (1 + HAND)
                for j in range(state[base]):
                    mark[state[base + 1 + j]] = 1
        if self.size > moves.shape[0]:
            raise ValueError("more chance outcomes than the move buffer holds")
        for c in range(1, self.size + 1):
            if not mark[c]:
                moves[count, 0] = DEAL
                moves[count, 1] = c
                for j in range(2, self.n + 1):
                    moves[count, j] = 0
                weights[count] = 1
                count += 1
        return count

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def chance(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1],
               weights: cython.longlong[::1]) -> cython.Py_ssize_t:
        if self.to_move(state) != CHANCE or self.terminal_state(state):
            return 0
        return self._outcomes(state, moves, weights)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def apply(self, state: cython.longlong[::1], move: cython.longlong[::1], out: cython.longlong[::1]) -> cython.int:
        i: cython.Py_ssize_t
        for i in range(self.width):
            out[i] = state[i]
        if self.terminal_state(state):
            raise ValueError("a Stack Attack move after the end of the game")
        who: cython.Py_ssize_t = self.to_move(state)
        kind: cython.longlong = move[0]
        if who == CHANCE:
            if kind != DEAL:
                raise ValueError("a card is being dealt; the move is a deal")
            return self._deal(out, move[1])
        if who == SIMULTANEOUS:
            if kind != REVEAL:
                raise ValueError("every player reveals a card; the move is a joint reveal")
            return self._reveal(out, move)
        count: cython.Py_ssize_t = self._choices(state)
        for i in range(count):
            if self._choice[i, 0] == kind and self._choice[i, 1] == move[1]:
                self._step(out, kind, move[1])
                return self._advance(out)
        raise ValueError("not a legal choice of this Stack Attack state")

    @cython.cfunc
    @cython.exceptval(-1)
    def _reveal(self, s: cython.longlong[::1], move: cython.longlong[::1]) -> cython.int:
        """Seed section 4: every player reveals one card; then resolve until a decision is needed."""
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        base: cython.Py_ssize_t
        size: cython.longlong
        card: cython.longlong
        found: cython.Py_ssize_t
        nact: cython.Py_ssize_t = 0
        decreasing: cython.bint = False
        key: cython.longlong
        for p in range(self.n):
            card = move[1 + p]
            base = self.o_hands + p * (1 + HAND)
            size = s[base]
            found = -1
            for i in range(size):
                if s[base + 1 + i] == card:
                    found = i
                    break
            if found < 0:
                raise ValueError(f"player {p + 1} does not hold card {card}")
            for i in range(found, size - 1):
                s[base + 1 + i] = s[base + 2 + i]
            s[base + size] = 0
            s[base] = size - 1
        for p in range(self.n):
            card = move[1 + p]
            s[self.o_played + 1 + p] = card
            if card < 0 or card > self.size:
                raise ValueError(f"card {card} is not in the deck")
            if self.action[card] == A_DECREASING:
                decreasing = True
            if self.action[card] == A_BLOCK or self.action[card] == A_SWITCH:  # insertion, ascending
                i = nact
                while i > 0 and s[self.o_act + i] > card:
                    s[self.o_act + 1 + i] = s[self.o_act + i]
                    i -= 1
                s[self.o_act + 1 + i] = card
                nact += 1
            i = p  # the placement queue, ascending (reversed below under Decreasing)
            while i > 0 and s[self.o_place + i] > card:
                s[self.o_place + 1 + i] = s[self.o_place + i]
                i -= 1
            s[self.o_place + 1 + i] = card
        s[self.o_played] = self.n
        s[self.o_act] = nact
        s[self.o_place] = self.n
        s[self.o_blocked] = 0
        if decreasing:
            i = 0
            j = self.n - 1
            while i < j:
                key = s[self.o_place + 1 + i]
                s[self.o_place + 1 + i] = s[self.o_place + 1 + j]
                s[self.o_place + 1 + j] = key
                i += 1
                j -= 1
        return self._advance(s)

    @cython.cfunc
    @cython.exceptval(-1)
    def _deal(self, s: cython.longlong[::1], card: cython.longlong) -> cython.int:
        """One card to the first hand short of 10, else the first empty row (a new round starts first)."""
        p: cython.Py_ssize_t
        r: cython.Py_ssize_t
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        base: cython.Py_ssize_t
        size: cython.longlong
        if not self._dealing(s):  # the round is over: score it and clear the table first
            for p in range(self.n):
                s[self.o_scores + p] += s[self.o_points + p]
            for i in range(self.o_scores):
                s[i] = 0
            s[self.o_round] += 1
        if card < 1 or card > self.size:
            raise ValueError(f"card {card} is not left to deal")
        for r in range(NROWS):
            base = r * (1 + self.rc)
            for j in range(s[base]):
                if s[base + 1 + j] == card:
                    raise ValueError(f"card {card} is not left to deal")
        for p in range(self.n):
            base = self.o_hands + p * (1 + HAND)
            for j in range(s[base]):
                if s[base + 1 + j] == card:
                    raise ValueError(f"card {card} is not left to deal")
        for p in range(self.n):
            base = self.o_hands + p * (1 + HAND)
            size = s[base]
            if size < HAND:
                i = size
                while i > 0 and s[base + i] > card:
                    s[base + 1 + i] = s[base + i]
                    i -= 1
                s[base + 1 + i] = card
                s[base] = size + 1
                return 0
        for r in range(NROWS):
            base = r * (1 + self.rc)
            if s[base] == 0:
                s[base] = 1
                s[base + 1] = card
                return 0
        raise ValueError("no place left to deal to")

    @cython.cfunc
    @cython.exceptval(-1)
    def terminal_state(self, state: cython.longlong[::1]) -> cython.bint:
        """Whether the game is over (the round's end, and in game scope a total of 64 reached)."""
        if state[self.o_played] > 0 or self._dealing(state) or self._hands_left(state):
            return False
        return self._ended(state)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def terminal(self, state: cython.longlong[::1], returns: cython.longlong[::1]) -> cython.bint:
        p: cython.Py_ssize_t
        if not self.terminal_state(state):
            return False
        for p in range(self.n):
            returns[p] = -self._total(state, p)
        return True

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def pack(self, state: cython.longlong[::1], key: cython.longlong[::1]) -> cython.int:
        """The transposition key: each word but the round in a 16-bit lane, three lanes a key word (a pile
        word, 32 bits, in two lanes), then the round. One-to-one on the engine's states: every word is below
        2**16 (cards and lengths at most 1,000, a pile's points at most 8 a card, scores below 64, blocked
        rows 4 bits) but the piles' words (split) and the round (a word of its own)."""
        i: cython.Py_ssize_t
        lane: cython.Py_ssize_t = 0
        for i in range(self.key_width):
            key[i] = 0
        for i in range(self.o_round):
            if self.o_taken <= i < self.o_points:
                key[lane // 3] |= (state[i] & 0xFFFF) << (16 * (lane % 3))
                lane += 1
                key[lane // 3] |= (state[i] >> 16) << (16 * (lane % 3))
            else:
                key[lane // 3] |= state[i] << (16 * (lane % 3))
            lane += 1
        for i in range(self.o_round + 1, self.width):
            key[lane // 3] |= state[i] << (16 * (lane % 3))
            lane += 1
        key[self.key_width - 1] = state[self.o_round]
        return 0

    # -- Python-facing: the reference's values ------------------------------------------------------
    def encode(self, state: Any) -> np.ndarray:
        """The reference State as a packed vector; ValueError for a state beyond the engine's slots."""
        n = self.n
        if len(state.hands) != n:
            raise ValueError(f"a state of {len(state.hands)} players for an engine of {n}")
        v = np.zeros(self.width, np.int64)
        for r, row in enumerate(state.rows):
            if len(row) > self.rc:
                raise ValueError(f"row {r + 1} holds {len(row)} cards, more than the engine's {self.rc}")
            base = r * (1 + self.rc)
            v[base] = len(row)
            v[base + 1: base + 1 + len(row)] = row
        for p in range(n):
            hand = state.hands[p]
            if len(hand) > HAND:
                raise ValueError(f"hand {p + 1} holds {len(hand)} cards, more than {HAND}")
            base = self.o_hands + p * (1 + HAND)
            v[base] = len(hand)
            v[base + 1: base + 1 + len(hand)] = sorted(hand)
            for c in state.taken[p]:
                if not 1 <= c <= self.size:
                    raise ValueError(f"card {c} is not in the deck")
                v[self.o_taken + p * self.pw + (c - 1) // 32] |= 1 << ((c - 1) % 32)
                v[self.o_points + p] += int(self.penalty[c])
            if not 0 <= state.scores[p] < 1 << 16:
                raise ValueError(f"a carried score of {state.scores[p]}, beyond the engine's 16-bit key lanes")
            v[self.o_scores + p] = state.scores[p]
        v[self.o_round] = state.round
        if state.played:
            if not state.activate and not state.place:
                raise ValueError("a turn with nothing left to resolve")
            v[self.o_played] = n
            v[self.o_played + 1: self.o_played + 1 + n] = state.played
            v[self.o_act] = len(state.activate)
            v[self.o_act + 1: self.o_act + 1 + len(state.activate)] = state.activate
            v[self.o_place] = len(state.place)
            v[self.o_place + 1: self.o_place + 1 + len(state.place)] = state.place
            v[self.o_blocked] = sum(1 << r for r in state.blocked)
        elif state.activate or state.place or state.blocked:
            raise ValueError("queues and blocked rows belong to a turn being resolved")
        return v

    def decode(self, vector: Any) -> Any:
        """The reference State a packed vector stands for."""
        from stratagem.models.stackattack.position import State

        v: list[int] = np.asarray(vector, np.int64).tolist()  # Python ints, in one call
        n, rc = self.n, self.rc
        rows = tuple(tuple(v[r * (1 + rc) + 1: r * (1 + rc) + 1 + v[r * (1 + rc)]]) for r in range(NROWS))
        hands = tuple(tuple(v[self.o_hands + p * (1 + HAND) + 1: self.o_hands + p * (1 + HAND) + 1
                              + v[self.o_hands + p * (1 + HAND)]]) for p in range(n))
        taken = []
        for p in range(n):
            words = v[self.o_taken + p * self.pw: self.o_taken + (p + 1) * self.pw]
            taken.append(tuple(32 * w + b + 1 for w, word in enumerate(words) if word for b in range(32)
                               if word >> b & 1))
        scores = tuple(v[self.o_scores: self.o_scores + n])
        if not v[self.o_played]:
            return State(rows, hands, tuple(taken), scores, v[self.o_round])
        played = tuple(v[self.o_played + 1: self.o_played + 1 + n])
        activate = tuple(v[self.o_act + 1: self.o_act + 1 + v[self.o_act]])
        place = tuple(v[self.o_place + 1: self.o_place + 1 + v[self.o_place]])
        blocked = tuple(r for r in range(NROWS) if v[self.o_blocked] >> r & 1)
        return State(rows, hands, tuple(taken), scores, v[self.o_round], played, activate, place, blocked)

    def decode_move(self, state: Any, record: Any) -> Any:
        """The reference move a move record stands for (``state`` is not needed: records are self-contained)."""
        from stratagem.models.stackattack.notation import Choice

        words = [int(x) for x in np.asarray(record, np.int64)]
        if words[0] == REVEAL:
            return tuple(words[1: 1 + self.n])
        if words[0] not in _KIND_LETTERS:
            raise ValueError(f"no Stack Attack move has kind {words[0]}")
        return Choice(_KIND_LETTERS[words[0]], words[1])

    def encode_move(self, move: Any) -> np.ndarray:
        """The move record of a reference move (a joint reveal or a Choice)."""
        record = np.zeros(self.move_width, np.int64)
        if isinstance(move, tuple) and not hasattr(move, "kind"):
            if len(move) != self.n:
                raise ValueError(f"a reveal of {len(move)} cards for {self.n} players")
            record[1: 1 + self.n] = move
            return record
        letters = {letter: kind for kind, letter in _KIND_LETTERS.items()}
        record[0] = letters[move.kind]
        record[1] = move.value
        return record

    def simultaneous(self) -> StackAttackSimultaneous:
        """What the compiled backward induction needs beyond the interface (see the module docstring)."""
        return StackAttackSimultaneous(self)


@cython.cclass
class StackAttackSimultaneous(SimultaneousPacked):  # type: ignore[misc]
    """Stack Attack's reveals, banked returns and evaluation for :mod:`stratagem.solvers.induction_kernel`."""

    engine: StackAttackEngine

    def __init__(self, engine: StackAttackEngine) -> None:
        # A line of a round ends within its deal and its turns, each a reveal and at most one decision per action card
        # activated and per card placed; in game scope rounds follow rounds with no bound.
        plies = 10 * engine.n + 4 + (HAND + 1) * (2 * engine.n + 3) + 8 if engine.round_scope else 0
        SimultaneousPacked.__init__(self, engine, HAND, max(engine.size, 8), plies)
        self.engine = engine

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def player_moves(self, state: cython.longlong[::1], player: cython.Py_ssize_t,
                     out: cython.longlong[::1]) -> cython.Py_ssize_t:
        e: StackAttackEngine = self.engine
        base: cython.Py_ssize_t = e.o_hands + player * (1 + HAND)
        i: cython.Py_ssize_t
        for i in range(state[base]):
            out[i] = state[base + 1 + i]
        return state[base]

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def joint(self, choice: cython.longlong[::1], record: cython.longlong[::1]) -> cython.int:
        p: cython.Py_ssize_t
        record[0] = REVEAL
        for p in range(self.engine.n):
            record[1 + p] = choice[p]
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def bank(self, state: cython.longlong[::1], rest: cython.longlong[::1],
             banked: cython.longlong[::1]) -> cython.bint:
        """The reference's ``bank`` (scope ``round`` only): False when nothing is banked, else the position
        with empty piles and no carried scores in ``rest`` and minus each total in ``banked``."""
        e: StackAttackEngine = self.engine
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        some: cython.bint = False
        if not e.round_scope:
            return False
        for i in range(e.o_taken, e.o_round):
            if state[i] != 0:
                some = True
                break
        if not some:
            return False
        for i in range(e.width):
            rest[i] = state[i]
        for p in range(e.n):
            banked[p] = -e._total(state, p)
        for i in range(e.o_taken, e.o_round):
            rest[i] = 0
        return True

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def evaluate(self, state: cython.longlong[::1], values: cython.longlong[::1]) -> cython.bint:
        """The reference's ``evaluate``: minus each total collected so far."""
        e: StackAttackEngine = self.engine
        p: cython.Py_ssize_t
        for p in range(e.n):
            values[p] = -e._total(state, p)
        return True


__all__ = ["BLOCK_ROW", "DEAL", "REVEAL", "SHIELD_PLACE", "SWAP", "TAKE", "StackAttackEngine",
           "StackAttackSimultaneous"]
