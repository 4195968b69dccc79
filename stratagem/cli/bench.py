"""``stratagem bench``: measured performance tables under ``results/``.

Every table is a ratio against a baseline measured in the same run on the same machine (breadth-first
search), with the machine noted, so tables from different machines are compared by their ratios,
never by raw seconds. The tables and a plot:

- ``strato-certified.md``: time to a certified optimum per deal, ``auto`` (the relaxation bound first)
  and the time its certificate takes to check, against SAT alone in the same run (``--only-certified``
  writes just this one);
- ``strato-search.md``: BFS, A* and IDA* on every shipped deal (expansions and time, A*/BFS ratios);
- ``strato-methods.md``: every method (BFS, A*, IDA*, SAT, CP-SAT) on every shipped deal: time as a
  ratio to BFS, SAT's proof size and the time the project's checker takes to verify it;
- ``strato-checker.md``: the DRUP checker's two engines on each of those proofs, the compiled one as
  a ratio to the pure-Python reference;
- ``strato-planners.md`` (with the ``planners`` extra): Fast Downward as a peer on every shipped deal
  and a few small seeded two-row deals: A* with lmcut on the axiom-free PDDL export and blind A* on the
  default export, each with its translate/search split, against ``auto``'s time to a certified optimum
  measured on the same deal in the same run (``--only-planners`` writes just this one);
- ``strato-growth.md`` and ``strato-growth.png`` (with the ``plot`` extra): how each method's time grows
  with the optimal length, on one-row challenges whose goals ask for 1 to 5 cards per half-row; the
  plot adds every shipped deal a method solved within the time limit (optima up to 11 turns), one
  panel per method family (state-space search, SAT and CP-SAT);
- ``strato-peers.md`` (with the ``openspiel`` extra): the exact solo win probability against OpenSpiel's
  ``expectiminimax``, UCT against ``MCTSBot``, and the team's agents against ``MCTSBot`` on ``--games``
  seeded deals per player count (``--only-peers`` writes just this one).

``--json`` prints one ``stratagem/bench@1`` object (docs/formats.md section 10.7) instead of the
``wrote ...`` lines: the files written and, for Strato, every measurement behind the tables. Its timings
vary from run to run like the tables'.
"""

from __future__ import annotations

import glob
import io
import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import click

from stratagem.cli.limits import TIME_LIMIT
from stratagem.cli.output import machine
from stratagem.core.io import check_writable_dir, dumps_record, write_atomic
from stratagem.core.records import Line
from stratagem.loading import load_strato
from stratagem.models.strato.challenge import Challenge, Options, RowGoal, SequenceGoal
from stratagem.models.strato.deal import seeded_deal
from stratagem.models.strato.notation import format_move
from stratagem.models.strato.pddl import domain, plan_moves, problem
from stratagem.models.strato.position import WON, format_state
from stratagem.models.strato.rules import StratoGame
from stratagem.models.strato.solve import Solution, solve, write_proof
from stratagem.solvers import drup_compiled, fast_downward
from stratagem.solvers.drup import check_drup_data
from stratagem.solvers.satplan import Refutation
from stratagem.solvers.search import SOLVED
from stratagem.verification import verify

#: The format name of ``bench --json`` (docs/formats.md section 10.7).
BENCH_FORMAT = "stratagem/bench@1"

SEARCH_METHODS = ("bfs", "astar", "idastar")
ALL_METHODS = (*SEARCH_METHODS, "sat", "cpsat")


def run(method: str, game: StratoGame, time_limit: float) -> Solution:
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


def _ratio(part: float, whole: float, exact: bool) -> str:
    if whole <= 0:
        return "—"
    text = f"{part / whole:.3f}"
    return text if exact else f"{text}*"


Row = tuple[str, str, dict[str, Cell]]


@dataclass
class CheckerCell:
    """Both DRUP checker engines on one SAT refutation."""

    lines: int
    reference_seconds: float
    reference_finished: bool
    compiled_seconds: float | None

    @staticmethod
    def of(refutation: Refutation, time_limit: float) -> CheckerCell:
        data = "".join(f"{line}\n" for line in refutation.proof).encode()
        reference, _ = check_drup_data(refutation.clauses, data, "proof", engine="python", time_limit=time_limit)
        if not (reference.valid or reference.stopped):
            raise RuntimeError(f"the reference checker rejects SAT's refutation: {reference.reason}")
        compiled_seconds = None
        if drup_compiled.available():
            compiled, _ = check_drup_data(refutation.clauses, data, "proof", engine="compiled")
            if not compiled.valid:
                raise RuntimeError(f"the compiled checker rejects SAT's refutation: {compiled.reason}")
            compiled_seconds = compiled.seconds
        return CheckerCell(len(refutation.proof), reference.seconds, not reference.stopped, compiled_seconds)


@dataclass
class CertifiedCell:
    """One deal solved to a certified optimum: ``auto`` (the relaxation first) and SAT alone, each with
    the time its certificate takes to check, wall clock and CPU (all threads)."""

    length: int | None
    certificate: str
    solve: tuple[float, float]
    check: tuple[float, float]
    sat_length: int | None
    sat: tuple[float, float]
    sat_check: float | None

    @staticmethod
    def of(game: StratoGame, time_limit: float) -> CertifiedCell:
        auto, kind, solved, checked = certified_auto(game, time_limit)
        wall, cpu = time.perf_counter(), time.process_time()
        sat = solve(game, "sat", time_limit, label="bench", fallback=False)
        sat_time = (time.perf_counter() - wall, time.process_time() - cpu)
        return CertifiedCell(len(auto.moves) if auto.optimal else None, kind, solved, checked,
                             len(sat.moves) if sat.optimal else None, sat_time, sat.stats.get("proof_check_seconds"))


def certified_auto(game: StratoGame, time_limit: float) -> tuple[Solution, str, tuple[float, float],
                                                                   tuple[float, float]]:
    """``auto`` on a deal, then what `verify` does with its certificate: the solution, the certificate
    kind (``none`` when not optimal) and the (wall, CPU) seconds of the solve and of the check."""
    wall, cpu = time.perf_counter(), time.process_time()
    auto = solve(game, "auto", time_limit, label="bench", fallback=False)
    solved = (time.perf_counter() - wall, time.process_time() - cpu)
    wall, cpu = time.perf_counter(), time.process_time()
    kind = auto.evidence.get("kind", "none") if auto.optimal else "none"
    if kind in ("relaxation-bound", "relaxation-search"):  # `verify` itself, on the proof record
        setup = {"challenge": game.challenge.to_data(), "options": game.options.to_data()}
        line = Line("strato", setup, format_state(game.initial_state()),
                    tuple(format_move(m) for m in auto.moves), "won")
        with tempfile.TemporaryDirectory() as folder:
            record = str(Path(folder) / "proof.json")
            write_proof(record, auto, line)
            wall, cpu = time.perf_counter(), time.process_time()
            verdict = verify(record)
        if not verdict.valid:
            raise AssertionError(f"verify does not certify auto's answer: {verdict.status} {verdict.problem}")
    checked = (time.perf_counter() - wall, time.process_time() - cpu)
    if kind == "drup-refutation":
        checked = (float(auto.stats.get("proof_check_seconds", 0.0)),) * 2
    return auto, kind, solved, checked


def _certified_table(rows: list[tuple[str, str, CertifiedCell]], time_limit: float) -> str:
    out = _header("Strato: time to a certified optimum", time_limit) + [
        "`auto` starts with the table-only relaxation bound (a certificate `verify` recomputes) and its",
        "guided line search; when the bound is below the optimum, it searches lines of growing length pruned by",
        "the relaxation (certificate `relaxation-search`: `verify` repeats that search), then A*/SAT. The",
        "baseline is SAT alone (a DRUP refutation checked by the project's checker), measured on the same deal",
        "in the same run. Seconds are wall clock / CPU of this process's threads (SAT solves in a child process,",
        "whose CPU is not counted); check = `verify` on the proof record, in this process (for SAT the",
        "checker time is inside its solve time). Ratio = auto's solve + check wall time over SAT's; * marks a",
        "SAT run stopped by the limit.",
        "",
        "| puzzle | deal | optimum | certificate | auto solve s (CPU) | check s (CPU) | total s | SAT s (CPU) "
        "| SAT optimum | auto/SAT |",
        "|---|---|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for file, deal, c in rows:
        total = c.solve[0] + c.check[0]
        exact = c.sat_length is not None
        out.append(
            f"| {file} | {deal} | {c.length if c.length is not None else '—'} | {c.certificate} "
            f"| {c.solve[0]:.2f} ({c.solve[1]:.2f}) | {c.check[0]:.2f} ({c.check[1]:.2f}) | {total:.2f} "
            f"| {c.sat[0]:.2f} ({c.sat[1]:.2f}) | {c.sat_length if exact else '—'} "
            f"| {_ratio(total, c.sat[0], exact)} |")
    under = [c for _, _, c in rows if c.length is not None and c.solve[0] + c.check[0] < 10]
    out += ["", f"{len(under)} of {len(rows)} deals: a certified optimum, solve + check under 10 s wall."]
    return "\n".join(out) + "\n"


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
@click.option("--nodes", "max_nodes", type=click.IntRange(1), default=2_000_000, show_default=True,
              help="Other games: node limit of each exact search.")
@click.option("--only-certified", is_flag=True,
              help="Strato: write only strato-certified.md (time to a certified optimum, auto against SAT).")
@click.option("--only-planners", is_flag=True,
              help="Strato: write only strato-planners.md (Fast Downward against auto; needs the planners extra).")
@click.option("--planners/--no-planners", default=True, show_default=True,
              help="Strato: also measure Fast Downward against auto (strato-planners.md; needs the planners extra).")
@click.option("--only-peers", is_flag=True,
              help="Strato: write only strato-peers.md (OpenSpiel's expectiminimax and MCTSBot against ours, "
                   "--games seeded deals per player count; needs the openspiel extra).")
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
@click.option("--games", type=click.IntRange(1), default=40, show_default=True,
              help="Other games: games per agent pairing in the match table.")
@click.option("--json", "as_json", is_flag=True,
              help=f"Print one JSON object ({BENCH_FORMAT}): the files written and the measurements.")
def bench(game: str, pattern: str, time_limit: float, growth: bool, out_dir: str, max_nodes: int,
          only_certified: bool, planners: bool, only_planners: bool, only_peers: bool, peers: bool,
          only_growth: bool, planner_time_limit: float, iterations: int | None, games: int, as_json: bool) -> int:
    """Measure every method on the shipped puzzles; write results/<game>*.md.

    Strato: every method on every deal (and a growth plot). Other games: exact search with and without
    move ordering and the transposition table, MCTS speed (LP and DUCT for Stack Attack), and a match
    table.
    """
    check_writable_dir(out_dir, "--out")
    report: dict[str, Any] = {"format": BENCH_FORMAT, "game": game, "out": out_dir, "machine": machine(),
                              "written": []}

    def wrote(*paths: Path) -> None:
        report["written"] += [str(path) for path in paths]
        if not as_json:
            click.echo("wrote " + (", ".join(map(str, paths[:-1])) + " and " if len(paths) > 1 else "")
                       + str(paths[-1]))

    def finish() -> int:
        if as_json:
            click.echo(dumps_record(report), nl=False)
        return 0

    if game != "strato":
        from stratagem.cli.benchgames import bench_game

        wrote(bench_game(game, out_dir, max_nodes, iterations, games))
        return finish()
    report["time_limit"] = time_limit
    files = sorted(glob.glob(pattern))
    if not files:
        raise click.BadParameter(f"no puzzle files match {pattern!r}", param_hint="--puzzles")
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    if only_peers or (peers and not (only_planners or only_certified or only_growth)):
        from stratagem.cli.benchgames import write_strato_peers

        command = "stratagem bench strato" + (" --only-peers" if only_peers else "") + f" --games {games}"
        wrote(write_strato_peers(out_dir, games, command))
        if only_peers:
            return finish()
    if only_planners:
        table = _write_planners(folder, files, time_limit, planner_time_limit, report)
        if table is not None:
            wrote(table)
        return finish()
    if only_growth:
        wrote(*_growth(folder, time_limit, []))
        return finish()
    certified = [(Path(file).name, spec.name, CertifiedCell.of(load_strato(file).game(spec), time_limit))
                 for file in files for spec in load_strato(file).deals]
    from stratagem.cli.benchgames import kept_sections  # scripts' sections (verify_cost.py) are kept

    target = folder / "strato-certified.md"
    kept = kept_sections(target.read_text(encoding="utf-8") if target.exists() else "")
    write_atomic(target, _certified_table(certified, time_limit) + ("\n" + "\n".join(kept) if kept else ""))
    report["certified"] = [{"puzzle": file, "deal": deal, **_rounded(asdict(cell))} for file, deal, cell in certified]
    wrote(folder / "strato-certified.md")
    if only_certified:
        return finish()
    if planners:
        table = _write_planners(folder, files, time_limit, planner_time_limit, report)
        if table is not None:
            wrote(table)
    rows: list[Row] = []
    checkers: list[tuple[str, str, CheckerCell]] = []
    unmeasured: list[tuple[str, str, str]] = []
    for file in files:
        puzzle = load_strato(file)
        for spec in puzzle.deals:
            game_ = puzzle.game(spec)
            cells = {}
            for method in ALL_METHODS:
                outcome = run(method, game_, time_limit)
                cell = Cell.of(outcome)
                cells[method] = cell
                if method == "sat" and outcome.refutation is not None:
                    checkers.append((Path(file).name, spec.name, CheckerCell.of(outcome.refutation, time_limit)))
                elif method == "sat":
                    unmeasured.append((Path(file).name, spec.name, _no_refutation(outcome)))
                click.echo(f"{Path(file).name} {spec.name} {method}: {cell.status}, length {cell.length_text()}, "
                           f"{cell.seconds:.2f} s", err=True)
            rows.append((Path(file).name, spec.name, cells))
    write_atomic(folder / "strato-search.md", _search_table(rows, time_limit))
    write_atomic(folder / "strato-methods.md", _methods_table(rows, time_limit))
    if not checkers:  # nothing from the shipped deals: measure the growth challenges' refutations instead
        checkers = growth_refutations(time_limit)
    write_atomic(folder / "strato-checker.md", _checker_table(checkers, time_limit, unmeasured))
    report["methods"] = [{"puzzle": file, "deal": deal, "method": method, **_rounded(asdict(cell))}
                         for file, deal, cells in rows for method, cell in cells.items()]
    report["checker"] = [{"puzzle": file, "deal": deal, **_rounded(asdict(cell))} for file, deal, cell in checkers]
    wrote(folder / "strato-search.md", folder / "strato-methods.md", folder / "strato-checker.md")
    if growth:
        wrote(*_growth(folder, time_limit, rows))
    return finish()


# -- Fast Downward as a peer (strato-planners.md) --------------------------------------------------

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


def planner_rows(deals: Sequence[tuple[str, str, StratoGame]], time_limit: float,
                 planner_limit: float) -> list[PlannerRow]:
    """``auto`` and every FD configuration on each deal, one after the other in this process. Once a
    configuration is stopped by the limit on a deal of a puzzle, it is not tried on that puzzle's later
    deals (same challenge, a task of the same size): the row says so. auto's CPU seconds include its
    child processes' (SAT runs in one)."""
    rows = []
    stopped: dict[tuple[str, str], str] = {}
    for puzzle, deal, game in deals:
        children = fast_downward.children_cpu()
        auto, kind, solved, checked = certified_auto(game, time_limit)
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
            click.echo(f"{puzzle} {deal} FD {label}: {cell.status}, cost {cell.cost}, "
                       f"{cell.translate[1]:.1f} + {cell.search[1]:.1f} CPU s {cell.note}", err=True)
        rows.append(PlannerRow(puzzle, deal, len(auto.moves) if auto.optimal else None, kind, total, cells))
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


def _planner_table(rows: list[PlannerRow], time_limit: float, planner_limit: float) -> str:
    out = _header("Strato: Fast Downward as a peer", time_limit) + [
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
            cells += [times, cost, _ratio(row.auto[1], c.total_cpu(), True) if exact else "—"]
        optimum = str(row.optimum) if row.optimum is not None else "—"
        out.append(f"| {row.puzzle} | {row.deal} | {optimum} | {row.certificate} "
                   f"| {row.auto[0]:.2f} ({row.auto[1]:.2f}) | " + " | ".join(cells) + " |")
    for label, _, _ in PLANNER_CONFIGS:
        solved = [r for r in rows if r.planners[label].status == "solved"]
        agree = [r for r in solved if r.planners[label].cost == r.optimum]
        out.append("")
        out.append(f"- {label}: optimal plan on {len(solved)} of {len(rows)} deals within the limit; its cost equals "
                   f"auto's certified optimum on {len(agree)} of them.")
    load = f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "unknown"
    out += ["", f"Load average when the run ended: {load}."]
    return "\n".join(out) + "\n"


def _write_planners(folder: Path, files: Sequence[str], time_limit: float, planner_limit: float,
                    report: dict[str, Any]) -> Path | None:
    """strato-planners.md, or None (and one line on stderr) without the ``planners`` extra."""
    if fast_downward.driver() is None:
        click.echo("Fast Downward is not installed (pip install '.[planners]'): no strato-planners.md", err=True)
        return None
    rows = planner_rows(_planner_deals(files), time_limit, planner_limit)
    target = folder / "strato-planners.md"
    write_atomic(target, _planner_table(rows, time_limit, planner_limit))
    report["planners"] = [{"puzzle": r.puzzle, "deal": r.deal, "optimum": r.optimum, "certificate": r.certificate,
                           "auto": [round(x, 3) for x in r.auto],
                           **{label: _rounded(asdict(c)) for label, c in r.planners.items()}} for r in rows]
    report["planner_time_limit"] = planner_limit
    return target


def _rounded(fields: dict[str, Any]) -> dict[str, Any]:
    """A measurement's fields for ``--json``: seconds to the millisecond (as ``solve --json`` gives them),
    the (wall, CPU) pairs as lists."""
    def one(value: Any) -> Any:
        if isinstance(value, float):
            return round(value, 3)
        if isinstance(value, tuple):
            return [one(item) for item in value]
        return value

    return {key: one(value) for key, value in fields.items()}


def _header(title: str, time_limit: float) -> list[str]:
    return [
        f"# {title}",
        "",
        "Written by `stratagem bench strato`. Open information (every hand and the pile order known).",
        f"Machine: {machine()}. Each method had {time_limit:g} s per deal.",
        "",
    ]


def _search_table(rows: list[Row], time_limit: float) -> str:
    out = _header("Strato: optimal search on the shipped deals", time_limit) + [
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
            f"| {file} | {deal} | {_best_length(cells)} | {b.nodes} | {b.seconds:.2f} | {a.nodes} | {a.seconds:.2f} "
            f"| {i.nodes} | {i.seconds:.2f} | {_ratio(a.nodes or 0, b.nodes or 0, exact_a)} "
            f"| {_ratio(i.nodes or 0, b.nodes or 0, exact_i)} | {_ratio(a.seconds, b.seconds, exact_a)} |"
        )
    decided = [c for _, _, c in rows if all(c[m].status != "unknown" for m in SEARCH_METHODS)]
    if decided:
        total_b = sum(c["bfs"].nodes or 0 for c in decided)
        total_a = sum(c["astar"].nodes or 0 for c in decided)
        out += ["", f"Over the {len(decided)} deals all three searches decided: "
                f"A* expanded {total_a / max(1, total_b):.3f} of BFS's nodes."]
    return "\n".join(out) + "\n"


def _best_length(cells: dict[str, Cell]) -> str:
    solved = [c for c in cells.values() if c.length is not None]
    if solved:
        return str(solved[0].length)
    if any(c.status == "unsolvable" for c in cells.values()):
        return "none"
    return f"≥{max(c.lower_bound for c in cells.values())}"


def _methods_table(rows: list[Row], time_limit: float) -> str:
    out = _header("Strato: every method on the shipped deals", time_limit) + [
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
            ratios.append(_ratio(c.seconds, b.seconds, "unknown" not in (b.status, c.status)))
        sat = cells["sat"]
        lines = "—" if sat.proof_lines is None else str(sat.proof_lines)
        check = "—" if sat.check_seconds is None else f"{sat.check_seconds:.2f}"
        check_ratio = "—" if sat.check_seconds is None else _ratio(sat.check_seconds, sat.seconds, True)
        out.append(f"| {file} | {deal} | {_best_length(cells)} | {b.seconds:.2f} | " + " | ".join(ratios)
                   + f" | {lines} | {check} | {check_ratio} |")
    for method in ("astar", "idastar", "sat", "cpsat"):
        decided = [c for _, _, c in rows if "unknown" not in (c["bfs"].status, c[method].status)]
        if decided:
            total = sum(c[method].seconds for c in decided) / max(1e-9, sum(c["bfs"].seconds for c in decided))
            out.append("")
            out.append(f"- {method}: {total:.3f} of BFS's total time over the {len(decided)} deals both decided.")
    return "\n".join(out) + "\n"


def _no_refutation(outcome: Solution) -> str:
    """Why SAT's run on a deal left no refutation for the checker table, in words."""
    if outcome.status == "unknown":
        return f"SAT stopped ({outcome.stats.get('stopped_by', 'by the time limit')}) before a refutation"
    kind = outcome.evidence.get("kind", "none")
    return f"SAT ended {outcome.status} with {kind} evidence, not a DRUP refutation"


#: Seconds SAT gets on a growth challenge for the checker table, whatever ``--time-limit`` says: the
#: fallback exists for runs whose limit was too short for the shipped deals.
GROWTH_SAT_SECONDS = 30.0


def growth_refutations(time_limit: float, sizes: Sequence[int] = (2, 3, 4)) -> list[tuple[str, str, CheckerCell]]:
    """SAT's refutations on the growth challenges (k = 2 to 4 cards a side, seed 1), each decided by SAT
    in about a second: real proofs for the checker table when the shipped deals gave none."""
    found = []
    for k in sizes:
        game = StratoGame(growth_challenge(k), Options(), seeded_deal(growth_challenge(k), 1, 1))
        outcome = run("sat", game, max(time_limit, GROWTH_SAT_SECONDS))
        if outcome.refutation is not None:
            found.append((f"growth-{k}", "seed 1", CheckerCell.of(outcome.refutation, time_limit)))
    return found


def _checker_table(rows: list[tuple[str, str, CheckerCell]], time_limit: float,
                   unmeasured: Sequence[tuple[str, str, str]] = ()) -> str:
    out = _header("Strato: the DRUP checker's engines on SAT's refutations", time_limit) + [
        "Each proof is CaDiCaL's refutation of one turn less than the optimum (as in strato-methods.md),",
        "checked by the pure-Python reference (stopped at the time limit) and by the compiled engine",
        "(built at install, never stopped), one after the other in the same run. Ratio = reference time /",
        "compiled time; * marks a ratio where the reference was stopped, which makes it a lower bound.",
        "",
        "| puzzle | deal | proof lines | reference s | compiled s | reference/compiled |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for file, deal, c in rows:
        if c.compiled_seconds is None:
            compiled, ratio = "not built", "—"
        else:
            compiled = f"{c.compiled_seconds:.2f}"
            ratio = _ratio(c.reference_seconds, c.compiled_seconds, c.reference_finished)
        reference = f"{c.reference_seconds:.2f}" + ("" if c.reference_finished else " (stopped)")
        out.append(f"| {file} | {deal} | {c.lines} | {reference} | {compiled} | {ratio} |")
    if rows and all(file.startswith("growth-") for file, _, _ in rows):
        out += ["", "No shipped deal gave SAT a refutation in this run (reasons below), so the rows are SAT's",
                "refutations on the growth challenges of strato-growth.md (k cards a side, seed 1, solo)."]
    elif not rows:
        out += ["", "No refutation was measured: SAT gave none on the shipped deals or the growth challenges."]
    if unmeasured:
        out += ["", "Deals without a refutation to check:", ""]
        out += [f"- {file} {deal}: {why}" for file, deal, why in unmeasured]
    return "\n".join(out) + "\n"


GROWTH_SEEDS = (1, 2, 3)

#: The growth plot's panels: methods that search the state space, and those that encode it for a solver.
METHOD_FAMILIES = (("state-space search", SEARCH_METHODS), ("SAT and CP-SAT", ("sat", "cpsat")))


def growth_challenge(k: int) -> Challenge:
    """One row, rain and wind, ``k`` rain beside the rain tornado and ``k`` wind beside the wind tornado, limit 6."""
    return Challenge(f"growth-{k}", 0, "RW", 1, ("RW",), 6,
                     RowGoal(SequenceGoal("R" * k), SequenceGoal("W" * k)), 1, 1)


def _growth(folder: Path, time_limit: float, shipped: list[Row]) -> list[Path]:
    """The growth table, and a plot of every solved (method, length, seconds): the growth challenges'
    as dots, the shipped deals' (measured above, in the same run) as crosses. Returns the files written."""
    points: list[tuple[str, int, float]] = []
    table = _header("Strato: time against optimal length", time_limit) + [
        "One-row rain/wind challenges asking for k = 1..5 cards of the tornado's weather on each side",
        "(limit 6; k = 4 is challenge 0), seeds 1-3 solo. Time in seconds per method; ratio to BFS in brackets",
        "(left out when BFS took under 0.01 s).",
        "",
        "| k | seed | optimal length | BFS s | A* s | IDA* s | SAT s | CP-SAT s |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for k in range(1, 6):
        challenge = growth_challenge(k)
        for seed in GROWTH_SEEDS:
            game = StratoGame(challenge, Options(), seeded_deal(challenge, seed, 1))
            cells = {m: Cell.of(run(m, game, time_limit)) for m in ALL_METHODS}
            length = _best_length(cells)
            base = cells["bfs"].seconds
            shown = []
            for method in ALL_METHODS:
                c = cells[method]
                mark = "" if c.status != "unknown" else " (stopped)"
                ratio = f" [{c.seconds / base:.2f}]" if base >= 0.01 else ""
                shown.append(f"{c.seconds:.2f}{ratio}{mark}")
                if c.length is not None:
                    points.append((method, c.length, c.seconds))
            table.append(f"| {k} | {seed} | {length} | " + " | ".join(shown) + " |")
            click.echo(f"growth k={k} seed={seed}: length {length}", err=True)
    write_atomic(folder / "strato-growth.md", "\n".join(table) + "\n")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        click.echo("matplotlib is not installed (pip install '.[plot]'): no strato-growth.png", err=True)
        return [folder / "strato-growth.md"]
    deals = [(m, c.length, c.seconds) for _, _, cells in shipped for m, c in cells.items() if c.length is not None]
    figure, panels = plt.subplots(1, len(METHOD_FAMILIES), figsize=(9, 4.2), sharex=True, sharey=True)
    colours = dict(zip(ALL_METHODS, plt.rcParams["axes.prop_cycle"].by_key()["color"], strict=False))
    for axes, (family, methods) in zip(panels, METHOD_FAMILIES, strict=True):
        for method in methods:
            xs = [length for m, length, _ in points if m == method]
            ys = [seconds for m, _, seconds in points if m == method]
            axes.plot(xs, ys, "o", color=colours[method], label=f"{method}, growth challenges", alpha=0.7)
            xs = [length for m, length, _ in deals if m == method]
            ys = [seconds for m, _, seconds in deals if m == method]
            if xs:
                axes.plot(xs, ys, "x", color=colours[method], label=f"{method}, shipped deals", alpha=0.9)
        axes.set_yscale("log")
        axes.set_xlabel("optimal length (turns)")
        axes.set_title(family)
        axes.grid(True, which="major", alpha=0.3)
        # Below the panel, never over the points.
        axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize="small", frameon=False)
    panels[0].set_ylabel("seconds to a proven optimum (log scale)")
    figure.suptitle("Strato: time to a proven optimum against optimal length")
    figure.tight_layout()
    target = folder / "strato-growth.png"
    image = io.BytesIO()
    figure.savefig(image, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    write_atomic(target, image.getvalue())
    plt.close(figure)
    return [folder / "strato-growth.md", target]
