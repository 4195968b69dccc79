"""Strato: time to a certified optimum per deal (``strato-certified.md``).

``auto`` (the relaxation bound first) and the time ``verify`` takes to check its certificate, against
SAT alone (a DRUP refutation checked by the project's checker) on the same deal in the same run. Each of
the three (auto's solve, the check, SAT) has the per-deal limit ``bench --time-limit``; a check the limit
stops leaves the deal not certified.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from stratagem.bench.strato_methods import header
from stratagem.bench.tables import kept_sections, ratio, rounded, write_table
from stratagem.core.records import Line
from stratagem.loading import load_strato
from stratagem.models.strato.rules.notation import format_move
from stratagem.models.strato.rules.position import format_state
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.solve import Solution, solve, write_proof
from stratagem.verification import verify
from stratagem.verification.verdict import UNKNOWN


@dataclass
class CertifiedCell:
    """One deal solved to a certified optimum: ``auto`` (the relaxation first) and SAT alone, each with
    the time its certificate takes to check, wall clock and CPU (all threads). ``length`` is None unless
    auto's optimum was certified (a check the limit stopped leaves it None: ``certificate`` then says
    ``check stopped``)."""

    length: int | None
    certificate: str
    solve: tuple[float, float]
    check: tuple[float, float]
    sat_length: int | None
    sat: tuple[float, float]
    sat_check: float | None

    @staticmethod
    def of(game: StratoGame, time_limit: float) -> CertifiedCell:
        auto, kind, solved, checked, certified = certified_auto(game, time_limit)
        wall, cpu = time.perf_counter(), time.process_time()
        sat = solve(game, "sat", time_limit, label="bench", fallback=False)
        sat_time = (time.perf_counter() - wall, time.process_time() - cpu)
        return CertifiedCell(len(auto.moves) if certified else None, kind, solved, checked,
                             len(sat.moves) if sat.optimal else None, sat_time, sat.stats.get("proof_check_seconds"))


def certified_auto(game: StratoGame, time_limit: float) -> tuple[Solution, str, tuple[float, float],
                                                                   tuple[float, float], bool]:
    """``auto`` on a deal, then what `verify` does with its certificate, with ``time_limit`` seconds of
    its own: the solution, the certificate kind (``none`` when not optimal; ``KIND, check stopped`` when
    the limit stopped `verify`), the (wall, CPU) seconds of the solve and of the check, and whether the
    optimum is certified (never when the check was stopped)."""
    wall, cpu = time.perf_counter(), time.process_time()
    auto = solve(game, "auto", time_limit, label="bench", fallback=False)
    solved = (time.perf_counter() - wall, time.process_time() - cpu)
    wall, cpu = time.perf_counter(), time.process_time()
    kind = auto.evidence.get("kind", "none") if auto.optimal else "none"
    certified = bool(auto.optimal)
    if kind in ("relaxation-bound", "relaxation-search"):  # `verify` itself, on the proof record
        setup = {"challenge": game.challenge.to_data(), "options": game.options.to_data()}
        line = Line("strato", setup, format_state(game.initial_state()),
                    tuple(format_move(m) for m in auto.moves), "won")
        with tempfile.TemporaryDirectory() as folder:
            record = str(Path(folder) / "proof.json")
            write_proof(record, auto, line)
            wall, cpu = time.perf_counter(), time.process_time()
            verdict = verify(record, time_limit=time_limit)
        if verdict.status == UNKNOWN:  # the limit stopped the check: not certified
            certified = False
            kind += ", check stopped"
        elif not verdict.valid:
            raise AssertionError(f"verify does not certify auto's answer: {verdict.status} {verdict.problem}")
    checked = (time.perf_counter() - wall, time.process_time() - cpu)
    if kind == "drup-refutation":
        # auto checks a DRUP refutation itself, inside its solve: counted there, not a second time here
        kind += f", checked in the solve ({float(auto.stats.get('proof_check_seconds', 0.0)):.2f} s)"
        checked = (0.0, 0.0)
    return auto, kind, solved, checked, certified


def certified_table(rows: list[tuple[str, str, CertifiedCell]], time_limit: float,
                    missing: Sequence[str] = ()) -> str:
    out = header("Strato: time to a certified optimum", time_limit, missing, only="--only-certified") + [
        "`auto` starts with the table-only relaxation bound (a certificate `verify` recomputes) and its",
        "guided line search; when the bound is below the optimum, it searches lines of growing length pruned by",
        "the relaxation (certificate `relaxation-search`: `verify` repeats that search), then A*/SAT. The",
        "baseline is SAT alone (a DRUP refutation checked by the project's checker), measured on the same deal",
        "in the same run. Seconds are wall clock / CPU of this process's threads, one run (SAT solves in a child",
        "process, whose CPU is not counted); check = `verify` on the proof record, in this process, with the",
        f"same limit of its own ({time_limit:g} s; a check the limit stops shows `check stopped` and the deal",
        "counts as not certified: optimum —). For SAT, and for auto when it ends with a DRUP refutation, the",
        "checker runs inside the solve, so its time is in the solve's (check 0 here, said in the certificate).",
        "Ratio = auto's solve + check wall time over SAT's; * marks a ratio where either side was stopped or not",
        "certified (a bound, not a measurement).",
        "",
        "| puzzle | deal | optimum | certificate | auto solve s (CPU) | check s (CPU) | total s | SAT s (CPU) "
        "| SAT optimum | auto/SAT |",
        "|---|---|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for file, deal, c in rows:
        total = c.solve[0] + c.check[0]
        exact = c.sat_length is not None
        both = exact and c.length is not None
        out.append(
            f"| {file} | {deal} | {c.length if c.length is not None else '—'} | {c.certificate} "
            f"| {c.solve[0]:.2f} ({c.solve[1]:.2f}) | {c.check[0]:.2f} ({c.check[1]:.2f}) | {total:.2f} "
            f"| {c.sat[0]:.2f} ({c.sat[1]:.2f}) | {c.sat_length if exact else '—'} "
            f"| {ratio(total, c.sat[0], both)} |")
    under = [c for _, _, c in rows if c.length is not None and c.solve[0] + c.check[0] < 10]
    out += ["", f"{len(under)} of {len(rows)} deals: a certified optimum, solve + check under 10 s wall."]
    return "\n".join(out) + "\n"


def write_certified(folder: Path, files: Sequence[str], time_limit: float, report: dict[str, Any],
                    missing: Sequence[str] = ()) -> Path:
    """Measure every deal of ``files`` and write ``folder/strato-certified.md``, keeping the sections
    scripts wrote there (scripts/verify_cost.py's table of verify's cost); the measurements go to
    ``report["certified"]`` (``bench --json``)."""
    certified = [(Path(file).name, spec.name, CertifiedCell.of(load_strato(file).game(spec), time_limit))
                 for file in files for spec in load_strato(file).deals]
    target = folder / "strato-certified.md"
    kept = kept_sections(target.read_text(encoding="utf-8") if target.exists() else "")
    write_table(target, certified_table(certified, time_limit, missing) + ("\n" + "\n".join(kept) if kept else ""))
    report["certified"] = [{"puzzle": file, "deal": deal, **rounded(asdict(cell))} for file, deal, cell in certified]
    return target
