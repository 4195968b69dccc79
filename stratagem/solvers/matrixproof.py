"""The certificate of a simultaneous-move result: a ``stratagem/matrixproof@1`` record and its check.

:func:`matrix_proof` writes what :func:`~stratagem.solvers.simultaneous.solve_simultaneous` found:
every simultaneous node's moves (in the game's notation), rational strategies for both sides and its
value (a node where every player has one move is worth its only child and has no entry, as in the
solver; below the start, a :class:`~stratagem.solvers.simultaneous.Banked` game's nodes are its
positions with nothing banked). A pure saddle point is written as two pure strategies; checking them
is checking the saddle. :func:`check_matrix_proof` re-checks such a record from the rules engine
alone: it walks the game from the start as the solver did (the same
:class:`~stratagem.solvers.simultaneous.Walker`), rebuilds each matrix by applying the joint moves,
and re-checks each node's equilibrium exactly, trusting nothing from the solver but the claimed
values it verifies. The record's fields are in docs/formats.md.

The check's work is not bounded by the record: each node's matrix has a cell for every row and every joint
column, so the work is the product of the lists the record gives, not their sum (one node at a five-player
start lists 10 rows and 10,000 columns, and obliges 100,000 children). So the check takes a deadline, as
:func:`~stratagem.solvers.boundproof.check_bound_proof` does, and raises the same :class:`CheckStopped`
when it passes (:class:`TimedWalker`, which a page that rebuilds the matrices walks with too). The exception
lives here, below both checkers (boundproof imports this module), and boundproof gives it out as its own.

The module knows nothing about any particular game.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput
from stratagem.core.numbers import is_whole
from stratagem.core.records import fraction_text, parse_fraction
from stratagem.solvers.matrix import equilibrium_problem
from stratagem.solvers.simultaneous import (
    CLOCK_EVERY,
    PAYOFFS,
    AnyGame,
    Exact,
    SimultaneousResult,
    Walker,
    analysis_label,
    opponents_of,
)

__all__ = [
    "MATRIXPROOF_FORMAT",
    "CheckStopped",
    "MatrixProofVerdict",
    "TimedWalker",
    "check_matrix_proof",
    "fraction_text",
    "matrix_proof",
    "move_label",
    "parse_fraction",
]

MATRIXPROOF_FORMAT = "stratagem/matrixproof@1"
#: A bundle of matrix proofs of one position, one per player (3+ players, each against the others).
MATRIXPROOFS_FORMAT = "stratagem/matrixproofs@1"


@dataclass(frozen=True)
class MatrixProofVerdict:
    """Outcome of :func:`check_matrix_proof`: ``valid``, or the first ``reason`` it is not."""

    valid: bool
    reason: str
    nodes_checked: int



def move_label(game: AnyGame, state: Hashable, player: int, move: Any) -> str:
    """A player's move at a simultaneous node in the game's notation."""
    formatter = getattr(game, "format_player_move", None)
    if callable(formatter):
        return str(formatter(state, player, move))
    return game.format_move(state, move)


def matrix_proof(game: AnyGame, result: SimultaneousResult) -> dict[str, Any]:
    """The ``stratagem/matrixproof@1`` record of ``result`` (root first, then the rest)."""
    setup = getattr(game, "setup", None)
    nodes = []
    player, opponents, format_state = result.player, result.opponents, game.format_state
    formatter = getattr(game, "format_player_move", None)
    if callable(formatter):
        def label(state: Hashable, q: int, move: Any) -> str:
            return str(formatter(state, q, move))
    else:
        format_move = game.format_move

        def label(state: Hashable, q: int, move: Any) -> str:
            return format_move(state, move)

    for node in reversed(result.nodes):
        state = node.state
        solution = node.solution
        nodes.append(
            {
                "state": format_state(state),
                "depth": node.depth,
                "value": fraction_text(solution.value),
                "certified": solution.certified,
                "rows": [label(state, player, m) for m in node.rows],
                "columns": [[label(state, q, m) for q, m in zip(opponents, column, strict=True)]
                            for column in node.columns],
                "row_strategy": [f"{p.numerator}/{p.denominator}" for p in solution.row],
                "column_strategy": [f"{p.numerator}/{p.denominator}" for p in solution.col],
            }
        )
    return {
        "format": MATRIXPROOF_FORMAT,
        "game": game.name,
        "setup": setup() if callable(setup) else {},
        "start": game.format_state(result.root),
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


@dataclass(frozen=True)
class _ProofNode:
    place: str
    value: Fraction
    rows: list[str]
    columns: list[list[str]]
    row_strategy: list[Fraction]
    column_strategy: list[Fraction]


class _Rejected(Exception):
    """A proof that reads well but does not prove its claim."""


class CheckStopped(Exception):
    """The deadline passed before a certificate's check (:func:`check_matrix_proof`,
    :func:`~stratagem.solvers.boundproof.check_bound_proof`) valued or bounded the start: the record is neither
    proven nor refuted. ``positions`` counts the positions valued or bounded so far."""

    def __init__(self, positions: int) -> None:
        super().__init__(f"the check was stopped after bounding {positions:,} positions")
        self.positions = positions


class TimedWalker(Walker):
    """A :class:`~stratagem.solvers.simultaneous.Walker` that a ``deadline`` stops: it counts the positions
    it values (``positions``) and looks at the clock every few of them, raising :class:`CheckStopped` once
    the deadline has passed. The checker of a
    ``matrixproof@1`` record walks with it, and so does a page that rebuilds the record's matrices, since
    neither walk is bounded by the record (see the module docstring)."""

    def __init__(self, game: AnyGame, player: int, payoff: str, deadline: Deadline | None = None) -> None:
        super().__init__(game, player, payoff)
        self.deadline = deadline
        self.positions = 0

    def tick(self) -> None:
        """One position is about to be valued: the deadline is looked at every few positions."""
        self.positions += 1
        if self.deadline is not None and self.positions % CLOCK_EVERY == 0 and self.deadline.expired():
            raise CheckStopped(self.positions - 1)


class _Checker(TimedWalker):
    def __init__(self, game: AnyGame, player: int, payoff: str, nodes: dict[tuple[str, int | None], _ProofNode],
                 deadline: Deadline | None = None) -> None:
        super().__init__(game, player, payoff, deadline)
        self.nodes = nodes
        self.used: set[tuple[str, int | None]] = set()

    def simultaneous(self, state: Hashable, remaining: int | None, rows: tuple[Any, ...],
                     columns: tuple[tuple[Any, ...], ...]) -> Exact:
        text = self.game.format_state(state)
        key = (text, remaining)
        node = self.nodes.get(key)
        where = f"state {text!r}" + ("" if remaining is None else f" at depth {remaining}")
        if node is None:
            raise _Rejected(f"no node for {where}, which the start reaches")
        self.used.add(key)
        game = self.game
        row_labels = [move_label(game, state, self.player, m) for m in rows]
        column_labels = [
            [move_label(game, state, q, m) for q, m in zip(self.opponents, c, strict=True)] for c in columns
        ]
        if node.rows != row_labels:
            raise _Rejected(f"{node.place}: rows {node.rows} are not player {self.player}'s moves {row_labels}")
        if node.columns != column_labels:
            raise _Rejected(f"{node.place}: columns {node.columns} are not the opponents' joint moves {column_labels}")
        matrix = self.matrix(state, remaining, rows, columns)
        problem = equilibrium_problem(matrix, node.row_strategy, node.column_strategy, node.value)
        if problem is not None:
            raise _Rejected(f"{node.place} ({where}): {problem}")
        value = node.value
        return value.numerator if value.denominator == 1 else value


def check_matrix_proof(
    game: AnyGame, root_state: Hashable, proof: dict[str, Any], source: str = "<proof>", *,
    deadline: Deadline | None = None,
) -> MatrixProofVerdict:
    """Re-check a ``stratagem/matrixproof@1`` record from the rules engine alone, exactly.

    Walks the game from ``root_state`` as the solver did; at every simultaneous node it finds the
    proof's node by the state's notation, compares the move labels with the engine's moves, rebuilds
    the matrix (children values: terminals, chance expectations, decision max/min, ``evaluate`` at
    the depth limit, and the proof's own values for deeper simultaneous nodes, each checked in turn)
    and checks the node's strategies and value exactly. Rejects a setup other than the game's
    options, another start, a missing node, a node the start does not reach, a wrong label (an
    illegal move), a wrong strategy and a wrong value. A record that does
    not read (wrong format, missing or mistyped field, a number that is not ``"p/q"``) raises
    :class:`BadInput` instead. A ``deadline`` that passes before the start is valued raises
    :class:`CheckStopped` (the walk is not bounded by the record: see the module docstring).
    """
    header = _read_header(game, proof, source)
    player, payoff, depth, claimed = header
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
    try:
        value = checker.value(root_state, depth)
        if value != claimed:
            raise _Rejected(f"the start's value is {value}, the proof claims {claimed}")
        unused = [key for key in nodes if key not in checker.used]
        if unused:
            raise _Rejected(f"{nodes[unused[0]].place} is not reached from the start")
    except _Rejected as exc:
        return MatrixProofVerdict(False, str(exc), len(checker.used))
    return MatrixProofVerdict(True, "", len(checker.used))


def _read_header(game: AnyGame, proof: Any, source: str) -> tuple[int, str, int | None, Fraction]:
    if not isinstance(proof, dict):
        raise BadInput(source, "", "a matrix proof must be a JSON object")
    if proof.get("format") != MATRIXPROOF_FORMAT:
        raise BadInput(source, "format", f"expected {MATRIXPROOF_FORMAT!r}, found {proof.get('format')!r}")
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


def _read_nodes(proof: dict[str, Any], source: str) -> dict[tuple[str, int | None], _ProofNode]:
    raw = proof.get("nodes")
    if not isinstance(raw, list):
        raise BadInput(source, "nodes", "missing or not a list")
    nodes: dict[tuple[str, int | None], _ProofNode] = {}
    known: dict[str, Fraction] = {}  # each distinct text parsed once ("0/1" and "1/1" are most of them)

    def fraction(text: Any, place: str) -> Fraction:
        found = known.get(text) if type(text) is str else None
        if found is None:
            found = parse_fraction(text, source, place)
            known[text] = found
        return found

    for k, entry in enumerate(raw):
        place = f"nodes[{k}]"
        if not isinstance(entry, dict):
            raise BadInput(source, place, "a node must be an object")
        state, depth = entry.get("state"), entry.get("depth")
        if not isinstance(state, str):
            raise BadInput(source, f"{place}.state", "missing or not a string")
        if depth is not None and not is_whole(depth):
            raise BadInput(source, f"{place}.depth", "must be null or an integer")
        rows, columns = entry.get("rows"), entry.get("columns")
        if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
            raise BadInput(source, f"{place}.rows", "must be a list of move strings")
        if not isinstance(columns, list) or not all(
            isinstance(c, list) and all(isinstance(m, str) for m in c) for c in columns
        ):
            raise BadInput(source, f"{place}.columns", "must be a list of lists of move strings")
        strategies = []
        for key in ("row_strategy", "column_strategy"):
            items = entry.get(key)
            if not isinstance(items, list):
                raise BadInput(source, f"{place}.{key}", "missing or not a list")
            strategies.append([fraction(p, f"{place}.{key}[{i}]") for i, p in enumerate(items)])
        if (state, depth) in nodes:
            raise BadInput(source, place, f"a second node for state {state!r} at depth {depth!r}")
        value = fraction(entry.get("value"), f"{place}.value")
        nodes[(state, depth)] = _ProofNode(place, value, rows, columns, strategies[0], strategies[1])
    return nodes
