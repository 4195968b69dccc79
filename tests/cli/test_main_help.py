"""``stratagem --help`` lists the commands from a table in cli/main.py, without importing them.

The table must say what each command's own docstring says, and the listing must be the one click
would write from the commands themselves, at any terminal width; and asking for help must load no
command module and none of the heavy libraries (numpy, OR-Tools, networkx, matplotlib).
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import click
import pytest

from stratagem.cli.main import COMMANDS, SUMMARIES, cli


def test_every_command_has_a_summary() -> None:
    assert list(SUMMARIES) == list(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_summary_is_the_first_paragraph_of_the_docstring(name: str) -> None:
    command = getattr(importlib.import_module(f"stratagem.cli.{name}"), name)
    assert command.short_help is None  # else click would show short_help, not the docstring
    first_paragraph = (command.help or "").split("\n\n")[0]
    assert " ".join(first_paragraph.split()) == SUMMARIES[name]


@pytest.mark.parametrize("width", [40, 60, 80, 120, 200])
def test_listing_is_what_click_writes_from_the_commands(width: int) -> None:
    ctx = click.Context(cli, info_name="stratagem")
    lazy = click.HelpFormatter(width=width)
    cli.format_commands(ctx, lazy)
    eager = click.HelpFormatter(width=width)
    click.Group.format_commands(cli, ctx, eager)  # click's own: imports every command for its help
    assert lazy.getvalue() == eager.getvalue()
    assert "Commands:" in lazy.getvalue()


def test_help_imports_no_command_and_no_heavy_library() -> None:
    probe = ("import json, sys\n"
             "from stratagem.cli.main import run\n"
             "code = run(['--help'])\n"
             "print(json.dumps([code, sorted(sys.modules)]))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    code, modules = json.loads(out.splitlines()[-1])
    assert code == 0
    loaded = set(modules)
    assert not {f"stratagem.cli.{name}" for name in COMMANDS} & loaded
    assert not {"ortools", "networkx", "matplotlib", "numpy"} & loaded
