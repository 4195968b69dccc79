"""Is a puzzle solvable at all? A witness line, or a certificate that no line exists, in one call.

- STAKD solo puzzles ("can every piece be placed?"): the SAT model (an impossible puzzle gets a DRUP
  refutation checked by the project's checker) or the CP-SAT model (an INFEASIBLE answer carries no
  certificate, and says so). A witness is replayed through the rules engine first. The answer is a
  :class:`SoloCheck`.
- Strato deals: what :func:`stratagem.solving.solve` establishes (a winning line, or an exhaustive
  search or refutation of every horizon up to the game's length), a
  :class:`~stratagem.solving.DealSolution`.

Both serialise to the records of the command line (:meth:`SoloCheck.to_json` is ``stratagem/check@1``)
and write proof records that :func:`stratagem.verification.verify` checks.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stratagem.core.deadline import Deadline, as_deadline, check_run_limits
from stratagem.core.errors import BadArgument, BadInput, Param
from stratagem.core.outputs import dumps_record, write_atomic_files
from stratagem.core.progress import ProgressFactory, no_progress
from stratagem.core.provenance import provenance
from stratagem.loading import Position, file_path, game_of_file, load_position
from stratagem.solvers.dimacs import text_maybe_gz
from stratagem.solving import DealSolution, refutation_files, solve

if TYPE_CHECKING:
    from stratagem.models.stakd.solo import SoloAnswer

CHECK_FORMAT = "stratagem/check@1"
#: The methods of the STAKD solo question (``auto`` is ``sat``, whose refutations are checked proofs).
SOLO_METHODS = ("auto", "sat", "cpsat")


@dataclass(frozen=True)
class SoloCheck:
    """The answer to a STAKD solo puzzle: can every piece in hand be placed?

    ``winnable`` is True (``line`` places every piece, replayed through the rules engine), False
    (``evidence`` says how that is known: a checked DRUP refutation, or CP-SAT's INFEASIBLE without a
    certificate) or None (the time limit stopped the solver: nothing is claimed).
    """

    puzzle: str
    position: Position
    answer: SoloAnswer

    @property
    def winnable(self) -> bool | None:
        """True (``line`` places every piece), False (``evidence`` says how that is known) or None (stopped)."""
        return self.answer.winnable

    @property
    def status(self) -> str:
        """``winnable``, ``not winnable`` or ``unknown``."""
        return {True: "winnable", False: "not winnable", None: "unknown"}[self.answer.winnable]

    @property
    def line(self) -> tuple[str, ...]:
        """The placements of a winnable puzzle, in STAKD notation (empty otherwise)."""
        return tuple(self.answer.moves or ())

    @property
    def evidence(self) -> dict[str, Any]:
        """How the answer is known, without the timings (so that a report is the same on every run)."""
        return {k: v for k, v in self.answer.evidence.items() if not k.endswith("seconds")}

    def __repr__(self) -> str:
        """The puzzle, the status and the line: the generated repr held a refutation's CNF and DRUP proof."""
        return (f"SoloCheck(puzzle={self.puzzle!r}, status={self.status!r}, line={' '.join(self.line)!r}, "
                f"evidence={self.evidence.get('kind')!r})")

    def claim(self) -> dict[str, Any]:
        """The claim a proof record of this answer makes (empty when there is no answer)."""
        return self.answer.claim() if self.answer.winnable is not None else {}

    def to_json(self) -> dict[str, Any]:
        """The ``stratagem/check@1`` report, as ``stratagem check --json`` prints it (less the ``proof``
        key, which names the record once one is written)."""
        game, state = self.position.game, self.position.state
        return {
            "format": CHECK_FORMAT,
            "game": "stakd",
            "puzzle": self.puzzle,
            "name": self.position.name,
            "start": game.format_state(state),
            "status": self.status,
            "claim": self.claim(),
            "line": list(self.line),
            "evidence": self.evidence,
        }

    def has_proof(self) -> bool:
        """Whether there is an answer to record (the time limit did not stop the solver first)."""
        return self.answer.winnable is not None

    def write_proof(self, path: str | Path) -> bool:
        """Write the proof record (``stratagem/proof@1``) and, for a refutation, its CNF and DRUP proof beside it.

        Returns False, writing nothing, when there is no answer to record (:meth:`has_proof`).
        """
        if not self.has_proof():
            return False
        answer, game, state = self.answer, self.position.game, self.position.state
        record = answer.to_proof(game, state)
        evidence = {k: v for k, v in record.evidence.items() if not k.endswith("seconds")}
        beside: list[tuple[str | Path, str | bytes]] = []
        if answer.cnf is not None and answer.proof is not None:
            cnf_path, proof_path = refutation_files(path)
            cnf_name, proof_name = cnf_path.name, proof_path.name
            proof_text = "".join(step + "\n" for step in answer.proof)
            beside = [(cnf_path, text_maybe_gz(cnf_path, answer.cnf)),
                      (proof_path, text_maybe_gz(proof_path, proof_text))]
            evidence.update(cnf=cnf_name, proof=proof_name,
                            cnf_sha256=hashlib.sha256(answer.cnf.encode()).hexdigest(),
                            proof_sha256=hashlib.sha256(proof_text.encode()).hexdigest())
        data = record.to_json()
        data["evidence"] = evidence
        data["provenance"] = provenance(self.puzzle)
        # One set: a record beside another run's CNF (a full disk at the DRUP file) fails verify.
        write_atomic_files([*beside, (str(path), dumps_record(data))])
        return True


def check_solo(puzzle: str | Path, method: str = "auto", time_limit: float | Deadline | None = None,
               progress: ProgressFactory = no_progress) -> SoloCheck:
    """The solo question for a STAKD puzzle file: can every piece be placed? (``method``: ``sat``, the
    default, or ``cpsat``; ``time_limit`` in seconds, or a running
    :class:`~stratagem.core.deadline.Deadline` as :func:`~stratagem.solving.solve` takes, covers the solver
    and the check of its proof; ``progress`` is shown the SAT solver's conflicts and DRUP proof lines.)"""
    if method not in SOLO_METHODS:
        raise BadArgument("<argument>", "method", f"STAKD solo puzzles are solved by sat or cpsat, not {method!r}")
    check_run_limits(time_limit)
    # From here: the solver's import and the puzzle's reading are in the limit too (nine threads at once
    # spent up to 2.5 s there, all past a 3 s limit that began only when the model was built)
    deadline = as_deadline(time_limit)
    from stratagem.models.stakd.solo import solve_solo

    source = file_path(puzzle, "puzzle")
    position = load_position(source, ("stakd",))
    game, state = position.game, position.state
    if game.num_players != 1:
        raise BadInput(source, "position", f"a {game.num_players}-player position is not a solo puzzle; "
                       "use `stratagem analyze`")
    solver = "sat" if method == "auto" else method
    if solver != "sat":  # CP-SAT reports nothing while it runs
        return SoloCheck(source, position, solve_solo(game, state, method=solver, time_limit=deadline))
    with progress(f"sat on {Path(source).name}", "conflicts", "proof lines") as show:
        answer = solve_solo(game, state, method=solver, time_limit=deadline, report=show)
    return SoloCheck(source, position, answer)


def check(puzzle: str | Path, deal: str | int | None = None, method: str = "auto",
          time_limit: float | Deadline | None = None,
          *, players: int | None = None, progress: ProgressFactory = no_progress) -> SoloCheck | DealSolution:
    """Is the puzzle in the file solvable? A STAKD solo puzzle gives a :class:`SoloCheck` (``method``:
    ``sat``, the default, or ``cpsat``); a Strato puzzle's deal (``deal``, ``players`` as in
    :func:`stratagem.loading.load`) the
    :class:`~stratagem.solving.DealSolution` of :func:`~stratagem.solving.solve` (solvable when it has
    a line, shortest or not; unsolvable when its status is ``unsolvable``).

    Positions of the other games have no yes/no question (``stratagem analyze`` gives their value).
    """
    if method not in SOLO_METHODS:
        raise BadArgument("<argument>", "method", f"check takes the methods {', '.join(SOLO_METHODS)}, not {method!r}")
    check_run_limits(time_limit)
    deadline = as_deadline(time_limit)  # one deadline from the call's start, reading the file included
    source = file_path(puzzle, "puzzle")
    game_name = game_of_file(source)
    if game_name == "strato":
        return solve(source, deal, players=players, method=method, time_limit=deadline, progress=progress)
    if game_name != "stakd":
        raise BadInput(source, "game", f"check answers puzzles (Strato deals, STAKD solo); for a {game_name} "
                       "position use `stratagem analyze`")
    if deal is not None or players is not None:  # the option given is the one named
        raise BadArgument("<argument>", "deal" if deal is not None else "players",
                          (Param("deal"), " and ", Param("players"), " are for Strato puzzles"))
    return check_solo(source, method, deadline, progress)


__all__ = ["CHECK_FORMAT", "SOLO_METHODS", "SoloCheck", "check", "check_solo"]
