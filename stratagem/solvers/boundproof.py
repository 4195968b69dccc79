"""One-sided bound certificates of a simultaneous-move value: the ``stratagem/matrixproof@2`` record.

A value v of a simultaneous node is proven by two halves (docs/design.md, "Bound certificates"):

* a **lower part**, the player's exact mix x over its moves with ``sum_a x_a * L(a, b) >= v`` for every
  reply b of the opponents, where ``L(a, b)`` is a proven *lower bound* of the child ``(a, b)``;
* an **upper part**, the opponents' mix y over their joint moves with ``sum_b y_b * U(a, b) <= v`` for
  every move a of the player, ``U`` proven *upper bounds*.

So the lower part needs lower bounds of the children in ``supp(x) x all replies`` only, and the upper part
upper bounds in ``all moves x supp(y)``; a child gets the one-sided bound its parents use (both only
where both parts reach it). With the small supports of card-game endgames (mostly pure saddle points)
that leaves a small fraction of the tree in the certificate and in the check. Other positions are
bounded from the rules: a terminal by its payoff, a chance node by the weighted bounds of every outcome,
the player's decision by the best bound of its moves (a lower bound needs one move bounded, an upper
bound all), an opponent's decision the other way round. A simultaneous node the record gives no part for
has no bound on that side (minus or plus infinity): sound, and what lets a decision's unplayed moves go
unproven.

:func:`bound_proof` writes the record of a :class:`~stratagem.solvers.simultaneous.SimultaneousResult`
(walking the rules engine from the start: which nodes need which part follows from the supports);
:func:`check_bound_proof` re-checks it from the rules engine alone: it rebuilds every successor and
terminal payoff, takes no value, strategy or flag from the record on trust (a node's value is only the
number its parts are checked against), checks that each part is a probability distribution over legal
moves, and checks every inequality exactly (integers over a common denominator). The root's value is
proven when its lower and upper bounds both equal the claim. The record's fields are in docs/formats.md.

The check's work is not bounded by the record: a part of one move obliges a bound of the child after every
reply, and the replies are the rules engine's, not the record's (a single node at a six-player start has
100,000 of them). So the check takes a deadline, and raises :class:`CheckStopped` when it passes.

The module knows nothing about any particular game.
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput
from stratagem.core.game import CHANCE, SIMULTANEOUS, Evaluation
from stratagem.core.numbers import is_whole
from stratagem.core.outputs import dumps_record
from stratagem.core.records import fraction_text, parse_fraction
from stratagem.solvers.matrixproof import CheckStopped, MatrixProofVerdict, move_label
from stratagem.solvers.simultaneous import (
    CLOCK_EVERY,
    PAYOFFS,
    AnyGame,
    Exact,
    SimultaneousResult,
    UnsupportedGame,
    Walker,
    _norm,
    _scalar,
    analysis_label,
    opponents_of,
)

__all__ = ["BOUNDPROOF_FORMAT", "CheckStopped", "bound_proof", "bound_proof_text", "check_bound_proof"]

BOUNDPROOF_FORMAT = "stratagem/matrixproof@2"

#: The two sides of a bound: a lower bound (the player's guarantee) and an upper bound (the opponents').
LOWER, UPPER = 0, 1
_SIDE_NAMES = ("lower", "upper")

#: A bound: an exact number, or None for no bound (minus infinity for a lower, plus for an upper bound).
Bound = Exact | None


class _Rejected(Exception):
    """A record that reads well but does not prove its claim."""


# --- the writer -------------------------------------------------------------------------------


class _Marker(Walker):
    """Walks the solved game from the start as the checker will and notes which part each node needs.

    ``value`` (the :class:`Walker`'s) values positions with the result's node values; :meth:`mark` walks one
    side's proof: at a decision where one move suffices it follows the move of best exact value only.
    """

    def __init__(self, game: AnyGame, result: SimultaneousResult) -> None:
        super().__init__(game, result.player, result.payoff)
        self.result = result
        self.start = result.root
        #: (state, turns left) -> [node, lower part wanted, upper part wanted], in the order first met
        self.needed: dict[tuple[Hashable, int | None], list[Any]] = {}
        self.seen: set[tuple[Hashable, int | None, int]] = set()

    def simultaneous(self, state: Hashable, remaining: int | None, rows: tuple[Any, ...],
                     columns: tuple[tuple[Any, ...], ...]) -> Exact:
        node = self.result.node(state, remaining)
        if node is None:
            raise ValueError(f"the result has no solved node for {self.game.format_state(state)}")
        return _norm(node.value)

    def mark(self, state: Hashable, remaining: int | None, side: int) -> None:
        """Note the parts that bound ``state`` on ``side`` (as the checker's :meth:`_Checker.bound` walks)."""
        game = self.game
        if game.is_terminal(state):
            return
        mover = game.to_move(state)
        if mover >= 0:
            moves = game.legal_moves(state)
            children = [game.apply(state, m) for m in moves]
            if (mover == self.player) == (side == LOWER):  # one move bounds it: the best one
                values = [self.value(c, remaining) for c in children]
                best = max(values) if mover == self.player else min(values)
                self.mark(children[values.index(best)], remaining, side)
            else:
                for child in children:
                    self.mark(child, remaining, side)
            return
        if mover == SIMULTANEOUS and self._bank is not None and state is not self.start:
            split = self._bank(state)
            if split is not None and split[0] is not state:
                state = split[0]
        key3 = (state, remaining, side)
        if key3 in self.seen:
            return
        self.seen.add(key3)
        if mover == CHANCE:
            for outcome, _ in game.chance_outcomes(state):
                self.mark(game.apply(state, outcome), remaining, side)
            return
        if remaining == 0:
            return
        rows, columns = self.options(state)
        below = None if remaining is None else remaining - 1
        if len(rows) == 1 and len(columns) == 1 and state != self.start:
            self.mark(self.child(state, rows[0], columns[0]), below, side)
            return
        node = self.result.node(state, remaining)
        if node is None:
            raise ValueError(f"the result has no solved node for {game.format_state(state)}")
        entry = self.needed.get((state, remaining))
        if entry is None:
            entry = self.needed[(state, remaining)] = [node, False, False]
        entry[1 + side] = True
        if side == LOWER:
            pairs = [(r, c) for r, p in zip(rows, node.solution.row, strict=True) if p for c in columns]
        else:
            pairs = [(r, c) for r in rows for c, p in zip(columns, node.solution.col, strict=True) if p]
        for r, c in pairs:
            self.mark(self.child(state, r, c), below, side)


def bound_proof(game: AnyGame, result: SimultaneousResult) -> dict[str, Any]:
    """The ``stratagem/matrixproof@2`` record of ``result``: the parts the start's value needs, root first.

    Each node is ``[state, turns left, value, lower part, upper part]``; a part is a list of
    ``[move, "p/q"]`` (the player's moves) or ``[[move, ...], "p/q"]`` (the opponents' joint moves), the
    moves played with positive probability, or null where no parent needs that side.
    """
    if result.bound_parts is not None:  # the compiled walk finds the same parts over its own memo
        parts = result.bound_parts()
    else:
        marker = _Marker(game, result)
        marker.mark(result.root, result.depth, LOWER)
        marker.mark(result.root, result.depth, UPPER)
        parts = list(marker.needed.values())
    player, opponents, format_state = result.player, result.opponents, game.format_state
    nodes = []
    for node, lower, upper in parts:
        state, remaining = node.state, node.depth
        lower_part = upper_part = None
        if lower:
            lower_part = [[move_label(game, state, player, m), fraction_text(p)]
                          for m, p in zip(node.rows, node.solution.row, strict=True) if p]
        if upper:
            upper_part = [[[move_label(game, state, q, m) for q, m in zip(opponents, c, strict=True)],
                           fraction_text(p)] for c, p in zip(node.columns, node.solution.col, strict=True) if p]
        nodes.append([format_state(state), remaining, fraction_text(node.solution.value), lower_part, upper_part])
    setup = getattr(game, "setup", None)
    return {
        "format": BOUNDPROOF_FORMAT,
        "game": game.name,
        "setup": setup() if callable(setup) else {},
        "start": format_state(result.root),
        "information": "open",
        "player": result.player,
        "opponents": list(result.opponents),
        "label": result.label,
        "payoff": result.payoff,
        "depth": result.depth,
        "value": fraction_text(result.value),
        "certified": result.certified,
        "evaluated_leaves": result.evaluated_leaves,
        "nodes": nodes,
    }


def bound_proof_text(record: dict[str, Any]) -> str:
    """The record as canonical JSON (:func:`~stratagem.core.outputs.dumps_record`), except that each node (and
    each member of a bundle's ``proofs``, recursively) is written on one line: the same JSON value, a
    fraction of the size and of the time to write (the indented encoder is pure Python)."""
    marker = "\x00nodes\x00"

    def lift(rec: dict[str, Any], lines: list[str]) -> dict[str, Any]:
        out = dict(rec)
        if isinstance(rec.get("nodes"), list) and rec.get("format") == BOUNDPROOF_FORMAT:
            lines.append(",\n".join("    " + json.dumps(n, ensure_ascii=False, separators=(",", ":"))
                                    for n in rec["nodes"]))
            out["nodes"] = f"{marker}{len(lines) - 1}"
        if isinstance(rec.get("proofs"), list):
            out["proofs"] = [lift(p, lines) if isinstance(p, dict) else p for p in rec["proofs"]]
        return out

    lines: list[str] = []
    text = dumps_record(lift(record, lines))
    for k, body in enumerate(lines):
        text = text.replace(json.dumps(f"{marker}{k}"), "[\n" + body + "\n  ]" if body else "[]", 1)
    return text


# --- the checker ------------------------------------------------------------------------------


class _Part:
    """One side of a node as read from the record: labels and probabilities, still unchecked."""

    __slots__ = ("place", "moves", "weights", "denominator")

    def __init__(self, place: str, moves: list[Any], weights: list[int], denominator: int) -> None:
        self.place = place
        self.moves = moves  # row labels (str) or column labels (tuple of str)
        self.weights = weights  # numerators over ``denominator``
        self.denominator = denominator


class _Node:
    __slots__ = ("place", "value", "parts", "used", "problem")

    def __init__(self, place: str, value: Fraction, parts: list[_Part | None], problem: str) -> None:
        self.place = place
        self.value = value
        self.parts = parts
        self.used = [False, False]
        self.problem = problem  # why a part is no probability distribution ("" when both are)


class _Checker(Walker):
    def __init__(self, game: AnyGame, player: int, payoff: str, nodes: dict[tuple[str, int | None], _Node],
                 deadline: Deadline | None = None) -> None:
        super().__init__(game, player, payoff)
        self.nodes = nodes
        self.bounds: dict[tuple[Hashable, int | None, int], Bound] = {}
        self.checked = 0
        self.deadline = deadline
        self.positions = 0
        #: when a dict: (state text, turns left, side) -> (rows, columns, cells) of each part checked, as a page
        #: draws it (rows: the player's moves, columns: the opponents' joint moves, cells: the children's bounds)
        self.tables: dict[tuple[str, int | None, int], Any] | None = None

    def tick(self) -> None:
        """One position is about to be bounded: the deadline is looked at every few positions."""
        self.positions += 1
        if self.deadline is not None and self.positions % CLOCK_EVERY == 0 and self.deadline.expired():
            raise CheckStopped(self.positions - 1)

    def bound(self, state: Hashable, remaining: int | None, side: int) -> Bound:
        """A proven ``side`` bound of ``state`` with ``remaining`` turns to solve, or None (no bound)."""
        self.tick()
        game = self.game
        if game.is_terminal(state):
            return self._score(game.returns(state))
        mover = game.to_move(state)
        if mover >= 0:  # a decision: the mover's best, where a missing bound is its infinity
            children = [self.bound(game.apply(state, m), remaining, side) for m in game.legal_moves(state)]
            if not children:
                raise UnsupportedGame(f"{game.name}: player {mover} has no legal move in a non-terminal state")
            known = [c for c in children if c is not None]
            maximise = mover == self.player
            if maximise == (side == LOWER):  # one bounded move is enough
                return (max(known) if maximise else min(known)) if known else None
            if len(known) < len(children):
                return None
            return max(known) if maximise else min(known)
        if mover == SIMULTANEOUS and self._bank is not None and state is not self.start:
            split = self._bank(state)
            if split is not None and split[0] is not state:
                rest, banked = split
                below = self._held(rest, remaining, mover, side)
                return None if below is None else self._score(banked) + below
        return self._held(state, remaining, mover, side)

    def _held(self, state: Hashable, remaining: int | None, mover: int, side: int) -> Bound:
        key = (state, remaining, side)
        if key in self.bounds:
            return self.bounds[key]
        found = self._bound_of(state, remaining, mover, side)
        self.bounds[key] = found
        return found

    def _bound_of(self, state: Hashable, remaining: int | None, mover: int, side: int) -> Bound:
        game = self.game
        if mover == CHANCE:
            total = Fraction(0)
            for outcome, p in game.chance_outcomes(state):
                b = self.bound(game.apply(state, outcome), remaining, side)
                if b is None:
                    return None
                total += p * b
            return _norm(total)
        if mover != SIMULTANEOUS:
            raise UnsupportedGame(f"{game.name}: to_move gave {mover} for a non-terminal position")
        if remaining == 0:
            if not isinstance(game, Evaluation):
                raise UnsupportedGame(f"{game.name} has no evaluate, so a depth limit cannot be used")
            return _scalar(game.evaluate(state), self.player, self.payoff)
        rows, columns = self.options(state)
        if not rows or not columns:
            raise UnsupportedGame(f"{game.name}: a player has no move at a simultaneous node")
        below = None if remaining is None else remaining - 1
        if len(rows) == 1 and len(columns) == 1 and state != self.start:
            return self.bound(self.child(state, rows[0], columns[0]), below, side)
        text = game.format_state(state)
        node = self.nodes.get((text, remaining))
        part = None if node is None else node.parts[side]
        if node is None or part is None:
            return None  # no bound on this side: sound (the parent's check says whether it needed one)
        node.used[side] = True
        self.checked += 1
        where = f"state {text!r}" + ("" if remaining is None else f" at depth {remaining}")
        if side == LOWER:
            mine = [move_label(game, state, self.player, m) for m in rows]
            picked = self._support(part, mine, rows, where)
            lines = [(c, [(w, self.bound(self.child(state, r, c), below, side)) for r, w in picked])
                     for c in columns]
            if self.tables is not None:
                self.tables[(text, remaining, side)] = (
                    [(move_label(game, state, self.player, r), Fraction(w, part.denominator)) for r, w in picked],
                    [(" + ".join(move_label(game, state, q, m) for q, m in zip(self.opponents, c, strict=True)),
                      None) for c in columns],
                    [[terms[i][1] for _, terms in lines] for i in range(len(picked))])
            self._check(node, part, lines, where, lambda c: "reply " + " + ".join(
                move_label(game, state, q, m) for q, m in zip(self.opponents, c, strict=True)))
        else:
            theirs = [tuple(move_label(game, state, q, m) for q, m in zip(self.opponents, c, strict=True))
                      for c in columns]
            picked = self._support(part, theirs, columns, where)
            lines = [(r, [(w, self.bound(self.child(state, r, c), below, side)) for c, w in picked]) for r in rows]
            if self.tables is not None:
                self.tables[(text, remaining, side)] = (
                    [(move_label(game, state, self.player, r), None) for r in rows],
                    [(" + ".join(theirs[columns.index(c)]), Fraction(w, part.denominator)) for c, w in picked],
                    [[b for _, b in terms] for _, terms in lines])
            self._check(node, part, lines, where, lambda r: "move " + move_label(game, state, self.player, r))
        value = node.value
        return value.numerator if value.denominator == 1 else value

    def _support(self, part: _Part, labels: list[Any], moves: tuple[Any, ...], where: str) -> list[tuple[Any, int]]:
        """The part's moves as the engine's legal moves, each with its weight; a label that is no legal
        move here is refused."""
        index = {label: k for k, label in enumerate(labels)}
        picked = []
        for label, weight in zip(part.moves, part.weights, strict=True):
            k = index.get(label)
            if k is None:
                shown = label if isinstance(label, str) else " + ".join(label)
                raise _Rejected(f"{part.place} ({where}): {shown!r} is not a legal move here (legal: "
                                f"{', '.join(x if isinstance(x, str) else ' + '.join(x) for x in labels)})")
            picked.append((moves[k], weight))
        return picked

    def _check(self, node: _Node, part: _Part, lines: list[tuple[Any, list[tuple[int, Bound]]]], where: str,
               name: Any) -> None:
        """Every line (a reply, for a lower part; a move, for an upper part) holds the node's value:
        ``sum w * bound >= value * denominator`` (lower) or ``<=`` (upper), in integers."""
        lower = part is node.parts[LOWER]
        value, d = node.value, part.denominator
        for against, terms in lines:
            missing = [k for k, (_, b) in enumerate(terms) if b is None]
            if missing:
                raise _Rejected(f"{part.place} ({where}): against {name(against)}, a child has no "
                                f"{_SIDE_NAMES[LOWER if lower else UPPER]} bound in the record")
            bounded: list[tuple[int, Exact]] = [(w, b) for w, b in terms if b is not None]
            # scale every bound to one common denominator: ints stay ints
            den = 1
            for _, b in bounded:
                if type(b) is not int:
                    q = Fraction(b).denominator
                    den = den * q // math.gcd(den, q)
            total = 0
            for w, b in bounded:
                if type(b) is int:
                    total += w * b * den
                else:
                    f = Fraction(b)
                    total += w * f.numerator * (den // f.denominator)
            # compare total / (d * den) with value = p / q
            left, right = total * value.denominator, value.numerator * d * den
            if lower and left < right:
                raise _Rejected(f"{part.place} ({where}): against {name(against)} the lower part gets only "
                                f"{Fraction(total, d * den)}, below the value {value}")
            if not lower and left > right:
                raise _Rejected(f"{part.place} ({where}): against {name(against)} the upper part concedes "
                                f"{Fraction(total, d * den)}, above the value {value}")


def check_bound_proof(
    game: AnyGame, root_state: Hashable, proof: dict[str, Any], source: str = "<proof>",
    tables: dict[tuple[str, int | None, int], Any] | None = None, *, deadline: Deadline | None = None,
) -> MatrixProofVerdict:
    """Re-check a ``stratagem/matrixproof@2`` record from the rules engine alone, exactly.

    The start's lower and upper bounds are walked from the rules (see the module docstring) and must
    both equal the claimed value; every node of the record must be reached and each part a probability
    distribution over distinct legal moves, each move with positive probability. A record that does not
    read raises :class:`BadInput`. ``nodes_checked`` counts the parts checked. ``tables``, when a dict, receives
    each part checked as a page draws it (``_Checker.tables``), up to the first problem. A ``deadline`` that
    passes before the start is bounded raises :class:`CheckStopped` (the walk is not bounded by the record:
    see the module docstring).
    """
    player, payoff, depth, claimed = _read_header(game, proof, source)
    nodes = _read_nodes(proof, source)
    setup = getattr(game, "setup", None)
    if callable(setup) and proof.get("setup") != json.loads(json.dumps(setup())):
        return MatrixProofVerdict(False, f"setup {proof.get('setup')!r} is not the game's options", 0)
    if proof.get("start") != game.format_state(root_state):
        return MatrixProofVerdict(False, f"start {proof.get('start')!r} is not the given position", 0)
    if proof.get("opponents") != list(opponents_of(game, player)):
        return MatrixProofVerdict(False, f"opponents {proof.get('opponents')!r} are not every other player", 0)
    if proof.get("label") != analysis_label(game):
        return MatrixProofVerdict(False, f"label {proof.get('label')!r} should be {analysis_label(game)!r}", 0)
    checker = _Checker(game, player, payoff, nodes, deadline)
    checker.start = root_state
    checker.tables = tables
    try:
        for node in nodes.values():  # a part must be a probability distribution, whether used or not
            if node.problem:
                raise _Rejected(f"{node.problem} (a strategy must be a probability distribution)")
        for side in (LOWER, UPPER):
            bound = checker.bound(root_state, depth, side)
            if bound is None:
                raise _Rejected(f"the record gives no {_SIDE_NAMES[side]} bound of the start")
            if bound != claimed:
                raise _Rejected(f"the start's proven {_SIDE_NAMES[side]} bound is {bound}, the proof claims {claimed}")
        for node in nodes.values():
            for side in (LOWER, UPPER):
                if node.parts[side] is not None and not node.used[side]:
                    raise _Rejected(f"{node.place}: its {_SIDE_NAMES[side]} part is not needed from the start")
    except _Rejected as exc:
        return MatrixProofVerdict(False, str(exc), checker.checked)
    return MatrixProofVerdict(True, "", checker.checked)


def _read_header(game: AnyGame, proof: Any, source: str) -> tuple[int, str, int | None, Fraction]:
    if not isinstance(proof, dict):
        raise BadInput(source, "", "a matrix proof must be a JSON object")
    if proof.get("format") != BOUNDPROOF_FORMAT:
        raise BadInput(source, "format", f"expected {BOUNDPROOF_FORMAT!r}, found {proof.get('format')!r}")
    if proof.get("game") != game.name:
        raise BadInput(source, "game", f"the proof is for {proof.get('game')!r}, not {game.name!r}")
    player = proof.get("player")
    if not is_whole(player, 0, game.num_players - 1):
        raise BadInput(source, "player", f"not a player of a {game.num_players}-player game: {player!r}")
    payoff = proof.get("payoff")
    if payoff not in PAYOFFS:
        raise BadInput(source, "payoff", f"must be one of {', '.join(PAYOFFS)}, found {payoff!r}")
    depth = proof.get("depth")
    if depth is not None and not is_whole(depth, 0):
        raise BadInput(source, "depth", f"must be null or a non-negative integer, found {depth!r}")
    return player, str(payoff), depth, parse_fraction(proof.get("value"), source, "value")


def _read_nodes(proof: dict[str, Any], source: str) -> dict[tuple[str, int | None], _Node]:
    raw = proof.get("nodes")
    if not isinstance(raw, list):
        raise BadInput(source, "nodes", "missing or not a list")
    nodes: dict[tuple[str, int | None], _Node] = {}
    known: dict[str, Fraction] = {}  # each distinct text parsed once

    def fraction(text: Any, place: str) -> Fraction:
        found = known.get(text) if type(text) is str else None
        if found is None:
            found = parse_fraction(text, source, place)
            known[text] = found
        return found

    for k, entry in enumerate(raw):
        place = f"nodes[{k}]"
        if not isinstance(entry, list) or len(entry) != 5:
            raise BadInput(source, place, "a node must be [state, depth, value, lower part, upper part]")
        state, depth, value_text, *parts = entry
        if not isinstance(state, str):
            raise BadInput(source, f"{place}[0]", "the state must be a string")
        if depth is not None and not is_whole(depth):
            raise BadInput(source, f"{place}[1]", "the depth must be null or an integer")
        value = fraction(value_text, f"{place}[2]")
        read: list[_Part | None] = []
        problem = ""
        for side, items in enumerate(parts):
            where = f"{place}[{3 + side}]"
            if items is None:
                read.append(None)
                continue
            if not isinstance(items, list) or not items:
                raise BadInput(source, where, "a part must be null or a non-empty list of [move, probability]")
            moves: list[Any] = []
            probabilities = []
            for i, item in enumerate(items):
                if not isinstance(item, list) or len(item) != 2:
                    raise BadInput(source, f"{where}[{i}]", "must be [move, probability]")
                move, p = item
                if side == LOWER and not isinstance(move, str):
                    raise BadInput(source, f"{where}[{i}][0]", "the player's move must be a string")
                if side == UPPER:
                    if not isinstance(move, list) or not all(isinstance(m, str) for m in move):
                        raise BadInput(source, f"{where}[{i}][0]", "the opponents' move must be a list of strings")
                    move = tuple(move)
                moves.append(move)
                probabilities.append(fraction(p, f"{where}[{i}][1]"))
            if not problem and len(set(moves)) != len(moves):
                problem = f"{where}: a move is listed twice"
            if not problem and any(p <= 0 for p in probabilities):
                problem = f"{where}: a listed move has a probability that is not positive"
            if not problem and sum(probabilities) != 1:
                problem = f"{where}: the probabilities sum to {sum(probabilities)}, not 1"
            d = 1
            for p in probabilities:
                d = d * p.denominator // math.gcd(d, p.denominator)
            read.append(_Part(where, moves, [p.numerator * (d // p.denominator) for p in probabilities], d))
        if (state, depth) in nodes:
            raise BadInput(source, place, f"a second node for state {state!r} at depth {depth!r}")
        if read[LOWER] is None and read[UPPER] is None:
            raise BadInput(source, place, "a node must have a lower part, an upper part or both")
        nodes[(state, depth)] = _Node(place, value, read, problem)
    return nodes

