"""Builds stratagem's compiled core: the kernels listed in :data:`KERNELS`, compiled by Cython at install.

Everything else about the package is declared in ``pyproject.toml``; this file exists only because
setuptools takes C extensions from ``setup()``. docs/design.md says why the kernels are Cython in its
pure-Python mode: each kernel is an ordinary ``.py`` module with C types in its annotations. Cython
compiles it into an extension module of the same name, which Python imports in preference to the
``.py`` beside it; where it could not be compiled, the very same ``.py`` runs as plain Python (slowly,
and ``stratagem --version`` says so).

The build never fails for want of a compiler: a kernel that does not compile, whether Cython cannot
translate it into C or the C compiler cannot compile that, is left out with one warning naming it, and the
package installs with that kernel pure Python (the others compiled). ``STRATAGEM_PURE_PYTHON=1`` in the
environment of ``pip install`` skips the compilation on purpose (how the fallback is tested).

Beside the extensions, the build writes ``stratagem/_kernel_sources.py``: the sha256 of each kernel's
source as compiled, with the package's ``.pxd`` declarations, so that :mod:`stratagem.core.compiled` can
tell a compiled kernel that no longer matches its ``.py`` or a ``.pxd`` (an editable install whose kernel
source changed since the last build).

It also writes ``stratagem/_build.py``: the git commit the package was built from, so that the records of
an installed package, which runs outside any checkout, still say which code made them
(:mod:`stratagem.core.provenance`, ``build``). The commit is found in the checkout being built (its own
``.git``, never an enclosing repository's), else in the ``_build.py`` an sdist carries, else in
``.git_archival.txt`` as ``git archive`` fills it in (export-subst, ``.gitattributes``); else none.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent

#: The kernels, as paths of their pure-Python-mode sources; each compiles to the module of the same name.
KERNELS = (
    "stratagem/core/packed.py",
    "stratagem/core/packed_order.py",
    "stratagem/core/packed_guide.py",
    "stratagem/solvers/perft.py",
    "stratagem/core/packed_toys.py",
    "stratagem/solvers/packed_playout.py",
    "stratagem/solvers/packed_uct.py",
    "stratagem/solvers/packed_exact.py",
    "stratagem/solvers/packed_alphabeta.py",
    "stratagem/solvers/packed_expectimax.py",
    "stratagem/solvers/packed_maxn.py",
    "stratagem/solvers/packed_duct.py",
    "stratagem/solvers/packed_ismcts.py",
    "stratagem/models/strato/search/search_kernel.py",
    "stratagem/models/strato/search/relaxation_kernel.py",
    "stratagem/models/strato/hidden/odds_kernel.py",
    "stratagem/solvers/drup_flat.py",
    "stratagem/solvers/drup_compiled.py",
    "stratagem/models/cardclash/engine.py",
    "stratagem/models/cardclash/guide.py",
    "stratagem/models/stakd/engine.py",
    "stratagem/models/stakd/guide.py",
    "stratagem/solvers/induction_kernel.py",
    "stratagem/models/stackattack/engine.py",
    "stratagem/models/stratatak/engine.py",
    "stratagem/models/stratatak/guide.py",
)

#: Compiler directives every kernel starts from (a kernel may set others in its ``# cython:`` header).
#: Bounds checks and negative indexes stay as Python has them unless a kernel turns them off where it
#: has argued them; division keeps Python's semantics (``cdivision`` off) so results match the reference.
DIRECTIVES = {"language_level": 3, "embedsignature": True}

SOURCES_MODULE = "stratagem/_kernel_sources.py"

BUILD_MODULE = "stratagem/_build.py"

_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def _git(*args: str) -> str | None:
    """The output of one ``git`` command in :data:`ROOT` (``None`` when git is missing, fails or hangs)."""
    try:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, encoding="utf-8",
                              errors="replace", timeout=10, check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def build_commit() -> tuple[str | None, bool | None]:
    """The commit this source is of, and whether a tracked file differed from it (``None``: unknown)."""
    if (ROOT / ".git").exists():  # this checkout's own: git -C in an unpacked sdist would find an enclosing repo
        head = (_git("rev-parse", "HEAD") or "").strip()
        if _SHA.fullmatch(head):
            status = _git("status", "--porcelain", "--untracked-files=no")
            return head, None if status is None else bool(status.strip())
    carried = ROOT / BUILD_MODULE  # an sdist's, written by its make_release_tree below
    if carried.is_file():
        text = carried.read_text(encoding="utf-8")
        found = re.search(r"^COMMIT = '([0-9a-f]+)'$", text, re.MULTILINE)
        dirty = re.search(r"^DIRTY = (True|False|None)$", text, re.MULTILINE)
        if found and _SHA.fullmatch(found.group(1)):
            return found.group(1), {"True": True, "False": False}.get(dirty.group(1)) if dirty else None
    archival = ROOT / ".git_archival.txt"  # git archive wrote the commit into it; edits since are unknown
    if archival.is_file():
        found = re.search(r"^node: ([0-9a-f]+)$", archival.read_text(encoding="utf-8"), re.MULTILINE)
        if found and _SHA.fullmatch(found.group(1)):
            return found.group(1), None
    return None, None


def write_build_module(folder: Path) -> None:
    """Write :data:`BUILD_MODULE` under ``folder``: the commit of :func:`build_commit` (or ``None``)."""
    commit, dirty = build_commit()
    target = folder / BUILD_MODULE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f'"""Written by setup.py at build time: the git commit stratagem was built from."""\n\n'
                      f"COMMIT = {commit!r}\nDIRTY = {dirty!r}\n", encoding="utf-8")


def declarations() -> bytes:
    """Every ``.pxd`` of the package, each its path and its text, in path order: the C-level declarations a
    kernel may be compiled against (``stratagem.core.compiled.declarations`` reads the same)."""
    files = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "stratagem").rglob("*.pxd"))
    return b"".join(name.encode() + b"\0" + (ROOT / name).read_bytes() for name in files)


def source_digests() -> dict[str, str]:
    """Each kernel's module name and the sha256 of its source followed by :func:`declarations` (a kernel
    compiled against an older ``.pxd`` is as stale as one compiled from an older ``.py``)."""
    shared = declarations()
    return {path[:-3].replace("/", "."): hashlib.sha256((ROOT / path).read_bytes() + shared).hexdigest()
            for path in KERNELS}


def write_sources_module(folder: Path, compiled: list[str], keep: dict[str, str]) -> None:
    """Write :data:`SOURCES_MODULE` under ``folder``: the digests of the kernels compiled now, and ``keep``."""
    digests = {**keep, **{name: digest for name, digest in source_digests().items() if name in compiled}}
    lines = ['"""Written by setup.py at build time: the sha256 of each compiled kernel\'s source."""', "",
             "COMPILED = {"]
    lines += [f"    {name!r}: {digests[name]!r}," for name in sorted(digests)]
    lines += ["}", ""]
    target = folder / SOURCES_MODULE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(lines), encoding="utf-8")


def previous_digests(folder: Path) -> dict[str, str]:
    """The digests an earlier build wrote under ``folder`` (none when it wrote none)."""
    path = folder / SOURCES_MODULE
    if not path.is_file():
        return {}
    namespace: dict[str, dict[str, str]] = {}
    exec(path.read_text(encoding="utf-8"), namespace)  # our own generated file: one dict literal
    return dict(namespace.get("COMPILED", {}))


def selected() -> tuple[str, ...]:
    """The kernels to build: all, or those named in ``STRATAGEM_KERNELS`` (comma-separated source paths,
    for a developer rebuilding one kernel in place: ``STRATAGEM_KERNELS=stratagem/solvers/drup_flat.py
    python setup.py build_ext --inplace``)."""
    named = tuple(p.strip() for p in os.environ.get("STRATAGEM_KERNELS", "").split(",") if p.strip())
    unknown = [p for p in named if p not in KERNELS]
    if unknown:
        raise SystemExit(f"STRATAGEM_KERNELS names {', '.join(unknown)}, which are not kernels: {', '.join(KERNELS)}")
    return named


def workers() -> int:
    """Compilers run at once: one per core, at most eight (``STRATAGEM_BUILD_JOBS`` overrides)."""
    given = os.environ.get("STRATAGEM_BUILD_JOBS", "").strip()
    if given.isdigit() and int(given) > 0:
        return int(given)
    return max(1, min(8, os.cpu_count() or 1))


class OptionalBuildExt(build_ext):
    """``build_ext`` that leaves out, with a warning, a kernel that fails to compile, and compiles the
    kernels' C files in parallel (one per core: the build is most of an install's time)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = workers()

    def run(self) -> None:
        self.compiled: list[str] = []
        try:
            super().run()
        except Exception as exc:  # no compiler at all, or a broken toolchain
            self.warn(f"stratagem: the compiled core could not be built ({exc}); installing pure Python")
        write_sources_module(Path(self.build_lib), self.compiled, {})
        if self.inplace:  # a partial in-place build (STRATAGEM_KERNELS) keeps the other kernels' digests
            write_sources_module(ROOT, self.compiled, previous_digests(ROOT) if selected() else {})

    def build_extension(self, ext: object) -> None:
        if self.compiler.compiler_type == "unix":  # no debug information: a third of the compile time, unused
            ext.extra_compile_args = [*ext.extra_compile_args, "-g0"]  # type: ignore[attr-defined]
        try:
            super().build_extension(ext)
        except Exception as exc:
            self.warn(f"stratagem: kernel {ext.name} was not compiled ({exc}); it will run as plain Python")  # type: ignore[attr-defined]
            return
        self.compiled.append(ext.name)  # type: ignore[attr-defined]


class BuildPyWithCommit(build_py):
    """``build_py`` that also writes :data:`BUILD_MODULE` into the build (what a wheel installs)."""

    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):  # an editable install runs from its checkout, whose .git says it
            write_build_module(Path(self.build_lib))


class SdistWithCommit(sdist):
    """``sdist`` that writes :data:`BUILD_MODULE` into the archive: a wheel built from it has no ``.git``."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        target = Path(base_dir) / BUILD_MODULE
        if target.is_file():  # a hard link to the source's own file: replaced, not written through
            target.unlink()
        write_build_module(Path(base_dir))


def translate(kernels: list[str], jobs: int) -> list[object]:
    """Cython's translation of ``kernels`` (source paths from the working folder) into C, ``jobs`` kernels at
    once: the extensions of those it translated. A kernel Cython cannot translate (an error in its typed
    code, not the C compiler's) is left out with one line on stderr naming it, and runs as plain Python;
    Cython prints its errors above that line. ``exclude_failures`` is what keeps one kernel's error from
    stopping the others' translation (without it ``cythonize`` raises, and so did ``pip install``)."""
    from Cython.Build import cythonize

    options: dict[str, object] = {"compiler_directives": DIRECTIVES, "quiet": True, "exclude_failures": True}
    try:
        built = list(cythonize(list(kernels), nthreads=jobs, **options))
    except Exception:
        # Cython itself failed, not just a kernel: Cython 3.3.2 with setuptools 84 raises "unhashable type:
        # 'Extension'" where it gathers the kernels that failed, and a worker may die. Then one kernel at a
        # time: those translated above have an up-to-date C file, which cythonize does not translate again.
        built = []
        for path in kernels:
            with contextlib.suppress(Exception):  # named below, with the kernels whose own errors left them out
                built += cythonize([path], nthreads=0, **options)
    names = {getattr(ext, "name", None) for ext in built}
    for path in kernels:
        name = path[:-3].replace("/", ".")
        if name not in names:
            print(f"stratagem: kernel {name} could not be translated by Cython (its errors are above); "
                  f"it will run as plain Python", file=sys.stderr)
    return built


def extensions() -> list[object]:
    """The kernels as Cython extensions (those Cython could translate, :func:`translate`), or none when
    compiling is switched off or Cython is missing."""
    if os.environ.get("STRATAGEM_PURE_PYTHON", "") not in ("", "0"):
        print("stratagem: STRATAGEM_PURE_PYTHON is set; the kernels stay pure Python", file=sys.stderr)
        return []
    try:
        import Cython.Build  # noqa: F401  (only whether it is there: translate() imports what it uses)
    except ImportError:
        print("stratagem: Cython is not installed; the kernels stay pure Python", file=sys.stderr)
        return []
    return translate(list(selected() or KERNELS), workers())


# Guarded: Cython compiles several kernels in a process pool, whose workers under 'spawn' (macOS's and
# Windows' start method) run this file again as ``__mp_main__``; unguarded, each started a build of its own
# and died, and ``python setup.py build_ext --inplace`` of two or more kernels ended in BrokenProcessPool.
# setuptools' PEP 517 backend (pip) runs this file as ``__main__`` too.
if __name__ == "__main__":
    setup(ext_modules=extensions(),
          cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPyWithCommit, "sdist": SdistWithCommit})
