"""Compiled (numba) Strato turns and A* over integer-packed states (see :mod:`packed` for the layout).

A state is held unpacked as one ``int64`` vector while it is worked on (:mod:`packed` names the
slots: each half-row's length and cards, each hand, the pile position, the player to move, the last
weather and the result) and packed into ``rows + 1`` integers to be stored. Weathers are numbered in
letter order (``C F R S T W`` = 0..5), so a sorted hand is a sorted run of numbers.

:func:`plays` is the rules engine's :meth:`~stratagem.models.strato.rules.StratoGame.plays` written
again over these vectors: the same moves in the same order (cards of the hand by weather, then the
Redraw; rows in order, left end first; target choices in the order :mod:`actions` lists them) and the
same states after them, the end-of-turn result included. ``tests/models/strato/test_compiled.py``
holds it to the engine on random states. :func:`lower_bound` is :mod:`heuristic`'s bound, and
:func:`astar` is A* over packed states with the open list ordered as the Python A*'s (lowest ``f``,
then deepest ``g``), re-opening a state reached again with a smaller ``g``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Weather numbers (letter order).
C, F, R, S, T, W = 0, 1, 2, 3, 4, 5
NO_LAST = -1

#: Move fields written by :func:`plays`: card, row, end, number of target places, three fields per
#: place (row, side, distance) for two places, redraw, exchange.
MOVE_FIELDS = 12

#: Room for one state's moves (a few hundred at most); :func:`plays` raises rather than drop one.
MAX_MOVES = 8192

ONGOING, WON, LOST = 0, 1, -1

#: ``astar`` results.
RUNNING, SOLVED, EXHAUSTED, FULL = 0, 1, 2, 3

# spec: (rows, maxl, limit, players, hand_size, pile, strict, wind_crosses, blank_last, eligible, kind,
#        seq, seq_len, nearest, met_need, needs, goal_len, rows_required, combos)


@njit(cache=True, inline="always")
def _half(r: int, side: int, maxl: int) -> int:
    return (r * 2 + side) * (maxl + 1)


@njit(cache=True, inline="always")
def _hand(p: int, rows: int, maxl: int) -> int:
    return 2 * rows * (maxl + 1) + 4 * p


@njit(cache=True, inline="always")
def _tail(rows: int, maxl: int, players: int) -> int:
    """Slot of the pile position; then the player to move, the last weather, the result."""
    return 2 * rows * (maxl + 1) + 4 * players


@njit(cache=True)
def state_size(rows: int, maxl: int, players: int) -> int:
    return 2 * rows * (maxl + 1) + 4 * players + 4


# -- the victory test and the end of a turn ----------------------------------------------------------
@njit(cache=True, inline="always")
def _half_met(a: np.ndarray, base: int, r: int, side: int, kind: np.ndarray, seq: np.ndarray, seq_len: np.ndarray,
              nearest: np.ndarray, met_need: np.ndarray) -> bool:
    """One half-row against its half of the goal (arrays indexed in place: views cost reference counts)."""
    n = a[base]
    k = kind[r, side]
    if k == 0:
        return True
    if k == 1:
        m = seq_len[r, side]
        if n < m:
            return False
        for i in range(m):
            t = seq[r, side, i]
            if t >= 0 and t != a[base + 1 + i]:
                return False
        return True
    window = min(n, nearest[r, side])
    for w in range(6):
        least = met_need[r, side, w]
        if least > 0:
            have = 0
            for i in range(window):
                if a[base + 1 + i] == w:
                    have += 1
            if have < least:
                return False
    return True


@njit(cache=True, inline="always")
def row_met(a: np.ndarray, r: int, maxl: int, eligible: np.ndarray, kind: np.ndarray, seq: np.ndarray,
            seq_len: np.ndarray, nearest: np.ndarray, met_need: np.ndarray) -> bool:
    if not eligible[r]:
        return False
    for side in range(2):  # noqa: SIM110 (a compiled loop)
        if not _half_met(a, _half(r, side, maxl), r, side, kind, seq, seq_len, nearest, met_need):
            return False
    return True


@njit(cache=True)
def _status(a: np.ndarray, spec: tuple) -> int:  # type: ignore[type-arg]
    """:func:`~stratagem.models.strato.status.end_of_turn_status` of the state in ``a``."""
    rows, maxl, limit, players = spec[0], spec[1], spec[2], spec[3]
    pile = spec[5]
    eligible, kind, seq, seq_len, nearest, met_need = spec[9], spec[10], spec[11], spec[12], spec[13], spec[14]
    rows_required = spec[17]
    for r in range(rows):
        for side in range(2):
            if a[_half(r, side, maxl)] > limit:
                return LOST
    meeting = 0
    for r in range(rows):
        if row_met(a, r, maxl, eligible, kind, seq, seq_len, nearest, met_need):
            meeting += 1
    if meeting >= rows_required:
        return WON
    tail = _tail(rows, maxl, players)
    if a[tail] >= pile.shape[0] and a[_hand(a[tail + 1], rows, maxl)] == 0:
        return LOST
    return ONGOING


# -- editing half-rows -----------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _remove(a: np.ndarray, base: int, i: int) -> int:
    n = a[base]
    card = a[base + 1 + i]
    for x in range(i, n - 1):
        a[base + 1 + x] = a[base + 2 + x]
    a[base + n] = 0
    a[base] = n - 1
    return int(card)


@njit(cache=True, inline="always")
def _insert(a: np.ndarray, base: int, q: int, card: int) -> None:
    n = a[base]
    for x in range(n, q, -1):
        a[base + 1 + x] = a[base + x]
    a[base + 1 + q] = card
    a[base] = n + 1


@njit(cache=True, inline="always")
def _move(moves: np.ndarray, count: int, card: int, r: int, end: int, redraw: bool, n_targets: int, r0: int, s0: int,
          d0: int, r1: int, s1: int, d1: int, exchange: bool) -> None:
    m = moves[count]
    m[0] = card
    m[1] = r
    m[2] = end
    m[3] = n_targets
    m[4] = r0
    m[5] = s0
    m[6] = d0
    m[7] = r1
    m[8] = s1
    m[9] = d1
    m[10] = 1 if redraw else 0
    m[11] = 1 if exchange else 0


@njit(cache=True, inline="always")
def _differs(a: np.ndarray, base: int, lo: int, hi: int, card: int) -> bool:
    """Whether a card other than ``card`` lies at places ``lo`` to ``hi - 1`` of the half-row at ``base``:
    moving ``card`` past only its equals would change nothing, which no move may do."""
    for x in range(lo, hi):  # noqa: SIM110 (a compiled loop)
        if a[base + 1 + x] != card:
            return True
    return False


@njit(cache=True, inline="always")
def _relocate(after: np.ndarray, states: np.ndarray, moves: np.ndarray, count: int, card: int, r: int, end: int,
              redraw: bool, maxl: int, r0: int, s0: int, d0: int, r1: int, s1: int, d1: int) -> int:
    """Emit ``after`` with its card at place ``d0`` of half-row (``r0``, ``s0``) taken out and inserted at
    place ``d1`` of (``r1``, ``s1``) (Wind, Rain, Fog into an empty place), and the move that does it;
    return the new count."""
    count = _emit(after, states, count)
    o = states[count]
    moved = _remove(o, _half(r0, s0, maxl), d0)
    _insert(o, _half(r1, s1, maxl), d1, moved)
    _move(moves, count, card, r, end, redraw, 2, r0, s0, d0, r1, s1, d1, False)
    return count + 1


@njit(cache=True)
def _emit(after: np.ndarray, states: np.ndarray, count: int) -> int:
    if count >= states.shape[0]:
        raise ValueError("compiled Strato moves overflow their buffer")
    states[count, :] = after
    return count


# -- one card at one end -----------------------------------------------------------------------------
@njit(cache=True)
def _plays_of(a: np.ndarray, card: int, redraw: bool, r: int, end: int, spec: tuple,  # type: ignore[type-arg]
              after: np.ndarray, states: np.ndarray, moves: np.ndarray, count: int, full: bool) -> int:
    rows, maxl, players, hand_size = spec[0], spec[1], spec[3], spec[4]
    pile, strict, wind_crosses, blank_last = spec[5], spec[6], spec[7], spec[8]
    tail = _tail(rows, maxl, players)
    # hands, pile and last weather after the card left hand (or pile) and the player drew
    after[:] = a
    p = a[tail + 1]
    hb = _hand(p, rows, maxl)
    pp = a[tail]
    if redraw:
        pp += 1
        n = 0
        while n < hand_size and pp < pile.shape[0]:
            after[hb + 1 + n] = pile[pp]
            pp += 1
            n += 1
        for x in range(n, 3):
            after[hb + 1 + x] = 0
        after[hb] = n
    else:
        n = a[hb]
        removed = False
        k = 0
        for x in range(n):
            if not removed and a[hb + 1 + x] == card:
                removed = True
                continue
            after[hb + 1 + k] = a[hb + 1 + x]
            k += 1
        if pp < pile.shape[0]:
            after[hb + 1 + k] = pile[pp]
            pp += 1
            k += 1
        for x in range(k, 3):
            after[hb + 1 + x] = 0
        after[hb] = k
    # sort the hand (at most three cards)
    hn = after[hb]
    for x in range(1, hn):
        y = after[hb + 1 + x]
        z = x - 1
        while z >= 0 and after[hb + 1 + z] > y:
            after[hb + 2 + z] = after[hb + 1 + z]
            z -= 1
        after[hb + 2 + z] = y
    after[tail] = pp
    last = a[tail + 2]
    action = last if card == C else card
    if card != C:
        after[tail + 2] = card
    if blank_last:
        after[tail + 2] = NO_LAST
    after[tail + 1] = (p + 1) % players
    # the card placed
    nb = _half(r, end, maxl)
    fb = _half(r, 1 - end, maxl)
    after[nb + 1 + after[nb]] = card
    after[nb] += 1
    pd = after[nb] - 1
    first = count
    if action == W:
        nl = after[nb]
        fl = after[fb]
        for pos in range(nl):
            if pos == pd:
                continue
            moved = after[nb + 1 + pos]
            for q in range(pos):
                if _differs(after, nb, q, pos, moved):
                    count = _relocate(after, states, moves, count, card, r, end, redraw, maxl,
                                      r, end, pos, r, end, q)
            if wind_crosses:
                for q in range(fl + 1):
                    count = _relocate(after, states, moves, count, card, r, end, redraw, maxl,
                                      r, end, pos, r, 1 - end, q)
        for pos in range(fl):
            moved = after[fb + 1 + pos]
            for q in range(pos + 1, fl):
                if _differs(after, fb, pos + 1, q + 1, moved):
                    count = _relocate(after, states, moves, count, card, r, end, redraw, maxl,
                                      r, 1 - end, pos, r, 1 - end, q)
    elif action == R:
        fl = after[fb]
        if fl > 0:
            moved = after[fb + fl]
            for side in range(2):
                # back next to its own tornado only if that changes the half-row
                if side != 1 - end or _differs(after, fb, 0, fl, moved):
                    count = _relocate(after, states, moves, count, card, r, end, redraw, maxl,
                                      r, 1 - end, fl - 1, r, side, 0)
    elif action == S:
        for side in range(2):
            base = _half(r, side, maxl)
            for i in range(after[base]):
                if side == end and i == pd:
                    continue
                count = _emit(after, states, count)
                _remove(states[count], base, i)
                _move(moves, count, card, r, end, redraw, 1, r, side, i, 0, 0, 0, False)
                count += 1
    elif action == F:
        for side in range(2):
            for r1 in range(rows):
                for r2 in range(r1 + 1, rows):
                    ab = _half(r1, side, maxl)
                    bb = _half(r2, side, maxl)
                    la = after[ab]
                    lb = after[bb]
                    for d in range(max(la, lb)):
                        if side == end and d == pd and (r1 == r or r2 == r):
                            continue
                        if d < la and d < lb:
                            if after[ab + 1 + d] != after[bb + 1 + d]:
                                count = _emit(after, states, count)
                                o = states[count]
                                o[ab + 1 + d] = after[bb + 1 + d]
                                o[bb + 1 + d] = after[ab + 1 + d]
                                _move(moves, count, card, r, end, redraw, 2, r1, side, d, r2, side, d, True)
                                count += 1
                        elif d < la:
                            count = _relocate(after, states, moves, count, card, r, end, redraw, maxl,
                                              r1, side, d, r2, side, lb)
                        else:
                            count = _relocate(after, states, moves, count, card, r, end, redraw, maxl,
                                              r2, side, d, r1, side, la)
    elif action == T:
        for x in range(2 * rows):
            xr, xs = x // 2, x % 2
            xn = after[_half(xr, xs, maxl)]
            if xn == 0 or (xr == r and xs == end):  # empty, or the Storm just played
                continue
            for y in range(x + 1, 2 * rows):
                yr, ys = y // 2, y % 2
                yn = after[_half(yr, ys, maxl)]
                if yn == 0 or (yr == r and ys == end):
                    continue
                xb = _half(xr, xs, maxl)
                yb = _half(yr, ys, maxl)
                cx = after[xb + xn]
                cy = after[yb + yn]
                if cx == cy:
                    continue
                count = _emit(after, states, count)
                o = states[count]
                o[xb + xn] = cy
                o[yb + yn] = cx
                _move(moves, count, card, r, end, redraw, 2, xr, xs, xn - 1, yr, ys, yn - 1, True)
                count += 1
    if count == first:
        if strict:
            return count
        count = _emit(after, states, count)
        _move(moves, count, card, r, end, redraw, 0, 0, 0, 0, 0, 0, 0, False)
        count += 1
    if full:
        for i in range(first, count):
            states[i, tail + 3] = _status(states[i], spec)
    else:  # only the cheap part: a half-row over the limit (the caller decides the rest when it needs it)
        limit = spec[2]
        for i in range(first, count):
            o = states[i]
            for x in range(2 * rows):
                if o[x * (maxl + 1)] > limit:
                    o[tail + 3] = LOST
                    break
    return count


@njit(cache=True)
def plays(a: np.ndarray, spec: tuple, after: np.ndarray, states: np.ndarray,  # type: ignore[type-arg]
          moves: np.ndarray, full: bool = True) -> int:
    """Every legal move of the state ``a`` with the state it leads to, in the engine's order; returns
    how many (``states[:n]``, ``moves[:n]``). Without ``full`` the states' results are only "lost" for a
    half-row over the limit and "ongoing" otherwise: :func:`_status` gives the rest."""
    rows, maxl, players = spec[0], spec[1], spec[3]
    pile = spec[5]
    tail = _tail(rows, maxl, players)
    if a[tail + 3] != ONGOING:
        return 0
    hb = _hand(a[tail + 1], rows, maxl)
    count = 0
    previous = -1
    for i in range(a[hb]):
        card = a[hb + 1 + i]
        if card == previous:
            continue
        previous = card
        for r in range(rows):
            for end in range(2):
                count = _plays_of(a, card, False, r, end, spec, after, states, moves, count, full)
    if a[tail] < pile.shape[0]:
        card = pile[a[tail]]
        for r in range(rows):
            for end in range(2):
                count = _plays_of(a, card, True, r, end, spec, after, states, moves, count, full)
    return count


# -- the admissible bound of heuristic.py -----------------------------------------------------------
@njit(cache=True)
def lower_bound(a: np.ndarray, spec: tuple, scratch: np.ndarray) -> int:  # type: ignore[type-arg]
    """:func:`~stratagem.models.strato.heuristic.lower_bound` of the state in ``a`` (``scratch``: an
    ``int64`` array of 4 x 6 entries, kept by the caller)."""
    rows, maxl, players = spec[0], spec[1], spec[3]
    pile = spec[5]
    eligible, kind, seq, seq_len, nearest, met_need = spec[9], spec[10], spec[11], spec[12], spec[13], spec[14]
    needs, goal_len, combos = spec[15], spec[16], spec[18]
    tail = _tail(rows, maxl, players)
    status = a[tail + 3]
    if status != ONGOING:
        return 0
    table = scratch[0]
    table[:] = 0
    for r in range(rows):
        for side in range(2):
            base = _half(r, side, maxl)
            for i in range(a[base]):
                table[a[base + 1 + i]] += 1
    cross = a[tail + 2] == F or a[tail + 2] == T
    for p in range(players):
        hb = _hand(p, rows, maxl)
        for i in range(a[hb]):
            if a[hb + 1 + i] == F or a[hb + 1 + i] == T:
                cross = True
    for i in range(a[tail], pile.shape[0]):
        if pile[i] == F or pile[i] == T:
            cross = True
    best = -1
    need = scratch[1]
    here = scratch[2]
    have = scratch[3]
    for ci in range(combos.shape[0]):
        need[:] = 0
        here[:] = 0
        shortfall = 0
        apart = 0
        for j in range(combos.shape[1]):
            r = combos[ci, j]
            have[:] = 0
            row_short = 0
            for side in range(2):
                base = _half(r, side, maxl)
                for i in range(a[base]):
                    have[a[base + 1 + i]] += 1
                for w in range(6):
                    need[w] += needs[r, side, w]
                row_short += max(0, goal_len[r, side] - a[base])
            for w in range(6):
                here[w] += have[w]
            shortfall += row_short
            if not cross and not row_met(a, r, maxl, eligible, kind, seq, seq_len, nearest, met_need):
                supply_r = 0
                for w in range(6):
                    supply_r += max(0, needs[r, 0, w] + needs[r, 1, w] - have[w])
                apart += max(supply_r, (row_short + 1) // 2, 1)
        supply = 0
        local = 0
        for w in range(6):
            supply += max(0, need[w] - table[w])
            if not cross or (w != F and w != T and w != C):
                local += max(0, need[w] - here[w])
        bound = max(supply, local, (shortfall + 1) // 2, 1)
        if not cross:
            bound = max(bound, apart)
        if best < 0 or bound < best:
            best = bound
    return best if best >= 0 else 1


# -- images in the table-only relaxation (relaxation.image), for the relaxation's heuristic -----------
@njit(cache=True)
def relaxed_rest(a: np.ndarray, spec: tuple, relax: tuple, scratch: np.ndarray) -> int:  # type: ignore[type-arg]
    """The relaxation's lower bound on the turns left: for each goal row searched, its relaxed distance
    from the start's image to a goal less the relaxed distance from that image to this state's image
    (the triangle inequality; 0 where the image was not reached), combined over the sets of goal rows
    as the bound combines them (:func:`relaxation.combine`)."""
    rows, maxl = spec[0], spec[1]
    (n_rel, goal_row, index, k, offsets, half_rows, n_ends, end_base, distance, layers, layer_start,
     combine_max, required, rel_combos) = relax
    if n_rel == 0:
        return 0
    values = scratch[0]
    values[:] = 0
    for i in range(n_rel):
        if distance[i] < 0:
            continue
        g = goal_row[i]
        code = 0
        ok = True
        for side in range(2):
            base = _half(g, side, maxl)
            n = a[base]
            value = 0
            for x in range(n - 1, -1, -1):
                c = index[i, a[base + 1 + x]]
                if c < 0:
                    ok = False
                value = value * k[i] + c
            code = code * half_rows[i] + offsets[i, n] + value
        if not ok:
            continue
        if n_ends[i] > 0:
            base_e = end_base[i]
            empty = k[i] if base_e == k[i] + 1 else k[i] - 1
            ends = scratch[1]
            m = 0
            for r in range(rows):
                if r == g:
                    continue
                for side in range(2):
                    hb = _half(r, side, maxl)
                    n = a[hb]
                    ends[m] = index[i, a[hb + n]] if n > 0 else empty
                    if ends[m] < 0:
                        ok = False
                    m += 1
            if not ok:
                continue
            if n_ends[i] == 2 and ends[1] < ends[0]:
                ends[0], ends[1] = ends[1], ends[0]
            value = 0
            for x in range(n_ends[i] - 1, -1, -1):
                value = value * base_e + ends[x]
            code = code * base_e ** n_ends[i] + value
        layer = layers[layer_start[i] + code]
        if layer >= 0:
            values[i] = max(0, distance[i] - layer)
    best = -1
    for ci in range(rel_combos.shape[0]):
        total = 0
        skip = False
        for j in range(rel_combos.shape[1]):
            i = rel_combos[ci, j]
            if distance[i] < 0:
                skip = True
                break
            total = max(total, values[i]) if combine_max else total + values[i]
        if not skip and (best < 0 or total < best):
            best = total
    return max(best, 0)


# -- packing --------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _pack_cards(a: np.ndarray, base: int) -> int:
    """The cards of the slot at ``base`` (a length, then the cards) as a leading 1 and 3 bits per card,
    the first card lowest."""
    packed = 1
    for x in range(a[base] - 1, -1, -1):
        packed = (packed << 3) | a[base + 1 + x]
    return packed


@njit(cache=True, inline="always")
def _unpack_cards(packed: int, a: np.ndarray, base: int) -> None:
    """Inverse of :func:`_pack_cards`: the cards into the slot at ``base``, their number at ``base``."""
    n = 0
    while packed > 1:
        a[base + 1 + n] = packed & 7
        packed >>= 3
        n += 1
    a[base] = n


@njit(cache=True)
def pack(a: np.ndarray, spec: tuple, key: np.ndarray) -> None:  # type: ignore[type-arg]
    """The state in ``a`` as ``rows + 1`` integers: per row two half-rows of 25 bits (a leading 1 and 3
    bits per card), then the hands (10 bits each), pile position, player to move, last and result."""
    rows, maxl, players = spec[0], spec[1], spec[3]
    for r in range(rows):
        word = 0
        for side in range(2):
            word |= _pack_cards(a, _half(r, side, maxl)) << (25 * side)
        key[r] = word
    word = 0
    for p in range(players):
        word |= _pack_cards(a, _hand(p, rows, maxl)) << (10 * p)
    tail = _tail(rows, maxl, players)
    word |= a[tail] << 40
    word |= a[tail + 1] << 46
    word |= (a[tail + 2] + 1) << 48
    word |= (a[tail + 3] + 1) << 51
    key[rows] = word


@njit(cache=True)
def unpack(key: np.ndarray, spec: tuple, a: np.ndarray) -> None:  # type: ignore[type-arg]
    """Inverse of :func:`pack`."""
    rows, maxl, players = spec[0], spec[1], spec[3]
    a[:] = 0
    for r in range(rows):
        word = key[r]
        for side in range(2):
            _unpack_cards((word >> (25 * side)) & ((1 << 25) - 1), a, _half(r, side, maxl))
    word = key[rows]
    for p in range(players):
        _unpack_cards((word >> (10 * p)) & 1023, a, _hand(p, rows, maxl))
    tail = _tail(rows, maxl, players)
    a[tail] = (word >> 40) & 63
    a[tail + 1] = (word >> 46) & 3
    a[tail + 2] = ((word >> 48) & 7) - 1
    a[tail + 3] = ((word >> 51) & 3) - 1


# -- A* -----------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _hash(key: np.ndarray, nw: int) -> int:
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(nw):
        x = np.uint64(key[i]) ^ h
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        h = x ^ (x >> np.uint64(31))
    return int(h & np.uint64(0x7FFFFFFFFFFFFFFF))


@njit(cache=True)
def _find(table: np.ndarray, keys: np.ndarray, key: np.ndarray, nw: int) -> int:
    """The table slot holding ``key``, or the empty slot where it goes (``table[slot] == -1``)."""
    mask = table.shape[0] - 1
    slot = _hash(key, nw) & mask
    while True:
        node = table[slot]
        if node < 0:
            return int(slot)
        same = True
        for i in range(nw):
            if keys[node, i] != key[i]:
                same = False
                break
        if same:
            return int(slot)
        slot = (slot + 1) & mask


@njit(cache=True)
def _heap_push(heap: np.ndarray, size: int, item: int) -> np.ndarray:
    if size >= heap.shape[0]:
        bigger = np.empty(heap.shape[0] * 2, np.int64)
        bigger[:size] = heap[:size]
        heap = bigger
    i = size
    heap[i] = item
    while i > 0:
        parent = (i - 1) >> 1
        if heap[parent] <= heap[i]:
            break
        heap[parent], heap[i] = heap[i], heap[parent]
        i = parent
    return heap


@njit(cache=True)
def _heap_pop(heap: np.ndarray, size: int) -> None:
    """Remove the least item (``heap[0]``); ``size`` is the size before."""
    size -= 1
    heap[0] = heap[size]
    i = 0
    while True:
        left = 2 * i + 1
        if left >= size:
            break
        child = left
        if left + 1 < size and heap[left + 1] < heap[left]:
            child = left + 1
        if heap[i] <= heap[child]:
            break
        heap[i], heap[child] = heap[child], heap[i]
        i = child


#: Heap items: ``f << 50 | (G_MAX - g) << 40 | node``: lowest f, then deepest g, then first stored.
G_MAX = 1023
NODE_BITS = 40


@njit(cache=True)
def _heuristic(a: np.ndarray, spec: tuple, relax: tuple, scratch: np.ndarray) -> int:  # type: ignore[type-arg]
    """The larger of the two bounds (``scratch``: 6 x 8 entries)."""
    return max(lower_bound(a, spec, scratch[:4]), relaxed_rest(a, spec, relax, scratch[4:]))


@njit(cache=True)
def astar_start(start: np.ndarray, spec: tuple, relax: tuple, capacity: int) -> tuple:  # type: ignore[type-arg]
    """A fresh A* from the state ``start``: its arrays (see :func:`astar_run`)."""
    rows = spec[0]
    nw = rows + 1
    keys = np.empty((capacity, nw), np.int64)
    g = np.empty(capacity, np.int32)
    h = np.empty(capacity, np.int32)
    parent = np.empty(capacity, np.int64)
    table = np.full(capacity * 2, -1, np.int64)
    heap = np.empty(1024, np.int64)
    counters = np.zeros(8, np.int64)  # nodes, heap size, expanded, generated, bound, status, goal node
    key = np.empty(nw, np.int64)
    pack(start, spec, key)
    keys[0, :] = key
    g[0] = 0
    h0 = _heuristic(start, spec, relax, np.zeros((6, 8), np.int64))
    h[0] = -1 if start[_tail(rows, spec[1], spec[3]) + 3] == WON else h0
    parent[0] = -1
    table[_find(table, keys, key, nw)] = 0
    heap = _heap_push(heap, 0, (h0 << 50) | (G_MAX << NODE_BITS))
    counters[0] = 1
    counters[1] = 1
    counters[4] = h0
    return keys, g, h, parent, table, heap, counters


@njit(cache=True)
def _grow(keys: np.ndarray, g: np.ndarray, h: np.ndarray, parent: np.ndarray, table: np.ndarray, n: int,
          nw: int) -> tuple:  # type: ignore[type-arg]
    capacity = keys.shape[0] * 2
    keys2 = np.empty((capacity, nw), np.int64)
    keys2[:n] = keys[:n]
    g2 = np.empty(capacity, np.int32)
    g2[:n] = g[:n]
    h2 = np.empty(capacity, np.int32)
    h2[:n] = h[:n]
    parent2 = np.empty(capacity, np.int64)
    parent2[:n] = parent[:n]
    table2 = np.full(capacity * 2, -1, np.int64)
    for node in range(n):
        table2[_find(table2, keys2, keys2[node], nw)] = node
    return keys2, g2, h2, parent2, table2


@njit(cache=True)
def astar_run(keys: np.ndarray, g: np.ndarray, h: np.ndarray, parent: np.ndarray, table: np.ndarray,
              heap: np.ndarray, counters: np.ndarray, spec: tuple, relax: tuple,  # type: ignore[type-arg]
              budget: int, max_stored: int) -> tuple:  # type: ignore[type-arg]
    """Up to ``budget`` expansions of the A* held in the arrays; returns them (grown as needed).

    ``counters``: stored states, heap size, expansions, generated successors, the largest ``f`` taken
    from the open list (a proven lower bound), the status (:data:`RUNNING`, :data:`SOLVED` with the
    goal's node in ``counters[6]``, :data:`EXHAUSTED`, :data:`FULL` when ``max_stored`` states are
    stored). Lost states are not stored (no goal lies beyond them), nor are successors no shorter than
    a known way to the same state. A state's result is decided once, when it is first stored (``h`` is
    -1 for a won state); its key holds the result "ongoing".
    """
    rows, maxl, players = spec[0], spec[1], spec[3]
    nw = rows + 1
    size = state_size(rows, maxl, players)
    tail = _tail(rows, maxl, players)
    a = np.empty(size, np.int64)
    after = np.empty(size, np.int64)
    states = np.empty((MAX_MOVES, size), np.int64)
    moves = np.empty((MAX_MOVES, MOVE_FIELDS), np.int64)
    key = np.empty(nw, np.int64)
    scratch = np.zeros((6, 8), np.int64)
    n_nodes, heap_size, expanded, generated, bound = counters[0], counters[1], counters[2], counters[3], counters[4]
    done = 0
    status = RUNNING
    while True:
        if heap_size == 0:
            status = EXHAUSTED
            break
        item = heap[0]
        node = item & ((1 << NODE_BITS) - 1)
        node_g = G_MAX - ((item >> NODE_BITS) & G_MAX)
        f = item >> 50
        if g[node] != node_g:  # superseded by a shorter way
            _heap_pop(heap, heap_size)
            heap_size -= 1
            continue
        if h[node] < 0:  # a won state (its key keeps the placeholder result "ongoing")
            status = SOLVED
            counters[6] = node
            break
        if f > bound:
            bound = f
        if done >= budget:
            break
        if n_nodes + MAX_MOVES > max_stored:
            status = FULL
            break
        _heap_pop(heap, heap_size)
        heap_size -= 1
        expanded += 1
        done += 1
        unpack(keys[node], spec, a)
        count = plays(a, spec, after, states, moves, False)
        child_g = node_g + 1
        for i in range(count):
            generated += 1
            child = states[i]
            if child[tail + 3] == LOST:
                continue
            pack(child, spec, key)
            slot = _find(table, keys, key, nw)
            known = table[slot]
            if known >= 0:
                if g[known] <= child_g:
                    continue
                target = known
            else:
                if n_nodes >= keys.shape[0]:
                    keys, g, h, parent, table = _grow(keys, g, h, parent, table, n_nodes, nw)
                    slot = _find(table, keys, key, nw)
                result = _status(child, spec)
                if result == LOST:  # the pile and the next hand are empty
                    continue
                target = n_nodes
                n_nodes += 1
                keys[target, :] = key
                table[slot] = target
                h[target] = -1 if result == WON else _heuristic(child, spec, relax, scratch)
            g[target] = child_g
            parent[target] = node
            heap = _heap_push(heap, heap_size, ((child_g + max(h[target], 0)) << 50)
                              | ((G_MAX - child_g) << NODE_BITS) | target)
            heap_size += 1
    counters[0] = n_nodes
    counters[1] = heap_size
    counters[2] = expanded
    counters[3] = generated
    counters[4] = bound
    counters[5] = status
    return keys, g, h, parent, table, heap, counters
