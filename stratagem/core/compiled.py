"""Whether stratagem's compiled core is installed, and one line that says so when it is not.

The kernels (:data:`KERNELS`) are Cython pure-Python-mode modules: ``setup.py`` compiles each into an
extension module of the same name at install, and Python imports the extension in preference to the
``.py`` beside it. Where a kernel could not be compiled (no C compiler when the package was built, or
``STRATAGEM_PURE_PYTHON=1``), the same source runs as plain Python: every answer is the same, but the
searches are far slower (:data:`COST`). :func:`status` finds out which is the case without importing a
kernel, so that ``stratagem --version`` stays instant, and :func:`warn_once` says it on stderr, once per
process, for the commands whose work runs on the kernels.

A compiled kernel is *stale* when its source has changed since it was compiled (an editable install
after an edit, or a ``git checkout``): Python would still import the old extension. The build writes
the sha256 of each source it compiled to ``stratagem/_kernel_sources.py``, each followed by the package's
``.pxd`` files (the C-level declarations the kernels cimport, :func:`declarations`); a kernel whose ``.py``
and those no longer have that digest is reported stale and is not trusted to be current (``pip install
-e .`` again): an extension compiled against an older ``.pxd`` may read another layout of its objects.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import sys
from dataclasses import dataclass
from pathlib import Path

#: The kernels, by module name (``setup.py`` lists their sources; a test holds the two lists equal).
KERNELS = (
    "stratagem.core.packed",
    "stratagem.core.packed_order",
    "stratagem.core.packed_guide",
    "stratagem.solvers.perft",
    "stratagem.core.packed_toys",
    "stratagem.solvers.packed_playout",
    "stratagem.solvers.packed_uct",
    "stratagem.solvers.packed_exact",
    "stratagem.solvers.packed_alphabeta",
    "stratagem.solvers.packed_expectimax",
    "stratagem.solvers.packed_maxn",
    "stratagem.solvers.packed_duct",
    "stratagem.solvers.packed_ismcts",
    "stratagem.models.strato.search.search_kernel",
    "stratagem.models.strato.search.relaxation_kernel",
    "stratagem.models.strato.hidden.odds_kernel",
    "stratagem.solvers.drup_flat",
    "stratagem.solvers.drup_compiled",
    "stratagem.models.cardclash.engine",
    "stratagem.models.cardclash.guide",
    "stratagem.models.stakd.engine",
    "stratagem.models.stakd.guide",
    "stratagem.solvers.induction_kernel",
    "stratagem.models.stackattack.engine",
    "stratagem.models.stratatak.engine",
    "stratagem.models.stratatak.guide",
)

#: What running without the compiled core costs, measured (docs/design.md has the figures).
COST = "Strato's searches run about 150x slower (A*: 600 instead of 89,000 expansions a CPU second), so a solve " \
       "of seconds can take many minutes"

_PACKAGE = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class CoreStatus:
    """Which kernels are compiled and current, which run as plain Python, which are stale builds."""

    compiled: tuple[str, ...]
    missing: tuple[str, ...]
    stale: tuple[str, ...]

    @property
    def complete(self) -> bool:
        """Every kernel compiled from its current source."""
        return not self.missing and not self.stale

    def describe(self) -> str:
        """One line for ``stratagem --version``."""
        if self.complete:
            return f"compiled core: {len(self.compiled)} of {len(KERNELS)} kernels compiled (Cython)"
        return notice_text(self)


def _extension(module: str) -> Path | None:
    """The compiled extension file of ``module``, if one is installed beside its source."""
    *package, name = module.split(".")
    folder = _PACKAGE.parent.joinpath(*package)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = folder / f"{name}{suffix}"
        if candidate.is_file():
            return candidate
    return None


def _recorded_digests() -> dict[str, str]:
    try:
        written = importlib.import_module("stratagem._kernel_sources")
    except ImportError:
        return {}
    return dict(written.COMPILED)


def declarations() -> bytes:
    """Every ``.pxd`` of the package, each its path (from the folder holding the package) and its text, in
    path order: what ``setup.py``'s ``declarations`` reads at build time."""
    root = _PACKAGE.parent
    files = sorted(path.relative_to(root).as_posix() for path in _PACKAGE.rglob("*.pxd"))
    return b"".join(name.encode() + b"\0" + (root / name).read_bytes() for name in files)


def status() -> CoreStatus:
    """The compiled core as installed (reads file names and, for compiled kernels, their sources and the
    package's ``.pxd`` files)."""
    digests = _recorded_digests()
    compiled, missing, stale = [], [], []
    shared: bytes | None = None
    for module in KERNELS:
        if _extension(module) is None:
            missing.append(module)
            continue
        source = _PACKAGE.parent.joinpath(*module.split(".")).with_suffix(".py")
        if shared is None:
            shared = declarations()
        if source.is_file() and digests.get(module) != hashlib.sha256(source.read_bytes() + shared).hexdigest():
            stale.append(module)
        else:
            compiled.append(module)
    return CoreStatus(tuple(compiled), tuple(missing), tuple(stale))


def label(module: str) -> str:
    """A kernel as the notice names it: its module without ``stratagem.`` and ``models.``, so that each is
    told apart by its game or part (``cardclash.engine``, ``stakd.engine``, ``strato.hidden.odds_kernel``,
    ``core.packed``)."""
    name = module.removeprefix("stratagem.")
    return name.removeprefix("models.")


def _named(modules: tuple[str, ...]) -> str:
    """``modules`` by game or part, in :data:`KERNELS`' order: ``cardclash (engine, guide), stakd (engine)``."""
    groups: dict[str, list[str]] = {}
    for module in modules:
        head, _, rest = label(module).partition(".")
        groups.setdefault(head, []).append(rest)
    return ", ".join(f"{head} ({', '.join(names)})" for head, names in groups.items())


#: How to get the kernels compiled: the package is installed from its source tree (a checkout or an
#: archive of one), not from a package index, so the same source is installed again with a C compiler
#: present (``--no-cache-dir``: not the wheel pip built and kept the first time; ``--no-deps``: the
#: dependencies are installed already).
REINSTALL = ("to compile them, install again from the source folder or archive where a C compiler is present "
             "(and STRATAGEM_PURE_PYTHON is not set): pip install --force-reinstall --no-deps --no-cache-dir "
             "<source folder or archive>, or pip install -e . in a checkout")


def notice_text(core: CoreStatus) -> str:
    """The one line that says what is wrong with an incomplete core, what it costs and how to mend it."""
    parts = []
    if core.missing:
        parts.append(f"the compiled core is missing ({len(core.missing)} of {len(KERNELS)} kernels run as plain "
                     f"Python: {_named(core.missing)}): {COST}; {REINSTALL}")
    if core.stale:
        parts.append(f"compiled kernels older than their source ({_named(core.stale)}): rebuild them with "
                     "pip install -e . (or python setup.py build_ext --inplace)")
    return "stratagem: " + "; ".join(parts)


_warned = False


def warn_once() -> None:
    """Say on stderr, once per process, that the compiled core is missing or stale (nothing when it is fine)."""
    global _warned
    if _warned:
        return
    _warned = True
    core = status()
    if not core.complete:
        print(notice_text(core), file=sys.stderr)


__all__ = ["COST", "KERNELS", "REINSTALL", "CoreStatus", "label", "notice_text", "status", "warn_once"]
