"""A Strato proof's claims: ``solvable``, ``length`` and ``optimal``, or ``solvable: false``.

That a line wins and how long it is are certified by the replay alone. "No shorter win" and "no win at
all" rest on the record's evidence: a relaxation bound is recomputed from the rules and the deal, a DRUP
refutation is checked against a CNF rebuilt from the rules (:mod:`.refutations`); evidence that is only
a search the record reports is not certified unless ``--recheck`` repeats it by a plain breadth-first
enumeration of the rules, under the run's limits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeGuard

from stratagem.core.records import Proof
from stratagem.core.words import plural
from stratagem.solvers.replay import DEFAULT_MAX_STATES, is_win, no_win_within
from stratagem.verification.bounded import win_within
from stratagem.verification.evidence import not_certified_why
from stratagem.verification.refutations import check_strato_refutation
from stratagem.verification.relaxed import RELAXATION, Bound, GoalDistances, Stopped, relaxed_bound, views
from stratagem.verification.verdict import Limits, Verdict

#: The information a Strato proof's claim may be about: the only one ``verify`` checks.
INFORMATION = "open"

#: Whether each evidence kind is a certificate (docs/formats.md, 4.3); a record saying otherwise is refused.
CERTIFICATE = {"relaxation-bound": True, "relaxation-search": True, "drup-refutation": True,
               "exhaustive-search": False, "cpsat-infeasible": False, "witness": False}


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
    information = claim.get("information")
    if information != INFORMATION:
        verdict.refute("information", "the claims are about open information (every hand and the pile known)",
                       "claim.information", f"is {information!r}; a Strato proof's claims are checked for "
                       f"{INFORMATION!r} information only, and nothing here checks another")
    if proof.line.result == "won" and not is_win(game, final):
        # the line's own flag, read as a bare line's is: passed over, an unsolvability proof whose line said
        # "won" was "valid: every claim certified" (a STAKD proof's already refuted it)
        verdict.refute("result", "the record's line ends in a win", "line.result",
                       "says 'won', but the replayed line does not end in a won position")
    if not evidence_consistent(proof.evidence, n if is_win(game, final) else None, verdict):
        return
    solvable = claim.get("solvable")
    if solvable is True:
        statement = "a winning line exists"
        won = is_win(game, final)
        if won:
            verdict.certify("solvable", statement, f"the line replays to a won position after {plural(n, 'turn')}")
        else:
            verdict.refute("solvable", statement, "claim.solvable",
                           "claims a win but the replayed line does not end in one")
        length = claim.get("length")
        words = f"the winning line is {plural(length, 'turn')} long" if is_integer(length) else \
            f"the winning line is {length!r} turns long"
        if not is_integer(length):
            # an integer as JSON writes it: 5.0 or true is no length, even where Python finds it equal to one
            verdict.refute("length", words, "claim.length",
                           f"must be an integer (the line has {plural(n, 'move')}), not {length!r}")
        elif length != n:
            verdict.refute("length", words, "claim.length", f"says {length!r} but the line has {plural(n, 'move')}")
        elif won:
            verdict.certify("length", words, "counted on the replayed line")
        else:
            verdict.not_certified("length", words, "the line does not end in a win")
        optimal = claim.get("optimal")
        shorter = f"no winning line is shorter than {plural(n, 'turn')}"
        if optimal is True:
            if won and n == 0:
                # nothing is shorter than no move; asked of the evidence, --recheck's enumeration "within -1
                # turns" met the won start and refuted this true claim (exit 1)
                verdict.certify("optimal", shorter, "the line has no moves: no line is shorter")
            elif won:
                no_win_claim(proof, "optimal", shorter, n - 1, game, start, verdict, record, limits)
            else:
                verdict.not_certified("optimal", shorter, "not checked: the line does not end in a win")
        elif optimal is not False and optimal is not None:
            # a JSON boolean only: 0 == False in Python, but a record writing 0 has not said "not optimal"
            verdict.refute("optimal", "the line is shortest", "claim.optimal",
                           f"must be true or false, not {optimal!r}")
    elif solvable is False:
        statement = "no line from the start wins (unsolvable)"
        if proof.line.moves:
            verdict.refute("solvable", statement, "line.moves", "an unsolvability proof carries no moves")
            return
        # Each stray claim is refuted under its own name: under "solvable" it stood beside the certified
        # "solvable" as a second report of the same claim, one invalid and one certified.
        if claim.get("length") is not None:
            verdict.refute("length", "an unsolvable deal's winning line has a length", "claim.length",
                           f"is {claim['length']!r}; an unsolvability claim has no length (null)")
        optimal = claim.get("optimal")
        if optimal is not False and optimal is not None:
            verdict.refute("optimal", "an unsolvable deal has an optimal line", "claim.optimal",
                           f"is {optimal!r}; an unsolvability claim has no optimal line (false)")
        no_win_claim(proof, "solvable", statement, None, game, start, verdict, record, limits)
    else:
        verdict.refute("solvable", "the deal is solvable, or not", "claim.solvable", "must be true or false")


def is_integer(value: Any) -> TypeGuard[int]:
    """An integer as JSON has it: not a float that happens to be whole, not a boolean."""
    return isinstance(value, int) and not isinstance(value, bool)


def evidence_consistent(evidence: dict[str, Any], won_in: int | None, verdict: Verdict) -> bool:
    """Whether the evidence's own fields agree with the kind it names and with the replayed line (``won_in``:
    its length when it wins); if not, the evidence is refuted and no claim resting on it is checked.

    ``certificate`` must be what the kind is (docs/formats.md), ``lower_bound``, ``bound`` and ``horizon``
    integers where present (``bound`` may be null), and no lower bound may exceed the length of a line
    that wins: a bound on every winning line bounds this one too.
    """
    statement = "the evidence agrees with its kind and with the replayed line"
    kind = evidence.get("kind")
    if kind is not None and not isinstance(kind, str):
        # a list or an object here ended verify with an internal error (unhashable, exit 70)
        verdict.refute("evidence", statement, "evidence.kind", f"must be a string naming the kind, not {kind!r}"[:200])
        return False
    if kind in CERTIFICATE and "certificate" in evidence and evidence["certificate"] is not CERTIFICATE[kind]:
        verdict.refute("evidence", statement, "evidence.certificate", f"is {evidence['certificate']!r}, but "
                       f"{kind!r} evidence is {'a certificate' if CERTIFICATE[kind] else 'no certificate'}")
        return False
    for key in ("lower_bound", "bound", "horizon"):
        if key not in evidence or (key == "bound" and evidence[key] is None):
            continue
        value = evidence[key]
        if not is_integer(value) or value < 0:
            verdict.refute("evidence", statement, f"evidence.{key}", f"must be a non-negative integer, not {value!r}")
            return False
        if key != "horizon" and won_in is not None and value > won_in:
            verdict.refute("evidence", statement, f"evidence.{key}",
                           f"claims no win in fewer than {plural(value, 'turn')}, "
                           f"but the replayed line wins in {won_in}: a lower bound above the line's length "
                           "contradicts the line")
            return False
    return True


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
        why = ("the time limit" if result.stopped_by == "time"
               else f"the node limit ({plural(cap, 'state', grouped=True)})")
        verdict.unknown(name, statement, f"the re-check was stopped by {why} after "
                        f"{plural(result.states, 'state', grouped=True)}, "
                        f"{plural(len(result.per_depth) - 1, 'turn')} deep")
    elif result.no_win:
        if horizon is None:
            basis = ("no win anywhere: plain enumeration of all "
                     f"{plural(result.states, 'reachable state', grouped=True)}")
        else:
            basis = (f"no win within {plural(horizon, 'turn')}: plain enumeration of "
                     f"{plural(result.states, 'state', grouped=True)}")
        verdict.certify(name, statement, basis + " (rules engine only)")
    elif horizon is None:
        verdict.refute(name, statement, "claim.solvable", "a winning line exists (found by the plain enumeration)")
    else:
        verdict.refute(name, statement, "claim.optimal",
                       f"a win exists within {plural(horizon, 'turn')}: the line is not shortest")


def relaxation_named(evidence: dict[str, Any], name: str, statement: str, verdict: Verdict) -> str | None:
    """The relaxation a certificate names, checked: its ``ends`` (``tracked`` or ``unknown``), or ``None``
    after refuting a name or an ``ends`` this version does not check."""
    if evidence.get("relaxation") != RELAXATION:
        verdict.refute(name, statement, "evidence.relaxation", f"names relaxation {evidence.get('relaxation')!r}; "
                       f"this version checks {RELAXATION!r}")
        return None
    ends = evidence.get("ends", "tracked")
    if ends not in ("tracked", "unknown"):
        verdict.refute(name, statement, "evidence.ends", f"must be 'tracked' or 'unknown', not {ends!r}")
        return None
    return str(ends)


def recompute(claimed: int, ends: str, game: Any, start: Any, limits: Limits,
              progress: Callable[[int, int], None] | None = None) -> Bound | None:
    """The relaxation bound of ``start`` recomputed from the rules by :mod:`.relaxed`, each goal row searched
    ``claimed`` relaxed turns deep (so a bound found above ``claimed`` reads ``claimed + 1``: "more");
    ``None`` when the deadline stopped it. ``progress``: the goal row and the states expanded so far."""
    try:
        return relaxed_bound(game.challenge, game.options, start, track_ends=ends == "tracked",
                             at_least=claimed + 1, stop=limits.deadline.expired, progress=progress)
    except Stopped:
        return None


def _value(bound: Bound, cap: int | None) -> str:
    if bound.bound is None:
        return "no goal (null)"
    if cap is not None and bound.bound > cap:
        return f"more than {cap}"
    return str(bound.bound)


def bound_as_claimed(bound: Bound, claimed: Any, cap: int | None, name: str, statement: str,
                     verdict: Verdict) -> bool:
    """Whether the recomputed ``bound`` (searched ``cap`` turns deep, ``None``: in full) is the one claimed;
    if not, the claim is refuted."""
    if claimed != bound.bound:
        verdict.refute(name, statement, "evidence.bound", f"claims {claimed!r}, but the relaxation recomputed "
                       f"from the rules gives {_value(bound, cap)}")
        return False
    return True


def check_relaxation_bound(evidence: dict[str, Any], name: str, statement: str, horizon: int | None, game: Any,
                           start: Any, verdict: Verdict, limits: Limits) -> None:
    """A relaxation certificate: recompute the bound from the rules and the deal, trusting nothing in the record.

    The bound is recomputed by :mod:`.relaxed`, which shares no code with the solver. The record only names
    the relaxation and the bound it claims (an integer, or null). Optimality (``horizon`` = length - 1) is
    certified only when the recomputed bound equals the line's length, unsolvability (``horizon`` ``None``)
    only when the relaxation reaches no goal at all. A bound above the line's length, or a null bound
    beside a winning line, contradicts the line and is refuted at once. A recomputation cut short by the
    time limit leaves the claim unknown, not invalid.
    """
    ends = relaxation_named(evidence, name, statement, verdict)
    if ends is None:
        return
    claimed = evidence.get("bound")
    if claimed is not None and not is_integer(claimed):
        verdict.refute(name, statement, "evidence.bound", f"must be an integer or null, not {claimed!r}")
        return
    if horizon is not None and claimed is None:
        verdict.refute(name, statement, "evidence.bound", "says the relaxation reaches no goal, but the replayed "
                       "line wins")
        return
    if limits.deadline.expired():
        verdict.unknown(name, statement, limits.stopped_words("before the relaxation bound was recomputed"))
        return
    with limits.progress("recomputing the relaxation bound", "goal row", "relaxed states expanded") as show:
        if claimed is None:  # no win at all: every goal row searched in full
            try:
                bound: Bound | None = relaxed_bound(game.challenge, game.options, start,
                                                    track_ends=ends == "tracked", stop=limits.deadline.expired,
                                                    progress=show)
            except Stopped:
                bound = None
            cap = None
        elif horizon is not None and claimed == horizon + 1:
            # The bound claimed is the (replayed, winning) line's length n: it suffices to recompute that the
            # bound is at least n. The bound is a lower bound on every winning line, this one included, so it
            # is then exactly n; searching relaxed states only n - 1 turns deep is much cheaper.
            bound, cap = recompute(claimed - 1, ends, game, start, limits, show), claimed - 1
            if bound is not None and (bound.bound is None or bound.bound >= claimed):
                verdict.checked.append("the relaxation bound, recomputed from the rules and the deal by verify's "
                                       f"own relaxation: no relaxed line is shorter than {plural(claimed, 'turn')} "
                                       f"({bound.describe()}; the replayed line wins in {claimed}, so the bound "
                                       f"is {claimed})")
                verdict.checked.append(f"no win within {plural(horizon, 'turn')}: the bound equals the line's length")
                verdict.certify(name, statement, f"the relaxation bound recomputed from the rules is "
                                f"{plural(claimed, 'turn')}, the line's length")
                return
        else:
            bound, cap = recompute(claimed, ends, game, start, limits, show), claimed
    if bound is None:
        verdict.unknown(name, statement, limits.stopped_words("while the relaxation bound was recomputed"))
        return
    if not bound_as_claimed(bound, claimed, cap, name, statement, verdict):
        return
    verdict.checked.append("the relaxation bound, recomputed from the rules and the deal by verify's own "
                           f"relaxation: {bound.describe()}")
    if horizon is None:
        if bound.bound is not None:
            verdict.refute(name, statement, "claim.solvable", f"claims no win at all, but the relaxation bound is "
                           f"{plural(bound.bound, 'turn')}: it does not rule out a win")
        else:
            verdict.checked.append("no win at all: the relaxation reaches no goal")
            verdict.certify(name, statement, "the relaxation recomputed from the rules reaches no goal")
    else:
        assert claimed is not None  # a null bound beside a winning line was refuted above
        verdict.refute(name, statement, "claim.optimal", f"the relaxation bound is {plural(claimed, 'turn')} but "
                       f"the line has {horizon + 1}: its optimality is not certified by this bound")


#: Expansions ``verify`` gives a ``relaxation-search`` certificate's search when no ``--max-nodes`` is set.
SEARCH_NODES = 1_000_000


def check_relaxation_search(evidence: dict[str, Any], name: str, statement: str, horizon: int | None, game: Any,
                            start: Any, verdict: Verdict, limits: Limits) -> None:
    """A relaxation-search certificate: the relaxation bound recomputed, then every line of up to ``horizon``
    turns searched over the rules engine, pruned by relaxed distances (:mod:`.bounded`).

    The record names the relaxation, its bound and the horizon searched; the bound must be what the
    rules give (recomputed by :mod:`.relaxed`), and the horizon must be the line's length less one. The
    search is repeated here in full, a plain depth-first enumeration of the rules engine's moves that
    drops a position whose relaxed distance to a goal exceeds the turns left. A search cut short by a
    limit leaves the claim unknown.
    """
    if horizon is None:
        verdict.refute(name, statement, "evidence.kind", "a relaxation search certifies no line shorter than a line "
                       "found, never that no line wins")
        return
    ends = relaxation_named(evidence, name, statement, verdict)
    if ends is None:
        return
    searched, claimed = evidence.get("horizon"), evidence.get("bound")
    if not is_integer(searched) or searched != horizon:
        verdict.refute(name, statement, "evidence.horizon", f"says lines up to {searched!r} turns were searched; "
                       f"the line has {plural(horizon + 1, 'turn')}, so {horizon} is needed")
        return
    if not is_integer(claimed):
        verdict.refute(name, statement, "evidence.bound", f"must be an integer (the relaxation bound of the "
                       f"start, below the line's length), not {claimed!r}")
        return
    if limits.deadline.expired():
        verdict.unknown(name, statement, limits.stopped_words("before the relaxation bound was recomputed"))
        return
    with limits.progress("recomputing the relaxation bound", "goal row", "relaxed states expanded") as show:
        bound = recompute(claimed, ends, game, start, limits, show)
    if bound is None:
        verdict.unknown(name, statement, limits.stopped_words("while the relaxation bound was recomputed"))
        return
    if not bound_as_claimed(bound, claimed, claimed, name, statement, verdict):
        return
    assert bound.bound is not None
    verdict.checked.append("the relaxation bound, recomputed from the rules and the deal by verify's own "
                           f"relaxation: {bound.describe()}")
    if horizon < bound.bound:
        verdict.checked.append(f"no win within {plural(horizon, 'turn')}: the bound is {bound.bound}")
        verdict.certify(name, statement,
                        f"the relaxation bound recomputed from the rules is {plural(bound.bound, 'turn')}")
        return
    cap = limits.nodes if limits.nodes is not None else SEARCH_NODES
    how = f"the search of every line of up to {plural(horizon, 'turn')} pruned by the relaxed distances"
    with limits.progress(f"searching every line of up to {plural(horizon, 'turn')}", "horizon",
                         "nodes expanded") as show:
        show(horizon, 0)
        distances = GoalDistances(views(game.challenge, game.options, start, track_ends=ends == "tracked"),
                                  stop=limits.deadline.expired)
        found = win_within(game, distances, bound.combine, horizon, cap, stop=limits.deadline.expired,
                           progress=show)
    if found.line is not None:
        verdict.refute(name, statement, "claim.optimal",
                       f"{how} found a win in {plural(len(found.line), 'turn')}: the line "
                       "is not shortest")
    elif not found.exhausted:
        why = "the time limit" if limits.deadline.expired() else \
            f"the node limit ({plural(cap, 'expansion', grouped=True)})"
        verdict.unknown(name, statement, f"the search was stopped by {why} after "
                        f"{plural(found.expanded, 'expansion', grouped=True)}")
    else:
        verdict.checked.append(f"no win within {plural(horizon, 'turn')}: {how} over the rules engine found none "
                               f"({plural(found.expanded, 'position', grouped=True)} expanded; exhaustive search)")
        verdict.certify(name, statement, f"the relaxation bound recomputed from the rules is "
                        f"{plural(bound.bound, 'turn')}, and an exhaustive search over the rules engine pruned by it "
                        f"finds no line of up to {plural(horizon, 'turn')}")
