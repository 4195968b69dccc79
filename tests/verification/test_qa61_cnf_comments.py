"""The comment lines of the CNF files beside a DRUP certificate (QA 61; docs/formats.md 4.3).

What they say is checked: a Strato CNF's first comment names the horizon the formula encodes (``a win within
k turns`` for the formula refuted to prove a line of k + 1 optimal; satisfiable at the optimum, not below),
and it counted one in the plural ("a win within 1 turns", and STAKD's "1 Base layouts"), where every other
message counts with :func:`stratagem.core.words.plural`. ``verify`` compares the file with the formula
rebuilt from the rules byte for byte; a file written before the comments counted one in the singular is the
same formula, and is checked as such, with a note; a comment naming another horizon is not.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest
from pysat.solvers import Solver

from stratagem.cli.main import run
from stratagem.loading import load_strato
from stratagem.models.strato.encodings.sat import StratoCNF

ROOT = Path(__file__).resolve().parents[2]
NEAR = (ROOT / "puzzles/strato/challenge-0.toml").read_text(encoding="utf-8").split("[[deals]]")[0] + """
[[deals]]
name = "two"
position = "RRRRW(RW)WW RRW WWRRWWRW 1 W"
"""


def _satisfiable(cnf: StratoCNF) -> bool:
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        return bool(solver.solve())


def test_the_first_comment_names_the_horizon_the_formula_encodes() -> None:
    loaded = load_strato(ROOT / "puzzles/strato/challenge-0.toml")
    game = loaded.game(loaded.find_deal("solo-2", None))  # optimum 5 (formats.md 2.6)
    below, at = StratoCNF(game, 4), StratoCNF(game, 5)
    assert below.comments[0] == "strato-sat@4: Strato, a win within 4 turns" and not _satisfiable(below)
    assert at.comments[0] == "strato-sat@4: Strato, a win within 5 turns" and _satisfiable(at)


def test_a_horizon_of_one_turn_is_written_in_the_singular(tmp_path: Path) -> None:
    puzzle = tmp_path / "near.toml"
    puzzle.write_text(NEAR, encoding="utf-8")
    loaded = load_strato(puzzle)
    cnf = StratoCNF(loaded.game(loaded.find_deal("two", None)), 1)
    assert cnf.comments[0] == "strato-sat@4: Strato, a win within 1 turn"  # was "within 1 turns"


def test_a_stakd_formula_of_one_base_layout_says_so_in_the_singular() -> None:
    from stratagem.models.stakd.sat import SoloCNF
    from tests.models.stakd.test_solo_models import solo_game

    assert SoloCNF(solo_game({"B": 1, "Q": 2, "D": 2, "U": 2})).comments[-1] == \
        "layers 0..6 (current layer 0), 1 Base layout, 5 nodes"  # was "1 Base layouts"


def _rewrite_cnf(path: Path, old: str, new: str) -> None:
    """The CNF file with ``old`` replaced, and its digest in the record beside it, as its writer would have
    made them."""
    text = gzip.decompress(path.read_bytes()).decode("utf-8")
    assert old in text
    data = text.replace(old, new, 1).encode("utf-8")
    path.write_bytes(gzip.compress(data))
    record = path.with_name(path.name.replace(".cnf.gz", ".json"))
    stored = record.read_text(encoding="utf-8")
    before = hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert before in stored
    record.write_text(stored.replace(before, hashlib.sha256(data).hexdigest()), encoding="utf-8")


def _verify(record: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object]]:
    capsys.readouterr()
    code = run(["verify", str(record), "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture
def strato_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    puzzle = tmp_path / "near.toml"
    puzzle.write_text(NEAR, encoding="utf-8")
    record = tmp_path / "two.json"
    assert run(["solve", str(puzzle), "--deal", "two", "--method", "sat", "--quiet", "--proof", str(record)]) == 0
    capsys.readouterr()
    return record


def test_a_proof_written_before_the_singular_still_verifies_with_a_note(strato_record: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    cnf = strato_record.with_name("two.cnf.gz")
    _rewrite_cnf(cnf, "c strato-sat@4: Strato, a win within 1 turn\n", "c strato-sat@4: Strato, a win within 1 turns\n")
    code, report = _verify(strato_record, capsys)
    assert code == 0, report
    text = json.dumps(report)
    assert "two.cnf.gz's comments count one thing in the plural" in text
    assert "is not the SHA-256" not in text  # the record's digest is the file's, and the file is what is read


def test_a_fresh_proof_verifies_without_the_note(strato_record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _verify(strato_record, capsys)
    assert code == 0 and "in the plural" not in json.dumps(report)


@pytest.mark.parametrize("lie", ["c strato-sat@4: Strato, a win within 2 turns\n",
                                 "c strato-sat@4: Strato, a win within 0 turns\n",
                                 "c strato-sat@4: Strato, a win within 1 turn \n",
                                 "c strato-sat@4: Strato, a win within 11 turns\n"])
def test_a_comment_that_names_another_horizon_is_not_the_formula(strato_record: Path, lie: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    _rewrite_cnf(strato_record.with_name("two.cnf.gz"), "c strato-sat@4: Strato, a win within 1 turn\n", lie)
    code, report = _verify(strato_record, capsys)
    assert code == 1 and "is not the strato-sat@4 CNF of 1 turn for this deal" in json.dumps(report)


def test_a_stakd_proof_written_before_the_singular_still_verifies(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = tmp_path / "stuck.toml"
    puzzle.write_text('game = "stakd"\n[position]\npieces = "B1Q2D2U2"\n', encoding="utf-8")
    record = tmp_path / "stuck.json"
    assert run(["check", str(puzzle), "--proof", str(record), "--quiet"]) == 1  # not winnable
    _rewrite_cnf(tmp_path / "stuck.cnf.gz", "1 Base layout, 5 nodes", "1 Base layouts, 5 nodes")
    code, report = _verify(record, capsys)
    assert code == 0 and "stuck.cnf.gz's comments count one thing in the plural" in json.dumps(report), report
    _rewrite_cnf(tmp_path / "stuck.cnf.gz", "1 Base layouts, 5 nodes", "2 Base layouts, 5 nodes")
    code, report = _verify(record, capsys)
    assert code == 1 and "is not the stakd-solo-sat@1 formula" in json.dumps(report)
