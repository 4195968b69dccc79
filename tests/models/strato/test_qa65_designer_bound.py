"""QA 65: designer mode's bound (the A* heuristic of ``reach --designer``'s par) is admissible.

``StratoDesigner.heuristic`` asked the game's bound of the rows with an empty hand. The game's bound
sums the rows' own bounds where no Fog or Storm is left to play (then no card changes rows), and with an
empty hand none is: so on a layout of a Storm challenge whose rows must all meet the goal, it counted two
turns where one Storm wins (played into one row, its swap finishes the other). Harmless while nothing but a
test asked it; since stop 65 A* proves ``reach --designer``'s par and its lower bounds with it. Now the bound
is asked with every weather of the challenge in hand, and held to breadth-first distances on random layouts
of Fog and Storm challenges.
"""

from __future__ import annotations

import random

import pytest

from stratagem.models.strato.designer import StratoDesigner, designer_par
from stratagem.models.strato.rules.challenge import Options
from stratagem.models.strato.rules.position import parse_rows
from stratagem.solvers.search import SearchIncomplete, distance

from .support import make_challenge


def test_one_storm_that_finishes_two_rows_is_one_turn() -> None:
    # Row 1 needs a rain nearest its rain tornado, row 2 a storm nearest its storm tornado: a Storm played at
    # row 2's right end, swapping row 1's two ends (W <-> R), wins in one turn.
    challenge = make_challenge(weathers="RWST", pairs=("RW", "ST"), limit=3, left="<", right=">", rows_required=2)
    layout = StratoDesigner(challenge, Options(), parse_rows("W(RW)WR/S(ST)"))
    assert distance(layout, layout.start()) == 1
    assert layout.heuristic(layout.start()) == 1  # it said 2
    stopped = designer_par(layout, max_states=1)  # stopped at once: its bound is the heuristic's
    assert stopped.status == "unknown" and stopped.lower_bound <= 1
    found = designer_par(layout)
    assert found.moves is not None and len(found.moves) == 1


CHALLENGES = [
    # weathers, tornado pairs, limit, left goal, right goal, rows that must meet it, walks
    ("RWST", ("RW", "ST"), 3, "<", ">", 2, 30),
    ("RFWT", ("RW", "FT"), 3, "<", ">", 2, 30),
    pytest.param("RWFC", ("RW", "FC"), 3, "<", ">", 2, 150, marks=pytest.mark.slow),
    pytest.param("RWST", ("RW", "ST"), 4, "<", ">", 2, 150, marks=pytest.mark.slow),
    pytest.param("RFWT", ("RW", "FT"), 4, "<", ">", 1, 150, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("weathers", "pairs", "limit", "left", "right", "required", "walks"), CHALLENGES)
def test_the_bound_never_exceeds_the_breadth_first_distance(weathers: str, pairs: tuple[str, ...], limit: int,
                                                            left: str, right: str, required: int,
                                                            walks: int) -> None:
    """States on seeded walks from the empty layout (three steps in four to a successor of least bound), whose
    distance a small breadth-first search finds: a turn or two from a goal, where the old bound said two or
    three."""
    challenge = make_challenge(weathers=weathers, pairs=pairs, limit=limit, left=left, right=right,
                               rows_required=required)
    start = "/".join(f"({pair})" for pair in pairs)
    layout = StratoDesigner(challenge, Options(), parse_rows(start))
    rng = random.Random(f"qa65 {weathers} {left} {right} {required}")
    checked = 0
    for _ in range(walks):
        state = layout.start()
        for _ in range(rng.randrange(1, 9)):  # mostly towards the goal, to reach states a turn or two from it
            following = [after for _, after in layout.successors(state)]
            if not following:
                break
            if rng.random() < 0.75:
                least = min(layout.heuristic(after) for after in following)
                following = [after for after in following if layout.heuristic(after) == least]
            state = rng.choice(following)
            try:
                true = distance(layout, state, max_nodes=40)  # a goal within two turns, or not decided
            except SearchIncomplete:
                continue
            if true is not None:
                assert layout.heuristic(state) <= true, (layout.format_state(state), true)
                checked += 1
    assert checked >= 10
