"""``stratagem bench GAME`` for the games analysed by search: results/<game>.md.

For each shipped position of a turn-based game (Stratatak, Card Clash, STAKD):

- alpha-beta (or expectimax, or paranoid for three or more players) with and without the game's
  move ordering and the transposition table: nodes and time, and each variant's ratio to the plain
  search (no ordering, no table) measured in the same run;
- UCT simulations per second on the same positions;
- a short match table between the agents (seeded, seats rotating).

For Stack Attack: the LP backward induction on each position (simultaneous nodes, time, whether every
node certified) against DUCT iterations per second.

Then, with the ``openspiel`` extra, a peers section (:mod:`stratagem.openspiel.peers`): our UCT against
OpenSpiel's MCTSBot (simulations per CPU-second on the same positions, and a match at equal CPU time per
move), our plain alpha-beta/expectiminimax against OpenSpiel's, and for Stack Attack our exact LP against
OpenSpiel's matrix-game LP on the same stage games. Without the extra the section says it was skipped.

Raw seconds depend on the machine (noted in the header); ratios measured in one run do not.
"""

from __future__ import annotations

import glob
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from stratagem.analysis import return_bounds
from stratagem.cli.output import machine
from stratagem.core.errors import StratagemError
from stratagem.core.io import write_atomic
from stratagem.loading import load_position
from stratagem.matches import make_agents, new_game
from stratagem.solvers.alphabeta import alphabeta
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.gametree import MinimaxResult
from stratagem.solvers.match import play_match
from stratagem.solvers.mcts import uct
from stratagem.solvers.multiplayer import paranoid

#: (label, use_ordering, use_tt), the first being the baseline of the ratios.
VARIANTS = (("plain", False, False), ("ordering", True, False), ("table", False, True), ("both", True, True))


def _search(game: Any, state: Any, ordering: bool, table: bool, max_nodes: int) -> tuple[MinimaxResult[Any], float]:
    options: dict[str, Any] = {"use_ordering": ordering, "use_tt": table, "max_nodes": max_nodes}
    started = time.perf_counter()
    if game.num_players > 2:
        low, high = return_bounds(game)
        result = paranoid(game, state, lo=low, hi=high, **options)
    else:
        try:
            result = alphabeta(game, state, **options)
        except StratagemError as exc:
            if "chance" not in str(exc):
                raise
            low, high = return_bounds(game)
            result = expectiminimax(game, state, lo=low, hi=high, **options)
    return result, time.perf_counter() - started


def search_table(files: list[str], max_nodes: int, log: Callable[[str], None]) -> list[str]:
    lines = [
        "## Exact search: move ordering and transposition table",
        "",
        "Nodes visited and seconds per position; `x plain` is the ratio to the search with neither",
        f"(same run). A search stopped at {max_nodes:,} nodes shows `>` and its status.",
        "",
        "| position | value | " + " | ".join(f"{v} nodes | {v} s" for v, _, _ in VARIANTS)
        + " | nodes x plain (ordering / table / both) |",
        "|---|---|" + "---:|---:|" * len(VARIANTS) + "---:|",
    ]
    for file in files:
        loaded = load_position(file)
        cells = []
        nodes: dict[str, int] = {}
        value = "?"
        for label, ordering, table in VARIANTS:
            result, seconds = _search(loaded.game, loaded.state, ordering, table, max_nodes)
            stopped = result.status == "unknown"
            nodes[label] = result.nodes
            if result.solved:
                shown = int(result.value) if float(result.value).is_integer() else result.value  # type: ignore[arg-type]
                value = f"{shown} (paranoid)" if result.assumption == "paranoid" else str(shown)
            cells.append(f"{'>' if stopped else ''}{result.nodes:,} | {seconds:.3f}")
            log(f"{Path(file).name} {label}: {result.status}, {result.nodes:,} nodes, {seconds:.2f} s")
        ratios = " / ".join(f"{nodes[v] / nodes['plain']:.3f}" for v in ("ordering", "table", "both"))
        lines.append(f"| {Path(file).stem} | {value} | " + " | ".join(cells) + f" | {ratios} |")
    return lines + [""]


def mcts_table(files: list[str], iterations: int, log: Callable[[str], None]) -> list[str]:
    lines = [
        "## UCT simulations per second",
        "",
        f"{iterations:,} iterations of UCT with MCTS-Solver from each position (open information).",
        "",
        "| position | iterations | seconds | simulations/s | proven |",
        "|---|---:|---:|---:|---|",
    ]
    for file in files:
        loaded = load_position(file)
        if loaded.game.to_move(loaded.state) < 0:
            continue
        low, high = return_bounds(loaded.game)
        result = uct(loaded.game, loaded.state, iterations=iterations, seed=0, value_range=(float(low), float(high)))
        rate = result.iterations / result.seconds if result.seconds > 0 else float("inf")
        log(f"{Path(file).name} uct: {result.iterations} iterations, {result.seconds:.2f} s")
        lines.append(f"| {Path(file).stem} | {result.iterations:,} | {result.seconds:.3f} | {rate:,.0f} | "
                     f"{'yes' if result.proven else 'no'} |")
    return lines + [""]


def match_table(game_name: str, pairs: list[tuple[str, str]], games: int, players: int,
                log: Callable[[str], None]) -> list[str]:
    lines = [
        "## Matches",
        "",
        f"{games} games per pairing from fresh deals, seed 0, seats rotating; "
        "95% Wilson interval on the win rate of the first agent."
        + (f" {MATCH_NOTES[game_name]}" if game_name in MATCH_NOTES else ""),
        "",
        "| agents | games | first agent's W-D-L | win rate | 95% CI |",
        "|---|---:|---|---:|---|",
    ]
    for pair in pairs:
        game = new_game(game_name, players)
        seats = list(pair) + ["random"] * (game.num_players - len(pair))
        result = play_match(game, make_agents(game_name, seats), games, seed=0)
        first = result.agents[0]
        low, high = first.win_rate_ci95
        log(f"{' vs '.join(seats)}: {first.wins}-{first.draws}-{first.losses}")
        lines.append(f"| {' vs '.join(seats)} | {first.games} | {first.wins}-{first.draws}-{first.losses} | "
                     f"{first.win_rate:.3f} | [{low:.3f}, {high:.3f}] |")
    return lines + [""]


def simultaneous_table(files: list[str], iterations: int, log: Callable[[str], None]) -> list[str]:
    from stratagem.solvers.duct import duct
    from stratagem.solvers.simultaneous import solve_each_player, solve_simultaneous

    lines = [
        "## Exact LP backward induction and DUCT",
        "",
        "Backward induction with one exactly certified LP per simultaneous node (two players: zero-sum on",
        "the penalty difference; more: each player against the coalition, all players solved), and",
        f"{iterations:,} DUCT iterations from the same position; `LP / DUCT` is the ratio of their times.",
        "",
        "| position | players | LP nodes | certified | LP s | DUCT s | DUCT it/s | LP / DUCT |",
        "|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for file in files:
        loaded = load_position(file)
        game, state = loaded.game, loaded.state
        started = time.perf_counter()
        if game.num_players == 2:
            results = [solve_simultaneous(game, state, player=0, payoff="margin")]
        else:
            results = list(solve_each_player(game, state, payoff="own"))
        lp_seconds = time.perf_counter() - started
        started = time.perf_counter()
        duct(game, state, iterations=iterations, seed=0)
        duct_seconds = time.perf_counter() - started
        nodes = sum(len(r.nodes) for r in results)
        certified = all(r.certified for r in results)
        log(f"{Path(file).name}: LP {nodes} nodes {lp_seconds:.2f} s, DUCT {duct_seconds:.2f} s")
        lines.append(f"| {Path(file).stem} | {game.num_players} | {nodes:,} | {'yes' if certified else 'NO'} | "
                     f"{lp_seconds:.3f} | {duct_seconds:.3f} | {iterations / duct_seconds:,.0f} | "
                     f"{lp_seconds / duct_seconds:.2f} |")
    return lines + [""]


#: Peers section: simulations per search in the speed table, node budget of each exact search (at most
#: ``--nodes``), CPU seconds per move in the match, stage games measured per position, per-game rollout cut
#: of the match (the match table's, as in :data:`PAIRINGS`).
PEER_SIMULATIONS = 500
PEER_NODES = 20_000
PEER_SECONDS = 0.03
PEER_STAGE_GAMES = 200
PEER_ROLLOUT_LIMIT: dict[str, int | None] = {"stratatak": 10, "cardclash": 0, "stakd": None}


def _peers_module(lines: list[str], log: Callable[[str], None]) -> Any:
    """:mod:`stratagem.openspiel.peers`, or ``None`` with a line added to ``lines`` saying why the
    section is skipped (the ``openspiel`` extra is missing)."""
    try:
        from stratagem.openspiel import peers
    except ImportError as exc:
        log(f"peers skipped: {exc}")
        lines += [f"Skipped: the `openspiel` extra is not installed ({exc}); `pip install '.[openspiel]'` adds it.",
                  ""]
        return None
    return peers


def peers_section(game_name: str, files: list[str], max_nodes: int, games: int,
                  log: Callable[[str], None]) -> list[str]:
    """The "Peers: OpenSpiel" section, or a line saying why it was skipped."""
    lines = ["## Peers: OpenSpiel", ""]
    peers = _peers_module(lines, log)
    if peers is None:
        return lines
    from importlib.metadata import version

    lines += [
        f"OpenSpiel {version('open_spiel')}, its Python algorithms on OpenSpiel games built over the same",
        "rules engines (open information, the engines' action numbering; `stratagem.openspiel`), measured in",
        "this run on the same states. Times are CPU seconds of this process (the machine is shared: compare",
        "ratios, not seconds).",
        "",
    ]
    if game_name == "stackattack":
        return lines + _stage_table(peers, files, log) + [
            "OpenSpiel's MCTSBot takes sequential games only: Stack Attack's turns are simultaneous, so it",
            "has no UCT row here.", ""]
    lines += _speed_table(peers, files, log)
    lines += _peer_match_table(peers, game_name, games, log)
    lines += _peer_search_table(peers, files, min(max_nodes, PEER_NODES), log)
    return lines


def _speed_table(peers: Any, files: list[str], log: Callable[[str], None]) -> list[str]:
    lines = [
        "### UCT: simulations per CPU-second",
        "",
        f"From each position, {PEER_SIMULATIONS:,} simulations of our UCT (plain: `guided=False`, random",
        "rollouts to the end, MCTS-Solver) and of OpenSpiel's `MCTSBot` (random rollouts, `solve=True`, the same",
        "exploration rule); median of 3 runs each. A search whose root is proven stops early (`solved`).",
        "",
        "| position | ours sims/CPU-s | MCTSBot sims/CPU-s | ours / MCTSBot | solved (ours / MCTSBot) |",
        "|---|---:|---:|---:|---|",
    ]
    for file in files:
        loaded = load_position(file)
        if loaded.game.to_move(loaded.state) < 0:
            continue
        row = peers.uct_speed(loaded.game, loaded.state, PEER_SIMULATIONS)
        log(f"{Path(file).name} peers speed: {row.ours_rate:,.0f} / {row.theirs_rate:,.0f} sims per CPU-s")
        lines.append(f"| {Path(file).stem} | {row.ours_rate:,.0f} | {row.theirs_rate:,.0f} | {row.ratio:.2f} | "
                     f"{'yes' if row.ours_proven else 'no'} / {'yes' if row.theirs_solved else 'no'} |")
    return lines + [""]


def _peer_match_table(peers: Any, game_name: str, games: int, log: Callable[[str], None]) -> list[str]:
    game = peers.match_game(game_name)
    match = peers.equal_time_match(game, PEER_SECONDS, games, rollout_limit=PEER_ROLLOUT_LIMIT[game_name])
    ours = match.result.agents[0]
    low, high = ours.win_rate_ci95
    limit = PEER_ROLLOUT_LIMIT[game_name]
    log(f"peers match: {ours.wins}-{ours.draws}-{ours.losses}")
    return [
        "### Match at equal CPU time per move",
        "",
        f"Our `mcts` agent (its defaults: move ordering, tree reuse) against `MCTSBot`, {PEER_SECONDS:g} CPU s",
        "per move each: each side's simulations per move calibrated from its own measured speed (a trial search,",
        "then two uncounted deals), then fixed, so the match is seeded and reproducible; the CPU each really",
        f"spent per move in the match is measured and shown. {match.result.games} games, seed 0, seats rotating, "
        f"{_match_setting(game_name)}"
        f"{_leaf_text(limit)}.",
        "",
        "| agents | games | sims per move (ours / MCTSBot) | CPU s per move (ours / MCTSBot) | our W-D-L "
        "| our win rate | 95% CI |",
        "|---|---:|---|---|---|---:|---|",
        f"| mcts vs openspiel-mcts | {ours.games} | {match.ours_simulations:,} / {match.theirs_simulations:,} | "
        f"{match.ours_cpu_per_move:.3f} / {match.theirs_cpu_per_move:.3f} | {ours.wins}-{ours.draws}-{ours.losses} "
        f"| {ours.win_rate:.3f} | [{low:.3f}, {high:.3f}] |",
        "",
    ]


def _leaf_text(limit: int | None) -> str:
    """How both sides of the peers' match value a new leaf."""
    if limit is None:
        return "; both sides play random playouts to the end"
    if limit == 0:
        return ("; both sides value a new leaf by the engine's evaluation alone (no playout: the game's declared "
                "`rollout_limit = 0`)")
    return f"; both sides cut playouts after {limit} plies and score them by the engine's evaluation"


def _match_setting(game_name: str) -> str:
    return {
        "stakd": "from the two-player start",
        "cardclash": "each game a new deal with every draw a chance node (`DealtCardClash`)",
        "stratatak": "fresh deals, battle limit 40 (undecided: a draw)",
    }[game_name]


def _peer_search_table(peers: Any, files: list[str], budget: int, log: Callable[[str], None]) -> list[str]:
    lines = [
        "### Exact search",
        "",
        "Our alpha-beta (expectiminimax where the position reaches chance), plain: no move ordering, no",
        "transposition table, one pass; against OpenSpiel's `alpha_beta_search` (`expectiminimax`). Nodes:",
        "ours counts the states it visits; OpenSpiel's counts none, so its column is the states the engine",
        f"applied for it, plus the root. Each search stops at {budget:,} nodes (`>`); ours then rebuilds its",
        "principal variation (without a table, by searching again), which its nodes and CPU include, so a",
        "solved row of ours may pass the budget. OpenSpiel's returns a value and a first move only. Moves are",
        "tried in the engine's order by ours, in action-number order by OpenSpiel's, so node counts differ.",
        "CPU: median of up to 3 runs (repeated while a pair takes under a second).",
        "",
        "| position | ours | nodes | CPU s | value | OpenSpiel | nodes | CPU s | value | values equal "
        "| CPU ours / OpenSpiel |",
        "|---|---|---:|---:|---|---|---:|---:|---|---|---:|",
    ]
    for file in files:
        loaded = load_position(file)
        row = peers.search_peer(loaded.game, loaded.state, budget)
        ours = row.ours
        cells = [f"{Path(file).stem}", ours.method, _nodes(ours), f"{ours.seconds:.3f}", _value(ours.value)]
        if row.theirs is None:
            cells += [row.why_not, "", "", "", "—", "—"]
        else:
            theirs = row.theirs
            equal = {True: "yes", False: "NO", None: "—"}[row.agree]
            ratio = f"{ours.seconds / theirs.seconds:.2f}" if theirs.seconds > 0 else "—"
            cells += [theirs.method, _nodes(theirs), f"{theirs.seconds:.3f}", _value(theirs.value), equal, ratio]
        log(f"{Path(file).name} peers search: {' | '.join(cells[1:])}")
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


def _nodes(run: Any) -> str:
    return f"{'>' if run.status != 'solved' else ''}{run.nodes:,}"


def _value(value: float | None) -> str:
    if value is None:
        return "—"
    return str(int(value)) if float(value).is_integer() else f"{value:.4f}"


def _stage_table(peers: Any, files: list[str], log: Callable[[str], None]) -> list[str]:
    lines = [
        "### Stage games: exact LP against OpenSpiel's LP",
        "",
        "The matrix games of each position's backward induction (as in the LP table above; the first",
        f"{PEER_STAGE_GAMES} per position in the order they are solved), solved again one by one: by our exact",
        "solver (`solve_matrix`: saddle point or LP, then an exact certificate) and by OpenSpiel's",
        "`lp_solver.solve_zero_sum_matrix_game` (cvxpy with ECOS, floats). CPU: median of 3 passes.",
        "",
        "| position | stage games (measured) | largest | ours CPU s | OpenSpiel CPU s | OpenSpiel / ours "
        "| certified (ours) | largest value difference |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for file in files:
        loaded = load_position(file)
        row = peers.stage_peer(loaded.game, loaded.state, PEER_STAGE_GAMES)
        ratio = f"{row.theirs_seconds / row.ours_seconds:.1f}" if row.ours_seconds > 0 else "—"
        log(f"{Path(file).name} peers stage games: {row.measured} in {row.ours_seconds:.3f} / "
            f"{row.theirs_seconds:.3f} CPU s")
        lines.append(f"| {Path(file).stem} | {row.stage_games:,} ({row.measured}) | {row.largest[0]}x{row.largest[1]} "
                     f"| {row.ours_seconds:.3f} | {row.theirs_seconds:.3f} | {ratio} | {row.ours_certified} "
                     f"| {row.largest_difference:.1e} |")
    return lines + [""]


#: Agent pairings measured for each game (the rest of the seats, if any, go to random agents).
#: ``{iterations}`` is the search agents' budget per move: ``bench --iterations`` when given, else the
#: game's entry in :data:`MATCH_ITERATIONS` (every move searches, so a match needs far fewer than the
#: speed table's 2,000 per position).
PAIRINGS: dict[str, tuple[list[tuple[str, str]], int]] = {
    "stratatak": ([("greedy", "random"), ("mcts:iterations={iterations}:rollout_limit=10", "random"),
                   ("mcts:iterations={iterations}:rollout_limit=10", "greedy"),
                   ("pimc:samples=8:rollouts=2:rollout_limit=10", "greedy")], 2),
    "cardclash": ([("greedy", "random"), ("mcts:iterations={iterations}", "random"),
                   ("mcts:iterations={iterations}", "greedy"), ("ismcts:iterations={iterations}", "greedy")], 2),
    "stakd": ([("greedy", "random"), ("mcts:iterations={iterations}", "random"),
               ("mcts:iterations={iterations}", "greedy")], 2),
    "stackattack": ([("lowest", "random"), ("cautious", "lowest"), ("greedy", "random"),
                     ("duct:iterations={iterations}", "lowest")], 2),
}
#: What the match table says of a game's search agents (the options a pairing leaves at their defaults).
MATCH_NOTES = {
    "cardclash": "`mcts` and `ismcts` play at their defaults (guided): Card Clash declares `rollout_limit = 0`, so a "
                 "new leaf is valued by the game's evaluation alone, and moves are expanded in the game's order "
                 "with progressive widening.",
    "stratatak": "`rollout_limit=10`: playouts are cut after 10 plies and scored by the game's evaluation.",
    "stakd": "STAKD declares no evaluation cut-off: `mcts` plays random playouts to the end, guided by the move "
             "ordering.",
}
#: Search iterations per move in the matches when ``bench --iterations`` is not given.
MATCH_ITERATIONS = {"stratatak": 200, "cardclash": 100, "stakd": 200, "stackattack": 30}
#: Search iterations per position in the speed tables when ``bench --iterations`` is not given.
SPEED_ITERATIONS = 2000


def match_pairs(game_name: str, iterations: int | None) -> list[tuple[str, str]]:
    """The game's pairings with the search agents' budget filled in (see :data:`PAIRINGS`)."""
    budget = MATCH_ITERATIONS[game_name] if iterations is None else iterations
    return [(a.format(iterations=budget), b.format(iterations=budget)) for a, b in PAIRINGS[game_name][0]]


def bench_game(game_name: str, out_dir: str, max_nodes: int, iterations: int | None, games: int) -> Path:
    """Measure one game's shipped positions and write ``<out_dir>/<game>.md``.

    ``iterations`` (``bench --iterations``) is the MCTS/DUCT budget of the speed table per position and
    of the match agents per move; None keeps the defaults (:data:`SPEED_ITERATIONS`,
    :data:`MATCH_ITERATIONS`)."""
    files = sorted(glob.glob(f"puzzles/{game_name}/*.toml"))
    if game_name == "stakd":
        files = [f for f in files if load_position(f).game.num_players > 1]
    if not files:
        raise click.BadParameter(f"no positions in puzzles/{game_name}/", param_hint="GAME")

    def log(text: str) -> None:
        click.echo(text, err=True)

    lines = [
        f"# {game_name}: search and play benchmark",
        "",
        f"Written by `stratagem bench {game_name}`. Open information (every card known) unless said.",
        f"Machine: {machine()}.",
        "",
    ]
    speed = SPEED_ITERATIONS if iterations is None else iterations
    if game_name == "stackattack":
        lines += simultaneous_table(files, speed, log)
    else:
        lines += search_table(files, max_nodes, log)
        lines += mcts_table(files, speed, log)
    lines += match_table(game_name, match_pairs(game_name, iterations), games, PAIRINGS[game_name][1], log)
    lines += peers_section(game_name, files, max_nodes, games, log)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{game_name}.md"
    lines += kept_sections(target.read_text(encoding="utf-8") if target.exists() else "")
    write_atomic(target, "\n".join(lines))
    return target


#: A section a script writes into results/<game>.md opens with this (``<!-- scripts/NAME.py: begin -->``).
SCRIPT_SECTION = re.compile(r"^<!-- (scripts/[\w.-]+\.py): begin -->$", re.MULTILINE)


def kept_sections(old: str) -> list[str]:
    """What a bench run keeps of the file it rewrites: the sections scripts wrote there (from the first
    ``<!-- scripts/NAME.py: begin -->`` marker to the end, notes after them included), under a line
    saying they come from an earlier run of that script and how to refresh them. ``stratagem bench
    stackattack`` keeps so the deep endgames' table (``scripts/stackattack_deep.py``: the package
    before and after issue 20 part 6, measured in child processes, which bench cannot re-run)."""
    found = SCRIPT_SECTION.search(old)
    if found is None:
        return []
    script = found.group(1)
    return [
        "## Kept from an earlier run of `" + script + "`",
        "",
        f"`stratagem bench` does not measure what follows; it keeps it from the file it rewrote, as `{script}`",
        "wrote it (its own header gives its command, machine and load). Re-running that script refreshes it.",
        "",
        old[found.start():].rstrip("\n"),
        "",
    ]


# --------------------------------------------------------------------------------------------------
# Strato's peers (``bench strato`` writes them to results/strato-peers.md)

#: Solo positions of challenge 0 (goal: four rain by the rain tornado, four wind by the wind tornado,
#: limit 6) for the exact peer: the hand-made positions of tests/models/strato/test_hidden.py (two or
#: three cards in the pile, odds 1/3, 2/3, 0 and 1) and two with four cards in the pile.
STRATO_PEER_POSITIONS = (
    "RRWR(RW)WWRW RRR RR 1 -",
    "RRWR(RW)WWWR RRR WR 1 -",
    "RRWR(RW)WWRW RRR WRR 1 -",
    "RRWR(RW)WWWR RRR WRR 1 -",
    "RR(RW)WRW RWW RR 1 -",
    "RWRR(RW)WRWW WWW WRW 1 -",
    "RWRR(RW)WRWW WWW WWR 1 -",
    "WRRR(RW)WWWW RWW WRW 1 -",
    "RRWR(RW)WWRW RRW WWRR 1 -",
)
STRATO_PEER_PUZZLE = "puzzles/strato/challenge-0.toml"
#: States each exact search may search; CPU seconds per decision in the team match; simulations per
#: search in the speed table.
STRATO_PEER_NODES = 200_000
STRATO_PEER_SECONDS = 0.25

def strato_peers_section(games: int, log: Callable[[str], None], *, puzzle: str = STRATO_PEER_PUZZLE,
                         positions: tuple[str, ...] = STRATO_PEER_POSITIONS, max_nodes: int = STRATO_PEER_NODES,
                         seconds: float = STRATO_PEER_SECONDS, players: tuple[int, ...] = (1, 2),
                         simulations: int = PEER_SIMULATIONS) -> list[str]:
    """Strato's "Peers: OpenSpiel" section (see :mod:`stratagem.openspiel.peers`), or a line saying why
    it was skipped: the exact solo win probability against OpenSpiel's ``expectiminimax``, UCT speed
    against ``MCTSBot``, and the team's agents against ``MCTSBot`` on the same ``games`` seeded deals
    for each player count in ``players``."""
    lines = ["## Peers: OpenSpiel", ""]
    peers = _peers_module(lines, log)
    if peers is None:
        return lines
    from importlib.metadata import version

    lines += [
        f"OpenSpiel {version('open_spiel')}, its Python algorithms on `stratagem_strato` (the game at the table:",
        "the pile face down, every draw a chance node; `stratagem.openspiel`), measured in this run on the",
        f"same states, challenge `{puzzle}`. Times are CPU seconds of this process (the machine is shared:",
        "compare ratios, not seconds).",
        "",
    ]
    lines += _strato_exact_table(peers, puzzle, positions, max_nodes, log)
    lines += _strato_speed_table(peers, puzzle, simulations, log)
    for count in players:
        lines += _strato_match_table(peers, puzzle, count, games, seconds, log)
    return lines


def _strato_exact_table(peers: Any, puzzle: str, positions: tuple[str, ...], max_nodes: int,
                        log: Callable[[str], None]) -> list[str]:
    lines = [
        "### Exact solo win probability: our MDP search against `expectiminimax`",
        "",
        "Solo, the pile's order hidden: the player sees the table, the hand and which cards are left, so the",
        "game is a Markov decision process and its value the optimal win probability. Ours:",
        "`solvers/mdp.optimal_value` (exact fractions, a state met again is looked up, Star1 windows at chance",
        "nodes), once as `stratagem odds` runs it (moves ordered by the admissible turn bound, states that",
        "cannot be won cut: *ours*) and once without that Strato knowledge (*plain*). OpenSpiel's:",
        "`open_spiel.python.algorithms.minimax.expectiminimax` on `pyspiel.load_game(\"stratagem_strato\",",
        "{puzzle, position})`, a tree search that remembers nothing. States: ours counts the states it",
        "expanded (a state met again is looked up), OpenSpiel's its recursive calls (the states applied, plus",
        "the root). The engine applies a move by generating the position's plays; OpenSpiel's API has no",
        "successor list, so OpenSpiel's search is given a memory of the last 4,096 positions' plays (move",
        "generation only, never a value) so that it pays it once per position, as ours does. Each search stops",
        f"at {max_nodes:,} states (`>`). Values are win probabilities (OpenSpiel's expected return r is",
        "(r + 1) / 2). CPU: median of up to 3 runs (repeated while a set takes under a second).",
        "",
        "| position | win probability | ours states | ours CPU s | plain states | plain CPU s "
        "| expectiminimax states | expectiminimax CPU s | values equal | CPU expectiminimax / plain |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for position in positions:
        row = peers.strato_exact_peer(puzzle, position, max_nodes)
        equal = {True: "yes", False: "NO", None: "—"}[row.agree]
        theirs = row.theirs
        ratio = f"{'>' if theirs.status != 'solved' else ''}{theirs.seconds / row.plain.seconds:.1f}" \
            if row.plain.seconds > 0 and row.plain.status == "solved" else "—"
        value = "—" if row.exact is None else f"{row.exact} ({float(row.exact):.4f})"
        log(f"strato {position}: {value}, ours {row.ours.nodes} / plain {row.plain.nodes} / "
            f"expectiminimax {_nodes(theirs)} states")
        lines.append(f"| `{position}` | {value} | {_nodes(row.ours)} | {row.ours.seconds:.3f} | {_nodes(row.plain)} "
                     f"| {row.plain.seconds:.3f} | {_nodes(theirs)} | {theirs.seconds:.3f} | {equal} | {ratio} |")
    return lines + [""]


def _strato_speed_table(peers: Any, puzzle: str, simulations: int, log: Callable[[str], None]) -> list[str]:
    lines = [
        "### UCT: simulations per CPU-second",
        "",
        f"From the start of seeded solo deals (seeds 0-2; the pile hidden), {simulations:,} simulations of our UCT",
        "(plain: `guided=False`, random playouts to the end, MCTS-Solver) and of OpenSpiel's `MCTSBot` (random",
        "playouts, `solve=True`, the same exploration rule), both over the hidden-pile engine (solo, its state is",
        "what the player knows); median of 3 runs each.",
        "",
        "| deal seed | ours sims/CPU-s | MCTSBot sims/CPU-s | ours / MCTSBot | solved (ours / MCTSBot) |",
        "|---|---:|---:|---:|---|",
    ]
    for seed, row in peers.strato_uct_speed(puzzle, 1, range(3), simulations):
        log(f"strato seed {seed} peers speed: {row.ours_rate:,.0f} / {row.theirs_rate:,.0f} sims per CPU-s")
        lines.append(f"| {seed} | {row.ours_rate:,.0f} | {row.theirs_rate:,.0f} | {row.ratio:.2f} | "
                     f"{'yes' if row.ours_proven else 'no'} / {'yes' if row.theirs_solved else 'no'} |")
    return lines + [""]


def _strato_match_table(peers: Any, puzzle: str, players: int, games: int, seconds: float,
                        log: Callable[[str], None]) -> list[str]:
    rows = peers.strato_team_match(puzzle, players, games, seconds)
    who = "solo" if players == 1 else f"{players} players"
    sees = ("Solo, the full hidden-pile state is exactly what the player knows, so `mcts` and `MCTSBot` see no "
            "more than `ismcts`." if players == 1 else
            "With more than one player, `mcts` and `MCTSBot` search the full hidden-pile state and so **see the "
            "other hands** (not the pile's order); `ismcts`, `pimc` and `greedy` see only the player's own hand.")
    lines = [
        f"### Team play, {who}: our agents and `MCTSBot` on the same deals",
        "",
        f"Each agent plays the same {games} seeded deals (seeds 0-{games - 1}), every seat, every draw from the",
        "deal's real pile in its order (`stratagem play strato`'s duplicate deals). Strato is cooperative: an",
        "agent's score is the share of deals its team wins (95% Wilson interval). `ismcts` (ours, SO-ISMCTS",
        "from the player's observation), `mcts` (our UCT over the hidden-pile state) and `MCTSBot` (over the",
        f"same state through the adapter) get the simulations per decision that take {seconds:g} CPU s: a trial",
        "search, then two uncounted deals measure what each really spends, and the count is fixed (seeded and",
        "reproducible); all three use random playouts to the end. `greedy` (the admissible turn bound) and",
        "`pimc` (8 samples, each solved openly by A* at 1,000 expansions) play at their own cost, shown. "
        + sees,
        "",
        "| agent | sims per decision | CPU s per decision | decisions | deals won | win rate | 95% CI |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        low, high = row.win_rate_ci95
        log(f"strato {who} {row.label}: {row.wins}/{row.games}, {row.cpu_per_move:.3f} CPU s per decision")
        budget = "—" if row.budget is None else f"{row.budget:,}"
        lines.append(f"| {row.label} | {budget} | {row.cpu_per_move:.3f} | {row.moves:,} | {row.wins}/{row.games} "
                     f"| {row.win_rate:.2f} | [{low:.2f}, {high:.2f}] |")
    return lines + [""]


def write_strato_peers(out_dir: str, games: int, command: str) -> Path:
    """``<out_dir>/strato-peers.md`` (``bench strato``): a header naming ``command`` and
    :func:`strato_peers_section` with ``games`` seeded deals per player count."""
    def log(text: str) -> None:
        click.echo(text, err=True)

    lines = [
        "# strato: peers benchmark",
        "",
        f"Written by `{command}`.",
        f"Machine: {machine()}.",
        "",
    ]
    lines += strato_peers_section(games, log)
    lines += [f"Load average when the run ended: {os.getloadavg()[0]:.1f}." if hasattr(os, "getloadavg") else "", ""]
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "strato-peers.md"
    write_atomic(target, "\n".join(lines))
    return target
