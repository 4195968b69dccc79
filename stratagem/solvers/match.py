"""Matches between agents: many seeded games, seats rotated, results with confidence intervals.

A match plays ``games`` games of one game between as many agents as it has players. Games come in
*deals* of ``num_players`` games: within a deal the agents are rotated through every seat (in game
``g`` the agent at position ``a`` of the list sits in seat ``(a - g) mod num_players``), and every
game of a deal draws its chance outcomes (the deal of the cards, the dice) from the same seeded
stream, so each agent meets the same luck from each seat -- the "duplicate" format of bridge, which
cuts the variance of the comparison. With ``games`` a multiple of the player count every agent
plays every seat equally often; the per-seat counts are in the result either way.

Everything random is seeded from ``seed``: the chance stream of deal ``d`` is
``Random(f"{seed}/deal/{d}")`` and the agent in seat ``s`` of game ``g`` gets ``Random(f"{seed}/game/{g}/seat/{s}")``
(string seeds are hashed with SHA-512 by :mod:`random`, so they do not depend on ``PYTHONHASHSEED``).
The same agents, game and seed give the same result, as long as no agent has a time limit.

Scoring per finished game, from the returns: an agent *wins* with a return strictly above every other
player's, *draws* when it shares the highest return, and otherwise *loses* (for two-player zero-sum
games: the usual win/draw/loss). A solo game (one player) has no other return to beat, so it is won on
a positive return, lost on a negative one and drawn on 0 (STAKD solo: +1 when every piece is placed,
-1 otherwise). A game still running after ``max_plies`` plies (moves and chance
outcomes) is *unfinished* and left out of every rate and mean; so is a game an analysis horizon stopped
undecided (a game whose ``stopped_undecided(state)`` is true at its end, e.g. Stratatak's battle limit,
whose 0 means "undecided within N battles", never a draw). Reported per agent: the win rate with
a 95% Wilson score interval (Wilson 1927; good at rates near 0 or 1 and for few games, where the
normal approximation fails), and the mean return with a 95% percentile bootstrap interval
(:func:`bootstrap_interval`, seeded): returns are bounded and often skewed (Stack Attack's are never
positive, with a long tail of large penalties), and the normal or Student-t interval then reached far
outside what any game can return (``-52.50 [-300.27, 195.27]``); a bootstrap interval never leaves the
range of the returns seen.

A match may be given a :class:`~stratagem.core.deadline.Deadline` (``stratagem play --time-limit``):
it is checked before every move, each agent with a per-move ``time_limit`` gets at most the time left,
and when it passes the match ends with the games finished so far (``stopped_by`` is ``"time"``; the
game in progress is left out).
"""

from __future__ import annotations

import copy
import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random
from statistics import NormalDist, fmean, stdev
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.game import CHANCE, SIMULTANEOUS, Game
from stratagem.solvers.agents import Agent, AgentWrapper, agent_params
from stratagem.solvers.mcts import UnsupportedGame, sample_outcome

__all__ = [
    "AgentRecord",
    "GameRecord",
    "MatchResult",
    "MatchStopped",
    "TimedAgent",
    "bootstrap_interval",
    "clustered_wilson_interval",
    "equal_cpu_budgets",
    "play_game",
    "play_match",
    "t_interval",
    "t_quantile",
    "wilson_interval",
]

#: Called after each game with (games done, games in all), e.g. to advance a progress bar.
Progress = Callable[[int, int], None]

#: Plies after which a game is abandoned as unfinished.
DEFAULT_MAX_PLIES = 10_000


# --------------------------------------------------------------------------------------------------
# Intervals


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / trials``; (0, 1) with no trials."""
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    if trials == 0:
        return (0.0, 1.0)
    return _wilson(successes / trials, trials, confidence)


def _wilson(p: float, n: float, confidence: float) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``p`` observed on ``n`` trials (``n`` may be an effective,
    non-integer count)."""
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def clustered_wilson_interval(clusters: Sequence[tuple[int, int]],
                              confidence: float = 0.95) -> tuple[float, float, float]:
    """The Wilson interval of a proportion observed in clusters of trials -- ``(successes, trials)`` per
    cluster, e.g. the games of one deal -- and the design effect it used: ``(low, high, effect)``.

    Games of one deal are not independent (a hard deal loses most of its shuffles), so a Wilson interval
    over the pooled games is too narrow for the rate on a random deal. Here the pooled rate's variance is
    the ratio estimator's cluster-robust one, ``m/(m-1) * sum (w_i - p n_i)^2 / N^2`` over the ``m``
    clusters with trials; the design effect is that variance over the binomial ``p(1-p)/N``, never taken
    below 1; and the interval is Wilson's at the effective count ``N / effect`` (Kish's effective sample
    size). With every game won or every game lost the variance says nothing, and each cluster counts as
    one trial (the most a design effect can take away). One game per cluster gives an effect of
    ``m/(m-1)``, about the pooled Wilson interval. ``(0, 1, 1)`` with no trials or one cluster."""
    counted = [(w, n) for w, n in clusters if n > 0]
    for w, n in counted:
        if not 0 <= w <= n:
            raise ValueError(f"{w} successes out of {n} trials")
    m, total = len(counted), sum(n for _, n in counted)
    if m < 2:
        return (0.0, 1.0, 1.0)
    p = sum(w for w, _ in counted) / total
    if p in (0.0, 1.0):
        effect = total / m
    else:
        variance = m / (m - 1) * sum((w - p * n) ** 2 for w, n in counted) / total ** 2
        effect = max(1.0, variance / (p * (1 - p) / total))
    low, high = _wilson(p, total / effect, confidence)
    return (low, high, effect)


def _t_central(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with ``df`` (integer) degrees of freedom, in closed form
    (Abramowitz & Stegun 26.7.3 and 26.7.4)."""
    theta = math.atan(t / math.sqrt(df))
    sin, cos = math.sin(theta), math.cos(theta)
    cos2 = cos * cos
    if df % 2 == 1:
        total, term = 0.0, cos
        if df > 1:
            total = term
            for k in range(3, df - 1, 2):
                term *= cos2 * (k - 1) / k
                total += term
        return 2 / math.pi * (theta + sin * total)
    total, term = 1.0, 1.0
    for k in range(2, df - 1, 2):
        term *= cos2 * (k - 1) / k
        total += term
    return sin * total


def t_quantile(confidence: float, df: int) -> float:
    """The ``t`` with ``P(|T| <= t) = confidence`` for ``df`` degrees of freedom (two-sided critical
    value; 12.706 for 95% and df = 1), found by bisection on the exact distribution."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    low, high = 0.0, 1.0
    while _t_central(high, df) < confidence:
        high *= 2
    for _ in range(100):
        middle = (low + high) / 2
        if _t_central(middle, df) < confidence:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def t_interval(values: Sequence[float], confidence: float = 0.95,
               within: tuple[float, float] | None = None) -> tuple[float, float] | None:
    """The Student-t confidence interval for the mean of ``values``; None with fewer than two. ``within``:
    the range the mean can take (a difference of two win rates: -1 to 1), which the interval is cut to (on
    4 deals a difference of win rates was once given as +0.750 [+0.485, +1.015])."""
    if len(values) < 2:
        return None
    mean = fmean(values)
    half = t_quantile(confidence, len(values) - 1) * stdev(values) / math.sqrt(len(values))
    if within is None:
        return (mean - half, mean + half)
    return (max(mean - half, within[0]), min(mean + half, within[1]))


#: Resamples of :func:`bootstrap_interval`.
BOOTSTRAP_RESAMPLES = 2000


def bootstrap_interval(values: Sequence[float], confidence: float = 0.95,
                       resamples: int = BOOTSTRAP_RESAMPLES) -> tuple[float, float] | None:
    """The percentile bootstrap interval for the mean of ``values``; None with fewer than two.

    Seeded from nothing but the values (the same values give the same interval), and never outside
    ``[min(values), max(values)]``: so never outside the range a bounded return can take, where the
    normal approximation fails (few games, or skewed returns)."""
    if len(values) < 2:
        return None
    if min(values) == max(values):
        return (float(values[0]), float(values[0]))
    rng = Random(f"bootstrap/{len(values)}/{fmean(values)!r}")
    n = len(values)
    means = sorted(fmean(rng.choices(values, k=n)) for _ in range(resamples))
    tail = (1.0 - confidence) / 2
    low = means[max(0, math.floor(tail * resamples))]
    high = means[min(resamples - 1, math.ceil((1.0 - tail) * resamples) - 1)]
    return (low, high)


# --------------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class GameRecord:
    """One game: its index, deal, the agent label in each seat, returns (None if unfinished), plies."""

    index: int
    deal: int
    seats: tuple[str, ...]
    returns: tuple[float, ...] | None
    plies: int

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "index": self.index,
            "plies": self.plies,
            "returns": list(self.returns) if self.returns is not None else None,
            "seats": list(self.seats),
        }


@dataclass(frozen=True)
class AgentRecord:
    """One agent's results over the finished games (see the module docstring for the scoring)."""

    label: str
    name: str
    params: dict[str, Any]
    games: int
    wins: int
    draws: int
    losses: int
    unfinished: int
    win_rate: float
    win_rate_ci95: tuple[float, float]
    mean_return: float
    mean_return_ci95: tuple[float, float] | None
    seat_games: tuple[int, ...]

    @property
    def finished(self) -> int:
        """The games that ended with returns (the rates and means are over these)."""
        return self.games - self.unfinished

    def to_json(self) -> dict[str, Any]:
        """Plain data; the win rate and the mean return are ``null`` when no game finished (not 0)."""
        return {
            "draws": self.draws,
            "games": self.games,
            "label": self.label,
            "losses": self.losses,
            "mean_return": self.mean_return if self.finished else None,
            "mean_return_ci95": list(self.mean_return_ci95) if self.mean_return_ci95 is not None else None,
            "name": self.name,
            "params": dict(sorted(self.params.items())),
            "seat_games": list(self.seat_games),
            "unfinished": self.unfinished,
            "win_rate": self.win_rate if self.finished else None,
            "win_rate_ci95": list(self.win_rate_ci95) if self.finished else None,
            "wins": self.wins,
        }


@dataclass(frozen=True)
class MatchResult:
    """A whole match: per-agent results in the order the agents were given, and every game."""

    game: str
    seed: int
    games: int
    max_plies: int
    agents: tuple[AgentRecord, ...]
    records: tuple[GameRecord, ...]
    #: The games asked for (``games`` is those played); ``stopped_by`` is ``"time"`` when a deadline ended it.
    planned: int | None = None
    stopped_by: str | None = None
    #: Points a game of rounds was played to (STAKD's race, ``play --points``); None: one game each.
    points: int | None = None

    def to_json(self, *, include_games: bool = False) -> dict[str, Any]:
        """Plain JSON data; ``json.dumps(..., sort_keys=True)`` of it is byte-for-byte reproducible."""
        data: dict[str, Any] = {
            "agents": [a.to_json() for a in self.agents],
            "format": "stratagem/match@1",
            "game": self.game,
            "games": self.games,
            "max_plies": self.max_plies,
            "seed": self.seed,
            "games_planned": self.games if self.planned is None else self.planned,
            "stopped_by": self.stopped_by,
        }
        if self.points is not None:
            data["points"] = self.points
        if include_games:
            data["records"] = [r.to_json() for r in self.records]
        return data


# --------------------------------------------------------------------------------------------------
# Playing


def play_game(
    game: Game[Any, Any],
    seats: Sequence[Agent],
    chance_rng: Random,
    seat_rngs: Sequence[Random],
    *,
    start: Any = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    deadline: Deadline | None = None,
) -> tuple[tuple[float, ...] | None, int]:
    """Play one game with ``seats[p]`` as player ``p``; returns (returns or None if unfinished, plies):
    unfinished after ``max_plies``, or stopped undecided by an analysis horizon (``stopped_undecided``).

    :class:`MatchStopped` when ``deadline`` passes before the game ends."""
    state = game.initial_state() if start is None else start
    plies = 0
    while not game.is_terminal(state):
        if plies >= max_plies:
            return None, plies
        if deadline is not None:
            seats = [within(agent, deadline) for agent in seats]
        mover = game.to_move(state)
        if mover == CHANCE:
            move = sample_outcome(game.chance_outcomes(state), chance_rng)
        elif mover == SIMULTANEOUS:
            joint = []
            for p, agent in enumerate(seats):
                if deadline is not None and p:  # the seats before took some of the time: cut the limit again
                    agent = within(agent, deadline)
                choose = getattr(agent, "choose_simultaneous", None)
                if choose is None:
                    raise UnsupportedGame(f"agent {agent.name!r} cannot move at a simultaneous node")
                joint.append(choose(game, state, p, seat_rngs[p]))
            move = tuple(joint)
        else:
            move = seats[mover].choose(game, state, seat_rngs[mover])
        state = game.apply(state, move)
        plies += 1
    stopped = getattr(game, "stopped_undecided", None)
    if stopped is not None and stopped(state):
        return None, plies
    return tuple(float(v) for v in game.returns(state)), plies


class MatchStopped(Exception):
    """The match's deadline passed in the middle of a game."""


def within(agent: Any, deadline: Deadline) -> Any:
    """``agent`` with its per-move ``time_limit`` (if it has one, or the agent it plays by has) cut to the
    time ``deadline`` leaves; :class:`MatchStopped` when none is left. An agent without a time limit is
    returned as it is. A dataclass agent is replaced (:func:`dataclasses.replace`), sharing what it keeps
    between moves (its ``init=False`` fields, such as mcts's tree); another agent with a ``time_limit``
    attribute (``duct``) is copied (:func:`copy.copy`) with the attribute set, so the caller's agent keeps
    its own limit."""
    left = deadline.remaining()
    if left is None:
        return agent
    if left <= 0.0:
        raise MatchStopped()
    if isinstance(agent, type):
        return agent
    if not dataclasses.is_dataclass(agent):
        if not hasattr(agent, "time_limit"):
            return agent
        current = agent.time_limit
        if current is not None and current <= left:
            return agent
        limited = copy.copy(agent)
        limited.time_limit = left
        return limited
    if isinstance(agent, AgentWrapper):  # an agent that plays by another: that one's limit is cut
        inner = within(agent.agent, deadline)
        return agent if inner is agent.agent else dataclasses.replace(agent, agent=inner)
    if not any(f.name == "time_limit" for f in dataclasses.fields(agent)):
        return agent
    current = getattr(agent, "time_limit", None)
    if current is not None and current <= left:
        return agent
    limited = dataclasses.replace(agent, time_limit=left)  # type: ignore[type-var]
    # What an agent keeps between moves (its fields no caller sets: mcts's tree under ``reuse``) is shared,
    # not made afresh, so that a limit does not cost the agent what its last search learnt.
    for kept in dataclasses.fields(agent):
        if not kept.init:
            object.__setattr__(limited, kept.name, getattr(agent, kept.name))  # frozen dataclasses too
    return limited


def _labels(agents: Sequence[Agent]) -> list[str]:
    """Agent names, with ``#2``, ``#3`` ... added to repeats so every label is unique."""
    labels: list[str] = []
    for agent in agents:
        label, n = agent.name, 1
        while label in labels:
            n += 1
            label = f"{agent.name}#{n}"
        labels.append(label)
    return labels


def play_match(
    game: Game[Any, Any],
    agents: Sequence[Agent],
    games: int,
    *,
    seed: int = 0,
    start: Any = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    progress: Progress | None = None,
    deadline: Deadline | None = None,
) -> MatchResult:
    """Play ``games`` games between ``agents`` (one per player) from ``start`` (default: the game's
    initial state), rotating seats; see the module docstring. When ``deadline`` passes, the match ends
    with the games finished (``stopped_by`` ``"time"``)."""
    players = game.num_players
    if len(agents) != players:
        raise ValueError(f"{game.name!r} has {players} players but {len(agents)} agents were given")
    if games < 0:
        raise ValueError(f"games must be non-negative, not {games}")
    labels = _labels(agents)
    records: list[GameRecord] = []
    chance_rng = Random()
    stopped_by = None
    for g in range(games):
        deal, rotation = divmod(g, players)
        # Seat s is taken by agent (s + rotation) mod players, so agent a sits in (a - rotation) mod players.
        order = [(s + rotation) % players for s in range(players)]
        chance_rng.seed(f"{seed}/deal/{deal}")
        seat_rngs = [Random(f"{seed}/game/{g}/seat/{s}") for s in range(players)]
        try:
            returns, plies = play_game(game, [agents[a] for a in order], chance_rng, seat_rngs,
                                       start=start, max_plies=max_plies, deadline=deadline)
        except MatchStopped:
            stopped_by = "time"
            break
        records.append(GameRecord(g, deal, tuple(labels[a] for a in order), returns, plies))
        if progress is not None:
            progress(g + 1, games)
    return MatchResult(
        game=game.name,
        seed=seed,
        games=len(records),
        max_plies=max_plies,
        agents=tuple(_agent_record(label, agents[a], records, players) for a, label in enumerate(labels)),
        records=tuple(records),
        planned=games,
        stopped_by=stopped_by,
    )


def _agent_record(label: str, agent: Agent, records: Sequence[GameRecord], players: int) -> AgentRecord:
    wins = draws = losses = unfinished = 0
    values: list[float] = []
    seat_games = [0] * players
    for record in records:
        seat = record.seats.index(label)
        seat_games[seat] += 1
        if record.returns is None:
            unfinished += 1
            continue
        mine = record.returns[seat]
        values.append(mine)
        if len(record.returns) == 1:  # solo: no other player to beat, so the return's sign decides
            if mine > 0:
                wins += 1
            elif mine < 0:
                losses += 1
            else:
                draws += 1
            continue
        top = max(record.returns)
        if mine < top:
            losses += 1
        elif record.returns.count(top) == 1:
            wins += 1
        else:
            draws += 1
    finished = len(values)
    return AgentRecord(
        label=label,
        name=agent.name,
        params=agent_params(agent),
        games=finished + unfinished,
        wins=wins,
        draws=draws,
        losses=losses,
        unfinished=unfinished,
        win_rate=wins / finished if finished else 0.0,
        win_rate_ci95=wilson_interval(wins, finished),
        mean_return=fmean(values) if values else 0.0,
        mean_return_ci95=bootstrap_interval(values),
        seat_games=tuple(seat_games),
    )


# --------------------------------------------------------------------------------------------------
# Equal CPU per move


@dataclass
class TimedAgent(AgentWrapper):
    """An agent that records the CPU seconds (``clock``: this process's CPU time) each of its moves took."""

    agent: Any
    clock: Callable[[], float] = field(default=time.process_time, repr=False)
    seconds: list[float] = field(default_factory=list)

    def choose(self, game: Game[Any, Any], state: Any, rng: Random) -> Any:
        started = self.clock()
        move = self.agent.choose(game, state, rng)
        self.seconds.append(self.clock() - started)
        return move


def equal_cpu_budgets(
    game: Game[Any, Any],
    build: Callable[[Sequence[int | None]], Sequence[Agent]],
    budgets: Sequence[int | None],
    seconds: float,
    *,
    rounds: int = 3,
    seed: int = 0,
    minimum: int = 1,
    start: Any = None,
    clock: Callable[[], float] = time.process_time,
) -> list[int | None]:
    """Each side's search budget (iterations or simulations per move) that spends ``seconds`` of CPU per
    move, so that a match between searches of unlike speed is fair and still seeded and reproducible
    (a fixed count per move, unlike a time limit, gives the same moves on every run).

    ``build(budgets)`` makes one agent per player from the budgets (``None``: a side whose cost is not
    scaled, such as a one-ply baseline). Starting from ``budgets``, ``rounds`` times: one deal is played
    from both seats (``play_match`` with seed ``seed``, ``seed + 1`` ... and 2 games for two players:
    give a seed apart from the counted match's), and each scaled budget is multiplied by ``seconds``
    over the mean CPU its side spent per move (never below ``minimum``). Returns the last budgets.
    """
    current = list(budgets)
    for r in range(rounds):
        timed = [TimedAgent(agent, clock) for agent in build(current)]
        play_match(game, timed, game.num_players, seed=seed + r, start=start)
        for side, budget in enumerate(current):
            spent = timed[side].seconds
            if budget is None or not spent:
                continue
            mean = max(sum(spent) / len(spent), 1e-9)
            current[side] = max(minimum, round(budget * seconds / mean))
    return current
