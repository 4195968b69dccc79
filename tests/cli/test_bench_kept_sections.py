"""``stratagem bench GAME`` keeps the sections scripts wrote into results/<game>.md (the deep Stack Attack
endgames of scripts/stackattack_deep.py), which it cannot measure itself."""

from __future__ import annotations

from pathlib import Path

from stratagem.bench.tables import kept_sections

OLD = """# stackattack: search and play benchmark

## Matches

| a | b |

<!-- scripts/stackattack_deep.py: begin -->
## Deep endgames: exact LP analysis before and after issue 20 part 6

| position | version | solve CPU s |
| 2p-numbers-5-turns | after | 16.42 |
<!-- scripts/stackattack_deep.py: end -->

A note written by hand after the table.
"""


def test_bench_keeps_a_scripts_section_and_the_note_after_it() -> None:
    kept = "\n".join(kept_sections(OLD))
    assert "scripts/stackattack_deep.py" in kept.splitlines()[0]
    assert "| 2p-numbers-5-turns | after | 16.42 |" in kept and "A note written by hand" in kept
    assert "## Matches" not in kept  # the bench's own tables are measured again, not kept


def test_a_second_bench_run_keeps_the_same_text_once() -> None:
    first = ["# stackattack", "", "## Matches", ""] + kept_sections(OLD)
    second = ["# stackattack", "", "## Matches", ""] + kept_sections("\n".join(first))
    assert second == first
    assert "\n".join(second).count("<!-- scripts/stackattack_deep.py: begin -->") == 1


def test_nothing_is_kept_from_a_file_no_script_wrote_into() -> None:
    assert kept_sections("") == []
    assert kept_sections("# cardclash\n\n## Matches\n") == []


def test_bench_strato_keeps_verify_costs_section(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # results/strato-certified.md carries scripts/verify_cost.py's table, which bench strato cannot measure
    puzzle = tmp_path / "p.toml"
    head = (Path(__file__).resolve().parents[2] / "puzzles" / "strato" / "challenge-0.toml").read_text()
    puzzle.write_text(head.split("[[deals]]")[0] + '[[deals]]\nname = "solo-1"\nseed = 1\nplayers = 1\n')
    out = tmp_path / "results"
    out.mkdir()
    (out / "strato-certified.md").write_text("# old\n\n<!-- scripts/verify_cost.py: begin -->\n| a | b |\n"
                                             "<!-- scripts/verify_cost.py: end -->\n")
    result = cli("bench", "strato", "--puzzles", str(puzzle), "--out", str(out), "--only-certified",
                 "--time-limit", "2")
    assert result.code == 0, result.err
    text = (out / "strato-certified.md").read_text()
    assert "# old" not in text and text.count("<!-- scripts/verify_cost.py: begin -->") == 1 and "| a | b |" in text
