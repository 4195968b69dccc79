"""A solo Strato value table (``stratagem/strato-odds-table@1``): an upper bound on the optimal win
probability with the pile hidden, checked locally with the rules alone.

The table lists information states of solo Strato with the pile's order hidden
(:class:`~stratagem.models.strato.hidden.game.HiddenStrato`, one player), each with a value and a kind
(docs/formats.md):

- ``value``: a ``play`` or ``target`` state (the player decides) must be worth exactly the largest value
  over its legal moves; a ``reveal`` state (chance) exactly the probability-weighted mean over the cards
  that can turn up. Below a move the checker follows the rules itself: a won game is worth 1, a lost one
  0, each draw is a chance node (every card of the pile with probability count / size, one at a time),
  and the next ``play``, ``reveal`` or ``target`` state must be in the table -- a state missing is an
  error, whatever its value would be;
- ``frontier``: worth 1, which no state exceeds (the table stops there: a truncated table);
- ``floor``: worth 0 because it cannot be won: the turns it still needs (:func:`turns_needed`) exceed the
  cards left in hand and pile, each turn playing one of them.

Moves, outcomes and probabilities are the rules' (the checker generates them; the table lists none), so a
value computed with a move left out or a probability changed disagrees with the checker's recomputation.
If every row checks, the values are an upper bound on the optimal value of every listed state, by
induction from the end of the game (it always ends: each turn spends a card of the hand or the pile),
because each is at least what any move or card leads to. The start's value is therefore an upper bound on
the optimal win probability. A second pass counts the frontier states as 0 instead (:func:`_lower`): the
same equalities then describe what the best listed moves achieve down to won and lost games, a lower
bound; when it equals the start's value, that value is exact. This is linear in the table and needs no search: the
checker imports nothing from the solver.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from stratagem.core.errors import BadInput, NotationError
from stratagem.core.io import open_regular
from stratagem.models.strato.hidden.game import PLAY, REVEAL, TARGET, HiddenState, HiddenStrato, parse_hidden
from stratagem.models.strato.rules.challenge import Challenge
from stratagem.models.strato.rules.position import ONGOING, WON, Row
from stratagem.verification.policy import policy_game
from stratagem.verification.verdict import Verdict

__all__ = ["TABLE_FORMAT", "TableCheck", "check_odds_table", "check_table", "is_table", "read_table", "turns_needed"]

TABLE_FORMAT = "stratagem/strato-odds-table@1"
KINDS = ("value", "frontier", "floor")


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
        need: Counter[str] = Counter()
        short = 0
        for r in chosen:
            row = rows[r]
            for side, half_goal in challenge.goal.halves():
                need.update(half_goal.needs(row))
                short += max(0, half_goal.length() - len(row.half(side)))
        supply = sum(max(0, n - on_table[w]) for w, n in need.items())
        bound = max(supply, (short + 1) // 2, 1)
        best = bound if best is None else min(best, bound)
    return best if best is not None else 1 << 20


def _subsets(items: list[int], size: int) -> Iterable[tuple[int, ...]]:
    if size == 0:
        yield ()
        return
    for i, first in enumerate(items):
        for rest in _subsets(items[i + 1:], size - 1):
            yield (first, *rest)


@dataclass
class TableCheck:
    """What :func:`check_table` found: the start's value (an upper bound; exact with no frontier) when
    ``problem`` is empty, the states checked and the frontier states."""

    value: Fraction | None
    states: int
    frontier: int
    problem: str = ""
    #: The start's value with frontier states counted as 0: a lower bound (equal to ``value``: exact).
    lower: Fraction | None = None

    @property
    def valid(self) -> bool:
        return not self.problem


def is_table(path: str | Path) -> bool:
    """Whether ``path`` is a gzip file (a value table, as no other record is compressed). Only a regular
    file is looked into (a FIFO would block): anything else is not a table, and the JSON reader says why
    it cannot be read."""
    try:
        with open_regular(path) as source:
            return source.read(2) == b"\x1f\x8b"
    except (BadInput, OSError):
        return False


def read_table(path: str | Path) -> tuple[dict[str, Any], list[str]]:
    """The header (a JSON object) and the rows of a gzip value table; :class:`BadInput` when unreadable."""
    name = str(path)
    try:
        with gzip.open(path, "rt", encoding="utf-8") as source:
            lines = source.read().splitlines()
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise BadInput(name, "file", f"not a readable gzip value table ({exc})") from None
    if not lines:
        raise BadInput(name, "line 1", "empty: a value table starts with its JSON header")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as exc:
        raise BadInput(name, "line 1", f"the header is not JSON ({exc.msg})") from None
    if not isinstance(header, dict) or header.get("format") != TABLE_FORMAT:
        raise BadInput(name, "format", f"a value table's header names the format {TABLE_FORMAT}")
    return header, lines[1:]


def check_odds_table(path: str | Path, verdict: Verdict, name: str) -> TableCheck:
    """``verify`` of a value table file: the game rebuilt from the header's setup and start, every row
    checked (:func:`check_table`), and the header's claim held to the start's checked value: the upper
    bound (certified when the table checks), and exactness (certified when it has no frontier state)."""
    header, rows = read_table(path)
    game, _ = policy_game(header, name)
    claim = header.get("claim")
    if not isinstance(claim, dict):
        raise BadInput(name, "claim", "missing or not an object")
    try:
        claimed = Fraction(str(claim.get("upper_bound")))
    except (ValueError, ZeroDivisionError):
        raise BadInput(name, "claim.upper_bound", "must be an exact fraction such as 37/45") from None
    found = check_table(game, rows)
    statement = f"the optimal solo win probability is at most {claimed}"
    if not found.valid:
        verdict.refute("upper_bound", statement, "table", found.problem)
        return found
    if found.value != claimed:
        verdict.refute("upper_bound", statement, "claim.upper_bound",
                       f"the table's start is worth {found.value}, not {claimed}")
        return found
    basis = (f"{found.states:,} states checked with the rules: each decision the maximum over its moves, "
             f"each chance node the mean over its cards, {found.frontier:,} frontier states at 1")
    verdict.certify("upper_bound", statement, basis)
    if claim.get("exact") is True:
        exact = f"the optimal solo win probability is exactly {claimed}"
        if found.lower != claimed:
            verdict.refute("exact", exact, "table", f"with its {found.frontier} frontier state(s) at 0 the start is "
                           f"worth {found.lower}: only an upper bound")
        else:
            verdict.certify("exact", exact, "the same table with its frontier states at 0 keeps the start's value "
                            "(a policy's wins, checked down to won and lost games)")
    return found


class _Bad(Exception):
    pass


def check_table(game: HiddenStrato, rows: list[str]) -> TableCheck:
    """Check a value table's rows (``KIND VALUE STATE`` lines, the header left out) against ``game``'s
    rules from its start (see the module docstring)."""
    root = game.initial_state()
    table: dict[HiddenState, tuple[str, Fraction, int]] = {}
    for number, line in enumerate(rows, start=2):
        parts = line.split(" ", 2)
        if len(parts) != 3 or parts[0] not in KINDS:
            return TableCheck(None, 0, 0, f"line {number}: not KIND VALUE STATE with KIND one of {', '.join(KINDS)}")
        try:
            value = Fraction(parts[1])
            state = parse_hidden(parts[2])
        except (ValueError, ZeroDivisionError, NotationError) as exc:
            return TableCheck(None, 0, 0, f"line {number}: {exc}")
        if state in table:
            return TableCheck(None, 0, 0, f"line {number}: the state is listed twice")
        if state.status != ONGOING or state.phase not in (PLAY, REVEAL, TARGET) or len(state.hands) != 1:
            return TableCheck(None, 0, 0, f"line {number}: only ongoing solo play, reveal and target states are listed")
        table[state] = (parts[0], value, number)
    if root not in table:
        return TableCheck(None, len(table), 0, "the start is not in the table")
    frontier = 0

    def below(state: HiddenState, origin: int) -> Fraction:
        if state.status != ONGOING:
            return Fraction(1 if state.status == WON else 0)
        if state.phase in (PLAY, REVEAL, TARGET):
            found = table.get(state)
            if found is None:
                raise _Bad(f"line {origin}: {_text(game, state)} follows from it by the rules but is not in the table")
            return found[1]
        total = Fraction(0)
        for card, p in game.chance_outcomes(state):
            total += p * below(game.apply(state, card), origin)
        return total

    try:
        for state, (kind, value, number) in table.items():
            if kind == "frontier":
                frontier += 1
                if value != 1:
                    return TableCheck(None, len(table), frontier,
                                      f"line {number}: a frontier state is worth 1, not {value}")
                continue
            if kind == "floor":
                if state.phase != PLAY:
                    return TableCheck(None, len(table), frontier, f"line {number}: only a play state is a floor")
                needed = turns_needed(game.challenge, state.rows)
                left = len(state.hands[0]) + len(state.pile)
                if needed <= left:
                    return TableCheck(None, len(table), frontier, f"line {number}: {needed} turn(s) needed and "
                                      f"{left} card(s) left: not a floor")
                if value != 0:
                    return TableCheck(None, len(table), frontier, f"line {number}: a floor is worth 0, not {value}")
                continue
            if state.phase == REVEAL:
                want = sum((p * below(game.apply(state, card), number) for card, p in game.chance_outcomes(state)),
                           Fraction(0))
            else:
                plays = game.plays(state)
                if not plays:
                    return TableCheck(None, len(table), frontier, f"line {number}: no legal move")
                want = max(below(after, number) for _, after in plays)
            if value != want:
                return TableCheck(None, len(table), frontier, f"line {number}: the value is {value} but the rules "
                                  f"give {want} from the listed values")
    except _Bad as bad:
        return TableCheck(None, len(table), frontier, str(bad))
    return TableCheck(table[root][1], len(table), frontier, "", _lower(game, table, root))


def _lower(game: HiddenStrato, table: dict[HiddenState, tuple[str, Fraction, int]], root: HiddenState) -> Fraction:
    """The start's value with every frontier state counted as 0 (a lower bound on the optimal value: the
    table, already checked, then describes a policy's wins down to won and lost games)."""
    lows: dict[HiddenState, Fraction] = {}

    def low(state: HiddenState) -> Fraction:
        if state.status != ONGOING:
            return Fraction(1 if state.status == WON else 0)
        if state.phase not in (PLAY, REVEAL, TARGET):
            return sum((p * low(game.apply(state, card)) for card, p in game.chance_outcomes(state)), Fraction(0))
        known = lows.get(state)
        if known is not None:
            return known
        kind = table[state][0]
        if kind != "value":
            v = Fraction(0)
        elif state.phase == REVEAL:
            v = sum((p * low(game.apply(state, card)) for card, p in game.chance_outcomes(state)), Fraction(0))
        else:
            v = max(low(after) for _, after in game.plays(state))
        lows[state] = v
        return v

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        return low(root)
    finally:
        sys.setrecursionlimit(limit)


def _text(game: HiddenStrato, state: HiddenState) -> str:
    return game.format_state(state)
