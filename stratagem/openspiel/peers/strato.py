"""Strato's peers: the exact solo win probability (our MDP search against OpenSpiel's
``expectiminimax``), UCT speed on the hidden-pile game, and the team's agents against ``MCTSBot`` on
the same seeded deals."""

from __future__ import annotations

import copy
import statistics
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from random import Random
from typing import Any

import pyspiel
from open_spiel.python.algorithms import minimax as spiel_minimax

from stratagem.core.game import CHANCE
from stratagem.openspiel.peers.bots import mcts_bot
from stratagem.openspiel.peers.games import DEEP, NodeBudget, cpu, open_game
from stratagem.openspiel.peers.match import MIN_BOT_SIMULATIONS
from stratagem.openspiel.peers.search import SearchRun
from stratagem.openspiel.peers.speed import SpeedPeer, uct_speed
from stratagem.solvers.match import TimedAgent
from stratagem.solvers.mcts import uct


class RememberedPlays:
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


#: Positions whose plays :class:`RememberedPlays` keeps (a search's path and its siblings fit).
REMEMBERED_PLAYS = 4096


@dataclass(frozen=True)
class StratoExactPeer:
    """One solo position with the pile's order hidden: the exact win probability by our MDP search
    (with and without Strato's knowledge), by the compiled search ``stratagem odds`` runs (the kernel's exact
    value of the start) and by OpenSpiel's ``expectiminimax``.

    Each :class:`SearchRun` counts the states it searched: ours, the states our search expanded (a
    state met again is looked up, not counted); OpenSpiel's, its recursive calls (the states it
    applied, plus the root: it remembers nothing, so a state met again is searched again). Values are
    win probabilities (OpenSpiel's expected return ``r`` in [-1, 1] is ``(r + 1) / 2``).
    """

    position: str
    ours: SearchRun
    plain: SearchRun
    theirs: SearchRun
    compiled: SearchRun
    states_kept: int
    exact: Fraction | None
    runs: int

    @property
    def agree(self) -> bool | None:
        """Whether OpenSpiel's value equals ours, and the compiled search's where it finished (None when ours or
        OpenSpiel's did not finish)."""
        if self.theirs.value is None or self.ours.value is None:
            return None
        return all(abs(self.ours.value - run.value) <= 1e-9 for run in (self.theirs, self.compiled)
                   if run.value is not None)


def strato_spiel_game(puzzle: str, position: str) -> Any:
    """``stratagem_strato`` (hidden information) from ``position`` of ``puzzle``'s challenge."""
    import stratagem.openspiel  # noqa: F401  (registers the games)

    return pyspiel.load_game("stratagem_strato", {"puzzle": str(puzzle), "position": position})


def strato_exact_peer(puzzle: str, position: str, max_nodes: int, *, repeats: int = 3,
                      cheap: float = 1.0) -> StratoExactPeer:
    """Our exact solo win probability from ``position`` (:func:`~stratagem.solvers.mdp.optimal_value`,
    memoised, Star1 windows; once as ``stratagem odds`` ran it until stop 71, with the admissible turn
    bound's ordering and floor, once without them; and the compiled search's, ``odds``' since:
    :meth:`~stratagem.models.strato.hidden.exact.Solver.solve`) against OpenSpiel's ``expectiminimax`` on the
    ``stratagem_strato`` game from the same position; each stopped at ``max_nodes`` states. Repeated
    (median CPU) while a whole set took under ``cheap`` CPU seconds, at most ``repeats`` times."""
    first = _strato_exact_once(puzzle, position, max_nodes)
    runs = [first[:4]]
    while len(runs) < repeats and sum(r.seconds for r in runs[0]) < cheap:
        runs.append(_strato_exact_once(puzzle, position, max_nodes)[:4])

    def median(i: int) -> SearchRun:
        return replace(runs[0][i], seconds=statistics.median(r[i].seconds for r in runs))

    return StratoExactPeer(position, median(0), median(1), median(2), median(3), first[4], first[5], len(runs))


def _strato_exact_once(puzzle: str, position: str, max_nodes: int) -> tuple[
        SearchRun, SearchRun, SearchRun, SearchRun, int, Fraction | None]:
    from stratagem.core.deadline import Deadline
    from stratagem.core.recursion import deep_recursion
    from stratagem.models.strato.hidden.exact import Solver
    from stratagem.models.strato.hidden.odds import TurnBound, win_payoff
    from stratagem.solvers.mdp import SOLVED, optimal_value

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
    counter = RememberedPlays(game, max_nodes)
    engine = copy.copy(spiel.engine)
    engine.game = counter
    spiel.engine = engine
    state = spiel.new_initial_state()
    status, value = "solved", None
    started = cpu()
    try:
        with deep_recursion():
            r = float(spiel_minimax.expectiminimax(state, DEEP, None, 0)[0])
        value = (r + 1) / 2
    except NodeBudget:
        status = "node budget"
    theirs = SearchRun("expectiminimax", status, counter.applied + 1, cpu() - started, value)
    found = Solver(game, max_nodes).solve()  # the kernel's own CPU seconds and the states it kept
    compiled = SearchRun("compiled search", "solved" if found.value is not None else "node budget", found.states,
                         found.seconds, None if found.value is None else float(found.value))
    return ours[0], ours[1], theirs, compiled, kept, exact


@dataclass
class SpielStratoAgent:
    """OpenSpiel's ``MCTSBot`` as a Strato team agent: it searches the hidden-pile game over the
    adapter's Strato engine (``stratagem_strato``'s states and numbering) from the observation's
    canonical state (:meth:`~stratagem.models.strato.hidden.observation.StratoObservation.state`), random
    playouts to the end, ``simulations`` per move. Solo, that state is exactly what the player knows (the
    table, the hand, the multiset of unseen cards); with more players the other hands in it are a fixed
    deal of the unseen cards, not the true ones (the bot treats them as known)."""

    simulations: int
    name: str = "openspiel-mcts"

    def choose(self, game: Any, seen: Any, rng: Random) -> Any:
        state = seen.state()  # the observation's canonical state (no hidden hand)
        spiel = open_game(game, state, chance=True)
        bot = mcts_bot(spiel, self.simulations, None, rng.getrandbits(32), 2.0)
        return spiel.engine.move(bot.step(spiel.new_initial_state()))


@dataclass
class StratoUctAgent:
    """Our UCT (:func:`~stratagem.solvers.mcts.uct`, random playouts, MCTS-Solver) as a Strato team
    agent over the same canonical state as :class:`SpielStratoAgent` (so, like it, it treats a fixed deal
    of the unseen cards as the other hands with two or more players; solo, it has what the player knows)."""

    iterations: int
    name: str = "mcts"

    def choose(self, game: Any, seen: Any, rng: Random) -> Any:
        return uct(game, seen.state(), iterations=self.iterations, seed=rng.getrandbits(32)).best_move


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

    seconds: list[float] = []
    seats: dict[int, list[TimedAgent]] = {}  # one object a seat, as play_deal wants, timed into one list
    wins = 0
    for i, (hidden, start) in enumerate(deals):
        count = hidden.num_players
        seated = seats.setdefault(count, [TimedAgent(copy.deepcopy(agent), seconds=seconds) for _ in range(count)])
        won, _ = play_deal(hidden, start, seated, Random(f"{label}:{i}"))  # type: ignore[arg-type]
        wins += won
    return wins, seconds


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
    from stratagem.models.strato.hidden.observation import observe, public_game

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
        make(trial).choose(public_game(hidden), observe(hidden, first), Random(0))
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
