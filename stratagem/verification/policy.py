"""A solo Strato policy record (``stratagem/policy@1``): its win probability, checked with the rules alone.

The record holds a policy for solo play with the pile's order hidden, as a proof DAG (one move at each
decision node, every card that can be drawn with its probability at chance nodes, down to won and lost
leaves; ``cut`` nodes count as lost). The game is rebuilt from the record's setup and start; the DAG is
replayed through :class:`~stratagem.models.strato.hidden.game.HiddenStrato` and its exact value recomputed
(:func:`~stratagem.solvers.mdp.check_policy_dag`), so the claim "the optimal win probability is at least
p" is certified by construction. Two decision nodes the player cannot tell apart must play the same move,
so a policy that peeks at the pile is refused.

"No policy does better" (``optimal``) rests on the exhaustive search the record reports: not certified,
unless ``--recheck`` repeats it here by a plain memoised expectimax over every state (no pruning, no
ordering, no knowledge of Strato beyond the rules), under the run's limits.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

from stratagem.core.errors import BadInput, NotationError, UnsupportedGame
from stratagem.core.game import CHANCE, TERMINAL
from stratagem.core.records import parse_fraction
from stratagem.core.recursion import deep_recursion
from stratagem.models.strato.hidden.game import PLAY, HiddenState, HiddenStrato, parse_hidden
from stratagem.models.strato.rules.deal import DealError, check_position
from stratagem.models.strato.rules.position import ONGOING, WON, State
from stratagem.models.strato.rules.puzzle import setup_from_data
from stratagem.solvers.mdp import check_policy_dag
from stratagem.verification.evidence import RECHECK
from stratagem.verification.verdict import Limits, Verdict

__all__ = ["check_policy", "plain_value"]

#: States the plain re-check keeps without ``--max-nodes`` (about 1 KB each).
DEFAULT_RECHECK_STATES = 2_000_000



def win_payoff(state: HiddenState) -> Fraction:
    """1 for a won game, 0 for a lost one: what a policy's claimed value is the expectation of (its win
    probability). Written here so that the checker imports nothing from the solver's odds module."""
    return Fraction(1 if state.status == WON else 0)

def policy_game(data: dict[str, Any], record: str) -> tuple[HiddenStrato, HiddenState]:
    """The hidden-pile game and start a policy record was made with, rebuilt from its setup."""
    setup, start = data.get("setup"), data.get("start")
    if data.get("game") != "strato":
        raise BadInput(record, "game", "a stratagem/policy@1 record is about solo Strato")
    if not isinstance(setup, dict):
        raise BadInput(record, "setup", "missing or not an object (the challenge and options)")
    if not isinstance(start, str):
        raise BadInput(record, "start", "missing or not a string")
    challenge, options = setup_from_data(setup, record)
    try:
        state = parse_hidden(start)
    except NotationError as exc:
        raise BadInput(record, "start", str(exc)) from None
    if len(state.rows) != challenge.rows:
        raise BadInput(record, "start", f"{len(state.rows)} row(s), the challenge has {challenge.rows}")
    if state.phase != PLAY or state.status != ONGOING:
        raise BadInput(record, "start", "the start must be a turn to play, the game not over")
    if len(state.hands) != 1:
        raise BadInput(record, "start", f"{len(state.hands)} hands: a policy record is about solo play")
    try:
        check_position(challenge, State(state.rows, state.hands, state.pile, state.to_move, state.last, ONGOING))
        game = HiddenStrato(challenge, options, state)
    except (DealError, UnsupportedGame) as exc:
        raise BadInput(record, "start", str(exc)) from None
    return game, state


#: The keys of a policy record's ``claim`` that :func:`check_policy` reads: the two claims, and the words
#: naming the policy and the search that found it (descriptions, not claims).
POLICY_CLAIMS = ("win_probability", "optimal", "policy", "evidence")


def check_policy(data: dict[str, Any], verdict: Verdict, record: str, limits: Limits) -> None:
    """The record's claims: ``win_probability`` (certified by replaying the policy) and ``optimal``."""
    game, start = policy_game(data, record)
    claim = data.get("claim")
    if not isinstance(claim, dict):
        raise BadInput(record, "claim", "missing or not an object")
    claimed = parse_fraction(claim.get("win_probability"), record, "claim.win_probability")
    if not isinstance(claim.get("optimal", False), bool):
        raise BadInput(record, "claim.optimal", "must be true or false")
    verdict.unchecked(claim, POLICY_CLAIMS, "a policy record")
    statement = f"the optimal solo win probability is at least {claimed} ({float(claimed):.4f})"
    result = check_policy_dag(game, start, data.get("nodes"), win_payoff,
                              information=lambda state: game.observation(state, 0))
    if not result.valid:
        place, _, problem = result.problem.partition(": ")
        verdict.refute("win_probability", statement, place, problem)
        if claim.get("optimal") is True:
            verdict.not_certified("optimal", f"no policy wins with a probability above {claimed}",
                                  "not checked: the record's policy does not replay")
        return
    if result.value != claimed:
        verdict.refute("win_probability", statement, "claim.win_probability",
                       f"the policy's proof DAG is worth {result.value}, not {claimed}")
        return
    verdict.certify("win_probability", statement,
                    f"the policy ({result.nodes:,} nodes) replays through the rules with the pile's order hidden: "
                    "every card drawn with its probability, every leaf's result, one move per information state; "
                    "its exact value recomputed")
    verdict.checked.append(f"policy value {claimed} recomputed from {result.nodes:,} nodes")
    if claim.get("optimal") is not True:
        return
    statement = f"no policy wins with a probability above {claimed}"
    if claimed == 1:
        verdict.certify("optimal", statement, "a probability is at most 1: nothing to search")
        return
    if not limits.recheck:
        verdict.not_certified("optimal", statement, "asserted: the record's evidence is an exhaustive expectimax "
                              f"search, which verify repeats only with {RECHECK}")
        return
    value, states = plain_value(game, start, limits)
    if value is None:
        verdict.unknown("optimal", statement, limits.stopped_words(f"the plain expectimax ({states:,} states)"))
    elif value == claimed:
        verdict.certify("optimal", statement, f"a plain memoised expectimax over every state ({states:,}) gives "
                        "the same value")
    else:
        verdict.refute("optimal", statement, "claim.optimal", f"a plain expectimax over every state gives {value}")


class _Stopped(Exception):
    pass


def plain_value(game: HiddenStrato, start: HiddenState, limits: Limits) -> tuple[Fraction | None, int]:
    """The optimal win probability by the plainest exhaustive expectimax (memoised, nothing pruned), or
    ``(None, states)`` when a limit of the run stopped it. At most ``limits.nodes`` states are kept: the
    limit is looked at as a state is kept (when its value returns), not only as one is entered, since the
    states still open on the stack are kept after those below them."""
    cap = limits.nodes if limits.nodes is not None else DEFAULT_RECHECK_STATES
    memo: dict[Hashable, Fraction] = {}

    def value(state: HiddenState) -> Fraction:
        known = memo.get(state)
        if known is not None:
            return known
        if len(memo) >= cap or (len(memo) % 512 == 0 and limits.deadline.expired()):
            raise _Stopped
        who = game.to_move(state)
        if who == TERMINAL:
            v = win_payoff(state)
        elif who == CHANCE:
            v = sum((p * value(game.apply(state, o)) for o, p in game.chance_outcomes(state)), Fraction(0))
        else:
            v = max(value(game.apply(state, m)) for m in game.legal_moves(state))
        if len(memo) >= cap:
            raise _Stopped
        memo[state] = v
        return v

    try:
        with deep_recursion():
            return value(start), len(memo)
    except _Stopped:
        return None, len(memo)
