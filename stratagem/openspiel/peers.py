"""OpenSpiel's algorithms as peers of stratagem's own, measured on the same states in the same run.

``stratagem bench GAME`` writes these comparisons as the "Peers: OpenSpiel" section of
results/<game>.md. Each puts one of stratagem's solvers beside OpenSpiel's Python implementation of
the same idea, on OpenSpiel games built over the same rules engine (:class:`OpenPositionGame`: the
engine from a given state, open information, the engine's action numbering):

- :func:`uct_speed`: our UCT (:func:`~stratagem.solvers.mcts.uct`, plain: no move ordering, random
  rollouts, MCTS-Solver on) against OpenSpiel's ``MCTSBot`` (random rollouts, ``solve=True``) from one
  position: simulations per CPU-second, median of repeats.
- :func:`equal_time_match`: our UCT agent against ``MCTSBot`` at equal CPU time per move. Neither
  search stops on a clock here (that would make the match depend on the machine's load): each side's
  simulations per move are calibrated from its own measured rate on the match's start state, then the
  match is seeded and reproducible; the CPU time each side really spent per move is measured and
  reported. Win rate with a 95% Wilson interval (:func:`~stratagem.solvers.match.play_match`).
- :func:`search_peer`: our alpha-beta (or expectiminimax where the position has chance nodes), plain
  (no move ordering, no transposition table), against OpenSpiel's ``alpha_beta_search`` (or
  ``expectiminimax``): nodes, CPU seconds, and whether the values agree. OpenSpiel's searches count
  no nodes; here a node is a state applied by the engine (plus the root), counted by
  :class:`CountingGame`, which also stops a search at a node budget.
- :func:`stage_peer`: Stack Attack's stage games (the matrix game at each simultaneous node of the
  exact backward induction) solved by our exact LP (:func:`~stratagem.solvers.matrix.solve_matrix`)
  and by OpenSpiel's ``lp_solver.solve_zero_sum_matrix_game`` (cvxpy with ECOS): CPU seconds and the
  largest value difference.

Times are CPU seconds of this process (``time.process_time``), so other work on a shared machine
slows a measurement less than it would a wall clock; compare the ratios, not the raw seconds.
"""

from __future__ import annotations

import copy
import statistics
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from random import Random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as spiel_mcts
from open_spiel.python.algorithms import minimax as spiel_minimax

from stratagem.analysis import return_bounds
from stratagem.core.errors import StratagemError
from stratagem.core.game import CHANCE, Evaluation, Game
from stratagem.matches import new_game
from stratagem.models.stratatak.cards import Options
from stratagem.models.stratatak.rules import StratatakGame
from stratagem.openspiel.adapter import Engine, OpenPositionGame
from stratagem.openspiel.cardclash import CardClashEngine, DealtCardClash
from stratagem.openspiel.stackattack import StackAttackEngine
from stratagem.openspiel.stakd import StakdEngine
from stratagem.openspiel.stratatak import StratatakEngine
from stratagem.openspiel.strato import StratoEngine
from stratagem.solvers.agents import Agent, MctsAgent
from stratagem.solvers.alphabeta import alphabeta
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.match import MatchResult, play_match
from stratagem.solvers.mcts import DEFAULT_EXPLORATION, uct
from stratagem.solvers.multiplayer import paranoid

#: The numbering of each game's engine, by the engine's ``name``.
ENGINES: dict[str, Callable[[Any], Engine]] = {
    "stakd": StakdEngine,
    "stratatak": StratatakEngine,
    "stackattack": StackAttackEngine,
    "cardclash": CardClashEngine,
    "strato-hidden": StratoEngine,
}


def engine_for(game: Any) -> Engine:
    """The OpenSpiel numbering of a stratagem game object (a loaded position's, a match's)."""
    return ENGINES[game.name](game)


def cpu() -> float:
    """CPU seconds of this process (every thread)."""
    return time.process_time()


def open_game(game: Any, state: Hashable, *, chance: bool = False) -> OpenPositionGame:
    """``game`` from ``state`` as an open-information OpenSpiel game (zero-sum for two players)."""
    low, high = return_bounds(game)
    if game.name == "strato-hidden":  # cooperative: every player gets the table's result
        utility = pyspiel.GameType.Utility.IDENTICAL
    elif game.num_players == 2:
        utility = pyspiel.GameType.Utility.ZERO_SUM
    else:
        utility = pyspiel.GameType.Utility.GENERAL_SUM
    return OpenPositionGame(engine_for(game), state, chance=chance, utility=utility,
                            utilities=(float(low), float(high)))


# --------------------------------------------------------------------------------------------------
# Counting the nodes of OpenSpiel's searches


class NodeBudget(Exception):
    """A search applied more states than its budget allows."""


class CountingGame:
    """A rules engine that counts the states it applies and raises :class:`NodeBudget` past ``budget``.

    Everything else is the wrapped game's (attribute access is passed through), so the OpenSpiel
    game built over it plays exactly the same rules.
    """

    def __init__(self, game: Any, budget: int | None) -> None:
        self._game = game
        self.budget = budget
        self.applied = 0

    def apply(self, state: Any, move: Any) -> Any:
        if self.budget is not None and self.applied >= self.budget:
            raise NodeBudget(f"more than {self.budget:,} states applied")
        self.applied += 1
        return self._game.apply(state, move)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def counting_open_game(game: Any, state: Hashable, budget: int | None, *, chance: bool) -> tuple[
        OpenPositionGame, CountingGame]:
    """:func:`open_game` over a :class:`CountingGame` (returned too, to read its count)."""
    spiel = open_game(game, state, chance=chance)
    counter = CountingGame(game, budget)
    engine = copy.copy(spiel.engine)
    engine.game = counter
    spiel.engine = engine
    return spiel, counter


# --------------------------------------------------------------------------------------------------
# UCT speed


@dataclass(frozen=True)
class SpeedPeer:
    """Simulations per CPU-second of both searches from one position (medians of ``repeats``)."""

    simulations: int
    repeats: int
    ours_rate: float
    theirs_rate: float
    ours_proven: bool
    theirs_solved: bool

    @property
    def ratio(self) -> float:
        """Our rate over OpenSpiel's."""
        return self.ours_rate / self.theirs_rate if self.theirs_rate > 0 else float("inf")


def uct_speed(game: Any, state: Hashable, simulations: int, *, repeats: int = 3, seed: int = 0) -> SpeedPeer:
    """Plain UCT and ``MCTSBot`` from ``state``, each ``simulations`` iterations, ``repeats`` times.

    A search whose root gets proven (solved) stops early; its rate counts the simulations it did.
    """
    low, high = return_bounds(game)
    chance = _has_chance(game)
    ours, theirs = [], []
    proven = solved = False
    for r in range(repeats):
        started = cpu()
        result = uct(game, state, iterations=simulations, seed=seed + r, guided=False,
                     value_range=(float(low), float(high)))
        ours.append(result.iterations / max(cpu() - started, 1e-9))
        proven = proven or result.proven
        spiel = open_game(game, state, chance=chance)
        bot = _bot(spiel, simulations, None, seed + r, float(high - low))
        started = cpu()
        root = bot.mcts_search(spiel.new_initial_state())
        theirs.append(root.explore_count / max(cpu() - started, 1e-9))
        solved = solved or root.outcome is not None
    return SpeedPeer(simulations, repeats, statistics.median(ours), statistics.median(theirs), proven, solved)


def _has_chance(game: Any) -> bool:
    """Whether the engine can reach a chance node (Stratatak's reshuffles, the dealt Card Clash's
    draws, hidden Strato's draws): declared so to OpenSpiel, whose MCTS then samples them."""
    return isinstance(game, DealtCardClash) or game.name in ("stratatak", "strato-hidden")


class LeafEvaluator(spiel_mcts.Evaluator):  # type: ignore[misc]
    """``MCTSBot``'s leaf value as our UCT computes it: a random playout through OpenSpiel's state
    API, cut after ``limit`` plies and then scored by the engine's evaluation (its ``evaluate``; the
    middle of the return range when it has none)."""

    def __init__(self, limit: int | None, random_state: np.random.RandomState, middle: float = 0.0) -> None:
        self.limit = limit
        self.random_state = random_state
        self.middle = middle

    def evaluate(self, state: Any) -> np.ndarray:
        working = state.clone()
        plies = 0
        while not working.is_terminal():
            if self.limit is not None and plies >= self.limit:
                game = working.engine.game
                if isinstance(game, Evaluation) or hasattr(game, "evaluate"):
                    return np.array([float(v) for v in game.evaluate(working.engine_state)])
                return np.full(len(working.returns()), self.middle)
            if working.is_chance_node():
                actions, probs = zip(*working.chance_outcomes(), strict=True)
                working.apply_action(int(self.random_state.choice(actions, p=probs)))
            else:
                working.apply_action(int(self.random_state.choice(working.legal_actions())))
            plies += 1
        return np.array(working.returns())

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        actions = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(actions)) for a in actions]


def _bot(spiel: OpenPositionGame, simulations: int, limit: int | None, seed: int, spread: float) -> Any:
    """``MCTSBot`` with the exploration constant of our UCT: ours scales means into [0, 1] before
    adding ``sqrt(2) * sqrt(ln N / n)``; OpenSpiel adds ``c * sqrt(ln N / n)`` to raw means, so
    ``c = sqrt(2) * (high - low)`` is the same rule."""
    random_state = np.random.RandomState(seed % 2**32)
    return spiel_mcts.MCTSBot(spiel, DEFAULT_EXPLORATION * spread, simulations,
                              LeafEvaluator(limit, random_state), solve=True, random_state=random_state)


# --------------------------------------------------------------------------------------------------
# A match at equal time per move


@dataclass
class SpielMctsAgent:
    """OpenSpiel's ``MCTSBot`` as a stratagem match agent: it searches the open position (every card
    known, like our ``mcts`` agent) with ``simulations`` simulations per move."""

    simulations: int
    rollout_limit: int | None = None
    name: str = "openspiel-mcts"
    _games: dict[int, OpenPositionGame] = field(default_factory=dict, repr=False)

    def choose(self, game: Game[Any, Any], state: Any, rng: Random) -> Any:
        spiel = self._games.get(id(game))
        if spiel is None:
            spiel = self._games[id(game)] = open_game(game, state, chance=_has_chance(game))
        low, high = return_bounds(game)
        bot = _bot(spiel, self.simulations, self.rollout_limit, rng.getrandbits(32), float(high - low))
        return spiel.engine.move(bot.step(spiel.state_at(state)))

    @property
    def params(self) -> dict[str, Any]:
        return {"simulations": self.simulations, "rollout_limit": self.rollout_limit}


@dataclass
class TimedAgent:
    """An agent that records the CPU seconds each of its moves took."""

    agent: Any
    seconds: list[float] = field(default_factory=list)

    @property
    def name(self) -> str:
        return str(self.agent.name)

    @property
    def params(self) -> dict[str, Any]:
        return dict(getattr(self.agent, "params", {}))

    def choose(self, game: Game[Any, Any], state: Any, rng: Random) -> Any:
        started = cpu()
        move = self.agent.choose(game, state, rng)
        self.seconds.append(cpu() - started)
        return move


@dataclass(frozen=True)
class MatchPeer:
    """Our UCT agent against ``MCTSBot`` at (calibrated) equal CPU time per move."""

    seconds: float
    ours_simulations: int
    theirs_simulations: int
    ours_cpu_per_move: float
    theirs_cpu_per_move: float
    result: MatchResult


def match_game(game_name: str) -> Any:
    """The game the peers' match is played on: fresh deals where the game has them.

    STAKD: the two-player start (no chance). Card Clash: :class:`DealtCardClash` (every game a new
    deal, every draw chance; the project's plain engine replays one seeded deal). Stratatak: a fresh
    deal with ``battle_limit = 40``, the OpenSpiel game's default (undecided after 40 battles: a
    draw), since the rules allow endless play.
    """
    if game_name == "stratatak":
        return StratatakGame(Options(battle_limit=40))
    game = new_game(game_name, 2)
    return DealtCardClash(game) if game_name == "cardclash" else game


#: ``MCTSBot`` expands its root on its second simulation, so it needs at least two to choose a move.
MIN_BOT_SIMULATIONS = 2


def _calibrate(agent: Any, game: Any, state: Any, trial: int, seconds: float) -> int:
    """Simulations per move that take ``seconds`` of CPU, from one trial search of ``trial`` simulations."""
    started = cpu()
    agent.choose(game, state, Random(0))
    spent = max(cpu() - started, 1e-6)
    return max(MIN_BOT_SIMULATIONS, round(trial * seconds / spent))


def _agents(game: Any, ours_n: int, theirs_n: int, rollout_limit: int | None) -> tuple[TimedAgent, TimedAgent]:
    low, high = return_bounds(game)
    ours = MctsAgent(iterations=ours_n, rollout_limit=rollout_limit, value_range=(float(low), float(high)))
    return TimedAgent(ours), TimedAgent(SpielMctsAgent(theirs_n, rollout_limit))


def equal_time_match(game: Any, seconds: float, games: int, *, rollout_limit: int | None = None,
                     seed: int = 0, trial: int = 100, rounds: int = 2, start: Any = None) -> MatchPeer:
    """Our ``mcts`` agent (its defaults: the game's move ordering, tree reuse) against ``MCTSBot``, each
    with the simulations per move that take ``seconds`` of CPU, then ``games`` games (seed ``seed``).

    Calibration: a trial search of ``trial`` simulations from the first decision of the game gives each
    side a first count; then, ``rounds`` times, two games (one deal, both seats; seeds ``seed + 1``,
    ``seed + 2`` ..., not counted) measure the CPU each side really spends per move, and each count is
    scaled by ``seconds`` over that.
    """
    state = game.initial_state() if start is None else start
    while game.to_move(state) == CHANCE:  # the first decision (after the deal)
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    low, high = return_bounds(game)
    value_range = (float(low), float(high))
    ours_n = _calibrate(MctsAgent(iterations=trial, rollout_limit=rollout_limit, value_range=value_range,
                                  reuse=False), game, state, trial, seconds)
    theirs_n = _calibrate(SpielMctsAgent(trial, rollout_limit), game, state, trial, seconds)
    for r in range(rounds):
        ours, theirs = _agents(game, ours_n, theirs_n, rollout_limit)
        play_match(game, [ours, theirs], 2, seed=seed + 1 + r, start=start)
        ours_n = max(1, round(ours_n * seconds / max(statistics.fmean(ours.seconds), 1e-6)))
        theirs_n = max(MIN_BOT_SIMULATIONS, round(theirs_n * seconds / max(statistics.fmean(theirs.seconds), 1e-6)))
    ours, theirs = _agents(game, ours_n, theirs_n, rollout_limit)
    agents: list[Agent] = [ours, theirs]
    result = play_match(game, agents, games, seed=seed, start=start)
    return MatchPeer(seconds, ours_n, theirs_n, statistics.fmean(ours.seconds or [0.0]),
                     statistics.fmean(theirs.seconds or [0.0]), result)


# --------------------------------------------------------------------------------------------------
# Exact search


@dataclass(frozen=True)
class SearchRun:
    """One exact search: method, status (``solved`` or why it stopped), nodes, CPU seconds, value."""

    method: str
    status: str
    nodes: int
    seconds: float
    value: float | None


@dataclass(frozen=True)
class SearchPeer:
    ours: SearchRun
    theirs: SearchRun | None
    why_not: str = ""
    runs: int = 1

    @property
    def agree(self) -> bool | None:
        """Whether both values are known and equal (None when either search did not finish)."""
        if self.theirs is None or self.ours.value is None or self.theirs.value is None:
            return None
        return abs(self.ours.value - self.theirs.value) <= 1e-9


def search_peer(game: Any, state: Any, max_nodes: int, *, repeats: int = 3, cheap: float = 1.0) -> SearchPeer:
    """Our plain alpha-beta (or expectiminimax, where the position reaches chance) and OpenSpiel's,
    each stopped after ``max_nodes`` nodes; searches are deterministic, so a pair is repeated (up to
    ``repeats`` times, median CPU) only while both together took under ``cheap`` CPU seconds."""
    runs = [_search_pair(game, state, max_nodes)]
    while len(runs) < repeats and runs[0].ours.seconds + (runs[0].theirs.seconds if runs[0].theirs else 0) < cheap:
        runs.append(_search_pair(game, state, max_nodes))
    first = runs[0]
    ours = replace(first.ours, seconds=statistics.median(r.ours.seconds for r in runs))
    theirs = first.theirs
    if theirs is not None:
        theirs = replace(theirs, seconds=statistics.median(r.theirs.seconds for r in runs if r.theirs))
    return SearchPeer(ours, theirs, first.why_not, len(runs))


def _search_pair(game: Any, state: Any, max_nodes: int) -> SearchPeer:
    ours = _our_search(game, state, max_nodes)
    if game.num_players != 2:
        return SearchPeer(ours, None, f"OpenSpiel's searches take two players; this position has {game.num_players}")
    chance = ours.method == "expectiminimax"
    spiel, counter = counting_open_game(game, state, max_nodes, chance=chance)
    root = spiel.new_initial_state()
    player = max(root.current_player(), 0)
    started = cpu()
    status, value = "solved", None
    try:
        if chance:
            value = float(spiel_minimax.expectiminimax(root, _DEEP, None, player)[0])
            method = "expectiminimax"
        else:
            value = float(spiel_minimax.alpha_beta_search(spiel, root, maximum_depth=_DEEP,
                                                          maximizing_player_id=player)[0])
            method = "alpha_beta_search"
    except NodeBudget:
        status = "node budget"
        method = "expectiminimax" if chance else "alpha_beta_search"
    except RecursionError:
        status = "too deep for Python's recursion"
        method = "expectiminimax" if chance else "alpha_beta_search"
    theirs = SearchRun(method, status, counter.applied + 1, cpu() - started, value)
    return SearchPeer(ours, theirs)


#: Depth given to OpenSpiel's searches: beyond any shipped endgame, so they search to the end.
_DEEP = 10_000


def _our_search(game: Any, state: Any, max_nodes: int) -> SearchRun:
    options: dict[str, Any] = {"use_ordering": False, "use_tt": False, "max_nodes": max_nodes, "iterative": False}
    started = cpu()
    if game.num_players > 2:
        low, high = return_bounds(game)
        result = paranoid(game, state, lo=low, hi=high, **options)
        return SearchRun(result.method, "solved" if result.solved else "node budget", result.nodes,
                         cpu() - started, float(Fraction(result.value)) if result.solved and result.value is not None
                         else None)
    try:
        result = alphabeta(game, state, **options)
    except StratagemError as exc:
        if "chance" not in str(exc):
            raise
        low, high = return_bounds(game)
        started = cpu()
        result = expectiminimax(game, state, lo=low, hi=high, **options)
    seconds = cpu() - started
    value = float(Fraction(result.value)) if result.solved and result.value is not None else None
    status = "solved" if result.solved else "node budget"
    return SearchRun(result.method, status, result.nodes, seconds, value)


# --------------------------------------------------------------------------------------------------
# Stack Attack's stage games


@dataclass(frozen=True)
class StagePeer:
    """Stage games of one position's backward induction, solved by both LPs."""

    stage_games: int
    measured: int
    largest: tuple[int, int]
    ours_seconds: float
    theirs_seconds: float
    ours_certified: int
    largest_difference: float


def stage_peer(game: Any, state: Any, limit: int, *, repeats: int = 3) -> StagePeer:
    """The first ``limit`` stage games (in the order the induction solves them) by both LPs, timed
    ``repeats`` times (median of the totals)."""
    from open_spiel.python.algorithms import lp_solver

    from stratagem.solvers.matrix import solve_matrix
    from stratagem.solvers.simultaneous import solve_each_player, solve_simultaneous

    if game.num_players == 2:
        results = [solve_simultaneous(game, state, player=0, payoff="margin")]
    else:
        results = list(solve_each_player(game, state, payoff="own"))
    matrices = [node.matrix for result in results for node in result.nodes]
    chosen = matrices[:limit]
    ours_totals, theirs_totals = [], []
    certified = 0
    difference = 0.0
    for _ in range(repeats):
        ours = theirs = 0.0
        certified = 0
        for matrix in chosen:
            started = cpu()
            solution = solve_matrix(matrix)
            ours += cpu() - started
            certified += solution.certified
            payoff = np.array([[float(x) for x in row] for row in matrix])
            started = cpu()
            spiel = pyspiel.create_matrix_game(payoff.tolist(), (-payoff).tolist())
            value = lp_solver.solve_zero_sum_matrix_game(spiel)[2]
            theirs += cpu() - started
            difference = max(difference, abs(float(solution.value) - float(value)))
        ours_totals.append(ours)
        theirs_totals.append(theirs)
    largest = max(((len(m), len(m[0])) for m in chosen), key=lambda rc: rc[0] * rc[1], default=(0, 0))
    return StagePeer(len(matrices), len(chosen), largest, statistics.median(ours_totals),
                     statistics.median(theirs_totals), certified, difference)

# --------------------------------------------------------------------------------------------------
# Strato: the exact solo win probability and the team's agents


class _RememberedPlays:
    """Hidden Strato for OpenSpiel's searches: counts the states applied (raising :class:`NodeBudget`
    past ``budget``) and remembers the plays of the last :data:`REMEMBERED_PLAYS` positions.

    The engine applies a move by generating the position's plays and picking it, and OpenSpiel's
    API has no "successors" call: without the memory, a search that applies each of a position's b
    moves would generate its plays b times where our search (which asks ``plays`` once) does it once.
    The memory holds move generation only, never a value.
    """

    def __init__(self, game: Any, budget: int | None) -> None:
        self._game = game
        self.budget = budget
        self.applied = 0
        self._plays: OrderedDict[Any, dict[Any, Any]] = OrderedDict()

    def _remembered(self, state: Any) -> dict[Any, Any]:
        found = self._plays.get(state)
        if found is None:
            found = self._plays[state] = dict(self._game.plays(state))
            if len(self._plays) > REMEMBERED_PLAYS:
                self._plays.popitem(last=False)
        else:
            self._plays.move_to_end(state)
        return found

    def legal_moves(self, state: Any) -> list[Any]:
        return list(self._remembered(state))

    def apply(self, state: Any, move: Any) -> Any:
        if self.budget is not None and self.applied >= self.budget:
            raise NodeBudget(f"more than {self.budget:,} states applied")
        self.applied += 1
        if self._game.to_move(state) != CHANCE:
            after = self._remembered(state).get(move)
            if after is not None:
                return after
        return self._game.apply(state, move)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


#: Positions whose plays :class:`_RememberedPlays` keeps (a search's path and its siblings fit).
REMEMBERED_PLAYS = 4096


@dataclass(frozen=True)
class StratoExactPeer:
    """One solo position with the pile's order hidden: the exact win probability by our MDP search
    (with and without Strato's knowledge) and by OpenSpiel's ``expectiminimax``.

    Each :class:`SearchRun` counts the states it searched: ours, the states our search expanded (a
    state met again is looked up, not counted); OpenSpiel's, its recursive calls (the states it
    applied, plus the root: it remembers nothing, so a state met again is searched again). Values are
    win probabilities (OpenSpiel's expected return ``r`` in [-1, 1] is ``(r + 1) / 2``).
    """

    position: str
    ours: SearchRun
    plain: SearchRun
    theirs: SearchRun
    states_kept: int
    exact: Fraction | None
    runs: int

    @property
    def agree(self) -> bool | None:
        """Whether OpenSpiel's value equals ours (None when either did not finish)."""
        if self.theirs.value is None or self.ours.value is None:
            return None
        return abs(self.ours.value - self.theirs.value) <= 1e-9


def strato_spiel_game(puzzle: str, position: str) -> Any:
    """``stratagem_strato`` (hidden information) from ``position`` of ``puzzle``'s challenge."""
    import stratagem.openspiel  # noqa: F401  (registers the games)

    return pyspiel.load_game("stratagem_strato", {"puzzle": str(puzzle), "position": position})


def strato_exact_peer(puzzle: str, position: str, max_nodes: int, *, repeats: int = 3,
                      cheap: float = 1.0) -> StratoExactPeer:
    """Our exact solo win probability from ``position`` (:func:`~stratagem.solvers.mdp.optimal_value`,
    memoised, Star1 windows; once as ``stratagem odds`` runs it, with the admissible turn bound's
    ordering and floor, once without them) against OpenSpiel's ``expectiminimax`` on the
    ``stratagem_strato`` game from the same position; each stopped at ``max_nodes`` states. Repeated
    (median CPU) while a whole set took under ``cheap`` CPU seconds, at most ``repeats`` times."""
    first = _strato_exact_once(puzzle, position, max_nodes)
    runs = [first[:3]]
    while len(runs) < repeats and sum(r.seconds for r in runs[0]) < cheap:
        runs.append(_strato_exact_once(puzzle, position, max_nodes)[:3])

    def median(i: int) -> SearchRun:
        return replace(runs[0][i], seconds=statistics.median(r[i].seconds for r in runs))

    return StratoExactPeer(position, median(0), median(1), median(2), first[3], first[4], len(runs))


def _strato_exact_once(puzzle: str, position: str, max_nodes: int) -> tuple[
        SearchRun, SearchRun, SearchRun, int, Fraction | None]:
    from stratagem.core.deadline import Deadline
    from stratagem.models.strato.hidden.odds import TurnBound, win_payoff
    from stratagem.solvers.mdp import SOLVED, deep_recursion, optimal_value

    spiel = strato_spiel_game(puzzle, position)
    game = spiel.engine.game
    root = game.initial_state()
    ours: list[SearchRun] = []
    kept, exact = 0, None
    for method, knowledge in (("MDP search, turn-bound order and floor", True), ("MDP search, plain", False)):
        bound = TurnBound(game) if knowledge else None
        started = cpu()
        result = optimal_value(game, root, win_payoff, deadline=Deadline(None), max_states=max_nodes, rank=False,
                               order=bound.order if bound else None, floor=bound.hopeless if bound else None)
        seconds = cpu() - started
        solved = result.status == SOLVED and result.value is not None
        if knowledge:
            kept, exact = result.states, result.value if solved else None
        ours.append(SearchRun(method, "solved" if solved else "node budget", result.visits, seconds,
                              float(result.value) if solved and result.value is not None else None))
    counter = _RememberedPlays(game, max_nodes)
    engine = copy.copy(spiel.engine)
    engine.game = counter
    spiel.engine = engine
    state = spiel.new_initial_state()
    status, value = "solved", None
    started = cpu()
    try:
        with deep_recursion():
            r = float(spiel_minimax.expectiminimax(state, _DEEP, None, 0)[0])
        value = (r + 1) / 2
    except NodeBudget:
        status = "node budget"
    theirs = SearchRun("expectiminimax", status, counter.applied + 1, cpu() - started, value)
    return ours[0], ours[1], theirs, kept, exact


@dataclass
class SpielStratoAgent:
    """OpenSpiel's ``MCTSBot`` as a Strato team agent: it searches the hidden-pile game over the
    adapter's Strato engine (``stratagem_strato``'s states and numbering) from a clone of the full
    state, random playouts to the end, ``simulations`` per move. Solo, that state is exactly what the
    player knows (the table, the hand, the multiset of unseen cards); with more players it also holds
    the other hands, which the bot therefore sees."""

    simulations: int
    name: str = "openspiel-mcts"

    def choose(self, game: Any, state: Any, rng: Random) -> Any:
        spiel = open_game(game, state, chance=True)
        bot = _bot(spiel, self.simulations, None, rng.getrandbits(32), 2.0)
        return spiel.engine.move(bot.step(spiel.new_initial_state()))


@dataclass
class StratoUctAgent:
    """Our UCT (:func:`~stratagem.solvers.mcts.uct`, random playouts, MCTS-Solver) as a Strato team
    agent over the same hidden-pile state as :class:`SpielStratoAgent` (so, like it, it sees the other
    hands with two or more players; solo, only what the player knows)."""

    iterations: int
    name: str = "mcts"

    def choose(self, game: Any, state: Any, rng: Random) -> Any:
        return uct(game, state, iterations=self.iterations, seed=rng.getrandbits(32)).best_move


@dataclass(frozen=True)
class StratoAgentRow:
    """One agent over a team match's deals: games won, CPU per decision, its budget if it searches."""

    label: str
    wins: int
    games: int
    cpu_per_move: float
    moves: int
    budget: int | None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_rate_ci95(self) -> tuple[float, float]:
        from stratagem.solvers.match import wilson_interval

        return wilson_interval(self.wins, self.games)


def _strato_deals(puzzle: str, players: int, seeds: range) -> list[tuple[Any, Any]]:
    from stratagem.loading import deal_of, load_strato
    from stratagem.models.strato.hidden.game import HiddenStrato

    loaded = load_strato(puzzle)
    deals = []
    for seed in seeds:
        deal = deal_of(loaded, seed, players)
        deals.append((HiddenStrato(deal.challenge, deal.game.options, deal.start), deal.start))
    return deals


def _play_strato(agent: Any, deals: list[tuple[Any, Any]], label: str) -> tuple[int, list[float]]:
    """Wins of ``agent`` over ``deals`` (each draw from the deal's real pile, as ``play strato``) and
    the CPU seconds of each of its decisions."""
    from stratagem.teamplay import play_deal

    timed = TimedAgent(agent)
    wins = 0
    for i, (hidden, start) in enumerate(deals):
        won, _ = play_deal(hidden, start, timed, Random(f"{label}:{i}"))  # type: ignore[arg-type]
        wins += won
    return wins, timed.seconds


def strato_team_match(puzzle: str, players: int, games: int, seconds: float, *, seed: int = 0,
                      calibration: int = 2, pimc: bool = True) -> list[StratoAgentRow]:
    """Strato's agents and ``MCTSBot`` on the same ``games`` seeded deals (seeds ``seed`` ..), every
    draw from the deal's real pile in its order (duplicate deals, as ``stratagem play strato``).

    The searching agents -- ``ismcts`` (ours, from the player's observation), ``mcts`` (our UCT over the
    hidden-pile state) and ``MCTSBot`` -- get the simulations per decision that take ``seconds`` of CPU:
    a trial search from the first deal's start gives a first count, then ``calibration`` deals (seeds
    past the match's, not counted) measure what each really spends, and the count is scaled. ``greedy``
    and ``pimc`` (8 samples, A* at 1,000 expansions) play as ``play strato`` runs them, their CPU
    measured. Seeded and reproducible once the counts are fixed."""
    from stratagem.models.strato.hidden.agents import GreedyAgent, IsmctsAgent, PimcAgent

    deals = _strato_deals(puzzle, players, range(seed, seed + games))
    spare = _strato_deals(puzzle, players, range(seed + games, seed + games + calibration))
    makers: dict[str, Callable[[int], Any]] = {
        "ismcts": lambda n: IsmctsAgent(iterations=n),
        "mcts": lambda n: StratoUctAgent(n),
        "openspiel-mcts": lambda n: SpielStratoAgent(n),
    }
    least = {"openspiel-mcts": MIN_BOT_SIMULATIONS}
    rows: list[StratoAgentRow] = []
    for label in ("greedy", "pimc") if pimc else ("greedy",):
        agent = GreedyAgent() if label == "greedy" else PimcAgent()
        wins, spent = _play_strato(agent, deals, label)
        rows.append(StratoAgentRow(label, wins, games, statistics.fmean(spent or [0.0]), len(spent), None))
    hidden, start = deals[0]
    first = hidden.initial_state()
    for label, make in makers.items():
        trial = 20
        began = cpu()
        make(trial).choose(hidden, first, Random(0))
        n = max(least.get(label, 1), round(trial * seconds / max(cpu() - began, 1e-6)))
        if spare:
            _, spent = _play_strato(make(n), spare, f"calibrate:{label}")
            n = max(least.get(label, 1), round(n * seconds / max(statistics.fmean(spent or [seconds]), 1e-6)))
        wins, spent = _play_strato(make(n), deals, label)
        rows.append(StratoAgentRow(label, wins, games, statistics.fmean(spent or [0.0]), len(spent), n))
    return rows


def strato_uct_speed(puzzle: str, players: int, seeds: range, simulations: int, *,
                     repeats: int = 3) -> list[tuple[int, SpeedPeer]]:
    """:func:`uct_speed` from the start of each seeded deal, hidden pile (our plain UCT and ``MCTSBot``,
    both on the hidden-pile engine)."""
    return [(s, uct_speed(hidden, hidden.initial_state(), simulations, repeats=repeats))
            for s, (hidden, _) in zip(seeds, _strato_deals(puzzle, players, seeds), strict=True)]


__all__: Sequence[str] = [
    "MatchPeer",
    "SearchPeer",
    "SpeedPeer",
    "SpielMctsAgent",
    "SpielStratoAgent",
    "StagePeer",
    "StratoAgentRow",
    "StratoExactPeer",
    "StratoUctAgent",
    "engine_for",
    "equal_time_match",
    "match_game",
    "open_game",
    "search_peer",
    "stage_peer",
    "strato_exact_peer",
    "strato_spiel_game",
    "strato_team_match",
    "strato_uct_speed",
    "uct_speed",
]
