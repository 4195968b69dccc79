"""A difficulty card whose solo deals all finished says "0 undecided" and no more: it said "0 undecided
(stopped by the limit, shown apart)" of deals none of which was stopped (QA 56). A card with undecided
deals still says what stopped them and what is proven."""

from __future__ import annotations

from pathlib import Path

from stratagem.cli.main import run

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "results" / "strato-difficulty" / "results.jsonl"


def test_the_words_about_undecided_deals_come_only_with_some(tmp_path: Path) -> None:
    assert run(["report", str(SHIPPED), "--out", str(tmp_path), "--html", "--no-plots", "--quiet"]) == 0
    text = (tmp_path / "report.md").read_text()
    cards = [line for line in text.splitlines() if line.startswith("**Exact solo win probability**")]
    assert len(cards) == 2
    finished, stopped = cards
    assert finished.startswith("**Exact solo win probability**: 200 deal(s) exact, 0 undecided; ")
    assert "stopped by the limit" not in finished
    assert stopped.startswith("**Exact solo win probability**: 0 deal(s) exact, 200 undecided (stopped by the "
                              "limit: proven within intervals spanning")
    page = (tmp_path / "report.html").read_text()
    assert "<b>0</b> undecided; the exact values' mean" in page
    assert "<b>200</b> undecided (stopped by the limit: proven" in page and "; the grey bar)" in page
