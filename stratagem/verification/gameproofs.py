"""Game proofs: the value of a game position, checked with the rules alone.

Two kinds of record (:data:`GAME_PROOFS`): an AND/OR proof tree (``stratagem/prooftree@1``: every reply
at the opponents' nodes, one move at the prover's, chance outcomes, down to terminal positions), and the
matrix proofs of a simultaneous-move game (``stratagem/matrixproof@2``: one-sided bound parts, exact
mixed strategies only where the start's value needs them; the older ``stratagem/matrixproof@1``: both
strategies at every simultaneous node; or a bundle of either, one per player). The game and its start are
rebuilt from the record's setup; the tree is replayed through the rules engine, each matrix node rebuilt
and its strategies checked exactly.
"""

from __future__ import annotations

from typing import Any

from stratagem.core.errors import BadInput
from stratagem.loading import position_from_record
from stratagem.solvers.boundproof import BOUNDPROOF_FORMAT, check_bound_proof
from stratagem.solvers.matrixproof import MATRIXPROOF_FORMAT, MATRIXPROOFS_FORMAT, check_matrix_proof
from stratagem.solvers.prooftree import PROOFTREE_FORMAT, check_proof_tree
from stratagem.verification.verdict import Verdict

#: Proof records of game values: AND/OR proof trees, LP certificates of simultaneous-move nodes.
GAME_PROOFS = (PROOFTREE_FORMAT, BOUNDPROOF_FORMAT, MATRIXPROOF_FORMAT, MATRIXPROOFS_FORMAT)


#: The keys of a proof tree's ``claim``: together, one claim (whose value, a bound or exact, for whom).
TREE_CLAIM = ("player", "bound", "value")


def check_game_proof(data: dict[str, Any], verdict: Verdict, record: str) -> None:
    """Rebuild the game from the record's setup and start, then check the proof with the rules alone."""
    game_name, setup, start = data.get("game"), data.get("setup"), data.get("start")
    if not isinstance(game_name, str):
        raise BadInput(record, "game", "missing or not a string")
    if not isinstance(setup, dict):
        raise BadInput(record, "setup", "missing or not an object (the game's options)")
    if not isinstance(start, str):
        raise BadInput(record, "start", "missing or not a string")
    game, state = position_from_record(game_name, setup, start, record)
    fmt = data["format"]
    if fmt == PROOFTREE_FORMAT:
        result = check_proof_tree(game, state, data)
        words = _claim_words(result.claim) if result.claim != "nothing" else "the proof tree's claim"
        if not result.valid:
            verdict.refute("claim", words, result.problems[0].place, result.problems[0].problem)
            return
        basis = (f"the proof tree ({result.nodes:,} nodes) replays through the rules engine: "
                 f"every reply, chance outcome and terminal checked")
        verdict.certify("claim", words, basis)
        verdict.unchecked(data.get("claim"), TREE_CLAIM, "a proof tree")
        return
    single = fmt in (MATRIXPROOF_FORMAT, BOUNDPROOF_FORMAT)
    proofs = [data] if single else data.get("proofs")
    if not isinstance(proofs, list) or not proofs:
        raise BadInput(record, "proofs", f"must be a non-empty list of {BOUNDPROOF_FORMAT} or "
                       f"{MATRIXPROOF_FORMAT} records")
    for i, proof in enumerate(proofs):
        place = "" if single else f"proofs[{i}]: "
        if not isinstance(proof, dict):
            raise BadInput(record, f"proofs[{i}]", "must be an object")
        words = f"{place}the value {proof.get('value')} ({proof.get('label')})"
        if proof.get("start") != start:
            verdict.refute("value", words, f"{place}start", "differs from the bundle's start")
            return
        if proof.get("information", "open") != "open":
            raise BadInput(record, f"{place}information", f"is {str(proof.get('information'))[:40]!r}; a proof of "
                           "simultaneous moves is checked for open information only")
        bounds = proof.get("format") == BOUNDPROOF_FORMAT
        if bounds:
            checked = check_bound_proof(game, state, proof, record)
        else:
            checked = check_matrix_proof(game, state, proof, record)
        depth = proof.get("depth")
        cut = ("" if depth is None else f", of the game cut at depth {depth}: its leaves valued by the game's "
               "evaluation, not by play to the end")
        words = f"{place}player {int(proof['player']) + 1}: value {proof.get('value')} ({proof.get('label')}){cut}"
        if not checked.valid:
            verdict.refute("value", words, f"{place}nodes", checked.reason)
            return
        if bounds:
            basis = (f"{checked.nodes_checked} one-sided strategies of simultaneous nodes checked exactly against "
                     "children bounds rebuilt from the rules: the start's lower and upper bounds meet")
        else:
            basis = f"{checked.nodes_checked} simultaneous nodes rebuilt from the rules and checked exactly"
        verdict.certify("value", words, basis)


def _claim_words(claim: str) -> str:
    """``player 0 at least 1`` with players counted from 1, as the rest of the CLI does."""
    words = claim.split(" ", 2)
    if len(words) == 3 and words[0] == "player" and words[1].isdigit():
        return f"player {int(words[1]) + 1} {words[2]}"
    return claim
