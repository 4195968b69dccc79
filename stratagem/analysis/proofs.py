"""Writing the proof of an analysis's solved value, for ``stratagem verify`` to check without trusting
the solver.

Exact searches are proved by an AND/OR proof tree (:func:`~stratagem.solvers.prooftree.build_proof_tree`,
a second search), ``lp`` by its bound certificates (:mod:`~stratagem.solvers.boundproof`: exact mixed
strategies kept from the induction, one side at each simultaneous node the start's value needs).
:meth:`Analysis.write_proof <stratagem.analysis.result.Analysis.write_proof>` is
the public door; :func:`write_proof` does the work from the analysis's fields, so that the typed result
does not hold the proof machinery.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stratagem.analysis.methods import check_provable
from stratagem.analysis.report import as_deadline
from stratagem.core.deadline import Deadline
from stratagem.core.errors import StratagemError
from stratagem.core.outputs import dumps_record, write_atomic
from stratagem.solvers.alphabeta import return_bounds
from stratagem.solvers.gametree import SOLVED
from stratagem.solvers.prooftree import ProofStopped, build_proof_tree


class ProofNotWritten(StratagemError):
    """:meth:`Analysis.write_proof` had nothing to prove: the value was not established, or the time
    limit ran out while the proof was being built (nothing is written then)."""


@dataclass(frozen=True)
class ProofFile:
    """A proof :meth:`Analysis.write_proof` wrote: the file, its record format and its size in nodes."""

    file: str
    format: str
    nodes: int

    def to_json(self) -> dict[str, Any]:
        """The written proof as a JSON object (``file``, ``format``, ``nodes``)."""
        return {"file": self.file, "format": self.format, "nodes": self.nodes}


def lp_proof_records(game: Any, lp_results: Any) -> list[dict[str, Any]]:
    """The bound certificate of each of an ``lp`` analysis's results (:func:`bound_proof
    <stratagem.solvers.boundproof.bound_proof>`), fresh copies each call.

    A result may already be its certificate (a dict): an :class:`~stratagem.analysis.result.Analysis`
    keeps its results in that form (made by :func:`~stratagem.analysis.lp.lp_report` as the induction
    ends), as the induction's own results hold the compiled walk: tens to hundreds of MB, which neither
    pickle nor ``copy.deepcopy`` can copy."""
    from stratagem.solvers.boundproof import bound_proof

    return [copy.deepcopy(r) if isinstance(r, dict) else bound_proof(game, r) for r in lp_results]


def write_proof(game: Any, state: Any, method: str, status: str, player: int | None, lp_results: Any,
                path: str | Path, time_limit: float | Deadline | None = None,
                provenance: dict[str, Any] | None = None) -> ProofFile:
    """Write the proof of an analysis's solved value to ``path`` (see :meth:`Analysis.write_proof
    <stratagem.analysis.result.Analysis.write_proof>`, which passes its own fields here).

    ``player`` counts from 1, as in the record; ``lp_results`` are the induction's results (``lp``
    only). Raises :class:`~stratagem.core.errors.BadInput` when the method has no proof and
    :class:`ProofNotWritten` when there is nothing to prove (the value was not established, or a depth limit
    left it to the game's evaluation) or the time ran out; nothing is written then.
    ``provenance`` (:mod:`stratagem.core.provenance`), when given, is stored in the record as a description.
    """
    check_provable(method, game.num_players)
    if status == "heuristic":
        # Known only after the search (a depth that reaches every end gives a solved value, and its proof):
        # not bad input, which threw the finished analysis away unprinted.
        raise ProofNotWritten("the search was cut by the depth limit before the end of play, so its value rests "
                              "on the game's evaluation (status heuristic) and has no proof; analyse it without a "
                              "depth limit (depth, --depth)")
    if status != SOLVED:
        raise ProofNotWritten(f"the value was not established (status {status}); nothing to prove")
    limit = as_deadline(time_limit)
    encode = dumps_record
    if method == "lp":
        from stratagem.solvers.boundproof import bound_proof_text
        from stratagem.solvers.matrixproof import MATRIXPROOFS_FORMAT

        proofs = lp_proof_records(game, lp_results)
        encode = bound_proof_text  # canonical JSON with a node a line
        record: dict[str, Any] = proofs[0] if len(proofs) == 1 else {
            "format": MATRIXPROOFS_FORMAT, "game": game.name, "setup": game.setup(),
            "start": game.format_state(state), "proofs": proofs}
        nodes = sum(len(p["nodes"]) for p in proofs)
    else:
        low, high = return_bounds(game)
        assert player is not None
        try:
            record = build_proof_tree(game, state, player=player - 1, lo=low, hi=high, time_limit=limit)
        except ProofStopped as stop:
            raise ProofNotWritten(str(stop)) from None
        record["setup"] = game.setup()
        nodes = len(record["nodes"])
    if provenance is not None:
        record["provenance"] = provenance
    write_atomic(path, encode(record))
    return ProofFile(str(Path(path)), record["format"], nodes)
