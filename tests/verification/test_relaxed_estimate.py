"""verify's relaxed searches are pruned by ``View.estimate``, so it is in verify's trusted base: it must never
exceed the relaxed distance. Checked against a plain breadth-first search (no estimate, no pruning) from the
images of positions met in random playouts of small shapes, and the A* distance against the same search.
"""

from __future__ import annotations

import random

import pytest

from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.position import ONGOING, format_state
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.verification.relaxed import State3, View, distance, view

from .shapes import SHAPES


def plain_distance(v: View, start: State3, depth: int) -> int | None:
    """Breadth-first relaxed distance to a goal if at most ``depth``, else ``None``: no estimate used."""
    layer, seen = {start}, {start}
    for d in range(depth + 1):
        if any(v.is_goal(s) for s in layer):
            return d
        if d == depth:
            return None
        layer = {t for s in layer for t in v.successors(s)} - seen
        seen |= layer
    return None


#: Shapes and how far the plain search looks ahead (less where rows interact: many more relaxed turns). The
#: estimate's room term is used on the tracked ones (challenge-1, storm-cloud-2).
ESTIMATED = {"challenge-0": 3, "fog-1": 3, "storm-1": 3, "wind-crosses-1": 3, "counts-1": 3, "fog-cloud-2": 2,
             "storm-cloud-2": 2, "challenge-1": 2}


@pytest.mark.parametrize("name", sorted(ESTIMATED))
def test_the_estimate_never_exceeds_the_plain_relaxed_distance(name: str) -> None:
    depth = ESTIMATED[name]
    challenge, options = SHAPES[name]
    rng = random.Random(f"estimate-{name}")
    compared = near = 0
    while compared < 30:
        game = StratoGame(challenge, options, seeded_deal(challenge, rng.randrange(10**6), rng.choice((1, 2))))
        state = game.initial_state()
        views = [view(challenge, options, state, r) for r, row in enumerate(state.rows) if challenge.goal.eligible(row)]
        for _ in range(30):
            plays = game.plays(state)
            if state.status != ONGOING or not plays:
                break
            for v in views:
                image = v.image(state.rows)
                if image is None:
                    continue
                plain = plain_distance(v, image, depth)
                estimate = v.estimate(image)
                where = f"{name}: {format_state(state)} in {v.describe()}"
                if plain is not None:
                    near += 1
                    assert estimate <= plain, f"{where}: estimate {estimate} > distance {plain}"
                    assert distance(v, image, depth) == plain, where
                else:
                    assert distance(v, image, depth) in (depth + 1, None), where
                compared += 1
            # head for the goal half the time, so that tables near a goal are compared too
            state = min((p[1] for p in rng.sample(plays, min(6, len(plays)))),
                        key=lambda s: min((v.estimate(i) for v in views if (i := v.image(s.rows)) is not None),
                                          default=99)) if rng.random() < 0.6 else rng.choice(plays)[1]
    assert near > 0 or name == "challenge-1"  # its playouts rarely come near a goal: see the test below


def _near_goal(v: View, rng: random.Random) -> State3:
    """A goal state of ``v`` (drawn at random until one meets the goal), then one or two random edits."""
    ends_values = v.end_values if v.tracked else ""
    while True:
        halves = ["".join(rng.choice(v.classes) for _ in range(rng.randint(0, v.limit))) for _ in (0, 1)]
        ends = tuple(sorted("".join(sorted(rng.choice(ends_values) for _ in (0, 1))) for _ in range(v.others)))
        state: State3 = (halves[0], halves[1], ends if v.tracked else ())
        if v.is_goal(state):
            break
    left, right, ends = state
    for _ in range(rng.randint(1, 2)):
        side = rng.randrange(2)
        half = left if side == 0 else right
        if half and rng.random() < 0.5:
            p = rng.randrange(len(half))
            half = half[:p] + (rng.choice(v.classes) if rng.random() < 0.5 else "") + half[p + 1:]
        elif len(half) < v.limit:
            p = rng.randint(0, len(half))
            half = half[:p] + rng.choice(v.classes) + half[p:]
        left, right = (half, right) if side == 0 else (left, half)
    return left, right, ends


@pytest.mark.parametrize("name", ["challenge-1", "storm-cloud-2", "level-2", "counts-1"])
def test_the_estimate_never_exceeds_the_plain_distance_near_goals(name: str) -> None:
    # the room term of the estimate applies to challenge-1 and storm-cloud-2 (tracked ends)
    challenge, options = SHAPES[name]
    rng = random.Random(f"near-{name}")
    start = seeded_deal(challenge, 1, 1)
    v = next(view(challenge, options, start, r) for r, row in enumerate(start.rows) if challenge.goal.eligible(row))
    near = 0
    for _ in range(40):
        state = _near_goal(v, rng)
        plain = plain_distance(v, state, 2)
        if plain is not None:
            near += 1
            assert v.estimate(state) <= plain, (name, state, v.estimate(state), plain)
    assert near >= 10
