"""Agents that play Strato as players do: each sees only its own hand, the table and which cards are left.

They play :class:`~stratagem.models.strato.hidden.game.HiddenStrato` (the pile's order hidden, other hands
hidden), one agent kind for the whole team (Strato is cooperative: one shared result):

- ``greedy``: the move whose table needs the fewest turns by the admissible bound
  (:func:`~stratagem.models.strato.hidden.odds.greedy_move`).
- ``pimc``: perfect-information Monte Carlo. ``samples`` times, deal the cards the player cannot see
  into the other hands and the pile's order (:meth:`HiddenStrato.sample_state` and a shuffle), and solve
  that open deal with A* (the admissible turn bound) stopped after ``nodes`` expansions: a small budget,
  so on large deals many samples find no line. The first move of each line found is a vote (a Redraw counts for its
  announced end); the move with the most votes is played, shorter lines breaking ties. Choosing a target
  after a Redraw, each target is tried in every sample. No vote at all: the greedy move.
- ``ismcts``: SO-ISMCTS (:func:`~stratagem.solvers.mcts.ismcts`) over the hidden game, one
  determinisation per iteration, random playouts.

Every agent draws its randomness from the ``rng`` it is given, so a seeded match is reproducible.

An agent is handed a :class:`~stratagem.models.strato.hidden.observation.StratoObservation` (what the
player to move sees) and the public rules (:func:`~stratagem.models.strato.hidden.observation.public_game`),
never the true state: ``choose(game, seen, rng)``. Where it searches, it starts from the observation's
canonical state (:meth:`StratoObservation.state`), so its move is a function of the observation and the
random stream alone (``tests/models/strato/test_observation.py`` holds every agent to it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.models.strato.hidden.game import TARGET, HiddenState, HiddenStrato, announce
from stratagem.models.strato.hidden.observation import StratoObservation
from stratagem.models.strato.hidden.odds import TurnBound, greedy_move
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import ONGOING, WON, State
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.planning import StratoPlanning
from stratagem.solvers.mcts import ismcts
from stratagem.solvers.search import FOUND, SOLVED, astar

__all__ = ["AGENT_KINDS", "StratoAgent", "make_strato_agent"]


class StratoAgent:
    """A team's agent: ``choose(game, seen, rng)``, the move of the player to move given what that player
    sees (``seen``) and the public rules (``game``, whose start holds no hand)."""

    name = "agent"

    def choose(self, game: HiddenStrato, seen: StratoObservation, rng: Random) -> Move:
        raise NotImplementedError

    def params(self) -> dict[str, Any]:
        return {}


class GreedyAgent(StratoAgent):
    name = "greedy"

    def __init__(self) -> None:
        self._bounds: dict[int, TurnBound] = {}

    def choose(self, game: HiddenStrato, seen: StratoObservation, rng: Random) -> Move:
        bound = self._bounds.get(id(game))
        if bound is None or bound.game is not game:
            bound = self._bounds[id(game)] = TurnBound(game)
        return greedy_move(game, bound, seen.state())


@dataclass
class PimcAgent(StratoAgent):
    samples: int = 8
    nodes: int = 1000
    #: Seconds a move may take (``None``: no limit): no sample starts after it, and each search stops at it.
    time_limit: float | None = None
    name = "pimc"

    def __post_init__(self) -> None:
        if self.samples < 1 or self.nodes < 1:
            raise ValueError("pimc needs samples >= 1 and nodes >= 1")
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError("pimc's time_limit is a number of seconds above 0")

    def params(self) -> dict[str, Any]:
        return {"samples": self.samples, "nodes": self.nodes}

    def choose(self, game: HiddenStrato, seen: StratoObservation, rng: Random) -> Move:
        state = seen.state()
        moves = game.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        player = state.to_move
        votes: Counter[Move] = Counter()
        lengths: Counter[Move] = Counter()
        open_game = StratoGame(game.challenge, game.options, _open(game.sample_state(state, player, rng), rng))
        deadline = Deadline(self.time_limit)
        for _ in range(self.samples):
            if deadline.expired():
                break
            sample = _open(game.sample_state(state, player, rng), rng)
            if state.phase == TARGET:
                for move in moves:  # the revealed card is on top of the sampled pile
                    after = open_game.apply(sample, move)
                    found = self._line(open_game, after, deadline)
                    if found is not None:
                        votes[move] += 1
                        lengths[move] += len(found)
                continue
            line = self._line(open_game, sample, deadline)
            if line is None or not line:
                continue
            first: Move = line[0]
            vote = announce(first.row, first.end) if first.redraw else first
            votes[vote] += 1
            lengths[vote] += len(line)
        if not votes:
            return GreedyAgent().choose(game, seen, rng)
        order = {move: i for i, move in enumerate(moves)}
        return min(votes, key=lambda m: (-votes[m], lengths[m] / votes[m], order.get(m, len(order))))

    def _line(self, open_game: StratoGame, state: State, deadline: Deadline) -> Any:
        if state.status != ONGOING:
            return [] if state.status == WON else None
        result = astar(StratoPlanning(open_game, state), max_nodes=self.nodes, time_limit=deadline.remaining())
        if result.status in (FOUND, SOLVED) and result.moves is not None:
            return list(result.moves)
        return None


def _open(state: HiddenState, rng: Random) -> State:
    """A hidden-pile state made open by shuffling its pile (during a Redraw's target choice, the revealed
    card on top: the open engine plays the Redraw's card from the pile's top)."""
    pile = list(state.pile)
    rng.shuffle(pile)
    if state.phase == TARGET:
        pile.insert(0, state.card)
    return State(state.rows, state.hands, "".join(pile), state.to_move, state.last, state.status)


@dataclass
class IsmctsAgent(StratoAgent):
    iterations: int = 300
    #: Seconds a move may take (``None``: no limit; the iterations are the budget).
    time_limit: float | None = None
    name = "ismcts"

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError("ismcts needs iterations >= 1")
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError("ismcts's time_limit is a number of seconds above 0")

    def params(self) -> dict[str, Any]:
        return {"iterations": self.iterations}

    def choose(self, game: HiddenStrato, seen: StratoObservation, rng: Random) -> Move:
        state = seen.state()
        moves = game.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        result = ismcts(game, state, iterations=self.iterations, time_limit=self.time_limit, seed=rng.getrandbits(32))
        best = result.best_move
        assert isinstance(best, Move)
        return best


#: The agent kinds ``play strato`` knows, by name, each made from its ``key=value`` parameters.
AGENT_KINDS: dict[str, Callable[..., StratoAgent]] = {"greedy": GreedyAgent, "pimc": PimcAgent,
                                                       "ismcts": IsmctsAgent}


def make_strato_agent(name: str, **params: Any) -> StratoAgent:
    """An agent kind by name with its parameters (``ValueError`` naming the problem otherwise)."""
    if name not in AGENT_KINDS:
        raise ValueError(f"unknown Strato agent {name!r} (one of {', '.join(AGENT_KINDS)})")
    try:
        return AGENT_KINDS[name](**params)
    except TypeError:
        raise ValueError(f"agent {name} takes no parameter among {', '.join(params) or 'none'}") from None
