"""Strato: every solving method on every shipped deal (``strato-search.md`` and ``strato-methods.md``).

BFS, A* and IDA* (expansions and time, A*/BFS ratios), and every method with SAT and CP-SAT (time as a
ratio to BFS's on the same deal in the same run, SAT's proof size and the project's checker's time on
it). Also the cell and the header the other Strato tables share.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stratagem.bench.tables import machine, ratio
from stratagem.core.errors import number_text
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.solve import Solution, solve
from stratagem.solvers.search import SOLVED

SEARCH_METHODS = ("bfs", "astar", "idastar")
ALL_METHODS = (*SEARCH_METHODS, "sat", "cpsat")


def run(method: str, game: StratoGame, time_limit: float) -> Solution:
    """``method`` on one deal, as ``solve --method METHOD`` runs it (with its fallback)."""
    return solve(game, method, time_limit, label="bench")


@dataclass
class Cell:
    """One method on one deal."""

    status: str
    length: int | None
    lower_bound: int
    seconds: float
    nodes: int | None
    proof_lines: int | None
    check_seconds: float | None

    @staticmethod
    def of(outcome: Solution) -> Cell:
        evidence = outcome.evidence
        return Cell(
            outcome.status,
            len(outcome.moves) if outcome.status == SOLVED else None,
            outcome.lower_bound,
            float(outcome.stats["seconds"]),
            outcome.stats.get("nodes"),
            evidence.get("proof_lines") if evidence.get("kind") == "drup-refutation" else None,
            outcome.stats.get("proof_check_seconds"),
        )

    def length_text(self) -> str:
        if self.length is not None:
            return str(self.length)
        return "none" if self.status == "unsolvable" else f"≥{self.lower_bound}"


#: A deal's row: puzzle file, deal name, each method's cell.
Row = tuple[str, str, dict[str, Cell]]


def header(title: str, time_limit: float, missing: Sequence[str] = (), *, only: str = "",
           options: str = "") -> list[str]:
    """The opening lines of a Strato table: its title, the command that wrote it with the options its
    figures depend on (``--time-limit`` always, whatever the default, then ``options``; ``only``: the
    ``--only-...`` option that writes this table alone), the information assumed, the machine, the limit,
    what the seconds are, and the peers ``missing`` from the run (whose tables it did not rewrite)."""
    alone = f" (`{only}` writes this table alone)" if only else ""
    lines = [
        f"# {title}",
        "",
        f"Written by `stratagem bench strato --time-limit {number_text(time_limit)}{options}`{alone}. Open "
        "information (every hand and the pile order known).",
        f"Machine: {machine()}. Each method had {time_limit:g} s per deal. Seconds are wall-clock seconds,",
        "one run (`time.perf_counter`), unless a column says CPU.",
        "",
    ]
    if missing:
        lines += [f"Peers missing in this run: {'; '.join(missing)}.", ""]
    return lines


def search_table(rows: list[Row], time_limit: float, missing: Sequence[str] = ()) -> str:
    out = header("Strato: optimal search on the shipped deals", time_limit, missing) + [
        "Nodes are expansions. Ratios are A* (or IDA*) against BFS on the same deal in the same run;",
        "a ratio marked * compares a search that was stopped by the time limit (so it is a bound, not a",
        "measurement of the whole search). Length ≥k: stopped, no line shorter than k proven.",
        "",
        "| puzzle | deal | length | BFS nodes | BFS s | A* nodes | A* s | IDA* nodes | IDA* s "
        "| A*/BFS nodes | IDA*/BFS nodes | A*/BFS time |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for file, deal, cells in rows:
        b, a, i = cells["bfs"], cells["astar"], cells["idastar"]
        exact_a = "unknown" not in (b.status, a.status)
        exact_i = "unknown" not in (b.status, i.status)
        out.append(
            f"| {file} | {deal} | {best_length(cells)} | {b.nodes} | {b.seconds:.2f} | {a.nodes} | {a.seconds:.2f} "
            f"| {i.nodes} | {i.seconds:.2f} | {ratio(a.nodes or 0, b.nodes or 0, exact_a)} "
            f"| {ratio(i.nodes or 0, b.nodes or 0, exact_i)} | {ratio(a.seconds, b.seconds, exact_a)} |"
        )
    decided = [c for _, _, c in rows if all(c[m].status != "unknown" for m in SEARCH_METHODS)]
    if decided:
        total_b = sum(c["bfs"].nodes or 0 for c in decided)
        total_a = sum(c["astar"].nodes or 0 for c in decided)
        out += ["", f"Over the {len(decided)} deals all three searches decided: "
                f"A* expanded {total_a / max(1, total_b):.3f} of BFS's nodes."]
    return "\n".join(out) + "\n"


def best_length(cells: dict[str, Cell]) -> str:
    solved = [c for c in cells.values() if c.length is not None]
    if solved:
        return str(solved[0].length)
    if any(c.status == "unsolvable" for c in cells.values()):
        return "none"
    return f"≥{max(c.lower_bound for c in cells.values())}"


def methods_table(rows: list[Row], time_limit: float, missing: Sequence[str] = ()) -> str:
    out = header("Strato: every method on the shipped deals", time_limit, missing) + [
        "Time of each method as a ratio to BFS's time on the same deal in the same run (lower is faster);",
        "* marks a ratio where either side was stopped by the time limit. SAT's proof is CaDiCaL's DRUP",
        "refutation of one turn less than the optimum; 'check s' is the project's checker on it.",
        "",
        "| puzzle | deal | length | BFS s | A*/BFS | IDA*/BFS | SAT/BFS | CP-SAT/BFS | SAT proof lines | check s "
        "| check/SAT |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for file, deal, cells in rows:
        b = cells["bfs"]
        ratios = []
        for method in ("astar", "idastar", "sat", "cpsat"):
            c = cells[method]
            ratios.append(ratio(c.seconds, b.seconds, "unknown" not in (b.status, c.status)))
        sat = cells["sat"]
        lines = "—" if sat.proof_lines is None else str(sat.proof_lines)
        check = "—" if sat.check_seconds is None else f"{sat.check_seconds:.2f}"
        check_ratio = "—" if sat.check_seconds is None else ratio(sat.check_seconds, sat.seconds, True)
        out.append(f"| {file} | {deal} | {best_length(cells)} | {b.seconds:.2f} | " + " | ".join(ratios)
                   + f" | {lines} | {check} | {check_ratio} |")
    for method in ("astar", "idastar", "sat", "cpsat"):
        decided = [c for _, _, c in rows if "unknown" not in (c["bfs"].status, c[method].status)]
        if decided:
            total = sum(c[method].seconds for c in decided) / max(1e-9, sum(c["bfs"].seconds for c in decided))
            out.append("")
            out.append(f"- {method}: {total:.3f} of BFS's total time over the {len(decided)} deals both decided.")
    return "\n".join(out) + "\n"

