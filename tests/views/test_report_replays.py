"""A sweep report's replays, wherever ``report`` is run from: the records name their puzzles as the sweep was
given them (``puzzles/strato/...``, from the folder it ran in), so a report run elsewhere drew none of its
15 replays, said nothing, and left its "replay" links pointing at nothing."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from stratagem.cli.main import run

ROOT = Path(__file__).resolve().parents[2]


def _sweep(folder: Path) -> Path:
    """A results file of the shipped sweep's first records, in ``folder``."""
    shipped = (ROOT / "results" / "strato-sweep" / "results.jsonl").read_text().splitlines()
    folder.mkdir(parents=True)
    path = folder / "results.jsonl"
    path.write_text("\n".join(shipped[:12]) + "\n")
    return path


def _links_and_targets(page: str) -> tuple[set[str], set[str]]:
    return set(re.findall(r'href="#(replay[^"]*)"', page)), set(re.findall(r'id="(replay[^"]*)"', page))


def test_replays_are_found_beside_the_results_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A project folder holding the puzzles and, below it, the results: run from anywhere else, the puzzle
    is found from the results file's folder up, and every link lands on its replay."""
    project = tmp_path / "project"
    results = _sweep(project / "results" / "mine")
    shutil.copytree(ROOT / "puzzles" / "strato", project / "puzzles" / "strato")
    monkeypatch.chdir(tmp_path)
    assert run(["report", str(results), "--out", str(tmp_path / "rep"), "--html", "--no-plots"]) == 0
    page = (tmp_path / "rep" / "report.html").read_text()
    links, targets = _links_and_targets(page)
    assert links and links <= targets
    assert "No replay" not in page and page.count("Replayed here with the rules engine") == len(links)
    assert "no replay" not in capsys.readouterr().err.lower()


def test_a_replay_left_out_is_said_and_its_link_still_lands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    results = _sweep(tmp_path / "alone")
    monkeypatch.chdir(tmp_path)
    assert run(["report", str(results), "--out", str(tmp_path / "rep"), "--html", "--no-plots"]) == 0
    page = (tmp_path / "rep" / "report.html").read_text()
    links, targets = _links_and_targets(page)
    assert links and links <= targets  # each link lands on its card, which says why there is no replay
    err = capsys.readouterr().err
    assert err.count("No replay: the puzzle file puzzles/strato/") == len(links), err


def test_the_puzzle_whose_hash_is_the_records_is_chosen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An edited copy where the report runs (its name the records') and the sweep's own file beside the
    results: the replays are drawn from the file the records' SHA-256 names."""
    project = tmp_path / "project"
    results = _sweep(project / "results")
    shutil.copytree(ROOT / "puzzles" / "strato", project / "puzzles" / "strato")
    here = tmp_path / "here"
    shutil.copytree(ROOT / "puzzles" / "strato", here / "puzzles" / "strato")
    for puzzle in (here / "puzzles" / "strato").glob("*.toml"):
        puzzle.write_text(puzzle.read_text() + "\n# edited\n")
    monkeypatch.chdir(here)
    assert run(["report", str(results), "--out", str(tmp_path / "rep"), "--html", "--no-plots"]) == 0
    page = (tmp_path / "rep" / "report.html").read_text()
    links, _ = _links_and_targets(page)
    assert page.count("Replayed here with the rules engine") == len(links) and "has changed" not in page
