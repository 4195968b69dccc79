"""Agents that play Strato as players do: each sees only its own hand, the table and which cards are left.

They play :class:`~stratagem.models.strato.hidden.game.HiddenStrato` (the pile's order hidden, other hands
hidden), one agent kind for the whole team (Strato is cooperative: one shared result):

- ``greedy``: the move whose table needs the fewest turns by the admissible bound
  (:func:`~stratagem.models.strato.hidden.odds.greedy_move`).
- ``guided``: the exact search's guided policy (:func:`guided_move`; ``exact.Solver.guide``, whose exact
  value with its improbable states cut is ``stratagem odds``'s proven lower end): a win at once; a plan
  of the hand that wins whatever is drawn (in a team, only if the other players' turns leave it be);
  else the play whose table is nearest a goal by the table-only relaxation that also bounds ``solve``'s
  optimum (each goal row's relaxed distance, :class:`RelaxationGuide`), ties to the least work left in
  the goal's places less the hand's cards the goal misses, and a Redraw instead when no play comes
  nearer a goal than the table is. As cheap as ``greedy`` a decision once the relaxation's distances are
  known, and far stronger; held to the compiled search's policy move for move (solo). Its ``time_limit``
  (a command's deadline) stops a decision's relaxed distances: then the best play measured so far, else
  the one of least admissible turn bound (:func:`guided_move`).
- ``pimc``: perfect-information Monte Carlo. ``samples`` times, deal the cards the player cannot see
  into the other hands and the pile's order (:meth:`HiddenStrato.sample_state` and a shuffle), and solve
  that open deal with A* (the admissible turn bound) stopped after ``nodes`` expansions: a small budget,
  so on large deals many samples find no line. The first move of each line found is a vote (a Redraw counts for its
  announced end); the move with the most votes is played, shorter lines breaking ties. Choosing a target
  after a Redraw, each target is tried in every sample. No vote at all: the greedy move.
- ``cpimc``: the same PIMC with each sample solved by the **compiled** A*
  (:func:`~stratagem.models.strato.search.compiled_search.compiled_astar`, some 50 to 100 times the
  expansions per CPU second of the Python A*), so the same CPU per decision buys many more samples or
  deeper searches. Defaults: 32 samples of 2,000 expansions.
- ``belief``: ``cpimc`` whose samples are drawn from a **belief over the other hands** formed from what
  the other players did (the observation's :attr:`~StratoObservation.plays`). ``candidates`` times
  ``samples`` deals of the unseen cards are drawn; each is weighted by how likely the other players'
  last plays from hand are if their hands were as that deal has them, under a model of a sensible
  player (the probability of a move grows as ``exp(-beta * extra turns)``, the extra turns being how
  many more the admissible turn bound needs after that move than after the best one); ``samples`` of
  them are drawn by weight (sampling importance resampling) and solved as ``cpimc`` solves them. The
  hand a player held at their last play is the hand the deal gives them now, less the card they drew
  after it (each of their cards equally likely to be it) plus the card they played; a Redraw tells
  nothing of the new hand, and plays before a player's last one are not used (their hand has changed
  by unknown draws since).
- ``ismcts``: SO-ISMCTS (:func:`~stratagem.solvers.mcts.ismcts`) over the hidden game, one
  determinisation per iteration, random playouts.

Every agent draws its randomness from the ``rng`` it is given, so a seeded match is reproducible.

An agent is handed a :class:`~stratagem.models.strato.hidden.observation.StratoObservation` (what the
player to move sees) and the public rules (:func:`~stratagem.models.strato.hidden.observation.public_game`),
never the true state: ``choose(game, seen, rng)``. Where it searches, it starts from the observation's
canonical state (:meth:`StratoObservation.state`), so its move is a function of the observation and the
random stream alone (``tests/models/strato/test_observation.py`` holds every agent to it).

Why one module of over 600 lines: it is the one family of agents a player of the hidden game can be, behind
one protocol (an observation in, a move out) and one registry (:func:`make_strato_agent`); the guided
policy's parts (its guide, tie-break and Redraw end) are kept with it because the exact search's policy is
held to them move for move.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from random import Random
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.latest import Latest
from stratagem.models.strato.hidden.exact import GUIDE_CAP, PLAN_PLAYS
from stratagem.models.strato.hidden.game import PLAY, TARGET, HiddenState, HiddenStrato, announce
from stratagem.models.strato.hidden.observation import PublicPlay, StratoObservation
from stratagem.models.strato.hidden.odds import TurnBound, greedy_move, hand_plan
from stratagem.models.strato.rules.challenge import ANY_CARD, Challenge, Options, SequenceGoal, resolve_token
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import ONGOING, WON, Row, State
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.compiled_search import compiled_astar
from stratagem.models.strato.search.packed import fits
from stratagem.models.strato.search.planning import StratoPlanning
from stratagem.models.strato.search.relaxation import TableDistance, goal_progress
from stratagem.models.strato.search.relaxation_kernel import OutOfTime, TablesStopped
from stratagem.solvers.agents import AgentError, build_agent
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
        # The turn bound of the game played last: a deal is played on one rules object, and one kept per
        # game ever seen (with the game, 0.7 MB a deal of challenge 1) grew without end over many deals.
        self._bound: TurnBound | None = None

    def choose(self, game: HiddenStrato, seen: StratoObservation, rng: Random) -> Move:
        bound = self._bound
        if bound is None or bound.game is not game:
            bound = self._bound = TurnBound(game)
        return greedy_move(game, bound, seen.state())


class RelaxationGuide:
    """How near a goal a table is by the table-only relaxation that bounds ``solve``'s optimum
    (:class:`~stratagem.models.strato.search.relaxation.TableDistance`, built from the public start: the
    plays of every weather in hand and pile, whatever their order): the distances the exact search's
    guided policy reads (``exact.Solver.guide``), told apart up to ``cap`` (farther: ``cap + 1``)."""

    def __init__(self, game: HiddenStrato, stop: Callable[[], bool] | None = None) -> None:
        """``stop`` ends the relaxation tables' build (``TablesStopped``; a process's first: 0.3-1.6 s)."""
        self.game = game
        start = game.start
        self.table = TableDistance(game.challenge, game.options,
                                   State(start.rows, start.hands, start.pile, 0, start.last, ONGOING), stop)

    def __call__(self, rows: tuple[Row, ...], cap: int = GUIDE_CAP, stop_at: float = -1.0) -> int:
        """``rows``'s distance; ``OutOfTime`` when ``stop_at`` (a ``time.perf_counter`` time, negative: none)
        passes first (what the guide remembers stays true: later answers are as without a stop)."""
        return self.table(rows, cap, stop_at)


def goal_key(challenge: Challenge, rows: tuple[Row, ...], hand: str) -> int:
    """The guided policy's tie-break (smaller is better), as the exact search's kernel computes it
    (``HiddenSolo._shaped``): over the sets of goal rows, the least work left in the goal's places (places
    not yet holding their card, plus wrong cards within the goal's length: each must still leave) less the
    hand's cards the goal still misses (kept for later, they save draws), then the fewest cards beyond the
    goal's length; each set's key is ``clamp(work + 16, 0, 63) * 64 + min(over, 63)``. A sequence is read
    place by place, a count goal by weather within its window."""
    per_row = {}
    for r, row in enumerate(rows):
        if not challenge.goal.eligible(row):
            continue
        work = over = 0
        missing: Counter[str] = Counter()
        for side, half_goal in challenge.goal.halves():
            cards = row.half(side)
            length = half_goal.length()
            placed = goal_progress(half_goal, cards, row)
            work += (length - placed) + (min(len(cards), length) - placed)
            over += max(0, len(cards) - length)
            if isinstance(half_goal, SequenceGoal):
                for x, token in enumerate(half_goal.pattern):
                    wanted = resolve_token(token, row)
                    if token != ANY_CARD and (x >= len(cards) or cards[x] != wanted):
                        missing[wanted] += 1
            else:
                window = cards[: half_goal.nearest]
                for token, n in half_goal.counts:
                    wanted = resolve_token(token, row)
                    missing[wanted] += max(0, n - window.count(wanted))
        per_row[r] = (work, over, missing)
    best: int | None = None
    held = Counter(hand)
    for chosen in combinations(sorted(per_row), challenge.rows_required):
        missing = sum((per_row[r][2] for r in chosen), Counter())
        useful = sum(min(n, held[w]) for w, n in missing.items())
        work = sum(per_row[r][0] for r in chosen) - useful
        key = min(max(work + 16, 0), 63) * 64 + min(sum(per_row[r][1] for r in chosen), 63)
        if best is None or key < best:
            best = key
    return best if best is not None else 4095  # no set of goal rows: the kernel's value


def redraw_end(challenge: Challenge, rows: tuple[Row, ...]) -> tuple[int, int]:
    """The guided policy's Redraw end (row, end): of a goal row's half-row, the one with the most of the
    goal's length missing (ties: the first set of goal rows, then the first row and end), as the exact
    search's kernel chooses it (``HiddenSolo._redraw_end``)."""
    eligible = [r for r, row in enumerate(rows) if challenge.goal.eligible(row)]
    best, most = (0, 0), None
    for chosen in combinations(eligible, challenge.rows_required):
        for r in chosen:
            for side, half_goal in challenge.goal.halves():
                gap = half_goal.length() - len(rows[r].half(side))
                if most is None or gap > most or (gap == most and (r, side) < best):
                    best, most = (r, side), gap
    return best


def guided_move(game: HiddenStrato, guide: RelaxationGuide, bound: TurnBound, state: HiddenState,
                stop_at: float = -1.0) -> Move:
    """The guided policy's move, the one the exact search values for its proven lower end
    (``exact.Solver.guide``; ``tests/models/strato/test_guided.py`` holds the two move for move):

    1. a play that wins at once (the first, in the engine's order);
    2. the first play of a plan of the hand (:func:`~stratagem.models.strato.hidden.odds.hand_plan`, at
       most ``PLAN_PLAYS`` plays) that wins whatever is drawn -- solo a certain win; in a team the other
       players' turns come between its plays, so only a likely one (measured: it wins more team games
       than the same rule without plans);
    3. the play whose table is nearest a goal by ``guide`` (each goal row's relaxed distance, told apart
       up to ``GUIDE_CAP``) or by the admissible turn bound where that is larger, ties to the least
       :func:`goal_key` with the hand left after it, then the engine's order, plays over the card limit
       never -- unless it is farther from a goal than the table now is (by the same measure), and a
       Redraw is possible: then a Redraw at :func:`redraw_end`.

    After a Redraw, the revealed card's target by steps 1 and 3 (it must be played).

    ``stop_at`` (a :func:`time.perf_counter` time; negative, the default: none) bounds the relaxed
    distances of step 3, the only part of a decision that can take long (seconds on a deal's first
    moves). When it passes mid-decision the move is still legal, and chosen at once from what is known:
    the best play of step 3 among those measured so far (with no Redraw weighed against it); none yet
    measured, the first candidate of step 3 (the least admissible turn bound, then the engine's order), or
    a Redraw when no play is within the card limit, else the first play. Without ``stop_at`` (or when it
    does not pass) the move is exactly the policy's."""
    challenge, p = game.challenge, state.to_move
    moves = game.plays(state)
    placed = [(move, after) for move, after in moves if move.card]
    for move, after in placed:
        if after.status == WON:
            return move
    most = min(PLAN_PLAYS, len(state.hands[p]))
    if state.phase == PLAY and most > 1:
        first = hand_plan(game, state, most)
        if first is not None:
            return first
    # The moves by their turn bound: one bounded above the best key so far cannot beat it, and a move's
    # relaxed distance is asked only up to that key (farther counts as one more): the full keys' choice.
    bounded = sorted((bound.in_view(after.rows, after.hands[p], after.last), i) for i, (_, after) in enumerate(placed)
                     if all(len(row.left) <= challenge.limit and len(row.right) <= challenge.limit
                            for row in after.rows))
    best: tuple[tuple[int, int, int], Move] | None = None
    redraw = state.phase != TARGET and any(move.redraw and not move.card for move, _ in moves)
    try:
        for b, i in bounded:
            if best is not None and b > best[0][0]:
                break
            move, after = placed[i]
            if stop_at >= 0 and time.perf_counter() >= stop_at:
                raise OutOfTime("guided move stopped by the clock")
            near = max(guide(after.rows, GUIDE_CAP if best is None else min(best[0][0], GUIDE_CAP), stop_at), b)
            key = (near, goal_key(challenge, after.rows, after.hands[p]), i)
            if best is None or key < best[0]:
                best = (key, move)
        if not redraw:
            if best is not None:
                return best[1]
            if placed:
                return placed[0][0]
            raise ValueError(f"{game.format_state(state)}: no legal move")
        if best is None:  # no play to weigh: the Redraw, whatever the table's distance
            return announce(*redraw_end(challenge, state.rows))
        if stop_at >= 0 and time.perf_counter() >= stop_at:
            raise OutOfTime("guided move stopped by the clock")
        now = max(bound.in_view(state.rows, state.hands[p], state.last), guide(state.rows, GUIDE_CAP, stop_at))
    except OutOfTime:  # the time is up: the best play measured so far, else the first candidate
        if best is not None:
            return best[1]
        if bounded:
            return placed[bounded[0][1]][0]
        if redraw:
            return announce(*redraw_end(challenge, state.rows))
        if placed:
            return placed[0][0]
        raise ValueError(f"{game.format_state(state)}: no legal move") from None
    if best[0][0] <= now:
        return best[1]
    return announce(*redraw_end(challenge, state.rows))


#: Bytes the guides kept for later decisions may weigh in all (:attr:`TableDistance.nbytes`).
GUIDE_BYTES = 64 << 20

#: One guide and turn bound per public deal, shared by the games and agents that play it: what they
#: remember (distances by relaxed image, bounds by table) depends on the deal alone. Of the 16 deals played
#: last, those within :data:`GUIDE_BYTES` (the guide in use always): a guide keeps a byte per relaxed state of
#: its goal rows (10.8 MB a deal of challenge 1; up to 40 MB a goal row), and 16 kept guides held 229 MB in a
#: process that had played 40 games of challenge 1 and dropped their results. A later deal's guide is
#: built again in about 0.01 s (the relaxation's tables, the costly part, are kept apart).
_guides: Latest[tuple[RelaxationGuide, TurnBound]] = Latest(16, GUIDE_BYTES, lambda kept: kept[0].table.nbytes)


def _guide_of(challenge: Challenge, options: Options, start: HiddenState,
              stop: Callable[[], bool] | None = None) -> tuple[RelaxationGuide, TurnBound]:
    """The deal's guide and turn bound, kept or built; ``stop`` ends a new guide's build (``TablesStopped``)."""
    def build() -> tuple[RelaxationGuide, TurnBound]:
        game = HiddenStrato(challenge, options, start)
        return RelaxationGuide(game, stop), TurnBound(game)

    return _guides.get((challenge, options, start), build)


class _Unbuilt(RelaxationGuide):
    """A guide the clock stopped before it was built: every distance is out of time (no tables to build),
    so :func:`guided_move` falls back at once to its first candidate."""

    def __init__(self) -> None:
        pass

    def __call__(self, rows: tuple[Row, ...], cap: int = GUIDE_CAP, stop_at: float = -1.0) -> int:
        raise OutOfTime("the guide's tables were not built in time")


@dataclass
class GuidedAgent(StratoAgent):
    """The guided policy (:func:`guided_move`). ``time_limit`` bounds each decision's relaxed distances
    (a command's deadline cuts it to the time left, as for the other agents): when it passes
    mid-decision the move is the best play measured so far, else the policy's first candidate (the
    least admissible turn bound), as :func:`guided_move` says; without it, the policy's move exactly.
    The limit bounds the guide's first build as well (its relaxation's tables, 0.3-1.6 s once a
    process): stopped, the move is the first candidate, and the next decision builds it again."""

    #: Seconds a move may take (``None``: no limit); past it, the best move found so far.
    time_limit: float | None = None
    name = "guided"

    def __post_init__(self) -> None:
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError("guided's time_limit is a number of seconds above 0")

    def choose(self, game: HiddenStrato, seen: StratoObservation, rng: Random) -> Move:
        stop_at = -1.0 if self.time_limit is None else time.perf_counter() + self.time_limit
        stop = None if stop_at < 0 else (lambda: time.perf_counter() >= stop_at)
        try:
            guide, bound = _guide_of(game.challenge, game.options, game.start, stop)
        except TablesStopped:
            guide, bound = _Unbuilt(), TurnBound(game)
        return guided_move(game, guide, bound, seen.state(), stop_at)


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


@dataclass
class CompiledPimcAgent(StratoAgent):
    """PIMC as :class:`PimcAgent` votes, each sample solved by the compiled A* (``nodes`` expansions)."""

    samples: int = 32
    nodes: int = 2000
    #: Seconds a move may take (``None``: no limit): no sample starts after it, and each search stops at it.
    time_limit: float | None = None
    name = "cpimc"

    def __post_init__(self) -> None:
        if self.samples < 1 or self.nodes < 1:
            raise ValueError(f"{self.name} needs samples >= 1 and nodes >= 1")
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError(f"{self.name}'s time_limit is a number of seconds above 0")

    def params(self) -> dict[str, Any]:
        return {"samples": self.samples, "nodes": self.nodes}

    def worlds(self, game: HiddenStrato, seen: StratoObservation, state: HiddenState, rng: Random) -> list[HiddenState]:
        """The deals of the unseen cards to solve: ``samples`` uniform draws (the belief agent weighs them)."""
        return [game.sample_state(state, state.to_move, rng) for _ in range(self.samples)]

    def choose(self, game: HiddenStrato, seen: StratoObservation, rng: Random) -> Move:
        state = seen.state()
        moves = game.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        votes: Counter[Move] = Counter()
        lengths: Counter[Move] = Counter()
        deadline = Deadline(self.time_limit)
        for world in self.worlds(game, seen, state, rng):
            if deadline.expired():
                break
            sample = _open(world, rng)
            if state.phase == TARGET:
                rules = StratoGame(game.challenge, game.options, sample)
                for move in moves:  # the revealed card is on top of the sampled pile
                    found = self._line(game, rules.apply(sample, move), deadline)
                    if found is not None:
                        votes[move] += 1
                        lengths[move] += len(found)
                continue
            line = self._line(game, sample, deadline)
            if not line:
                continue
            first: Move = line[0]
            vote = announce(first.row, first.end) if first.redraw else first
            votes[vote] += 1
            lengths[vote] += len(line)
        if not votes:
            return GreedyAgent().choose(game, seen, rng)
        order = {move: i for i, move in enumerate(moves)}
        return min(votes, key=lambda m: (-votes[m], lengths[m] / votes[m], order.get(m, len(order))))

    def _line(self, game: HiddenStrato, state: State, deadline: Deadline) -> list[Move] | None:
        """A winning line from the open ``state`` found within ``nodes`` expansions (``[]``: already won)."""
        if state.status != ONGOING:
            return [] if state.status == WON else None
        open_game = StratoGame(game.challenge, game.options, state)
        if fits(open_game) is None:
            result = compiled_astar(open_game, max_nodes=self.nodes, time_limit=deadline.remaining())
        else:  # a deal the packing cannot hold: the Python A*, same budget
            result = astar(StratoPlanning(open_game, state), max_nodes=self.nodes, time_limit=deadline.remaining())
        if result.status in (FOUND, SOLVED) and result.moves is not None:
            return list(result.moves)
        return None


@dataclass
class BeliefAgent(CompiledPimcAgent):
    """``cpimc`` over deals drawn from a belief formed from the other players' last plays (module docstring)."""

    samples: int = 32
    nodes: int = 2000
    time_limit: float | None = None
    #: Deals drawn per sample kept: the pool the belief weighs.
    candidates: int = 4
    #: How sharply the model of the other players prefers moves that need fewer turns (0: any legal move).
    beta: float = 2.0
    name = "belief"
    #: The turn bound of the game played last (one per game ever seen grew without end: see GreedyAgent).
    _last_bound: TurnBound | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.candidates < 1:
            raise ValueError("belief needs candidates >= 1")
        if not self.beta >= 0 or math.isinf(self.beta):
            raise ValueError("belief's beta is a finite number >= 0")

    def params(self) -> dict[str, Any]:
        return {"samples": self.samples, "nodes": self.nodes, "candidates": self.candidates, "beta": self.beta}

    def worlds(self, game: HiddenStrato, seen: StratoObservation, state: HiddenState, rng: Random) -> list[HiddenState]:
        evidence = last_plays(seen)
        if not evidence:
            return super().worlds(game, seen, state, rng)
        pool = [game.sample_state(state, state.to_move, rng) for _ in range(self.samples * self.candidates)]
        bound = self._bound(game)
        cache: dict[tuple[int, str], float] = {}
        weights = [self.likelihood(game, bound, seen, world, evidence, cache) for world in pool]
        if not sum(weights) > 0:
            weights = [1.0] * len(pool)
        return rng.choices(pool, weights, k=self.samples)

    def _bound(self, game: HiddenStrato) -> TurnBound:
        bound = self._last_bound
        if bound is None or bound.game is not game:
            bound = self._last_bound = TurnBound(game)
        return bound

    def likelihood(self, game: HiddenStrato, bound: TurnBound, seen: StratoObservation, world: HiddenState,
                   evidence: dict[int, PublicPlay], cache: dict[tuple[int, str], float]) -> float:
        """How likely the other players' last plays are if their hands are as ``world`` has them."""
        weight = 1.0
        for q, play in evidence.items():
            hand = world.hands[q]
            card = play.move.card
            drew = len(hand) - (play.hand_size - 1)
            if drew == 0:
                before = {"".join(sorted(hand + card)): 1.0}
            elif drew == 1 and hand:
                before = {}
                for d, n in Counter(hand).items():
                    key = "".join(sorted(hand.replace(d, "", 1) + card))
                    before[key] = before.get(key, 0.0) + n / len(hand)
            else:  # not the hand of that play: no evidence
                continue
            total = 0.0
            for held, share in before.items():
                found = cache.get((q, held))
                if found is None:
                    found = cache[(q, held)] = self.move_probability(game, bound, seen, play, held)
                total += share * found
            weight *= total
        return weight

    def move_probability(self, game: HiddenStrato, bound: TurnBound, seen: StratoObservation, play: PublicPlay,
                         held: str) -> float:
        """The model's probability that a player holding ``held`` at ``play``'s table makes ``play``'s move."""
        hands = tuple(held if p == play.player else "" for p in range(len(seen.hand_sizes)))
        before = HiddenState(play.rows, hands, seen.unseen, play.player, play.last, ONGOING, PLAY)
        options = game.plays(before)
        if not options:
            return 0.0
        turns = [bound(after) for _, after in options]
        best = min(turns)
        scores = [math.exp(-self.beta * min(t - best, 50)) for t in turns]
        chosen = sum(score for (move, _), score in zip(options, scores, strict=True) if move == play.move)
        return chosen / sum(scores)


def last_plays(seen: StratoObservation) -> dict[int, PublicPlay]:
    """Each other player's last play from hand since their last Redraw, when it tells of their hand now:
    a Redraw (announcement or target) after it, or none at all, leaves that player out."""
    out: dict[int, PublicPlay] = {}
    done: set[int] = set()
    for play in reversed(seen.plays):
        q = play.player
        if q == seen.player or q in done:
            continue
        done.add(q)
        if play.phase == PLAY and not play.move.redraw:
            out[q] = play
    return out


#: The agent kinds ``play strato`` knows, by name, each made from its ``key=value`` parameters.
AGENT_KINDS: dict[str, Callable[..., StratoAgent]] = {"greedy": GreedyAgent, "guided": GuidedAgent, "pimc": PimcAgent,
                                                       "cpimc": CompiledPimcAgent, "belief": BeliefAgent,
                                                       "ismcts": IsmctsAgent}


def make_strato_agent(name: str, /, **params: Any) -> StratoAgent:
    """An agent kind by name with its parameters (``ValueError`` naming the problem otherwise)."""
    if name not in AGENT_KINDS:
        raise ValueError(f"unknown Strato agent {name!r} (one of {', '.join(AGENT_KINDS)})")
    try:
        agent: StratoAgent = build_agent(name, AGENT_KINDS[name], params)
    except AgentError as exc:
        raise ValueError(str(exc)) from None
    return agent
