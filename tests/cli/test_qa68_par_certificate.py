"""QA 68: ``reach --designer --proof FILE`` certifies the designer par whichever search found it.

Before, only a par SAT found had a certificate: where the complete designer graph (challenge 0's layout) or A*
(challenge 1's) found the par, the report was written without one and ``verify`` said "not certified" (exit 3)
on exactly the layouts designers use most. Now the horizon below any par is refuted from scratch by CaDiCaL with a
DRUP proof, checked by stratagem's checker, and written beside the report; the report (``stratagem/reach@3``)
names it in ``par_certificate`` for every par, and ``verify`` checks it as it checks a SAT par's: the formula
rebuilt from the puzzle's layout, the stored CNF equal to it, the refuted horizon the par line's length minus
one, the proof checked. A ``stratagem/reach@2`` report (stop 67: the certificate in ``par_sat``) still verifies.
Par 0 (a layout that already meets the goal) needs no certificate, and ``verify`` and ``view`` now read it
(before, ``verify`` refused "par is 0, but the par line has 0 moves").
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

#: A designer line of 6 turns from challenge 0's layout that wins at its last turn and not before (par 5).
SIX_TURNS = ["R1L:1R2>1L1", "R1L:1R1>1L1", "W1R:1L1>1L2", "W1R:1L1>1L2", "W1R:1L2>1L6", "W1R:1L2>1L5"]

CHALLENGE_0_HEAD = """game = "strato"

[challenge]
name = "Challenge 0"
level = 0
weathers = "RW"
rows = 1
pairs = ["RW"]
limit = 6
rows_required = 1
players = 1

[challenge.goal]
left = "RRRR"
right = "WWWW"

[[deals]]
"""


@pytest.fixture(scope="module", name="graph_par")
def graph_par_fixture(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Challenge 0's first layout, its designer graph complete (par 5 by breadth-first search): the folder
    holding ``g.json`` with ``g.cnf.gz`` and ``g.drup.gz``, and the command's text."""
    folder = tmp_path_factory.mktemp("graph")
    code, out, err = run_captured("reach", CHALLENGE_0, "--designer", "--proof", str(folder / "g.json"))
    assert code == 0, err
    return folder, out


def _copy(folder: Path, tmp_path: Path, stem: str = "g") -> Path:
    for suffix in (".json", ".cnf.gz", ".drup.gz"):
        shutil.copy(folder / f"{stem}{suffix}", tmp_path / f"{stem}{suffix}")
    return tmp_path / f"{stem}.json"


def _edit(report: Path, change: Callable[[dict[str, Any]], None]) -> None:
    data = json.loads(report.read_text())
    change(data)
    report.write_text(json.dumps(data))


def test_a_par_from_the_graph_gets_a_certificate(graph_par: tuple[Path, str]) -> None:
    folder, out = graph_par
    data = json.loads((folder / "g.json").read_text())
    assert data["format"] == "stratagem/reach@3" and data["complete"] is True and data["par_search"] is None
    assert data["par"] == 5 == len(data["par_line"])
    certificate = data["par_certificate"]
    assert (certificate["encoding"], certificate["solver"], certificate["horizon"]) == \
        ("strato-designer-sat@4", "cadical195", 4)
    assert (certificate["cnf"], certificate["proof"]) == ("g.cnf.gz", "g.drup.gz")
    assert certificate["proof_lines"] == len(gzip.decompress((folder / "g.drup.gz").read_bytes()).splitlines())
    cnf = gzip.decompress((folder / "g.cnf.gz").read_bytes()).decode()
    assert cnf.startswith("c strato-designer-sat@4: Strato designer mode, a designer line within 4 turns")
    assert "designer par 5 (certified: CaDiCaL's DRUP refutation of horizon 4 (12,861 proof lines)" in out
    assert "report written to" in out and "with the par's certificate beside it" in out
    assert "designer par 5 (certified: CaDiCaL's DRUP refutation of horizon 4" in data["conclusion"]


def test_verify_certifies_the_graphs_par(cli, graph_par: tuple[Path, str]) -> None:  # type: ignore[no-untyped-def]
    done = cli("verify", str(graph_par[0] / "g.json"))
    assert done.code == 0, done.out + done.err
    assert "certified: designer par 5 turns: no designer line from the layout is shorter — a DRUP refutation of " \
           "the CNF rebuilt from the rules (strato-designer-sat@4, a designer line within 4 turns)" in done.out
    assert "report valid: every claim certified" in done.out


def test_a_par_from_astar_gets_a_certificate(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Challenge 1's first layout, the graph cut at 20,000 states: A* finds par 7 (the designers' guide's example),
    and the horizon below it, 6, is refuted and certified."""
    report = tmp_path / "a.json"
    done = cli("reach", CHALLENGE_1, "--designer", "--max-nodes", "20000", "--proof", str(report))
    assert done.code == 0, done.err
    data = json.loads(report.read_text())
    assert data["par_search"]["status"] == "solved" and data["par_sat"] is None and data["par"] == 7
    assert data["par_certificate"]["horizon"] == 6 and (tmp_path / "a.drup.gz").exists()
    assert "designer par 7 (certified: CaDiCaL's DRUP refutation of horizon 6" in done.out
    checked = cli("verify", str(report))
    assert checked.code == 0, checked.out + checked.err
    assert "certified: designer par 7 turns" in checked.out and "report valid: every claim certified" in checked.out


def test_a_par_from_sat_keeps_its_certificate_in_par_certificate(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """SAT's par (A* cut at 10 layouts): its certificate moved from ``par_sat`` to ``par_certificate``."""
    report = tmp_path / "s.json"
    done = cli("reach", CHALLENGE_0, "--designer", "--max-nodes", "10", "--proof", str(report))
    assert done.code == 0, done.err
    data = json.loads(report.read_text())
    assert data["par_sat"]["status"] == "solved" and "certificate" not in data["par_sat"]
    assert "horizon" not in data["par_sat"] and data["par_certificate"]["horizon"] == 4
    assert data["par_certificate"]["cnf"] == "s.cnf.gz"
    assert cli("verify", str(report)).code == 0


def test_without_proof_the_certificate_is_null(cli) -> None:  # type: ignore[no-untyped-def]
    done = cli("reach", CHALLENGE_0, "--designer", "--max-nodes", "10", "--json")
    assert done.code == 0
    assert json.loads(done.out)["par_certificate"] is None


def _to_reach_2(data: dict[str, Any]) -> None:
    """A stop-67 report: ``stratagem/reach@2``, the certificate's fields in ``par_sat`` with ``certificate: true``."""
    data["format"] = "stratagem/reach@2"
    data["par_sat"].update(certificate=True, **data.pop("par_certificate"))
    del data["par_sat"]["solver"], data["par_sat"]["encoding"]
    data["par_sat"].update(solver="cadical195", encoding="strato-designer-sat@4")


@pytest.fixture(scope="module", name="sat_par")
def sat_par_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Challenge 0's layout with the graph and A* cut at 10 layouts: SAT's par 5, certified (``s.json``)."""
    folder = tmp_path_factory.mktemp("sat")
    code, _, err = run_captured("reach", CHALLENGE_0, "--designer", "--max-nodes", "10", "--proof",
                                str(folder / "s.json"), "--quiet")
    assert code == 0, err
    return folder


def test_a_reach_2_report_still_verifies(cli, sat_par: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    report = _copy(sat_par, tmp_path, "s")
    _edit(report, _to_reach_2)
    done = cli("verify", str(report))
    assert done.code == 0, done.out + done.err
    assert "certified: designer par 5 turns" in done.out and "report valid: every claim certified" in done.out
    assert cli("view", str(report), "--out", str(tmp_path / "s.html")).code == 0
    assert "with a DRUP certificate the report names" in (tmp_path / "s.html").read_text()


def test_a_forged_reach_2_report_is_refused_at_par_sat(cli, sat_par: Path,  # type: ignore[no-untyped-def]
                                                       tmp_path: Path) -> None:
    report = _copy(sat_par, tmp_path, "s")
    _edit(report, _to_reach_2)
    _edit(report, lambda d: d["par_sat"].update(horizon=3))
    done = cli("verify", str(report))
    assert done.code == 1 and "report INVALID" in done.out
    assert done.err.startswith(f"{report}: par_sat.horizon: refutes 3 turns; a designer par of 5 turns needs 4")


def test_a_reach_2_certificate_is_not_read_from_par_sat_in_reach_3(cli, sat_par: Path,  # type: ignore[no-untyped-def]
                                                                    tmp_path: Path) -> None:
    """In ``@3`` the certificate is ``par_certificate``: ``par_sat``'s stop-67 fields are not a certificate there."""
    report = _copy(sat_par, tmp_path, "s")
    _edit(report, _to_reach_2)
    _edit(report, lambda d: d.update(format="stratagem/reach@3", par_certificate=None))
    done = cli("verify", str(report))
    assert done.code == 3 and "not certified: designer par 5 turns" in done.out


def _other_layouts_formula(folder: Path) -> None:
    """Challenge 1's first layout's certificate (A* par 7, horizon 6) in place of challenge 0's files."""
    code, _, err = run_captured("reach", CHALLENGE_1, "--designer", "--max-nodes", "200", "--proof",
                                str(folder / "o.json"), "--quiet")
    assert code == 0, err
    shutil.copy(folder / "o.cnf.gz", folder / "g.cnf.gz")
    shutil.copy(folder / "o.drup.gz", folder / "g.drup.gz")


def _truncate_proof(folder: Path) -> None:
    lines = gzip.decompress((folder / "g.drup.gz").read_bytes()).splitlines(keepends=True)
    (folder / "g.drup.gz").write_bytes(gzip.compress(b"".join(lines[: len(lines) // 2])))


def _longer_line(data: dict[str, Any]) -> None:
    data.update(par_line=SIX_TURNS, par=6)


def _longer_line_its_horizon(data: dict[str, Any]) -> None:
    """A line of 6 with its certificate said to refute 5: the stored CNF (of 4 turns) is not that formula."""
    _longer_line(data)
    data["par_certificate"]["horizon"] = 5


@pytest.mark.parametrize(("forge", "place", "fragment"), [
    (lambda folder: _edit(folder / "g.json", lambda d: d["par_certificate"].update(horizon=3)),
     "par_certificate.horizon", "refutes 3 turns; a designer par of 5 turns needs 4"),
    (_other_layouts_formula, "par_certificate.cnf",
     "g.cnf.gz is not the strato-designer-sat@4 CNF of 4 turns for this layout"),
    (_truncate_proof, "par_certificate.proof", "g.drup.gz"),
    (lambda folder: _edit(folder / "g.json", _longer_line), "par_certificate.horizon",
     "refutes 4 turns; a designer par of 6 turns needs 5"),
    (lambda folder: _edit(folder / "g.json", _longer_line_its_horizon), "par_certificate.cnf",
     "is not the strato-designer-sat@4 CNF of 5 turns"),
], ids=["wrong-horizon", "other-layouts-cnf", "truncated-proof", "longer-line", "longer-line-its-horizon"])
def test_a_forged_certificate_is_invalid(cli, graph_par: tuple[Path, str], tmp_path: Path,  # type: ignore[no-untyped-def]
                                         forge: Callable[[Path], None], place: str, fragment: str) -> None:
    report = _copy(graph_par[0], tmp_path)
    forge(tmp_path)
    assert_invalid_at(cli("verify", str(report)), report, place, fragment)


def test_the_longer_line_itself_is_a_winning_line(cli, graph_par: tuple[Path, str],  # type: ignore[no-untyped-def]
                                                  tmp_path: Path) -> None:
    """The forgery above is refused for its par, not its line: the line of 6 replays and wins."""
    report = _copy(graph_par[0], tmp_path)
    _edit(report, _longer_line)
    done = cli("verify", str(report))
    assert "certified: a designer line of 6 turns from the layout reaches a winning table" in done.out


@pytest.mark.parametrize("missing", ["cnf", "proof"])
def test_certificate_fields_without_files_are_refused(cli, graph_par: tuple[Path, str],  # type: ignore[no-untyped-def]
                                                      tmp_path: Path, missing: str) -> None:
    report = _copy(graph_par[0], tmp_path)
    _edit(report, lambda d: d["par_certificate"].pop(missing))
    assert_bad_input(cli("verify", str(report)), f"par_certificate.{missing}", "must name a file beside the record")
    report = _copy(graph_par[0], tmp_path)
    (tmp_path / f"g.{'cnf' if missing == 'cnf' else 'drup'}.gz").unlink()
    assert_bad_input(cli("verify", str(report)), f"par_certificate.{missing}", "no such file beside the record")


def test_a_certificate_in_a_deal_report_is_refused(cli, graph_par: tuple[Path, str],  # type: ignore[no-untyped-def]
                                                   tmp_path: Path) -> None:
    done = cli("reach", CHALLENGE_0, "--max-nodes", "10000", "--json")
    data = json.loads(done.out)
    data["par_certificate"] = json.loads((graph_par[0] / "g.json").read_text())["par_certificate"]
    report = tmp_path / "deal.json"
    report.write_text(json.dumps(data))
    assert_bad_input(cli("verify", str(report)), "par_certificate", "is made only in designer mode")


def test_a_certificate_the_time_cut_is_not_certified(cli, graph_par: tuple[Path, str],  # type: ignore[no-untyped-def]
                                                     tmp_path: Path) -> None:
    """The shape ``reach --proof`` writes where the time ran out before the proof or its check."""
    report = _copy(graph_par[0], tmp_path)
    _edit(report, lambda d: d.update(par_certificate={"encoding": "strato-designer-sat@4", "solver": "cadical195",
                                                       "horizon": 4, "cnf": None, "proof": None, "stopped_by": "time"}))
    done = cli("verify", str(report))
    assert done.code == 3, done.out + done.err
    assert "not certified: designer par 5 turns" in done.out and "the time ran out" in done.out
    assert cli("view", str(report), "--out", str(tmp_path / "t.html")).code == 0
    assert "the time ran out before the DRUP refutation of horizon 4" in (tmp_path / "t.html").read_text()


def test_certify_par_stops_at_its_deadline() -> None:
    """An expired deadline: the certificate says the time ran out, and no refutation."""
    from stratagem.core.deadline import Deadline
    from stratagem.core.progress import no_progress
    from stratagem.loading import load_strato
    from stratagem.models.strato.designer import StratoDesigner
    from stratagem.models.strato.reachability import certify_par

    loaded = load_strato(CHALLENGE_0)
    start = loaded.game(loaded.find_deal(None, None)).initial_state()
    layout = StratoDesigner(loaded.challenge, loaded.options, start.rows, start.last)
    certificate = certify_par(layout, 5, "solo-1", Deadline(1e-9), no_progress)
    assert certificate is not None
    assert (certificate.horizon, certificate.refutation, certificate.stopped_by) == (4, None, "time")


def test_the_page_names_the_certificate(cli, graph_par: tuple[Path, str], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    done = cli("view", str(graph_par[0] / "g.json"), "--out", str(tmp_path / "g.html"))
    assert done.code == 0, done.err
    page = (tmp_path / "g.html").read_text()
    assert "par certificate" in page and "a DRUP refutation of horizon 4" in page and "g.drup.gz" in page


def _puzzle(tmp_path: Path, position: str) -> str:
    path = tmp_path / "layout.toml"
    path.write_text(CHALLENGE_0_HEAD + f'name = "layout"\nposition = "{position}"\n')
    return str(path)


def test_par_0_needs_no_certificate(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A layout that already meets the goal: par 0, no horizon below it to refute; verify certifies the par by
    the replay alone (it refused the report before: "par is 0, but the par line has 0 moves")."""
    puzzle = _puzzle(tmp_path, "RRRR(RW)WWWW RRR WRR 1 -")
    report = tmp_path / "w.json"
    done = cli("reach", puzzle, "--designer", "--proof", str(report))
    assert done.code == 0, done.err
    assert "(designer par 0 needs no certificate: the layout already meets the goal" in done.out
    data = json.loads(report.read_text())
    assert (data["par"], data["par_line"], data["par_certificate"]) == (0, [], None)
    checked = cli("verify", str(report))
    assert checked.code == 0, checked.out + checked.err
    assert "certified: designer par 0 turns: no designer line from the layout is shorter — no line is shorter " \
           "than none" in checked.out
    assert cli("view", str(report), "--out", str(tmp_path / "w.html")).code == 0


def test_par_1_refutes_horizon_0(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """One wind card short of the goal: par 1, its certificate the refutation of "a win within 0 turns"."""
    puzzle = _puzzle(tmp_path, "RRRR(RW)WWW RRR WRR 1 -")
    report = tmp_path / "one.json"
    done = cli("reach", puzzle, "--designer", "--proof", str(report))
    assert done.code == 0, done.err
    data = json.loads(report.read_text())
    assert data["par"] == 1 and data["par_certificate"]["horizon"] == 0
    checked = cli("verify", str(report))
    assert checked.code == 0, checked.out + checked.err
    assert "certified: designer par 1 turn:" in checked.out


def test_par_0_on_a_layout_that_does_not_win_is_refused(cli, graph_par: tuple[Path, str],  # type: ignore[no-untyped-def]
                                                        tmp_path: Path) -> None:
    """An empty par line with par 0 is read as a line of no move, so it must win at the start: challenge 0's
    layout does not."""
    report = _copy(graph_par[0], tmp_path)
    _edit(report, lambda d: d.update(par_line=[], par=0, par_certificate=None))
    done = cli("verify", str(report))
    assert done.code == 1 and "report INVALID" in done.out
    assert done.err.startswith(f"{report}: par_line: its 0 moves replay but do not win")
