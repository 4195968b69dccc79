"""Agents see what a player sees (issue 29): the observation, the public rules, and decisions that depend on
nothing else.

Two true states that the player to move cannot tell apart (the same table, own hand, counts and unseen
multiset; other hands and the pile dealt differently) must give every agent, for every seed, the same
move; ``redeal`` must give the same sample for them; ``play_deal`` must hand agents nothing but an
observation and rules whose start shows no hand.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from stratagem.models.strato.hidden.agents import AGENT_KINDS, BeliefAgent, StratoAgent, last_plays, make_strato_agent
from stratagem.models.strato.hidden.game import PLAY, TARGET, HiddenState, HiddenStrato, hide
from stratagem.models.strato.hidden.observation import (
    PublicPlay,
    StratoObservation,
    observe,
    public_game,
    public_play,
    public_state,
)
from stratagem.models.strato.hidden.odds import TurnBound
from stratagem.models.strato.rules.cards import COPIES_PER_WEATHER
from stratagem.models.strato.rules.challenge import Options
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.turns import redeal
from stratagem.teamplay import play_deal
from tests.models.strato.support import puzzle_challenge

OPTIONS = Options()

#: Every agent kind with a small budget (the property holds for any budget).
AGENTS = {"greedy": {}, "guided": {}, "pimc": {"samples": 3, "nodes": 60}, "ismcts": {"iterations": 25},
          "cpimc": {"samples": 4, "nodes": 200}, "belief": {"samples": 4, "nodes": 200, "candidates": 3}}


def test_every_agent_kind_is_covered() -> None:
    assert set(AGENTS) == set(AGENT_KINDS)


def walk(game: HiddenStrato, rng: random.Random, decisions: int) -> HiddenState:
    """A true state reached by seeded random moves and draws (ongoing, a player to decide)."""
    state = game.initial_state()
    made = 0
    while made < decisions:
        moves = game.legal_moves(state) if state.phase in (PLAY, TARGET) else None
        if moves is None:
            outcomes = game.chance_outcomes(state)
            after = game.apply(state, rng.choice([o for o, _ in outcomes]))
        else:
            after = game.apply(state, rng.choice(moves))
            made += 1
        if game.is_terminal(after):
            return state if state.phase in (PLAY, TARGET) else walk(game, rng, decisions - 1)
        state = after
    while state.phase not in (PLAY, TARGET):
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    return state


def twin(game: HiddenStrato, state: HiddenState, seed: int) -> HiddenState:
    """A state the player to move cannot tell from ``state`` but with the hidden cards dealt otherwise."""
    rng = random.Random(seed)
    for _ in range(200):
        other = game.sample_state(state, state.to_move, rng)
        if other != state:
            return other
    raise AssertionError("no other deal of the unseen cards")


def positions() -> list[tuple[HiddenStrato, HiddenState, HiddenState]]:
    out = []
    for name in ("challenge-0", "challenge-1"):
        challenge = puzzle_challenge(name)
        for players in (2, 4):
            for seed in (1, 2):
                game = HiddenStrato(challenge, OPTIONS, seeded_deal(challenge, seed, players))
                state = walk(game, random.Random(seed), decisions=seed + players)
                out.append((game, state, twin(game, state, seed)))
    return out


POSITIONS = positions()


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_twins_have_one_observation(index: int) -> None:
    game, state, other = POSITIONS[index]
    assert state.hands != other.hands or state.pile != other.pile
    assert state.hands[state.to_move] == other.hands[other.to_move]
    seen = observe(game, state)
    assert seen == observe(game, other)
    # what the observation holds: the own hand and the counts, never another hand
    assert seen.hand == state.hands[state.to_move]
    assert seen.hand_sizes == tuple(len(h) for h in state.hands)
    assert seen.pile_size == len(state.pile)
    # the deck is accounted for: table, own hand, unseen, discard and a revealed card
    table = "".join(row.left + row.right for row in state.rows)
    total = Counter(table + seen.hand + seen.unseen + seen.discard + seen.card)
    assert total == Counter({w: COPIES_PER_WEATHER for w in game.challenge.weathers})
    # the canonical state keeps the observation
    assert observe(game, seen.state()) == seen


def _agent_cases() -> list[object]:
    """Every agent at every position; PIMC's A* on challenge 1's positions (the last half) takes up to half
    a minute, so those run under ``-m slow``, challenge 0's in the default run."""
    return [pytest.param(index, name, marks=pytest.mark.slow) if name == "pimc" and index >= len(POSITIONS) // 2
            else pytest.param(index, name) for name in sorted(AGENTS) for index in range(len(POSITIONS))]


@pytest.mark.parametrize(("index", "name"), _agent_cases())
def test_twins_get_the_same_decision_from_every_agent_and_seed(index: int, name: str) -> None:
    game, state, other = POSITIONS[index]
    rules = public_game(game)
    for seed in range(3):
        agent = make_strato_agent(name, **AGENTS[name])
        first = agent.choose(rules, observe(game, state), random.Random(seed))
        again = make_strato_agent(name, **AGENTS[name]).choose(rules, observe(game, other), random.Random(seed))
        assert first == again, f"{name}, seed {seed}"
        assert first in game.legal_moves(state) and first in game.legal_moves(other)


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_redeal_depends_on_the_observation_only(index: int) -> None:
    game, state, other = POSITIONS[index]
    p = state.to_move
    for seed in range(10):
        assert redeal(state.hands, state.pile, p, random.Random(seed)) == \
            redeal(other.hands, other.pile, p, random.Random(seed))
        assert game.sample_state(state, p, random.Random(seed)) == game.sample_state(other, p, random.Random(seed))


def test_the_public_rules_show_no_hand() -> None:
    challenge = puzzle_challenge("challenge-1")
    deal = seeded_deal(challenge, 1, 2)
    game = HiddenStrato(challenge, OPTIONS, deal)
    swapped = hide(deal)._replace(hands=(deal.hands[1], deal.hands[0]))
    assert public_state(game, game.start) == public_state(game, swapped)
    assert public_game(game).start == public_state(game, game.start)


class Recorder(StratoAgent):
    """Records what ``play_deal`` hands it and plays the first legal move of the canonical state."""

    name = "recorder"

    def __init__(self) -> None:
        self.seen: list[tuple[HiddenStrato, object]] = []

    def choose(self, game: HiddenStrato, seen: StratoObservation, rng: random.Random) -> Move:
        self.seen.append((game, seen))
        return game.legal_moves(seen.state())[0]


def test_play_deal_hands_agents_observations_only() -> None:
    challenge = puzzle_challenge("challenge-0")
    deal = seeded_deal(challenge, 2, 4)
    game = HiddenStrato(challenge, OPTIONS, deal)
    seats = [Recorder() for _ in range(4)]
    play_deal(game, deal, seats, random.Random(0))
    for seat, agent in enumerate(seats):
        assert agent.seen
        for rules, seen in agent.seen:
            assert isinstance(seen, StratoObservation)
            assert rules.start == public_state(game, game.start) != game.start
            assert seen.player == seat  # a seat's object is only ever handed its own player's view


def test_one_agent_given_for_every_seat_plays_as_a_copy_a_seat() -> None:
    """One object in every seat let an agent read, at seat 2, the hand it had been shown at seat 1 (a
    researcher's agent that keeps its observations): each seat now plays its own copy."""
    challenge = puzzle_challenge("challenge-0")
    deal = seeded_deal(challenge, 2, 4)
    game = HiddenStrato(challenge, OPTIONS, deal)
    agent = Recorder()
    won, turns = play_deal(game, deal, agent, random.Random(0))
    assert agent.seen == []  # the copies played, each its own seat
    seats = [Recorder() for _ in range(4)]
    assert play_deal(game, deal, seats, random.Random(0)) == (won, turns)
    with pytest.raises(ValueError, match="3 agents for 4 seats"):
        play_deal(game, deal, seats[:3], random.Random(0))


def walk_with_plays(game: HiddenStrato, rng: random.Random, decisions: int) -> tuple[HiddenState, list[PublicPlay]]:
    """A true state reached by seeded random moves and draws, with the plays the table saw on the way."""
    state, plays = game.initial_state(), []
    while len(plays) < decisions:
        if state.phase in (PLAY, TARGET):
            move = rng.choice(game.legal_moves(state))
            after = game.apply(state, move)
            if game.is_terminal(after):
                break
            plays.append(public_play(state, move))
            state = after
        else:
            state = game.apply(state, rng.choice([o for o, _ in game.chance_outcomes(state)]))
    while state.phase not in (PLAY, TARGET):
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    return state, plays


@pytest.mark.parametrize(("name", "players", "seed"), [("challenge-0", 4, 1), ("challenge-0", 2, 3),
                                                       ("challenge-1", 4, 2)])
def test_the_belief_agent_decides_from_the_observation_and_the_public_plays(name: str, players: int,
                                                                             seed: int) -> None:
    challenge = puzzle_challenge(name)
    game = HiddenStrato(challenge, OPTIONS, seeded_deal(challenge, seed, players))
    state, plays = walk_with_plays(game, random.Random(seed), decisions=players + 2)
    other = twin(game, state, seed)
    seen, seen_other = observe(game, state, plays=plays), observe(game, other, plays=plays)
    assert seen == seen_other and last_plays(seen), "no evidence to weigh"
    rules = public_game(game)
    for s in range(3):
        first = make_strato_agent("belief", **AGENTS["belief"]).choose(rules, seen, random.Random(s))
        again = make_strato_agent("belief", **AGENTS["belief"]).choose(rules, seen_other, random.Random(s))
        assert first == again and first in game.legal_moves(state)


def test_the_belief_weighs_deals_by_the_other_players_plays() -> None:
    """The model's move probabilities sum to 1 over the moves (beta 0: uniform), and the evidence of real
    plays makes some deals of the unseen cards likelier than others."""
    challenge = puzzle_challenge("challenge-0")
    game = HiddenStrato(challenge, OPTIONS, seeded_deal(challenge, 1, 4))
    state, plays = walk_with_plays(game, random.Random(1), decisions=6)
    seen = observe(game, state, plays=plays)
    rules = public_game(game)
    agent = BeliefAgent(samples=4, nodes=100)
    bound = TurnBound(rules)
    evidence = last_plays(seen)
    for q, play in evidence.items():
        hand = "".join(sorted(play.move.card + seen.unseen[:play.hand_size - 1]))
        hands = tuple(hand if p == q else "" for p in range(len(seen.hand_sizes)))
        options = rules.plays(HiddenState(play.rows, hands, seen.unseen, q, play.last))
        moves = {move for move, _ in options}
        total = sum(agent.move_probability(rules, bound, seen, play._replace(move=m), hand) for m in moves)
        assert total == pytest.approx(1.0)
        flat = BeliefAgent(samples=4, nodes=100, beta=0.0)
        assert flat.move_probability(rules, bound, seen, play, hand) == pytest.approx(
            sum(1 for m, _ in options if m == play.move) / len(options))
    pool = [rules.sample_state(seen.state(), seen.player, random.Random(k)) for k in range(40)]
    weights = [agent.likelihood(rules, bound, seen, world, evidence, {}) for world in pool]
    assert len({round(w, 12) for w in weights}) > 1, "the plays told nothing"


def test_an_agent_parameter_error_names_the_problem() -> None:
    with pytest.raises(ValueError, match=r"agent 'pimc': no parameter 'foo'; its parameters: samples"):
        make_strato_agent("pimc", foo=3)
    with pytest.raises(ValueError, match=r"agent 'pimc': samples='x' is not a whole number"):
        make_strato_agent("pimc", samples="x")
    for name, key, value in (("pimc", "samples", 2.5), ("cpimc", "nodes", 1.5), ("belief", "candidates", 1.5),
                             ("ismcts", "iterations", 2.5), ("cpimc", "samples", True)):
        with pytest.raises(ValueError, match=rf"agent '{name}': {key}={value!r} is not a whole number"):
            make_strato_agent(name, **{key: value})  # 1.5 nodes once hung cpimc; 2.5 samples ended in a TypeError
