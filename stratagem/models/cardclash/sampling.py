"""Card Clash's determinisations packed for the compiled searches, cheaply and draw for draw.

:class:`PackedDeals` gives what ``engine.encode(game.sample_state(state, player, rng))`` gives
(:meth:`~stratagem.models.cardclash.rules.CardClashGame.sample_state`, then
:meth:`~stratagem.models.cardclash.engine.CardClashEngine.encode`), row for row, from the same calls on
``rng`` in the same order -- so a compiled search's moves do not change -- at a fraction of the cost:
what does not change between the determinisations of one decision (the unseen cards of each colour,
the covered slots and the stacks they sit in, every word of the packed state but the hidden ones) is
worked out once, and each determinisation only shuffles rank numbers as ``sample_state`` shuffles rank
letters (a shuffle's draws depend on the length alone), redraws while a covered stack breaks the stacking
rules as ``sample_state`` does (up to 200 tries, the last kept), and writes the other hands, the draw
piles and the covered cards' words.

The rules engine stays the definition: the hidden cards are the ones ``sample_state`` takes, the stacking
rules are :func:`~stratagem.models.cardclash.cards.stacking`'s, and :func:`packed_deals` checks one
determinisation against the reference's pair before it hands the sampler over (else None: the caller
samples through the reference). The layout is the engine's (its module docstring).
"""

from __future__ import annotations

from operator import lshift
from typing import Any

import numpy as np

from stratagem.core.packed_deals import PackedDeals as SharedDeals
from stratagem.core.packed_deals import checked
from stratagem.models.cardclash.cards import COLOURS, RANKS, stacking

#: ``sample_state``'s tries at covered stacks that obey the stacking rules.
TRIES = 200
#: A card of rank ``r`` in a packed hand (eight 4-bit counts), and the shift of a draw pile's ``i``-th card.
HAND_BIT = tuple(1 << (4 * r) for r in range(len(RANKS)))
PILE_SHIFT = range(0, 63, 3)


class PackedDeals(SharedDeals):
    """The determinisations of ``state`` for ``player`` as the engine's rows (see the module docstring);
    build it through :func:`packed_deals`, which checks it."""

    def __init__(self, game: Any, engine: Any, state: Any, player: int, base: Any) -> None:
        from stratagem.models.cardclash.engine import stack_words

        n = state.players
        known_depth = 2 if game.strategic else 1
        cells = game.width * game.height
        words = stack_words(n)
        o_hands, o_piles = 6 + n, 6 + 2 * n
        o_stack = 6 + 5 * n + 2 * cells
        hidden_slots: list[tuple[int, int]] = []
        unseen: list[list[int]] = [[] for _ in range(n)]
        for i, cell in enumerate(state.board):
            for d, card in enumerate(cell.stack):
                if d >= known_depth:
                    hidden_slots.append((i, d))
                    unseen[COLOURS.index(card[0])].append(RANKS.index(card[1]))
        for p in range(n):
            if p != player:
                unseen[p].extend(RANKS.index(r) for r in state.hands[p])
            unseen[p].extend(RANKS.index(r) for r in state.piles[p])
        #: per colour, the ranks ``sample_state`` shuffles (its ``unseen``, in its order)
        self.unseen = [sorted(ranks) for ranks in unseen]
        self.hand = [0 if p == player else len(state.hands[p]) for p in range(n)]
        self.pile = [len(pile) for pile in state.piles]
        redrawn = sorted({i for i, _ in hidden_slots})
        self.others_legal = all(game._stack_is_legal(c.stack) for i, c in enumerate(state.board) if i not in redrawn)
        legal = [[stacking(upper, lower, game.strategic) == "stack" for lower in RANKS] for upper in RANKS]
        self.legal = legal
        # The pairs of neighbouring cards in a redrawn stack with a covered card in them: (covered slot or
        # -1, rank) for the upper and the lower card. A pair of two known cards that breaks the rules
        # fails every try, as in sample_state.
        slot_of = {where: j for j, where in enumerate(hidden_slots)}
        self.pairs: list[tuple[int, int, int, int]] = []
        self.fixed_legal = True
        for i in redrawn:
            stack = state.board[i].stack
            for d in range(len(stack) - 1):
                a, b = slot_of.get((i, d), -1), slot_of.get((i, d + 1), -1)
                ra, rb = RANKS.index(stack[d][1]), RANKS.index(stack[d + 1][1])
                if a < 0 and b < 0:
                    self.fixed_legal = self.fixed_legal and legal[ra][rb]
                else:
                    self.pairs.append((a, ra, b, rb))
        # The words written: the other hands, every draw pile, then the stack words holding covered cards.
        stack_word: dict[int, int] = {}
        self.slot_word: list[int] = []
        self.slot_shift: list[int] = []
        for i, d in hidden_slots:
            cell = state.board[i]
            packed = len(cell.stack) - 1 - d  # the engine packs the bottom card first
            w = o_stack + (cell.y * game.width + cell.x) * words + packed // 10
            if w not in stack_word:
                stack_word[w] = len(stack_word)
            self.slot_word.append(stack_word[w])
            self.slot_shift.append(6 * (packed % 10))
        self.others = [p for p in range(n) if p != player]
        self.index = np.array([o_hands + p for p in self.others] + [o_piles + p for p in range(n)] + list(stack_word),
                              np.intp)
        self.stack_base = [int(base[w]) for w in stack_word]
        for k, shift in zip(self.slot_word, self.slot_shift, strict=True):
            self.stack_base[k] &= ~(63 << shift)
        self.base = np.array(base, np.int64)
        self.n = n

    def _draw(self, shuffle: Any) -> list[int]:
        """One determinisation's written words (in :attr:`index`'s order), shuffling as ``sample_state``
        (``shuffle``: the caller's generator's, :func:`~stratagem.core.shuffles.shuffler`)."""
        n, hand, pile, unseen = self.n, self.hand, self.pile, self.unseen
        pairs, legal = self.pairs, self.legal
        ok_outside = self.others_legal and self.fixed_legal
        for _ in range(TRIES):
            pools = []
            covered: list[int] = []
            for p in range(n):
                pool = list(unseen[p])
                shuffle(pool)
                pools.append(pool)
                covered.extend([(p << 3) | r for r in pool[hand[p] + pile[p]:]])
            shuffle(covered)
            if ok_outside and all(legal[covered[a] & 7 if a >= 0 else ra][covered[b] & 7 if b >= 0 else rb]
                                  for a, ra, b, rb in pairs):
                break
        out = [sum(map(HAND_BIT.__getitem__, pools[p][:hand[p]])) for p in self.others]
        for p in range(n):
            h = hand[p]
            out.append(sum(map(lshift, pools[p][h:h + pile[p]], PILE_SHIFT)))
        stack = list(self.stack_base)
        for code, k, shift in zip(covered, self.slot_word, self.slot_shift, strict=True):
            stack[k] |= (code + 1) << shift
        out.extend(stack)
        return out


def packed_deals(game: Any, engine: Any, state: Any, player: int) -> PackedDeals | None:
    """:class:`PackedDeals` for ``state`` seen by ``player`` on ``engine``, or None where it cannot promise the
    reference's rows: another engine, a hand of over 15 cards (the engine's 4-bit counts), any error, or a
    determinisation that differs from ``engine.encode(game.sample_state(...))`` (checked once, from a private
    ``Random``). The game has checked that it samples as the rules engine does (its ``packed_sampler``)."""
    from stratagem.models.cardclash.engine import CardClashEngine

    if type(engine) is not CardClashEngine:
        return None
    if any(len(hand) > 15 for hand in state.hands):
        return None
    return checked(game, engine, state, player, lambda base: PackedDeals(game, engine, state, player, base))


__all__ = ["PackedDeals", "packed_deals"]
