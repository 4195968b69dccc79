"""STAKD's game as the seed scores it: rounds, each worth a point, until a player has three.

Seed, "Step 5: Win": "The last player to be able to place a piece wins the round, earning one (1)
point. The winner of the round starts the next round." and "First player to earn three (3) points wins
the game!" :class:`StakdGame` is one round (what every analysis, proof and benchmark is about: rounds are
independent, each dealt the same pieces afresh); :class:`PointsRace` plays rounds of it until a player
has ``points`` points, the winner of each round starting the next, and is what ``stratagem play stakd
--points 3`` plays. Knocking the structure over (which costs a point) is physical and not modelled
(ruling), so a round always has a winner and the race always ends.

Agents choose on the round: :class:`RoundAgent` hands any agent the round game and the round's
position, so every STAKD agent (and the compiled engine, which knows rounds only) plays a race
unchanged. They play each round to win it: with two players that is the best play whatever the score
(each round is won or lost whole, with the same pieces); with more, a player who cannot win a round might
care which other player does, which the agents do not weigh.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from random import Random
from typing import Any, NamedTuple

from stratagem.core.game import TERMINAL
from stratagem.models.stakd.position import State
from stratagem.models.stakd.rules import StakdGame
from stratagem.solvers.agents import AgentWrapper

#: The seed's target: "First player to earn three (3) points wins the game!"
SEED_POINTS = 3
#: The largest race ``--points`` accepts (a race plays at most :attr:`PointsRace.most_rounds` rounds).
MAX_POINTS = 99


class RaceState(NamedTuple):
    """A position of a race: the round in play (over once the race is won), each player's points, and
    how many rounds were finished."""

    round: State
    points: tuple[int, ...]
    rounds: int


class PointsRace:
    """Rounds of ``rules`` (a fresh :class:`StakdGame`) until a player has ``points`` points; the
    winner of a round starts the next. Returns: +1 to the race's winner, -1 to every other player."""

    name = "stakd"

    def __init__(self, rules: StakdGame, points: int = SEED_POINTS) -> None:
        if rules.num_players < 2:
            raise ValueError("a race to points needs two players or more (solo has no rounds to win)")
        if not 1 <= points <= MAX_POINTS:
            raise ValueError(f"points {points} is not from 1 to {MAX_POINTS}")
        self.rules = rules
        self.points = points
        self.num_players = rules.num_players
        self._fresh = rules.initial_state()

    @property
    def most_rounds(self) -> int:
        """The most rounds a race can take: every player one short of the target, then one more."""
        return self.num_players * (self.points - 1) + 1

    def round_start(self, starter: int) -> State:
        """A fresh round (an empty table, every player's pieces) with ``starter`` to place first."""
        fresh = self._fresh
        return self.rules.settle(State((), fresh.hands, starter, (False,) * self.num_players))

    # -- Game protocol -------------------------------------------------------------------------
    def initial_state(self) -> RaceState:
        return RaceState(self._fresh, (0,) * self.num_players, 0)

    def to_move(self, state: RaceState) -> int:
        return TERMINAL if self.is_terminal(state) else self.rules.to_move(state.round)

    def legal_moves(self, state: RaceState) -> list[Any]:
        return [] if self.is_terminal(state) else self.rules.legal_moves(state.round)

    def apply(self, state: RaceState, move: Any) -> RaceState:
        played = self.rules.apply(state.round, move)
        if not self.rules.is_terminal(played):
            return state._replace(round=played)
        winner = self.round_winner(played)
        points = tuple(p + (i == winner) for i, p in enumerate(state.points))
        over = max(points) >= self.points
        return RaceState(played if over else self.round_start(winner), points, state.rounds + 1)

    def round_winner(self, finished: State) -> int:
        """The player who wins a finished round: the last to place a piece that is not a Bomber."""
        winner = finished.last_non_bomber_placer()
        if winner is None:  # cannot happen: the first piece of a round is a Base
            raise ValueError("a finished round without a piece placed")
        return winner

    def chance_outcomes(self, state: RaceState) -> Sequence[tuple[Any, Fraction]]:
        return ()

    def is_terminal(self, state: RaceState) -> bool:
        return max(state.points) >= self.points

    def returns(self, state: RaceState) -> tuple[float, ...]:
        if not self.is_terminal(state):
            return (0.0,) * self.num_players
        top = max(state.points)
        return tuple(1.0 if p == top else -1.0 for p in state.points)

    def format_move(self, state: RaceState, move: Any) -> str:
        return self.rules.format_move(state.round, move)

    def parse_move(self, state: RaceState, text: str) -> Any:
        return self.rules.parse_move(state.round, text)

    def format_state(self, state: RaceState) -> str:
        return (f"{self.rules.format_state(state.round)} (points {'-'.join(map(str, state.points))} after "
                f"{state.rounds} round{'' if state.rounds == 1 else 's'})")

    def setup(self) -> dict[str, Any]:
        return {**self.rules.setup(), "points": self.points}


@dataclass(frozen=True)
class RoundAgent(AgentWrapper):
    """``agent`` playing a race: it is handed the round game and the round's position, never the score
    (a match's deadline cuts the agent's own ``time_limit``, as for every :class:`AgentWrapper`)."""

    agent: Any

    def choose(self, game: PointsRace, state: RaceState, rng: Random) -> Any:
        return self.agent.choose(game.rules, state.round, rng)


__all__ = ["MAX_POINTS", "SEED_POINTS", "PointsRace", "RaceState", "RoundAgent"]
