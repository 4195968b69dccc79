"""Strato's "Peers: OpenSpiel" benchmark (``results/strato-peers.md``, with the ``openspiel`` extra).

The exact solo win probability against OpenSpiel's ``expectiminimax``, UCT against ``MCTSBot``, and the
team's agents against ``MCTSBot`` on the same seeded deals per player count; the measurements
themselves are :mod:`stratagem.openspiel.peers`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from stratagem.bench.peers import PEER_SIMULATIONS, nodes_text, peers_module
from stratagem.bench.tables import CHECKOUT, machine, shipped, write_table

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
    peers = peers_module(lines, log)
    if peers is None:
        return lines
    from importlib.metadata import version

    lines += [
        f"OpenSpiel {version('open_spiel')}, its Python algorithms on `stratagem_strato` (the game at the table:",
        "the pile face down, every draw a chance node; `stratagem.openspiel`), measured in this run on the",
        f"same states, challenge `{_shown(puzzle)}`. Times are CPU seconds of this process (the machine is shared:",
        "compare ratios, not seconds).",
        "",
    ]
    lines += _strato_exact_table(peers, puzzle, positions, max_nodes, log)
    lines += _strato_speed_table(peers, puzzle, simulations, log)
    for count in players:
        lines += _strato_match_table(peers, puzzle, count, games, seconds, log)
    return lines


def _shown(puzzle: str) -> str:
    """A shipped puzzle's path as the tables name it (relative to the checkout, wherever the run was)."""
    path = Path(puzzle)
    return str(path.relative_to(CHECKOUT)) if path.is_absolute() and path.is_relative_to(CHECKOUT) else puzzle


def _strato_exact_table(peers: Any, puzzle: str, positions: tuple[str, ...], max_nodes: int,
                        log: Callable[[str], None]) -> list[str]:
    lines = [
        "### Exact solo win probability: our MDP search against `expectiminimax`",
        "",
        "Solo, the pile's order hidden: the player sees the table, the hand and which cards are left, so the",
        "game is a Markov decision process and its value the optimal win probability. Ours:",
        "`solvers/mdp.optimal_value` (exact fractions, a state met again is looked up, Star1 windows at chance",
        "nodes), once as `stratagem odds` ran it until stop 71 (moves ordered by the admissible turn bound, states",
        "that cannot be won cut: *ours*) and once without that Strato knowledge (*plain*); and the compiled",
        "search `stratagem odds` runs since (the kernel's exact value of the start, `hidden/exact.Solver`:",
        "*compiled*, its states those it kept). OpenSpiel's:",
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
        "| compiled states | compiled CPU s | expectiminimax states | expectiminimax CPU s | values equal "
        "| CPU expectiminimax / plain | CPU expectiminimax / compiled |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|",
    ]
    for position in positions:
        row = peers.strato_exact_peer(puzzle, position, max_nodes)
        equal = {True: "yes", False: "NO", None: "—"}[row.agree]
        theirs = row.theirs
        ratio, compiled_ratio = (
            f"{'>' if theirs.status != 'solved' else ''}{theirs.seconds / run.seconds:.1f}"
            if run.seconds > 0 and run.status == "solved" else "—" for run in (row.plain, row.compiled))
        value = "—" if row.exact is None else f"{row.exact} ({float(row.exact):.4f})"
        log(f"strato {position}: {value}, ours {row.ours.nodes} / plain {row.plain.nodes} / "
            f"expectiminimax {nodes_text(theirs)} states")
        lines.append(f"| `{position}` | {value} | {nodes_text(row.ours)} | {row.ours.seconds:.3f} "
                     f"| {nodes_text(row.plain)} | {row.plain.seconds:.3f} | {nodes_text(row.compiled)} "
                     f"| {row.compiled.seconds:.4f} | {nodes_text(theirs)} | {theirs.seconds:.3f} | {equal} | {ratio} "
                     f"| {compiled_ratio} |")
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


def _deals(games: int) -> str:
    """``N seeded deals (seeds 0-K)``, or the one deal (seed 0)."""
    return "1 seeded deal (seed 0)" if games == 1 else f"{games} seeded deals (seeds 0-{games - 1})"


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
        f"Each agent plays the same {_deals(games)}, every seat, every draw from the",
        "deal's real pile in its order (`stratagem play strato`'s duplicate deals). Strato is cooperative: an",
        "agent's score is the share of deals its team wins (95% Wilson interval). `ismcts` (ours, SO-ISMCTS",
        "from the player's observation), `mcts` (our UCT over the hidden-pile state) and `MCTSBot` (over the",
        f"same state through the adapter) get the simulations per decision that take {seconds:g} CPU s: a trial",
        "search, then two uncounted deals measure what each really spends, and the count is fixed (seeded; the",
        "simulations per decision follow the clock, so results may differ slightly between runs); all three use",
        "random playouts to the end. `greedy` (the admissible turn bound) and",
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


def openspiel_missing() -> str | None:
    """Why OpenSpiel's peers cannot be measured here (the ``openspiel`` extra's import error), or None."""
    try:
        from stratagem.openspiel import peers  # noqa: F401
    except ImportError as exc:
        return str(exc)
    return None


def write_strato_peers(out_dir: str, games: int, command: str, log: Callable[[str], None]) -> Path | None:
    """``<out_dir>/strato-peers.md`` (``bench strato``): a header naming ``command`` and
    :func:`strato_peers_section` with ``games`` seeded deals per player count; progress goes to ``log``.
    Without OpenSpiel nothing is written (None): a stub saying "skipped" would replace the measurements
    of an earlier run, which are kept as they are."""
    if openspiel_missing() is not None:
        return None
    lines = [
        "# strato: peers benchmark",
        "",
        f"Written by `{command}`.",
        f"Machine: {machine()}.",
        "",
    ]
    lines += strato_peers_section(games, log, puzzle=shipped(STRATO_PEER_PUZZLE))
    lines += [f"Load average when the run ended: {os.getloadavg()[0]:.1f}." if hasattr(os, "getloadavg") else "", ""]
    target = Path(out_dir) / "strato-peers.md"
    write_table(target, "\n".join(lines))
    return target
