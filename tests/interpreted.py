"""The package run as plain Python, for the tests that hold a compiled kernel to its interpreted self.

Every compiled kernel is also ordinary Python (docs/design.md, section 1: Cython's pure-Python mode), and
an install without a compiler runs it so. The tests that check the two give the same answers copy the
package without its compiled modules (:func:`interpreted_package`), run one script in a fresh interpreter
against the copy and against the package under test (:func:`run_json`), and compare what it prints.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import stratagem
from stratagem.core.compiled import notice_text, status

#: What an install without a compiler lacks: the extension modules, Cython's generated C and the
#: build's record of the sources it compiled.
COMPILED_FILES = ("*.so", "*.pyd", "*.c", "__pycache__", "_kernel_sources.py")


def interpreted_package(folder: Path) -> Path:
    """Copy the package into ``folder`` without its compiled modules and return ``folder``, the path that
    imports the copy (for :func:`run_json`)."""
    shutil.copytree(Path(stratagem.__file__).parent, folder / "stratagem",
                    ignore=shutil.ignore_patterns(*COMPILED_FILES))
    return folder


def run_json(script: str, path: Path | None, *args: str) -> dict[str, Any]:
    """Run ``script`` (given ``args`` as its ``sys.argv[1:]``) in a fresh interpreter that imports the
    package from ``path``, or the package under test when ``path`` is None, and return the JSON object
    its last line of output prints. The child's stderr is the assertion's message if it fails."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(path), env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=600,
                          cwd=path or Path.cwd(), env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def without_core_notice(stderr: str) -> str:
    """``stderr`` of a command run by this install, without the line that says the compiled core is missing
    (the notice ``solve``, ``odds`` and ``sweep`` give where it is: an install without a compiler). Where the
    core is complete nothing is taken out, so a test that counts lines stays as strict there."""
    core = status()
    return stderr if core.complete else stderr.replace(notice_text(core) + "\n", "", 1)


def timed_for_the_compiled_odds() -> None:
    """Skip a test whose scenario is timed for the compiled odds search (a deal it settles in about a second, a
    pass it finishes within the limit, a whole challenge-0 deal valued with no limit), where ``odds_kernel``
    runs as plain Python: many times slower, the scenario does not arise (stop 69 found two such tests
    failing in a venv without a compiler)."""
    import pytest

    if "stratagem.models.strato.hidden.odds_kernel" in status().missing:
        pytest.skip("timed for the compiled search: hidden.odds_kernel runs as plain Python here")
