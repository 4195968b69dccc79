"""Strato played as a team, the pile's order and the other hands hidden: how often do agents win?

What ``stratagem play strato PUZZLE`` does, as one library call::

    from stratagem.teamplay import play_strato

    match = play_strato("puzzles/strato/challenge-0.toml", ["greedy", "pimc"], players=[1, 2], games=10)
    match.rows[0].win_rate, match.rows[0].win_rate_ci95

Strato is cooperative: every seat of a game is played by the same agent kind and the team shares one
result. Each agent kind plays the **same deals** (seeds ``seed`` .. ``seed + games - 1``, for each player
count), and every draw comes from that deal's real pile in its real order, so agents are compared on equal
luck (duplicate deals, as in duplicate bridge). The agents only see what a player sees
(:mod:`stratagem.models.strato.hidden.agents`); the deal's open order decides the chance events. Win rates have
95% Wilson intervals; the mean number of turns is over the games won.
"""

from __future__ import annotations

import copy
import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput
from stratagem.core.game import CHANCE
from stratagem.core.io import MAX_SEED
from stratagem.loading import deal_of, load_strato
from stratagem.models.strato.hidden.agents import StratoAgent, make_strato_agent
from stratagem.models.strato.hidden.game import PLAY, HiddenStrato
from stratagem.models.strato.hidden.observation import PublicPlay, observe, public_game, public_play
from stratagem.models.strato.rules.position import WON, State
from stratagem.solvers.agents import AgentError, parse_agent_spec
from stratagem.solvers.match import MatchStopped, bootstrap_interval, wilson_interval, within

__all__ = ["TEAMPLAY_FORMAT", "TeamGame", "TeamMatch", "TeamRow", "play_deal", "play_strato"]

TEAMPLAY_FORMAT = "stratagem/teamplay@1"
ARGUMENT = "<argument>"
#: Turns after which a game counts as unfinished (no Strato deal lasts this long: every turn plays a card).
MAX_TURNS = 500


@dataclass(frozen=True)
class TeamGame:
    """One deal played by one agent kind: won or not, and after how many turns."""

    seed: int
    won: bool
    turns: int


@dataclass(frozen=True)
class TeamRow:
    """One agent kind at one player count over the match's deals."""

    agent: str
    players: int
    games: list[TeamGame]
    seconds: float

    @property
    def wins(self) -> int:
        return sum(g.won for g in self.games)

    @property
    def win_rate(self) -> float:
        return self.wins / len(self.games) if self.games else 0.0

    @property
    def win_rate_ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, len(self.games))

    @property
    def mean_turns(self) -> float | None:
        won = [g.turns for g in self.games if g.won]
        return sum(won) / len(won) if won else None

    @property
    def mean_turns_ci95(self) -> tuple[float, float] | None:
        return bootstrap_interval([float(g.turns) for g in self.games if g.won])

    def to_json(self) -> dict[str, Any]:
        return {"agent": self.agent, "players": self.players, "games": len(self.games), "wins": self.wins,
                "win_rate": self.win_rate, "win_rate_ci95": list(self.win_rate_ci95),
                "mean_turns_to_win": self.mean_turns,
                "mean_turns_ci95": None if self.mean_turns_ci95 is None else list(self.mean_turns_ci95),
                "seconds": round(self.seconds, 3), "deals": [[g.seed, g.won, g.turns] for g in self.games]}


@dataclass(frozen=True)
class TeamMatch:
    puzzle: str
    challenge: str
    seed: int
    rows: list[TeamRow]
    #: ``"time"`` when the deadline ended the match (each row holds the deals finished by then).
    stopped_by: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"format": TEAMPLAY_FORMAT, "puzzle": self.puzzle, "challenge": self.challenge, "seed": self.seed,
                "information": "hidden: each player sees the table, their own hand and which cards are left",
                "rows": [row.to_json() for row in self.rows], "stopped_by": self.stopped_by}


def play_deal(hidden: HiddenStrato, start: State, agent: StratoAgent | Sequence[StratoAgent], rng: Random,
              deadline: Deadline | None = None, on_turn: Callable[[int], None] | None = None) -> tuple[bool, int]:
    """Play one deal, the draws following ``start``'s pile in its order. ``agent`` is one agent a seat, or
    one agent copied into every seat: each seat plays its own object, so that what an agent keeps of its
    own hand is never another seat's to read (one object in every seat once let a player's agent see its
    partner's hand). Each is handed what its player sees (:func:`observe`, with the decisions made so far
    as the table saw them) and the public rules (:func:`public_game`), never the true state.
    :class:`~stratagem.solvers.match.MatchStopped` when ``deadline`` passes first. ``on_turn`` is told
    each turn's number (from 1) as it starts: one game of a searching agent can take minutes."""
    seats = list(agent) if isinstance(agent, Sequence) else [copy.deepcopy(agent) for _ in range(hidden.num_players)]
    if len(seats) != hidden.num_players:
        raise ValueError(f"{len(seats)} agents for {hidden.num_players} seats")
    pile = list(start.pile)
    state = hidden.initial_state()
    rules = public_game(hidden)
    plays: list[PublicPlay] = []
    turns = 0
    while not hidden.is_terminal(state) and turns < MAX_TURNS:
        seat = hidden.to_move(state)
        if seat == CHANCE:
            card = pile.pop(0)
            state = hidden.apply(state, card)
            continue
        if state.phase == PLAY:  # a turn starts (a Redraw's target choice belongs to it)
            turns += 1
            if on_turn is not None:
                on_turn(turns)
        player = seats[seat] if deadline is None else within(seats[seat], deadline)
        move = player.choose(rules, observe(hidden, state, plays=plays), rng)
        plays.append(public_play(state, move))
        state = hidden.apply(state, move)
    return state.status == WON, turns


def play_strato(puzzle: str | Path, agents: Sequence[str], players: Sequence[int] = (1,), games: int = 20,
                seed: int = 0, progress: Callable[[int, int], None] | None = None,
                deadline: Deadline | None = None, on_turn: Callable[[int, int], None] | None = None) -> TeamMatch:
    """Each agent kind (``name[:key=value...]``) plays ``games`` seeded deals of ``puzzle`` for each
    player count; see the module docstring. When ``deadline`` passes the match ends with the deals
    finished (``stopped_by`` ``"time"``; the rows after it are left out, the row in progress is short).
    ``progress`` is told ``(games finished, games in all)`` after each game, ``on_turn`` ``(the game's
    number from 1, its turn from 1)`` as each turn starts."""
    loaded = load_strato(puzzle)
    specs: list[tuple[str, str, dict[str, Any]]] = []
    for i, spec in enumerate(agents):
        try:
            name, params = parse_agent_spec(spec)
            make_strato_agent(name, **params)
        except (AgentError, ValueError) as exc:
            raise BadInput(ARGUMENT, f"agents[{i}]", str(exc)) from None
        if any(label == spec.strip() for label, _, _ in specs):  # two rows of one label, the same games twice
            raise BadInput(ARGUMENT, f"agents[{i}]", f"{spec.strip()!r} is named twice: each agent kind "
                           "plays every seat of every deal once; name each kind once")
        specs.append((spec.strip(), name, params))
    for count in players:
        if not 1 <= count <= 4:
            raise BadInput(ARGUMENT, "players", f"Strato is played by 1 to 4 players, not {count}")
    if games < 1:
        raise BadInput(ARGUMENT, "games", "at least one game")
    if not 0 <= seed <= MAX_SEED - (games - 1):  # deal seeds are seed .. seed + games - 1, each a seed
        raise BadInput(ARGUMENT, "seed", f"the deals' seeds {seed} .. {seed} + {games - 1} go outside 0 .. "
                       f"{MAX_SEED} (2^63-1)")
    rows: list[TeamRow] = []
    total, done = len(specs) * len(players) * games, 0
    for count in players:
        for label, name, params in specs:
            seats = [make_strato_agent(name, **params) for _ in range(count)]  # one object a seat
            started = time.process_time()
            played: list[TeamGame] = []
            for deal_seed in range(seed, seed + games):
                deal = deal_of(loaded, deal_seed, count)
                hidden = HiddenStrato(deal.challenge, deal.game.options, deal.start)
                try:
                    turn = None if on_turn is None else functools.partial(on_turn, done + 1)
                    won, turns = play_deal(hidden, deal.start, seats, Random(f"{seed}:{count}:{deal_seed}:{label}"),
                                           deadline, turn)
                except MatchStopped:
                    if played:
                        rows.append(TeamRow(label, count, played, time.process_time() - started))
                    return TeamMatch(str(puzzle), loaded.challenge.name, seed, rows, "time")
                played.append(TeamGame(deal_seed, won, turns))
                done += 1
                if progress is not None:
                    progress(done, total)
            rows.append(TeamRow(label, count, played, time.process_time() - started))
    return TeamMatch(str(puzzle), loaded.challenge.name, seed, rows)
