"""Strato: the DRUP checker's two engines on SAT's refutations (``strato-checker.md``).

Each refutation is checked by the pure-Python reference and by the compiled engine, one after the
other in the same run; the table gives the compiled one as a ratio to the reference. When no shipped
deal gave SAT a refutation, the growth challenges' refutations are measured instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from stratagem.bench.strato_growth import growth_challenge
from stratagem.bench.strato_methods import header, run
from stratagem.bench.tables import ratio, rounded, write_table
from stratagem.loading import load_strato
from stratagem.models.strato.rules.challenge import Options
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.solve import Solution
from stratagem.solvers import drup_compiled
from stratagem.solvers.drup import check_drup_data
from stratagem.solvers.satplan import Refutation


@dataclass
class CheckerCell:
    """Both DRUP checker engines on one SAT refutation."""

    lines: int
    reference_seconds: float
    reference_finished: bool
    compiled_seconds: float | None

    @staticmethod
    def of(refutation: Refutation, time_limit: float) -> CheckerCell:
        data = refutation.proof.data
        reference, _ = check_drup_data(refutation.clauses, data, "proof", engine="python", time_limit=time_limit)
        if not (reference.valid or reference.stopped):
            raise RuntimeError(f"the reference checker rejects SAT's refutation: {reference.reason}")
        compiled_seconds = None
        if drup_compiled.available():
            compiled, _ = check_drup_data(refutation.clauses, data, "proof", engine="compiled")
            if not compiled.valid:
                raise RuntimeError(f"the compiled checker rejects SAT's refutation: {compiled.reason}")
            compiled_seconds = compiled.seconds
        return CheckerCell(refutation.proof_lines, reference.seconds, not reference.stopped, compiled_seconds)


def no_refutation(outcome: Solution) -> str:
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


def write_checker(folder: Path, checkers: list[tuple[str, str, CheckerCell]], time_limit: float,
                  report: dict[str, Any], unmeasured: Sequence[tuple[str, str, str]] = (),
                  missing: Sequence[str] = ()) -> Path:
    """Write ``strato-checker.md`` from the refutations measured (the growth challenges' when the shipped
    deals gave none) and put its rows in ``report``; returns the table's path."""
    if not checkers:  # nothing from the shipped deals: measure the growth challenges' refutations instead
        checkers = growth_refutations(time_limit)
    table = folder / "strato-checker.md"
    write_table(table, checker_table(checkers, time_limit, unmeasured, missing))
    report["checker"] = [{"puzzle": file, "deal": deal, **rounded(asdict(cell))} for file, deal, cell in checkers]
    return table


def measure_checker(folder: Path, files: Sequence[str], time_limit: float, report: dict[str, Any],
                    log: Callable[[str], None]) -> Path:
    """``bench strato --only-checker``: SAT alone on every deal of ``files`` (``time_limit`` seconds each),
    each refutation it leaves checked by both engines, then ``strato-checker.md``. The same rows a full
    run's table has, without the other methods' hours."""
    checkers: list[tuple[str, str, CheckerCell]] = []
    unmeasured: list[tuple[str, str, str]] = []
    for file in files:
        puzzle = load_strato(file)
        for spec in puzzle.deals:
            outcome = run("sat", puzzle.game(spec), time_limit)
            if outcome.refutation is None:
                unmeasured.append((Path(file).name, spec.name, no_refutation(outcome)))
                log(f"{Path(file).name} {spec.name}: {no_refutation(outcome)}")
                continue
            cell = CheckerCell.of(outcome.refutation, time_limit)
            checkers.append((Path(file).name, spec.name, cell))
            compiled = "not built" if cell.compiled_seconds is None else f"{cell.compiled_seconds:.2f} s"
            log(f"{Path(file).name} {spec.name}: {cell.lines} proof lines, reference {cell.reference_seconds:.2f} s, "
                f"compiled {compiled}")
    return write_checker(folder, checkers, time_limit, report, unmeasured)


def checker_table(rows: list[tuple[str, str, CheckerCell]], time_limit: float,
                  unmeasured: Sequence[tuple[str, str, str]] = (), missing: Sequence[str] = ()) -> str:
    out = header("Strato: the DRUP checker's engines on SAT's refutations", time_limit, missing,
                 only="--only-checker") + [
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
            compiled, times = "not built", "—"
        else:
            compiled = f"{c.compiled_seconds:.2f}"
            times = ratio(c.reference_seconds, c.compiled_seconds, c.reference_finished)
        reference = f"{c.reference_seconds:.2f}" + ("" if c.reference_finished else " (stopped)")
        out.append(f"| {file} | {deal} | {c.lines} | {reference} | {compiled} | {times} |")
    if rows and all(file.startswith("growth-") for file, _, _ in rows):
        out += ["", "No shipped deal gave SAT a refutation in this run (reasons below), so the rows are SAT's",
                "refutations on the growth challenges of strato-growth.md (k cards a side, seed 1, solo)."]
    elif not rows:
        out += ["", "No refutation was measured: SAT gave none on the shipped deals or the growth challenges."]
    if unmeasured:
        out += ["", "Deals without a refutation to check:", ""]
        out += [f"- {file} {deal}: {why}" for file, deal, why in unmeasured]
    return "\n".join(out) + "\n"

