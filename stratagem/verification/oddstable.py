"""A solo Strato value table (``stratagem/strato-odds-table@4``; ``@3`` without cut draws, ``@2`` without
plans, ``@1`` without ``policy`` rows): an upper and a lower bound on the optimal win probability with the
pile hidden, checked with the rules alone.

The table lists information states of solo Strato with the pile's order hidden
(:class:`~stratagem.models.strato.hidden.game.HiddenStrato`, one player), each with a kind and a value
(docs/formats.md). The checker walks the table from the start, following the rules (it generates moves,
outcomes and probabilities itself; the table lists none but a ``policy`` row's one move), and computes for
every state reached two numbers: ``U``, an upper bound on what any policy wins from it, and ``L``, what a
policy described by the table wins from it:

- ``value V``: a ``play`` or ``target`` state (the player decides): ``U`` the largest over **all** its legal
  moves, ``L`` likewise; a ``reveal`` state (chance): both the probability-weighted mean over the card that
  turns up. ``V`` must equal ``U``;
- ``policy V MOVE`` (a decision only, ``@2``): ``L`` is what the one ``MOVE`` leads to, ``U`` is 1 (the
  other moves are not looked at). ``V`` must equal ``L``, and ``MOVE`` must be legal. From ``@3`` ``MOVE``
  may be a **plan**, moves joined by ``;`` (``W1R:1R2;S2L``): the first is played here, and each next one
  at the decision that follows, after **every** card or cards the rules can draw in between (those states
  are not listed, whatever was drawn the plan goes on; a game over before its last move is refused); when
  the plan is played out, what follows is looked up as below a ``policy`` row's one move. ``L`` is then the
  plan's value over all those draws. From ``@4`` ``MOVE`` may end in **cut draws**, ``~`` and the multisets
  of cards (``~R,S``, ``~RRS,RST``) after which the state reached is not looked up but counted as lost (``L``
  gains nothing there; ``U`` is 1 anyway): the policy gives up there. Each must be a multiset the rules
  draw after the row's last move, and the rest are followed as before. So a policy's tree need not list
  the states it gives up at;
- ``frontier 1``: ``U`` 1, ``L`` 0 (the table stops there);
- ``floor 0``: a ``play`` state that cannot be won (:func:`floor_holds`): for every set of goal rows, the
  turns it still needs (:func:`turns_needed`) exceed the cards left in hand and pile, each turn playing one
  of them, or a weather's goal cards cannot all reach those rows; ``U`` = ``L`` = 0.

Below a move the checker follows the rules: a won game is worth 1, a lost one 0, the draws are chance, and
the next ``play``, ``reveal`` or ``target`` state must be listed (a state missing is an error, whatever
its value would be). ``U`` is an upper bound on the optimal value of every state reached, by induction
from the end of the game (it always ends: each turn spends a card of the hand or the pile), as it is at
least what any move or card leads to; ``L`` is the exact value of the policy that plays the move of each
``policy`` row and the best move by ``L`` of each ``value`` row, frontier states counted as lost: a lower
bound. The start's ``U`` and ``L`` are the claims; equal, the value is exact.

**Integers, not fractions.** A state whose pile is the multiset ``c`` of ``n`` cards has ``M(c) = n! /
prod c_w!`` equally likely orders, and every value the checker computes is ``W / M(c)`` with ``W`` an
integer: at a chance node that draws ``k`` cards, the drawn multiset ``m`` comes with probability
``(k! / prod m_w!) prod (c_w)_(m_w) / (n)_k`` (the multivariate hypergeometric law: every ordered draw of
``k`` of the ``n`` cards is equally likely, card by card as the rules draw them), and ``M(c - m) / M(c) =
prod (c_w)_(m_w) / (n)_k``, so ``W(parent) = sum over m of (k! / prod m_w!) W(child m)``. A listed ``V``
whose ``V M(c)`` is not an integer is refused (no policy and no bound of this kind has such a value).

**A whole draw at once.** After a move the rules draw one card at a time (a ``draw`` phase for each);
the state after the last draw depends only on the multiset drawn: each draw puts its card into the
(sorted) hand and takes it from the (multiset) pile, and the end-of-turn checks wait for the last draw
(:meth:`~stratagem.models.strato.hidden.game.HiddenStrato.apply`). So the checker draws each multiset
once, in one order (its cards in letter order, through the rules' ``apply``, sharing prefixes), weighted
by its number of orders, instead of every sequence (for a Redraw of 3 cards from 4 weathers: 20
multisets, 34 draws applied, against 64 sequences and 84 draws).

This is linear in the table and needs no search: the checker imports nothing from the solver.

Why one module of over 600 lines: it is ``verify``'s checker of one certificate, which must share no code
with the search that wrote it; reading the gzip rows, the floor it recomputes and the walk over the rows
are the one check, and splitting them would only add imports between files that change together.
"""

from __future__ import annotations

import gzip
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial
from pathlib import Path
from typing import Any

from stratagem.core.collector import no_cycle_collection
from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput, IllegalMove, NotationError
from stratagem.core.io import open_regular, parse_json_object
from stratagem.core.records import parse_fraction
from stratagem.models.strato.hidden.game import (
    DRAW,
    PLAY,
    REVEAL,
    TARGET,
    HiddenState,
    HiddenStrato,
    format_hidden,
    parse_hidden,
    parse_play,
)
from stratagem.models.strato.rules.cards import WEATHERS
from stratagem.models.strato.rules.challenge import Challenge
from stratagem.models.strato.rules.position import ONGOING, WON, Row
from stratagem.verification.policy import policy_game
from stratagem.verification.verdict import Limits, Verdict

__all__ = ["TABLE_FORMAT", "TableCheck", "check_odds_table", "check_table", "floor_holds", "is_table", "open_table",
           "read_table", "table_header", "turns_needed"]

TABLE_FORMAT = "stratagem/strato-odds-table@4"
#: The formats read: ``@3`` is ``@4`` without cut draws, ``@2`` is ``@3`` without plans, ``@1`` is ``@2``
#: without ``policy`` rows.
FORMATS = ("stratagem/strato-odds-table@1", "stratagem/strato-odds-table@2", "stratagem/strato-odds-table@3",
           TABLE_FORMAT)
#: What separates a policy row's move from its cut draws (``@4``), and one cut draw from the next.
CUT, CUT_SEPARATOR = "~", ","
KINDS = ("value", "policy", "frontier", "floor")
#: The keys of a value table's ``claim`` that the check reads (any other is reported not certified).
TABLE_CLAIMS = ("upper_bound", "lower_bound", "exact")
#: Rows read, or states checked, between two looks at the clock and the progress line.
CLOCK_ROWS = 4096
#: Input limits (docs/formats.md, section 11), read before a line is parsed, so that a small gzip file
#: that decompresses to one huge line, or to more rows than any search writes, is refused at little cost.
#: The header is some 1.4 KB (the setup and provenance); a row some 60-170 characters (a plan of two moves
#: with its cut draws included); the largest table a ten-minute search has written holds 9.5 million rows.
#: The check keeps some 0.3-0.7 KB a row, so the cap on rows is about twice that largest table: at 100
#: million rows, a 240 MB file of distinct junk rows asked for some 27 GB before the first row was refused
#: (2 million of them: 573 MB, stop 58); 20 million rows keep it within a few GB.
MAX_HEADER_CHARS = 1 << 20
MAX_ROW_CHARS = 4096
MAX_TABLE_ROWS = 20_000_000
#: Values as written that the check remembers read (:func:`check_table`), at most.
VALUES_KEPT = 1 << 16

def turns_needed(challenge: Challenge, rows: tuple[Row, ...]) -> int:
    """Turns that any win from ``rows`` still needs: over every set of goal rows that could win, the least
    of the larger of (a) the goal's cards of each weather that the whole table lacks (a turn adds one card
    to the table; no action adds another), (b) half the goal half-rows' missing length, rounded up (a turn
    lengthens them by at most two: the card placed, and one card an action moves in from elsewhere) and
    (c) one (a win is declared at the end of a turn)."""
    on_table: Counter[str] = Counter("".join(row.left + row.right for row in rows))
    eligible = [r for r, row in enumerate(rows) if challenge.goal.eligible(row)]
    best: int | None = None
    for chosen in _subsets(eligible, challenge.rows_required):
        bound = _bound(challenge, rows, chosen, on_table)
        best = bound if best is None else min(best, bound)
    return best if best is not None else 1 << 20


#: Weathers whose action can bring a card from one row into another: Fog (a column's swap or move), Storm
#: (two ends' swap) and Cloud (it may copy either). Wind, Rain and Sun act within their own row.
MOVERS = frozenset("FTC")


def floor_holds(challenge: Challenge, rows: tuple[Row, ...], hand: str, pile: str) -> bool:
    """Whether a ``play`` state with ``rows``, ``hand`` and the unseen ``pile`` cannot be won, by the floor:
    for **every** set ``G`` of goal rows that could win, (a) :func:`turns_needed`'s bound for ``G`` exceeds
    the cards left in hand and pile (each turn plays one of them), or (b) some weather ``w`` has more goal
    cards wanted in ``G``'s rows than can ever be there: the cards of ``w`` now in ``G``'s rows, in hand and
    in the pile (each may be played into ``G``), and of the cards of ``w`` in the other rows at most those
    that actions still to play can carry in -- only a Fog, a Storm or a Cloud moves a card from one row to
    another, one card an action, so the cards taken from other rows number at most the Fog, Storm and
    Cloud cards in hand and pile. Discarded cards never return. A relaxation of the rules: it only rules
    out wins that are impossible, so 0 is an upper bound on the value of every state it holds for."""
    left = len(hand) + len(pile)
    on_table: Counter[str] = Counter("".join(row.left + row.right for row in rows))
    unseen = Counter(hand + pile)
    movers = sum(n for w, n in unseen.items() if w in MOVERS)
    eligible = [r for r, row in enumerate(rows) if challenge.goal.eligible(row)]
    for chosen in _subsets(eligible, challenge.rows_required):
        if _bound(challenge, rows, chosen, on_table) > left:
            continue
        in_goal_rows = Counter("".join(rows[r].left + rows[r].right for r in chosen))
        need: Counter[str] = Counter()
        for r in chosen:
            for _, half_goal in challenge.goal.halves():
                need.update(half_goal.needs(rows[r]))
        carried = [max(0, n - in_goal_rows[w] - unseen[w]) for w, n in need.items()]
        elsewhere = [on_table[w] - in_goal_rows[w] for w in need]
        if all(c <= e for c, e in zip(carried, elsewhere, strict=True)) and sum(carried) <= movers:
            return False
    return True


def _bound(challenge: Challenge, rows: tuple[Row, ...], chosen: tuple[int, ...], on_table: Counter[str]) -> int:
    """:func:`turns_needed`'s bound for the one set of goal rows ``chosen``."""
    need: Counter[str] = Counter()
    short = 0
    for r in chosen:
        row = rows[r]
        for side, half_goal in challenge.goal.halves():
            need.update(half_goal.needs(row))
            short += max(0, half_goal.length() - len(row.half(side)))
    supply = sum(max(0, n - on_table[w]) for w, n in need.items())
    return max(supply, (short + 1) // 2, 1)


def _subsets(items: list[int], size: int) -> Iterable[tuple[int, ...]]:
    if size == 0:
        yield ()
        return
    for i, first in enumerate(items):
        for rest in _subsets(items[i + 1:], size - 1):
            yield (first, *rest)


@dataclass
class TableCheck:
    """What :func:`check_table` found when ``problem`` and ``stopped`` are empty: the start's upper bound
    ``value`` and lower bound ``lower`` (equal: exact), the states reached and checked, the frontier and
    policy states among them, and the listed states never reached (not checked: nothing depends on them);
    ``cut`` the draws the policy rows name as given up (``@4``). ``stopped`` says where the time limit
    stopped the check (nothing was found wrong up to there)."""

    value: Fraction | None
    states: int
    frontier: int
    problem: str = ""
    lower: Fraction | None = None
    policy: int = 0
    unreached: int = 0
    stopped: str = ""
    cut: int = 0

    @property
    def valid(self) -> bool:
        return not self.problem and not self.stopped


def is_table(path: str | Path) -> bool:
    """Whether ``path`` is a gzip file (a value table, as no other record is compressed). Only a regular
    file is looked into (a FIFO would block): anything else is not a table, and the JSON reader says why
    it cannot be read."""
    try:
        with open_regular(path) as source:
            return source.read(2) == b"\x1f\x8b"
    except (BadInput, OSError):
        return False


def table_header(path: str | Path) -> dict[str, Any]:
    """The header (a JSON object) of a gzip value table, the rows not read; :class:`BadInput` when
    unreadable."""
    with open_table(path) as (header, _):
        return header


def read_table(path: str | Path) -> tuple[dict[str, Any], list[str]]:
    """The header (a JSON object) and the rows of a gzip value table; :class:`BadInput` when unreadable."""
    with open_table(path) as (header, rows):
        return header, list(rows)


@contextmanager
def open_table(path: str | Path) -> Iterator[tuple[dict[str, Any], Iterator[str]]]:
    """The header (a JSON object) of a gzip value table, and its rows as they are read (a table of millions
    of rows is not held whole), the file open while in the ``with``; :class:`BadInput` when unreadable,
    from the rows too."""
    name = str(path)

    def unreadable(exc: Exception) -> BadInput:
        return BadInput(name, "file", f"not a readable gzip value table ({exc})")

    try:
        source = gzip.open(path, "rt", encoding="utf-8")  # noqa: SIM115 (closed by the with below, once read)
    except OSError as exc:
        raise unreadable(exc) from None

    def rows() -> Iterator[str]:
        number = 1
        try:
            while line := source.readline(MAX_ROW_CHARS + 2):
                number += 1
                row = line.rstrip("\r\n")
                if len(row) > MAX_ROW_CHARS:
                    raise BadInput(name, f"line {number}", f"longer than {MAX_ROW_CHARS:,} characters: not a value "
                                   "table's row")
                if number > MAX_TABLE_ROWS + 1:
                    raise BadInput(name, f"line {number}", f"more than {MAX_TABLE_ROWS:,} rows: more than any "
                                   "search writes")
                yield row
        except (OSError, EOFError, UnicodeDecodeError) as exc:
            raise unreadable(exc) from None

    with source:
        try:
            first = source.readline(MAX_HEADER_CHARS + 2)
        except (OSError, EOFError, UnicodeDecodeError) as exc:
            raise unreadable(exc) from None
        if not first:
            raise BadInput(name, "line 1", "empty: a value table starts with its JSON header")
        if len(first.rstrip("\r\n")) > MAX_HEADER_CHARS:
            raise BadInput(name, "line 1", f"a header longer than {MAX_HEADER_CHARS:,} characters: not a value "
                           "table's header")
        header = parse_json_object(first, name, line=1)  # the records' reader: its limits, no key twice
        if header.get("format") not in FORMATS:
            raise BadInput(name, "format", f"a value table's header names the format {TABLE_FORMAT}")
        yield header, rows()


def _fraction(claim: dict[str, Any], key: str, name: str) -> Fraction | None:
    return parse_fraction(claim[key], name, f"claim.{key}") if key in claim else None


def check_odds_table(path: str | Path, verdict: Verdict, name: str, limits: Limits | None = None) -> TableCheck:
    """``verify`` of a value table file: the game rebuilt from the header's setup and start, the table
    checked from the start (:func:`check_table`), and the header's claims held to the start's checked
    bounds: ``upper_bound`` (no policy does better), ``lower_bound`` (a policy the table describes achieves
    it) and ``exact`` (the two are equal). ``limits`` gives the run's deadline (a check it stops leaves
    every claim unknown) and its progress line."""
    limits = limits or Limits(Deadline(None), None, False)
    with open_table(path) as (header, rows):
        game, start = policy_game(header, name)
        verdict.checked.append(f"the position: {game.challenge.name}, start {format_hidden(start)} (the header's "
                               "setup and start, read by the rules engine)")
        if "deal" in header:
            verdict.notes.append(f"the header's deal name {str(header['deal'])[:40]!r} is a label, and its counts "
                                 "(states, policy, frontier, cut) are not used: what is checked is the start above")
        claim = header.get("claim")
        if not isinstance(claim, dict):
            raise BadInput(name, "claim", "missing or not an object")
        upper = _fraction(claim, "upper_bound", name)
        if upper is None:
            raise BadInput(name, "claim.upper_bound", "missing (an exact fraction such as 37/45)")
        lower = _fraction(claim, "lower_bound", name)
        if not isinstance(claim.get("exact", False), bool):
            raise BadInput(name, "claim.exact", "must be true or false")
        verdict.unchecked(claim, TABLE_CLAIMS, "a value table")
        version = FORMATS.index(header["format"]) + 1
        with limits.progress("checking the value table", "rows read", "states checked") as show:
            found = check_table(game, rows, policies=version >= 2, plans=version >= 3, cuts=version >= 4,
                                deadline=limits.deadline, progress=show)
    if found.stopped:
        why = limits.stopped_words(found.stopped)
        verdict.unknown("upper_bound", f"the optimal solo win probability is at most {upper}", why)
        if lower is not None:
            verdict.unknown("lower_bound", f"a policy wins with probability at least {lower}", why)
        if claim.get("exact") is True:
            verdict.unknown("exact", f"the optimal solo win probability is exactly {upper}", why)
        return found
    statement = f"the optimal solo win probability is at most {upper}"
    if not found.valid:
        verdict.refute("upper_bound", statement, "table", found.problem)
        return found
    if found.value != upper:
        verdict.refute("upper_bound", statement, "claim.upper_bound", f"the table's start is worth {found.value} "
                       f"(an upper bound), not {upper}")
        return found
    basis = (f"{found.states:,} states reached and checked with the rules: each value row the maximum over all "
             f"its moves or the mean over its cards, {found.frontier:,} frontier and {found.policy:,} policy "
             "states at 1")
    verdict.certify("upper_bound", statement, basis)
    if lower is not None:
        low = f"a policy wins with probability at least {lower}"
        if found.lower != lower:
            verdict.refute("lower_bound", low, "claim.lower_bound", f"the table's policy is worth {found.lower}, "
                           f"not {lower}")
            return found
        verdict.certify("lower_bound", low, "the policy of the table's policy rows (and the best moves of its "
                        "value rows) recomputed down to won and lost games, frontier states "
                        f"{f'and {found.cut:,} cut draws ' if found.cut else ''}counted as lost")
    if claim.get("exact") is True:
        exact = f"the optimal solo win probability is exactly {upper}"
        if found.lower != upper:
            verdict.refute("exact", exact, "table", f"the table's policy is worth {found.lower} (frontier states "
                           "counted as lost): only an upper bound")
        else:
            verdict.certify("exact", exact, "the table's policy achieves its upper bound")
    return found


_NO_POLICY = "a reveal state is chance: it has no policy move"


class _Bad(Exception):
    pass


class _Stopped(Exception):
    pass


class _Sums:
    """What a move or a card leads to, gathered by the check (``follow``): the won games' orders (``up``
    and ``low``, equal) and the listed states it rests on, each ``(ways, row, state)``."""

    __slots__ = ("low", "terms", "up")

    def __init__(self) -> None:
        self.up = 0
        self.low = 0
        self.terms: list[tuple[int, int, HiddenState]] = []


class _Row:
    """A value or policy row being checked: its ``moves`` (one :class:`_Sums` each at a decision's value row,
    else one), and the listed states among them not yet looked at (``pending`` from ``next`` on)."""

    __slots__ = ("index", "kind", "m", "moves", "next", "pending", "value")

    def __init__(self, index: int, kind: str, value: tuple[int, int], m: int, moves: list[_Sums]) -> None:
        self.index, self.kind, self.value, self.m, self.moves = index, kind, value, m, moves
        self.pending = [term for sums in moves for term in sums.terms]
        self.next = 0


def _orders(pile: str, known: dict[str, int]) -> int:
    """``M``: the orders of the multiset ``pile``."""
    found = known.get(pile)
    if found is None:
        found = factorial(len(pile))
        for n in Counter(pile).values():
            found //= factorial(n)
        known[pile] = found
    return found


def _draws(pile: str, k: int, known: dict[tuple[str, int], list[tuple[tuple[str, ...], int]]]
           ) -> list[tuple[tuple[str, ...], int]]:
    """The multisets of ``k`` cards that can be drawn from ``pile`` (weathers in order) with the orders
    each can come in; remembered in ``known`` (the same piles come back at many draws)."""
    found = known.get((pile, k))
    if found is None:
        counts = Counter(pile)
        found = []
        for drawn in combinations_with_replacement(sorted(counts, key=WEATHERS.index), k):
            taken = Counter(drawn)
            if any(n > counts[w] for w, n in taken.items()):
                continue
            ways = factorial(k)
            for n in taken.values():
                ways //= factorial(n)
            found.append((drawn, ways))
        known[(pile, k)] = found
    return found


def _value_of(text: str) -> tuple[int, int]:
    """A row's value as ``(numerator, denominator)``, the denominator positive, not reduced: ``N/D`` or ``N``
    in ASCII digits, read directly (a ``Fraction`` made for every row was 5-7% of the check). Anything else
    is refused: ``Fraction`` would also read ``1e99999999``, a number it takes minutes to build."""
    numerator, slash, denominator = text.partition("/")
    digits = numerator + denominator
    if not (numerator and digits.isascii() and digits.isdigit() and (denominator or not slash)):
        raise ValueError(f"{text[:40]!r}{'...' if len(text) > 40 else ''} is not a value N/D in digits")
    below = int(denominator) if slash else 1
    if below == 0:
        raise ZeroDivisionError(f"{text[:40]}: a value's denominator is 0")
    return int(numerator), below


def _shown(value: tuple[int, int]) -> Fraction:
    """A value read by :func:`_value_of`, reduced, for a message."""
    return Fraction(*value)


def _weight(value: tuple[int, int], orders: int, number: int) -> int:
    """``value`` in units of ``1 / orders``; a value that is not such a multiple is refused."""
    w, left = divmod(value[0] * orders, value[1])
    if left:
        raise _Bad(f"line {number}: {_shown(value)} is not a multiple of 1/{orders} (the pile's orders): no "
                   "policy's value or bound is")
    return w


def _successor(game: HiddenStrato, state: HiddenState, text: str, number: int) -> HiddenState:
    """The state a ``policy`` row's move leads to, by the rules (:meth:`HiddenStrato.resolve`): the move is
    legal (its card in hand, or the revealed card at the announced end; an announcement with cards in the
    pile) and its target one of the rules' choices for that card at that end."""
    try:
        return game.resolve(state, parse_play(text))[1]
    except NotationError as exc:
        raise _Bad(f"line {number}: {exc}") from None
    except IllegalMove:
        raise _Bad(f"line {number}: {text} is not legal here") from None


def check_table(game: HiddenStrato, rows: Iterable[str], policies: bool = True, plans: bool = True,
                cuts: bool = True, *, deadline: Deadline | None = None,
                progress: Callable[[int, int], None] | None = None) -> TableCheck:
    """Check a value table's rows (``KIND VALUE [MOVE] STATE`` lines, the header left out) against
    ``game``'s rules from its start (see the module docstring); ``policies`` False refuses ``policy``
    rows (format ``@1``), ``plans`` False a policy row of more than one move (``@2``), ``cuts`` False a
    policy row with cut draws (``@3``: they are new in ``@4``). Every
    :data:`CLOCK_ROWS` rows read or states checked, ``progress`` is told both counts and ``deadline`` is
    asked: once it has passed, the check stops (``stopped`` says where).

    Every row is read, but only the row's text is kept, under its state as written (the notation
    :func:`~stratagem.models.strato.hidden.game.format_hidden` writes, which the walk looks states up by):
    ``verify`` of a 358,336-row table peaks at 245 MB (about 0.7 KB a row, the interpreter included), where
    the parsed states took 826 MB. A state the walk reaches is one the rules made, so its text is valid;
    the notation of every other row is checked after the walk (a row that is not a state is refused even
    where nothing reaches it)."""
    # The check makes no reference cycles (its states, rows and sums refer down; reference counting frees
    # them), but millions of objects: with the collector on, a 65,493-row table of challenge 1 took 5.60 CPU s
    # to check, 4.45 off (medians of 3).
    with no_cycle_collection():
        return _check_table(game, rows, policies, plans, cuts, deadline, progress)


def _check_table(game: HiddenStrato, rows: Iterable[str], policies: bool, plans: bool, cuts: bool,
                 deadline: Deadline | None, progress: Callable[[int, int], None] | None) -> TableCheck:
    """:func:`check_table`, with the cycle collector off."""
    show = progress or (lambda read, checked: None)
    root = game.initial_state()
    if len(root.hands) != 1:  # every state the walk reaches then has one hand, as a listed state must
        return TableCheck(None, 0, 0, f"a value table is about solo play, not {len(root.hands)} hands")
    heads: list[str] = []  # each row without its state: "KIND VALUE [MOVE]"; row i is on line i + 2
    table: dict[str, int] = {}  # each row's state, as written, to its row
    for number, line in enumerate(rows, start=2):
        kind = line.split(" ", 1)[0]
        parts = line.split(" ", 3 if kind == "policy" and policies else 2)
        if len(parts) != (4 if kind == "policy" else 3) or kind not in KINDS or (kind == "policy" and not policies):
            if kind == "policy" and policies and len(parts) == 3:
                return TableCheck(None, 0, 0, f"line {number}: a policy row is policy VALUE MOVE STATE")
            kinds = ", ".join(KINDS if policies else [k for k in KINDS if k != "policy"])
            return TableCheck(None, 0, 0, f"line {number}: not KIND VALUE STATE with KIND one of {kinds}")
        text = parts[-1]
        if text in table:
            return TableCheck(None, 0, 0, f"line {number}: the state is listed twice")
        if kind == "policy" and not plans and ";" in parts[2]:
            return TableCheck(None, 0, 0, f"line {number}: a plan of several moves needs format {FORMATS[2]} "
                              "or later")
        if kind == "policy" and not cuts and CUT in parts[2]:
            return TableCheck(None, 0, 0, f"line {number}: cut draws ({CUT}...) need format {FORMATS[3]}")
        table[text] = len(heads)
        heads.append(line[:len(line) - len(text) - 1])
        if len(heads) % CLOCK_ROWS == 0:
            show(len(heads), 0)
            if deadline is not None and deadline.expired():
                read = f"{len(heads):,} row was" if len(heads) == 1 else f"{len(heads):,} rows were"
                return TableCheck(None, 0, 0, stopped=f"after {read} read, before any was checked")
    done: list[tuple[int, int] | None] = [None] * len(heads)  # each row's (U, L) once checked

    def misread() -> str | None:
        """The first row not reached (in the file's order) whose state is not in the notation, or not a state
        a table lists. A state reached is one the rules made, written by ``format_hidden``: its row needs no
        reading (reading every row was 6% of the check)."""
        for index, text in sorted((index, text) for text, index in table.items() if done[index] is None):
            number = index + 2
            try:
                state = parse_hidden(text)
            except NotationError as exc:
                return f"line {number}: {exc}"
            if state.status != ONGOING or state.phase not in (PLAY, REVEAL, TARGET) or len(state.hands) != 1:
                return f"line {number}: only ongoing solo play, reveal and target states are listed"
            if heads[index].startswith("policy ") and state.phase == REVEAL:
                return f"line {number}: {_NO_POLICY}"
        return None

    if format_hidden(root) not in table:
        return TableCheck(None, len(table), 0, misread() or "the start is not in the table")
    orders: dict[str, int] = {}
    values: dict[str, tuple[int, int]] = {}  # values as written, read: keyed by the whole text (2,672 texts
    # in a 65,493-row table; reading each row's was 2% of the check), the first VALUES_KEPT kept
    draw_plans: dict[tuple[str, int], list[tuple[tuple[str, ...], int]]] = {}
    counted = Counter[str]()
    checks = [0]  # counted's total, kept apart (summing the Counter at every row was 2% of the check)
    names: dict[tuple[str, ...], str] = {}  # a drawn multiset's name in a cut: its cards in letter order
    cut_draws = [0]

    def listed(state: HiddenState, origin: int, ways: int, sums: _Sums) -> None:
        """Add to ``sums`` a state the table must list, ``ways`` times: its row as a term to be valued (a state
        missing is an error)."""
        text = format_hidden(state)
        index = table.get(text)
        if index is None:
            raise _Bad(f"line {origin}: {text} follows from it by the rules but is not in the table")
        sums.terms.append((ways, index, state))

    def follow(state: HiddenState, origin: int, plan: Sequence[str], ways: int, sums: _Sums,
               cut: frozenset[str] = frozenset(), used: set[str] | None = None) -> None:
        """Add to ``sums`` what a move or a card leads to, ``ways`` times: a won game its pile's orders (both
        bounds), a lost one nothing, a listed state a term to be valued (its row looked up: a state missing is
        an error), and the draws each multiset drawn, weighted by its orders; with moves of a ``plan`` still
        to play, the next decision plays the first of them, whatever was drawn (those states need not be
        listed). Once the plan is played out, a multiset drawn that ``cut`` names adds nothing (it goes in
        ``used``): the policy gives up there."""
        if state.status != ONGOING:
            if plan:
                raise _Bad(f"line {origin}: the game is over before the plan's {plan[0]}")
            if state.status == WON:
                won = ways * _orders(state.pile, orders)
                sums.up += won
                sums.low += won
            return
        if plan and state.phase in (PLAY, TARGET):
            follow(_successor(game, state, plan[0], origin), origin, plan[1:], ways, sums, cut, used)
            return
        if plan and state.phase == REVEAL:
            reveal(state, origin, plan, ways, sums, cut, used)
            return
        if state.phase != DRAW:
            listed(state, origin, ways, sums)
            return
        k = state.draws
        draws = _draws(state.pile, k, draw_plans)
        if cut and plan:  # the draws between a plan's moves are never cut: the cut waits for its last move
            later: tuple[frozenset[str], set[str] | None] = (cut, used)
        else:
            later = (frozenset(), None)
        if cut and not plan:
            assert used is not None
            kept = []
            for each in draws:
                name = names.get(each[0])
                if name is None:
                    name = names[each[0]] = "".join(sorted(each[0]))
                if name in cut:
                    used.add(name)
                else:
                    kept.append(each)
            draws = kept
        if k == 1:  # one card: no prefixes to share
            for drawn, _ in draws:
                child = game.apply(state, drawn[0])
                if child.status == ONGOING and child.phase == PLAY and not plan:  # where follow would end
                    listed(child, origin, ways, sums)
                else:
                    follow(child, origin, plan, ways, sums, *later)
            return
        prefixes: dict[tuple[str, ...], HiddenState] = {(): state}
        for drawn, times in draws:
            child = state
            for i in range(1, k + 1):
                prefix = drawn[:i]
                reached = prefixes.get(prefix)
                if reached is None:
                    reached = prefixes[prefix] = game.apply(child, drawn[i - 1])
                child = reached
            follow(child, origin, plan, ways * times, sums, *later)

    def reveal(state: HiddenState, origin: int, plan: Sequence[str], ways: int, sums: _Sums,
               cut: frozenset[str] = frozenset(), used: set[str] | None = None) -> None:
        """:func:`follow` of a ``reveal`` state: each card that can turn up (in units of its pile's orders, a
        card's probability is its share of them, so the parent's value is the plain sum)."""
        for card in sorted(set(state.pile), key=WEATHERS.index):
            follow(game.apply(state, card), origin, plan, ways, sums, cut, used)

    def begin(index: int, state: HiddenState) -> _Row | None:
        """Start checking row ``index`` (its state ``state``): a frontier or floor row is checked at once
        (None); a value or policy row is followed by the rules down to the listed states its value rests
        on, which are valued before it (:func:`finish`)."""
        number = index + 2
        kind, value_text, *more = heads[index].split(" ")
        try:
            value = values.get(value_text) or _value_of(value_text)
        except (ValueError, ZeroDivisionError) as exc:
            raise _Bad(f"line {number}: {exc}") from None
        if len(values) < VALUES_KEPT:
            values[value_text] = value
        counted[kind] += 1
        checks[0] += 1
        checked = checks[0]
        if checked % CLOCK_ROWS == 0:
            show(len(heads), checked)
            if deadline is not None and deadline.expired():
                raise _Stopped(f"after {checked:,} of the {len(heads):,} rows were checked")
        m = _orders(state.pile, orders)
        if kind == "frontier":
            if value[0] != value[1]:
                raise _Bad(f"line {number}: a frontier state is worth 1, not {_shown(value)}")
            done[index] = (m, 0)
            return None
        if kind == "floor":
            if state.phase != PLAY:
                raise _Bad(f"line {number}: only a play state is a floor")
            if not floor_holds(game.challenge, state.rows, state.hands[0], state.pile):
                needed = turns_needed(game.challenge, state.rows)
                left = len(state.hands[0]) + len(state.pile)
                raise _Bad(f"line {number}: not a floor: a set of goal rows is still possible ({needed} turn(s) "
                           f"needed at least, {left} card(s) left, and the goal's cards can reach its rows)")
            if value[0] != 0:
                raise _Bad(f"line {number}: a floor is worth 0, not {_shown(value)}")
            done[index] = (0, 0)
            return None
        if kind == "policy":
            if state.phase == REVEAL:
                raise _Bad(f"line {number}: {_NO_POLICY}")
            played, _, cut_text = more[0].partition(CUT)
            plan = played.split(";")
            sums = _Sums()
            if not cut_text:
                follow(_successor(game, state, plan[0], number), number, plan[1:], 1, sums)
                return _Row(index, kind, value, m, [sums])
            named = cut_text.split(CUT_SEPARATOR)
            cut = frozenset(named)
            if len(cut) < len(named):
                raise _Bad(f"line {number}: a cut draw is named twice")
            used: set[str] = set()
            follow(_successor(game, state, plan[0], number), number, plan[1:], 1, sums, cut, used)
            if len(used) < len(cut):
                wrong = min(cut - used)
                raise _Bad(f"line {number}: the cut draw {wrong or '(empty)'} is not a multiset of cards the rules "
                           f"draw after {played}")
            cut_draws[0] += len(cut)
            return _Row(index, kind, value, m, [sums])
        if state.phase == REVEAL:
            sums = _Sums()
            reveal(state, number, (), 1, sums)
            return _Row(index, kind, value, m, [sums])
        plays = game.plays(state)
        if not plays:
            raise _Bad(f"line {number}: no legal move")
        moves = []
        for _, child in plays:
            sums = _Sums()
            follow(child, number, (), 1, sums)
            moves.append(sums)
        return _Row(index, kind, value, m, moves)

    def finish(row: _Row) -> None:
        """Row ``row``'s ``(U, L)`` from the values of the listed states it rests on (all known by now): a
        sum over cards, or at a decision the largest over all its moves; held to the row's value."""
        number = row.index + 2
        up = low = -1
        for sums in row.moves:
            u, lo = sums.up, sums.low
            for ways, index, _ in sums.terms:
                known = done[index]
                assert known is not None
                u += ways * known[0]
                lo += ways * known[1]
            up = max(up, u)
            low = max(low, lo)
        if row.kind == "policy":
            if _weight(row.value, row.m, number) != low:
                raise _Bad(f"line {number}: the policy's move gives {Fraction(low, row.m)} by the rules from the "
                           f"listed states, not {_shown(row.value)}")
            done[row.index] = (row.m, low)
            return
        if _weight(row.value, row.m, number) != up:
            raise _Bad(f"line {number}: the value is {_shown(row.value)} but the rules give {Fraction(up, row.m)} "
                       "from the listed values")
        done[row.index] = (up, low)

    root_index = table[format_hidden(root)]
    try:  # depth first with a stack of its own (Python's recursion paid a system call at every change of depth)
        first = begin(root_index, root)
        stack = [] if first is None else [first]
        while stack:
            row = stack[-1]
            while row.next < len(row.pending):
                _, index, state = row.pending[row.next]
                if done[index] is None:
                    below = begin(index, state)
                    if below is not None:
                        stack.append(below)
                        break
                row.next += 1
            else:
                finish(row)
                stack.pop()
    except _Bad as bad:
        return TableCheck(None, len(table), counted["frontier"], misread() or str(bad))
    except _Stopped as stop:
        return TableCheck(None, counted.total(), counted["frontier"], stopped=str(stop))
    problem = misread()
    if problem:
        return TableCheck(None, len(table), counted["frontier"], problem)
    up, low = done[root_index]  # type: ignore[misc]
    m = _orders(root.pile, orders)
    reached = sum(counted.values())
    return TableCheck(Fraction(up, m), reached, counted["frontier"], "", Fraction(low, m), counted["policy"],
                      len(table) - reached, cut=cut_draws[0])
