"""``--json`` on the commands that gained it in issue 32 (``sweep``, ``export``, ``view``), and ``--quiet``
silencing the notes a command would print on stderr."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import PUZZLES

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")


def test_sweep_json_is_the_run_summary(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "r.jsonl"
    args = ("sweep", CHALLENGE_0, "--count", "2", "--time-limit", "30", "--workers", "0", "--out", str(out))
    first = cli(*args, "--json")
    assert first.code == 0, first.err
    summary = json.loads(first.out)
    assert summary == {"format": "stratagem/sweep-summary@1", "out": str(out), "written": 2, "skipped": 0,
                       "failed": 0, "by_status": {"solved": 2, "unsolvable": 0, "unknown": 0}}
    assert len(out.read_text().splitlines()) == 2 and first.err == ""
    again = cli(*args, "--json")
    assert json.loads(again.out)["written"] == 0 and json.loads(again.out)["skipped"] == 2
    quiet = cli(*args, "--quiet")
    assert quiet.code == 0 and quiet.out == "" and quiet.err == ""


def test_export_json_names_what_was_written(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    inline = cli("export", CHALLENGE_0, "--horizon", "2", "--json")
    assert inline.code == 0, inline.err
    data = json.loads(inline.out)
    assert data["format"] == "stratagem/export@1" and data["as"] == "dimacs" and data["written"] == []
    assert data["dimacs"].startswith("c ") and f"p cnf {data['variables']} {data['clauses']}" in data["dimacs"]
    problem = tmp_path / "solo-1.pddl"
    pddl = cli("export", CHALLENGE_0, "--format", "pddl", "--out", str(problem), "--json")
    assert pddl.code == 0 and pddl.err == "", pddl.err
    written = json.loads(pddl.out)["written"]
    assert written == [str(tmp_path / "solo-1-domain.pddl"), str(problem)]
    assert all(Path(path).read_text().startswith("(define") for path in written)
    quiet = cli("export", CHALLENGE_0, "--horizon", "2", "--out", str(tmp_path / "f.cnf"), "--quiet")
    assert quiet.code == 0 and quiet.err == "" and (tmp_path / "f.cnf").exists()


def test_view_json_names_the_page(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "solo-1.json"
    assert cli("solve", CHALLENGE_0, "--proof", str(record), "--quiet").code == 0
    page = tmp_path / "page.html"
    result = cli("view", str(record), "--out", str(page), "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out) == {"format": "stratagem/view@1", "record": str(record), "out": str(page),
                                      "verified": None}
    assert page.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    checked = json.loads(cli("view", str(record), "--out", str(page), "--verify", "--json").out)
    assert checked["verified"] not in (None, "")


def test_generate_quiet_prints_no_notes(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "deals.toml"
    loud = cli("generate", "strato", "--challenge", CHALLENGE_0, "--count", "1", "--seed", "20", "--out", str(out))
    assert loud.code == 0 and "deal(s) written" in loud.err
    quiet = cli("generate", "strato", "--challenge", CHALLENGE_0, "--count", "1", "--seed", "20", "--out", str(out),
                "--quiet")
    assert quiet.code == 0 and quiet.err == "" and "optimal_length" in out.read_text()
