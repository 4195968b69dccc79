"""The exact solo win probability with the pile hidden, computed by the compiled kernel, and its value table.

:mod:`.odds_kernel` searches the information states of solo Strato in integer weights (a state's value is
``W / M`` with ``M`` the orders of its pile); :func:`compiled_odds` runs it on a
:class:`~stratagem.models.strato.hidden.game.HiddenStrato` start and returns the value as an exact
``Fraction``, with the states kept, the memory of the table and the CPU seconds.

:func:`value_table` writes what the search established as a **value table** (``stratagem/strato-odds-
table@1``, docs/formats.md): every information state the upper-bound argument needs, each with a value
that ``verify`` recomputes from the rules alone (:mod:`stratagem.verification.oddstable`):

- a ``play`` or ``target`` state (a decision): the largest value over its moves;
- a ``reveal`` state (chance): the probability-weighted mean over the revealed card, each draw after a
  move likewise, card by card, down to the next ``play`` state or the end of the game (won 1, lost 0);
- ``frontier``: value 1, the trivial upper bound (a state the search did not bound below 1, nor prove won);
- ``floor``: value 0 by the floor that verify computes itself (more turns needed than cards left).

The table is the **closure** of the root: a state whose kept upper bound is below 1, or that the search
proved won with certainty, is written with the value recomputed from its successors' written values
(recursively, each state once); a state bounded by nothing better than 1 becomes a frontier state. The
recomputed values are upper bounds no larger than the search's own, so at an exactly solved root the
written root value is the exact value; with the search stopped early they still bound it from above.
Where the search solved the root exactly, the table also proves it from below: counting frontier states
as 0 instead of 1 (``verify``'s second pass), the start keeps its value -- every state that carries it
(the proven wins included) is expanded down to won and lost games.
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.models.strato.hidden import odds_kernel as kernel
from stratagem.models.strato.hidden.game import PLAY, REVEAL, TARGET, HiddenState, HiddenStrato, format_hidden
from stratagem.models.strato.rules.position import ONGOING, Row, State
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.packed import NUMBER, Packing, _goal_arrays

__all__ = ["TABLE_FORMAT", "CompiledOdds", "Solver", "compiled_odds", "value_table"]

TABLE_FORMAT = "stratagem/strato-odds-table@1"
#: Default cap on the states the compiled search keeps (each costs about 56 bytes with its table slot).
MAX_STATES = 60_000_000
PLAY_KIND, REVEAL_KIND, TARGET_KIND = 0, 1, 2
REDRAW_MOVE = 4096


@dataclass
class CompiledOdds:
    """What the compiled search established: the exact value when ``status`` is ``solved``, else the
    stop's reason; states kept, nodes visited, the table's bytes and the CPU seconds."""

    status: str
    value: Fraction | None
    states: int
    visits: int
    generated: int
    memory: int
    seconds: float
    stopped_by: str | None


class Solver:
    """One solo deal's compiled search and the means to read its table (a ``HiddenStrato`` start at the
    ``play`` phase)."""

    def __init__(self, game: HiddenStrato, max_states: int = MAX_STATES) -> None:
        if game.num_players != 1:
            raise ValueError("the compiled exact search is for solo play")
        root = game.initial_state()
        if root.phase != PLAY or root.status != ONGOING:
            raise ValueError("the compiled exact search starts at an ongoing play phase")
        self.game = game
        self.root = root
        challenge = game.challenge
        view = State(root.rows, root.hands, "", 0, root.last, ONGOING)
        self.packing = Packing(StratoGame(challenge, game.options, view))
        lay = self.packing.layout
        _, _, _, _, _, _, needs, goal_len = _goal_arrays(challenge, root.rows)
        eligible = [r for r, row in enumerate(root.rows) if challenge.goal.eligible(row)]
        combos = np.array(list(combinations(eligible, challenge.rows_required)), np.int64).reshape(
            -1, challenge.rows_required)
        self.kernel = kernel.HiddenSolo(self.packing.spec, lay.rows, lay.maxl, challenge.limit, needs, goal_len,
                                        combos, max_states)
        self.tornadoes = [(row.left_tornado, row.right_tornado) for row in root.rows]

    # -- states as the kernel has them ----------------------------------------------------------
    def vector(self, rows: tuple[Row, ...], hand: str, last: str) -> np.ndarray:
        return self.packing.vector(State(rows, (hand,), "", 0, last, ONGOING))

    @staticmethod
    def counts(pile: str) -> list[int]:
        out = [0] * 6
        for c in pile:
            out[NUMBER[c]] += 1
        return out

    def solve(self, seconds: float | None = None) -> CompiledOdds:
        root = self.root
        started = time.process_time()
        try:
            w = self.kernel.solve(self.vector(root.rows, root.hands[0], root.last), self.counts(root.pile), seconds)
            status, value, why = "solved", Fraction(w, self.kernel.weight(self.counts(root.pile))), None
        except kernel.Stopped as stop:
            status, value, why = "unknown", None, str(stop)
        kept, visits, generated, memory = self.kernel.stats()
        return CompiledOdds(status, value, kept, visits, generated, memory, time.process_time() - started, why)

    def kept(self, state: HiddenState) -> tuple[int, int, int, int]:
        """``(low, high, best, M)`` kept for a play, reveal or target state (``low`` -1: not kept)."""
        if state.phase == PLAY:
            return self.kernel.value_at(self.vector(state.rows, state.hands[0], state.last),
                                        self.counts(state.pile), PLAY_KIND, -1, -1)
        e = 2 * state.row + state.end
        if state.phase == REVEAL:
            return self.kernel.value_at(self.vector(state.rows, "", state.last), self.counts(state.pile),
                                        REVEAL_KIND, -1, e)
        return self.kernel.value_at(self.vector(state.rows, "", state.last), self.counts(state.pile),
                                    TARGET_KIND, NUMBER[state.card], e)

    def weight(self, pile: str) -> int:
        return int(self.kernel.weight(self.counts(pile)))

    def hopeless(self, state: HiddenState) -> bool:
        """The kernel's floor, stated again over the rules engine's rows for the table writer: more turns
        needed (:func:`turns_needed`) than cards left. ``verify`` recomputes the floor of every state the
        table marks so with its own bound (:mod:`stratagem.verification.oddstable`), sharing no code."""
        return turns_needed(self.game, state.rows) > len(state.hands[0]) + len(state.pile)


def turns_needed(game: HiddenStrato, rows: tuple[Row, ...]) -> int:
    """The kernel's bound on the turns any win from ``rows`` needs: for the goal rows that could win, the
    largest of the goal's cards the table lacks (a turn adds one card to the table), half the goal
    half-rows' missing length rounded up (a turn lengthens them by two at most) and one; the least over
    the sets of rows that could meet the goal (a huge number when none can)."""
    challenge = game.challenge
    table = "".join(row.left + row.right for row in rows)
    eligible = [r for r, row in enumerate(rows) if challenge.goal.eligible(row)]
    least = 1 << 20
    for chosen in combinations(eligible, challenge.rows_required):
        wanted: dict[str, int] = {}
        missing = 0
        for r in chosen:
            for side, half_goal in challenge.goal.halves():
                for weather, n in half_goal.needs(rows[r]).items():
                    wanted[weather] = wanted.get(weather, 0) + n
                missing += max(0, half_goal.length() - len(rows[r].half(side)))
        lacking = sum(max(0, n - table.count(weather)) for weather, n in wanted.items())
        least = min(least, max(lacking, -(-missing // 2), 1))
    return least


def compiled_odds(game: HiddenStrato, *, seconds: float | None = None, max_states: int = MAX_STATES) -> CompiledOdds:
    """The exact optimal solo win probability of ``game`` from its start, by the compiled kernel."""
    return Solver(game, max_states).solve(seconds)


# -- the value table ---------------------------------------------------------------------------------
def _successor_values(game: HiddenStrato, state: HiddenState, value: Any) -> Fraction:
    """The value of a state below a stored one: terminal by its result, a draw by its outcomes' mean
    (card by card), a stored phase by ``value(state)``."""
    if state.status != ONGOING:
        return Fraction(1 if state.status == 1 else 0)
    if state.phase == PLAY or state.phase == REVEAL or state.phase == TARGET:
        return value(state)  # type: ignore[no-any-return]
    total = Fraction(0)
    for card, p in game.chance_outcomes(state):
        total += p * _successor_values(game, game.apply(state, card), value)
    return total


def value_table(solver: Solver, path: Path, header: dict[str, Any]) -> tuple[Fraction, int, int]:
    """Write the closure of the root's value table (see the module docstring) to ``path``: gzip text, a
    JSON header line (``header``, e.g. the deal's ``setup`` and name, with the format, the start, the
    claimed upper bound and the counts added) and then one ``KIND VALUE STATE`` line a state. Returns the
    root's written value, the states written and the frontier states among them."""
    game = solver.game
    values: dict[HiddenState, tuple[Fraction, str]] = {}
    sys_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(sys_limit, 20_000))

    def value(state: HiddenState) -> Fraction:
        found = values.get(state)
        if found is not None:
            return found[0]
        low, high, _, weight = solver.kept(state)
        if state.phase == PLAY and solver.hopeless(state):
            values[state] = (Fraction(0), "floor")
            return Fraction(0)
        if low < 0 or (high >= weight and low < weight):  # nothing below 1 known, and 1 not proven
            values[state] = (Fraction(1), "frontier")
            return Fraction(1)
        if state.phase == REVEAL:
            v = sum((p * _successor_values(game, game.apply(state, card), value)
                     for card, p in game.chance_outcomes(state)), Fraction(0))
        else:
            v = max(_successor_values(game, after, value) for _, after in game.plays(state))
        if v > Fraction(high, weight):
            raise AssertionError(f"{format_hidden(state)}: recomputed {v} above the kept bound {high}/{weight}")
        values[state] = (v, "value")
        return v

    try:
        root_value = value(solver.root)
    finally:
        sys.setrecursionlimit(sys_limit)
    frontier = sum(1 for _, kind in values.values() if kind == "frontier")
    low, high, _, weight = solver.kept(solver.root)
    exact = low == high and Fraction(low, weight) == root_value
    head = {"format": TABLE_FORMAT, "game": "strato", **header, "start": format_hidden(solver.root),
            "claim": {"upper_bound": str(root_value), "exact": exact},
            "states": len(values), "frontier": frontier}
    lines = [json.dumps(head, sort_keys=True)]
    for state, (v, kind) in values.items():
        lines.append(f"{kind} {v} {format_hidden(state)}")
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, compresslevel=6) as out:
        out.write(("\n".join(lines) + "\n").encode("utf-8"))
    return root_value, len(values), frontier

