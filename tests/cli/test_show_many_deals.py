"""``show`` of a puzzle with thousands of deals lists the first 20 names and says how many more (QA 56: a
14,000-deal file printed 101 KB of names on one line); ``--json`` keeps them all."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import PUZZLES

from stratagem.cli.show import LISTED_DEALS


def test_the_names_are_cut_and_counted(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    head = (PUZZLES / "challenge-0.toml").read_text().split("[[deals]]")[0]
    deals = "".join(f'[[deals]]\nname = "d{i}"\nseed = {i}\nplayers = 1\n' for i in range(LISTED_DEALS + 15))
    puzzle = tmp_path / "many.toml"
    puzzle.write_text(head + deals)
    result = cli("show", str(puzzle))
    assert result.code == 0, result.err
    line = next(line for line in result.out.splitlines() if line.startswith("deals in this file: "))
    assert line == ("deals in this file: " + ", ".join(f"d{i}" for i in range(LISTED_DEALS))
                    + ", and 15 more (--json lists them all)")
    listed = json.loads(cli("show", str(puzzle), "--json").out)["deals"]
    assert listed == [f"d{i}" for i in range(LISTED_DEALS + 15)]
