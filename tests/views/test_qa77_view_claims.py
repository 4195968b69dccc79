"""QA pass of the pages: a page's title against its own replay (a record that claims no win but carries a
line the page replays to a win is not titled with that claim), and a sweep's results file given to
``view`` is named as such."""

from __future__ import annotations

import contextlib
import html
import io
import json
import re
from pathlib import Path

import pytest
from pagesupport import COMMANDS, ROOT, cli

from stratagem.cli.main import run


def _record(tmp_path: Path, name: str) -> dict[str, object]:
    """The record ``COMMANDS[name]`` makes (a Strato proof of 3 turns, a STAKD proof of 6 placements)."""
    path = tmp_path / name
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert run([*COMMANDS[name], str(path)]) == 0
    record: dict[str, object] = json.loads(path.read_text())
    return record


@pytest.mark.parametrize(("name", "key", "answer"), [("strato.json", "solvable", "unsolvable"),
                                                     ("stakd.json", "winnable", "not winnable")])
def test_a_claim_of_no_win_that_the_replay_refutes_is_not_the_title(tmp_path: Path, name: str, key: str,
                                                                      answer: str) -> None:
    """A proof record edited to claim no win while it still holds its winning line was titled
    "Strato: unsolvable (as the record claims)" over a replay the page itself checked to end in a win
    (and "unsolvable (invalid)" under --verify). The title now names the win the page shows and the claim
    as the record's, contradicted."""
    record = _record(tmp_path, name)
    claim = record["claim"]
    assert isinstance(claim, dict) and claim.get(key) is True
    claim[key] = False
    edited = tmp_path / f"edited-{name}"
    edited.write_text(json.dumps(record))
    page = tmp_path / "page.html"
    code, out, err = cli("view", str(edited), "--out", str(page))
    assert code == 0, err
    found = re.search(r"<h1>(.*?)</h1>", page.read_text())
    assert found is not None
    title = found[1]
    assert "winning line of " in title and title.endswith(f", though the record claims {answer}"), title
    assert not title.split(": ", 1)[1].startswith(answer)
    code, out, err = cli("view", str(edited), "--verify", "--out", str(page))
    assert code == 1, err  # verify finds the record invalid; the page is written all the same
    found = re.search(r"<h1>(.*?)</h1>", page.read_text())
    assert found is not None and found[1].endswith(f"though the record claims {answer} (invalid)"), found


@pytest.mark.parametrize("lines", [1, 2], ids=["one-record", "two-records"])
def test_a_sweeps_results_file_is_refused_naming_report(tmp_path: Path, lines: int) -> None:
    """``view results.jsonl`` (a sweep's file, the JSON Lines file a user is likely to give) said
    "line 2, column 1: malformed JSON: Extra data", or for a file of one record that stratagem/sweep@1
    is not a format it draws; it now says what the file is and which command draws it. Nothing is written."""
    record = {"format": "stratagem/sweep@1", "game": "strato", "seed": 0}
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(record) + "\n" for _ in range(lines)))
    code, out, err = cli("view", str(results))
    assert code == 2 and out == "", err
    assert err.count("\n") == 1 and err.startswith(f"{results}: a sweep's results file"), err
    assert "stratagem report FILE --out DIR --html" in err
    assert not (tmp_path / "results.html").exists()


@pytest.mark.parametrize("name", ["tree.json", "matrices.json"])
def test_a_tree_or_certificate_page_titles_verifys_verdict(tmp_path: Path, name: str) -> None:
    """A proof tree's and a Stack Attack certificate's page was titled "proof tree (N nodes)" / "mixed
    strategies at N simultaneous node(s)" whatever ``view --verify`` found, an invalid tree included (the
    verdict only in the body); a line's and a policy's titles end with it. Now these do too."""
    record = _record(tmp_path, name)
    page = tmp_path / "page.html"
    code, _, err = cli("view", str(tmp_path / name), "--verify", "--out", str(page))
    assert code == 0, err
    found = re.search(r"<h1>(.*?)</h1>", page.read_text())
    assert found is not None and found[1].endswith(" (certified)"), found
    if name == "tree.json":  # a tree whose claim is more than it proves
        claim = record["claim"]
        assert isinstance(claim, dict) and isinstance(claim.get("value"), int)
        claim["value"] += 1
        edited = tmp_path / "edited.json"
        edited.write_text(json.dumps(record))
        code, _, err = cli("view", str(edited), "--verify", "--out", str(page))
        assert code == 1, err
        found = re.search(r"<h1>(.*?)</h1>", page.read_text())
        assert found is not None and found[1].endswith(" (invalid)"), found
    code, _, err = cli("view", str(tmp_path / name), "--out", str(page))  # without --verify: no verdict named
    found = re.search(r"<h1>(.*?)</h1>", page.read_text())
    assert code == 0 and found is not None and "certified" not in found[1] and "invalid" not in found[1], found


@pytest.mark.parametrize(("edit", "place", "fragment"), [
    (lambda r: r.update(win_probability="3/4", win_probability_float=0.75), "win_probability",
     "but the best first move of the report's ranking is worth 2/3"),
    (lambda r: r["ranking"][2].update(win_probability="9/10", float=0.9), "ranking[2].win_probability",
     "is above the report's win_probability 2/3"),
], ids=["value-above-its-best-move", "a-move-above-the-value"])
def test_an_odds_report_whose_moves_contradict_its_value_is_refused(tmp_path: Path, edit: object, place: str,
                                                                     fragment: str) -> None:
    """An odds report edited to say 3/4 while its best first move is worth 2/3 was drawn "wins with
    probability 3/4 (0.7500), exactly" over that table, and a move edited to 9/10 was ranked above the
    start's value 2/3: the start is the solo player's decision, so its value is its best move's. Bad input
    now, naming the field; the report as odds wrote it still draws."""
    report = tmp_path / "odds.json"
    position = COMMANDS["policy.json"][3]
    code, out, err = cli("odds", COMMANDS["policy.json"][1], "--position", position, "--json")
    assert code == 0, err
    report.write_text(out)
    code, _, err = cli("view", str(report), "--out", str(tmp_path / "ok.html"))
    assert code == 0, err
    record = json.loads(out)
    assert callable(edit)
    edit(record)
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(record))
    code, _, err = cli("view", str(edited), "--out", str(tmp_path / "edited.html"))
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"{edited}: {place}: ") and fragment in err, err
    assert not (tmp_path / "edited.html").exists()


@pytest.mark.parametrize(("puzzle", "options", "answer"), [
    ("cardclash/square-in-3.toml", (), "player 1 to move wins in 3 plies"),
    ("cardclash/square-in-7.toml", ("--time-limit", "0.05"), "no value established: the search was stopped"),
], ids=["solved", "stopped"])
def test_an_analyze_page_is_titled_with_its_answer(tmp_path: Path, puzzle: str, options: tuple[str, ...],
                                                   answer: str) -> None:
    """``analyze --html`` was titled with the puzzle's name alone ("Stratego Card Clash: Square in three"),
    its answer only in the list of the record's claims, where the guide says the page of a command's answer
    is titled as its text output states the answer (solve's and check's are). Its title now ends with the
    analysis's result line, a stopped search's "no value established" included."""
    page = tmp_path / "page.html"
    code, out, err = cli("analyze", str(ROOT / "puzzles" / puzzle), *options, "--html", str(page))
    assert code in (0, 3), err
    found = re.search(r"<h1>(.*?)</h1>", page.read_text())
    assert found is not None
    title = html.unescape(found[1])
    assert title.startswith("Stratego Card Clash: Square in ") and answer in title, title
    assert f"result    {answer}" in out or answer in out, out  # the text output's words
