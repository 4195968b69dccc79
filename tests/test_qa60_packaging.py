"""The source distribution holds what a user of it needs and no build products (QA 60 packaging pass).

Without MANIFEST.in, ``python -m build --sdist`` shipped none of the puzzles the README's first command
solves and none of the docs it links, but did ship 22 Cython-generated C files (6 MB) and a third of the
tests (setuptools' default ``tests/test*.py``, without ``conftest.py`` or the subfolders: nothing that could
run). The sdist is built here as setuptools builds it (``setup.py sdist``, which reads MANIFEST.in the same
way ``python -m build`` does) from a copy of the source, never in the checkout itself.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _kernels() -> list[str]:
    """setup.py's KERNELS, read from its text (importing setup.py would run setup())."""
    text = (ROOT / "setup.py").read_text(encoding="utf-8")
    block = text.split("KERNELS = (", 1)[1].split(")", 1)[0]
    return [line.strip().strip(",").strip('"') for line in block.splitlines() if line.strip().startswith('"')]


def _current_c(kernel: str) -> bool:
    """Whether the checkout holds Cython's C of ``kernel``, newer than its .py and every .pxd (then the
    copied build does not run Cython again, which takes minutes)."""
    c_file = ROOT / (kernel[:-3] + ".c")
    if not c_file.is_file():
        return False
    newest = max([(ROOT / kernel).stat().st_mtime] + [p.stat().st_mtime for p in (ROOT / "stratagem").rglob("*.pxd")])
    return c_file.stat().st_mtime >= newest


def _copy_source(target: Path) -> None:
    """The files a source tree has (build products of the editable install aside, but Cython's C kept
    with its time, as an editable checkout holds it), and a few tests."""
    for name in ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in"):
        if (ROOT / name).is_file():
            shutil.copy2(ROOT / name, target / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.html", "*.egg-info", "_kernel_sources.py")
    for folder in ("stratagem", "puzzles", "docs"):
        shutil.copytree(ROOT / folder, target / folder, ignore=ignore)
    (target / "tests").mkdir()
    for name in ("conftest.py", "test_readme.py"):
        shutil.copy2(ROOT / "tests" / name, target / "tests" / name)
    # what an editable install leaves beside the package, and an sdist must not carry
    (target / "stratagem" / "_kernel_sources.py").write_text("COMPILED = {}\n", encoding="utf-8")


@pytest.mark.slow
def test_the_sdist_ships_puzzles_and_docs_and_no_build_products(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    _copy_source(source)
    compiled = [k for k in _kernels() if _current_c(k)]
    env = {**os.environ, "STRATAGEM_BUILD_JOBS": "1"}
    if compiled:  # cythonize keeps these C files, which setuptools adds to the sdist unless excluded
        env["STRATAGEM_KERNELS"] = ",".join(compiled)
        env.pop("STRATAGEM_PURE_PYTHON", None)
    else:
        env["STRATAGEM_PURE_PYTHON"] = "1"
    done = subprocess.run([sys.executable, "setup.py", "-q", "sdist", "--dist-dir", str(tmp_path / "dist")],
                          cwd=source, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    (archive,) = (tmp_path / "dist").glob("*.tar.gz")
    with tarfile.open(archive) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    puzzles = {p.relative_to(ROOT).as_posix() for p in (ROOT / "puzzles").rglob("*.toml")}
    assert puzzles and puzzles <= names, sorted(puzzles - names)[:5]
    docs = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*") if p.is_file()}
    assert docs and docs <= names, sorted(docs - names)[:5]
    for kernel in _kernels():
        assert kernel in names
    assert {"setup.py", "pyproject.toml", "README.md", "stratagem/py.typed", "stratagem/core/packed.pxd"} <= names
    assert not [n for n in names if n.startswith("tests/") and n != "tests/"]
    assert not [n for n in names if n.endswith((".c", ".so"))]
    assert "stratagem/_kernel_sources.py" not in names
    assert "stratagem/_build.py" in names  # the commit a wheel built from the sdist names (none: no .git here)


def test_the_openspiel_adapters_name_their_extra_when_openspiel_is_missing() -> None:
    """Without the ``openspiel`` extra, ``import stratagem.openspiel`` said only "No module named 'pyspiel'"."""
    code = ("import sys; sys.modules['pyspiel'] = None\n"  # as if OpenSpiel were not installed
            "try:\n    import stratagem.openspiel\n"
            "except ModuleNotFoundError as exc:\n    print(exc.name, exc, sep='|')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == ('pyspiel|stratagem.openspiel needs OpenSpiel (the openspiel extra): '
                                   'pip install "stratagem[openspiel]"')


def _source_with_archival(target: Path, commit: str) -> None:
    """A source tree as ``git archive`` unpacks it: no ``.git``, ``.git_archival.txt`` filled in."""
    target.mkdir()
    _copy_source(target)
    (target / "stratagem" / "_kernel_sources.py").unlink()
    (target / ".git_archival.txt").write_text(f"node: {commit}\n", encoding="utf-8")


def test_an_archive_without_git_builds_a_package_that_names_its_commit(tmp_path: Path) -> None:
    """A wheel's records said only ``stratagem 0.1.0`` (``git`` null: no checkout), as every commit did:
    the build now writes the commit, here as ``git archive`` filled it into ``.git_archival.txt``."""
    commit = "0123456789abcdef" * 2 + "01234567"
    source = tmp_path / "source"
    _source_with_archival(source, commit)
    env = {**os.environ, "STRATAGEM_PURE_PYTHON": "1"}  # build_py alone: the package's files, nothing compiled
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path / "lib")],
                          cwd=source, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    written = (tmp_path / "lib" / "stratagem" / "_build.py").read_text(encoding="utf-8")
    assert f"COMMIT = {commit!r}\nDIRTY = None\n" in written
    assert not (source / "stratagem" / "_build.py").exists()  # the source itself is left as it was


def test_the_archive_s_placeholder_is_no_commit(tmp_path: Path) -> None:
    """``.git_archival.txt`` as committed (not filled in by git archive) names no commit."""
    source = tmp_path / "source"
    _source_with_archival(source, "$Format:%H$")
    env = {**os.environ, "STRATAGEM_PURE_PYTHON": "1"}
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path / "lib")],
                          cwd=source, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "COMMIT = None\n" in (tmp_path / "lib" / "stratagem" / "_build.py").read_text(encoding="utf-8")


def test_an_installed_package_s_records_name_the_commit_it_was_built_from(monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside a checkout (``git`` null), provenance gives the build's commit as ``build``, and verify's
    line shows it; in a checkout, ``git`` says it and ``build`` is left out (records' bytes unchanged)."""
    from stratagem.core import provenance as prov

    built = types.ModuleType("stratagem._build")
    built.COMMIT = "ab" * 20  # type: ignore[attr-defined]
    built.DIRTY = False  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "stratagem._build", built)
    prov.code_provenance.cache_clear()  # both found once a process: found again with the fake build
    prov.build_state.cache_clear()
    try:
        monkeypatch.setattr(prov, "git_state", lambda: None)
        record = prov.provenance()
        assert record["git"] is None and record["build"] == {"commit": "ab" * 20, "dirty": False}
        line = prov.describe({"provenance": record})
        assert line is not None and "built from commit abababababab;" in line
        prov.code_provenance.cache_clear()
        monkeypatch.setattr(prov, "git_state", lambda: {"commit": "cd" * 20, "dirty": False})
        assert "build" not in prov.provenance()
    finally:
        prov.code_provenance.cache_clear()
        prov.build_state.cache_clear()


def test_a_page_names_the_commit_an_installed_package_was_built_from() -> None:
    """``view``'s made-by line showed the checkout's commit alone: a wheel's record named no code."""
    from stratagem.views.records import _made_by

    built = {"provenance": {"stratagem": "0.1.0", "git": None, "build": {"commit": "ef" * 20, "dirty": None}}}
    assert ", built from commit efefefefefef</p>" in _made_by(built)
    checkout = {"provenance": {"stratagem": "0.1.0", "git": {"commit": "12" * 20, "dirty": False}}}
    assert ", commit 121212121212</p>" in _made_by(checkout)
    assert _made_by({"provenance": {"stratagem": "0.1.0", "git": None, "build": ["not", "a", "dict"]}}).endswith(
        "stratagem 0.1.0</p>")


def _build_py(source: Path, lib: Path) -> str:
    """``setup.py build_py`` of ``source`` into ``lib`` (nothing compiled), and the ``_build.py`` it wrote."""
    env = {**os.environ, "STRATAGEM_PURE_PYTHON": "1"}
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(lib)],
                          cwd=source, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return (lib / "stratagem" / "_build.py").read_text(encoding="utf-8")


@pytest.mark.skipif(shutil.which("git") is None, reason="needs the git program")
def test_a_checkout_s_build_names_its_commit_and_whether_it_was_modified(tmp_path: Path) -> None:
    """``pip install .`` from a checkout: the commit of the checkout's own .git, and its dirty flag."""
    source = tmp_path / "source"
    source.mkdir()
    _copy_source(source)
    (source / "stratagem" / "_kernel_sources.py").unlink()
    git = ["git", "-C", str(source), "-c", "user.name=qa", "-c", "user.email=qa@example.invalid"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "source"]):
        subprocess.run(git + args, check=True, capture_output=True, timeout=120)
    head = subprocess.run(git + ["rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    assert f"COMMIT = {head!r}\nDIRTY = False\n" in _build_py(source, tmp_path / "clean")
    with open(source / "README.md", "a", encoding="utf-8") as handle:
        handle.write("\nedited\n")
    assert f"COMMIT = {head!r}\nDIRTY = True\n" in _build_py(source, tmp_path / "edited")
