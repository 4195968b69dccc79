"""The "Peers: OpenSpiel" section of ``results/<game>.md`` (with the ``openspiel`` extra).

Our UCT against OpenSpiel's MCTSBot (simulations per CPU-second on the same positions, and a match at
equal CPU time per move), our plain alpha-beta/expectiminimax against OpenSpiel's, and for Stack Attack
our exact LP against OpenSpiel's matrix-game LP on the same stage games; the measurements themselves
are :mod:`stratagem.openspiel.peers`. Without the extra the section says in one line that it was skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from stratagem.loading import load_position

#: Peers section: simulations per search in the speed table, node budget of each exact search (at most
#: ``bench --max-nodes``), CPU seconds per move in the match, stage games measured per position, per-game rollout cut
#: of the match (the match table's, as in :data:`stratagem.bench.games.PAIRINGS`).
PEER_SIMULATIONS = 500
PEER_NODES = 20_000
PEER_SECONDS = 0.03
PEER_STAGE_GAMES = 200
PEER_ROLLOUT_LIMIT: dict[str, int | None] = {"stratatak": 10, "cardclash": 0, "stakd": None}


def peers_module(lines: list[str], log: Callable[[str], None]) -> Any:
    """:mod:`stratagem.openspiel.peers`, or ``None`` with a line added to ``lines`` saying why the
    section is skipped (the ``openspiel`` extra is missing)."""
    try:
        from stratagem.openspiel import peers
    except ImportError as exc:
        log(f"peers skipped: {exc}")
        lines += [f"Skipped: the `openspiel` extra is not installed ({exc}); "
                  "`pip install \"stratagem[openspiel]\"` adds it.",
                  ""]
        return None
    return peers


def peers_section(game_name: str, files: list[str], max_nodes: int, games: int,
                  log: Callable[[str], None]) -> list[str]:
    """The "Peers: OpenSpiel" section, or a line saying why it was skipped."""
    lines = ["## Peers: OpenSpiel", ""]
    peers = peers_module(lines, log)
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
    log(f"peers match: {ours.wins}-{ours.draws}-{ours.losses} ({ours.unfinished} unfinished)")
    return [
        "### Match at equal CPU time per move",
        "",
        f"Our `mcts` agent (its defaults: move ordering, tree reuse) against `MCTSBot`, {PEER_SECONDS:g} CPU s",
        "per move each: each side's simulations per move calibrated from its own measured speed (a trial search,",
        "then two uncounted deals), then fixed, so the match is seeded (the simulations per move follow the clock,",
        "so results may differ slightly between runs); the CPU each really spent per move in the match is",
        f"measured and shown. {plural(match.result.games, 'game')}, seed 0, seats rotating, "
        f"{_match_setting(game_name)}"
        f"{_leaf_text(limit)}.",
        "",
        "| agents | games | sims per move (ours / MCTSBot) | CPU s per move (ours / MCTSBot) | our W-D-L "
        "| our win rate | 95% CI |",
        "|---|---:|---|---|---|---:|---|",
        f"| mcts vs openspiel-mcts | {ours.games} | {match.ours_simulations:,} / {match.theirs_simulations:,} | "
        f"{match.ours_cpu_per_move:.3f} / {match.theirs_cpu_per_move:.3f} | {ours.wins}-{ours.draws}-{ours.losses}"
        f"{f' (+{ours.unfinished} unfinished)' if ours.unfinished else ''} | {ours.win_rate:.3f} "
        f"| [{low:.3f}, {high:.3f}] |",
        "",
    ]


def plural(count: int, noun: str) -> str:
    """``1 game``, ``2 games``."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


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
        "stratatak": "fresh deals, battle limit 40 (a game it stops is unfinished, not a draw)",
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
        "CPU: median of up to 3 runs (repeated while a pair takes under a second); a ratio marked * has a",
        "side stopped (a bound, not a measurement of the whole search).",
        "",
        "| position | ours | nodes | CPU s | value | OpenSpiel | nodes | CPU s | value | values equal "
        "| CPU ours / OpenSpiel |",
        "|---|---|---:|---:|---|---|---:|---:|---|---|---:|",
    ]
    for file in files:
        loaded = load_position(file)
        row = peers.search_peer(loaded.game, loaded.state, budget)
        ours = row.ours
        cells = [f"{Path(file).stem}", ours.method, nodes_text(ours), f"{ours.seconds:.3f}", _value(ours.value)]
        if row.theirs is None:
            cells += [row.why_not, "", "", "", "—", "—"]
        else:
            theirs = row.theirs
            equal = {True: "yes", False: "NO", None: "—"}[row.agree]
            stopped = ours.status != "solved" or theirs.status != "solved"
            ratio = f"{ours.seconds / theirs.seconds:.2f}{'*' if stopped else ''}" if theirs.seconds > 0 else "—"
            cells += [theirs.method, nodes_text(theirs), f"{theirs.seconds:.3f}", _value(theirs.value), equal, ratio]
        log(f"{Path(file).name} peers search: {' | '.join(cells[1:])}")
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


def nodes_text(run: Any) -> str:
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

