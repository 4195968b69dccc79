"""Measure how much the exact searches search beyond their proof, on every shipped endgame.

For each two- or more-player position under ``puzzles/{cardclash,stakd,stratatak}/`` this runs what
``stratagem analyze`` runs -- the root's search (alphabeta, expecti where chance remains, paranoid for
three players), then the ranking of every root move -- and the proof tree ``--proof`` writes, and
reports:

- ``searched``: nodes of the root's search alone; ``proof``: nodes of the proof tree (a DAG of
  distinct positions); ``searched/proof``, the search's overhead over the certificate (ideal <= 3);
- ``ranking``: nodes of the ranking searches as ``analyze`` runs them now (sharing the root's table,
  the root's solved best move not searched again) and as before (each move searched, each search with
  its own table), and ``ranking/proof``;
- CPU seconds of the root's search and of each ranking.

The proof is of the value alone ("player 1 at least 1"); the search also establishes the distance to
the result (the fastest win, the slowest loss), which the proof does not certify, so on positions where
other moves must be shown not to win sooner the search has to do more than the proof shows.

For every position it also measures what the reasons for a ratio above 3 would be:

- ``value only``: nodes of a negamax that establishes the value alone (win/loss/draw, no distance) with
  the same move ordering (the game's) and a table, for the two-player searches without chance
  (:func:`value_only`); when that is within 3 of the proof, the distance is what costs;
- ``distinct``: how many distinct positions the root's search looked at, terminal ones included as the
  proof's are (it may visit one several times, with other windows or after its table entry was
  replaced); this says whether the search needs more positions than the proof or the same positions
  more often;
- ``compiled``: nodes of the compiled search (``analyze``'s search where the game has a compiled
  engine: alpha-beta, expecti or paranoid), whose move ordering is the engine's hint where it has one
  or the game hands over (Stratatak's order of attacks; Card Clash's guide), the table's move, killers and the
  history heuristic.

    python scripts/search_efficiency.py --out results/search-efficiency.md
    python scripts/search_efficiency.py square-in-5 long-odds      # only positions whose file names match
"""

from __future__ import annotations

import argparse
import glob
import os
import platform
import time
from pathlib import Path
from typing import Any

from stratagem.analysis.methods import resolve_method
from stratagem.loading import load_position
from stratagem.solvers.alphabeta import alphabeta, return_bounds
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.multiplayer import paranoid
from stratagem.solvers.prooftree import build_proof_tree
from stratagem.solvers.ranking import MoveValue, rank_moves
from stratagem.solvers.transposition import TranspositionTable

GAMES = ("cardclash", "stakd", "stratatak")
SEARCHES = {"alphabeta": alphabeta, "expecti": expectiminimax, "paranoid": paranoid}


def positions(only: list[str]) -> list[str]:
    """The shipped endgames of the searched games (solo STAKD puzzles left out), filtered by ``only``."""
    files = [f for game in GAMES for f in sorted(glob.glob(f"puzzles/{game}/*.toml"))]
    files = [f for f in files if load_position(f).game.num_players > 1]
    return [f for f in files if not only or any(o in f for o in only)]


def cpu() -> float:
    return time.process_time()


def measure(file: str) -> dict[str, Any]:
    """One position: the root's search, the ranking with and without the shared table, the proof."""
    loaded = load_position(file)
    game, state = loaded.game, loaded.state
    method = resolve_method(loaded)
    search = SEARCHES[method]
    try:
        return _measure(game, state, method, search)
    except Exception as exc:  # alphabeta met a chance node: analyze goes on with expecti
        if method != "alphabeta" or "chance" not in str(exc):
            raise
        return _measure(game, state, "expecti", expectiminimax)


class Counting:
    """The game as the searches see it, noting every position it looks at (asks whether it is terminal)."""

    def __init__(self, game: Any) -> None:
        self._game = game
        self.expanded: set[Any] = set()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def is_terminal(self, state: Any) -> bool:
        self.expanded.add(state)
        return bool(self._game.is_terminal(state))


def value_only(game: Any, state: Any, high: Any) -> int | None:
    """Nodes of a negamax establishing the value of a two-player position without chance and without its
    distance: the game's move ordering, a table of exact values and bounds, a move reaching ``high`` ends
    its node. None where a chance node is met."""
    table: dict[Any, tuple[int, Any]] = {}
    nodes = 0
    exact, lower, upper = 0, 1, 2

    def search(s: Any, alpha: Any, beta: Any) -> Any:
        nonlocal nodes
        nodes += 1
        me = game.to_move(s)
        if game.is_terminal(s):
            raise AssertionError("terminal positions are scored by their parent")
        if me < 0:
            raise LookupError("chance")
        entry = table.get(s)
        if entry is not None:
            flag, v = entry
            if flag == exact or (flag == lower and v >= beta) or (flag == upper and v <= alpha):
                return v
        moves = list(game.legal_moves(s))
        if hasattr(game, "order_moves") and len(moves) > 1:
            moves = list(game.order_moves(s, moves))
        best, a = None, alpha
        for move in moves:
            child = game.apply(s, move)
            if game.is_terminal(child):
                nodes += 1
                v = game.returns(child)[me]
            elif game.to_move(child) == me:
                v = search(child, a, beta)
            else:
                v = -search(child, -beta, -a)
            if best is None or v > best:
                best = v
                a = max(a, v)
                if a >= beta or v >= high:
                    break
        assert best is not None
        table[s] = (exact if alpha < best < beta or best >= high else lower if best >= beta else upper, best)
        return best

    try:
        search(state, -float("inf"), float("inf"))
    except LookupError:
        return None
    return nodes


def compiled_nodes(game: Any, state: Any, method: str, low: Any, high: Any) -> tuple[int | None, bool]:
    """Nodes of the compiled search ``analyze`` runs for ``method`` on the game's compiled engine (None: no
    engine), and whether it had the game's move ordering in C (:func:`~stratagem.core.packed_order.order_for`:
    the engine's ``move_order`` or the game's compiled guide)."""
    from stratagem.core.errors import StratagemError
    from stratagem.core.packed_order import order_for
    from stratagem.engines import resolve
    from stratagem.solvers.compiled_alphabeta import alphabeta_compiled
    from stratagem.solvers.compiled_expectimax import expectiminimax_compiled, paranoid_compiled

    engine = resolve(game, "compiled").engine
    if engine is None:
        return None, False
    search = {"alphabeta": alphabeta_compiled, "expecti": expectiminimax_compiled,
              "paranoid": paranoid_compiled}[method]
    try:
        return search(game, engine, state, lo=low, hi=high).nodes, order_for(game, engine) is not None
    except StratagemError:
        return None, False


def _measure(game: Any, state: Any, method: str, search: Any) -> dict[str, Any]:
    low, high = return_bounds(game)
    table = TranspositionTable()
    counting = Counting(game)
    started = cpu()
    result = search(counting, state, lo=low, hi=high, tt=table)
    root_seconds = cpu() - started
    known = {}
    if result.solved and result.best_move is not None:
        known[result.best_move] = MoveValue(result.best_move, result.value, result.distance, result.status,
                                            result.assumption)
    started = cpu()
    shared = rank_moves(game, state, search, known=known, lo=low, hi=high, tt=table)
    shared_seconds = cpu() - started
    started = cpu()
    alone = rank_moves(game, state, search, lo=low, hi=high)
    alone_seconds = cpu() - started
    # Each move's value and distance must agree; moves tied on both may be listed in another order (the
    # shared table's ranking lists the root search's best move first among its equals).
    if {m.move: (m.value, m.distance) for m in shared} != {m.move: (m.value, m.distance) for m in alone}:
        raise AssertionError(f"{game.name}: the ranking with the shared table differs from the one without")
    mover = game.to_move(state)
    proof = build_proof_tree(game, state, player=mover, lo=low, hi=high)
    compiled, hinted = compiled_nodes(game, state, method, low, high)
    return {
        "value only": value_only(game, state, high) if method == "alphabeta" else None,
        "distinct": len(counting.expanded),
        "compiled": compiled,
        "hinted": hinted,
        "method": method,
        "value": result.value,
        "distance": result.distance,
        "searched": result.nodes,
        "proof": len(proof["nodes"]),
        "root_seconds": root_seconds,
        "shared": sum(m.nodes for m in shared),
        "shared_seconds": shared_seconds,
        "alone": sum(m.nodes for m in alone),
        "alone_seconds": alone_seconds,
    }


def _cell(n: int | None, proof: int) -> str:
    return "—" if n is None else f"{n:,} ({n / proof:.2f})"


def reasons(rows: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """For each position above 3, the measured counts that say where the search's extra nodes go."""
    lines = [
        "| position | searched/proof | value only (/proof) | distinct positions looked at (/proof) | "
        "compiled nodes (/proof) | measured reason |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for name, r in rows:
        proof = r["proof"]
        ratio = r["searched"] / proof
        if ratio <= 3:
            continue
        only, distinct = r["value only"], r["distinct"]
        if only is not None and only / proof <= 3:
            why = "the distance: the value alone needs a search within 3 of the proof"
        elif only is not None:
            why = ("the ordering: even the value alone needs more than 3 times the proof (the refutations are "
                   "not the first moves tried)")
        elif distinct / proof <= 3:
            why = ("re-searches: the distinct positions looked at are within 3 of the proof; the search visits "
                   "them again (other windows, or after their table entries were replaced)")
        else:
            why = (f"more positions than the proof: the search looks at {distinct / proof:.2f} times the proof's "
                   f"positions ({r['searched'] / distinct:.2f} visits each): moves it tried and refuted, which the "
                   f"proof leaves out ({r['method']} has no distance to pay for)")
        lines.append(f"| {name} | {ratio:.2f} | {_cell(only, proof)} | {_cell(distinct, proof)} | "
                     f"{_cell(r['compiled'], proof)} | {why} |")
    lines += [
        "",
        "The compiled searches (what `analyze` runs by default where the game has a compiled engine: alpha-beta,",
        "expecti where chance lies below the root, paranoid for three players) above 3:",
        "",
        "| position | compiled searched (/proof) | reference searched (/proof) | measured reason |",
        "|---|---:|---:|---|",
    ]
    for name, r in rows:
        proof, compiled = r["proof"], r["compiled"]
        if compiled is None or compiled / proof <= 3:
            continue
        if compiled <= r["searched"]:
            why = "no more than the reference search: its reasons (above) hold"
        elif r["hinted"]:
            why = (f"with the game's ordering in C (the engine's `move_order` or the game's compiled guide), "
                   f"the table's move, history (alpha-beta: killers) it visits {compiled / r['searched']:.1f} "
                   "times the reference search's nodes (another order of the same moves; the reasons above hold)")
        else:
            why = ("no ordering of the game's in C for this engine (the table's move and history; alpha-beta also "
                   "killers): the same search with the game's `order_moves` (the reference column) visits "
                   f"{compiled / r['searched']:.1f} times fewer nodes")
        lines.append(f"| {name} | {_cell(compiled, proof)} | {_cell(r['searched'], proof)} | {why} |")
    return lines


def table(rows: list[tuple[str, dict[str, Any]]]) -> list[str]:
    lines = [
        "| position | method | value | plies | searched | proof | searched/proof | compiled searched (/proof) "
        "| ranking nodes (now) | ranking/proof | ranking nodes (before) | root s | ranking s (now / before) |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, r in rows:
        value = r["value"]
        lines.append(
            f"| {name} | {r['method']} | {value} | {r['distance'] if r['distance'] is not None else '—'} "
            f"| {r['searched']:,} | {r['proof']:,} | {r['searched'] / r['proof']:.2f} "
            f"| {_cell(r['compiled'], r['proof'])} | {r['shared']:,} "
            f"| {r['shared'] / r['proof']:.1f} | {r['alone']:,} | {r['root_seconds']:.3f} "
            f"| {r['shared_seconds']:.3f} / {r['alone_seconds']:.3f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("only", nargs="*", help="only positions whose file names contain one of these")
    parser.add_argument("--out", help="write the table as Markdown to this file")
    args = parser.parse_args()
    rows = []
    for file in positions(args.only):
        r = measure(file)
        name = f"{Path(file).parent.name}/{Path(file).stem}"
        rows.append((name, r))
        print(f"{name}: searched {r['searched']:,}, proof {r['proof']:,}, ratio {r['searched'] / r['proof']:.2f}, "
              f"ranking {r['shared']:,} now / {r['alone']:,} before", flush=True)
    load = f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "not measured on this system"  # Windows
    header = [
        "# Search efficiency: nodes searched against the proof",
        "",
        f"Written by `python scripts/search_efficiency.py --out results/search-efficiency.md` on "
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {load} when it finished. Nodes are deterministic; CPU seconds vary with the machine.",
        "",
    ]
    text = "\n".join(header + table(rows) + ["", "## Where the nodes above 3 go (measured)", ""] + reasons(rows)) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8", newline="\n")


if __name__ == "__main__":
    main()
