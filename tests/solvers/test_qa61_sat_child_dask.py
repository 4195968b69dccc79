"""What a Strato SAT solve's fresh-interpreter child loads (``stratagem.solvers.satplan``).

A time-limited solve from a process with other threads alive (every Dask worker of a sweep) sends its
incremental search's builder to a fresh interpreter as a pickle, and unpickling a function imports the
module that defines it. The builder lived in ``stratagem.models.strato.solve``, whose import loads the
compiled search and numpy: 0.23 s of CPU in each child, against 0.07 s for the encoding alone, paid by
every SAT task of a sweep (a challenge-0 solve took 0.39 CPU s against 0.22 s forked; 0.31 s now).
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import stratagem
from stratagem.models.strato import solve as strato_solve

ROOT = Path(__file__).resolve().parents[2]
PUZZLE = ROOT / "puzzles" / "strato" / "challenge-0.toml"

#: Load the builder from stdin as the child does (after satplan, which it imports first), build one
#: window with it, and list the modules it needed that the child's own imports did not bring.
LOADER = ("import pickle, sys\n"
          "from stratagem.solvers.satplan import _exec_child\n"
          "before = set(sys.modules)\n"
          "build = pickle.load(sys.stdin.buffer)\n"
          "build(0, 3)\n"
          "print(' '.join(sorted(set(sys.modules) - before)))\n")


def test_the_sat_solves_builder_loads_in_a_fresh_interpreter_without_the_solver_module(
        monkeypatch: pytest.MonkeyPatch) -> None:
    handed: list[Any] = []

    def caught(build_open: Any, **_: Any) -> Any:
        handed.append(build_open)
        raise KeyboardInterrupt  # stop the solve here: the builder is all this test needs

    monkeypatch.setattr(strato_solve, "incremental_search", caught)
    with pytest.raises(KeyboardInterrupt):
        stratagem.solve(PUZZLE, "duo-3", method="sat", time_limit=60)
    assert len(handed) == 1
    payload = pickle.dumps(handed[0], protocol=pickle.HIGHEST_PROTOCOL)
    out = subprocess.run([sys.executable, "-c", LOADER], input=payload, capture_output=True, check=True,
                         cwd=ROOT)
    loaded = out.stdout.decode().split()
    assert "stratagem.models.strato.encodings.sat" in loaded  # the builder's module did load
    heavy = [name for name in loaded if name == "stratagem.models.strato.solve" or name.split(".")[0] == "numpy"
             or ".search.compiled" in name]
    assert heavy == [], f"the child imported {heavy}"


#: A script with its own builder, defined in its ``__main__``, searching from a process with a second thread.
MAIN_BUILDER = """
import threading
from stratagem.models.strato.encodings.sat import StratoCNF, max_turns
from stratagem.models.strato.rules.puzzle import load_puzzle
from stratagem.solvers.satplan import incremental_search

puzzle = load_puzzle(PUZZLE)
game = puzzle.game(puzzle.find_deal("duo-3"))


def build(lo, hi):
    return StratoCNF(game, hi, open_from=lo)


threading.Thread(target=threading.Event().wait, daemon=True).start()
result = incremental_search(build, first=0, last=max_turns(game.initial_state()), time_limit=60.0)
print(result.status, len(result.moves or ()))
"""


def test_a_builder_from_the_callers_main_module_is_answered_with_other_threads_alive() -> None:
    """A function of the script's ``__main__`` pickles (by name), but the fresh interpreter, which never
    runs the caller's script, cannot load it: its child died on an AttributeError and the search raised
    "the CaDiCaL process ended without an answer (killed?)". Such work is forked, as a lambda is."""
    script = f"PUZZLE = {str(PUZZLE)!r}\n" + MAIN_BUILDER
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert (out.returncode, out.stdout.split()) == (0, ["solved", "5"]), out.stderr[-800:]
