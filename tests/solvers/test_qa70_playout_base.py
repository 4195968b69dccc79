"""The Monte Carlo searches over a compiled engine share one base (solvers/packed_playout.py, stop 70): UCT,
DUCT and ISMCTS/PIMC subclass its ``PlayoutSearch`` (the random stream and the playouts), keep their own
exceptions (importable from each search's module, where callers and tests find them) and need its kernel:
where that kernel is not built or out of date the searches run on the reference engine, as where their own
is (test_qa70_exact_base checks that fallback for both shared kernels).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.engines import compiled_engine
from stratagem.loading import load_position
from stratagem.solvers import packed_duct, packed_ismcts, packed_playout, packed_uct

ROOT = Path(__file__).resolve().parents[2]


def test_the_three_searches_share_one_base_and_keep_their_exceptions() -> None:
    base = packed_playout.PlayoutSearch
    for search in (packed_uct._Uct, packed_duct._Duct, packed_ismcts.Playouts, packed_ismcts.IsmctsSearch):
        assert issubclass(search, base)
    for stopped in (packed_uct.UctStopped, packed_duct.DuctStopped, packed_ismcts.SearchStopped):
        assert issubclass(stopped, ValueError)


def test_a_search_met_where_it_cannot_go_raises_its_own_exception() -> None:
    """The base raises the subclass's exception with its own message: UCT's at a simultaneous node."""
    game = load_position(str(ROOT / "puzzles" / "stackattack" / "2p-numbers-3-turns.toml"))
    engine = compiled_engine(game.game)
    if engine is None:
        pytest.skip("Stack Attack has no compiled engine here")
    with pytest.raises(packed_uct.UctStopped, match="compiled UCT met a simultaneous node"):
        packed_uct.run_uct(engine, engine.encode(game.state), iterations=3)

