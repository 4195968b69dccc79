"""``stratagem play GAME``: agents against agents, with win rates and 95% confidence intervals.

The match is :func:`stratagem.matches.play`; this module parses the options, calls it and renders the table.

Agents are named in ``--agents``, one per player, each ``name[:param=value...]`` (for example
``mcts:iterations=500``). The game-agnostic agents come from ``stratagem.solvers.agents``; a game adds
its own baselines (``greedy`` from its ``greedy_move``, and any in its ``AGENTS`` table). Seats rotate
so that every agent plays every seat of every deal (with ``--count`` a multiple of the player count; a
note says when it is not), and the same seed gives the same table.
"""

from __future__ import annotations

import click
from rich import box
from rich.table import Table

from stratagem.cli.exitcodes import DONE, UNDETERMINED
from stratagem.cli.limits import TIME_LIMIT, WholeRange
from stratagem.cli.options import Renamed, given, json_option, note, player_count, player_counts, quiet_option
from stratagem.cli.output import as_options, stdout
from stratagem.cli.progress import search_progress
from stratagem.cli.seeds import SEED
from stratagem.core.deadline import Deadline, command_deadline
from stratagem.core.io import MAX_PARAMETER
from stratagem.core.outputs import dumps_record
from stratagem.engines import ENGINES
from stratagem.loading import POSITION_GAMES
from stratagem.matches import play as play_games
from stratagem.models.stakd.rounds import MAX_POINTS
from stratagem.solvers.match import MatchResult

#: The library's parameter names in its refusals, and the options they are on the command line.
OPTIONS = {"agents": "--agents", "players": "--players", "games": "--count", "points": "--points",
           "seed": "--seed", "engine": "--engine"}
#: The options of the competitive games' matches that ``play strato`` has no use for (refused when given).
NOT_FOR_STRATO = {"position_file": "--position", "max_plies": "--max-plies", "games_detail": "--games-detail",
                  "engine": "--engine", "points": "--points"}


@click.command()
@click.argument("game_name", metavar="GAME", type=click.Choice(("strato", *POSITION_GAMES)))
@click.argument("puzzle", required=False, type=click.Path(dir_okay=False))
@click.option("--agents", "agent_specs", required=True, metavar="A,B,...",
              help="One agent per player: random, greedy, mcts, ismcts, pimc, duct, or a game's own "
                   "(Stack Attack: lowest, cautious); parameters as name:key=value. Strato: the agent kinds "
                   "to compare (greedy, guided, pimc, cpimc, belief, ismcts), each playing every seat.")
@click.option("--players", "players_text", default=None, metavar="N",
              help="Player count (default: the number of agents); Strato: a list such as 1,2,4 (default 1).")
@click.option("--count", "count", cls=Renamed, old=("--games",), type=WholeRange(1, MAX_PARAMETER), default=20,
              show_default=True, help="Games to play (Strato: deals per agent and player count).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the deals and the agents.")
@click.option("--position", "position_file", type=click.Path(dir_okay=False), default=None,
              help="Start every game from this position file (with its options) instead of a fresh deal.")
@click.option("--max-plies", type=WholeRange(1, MAX_PARAMETER), default=10_000, show_default=True,
              help="A game still running after this many moves counts as unfinished.")
@json_option("Print the match as one JSON document.")
@quiet_option()
@click.option("--games-detail", is_flag=True, help="With --json, include every game's seats and returns.")
@click.option("--engine", type=click.Choice(ENGINES), default=None,
              help="Where mcts, ismcts, pimc and duct agents search: compiled (the game's compiled engine, "
                   "searches in C, mcts and ismcts guided where the game has a compiled guide (Card Clash, "
                   "Stratatak, STAKD), else unguided; by default for mcts and ismcts on such a game, mcts (not in "
                   "Stack Attack: compiled UCT has no simultaneous moves) and ismcts with guided=false, and pimc "
                   "and duct without rollout_limit) or reference (the Python rules engine).")
@click.option("--points", type=WholeRange(1, MAX_POINTS), default=1, show_default=True, metavar="N",
              help="STAKD: each game a race of rounds to N points, the winner of a round starting the next (the "
                   "seed's game is --points 3; --max-plies then caps each round); 1 plays one round.")
@click.option("--time-limit", type=TIME_LIMIT, default=None, metavar="S",
              help="Stop the match after S seconds (the whole command): the games finished by then are reported, "
                   "exit 3.")
def play(game_name: str, puzzle: str | None, agent_specs: str, players_text: str | None, count: int, seed: int,
         position_file: str | None, max_plies: int, as_json: bool, quiet: bool, games_detail: bool,
         engine: str | None, points: int, time_limit: float | None) -> int:
    """Play a match between agents and report win rates with 95% confidence intervals.

    Strato (`play strato PUZZLE`): cooperative, the pile and the other hands hidden; each agent kind plays
    the same seeded deals with every seat, for each player count; win rate and mean turns to win.
    """
    specs = agent_specs.split(",")
    deadline = command_deadline(time_limit)
    if game_name == "strato":
        ignored = [flag for name, flag in NOT_FOR_STRATO.items() if given(name)]
        if ignored:
            raise click.UsageError(f"{', '.join(ignored)}: for the competitive games' matches, not Strato's "
                                   "(play strato plays the puzzle's seeded deals, each to its end: every turn "
                                   "spends a card)")
        return _play_strato(puzzle, specs, players_text, count, seed, as_json, quiet, deadline)
    if puzzle is not None:
        raise click.UsageError(f"a puzzle file is for Strato; {game_name} starts from --position or a fresh deal")
    if points != 1 and game_name != "stakd":
        raise click.UsageError(f"--points: {game_name} is not scored in points over rounds (STAKD is)")
    if games_detail and not as_json:
        raise click.UsageError("--games-detail adds every game to the --json document: give --json too")
    players = player_count(players_text, most=6)  # 1 is solo STAKD; each game holds it to its own range
    with as_options(OPTIONS), search_progress(f"{game_name} match", enabled=not (as_json or quiet), first="game",
                                              second="games") as update:
        result = play_games(game_name, specs, count, players=players, seed=seed, position=position_file,
                            max_plies=max_plies, progress=lambda done, total: update(done, total), deadline=deadline,
                            engine=engine, note=lambda text: click.echo(f"note: {text}", err=True), points=points,
                            hint=None if quiet else lambda text: click.echo(f"note: {text}", err=True))
    if as_json:
        click.echo(dumps_record(result.to_json(include_games=games_detail)), nl=False)
    else:
        stdout().print(_table(result))
    seats = len(result.agents)
    if result.stopped_by is None and result.games % seats:  # the duplicate format needs whole deals
        note(f"stratagem play: {result.games} games for {seats} players: the last deal was played from "
             f"{result.games % seats} of its {seats} seats, so the agents did not play each seat equally often "
             f"(--count a multiple of {seats} plays every deal from every seat)", quiet)
    if any(record.unfinished for record in result.agents):
        note("stratagem play: unfinished games (past --max-plies, or stopped undecided by Stratatak's "
             "battle_limit, which is never a draw) are left out of every rate and mean", quiet)
    if result.stopped_by is not None:
        note(f"stratagem play: stopped by the time limit after {result.games} of {count} games", quiet)
        return UNDETERMINED
    return DONE


def _play_strato(puzzle: str | None, specs: list[str], players_text: str | None, count: int, seed: int,
                 as_json: bool, quiet: bool, deadline: Deadline) -> int:
    from stratagem.teamplay import play_strato

    if puzzle is None:
        raise click.UsageError("play strato needs a puzzle file: stratagem play strato PUZZLE --agents pimc")
    players = list(player_counts(players_text, most=4))  # Strato is played by 1 to 4
    total = count * len(players) * len(specs)
    # each turn shown, not each game: one game of a searching agent (pimc on challenge 1) takes minutes
    with as_options(OPTIONS), search_progress(f"strato team play, {total} games", enabled=not (as_json or quiet),
                                              first="game", second="turns") as update:
        match = play_strato(puzzle, specs, players, count, seed, deadline=deadline,
                            on_turn=lambda game, turn: update(game, turn))
    code = DONE
    if match.stopped_by is not None:
        played = sum(len(row.games) for row in match.rows)
        note(f"stratagem play: stopped by the time limit after {played} of {total} games", quiet)
        code = UNDETERMINED
    if as_json:
        click.echo(dumps_record(match.to_json()), nl=False)
        return code
    table = Table(title=f"{match.challenge}: {count} deal(s) from seed {seed}, every agent on the same deals; "
                        "information hidden (own hand, table, cards left)", box=box.SIMPLE)
    # Two-line headers and cells that fold rather than cut: the table fits 80 columns (a pipe, a narrow
    # terminal) without turning "greedy" into "gre…".
    for column in ("agent", "players", "games", "wins", "win rate\n(95% CI)", "turns to win\n(95% CI)", "CPU s"):
        table.add_column(column, justify="left" if column == "agent" else "right", overflow="fold")
    for row in match.rows:
        turns = "-" if row.mean_turns is None else f"{row.mean_turns:.1f}{_span(row.mean_turns_ci95, 1)}"
        table.add_row(row.agent, str(row.players), str(len(row.games)), str(row.wins),
                      f"{row.win_rate:.3f}{_span(row.win_rate_ci95, 2)}", turns, f"{row.seconds:.1f}")
    stdout().print(table)
    return code


def _interval(pair: tuple[float, float] | None) -> str:
    return "" if pair is None else f" [{pair[0]:.2f}, {pair[1]:.2f}]"


def _span(pair: tuple[float, float] | None, digits: int) -> str:
    """`` (0.21-0.94)``: an interval in few characters, for a table that must fit 80 columns."""
    return "" if pair is None else f" ({pair[0]:.{digits}f}-{pair[1]:.{digits}f})"


def _table(result: MatchResult) -> Table:
    # A race's games are races of rounds (--points), which the title says: "6 games" read as six rounds.
    races = f" (races to {result.points} points)" if result.points is not None else ""
    table = Table(title=f"{result.game}: {result.games} games{races}, seed {result.seed}, seats rotate",
                  box=box.SIMPLE)
    for column in ("agent", "games", "W-D-L", "win rate [95% CI]", "mean return [95% CI]"):
        table.add_column(column, justify="left" if column == "agent" else "right", overflow="fold")
    for record in result.agents:
        wdl = f"{record.wins}-{record.draws}-{record.losses}"
        if record.unfinished:
            wdl += f" (+{record.unfinished} unfinished)"
        if not record.finished:  # no rate or mean over no game
            table.add_row(record.label, str(record.games), wdl, "-", "-")
            continue
        table.add_row(record.label, str(record.games), wdl,
                      f"{record.win_rate:.3f}{_interval(record.win_rate_ci95)}",
                      f"{record.mean_return:.2f}{_interval(record.mean_return_ci95)}")
    return table
