"""``stratagem bench``: measured performance tables under ``results/``.

This module parses the options, calls the library package :mod:`stratagem.bench` (which measures and
writes every table; its docstrings say what each table holds) and renders what was written.

- Strato: ``strato-certified.md`` (time to a certified optimum, ``auto`` against SAT; ``--only-certified``
  writes just this one), ``strato-search.md``, ``strato-methods.md``, ``strato-checker.md``
  (``--only-checker``), ``strato-planners.md`` (with the ``planners`` extra; ``--only-planners``),
  ``strato-growth.md`` and ``.png`` (with the ``plot`` extra; ``--only-growth``) and ``strato-peers.md``
  (with the ``openspiel`` extra; ``--only-peers``);
- the other games: ``<game>.md`` (exact search with and without move ordering and the transposition
  table, MCTS speed, a match table, and OpenSpiel's searches as peers).

Options are each game's: ``--puzzles``, ``--time-limit``, ``--planner-time-limit`` and the Strato table
switches are Strato's; ``--max-nodes``, ``--iterations`` and ``--engine`` the other games'; one given to a
game that does not use it is refused (exit 2). The shipped puzzles (the default ``--puzzles``, the peers'
challenge 0, ``puzzles/<game>/``) are found from the current folder, else in the checkout holding the
package. A peer that is not installed (OpenSpiel, Fast Downward) leaves its table as it was, and says so
on stderr even under ``--quiet`` (it is about what the results folder holds, not progress).

``--json`` prints one ``stratagem/bench@1`` object (docs/formats.md section 10.7) instead of the
``wrote ...`` lines: the files written and, for Strato, every measurement behind the tables. Its timings
vary from run to run like the tables'.
"""

from __future__ import annotations

import glob
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from stratagem.bench import BENCH_FORMAT
from stratagem.bench.tables import machine
from stratagem.cli.limits import NODE_LIMIT, TIME_LIMIT, WholeRange
from stratagem.cli.options import Renamed, json_option, note, quiet_option
from stratagem.core.errors import BadInput
from stratagem.core.io import MAX_PARAMETER
from stratagem.core.outputs import check_writable_dir, dumps_record
from stratagem.engines import ENGINES

#: The default ``--puzzles``: the shipped Strato puzzles (:func:`stratagem.bench.tables.shipped`).
DEFAULT_PUZZLES = "puzzles/strato/*.toml"
#: The options only Strato's tables use, and those only the other games use: (parameter, option).
STRATO_OPTIONS = (("pattern", "--puzzles"), ("time_limit", "--time-limit"), ("growth", "--growth/--no-growth"),
                  ("planners", "--planners/--no-planners"), ("peers", "--peers/--no-peers"),
                  ("planner_time_limit", "--planner-time-limit"))
GAME_OPTIONS = (("max_nodes", "--max-nodes"), ("iterations", "--iterations"), ("engine", "--engine"))


def _given(ctx: click.Context, options: tuple[tuple[str, str], ...]) -> list[str]:
    """The options of ``options`` given on the command line (not left at their defaults)."""
    return [option for name, option in options
            if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)]


def _refuse_unused(ctx: click.Context, game: str, only: list[str], planners: bool) -> None:
    """Refuse an option the run would ignore: one line naming it and why (exit 2)."""
    if game != "strato":
        for option in _given(ctx, STRATO_OPTIONS):
            raise click.UsageError(f"{option} is for Strato's tables only; bench {game} does not use it")
        return
    for option in _given(ctx, GAME_OPTIONS):
        raise click.UsageError(f"{option} is for the other games' tables (stratatak, stakd, stackattack, "
                               "cardclash); bench strato does not use it")
    unused = {"--only-growth": ("--puzzles", "--planner-time-limit"),
              "--only-peers": ("--puzzles", "--time-limit", "--planner-time-limit"),
              "--only-certified": ("--planner-time-limit",),
              "--only-checker": ("--planner-time-limit",)}
    switches = (("growth", "--growth/--no-growth"), ("planners", "--planners/--no-planners"),
                ("peers", "--peers/--no-peers"))
    for flag in only:
        own = f"--{flag.removeprefix('--only-')}/--no-{flag.removeprefix('--only-')}"
        for option in _given(ctx, switches):
            if option != own:  # --only-growth --growth says the same twice; --only-growth --peers asks for more
                raise click.UsageError(f"{option} is not used by {flag} (it writes one table alone): leave it out")
        for option in _given(ctx, STRATO_OPTIONS):
            if option in unused.get(flag, ()):
                raise click.UsageError(f"{option} is not used by {flag} (it measures no "
                                       + ("puzzle files" if option == "--puzzles" else
                                          "time limit of its own" if option == "--time-limit" else "planner")
                                       + "): leave it out")
    if not planners and not only and _given(ctx, (("planner_time_limit", "--planner-time-limit"),)):
        raise click.UsageError("--planner-time-limit is not used with --no-planners: leave it out")


@click.command()
@click.argument("game", type=click.Choice(["strato", "stratatak", "stakd", "stackattack", "cardclash"]),
                default="strato")
@click.option("--puzzles", "pattern", default=DEFAULT_PUZZLES, show_default=True,
              help="Strato only: glob of puzzle files whose deals are measured (the default is found from the "
                   "current folder, else in the checkout holding the package).")
@click.option("--time-limit", type=TIME_LIMIT, default=10.0, show_default=True, metavar="S",
              help="Strato only: wall-clock seconds allowed to each method on each deal, and to `verify`'s check of "
                   "auto's certificate; a run takes several times S per deal. Not the peers' tables: "
                   "strato-peers.md has fixed budgets, strato-planners.md --planner-time-limit.")
@click.option("--growth/--no-growth", default=True, show_default=True,
              help="Strato only: also measure time against optimal length (strato-growth.md/.png).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="results", show_default=True)
@click.option("--max-nodes", "max_nodes", cls=Renamed, old=("--nodes",), type=NODE_LIMIT, default=2_000_000,
              show_default=True,
              help="Other games only: node limit of each exact search.")
@click.option("--only-certified", is_flag=True,
              help="Strato only: write only strato-certified.md (time to a certified optimum, auto against SAT).")
@click.option("--only-planners", is_flag=True,
              help="Strato only: write only strato-planners.md (Fast Downward against auto; needs the planners extra).")
@click.option("--planners/--no-planners", default=True, show_default=True,
              help="Strato only: also measure Fast Downward against auto (strato-planners.md; needs the planners "
                   "extra; without it an existing strato-planners.md is kept, said on stderr).")
@click.option("--only-peers", is_flag=True,
              help="Strato only: write only strato-peers.md (OpenSpiel's expectiminimax and MCTSBot against ours, "
                   "--count seeded deals per player count; needs the openspiel extra).")
@click.option("--peers/--no-peers", default=True, show_default=True,
              help="Strato only: also measure OpenSpiel's searches against ours (strato-peers.md; fixed budgets, not "
                   "--time-limit). Without OpenSpiel an existing strato-peers.md is kept, said on stderr.")
@click.option("--only-growth", is_flag=True,
              help="Strato only: write only strato-growth.md/.png from the growth challenges (the shipped deals' "
                   "crosses need the full run).")
@click.option("--only-checker", is_flag=True,
              help="Strato only: write only strato-checker.md (SAT alone on every deal, each refutation checked by "
                   "the DRUP checker's reference and compiled engines).")
@click.option("--planner-time-limit", type=TIME_LIMIT, default=60.0, show_default=True, metavar="S",
              help="Strato only: CPU seconds for each Fast Downward configuration on each deal, translate and "
                   "search together.")
@click.option("--iterations", type=WholeRange(1), default=None,
              help="Other games only: MCTS/DUCT iterations per position in the speed table (default 2000) and "
                   "per move of the search agents in the matches (default: the game's, 30-200).")
@click.option("--count", "games", cls=Renamed, old=("--games",), type=WholeRange(1, MAX_PARAMETER), default=40,
              show_default=True,
              help="Games per agent pairing in the match tables (Strato's peers: seeded deals per player count).")
@click.option("--engine", type=click.Choice(ENGINES), default="compiled", show_default=True,
              help="Other games only: compiled also measures the searches on the game's compiled engine against the "
                   "reference engine in the same run (sections 'Compiled engine against the reference engine' and "
                   "'Sampling searches: compiled engine against the reference engine'); "
                   "reference measures the reference engine only.")
@json_option(f"Print one JSON object ({BENCH_FORMAT}): the files written and the measurements.")
@quiet_option("No progress lines on stderr.")
def bench(game: str, pattern: str, time_limit: float, growth: bool, out_dir: str, max_nodes: int,
          only_certified: bool, planners: bool, only_planners: bool, only_peers: bool, peers: bool,
          only_growth: bool, only_checker: bool, planner_time_limit: float, iterations: int | None, games: int,
          engine: str, as_json: bool, quiet: bool) -> int:
    """Measure every method on the shipped puzzles; write results/<game>*.md.

    Strato: every method on every deal (and a growth plot). Other games: exact search with and without
    move ordering and the transposition table, MCTS speed (LP and DUCT for Stack Attack), and a match
    table.
    """
    only = [flag for flag, on in (("--only-certified", only_certified), ("--only-planners", only_planners),
                                  ("--only-peers", only_peers), ("--only-growth", only_growth),
                                  ("--only-checker", only_checker)) if on]
    if len(only) > 1:
        raise click.UsageError(f"{' and '.join(only)}: give one --only-... option (each writes one table alone)")
    if only and game != "strato":
        raise click.UsageError(f"{only[0]} is for Strato's tables; {game} writes one table of its own")
    if (only_planners and not planners) or (only_peers and not peers) or (only_growth and not growth):
        raise click.UsageError(f"{only[0]} asks for the table the --no-... option leaves out: nothing to write")
    _refuse_unused(click.get_current_context(), game, only, planners)
    if only_planners:
        from stratagem.solvers import fast_downward

        if fast_downward.driver() is None:  # the one table asked for cannot be made: refused before any work
            raise click.UsageError("--only-planners needs Fast Downward (pip install \"stratagem[planners]\"): "
                                   "nothing would be written")
    if only_peers:
        from stratagem.bench.strato_peers import openspiel_missing

        if openspiel_missing() is not None:  # as --only-planners: refused before any work, nothing written
            raise click.UsageError("--only-peers needs OpenSpiel (pip install \"stratagem[openspiel]\"): nothing "
                                   "would be written")
    files: list[str] = []
    positions: list[str] = []
    if game == "strato":
        files = _strato_files(pattern, default=pattern == DEFAULT_PUZZLES, unused=only_growth or only_peers)
        if only_peers or (peers and not only):
            _peer_puzzle()
    else:
        from stratagem.bench.games import game_positions

        positions = game_positions(game)
        if not positions:
            raise click.BadParameter(f"no positions in puzzles/{game}/ (from the current folder or the checkout "
                                     "holding the package)", param_hint="GAME")
    check_writable_dir(out_dir, "--out")  # checked, not made: the first table written makes it

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

        bench_strato(StratoBench(files, out_dir, time_limit, growth, planners, peers, only_certified=only_certified,
                                 only_planners=only_planners, only_peers=only_peers, only_growth=only_growth,
                                 only_checker=only_checker, planner_time_limit=planner_time_limit, games=games),
                     report, wrote, log,
                     warn=lambda text: note(text, False))
    else:
        from stratagem.bench.games import bench_game

        wrote(bench_game(game, positions, out_dir, max_nodes, iterations, games, log, engine=engine))
    if as_json:
        click.echo(dumps_record(report), nl=False)
    return 0


def _strato_files(pattern: str, *, default: bool, unused: bool) -> list[str]:
    """The puzzle files of ``--puzzles`` (the default glob found from the current folder, else in the
    checkout); none when the run measures no puzzle file (``--only-growth``, ``--only-peers``)."""
    if unused:
        return []
    from stratagem.bench.tables import shipped

    files = sorted(glob.glob(shipped(pattern) if default else pattern))
    if not files:
        where = " (from the current folder or the checkout holding the package)" if default else ""
        raise click.BadParameter(f"no puzzle files match {pattern!r}{where}", param_hint="--puzzles")
    from stratagem.loading import load_strato

    for name in files:  # read before any work: a file that does not read, or lists no deal, is refused
        if not load_strato(name).deals:
            raise BadInput(name, "deals", "no deal to measure (bench strato measures the deals a file lists)")
    return files


def _peer_puzzle() -> None:
    """Refuse a run whose peers' table cannot find its shipped challenge (with OpenSpiel installed)."""
    from stratagem.bench.strato_peers import STRATO_PEER_PUZZLE, openspiel_missing
    from stratagem.bench.tables import shipped

    if openspiel_missing() is None and not Path(shipped(STRATO_PEER_PUZZLE)).is_file():
        raise click.BadParameter(f"the peers' table needs {STRATO_PEER_PUZZLE} (not found from the current folder "
                                 "or the checkout holding the package); --no-peers leaves it out",
                                 param_hint="--peers")
