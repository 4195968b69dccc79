"""The cycle collector held off around large acyclic builds (:mod:`stratagem.core.collector`).

What is checked is the behaviour, not the speed (that is measured, in ``solvers/graph.py``'s docstring):
the collector is off inside the block, back as it was after, also when the block raises or blocks nest;
and the state graph's breadth-first build expands every state with it off.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator

import pytest

from stratagem.core.collector import no_cycle_collection
from stratagem.solvers.graph import build_graph, graph_facts


@pytest.fixture
def collector_on() -> Iterator[None]:
    """The collector on before the test, and as it was after it."""
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_off_inside_and_on_again_after(collector_on: None) -> None:
    with no_cycle_collection():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_on_again_after_the_block_raises(collector_on: None) -> None:
    with pytest.raises(ValueError), no_cycle_collection():
        raise ValueError("the block failed")
    assert gc.isenabled()


def test_an_inner_block_leaves_it_off_for_the_outer_one(collector_on: None) -> None:
    with no_cycle_collection():
        with no_cycle_collection():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block did not turn it off, so it does not turn it on
    assert gc.isenabled()


def test_left_off_when_it_was_off() -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        with no_cycle_collection():
            pass
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


class Chain:
    """States 0..9 in a line, 9 the goal; records whether the collector was on at each expansion."""

    def __init__(self) -> None:
        self.collector_on_at: list[bool] = []

    def start(self) -> int:
        return 0

    def successors(self, state: int) -> Iterable[tuple[str, int]]:
        self.collector_on_at.append(gc.isenabled())
        return [(f"m{state}", state + 1)] if state < 9 else []

    def is_goal(self, state: int) -> bool:
        return state == 9


def test_the_graph_is_built_with_the_collector_off(collector_on: None) -> None:
    chain = Chain()
    graph = build_graph(chain)
    assert chain.collector_on_at == [False] * 9  # every expansion (the goal is not expanded)
    assert gc.isenabled()
    facts = graph_facts(graph)
    assert (facts.states, facts.par, facts.complete) == (10, 9, True)


def test_the_collector_is_back_when_the_build_fails(collector_on: None) -> None:
    class Broken(Chain):
        def successors(self, state: int) -> Iterable[tuple[str, int]]:
            raise RuntimeError("a rules engine's bug")

    with pytest.raises(RuntimeError):
        build_graph(Broken())
    assert gc.isenabled()


def test_astar_searches_with_the_collector_off(collector_on: None) -> None:
    from stratagem.solvers.search import astar

    class Scored(Chain):
        def heuristic(self, state: int) -> int:
            return 9 - state

    chain = Scored()
    result = astar(chain)
    assert (result.status, len(result.moves or ())) == ("solved", 9)
    assert chain.collector_on_at == [False] * 9
    assert gc.isenabled()
