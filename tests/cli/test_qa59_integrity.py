"""QA 59, output integrity: files that belong together are written as one set, a full disk is exit 74
wherever the file is written, and Ctrl-C or SIGTERM never leaves part of a set in place."""

from __future__ import annotations

import errno
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import PUZZLES, ROOT
from fulldisk import full_disk_at

from stratagem.cli.exitcodes import CANNOT_WRITE
from stratagem.core import outputs as core_io

STAKD = ROOT / "puzzles" / "stakd"


def _contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_set_of_files_is_written_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills up at the second of three files: the first is not replaced either, no temporary
    file stays, and the error (a full disk: OSError, the CLI's exit 74) names the file once."""
    from stratagem.core.outputs import write_atomic_files

    for name in "abc":
        (tmp_path / name).write_text("old\n")
    full_disk_at(monkeypatch, lambda count: count == 2)
    with pytest.raises(OSError) as caught:
        write_atomic_files([(tmp_path / name, "new\n") for name in "abc"])
    assert caught.value.errno == errno.ENOSPC
    assert str(caught.value).count(str(tmp_path / "b")) == 1
    assert _contents(tmp_path) == {name: b"old\n" for name in "abc"}


def test_ctrl_c_during_the_renames_comes_after_the_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C that arrives between two renames of a set is held back until every file is in place, then
    raised as usual (a record never stands beside half of the files it names)."""
    from stratagem.core.outputs import write_atomic_files

    real = os.replace
    sent = []

    def replace(source: str, target: str | Path) -> None:
        real(source, target)
        if not sent:
            sent.append(target)
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(core_io.os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        write_atomic_files([(tmp_path / name, name) for name in "abc"])
    assert _contents(tmp_path) == {name: name.encode() for name in "abc"}
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_full_disk_under_a_cnf_is_exit_74_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """write_text_maybe_gz turned every failed write into bad input: a full disk under a proof's CNF or
    DRUP file was exit 2, where every other output says 74 (README)."""
    from stratagem.solvers.dimacs import write_text_maybe_gz

    full_disk_at(monkeypatch, lambda count: True)
    with pytest.raises(OSError) as caught:
        write_text_maybe_gz(tmp_path / "p.cnf.gz", "p cnf 0 0\n")
    assert caught.value.errno == errno.ENOSPC and str(tmp_path / "p.cnf.gz") in str(caught.value)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("command", [
    ["solve", str(PUZZLES / "challenge-0.toml"), "--method", "sat", "--deal", "5"],
    ["check", str(STAKD / "solo-4-impossible.toml")],
], ids=["solve-sat", "check-stakd"])
def test_a_full_disk_at_the_drup_file_leaves_the_earlier_proof_valid(
        cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:  # type: ignore[no-untyped-def]
    """A proof written over an earlier one, the disk full at its DRUP file: the CNF was replaced already, so
    the earlier record named another formula than the one beside it and failed verify, and the exit code
    was 2 (bad input). Now nothing is replaced, exit 74, one line naming the DRUP file, and the earlier
    proof still verifies."""
    earlier = cli(*command, "--quiet", "--proof", str(tmp_path / "p.json"))
    assert earlier.code in (0, 1), earlier.err
    before = _contents(tmp_path)
    assert sorted(before) == ["p.cnf.gz", "p.drup.gz", "p.json"]
    full_disk_at(monkeypatch, lambda count: count == 2)  # the first file (the CNF) is written, the DRUP is not
    # solve: another deal, whose CNF differs (check's puzzle has one formula: its old code exited 2)
    other = [*command[:-2], "--deal", "1"] if command[0] == "solve" else command
    result = cli(*other, "--quiet", "--proof", str(tmp_path / "p.json"))
    assert result.code == CANNOT_WRITE, result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].count(str(tmp_path / "p.drup.gz")) == 1, result.err
    assert _contents(tmp_path) == before
    monkeypatch.undo()
    assert cli("verify", str(tmp_path / "p.json")).code == 0



def _results(tmp_path: Path, lines: int, name: str = "results.jsonl") -> Path:
    """A results file of the first ``lines`` records of the shipped sweep."""
    path = tmp_path / name
    with open(ROOT / "results" / "strato-sweep" / "results.jsonl", encoding="utf-8") as shipped:
        path.write_text("".join(next(shipped) for _ in range(lines)), encoding="utf-8")
    return path


def test_a_report_is_written_as_one_set(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """report wrote its files one by one: a full disk at report.html left a new report.md beside the old
    page (and Ctrl-C between two files the same). Now the earlier report stays whole, and exit 74."""
    out = tmp_path / "out"
    assert cli("report", str(_results(tmp_path, 2)), "--out", str(out), "--no-plots", "--html").code == 0
    before = _contents(out)
    full_disk_at(monkeypatch, lambda count: count == 2)  # report.md is written, report.html is not
    result = cli("report", str(_results(tmp_path, 3)), "--out", str(out), "--no-plots", "--html")
    assert result.code == CANNOT_WRITE and str(out / "report.html") in result.err, result.err
    assert _contents(out) == before


def test_a_report_over_its_own_results_file_is_refused(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """``report out/report.md --out out`` replaced the sweep's records with the report (exit 0); every other
    command refuses an output that is its input."""
    out = tmp_path / "out"
    out.mkdir()
    results = _results(out, 2, "report.md")
    kept = results.read_bytes()
    result = cli("report", str(results), "--out", str(out), "--no-plots")
    assert result.code == 2 and "is the input file" in result.err and len(result.err.strip().splitlines()) == 1
    assert results.read_bytes() == kept and sorted(os.listdir(out)) == ["report.md"]


def test_pddl_domain_and_problem_are_written_as_one_set(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """export --format pddl wrote the domain, then the problem: a full disk at the problem left the new
    (with --axiom-free, deal-specific) domain beside the old problem."""
    problem = tmp_path / "deal.pddl"
    puzzle = str(PUZZLES / "challenge-0.toml")
    assert cli("export", puzzle, "--format", "pddl", "--axiom-free", "--out", str(problem), "--quiet").code == 0
    before = _contents(tmp_path)
    full_disk_at(monkeypatch, lambda count: count == 2)
    other = str(PUZZLES / "challenge-1.toml")  # another challenge: another domain
    result = cli("export", other, "--format", "pddl", "--axiom-free", "--out", str(problem), "--quiet")
    assert result.code == CANNOT_WRITE and str(problem) in result.err, result.err
    assert _contents(tmp_path) == before


def test_a_full_disk_under_a_graph_export_is_exit_74(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """reach --export turned a full disk into bad input (exit 2, 'cannot write'), where every other output
    is exit 74 (README); its writer had its own temporary-file code, now core.io's."""
    full_disk_at(monkeypatch, lambda count: True)
    out = tmp_path / "g.dot"
    result = cli("reach", str(PUZZLES / "challenge-0.toml"), "--max-nodes", "50", "--export", "dot", "--out", str(out),
                 "--quiet")
    assert result.code == CANNOT_WRITE and str(out) in result.err and len(result.err.strip().splitlines()) == 1, \
        result.err
    assert os.listdir(tmp_path) == []


def test_a_results_file_the_disk_took_part_of_a_record_of_is_cut_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sweep record the disk took only part of was bad input (exit 2, 'the disk took part of a record')
    and its half line stayed in the file; a failed write named no file ('cannot write the output: No space
    left on device'). Both are now a full disk naming the results file (exit 74), with the file cut back
    to its whole lines."""
    from stratagem import sweeprecords
    from stratagem.sweeprecords import ResultsFile

    path = tmp_path / "r.jsonl"
    line = (ROOT / "results" / "strato-sweep" / "results.jsonl").read_text(encoding="utf-8").split("\n", 1)[0]
    path.write_text(line + "\n", encoding="utf-8")
    results = ResultsFile(path)
    results.check()
    results.open()
    real = os.write

    def part(fd: int, data: bytes) -> int:
        return real(fd, data[: len(data) // 2])

    def full(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    try:
        for write in (part, full):
            monkeypatch.setattr(sweeprecords.os, "write", write)
            with pytest.raises(OSError) as caught:
                results.append(results.records[0])
            assert caught.value.errno == errno.ENOSPC and str(path) in str(caught.value)
            assert path.read_text(encoding="utf-8") == line + "\n"
    finally:
        monkeypatch.undo()
        results.close()


class _FakeSolver:
    """A stand-in for PySAT's CaDiCaL whose ``solve`` does what ``on_solve`` says and whose ``delete`` is
    interrupted the way a Ctrl-C during CaDiCaL's free is: the signal arrives inside the C call, and
    PySAT forgets its pointer only after it returns."""

    instances: list[_FakeSolver] = []

    def __init__(self, *args: Any, on_solve: Callable[[], None] = lambda: None, **kwargs: Any) -> None:
        self.on_solve = on_solve
        self.deleted = 0
        self.pointer_forgotten = False
        _FakeSolver.instances.append(self)

    def __enter__(self) -> _FakeSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.delete()

    def solve(self, assumptions: object = ()) -> bool:
        self.on_solve()
        return False

    def get_model(self) -> list[int]:
        return []

    def get_proof(self) -> list[str]:
        return ["0"]

    def delete(self) -> None:
        self.deleted += 1
        os.kill(os.getpid(), signal.SIGINT)  # arrives while CaDiCaL frees the solver
        self.pointer_forgotten = True  # PySAT's `self.cadical = None`, after the C call


def test_ctrl_c_while_cadical_frees_a_solver_lets_pysat_forget_it_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C during CaDiCaL's free raised KeyboardInterrupt before PySAT set ``self.cadical = None``; its
    ``__del__`` then freed the solver again at exit: ``free(): double free detected``, SIGABRT, in 8 of 100
    interrupted solves (QA 59). The free is now finished, pointer forgotten, before Ctrl-C is raised."""
    from stratagem.solvers import satplan

    _FakeSolver.instances.clear()
    monkeypatch.setattr(satplan, "Solver", _FakeSolver)
    with pytest.raises(KeyboardInterrupt):
        satplan.solve_cnf([[1]], None)
    (solver,) = _FakeSolver.instances
    assert solver.deleted == 1 and solver.pointer_forgotten


def test_a_solve_pysat_longjmped_out_of_is_not_freed(monkeypatch: pytest.MonkeyPatch) -> None:
    """PySAT's own Ctrl-C handling leaves CaDiCaL by longjmp, perhaps inside malloc: freeing the solver (or
    anything, at exit) afterwards could crash. The solver is left as it is, the process noted as such
    (the CLI then exits without finalisation), and the interruption is KeyboardInterrupt as before."""
    import pysolvers

    from stratagem.core import interrupt
    from stratagem.solvers import satplan

    def longjmp() -> None:
        raise pysolvers.error("Caught keyboard interrupt")

    _FakeSolver.instances.clear()
    monkeypatch.setattr(satplan, "Solver", lambda *a, **k: _FakeSolver(on_solve=longjmp))
    monkeypatch.setattr(interrupt._Abandoned, "native_state", False)
    with pytest.raises(KeyboardInterrupt):
        satplan.solve_cnf([[1]], None)
    (solver,) = _FakeSolver.instances
    assert solver.deleted == 0 and interrupt.native_state_abandoned()


def test_the_command_ends_without_finalisation_once_a_solver_was_abandoned(tmp_path: Path) -> None:
    """After a solve PySAT longjmp'ed out of, ``stratagem`` exits with its code but without Python's
    finalisation (which frees what the interrupted solver may have left inconsistent)."""
    import subprocess
    import sys

    script = ("import atexit, sys\n"
              "from stratagem.core.interrupt import abandon_native_state\n"
              "from stratagem.cli.main import main\n"
              "atexit.register(lambda: print('finalised', flush=True))\n"
              "abandon_native_state()\n"
              "sys.argv = ['stratagem', '--version']\n"
              "main()\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, text=True, capture_output=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "stratagem" in done.stdout and "finalised" not in done.stdout


def test_view_without_out_names_the_default_page_not_the_option(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A record named NAME.html: the page would replace it, and view refused it at '--out', an option the
    user never gave. It names the default page instead, and the record is kept."""
    record = tmp_path / "line.html"
    assert cli("solve", str(PUZZLES / "challenge-0.toml"), "--quiet", "--proof", str(record)).code == 0
    kept = record.read_bytes()
    result = cli("view", str(record))
    assert result.code == 2 and "--out:" not in result.err and len(result.err.strip().splitlines()) == 1, result.err
    assert "the page (the record's name with .html; give --out): is the input file" in result.err
    assert record.read_bytes() == kept


@pytest.mark.parametrize("command", [
    ["solve", str(PUZZLES / "challenge-0.toml"), "--proof", "A", "--html", "B"],
    ["check", str(STAKD / "solo-1-tiny.toml"), "--proof", "A", "--html", "B"],
    ["analyze", str(ROOT / "puzzles" / "stratatak" / "reshuffle-gamble.toml"), "--proof", "A", "--html", "B"],
    ["odds", str(PUZZLES / "challenge-0.toml"), "--position", "RRWR(RW)WWRW RRR WRR 1 -", "--no-rank",
     "--proof", "A", "--html", "B"],
    ["reach", str(PUZZLES / "challenge-0.toml"), "--max-nodes", "50", "--export", "dot", "--out", "A", "--html", "B"],
], ids=lambda command: command[0])
def test_a_record_and_its_page_are_written_as_one_set(
        cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:  # type: ignore[no-untyped-def]
    """``solve --proof P --html H`` (and check, analyze, odds, reach --export): the record and the page are
    written by different code, one after the other; a full disk at the second replaced the first and left
    the other as it was (exit 74), where a failed run leaves every earlier file untouched (formats.md 11)."""
    first, second = tmp_path / "a.json", tmp_path / "b.html"
    for path in (first, second):
        path.write_text("old\n")
    full_disk_at(monkeypatch, lambda count: count == 2)
    args = [str(first) if word == "A" else str(second) if word == "B" else word for word in command]
    result = cli(*args, "--quiet")
    assert result.code == CANNOT_WRITE, result.err
    assert _contents(tmp_path) == {"a.json": b"old\n", "b.html": b"old\n"}


@pytest.mark.parametrize(("command", "problem"), [
    (("solve", str(PUZZLES / "challenge-0.toml"), "--deal", "solo-1", "--proof"),
     "is read-only (no one may write it), and the output would replace it: make it writable (chmod u+w) or "
     "give another file"),
    (("sweep", str(PUZZLES / "challenge-0.toml"), "--seeds", "0..0", "--workers", "0", "--out"),
     "cannot append: no permission to read and write the file"),
])
def test_a_read_only_output_is_refused_not_replaced(cli, tmp_path: Path, command: tuple[str, ...],  # type: ignore[no-untyped-def]
                                                    problem: str) -> None:
    # The atomic rename replaced a file kept read-only (0444) on purpose, whatever its mode, and a sweep run
    # as root appended to it (root's permission check passes every file).
    kept = tmp_path / "kept.json"
    kept.write_text("kept\n")
    kept.chmod(0o444)
    result = cli(*command, str(kept))
    assert result.code == 2 and result.err == f"{kept}: {command[-1]}: {problem}\n"
    assert kept.read_text() == "kept\n"
