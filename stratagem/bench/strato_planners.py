"""Strato: Fast Downward as a peer (``strato-planners.md``, with the ``planners`` extra).

A* with lmcut on the axiom-free PDDL export and blind A* on the default export, each with its
translate/search split, against ``auto``'s time to a certified optimum measured on the same deal in the
same run; every plan is read back into moves and replayed by the rules engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from stratagem.bench.strato_certified import certified_auto
from stratagem.bench.strato_methods import header
from stratagem.bench.tables import load_at_end, ratio, rounded, write_table
from stratagem.core.errors import number_text
from stratagem.loading import load_strato
from stratagem.models.strato.encodings.pddl import domain, plan_moves, problem
from stratagem.models.strato.rules.challenge import Challenge, Options, RowGoal, SequenceGoal
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.position import WON
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.solvers import fast_downward

#: Fast Downward configurations: (label, axiom-free export?, search). ``astar(lmcut())`` is what the
#: alias ``seq-opt-lmcut`` runs; lmcut supports neither axioms nor conditional effects, hence the variant.
PLANNER_CONFIGS = (("lmcut", True, "astar(lmcut())"), ("blind", False, "astar(blind())"))


def planner_challenges() -> tuple[Challenge, ...]:
    """Two small two-row challenges (limit 4, one row must meet ``<<`` / ``>``), the ones of the slow
    PDDL tests: rain/wind with sun/cloud, and fog/wind with sun/storm (cards change rows)."""
    goal = RowGoal(SequenceGoal("<<"), SequenceGoal(">"))
    return (Challenge("two-row RW/SC", 0, "RWSC", 2, ("RW", "SC"), 4, goal, 1, 1),
            Challenge("two-row FW/ST", 0, "FWST", 2, ("FW", "ST"), 4, goal, 1, 1))


#: Seeds of the small two-row deals in strato-planners.md (solo), optima 2-3.
PLANNER_SEEDS = (1, 3)


@dataclass
class PlannerCell:
    """One Fast Downward configuration on one deal: status, plan cost, (wall, CPU) of the translator and
    of the search, and whether the plan, read back by the rules engine, wins in ``cost`` turns."""

    status: str
    cost: int | None
    translate: tuple[float, float]
    search: tuple[float, float]
    note: str
    plan_checked: bool

    def total_cpu(self) -> float:
        return self.translate[1] + self.search[1]


@dataclass
class PlannerRow:
    """A deal: ``auto``'s certified optimum and time (solve + check, wall and CPU), and each FD run."""

    puzzle: str
    deal: str
    optimum: int | None
    certificate: str
    auto: tuple[float, float]
    planners: dict[str, PlannerCell]


def _run_planner(game: StratoGame, axiom_free: bool, search: str, time_limit: float) -> PlannerCell:
    run = fast_downward.plan(domain(game, axiom_free=axiom_free), problem(game, axiom_free=axiom_free), search,
                             time_limit)
    checked = False
    note = run.message
    if run.status == "solved":
        try:
            state = game.initial_state()
            moves = plan_moves(game, run.plan)
            for move in moves:
                state = game.apply(state, move)
            checked = state.status == WON and len(moves) == run.cost
            note = "" if checked else f"the plan does not win in {run.cost} turns"
        except ValueError as why:
            note = f"the plan breaks a rule: {why}"
    return PlannerCell(run.status, run.cost, run.translate, run.search, note, checked)


def planner_rows(deals: Sequence[tuple[str, str, StratoGame]], time_limit: float, planner_limit: float,
                 log: Callable[[str], None]) -> list[PlannerRow]:
    """``auto`` and every FD configuration on each deal, one after the other in this process. Once a
    configuration is stopped by the limit on a deal of a puzzle, it is not tried on that puzzle's later
    deals (same challenge, a task of the same size): the row says so. auto's CPU seconds include its
    child processes' (SAT runs in one)."""
    rows = []
    stopped: dict[tuple[str, str], str] = {}
    for puzzle, deal, game in deals:
        children = fast_downward.children_cpu()
        auto, kind, solved, checked, certified = certified_auto(game, time_limit)
        total = (solved[0] + checked[0], solved[1] + checked[1] + fast_downward.children_cpu() - children)
        cells = {}
        for label, axiom_free, search in PLANNER_CONFIGS:
            if (puzzle, label) in stopped:
                cells[label] = PlannerCell("skipped", None, (0.0, 0.0), (0.0, 0.0),
                                           f"not tried: stopped on {stopped[puzzle, label]}", False)
                continue
            cell = _run_planner(game, axiom_free, search, planner_limit)
            if cell.status == "unknown":
                stopped[puzzle, label] = deal
            cells[label] = cell
            log(f"{puzzle} {deal} FD {label}: {cell.status}, cost {cell.cost}, "
                f"{cell.translate[1]:.1f} + {cell.search[1]:.1f} CPU s {cell.note}")
        rows.append(PlannerRow(puzzle, deal, len(auto.moves) if certified else None, kind, total, cells))
    return rows


def _planner_deals(files: Sequence[str]) -> list[tuple[str, str, StratoGame]]:
    deals = [(Path(file).name, spec.name, load_strato(file).game(spec)) for file in files
             for spec in load_strato(file).deals]
    for challenge in planner_challenges():
        for seed in PLANNER_SEEDS:
            deals.append((challenge.name, f"seed {seed}",
                          StratoGame(challenge, Options(), seeded_deal(challenge, seed, 1))))
    return deals


def _planner_times(c: PlannerCell) -> str:
    """``translate (CPU) + search (CPU)``; a phase the limit stopped shows its wall time only (its
    processes were killed, so their CPU seconds are not known)."""
    if c.note == "stopped in translation":
        return f"{c.translate[0]:.1f} ({c.translate[1]:.1f}) + —"
    return f"{c.translate[0]:.1f} ({c.translate[1]:.1f}) + {c.search[0]:.1f} ({c.search[1]:.1f})"


def planner_table(rows: list[PlannerRow], time_limit: float, planner_limit: float) -> str:
    out = header("Strato: Fast Downward as a peer", time_limit, only="--only-planners",
                 options=f" --planner-time-limit {number_text(planner_limit)}") + [
        f"Fast Downward (the `planners` extra) had {planner_limit:g} CPU seconds per configuration per deal,",
        "translation and search together (its driver's limits count CPU time, so the machine's load slows a",
        "run without changing its outcome): `lmcut` is `astar(lmcut())` (what `seq-opt-lmcut` runs) on the",
        "axiom-free export (`stratagem export --format pddl --axiom-free`), `blind` is `astar(blind())` on the",
        "default export (derived predicates and conditional effects, which lmcut refuses). Each cell: translate",
        "s (CPU) + search s (CPU), wall clock with the CPU seconds of the planner's processes in brackets.",
        "Once a configuration is stopped on a deal of a puzzle, that puzzle's later deals are not tried.",
        "A cost is FD's optimal plan cost (its A* with an admissible heuristic; no certificate); ✓ means",
        "the plan, read back into moves by the rules engine, wins in that many turns. auto = `solve --method",
        "auto` to a certified optimum plus what `verify` does with the certificate (as strato-certified.md),",
        f"{time_limit:g} s, on the same deal in the same run; its CPU includes its child processes'. Ratio =",
        "auto's CPU seconds over FD's (translate + search), shown when both reached the optimum; above 1 FD",
        "used less CPU. The last rows are small seeded two-row deals (limit 4, goal `<<` / `>` on one row).",
        "",
        "| puzzle | deal | optimum | certificate | auto s (CPU) | lmcut: translate + search s (CPU) | cost "
        "| auto/lmcut | blind: translate + search s (CPU) | cost | auto/blind |",
        "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        cells = []
        for label, _, _ in PLANNER_CONFIGS:
            c = row.planners[label]
            if c.status == "skipped":
                cells += [c.note, "—", "—"]
                continue
            times = _planner_times(c)
            if c.status == "solved":
                cost = f"{c.cost}{' ✓' if c.plan_checked else ' ✗ ' + c.note}"
            elif c.status == "unknown":
                cost = c.note
            else:
                cost = f"{c.status}: {c.note}"[:80]
            exact = c.status == "solved" and c.plan_checked and row.optimum is not None
            cells += [times, cost, ratio(row.auto[1], c.total_cpu(), True) if exact else "—"]
        optimum = str(row.optimum) if row.optimum is not None else "—"
        out.append(f"| {row.puzzle} | {row.deal} | {optimum} | {row.certificate} "
                   f"| {row.auto[0]:.2f} ({row.auto[1]:.2f}) | " + " | ".join(cells) + " |")
    for label, _, _ in PLANNER_CONFIGS:
        solved = [r for r in rows if r.planners[label].status == "solved"]
        agree = [r for r in solved if r.planners[label].cost == r.optimum]
        out.append("")
        out.append(f"- {label}: optimal plan on {len(solved)} of {len(rows)} deals within the limit; its cost equals "
                   f"auto's certified optimum on {len(agree)} of them.")
    out += ["", f"Load average when the run ended: {load_at_end()}."]
    return "\n".join(out) + "\n"


def write_planners(folder: Path, files: Sequence[str], time_limit: float, planner_limit: float,
                   report: dict[str, Any], log: Callable[[str], None]) -> Path | None:
    """``folder/strato-planners.md``, its measurements in ``report["planners"]``; or None without the
    ``planners`` extra (the file, if any, is kept: :func:`stratagem.bench.strato.bench_strato` says so)."""
    if fast_downward.driver() is None:
        return None
    rows = planner_rows(_planner_deals(files), time_limit, planner_limit, log)
    target = folder / "strato-planners.md"
    write_table(target, planner_table(rows, time_limit, planner_limit))
    report["planners"] = [{"puzzle": r.puzzle, "deal": r.deal, "optimum": r.optimum, "certificate": r.certificate,
                           "auto": [round(x, 3) for x in r.auto],
                           **{label: rounded(asdict(c)) for label, c in r.planners.items()}} for r in rows]
    report["planner_time_limit"] = planner_limit
    return target

