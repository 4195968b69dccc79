"""Strato with the pile's order hidden: the chance model against the open engine, the observation and
sampler, and the exact solo win probability against a naive expectimax, the open-information bound and the
greedy agent; policy proofs that verify and mutated ones that do not.

The tiny deals are made from seeded challenge-0 and challenge-1 deals by playing seeded random open turns
until few cards are left in the pile (``tiny_deals``): real positions of the game, small enough for the
naive enumerations below.
"""

from __future__ import annotations

import copy
import itertools
import random
import re
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from functools import cache

import pytest

from stratagem.core.errors import IllegalMove, NotationError, UnsupportedGame
from stratagem.models.strato.hidden.game import (
    DRAW,
    PLAY,
    REVEAL,
    TARGET,
    HiddenState,
    HiddenStrato,
    announce,
    format_hidden,
    hide,
    parse_hidden,
)
from stratagem.models.strato.hidden.odds import TurnBound, greedy_move, solo_odds, win_payoff
from stratagem.models.strato.rules.challenge import Options
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import ONGOING, WON, State, parse_state
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.heuristic import lower_bound
from stratagem.solvers.mdp import check_policy_dag, policy_dag, policy_value
from tests.models.strato.support import puzzle_challenge

OPTIONS = Options()


def play_open(game: StratoGame, state: State, rng: random.Random, turns: int) -> State:
    for _ in range(turns):
        moves = game.legal_moves(state)
        if game.is_terminal(state) or not moves:
            break
        state = game.apply(state, rng.choice(moves))
    return state


def tiny_deals(count: int, pile_at_most: int = 3, players: int = 1) -> list[tuple[StratoGame, State]]:
    """``count`` ongoing positions with at most ``pile_at_most`` cards in the pile, close to the goal
    (at most 2 turns by the admissible bound), so that the draws decide: seeded deals of challenges 0
    and 1 played by a seeded mix of greedy (smallest bound) and random open moves."""
    found: list[tuple[StratoGame, State]] = []
    for seed in itertools.count():
        challenge = puzzle_challenge("challenge-0" if seed % 3 else "challenge-1")
        start = seeded_deal(challenge, seed, players)
        game = StratoGame(challenge, OPTIONS, start)
        rng = random.Random(seed)
        state = start
        while not game.is_terminal(state) and len(state.pile) > pile_at_most:
            plays = game.plays(state)
            if rng.random() < 0.6:
                state = min(plays, key=lambda pair: lower_bound(challenge, pair[1]) if pair[1].status == ONGOING
                            else (0 if pair[1].status == WON else 99))[1]
            else:
                state = rng.choice(plays)[1]
        if (state.status == ONGOING and not game.is_terminal(state) and state.pile
                and lower_bound(challenge, state) <= 2):
            found.append((StratoGame(challenge, OPTIONS, state), state))
        if len(found) == count:
            return found
    raise AssertionError("unreachable")


# -- the chance model replays the open engine -------------------------------------------------------


def replay_hidden(hidden: HiddenStrato, open_state: State, move: Move) -> State:
    """The open move ``move`` played in the hidden game, its chance outcomes taken from the open pile."""
    state = hide(open_state)
    pile = open_state.pile
    if move.redraw:
        state = hidden.apply(state, announce(move.row, move.end))
        state = hidden.apply(state, pile[0])
        pile = pile[1:]
    state = hidden.apply(state, move)
    while state.status == ONGOING and state.phase == DRAW:
        state = hidden.apply(state, pile[0])
        pile = pile[1:]
    return state


@pytest.mark.parametrize("players", [1, 2, 4])
def test_engine_hidden_turns_equal_open_turns_with_the_same_draws(players: int) -> None:
    rng = random.Random(players)
    for seed in range(6):
        challenge = puzzle_challenge("challenge-1" if seed % 2 else "challenge-0")
        start = seeded_deal(challenge, seed, players)
        game = StratoGame(challenge, OPTIONS, start)
        state = start
        while not game.is_terminal(state):
            move = rng.choice(game.legal_moves(state))
            after = game.apply(state, move)
            hidden = HiddenStrato(challenge, OPTIONS, state)
            got = replay_hidden(hidden, state, move)
            want = hide(after)
            if after.status != ONGOING:  # the hidden game stops drawing once the table decides
                assert (got.rows, got.status) == (want.rows, want.status)
            else:
                assert got == want
            state = after


def random_solo_decisions(rng_seed: int) -> Iterator[tuple[HiddenStrato, HiddenState, list[tuple[Move, HiddenState]]]]:
    """Every play and target state of eight random solo games (challenges 0 and 1), with its plays."""
    rng = random.Random(rng_seed)
    for seed in range(8):
        challenge = puzzle_challenge("challenge-1" if seed % 2 else "challenge-0")
        start = hide(seeded_deal(challenge, seed, 1))
        game = HiddenStrato(challenge, OPTIONS, start)
        state = start
        while not game.is_terminal(state):
            if state.phase in (PLAY, TARGET):
                plays = game.plays(state)
                yield game, state, plays
                state = rng.choice(plays)[1]
            else:
                state = game.apply(state, rng.choice(game.chance_outcomes(state))[0])


def test_engine_one_play_by_index_is_that_of_all_plays() -> None:
    """``HiddenStrato.play(state, i)`` (a value table's policy rows) is ``plays(state)[i]`` at every play
    and target state of random solo games, and no other index is a play."""
    checked = 0
    for game, state, plays in random_solo_decisions(3):
        assert [game.play(state, i) for i in range(len(plays))] == plays
        for wrong in (-1, len(plays)):
            with pytest.raises(IndexError):
                game.play(state, wrong)
        checked += len(plays)
    assert checked > 1000


def test_engine_resolve_finds_each_play_and_refuses_what_is_not_one() -> None:
    """``HiddenStrato.resolve`` (the rules' outcomes of one card at one end: ``apply`` and a value table's
    policy rows) returns each of ``plays``' moves with its state, an exchange named either way round, and
    refuses a card not in hand, a target the rules do not offer, a Redraw announced at a target state."""
    rng = random.Random(5)
    checked = refused = 0
    for game, state, plays in random_solo_decisions(5):
        for move, after in plays:
            assert game.resolve(state, move) == (move, after)
            if move.exchange:
                assert game.resolve(state, move._replace(target=move.target[::-1])) == (move, after)
            checked += 1
        move = rng.choice(plays)[0]
        wrong = [move._replace(card=w) for w in "CFRSTW" if w not in state.hands[0] and w != move.card]
        wrong += [move._replace(target=(), exchange=False)] if move.target else []
        wrong += [move._replace(redraw=not move.redraw)] if move.card else []
        if state.phase == TARGET:
            wrong.append(announce(state.row, state.end))
        for bad in wrong:
            if bad in [m for m, _ in plays]:
                continue
            with pytest.raises(IllegalMove):
                game.resolve(state, bad)
            refused += 1
    assert checked > 1000 and refused > 300


def test_seed_redraw_announces_the_place_before_the_card_is_revealed() -> None:
    """Seed: "you must announce where you're going to place the card before revealing it"."""
    open_game, state = tiny_deals(1, pile_at_most=6)[0]
    hidden = HiddenStrato(open_game.challenge, OPTIONS, state)
    root = hidden.initial_state()
    announced = hidden.apply(root, hidden.parse_move(root, "!1L"))
    assert (announced.phase, announced.hands[0], hidden.to_move(announced)) == (REVEAL, "", -1)
    outcomes = hidden.chance_outcomes(announced)
    counts = Counter(root.pile)
    assert outcomes == [(w, Fraction(counts[w], len(root.pile))) for w, _ in outcomes]
    assert sum(p for _, p in outcomes) == 1
    card = outcomes[0][0]
    revealed = hidden.apply(announced, card)
    assert (revealed.phase, revealed.card, revealed.row, revealed.end) == (TARGET, card, 0, 0)
    assert all(m.redraw and m.card == card and (m.row, m.end) == (0, 0) for m in hidden.legal_moves(revealed))


def test_ruling_hidden_model_refuses_strict_effect() -> None:
    challenge = puzzle_challenge("challenge-0")
    with pytest.raises(UnsupportedGame, match="strict_effect"):
        HiddenStrato(challenge, Options(strict_effect=True), seeded_deal(challenge, 1, 1))


@pytest.mark.parametrize(("text", "problem"), [
    ("RW(RW)RW RRW {RW} 1 -", "at least 6 fields"),
    ("RW(RW)RW RRW RW 1 - play", "multiset in braces"),
    ("RW(RW)RW RRX {RW} 1 - play", "unknown weather letter 'X'"),
    ("RW(RW)RW RRW {RQ} 1 - play", "unknown weather letter 'Q'"),
    ("RW(RW)RW RRW {RW} 2 - play", "player to move '2'"),
    ("RW(RW)RW RRW {RW} 1 - wait", "phase 'wait'"),
    ("RW(RW)RW - {RW} 1 - draw", "needs its details"),
    ("RW(RW)RW RRW {RW} 1 - play won extra", "unexpected 'won extra'"),
])
def test_notation_malformed_hidden_positions_are_refused(text: str, problem: str) -> None:
    """Each malformed field gets its own message, every time (the fields' parse is remembered only when it
    succeeds), and the well-formed position still parses after it."""
    for _ in range(2):
        with pytest.raises(NotationError, match=re.escape(problem)):
            parse_hidden(text)
    assert parse_hidden("RW(RW)RW RRW {RW} 1 - play").pile == "RW"


def test_notation_of_hidden_positions_round_trips() -> None:
    open_game, state = tiny_deals(1, pile_at_most=6)[0]
    hidden = HiddenStrato(open_game.challenge, OPTIONS, state)
    rng = random.Random(3)
    s = hidden.initial_state()
    seen = set()
    redrawn = False
    while not hidden.is_terminal(s):
        assert parse_hidden(format_hidden(s)) == s
        seen.add(s.phase)
        if hidden.to_move(s) < 0:
            s = hidden.apply(s, rng.choice([o for o, _ in hidden.chance_outcomes(s)]))
        else:
            moves = hidden.legal_moves(s)
            redraws = [m for m in moves if m.redraw]
            move = redraws[0] if redraws and not redrawn else rng.choice(moves)
            redrawn = redrawn or move.redraw
            s = hidden.apply(s, move)
    assert parse_hidden(format_hidden(s)) == s
    assert {PLAY, REVEAL, TARGET} <= seen


# -- observation and sampler ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_sampled_states_have_the_observation_they_were_sampled_from(players: int) -> None:
    rng = random.Random(players)
    for seed in range(8):
        challenge = puzzle_challenge("challenge-1")
        open_game = StratoGame(challenge, OPTIONS, seeded_deal(challenge, seed, players))
        state = play_open(open_game, open_game.initial_state(), rng, seed % 5)
        game = HiddenStrato(challenge, OPTIONS, state)
        for player in range(players):
            for _ in range(5):
                sample = game.sample_state(game.initial_state(), player, rng)
                assert game.observation(sample, player) == game.observation(game.initial_state(), player)
                assert Counter(sample.pile + "".join(sample.hands)) == Counter(state.pile + "".join(state.hands))
            open_sample = open_game.sample_state(state, player, rng)
            assert open_game.observation(open_sample, player) == open_game.observation(state, player)


def test_open_sampler_deals_each_unseen_card_uniformly_over_the_pile() -> None:
    """Chi-square with a fixed seed: at every place of the pile, each unseen weather turns up as often as
    its share of the unseen cards says (the other hand is sorted, so its places are not compared)."""
    scipy_stats = pytest.importorskip("scipy.stats")
    challenge = puzzle_challenge("challenge-0")
    state = seeded_deal(challenge, 5, 2)
    game = StratoGame(challenge, OPTIONS, state)
    rng = random.Random(0)
    runs = 2000
    at: list[Counter[str]] = [Counter() for _ in state.pile]
    for _ in range(runs):
        sample = game.sample_state(state, 0, rng)
        assert sample.hands[0] == state.hands[0]
        for i, card in enumerate(sample.pile):
            at[i][card] += 1
    unseen = Counter(state.pile + state.hands[1])
    total = sum(unseen.values())
    weathers = sorted(unseen)
    for i, counts in enumerate(at):
        observed = [counts[w] for w in weathers]
        expected = [runs * unseen[w] / total for w in weathers]
        p = scipy_stats.chisquare(observed, expected).pvalue
        assert p > 0.001, (i, observed, expected)


# -- the exact solo win probability -------------------------------------------------------------------


def naive_value(open_game: StratoGame, state: State) -> Fraction:
    """The optimal solo win probability by the plainest expectimax over the **open** engine: no memo;
    each chance event enumerated card by card (every physical card of the pile equally likely to be the
    one drawn, duplicates counted separately); a decision never sees the cards still to come."""
    if state.status == WON:
        return Fraction(1)
    plays = open_game.plays(state)  # none once the game is over
    if not plays:
        return Fraction(0)
    pile = state.pile
    if not pile:  # nothing left to draw: no chance, no Redraw
        best = Fraction(0)
        for _, after in plays:
            best = max(best, naive_value(open_game, after))
            if best == 1:  # no move does better than a sure win
                break
        return best
    n = len(pile)
    # The open engine draws the pile's top card: put each physical card on top in turn.
    tops = [dict(open_game.plays(state._replace(pile=pile[i] + pile[:i] + pile[i + 1:]))) for i in range(n)]
    best = Fraction(0)
    for move in [m for m in tops[0] if not m.redraw]:  # a play from hand, then a card drawn
        best = max(best, sum((naive_value(open_game, top[move]) for top in tops), Fraction(0)) / n)
        if best == 1:
            return best
    for row, end in sorted({(m.row, m.end) for m in tops[0] if m.redraw}):  # a Redraw announced here
        total = Fraction(0)
        for i in range(n):  # the revealed card; then the best target; then the refill, card by card
            rest = pile[:i] + pile[i + 1:]
            refills = list(itertools.permutations(range(len(rest)), min(open_game.hand_size, len(rest))))
            outcomes: dict[Move, Fraction] = {}
            for order in refills:
                drawn = "".join(rest[j] for j in order) + "".join(rest[j] for j in range(len(rest)) if j not in order)
                for move, after in open_game.plays(state._replace(pile=pile[i] + drawn)):
                    if move.redraw and (move.row, move.end) == (row, end):
                        outcomes[move] = outcomes.get(move, Fraction(0)) + naive_value(open_game, after)
            total += max(outcomes.values()) / len(refills)
        best = max(best, total / n)
    return best


def open_winnable_fraction(open_game: StratoGame, state: State) -> Fraction:
    """The fraction of the pile's orders from which the open-information game can be won."""

    @cache
    def winnable(s: State) -> bool:
        if s.status == WON:
            return True
        if open_game.is_terminal(s):
            return False
        return any(winnable(open_game.apply(s, m)) for m in open_game.legal_moves(s))

    orders = set(itertools.permutations(state.pile))
    return Fraction(sum(winnable(state._replace(pile="".join(o))) for o in orders), len(orders))


#: Hand-made solo positions of challenge 0 (goal: 4 rain by the rain tornado, 4 wind by the wind
#: tornado, limit 6) with two or three cards left in the pile: small enough for the naive expectimax,
#: and most of them neither sure wins nor sure losses (found by a seeded random search over half-rows,
#: hands and piles, kept when the naive expectimax took under a second).
TINY_POSITIONS = [
    "RRWR(RW)WWRW RRR WRR 1 -",  # 2/3
    "RRWR(RW)WWRW WWW WWR 1 -",  # 2/3
    "RRWR(RW)WWWR RRR WRR 1 -",  # 2/3
    "RWRR(RW)WRWW WWW WWR 1 -",  # 1/3
    "RWRR(RW)WRWW WWW WRW 1 -",  # 1/3
    "RRWR(RW)WRWW WWW WRW 1 -",  # 1/3
    "RRWR(RW)WWRW RRR RR 1 -",  # 0
    "RWRR(RW)WRWW RRR RR 1 -",  # 0
    "WRRR(RW)WWRW RRR RR 1 -",  # 1
    "RRWR(RW)WWWR RRR WR 1 -",  # 1
    "RRWR(RW)WWWR RRR RW 1 -",  # 1
    "RRWR(RW)WWWR RRR RR 1 -",  # 0
    "RRWR(RW)WWWR RRW RR 1 -",  # 1
    "RRWR(RW)WWWR RWW WW 1 -",  # 1
    "WRRW(RW)WWW RRR RR 1 -",  # 0
    "WRRR(RW)WWWW RWW WRW 1 -",  # 1
    "WR(RW)WWW RRR RW 1 -",  # 1
    "RRW(RW)WWWW RRW RR 1 -",  # 1
    "RR(RW)WRW RWW RR 1 -",  # 1
    "RRR(RW)RWW RWW RR 1 -",  # 1
]
TINY = [(StratoGame(puzzle_challenge("challenge-0"), OPTIONS, parse_state(text)), parse_state(text))
        for text in TINY_POSITIONS]


#: The first six (odds between 0 and 1) take the naive expectimax minutes on a loaded machine: slow.
NAIVE_CASES = [pytest.param(i, marks=pytest.mark.slow) if i < 6 else i for i in range(len(TINY))]


@pytest.mark.parametrize("index", NAIVE_CASES)
def test_exact_solo_value_equals_a_naive_expectimax_and_respects_its_bounds(index: int) -> None:
    open_game, state = TINY[index]
    hidden = HiddenStrato(open_game.challenge, OPTIONS, state)
    answer = solo_odds(hidden)
    assert answer.status == "solved" and answer.value is not None
    assert answer.value == naive_value(open_game, state)
    assert answer.value <= open_winnable_fraction(open_game, state)
    assert answer.greedy is not None and answer.greedy <= answer.value
    bound = TurnBound(hidden)
    greedy, _ = policy_value(hidden, hidden.initial_state(), lambda s: greedy_move(hidden, bound, s), win_payoff)
    assert greedy == answer.greedy
    assert answer.ranking[0][1] == answer.value and answer.ranked
    checked = check_policy_dag(hidden, hidden.initial_state(), [n.to_json() for n in answer.proof], win_payoff,
                               information=lambda s: hidden.observation(s, 0))
    assert checked.valid and checked.value == answer.value, checked.problem


def test_the_plain_search_shows_its_progress(monkeypatch) -> None:
    """``odds`` without ``--table`` can run for minutes: the greedy policy's valuation, then the search, show
    their states and nodes as they go (here every node); the answer is the same with or without a display."""
    from contextlib import contextmanager

    from stratagem.solvers import mdp

    monkeypatch.setattr(mdp, "PROGRESS_EVERY", 1)
    shown: dict[str, list[tuple[int, int]]] = {}

    @contextmanager
    def record(label: str, first: str, second: str) -> Iterator[object]:
        calls = shown.setdefault(f"{label}: {first}, {second}", [])
        yield lambda a, b: calls.append((a, b))

    open_game, state = TINY[-1]
    hidden = HiddenStrato(open_game.challenge, OPTIONS, state)
    answer = solo_odds(hidden, progress=record)
    assert answer.value == solo_odds(hidden).value and answer.status == "solved"
    assert set(shown) == {"odds: the greedy policy: states, nodes visited", "odds search: states kept, nodes visited"}
    for calls in shown.values():
        assert calls and [nodes for _, nodes in calls] == list(range(1, len(calls) + 1))
        assert all(a <= b for (a, _), (b, _) in itertools.pairwise(calls))  # states only grow
    assert 0 < shown["odds search: states kept, nodes visited"][-1][0] <= answer.states


@pytest.mark.parametrize("indexes", [
    # positions 1 and 3-5 (2/3 and 1/3, as 0 and 2 are) take 0.6-0.8 CPU s each: all 20 in the slow run
    pytest.param((0, 2, *range(6, len(TINY))), id="quick"),
    pytest.param(tuple(range(len(TINY))), id="all", marks=pytest.mark.slow),
])
def test_the_values_of_the_tiny_deals_are_not_all_trivial(indexes: tuple[int, ...]) -> None:
    values = {solo_odds(HiddenStrato(TINY[i][0].challenge, OPTIONS, TINY[i][1])).value for i in indexes}
    assert len(values) >= 3  # the comparisons above meet wins, losses and odds in between
    assert any(v is not None and 0 < v < 1 for v in values)


# -- policy proofs ------------------------------------------------------------------------------------


def proof_of(index: int) -> tuple[HiddenStrato, list[dict[str, object]], Fraction]:
    open_game, state = TINY[index]
    hidden = HiddenStrato(open_game.challenge, OPTIONS, state)
    answer = solo_odds(hidden)
    assert answer.value is not None
    return hidden, [n.to_json() for n in answer.proof], answer.value


def a_proof_with(kind: str) -> tuple[HiddenStrato, list[dict[str, object]], Fraction]:
    for i in range(len(TINY)):
        hidden, nodes, value = proof_of(i)
        if any(n["kind"] == kind for n in nodes) and value > 0:
            return hidden, nodes, value
    raise AssertionError(f"no tiny deal's proof has a {kind} node")


def check(hidden: HiddenStrato, nodes: list[dict[str, object]]) -> tuple[bool, Fraction | None, str]:
    result = check_policy_dag(hidden, hidden.initial_state(), nodes, win_payoff,
                              information=lambda s: hidden.observation(s, 0))
    return result.valid, result.value, result.problem


def test_a_policy_with_a_wrong_probability_is_rejected() -> None:
    hidden, nodes, _ = a_proof_with("chance")
    forged = copy.deepcopy(nodes)
    node = next(n for n in forged if n["kind"] == "chance" and len(n["outcomes"]) > 1)  # type: ignore[arg-type]
    node["outcomes"][0][1] = "1"  # type: ignore[index]
    valid, _, problem = check(hidden, forged)
    assert not valid and "probability" in problem


def test_a_policy_missing_an_outcome_is_rejected() -> None:
    hidden, nodes, _ = a_proof_with("chance")
    forged = copy.deepcopy(nodes)
    node = next(n for n in forged if n["kind"] == "chance" and len(n["outcomes"]) > 1)  # type: ignore[arg-type]
    node["outcomes"].pop()  # type: ignore[union-attr]
    valid, _, problem = check(hidden, forged)
    assert not valid and "outcomes" in problem


def test_a_policy_that_peeks_at_the_pile_is_rejected() -> None:
    """After a Redraw reveals a rain, a rain and a wind are left to draw, in an order the player never
    learns: both orders end in the same information state, one node of the DAG. Recorded as two nodes
    playing different moves, the policy depends on the order of the pile: refused."""
    open_game, state = TINY[0]  # RRWR(RW)WWRW RRR, the pile holds R, R, W
    hidden = HiddenStrato(open_game.challenge, OPTIONS, state)
    s = hidden.apply(hidden.apply(hidden.initial_state(), announce(0, 0)), "R")
    root = hidden.apply(s, hidden.legal_moves(s)[0])  # the refill: two cards to draw from {R, W}
    assert (root.phase, root.draws, root.pile) == (DRAW, 2, "RW")
    bound = TurnBound(hidden)
    nodes = [n.to_json() for n in policy_dag(hidden, root, lambda x: greedy_move(hidden, bound, x), win_payoff)]
    assert check_policy_dag(hidden, root, nodes, win_payoff).valid
    incoming: Counter[int] = Counter(o[2] for n in nodes if n["kind"] == "chance" for o in n["outcomes"])
    merged = next(i for i, k in incoming.items() if k >= 2 and nodes[i]["kind"] == "decision")
    state_of = hidden.parse_state(str(nodes[merged]["state"]))
    other = next(m for m in hidden.legal_moves(state_of) if hidden.format_move(state_of, m) != nodes[merged]["move"])
    twin = dict(nodes[merged], id=len(nodes), move=hidden.format_move(state_of, other), child=len(nodes) + 1)
    cut = {"id": len(nodes) + 1, "state": hidden.format_state(hidden.apply(state_of, other)), "kind": "cut"}
    forged = copy.deepcopy(nodes) + [twin, cut]
    parent = next(n for n in forged if n["kind"] == "chance" and any(o[2] == merged for o in n["outcomes"]))
    next(o for o in parent["outcomes"] if o[2] == merged)[2] = twin["id"]
    result = check_policy_dag(hidden, root, forged, win_payoff, information=lambda x: hidden.observation(x, 0))
    assert not result.valid and "cannot tell apart" in result.problem, result.problem


def test_a_forged_leaf_or_cut_is_rejected_and_an_honest_cut_lowers_the_value() -> None:
    hidden, nodes, value = a_proof_with("leaf")
    forged = copy.deepcopy(nodes)
    won = next(n for n in forged if n["kind"] == "leaf" and n["payoff"] == "1")
    won["payoff"] = "0"
    valid, _, problem = check(hidden, forged)
    assert not valid and "payoff" in problem
    forged = copy.deepcopy(nodes)
    cut = next((n for n in forged if n["kind"] == "cut"), None)
    if cut is not None:  # a state the search cut as lost, claimed won
        cut.update(kind="leaf", payoff="1")
        valid, _, problem = check(hidden, forged)
        assert not valid and ("not over" in problem or "payoff" in problem)
    forged = copy.deepcopy(nodes)
    honest = next(n for n in forged if n["kind"] == "leaf" and n["payoff"] == "1")
    honest["kind"] = "cut"  # honest but weaker: a cut counts as lost, so the value falls
    valid, lower, _ = check(hidden, forged)
    assert valid and lower is not None and lower < value


class _StopsAfter:
    """A deadline that expires at its ``calls``-th question (``None``: never), counting the questions."""

    def __init__(self, calls: int | None) -> None:
        self.calls, self.asked = calls, 0

    def expired(self) -> bool:
        self.asked += 1
        return self.calls is not None and self.asked >= self.calls

    def part(self, fraction: float) -> _StopsAfter:
        return _StopsAfter(None)


def test_a_ranking_stopped_after_the_value_was_found_keeps_the_value_exact(monkeypatch) -> None:
    """``odds challenge-0.toml --time-limit 60`` found the start's value, was stopped while it ranked the
    first moves, and then said "win probability unknown ... at least 97/330" above a first move it listed
    as exactly 1. The value found stays exact, with its policy and the moves valued before the stop."""
    from stratagem.solvers import mdp

    monkeypatch.setattr(mdp, "CHECK_EVERY", 1)
    open_game, state = TINY[0]
    hidden = HiddenStrato(open_game.challenge, OPTIONS, state)
    counting = _StopsAfter(None)
    unranked = solo_odds(hidden, deadline=counting, rank=False)  # type: ignore[arg-type]
    full = solo_odds(hidden)
    assert full.ranked and len(full.ranking) > 1 and unranked.value == full.value
    stopped = solo_odds(hidden, deadline=_StopsAfter(counting.asked + 1))  # type: ignore[arg-type]
    assert stopped.status == "solved" and stopped.value == full.value and stopped.lower_bound == full.value
    assert not stopped.ranked and stopped.ranking_stopped_by == "time limit"
    assert stopped.ranking and stopped.ranking[0][1] == full.value
    assert set(stopped.ranking) < set(full.ranking)
    checked = check_policy_dag(hidden, hidden.initial_state(), [n.to_json() for n in stopped.proof], win_payoff,
                               information=lambda s: hidden.observation(s, 0))
    assert checked.valid and checked.value == full.value, checked.problem
