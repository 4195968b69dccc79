"""A time limit a user is told to give again is written in full (review 61).

Resume commands, reproduce commands and the sweep's refusals wrote the limit with ``:g`` (six significant
digits): a sweep run with ``--time-limit 123.4567`` was told to resume with ``--time-limit 123.457``, which
the file's settings then refused once more.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.cli.main import run
from stratagem.cli.options import option_words
from stratagem.core.errors import Param, number_text
from stratagem.sweep import plan

CHALLENGE_0 = Path(__file__).resolve().parents[1] / "puzzles" / "strato" / "challenge-0.toml"


@pytest.mark.parametrize(("value", "text"), [(123.4567, "123.4567"), (120.0, "120"), (0.1, "0.1"),
                                              (1234567.5, "1234567.5"), (2.5e-07, "2.5e-07")])
def test_a_number_is_written_as_the_shortest_text_that_reads_back_as_it(value: float, text: str) -> None:
    assert number_text(value) == text and float(text) == value


def test_a_parameter_names_its_limit_in_full_to_the_library_and_to_the_command() -> None:
    assert Param("time_limit", 123.4567).keyword() == "time_limit=123.4567"
    assert option_words(Param("time_limit", 123.4567)) == "--time-limit 123.4567"
    assert Param("time_limit", 120.0).keyword() == "time_limit=120"


def test_a_tasks_reproduce_command_gives_its_limit_in_full() -> None:
    task = plan([str(CHALLENGE_0)], range(1), (1,), ("astar",), 123.4567)[0]
    assert task.command().endswith("--method astar --time-limit 123.4567")


def test_the_limit_a_refused_resume_names_is_the_one_that_resumes(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    common = ["sweep", str(CHALLENGE_0), "--players", "1", "--method", "astar", "--workers", "0", "--out", str(out)]
    assert run([*common, "--seeds", "1..1", "--time-limit", "123.4567"]) == 0
    assert run([*common, "--seeds", "1..2", "--time-limit", "10"]) == 2
    named = capsys.readouterr().err.split("made with --time-limit ")[1].split(";")[0]
    assert named == "123.4567"
    assert run([*common, "--seeds", "1..2", "--time-limit", named]) == 0
