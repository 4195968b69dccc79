"""The sweep report's page counts deals as report.md does: a deal swept with two methods is one deal (the
page said "6 Strato deal(s)" of 3), and two versions of a card are shown apart, each replay its own anchor
(both versions' replays had one id, so a link landed on the other version's line)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from stratagem.cli.main import run

ROOT = Path(__file__).resolve().parents[2]
CHALLENGE_0 = ROOT / "puzzles" / "strato" / "challenge-0.toml"


def _page(results: Path, folder: Path) -> str:
    assert run(["report", str(results), "--out", str(folder), "--html", "--no-plots", "--quiet"]) == 0
    return (folder / "report.html").read_text()


def test_a_deal_swept_with_two_methods_is_one_deal_on_the_page(tmp_path: Path) -> None:
    out = tmp_path / "sweep.jsonl"
    assert run(["sweep", str(CHALLENGE_0), "--count", "3", "--method", "auto", "--method", "astar", "--time-limit",
                "10", "--workers", "0", "--quiet", "--out", str(out)]) == 0
    page = _page(out, tmp_path / "report")
    intro = re.search(r'<p class="sub">(.*?)</p>', page, re.S)
    assert intro is not None
    assert intro.group(1).startswith("3 Strato deal(s) and 0 position analyse(s)")
    assert "6 deal-and-method records" in intro.group(1)
    md = (tmp_path / "report" / "report.md").read_text()
    assert md.count("3 Strato deal(s) (6 deal-and-method records") == 1


def test_one_method_says_nothing_of_records(tmp_path: Path) -> None:
    out = tmp_path / "sweep.jsonl"
    assert run(["sweep", str(CHALLENGE_0), "--count", "2", "--time-limit", "10", "--workers", "0", "--quiet",
                "--out", str(out)]) == 0
    page = _page(out, tmp_path / "report")
    assert "2 Strato deal(s) and 0 position" in page and "deal-and-method records" not in page


def test_two_versions_of_a_card_have_their_own_rows_and_replays(tmp_path: Path) -> None:
    card, out = tmp_path / "card.toml", tmp_path / "sweep.jsonl"
    text = CHALLENGE_0.read_text()
    assert "limit = 6" in text
    names = []
    for limit in (6, 5):  # both limits leave these deals solvable: each version's deals are in the tables
        card.write_text(text.replace("limit = 6", f"limit = {limit}"))
        names.append(f"Challenge 0 ({hashlib.sha256(card.read_bytes()).hexdigest()[:8]})")
        assert run(["sweep", str(card), "--seeds", "0..1", "--time-limit", "10", "--workers", "0", "--quiet",
                    "--out", str(out)]) == 0
    page = _page(out, tmp_path / "report")
    links = re.findall(r'href="#(replay[^"]*)"', page)
    targets = re.findall(r'<section class="card" id="(replay[^"]*)"', page)
    assert len(targets) == len(set(targets)) == 4  # two deals of each version, each its own card
    assert set(links) == set(targets)
    for name in names:
        assert page.count(f"<h3>{name}, 1 player(s), seed") == 2
        assert f"<td>{name}</td>" in page  # the hardest and easiest tables name the version
    # the file holds the second version now: its deals are replayed, the first version's say why not
    lines = re.findall(r'id="(replay[^"]*-line)"', page)
    assert len(lines) == len(set(lines)) == 2 and all(names[1][-9:-1] in line for line in lines)
    assert page.count("has changed since the sweep (its SHA-256 differs)") == 2
