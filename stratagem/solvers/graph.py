"""The reachable state graph of a :class:`~stratagem.core.game.SearchProblem`, and what it shows.

A designer asks more of a puzzle than its shortest line: how many positions can play reach at all,
can a win be reached from the start, how many positions are already lost (no win reachable from
them), does play go round in circles? All of that is a property of one graph: every state reachable
from the start, with an edge for each move. :func:`build_graph` builds it breadth-first as a
``networkx.DiGraph``, :func:`graph_facts` reads the facts off it, and :func:`write_graphml` and
:func:`write_dot` export it for other tools (yEd, Gephi, Graphviz).

The graph's nodes are integers, numbered in the order breadth-first search first reaches them (the
start is 0), so that every export is small, portable and byte-identical from run to run. Each node
carries:

* ``label``: the state in the caller's notation (``label(state)``);
* ``depth``: its distance in moves from the start (breadth-first order makes it exact);
* ``goal``: whether the state is a goal. Goal states are terminal: play ends there, so they are
  never expanded;
* ``expanded``: whether its successors were generated.

Each edge carries ``label``: the move in the caller's notation. When several moves lead from one
state to the same state, the edge keeps the first of them in the problem's order.

**Limits.** A build can be stopped by ``max_states`` (the graph never holds more states) or by a
wall-clock ``time_limit``. A state is expanded whole or not at all, so a stopped build leaves some
non-goal states unexpanded: the *frontier*. Such a graph is *truncated* and says so (graph attribute
``complete`` false, ``stopped_by`` ``"states"`` or ``"time"``), and :class:`GraphFacts` never claims
more than it shows: a goal found is a goal reachable, but no goal found is not proof that none is.

The module knows nothing about any particular game.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import networkx as nx

from stratagem.core.collector import no_cycle_collection
from stratagem.core.game import M, S, SearchProblem
from stratagem.core.outputs import write_atomic_with

__all__ = [
    "GraphFacts",
    "build_graph",
    "graph_facts",
    "shortest_line",
    "write_dot",
    "write_graphml",
]

#: ``stopped_by`` of a build stopped because the graph held ``max_states`` states.
STATES = "states"
#: ``stopped_by`` of a build stopped by its wall-clock limit.
TIME = "time"

#: ``progress`` is called at least once per this many expansions (as well as at each new depth) ...
_PROGRESS_EVERY = 4096
#: ... and whenever this many seconds have passed since it last was: a designer graph of three rows
#: expands some 170 successors a state, and 4,096 expansions took over 10 s, the states shown standing still.
_PROGRESS_SECONDS = 0.25

#: Progress callback: ``(depth, states)`` -- the depth being expanded and the states found so far.
Progress = Callable[[int, int], None]


def build_graph(
    problem: SearchProblem[S, M],
    *,
    label: Callable[[S], str] = str,
    move_label: Callable[[M], str] = str,
    max_states: int | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> nx.DiGraph:
    """Every state reachable from ``problem.start()``, breadth-first, as a directed graph.

    States are expanded in breadth-first order, each successor list in the order the problem gives
    it; goal states are not expanded. Before each expansion the clock is checked against
    ``time_limit``, and an expansion that would bring the graph over ``max_states`` states is not
    made: the build stops there and the graph is marked truncated. The graph attributes are
    ``complete`` (bool) and, when a limit stopped the build, ``stopped_by`` (``"states"`` or
    ``"time"``).

    The cycle collector is off while it builds (:func:`~stratagem.core.collector.no_cycle_collection`): the
    graph's nodes, edges and attribute dicts make no reference cycles, yet each of the collector's passes
    walked them all. ``stratagem reach puzzles/strato/challenge-1.toml --designer`` (200,000 layouts) spent
    3.4 of its 12.9 CPU s in the collector, and 1.4 of 10.9 with it off here (medians of 3; what is left is
    the one pass over the new graph after the build).
    """
    with no_cycle_collection():
        return _build_graph(problem, label, move_label, max_states, time_limit, progress)


def _build_graph(problem: SearchProblem[S, M], label: Callable[[S], str], move_label: Callable[[M], str],
                 max_states: int | None, time_limit: float | None, progress: Progress | None) -> nx.DiGraph:
    """:func:`build_graph`, with the cycle collector off."""
    started = time.perf_counter()
    graph = nx.DiGraph()
    start = problem.start()
    ids: dict[S, int] = {}
    order: list[S] = []

    def add(state: S, depth: int) -> int:
        node = ids[state] = len(order)
        order.append(state)
        graph.add_node(node, label=label(state), depth=depth, goal=bool(problem.is_goal(state)), expanded=False)
        return node

    add(start, 0)
    nodes = graph.nodes
    stopped_by: str | None = None
    depth = -1
    expanded = 0
    shown = started
    for node, state in enumerate(order):  # ``order`` grows while it is walked: a breadth-first queue
        if nodes[node]["goal"]:
            continue
        now = time.perf_counter()
        if time_limit is not None and now - started >= time_limit:
            stopped_by = TIME
            break
        successors = list(problem.successors(state))
        if max_states is not None:
            fresh = {child for _, child in successors if child not in ids}
            if len(order) + len(fresh) > max_states:
                stopped_by = STATES
                break
        level = nodes[node]["depth"]
        if progress is not None and (level != depth or expanded % _PROGRESS_EVERY == 0
                                     or now - shown >= _PROGRESS_SECONDS):
            progress(level, len(order))
            shown = now
        depth = level
        for move, child in successors:
            target = ids.get(child)
            if target is None:
                target = add(child, level + 1)
            if not graph.has_edge(node, target):
                graph.add_edge(node, target, label=move_label(move))
        nodes[node]["expanded"] = True
        expanded += 1
    graph.graph["complete"] = stopped_by is None
    if stopped_by is not None:
        graph.graph["stopped_by"] = stopped_by
    return graph


@dataclass(frozen=True)
class GraphFacts:
    """What a state graph built by :func:`build_graph` shows.

    ``states``, ``edges``: its size. ``goal_states``: goal states in it. ``goal_reachable``: a goal
    state is in it (on a truncated graph, False only means none was found). ``par``: the fewest moves
    from the start to a goal, or ``None`` if no goal is in the graph; it is exact even on a truncated
    graph, because breadth-first order reaches every nearer state before the first goal.

    ``dead_ends``: states proven to be dead -- from them no goal and no unexpanded state can be
    reached. On a complete graph these are exactly the states from which no goal is reachable; on a
    truncated graph the count is a lower bound. ``frontier``: non-goal states left unexpanded by a
    limit (0 when complete).

    ``strongly_connected_components`` and ``largest_component`` (in states): a graph where play can
    never return to an earlier state has one component per state, each of size 1. On a truncated
    graph they describe the part built.

    ``complete``: every reachable state was expanded (no limit stopped the build); ``stopped_by``:
    ``None``, ``"states"`` or ``"time"``. ``states_per_depth``: entry ``d`` counts the states at
    distance ``d`` from the start.
    """

    states: int
    edges: int
    goal_states: int
    goal_reachable: bool
    par: int | None
    dead_ends: int
    frontier: int
    strongly_connected_components: int
    largest_component: int
    complete: bool
    stopped_by: str | None
    states_per_depth: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The facts as a JSON object; ``goal_reachable`` is ``null`` when the graph cannot decide it."""
        return {
            "states": self.states,
            "edges": self.edges,
            "goal_states": self.goal_states,
            "goal_reachable": self.goal_reachable if self.goal_reachable or self.complete else None,
            "par": self.par,
            "dead_ends": self.dead_ends,
            "frontier": self.frontier,
            "strongly_connected_components": self.strongly_connected_components,
            "largest_component": self.largest_component,
            "complete": self.complete,
            "stopped_by": self.stopped_by,
            "states_per_depth": list(self.states_per_depth),
        }


def graph_facts(graph: nx.DiGraph) -> GraphFacts:
    """The facts of a graph built by :func:`build_graph` (see :class:`GraphFacts`)."""
    nodes = graph.nodes
    goals = [n for n in nodes if nodes[n]["goal"]]
    frontier = [n for n in nodes if not nodes[n]["goal"] and not nodes[n]["expanded"]]
    # Reverse reachability: every state with a path to a goal, or to a state whose future is unknown.
    alive = set(goals) | set(frontier)
    queue = deque(alive)
    while queue:
        node = queue.popleft()
        for parent in graph.pred[node]:
            if parent not in alive:
                alive.add(parent)
                queue.append(parent)
    per_depth: list[int] = []
    for n in nodes:
        depth = nodes[n]["depth"]
        if depth >= len(per_depth):
            per_depth.extend([0] * (depth + 1 - len(per_depth)))
        per_depth[depth] += 1
    components = [len(c) for c in nx.strongly_connected_components(graph)]
    stopped_by = graph.graph.get("stopped_by")
    return GraphFacts(
        states=graph.number_of_nodes(),
        edges=graph.number_of_edges(),
        goal_states=len(goals),
        goal_reachable=bool(goals),
        par=min((nodes[n]["depth"] for n in goals), default=None),
        dead_ends=graph.number_of_nodes() - len(alive),
        frontier=len(frontier),
        strongly_connected_components=len(components),
        largest_component=max(components, default=0),
        complete=bool(graph.graph["complete"]),
        stopped_by=str(stopped_by) if stopped_by else None,
        states_per_depth=tuple(per_depth),
    )


def shortest_line(graph: nx.DiGraph) -> list[str] | None:
    """The move labels of a shortest line from the start (node 0) to a goal, or ``None`` if none.

    Breadth-first over the edges in the order they were added, so the line is the same on every run.
    """
    parent: dict[int, tuple[int, str] | None] = {0: None}
    queue = deque([0])
    while queue:
        node = queue.popleft()
        if graph.nodes[node]["goal"]:
            line: list[str] = []
            step = parent[node]
            while step is not None:
                node, move = step
                line.append(move)
                step = parent[node]
            line.reverse()
            return line
        for child, data in graph.succ[node].items():
            if child not in parent:
                parent[child] = (node, data["label"])
                queue.append(child)
    return None


# -- exports ---------------------------------------------------------------------------------------


#: GraphML's ``attr.type`` of each Python type an attribute may have (networkx's names for them).
_GRAPHML_TYPES: dict[type, str] = {bool: "boolean", int: "long", float: "double", str: "string"}
_GRAPHML_HEAD = (
    "<?xml version='1.0' encoding='utf-8'?>\n"
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
    'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">')
#: Lines written between two looks at the stop test.
_STOP_EVERY = 4096


class ExportStopped(Exception):
    """The stop test ended an export before its last line; no file was written."""

    def __init__(self, written: int) -> None:
        super().__init__(f"stopped after {written:,} lines")
        self.written = written


def _xml_text(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _xml_attribute(value: str) -> str:
    return (_xml_text(value).replace('"', "&quot;").replace("\n", "&#10;").replace("\r", "&#13;")
            .replace("\t", "&#09;"))


def graphml_lines(graph: nx.DiGraph) -> Iterator[str]:
    """The lines of the GraphML text of ``graph``, the bytes networkx's ``write_graphml`` gives it.

    networkx builds the whole document as an element tree before writing a byte: for a reach graph it
    took about twice the build's time and memory, and it cannot be stopped. This writer streams, so
    :func:`write_graphml` can stop it. Attribute values are strings, whole numbers, floats or booleans;
    another type is a :class:`TypeError` naming it."""
    keys: dict[tuple[str, str], tuple[str, str]] = {}  # (for, name) -> (id, type), in order of first use
    scopes = (("graph", [graph.graph]), ("node", (data for _, data in graph.nodes(data=True))),
              ("edge", (data for _, _, data in graph.edges(data=True))))
    for scope, each in scopes:  # a first pass names the keys, which come before the first node
        for attributes in each:
            for name, value in attributes.items():
                kind = _GRAPHML_TYPES.get(type(value))
                if kind is None:
                    raise TypeError(f"GraphML cannot store the {scope} attribute {name!r} of type "
                                    f"{type(value).__name__}")
                if (scope, name) not in keys:
                    keys[scope, name] = (f"d{len(keys)}", kind)

    def data(scope: str, attributes: dict[str, Any]) -> Iterator[str]:
        for name, value in attributes.items():
            yield f'      <data key="{keys[scope, name][0]}">{_xml_text(str(value))}</data>'

    yield _GRAPHML_HEAD
    for (scope, name), (ident, kind) in reversed(keys.items()):
        yield f'  <key id="{ident}" for="{scope}" attr.name="{_xml_attribute(name)}" attr.type="{kind}" />'
    yield '  <graph edgedefault="directed">'
    for node, attributes in graph.nodes(data=True):
        opening = f'    <node id="{_xml_attribute(str(node))}"'
        if attributes:
            yield f"{opening}>"
            yield from data("node", attributes)
            yield "    </node>"
        else:
            yield f"{opening} />"
    for source, target, attributes in graph.edges(data=True):
        opening = f'    <edge source="{_xml_attribute(str(source))}" target="{_xml_attribute(str(target))}"'
        if attributes:
            yield f"{opening}>"
            yield from data("edge", attributes)
            yield "    </edge>"
        else:
            yield f"{opening} />"
    for line in data("graph", graph.graph):
        yield line[2:]  # the graph's data sit one level up
    yield "  </graph>"
    yield "</graphml>"


def write_graphml(graph: nx.DiGraph, path: str | Path, stop: Callable[[], bool] | None = None) -> None:
    """Write ``graph`` as GraphML (:func:`graphml_lines`), atomically; ``stop`` (asked every few thousand
    lines) ends the writing with :class:`ExportStopped` and no file.

    Nodes and edges are written in insertion order and GraphML carries no timestamps, so the same
    graph always gives the same bytes. ``networkx.read_graphml`` reads it back (node ids as strings).
    """
    _write_lines(graphml_lines(graph), path, stop)


def _write_lines(lines: Iterator[str], path: str | Path, stop: Callable[[], bool] | None) -> None:
    """Write ``lines`` (each ended by a newline) to ``path`` atomically, asking ``stop`` every
    :data:`_STOP_EVERY` lines (:class:`ExportStopped` says how many were written).

    :func:`~stratagem.core.outputs.write_atomic_with`: a full disk is an :class:`OSError` naming ``path`` (the
    CLI's exit 74, as for every output), any other failure :class:`~stratagem.core.errors.BadInput`."""

    def fill(handle: BinaryIO) -> None:
        batch: list[str] = []
        written = 0
        for line in lines:
            batch.append(line)
            if len(batch) == _STOP_EVERY:
                if stop is not None and stop():
                    raise ExportStopped(written)
                handle.write(("\n".join(batch) + "\n").encode("utf-8"))
                written += len(batch)
                batch.clear()
        if stop is not None and stop():
            raise ExportStopped(written)
        handle.write("".join(line + "\n" for line in batch).encode("utf-8"))

    write_atomic_with(path, fill)


def _dot_value(value: object) -> str:
    """A DOT attribute value: numbers bare, everything else a quoted string with escapes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"'


def _dot_attributes(data: dict[str, Any], extra: Iterable[tuple[str, object]] = ()) -> str:
    items = [f"{key}={_dot_value(value)}" for key, value in (*data.items(), *extra)]
    return f" [{', '.join(items)}]" if items else ""


def dot_lines(graph: nx.DiGraph) -> Iterator[str]:
    """The lines of the DOT text of ``graph``: a header, one line per node, then one per edge.

    Every node and edge attribute is written, in insertion order. For Graphviz, goal states get a
    double border, the start a bold one, and states a limit left unexpanded a dashed one.
    """
    facts = "complete" if graph.graph.get("complete") else f"truncated (stopped by {graph.graph.get('stopped_by')})"
    yield f"// reachable state graph: {graph.number_of_nodes()} states, {graph.number_of_edges()} edges, {facts}"
    yield "digraph reach {"
    yield f"  graph{_dot_attributes(dict(graph.graph))};"
    yield '  node [shape=box, fontname="monospace"];'
    for node, data in graph.nodes(data=True):
        style: list[tuple[str, object]] = []
        if data.get("goal"):
            style.append(("peripheries", 2))
        if node == 0:
            style.append(("style", "bold"))
        elif not data.get("goal") and not data.get("expanded", True):
            style.append(("style", "dashed"))
        yield f"  {node}{_dot_attributes(data, style)};"
    for source, target, data in graph.edges(data=True):
        yield f"  {source} -> {target}{_dot_attributes(data)};"
    yield "}"


def write_dot(graph: nx.DiGraph, path: str | Path, stop: Callable[[], bool] | None = None) -> None:
    """Write ``graph`` in Graphviz DOT (the writer above, no pydot/pygraphviz needed), atomically;
    ``stop`` (asked every few thousand lines) ends the writing with :class:`ExportStopped` and no file."""
    _write_lines(dot_lines(graph), path, stop)
