"""The versions ``pyproject.toml`` claims are ones the code was built and tested with (stop 66).

At stop 66 the project was installed with the lowest version every floor allowed (Python 3.11): with
Cython 3.0.10, the old floor, the install failed. Its pure-Python mode has no ``cython.const`` (added in
Cython 3.1), so ``drup_flat``'s ``const`` memoryview of the proof's bytes was a Python object and
the kernel did not translate (28 errors, and a kernel Cython cannot translate stops the whole build). The
floor of both the build requirement and the runtime dependency (the shadow module the uncompiled kernels
import) is the version that works. The table below is the names of Cython's pure-Python mode the kernels
use that older Cythons lack, with the version that brought each: a kernel that starts using another
newer name must raise the floor with it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Pure-Python-mode names of Cython newer than Cython 3.0, with the release that added them.
NEWER_NAMES = {"const": (3, 1)}


def _kernels() -> list[str]:
    """setup.py's KERNELS, read from its text (importing setup.py would run setup())."""
    text = (ROOT / "setup.py").read_text(encoding="utf-8")
    block = text.split("KERNELS = (", 1)[1].split(")", 1)[0]
    return [line.strip().strip(",").strip('"') for line in block.splitlines() if line.strip().startswith('"')]


def _floor(requirements: list[str], name: str) -> tuple[int, ...]:
    """The ``>=`` floor of ``name`` among ``requirements`` (its release numbers)."""
    for requirement in requirements:
        found = re.fullmatch(rf"{name}>=([0-9.]+)", requirement.strip(), re.IGNORECASE)
        if found:
            return tuple(int(part) for part in found.group(1).strip(".").split("."))
    raise AssertionError(f"no floor of {name} in {requirements}")


def test_the_cython_floors_have_every_pure_python_name_the_kernels_use() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    floors = {"build requirement": _floor(project["build-system"]["requires"], "cython"),
              "runtime dependency": _floor(project["project"]["dependencies"], "cython")}
    used = {name for kernel in _kernels()
            for name in re.findall(r"\bcython\.(\w+)", (ROOT / kernel).read_text(encoding="utf-8"))}
    assert "const" in used  # the table says something about these kernels
    for name in sorted(used & NEWER_NAMES.keys()):
        for what, floor in floors.items():
            assert floor >= NEWER_NAMES[name], f"cython.{name} needs {NEWER_NAMES[name]}; the {what} allows {floor}"
