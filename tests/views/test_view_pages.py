"""``stratagem view`` and ``report --html`` without a browser: what the pages hold, that they are drawn from
the rules engine rather than from the record's word, that bad input is one line and exit 2 with nothing
written, and that the same record gives the same bytes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pagesupport import ROOT, records_fixture  # noqa: F401 (the fixture)

from stratagem.cli.main import run
from stratagem.views.charts import integer_ticks


def _view(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(["view", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _turns(page: str) -> list[str]:
    return re.findall(r'<section class="turn" data-turn="\d+"[^>]*>(.*?)</section>', page, re.S)


def test_a_strato_page_replays_the_record_with_the_rules(records: dict[str, Path], tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """One panel per position, the record's moves in the list, the last position won with its goal row
    marked (and none at the start), the move highlighted; the same record gives the same bytes."""
    first, second = tmp_path / "a.html", tmp_path / "b.html"
    assert _view(capsys, str(records["strato.json"]), "--out", str(first))[0] == 0
    assert _view(capsys, str(records["strato.json"]), "--out", str(second))[0] == 0
    page = first.read_text()
    assert page == second.read_text()
    moves = json.loads(records["strato.json"].read_text())["line"]["moves"]
    assert re.findall(r'data-move="([^"]*)"', page) == [m.replace(">", "&gt;") for m in moves]
    turns = _turns(page)
    assert len(turns) == len(moves) + 1
    assert 'data-goal="met"' not in turns[0] and 'data-goal="met"' in turns[-1]
    assert 'data-status="won"' in turns[-1] and 'data-status="won"' not in turns[-2]
    assert all('data-mark="played"' in turn for turn in turns[1:])
    assert "the record claims" in page and "checked by this page" in page


def test_pages_reach_for_nothing_outside(records: dict[str, Path], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """No link, image, stylesheet, font or script from elsewhere; a policy that forbids every fetch."""
    for name, record in records.items():
        out = tmp_path / f"{name}.html"
        assert _view(capsys, str(record), "--out", str(out))[0] == 0
        page = out.read_text()
        assert "default-src 'none'" in page
        assert not re.search(r"<(link|img|iframe|object|embed)\b|\bsrc=|@import|url\(", page), name
        assert set(re.findall(r"https?://[^\s\"'<>]+", page)) <= {"http://www.w3.org/2000/svg"}, name


def test_a_claim_the_rules_contradict_is_shown_as_the_records(records: dict[str, Path], tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A proof whose length was edited: the page shows the edited claim only as the record's; with
    --verify it shows verify's verdict, invalid, and exits as verify does (1, the problem on stderr)."""
    data = json.loads(records["strato.json"].read_text())
    data["claim"]["length"] = 3
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    assert _view(capsys, str(forged))[0] == 0
    page = forged.with_suffix(".html").read_text()
    assert "the record claims" in page and "<code>length</code>: 3" in page
    code, _, err = _view(capsys, str(forged), "--verify", "--out", str(tmp_path / "checked.html"))
    assert code == 1 and "length" in err and len(err.strip().splitlines()) == 1
    assert 'data-verdict="invalid"' in (tmp_path / "checked.html").read_text()


def test_a_move_that_does_not_replay_is_bad_input(records: dict[str, Path], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """An illegal move: one line naming the file and the move, exit 2, no page."""
    data = json.loads(records["strato.json"].read_text())
    data["line"]["moves"][1] = data["line"]["moves"][0].replace("1R", "1L", 1) + "x"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    code, out, err = _view(capsys, str(broken))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and str(broken) in err and "line.moves[1]" in err
    assert not broken.with_suffix(".html").exists()


def test_the_output_path_is_checked_before_the_record_is_read(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _view(capsys, str(tmp_path / "missing.json"), "--out", str(tmp_path / "no" / "page.html"))
    assert code == 2 and "--out" in err and err.count("\n") == 1
    code, _, err = _view(capsys, str(tmp_path / "missing.json"))
    assert code == 2 and "missing.json" in err and "no such file" in err


def test_a_stackattack_page_rebuilds_and_checks_its_bounds(records: dict[str, Path], tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A bound certificate (matrixproof@2): each part's table rebuilt from the rules with its mix checked; a
    mix edited to another probability vector is shown as failing the check."""
    out = tmp_path / "m.html"
    assert _view(capsys, str(records["matrices.json"]), "--out", str(out))[0] == 0
    page = out.read_text()
    data = json.loads(records["matrices.json"].read_text())
    assert data["format"] == "stratagem/matrixproof@2"
    parts = sum((n[3] is not None) + (n[4] is not None) for n in data["nodes"])
    assert page.count('class="card matrix"') == parts == page.count("the mix holds at")
    assert 'class="bad"' not in page
    node = data["nodes"][0]
    node[3] = [[node[3][0][0], "1/1"]] if len(node[3]) > 1 else [[node[4][0][0][0], "1/1"]]
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    assert _view(capsys, str(forged), "--out", str(out))[0] == 0
    first = out.read_text().split('data-node="1"')[0]
    assert 'class="bad"' in first


def test_an_older_full_matrix_certificate_is_still_drawn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """matrixproof@1 (every node's matrix, both mixes): each node's matrix rebuilt and both mixes checked."""
    from stratagem.models.stackattack.puzzle import load_position
    from stratagem.solvers.matrixproof import matrix_proof
    from stratagem.solvers.simultaneous import solve_simultaneous

    position = load_position(ROOT / "puzzles/stackattack/2p-actions-3-turns.toml")
    result = solve_simultaneous(position.game, position.state, player=0, payoff="margin")
    record, out = tmp_path / "old.json", tmp_path / "old.html"
    record.write_text(json.dumps(matrix_proof(position.game, result)))
    assert _view(capsys, str(record), "--out", str(out))[0] == 0
    page = out.read_text()
    assert page.count('class="card matrix"') == len(result.nodes) == page.count("both mixes checked exactly")
    assert 'class="bad"' not in page


def test_a_proof_tree_page_holds_every_node(records: dict[str, Path], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t.html"
    assert _view(capsys, str(records["tree.json"]), "--out", str(out))[0] == 0
    page = out.read_text()
    nodes = json.loads(records["tree.json"].read_text())["nodes"]
    assert set(re.findall(r'<details class="node" data-node="(\d+)"', page)) == {str(n["id"]) for n in nodes}
    assert 'class="battlefield"' in page


def test_integer_ticks_are_whole_and_cover_the_top() -> None:
    for top in (0, 1, 2, 5, 7, 11, 26, 161, 498, 1234):
        ticks = integer_ticks(top)
        assert ticks[0] == 0 and ticks[-1] >= top and len(ticks) <= 7
        assert len({b - a for a, b in zip(ticks, ticks[1:], strict=False)}) <= 1


def _results(tmp_path: Path) -> Path:
    shipped = (ROOT / "results/strato-sweep/results.jsonl").read_text().splitlines()
    undecided = [line for line in shipped if '"status":"unknown"' in line and '"best_length":null' in line]
    path = tmp_path / "results.jsonl"
    path.write_text("\n".join(shipped[:12] + undecided[:3]) + "\n")
    return path


def test_report_html_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The page draws an undecided bar per panel that has undecided deals, marks the time limit, replays the
    hardest and easiest deals; --json prints the same counts as one document."""
    monkeypatch.chdir(ROOT)
    results = _results(tmp_path)
    assert run(["report", str(results), "--out", str(tmp_path / "r"), "--html", "--no-plots", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["format"] == "stratagem/report@1" and summary["deals"] == 15
    assert sum(row["undecided"] for row in summary["fractions"]) == 3
    page = (tmp_path / "r" / "report.html").read_text()
    assert page.count("time limit 60 s") == len({(r["challenge"], r["players"]) for r in summary["fractions"]})
    assert "undec." in page and 'class="replay"' in page and "<b class=bad>" not in page
    again = tmp_path / "again"
    assert run(["report", str(results), "--out", str(again), "--html", "--no-plots"]) == 0
    assert (again / "report.html").read_bytes() == (tmp_path / "r" / "report.html").read_bytes()


def test_report_refuses_an_empty_results_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert run(["report", str(empty), "--out", str(tmp_path / "r"), "--html"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "empty" in err
    assert not (tmp_path / "r").exists()


def test_png_plots_show_the_undecided_deals(tmp_path: Path) -> None:
    """The data behind the PNG plots: undecided deals counted per panel and the time limit kept."""
    pytest.importorskip("matplotlib")
    from stratagem.sweep import read_results
    from stratagem.sweepreport import summarise

    records, _ = read_results(_results(tmp_path))
    report = summarise(records, "results.jsonl")
    panels = report.length_panels()
    assert sum(undecided for _, undecided in panels.values()) == 3
    assert all(limits == (60.0,) for _, limits in report.seconds_panels().values())
    figures = report.plots()
    assert set(figures) == {"solvable.png", "lengths.png", "seconds.png"}
    assert all(data.startswith(b"\x89PNG") for data in figures.values())
    assert report.plots() == figures  # the same bytes again


def test_solve_and_check_write_the_page_of_their_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--html writes the answer's page (the same replay as `view` of its proof); a path that cannot be
    written is refused before any work, with one line."""
    page, proof = tmp_path / "s.html", tmp_path / "s.json"
    puzzle = str(ROOT / "puzzles/strato/challenge-0.toml")
    assert run(["solve", puzzle, "--deal", "duo-3", "--html", str(page), "--proof", str(proof)]) == 0
    moves = json.loads(proof.read_text())["line"]["moves"]
    assert re.findall(r'data-move="([^"]*)"', page.read_text()) == [m.replace(">", "&gt;") for m in moves]
    assert run(["check", str(ROOT / "puzzles/stakd/solo-1-tiny.toml"), "--html", str(tmp_path / "k.html")]) == 0
    assert 'data-status="over"' in _turns((tmp_path / "k.html").read_text())[-1]
    capsys.readouterr()
    assert run(["solve", puzzle, "--html", str(tmp_path / "no" / "s.html")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--html" in err


def test_analyze_writes_the_page_of_its_line(tmp_path: Path) -> None:
    """analyze --html: the principal variation replayed on a page of its own."""
    page = tmp_path / "a.html"
    assert run(["analyze", str(ROOT / "puzzles/cardclash/square-in-3.toml"), "--html", str(page), "--quiet"]) == 0
    text = page.read_text()
    assert "stratagem/analysis@1" in text and 'data-status="won"' in _turns(text)[-1]


def test_a_bundle_of_certificates_shows_every_players_matrices(tmp_path: Path) -> None:
    """matrixproofs@1 (three players): one set of bound tables per player, each rebuilt and checked."""
    proof, page = tmp_path / "sa3.json", tmp_path / "sa3.html"
    assert run(["analyze", str(ROOT / "puzzles/stackattack/3p-actions-2-turns.toml"), "--proof", str(proof),
                "--quiet"]) == 0
    assert run(["view", str(proof), "--out", str(page)]) == 0
    text = page.read_text()
    players = [p["player"] for p in json.loads(proof.read_text())["proofs"]]
    assert [f"The bounds of player {p + 1}" in text for p in players] == [True] * len(players)
    assert text.count("the mix holds at") == sum((n[3] is not None) + (n[4] is not None) for p in json.loads(
        proof.read_text())["proofs"] for n in p["nodes"]) and 'class="bad"' not in text


def test_a_time_limit_without_verify_is_refused(records: dict[str, Path], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _view(capsys, str(records["strato.json"]), "--time-limit", "5", "--out", str(tmp_path / "p.html"))
    assert code == 2 and "--time-limit" in err and err.count("\n") == 1
    assert not (tmp_path / "p.html").exists()


def test_verify_of_a_command_report_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A ``solve --json`` report is drawn (its rules rebuilt from the puzzle it names) but is no record
    ``verify`` checks: ``--verify`` once failed saying its format was unknown; it now says what to do."""
    report = tmp_path / "four.solve.json"
    assert run(["solve", str(ROOT / "puzzles" / "strato" / "challenge-0.toml"), "--json", "--quiet"]) == 0
    report.write_text(capsys.readouterr().out)
    code, _, err = _view(capsys, str(report), "--verify", "--out", str(tmp_path / "p.html"))
    assert code == 2 and err.count("\n") == 1 and "stratagem/solve@1 report, not a record" in err, err
    assert not (tmp_path / "p.html").exists()
    assert _view(capsys, str(report), "--out", str(tmp_path / "p.html"))[0] == 0  # without --verify it is drawn


def test_view_verify_exits_as_verify_does(records: dict[str, Path], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """--verify's exit code is verify's: 0 every claim certified, 3 a claim not certified (a claim key
    verify does not check); the page is written either way."""
    assert _view(capsys, str(records["strato.json"]), "--verify", "--out", str(tmp_path / "a.html"))[0] == 0
    data = json.loads(records["strato.json"].read_text())
    data["claim"]["lower_bound"] = data["claim"]["length"]
    unchecked = tmp_path / "unchecked.json"
    unchecked.write_text(json.dumps(data))
    assert _view(capsys, str(unchecked), "--verify", "--out", str(tmp_path / "b.html"))[0] == 3
    assert 'data-verdict="not-certified"' in (tmp_path / "b.html").read_text()


def test_each_time_limit_of_a_panel_is_drawn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Deals retried with a longer limit sit at that limit and the others at theirs: a panel draws a line for
    every limit its records were made under (it once drew only the largest, so a deal stopped at 60 s sat
    at no line)."""
    from stratagem.sweep import read_results
    from stratagem.sweepreport import summarise
    from stratagem.views.report import report_page

    monkeypatch.chdir(ROOT)
    records, _ = read_results(_results(tmp_path))
    records = [dict(r, time_limit=60.0) for r in records]
    records[0] = dict(records[0], time_limit=300.0)  # one deal of the first panel retried with 300 s
    report = summarise(records, "results.jsonl")
    panels = report.seconds_panels()
    assert sorted(limits for _, limits in panels.values()) == [(60.0,)] * (len(panels) - 1) + [(60.0, 300.0)]
    page = report_page(report)
    assert page.count("time limit 300 s") == 1
    assert page.count("time limit 60 s") == len(panels)
