"""``stratagem bench``: measured performance tables under ``results/``.

This module parses the options, calls the library package :mod:`stratagem.bench` (which measures and
writes every table; its docstrings say what each table holds) and renders what was written.

- Strato: ``strato-certified.md`` (time to a certified optimum, ``auto`` against SAT; ``--only-certified``
  writes just this one), ``strato-search.md``, ``strato-methods.md``, ``strato-checker.md``,
  ``strato-planners.md`` (with the ``planners`` extra; ``--only-planners``), ``strato-growth.md`` and
  ``.png`` (with the ``plot`` extra; ``--only-growth``) and ``strato-peers.md`` (with the ``openspiel``
  extra; ``--only-peers``);
- the other games: ``<game>.md`` (exact search with and without move ordering and the transposition
  table, MCTS speed, a match table, and OpenSpiel's searches as peers).

``--json`` prints one ``stratagem/bench@1`` object (docs/formats.md section 10.7) instead of the
``wrote ...`` lines: the files written and, for Strato, every measurement behind the tables. Its timings
vary from run to run like the tables'.
"""

from __future__ import annotations

import glob
from pathlib import Path
from typing import Any

import click

from stratagem.bench import BENCH_FORMAT
from stratagem.bench.tables import machine
from stratagem.cli.limits import NODE_LIMIT, TIME_LIMIT
from stratagem.cli.options import Renamed, json_option, note, quiet_option
from stratagem.core.io import check_writable_dir, dumps_record
from stratagem.engines import ENGINES


@click.command()
@click.argument("game", type=click.Choice(["strato", "stratatak", "stakd", "stackattack", "cardclash"]),
                default="strato")
@click.option("--puzzles", "pattern", default="puzzles/strato/*.toml", show_default=True,
              help="Glob of puzzle files whose deals are measured.")
@click.option("--time-limit", type=TIME_LIMIT, default=10.0, show_default=True, metavar="S",
              help="Seconds allowed to each method on each deal.")
@click.option("--growth/--no-growth", default=True, show_default=True,
              help="Also measure time against optimal length (strato-growth.md/.png).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="results", show_default=True)
@click.option("--max-nodes", "max_nodes", cls=Renamed, old=("--nodes",), type=NODE_LIMIT, default=2_000_000,
              show_default=True,
              help="Other games: node limit of each exact search.")
@click.option("--only-certified", is_flag=True,
              help="Strato: write only strato-certified.md (time to a certified optimum, auto against SAT).")
@click.option("--only-planners", is_flag=True,
              help="Strato: write only strato-planners.md (Fast Downward against auto; needs the planners extra).")
@click.option("--planners/--no-planners", default=True, show_default=True,
              help="Strato: also measure Fast Downward against auto (strato-planners.md; needs the planners extra).")
@click.option("--only-peers", is_flag=True,
              help="Strato: write only strato-peers.md (OpenSpiel's expectiminimax and MCTSBot against ours, "
                   "--count seeded deals per player count; needs the openspiel extra).")
@click.option("--peers/--no-peers", default=True, show_default=True,
              help="Strato: also measure OpenSpiel's searches against ours (strato-peers.md).")
@click.option("--only-growth", is_flag=True,
              help="Strato: write only strato-growth.md/.png from the growth challenges (the shipped deals' "
                   "crosses need the full run).")
@click.option("--planner-time-limit", type=TIME_LIMIT, default=60.0, show_default=True, metavar="S",
              help="Strato: CPU seconds for each Fast Downward configuration on each deal, translate and "
                   "search together.")
@click.option("--iterations", type=click.IntRange(1), default=None,
              help="Other games: MCTS/DUCT iterations per position in the speed table (default 2000) and "
                   "per move of the search agents in the matches (default: the game's, 30-200).")
@click.option("--count", "games", cls=Renamed, old=("--games",), type=click.IntRange(1), default=40, show_default=True,
              help="Games per agent pairing in the match tables (Strato's peers: seeded deals per player count).")
@click.option("--engine", type=click.Choice(ENGINES), default="compiled", show_default=True,
              help="Other games: compiled also measures the searches on the game's compiled engine against the "
                   "reference engine in the same run (sections 'Compiled engine against the reference engine' and "
                   "'Sampling searches: compiled engine against the reference engine'); "
                   "reference measures the reference engine only.")
@json_option(f"Print one JSON object ({BENCH_FORMAT}): the files written and the measurements.")
@quiet_option("No progress lines on stderr.")
def bench(game: str, pattern: str, time_limit: float, growth: bool, out_dir: str, max_nodes: int,
          only_certified: bool, planners: bool, only_planners: bool, only_peers: bool, peers: bool,
          only_growth: bool, planner_time_limit: float, iterations: int | None, games: int, engine: str,
          as_json: bool, quiet: bool) -> int:
    """Measure every method on the shipped puzzles; write results/<game>*.md.

    Strato: every method on every deal (and a growth plot). Other games: exact search with and without
    move ordering and the transposition table, MCTS speed (LP and DUCT for Stack Attack), and a match
    table.
    """
    only = [flag for flag, on in (("--only-certified", only_certified), ("--only-planners", only_planners),
                                  ("--only-peers", only_peers), ("--only-growth", only_growth)) if on]
    if len(only) > 1:
        raise click.UsageError(f"{' and '.join(only)}: give one --only-... option (each writes one table alone)")
    if only and game != "strato":
        raise click.UsageError(f"{only[0]} is for Strato's tables; {game} writes one table of its own")
    if (only_planners and not planners) or (only_peers and not peers) or (only_growth and not growth):
        raise click.UsageError(f"{only[0]} asks for the table the --no-... option leaves out: nothing to write")
    if only_planners:
        from stratagem.solvers import fast_downward

        if fast_downward.driver() is None:  # the one table asked for cannot be made: refused before any work
            raise click.UsageError("--only-planners needs Fast Downward (pip install '.[planners]'): nothing would "
                                   "be written")
    check_writable_dir(out_dir, "--out")

    def log(text: str) -> None:
        note(text, quiet)

    report: dict[str, Any] = {"format": BENCH_FORMAT, "game": game, "out": out_dir, "machine": machine(),
                              "written": []}

    def wrote(*paths: Path) -> None:
        report["written"] += [str(path) for path in paths]
        if not as_json:
            click.echo("wrote " + (", ".join(map(str, paths[:-1])) + " and " if len(paths) > 1 else "")
                       + str(paths[-1]))

    if game == "strato":
        from stratagem.bench.strato import StratoBench, bench_strato

        files = sorted(glob.glob(pattern))
        if not files:
            raise click.BadParameter(f"no puzzle files match {pattern!r}", param_hint="--puzzles")
        bench_strato(StratoBench(files, out_dir, time_limit, growth, planners, peers, only_certified, only_planners,
                                 only_peers, only_growth, planner_time_limit, games), report, wrote, log)
    else:
        from stratagem.bench.games import bench_game, game_positions

        positions = game_positions(game)
        if not positions:
            raise click.BadParameter(f"no positions in puzzles/{game}/", param_hint="GAME")
        wrote(bench_game(game, positions, out_dir, max_nodes, iterations, games, log, engine=engine))
    if as_json:
        click.echo(dumps_record(report), nl=False)
    return 0
