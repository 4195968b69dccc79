"""A Strato proof's claims: ``solvable``, ``length`` and ``optimal``, or ``solvable: false``.

That a line wins and how long it is are certified by the replay alone. "No shorter win" and "no win at
all" rest on the record's evidence: a relaxation bound is recomputed from the rules and the deal, a DRUP
refutation is checked against a CNF rebuilt from the rules (:mod:`.refutations`); evidence that is only
a search the record reports is not certified unless ``--recheck`` repeats it by a plain breadth-first
enumeration of the rules, under the run's limits.
"""

from __future__ import annotations

from typing import Any

from stratagem.core.records import Proof
from stratagem.solvers.replay import DEFAULT_MAX_STATES, is_win, no_win_within
from stratagem.verification.evidence import not_certified_why
from stratagem.verification.refutations import check_strato_refutation
from stratagem.verification.verdict import Limits, Verdict


def check_strato(proof: Proof, game: Any, start: Any, final: Any, verdict: Verdict, record: str,
                 limits: Limits) -> None:
    """A Strato proof's claims: ``solvable``, ``length`` and ``optimal``, or ``solvable: false``.

    That a line wins and how long it is are certified by the replay alone. "No shorter win" and "no
    win at all" rest on the evidence: a certificate (relaxation bound, DRUP refutation) is checked
    against what is rebuilt from the rules; anything else is not certified unless ``--recheck``
    repeats it by a plain enumeration.
    """
    assert proof.line is not None
    claim, n = proof.claim, len(proof.line.moves)
    solvable = claim.get("solvable")
    if solvable is True:
        statement = "a winning line exists"
        won = is_win(game, final)
        if won:
            verdict.certify("solvable", statement, f"the line replays to a won position after {n} turns")
        else:
            verdict.refute("solvable", statement, "claim.solvable",
                           "claims a win but the replayed line does not end in one")
        length = claim.get("length")
        words = f"the winning line is {length} turns long"
        if length != n or isinstance(length, bool):
            verdict.refute("length", words, "claim.length", f"says {length!r} but the line has {n} moves")
        elif won:
            verdict.certify("length", words, "counted on the replayed line")
        else:
            verdict.not_certified("length", words, "the line does not end in a win")
        optimal = claim.get("optimal")
        if optimal is True:
            if won:
                no_win_claim(proof, "optimal", f"no winning line is shorter than {n} turns", n - 1, game, start,
                             verdict, record, limits)
            else:
                verdict.not_certified("optimal", f"no winning line is shorter than {n} turns",
                                      "not checked: the line does not end in a win")
        elif optimal not in (False, None):
            verdict.refute("optimal", "the line is shortest", "claim.optimal", "must be true or false")
    elif solvable is False:
        statement = "no line from the start wins (unsolvable)"
        if proof.line.moves:
            verdict.refute("solvable", statement, "line.moves", "an unsolvability proof carries no moves")
            return
        if claim.get("length") is not None or claim.get("optimal") not in (False, None):
            verdict.invalid("claim", "an unsolvability claim has no length and no optimal line")
        no_win_claim(proof, "solvable", statement, None, game, start, verdict, record, limits)
    else:
        verdict.refute("solvable", "the deal is solvable, or not", "claim.solvable", "must be true or false")


def no_win_claim(proof: Proof, name: str, statement: str, horizon: int | None, game: Any, start: Any,
                 verdict: Verdict, record: str, limits: Limits) -> None:
    """Report the claim "no win within ``horizon`` turns" (``None``: no win at all) from the evidence."""
    evidence = proof.evidence
    kind = evidence.get("kind")
    if kind == "relaxation-bound":
        check_relaxation_bound(evidence, name, statement, horizon, game, start, verdict, limits)
    elif kind == "relaxation-search":
        check_relaxation_search(evidence, name, statement, horizon, game, start, verdict, limits)
    elif kind == "drup-refutation":
        check_strato_refutation(evidence, name, statement, horizon, game, start, verdict, record, limits)
    elif limits.recheck:
        recheck_enumeration(name, statement, horizon, game, start, verdict, limits)
    else:
        subject = "optimality" if horizon is not None else "unsolvability"
        verdict.not_certified(name, statement, not_certified_why(subject, evidence))


def recheck_enumeration(name: str, statement: str, horizon: int | None, game: Any, start: Any, verdict: Verdict,
                        limits: Limits) -> None:
    """``--recheck``: a plain breadth-first enumeration over the rules engine, under the run's limits."""
    if limits.deadline.expired():
        verdict.unknown(name, statement, limits.stopped_words("before the re-check began"))
        return
    cap = limits.nodes if limits.nodes is not None else DEFAULT_MAX_STATES
    with limits.progress("re-checking by plain enumeration", "depth", "states") as show:
        result = no_win_within(game, start, horizon, progress=show, deadline=limits.deadline, max_states=cap)
    if result.no_win is None:
        why = ("the time limit" if result.stopped_by == "time" else f"the node limit ({cap:,} states)")
        verdict.unknown(name, statement, f"the re-check was stopped by {why} after {result.states:,} states, "
                        f"{len(result.per_depth) - 1} turns deep")
    elif result.no_win:
        if horizon is None:
            basis = f"no win anywhere: plain enumeration of all {result.states:,} reachable states"
        else:
            basis = f"no win within {horizon} turns: plain enumeration of {result.states:,} states"
        verdict.certify(name, statement, basis + " (rules engine only)")
    elif horizon is None:
        verdict.refute(name, statement, "claim.solvable", "a winning line exists (found by the plain enumeration)")
    else:
        verdict.refute(name, statement, "claim.optimal",
                       f"a win exists within {horizon} turns: the line is not shortest")


def relaxation_named(evidence: dict[str, Any], name: str, statement: str, verdict: Verdict) -> str | None:
    """The relaxation a certificate names, checked: its ``ends`` (``tracked`` or ``unknown``), or ``None``
    after refuting a name or an ``ends`` this version does not check."""
    from stratagem.models.strato.relaxation import RELAXATION

    if evidence.get("relaxation") != RELAXATION:
        verdict.refute(name, statement, "evidence.relaxation", f"names relaxation {evidence.get('relaxation')!r}; "
                       f"this version checks {RELAXATION!r}")
        return None
    ends = evidence.get("ends", "tracked")
    if ends not in ("tracked", "unknown"):
        verdict.refute(name, statement, "evidence.ends", f"must be 'tracked' or 'unknown', not {ends!r}")
        return None
    return str(ends)


def recompute_bound(claimed: Any, ends: str, game: Any, start: Any, limits: Limits) -> Any:
    """The relaxation bound of ``start``, recomputed from the rules. The claimed bound is only where the pruned
    search starts: what it finds does not depend on it."""
    from stratagem.models.strato.relaxation import relaxation_bound

    hint = claimed if isinstance(claimed, int) and 0 <= claimed <= 100 else 0
    return relaxation_bound(game.challenge, game.options, start, deadline=limits.deadline,
                            track_ends=ends == "tracked", hint=hint)


def bound_as_claimed(bound: Any, claimed: Any, name: str, statement: str, verdict: Verdict, limits: Limits) -> bool:
    """Whether the recomputed ``bound`` is the one the record claims; if not, the claim is reported unknown
    (the recomputation was stopped) or refuted."""
    if bound.stopped:
        verdict.unknown(name, statement, limits.stopped_words("while the relaxation bound was recomputed"))
        return False
    if claimed != bound.bound or isinstance(claimed, bool):
        verdict.refute(name, statement, "evidence.bound", f"claims {claimed!r}, but the relaxation recomputed "
                       f"from the rules gives {bound.bound if bound.bound is not None else 'no goal (null)'}")
        return False
    return True


def check_relaxation_bound(evidence: dict[str, Any], name: str, statement: str, horizon: int | None, game: Any,
                           start: Any, verdict: Verdict, limits: Limits) -> None:
    """A relaxation certificate: recompute the bound from the rules and the deal, trusting nothing in the record.

    The record only names the relaxation and the bound it claims; both must match what is recomputed
    here. Optimality (``horizon`` = length - 1) is certified only when the recomputed bound equals the
    line's length, unsolvability (``horizon`` ``None``) only when the relaxation reaches no goal at all.
    A recomputation cut short by the time limit leaves the claim unknown, not invalid.
    """
    from stratagem.models.strato.relaxation import relaxation_bound

    ends = relaxation_named(evidence, name, statement, verdict)
    if ends is None:
        return
    claimed = evidence.get("bound")
    if limits.deadline.expired():
        verdict.unknown(name, statement, limits.stopped_words("before the relaxation bound was recomputed"))
        return
    with limits.progress("recomputing the relaxation bound", "row", "rows") as show:
        show(0, 0)
        if horizon is not None and claimed == horizon + 1 and not isinstance(claimed, bool) and claimed >= 2:
            # A bound claimed equal to the (replayed, winning) line's length n: it suffices to recompute that
            # the bound is at least n. The bound is a lower bound on any winning line, this one included, so
            # it is then exactly n, the value claimed; searching relaxed states only as far as n - 1 turns
            # is much cheaper than finding the distances themselves.
            bound = relaxation_bound(game.challenge, game.options, start, deadline=limits.deadline,
                                     track_ends=ends == "tracked", at_least=claimed)
            if not bound.stopped and bound.bound is not None and bound.bound >= claimed:
                verdict.checked.append("the relaxation bound, recomputed from the rules and the deal: no relaxed "
                                       f"line is shorter than {claimed} turns ({bound.describe()}; the replayed "
                                       f"line wins in {claimed}, so the bound is {claimed})")
                verdict.checked.append(f"no win within {horizon} turns: the bound equals the line's length")
                verdict.certify(name, statement, f"the relaxation bound recomputed from the rules is {claimed} "
                                "turns, the line's length")
                return
        else:
            bound = None
        if bound is None or not bound.stopped:  # anything else: the bound itself
            bound = recompute_bound(claimed, ends, game, start, limits)
    if not bound_as_claimed(bound, claimed, name, statement, verdict, limits):
        return
    verdict.checked.append(f"the relaxation bound, recomputed from the rules and the deal: {bound.describe()}")
    if horizon is None:
        if bound.bound is not None:
            verdict.refute(name, statement, "claim.solvable", f"claims no win at all, but the relaxation bound is "
                           f"{bound.bound} turns: it does not rule out a win")
        else:
            verdict.checked.append("no win at all: the relaxation reaches no goal")
            verdict.certify(name, statement, "the relaxation recomputed from the rules reaches no goal")
    elif bound.bound != horizon + 1:
        verdict.refute(name, statement, "claim.optimal", f"the relaxation bound is {bound.bound} turns but the line "
                       f"has {horizon + 1}: its optimality is not certified by this bound")
    else:
        verdict.checked.append(f"no win within {horizon} turns: the bound equals the line's length")
        verdict.certify(name, statement, f"the relaxation bound recomputed from the rules is {bound.bound} turns, "
                        "the line's length")


#: Expansions ``verify`` gives a ``relaxation-search`` certificate's search when no ``--max-nodes`` is set.
SEARCH_NODES = 1_000_000


def check_relaxation_search(evidence: dict[str, Any], name: str, statement: str, horizon: int | None, game: Any,
                            start: Any, verdict: Verdict, limits: Limits) -> None:
    """A relaxation-search certificate: the relaxation bound recomputed, then the search of every line up
    to ``horizon`` turns pruned by relaxed distances repeated over the rules engine.

    The record names the relaxation, its bound and the horizon searched; the bound must be what the
    rules give, and the horizon must be the line's length less one. The search is repeated here in
    full: when the horizon is the bound itself, as the guided search for a line of exactly that many
    turns (with the bound, no line of fewer exists), otherwise as the search pruned by the relaxed
    distances to a goal. A search cut short by a limit leaves the claim unknown.
    """
    from stratagem.models.strato.guided import bounded_line, goal_distances, guided_line, supports

    if horizon is None:
        verdict.refute(name, statement, "evidence.kind", "a relaxation search certifies no line shorter than a line "
                       "found, never that no line wins")
        return
    ends = relaxation_named(evidence, name, statement, verdict)
    if ends is None:
        return
    searched, claimed = evidence.get("horizon"), evidence.get("bound")
    if searched != horizon or isinstance(searched, bool):
        verdict.refute(name, statement, "evidence.horizon", f"says lines up to {searched!r} turns were searched; "
                       f"the line has {horizon + 1} turns, so {horizon} is needed")
        return
    if limits.deadline.expired():
        verdict.unknown(name, statement, limits.stopped_words("before the relaxation bound was recomputed"))
        return
    with limits.progress("recomputing the relaxation bound", "row", "rows") as show:
        show(0, 0)
        bound = recompute_bound(claimed, ends, game, start, limits)
    if not bound_as_claimed(bound, claimed, name, statement, verdict, limits):
        return
    if bound.bound is None:  # no relaxed goal, yet the line wins: nothing here can be trusted
        verdict.refute(name, statement, "evidence.bound", "the relaxation recomputed from the rules reaches no goal, "
                       "but the replayed line wins")
        return
    verdict.checked.append(f"the relaxation bound, recomputed from the rules and the deal: {bound.describe()}")
    if horizon < bound.bound:
        verdict.checked.append(f"no win within {horizon} turns: the bound is {bound.bound}")
        verdict.certify(name, statement, f"the relaxation bound recomputed from the rules is {bound.bound} turns")
        return
    cap = limits.nodes if limits.nodes is not None else SEARCH_NODES
    with limits.progress(f"searching every line of up to {horizon} turns", "horizon", "nodes expanded") as show:
        show(horizon, 0)
        if horizon == bound.bound and supports(bound):
            guided = guided_line(game, bound, deadline=limits.deadline, max_nodes=cap)
            line, exhausted, expanded = guided.moves, guided.exhausted, guided.expanded
            how = f"the guided search for a line of exactly {horizon} turns"
        else:
            found = bounded_line(game, goal_distances(game, bound), horizon,
                                 deadline=limits.deadline, max_nodes=cap)
            line, exhausted, expanded = found.moves, found.exhausted, found.expanded
            how = f"the search of every line of up to {horizon} turns pruned by the relaxed distances"
    if line is not None:
        verdict.refute(name, statement, "claim.optimal", f"{how} found a win in {len(line)} turns: the line is not "
                       "shortest")
    elif not exhausted:
        why = "the time limit" if limits.deadline.expired() else f"the node limit ({cap:,} expansions)"
        verdict.unknown(name, statement, f"the search was stopped by {why} after {expanded:,} expansions")
    else:
        verdict.checked.append(f"no win within {horizon} turns: {how} over the rules engine found none "
                               f"({expanded:,} positions expanded; exhaustive search)")
        verdict.certify(name, statement, f"the relaxation bound recomputed from the rules is {bound.bound} turns, "
                        f"and an exhaustive search over the rules engine pruned by it finds no line of up to "
                        f"{horizon} turns")
