"""A benchmark table names the command that reproduces it (stop 62). Every table said "Written by
`stratagem bench strato`" (or `stratagem bench GAME`) whatever options the run was given, so a table made
with ``--time-limit 160`` or ``--max-nodes 50000`` named a command that measures something else, and the
shipped headers had to be mended by hand. The header now writes out every option its figures depend on,
defaults included (a default may change), and the command it writes parses."""

from __future__ import annotations

import re

import pytest

from stratagem.bench.games import bench_command
from stratagem.bench.strato_certified import certified_table
from stratagem.bench.strato_checker import checker_table
from stratagem.bench.strato_methods import header
from stratagem.bench.strato_planners import planner_table
from tests.test_qa62_quoted_commands import command_problem


def written_by(lines: list[str] | str) -> str:
    text = "\n".join(lines) if isinstance(lines, list) else lines
    found = re.search(r"Written by `([^`]+)`", text)
    assert found, text[:300]
    return found.group(1)


def test_a_strato_table_names_its_time_limit_and_its_only_option() -> None:
    assert written_by(certified_table([], 160.0)) == "stratagem bench strato --time-limit 160"
    assert "(`--only-certified` writes this table alone)" in certified_table([], 160.0)
    assert written_by(checker_table([], 10.0)) == "stratagem bench strato --time-limit 10"
    assert written_by(header("t", 2.5)) == "stratagem bench strato --time-limit 2.5"
    planners = planner_table([], 60.0, 30.0)
    assert written_by(planners) == "stratagem bench strato --time-limit 60 --planner-time-limit 30"


@pytest.mark.parametrize(("args", "command"), [
    (("cardclash", 50_000, None, 40, "compiled"),
     "stratagem bench cardclash --max-nodes 50000 --count 40 --engine compiled"),
    (("stackattack", 2_000_000, 300, 20, "reference"),
     "stratagem bench stackattack --max-nodes 2000000 --iterations 300 --count 20 --engine reference"),
])
def test_a_games_table_names_every_option_it_ran_with(args: tuple[str, int, int | None, int, str],
                                                      command: str) -> None:
    assert bench_command(*args) == command


def test_the_commands_the_headers_write_parse() -> None:
    for command in (written_by(certified_table([], 160.0)), written_by(planner_table([], 60.0, 30.0)),
                    bench_command("stakd", 10, 5, 3, "compiled")):
        assert command_problem(command) is None, command
