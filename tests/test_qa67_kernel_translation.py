"""A kernel that Cython cannot translate into C is left out of the build, the others built.

setup.py's docstring promises that the build never fails for want of a compiler: a kernel that does not
compile is left out with one warning. Until stop 67 that held for the C compiler only: ``cythonize`` ran
on every kernel at once and raised at the first kernel Cython could not translate, so ``pip install``
failed. The test runs setup.py's translation step (``extensions()``, with its worker pool) on a folder
holding one kernel Cython translates and one it refuses.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent

_GOOD = "import cython\n\n\ndef twice(n: cython.int) -> cython.int:\n    return 2 * n\n"
#: Valid Python, which Cython refuses to translate: a str literal of several characters given to a C int.
_BAD = 'import cython\n\n\ndef broken(n: cython.int) -> cython.int:\n    s: cython.int = "text"\n    return s + n\n'


def _setup_module() -> ModuleType:
    """setup.py imported as a module (its ``setup()`` call is guarded by ``__name__ == "__main__"``)."""
    spec = importlib.util.spec_from_file_location("stratagem_setup_qa67", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("cython_fails", [False, True], ids=["cython-sorts-them-out", "cython-itself-fails"])
def test_a_kernel_cython_cannot_translate_is_left_out_with_one_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
        cython_fails: bool) -> None:
    """``cython-itself-fails``: cythonize raises when given several kernels, as Cython 3.3.2 does with
    setuptools 84 (whose Extension is unhashable) where it gathers the kernels that failed; setup.py then
    translates them one at a time, with the same result and the same one warning."""
    build = pytest.importorskip("Cython.Build")
    if cython_fails:
        real = build.cythonize

        def cythonize(kernels: list[str], **options: object) -> object:
            if len(kernels) > 1:
                raise TypeError("unhashable type: 'Extension'")
            return real(kernels, **options)

        monkeypatch.setattr(build, "cythonize", cythonize)
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "good.py").write_text(_GOOD, encoding="utf-8")
    (package / "bad.py").write_text(_BAD, encoding="utf-8")
    setup = _setup_module()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(setup, "KERNELS", ("pkg/bad.py", "pkg/good.py"))
    for name in ("STRATAGEM_PURE_PYTHON", "STRATAGEM_KERNELS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("STRATAGEM_BUILD_JOBS", "2")  # the pool that a real install uses on two cores
    built = setup.extensions()
    assert [ext.name for ext in built] == ["pkg.good"]
    assert (package / "good.c").is_file() and not (package / "bad.c").exists()
    err = capfd.readouterr().err
    ours = [line for line in err.splitlines() if line.startswith("stratagem:")]
    assert ours == ["stratagem: kernel pkg.bad could not be translated by Cython (its errors are above); "
                    "it will run as plain Python"]
    assert "bad.py:5:" in err  # Cython's own message, which the warning points to
    sys.modules.pop("stratagem_setup_qa67", None)
