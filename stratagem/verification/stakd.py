"""A STAKD solo proof's claim: ``winnable``, every piece placed or not.

``winnable: true`` is certified by the replayed line ending in a won position (not by the line's
``result`` flag). ``winnable: false`` is certified by a DRUP refutation of a CNF rebuilt from the rules
(:mod:`.refutations`), or by ``--recheck``'s exhaustive search of the rules engine, capped at
:data:`DEFAULT_SOLO_NODES` positions unless told otherwise; CP-SAT's INFEASIBLE answer alone is not
certified.
"""

from __future__ import annotations

from typing import Any

from stratagem.core.records import Proof
from stratagem.solvers.replay import is_win
from stratagem.verification.evidence import not_certified_why
from stratagem.verification.refutations import check_solo_refutation
from stratagem.verification.verdict import Limits, Verdict

#: The default node limit of the STAKD solo re-check (positions expanded; its memo of hopeless
#: positions holds at most that many keys). The Strato enumeration's default is
#: :data:`stratagem.solvers.replay.DEFAULT_MAX_STATES` (distinct states kept).
DEFAULT_SOLO_NODES = 1_000_000


def check_solo(proof: Proof, game: Any, start: Any, final: Any, verdict: Verdict, record: str,
               limits: Limits) -> None:
    """A STAKD solo answer: a witness line that places every piece, or a refutation of the question.

    ``winnable: true`` is certified by the replayed line ending in a won position (not by the line's
    ``result`` flag). ``winnable: false`` is certified by a DRUP refutation of a CNF rebuilt from the
    rules, or by ``--recheck``'s exhaustive search; CP-SAT's INFEASIBLE answer alone is not certified.
    """
    from stratagem.models.stakd.search import IMPOSSIBLE, SOLVED, solo_search

    assert proof.line is not None
    winnable = proof.claim.get("winnable")
    if winnable is True:
        statement = "every piece can be placed"
        if is_win(game, final):
            verdict.certify("winnable", statement, f"the line replays to a won position after "
                            f"{len(proof.line.moves)} placements")
        else:
            verdict.refute("winnable", statement, "claim.winnable",
                           "claims every piece can be placed, but the replayed line does not end in a win")
        return
    if winnable is not False:
        verdict.refute("winnable", "every piece can be placed, or not", "claim.winnable", "must be true or false")
        return
    statement = "the pieces cannot all be placed"
    if proof.line.moves:
        verdict.refute("winnable", statement, "line.moves",
                       "a proof that the pieces cannot all be placed carries no moves")
        return
    if proof.line.result == "won":  # the record contradicts itself; the flag was passed over
        verdict.refute("winnable", statement, "line.result",
                       "says 'won', but the line of a proof that the pieces cannot all be placed wins nothing")
        return
    evidence = proof.evidence
    kind = evidence.get("kind")
    if game.is_terminal(start):  # the rules end play at the start: nothing is placed, whatever the evidence
        if is_win(game, start):
            verdict.refute("winnable", statement, "claim.winnable", "the start is already won")
        else:
            verdict.certify("winnable", statement, "the rules end play at the start with pieces in hand "
                            "(no legal placement): rules engine only")
    elif kind == "drup-refutation":
        check_solo_refutation(evidence, statement, game, start, verdict, record, limits)
    elif limits.recheck:
        if limits.deadline.expired():
            verdict.unknown("winnable", statement, limits.stopped_words("before the re-check began"))
            return
        cap = limits.nodes if limits.nodes is not None else DEFAULT_SOLO_NODES
        result = solo_search(game, start, node_limit=cap, deadline=limits.deadline)
        if result.status == IMPOSSIBLE:
            basis = f"exhaustive search of {result.nodes:,} positions: no way to place every piece"
            verdict.certify("winnable", statement, basis + " (rules engine only)")
        elif result.status == SOLVED:
            found = len(result.line or ())
            verdict.refute("winnable", statement, "claim.winnable",
                           f"the exhaustive re-check places every piece ({found} placements)")
        else:
            why = "the time limit" if limits.deadline.expired() else f"the node limit ({cap:,} positions)"
            verdict.unknown("winnable", statement,
                            f"the re-check was stopped by {why} after {result.nodes:,} positions")
    else:
        verdict.not_certified("winnable", statement, not_certified_why("the claim", evidence))
