"""QA 66: the measuring scripts run where ``resource`` is missing (Windows), saying what they cannot measure.

``scripts/startup.py``, ``strato_compiled.py``, ``verify_cost.py`` (the children's CPU seconds),
``strato_hidden_exact.py`` and ``stackattack_deep.py`` (the peak memory) imported ``resource``, which only
Unix has, so on Windows they stopped at their first line; so did their load average (``os.getloadavg``,
Unix only). Now each figure it cannot have is "not measured on this system", and on Linux the output is
as before. The scripts are loaded in an interpreter made to lack what Windows lacks (``windowslike``), with
``os.getloadavg`` and ``os.wait4`` taken away too, and their measuring functions called on a trivial command.
``stackattack_induction.py`` read its child's CPU seconds with ``os.wait4``, Unix only as well.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from windowslike import PRELUDE

ROOT = Path(__file__).resolve().parents[2]
NOT_MEASURED = "not measured on this system"


def _windows_like(code: str, cwd: Path) -> str:
    """Run ``code`` after :data:`PRELUDE` (and without ``os.getloadavg``), with ``load(NAME)`` loading
    ``scripts/NAME.py`` as a module; its standard output."""
    prelude = PRELUDE + textwrap.dedent(f"""
        del os.getloadavg, os.wait4
        import importlib.util
        def load(name):
            spec = importlib.util.spec_from_file_location(name, {str(ROOT / "scripts")!r} + "/" + name + ".py")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
        """)
    done = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], cwd=cwd, capture_output=True,
                          timeout=120, check=False, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


def test_startup_times_the_wall_clock_alone(tmp_path: Path) -> None:
    out = _windows_like("""
        startup = load("startup")
        wall, cpu = startup.time_once(["-c", "pass"], dict(os.environ), startup.ROOT)
        print(wall > 0, cpu)
        print(startup.table([("python -c pass", 0.25, None)], 1))
        """, tmp_path)
    assert out.startswith("True None\n")
    assert f"| `python -c pass` | 0.250 | {NOT_MEASURED} |" in out
    assert f"Load while measuring: {NOT_MEASURED}." in out


def test_strato_compiled_and_verify_cost_time_the_wall_clock_alone(tmp_path: Path) -> None:
    out = _windows_like("""
        compiled = load("strato_compiled")
        wall, cpu, done = compiled._timed([sys.executable, "-c", "print('é←')"])
        print(cpu, compiled._cpu(cpu), compiled._load(), done.returncode)
        cost = load("verify_cost")
        print(cost.timed(["--help"], cost.ROOT, cost.ROOT)[2], cost._cpu(None), cost._median_cpu([(0, 1.0, None)]))
        """, tmp_path)
    assert out.splitlines() == [f"None {NOT_MEASURED} {NOT_MEASURED} 0", f"None {NOT_MEASURED} None"]


def test_stackattack_induction_waits_for_its_child_without_wait4(tmp_path: Path) -> None:
    out = _windows_like("""
        induction = load("stackattack_induction")
        done = induction.cpu_child(["-c", "print('done')"])
        print(done["code"], done["cpu"], done["load"], done["out"].strip(), "|", induction._cpu([done]), "|",
              induction._loads([done["load"]]))
        """, tmp_path)
    assert out.strip() == f"0 None None done | {NOT_MEASURED} | {NOT_MEASURED}"


def test_the_peak_memory_is_not_measured_there(tmp_path: Path) -> None:
    out = _windows_like("""
        exact = load("strato_hidden_exact")
        print(exact._peak(), "|", exact._load())
        deep = load("stackattack_deep")
        sys.argv = ["-c", "--version"]
        exec(deep.CHILD)
        """, tmp_path)
    first, child = out.splitlines()[0], out.splitlines()[-1]
    assert first == f"{NOT_MEASURED} | {NOT_MEASURED}"
    assert json.loads(child)["rss_mb"] is None and json.loads(child)["code"] == 0


@pytest.mark.skipif(not hasattr(__import__("os"), "getloadavg"), reason="measures on Unix")
def test_on_unix_the_figures_are_measured_as_before(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import importlib.util, os, sys
        spec = importlib.util.spec_from_file_location("startup", {str(ROOT / "scripts" / "startup.py")!r})
        startup = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(startup)
        wall, cpu = startup.time_once(["-c", "pass"], dict(os.environ), startup.ROOT)
        print(type(cpu).__name__)
        print(startup.table([("python -c pass", 0.25, 0.125)], 1))
        """)], capture_output=True, text=True, timeout=120, check=False, env={"PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("float\n")
    assert "| `python -c pass` | 0.250 | 0.125 |" in done.stdout
    assert "Load while measuring (1-minute load average, start to end): " in done.stdout
