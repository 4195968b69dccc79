"""``stratagem odds`` without ``--table`` runs the compiled search (``models/strato/hidden/optimum.py``, stop 71):
the kernel's exact values of the ``play`` states, Python's sums over the draws between them. Its answer is
the plain search's (``solo_odds``) -- value, greedy value, every first move's value in the same order --
and its policy DAG proves the value through the rules; a limit leaves what the plain search's limits leave.
Challenge 0's solo-1 went from 72-80 s (1.1 million states, 0.8 GB) to about 2 s.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

import stratagem
from stratagem.core.deadline import Deadline
from stratagem.models.strato.hidden import optimum
from stratagem.models.strato.hidden.game import HiddenStrato
from stratagem.models.strato.hidden.odds import SEARCHED_BY, SoloOdds, solo_odds, win_payoff
from stratagem.models.strato.hidden.optimum import compiled_solo_odds
from stratagem.solvers.mdp import check_policy_dag
from tests.interpreted import timed_for_the_compiled_odds
from tests.models.strato.test_hidden import OPTIONS, TINY, tiny_deals

ROOT = Path(__file__).resolve().parents[3]
CHALLENGE_0 = ROOT / "puzzles" / "strato" / "challenge-0.toml"
#: The tiny positions whose plain search takes 0.5 s or more (odds 2/3 and 1/3): the slow run has them.
PLAIN_SLOW = {1, 3, 4, 5}


def _proves(hidden: HiddenStrato, answer: SoloOdds) -> Fraction | None:
    """The value the answer's proof DAG proves, replayed through the rules (None: the DAG is refused)."""
    checked = check_policy_dag(hidden, hidden.initial_state(), [n.to_json() for n in answer.proof], win_payoff,
                               information=lambda s: hidden.observation(s, 0))
    assert checked.valid, checked.problem
    return checked.value


def _same_answer(hidden: HiddenStrato) -> None:
    plain, compiled = solo_odds(hidden), compiled_solo_odds(hidden)
    assert compiled.status == plain.status == "solved"
    assert (compiled.value, compiled.greedy, compiled.ranked) == (plain.value, plain.greedy, plain.ranked)
    assert list(compiled.ranking) == list(plain.ranking)  # every first move, its value, the same order
    assert compiled.searched_by == SEARCHED_BY and plain.searched_by != SEARCHED_BY
    assert _proves(hidden, compiled) == compiled.value


@pytest.mark.parametrize("index", [pytest.param(i, marks=pytest.mark.slow) if i in PLAIN_SLOW else i
                                   for i in range(len(TINY))])
def test_the_compiled_answer_is_the_plain_searchs_on_the_tiny_positions(index: int) -> None:
    open_game, state = TINY[index]
    _same_answer(HiddenStrato(open_game.challenge, OPTIONS, state))


@pytest.mark.parametrize("pile", [3, pytest.param(5, marks=pytest.mark.slow)])
def test_the_compiled_answer_is_the_plain_searchs_on_played_out_deals(pile: int) -> None:
    """Positions of challenges 0 and 1 played down to ``pile`` cards (five: 5-7 plain CPU s each)."""
    for open_game, state in tiny_deals(10, pile):
        _same_answer(HiddenStrato(open_game.challenge, OPTIONS, state))


def test_a_whole_challenge_0_deal_is_ranked_exactly_and_its_policy_proves_it() -> None:
    """solo-1: the plain search ranked its first moves 1, 1, 1, 329/330 (three times) in 72-80 s."""
    timed_for_the_compiled_odds()
    answer = stratagem.odds(CHALLENGE_0, "solo-1")
    assert answer.status == "solved" and answer.result.searched_by == SEARCHED_BY
    assert [(m, str(v)) for m, v in answer.result.ranking] == [
        ("R1L:1R2>1R1", "1"), ("R1R:1L2>1L1", "1"), ("!1L", "1"),
        ("R1L:1R2>1L1", "329/330"), ("R1R:1L2>1R1", "329/330"), ("!1R", "329/330")]
    assert answer.result.greedy == Fraction(97, 330)
    assert _proves(answer.game, answer.result) == 1
    assert answer.claim()["evidence"]["detail"].startswith(f"{SEARCHED_BY} over ")
    assert answer.to_json()["search"] == SEARCHED_BY  # the report names the search (a page says it)


@pytest.mark.parametrize("limit", ["time", "states"])
def test_a_limit_before_the_value_leaves_the_greedy_policy_as_the_proven_bound(limit: str) -> None:
    kwargs = {"time_limit": 0.3} if limit == "time" else {"max_states": 2_000}
    answer = stratagem.odds(CHALLENGE_0, "solo-1", **kwargs)  # type: ignore[arg-type]
    r = answer.result
    assert r.status == "unknown" and r.value is None and not r.ranking
    assert r.stopped_by == ("time limit" if limit == "time" else "state limit")
    if r.greedy is not None:  # 0.06 s of the 0.3 s share on an idle machine; a loaded one may not finish it
        assert r.lower_bound == r.greedy == Fraction(97, 330) and r.proof_source == "greedy policy"
        assert _proves(answer.game, r) == r.greedy
    assert "optimal" not in answer.claim() or answer.claim()["optimal"] is False


class _ExpiresWhenTold:
    """A deadline with no limit until ``expire()``; then every search asking for its time left gets 0."""

    def __init__(self) -> None:
        self.over = False

    def expire(self) -> None:
        self.over = True

    def remaining(self) -> float | None:
        return 0.0 if self.over else None

    def expired(self) -> bool:
        return self.over

    def part(self, fraction: float) -> Deadline:
        return Deadline(None)


def test_a_limit_during_the_ranking_keeps_the_value_exact_with_its_policy(monkeypatch) -> None:
    """The clock runs out once the policy is written out: the value stays exact, proven by its policy, and the
    best first move is listed with it, as the plain search does (test_hidden's ranking test)."""
    timed_for_the_compiled_odds()
    deadline = _ExpiresWhenTold()
    written = optimum.policy_dag

    def then_expire(*args, **kwargs):  # type: ignore[no-untyped-def]
        nodes = written(*args, **kwargs)
        deadline.expire()
        return nodes

    monkeypatch.setattr(optimum, "policy_dag", then_expire)
    deal = stratagem.load(CHALLENGE_0, "solo-1")
    hidden = HiddenStrato(deal.challenge, deal.game.options, deal.start)  # type: ignore[union-attr]
    answer = compiled_solo_odds(hidden, deadline=deadline)  # type: ignore[arg-type]
    assert answer.status == "solved" and answer.value == 1 and answer.lower_bound == 1
    assert not answer.ranked and answer.ranking_stopped_by == "time limit"
    assert answer.ranking and answer.ranking[0][1] == 1
    assert _proves(hidden, answer) == 1


def test_a_pile_the_kernel_cannot_count_goes_to_the_plain_search(tmp_path: Path) -> None:
    """A three-row deal's 39 cards have about 2^88 orders, past the kernel's 64-bit weights: its odds are the
    plain search's (exact fractions), here stopped by the limit with what it proved."""
    puzzle = tmp_path / "three.toml"
    puzzle.write_text('game = "strato"\n[challenge]\nname = "Three rows"\nweathers = "RWSTFC"\nrows = 3\nlimit = 4\n'
                      'rows_required = 1\n[challenge.goal]\nleft = "<<"\nright = ">>"\n[[deals]]\nname = "solo-1"\n'
                      'seed = 1\n')
    answer = stratagem.odds(puzzle, time_limit=0.5)
    assert answer.result.searched_by != SEARCHED_BY and answer.to_json()["search"] == "exhaustive expectimax"
    assert answer.status == "unknown" and answer.result.stopped_by in {"time limit", "state limit"}
