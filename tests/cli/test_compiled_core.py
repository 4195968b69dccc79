"""The compiled core as a user meets it: built at install, said aloud when missing, never written at run time.

The kernels are Cython pure-Python-mode modules (docs/design.md): compiled, Python imports the extension
module; where no compiler was present, the same ``.py`` runs as plain Python. These tests run the
commands in fresh interpreters, as a user would: the installed package as it is (CI installs it with
``pip install .`` from a clean checkout, exactly what a new user gets: nothing is compiled or cached at
the first call any more, so there is no warmer state to test against), and a copy of the package's
sources without any compiled module, which is what an install without a C compiler holds.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PUZZLES, ROOT

import stratagem
from stratagem.core import compiled
from tests.interpreted import interpreted_package

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
NOTICE = "the compiled core is missing"


def stratagem_process(*args: str, path: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m stratagem args`` in a fresh interpreter; with ``path``, the package found there first."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(path), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "stratagem", *args], capture_output=True, text=True,
                          timeout=600, cwd=path or ROOT, env=env)


def test_the_kernel_list_is_the_one_setup_compiles() -> None:
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    listed = next(node.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == "KERNELS" for t in node.targets))
    sources = ast.literal_eval(listed)
    assert tuple(s[:-3].replace("/", ".") for s in sources) == compiled.KERNELS
    for source in sources:
        assert (ROOT / source).is_file(), source


@pytest.mark.skipif(os.environ.get("STRATAGEM_REQUIRE_COMPILED") != "1",
                    reason="only where the compiled core must have been built (CI sets STRATAGEM_REQUIRE_COMPILED=1)")
def test_the_installed_core_is_compiled_and_current() -> None:
    core = compiled.status()
    assert core.complete, core
    assert stratagem_process("--version").stdout.startswith(f"stratagem {stratagem.__version__} (compiled core:")


def test_a_changed_declaration_file_makes_every_kernel_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel compiled against an older ``.pxd`` may read another layout of the objects it shares: the
    digests the build records cover the package's ``.pxd`` files as well as each kernel's ``.py``."""
    if not compiled.status().complete:
        pytest.skip("needs a compiled core built from the current sources")
    copy = tmp_path / "stratagem"
    shutil.copytree(Path(stratagem.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__", "*.c"))
    monkeypatch.setattr(compiled, "_PACKAGE", copy)
    assert compiled.status().complete  # the copy as it was built: current
    declared = copy / "core" / "packed.pxd"
    declared.write_text(declared.read_text(encoding="utf-8") + "\n# one more line\n", encoding="utf-8")
    assert set(compiled.status().stale) == set(compiled.KERNELS)


def test_version_names_the_state_of_the_core() -> None:
    done = stratagem_process("--version")
    assert done.returncode == 0
    assert done.stdout.startswith(f"stratagem {stratagem.__version__}")
    core = compiled.status()
    assert (NOTICE in done.stderr) == bool(core.missing)
    assert ("compiled core: " in done.stdout) == core.complete


@pytest.fixture(scope="module")
def pure_python_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package's sources alone, as an install without a C compiler holds them."""
    return interpreted_package(tmp_path_factory.mktemp("pure"))


def test_without_the_compiled_core_version_says_so_once(pure_python_copy: Path) -> None:
    done = stratagem_process("--version", path=pure_python_copy)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"stratagem {stratagem.__version__}\n"
    assert done.stderr.count(NOTICE) == 1
    assert "run as plain Python" in done.stderr and "slower" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_without_the_compiled_core_solve_answers_the_same_and_says_so_once(pure_python_copy: Path) -> None:
    done = stratagem_process("solve", CHALLENGE_0, "--json", path=pure_python_copy)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count(NOTICE) == 1
    pure = json.loads(done.stdout)
    fast = json.loads(stratagem_process("solve", CHALLENGE_0, "--json").stdout)
    assert pure["status"] == fast["status"] == "solved"
    assert pure["line"] == fast["line"]
    assert pure["lower_bound"] == fast["lower_bound"] == pure["length"] == len(pure["line"]) == 5
    assert pure["optimal"] is fast["optimal"] is True


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder`` with its size and modification time, except bytecode caches (which
    Python itself writes on import where pip did not compile them ahead, as in an editable install)."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def test_a_solve_writes_nothing_into_the_installed_package(tmp_path: Path) -> None:
    package = Path(stratagem.__file__).parent
    before = _snapshot(package)
    proof = tmp_path / "p.json"
    assert stratagem_process("solve", CHALLENGE_0, "--proof", str(proof)).returncode == 0
    assert stratagem_process("verify", str(proof)).returncode == 0
    assert _snapshot(package) == before


def test_without_the_compiled_core_odds_answers_the_same_and_says_so_once(pure_python_copy: Path) -> None:
    # a position two draws from the end: small enough for the plain-Python expectimax
    args = ("odds", CHALLENGE_0, "--position", "RRWR(RW)WWRW RRR WRR 1 -", "--json")
    done = stratagem_process(*args, path=pure_python_copy)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count(NOTICE) == 1
    fast = stratagem_process(*args)
    assert NOTICE not in fast.stderr or compiled.status().missing
    pure, compiled_answer = json.loads(done.stdout), json.loads(fast.stdout)
    assert pure["status"] == compiled_answer["status"] == "solved"
    assert pure["win_probability"] == compiled_answer["win_probability"] == "2/3"
    assert pure["ranking"] == compiled_answer["ranking"]
