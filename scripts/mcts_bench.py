"""Measure stratagem's UCT: its speed against OpenSpiel's MCTSBot, and its play against greedy and MCTSBot.

Four sections, each a Markdown table printed (and, with ``--out``, appended to one file):

- ``speed``: simulations per CPU-second of plain UCT (random playouts to the end, as MCTSBot) on the
  game's compiled engine, on the reference engine and of OpenSpiel's ``MCTSBot`` on the adapter over the
  reference engine, from the Card Clash and STAKD starts and shipped positions, medians of ``--repeats``
  runs in one run (:func:`stratagem.bench.searches.uct_speed`).
- ``strength``: the ``mcts`` agent at its defaults on the compiled engine (guided where the game hands over
  a compiled guide: Card Clash) against ``MCTSBot`` or ``greedy`` at equal CPU
  per move (``--seconds``, process CPU time): each side's fixed budget per move (iterations, simulations)
  calibrated over uncounted deals (:func:`stratagem.solvers.match.equal_cpu_budgets`), then ``--games``
  games in seeded pairs (pair k: one deal, both seats, seed k), the running score and both sides' CPU
  per move printed after each pair; W-D-L with the 95% Wilson interval of our win rate.
- ``greedy``: the ``mcts`` agent on the reference engine against the game's ``greedy`` agent on fresh
  deals, seats rotating, at several budgets (iterations per move): win rate with a 95% Wilson interval.
- ``peer``: the reference-engine ``mcts`` agent against ``MCTSBot`` at calibrated equal CPU time per
  move on dealt Card Clash rounds (:func:`stratagem.openspiel.peers.equal_time_match`).

Needs the ``openspiel`` extra for ``speed``, ``peer`` and ``strength`` against MCTSBot. Matches are
seeded (same seed and budgets, same games; the calibration measures CPU, so the budgets it picks vary
a little from run to run); times are CPU seconds of this process and depend on the machine and its
load (noted in the header).

    python scripts/mcts_bench.py strength --games 100 --seconds 0.2 --match cardclash:greedy
    python scripts/mcts_bench.py speed --repeats 3
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import platform
import time
from collections.abc import Sequence
from pathlib import Path
from statistics import fmean, median
from typing import Any

from stratagem.loading import load_position
from stratagem.matches import game_agents, new_game, play
from stratagem.solvers.agents import MctsAgent
from stratagem.solvers.alphabeta import return_bounds

#: Positions of the speed table (the issue's measured states first).
SPEED_POSITIONS = ("puzzles/cardclash/defence-holds.toml", "puzzles/cardclash/square-in-7.toml",
                   "puzzles/cardclash/strategic-double-threat.toml", "puzzles/stakd/endgame-2p-lost.toml")
#: The agent pairings against greedy: (game, mcts spec). 100 / 200 iterations are bench's match budgets.
GREEDY_PAIRINGS = (
    ("cardclash", "mcts:iterations=100"),
    ("cardclash", "mcts:iterations=100:guided=false"),
    ("cardclash", "mcts:iterations=100:rollout_limit=20"),
    ("cardclash", "mcts"),
    ("stakd", "mcts:iterations=200"),
    ("stakd", "mcts:iterations=200:guided=false"),
    ("stakd", "mcts"),
)


def header(command: str) -> list[str]:
    load = f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "not measured on this system"  # Windows
    return [f"Written by `{command}` on {platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, load average {load} when the section finished.", ""]


def speed(repeats: int, simulations: int) -> list[str]:
    from stratagem.bench.searches import start_position, uct_speed
    from stratagem.engines import resolve

    compiled = 20 * simulations
    lines = ["## Simulations per CPU-second: the compiled engine against MCTSBot", "",
             f"Plain UCT (random playouts to the end, every move tried once first, what MCTSBot does) with the "
             f"solvers off, so that every run does its budget: {compiled:,} simulations a run on the compiled "
             f"engine, {simulations:,} on the reference engine and for OpenSpiel's Python `MCTSBot` (random "
             f"rollouts, `solve=False`) on `stratagem.openspiel`'s adapter over the reference engine; median of "
             f"{repeats} runs each, all in one run (CPU time; `stratagem.bench.searches.uct_speed`).", "",
             "| position | compiled sims/s | reference sims/s | MCTSBot sims/s | compiled / MCTSBot "
             "| compiled / reference | reference / MCTSBot |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    positions: list[tuple[str, Any, Any]] = []
    for game_name in ("cardclash", "stakd"):
        game, state = start_position(game_name)
        positions.append((f"{game_name}/start (seed 0)", game, state))
    for file in SPEED_POSITIONS:
        loaded = load_position(file)
        positions.append((f"{Path(file).parent.name}/{Path(file).stem}", loaded.game, loaded.state))
    for name, game, state in positions:
        engine = resolve(game, "compiled").engine
        if engine is None:
            lines.append(f"| {name} | no compiled engine | | | | | |")
            continue
        found = uct_speed(game, engine, state, compiled=compiled, reference=simulations, repeats=repeats)
        bot = found.mctsbot or float("nan")
        lines.append(f"| {name} | {found.compiled:,.0f} | {found.reference:,.0f} | {bot:,.0f} "
                     f"| {found.compiled / bot:.1f} | {found.compiled / found.reference:.1f} "
                     f"| {found.reference / bot:.2f} |")
        print(lines[-1], flush=True)
    return lines + [""]


def greedy(games: int, only: str | None, pairs: bool) -> list[str]:
    how = ("in pairs (one deal, both seats; pair k seeded k), the running score printed after each pair"
           if pairs else "seed 0, seats rotating")
    lines = ["## Against the greedy agent", "",
             f"{games} games per pairing from fresh deals, {how}; 95% Wilson interval on "
             "the mcts agent's win rate. `mcts` alone is the agent's default budget (1,000 iterations).", "",
             "| game | agents | W-D-L | win rate | 95% CI | CPU s |", "|---|---|---|---:|---|---:|"]
    for game, spec in GREEDY_PAIRINGS:
        if only and only not in f"{game} {spec}":
            continue
        started = time.process_time()
        wins = draws = losses = 0
        for seed in range(games // 2) if pairs else (0,):
            result = play(game, [spec, "greedy"], games=2 if pairs else games, seed=seed)
            first = result.agents[0]
            wins, draws, losses = wins + first.wins, draws + first.draws, losses + first.losses
            if pairs:
                print(f"{game} {spec} vs greedy, pair {seed}: {wins}-{draws}-{losses}", flush=True)
        total = wins + draws + losses
        low, high = wilson(wins, total)
        lines.append(f"| {game} | {spec} vs greedy | {wins}-{draws}-{losses} | {wins / total:.2f} "
                     f"| [{low:.2f}, {high:.2f}] | {time.process_time() - started:.0f} |")
        print(lines[-1], flush=True)
    return lines + [""]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def peer(games: int, seconds: float, rollout_limit: int | None) -> list[str]:
    from stratagem.openspiel.peers import equal_time_match, match_game

    match = equal_time_match(match_game("cardclash"), seconds, games, rollout_limit=rollout_limit)
    first = match.result.agents[0]
    low, high = first.win_rate_ci95
    score = (first.wins + 0.5 * first.draws) / max(first.games, 1)
    leaf = ("random playouts to the end" if rollout_limit is None
            else f"playouts cut at {rollout_limit} plies, then the evaluation")
    return ["## Against OpenSpiel's MCTSBot at equal CPU time (dealt Card Clash rounds)", "",
            f"{games} games, seed 0, seats rotating, deal and draws as chance; both sides {leaf}; our agent "
            "guided by the move ordering and reusing its tree. Simulations per move calibrated to "
            f"{seconds} CPU-s each.", "",
            "| ours sims/move | MCTSBot sims/move | ours CPU-s/move | MCTSBot CPU-s/move | W-D-L | score "
            "| 95% CI (wins) |",
            "|---:|---:|---:|---:|---|---:|---|",
            f"| {match.ours_simulations:,} | {match.theirs_simulations:,} | {match.ours_cpu_per_move:.3f} "
            f"| {match.theirs_cpu_per_move:.3f} | {first.wins}-{first.draws}-{first.losses} | {score:.2f} "
            f"| [{low:.2f}, {high:.2f}] |", ""]


#: The strength matches: (game, opponent).
STRENGTH_MATCHES = (("cardclash", "mctsbot"), ("cardclash", "greedy"), ("stakd", "mctsbot"), ("stakd", "greedy"))
#: Seeds apart from the counted match's (pairs 0, 1, ...) for the uncounted calibration deals.
CALIBRATION_SEED = 10_000


def strength_game(game_name: str, opponent: str) -> tuple[Any, Any]:
    """The game a strength match is played on, and its compiled engine.

    Against MCTSBot: the peers' game (:func:`stratagem.openspiel.peers.match_game`: dealt Card Clash
    with every draw a chance node, STAKD's two-player start). Against greedy: what ``stratagem play``
    plays (a fresh seeded deal each pair; Card Clash's draw piles are then part of the open position),
    since the greedy agent works on the rules engine's own states."""
    if opponent == "mctsbot":
        from stratagem.openspiel.peers import match_game

        game = match_game(game_name)
    else:
        game = new_game(game_name, 2)
    package = importlib.import_module(f"stratagem.models.{game_name}")
    engine = package.compiled_engine(game)
    if engine is None:
        raise SystemExit(f"{game_name}: no compiled engine for the match's game")
    return game, engine


def strength(game_name: str, opponent: str, games: int, seconds: float, rounds: int,
             engine_name: str = "compiled") -> list[str]:
    """Our ``mcts`` agent on the compiled engine (``engine_name`` ``reference``: on the reference engine,
    at its defaults: guided, tree reuse) against ``opponent`` at ``seconds`` CPU per move."""
    from stratagem.solvers.match import TimedAgent, equal_cpu_budgets, play_match

    game, engine = strength_game(game_name, opponent)
    low, high = return_bounds(game)
    value_range = (float(low), float(high))

    def build(budgets: Sequence[int | None]) -> list[Any]:
        ours = MctsAgent(iterations=budgets[0], value_range=value_range,
                         engine=engine if engine_name == "compiled" else None)
        if opponent == "mctsbot":
            from stratagem.openspiel.peers import SpielMctsAgent

            assert budgets[1] is not None
            return [ours, SpielMctsAgent(budgets[1])]
        return [ours, game_agents(game_name)["greedy"]()]

    started = time.process_time()
    guess = 2000 if engine_name == "compiled" else 100
    budgets = equal_cpu_budgets(game, build, [guess, 20 if opponent == "mctsbot" else None], seconds,
                                rounds=rounds, seed=CALIBRATION_SEED, minimum=2)
    print(f"{game_name} vs {opponent}: budgets per move {budgets} after {rounds} calibration deals "
          f"({time.process_time() - started:.0f} CPU s)", flush=True)
    ours, theirs = (TimedAgent(agent) for agent in build(budgets))
    wins = draws = losses = unfinished = 0
    played = 0
    for pair in range(games // 2):
        result = play_match(game, [ours, theirs], 2, seed=pair)
        first = result.agents[0]
        wins, draws, losses = wins + first.wins, draws + first.draws, losses + first.losses
        unfinished += first.unfinished
        played += result.games
        print(f"{game_name} vs {opponent}, pair {pair}: {wins}-{draws}-{losses} ({unfinished} unfinished), "
              f"CPU s per move ours {fmean(ours.seconds):.3f} / theirs {fmean(theirs.seconds):.3f}, "
              f"{time.process_time() - started:.0f} CPU s", flush=True)
    finished = wins + draws + losses
    low_ci, high_ci = wilson(wins, finished)
    score = (wins + 0.5 * draws) / max(finished, 1)
    theirs_budget = f"{budgets[1]:,}" if budgets[1] is not None else "—"
    row = (f"| {game_name} ({engine_name}) | {opponent} | {played} | {budgets[0]:,} / {theirs_budget} "
           f"| {fmean(ours.seconds):.3f} / {fmean(theirs.seconds):.4f} "
           f"| {median(ours.seconds):.3f} / {median(theirs.seconds):.4f} | {wins}-{draws}-{losses} "
           f"| {wins / max(finished, 1):.2f} | [{low_ci:.2f}, {high_ci:.2f}] | {score:.2f} |")
    print(row, flush=True)
    return [row]


STRENGTH_HEAD = [
    "| game | opponent | games | iterations per move (ours / theirs) | mean CPU s per move (ours / theirs) "
    "| median CPU s per move (ours / theirs) | our W-D-L | win rate | 95% CI | score |",
    "|---|---|---:|---|---|---|---|---:|---|---:|",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sections", nargs="+", choices=("speed", "greedy", "peer", "strength"))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=0.05, help="peer: CPU seconds per move for each side")
    parser.add_argument("--rollout-limit", type=int, default=None, help="peer: both sides' playout cut")
    parser.add_argument("--only", default=None, help="greedy: only pairings containing this text")
    parser.add_argument("--pairs", action="store_true", help="greedy: play in seeded pairs, printing the score")
    parser.add_argument("--match", action="append", default=None,
                        help="strength: GAME:OPPONENT (cardclash|stakd : mctsbot|greedy); repeatable, default all four")
    parser.add_argument("--engine", choices=("compiled", "reference"), default="compiled",
                        help="strength: where our agent searches (reference: guided, with tree reuse)")
    parser.add_argument("--rounds", type=int, default=3, help="strength: calibration deals before the match")
    parser.add_argument("--out", help="append the tables to this Markdown file")
    args = parser.parse_args()
    command = "python scripts/mcts_bench.py " + " ".join(
        [*args.sections, f"--games {args.games}"] + ([f"--only '{args.only}'"] if args.only else [])
        + (["--pairs"] if args.pairs else [])
        + ([f"--rollout-limit {args.rollout_limit}"] if args.rollout_limit is not None else [])
        + ([f"--seconds {args.seconds}"] if "strength" in args.sections or "peer" in args.sections else [])
        + ([f"--repeats {args.repeats} --simulations {args.simulations}"] if "speed" in args.sections else [])
        + [f"--match {m}" for m in args.match or []]
        + ([f"--engine {args.engine}"] if args.engine != "compiled" else []))
    lines: list[str] = []
    for section in args.sections:
        if section == "speed":
            lines += speed(args.repeats, args.simulations)
        elif section == "greedy":
            lines += greedy(args.games, args.only, args.pairs)
        elif section == "strength":
            lines += STRENGTH_HEAD
            for match in args.match or [f"{g}:{o}" for g, o in STRENGTH_MATCHES]:
                game_name, _, opponent = match.partition(":")
                lines += strength(game_name, opponent, args.games, args.seconds, args.rounds, args.engine)
            lines.append("")
        else:
            lines += peer(args.games, args.seconds, args.rollout_limit)
    text = "\n".join(header(command) + lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "a", encoding="utf-8", newline="\n") as out:
            out.write(text + "\n")


if __name__ == "__main__":
    main()
