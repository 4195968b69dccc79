"""``--json`` on ``show``, ``generate`` and ``bench``: one canonical JSON document on stdout, with the
keys docs/formats.md (sections 10.5-10.7) lists, byte-identical across runs where it holds no timings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import PUZZLES, Outcome
from test_bench import SMALL

from stratagem.core.outputs import dumps_record

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
SQUARE_IN_5 = str(PUZZLES.parent / "cardclash" / "square-in-5.toml")
GENERATE = ("generate", "strato", "--challenge", CHALLENGE_0, "--count", "1", "--min-length", "5",
            "--seed", "20", "--players", "4")


def document(result: Outcome, kind: str) -> dict[str, Any]:
    """The one JSON document ``result`` printed: exit 0, canonical text (sorted keys, one trailing
    newline, nothing before or after it), of format ``stratagem/<kind>@1``."""
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert isinstance(data, dict)
    assert result.out == dumps_record(data)
    assert data["format"] == f"stratagem/{kind}@1"
    return data


def test_show_deal_json(cli) -> None:  # type: ignore[no-untyped-def]
    first = cli("show", str(PUZZLES / "level-2-example.toml"), "--deal", "duo-1", "--json")
    data = document(first, "show")
    assert first.err == ""
    assert set(data) == {"format", "kind", "game", "file", "challenge", "setup", "deal", "seed", "players",
                         "start", "deals"}
    assert (data["kind"], data["deal"], data["seed"], data["players"]) == ("deal", "duo-1", 1, 2)
    assert data["start"] == "SR(SC)RS/CS(RW)CW CS,CW SWWRWRSCCSWSWRCWSRRCRWCR 1 -"
    assert "duo-1" in data["deals"] and len(data["deals"]) == 9
    text = cli("show", str(PUZZLES / "level-2-example.toml"), "--deal", "duo-1")
    assert data["start"] in text.out and data["challenge"] in text.out  # the same facts as the drawing
    assert cli("show", str(PUZZLES / "level-2-example.toml"), "--deal", "duo-1", "--json").out == first.out


def test_show_position_json(cli) -> None:  # type: ignore[no-untyped-def]
    first = cli("show", SQUARE_IN_5, "--json")
    data = document(first, "show")
    assert set(data) == {"format", "kind", "game", "file", "name", "description", "setup", "start"}
    assert (data["kind"], data["game"], data["name"]) == ("position", "cardclash", "Square in five")
    assert data["start"] == ".,b4,./.,r2,./.,r2,bXrB/b3,bX,r3 4B,2B X,2 1"
    assert cli("show", SQUARE_IN_5, "--json").out == first.out


def test_show_line_json(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "line.json"
    solved = cli("solve", CHALLENGE_0, "--deal", "four-2", "--json", "--proof", str(record))
    line = json.loads(solved.out)["line"]
    first = cli("show", str(record), "--json")
    data = document(first, "show")
    assert set(data) == {"format", "kind", "game", "file", "setup", "start", "moves", "positions", "end"}
    assert data["kind"] == "line" and data["moves"] == line
    assert len(data["positions"]) == len(line) and data["positions"][-1] == data["end"]
    assert data["end"].endswith(" won")  # replayed to the win the record claims
    assert cli("show", str(record), "--json").out == first.out


def test_generate_json_prints_the_toml_and_every_seed(cli) -> None:  # type: ignore[no-untyped-def]
    first = cli(*GENERATE, "--json")
    data = document(first, "generate")
    assert first.err == ""  # the per-seed notes are in the document
    assert set(data) == {"format", "game", "challenge", "count", "seed", "min_length", "players", "tries",
                         "time_limit", "deal_time_limit", "stopped_by", "tried", "deals", "skipped", "out", "toml"}
    assert data["stopped_by"] is None and data["time_limit"] is None and data["deal_time_limit"] == 60.0
    assert data["tries"] == 20  # the default, 20 seeds a deal asked for, as run
    assert data["tried"] == [{"seed": 20, "outcome": "kept", "optimal_length": 5, "evidence": "relaxation-bound"}]
    assert data["deals"] == [{"name": "seed-20", "seed": 20, "players": 4, "optimal_length": 5}]
    assert data["out"] is None and 'name = "seed-20"' in data["toml"]
    assert cli(*GENERATE, "--json").out == first.out


def test_generate_json_with_out_and_a_shortfall(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "hard.toml"
    result = cli(*GENERATE[:-4], "--min-length", "6", "--tries", "2", "--out", str(out), "--json")
    assert result.code == 1  # fewer deals than asked for, as without --json
    data = json.loads(result.out)
    assert result.out == dumps_record(data)
    assert [entry["outcome"] for entry in data["tried"]] == ["too short", "too short"]
    assert data["tries"] == 2 and [entry["evidence"] for entry in data["tried"]] == ["relaxation-bound"] * 2
    assert data["skipped"]["too short"] == 2 and data["deals"] == []
    # No deal kept, no file: a puzzle of no deals would read as seed 0's deal, rejected here as too short.
    assert data["out"] is None and data["toml"] is None and not out.exists()


def test_bench_json_lists_what_it_wrote(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    puzzle = tmp_path / "tiny.toml"
    puzzle.write_text(SMALL)
    out = tmp_path / "results"
    result = cli("bench", "strato", "--puzzles", str(puzzle), "--time-limit", "5", "--only-certified",
                 "--out", str(out), "--json")
    data = document(result, "bench")
    assert set(data) == {"format", "game", "out", "machine", "written", "time_limit", "certified"}
    assert data["written"] == [str(out / "strato-certified.md")] and Path(data["written"][0]).exists()
    (row,) = data["certified"]
    assert (row["puzzle"], row["deal"], row["length"], row["sat_length"]) == ("tiny.toml", "tiny", 3, 3)
    assert row["certificate"] == "relaxation-bound"
    assert len(row["solve"]) == 2 and all(seconds >= 0 for seconds in row["solve"] + row["check"] + row["sat"])


@pytest.mark.slow
def test_bench_json_for_another_game(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The other games' measurements stay in their table; the document names it (5 s: slow)."""
    out = tmp_path / "results"
    result = cli("bench", "cardclash", "--count", "1", "--iterations", "10", "--max-nodes", "1000", "--out", str(out),
                 "--json")
    data = document(result, "bench")
    assert set(data) == {"format", "game", "out", "machine", "written"}
    assert data["written"] == [str(out / "cardclash.md")] and Path(data["written"][0]).exists()
