"""The relaxation's key lemma, tested against the rules engine with verify's own relaxation (verification/relaxed.py).

The lemma (docs/formats.md, "The relaxation table-classes@1"): seen from any goal row, in the relaxation of
any earlier position (an *anchor*), every legal turn of the rules maps the table's image to one of its
relaxed successors (or leaves it unchanged), unless it loses by the card limit. The relaxed distance is
then consistent along every turn: ``d(image(s)) <= 1 + d(image(s'))``. Random playouts of the reference
engine drive both checks over every shape of :mod:`.shapes` (every weather; Fog, Storm, Cloud; one to
three rows; both rules options; tracked and unknown ends), anchored at the start and at later positions.
A deliberately broken relaxation (a test double that forgets one kind of relaxed turn) must fail it.
The default run checks 300 distinct turns of each of the twelve shapes (3,600, each under several
relaxations); ``-m slow`` 90,000 of each (1,080,000).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from stratagem.models.strato.rules.cards import RAIN
from stratagem.models.strato.rules.challenge import Challenge, Options
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import ONGOING, State, format_state
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.verification.relaxed import GoalDistances, State3, View, view

from .shapes import SHAPES

#: Distances are compared where the later image is at most this many relaxed turns from a goal (the
#: depth-first searches stay cheap there; farther images are compared by the successor check alone).
NEAR = 2

#: Turns per position whose distances are compared (each comparison is a small search).
COMPARED = 2


@dataclass
class Tally:
    """What one run checked: turns mapped to relaxed turns, distance pairs compared, and each kind seen."""

    transitions: int = 0  # (turn, relaxation) pairs checked: each turn under every anchor, row and ends variant
    turns: int = 0  # distinct legal turns of the rules engine checked
    distances: int = 0
    tracked: int = 0
    unknown: int = 0
    crossing: int = 0
    failures: list[str] = field(default_factory=list)


def run(name: str, count: int, seed: int, make_view: Callable[..., View] = view) -> Tally:
    """Drive random playouts of ``SHAPES[name]`` through the rules engine until ``count`` distinct turns are
    checked (each under the relaxations of up to three anchors, every goal row, both ends variants)."""
    challenge, options = SHAPES[name]
    rng = random.Random(f"lemma-{name}-{seed}")
    tally = Tally()
    while tally.turns < count and not tally.failures:
        players = rng.choice((1, 2, 4))
        game = StratoGame(challenge, options, seeded_deal(challenge, rng.randrange(10**6), players))
        state = game.initial_state()
        anchors = [state]
        for _ in range(60):
            plays = game.plays(state)
            if state.status != ONGOING or not plays:
                break
            if rng.random() < 0.15:
                anchors.append(state)
            tally.turns += len(plays)
            for anchor in anchors[-3:]:
                _check_turns(challenge, options, anchor, state, plays, tally, make_view, rng)
                if tally.failures:
                    return tally
            state = _next(challenge, options, anchors[0], plays, rng)
    return tally


def _next(challenge: Challenge, options: Options, start: State, plays: list[tuple[Move, State]],
          rng: random.Random) -> State:
    """A random turn, half the time the one of eight drawn that looks closest to the goal (so that playouts
    reach tables near a goal, where the distances are compared)."""
    if rng.random() < 0.5:
        return rng.choice(plays)[1]
    views = [view(challenge, options, start, r) for r, row in enumerate(start.rows) if challenge.goal.eligible(row)]

    def estimate(after: State) -> int:
        images = [(v, v.image(after.rows)) for v in views]
        return min((v.estimate(i) for v, i in images if i is not None), default=99)

    return min((p[1] for p in rng.sample(plays, min(8, len(plays)))), key=estimate)


def _check_turns(challenge: Challenge, options: Options, anchor: State, state: State,
                 plays: list[tuple[Move, State]], tally: Tally, make_view: Callable[..., View],
                 rng: random.Random) -> None:
    for r, row in enumerate(anchor.rows):
        if not challenge.goal.eligible(row):
            continue
        for track in (True, False):
            v = make_view(challenge, options, anchor, r, track)
            here = v.image(state.rows)
            if here is None:
                continue
            allowed = v.successors(here) | {here}
            tally.tracked += v.tracked
            tally.unknown += not v.tracked
            tally.crossing += bool(v.others)
            distances = GoalDistances([v])
            compared = set(rng.sample(range(len(plays)), min(COMPARED, len(plays))))
            for i, (move, after) in enumerate(plays):
                if any(len(h.left) > challenge.limit or len(h.right) > challenge.limit for h in after.rows):
                    continue  # lost by the card limit: the relaxation drops it too
                there = v.image(after.rows)
                tally.transitions += 1
                if there not in allowed:
                    tally.failures.append(f"{format_state(state)} --{move}--> {format_state(after)}: {here} -> "
                                          f"{there} is no relaxed turn of {v.describe()}")
                    return
                if i in compared and there is not None:
                    _consistent(distances, state, after, tally)
                    if tally.failures:
                        return


def _consistent(distances: GoalDistances, state: State, after: State, tally: Tally) -> None:
    later = distances.at_most(0, after.rows, NEAR)
    if later > NEAR:
        return
    earlier = distances.at_most(0, state.rows, later + 1)
    tally.distances += 1
    if earlier > later + 1:
        tally.failures.append(f"d({format_state(state)}) > 1 + d({format_state(after)}) = {later + 1}")


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_every_turn_of_the_rules_is_a_relaxed_turn(name: str) -> None:
    tally = run(name, 300, 0)
    assert not tally.failures, tally.failures[0]
    assert tally.turns >= 300 and tally.transitions >= tally.turns


def test_the_sample_covers_every_kind_of_relaxation_and_compares_distances() -> None:
    tracked = unknown = crossing = distances = 0
    for name in ("challenge-1", "fog-storm-3", "storm-1", "level-2"):
        tally = run(name, 300, 1)
        assert not tally.failures, tally.failures[0]
        tracked, unknown, crossing = tracked + tally.tracked, unknown + tally.unknown, crossing + tally.crossing
        distances += tally.distances
    assert tracked and unknown and crossing and distances


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_every_turn_of_the_rules_is_a_relaxed_turn_at_length(name: str) -> None:
    # 12 shapes x 90,000 = 1,080,000 distinct legal turns in all (each checked under several relaxations)
    tally = run(name, 90_000, 2)
    assert not tally.failures, tally.failures[0]
    assert tally.turns >= 90_000 and tally.distances > 0


class NoRainAcrossTheTornadoes(View):
    """A broken relaxation (test double): Rain never moves the far end's card to the near half-row."""

    def successors(self, state: State3) -> set[State3]:
        out = super().successors(state)
        if not any(a == RAIN for _, a in self.plays):
            return out
        left, right, ends = state
        broken = set()
        for s in out:
            # drop any successor whose near half starts with a card that came from the far end
            took_left = len(s[1]) < len(right) and s[0][:1] == right[-1:] and len(s[0]) == len(left) + 2
            took_right = len(s[0]) < len(left) and s[1][:1] == left[-1:] and len(s[1]) == len(right) + 2
            if not (took_left or took_right):
                broken.add(s)
        return broken


def _broken_view(*args: object) -> View:
    real = view(*args)  # type: ignore[arg-type]
    return NoRainAcrossTheTornadoes(**{f: getattr(real, f) for f in real.__dataclass_fields__})


def test_a_broken_relaxation_fails_the_lemma() -> None:
    tally = run("challenge-0", 3_000, 0, make_view=_broken_view)
    assert tally.failures and "is no relaxed turn" in tally.failures[0]
