"""What a new user reads (QA 56, a fresh install): the notice of a missing compiled core names each kernel and
an install that works for a source tree, ``--html FILE`` says it wrote its page as ``--proof`` does, the
verify box of a page says "not certified" as the command line does, and a progress line's clock runs
between the updates of a long step (``play strato``'s first game)."""

from __future__ import annotations

import io
import json
import re
import time
from pathlib import Path

import pytest
from conftest import PUZZLES, ROOT

from stratagem.cli import progress as cli_progress
from stratagem.core import compiled

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
STAKD_SOLO = str(ROOT / "puzzles" / "stakd" / "solo-1-tiny.toml")
TWO_THIRDS = "RRWR(RW)WWRW RRR WRR 1 -"
ENGINES = tuple(m for m in compiled.KERNELS if m.endswith(".engine"))


# --- the compiled core's notice ---------------------------------------------------------------------------


def test_the_notice_tells_each_games_engine_apart() -> None:
    assert len(ENGINES) == 4  # Card Clash, STAKD, Stack Attack, Stratatak: all "engine" by their last part
    text = compiled.notice_text(compiled.CoreStatus((), ENGINES, ()))
    assert f"(4 of {len(compiled.KERNELS)} kernels run as plain Python: cardclash (engine), stakd (engine), " \
           "stackattack (engine), stratatak (engine))" in text
    assert [compiled.label(m) for m in ENGINES] == ["cardclash.engine", "stakd.engine", "stackattack.engine",
                                                   "stratatak.engine"]
    assert len({compiled.label(m) for m in compiled.KERNELS}) == len(compiled.KERNELS)
    stale = compiled.notice_text(compiled.CoreStatus((), (), ENGINES[:2]))
    assert "compiled kernels older than their source (cardclash (engine), stakd (engine))" in stale


def test_the_notice_suggests_an_install_from_the_source_not_from_a_package_index() -> None:
    """No package named stratagem is on PyPI: the project is installed from its source tree, so the way to
    compile the kernels is to install that tree again with a C compiler present."""
    text = compiled.notice_text(compiled.CoreStatus((), compiled.KERNELS, ()))
    assert "--no-binary" not in text and "stratagem stratagem" not in text
    assert "C compiler" in text
    assert "pip install --force-reinstall --no-deps --no-cache-dir <source folder or archive>" in text
    assert "pip install -e . in a checkout" in text
    assert text.count("the compiled core is missing") == 1 and "\n" not in text


def test_the_notice_is_said_once(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(compiled, "status", lambda: compiled.CoreStatus((), ENGINES, ()))
    monkeypatch.setattr(compiled, "_warned", False)
    compiled.warn_once()
    compiled.warn_once()
    err = capsys.readouterr().err
    assert err.count("the compiled core is missing") == 1 and len(err.splitlines()) == 1
    assert "stratatak (engine)" in err


# --- --html FILE says it wrote the page --------------------------------------------------------------------


@pytest.mark.parametrize("command", ["solve", "check"])
def test_html_says_the_page_was_written_as_proof_says_the_record_was(cli, tmp_path: Path, command: str) -> None:  # type: ignore[no-untyped-def]
    page, proof = tmp_path / "a.html", tmp_path / "a.json"
    done = cli(command, CHALLENGE_0, "--proof", str(proof), "--html", str(page))
    assert done.code == 0 and page.is_file()
    assert done.out.splitlines()[-2:] == [f"proof record written to {proof}", f"page written to {page}"]
    assert done.err == ""
    quiet = cli(command, CHALLENGE_0, "--html", str(page), "--quiet")  # --quiet quiets the progress only
    assert quiet.out.splitlines()[-1] == f"page written to {page}"
    as_json = cli(command, CHALLENGE_0, "--html", str(page), "--json")  # stdout is the report alone
    assert json.loads(as_json.out)["status"] and "written" not in as_json.out + as_json.err
    plain = cli(command, CHALLENGE_0)
    assert "page" not in plain.out


@pytest.mark.parametrize("command", ["solve", "check"])
def test_html_of_a_stakd_solo_says_the_page_in_the_reports_column(cli, tmp_path: Path, command: str) -> None:  # type: ignore[no-untyped-def]
    page, proof = tmp_path / "s.html", tmp_path / "s.json"
    done = cli(command, STAKD_SOLO, "--proof", str(proof), "--html", str(page))
    assert done.code == 0 and page.is_file()
    assert done.out.splitlines()[-2:] == [f"record    {proof}; check it with `stratagem verify {proof}`",
                                          f"page      {page}"]
    assert "written" not in cli(command, STAKD_SOLO, "--html", str(page), "--json").out


def test_reach_html_says_the_page_was_written(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page, graph = tmp_path / "r.html", tmp_path / "r.dot"
    done = cli("reach", CHALLENGE_0, "--designer", "--max-nodes", "10", "--export", "dot", "--out", str(graph),
               "--html", str(page))
    assert done.code == 0 and page.is_file()
    assert done.out.splitlines()[-2:] == [f"graph written to {graph} (dot)", f"page written to {page}"]
    as_json = cli("reach", CHALLENGE_0, "--designer", "--max-nodes", "10", "--html", str(page), "--json")
    assert json.loads(as_json.out)["format"] == "stratagem/reach@3" and "written" not in as_json.out


# --- the verify box says "not certified" -------------------------------------------------------------------


def test_a_policy_pages_verify_box_says_not_certified_as_the_command_line_does(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    record, page = tmp_path / "two-thirds.json", tmp_path / "two-thirds.html"
    assert cli("odds", CHALLENGE_0, "--position", TWO_THIRDS, "--proof", str(record)).code == 0
    verified = cli("verify", str(record))
    assert "not certified: " in verified.out  # the command line's words
    assert cli("view", str(record), "--verify", "--out", str(page)).code == 3
    text = page.read_text(encoding="utf-8")
    shown = re.findall(r"<span class=\"[a-z]+\"(?: data-verdict=\"[a-z-]+\")?>([^<]*)</span>", text)
    assert "not certified" in shown and "certified" in shown
    assert "not-certified" not in shown  # the token stays in the attribute, not in the text
    assert 'data-verdict="not-certified"' in text


# --- the progress line's clock ----------------------------------------------------------------------------


def test_the_progress_lines_clock_runs_between_updates(monkeypatch: pytest.MonkeyPatch) -> None:
    """A step that reports once (``play strato``'s first game, verify's recompute) showed "label: starting"
    (or its last counts and time) until the next report: the line looked stuck."""
    screen = io.StringIO()
    real = cli_progress.Console
    monkeypatch.setattr(cli_progress, "Console", lambda stderr=False: real(file=screen, force_terminal=True,
                                                                           width=100))
    with cli_progress.search_progress("strato team play", first="game", second="games") as update:
        time.sleep(0.5)
        update(1, 4)
        time.sleep(0.5)
    shown = screen.getvalue()
    before = set(re.findall(r"strato team play: starting, (\d+\.\d) s", shown))
    after = set(re.findall(r"strato team play: game 1, 4 games, (\d+\.\d) s", shown))
    assert len(before) >= 2 and len(after) >= 2, shown  # the seconds moved with no update
    assert max(map(float, after)) >= 0.8


def test_the_progress_line_is_not_shown_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    real = cli_progress.Console
    monkeypatch.setattr(cli_progress, "Console", lambda stderr=False: real(file=screen))
    with cli_progress.search_progress("x") as update:
        update(1, 2)
    assert screen.getvalue() == ""
