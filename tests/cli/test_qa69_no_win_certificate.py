"""``reach --designer --proof`` on a layout whose complete graph holds no win writes the graph's layouts beside
the report (``no_win_certificate``), and ``verify`` certifies "no win is reachable" by checking that they hold
the start, no winning table, and every layout their designer moves lead to; forged sets are refused. Before
stop 69 such a report's unsolvable claim was "not certified" (exit 3): designer mode has no longest game, so no
horizon refutation covers it."""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path

import pytest
from conftest import PUZZLES, assert_bad_input, assert_invalid_at

from stratagem.core.deadline import Deadline
from stratagem.loading import load_strato
from stratagem.models.strato.designer_rules import DesignerRules
from stratagem.verification.closure import check_closure, read_layouts

HEAD = (PUZZLES / "challenge-0.toml").read_text().split("[[deals]]")[0]
#: Challenge 0 with limit 4: its goal RRRR/WWWW cannot fit, RRR/WWW (below) cannot be reached by designer moves.
NO_WIN = (HEAD.replace("limit = 6", "limit = 4").replace('left = "RRRR"', 'left = "RRR"')
          .replace('right = "WWWW"', 'right = "WWW"') + '[[deals]]\nname = "solo-1"\nseed = 1\n')


@pytest.fixture(name="made")
def made_fixture(cli, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    (tmp_path / "nowin.toml").write_text(NO_WIN)
    report = tmp_path / "r.json"
    result = cli("reach", str(tmp_path / "nowin.toml"), "--designer", "--proof", str(report))
    assert result.code == 1, result.out + result.err  # proven unsolvable
    assert "with its no-win certificate beside it" in result.out
    return report


def _layouts(report: Path) -> list[str]:
    return gzip.decompress((report.parent / "r.layouts.gz").read_bytes()).decode().splitlines()


def _rewrite(report: Path, lines: list[str]) -> None:
    (report.parent / "r.layouts.gz").write_bytes(gzip.compress("".join(f"{line}\n" for line in lines).encode()))


def test_the_layouts_are_written_and_verify_certifies_no_win(cli, made: Path) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(made.read_text())
    lines = _layouts(made)
    assert data["unsolvable"] is True and data["no_win_certificate"]["file"] == "r.layouts.gz"
    assert data["no_win_certificate"]["layouts"] == len(lines) == data["states"] == 365
    assert lines == sorted(lines) and data["start"] in lines
    result = cli("verify", str(made))
    assert result.code == 0, result.out + result.err
    assert "certified: no win is reachable on this layout" in result.out and "report valid" in result.out


def test_a_layout_left_out_is_refused(cli, made: Path) -> None:  # type: ignore[no-untyped-def]
    start = json.loads(made.read_text())["start"]
    lines = _layouts(made)
    _rewrite(made, [line for line in lines if line != start][:-1] + [start])  # the last other layout dropped
    assert_invalid_at(cli("verify", str(made)), made, "no_win_certificate", "which is not among its layouts")


def test_the_start_left_out_is_refused(cli, made: Path) -> None:  # type: ignore[no-untyped-def]
    start = json.loads(made.read_text())["start"]
    _rewrite(made, [line for line in _layouts(made) if line != start])
    assert_invalid_at(cli("verify", str(made)), made, "no_win_certificate", f"start {start} is not among")


def test_a_winning_layout_in_the_set_is_refused(cli, made: Path) -> None:  # type: ignore[no-untyped-def]
    _rewrite(made, [*_layouts(made), "RRR(RW)WWW"])
    assert_invalid_at(cli("verify", str(made)), made, "no_win_certificate", "RRR(RW)WWW, meets the goal")


def test_a_line_that_is_no_layout_is_bad_input(cli, made: Path) -> None:  # type: ignore[no-untyped-def]
    _rewrite(made, [*_layouts(made), "RRW(RW"])
    assert_bad_input(cli("verify", str(made)), "r.layouts.gz", "layouts line 366", "not a layout")


def test_a_missing_file_is_bad_input(cli, made: Path) -> None:  # type: ignore[no-untyped-def]
    (made.parent / "r.layouts.gz").unlink()
    assert_bad_input(cli("verify", str(made)), "no_win_certificate.file", "no such file beside the record")


def test_a_certificate_on_a_report_that_claims_no_unsolvability_is_bad_input(cli, made: Path) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(made.read_text())
    data["unsolvable"] = None
    made.write_text(json.dumps(data))
    assert_bad_input(cli("verify", str(made)), "no_win_certificate", "unsolvable is not true")


def test_without_proof_no_file_and_the_claim_stays_uncertified(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "nowin.toml").write_text(NO_WIN)
    result = cli("reach", str(tmp_path / "nowin.toml"), "--designer", "--json")
    assert result.code == 1 and "no_win_certificate" not in json.loads(result.out)
    assert not list(tmp_path.glob("*.layouts.gz"))


def test_a_layout_with_a_win_gets_no_layouts_file(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Limit 4 and goal RRR/W: the complete graph holds a win, so the par is certified, not a no-win."""
    (tmp_path / "win.toml").write_text(NO_WIN.replace('right = "WWW"', 'right = "W"'))
    report = tmp_path / "w.json"
    assert cli("reach", str(tmp_path / "win.toml"), "--designer", "--proof", str(report)).code == 0
    data = json.loads(report.read_text())
    assert data["complete"] is True and data["par"] is not None and "no_win_certificate" not in data
    assert not (tmp_path / "w.layouts.gz").exists()


def test_the_check_stops_at_its_deadline(tmp_path: Path) -> None:
    (tmp_path / "nowin.toml").write_text(NO_WIN)
    loaded = load_strato(tmp_path / "nowin.toml")
    start = loaded.game(loaded.find_deal(None, None)).initial_state()
    rules = DesignerRules(loaded.challenge, loaded.options, start.rows, start.last)
    layouts = read_layouts(rules, "\n".join([rules.format_state(rules.start())] * 600), "f", "layouts")
    found = check_closure(rules, layouts, Deadline(0.0, started=time.perf_counter() - 1))
    assert found.stopped and found.problem is None and found.checked < 600


def test_the_page_names_the_certificate(cli, made: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page = tmp_path / "p.html"
    assert cli("view", str(made), "--out", str(page)).code == 0
    text = page.read_text()
    assert "no-win certificate" in text and "<code>r.layouts.gz</code>" in text and "365" in text
