"""The value table of the exact solo win probability with the pile hidden: the certificate
``verify`` checks (``stratagem/strato-odds-table@4``, docs/formats.md), written from what the compiled
searches of :mod:`.exact` established.

One row a listed information state, walked from the start as ``verify`` walks it:

- ``value``: a state the optimum's search bounded below 1 (a decision: the largest over **all** its
  moves; a ``reveal`` state, chance: the mean over the card revealed; each draw likewise, down to the next
  listed state or the end of the game, won 1 and lost 0);
- ``policy``: a decision with a positive lower bound (proven won with certainty, or the policy's value),
  with the one move its search chose: its upper bound is the trivial 1, its value what that move leads to;
  or, a ``play`` state whose hand alone wins within :data:`~.exact.PLAN_PLAYS` plays whatever is drawn
  between them, the plan's plays (``@3``), its value 1. A policy row's one move names its **cut draws**
  (``@4``: ``W1R:1R2~R,S``), the cards drawn after which the state reached would be a frontier row: the
  checker counts them as lost without looking the state up, and the state is not listed for them;
- ``frontier``: 1 as an upper bound and 0 as a lower one (nothing known there), listed where a ``value``
  row reaches it or a decision's move leads to it with no card drawn;
- ``floor``: 0 by the floor that verify computes itself (for every set of goal rows, more turns needed than
  cards left, or a weather's goal cards unable to reach those rows).

The written upper values are recomputed from the successors' and are no larger than the search's own
bounds; the lower values are the exact value of the policy the table describes (each ``policy`` row's
move, each ``value`` row's best move, frontier states lost). A certain win is thus certified by its
winning policy alone (its upper bound 1 is trivial).

The rows are made by the compiled walk over the searches' tables, or by walking the rules engine's states
(the reference the tests hold the compiled walk to); :mod:`stratagem.verification.oddstable` checks them
with the rules alone and shares nothing with this module.
"""

from __future__ import annotations

import gzip
import json
import math
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from stratagem.core.outputs import write_atomic_with
from stratagem.core.progress import ProgressFactory, no_progress
from stratagem.core.recursion import deep_recursion
from stratagem.core.words import plural
from stratagem.models.strato.hidden import odds_kernel as kernel
from stratagem.models.strato.hidden.exact import (
    PLAN_MOVE,
    PLAN_PLAYS,
    PLAY_KIND,
    REDRAW_MOVE,
    TARGET_KIND,
    Solver,
)
from stratagem.models.strato.hidden.game import (
    DRAW,
    PLAY,
    REVEAL,
    HiddenState,
    format_hidden,
)
from stratagem.models.strato.rules.notation import format_move
from stratagem.models.strato.rules.position import ONGOING, WON
from stratagem.models.strato.search import search_kernel as sk
from stratagem.models.strato.search.packed import LETTERS, move_of

__all__ = ["TABLE_FORMAT", "TableStopped", "TableSummary", "TableTooLarge", "value_table", "write_table"]

TABLE_FORMAT = "stratagem/strato-odds-table@4"
#: What separates a policy row's move from its cut draws, and one cut draw from the next (the checker reads
#: them with its own copy of the notation).
CUT, CUT_SEPARATOR = "~", ","


@dataclass
class TableSummary:
    """What :func:`write_table` wrote: the start's upper and lower bounds (equal: exact), the states
    written, the frontier and policy rows among them, and the draws the policy rows name as cut."""

    upper: Fraction
    lower: Fraction
    states: int
    frontier: int
    policy: int
    cut: int = 0


def _announce_text(e: int) -> str:
    return f"!{e // 2 + 1}{'LR'[e % 2]}"


class TableStopped(Exception):
    """:func:`write_table` passed its deadline: nothing was written (``rows``: the rows it had made)."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        super().__init__(f"stopped after {plural(rows, 'row', grouped=True)}")


class TableTooLarge(Exception):
    """:func:`write_table` made more rows than ``verify`` reads (``MAX_TABLE_ROWS``): nothing was written."""


#: :func:`write_table` looks at its deadline once per this many rows.
_CLOCK_ROWS = 1024
#: Whether the kernel runs compiled (else its source runs as plain Python: :func:`write_table` then walks the
#: rules engine's states, which is faster than the kernel's walk interpreted).
_KERNEL_COMPILED = not str(kernel.__file__).endswith(".py")


def write_table(solver: Solver, path: Path, header: dict[str, Any], *,
                policy: Solver | tuple[Solver, ...] | None = None, stop: Callable[[], bool] | None = None,
                progress: ProgressFactory = no_progress, by_rules: bool = False,
                max_rows: int | None = None) -> TableSummary:
    """Write the value table of what ``solver``'s search established (and, where it proved nothing above 0,
    what the policy's search ``policy`` did: of several, finest cut first, the first that valued the
    state above 0) to ``path`` (see the module docstring): gzip text, a JSON
    header line (``header`` with the format, the start, the claims and the counts added), then one ``KIND
    VALUE [MOVE] STATE`` line a state. The file is whole or not there (written beside ``path``, then moved);
    ``stop`` (a deadline) is asked every few thousand rows, and :class:`TableStopped` raised when it says so;
    ``progress`` is shown the rows and the policy rows written; a table of more than ``max_rows`` rows (the
    most ``verify`` reads) is :class:`TableTooLarge`, and not written.

    The rows are made by the compiled walk over the searches' tables (``HiddenSolo.walk``, about 10
    microseconds a row, its text included); ``by_rules`` makes them by walking the rules engine's states
    instead, the reference the tests hold the compiled walk to (the same rows, in the same order, 5-8
    times the CPU), as does an install without the compiled kernel (the kernel's walk run as plain Python
    would be slower still). Either way ``verify`` checks the table with the rules alone. The rows go to a
    temporary file as they are made (the header, with the claims, is known only at the end), and only each
    listed state's two bounds are kept: a table of millions of rows is written in a few hundred bytes a row.

    That file (about 85 bytes a row, uncompressed: some 450 MB for the 5.4 million rows of ten minutes on
    challenge 1) is made in the table's own folder, unnamed (gone with the process, however it ends): the
    system's temporary directory is often a small RAM-backed ``/tmp``, where it took memory or ran out of
    room, and a full ``TMPDIR`` was reported as "cannot write the output" for a folder with room to spare."""
    policies = policy if isinstance(policy, tuple) else () if policy is None else (policy,)
    spool = tempfile.TemporaryFile("w+", encoding="utf-8", dir=Path(path).parent)  # noqa: SIM115 (closed below)
    with spool:
        with progress("writing the value table", "rows", "policy rows") as show:
            rows = _rows_by_rules if by_rules or not _KERNEL_COMPILED else _rows_compiled
            up, lo, counts = rows(solver, policies, spool, stop, show)
        if max_rows is not None and counts["states"] > max_rows:  # a table verify refuses is no certificate
            raise TableTooLarge(f"{counts['states']:,} rows, more than the {max_rows:,} verify reads")
        weight = solver.weight(solver.root.pile)
        upper, lower = Fraction(up, weight), Fraction(lo, weight)
        head = {"format": TABLE_FORMAT, "game": "strato", **header, "start": format_hidden(solver.root),
                "claim": {"upper_bound": str(upper), "lower_bound": str(lower), "exact": upper == lower},
                "states": counts["states"], "frontier": counts["frontier"], "policy": counts["policy"],
                "cut": counts["cut"]}

        def fill(handle: BinaryIO) -> None:
            # No file name or time in the gzip header: the same table gives the same bytes wherever it is written.
            with gzip.GzipFile(filename="", mode="wb", compresslevel=6, fileobj=handle, mtime=0) as out:
                out.write((json.dumps(head, sort_keys=True) + "\n").encode("utf-8"))
                spool.seek(0)
                while chunk := spool.read(1 << 20):
                    out.write(chunk.encode("utf-8"))

        write_atomic_with(path, fill)
    return TableSummary(upper, lower, counts["states"], counts["frontier"], counts["policy"], counts["cut"])


#: A row's text by its kind (``HiddenSolo.walk``'s records).
_ROW_WORDS = {kernel.FLOOR_ROW: "floor", kernel.FRONTIER_ROW: "frontier", kernel.VALUE_ROW: "value",
              kernel.POLICY_ROW: "policy"}


class _RowText:
    """The text of the states and moves of ``HiddenSolo.walk``'s records, as :func:`format_hidden` and the
    rules' move notation write them: a state from its key (each half-row's cards; the hand, the pile's
    counts, the last weather, the phase), every piece remembered (a table repeats them millions of times)."""

    def __init__(self, solver: Solver) -> None:
        root = solver.root
        self.rows = len(root.rows)
        self.tornadoes = [row.left_tornado + row.right_tornado for row in root.rows]
        self.halves: list[dict[int, str]] = [{} for _ in root.rows]
        self.hands: dict[int, str] = {}
        self.piles: dict[int, str] = {}
        self.tails: dict[int, str] = {}
        self.moves: dict[tuple[int, ...], str] = {}
        self.cuts: dict[int, str] = {0: ""}

    @staticmethod
    def cards(packed: int) -> str:
        """A packed run of cards (a leading 1, then 3 bits a card, the first lowest) as letters."""
        out = []
        while packed > 1:
            out.append(LETTERS[packed & 7])
            packed >>= 3
        return "".join(out)

    def table(self, words: list[int]) -> str:
        """The rows of a key's first words (one a row: its left half-row's cards, then its right's)."""
        texts = []
        for r in range(self.rows):
            word = words[r]
            text = self.halves[r].get(word)
            if text is None:
                left, right = self.cards(word & ((1 << 25) - 1)), self.cards(word >> 25)
                text = self.halves[r][word] = f"{left[::-1]}({self.tornadoes[r]}){right}"
            texts.append(text)
        return "/".join(texts)

    def rest(self, word: int) -> str:
        """Everything after the table: ``HAND {PILE} 1 LAST PHASE``."""
        hand = self.hands.get(word & 0x3FF)
        if hand is None:
            hand = self.hands[word & 0x3FF] = self.cards(word & 0x3FF) or "-"
        counts = (word >> 10) & 0xFFFFFF
        pile = self.piles.get(counts)
        if pile is None:
            pile = self.piles[counts] = "".join(LETTERS[x] * ((counts >> 4 * x) & 15) for x in range(6))
        tail = self.tails.get(word >> 34)
        if tail is None:
            last, kind = (word >> 34) & 15, (word >> 38) & 3
            end, card = ((word >> 40) & 15) - 1, ((word >> 44) & 15) - 1
            phase = ("play", "reveal", "target")[kind]
            if kind != PLAY_KIND:
                phase += f" {end // 2 + 1}{'LR'[end % 2]}"
            if kind == TARGET_KIND:
                phase += f" {LETTERS[card]}"
            tail = self.tails[word >> 34] = f"1 {LETTERS[last - 1] if last else '-'} {phase}"
        return f"{hand} {{{pile}}} {tail}"

    @staticmethod
    def value(w: int, m: int) -> str:
        """``str(Fraction(w, m))``."""
        g = math.gcd(w, m)
        return str(w // g) if m == g else f"{w // g}/{m // g}"

    def cut(self, code: int) -> str:
        """A policy row's cut draws (``kernel.CUT_CARDS``: ``k``, and a bit for each multiset of ``k`` weathers
        in letter order) as the text after its move: ``~`` and the multisets, each in letter order."""
        text = self.cuts.get(code)
        if text is None:
            k, bits = divmod(code, kernel.CUT_CARDS)
            drawn = ["".join(LETTERS[c] for c in cards)
                     for rank, cards in enumerate(combinations_with_replacement(range(6), k)) if bits >> rank & 1]
            text = self.cuts[code] = CUT + CUT_SEPARATOR.join(drawn)
        return text

    def move(self, fields: list[int], redraw: bool = False) -> str:
        """A move record's text (a revealed card's target written as the Redraw it is)."""
        key = (*fields, redraw)
        text = self.moves.get(key)
        if text is None:
            move = move_of(np.asarray(fields, np.int64))
            text = self.moves[key] = format_move(move._replace(redraw=True) if redraw else move)
        return text


def _rows_compiled(solver: Solver, policies: tuple[Solver, ...], spool: Any, stop: Callable[[], bool] | None,
                   show: Callable[[int, int], None]) -> tuple[int, int, dict[str, int]]:
    """The rows of :func:`write_table` by the compiled walk (``HiddenSolo.walk``), spooled; the start's
    ``(U, L)`` and the counts of rows."""
    text = _RowText(solver)
    counts = {"states": 0, "frontier": 0, "policy": 0, "cut": 0}
    nw = solver.kernel_args[1] + 1  # the key's words: one a row, one for the rest
    key, moves, fields = kernel.REC_KEY, kernel.REC_KEY + nw, sk.MOVE_FIELDS

    def sink(records: np.ndarray) -> bool:
        lines = []
        for rec in records.tolist():
            kind, move_kind = rec[kernel.REC_KIND], rec[kernel.REC_MOVE]
            state = f"{text.table(rec[key:key + nw - 1])} {text.rest(rec[key + nw - 1])}"
            value = text.value(rec[kernel.REC_VALUE], rec[kernel.REC_WEIGHT])
            if kind != kernel.POLICY_ROW:
                lines.append(f"{_ROW_WORDS[kind]} {value} {state}\n")
                if kind == kernel.FRONTIER_ROW:
                    counts["frontier"] += 1
                continue
            counts["policy"] += 1
            if move_kind == kernel.ANNOUNCE_MOVE:
                move = _announce_text(rec[kernel.REC_END])
            elif move_kind == kernel.PLANNED_MOVES:
                move = ";".join(text.move(rec[moves + i * fields:moves + (i + 1) * fields])
                                for i in range(rec[kernel.REC_END]))
            else:
                move = text.move(rec[moves:moves + fields], redraw=move_kind == kernel.TARGET_MOVE)
                if rec[kernel.REC_CUT]:
                    cut = text.cut(rec[kernel.REC_CUT])
                    counts["cut"] += cut.count(CUT_SEPARATOR) + 1
                    move += cut
            lines.append(f"policy {value} {move} {state}\n")
        spool.write("".join(lines))
        counts["states"] += len(lines)
        show(counts["states"], counts["policy"])
        return stop is not None and stop()

    root = solver.root
    try:
        up, lo = solver.kernel.walk(solver.vector(root.rows, root.hands[0], root.last), solver.counts(root.pile),
                                    [each.kernel for each in policies], PLAN_PLAYS, sink, _CLOCK_ROWS)
    except kernel.Stopped:
        raise TableStopped(counts["states"]) from None
    except ValueError as exc:
        raise AssertionError(f"the table's walk: {exc}") from None
    return up, lo, counts


def _rows_by_rules(solver: Solver, policies: tuple[Solver, ...], spool: Any, stop: Callable[[], bool] | None,
                   show: Callable[[int, int], None]) -> tuple[int, int, dict[str, int]]:
    """The rows of :func:`write_table` by walking the rules engine's states (the compiled walk's reference),
    spooled; the start's ``(U, L)`` and the counts of rows."""
    game = solver.game
    for each in policies:
        each._last = solver._last  # the same deal's vectors: each state's is made once
    bounds: dict[str, tuple[int, int]] = {}  # each listed state's (U, L), by its row's state
    frontiers: set[str] = set()  # the states listed as frontier rows
    counts = {"frontier": 0, "policy": 0, "cut": 0}

    def source(state: HiddenState) -> tuple[int, int, int, int, Solver]:
        low, high, best, weight = solver.kept(state)
        if low <= 0:
            for by in policies:
                p_low, _, p_best, _ = by.kept(state)
                if p_low > 0 and (p_best >= 0 or state.phase == REVEAL):
                    return p_low, high if low >= 0 else weight, p_best, weight, by
        return low, high, best, weight, solver

    def listed(state: HiddenState) -> tuple[int, int]:
        text = format_hidden(state)
        found = bounds.get(text)
        if found is not None:
            return found
        weight = solver.weight(state.pile)
        if state.phase == PLAY and solver.hopeless(state):
            line, result = f"floor 0 {text}", (0, 0)
        else:
            line, result = row(state, text, weight)
        kind = line.split(" ", 1)[0]
        if kind in counts:
            counts[kind] += 1
        if kind == "frontier":
            frontiers.add(text)
        spool.write(line + "\n")
        bounds[text] = result
        if len(bounds) % _CLOCK_ROWS == 0:  # as the compiled walk hands its rows over
            show(len(bounds), counts["policy"])
            if stop is not None and stop():
                raise TableStopped(len(bounds))
        return result

    def frontier(state: HiddenState, low: int, high: int, best: int, weight: int, by: Solver) -> bool:
        """Whether a state that is not a floor is listed as a frontier row, by what ``source`` found for it."""
        if low < 0 and by is solver:
            return True
        return not is_value(state, low, high, best, weight) and low <= 0

    def is_value(state: HiddenState, low: int, high: int, best: int, weight: int) -> bool:
        """Whether it is listed as a value row: the optimum's search bounded it below 1, or it is a chance
        node or a move-less decision the policies valued above 0."""
        return high < weight or (state.phase == REVEAL and low > 0) or (low > 0 and best < 0)

    def cut_here(state: HiddenState) -> bool:
        """Whether a policy row cuts the draw that reaches ``state``: it would be listed as a frontier row."""
        text = format_hidden(state)
        if text in bounds:
            return text in frontiers
        if state.phase == PLAY and solver.hopeless(state):
            return False
        low, high, best, weight, by = source(state)
        return frontier(state, low, high, best, weight, by)

    def row(state: HiddenState, text: str, weight: int) -> tuple[str, tuple[int, int]]:
        """The line of a listed state that is not a floor, and its ``(U, L)``."""
        low, high, best, _, by = source(state)
        if frontier(state, low, high, best, weight, by):
            return f"frontier 1 {text}", (weight, 0)
        if is_value(state, low, high, best, weight):
            if state.phase == REVEAL:
                up = lo = 0
                for card, _ in game.chance_outcomes(state):
                    u, v = after(game.apply(state, card))
                    up, lo = up + u, lo + v
            else:
                up = lo = -1
                for _, child in game.plays(state):
                    u, v = after(child)
                    up, lo = max(up, u), max(lo, v)
            if up > high:
                raise AssertionError(f"{text}: recomputed {up}/{weight} above the kept bound {high}/{weight}")
            return f"value {Fraction(up, weight)} {text}", (up, lo)
        if state.phase == PLAY and best >= PLAN_MOVE:
            return f"policy 1 {plan_text(state, by)} {text}", (weight, weight)
        cut: set[str] | None = None
        if state.phase == PLAY and best >= REDRAW_MOVE:
            e = best - REDRAW_MOVE
            move = _announce_text(e)
            child = state._replace(hands=("",), phase=REVEAL, row=e // 2, end=e % 2)
        else:  # a play's index read by the compiled generator; a target's, among one end's few
            chosen, child = (game.resolve(state, by.play(state, best)) if state.phase == PLAY
                             else game.play(state, best))
            move = game.format_move(state, chosen)
            cut = set()
        lo = after(child, cut)[1]
        if cut:
            counts["cut"] += len(cut)
            move += CUT + CUT_SEPARATOR.join(sorted(cut))
        return f"policy {Fraction(lo, weight)} {move} {text}", (weight, lo)

    def plan_text(state: HiddenState, by: Solver) -> str:
        """A plan's plays (``W1R:1R2>1R1;S2L``), each resolved by the rules from the state the plays
        before it leave, the first card of the pile drawn between them (any other draw leaves the same
        table, and the plan's cards in hand); the last must win."""
        texts = []
        here = state
        for move in by.plan(state):
            chosen, here = game.resolve(here, move)
            texts.append(game.format_move(state, chosen))
            while here.status == ONGOING and here.phase == DRAW:
                here = game.apply(here, here.pile[0])
        if not texts or here.status != WON:
            raise AssertionError(f"{format_hidden(state)}: the kernel's plan {texts} does not win")
        return ";".join(texts)

    def after(state: HiddenState, cut: set[str] | None = None, drawn: str = "") -> tuple[int, int]:
        """``(U, L)`` of what a move or a card leads to (draw states are not remembered: below them every
        listed state is). Below a policy row's one move (``cut`` a set), a state the cards ``drawn`` reach
        that would be a frontier row is not listed: their multiset goes in ``cut``."""
        if state.status != ONGOING:
            weight = solver.weight(state.pile)
            return (weight, weight) if state.status == WON else (0, 0)
        if state.phase != DRAW:
            if cut is not None and drawn and cut_here(state):
                cut.add("".join(sorted(drawn)))
                return solver.weight(state.pile), 0
            return listed(state)
        up = lo = 0
        for card, _ in game.chance_outcomes(state):
            u, v = after(game.apply(state, card), cut, drawn + card)
            up, lo = up + u, lo + v
        return up, lo

    with deep_recursion():  # a state's rows are listed depth first, the game's length deep
        up, lo = listed(solver.root)
    if len(bounds) % _CLOCK_ROWS:
        show(len(bounds), counts["policy"])
        if stop is not None and stop():
            raise TableStopped(len(bounds))
    return up, lo, {"states": len(bounds), **counts}


def value_table(solver: Solver, path: Path, header: dict[str, Any], *, policy: Solver | None = None
                ) -> tuple[Fraction, int, int]:
    """:func:`write_table`, returning the start's upper bound, the states written and the frontier states."""
    summary = write_table(solver, path, header, policy=policy)
    return summary.upper, summary.states, summary.frontier
