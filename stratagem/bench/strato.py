"""``bench strato``: every Strato table under ``results/``, in the order a full run writes them.

- ``strato-peers.md`` (:mod:`.strato_peers`, with the ``openspiel`` extra);
- ``strato-certified.md`` (:mod:`.strato_certified`): time to a certified optimum, ``auto`` against SAT;
- ``strato-planners.md`` (:mod:`.strato_planners`, with the ``planners`` extra): Fast Downward as a peer;
- ``strato-search.md`` and ``strato-methods.md`` (:mod:`.strato_methods`): every method on every deal;
- ``strato-checker.md`` (:mod:`.strato_checker`): the DRUP checker's engines on SAT's refutations;
- ``strato-growth.md``/``.png`` (:mod:`.strato_growth`): time against optimal length.

Every table is a ratio against a baseline measured in the same run on the same machine, with the
machine noted, so tables from different machines are compared by their ratios, never by raw seconds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from stratagem.bench.strato_certified import write_certified
from stratagem.bench.strato_checker import CheckerCell, measure_checker, no_refutation, write_checker
from stratagem.bench.strato_growth import write_growth
from stratagem.bench.strato_methods import ALL_METHODS, Cell, Row, methods_table, run, search_table
from stratagem.bench.strato_peers import openspiel_missing, write_strato_peers
from stratagem.bench.strato_planners import write_planners
from stratagem.bench.tables import rounded, write_table
from stratagem.loading import load_strato


@dataclass(frozen=True)
class StratoBench:
    """What one ``bench strato`` run measures: the puzzle files whose deals it measures, where it writes,
    each method's seconds per deal, which tables (``only_*`` writes just that one), Fast Downward's CPU
    seconds per configuration per deal, and the seeded deals per player count of the peers' match."""

    files: Sequence[str]
    out_dir: str
    time_limit: float = 10.0
    growth: bool = True
    planners: bool = True
    peers: bool = True
    only_certified: bool = False
    only_planners: bool = False
    only_peers: bool = False
    only_growth: bool = False
    only_checker: bool = False
    planner_time_limit: float = 60.0
    games: int = 40


def bench_strato(bench: StratoBench, report: dict[str, Any], wrote: Callable[..., None],
                 log: Callable[[str], None], warn: Callable[[str], None] | None = None) -> None:
    """Measure and write the tables ``bench`` asks for. Each file set is passed to ``wrote`` as soon as
    it is written, progress lines go to ``log``, and the measurements behind the tables to ``report``
    (``bench --json``). A peer the run would measure but cannot (OpenSpiel or Fast Downward not
    installed) leaves its table as it was, which ``warn`` says (default: ``log``), and every table the
    run writes names it (``report["missing"]``). The folder is made when the first table is written."""
    warn = warn or log
    report["time_limit"] = bench.time_limit
    files, time_limit = bench.files, bench.time_limit
    folder = Path(bench.out_dir)
    for file in files:  # every puzzle read before anything is written: a bad one leaves nothing behind
        load_strato(file)
    missing = _missing_peers(bench, folder, warn)
    if missing:
        report["missing"] = missing
    if bench.only_checker:
        wrote(measure_checker(folder, files, time_limit, report, log))
        return
    if bench.only_peers or (bench.peers and not (bench.only_planners or bench.only_certified or bench.only_growth)):
        command = "stratagem bench strato" + (" --only-peers" if bench.only_peers else "") + f" --count {bench.games}"
        table = write_strato_peers(bench.out_dir, bench.games, command, log)
        if table is not None:
            wrote(table)
        if bench.only_peers:
            return
    if bench.only_planners:
        table = write_planners(folder, files, time_limit, bench.planner_time_limit, report, log)
        if table is not None:
            wrote(table)
        return
    if bench.only_growth:
        wrote(*write_growth(folder, time_limit, [], log))
        return
    wrote(write_certified(folder, files, time_limit, report, missing))
    if bench.only_certified:
        return
    if bench.planners:
        table = write_planners(folder, files, time_limit, bench.planner_time_limit, report, log)
        if table is not None:
            wrote(table)
    rows = _measure_methods(folder, files, time_limit, report, log, missing)
    wrote(folder / "strato-search.md", folder / "strato-methods.md", folder / "strato-checker.md")
    if bench.growth:
        wrote(*write_growth(folder, time_limit, rows, log, missing))


def _missing_peers(bench: StratoBench, folder: Path, warn: Callable[[str], None]) -> list[str]:
    """The peers a full run (or one with ``--only-certified``) would measure but cannot here, each
    with what became of its table; one line to ``warn`` for each."""
    if bench.only_peers or bench.only_planners or bench.only_growth or bench.only_checker:
        return []  # these are refused without their peer (stratagem.cli.bench) or measure none
    missing = []
    peers: list[tuple[bool, str, str, str]] = []
    if not bench.only_certified:
        from stratagem.solvers import fast_downward

        peers.append((bench.peers and openspiel_missing() is not None, "OpenSpiel", "strato-peers.md", "openspiel"))
        peers.append((bench.planners and fast_downward.driver() is None, "Fast Downward", "strato-planners.md",
                      "planners"))
    for absent, name, table, extra in peers:
        if not absent:
            continue
        kept = (folder / table).exists()
        what = f"{table} {'kept from an earlier run' if kept else 'not written'}"
        missing.append(f"{name} ({what}; the `{extra}` extra is not installed)")
        warn(f"stratagem bench: {name} is not installed (pip install \"stratagem[{extra}]\"): {folder / table} "
             + ("kept as it was, not measured in this run" if kept else "not written"))
    return missing


def _measure_methods(folder: Path, files: Sequence[str], time_limit: float, report: dict[str, Any],
                     log: Callable[[str], None], missing: Sequence[str] = ()) -> list[Row]:
    """Every method on every deal, then strato-search.md, strato-methods.md and strato-checker.md (SAT's
    refutations of the same run checked by both engines); returns the rows for the growth plot."""
    rows: list[Row] = []
    checkers: list[tuple[str, str, CheckerCell]] = []
    unmeasured: list[tuple[str, str, str]] = []
    for file in files:
        puzzle = load_strato(file)
        for spec in puzzle.deals:
            game = puzzle.game(spec)
            cells = {}
            for method in ALL_METHODS:
                outcome = run(method, game, time_limit)
                cell = Cell.of(outcome)
                cells[method] = cell
                if method == "sat" and outcome.refutation is not None:
                    checkers.append((Path(file).name, spec.name, CheckerCell.of(outcome.refutation, time_limit)))
                elif method == "sat":
                    unmeasured.append((Path(file).name, spec.name, no_refutation(outcome)))
                log(f"{Path(file).name} {spec.name} {method}: {cell.status}, length {cell.length_text()}, "
                    f"{cell.seconds:.2f} s")
            rows.append((Path(file).name, spec.name, cells))
    write_table(folder / "strato-search.md", search_table(rows, time_limit, missing))
    write_table(folder / "strato-methods.md", methods_table(rows, time_limit, missing))
    write_checker(folder, checkers, time_limit, report, unmeasured, missing)
    report["methods"] = [{"puzzle": file, "deal": deal, "method": method, **rounded(asdict(cell))}
                         for file, deal, cells in rows for method, cell in cells.items()]
    return rows
