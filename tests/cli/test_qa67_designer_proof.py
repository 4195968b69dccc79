"""QA 67: ``reach --designer --proof FILE`` certifies the designer par SAT finds, and ``verify`` checks it.

Before, a par SAT found (where A* stopped without one) rested on CaDiCaL's refutation of the horizon below under
assumptions: "the solver's word, not certified", and ``verify`` refused a reach report as an unknown record format.
Now ``--proof FILE`` refutes the horizon below again with a DRUP proof, checks it, and writes the report to FILE
with the CNF and the proof beside it (``FILE.cnf.gz``, ``FILE.drup.gz``, named with their SHA-256 in ``par_sat``;
since stop 68, ``stratagem/reach@3``, in ``par_certificate``, where any par's certificate is:
tests/cli/test_qa68_par_certificate.py); ``verify FILE`` rebuilds designer mode's formula from the puzzle's layout,
requires the stored CNF to be it and the refuted horizon to be the par line's length minus one, checks the proof
with stratagem's checker and replays the line on designer mode. A par without a proof is not certified, and every
forgery below is refused. Challenge 0's first layout with the graph and A* cut at 10 layouts stands in for the
level-2 example's (par 5, horizons 3 and 4 refuted; its certificate: 12,861 proof lines, 1,731 lemmas checked).
Challenge 1's first layout's formula of horizon 6 is refuted by unit propagation alone, so any proof of it is valid:
it serves where the proof's lines do not matter. The level-2 one runs only under ``slow``.
"""

from __future__ import annotations

import gzip
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import PUZZLES, assert_bad_input, assert_invalid_at, run_captured

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
CHALLENGE_1 = str(PUZZLES / "challenge-1.toml")
CUT = (CHALLENGE_0, "--designer", "--max-nodes", "10")


@pytest.fixture(scope="module", name="proven")
def proven_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding ``r.json`` (the certified report) and its ``r.cnf.gz`` and ``r.drup.gz``."""
    folder = tmp_path_factory.mktemp("proven")
    code, _, err = run_captured("reach", *CUT, "--proof", str(folder / "r.json"), "--quiet")
    assert code == 0, err
    return folder


def _copy(proven: Path, tmp_path: Path) -> Path:
    for name in ("r.json", "r.cnf.gz", "r.drup.gz"):
        shutil.copy(proven / name, tmp_path / name)
    return tmp_path / "r.json"


def _edit(report: Path, change: Callable[[dict[str, Any]], None]) -> None:
    data = json.loads(report.read_text())
    change(data)
    report.write_text(json.dumps(data))


def test_proof_writes_the_report_and_its_certificate(proven: Path) -> None:
    data = json.loads((proven / "r.json").read_text())
    sat, certificate = data["par_sat"], data["par_certificate"]
    assert data["format"] == "stratagem/reach@3" and data["par"] == 5 == len(data["par_line"])
    assert (certificate["encoding"], certificate["horizon"], sat["status"]) == ("strato-designer-sat@4", 4, "solved")
    assert (certificate["cnf"], certificate["proof"]) == ("r.cnf.gz", "r.drup.gz")
    assert sat["horizons"] == [{"horizon": 3, "satisfiable": False}, {"horizon": 4, "satisfiable": False},
                               {"horizon": 5, "satisfiable": True}]
    cnf = gzip.decompress((proven / "r.cnf.gz").read_bytes()).decode()
    assert cnf.startswith("c strato-designer-sat@4: Strato designer mode, a designer line within 4 turns")
    assert certificate["proof_lines"] == len(gzip.decompress((proven / "r.drup.gz").read_bytes()).splitlines())
    assert "certified: CaDiCaL's DRUP refutation of horizon 4" in data["conclusion"]


def test_verify_certifies_the_par(cli, proven: Path) -> None:  # type: ignore[no-untyped-def]
    done = cli("verify", str(proven / "r.json"))
    assert done.code == 0, done.out + done.err
    assert "certified: designer par 5 turns: no designer line from the layout is shorter — a DRUP refutation of " \
           "the CNF rebuilt from the rules (strato-designer-sat@4, a designer line within 4 turns)" in done.out
    assert "certified: a designer line of 5 turns from the layout reaches a winning table" in done.out
    assert "report valid: every claim certified" in done.out


def test_the_text_says_certified(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Challenge 1's first layout: a formula refuted by unit propagation still gets its proof, and is certified."""
    done = cli("reach", CHALLENGE_1, "--designer", "--max-nodes", "200", "--proof", str(tmp_path / "p.json"))
    assert done.code == 0, done.err
    assert "designer par by SAT (cadical195, horizons 6-7; 6 refuted, a DRUP proof checked by stratagem's checker, " \
           "certified): par 7 turns" in done.out
    assert "report written to" in done.out and (tmp_path / "p.drup.gz").exists()
    assert cli("verify", str(tmp_path / "p.json")).code == 0


def test_view_verify_draws_the_verdict(cli, proven: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    report = _copy(proven, tmp_path)
    done = cli("view", str(report), "--verify", "--out", str(tmp_path / "r.html"))
    assert done.code == 0, done.err
    page = (tmp_path / "r.html").read_text()
    assert 'data-verdict="certified"' in page and "a DRUP refutation of horizon 4" in page


def test_a_line_by_another_move_to_the_same_layout_is_certified(cli, proven: Path,  # type: ignore[no-untyped-def]
                                                                tmp_path: Path) -> None:
    """The par line's second move, ``W1R:1R3>1R1``, and ``W1R:1R3>1R2`` (the other target choice) make the same
    layout. The searches list a layout once, by its first move, and verify and view matched a line against that
    list: a valid line written with the other move was called INVALID ("not a designer move") and the page
    refused it. Now a replay tries every move."""
    report = _copy(proven, tmp_path)
    data = json.loads(report.read_text())
    assert data["par_line"][1] == "W1R:1R3>1R1"
    _edit(report, lambda d: d["par_line"].__setitem__(1, "W1R:1R3>1R2"))
    done = cli("verify", str(report))
    assert done.code == 0, done.out + done.err
    assert "report valid: every claim certified" in done.out
    assert cli("view", str(report), "--out", str(tmp_path / "r.html")).code == 0


def test_a_par_without_proof_is_not_certified(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    done = cli("reach", *CUT, "--json")
    assert done.code == 0
    assert json.loads(done.out)["par_certificate"] is None
    report = tmp_path / "plain.json"
    report.write_text(done.out)
    checked = cli("verify", str(report))
    assert checked.code == 3, checked.out + checked.err
    assert "not certified: designer par 5 turns" in checked.out and "--proof FILE" in checked.out
    assert "certified: a designer line of 5 turns" in checked.out


def test_a_par_from_the_graph_is_not_certified(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Challenge 0's layout, the graph not cut: it reaches a win (par 5); without --proof verify replays it and
    leaves its par uncertified (with --proof it is certified since stop 68: test_qa68_par_certificate.py)."""
    done = cli("reach", str(PUZZLES / "challenge-0.toml"), "--designer", "--json")
    assert done.code == 0
    (tmp_path / "g.json").write_text(done.out)
    checked = cli("verify", str(tmp_path / "g.json"))
    assert checked.code == 3 and "not certified: designer par 5 turns" in checked.out
    assert "the graph's breadth-first search" in checked.out


def test_proof_is_for_designer_mode(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert_bad_input(cli("reach", CHALLENGE_1, "--proof", str(tmp_path / "d.json")), "--proof", "is for --designer")
    assert not (tmp_path / "d.json").exists()


def _truncate_proof(folder: Path) -> None:
    lines = gzip.decompress((folder / "r.drup.gz").read_bytes()).splitlines(keepends=True)
    (folder / "r.drup.gz").write_bytes(gzip.compress(b"".join(lines[: len(lines) // 2])))


def _drop_a_clause(folder: Path) -> None:
    lines = gzip.decompress((folder / "r.cnf.gz").read_bytes()).decode().splitlines(keepends=True)
    del lines[-1]
    (folder / "r.cnf.gz").write_bytes(gzip.compress("".join(lines).encode()))


def _deal_proof(folder: Path) -> None:
    """The deal's own certificate (solve --method sat: strato-sat@4) in place of the designer formula's: a
    proof of another formula."""
    code, _, err = run_captured("solve", CHALLENGE_0, "--method", "sat", "--proof", str(folder / "deal.json"),
                                "--quiet")
    assert code == 0, err
    shutil.copy(folder / "deal.cnf.gz", folder / "r.cnf.gz")
    shutil.copy(folder / "deal.drup.gz", folder / "r.drup.gz")


def _deal_drup_only(folder: Path) -> None:
    """The designer formula kept, the deal's proof beside it."""
    cnf = folder / "r.cnf.gz"
    kept = cnf.read_bytes()
    _deal_proof(folder)
    cnf.write_bytes(kept)


def _wrong_move(data: dict[str, Any]) -> None:
    data["par_line"][2] = "W1R:1L9>1L1"  # no ninth place


@pytest.mark.parametrize(("forge", "place", "fragment"), [
    (lambda folder: _edit(folder / "r.json", _wrong_move), "par_line[2]", "is not a designer move"),
    (lambda folder: _edit(folder / "r.json", lambda d: d["par_certificate"].update(horizon=5)),
     "par_certificate.horizon",
     "refutes 5 turns; a designer par of 5 turns needs 4"),
    (lambda folder: _edit(folder / "r.json", lambda d: d.update(par=4)), "par", "the par line has 5 moves"),
    (_deal_proof, "par_certificate.cnf", "r.cnf.gz is not the strato-designer-sat@4 CNF of 4 turns for this layout"),
    (_deal_drup_only, "par_certificate.proof", "r.drup.gz"),
    (_truncate_proof, "par_certificate.proof", "r.drup.gz"),
    (_drop_a_clause, "par_certificate.cnf", "is not the strato-designer-sat@4 CNF"),
    (lambda folder: _edit(folder / "r.json", lambda d: d.update(start=d["start"][::-1])), "start",
     "is not the layout of"),
], ids=["wrong-line", "wrong-horizon", "wrong-par", "other-formula", "other-formulas-proof", "truncated-proof",
        "changed-cnf", "other-layout"])
def test_a_forged_certificate_is_invalid(cli, proven: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                         forge: Callable[[Path], None], place: str, fragment: str) -> None:
    report = _copy(proven, tmp_path)
    forge(tmp_path)
    assert_invalid_at(cli("verify", str(report)), report, place, fragment)


def test_a_par_claimed_certified_without_a_proof_is_refused(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    done = cli("reach", *CUT, "--json")
    data = json.loads(done.out)
    data["par_certificate"] = {"encoding": "strato-designer-sat@4", "horizon": 4}  # no CNF, no proof beside it
    report = tmp_path / "claimed.json"
    report.write_text(json.dumps(data))
    assert_bad_input(cli("verify", str(report)), "claimed.json", "par_certificate.cnf",
                     "must name a file beside the record")


def test_a_missing_proof_file_is_refused(cli, proven: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    report = _copy(proven, tmp_path)
    (tmp_path / "r.drup.gz").unlink()
    assert_bad_input(cli("verify", str(report)), "par_certificate.proof", "no such file beside the record")


def test_the_deals_encoding_is_refused(cli, proven: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    report = _copy(proven, tmp_path)
    _edit(report, lambda d: d["par_certificate"].update(encoding="strato-sat@4"))
    assert_bad_input(cli("verify", str(report)), "par_certificate.encoding", "unknown encoding 'strato-sat@4'",
                     "strato-designer-sat@4")


@pytest.mark.slow
def test_the_level_2_examples_par_is_certified(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The par the brief is about: the level-2 example's first layout, par 10, horizon 9 refuted with a DRUP
    proof of 2.9 million lines (187 CPU s in all at load 5, verify 21 s more)."""
    report = tmp_path / "l2.json"
    done = cli("reach", str(PUZZLES / "level-2-example.toml"), "--designer", "--proof", str(report), "--quiet")
    assert done.code == 0, done.err
    data = json.loads(report.read_text())
    assert data["par"] == 10 and data["par_certificate"]["horizon"] == 9 and data["par_certificate"]["proof"]
    checked = cli("verify", str(report))
    assert checked.code == 0 and "certified: designer par 10 turns" in checked.out


@pytest.mark.parametrize(("limit", "said"), [
    (("--max-nodes", "10"), "not certified: no win was reached: nothing is proven either way"),
    (("--max-nodes", "10000"), "not certified: par 5 turns: no winning line from the deal's start is shorter — "
                               "rests on the graph's breadth-first search"),
])
def test_a_deal_reports_par_is_replayed_not_certified(cli, tmp_path: Path, limit: tuple[str, ...],  # type: ignore[no-untyped-def]
                                                      said: str) -> None:
    """A deal's report (no --designer): its par line is replayed by the rules engine, its par is the graph's
    word; a report that decided nothing is never valid."""
    done = cli("reach", CHALLENGE_0, *limit, "--json")
    report = tmp_path / "deal.json"
    report.write_text(done.out)
    checked = cli("verify", str(report))
    assert checked.code == 3 and said in checked.out, checked.out
