"""A match at equal CPU time per move: our ``mcts`` agent against OpenSpiel's ``MCTSBot``, each side's
simulations per move calibrated from its own measured speed, then a seeded, reproducible match."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from random import Random
from typing import Any

from stratagem.analysis import return_bounds
from stratagem.core.game import CHANCE, Game
from stratagem.matches import new_game
from stratagem.models.stratatak.cards import Options
from stratagem.models.stratatak.rules import StratatakGame
from stratagem.openspiel.adapter import OpenPositionGame
from stratagem.openspiel.cardclash import DealtCardClash
from stratagem.openspiel.peers.bots import mcts_bot
from stratagem.openspiel.peers.games import cpu, has_chance, open_game
from stratagem.solvers.agents import Agent, MctsAgent
from stratagem.solvers.match import MatchResult, TimedAgent, play_match


@dataclass
class SpielMctsAgent:
    """OpenSpiel's ``MCTSBot`` as a stratagem match agent: it searches the open position (every card
    known, like our ``mcts`` agent) with ``simulations`` simulations per move."""

    simulations: int
    rollout_limit: int | None = None
    name: str = "openspiel-mcts"
    #: The game played last and its OpenSpiel game: one kept per id(game) ever seen grew with every match
    #: the agent played, and a freed game's id could come back with another game.
    _last: tuple[Game[Any, Any], OpenPositionGame] | None = field(default=None, repr=False)

    def choose(self, game: Game[Any, Any], state: Any, rng: Random) -> Any:
        if self._last is None or self._last[0] is not game:
            self._last = (game, open_game(game, state, chance=has_chance(game)))
        spiel = self._last[1]
        low, high = return_bounds(game)
        bot = mcts_bot(spiel, self.simulations, self.rollout_limit, rng.getrandbits(32), float(high - low))
        return spiel.engine.move(bot.step(spiel.state_at(state)))

    @property
    def params(self) -> dict[str, Any]:
        return {"simulations": self.simulations, "rollout_limit": self.rollout_limit}


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
    deal with ``battle_limit = 40``, the OpenSpiel game's default (a game undecided after 40 battles
    is unfinished, never a draw, and left out of the win rate), since the rules allow endless play.
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
