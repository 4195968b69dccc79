"""Where a record came from: the code that made it and the input it was made from.

Every proof, ``solve --json`` report and sweep record carries a ``provenance`` object
(docs/formats.md, "Provenance"), so that a record made by an older release, a modified checkout or a
build without the compiled core can be told apart from a current one long after it was written:

- ``stratagem``: the package version;
- ``git``: ``{"commit": SHA, "dirty": BOOL}`` when the package runs from a git checkout (``dirty``: a
  tracked file differs from the commit; ``null`` when that could not be found out), else ``null``;
- ``build``: ``{"commit": SHA, "dirty": BOOL | None}`` of the source an installed package was built from,
  as ``setup.py`` found it (``stratagem/_build.py``), or, for an editable install of a ``git archive``,
  as the archive's ``.git_archival.txt`` says; present only when ``git`` is ``null``: a wheel runs
  outside any checkout, and its version alone (the same for many commits) did not say which code it was;
  ``dirty`` is ``null`` when the build could not tell (a ``git archive`` may have been edited since);
- ``python``, ``python_sat``, ``ortools``: versions (``null`` when the library is not installed);
- ``compiled_core``: which kernels run compiled (:func:`stratagem.core.compiled.status`);
- ``input``: ``{"path": ..., "sha256": ...}`` of the input file, or ``null`` for a record not made
  from a file.

Everything but ``input`` is found once per process and cached: the git commit by reading ``.git``
directly, the dirty flag by one ``git status`` with a short timeout (no ``git`` on the machine, or
one that hangs, gives ``null``, never an error); library versions from the installed distributions'
metadata, without importing the libraries (OR-Tools takes most of a second to import). About 10 ms
once per process.

Provenance is a description, not evidence: ``verify`` neither trusts nor requires it, and only shows
it (:func:`describe`). Nothing here reads the clock, so the same code on the same input still writes
the same bytes.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import importlib
import importlib.util
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

from stratagem import __version__

#: Seconds the one ``git status`` may take before the dirty flag is given up as unknown.
GIT_TIMEOUT = 2.0

#: The checkout the package runs from, if any: the folder above ``stratagem/``.
_ROOT = Path(__file__).resolve().parent.parent.parent


def _git_dir(root: Path) -> Path | None:
    """The git directory of a checkout at ``root`` (``.git``, or where a worktree's ``.git`` file points)."""
    dot = root / ".git"
    if dot.is_dir():
        return dot
    if dot.is_file():
        try:
            text = dot.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            return None
        if text.startswith("gitdir:"):
            target = Path(text[len("gitdir:"):].strip())
            return target if target.is_absolute() else (root / target).resolve()
    return None


def _read_commit(git_dir: Path) -> str | None:
    """The commit HEAD names, read from the files (a detached HEAD, a loose ref or ``packed-refs``)."""
    try:
        head = (git_dir / "HEAD").read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None
    if not head.startswith("ref:"):
        return head if _is_sha(head) else None
    ref = head[len("ref:"):].strip()
    common = git_dir
    try:  # a worktree keeps its branches in the main repository ("commondir")
        pointer = (git_dir / "commondir").read_text(encoding="utf-8").strip()
        common = (git_dir / pointer).resolve()
    except OSError:
        pass
    for folder in (git_dir, common):
        try:
            value = (folder / ref).read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            continue
        if _is_sha(value):
            return value
    try:
        packed = (common / "packed-refs").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for line in packed.splitlines():
        sha, _, name = line.partition(" ")
        if name.strip() == ref and _is_sha(sha):
            return sha
    return None


def _is_sha(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


def _dirty(root: Path) -> bool | None:
    """Whether a tracked file differs from HEAD (one ``git status``); ``None`` when git cannot say."""
    try:
        done = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                              capture_output=True, timeout=GIT_TIMEOUT, check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return bool(done.stdout.strip())


@functools.cache
def git_state(root: Path = _ROOT) -> dict[str, Any] | None:
    """``{"commit": SHA, "dirty": BOOL | None}`` of the checkout at ``root``; ``None`` outside a checkout."""
    git_dir = _git_dir(root)
    if git_dir is None:
        return None
    commit = _read_commit(git_dir)
    if commit is None:
        return None
    return {"commit": commit, "dirty": _dirty(root)}


def archived_state(root: Path = _ROOT) -> dict[str, Any] | None:
    """``{"commit": SHA, "dirty": None}`` of a source tree unpacked from ``git archive`` that the package runs
    from in place (an editable install, whose build writes no ``_build.py``: a checkout's ``.git`` says it,
    but an archive has none), as ``git archive`` wrote it into ``.git_archival.txt``; edits since are
    unknown. ``None`` in a checkout (the file still holds its placeholder) or without the file."""
    try:
        text = (root / ".git_archival.txt").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition(": ")
        if key == "node" and _is_sha(value.strip()):
            return {"commit": value.strip(), "dirty": None}
    return None


@functools.cache
def build_state() -> dict[str, Any] | None:
    """``{"commit": SHA, "dirty": BOOL | None}`` that the build wrote into ``stratagem/_build.py``, else
    that ``git archive`` wrote into the source tree the package runs from (:func:`archived_state`);
    ``None`` where neither says (a build from a source without git, or a checkout)."""
    try:
        _build = importlib.import_module("stratagem._build")  # written by setup.py, absent in a checkout
    except ImportError:
        return archived_state()
    commit, dirty = getattr(_build, "COMMIT", None), getattr(_build, "DIRTY", None)
    if not isinstance(commit, str) or not _is_sha(commit):
        return None
    return {"commit": commit, "dirty": dirty if isinstance(dirty, bool) else None}


def _distribution_version(name: str, module: str) -> str | None:
    """The version of the distribution ``name`` that provides the package ``module``, without importing it:
    the module's ``__version__`` when it is imported already, else the ``Version:`` of the ``.dist-info``
    beside the package (one directory listing; :func:`importlib.metadata.version` scans every path entry
    and took some 30 ms a lookup, more than the rest of the provenance). ``None`` when not installed."""
    loaded = sys.modules.get(module)
    if isinstance(getattr(loaded, "__version__", None), str):
        return str(loaded.__version__)  # type: ignore[union-attr]
    try:
        spec = importlib.util.find_spec(module)  # a top-level package: located, not imported
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    site = Path(next(iter(spec.submodule_search_locations))).parent
    prefix = name.replace("-", "_").lower() + "-"
    try:
        entries = [entry.name for entry in os.scandir(site)
                   if entry.name.lower().startswith(prefix) and entry.name.endswith(".dist-info")]
        for entry in sorted(entries):
            with open(site / entry / "METADATA", encoding="utf-8", errors="replace") as handle:
                for line in handle:
                    if line.startswith("Version:"):
                        return line.split(":", 1)[1].strip()
                    if not line.strip():
                        break
    except OSError:
        pass
    from importlib import metadata

    try:
        return metadata.version(name)
    except (metadata.PackageNotFoundError, ValueError, OSError):
        return None


@functools.cache
def code_provenance() -> dict[str, Any]:
    """What the code is, found once per process: versions, git state and the compiled core."""
    from stratagem.core.compiled import label, status

    core = status()
    git = git_state()
    built = build_state() if git is None else None
    return {
        "stratagem": __version__,
        "git": git,
        **({"build": built} if built is not None else {}),
        "python": platform.python_version(),
        "python_sat": _distribution_version("python-sat", "pysat"),
        "ortools": _distribution_version("ortools", "ortools"),
        "compiled_core": {"complete": core.complete, "compiled": [label(m) for m in core.compiled],
                          "missing": [label(m) for m in core.missing], "stale": [label(m) for m in core.stale]},
    }


def file_sha256(path: str | Path) -> str | None:
    """The SHA-256 of a regular file's bytes; ``None`` for what is not one (``<game>``, a pipe)."""
    target = Path(path)
    try:
        if not target.is_file():
            return None
        digest = hashlib.sha256()
        with open(target, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
        return digest.hexdigest()
    except OSError:
        return None


def provenance(input_path: str | Path | None = None, input_sha256: str | None = None) -> dict[str, Any]:
    """The ``provenance`` object of a record made from ``input_path`` (hashed here unless ``input_sha256``,
    the digest of the bytes actually read, is given)."""
    # a deep copy: code_provenance() is computed once a process, and a caller editing its record's
    # compiled_core lists changed the provenance of every later record
    record = copy.deepcopy(code_provenance())
    if input_path is None:
        record["input"] = None
    else:
        digest = input_sha256 if input_sha256 is not None else file_sha256(input_path)
        record["input"] = None if digest is None else {"path": str(input_path), "sha256": digest}
    return record


def describe(record: Any) -> str | None:
    """One line saying what a record's ``provenance`` says it was made by (``None`` when it has none).

    For ``verify`` to show: the record's own statement, shown as such and checked against nothing."""
    if not isinstance(record, dict) or not isinstance(record.get("provenance"), dict):
        return None
    data = record["provenance"]
    parts = [f"stratagem {_text(data.get('stratagem'))}"]
    for key, words in (("git", "commit"), ("build", "built from commit")):
        state = data.get(key)
        if isinstance(state, dict):
            flag = state.get("dirty")  # compared by identity: the record's value may be a list, which does not hash
            dirty = ", modified" if flag is True else ", modified or not: unknown" if flag is None else ""
            parts.append(f"{words} {_text(state.get('commit'))[:12]}{dirty}")
    core = data.get("compiled_core")
    if isinstance(core, dict):
        parts.append("compiled core " + ("complete" if core.get("complete") is True else "incomplete"))
    for key, name in (("python_sat", "python-sat"), ("ortools", "ortools")):
        if data.get(key) is not None:
            parts.append(f"{name} {_text(data.get(key))}")
    source = data.get("input")
    if isinstance(source, dict):
        parts.append(f"input {_text(source.get('path'))} sha256 {_text(source.get('sha256'))[:12]}")
    return "; ".join(parts)


def _text(value: Any) -> str:
    """A value of an untrusted record, short and on one line."""
    return " ".join(str(value).split())[:80]


__all__ = ["build_state", "code_provenance", "describe", "file_sha256", "git_state", "provenance"]
