"""Progress of the SAT horizon driver (``stratagem.solvers.satplan``): the horizon being solved, CaDiCaL's
conflicts and the DRUP proof lines written so far, measured, on challenge 0's duo-3 (optimum 5; the
certificate is the refutation of horizon 4, the README's example)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from stratagem.models.strato.encodings.sat import StratoCNF, max_turns
from stratagem.models.strato.rules.puzzle import load_puzzle
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.solve import solve
from stratagem.solvers import satplan
from stratagem.solvers.satplan import SolverProgress, horizon_search, incremental_search

PUZZLE = Path(__file__).resolve().parents[2] / "puzzles" / "strato" / "challenge-0.toml"


def duo_3() -> StratoGame:
    puzzle = load_puzzle(PUZZLE)
    return puzzle.game(puzzle.find_deal("duo-3"))


def certificate_reports(seen: list[SolverProgress], horizon: int) -> list[SolverProgress]:
    return [report for report in seen if report.horizon == horizon and report.proof_lines is not None]


@pytest.mark.parametrize("time_limit", [None, 60.0], ids=["in-process", "forked-child"])
def test_incremental_search_reports_horizons_conflicts_and_proof_lines(time_limit: float | None) -> None:
    game = duo_3()
    seen: list[SolverProgress] = []
    result = incremental_search(lambda lo, hi: StratoCNF(game, hi, open_from=lo), first=0,
                                last=max_turns(game.initial_state()), time_limit=time_limit,
                                prove=lambda k: StratoCNF(game, k), progress=seen.append)
    assert result.status == "solved" and result.refutation is not None and result.refutation.horizon == 4
    searched = [report.horizon for report in seen if report.proof_lines is None]
    assert searched == sorted(searched) and searched[0] == 0 and searched[-1] == 5  # 5: the satisfiable one
    certificate = certificate_reports(seen, 4)
    assert certificate[0].conflicts == 0 and certificate[0].proof_lines == 0  # told before it starts
    last = certificate[-1]
    assert last.conflicts is not None and last.conflicts > 0  # refuting horizon 4 takes conflicts
    assert last.proof_lines == len(result.refutation.proof)  # the lines on disk are the proof's lines
    assert last.calls == len(result.runs) - 1  # every run before the certificate's
    conflicts = [report.conflicts for report in seen if report.conflicts is not None]
    assert len(conflicts) == len(seen)  # CaDiCaL: every report has a measured conflict count


def test_small_chunks_report_growing_figures_and_change_no_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a budget of 50 conflicts a call, the refutation of horizon 4 is reported as it grows, and the
    proof CaDiCaL writes over several calls is still a refutation the checker accepts."""
    monkeypatch.setattr(satplan, "CONFLICT_CHUNK", 50)
    game = duo_3()
    seen: list[SolverProgress] = []
    result = horizon_search(lambda k: StratoCNF(game, k), first=3, last=max_turns(game.initial_state()),
                            progress=seen.append)
    assert result.status == "solved" and result.refutation is not None and result.refutation.horizon == 4
    certificate = certificate_reports(seen, 4)
    assert len(certificate) >= 4
    conflicts = [report.conflicts or 0 for report in certificate]
    lines = [report.proof_lines or 0 for report in certificate]
    assert conflicts == sorted(conflicts) and lines == sorted(lines)
    # CaDiCaL checks its budget now and then, so a call may overrun it a little, never by a second budget
    assert all(later - earlier < 2 * 50 for earlier, later in zip(conflicts, conflicts[1:], strict=False))
    assert lines[-1] == len(result.refutation.proof) == result.runs[1].proof_lines
    assert len({report.calls for report in certificate}) == 1  # one horizon, one solver call

    from stratagem.solvers.drup import check_drup_data

    text = "".join(f"{line}\n" for line in result.refutation.proof).encode()
    verdict, _ = check_drup_data(result.refutation.clauses, text, "proof")
    assert verdict.valid, verdict.reason


def test_solve_shows_one_status_line_per_horizon() -> None:
    """``solve(game, "sat")`` shows the driver's reports through the progress convention: a label per
    horizon, conflicts and (for the certificate) proof lines written; the last figures are the proof's."""
    shown: list[tuple[str, str, str, list[tuple[int, int]]]] = []

    @contextmanager
    def recorder(label: str, first: str, second: str) -> Iterator[Callable[[int, int], None]]:
        updates: list[tuple[int, int]] = []
        shown.append((label, first, second, updates))
        yield lambda a, b: updates.append((a, b))

    solution = solve(duo_3(), "sat", progress=recorder, label="duo-3")
    assert solution.status == "solved" and solution.refutation is not None
    label, first, second, updates = next(entry for entry in shown if "for the certificate" in entry[0])
    assert label == "sat on duo-3, refuting horizon 4 for the certificate"
    assert (first, second) == ("conflicts", "proof lines written")
    assert updates[0] == (0, 0) and updates[-1][0] > 0 and updates[-1][1] == len(solution.refutation.proof)
    searched = [entry[0] for entry in shown if entry[1:3] == ("conflicts", "solver calls")]
    assert searched == [f"sat on duo-3, horizon {k}" for k in range(6)]  # under assumptions, up to the win at 5


class _SlowToBuild:
    """A horizon whose formula takes ``BUILD`` seconds to build and is refuted by CP-SAT at once."""

    BUILD = 0.4
    clauses: list[list[int]] = []
    comments: list[str] = []
    num_vars = 1

    def __init__(self, k: int) -> None:
        import time

        time.sleep(self.BUILD)

    def decode(self, model: object) -> tuple[()]:
        return ()

    def solve_cpsat(self, time_limit: float | None) -> tuple[bool, None]:
        return False, None


def test_a_horizon_whose_build_would_overrun_the_limit_is_not_started() -> None:
    """Building a formula cannot be interrupted: challenge 1's CP-SAT run under --time-limit 2 on a loaded
    machine started a build it could not finish in time and returned after 6.4 s (the standard is 3.4 s).
    The next horizon, at least as slow to build as the last, is not started without the time to build it."""
    import time

    started = time.perf_counter()
    result = satplan.horizon_search(_SlowToBuild, first=0, last=10, time_limit=1.0, backend="cpsat")
    spent = time.perf_counter() - started
    assert result.status == "unknown" and result.stopped_by == "time"
    assert spent < 1.0 + 0.1, spent  # two builds (0.8 s) fit; a third would end at 1.2 s
    assert [run.horizon for run in result.runs] == [0, 1] and result.lower_bound == 2
