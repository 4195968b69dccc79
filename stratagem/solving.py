"""Solving a Strato deal in one call: the shortest winning line, how its optimality is known, a proof record.

:func:`solve` takes a puzzle file (or a loaded puzzle, a dealt :class:`~stratagem.loading.StratoDeal`,
a bare :class:`~stratagem.models.strato.rules.turns.StratoGame`, a Strato
:class:`~stratagem.loading.Position` from :func:`~stratagem.loading.from_notation`) and a deal, runs the pipeline of
:mod:`stratagem.models.strato.solve` (relaxation bound and guided line, searches, SAT with checked
refutations) and returns a :class:`DealSolution`: the line, the claim a proof record of it makes, the
evidence, the statistics, the ``stratagem/solve@1`` report (:meth:`DealSolution.to_json`, what
``stratagem solve --json`` prints) and the proof record (:meth:`DealSolution.write_proof`, what
``--proof`` writes, which :func:`stratagem.verification.verify` checks).

STAKD solo puzzles ("can every piece be placed?") are answered by :func:`stratagem.checking.check`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stratagem.core.callcaches import scoped
from stratagem.core.deadline import Deadline, as_deadline, check_run_limits
from stratagem.core.errors import BadArgument
from stratagem.core.frozen import freeze, thaw
from stratagem.core.progress import ProgressFactory, no_progress
from stratagem.core.provenance import provenance as make_provenance
from stratagem.core.records import SOLVE_FORMAT, Line
from stratagem.core.words import plural
from stratagem.loading import Position, StratoDeal, as_deal
from stratagem.models.strato.rules.notation import Move, format_move
from stratagem.models.strato.rules.position import State, format_state
from stratagem.models.strato.rules.puzzle import Puzzle
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.solve import METHODS, Solution, refutation_files, write_proof
from stratagem.models.strato.solve import solve as solve_game
from stratagem.solvers.search import SOLVED, UNSOLVABLE


@dataclass(frozen=True)
class DealSolution:
    """The answer for one Strato deal: the deal and what the solver found (``result``).

    ``status`` is ``solved`` (``moves`` is a shortest line, ``optimality`` says how that is known),
    ``unsolvable`` (no winning line exists), or ``unknown`` (a limit stopped the work; ``moves`` is the
    best line found, if any, not claimed shortest). ``evidence`` is the proof record's evidence: its
    ``certificate`` is true only for what :func:`stratagem.verification.verify` re-checks independently
    (a relaxation bound, a DRUP refutation).

    Two solutions are equal (``==``, ``hash``) when their deal and answer are: the effort (``stats``:
    nodes, seconds) is left out, so two runs that found the same answer are equal.
    """

    deal: StratoDeal
    result: Solution

    def __post_init__(self) -> None:
        """The answer's plain data read-only (:func:`~stratagem.core.frozen.freeze`): the solver is done with
        it, and ``solution.result.stats["seconds"] = 0`` or an edit of its evidence changed a value that was
        to be the same however it was used afterwards (the ``evidence`` and ``stats`` properties give
        editable copies)."""
        result = self.result
        result.stats = freeze(result.stats)
        result.evidence = freeze(result.evidence)
        result.best_line = freeze(result.best_line)
        result.bound_evidence = freeze(result.bound_evidence)

    @property
    def status(self) -> str:
        """``solved``, ``unsolvable`` or ``unknown`` (a limit stopped the work: nothing is claimed shortest)."""
        return self.result.status

    @property
    def optimal(self) -> bool:
        """The line is proven shortest (by a certificate or an exhaustive search, named in ``optimality``)."""
        return self.result.status == SOLVED

    @property
    def moves(self) -> tuple[Move, ...]:
        """The line found (the shortest when ``status`` is ``solved``; empty when none was found)."""
        return self.result.moves

    @property
    def line_text(self) -> tuple[str, ...]:
        """The moves in Strato notation (docs/formats.md)."""
        return tuple(format_move(m) for m in self.result.moves)

    @property
    def optimality(self) -> str:
        """How the answer is known, in words that claim no more than was proven."""
        return self.result.optimality

    @property
    def lower_bound(self) -> int:
        """A proven lower bound on the length of any winning line."""
        return self.result.lower_bound

    @property
    def evidence(self) -> dict[str, Any]:
        """A copy: the answer is a value, and a caller's edit of what it was handed must not reach its record."""
        copied: dict[str, Any] = thaw(self.result.evidence)
        return copied

    @property
    def stats(self) -> dict[str, Any]:
        """Effort: nodes expanded or solver calls, seconds, and per-method detail (a copy, as ``evidence``)."""
        copied: dict[str, Any] = thaw(self.result.stats)
        return copied

    def __hash__(self) -> int:
        """The deal, the status, the line and the bound: solutions equal by ``==`` (which compares the deal and
        the answer, not the effort in ``stats``) hash alike; the generated hash failed on ``result``, a
        record the solver fills in as it goes and that does not hash itself."""
        return hash((self.deal, self.result.status, self.result.moves, self.result.lower_bound))

    def __repr__(self) -> str:
        """The deal, the status, the line and the bound: the generated repr held a SAT answer's CNF and DRUP
        proof (639 KB for challenge 0's four-3), all printed by an interactive session."""
        return (f"DealSolution(deal={self.deal!r}, status={self.status!r}, line={' '.join(self.line_text)!r}, "
                f"lower_bound={self.lower_bound}, method={self.result.method!r})")

    def claim(self) -> dict[str, Any]:
        """The claim a proof record of this answer makes (``solvable``, ``length``, ``optimal``)."""
        return self.result.claim()

    def states(self) -> list[State]:
        """The start position and the position after each move of the line."""
        states = [self.deal.start]
        for move in self.result.moves:
            states.append(self.deal.game.apply(states[-1], move))
        return states

    def line(self) -> Line:
        """The line as a ``stratagem/line@1`` record (the start, the moves, ``won`` when there are any)."""
        return Line("strato", self.deal.setup(), format_state(self.deal.start), self.line_text,
                    "won" if self.result.moves else "")

    def length_disagreement(self) -> str | None:
        """When the puzzle file states an ``optimal_length`` that the proven shortest line contradicts, why."""
        claimed = self.deal.spec.optimal_length
        found = len(self.result.moves)
        if claimed is None or self.result.status != SOLVED or found == claimed:
            return None
        return (f"{self.deal.source}: deal {self.deal.name!r}: the file says optimal_length = {claimed}, "
                f"but the shortest line has {plural(found, 'turn')}")

    def has_proof(self) -> bool:
        """Whether there is an answer to record: a line found, or the evidence that no line exists."""
        return bool(self.result.moves) or self.result.status == UNSOLVABLE

    def write_proof(self, path: str | Path, provenance: dict[str, Any] | None = None) -> bool:
        """Write the proof record (``stratagem/proof@1``) and, for a DRUP refutation, its CNF and proof beside it.

        Returns False, writing nothing, when there is no answer to record (:meth:`has_proof`): a file
        named as a proof record always holds one that ``verify`` can check. ``provenance`` replaces
        :meth:`provenance` (a sweep's worker knows the puzzle's digest, not necessarily its file).
        """
        if not self.has_proof():
            return False
        write_proof(str(path), self.result, self.line(), provenance if provenance is not None else self.provenance())
        return True

    def provenance(self) -> dict[str, Any]:
        """Where this answer came from (:mod:`stratagem.core.provenance`): the code, and the puzzle file's
        SHA-256 (no input for a deal given as a game)."""
        source = self.deal.source
        return make_provenance(source if Path(source).is_file() else None)

    def to_json(self) -> dict[str, Any]:
        """The ``stratagem/solve@1`` report, as ``stratagem solve --json`` prints it."""
        result, spec = self.result, self.deal.spec
        moves = result.moves
        return {
            "format": SOLVE_FORMAT,
            "game": "strato",
            "puzzle": self.deal.source,
            "deal": spec.name,
            "seed": spec.seed,
            "players": self.deal.game.num_players,
            "information": "open",
            "start": format_state(self.deal.start),
            "status": result.status,
            "length": len(moves) if moves or result.status == SOLVED else None,
            "line": list(self.line_text),
            "optimal": result.status == SOLVED,
            "optimality": result.optimality,
            "lower_bound": result.lower_bound,
            "method": result.method,
            "stopped_by": result.stopped_by,
            "best_line": thaw(result.best_line),
            "stats": self.stats,
            "provenance": self.provenance(),
        }


def proof_outputs(proof: str | None, html: str | None, method: str) -> list[tuple[str | None, str]]:
    """The files ``solve`` or ``check`` may write, with the option that names each, for
    :func:`~stratagem.core.outputs.check_outputs` to refuse before any work: the proof record, the page, and
    beside the record the CNF and DRUP proof of a refutation (:func:`refutation_files`) when ``method``
    can give one (``sat``, and ``auto``, which runs SAT on larger deals and is SAT for STAKD). Unchecked,
    an unwritable ``NAME.drup.gz`` failed after the whole solve, leaving ``NAME.cnf.gz`` behind."""
    outputs: list[tuple[str | None, str]] = [(proof, "--proof"), (html, "--html")]
    if proof is not None and method in ("sat", "auto"):
        cnf, drup = refutation_files(proof)
        outputs += [(str(cnf), "--proof (the refutation's CNF, written beside the record)"),
                    (str(drup), "--proof (the refutation's DRUP proof, written beside the record)")]
    return outputs


@scoped
def solve(puzzle: str | Path | Puzzle | StratoDeal | StratoGame | Position, deal: str | int | None = None,
          method: str = "auto", time_limit: float | Deadline | None = None, *, players: int | None = None,
          max_nodes: int | None = None, progress: ProgressFactory = no_progress) -> DealSolution:
    """The shortest winning line of a Strato deal (open information), with how it is known.

    ``puzzle`` is a puzzle's file or a loaded :class:`Puzzle` (``deal`` and ``players`` choose the deal, as
    in :func:`stratagem.loading.load`), or a deal already chosen: a :class:`StratoDeal`, a
    :class:`StratoGame`, or a Strato :class:`Position` (a position met in play, given to
    :func:`~stratagem.loading.from_notation`).
    ``method`` is one of :data:`~stratagem.models.strato.solve.METHODS` (``auto``: the relaxation
    bound with its guided line, then A* or SAT when the bound is below the optimum). ``time_limit``
    (seconds, or a :class:`~stratagem.core.deadline.Deadline` already running) covers the whole call;
    ``max_nodes`` stops a search after that many expansions (not for ``sat`` or ``cpsat``). Either gives
    status ``unknown`` with the best line found and the bound proven. ``progress`` receives the progress
    of each phase (:mod:`stratagem.core.progress`).
    """
    if method not in METHODS:
        raise BadArgument("<argument>", "method", f"unknown method {method!r} (one of {', '.join(METHODS)})")
    check_run_limits(time_limit, max_nodes)
    if max_nodes is not None and method in ("sat", "cpsat"):
        raise ValueError(f"max_nodes limits a search (relaxed, bfs, astar, idastar), not {method}")
    deadline = as_deadline(time_limit)  # from the call's start: reading the puzzle is in the limit too
    chosen = as_deal(puzzle, deal, players)
    result = solve_game(chosen.game, method, deadline, max_nodes, progress=progress, label=chosen.name)
    return DealSolution(chosen, result)


__all__ = ["DealSolution", "as_deal", "proof_outputs", "refutation_files", "solve"]
