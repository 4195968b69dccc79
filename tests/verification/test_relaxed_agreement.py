"""verify's own relaxation (verification/relaxed.py) agrees with the solver's (models/strato/search/relaxation.py).

The two share no code: the solver's is a compiled breadth-first search over packed codes, verify's a plain
Python A* over class strings written from docs/formats.md. They must give the same bound, with the other
rows' ends tracked and unknown, on the shipped deals and on seeded deals of the shipped challenges and of
the Fog/Storm/Cloud shapes of :mod:`.shapes` (one to three rows). The default run takes a sample; ``-m slow``
takes all 27 shipped deals and 240 seeded deals. The solver is imported here only to compare with it.
"""

from __future__ import annotations

import random

import pytest

from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.position import State, format_state
from stratagem.models.strato.rules.puzzle import load_puzzle
from stratagem.models.strato.search.relaxation import relaxation_bound
from stratagem.verification.relaxed import relaxed_bound
from tests.models.strato.support import PUZZLES

from .shapes import SHAPES


def _disagreements(name: str, start: State) -> list[str]:
    challenge, options = SHAPES[name]
    out = []
    for track in (True, False):
        solver = relaxation_bound(challenge, options, start, track_ends=track).bound
        ours = relaxed_bound(challenge, options, start, track_ends=track).bound
        if ours != solver:
            out.append(f"{name} {format_state(start)} ends {'tracked' if track else 'unknown'}: "
                       f"verify's relaxation gives {ours}, the solver's {solver}")
    return out


def seeded(name: str, count: int, seed: int) -> list[State]:
    """``count`` seeded deals of shape ``name`` (1, 2 or 4 players)."""
    challenge, _ = SHAPES[name]
    rng = random.Random(f"agreement-{name}-{seed}")
    return [seeded_deal(challenge, rng.randrange(10**6), rng.choice((1, 2, 4))) for _ in range(count)]


def shipped(names: tuple[str, ...] | None = None) -> list[tuple[str, State]]:
    """The shipped deals as (shape, start), optionally only those named ``puzzle:deal``."""
    out = []
    for puzzle, shape in (("challenge-0", "challenge-0"), ("challenge-1", "challenge-1"),
                          ("level-2-example", "level-2")):
        loaded = load_puzzle(PUZZLES / f"{puzzle}.toml")
        for spec in loaded.deals:
            if names is None or f"{puzzle}:{spec.name}" in names:
                out.append((shape, loaded.deal(spec)))
    return out


#: The default run's sample: shipped deals whose relaxed searches are quick, and seeded deals of each shape.
SAMPLE_SHIPPED = ("challenge-0:solo-1", "challenge-0:four-2", "challenge-1:solo-3", "challenge-1:duo-2",
                  "level-2-example:solo-2")


def test_the_bounds_agree_on_a_sample_of_shipped_deals() -> None:
    deals = shipped(SAMPLE_SHIPPED)
    assert len(deals) == len(SAMPLE_SHIPPED)
    problems = [p for shape, start in deals for p in _disagreements(shape, start)]
    assert not problems, problems


@pytest.mark.parametrize("name", sorted(set(SHAPES) - {"challenge-1"}))
def test_the_bounds_agree_on_a_seeded_deal_of_each_shape(name: str) -> None:
    problems = [p for start in seeded(name, 1, 0) for p in _disagreements(name, start)]
    assert not problems, problems


@pytest.mark.slow
def test_the_bounds_agree_on_all_27_shipped_deals() -> None:
    deals = shipped()
    assert len(deals) == 27
    problems = [p for shape, start in deals for p in _disagreements(shape, start)]
    assert not problems, problems


#: Seeded deals per shape in the slow run: 20 of each of the 12 shapes, 240 in all.
SLOW_PER_SHAPE = 20


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_the_bounds_agree_on_seeded_deals(name: str) -> None:
    problems = [p for start in seeded(name, SLOW_PER_SHAPE, 1) for p in _disagreements(name, start)]
    assert not problems, problems
