"""QA 68: ``verify`` (and ``view``) of a reach report finds its puzzle from the report's folder too.

``reach`` writes the puzzle's path as it was given, so a relative one is from the folder the command ran in.
Before, ``verify`` read it from the working folder only: the same report checked from another folder failed
with "cannot rebuild the deal" although the puzzle sat beside the report. Now a relative path with no file
under the working folder is read from the report's folder; the report's layout must still be the one rebuilt
from that file, so a puzzle found there is not trusted either.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import PUZZLES, run_captured


@pytest.fixture(scope="module", name="written")
def written_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A designer report of challenge 0 written in a folder with the puzzle named ``challenge-0.toml``
    (relative, as a user in that folder would give it), its certificate beside it: the folder. The graph is
    cut at 10 layouts (A* and SAT then find the par, certified alike: 0.8 s, not the whole graph's 4)."""
    work = tmp_path_factory.mktemp("work")
    shutil.copy(PUZZLES / "challenge-0.toml", work / "challenge-0.toml")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(work)
        code, _, err = run_captured("reach", "challenge-0.toml", "--designer", "--max-nodes", "10", "--proof", "r.json",
                                      "--quiet")
    assert code == 0, err
    assert json.loads((work / "r.json").read_text())["puzzle"] == "challenge-0.toml"
    return work


@pytest.fixture(name="report")
def report_fixture(written: Path, tmp_path: Path) -> Path:
    """The report, puzzle and certificate, copied to ``tmp_path/work`` for one test."""
    work = tmp_path / "work"
    shutil.copytree(written, work)
    return work / "r.json"


def test_verified_from_another_folder(report: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, err = run_captured("verify", str(report))
    assert code == 0, out + err
    assert f"rebuilt from {report.parent / 'challenge-0.toml'}" in out  # the file read, not the name given


def test_a_different_puzzle_beside_the_report_is_refused(report: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The file found beside the report is checked like any other: challenge 1 under challenge 0's name."""
    shutil.copy(PUZZLES / "challenge-1.toml", report.parent / "challenge-0.toml")
    monkeypatch.chdir(tmp_path)
    code, out, err = run_captured("verify", str(report))
    assert code == 1, out + err
    assert "is not the layout of" in out + err


def test_the_working_folder_comes_first(report: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the path names a file from the working folder, that file is read (as before), not the one beside
    the report: here another challenge, so the check fails."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(PUZZLES / "challenge-1.toml", elsewhere / "challenge-0.toml")
    monkeypatch.chdir(elsewhere)
    code, out, err = run_captured("verify", str(report))
    assert code == 1, out + err
    assert "is not the layout of" in out + err


def test_the_page_reads_it_from_the_report_folder_too(report: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, _, err = run_captured("view", str(report), "--out", "r.html")
    assert code == 0, err
    assert (elsewhere / "r.html").read_text(encoding="utf-8").count("<html") == 1


def test_a_report_written_into_another_folder_is_verified_from_a_third(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``reach puzzles/.../challenge-0.toml --proof out/r.json`` from the source folder, then ``verify`` from
    elsewhere: the path as given names no file there or from the report's folder; ``puzzle_from_report``
    (``../puzzles/challenge-0.toml``) does."""
    source = tmp_path / "source"
    (source / "puzzles").mkdir(parents=True)
    (source / "out").mkdir()
    shutil.copy(PUZZLES / "challenge-0.toml", source / "puzzles" / "challenge-0.toml")
    monkeypatch.chdir(source)
    code, out, err = run_captured("reach", "puzzles/challenge-0.toml", "--designer", "--max-nodes", "10", "--proof",
                                  "out/r.json", "--json")
    assert code == 0, err
    written = json.loads((source / "out" / "r.json").read_text())
    assert written == json.loads(out)  # the report --json prints is the one written
    assert written["puzzle_from_report"] == "../puzzles/challenge-0.toml"
    monkeypatch.chdir(tmp_path)
    code, out, err = run_captured("verify", str(source / "out" / "r.json"))
    assert code == 0, out + err
    assert f"rebuilt from {source / 'out' / '../puzzles/challenge-0.toml'}" in out


def test_without_a_report_file_there_is_no_path_from_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_captured("reach", str(PUZZLES / "challenge-0.toml"), "--designer", "--max-nodes", "10",
                                  "--json")
    assert code == 0, err
    assert "puzzle_from_report" not in json.loads(out)
