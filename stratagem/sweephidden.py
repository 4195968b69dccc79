"""A sweep with the pile and the other hands hidden (``stratagem sweep --information hidden``): per seeded
deal, how often players who cannot see the cards win.

Two kinds of task, one ``stratagem/sweep@1`` record each (docs/formats.md, "Sweep records", hidden
information):

- **solo** (``players`` 1, method ``hidden:odds``): the exact optimal win probability of a player who
  sees the table, the hand and which cards are left, but not the pile's order --
  :func:`~stratagem.models.strato.hidden.exact.odds_interval` within the deal's time limit (the compiled
  probe "won with certainty?", the exact search, else the guided policy's exact value with improbable states
  counted as lost). Exact: status ``solved`` and the exact fraction. Stopped: status ``unknown`` and the
  interval the searches *proved* (``low`` the policy's value, ``high`` the optimum's bound, 1 when its
  search proved none): a sweep never claims more than it proved. (``stratagem odds --table`` writes the
  value table that ``verify`` checks; the sweep keeps no table.)
- **team** (``players`` 2 to 4, or 1 with ``solo_agents``: ``--solo-agents``; method ``hidden:AGENT``): the
  agent kind ``AGENT`` (``name[:key=value..]``,
  :mod:`stratagem.models.strato.hidden.agents`) in every seat plays the deal ``shuffles`` times, the
  hands as dealt and the pile shuffled again each time (shuffle ``k`` by the seed ``"SEED:PLAYERS:k"``),
  each agent seeing only what its player sees (:func:`stratagem.teamplay.play_deal`). The record holds
  the wins, the 95% Wilson interval of the win rate and each game's turns: an *estimate* of the team's
  win probability on this deal, not a proof. All its shuffles done: ``solved``; the limit reached first:
  ``unknown``, with the shuffles played.

The time limit is the task's: one deadline shared by everything the task does (the solo search, or all
the shuffles of a team task). A task's key is the puzzle's bytes, the player count, the seed and the
method (:func:`~stratagem.sweeprecords.task_key`), never the limit or the number of shuffles, so running
the sweep again does only what is missing and never counts a deal twice; of a key recorded more than once
the best-established record counts (:func:`~stratagem.sweeprecords.best_records`: of solo records a finished
one over a stopped one, then the higher proven lower end; of agent records the one of more games; the
latest among equals). ``--more-shuffles`` plays an agent task again with more shuffles: shuffle ``k``'s
pile and its agents' seed depend only on the deal, ``k`` and the agent, so its first games are those of
the record before (with the same code), and the new record holds every game. A results
file holds one kind of sweep: hidden records are not mixed with open ones, and new deals of a puzzle and
method must have the settings of the records already there: the first run's limit, the counted records'
shuffles (:func:`check_hidden_settings`).
"""

from __future__ import annotations

import hashlib
import shlex
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from stratagem import __version__
from stratagem.core.errors import BadArgument, BadInput, Param, Words, number_text
from stratagem.core.provenance import provenance
from stratagem.loading import deal_of, game_of_file, load_strato
from stratagem.models.strato.rules.puzzle import Puzzle, setup_from_data
from stratagem.sweeprecords import MAX_TASKS, SWEEP_FORMAT, ResultsFile, SettingsMismatch, best_records, task_key

__all__ = ["DEFAULT_AGENT", "HIDDEN", "INFORMATION", "OPEN", "SOLO_METHOD", "HiddenTask", "check_hidden_settings",
           "hidden_record", "plan_hidden", "run_hidden_task", "shuffled_start"]

OPEN, HIDDEN = "open", "hidden"
#: What a sweep's solver may see (``--information``): every card (``open``), or what a player sees.
INFORMATION = (OPEN, HIDDEN)
#: The method of a solo task: the exact hidden-pile win probability.
SOLO_METHOD = "hidden:odds"
#: The team agent when none is named: the strongest measured at a cheap budget (results/strato-hidden.md).
DEFAULT_AGENT = "belief:samples=8:nodes=1000"
#: The most shuffles a team task plays.
MAX_SHUFFLES = 10_000


def hidden_record(record: dict[str, Any]) -> bool:
    """Whether a sweep record is of a hidden-information sweep."""
    return record.get("information") == HIDDEN


@dataclass(frozen=True)
class HiddenTask:
    """One deal of a hidden-information sweep: everything a worker needs, no file read (``setup`` is the
    puzzle's challenge and options). ``agent`` is ``None`` for a solo task."""

    puzzle: str
    puzzle_sha256: str
    challenge: str
    setup: dict[str, Any] = field(hash=False, compare=False)
    players: int = 1
    seed: int = 0
    agent: str | None = None
    shuffles: int = 1
    time_limit: float | None = None
    retry: str | None = None
    #: Never used (a hidden task writes no proof); kept so a sweep treats every task alike.
    proof_dir: str | None = None

    @property
    def method(self) -> str:
        return SOLO_METHOD if self.agent is None else f"hidden:{self.agent}"

    @property
    def key(self) -> str:
        """The puzzle's bytes, players, seed and method (not the limit, not the shuffles)."""
        return task_key(self.puzzle_sha256, self.players, self.seed, self.method)

    def command(self) -> str:
        """The command that reproduces this task's record (into a results file of its own)."""
        limit = f" --time-limit {number_text(self.time_limit)}" if self.time_limit is not None else ""
        team = "" if self.agent is None else f" --agents {shlex.quote(self.agent)} --shuffles {self.shuffles}"
        if self.agent is not None and self.players == 1:
            team += " --solo-agents"
        return (f"stratagem sweep {shlex.quote(self.puzzle)} --information hidden --seeds {self.seed}..{self.seed} "
                f"--players {self.players}{team}{limit} --workers 0 --out deal.jsonl")


def plan_hidden(puzzles: Sequence[str | Path], seeds: Iterable[int], players: Iterable[int],
                agents: Sequence[str] = (DEFAULT_AGENT,), shuffles: int = 4,
                time_limit: float | None = None, solo_agents: bool = False,
                known: Sequence[str] = ()) -> list[HiddenTask]:
    """The tasks of a hidden sweep: every puzzle × player count × seed, a solo task for 1 player (and with
    ``solo_agents`` one task per agent kind too) and one task per agent kind for more; each puzzle read and
    checked (and each agent spec) before any work. One agent written two ways (its parameters in another
    order) is one agent, spelt as in ``known`` (the agent specs of the results file's records), else as
    first given, so that a resumed sweep does not play it again under another name."""
    from stratagem.models.strato.hidden.agents import make_strato_agent
    from stratagem.solvers.agents import AgentError, canonical_agent_spec, parse_agent_spec

    seeds, players = list(seeds), list(players)
    if not 1 <= shuffles <= MAX_SHUFFLES:
        raise BadArgument("<argument>", "shuffles", f"between 1 and {MAX_SHUFFLES:,}, not {shuffles}")
    # one agent written two ways is one agent: the spelling of the file's records (``known``) if they have
    # it, else the first given
    spelling = {canonical_agent_spec(spec): spec for spec in reversed(known)}
    specs: list[str] = []
    for spec in agents:
        try:
            name, params = parse_agent_spec(spec)
            make_strato_agent(name, **params)
        except (AgentError, ValueError) as exc:
            raise BadArgument("<argument>", "agents", str(exc)) from None
        spelt = spelling.setdefault(canonical_agent_spec(spec), spec.strip())
        if spelt not in specs:
            specs.append(spelt)
    for count in players:
        if not 1 <= count <= 4:
            raise BadArgument("<argument>", "players", f"Strato is played by 1 to 4 players, not {count}")
    # each player count's tasks of a deal: an agent kind each (None: the solo odds)
    kinds_of: dict[int, list[str | None]] = {
        count: [*specs] if count > 1 else [None, *specs] if solo_agents else [None] for count in players}
    per_deal = sum(len(kinds_of[count]) for count in players)
    if len(puzzles) * len(seeds) * per_deal > MAX_TASKS:
        raise BadArgument("<argument>", "seeds", f"{len(puzzles)} puzzle(s) x {len(seeds):,} seed(s) x {per_deal} "
                          f"task(s) a deal (the player counts' agents and solo odds) is more than the {MAX_TASKS:,} "
                          "tasks a sweep runs")
    limit = None if time_limit is None else float(time_limit)
    tasks: dict[str, HiddenTask] = {}
    for path in puzzles:
        if game_of_file(path) != "strato":
            raise BadInput(str(path), "game", "a hidden-information sweep is of Strato puzzles only")
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        puzzle = load_strato(path)
        setup = puzzle.setup()  # one dict for the puzzle's tasks, not one each
        if None in kinds_of.get(1, ()):
            _check_solo_piles(path, puzzle, seeds)
        for count in players:
            for seed in seeds:
                for agent in kinds_of[count]:
                    task = HiddenTask(str(path), digest, puzzle.challenge.name, setup, count, seed, agent,
                                      shuffles if agent is not None else 1, limit)
                    tasks.setdefault(task.key, task)
    return list(tasks.values())


def _check_solo_piles(path: str | Path, puzzle: Puzzle, seeds: Iterable[int]) -> None:
    """Refuse, before any work, a puzzle whose solo deals the exact search cannot value: a pile with more
    orders than its 64-bit weights count (a three-row challenge's 39 cards). The sweep stopped at its first
    such task with ``<deal>: pile: ...``, naming neither the puzzle nor the seed. The first seed's deal is
    checked: every deal of a challenge has a pile of the same size, and this bound is off by orders of
    magnitude, not by a card (the task still checks its own)."""
    from stratagem.models.strato.hidden.exact import TooManyOrders, check_orders

    first = next(iter(seeds), None)
    if first is None:
        return
    try:
        check_orders(deal_of(puzzle, first, 1).start.pile)
    except TooManyOrders as exc:
        raise BadInput(str(path), f"seed {first}", f"solo odds: {exc.problem}; sweep this challenge's teams "
                       "(2 to 4 players)") from None


def check_hidden_settings(tasks: Sequence[HiddenTask], results: ResultsFile, new: Sequence[HiddenTask],
                          more_shuffles: bool = False) -> None:
    """Refuse new deals whose limit or shuffles differ from those of the file's records of the same puzzle
    and method (one experiment per puzzle and method: the solo search and the team play may have limits of
    their own). The limit is the first-run records' (a retry with a longer limit does not change it); the
    shuffles are those of the counted records (:func:`best_records`), so after ``--more-shuffles`` new deals
    take the larger count, and a run with ``more_shuffles``, which raises its deals to its own count, may
    add deals with that count. The file holds hidden records only: the caller has checked it."""
    limits: dict[tuple[str, str], tuple[Any, int]] = {}
    for number, record in enumerate(results.records, 1):
        if not record.get("retry"):
            limits.setdefault((record["puzzle_sha256"], record["method"]), (record.get("time_limit"), number))
    counted: dict[tuple[str, str], set[Any]] = {}
    for record in best_records(results.records).values():
        counted.setdefault((record["puzzle_sha256"], record["method"]), set()).add(
            (record.get("team") or {}).get("shuffles"))
    for task in new:
        found = limits.get((task.puzzle_sha256, task.method))
        if found is None:
            continue
        limit, line = found
        shuffles = task.shuffles if task.agent is not None else None
        held = counted.get((task.puzzle_sha256, task.method), set())
        # with more_shuffles the file's deals are raised to this run's count, so new deals may have it: only
        # when it is no smaller than any counted record's (a smaller one raises nothing and mixes counts)
        raised = more_shuffles and shuffles is not None and all(n is None or shuffles >= n for n in held)
        if (None if limit is None else float(limit)) == task.time_limit and (shuffles in held or raised):
            continue
        first = results.records[line - 1].get("team") or {}
        counts = sorted(held, key=str)
        raise SettingsMismatch(results.path, f"line {line}", (
            f"{task.method} on {task.puzzle} was made with ", *_settings(limit, first.get("shuffles")),
            *((" (its counted records: ", Param("shuffles", counts[0]), "".join(f", {n}" for n in counts[1:]), ")")
              if shuffles is not None and len(held - {first.get("shuffles")}) else ()),
            "; this run would add deals with ", *_settings(task.time_limit, shuffles), ": give the file's "
            "settings, or ", Param("force_settings", True), " to mix them"))


def _settings(limit: float | None, shuffles: int | None) -> Words:
    """A time limit and a count of shuffles as a refusal names them: ``time_limit=120 and shuffles=2`` to a
    library caller, ``--time-limit 120 and --shuffles 2`` on the command line."""
    text: Words = ("no time limit",) if limit is None else (Param("time_limit", float(limit)),)
    return text + (() if shuffles is None else (" and ", Param("shuffles", shuffles)))


def shuffled_start(start: Any, seed: int, players: int, shuffle: int) -> Any:
    """The deal ``start`` with its pile shuffled again for shuffle number ``shuffle`` (hands kept)."""
    pile = list(start.pile)
    Random(f"{seed}:{players}:{shuffle}").shuffle(pile)
    return start._replace(pile="".join(pile))


def run_hidden_task(task: HiddenTask) -> dict[str, Any]:
    """One hidden task's record (this runs on a worker); see the module docstring."""
    from stratagem.core.deadline import Deadline
    from stratagem.models.strato.hidden.game import HiddenStrato

    started, cpu = time.perf_counter(), time.process_time()
    challenge, options = setup_from_data(task.setup, task.puzzle)
    deal = deal_of(Puzzle(task.puzzle, challenge, options, ()), task.seed, task.players)
    game = HiddenStrato(deal.challenge, deal.game.options, deal.start)
    extra: dict[str, Any]
    if task.agent is None:
        status, extra = _solo(game, task.time_limit)
    else:
        status, extra = _team(game, deal.start, task, Deadline(task.time_limit))
    return {
        "format": SWEEP_FORMAT,
        "game": "strato",
        "information": HIDDEN,
        "puzzle": task.puzzle,
        "puzzle_sha256": task.puzzle_sha256,
        "challenge": task.challenge,
        "players": task.players,
        "seed": task.seed,
        "method": task.method,
        "time_limit": task.time_limit,
        "status": status,
        "length": None,
        "lower_bound": None,
        "best_length": None,
        "line": [],
        "certificate": None,
        **extra,
        "seconds": round(time.perf_counter() - started, 3),
        "cpu_seconds": round(time.process_time() - cpu, 3),
        "version": __version__,
        "retry": task.retry,
        "provenance": provenance(task.puzzle, task.puzzle_sha256),
    }


def _solo(game: Any, time_limit: float | None) -> tuple[str, dict[str, Any]]:
    from stratagem.models.strato.hidden.exact import odds_interval
    from stratagem.winprobability import BOUNDS_MAX_STATES  # the cap `stratagem odds --table` has

    found = odds_interval(game, seconds=time_limit, max_states=BOUNDS_MAX_STATES)
    if found.status == "exact":
        value = str(found.lower)
        odds = {"value": value, "low": value, "high": value, "float": float(found.lower)}
        status = "solved"
    else:  # the interval the searches proved: the policy's value below, the optimum's bound above
        odds = {"value": None, "low": str(found.lower), "high": str(found.upper), "float": None}
        status = "unknown"
    odds.update({"states": found.states, "policy_states": found.policy_states, "memory": found.memory,
                 "search_cpu_seconds": round(found.seconds, 3), "lower_from": found.lower_from})
    stopped = None if status == "solved" else ("state limit" if any("state limit" in step for step in found.steps)
                                               else "time")
    return status, {"odds": odds, "stopped_by": stopped}


def _team(game: Any, start: Any, task: HiddenTask, deadline: Any) -> tuple[str, dict[str, Any]]:
    from stratagem.models.strato.hidden.agents import make_strato_agent
    from stratagem.solvers.agents import parse_agent_spec
    from stratagem.solvers.match import MatchStopped, wilson_interval
    from stratagem.teamplay import play_deal

    assert task.agent is not None
    name, params = parse_agent_spec(task.agent)
    seats = [make_strato_agent(name, **params) for _ in range(task.players)]  # one object a seat (play_deal)
    games: list[list[Any]] = []
    stopped = None
    for k in range(task.shuffles):
        dealt = shuffled_start(start, task.seed, task.players, k)
        hidden = type(game)(game.challenge, game.options, dealt)
        try:
            won, turns = play_deal(hidden, dealt, seats, Random(f"{task.seed}:{task.players}:{k}:{task.agent}"),
                                   deadline)
        except MatchStopped:
            stopped = "time"
            break
        games.append([k, won, turns])
    wins = sum(1 for _, won, _ in games if won)
    low, high = wilson_interval(wins, len(games)) if games else (0.0, 1.0)
    team = {"agent": task.agent, "shuffles": task.shuffles, "played": len(games), "wins": wins,
            "win_rate": wins / len(games) if games else None, "win_rate_ci95": [low, high], "games": games,
            "turns": sum(t for _, _, t in games)}
    return ("solved" if stopped is None else "unknown"), {"team": team, "stopped_by": stopped}
