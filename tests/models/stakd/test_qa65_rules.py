"""Rules audit (session 65): STAKD Elite's seed read again sentence by sentence, where no test named the
reading yet (docs/rules/stakd.md names each test).

Each position is one where the sentence decides which placements are legal; the compiled engine is held
to the rules engine there too (tests/packed_check.py), so a reading cannot hold in one engine only.
Positions are drawn in tests/models/stakd/support.py; the solo lattice is 11 x 3 with Base A at
``B@0,0h`` (row 0, x 0..4) and Base B at ``B@3,1h`` (row 1, x 3..7).
"""

from __future__ import annotations

import re

import pytest

from stratagem.core.errors import IllegalMove
from stratagem.models.stakd import compiled_engine
from stratagem.models.stakd.notation import parse_move
from stratagem.models.stakd.position import State
from stratagem.models.stakd.rules import StakdGame
from tests.packed_check import check_state

from .support import REPO, TWO_BASES, moves, position

#: Layer 1 covers both Bases (a Uni and a Quad on A, a Quad and a Uni on B); layer 2 holds one Duo, on
#: the Quad of A. Free on layer 2: (0,0) over a Uni, (3,0) and (4,0) over A's Quad, (3,1) over a Uni and
#: x 4..7 of row 1 over B's Quad; only (3,0) and (0,0) touch the Duo.
OVER_UNIS = TWO_BASES + "/1U@0,0;1Q@1,0h;1Q@4,1h;1U@3,1/1D@1,0h"


def _checked(width: int, height: int, text: str) -> tuple[StakdGame, State]:
    """``position``, with the compiled engine held to the rules engine at it."""
    game, state = position(text, width, height)
    engine = compiled_engine(game)
    assert engine is not None
    check_state(game, engine, state)
    return game, state


def test_seed_a_bomber_is_played_touching_an_adjacent_node() -> None:
    # Caption: "The Blue Bomber is played correctly touching an adjacent node." A Bomber connects to its
    # layer as every later piece does: on layer 1 beside the Trio (x 0..2 of row 0), only (3,0) touches it.
    game, state = _checked(11, 3, TWO_BASES + "/1T@0,0h X1 1")
    assert moves(game, state) == ["X@3,0"]
    with pytest.raises(IllegalMove, match="does not connect"):
        game.apply(state, parse_move("X@5,1"))


@pytest.mark.parametrize("kind", ["U", "X"])
def test_seed_a_uni_or_a_bomber_never_stacks_on_a_uni(kind: str) -> None:
    # "a Uni and/or a Blue Bomber piece could never be stacked as it would always be in the same
    # position": (0,0) touches the Duo but lies over a Uni, so neither one-node piece goes there.
    game, state = _checked(11, 3, OVER_UNIS + f" {kind}1 1")
    assert moves(game, state) == [f"{kind}@3,0"]
    with pytest.raises(IllegalMove, match="identical shapes cannot stack in the same position"):
        game.apply(state, parse_move(f"{kind}@0,0"))


def test_seed_a_uni_never_stacks_on_a_bomber() -> None:
    # The same sentence, with the Bomber below: layer 1 (a Trio and a Bomber on the one Base) is full, so
    # a hand of Unis alone starts layer 2, on the Trio but not on the Bomber at (3,0).
    game, state = _checked(5, 1, "1B@0,0h/1T@0,0h;1X@3,0 U1 1")
    assert moves(game, state) == ["U@0,0", "U@1,0", "U@2,0"]
    with pytest.raises(IllegalMove, match="identical shapes cannot stack in the same position"):
        game.apply(state, parse_move("U@3,0"))


def test_engine_the_rules_doc_names_only_existing_tests() -> None:
    # docs/rules/stakd.md names the test of each sentence as `module::test_name` (a file of
    # tests/models/stakd/), `module::*` or a path from the repository; each must exist.
    doc = (REPO / "docs" / "rules" / "stakd.md").read_text(encoding="utf-8")
    here = REPO / "tests" / "models" / "stakd"
    names = set(re.findall(r"`([a-z0-9_]+)::(test_[a-z0-9_]+)`", doc))
    assert len(names) > 80
    for module, name in names:
        assert f"def {name}(" in (here / f"test_{module}.py").read_text(encoding="utf-8"), f"{module}::{name}"
    for path, name in re.findall(r"`(tests/[a-z0-9_/]+\.py)::(test_[a-z0-9_]+)`", doc):
        assert f"def {name}(" in (REPO / path).read_text(encoding="utf-8"), f"{path}::{name}"
    for module in re.findall(r"`([a-z0-9_]+)::\*`", doc):
        assert (here / f"test_{module}.py").is_file(), module
