"""The guided agent under a time limit (QA pass 56, finding A): a command's deadline bounds its decisions.

Its relaxed distances (``relaxation.TableDistance``) are the slow part: challenge 1's first decisions took
2 to 3.5 s each, and ``play strato --time-limit 1`` and the hidden sweep's guided tasks ran 3 to 6.7 s. A
``time_limit`` (cut to the time left by ``solvers/match.within``, as the other agents' are) now stops
them: the move is then the best found so far, always legal, and the command stops as for any agent. The
guide is built afresh here (``_guides.cache_clear``): a guide another test has filled answers at once.
"""

from __future__ import annotations

import random
import time

import pytest

from stratagem.core.deadline import Deadline
from stratagem.loading import deal_of, load_strato
from stratagem.models.strato.hidden.agents import (
    GuidedAgent,
    RelaxationGuide,
    _guides,
    guided_move,
    make_strato_agent,
)
from stratagem.models.strato.hidden.game import PLAY, TARGET, HiddenStrato
from stratagem.models.strato.hidden.observation import observe, public_game
from stratagem.models.strato.hidden.odds import TurnBound
from stratagem.models.strato.rules.position import ONGOING
from stratagem.solvers.match import MatchStopped
from stratagem.teamplay import play_deal, play_strato
from tests.models.strato.support import PUZZLES


def allowed(seconds: float) -> float:
    """The project's allowance for a limit of ``seconds``: 1.2 times it plus one second."""
    return 1.2 * seconds + 1.0


def challenge_1(name: str) -> HiddenStrato:
    deal = deal_of(load_strato(PUZZLES / "challenge-1.toml"), name)
    return HiddenStrato(deal.challenge, deal.game.options, deal.start)


def test_play_strato_with_a_time_limit_stops_in_time_with_guided() -> None:
    """``stratagem play strato puzzles/strato/challenge-1.toml --agents guided --count 3 --seed 1
    --time-limit 1`` ran 3.0 to 3.7 s (exit 3, 0 games): the first decision alone outran the limit."""
    _guides.cache_clear()
    deadline = Deadline(1.0)
    match = play_strato(PUZZLES / "challenge-1.toml", ["guided"], games=3, seed=1, deadline=deadline)
    assert deadline.elapsed() <= allowed(1.0), deadline.elapsed()
    assert match.stopped_by == "time"


def test_a_deal_played_under_a_deadline_stops_within_the_allowance() -> None:
    """``play_deal`` (what ``play strato`` and the hidden sweep run) with a deadline of 0.5 s: stopped
    (``MatchStopped``, the commands' exit 3) within 1.6 s; the first decision took 2 to 3.5 s before."""
    game = challenge_1("solo-1")
    _guides.cache_clear()
    deadline = Deadline(0.5)
    with pytest.raises(MatchStopped):
        play_deal(game, game.start, GuidedAgent(), random.Random(0), deadline=deadline)
    assert deadline.elapsed() <= allowed(0.5), deadline.elapsed()


#: Challenge 1's solo-1 after three of the guided policy's plays (its pile drawn in order): an unlimited
#: decision there takes about 0.75 CPU s (the first one 3-3.7 s), well above the 0.2-s limit below.
SOLO_1_LATER = "TTRS(RW)RRR/ST(ST)WT RST {RRRRSSSSSSTTTTWWWWWWWW} 1 R play"


def test_a_stopped_decision_returns_a_legal_move_at_once_and_changes_no_later_answer() -> None:
    """A decision of challenge 1's solo-1 stopped after 0.2 s (its relaxed distances half searched): a
    legal move within the allowance. The guide it leaves behind answers the same decision without a limit
    as a fresh guide does (a stop keeps only what was proven), and the agent without a limit plays exactly
    that policy move."""
    game = challenge_1("solo-1")
    rules, state = public_game(game), game.parse_state(SOLO_1_LATER)
    seen = observe(game, state)
    fresh_guide = RelaxationGuide(game)  # the process's tables built first: the stop falls in the distances
    _guides.cache_clear()
    started = time.perf_counter()
    move = GuidedAgent(time_limit=0.2).choose(rules, seen, random.Random(0))
    assert time.perf_counter() - started <= allowed(0.2)
    assert move in game.legal_moves(state)
    fresh = guided_move(game, fresh_guide, TurnBound(game), seen.state())
    assert GuidedAgent().choose(rules, seen, random.Random(0)) == fresh  # on the guide the stop left


def test_every_decision_stopped_at_once_is_legal() -> None:
    """A limit too short for any relaxed distance: every decision falls back (the first candidate, a
    Redraw, a target after one) and is legal, over whole games of solo, duo and four-player deals."""
    for name in ("solo-1", "duo-1", "four-1"):
        game = challenge_1(name)
        rules = public_game(game)
        _guides.cache_clear()
        for seed in range(2):
            rng = random.Random(seed)
            pile = list(game.start.pile)
            rng.shuffle(pile)
            state = game.initial_state()
            plays = 0
            while state.status == ONGOING and plays < 60:
                if state.phase not in (PLAY, TARGET):
                    state = game.apply(state, pile.pop(0))
                    continue
                move = GuidedAgent(time_limit=1e-6).choose(rules, observe(game, state), rng)
                assert move in game.legal_moves(state), (name, seed, move)
                state = game.apply(state, move)
                plays += 1


def test_a_time_limit_is_a_number_of_seconds_above_0() -> None:
    assert make_strato_agent("guided", time_limit=2.5).time_limit == 2.5
    with pytest.raises(ValueError, match="time_limit"):
        make_strato_agent("guided", time_limit=0.0)
    assert make_strato_agent("guided").params() == {}  # records and labels name no limit


def test_the_first_guide_of_a_process_is_built_within_the_limit() -> None:
    """The guide's relaxation tables, built once a process (0.3-1.6 s), were built whatever the limit: a
    decision with a limit of a microsecond in a process without them built them all and kept them. Now
    the limit stops that build too (nothing half-built is kept), the move is the policy's first
    candidate, legal, and a later decision without a limit builds the guide and plays the policy's move.
    On solo-2, whose first decision is quick once the tables are built (solo-1's takes 3 CPU s): the
    tables are challenge 1's whatever the deal."""
    from stratagem.models.strato.search import relaxation

    game = challenge_1("solo-2")
    rules, state = public_game(game), game.initial_state()
    seen = observe(game, state)
    _guides.cache_clear()
    relaxation._all_tables.cache_clear()
    move = GuidedAgent(time_limit=1e-6).choose(rules, seen, random.Random(0))
    assert move in game.legal_moves(state)
    assert relaxation._all_tables.cache_info().currsize == 0  # before: the whole tables, built and kept
    assert _guides.cache_info().currsize == 0
    fresh = guided_move(game, RelaxationGuide(game), TurnBound(game), seen.state())
    assert GuidedAgent().choose(rules, seen, random.Random(0)) == fresh
    assert _guides.cache_info().currsize == 1
