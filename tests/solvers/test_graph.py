"""Tests of the reachable state graph on a hand-made puzzle whose graph is drawn below.

::

    A --a1--> B --b1--> D (goal; its own move back to A is never taken: goals are terminal)
    A --a2--> B          (same target: the edge keeps the first move, "a1")
    A --a3--> C          B --b2--> E --e1--> B      (B, E: one component)
    C --c1--> F --f1--> C                           (C, F: one component, no way to D)
    C --c2--> G                                     (G: no moves at all)

Known by hand: 7 states, 8 edges, one goal at par 2, dead ends C, F, G (3), components {A} {B,E}
{C,F} {D} {G} (5, largest 2), states per depth 1, 2, 4.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pytest

from stratagem.solvers import graph as graph_module
from stratagem.solvers.graph import (
    ExportStopped,
    build_graph,
    dot_lines,
    graph_facts,
    graphml_lines,
    shortest_line,
    write_dot,
    write_graphml,
)
from stratagem.solvers.search import bfs

MOVES = {
    "A": [("a1", "B"), ("a2", "B"), ("a3", "C")],
    "B": [("b1", "D"), ("b2", "E")],
    "C": [("c1", "F"), ("c2", "G")],
    "D": [("d1", "A")],
    "E": [("e1", "B")],
    "F": [("f1", "C")],
    "G": [],
}


@dataclass
class Drawn:
    """The puzzle above (or any other adjacency table) as a SearchProblem."""

    moves: dict[str, list[tuple[str, str]]]
    first: str = "A"
    goals: frozenset[str] = frozenset({"D"})

    def start(self) -> str:
        return self.first

    def successors(self, state: str) -> Iterable[tuple[str, str]]:
        return list(self.moves[state])

    def is_goal(self, state: str) -> bool:
        return state in self.goals

    def heuristic(self, state: str) -> int:
        return 0


def test_facts_of_the_drawn_graph() -> None:
    graph = build_graph(Drawn(MOVES))
    facts = graph_facts(graph)
    assert (facts.states, facts.edges, facts.goal_states) == (7, 8, 1)
    assert facts.goal_reachable and facts.par == 2
    assert facts.dead_ends == 3
    assert (facts.strongly_connected_components, facts.largest_component) == (5, 2)
    assert facts.complete and facts.stopped_by is None and facts.frontier == 0
    assert facts.states_per_depth == (1, 2, 4)
    labels = {data["label"]: node for node, data in graph.nodes(data=True)}
    assert [graph.nodes[n]["label"] for n in range(7)] == ["A", "B", "C", "D", "E", "F", "G"]  # breadth-first ids
    assert graph.edges[labels["A"], labels["B"]]["label"] == "a1"
    assert not graph.has_edge(labels["D"], labels["A"]) and not graph.nodes[labels["D"]]["expanded"]
    assert shortest_line(graph) == ["a1", "b1"]


def test_no_goal_anywhere_on_a_complete_graph_is_a_proof() -> None:
    facts = graph_facts(build_graph(Drawn(MOVES, goals=frozenset())))
    assert facts.complete and not facts.goal_reachable and facts.par is None
    assert facts.dead_ends == facts.states == 7
    assert facts.to_json()["goal_reachable"] is False


def test_a_goal_start_has_par_zero_and_is_not_expanded() -> None:
    facts = graph_facts(build_graph(Drawn(MOVES, first="D")))
    assert (facts.states, facts.edges, facts.par, facts.complete) == (1, 0, 0, True)


def test_state_limit_truncates_and_says_so() -> None:
    graph = build_graph(Drawn(MOVES), max_states=3)
    facts = graph_facts(graph)
    assert facts.states == 3 and not facts.complete and facts.stopped_by == "states"
    assert facts.frontier == 2 and not facts.goal_reachable
    assert facts.to_json()["goal_reachable"] is None  # not found is not "unreachable"
    assert facts.dead_ends == 0  # every state may still lead somewhere beyond the frontier
    assert graph.graph == {"complete": False, "stopped_by": "states"}


def test_par_found_before_the_limit_is_exact() -> None:
    facts = graph_facts(build_graph(Drawn(MOVES), max_states=5))
    assert not facts.complete and facts.goal_reachable and facts.par == 2


def test_time_limit_truncates() -> None:
    facts = graph_facts(build_graph(Drawn(MOVES), time_limit=0))
    assert facts.states == 1 and not facts.complete and facts.stopped_by == "time"


def test_agrees_with_breadth_first_search_on_a_grid() -> None:
    """A 5x5 grid walk from a corner to the far corner: 25 states, par 8, as BFS says.

    Every step can be walked back, so all states but the goal form one component; the goal is
    terminal (its 2 moves out are not edges) and is a component of its own."""
    moves: dict[str, list[tuple[str, str]]] = {}
    for x in range(5):
        for y in range(5):
            steps = [("E", (x + 1, y)), ("W", (x - 1, y)), ("N", (x, y + 1)), ("S", (x, y - 1))]
            moves[f"{x}{y}"] = [(m, f"{a}{b}") for m, (a, b) in steps if 0 <= a < 5 and 0 <= b < 5]
    problem = Drawn(moves, first="00", goals=frozenset({"44"}))
    facts = graph_facts(build_graph(problem))
    found = bfs(problem)
    assert found.moves is not None and facts.par == len(found.moves) == 8
    assert (facts.states, facts.edges) == (25, 4 * 5 * 4 - 2)
    assert (facts.strongly_connected_components, facts.largest_component) == (2, 24)
    assert facts.states_per_depth == (1, 2, 3, 4, 5, 4, 3, 2, 1)


def test_progress_is_reported_per_depth() -> None:
    seen: list[tuple[int, int]] = []
    build_graph(Drawn(MOVES), progress=lambda depth, states: seen.append((depth, states)))
    assert [d for d, _ in seen] == [0, 1, 2]


def test_progress_is_reported_as_time_passes_within_a_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    """QA 58: reports came only at a new depth and every 4,096 expansions, and a designer graph of three rows
    (some 170 successors a state) showed the same count of states for over 10 s. Now also once the clock
    has moved on by ``_PROGRESS_SECONDS``; here a clock that moves 0.1 s each time it is read."""
    import time

    ticks = iter(range(10**6))
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) / 10)  # graph.py reads time.perf_counter
    wide = {"A": [(f"m{i}", f"S{i}") for i in range(30)], **{f"S{i}": [] for i in range(30)}}
    seen: list[tuple[int, int]] = []
    build_graph(Drawn(wide, goals=frozenset()), progress=lambda depth, states: seen.append((depth, states)))
    assert [d for d, _ in seen].count(1) >= 5 and seen[-1] == (1, 31)


# -- exports ---------------------------------------------------------------------------------------


def quoted(state: str) -> str:
    return f'state "{state}"\\'


def test_graphml_reads_back(tmp_path: Path) -> None:
    graph = build_graph(Drawn(MOVES), label=quoted, move_label=str.upper)
    path = tmp_path / "g.graphml"
    write_graphml(graph, path)
    back = nx.read_graphml(path)
    assert back.number_of_nodes() == 7 and back.number_of_edges() == 8
    assert back.nodes["0"]["label"] == 'state "A"\\' and back.nodes["3"]["goal"] is True
    assert back.edges["0", "1"]["label"] == "A1"
    assert back.graph["complete"] is True
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left behind


def test_dot_structure(tmp_path: Path) -> None:
    graph = build_graph(Drawn(MOVES), label=quoted)
    path = tmp_path / "g.dot"
    write_dot(graph, path)
    lines = path.read_text().splitlines()
    assert lines[0].startswith("// reachable state graph: 7 states, 8 edges, complete")
    assert lines[1] == "digraph reach {" and lines[-1] == "}"
    nodes = [line for line in lines if line.startswith("  ") and line.split()[0].isdigit() and "->" not in line]
    edges = [line for line in lines if "->" in line]
    assert len(nodes) == 7 and len(edges) == 8
    assert nodes[0] == '  0 [label="state \\"A\\"\\\\", depth=0, goal=false, expanded=true, style="bold"];'
    assert "peripheries=2" in nodes[3]  # the goal
    assert edges[0] == '  0 -> 1 [label="a1"];'
    assert list(dot_lines(graph)) == lines


def test_truncated_dot_says_so_and_dashes_the_frontier() -> None:
    lines = list(dot_lines(build_graph(Drawn(MOVES), max_states=3)))
    assert "truncated (stopped by states)" in lines[0]
    assert sum('style="dashed"' in line for line in lines) == 2


@pytest.mark.parametrize("writer", [write_graphml, write_dot])
def test_exports_are_byte_identical(tmp_path: Path, writer) -> None:  # type: ignore[no-untyped-def]
    first, second = tmp_path / "a", tmp_path / "b"
    writer(build_graph(Drawn(MOVES)), first)
    writer(build_graph(Drawn(MOVES)), second)
    assert first.read_bytes() == second.read_bytes()


def test_a_failed_export_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "g.dot"
    path.write_text("old")
    graph = build_graph(Drawn(MOVES))
    graph.nodes[0]["label"] = object()  # GraphML cannot store this
    with pytest.raises(TypeError, match="node attribute 'label' of type object"):
        write_graphml(graph, path)
    assert path.read_text() == "old" and list(tmp_path.iterdir()) == [path]


def _mixed() -> nx.DiGraph:
    graph = build_graph(Drawn(MOVES), label=quoted, move_label=str.upper)
    graph.graph["name"] = 'a <name> & "quotes"\n\ttab'
    graph.graph["weight"] = 0.25
    graph.add_node(99)  # no attributes
    graph.add_edge(99, 0)
    graph.nodes[1]["extra"] = "only here"
    return graph


@pytest.mark.parametrize("make", [lambda: build_graph(Drawn(MOVES)), _mixed,
                                  lambda: build_graph(Drawn(MOVES), max_states=3)])
def test_the_graphml_writer_gives_networkx_s_bytes(make: Callable[[], nx.DiGraph]) -> None:
    """The streaming writer (about six times faster, and stoppable) writes what networkx's writer wrote."""
    graph = make()
    theirs = io.BytesIO()
    nx.write_graphml(graph, theirs)
    assert "".join(line + "\n" for line in graphml_lines(graph)).encode() == theirs.getvalue()


@pytest.mark.parametrize("writer", [write_graphml, write_dot])
def test_an_export_the_stop_test_ends_writes_no_file(tmp_path: Path, writer, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A stopped export raises :class:`ExportStopped` with what it wrote, and leaves the old file as it was."""
    monkeypatch.setattr(graph_module, "_STOP_EVERY", 4)
    path = tmp_path / "g"
    path.write_text("old")
    asked = []

    def stop() -> bool:
        asked.append(True)
        return len(asked) == 3

    with pytest.raises(ExportStopped) as stopped:
        writer(build_graph(Drawn(MOVES)), path, stop)
    assert stopped.value.written == 8 and str(stopped.value) == "stopped after 8 lines"
    assert path.read_text() == "old" and list(tmp_path.iterdir()) == [path]
    writer(build_graph(Drawn(MOVES)), path, lambda: False)
    assert path.read_text() != "old"
