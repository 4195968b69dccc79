# cython: infer_types=True, boundscheck=False, wraparound=False
"""Stratatak's compiled engine: the battles of :mod:`rules` over packed states (a ``PackedGame``).

A Cython kernel in pure-Python mode (``setup.py`` compiles it at install; uncompiled it runs as the same
Python, slowly). :class:`StratatakEngine` plays every rule and ruling of the reference engine
(:class:`~stratagem.models.stratatak.rules.StratatakGame`): Singles, Runs and Sets with Stars under both
``star_mode`` readings, the Fighter totals and the Strataclash table, the loser drawing back up (the known
pile top first, then a reshuffle of the discards into a pile of unknown order whose every draw is a
CHANCE node weighted by copies, or taken whole when the drawer needs all of it), the win on emptying the
hand in a won battle, the analysis battle limit, the chance deal of a fresh game, and every deck of the
configuration (``max_count``, ``copies``, ``stars``, ``hand_size``).

**Card types**: colour-major in the reference's sort order (:func:`~stratagem.models.stratatak.cards.
card_key`): Blue 1..M, Red 1..M, Green 1..M are ``0 .. 3M - 1`` (``M = max_count``) and the Star is
``3M``; ``K = 3M + 1`` types.

**State slots** (``width`` 64-bit words; ``D`` = the deck's size is the room of the known pile):

=================  =========================================================================================
``hands``          2 blocks of ``K`` words: each player's hand as a count per card type
``shuffled``       ``K`` words: the pile of unknown order (after a reshuffle, or before the deal)
``discard``        ``K`` words: the discard pile
``table``          ``K`` words: the attack waiting for the defence
``pile``           1 + ``D`` words: the known pile's length, then its cards with the **top last**
``sizes``          5 words: the two hands', the unknown pile's, the discard pile's and the table's card counts
``attacker``       1 word: the player who attacks (after the end: the last battle's loser)
``phase``          1 word: 0 attack, 1 defend, 2 chance draw, 3 won, 4 stopped at the battle limit, 5 deal
``winner``         1 word: the winner once won, else -1
``left``           1 word: battles left under the battle limit, -1 without one
=================  =========================================================================================

**Move records** (``move_width`` = 2 + the longest possible play): ``[kind, n, t1, ..., tn, 0 ...]``: kind
:data:`PLAY` with the play's ``n`` card types ascending (the reference's sorted play), or :data:`DRAW` with
``n = 1`` and the card type drawn (a chance outcome, at a draw or the deal; its weight is the copies of that
type in the pile of unknown order, all of them divided by their greatest common divisor, so that they are
the reference's probabilities in lowest terms over one denominator). :meth:`legal` lists the plays in the
reference's order (fewer cards first, then by card types). ``to_move`` of a terminal state is the attacker
(ask ``terminal`` first); returns are 1/-1 for a win and 0/0 at the battle limit.

Indexes are not bounds-checked (the header's directives). What makes them safe: the state vectors are
``encode``'s and the engine's own (counts and pile lengths within the layout, card types below ``K``), a
move record's card types are checked against ``K`` and its length against the record's width before
they are used, and every write into a caller's buffer is checked against the buffer's rows first.

**Transposition key** (:meth:`StratatakEngine.pack`): 23 words on the shipped decks instead of the state's
210 (values in lanes of ``bit_length(deck)`` bits; the sizes and the pile's unused slots left out).
:meth:`StratatakEngine.quiet` tells the searches that an attack never ends the game.

**Move ordering**: :meth:`StratatakEngine.move_order` gives the compiled searches the reference's order of
attacks (:class:`StratatakOrder`, a :class:`~stratagem.core.packed_order.MoveOrder`).

Limits (``encode`` and :meth:`legal` raise ``ValueError`` beyond them): a state of more than :data:`MAX_MOVES`
distinct plays (a hand of far more cards than any hand size of the rules) and a known pile longer than the
deck.

Why one module of over 600 lines: it is one concept, Stratatak's rules over packed states (the
compiled twin of the rules engine, held to it move for move); its functions share the state layout and
call one another at C level, which Cython inlines only within one module.
"""

from __future__ import annotations

from typing import Any

import cython
import numpy as np

if cython.compiled:
    from cython.cimports.libc.string import memcpy
    from cython.cimports.stratagem.core.packed import CHANCE, PackedGame
    from cython.cimports.stratagem.core.packed_order import MoveOrder
else:
    from stratagem.core.packed import CHANCE, PackedGame
    from stratagem.core.packed_order import MoveOrder

#: Move kinds (word 0 of a move record).
PLAY = cython.declare(cython.longlong, 0)
DRAW = cython.declare(cython.longlong, 1)

#: Phases.
P_ATTACK = cython.declare(cython.longlong, 0)
P_DEFEND = cython.declare(cython.longlong, 1)
P_DRAW = cython.declare(cython.longlong, 2)
P_OVER = cython.declare(cython.longlong, 3)
P_STOPPED = cython.declare(cython.longlong, 4)
P_DEAL = cython.declare(cython.longlong, 5)
_PHASES = "ADCWXS"

#: Room for one state's plays (a 7-card hand has a few dozen).
MAX_MOVES = 4096

#: Strataclash compositions: a colour 0..2 (Blue, Red, Green) or mixed.
MIXED = cython.declare(cython.longlong, 3)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _attack_wins(a: cython.longlong, ac: cython.longlong, d: cython.longlong, dc: cython.longlong) -> cython.bint:
    """The reference's ``battle_winner``: the higher Fighter total (``a`` attacking, ``d`` defending), else
    the Strataclash of the compositions ``ac`` and ``dc`` (a colour, or :data:`MIXED`)."""
    if a != d:
        return a > d
    if ac == MIXED:
        return False
    if dc == MIXED:
        return True
    if ac == dc:
        return False
    return (ac + 1) % 3 == dc  # Blue beats Red, Red beats Green, Green beats Blue


@cython.cclass
class StratatakEngine(PackedGame):  # type: ignore[misc]
    """One Stratatak game (its options) over packed states (see the module docstring)."""

    m: cython.Py_ssize_t
    k: cython.Py_ssize_t
    star: cython.Py_ssize_t
    deck_size: cython.Py_ssize_t
    hand_size: cython.longlong
    wild: cython.bint
    max_play: cython.Py_ssize_t
    o_shuf: cython.Py_ssize_t
    o_disc: cython.Py_ssize_t
    o_table: cython.Py_ssize_t
    o_pile: cython.Py_ssize_t
    o_sizes: cython.Py_ssize_t
    o_attacker: cython.Py_ssize_t
    o_phase: cython.Py_ssize_t
    o_winner: cython.Py_ssize_t
    o_left: cython.Py_ssize_t
    lane_bits: cython.Py_ssize_t
    _play: cython.longlong[::1]
    _chosen: cython.longlong[::1]
    _weights: cython.longlong[::1]
    _count: cython.Py_ssize_t
    _out: cython.longlong[:, ::1]
    _order: cython.longlong[::1]
    game: object
    _move_order: Any
    codes: tuple[str, ...]
    index: dict[str, int]

    def __init__(self, game: Any) -> None:
        options = game.options
        m = int(options.max_count)
        k = 3 * m + 1
        deck_size = 3 * m * int(options.copies) + int(options.stars)
        max_play = max(m, int(options.copies), 3) + int(options.stars)
        o_shuf = 2 * k
        o_disc = o_shuf + k
        o_table = o_disc + k
        o_pile = o_table + k
        o_sizes = o_pile + 1 + deck_size
        o_attacker = o_sizes + 5
        width = o_attacker + 4
        lane_bits = max(deck_size.bit_length(), 3)  # every value the key packs is below 2**lane_bits (pack)
        lanes = 63 // lane_bits
        values = o_pile + 1 + deck_size  # the counts, the known pile's length and its cards
        PackedGame.__init__(self, width, 2 + max_play, MAX_MOVES, 2, 1 + -(-values // lanes) + 1)
        self.lane_bits = lane_bits
        self.game = game
        self._move_order = None
        self.m, self.k, self.star, self.deck_size = m, k, 3 * m, deck_size
        self.hand_size = int(options.hand_size)
        self.wild = options.star_mode != "addon"
        self.max_play = max_play
        self.o_shuf, self.o_disc, self.o_table, self.o_pile, self.o_sizes = o_shuf, o_disc, o_table, o_pile, o_sizes
        self.o_attacker, self.o_phase, self.o_winner, self.o_left = o_attacker, o_attacker + 1, o_attacker + 2, \
            o_attacker + 3
        self.codes = tuple([f"{c}{n}" for c in "BRG" for n in range(1, m + 1)] + ["*"])
        self.index = {code: i for i, code in enumerate(self.codes)}
        self._play = np.zeros(max_play + 1, np.int64)
        self._chosen = np.zeros(max_play + 1, np.int64)
        self._weights = np.zeros(k, np.int64)
        self._count = 0
        self._out = np.zeros((MAX_MOVES, 2 + max_play), np.int64)
        self._order = np.zeros(MAX_MOVES, np.int64)

    def move_order(self) -> StratatakOrder:
        """The reference's ``order_moves`` over packed states, for the compiled searches: one per engine
        (its scratch is used only within one call of ``keys``, so searches may share it; made afresh for
        each search it zeroed half a megabyte of scratch)."""
        order: StratatakOrder
        if self._move_order is None:
            self._move_order = StratatakOrder(self)
        order = self._move_order
        return order

    @staticmethod
    def from_game(game: Any) -> StratatakEngine:
        """The engine of a reference :class:`~stratagem.models.stratatak.rules.StratatakGame`."""
        return StratatakEngine(game)

    # -- plays --------------------------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(-1)
    def _emit(self, out: cython.longlong[:, ::1], core: cython.Py_ssize_t, least: cython.Py_ssize_t,
              stars: cython.Py_ssize_t) -> cython.int:
        """Write ``_play[:core]`` + ``j`` Stars for each ``j`` from ``least`` to ``stars`` as plays."""
        j: cython.Py_ssize_t
        i: cython.Py_ssize_t
        row: cython.Py_ssize_t
        for j in range(least, stars + 1):
            row = self._count
            if row >= out.shape[0]:
                raise ValueError(f"more than {out.shape[0]} Stratatak plays in one state")
            out[row, 0] = PLAY
            out[row, 1] = core + j
            for i in range(core):
                out[row, 2 + i] = self._play[i]
            for i in range(j):
                out[row, 2 + core + i] = self.star
            for i in range(2 + core + j, out.shape[1]):
                out[row, i] = 0
            self._count = row + 1
        return 0

    @cython.cfunc
    @cython.exceptval(-1)
    def _runs(self, s: cython.longlong[::1], base: cython.Py_ssize_t, c: cython.Py_ssize_t,
              start: cython.Py_ssize_t, size: cython.Py_ssize_t, stars: cython.Py_ssize_t,
              out: cython.longlong[:, ::1]) -> cython.int:
        """Every run of colour ``c`` extending ``_chosen[:size]`` with counts from ``start`` on."""
        n: cython.Py_ssize_t
        gaps: cython.Py_ssize_t
        i: cython.Py_ssize_t
        if size >= 2:
            gaps = self._chosen[size - 1] - self._chosen[0] + 1 - size
            if gaps == 0 or (self.wild and gaps <= stars):
                for i in range(size):
                    self._play[i] = c * self.m + self._chosen[i]
                self._emit(out, size, gaps, stars)
        for n in range(start, self.m):
            if s[base + c * self.m + n] > 0:
                if size >= self.max_play:
                    raise ValueError("a Stratatak play longer than the engine's room")
                self._chosen[size] = n
                self._runs(s, base, c, n + 1, size + 1, stars, out)
        return 0

    @cython.cfunc
    @cython.exceptval(-1)
    def _plays(self, s: cython.longlong[::1], player: cython.Py_ssize_t,
               out: cython.longlong[:, ::1]) -> cython.Py_ssize_t:
        """Every distinct legal play of ``player``'s hand, in the reference's order (``legal_plays``)."""
        base: cython.Py_ssize_t = player * self.k
        stars: cython.Py_ssize_t = s[base + self.star]
        t: cython.Py_ssize_t
        c: cython.Py_ssize_t
        n: cython.Py_ssize_t
        mask: cython.Py_ssize_t
        size: cython.Py_ssize_t
        held: cython.Py_ssize_t
        self._count = 0
        if stars:
            self._play[0] = self.star
            self._emit(self._out, 1, 0, 0)
        for t in range(self.star):
            if s[base + t] > 0:
                self._play[0] = t
                self._emit(self._out, 1, 0, 0)
                if self.wild:  # a Star stands for the card's neighbour in a Run, or its twin in a Set
                    self._emit(self._out, 1, 1, stars)
                for n in range(2, s[base + t] + 1):  # a same-colour Set
                    if n > self.max_play:
                        raise ValueError("a Stratatak play longer than the engine's room")
                    self._play[n - 1] = t
                    self._emit(self._out, n, 0, stars)
        for c in range(3):
            self._runs(s, base, c, 0, 0, stars, self._out)
        for n in range(self.m):  # mixed Sets: one card of each of two or three colours, one count
            held = 0
            for c in range(3):
                if s[base + c * self.m + n] > 0:
                    held += 1
            if held < 2:
                continue  # fewer than two colours hold this count
            for mask in range(1, 8):
                size = 0
                for c in range(3):
                    if mask >> c & 1:
                        if s[base + c * self.m + n] == 0:
                            size = -1
                            break
                        self._play[size] = c * self.m + n
                        size += 1
                if size >= 2:
                    self._emit(self._out, size, 0, stars)
        return self._sorted_into(out)

    @cython.cfunc
    @cython.exceptval(-1)
    def _sorted_into(self, out: cython.longlong[:, ::1]) -> cython.Py_ssize_t:
        """Copy the plays generated in ``_out`` into ``out`` ordered as ``play_key``: fewer cards first,
        then by card types (an insertion sort of row numbers, then one copy per row)."""
        count: cython.Py_ssize_t = self._count
        order: cython.longlong[::1] = self._order
        plays: cython.longlong[:, ::1] = self._out
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        x: cython.Py_ssize_t
        row: cython.longlong
        if count > out.shape[0]:
            raise ValueError(f"more than {out.shape[0]} Stratatak plays in one state")
        for i in range(count):
            row = i
            j = i - 1
            while j >= 0 and self._before(plays, row, order[j]):
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = row
        for i in range(count):
            for x in range(out.shape[1]):
                out[i, x] = plays[order[i], x]
        return count

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _before(self, plays: cython.longlong[:, ::1], a: cython.Py_ssize_t, b: cython.Py_ssize_t) -> cython.bint:
        """Whether play row ``a`` sorts before row ``b`` (rows, not slices: a slice costs a reference count)."""
        i: cython.Py_ssize_t
        if plays[a, 1] != plays[b, 1]:
            return plays[a, 1] < plays[b, 1]
        for i in range(2, 2 + plays[a, 1]):
            if plays[a, i] != plays[b, i]:
                return plays[a, i] < plays[b, i]
        return False

    @cython.cfunc
    @cython.exceptval(-1)
    def _legal_play(self, move: cython.longlong[::1]) -> cython.bint:
        """Whether the record's cards make a Single, a Run or a Set (the reference's ``play_kinds``)."""
        n: cython.Py_ssize_t = move[1]
        i: cython.Py_ssize_t
        t: cython.longlong
        stars: cython.Py_ssize_t = 0
        coloured: cython.Py_ssize_t = 0
        first_colour: cython.longlong = -1
        same_colour: cython.bint = True
        colours: cython.longlong = 0
        lo: cython.longlong = 1 << 30
        hi: cython.longlong = -1
        first_count: cython.longlong = -1
        same_count: cython.bint = True
        distinct_counts: cython.bint = True
        seen: cython.longlong
        if n <= 0:
            return False
        if n == 1:
            return True
        for i in range(n):
            t = move[2 + i]
            if t == self.star:
                stars += 1
                continue
            coloured += 1
            if first_colour < 0:
                first_colour = t // self.m
                first_count = t % self.m
            if t // self.m != first_colour:
                same_colour = False
            if t % self.m != first_count:
                same_count = False
            colours |= cython.cast(cython.longlong, 1) << (t // self.m)
            lo = min(lo, t % self.m)
            hi = max(hi, t % self.m)
        if coloured < (1 if self.wild else 2):
            return False
        for i in range(n):  # distinct counts: no type twice among the coloured cards (sorted record)
            if i > 0 and move[2 + i] == move[1 + i] and move[2 + i] != self.star:
                distinct_counts = False
        if same_colour and distinct_counts:
            seen = hi - lo + 1 - coloured
            if seen == 0 or (self.wild and seen <= stars):
                return True
        if same_count:
            if same_colour:
                return True
            if (colours & 1) + (colours >> 1 & 1) + (colours >> 2 & 1) == coloured:
                return True
        return False

    # -- a battle -----------------------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _fighters(self, s: cython.longlong[::1], base: cython.Py_ssize_t) -> cython.longlong:
        c: cython.Py_ssize_t
        n: cython.Py_ssize_t
        total: cython.longlong = 0
        for c in range(3):  # colour by colour: no division in the loop
            for n in range(self.m):
                total += s[base + c * self.m + n] * (n + 1)
        return total

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _composition(self, s: cython.longlong[::1], base: cython.Py_ssize_t) -> cython.longlong:
        c: cython.Py_ssize_t
        n: cython.Py_ssize_t
        found: cython.longlong = -1
        for c in range(3):
            for n in range(self.m):
                if s[base + c * self.m + n] > 0:
                    if found >= 0:
                        return MIXED
                    found = c
                    break
        return MIXED if found < 0 else found

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _play_fighters(self, play: cython.longlong[::1]) -> cython.longlong:
        """The Fighter total of a play record (Stars count 0)."""
        i: cython.Py_ssize_t
        t: cython.longlong
        total: cython.longlong = 0
        for i in range(play[1]):
            t = play[2 + i]
            if t != self.star:
                total += t % self.m + 1
        return total

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _play_composition(self, play: cython.longlong[::1]) -> cython.longlong:
        """The single colour of a play record, or :data:`MIXED` (Stars are colourless; only Stars: mixed)."""
        i: cython.Py_ssize_t
        t: cython.longlong
        found: cython.longlong = -1
        for i in range(play[1]):
            t = play[2 + i]
            if t != self.star:
                if found < 0:
                    found = t // self.m
                elif found != t // self.m:
                    return MIXED
        return MIXED if found < 0 else found

    @cython.cfunc
    @cython.exceptval(-1)
    def _resolve(self, s: cython.longlong[::1], defence: cython.longlong[::1]) -> cython.int:
        """Seed "After Each Battle", the defence given as a play record (the attack is on the table)."""
        attacker: cython.Py_ssize_t = s[self.o_attacker]
        a: cython.longlong = self._fighters(s, self.o_table)
        d: cython.longlong = 0
        i: cython.Py_ssize_t
        t: cython.longlong
        found: cython.longlong = -1
        ac: cython.longlong
        dc: cython.longlong
        attack_wins: cython.bint
        winner: cython.Py_ssize_t
        left: cython.longlong
        for i in range(defence[1]):
            t = defence[2 + i]
            if t != self.star:
                d += t % self.m + 1
                if found < 0:
                    found = t // self.m
                elif found != t // self.m:
                    found = MIXED
        dc = MIXED if found < 0 else found
        ac = self._composition(s, self.o_table) if a == d else MIXED
        attack_wins = _attack_wins(a, ac, d, dc)
        winner = attacker if attack_wins else 1 - attacker
        for t in range(self.k):  # both plays to the discard pile
            s[self.o_disc + t] += s[self.o_table + t]
            s[self.o_table + t] = 0
        for i in range(defence[1]):
            s[self.o_disc + defence[2 + i]] += 1
        s[self.o_sizes + 3] += s[self.o_sizes + 4] + defence[1]
        s[self.o_sizes + 4] = 0
        left = s[self.o_left]
        if left > 0:
            left -= 1
        s[self.o_left] = left
        s[self.o_attacker] = 1 - winner
        if s[self.o_sizes + winner] == 0:
            s[self.o_phase] = P_OVER
            s[self.o_winner] = winner
            return 0
        if left == 0:
            s[self.o_phase] = P_STOPPED
            return 0
        s[self.o_phase] = P_ATTACK
        return self._refill(s)

    @cython.cfunc
    @cython.exceptval(-1)
    def _refill(self, s: cython.longlong[::1]) -> cython.int:
        """The attacker draws up to the hand size: known pile top first, then a reshuffle of the discards;
        stops at a chance draw when the next card comes from a pile of unknown order."""
        attacker: cython.Py_ssize_t = s[self.o_attacker]
        hand: cython.Py_ssize_t = attacker * self.k
        need: cython.longlong = self.hand_size - s[self.o_sizes + attacker]
        length: cython.longlong
        t: cython.Py_ssize_t
        card: cython.longlong
        while need > 0:
            length = s[self.o_pile]
            if length > 0:
                while need > 0 and length > 0:
                    card = s[self.o_pile + length]
                    s[self.o_pile + length] = 0
                    length -= 1
                    s[hand + card] += 1
                    s[self.o_sizes + attacker] += 1
                    need -= 1
                s[self.o_pile] = length
            elif s[self.o_sizes + 2] > 0:
                if need < s[self.o_sizes + 2]:
                    break
                for t in range(self.k):
                    s[hand + t] += s[self.o_shuf + t]
                    s[self.o_shuf + t] = 0
                s[self.o_sizes + attacker] += s[self.o_sizes + 2]
                need -= s[self.o_sizes + 2]
                s[self.o_sizes + 2] = 0
            elif s[self.o_sizes + 3] > 0:
                for t in range(self.k):
                    s[self.o_shuf + t] = s[self.o_disc + t]
                    s[self.o_disc + t] = 0
                s[self.o_sizes + 2] = s[self.o_sizes + 3]
                s[self.o_sizes + 3] = 0
            else:
                break
        s[self.o_phase] = P_DRAW if need > 0 and s[self.o_sizes + 2] > 0 else P_ATTACK
        return 0

    # -- the interface ------------------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(-3, check=False)
    def to_move(self, state: cython.longlong[::1]) -> cython.Py_ssize_t:
        phase: cython.longlong = state[self.o_phase]
        if phase in (P_DRAW, P_DEAL):
            return CHANCE
        if phase == P_DEFEND:
            return 1 - state[self.o_attacker]
        return state[self.o_attacker]

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def legal(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1]) -> cython.Py_ssize_t:
        phase: cython.longlong = state[self.o_phase]
        if phase in (P_DRAW, P_DEAL):
            return self._outcomes(state, moves, self._weights)
        if phase == P_ATTACK:
            return self._plays(state, state[self.o_attacker], moves)
        if phase == P_DEFEND:
            return self._plays(state, 1 - state[self.o_attacker], moves)
        return 0

    @cython.cfunc
    @cython.exceptval(-1)
    def _outcomes(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1],
                  weights: cython.longlong[::1]) -> cython.Py_ssize_t:
        """Each distinct card type of the pile of unknown order, weighted by its copies."""
        count: cython.Py_ssize_t = 0
        t: cython.Py_ssize_t
        x: cython.Py_ssize_t
        for t in range(self.k):
            if state[self.o_shuf + t] > 0:
                moves[count, 0] = DRAW
                moves[count, 1] = 1
                moves[count, 2] = t
                for x in range(3, moves.shape[1]):
                    moves[count, x] = 0
                weights[count] = state[self.o_shuf + t]
                count += 1
        return count

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def chance(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1],
               weights: cython.longlong[::1]) -> cython.Py_ssize_t:
        phase: cython.longlong = state[self.o_phase]
        count: cython.Py_ssize_t
        i: cython.Py_ssize_t
        g: cython.longlong = 0
        a: cython.longlong
        b: cython.longlong
        if phase != P_DRAW and phase != P_DEAL:
            return 0
        count = self._outcomes(state, moves, weights)
        for i in range(count):  # the weights in lowest terms (as the reference's probabilities are)
            a = weights[i]
            b = g
            while b:
                a, b = b, a % b
            g = a
        for i in range(count):
            weights[i] = weights[i] // g
        return count

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def apply(self, state: cython.longlong[::1], move: cython.longlong[::1], out: cython.longlong[::1]) -> cython.int:
        i: cython.Py_ssize_t
        t: cython.longlong
        player: cython.Py_ssize_t
        phase: cython.longlong = state[self.o_phase]
        if cython.compiled:  # one block copy of the 210 words
            memcpy(cython.address(out[0]), cython.address(state[0]), self.width * cython.sizeof(cython.longlong))
        else:
            for i in range(self.width):
                out[i] = state[i]
        if phase in (P_OVER, P_STOPPED):
            raise ValueError("a Stratatak move after the end of the game")
        if phase in (P_DRAW, P_DEAL):
            t = move[2]
            if move[0] != DRAW or move[1] != 1 or t < 0 or t >= self.k or state[self.o_shuf + t] <= 0:
                raise ValueError("not a card that can be drawn now")
            out[self.o_shuf + t] -= 1
            out[self.o_sizes + 2] -= 1
            if phase == P_DEAL:  # one card to the player with fewer (player 1 first)
                player = 0 if out[self.o_sizes] <= out[self.o_sizes + 1] else 1
                out[player * self.k + t] += 1
                out[self.o_sizes + player] += 1
                if min(out[self.o_sizes], out[self.o_sizes + 1]) >= self.hand_size or out[self.o_sizes + 2] == 0:
                    out[self.o_phase] = P_ATTACK
                return 0
            player = state[self.o_attacker]
            out[player * self.k + t] += 1
            out[self.o_sizes + player] += 1
            out[self.o_phase] = P_ATTACK
            return self._refill(out)
        if move[0] != PLAY or move[1] < 1 or move[1] > self.max_play:
            raise ValueError("a player may not pass: the move is a play of one or more cards")
        player = self.to_move(state)
        for i in range(move[1]):
            t = move[2 + i]
            if t < 0 or t >= self.k or (i > 0 and t < move[1 + i]):
                raise ValueError("a play record lists card types ascending")
            out[player * self.k + t] -= 1
            if out[player * self.k + t] < 0:
                raise ValueError("the play is not in the hand of the player to move")
        if not self._legal_play(move):
            raise ValueError("the play is not a Single, Run or Set")
        out[self.o_sizes + player] -= move[1]
        if phase == P_ATTACK:
            for i in range(move[1]):
                out[self.o_table + move[2 + i]] += 1
            out[self.o_sizes + 4] = move[1]
            out[self.o_phase] = P_DEFEND
            return 0
        return self._resolve(out, move)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def quiet(self, state: cython.longlong[::1]) -> cython.bint:
        """An attack never ends the game (only a battle's end does: the defence's move)."""
        return state[self.o_phase] == P_ATTACK

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def terminal(self, state: cython.longlong[::1], returns: cython.longlong[::1]) -> cython.bint:
        phase: cython.longlong = state[self.o_phase]
        if phase == P_OVER:
            returns[0] = 1 if state[self.o_winner] == 0 else -1
            returns[1] = -returns[0]
            return True
        if phase == P_STOPPED:
            returns[0] = 0
            returns[1] = 0
            return True
        return False

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def pack(self, state: cython.longlong[::1], key: cython.longlong[::1]) -> cython.int:
        """The transposition key: the attacker, the phase and the winner plus one, every card count (the
        five blocks), the known pile's length and its cards, each in a lane of ``lane_bits`` bits,
        ``63 // lane_bits`` lanes a key word (63 bits at most: no key word is negative), the rest 0; then ``left`` in
        the last word of its own. The sizes are left out (the counts' sums), and so are the known pile's
        slots past its length (the engine never reads them). 23 words instead of the state's 210 on the
        shipped decks: the search's table hashes, compares and copies a key at every node.

        One-to-one on the engine's states: the pile's length comes before its cards, and every value is
        below ``2**lane_bits``: a state holds at most the deck's cards (``encode`` refuses more, and a move
        only moves cards), so a count or a length is at most ``deck_size``, a card type at most
        ``3M <= deck_size``, the phase at most 5 and the winner plus one at most 2."""
        i: cython.Py_ssize_t
        bits: cython.Py_ssize_t = self.lane_bits
        word: cython.Py_ssize_t = 1
        shift: cython.Py_ssize_t = 0
        packed: cython.longlong = 0
        for i in range(self.key_width):
            key[i] = 0
        key[0] = state[self.o_attacker] | (state[self.o_phase] << bits) | ((state[self.o_winner] + 1) << (2 * bits))
        for i in range(self.o_pile + 1 + state[self.o_pile]):  # the counts, the pile's length and its cards
            packed |= state[i] << shift
            shift += bits
            if shift + bits > 63:
                key[word] = packed
                word += 1
                packed = 0
                shift = 0
        if shift:
            key[word] = packed
        key[self.key_width - 1] = state[self.o_left]
        return 0

    # -- Python-facing: the reference's values ------------------------------------------------------
    def encode(self, state: Any) -> np.ndarray:
        """The reference State as a packed vector; ValueError for a state beyond the engine's slots."""
        k = self.k
        v = np.zeros(self.width, np.int64)

        def put(base: int, cards: Any) -> int:
            for card in cards:
                if card not in self.index:
                    raise ValueError(f"card {card} is not in the deck of this game")
                v[base + self.index[card]] += 1
            return len(cards)

        v[self.o_sizes] = put(0, state.hands[0])
        v[self.o_sizes + 1] = put(k, state.hands[1])
        v[self.o_sizes + 2] = put(self.o_shuf, state.shuffled)
        v[self.o_sizes + 3] = put(self.o_disc, state.discard)
        v[self.o_sizes + 4] = put(self.o_table, state.table)
        if len(state.pile) > self.deck_size:
            raise ValueError(f"a known pile of {len(state.pile)} cards, more than the deck's {self.deck_size}")
        v[self.o_pile] = len(state.pile)
        for i, card in enumerate(reversed(state.pile)):  # the top last
            if card not in self.index:
                raise ValueError(f"card {card} is not in the deck of this game")
            v[self.o_pile + 1 + i] = self.index[card]
        held = sum(int(v[self.o_sizes + i]) for i in range(5)) + len(state.pile)
        if held > self.deck_size:
            raise ValueError(f"a state of {held} cards, more than the deck's {self.deck_size}")
        v[self.o_attacker] = state.attacker
        v[self.o_phase] = _PHASES.index(state.phase)
        v[self.o_winner] = state.winner
        v[self.o_left] = state.left
        return v

    def decode(self, vector: Any) -> Any:
        """The reference State a packed vector stands for."""
        from stratagem.models.stratatak.position import State

        v = [int(x) for x in np.asarray(vector, np.int64)]
        k, codes = self.k, self.codes

        def cards(base: int) -> tuple[str, ...]:
            return tuple(codes[t] for t in range(k) for _ in range(v[base + t]))

        length = v[self.o_pile]
        pile = tuple(codes[v[self.o_pile + 1 + i]] for i in range(length - 1, -1, -1))
        return State((cards(0), cards(k)), pile, cards(self.o_shuf), cards(self.o_disc), cards(self.o_table),
                     v[self.o_attacker], _PHASES[v[self.o_phase]], v[self.o_winner], v[self.o_left])

    def decode_move(self, state: Any, record: Any) -> Any:
        """The reference move a record stands for: the play's sorted card codes, or the card drawn."""
        words = [int(x) for x in np.asarray(record, np.int64)]
        return tuple(self.codes[t] for t in words[2: 2 + words[1]])

    def encode_move(self, move: Any) -> np.ndarray:
        """The record of a reference move at a player's turn (a play); :meth:`encode_draw` for a draw."""
        types = sorted(self.index[card] for card in move)
        record = np.zeros(self.move_width, np.int64)
        record[0], record[1] = PLAY, len(types)
        record[2: 2 + len(types)] = types
        return record

    def encode_draw(self, card: str) -> np.ndarray:
        """The record of a chance outcome: ``card`` drawn."""
        record = np.zeros(self.move_width, np.int64)
        record[0], record[1], record[2] = DRAW, 1, self.index[card]
        return record


#: A key's parts: the bucket (shifted above) and the rank within it (offset so that it stays positive).
_RANK = cython.declare(cython.longlong, 1 << 32)
_OFFSET = cython.declare(cython.longlong, 1 << 31)


@cython.cclass
class StratatakOrder(MoveOrder):  # type: ignore[misc]
    """The attacks of :meth:`~stratagem.models.stratatak.rules.StratatakGame.order_moves` over packed
    states, key for key: those the Defender cannot beat with any play from hand (the open hand is known),
    emptying the hand first, the weakest first; then the others, more cards before fewer, stronger before
    weaker. The keys sort as the reference's key tuples do.

    Defences (and chance draws) have no hint: the reference's defence order (winning defences first, more
    cards before fewer) was measured to cost the compiled searches, whose history heuristic orders
    defences better: with it expectiminimax searched long-odds in 10,873 nodes instead of 978,
    reshuffle-gamble in 11,807 instead of 6,049, run-of-reds in 889 instead of 716.
    """

    engine: StratatakEngine
    answers: cython.longlong[:, ::1]
    strength: cython.longlong[::1]
    colour: cython.longlong[::1]

    def __init__(self, engine: StratatakEngine) -> None:
        MoveOrder.__init__(self, engine)
        self.engine = engine
        self.answers = np.zeros((MAX_MOVES, engine.move_width), np.int64)
        self.strength = np.zeros(MAX_MOVES, np.int64)
        self.colour = np.zeros(MAX_MOVES, np.int64)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def keys(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1], count: cython.Py_ssize_t,
             out: cython.longlong[::1]) -> cython.int:
        e: StratatakEngine = self.engine
        phase: cython.longlong = state[e.o_phase]
        player: cython.Py_ssize_t
        hand: cython.longlong
        answers: cython.Py_ssize_t
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        a: cython.longlong
        ac: cython.longlong
        held: cython.bint
        empties: cython.bint
        if phase == P_ATTACK:
            player = state[e.o_attacker]
            hand = state[e.o_sizes + player]
            answers = e._plays(state, 1 - player, self.answers)
            for j in range(answers):
                self.strength[j] = e._play_fighters(self.answers[j])
                self.colour[j] = e._play_composition(self.answers[j])
            for i in range(count):
                a = e._play_fighters(moves[i])
                ac = e._play_composition(moves[i])
                held = True
                for j in range(answers):
                    if not _attack_wins(a, ac, self.strength[j], self.colour[j]):
                        held = False
                        break
                empties = moves[i, 1] == hand
                if held:  # the cheapest sure win of the battle keeps the strong cards for later
                    out[i] = (0 if empties else 2) * _RANK + a + _OFFSET
                else:
                    out[i] = 3 * _RANK - moves[i, 1] * 100 - a + _OFFSET
            return 1
        return 0


__all__ = ["DRAW", "MAX_MOVES", "PLAY", "StratatakEngine", "StratatakOrder"]
