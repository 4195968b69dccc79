"""The transposition table the game-tree searches share: results keyed by position, bounded in size.

A search that meets a position again -- by another move order, or in a later iteration of iterative
deepening -- looks it up instead of searching it again. An entry is ``(depth, flag, score, move)``:
the remaining depth the position was searched to (:data:`PROVEN` when no horizon was met below
it), whether ``score`` is exact (:data:`EXACT`) or a lower (:data:`LOWER`) or upper (:data:`UPPER`)
bound, and the best move found, which the next search of the position tries first.

Replacement policy
    Bounded to ``max_entries`` entries in two tiers of half the size each. The *depth-preferred*
    tier keeps deep results: a new entry takes the place of the same state's entry if searched at
    least as deep, and when the tier is full it challenges the tier's oldest entry, replacing it
    (which is demoted to the other tier) only if searched at least as deep; a surviving oldest
    entry moves to the back, like a clock. What the depth-preferred tier refuses goes to the
    *always-replace* tier, which evicts its oldest entry (first in, first out). Proven entries
    count as infinitely deep. Both tiers are insertion-ordered dicts, so the policy, the node
    counts and the moves reported are the same on every run.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

__all__ = ["EXACT", "LOWER", "PROVEN", "UPPER", "TTStats", "TranspositionTable"]

#: Table depth of a proven entry: deeper than any search.
PROVEN = 1 << 30
#: The kinds of entry: an exact score, a lower bound (the search failed high), an upper bound.
EXACT, LOWER, UPPER = 0, 1, 2


@dataclass(frozen=True)
class TTStats:
    """Use of the transposition table: size, probes, hits, cutoffs it gave, stores, evictions."""

    capacity: int
    entries: int
    probes: int
    hits: int
    cutoffs: int
    stores: int
    evictions: int



class TranspositionTable:
    """Bounded two-tier table keyed by state; see the module docstring for the policy.

    An entry is ``(depth, flag, score, move)``: the remaining depth it was searched to (``PROVEN``
    when no horizon was met below it), whether ``score`` is exact or a lower/upper bound, and the
    best move found.
    """

    def __init__(self, max_entries: int = 1 << 20) -> None:
        if max_entries < 2:
            raise ValueError("a transposition table needs room for at least 2 entries")
        self.capacity = max_entries
        self._deep_cap = max_entries // 2
        self._recent_cap = max_entries - self._deep_cap
        self._deep: dict[Hashable, tuple[int, int, Any, Any]] = {}
        self._recent: dict[Hashable, tuple[int, int, Any, Any]] = {}
        self.probes = self.hits = self.cutoffs = self.stores = self.evictions = 0

    def __len__(self) -> int:
        return len(self._deep) + len(self._recent)

    def get(self, key: Hashable) -> tuple[int, int, Any, Any] | None:
        self.probes += 1
        entry = self._deep.get(key)
        if entry is None:
            entry = self._recent.get(key)
        if entry is not None:
            self.hits += 1
        return entry

    def put(self, key: Hashable, entry: tuple[int, int, Any, Any]) -> None:
        self.stores += 1
        depth = entry[0]
        old = self._deep.get(key)
        if old is not None:
            if depth >= old[0]:
                self._deep[key] = entry
                self._recent.pop(key, None)
            else:
                self._put_recent(key, entry)
            return
        if len(self._deep) < self._deep_cap:
            self._deep[key] = entry
            self._recent.pop(key, None)
            return
        victim_key = next(iter(self._deep))
        victim = self._deep.pop(victim_key)
        if depth >= victim[0]:
            self._deep[key] = entry
            self._recent.pop(key, None)
            self._put_recent(victim_key, victim)
        else:
            self._deep[victim_key] = victim  # survives, moves to the back
            self._put_recent(key, entry)

    def _put_recent(self, key: Hashable, entry: tuple[int, int, Any, Any]) -> None:
        if key in self._recent:
            del self._recent[key]
        elif len(self._recent) >= self._recent_cap:
            del self._recent[next(iter(self._recent))]
            self.evictions += 1
        self._recent[key] = entry

    def stats(self) -> TTStats:
        return TTStats(self.capacity, len(self), self.probes, self.hits, self.cutoffs, self.stores,
                       self.evictions)
