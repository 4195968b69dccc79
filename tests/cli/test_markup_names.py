"""Names from a puzzle file are text, not rich markup: a deal named ``solo [b]1[/b]`` (or ``[/red]``) printed
as markup, so ``solve`` and ``reach`` ended with an internal error (exit 70) on ``[/red]`` and showed
``solo 1`` in bold on ``[b]1[/b]``; ``odds`` and a STAKD solo answer the same (QA 56). ``show`` and the
challenge line already escaped theirs."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

CHALLENGE_0 = ROOT / "puzzles" / "strato" / "challenge-0.toml"
STAKD_SOLO = ROOT / "puzzles" / "stakd" / "solo-1-tiny.toml"


@pytest.mark.parametrize("name", ["solo [b]1[/b]", "solo [/red]"])
def test_a_deal_name_is_printed_as_written(cli, tmp_path: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    text = CHALLENGE_0.read_text()
    assert 'name = "solo-1"' in text
    puzzle = tmp_path / "named.toml"
    puzzle.write_text(text.replace('name = "solo-1"', f'name = "{name}"'))
    for command in (["solve"], ["reach", "--max-nodes", "2000"], ["odds", "--table", str(tmp_path / "t.gz")]):
        result = cli(command[0], str(puzzle), "--deal", name, *command[1:])
        assert result.code in (0, 3), (command, result.err)  # reach: the graph cut at 2,000 states (exit 3)
        assert f"deal {name}" in result.out, (command, result.out)


def test_a_stakd_solo_name_is_printed_as_written(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    text = STAKD_SOLO.read_text()
    position = tmp_path / "named.toml"
    lines = ['name = "odd [/red] one"' if line.startswith("name =") else line for line in text.splitlines()]
    position.write_text("\n".join(lines) + "\n")
    result = cli("check", str(position))
    assert result.code in (0, 1), result.err
    assert "STAKD solo — odd [/red] one" in result.out
