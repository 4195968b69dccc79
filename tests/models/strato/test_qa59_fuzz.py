"""Reproducers found by the QA 59 differential fuzzing of the Strato solvers on random challenges."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import stratagem
from stratagem.loading import StratoDeal
from stratagem.models.strato.search import compiled_search, packed
from stratagem.models.strato.search.planning import StratoPlanning
from stratagem.models.strato.search.relaxation import RelaxationBound, relaxation_bound

#: A two-row challenge with the card limit 8: both goal rows' relaxations have more codes than the
#: relaxation searches (MAX_CODES), so the bound holds two searches with no table (``exact`` false,
#: distance 0). ``solve --time-limit 8`` (auto: its relaxed stage left undecided, then A* with the
#: relaxation in its heuristic) ended in a segmentation fault.
PUZZLE = """\
game = "strato"

[challenge]
name = "fuzz 12"
weathers = "FTSC"
rows = 2
limit = 8
rows_required = 1
players = 2

[challenge.goal]
left = "<<S>"

[[deals]]
name = "p0"
position = "CT(FT)FS/FFT(SC)SC ST,CF S 2 F"
"""

KERNEL_SOURCE = Path(compiled_search.__file__).with_name("search_kernel.py")


def _deal(tmp_path: Path) -> StratoDeal:
    path = tmp_path / "fuzz12.toml"
    path.write_text(PUZZLE, encoding="utf-8")
    deal = stratagem.load(path, "p0")
    assert isinstance(deal, StratoDeal)
    return deal


def _untabled_bound(deal: StratoDeal) -> RelaxationBound:
    game = deal.game
    bound = relaxation_bound(game.challenge, game.options, game.initial_state())
    assert bound.rows and all(not search.exact and search.distance == 0 for search in bound.rows)
    return bound


def test_engine_astar_with_a_relaxation_search_that_has_no_table_reads_no_layer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The A* kernel's relaxed term skipped only searches of distance -1 ("never"); a search with no
    table (distance 0, no layers in the array) had its layer read at its state's code anyway, far past
    the one-entry array. The pure-Python kernel (the same source, which the compiled one runs unchecked)
    shows it as an IndexError; now such a search adds nothing, as its distance 0 says."""
    spec = importlib.util.spec_from_file_location("qa59_pure_search_kernel", KERNEL_SOURCE)
    assert spec is not None and spec.loader is not None
    pure = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pure)
    monkeypatch.setattr(packed, "kernel", pure)
    monkeypatch.setattr(compiled_search, "Relax", pure.Relax)
    deal = _deal(tmp_path)
    packing = packed.Packing(deal.game, blank_last=packed.blank_last(deal.game))
    relax = compiled_search.relaxation_arrays(packing, _untabled_bound(deal))
    start = packing.vector(StratoPlanning(deal.game).start())
    assert relax.n == 2
    assert pure.relaxed_rest(start, packing.spec, relax, np.zeros((2, 8), np.int64)) == 0


def test_engine_compiled_astar_with_an_untabled_relaxation_does_not_crash(tmp_path: Path) -> None:
    """The same through the compiled kernel, in a child process: it died with SIGSEGV."""
    path = tmp_path / "fuzz12.toml"
    path.write_text(PUZZLE, encoding="utf-8")
    code = (
        "import stratagem\n"
        "from stratagem.models.strato.search.compiled_search import compiled_astar\n"
        "from stratagem.models.strato.search.relaxation import relaxation_bound\n"
        f"deal = stratagem.load({str(path)!r}, 'p0')\n"
        "game = deal.game\n"
        "bound = relaxation_bound(game.challenge, game.options, game.initial_state())\n"
        "result = compiled_astar(game, relaxation=bound)\n"
        "print(result.status, len(result.moves or ()))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["solved", "4"]
