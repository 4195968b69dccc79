"""The solo question: can every piece in hand be placed? Answered with a witness or a checked proof.

:func:`solve_solo` builds the model of :mod:`.sat` (how it encodes the rules and why that is
equivalent to them is explained there) and solves it:

* ``method="cpsat"``: CP-SAT (:mod:`.cpsat`). Feasible: a witness. Infeasible: "CP-SAT says
  INFEASIBLE, no certificate" (evidence kind ``cpsat-infeasible``).
* ``method="sat"``: the CNF with CaDiCaL 1.9.5 (PySAT's ``cadical195``) producing a DRUP proof.
  Unsatisfiable: the refutation is checked by the project's own checker
  (:func:`stratagem.solvers.drup.check_drup`) before it is reported (evidence kind
  ``drup-refutation``, with the CNF and proof text for a record).

Either way a satisfying assignment is decoded into the finished structure, turned into a placement
order by :func:`placement_order` and **replayed through the rules engine**; only a line the engine
accepts move by move and that ends with every piece placed is reported. Anything else raises
:class:`~.sat.EncodingError` -- a model bug never becomes an answer.

The result is plain data for a ``stratagem/proof@1`` record: ``claim = {"winnable": bool}``, the
line in the engine's move notation, and ``evidence``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from stratagem.core.deadline import Deadline, as_deadline
from stratagem.core.errors import IllegalMove
from stratagem.core.frozen import freeze
from stratagem.core.records import Line, Proof
from stratagem.models.stakd.geometry import Geometry, Placement
from stratagem.models.stakd.notation import format_move
from stratagem.models.stakd.pieces import BOMBER, UNI
from stratagem.models.stakd.position import Move, State
from stratagem.models.stakd.rules import StakdGame
from stratagem.models.stakd.sat import ENCODING, STARTERS, BuildStopped, EncodingError, SoloCNF, Structure
from stratagem.solvers.dimacs import DimacsStopped, parse_drup, write_dimacs
from stratagem.solvers.drup import check_drup
from stratagem.solvers.satplan import SOLVER, solve_cnf

__all__ = ["SOLVER", "SoloAnswer", "placement_order", "replay", "solve_solo", "verify_refutation"]


@dataclass(frozen=True)
class SoloAnswer:
    """The answer to the solo question from one position.

    ``winnable`` is ``None`` when the time limit stopped the solver. ``moves`` is the replayed
    placement line (move texts) when winnable. ``evidence`` is plain JSON data: ``kind`` is
    ``"witness"``, ``"drup-refutation"`` or ``"cpsat-infeasible"`` (or ``"unknown"``), with the
    method, encoding, model size and times. ``cnf``/``proof`` hold the refuted formula (DIMACS text)
    and its DRUP proof lines for a ``drup-refutation``, to be written beside a record.

    Two answers are equal (``==``, ``hash``) when they answer alike: ``seconds`` and the evidence's timings
    (its ``*_seconds`` keys) are left out, so two runs that found the same are equal.
    """

    winnable: bool | None
    moves: tuple[str, ...] | None
    evidence: dict[str, Any]
    seconds: float
    cnf: str | None = field(default=None, repr=False)
    proof: tuple[str, ...] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        """The evidence read-only (:func:`~stratagem.core.frozen.freeze`): an answer is a value that hashes,
        and a caller's edit of its dict changed the answer it compared and hashed as."""
        object.__setattr__(self, "evidence", freeze(self.evidence))

    def _answer(self) -> tuple[Any, ...]:
        """What ``==`` and ``hash`` compare: everything but the timings."""
        timeless = frozenset((k, v) for k, v in self.evidence.items() if not k.endswith("seconds"))
        return (self.winnable, self.moves, timeless, self.cnf, self.proof)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SoloAnswer):
            return NotImplemented
        return self._answer() == other._answer()

    def __hash__(self) -> int:
        return hash(self._answer())

    def claim(self) -> dict[str, Any]:
        return {"winnable": self.winnable}

    def to_proof(self, game: StakdGame, start: State | None = None) -> Proof:
        """The answer as a ``stratagem/proof@1`` record (the line is empty when not winnable)."""
        state = game.initial_state() if start is None else start
        result = "won" if self.winnable else ""
        line = Line(game.name, game.setup(), game.format_state(state), self.moves or (), result)
        return Proof(game.name, self.claim(), line, dict(self.evidence))


# -- from a finished structure to a legal placement order ---------------------------------------------


def _touches(a: Placement, b: Placement) -> bool:
    return bool(a.halo & b.mask)


def _bfs(order: list[Placement], pool: Sequence[Placement]) -> list[Placement]:
    """Extend ``order`` by the pieces of ``pool`` reachable from it, breadth-first (each touches an earlier one)."""
    placed = list(order)
    rest = [p for p in pool if p not in placed]
    grown = True
    while grown:
        grown = False
        for p in list(rest):
            if any(_touches(p, q) for q in placed):
                placed.append(p)
                rest.remove(p)
                grown = True
    return placed


def placement_order(geometry: Geometry, state: State, structure: Structure) -> list[Move]:
    """A placement order that builds ``structure`` from ``state``, as the :mod:`.sat` docstring argues.

    Bases breadth-first from the first one over pairs touching at >= 2 nodes; each later layer from a
    piece that may start it (not a Bomber; a Uni only if no Quad/Trio/Duo is left for this layer or
    above) -- or from the pieces already on it -- then its component without the Bomber breadth-first,
    the Bomber, then the rest breadth-first. Raises :class:`EncodingError` if the structure admits no
    such order (the model is wrong then).
    """
    moves: list[Move] = []
    layers = structure.layers
    for k, layer in enumerate(layers):
        pieces = state.layers[k] if k < len(state.layers) else ()
        old = [p for p in (geometry.placement(q.kind, q.anchor, q.orient) for q in pieces) if p is not None]
        new = [p for p in layer if p not in old]
        if not new:
            continue
        if k == 0:
            # A game's first Base goes at the canonical place; a hand-written position's Bases may lie
            # anywhere, and its later Bases are ordered from them (once, any Base layer of a partly built
            # position without a Base at the canonical place raised here, and check died).
            if not old and geometry.first_base not in layer:
                raise EncodingError("the Base layer does not hold the first Base at its canonical place")
            order = list(old) if old else [geometry.first_base]
            rest = [p for p in new if p not in order]
            while rest:
                nxt = next((p for p in rest if any(geometry.contacts(p.mask, q.mask) >= 2 for q in order)), None)
                if nxt is None:
                    raise EncodingError("the Base layer is not connected by two-node contacts")
                order.append(nxt)
                rest.remove(nxt)
        else:
            order = _layer_order(geometry, layers, k, old, new)
        moves.extend(Move(p.kind, p.anchor, p.orient, k) for p in order if p not in old)
    return moves


def _layer_order(geometry: Geometry, layers: Sequence[Sequence[Placement]], k: int,
                 old: list[Placement], new: list[Placement]) -> list[Placement]:
    layer = old + new
    bombers = [p for p in new if p.kind == BOMBER]
    bomber = bombers[0] if bombers else None
    if len(bombers) > 1:
        raise EncodingError(f"layer {k} has {len(bombers)} Bombers")
    under = [q for q in layers[k - 1] if bomber is not None and q.mask & bomber.mask]
    resting = [p for p in layer if p is not bomber and under and p.mask & under[0].mask]
    without = [p for p in layer if p is not bomber]
    if old:
        starts = [old]
    else:
        starters_left = any(p.kind in STARTERS for lay in layers[k:] for p in lay)
        allowed = [p for p in without if p.kind in STARTERS or (p.kind == UNI and not starters_left)]
        starts = [[p] for p in allowed]
    for start in starts:
        component = _bfs(list(start), without)
        if all(p in component for p in resting):
            order = component + ([bomber] if bomber is not None else [])
            order = _bfs(order, layer)
            if len(order) != len(layer):
                raise EncodingError(f"layer {k} is not connected")
            return order
    raise EncodingError(f"layer {k} has no allowed first piece from which the Bomber's piece is covered first")


def replay(game: StakdGame, state: State, moves: Sequence[Move]) -> tuple[str, ...]:
    """Play ``moves`` through the engine; their texts, or :class:`EncodingError` if any is refused or
    the line does not end with every piece placed."""
    texts = []
    current = state
    for i, move in enumerate(moves):
        text = format_move(move)
        try:
            current = game.apply(current, game.parse_move(current, text))
        except IllegalMove as error:
            raise EncodingError(f"decoded move {i + 1} ({text}) is refused by the rules engine: {error}") from error
        texts.append(text)
    if any(current.hands[0]) or not game.is_terminal(current) or game.returns(current) != (1.0,):
        raise EncodingError("the decoded line does not place every piece")
    return tuple(texts)


# -- the driver ---------------------------------------------------------------------------------------

# -- the solo question ---------------------------------------------------------------------------------------


def _size(model: SoloCNF) -> dict[str, Any]:
    return {"layers": model.top_layer + 1, "base_layouts": len(model.layouts), "nodes": len(model.nodes)}


def _witness(game: StakdGame, state: State, model: SoloCNF, assignment: Sequence[int]) -> tuple[str, ...]:
    structure = model.decode(assignment)
    return replay(game, state, placement_order(game.geometry, state, structure))


def _unknown_while_building(evidence: dict[str, Any], started: float) -> SoloAnswer:
    """The answer when the time limit passed while the model was built: unknown, nothing claimed."""
    return SoloAnswer(None, None, {**evidence, "kind": "unknown", "note": "stopped building the model"},
                      time.perf_counter() - started)


def solve_solo(
    game: StakdGame,
    state: State | None = None,
    *,
    method: str = "cpsat",
    time_limit: float | Deadline | None = None,
    symmetry: bool = True,
    workers: int = 1,
    check: bool = True,
    report: Callable[[int, int], None] | None = None,
) -> SoloAnswer:
    """Can every piece in hand be placed from ``state`` (default: the game's start)? See the module doc.

    ``check=False`` skips the DRUP check of a refutation (the evidence then says it is unchecked).
    ``report(conflicts, proof_lines)`` is told what CaDiCaL has done (``sat`` only) as it goes, for a
    progress display: a large puzzle's solver runs for minutes.
    ``time_limit`` (seconds, or a :class:`Deadline` already running, as ``solve`` takes) bounds the whole
    call, building the model and checking a refutation included: what the time limit stops is answered
    ``None`` (unknown).
    """
    if method not in ("cpsat", "sat"):
        raise ValueError(f"method must be 'cpsat' or 'sat', not {method!r}")
    started = time.perf_counter()
    deadline = as_deadline(time_limit)
    start = game.initial_state() if state is None else state
    if not any(start.hands[0]):
        return SoloAnswer(True, (), {"kind": "witness", "method": "none", "note": "nothing in hand"},
                          time.perf_counter() - started)
    if start.is_over():
        # The engine already marked the player out: no play is left, so pieces stay in hand.
        return SoloAnswer(False, None, {"kind": "terminal", "note": "play is over with pieces in hand"},
                          time.perf_counter() - started)
    evidence: dict[str, Any] = {"encoding": ENCODING, "method": method, "symmetry": symmetry}
    if method == "cpsat":
        if deadline.expired():
            # not even OR-Tools' import (0.4 s quiet, more under load; nothing can stop it once begun)
            # fits: a limit spent before the solver began ran over by that much
            return _unknown_while_building(evidence, started)
        # imported here: OR-Tools (with pandas) takes a second or more to load, out of the time limit
        from stratagem.models.stakd.cpsat import SoloCPSAT

        t0 = time.perf_counter()
        try:
            cp = SoloCPSAT(game, start, symmetry, deadline=deadline)
        except BuildStopped:
            return _unknown_while_building(evidence, started)
        evidence.update(_size(cp), constraints=cp.constraints, build_seconds=round(time.perf_counter() - t0, 3))
        t1 = time.perf_counter()
        left = deadline.remaining()
        sat, assignment = (None, None) if left is not None and left <= 0 else cp.solve_cpsat(left, workers=workers)
        evidence["solve_seconds"] = round(time.perf_counter() - t1, 3)
        if sat is None:
            evidence["kind"] = "unknown"
            return SoloAnswer(None, None, evidence, time.perf_counter() - started)
        if not sat:
            evidence["kind"] = "cpsat-infeasible"
            evidence["note"] = "CP-SAT says INFEASIBLE, no certificate"
            return SoloAnswer(False, None, evidence, time.perf_counter() - started)
        assert assignment is not None
        moves = _witness(game, start, cp, assignment)
        evidence["kind"] = "witness"
        evidence["replayed"] = True
        return SoloAnswer(True, moves, evidence, time.perf_counter() - started)
    t0 = time.perf_counter()
    try:
        cnf = SoloCNF(game, start, symmetry, deadline=deadline)
    except BuildStopped:
        return _unknown_while_building(evidence, started)
    evidence.update(_size(cnf), variables=cnf.num_vars, clauses=len(cnf.clauses),
                    build_seconds=round(time.perf_counter() - t0, 3), solver=SOLVER)
    t1 = time.perf_counter()
    shown = None if report is None else (lambda conflicts, lines: report(conflicts, lines or 0))
    answer = solve_cnf(cnf.clauses, deadline.remaining(), shown)
    evidence["solve_seconds"] = round(time.perf_counter() - t1, 3)
    if answer is None:
        evidence["kind"] = "unknown"
        return SoloAnswer(None, None, evidence, time.perf_counter() - started)
    sat_answer, model, proof = answer
    if sat_answer:
        assert model is not None
        moves = _witness(game, start, cnf, model)
        evidence["kind"] = "witness"
        evidence["replayed"] = True
        return SoloAnswer(True, moves, evidence, time.perf_counter() - started)
    assert proof is not None
    evidence["kind"] = "drup-refutation"
    evidence["proof_lines"] = len(proof)
    try:  # millions of clauses take seconds to write: the limit covers it too
        text = write_dimacs(cnf.clauses, cnf.num_vars, cnf.comments, stop=deadline.expired)
    except DimacsStopped:
        evidence.update(kind="unknown", note="the time limit passed while the refuted CNF was written out")
        return SoloAnswer(None, None, evidence, time.perf_counter() - started)
    if check:
        t2 = time.perf_counter()
        verdict = check_drup(cnf.clauses, parse_drup(proof.data, "cadical proof"), time_limit=deadline.remaining())
        evidence["check_seconds"] = round(time.perf_counter() - t2, 3)
        if verdict.stopped:  # a refutation not checked in time proves nothing here
            evidence.update(kind="unknown", note=f"CaDiCaL's refutation was not checked: {verdict.reason}")
            return SoloAnswer(None, None, evidence, time.perf_counter() - started)
        if not verdict.valid:
            raise EncodingError(f"the solver's refutation does not check: {verdict.reason}")
        evidence["checked"] = "stratagem.solvers.drup.check_drup"
        evidence["checked_lemmas"] = verdict.checked_lemmas
    else:
        evidence["checked"] = False
    return SoloAnswer(False, None, evidence, time.perf_counter() - started, cnf=text, proof=tuple(proof))


def verify_refutation(
    game: StakdGame, state: State | None, proof: Sequence[str] | str, *, symmetry: bool = True,
    cnf_text: str | None = None,
) -> tuple[bool, str]:
    """Re-check a ``drup-refutation`` of the solo question: ``(valid, reason)``.

    The CNF is rebuilt from the rules (:class:`~.sat.SoloCNF` of ``state`` with ``symmetry``), never
    taken on trust; a stored ``cnf_text`` must equal the rebuilt DIMACS text. The proof (PySAT's lines
    or DRUP text) is then checked by :func:`stratagem.solvers.drup.check_drup`.
    """
    start = game.initial_state() if state is None else state
    cnf = SoloCNF(game, start, symmetry)
    if cnf_text is not None and cnf_text != write_dimacs(cnf.clauses, cnf.num_vars, cnf.comments):
        return False, f"the stored CNF is not the {ENCODING} formula of this position"
    verdict = check_drup(cnf.clauses, parse_drup(proof, "proof"))
    return verdict.valid, verdict.reason
