"""The package's import structure: no cycles, and every import in the direction the layout allows.

The layout is ``cli -> library entry points (stratagem/*.py) -> models, solvers -> core``:

* no import cycle between modules;
* no cli module imports a command module (the modules named in ``cli/main.py``'s ``COMMANDS``): only
  ``cli/main.py``'s lazy loader loads them, by name, when the command runs -- so one command never
  pays for another's libraries, and commands share code through library modules instead;
* only cli modules import cli modules;
* ``solvers`` imports only ``solvers`` and ``core``: the algorithms never know a game;
* ``models/<game>`` imports only its own game, ``solvers`` and ``core``: games never know each other;
* ``core`` imports only ``core``;
* inside ``models/strato`` the rooms point one way: ``rules`` imports no other room, ``search`` only
  ``rules``, ``encodings`` and ``hidden`` only ``rules`` and ``search``; the pipeline beside them
  (``solve``, ``designer``) may import every room. So the reference engine ``verify`` replays with
  never depends on the code it checks.

Every ``import`` statement counts, at any depth -- an import inside a function is still a dependency,
only a later one. So does an ``importlib.import_module`` (or ``__import__``) of a name the source spells
out, up to its first run-time part: ``f"stratagem.models.{game}.agents"`` imports ``stratagem.models``
(some game) as far as the layout is concerned. The modules are read with :mod:`ast`, not imported, so a
failure lists every offending edge (``importer -> imported (line N)``) at once.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "stratagem"


@dataclass(frozen=True)
class Edge:
    """One import: ``importer`` imports ``imported`` at ``line`` of the importer's file."""

    importer: str
    imported: str
    line: int

    def __str__(self) -> str:
        return f"{self.importer} -> {self.imported} (line {self.line})"


def module_name(path: Path) -> str:
    """``stratagem/solvers/drup.py`` -> ``stratagem.solvers.drup``; a package is named by its ``__init__``."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imported_names(tree: ast.Module, module: str, is_package: bool) -> Iterator[tuple[str, int]]:
    """Every module name an ``import`` or ``from ... import`` anywhere in ``tree`` asks for, with its line.

    For ``from X import y`` both ``X`` and ``X.y`` are yielded; :func:`edges` keeps the names that are
    modules of the package (``y`` may be a submodule or just an attribute of ``X``).
    """
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's own package, then up one per extra dot
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            yield source, node.lineno
            for alias in node.names:
                yield f"{source}.{alias.name}", node.lineno


@cache
def parsed(module: str, path: Path) -> ast.Module:
    """``path``'s syntax tree, parsed once a process (both walks read every module's); only read."""
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def edges() -> list[Edge]:
    """Every import of one package module by another (a submodule imported by name counts as itself)."""
    return list(_edges())


@cache
def _edges() -> tuple[Edge, ...]:
    """:func:`edges`, found once a process (eight tests ask)."""
    modules = all_modules()
    found: set[Edge] = set()
    for module, path in modules.items():
        tree = parsed(module, path)
        for name, line in imported_names(tree, module, path.name == "__init__.py"):
            if name in modules and name != module:
                found.add(Edge(module, name, line))
    # ``from X import y`` with y a submodule depends on X.y; X itself is a package's ``__init__`` and the
    # importer gets y from it only as an attribute, so keep X only when y is not a submodule.
    submodule_imports = {(e.importer, e.imported.rsplit(".", 1)[0], e.line) for e in found}
    return tuple(sorted((e for e in found if (e.importer, e.imported, e.line) not in submodule_imports
                         or not _is_package(modules, e.imported)),
                        key=lambda e: (e.importer, e.imported, e.line)))


def _is_package(modules: dict[str, Path], name: str) -> bool:
    return modules[name].name == "__init__.py"


def layer(module: str) -> str:
    """Where a module sits: ``core``, ``solvers``, ``models.<game>``, ``models``, ``cli`` or ``library``."""
    parts = module.split(".")
    if module == "stratagem.__main__":  # ``python -m stratagem``: the command line's other door
        return "cli"
    if len(parts) >= 2 and parts[1] in ("core", "solvers", "cli"):
        return parts[1]
    if len(parts) >= 3 and parts[1] == "models":
        return f"models.{parts[2]}"
    if len(parts) == 2 and parts[1] == "models":
        return "models"
    return "library"  # stratagem itself and the entry points stratagem/*.py


def command_modules() -> set[str]:
    """The command modules: ``stratagem.cli.<name>`` for each name in cli/main.py's ``COMMANDS``."""
    tree = ast.parse((PACKAGE / "cli" / "main.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "COMMANDS" for t in node.targets):
            names = ast.literal_eval(node.value)
            return {f"stratagem.cli.{name}" for name in names}
    raise AssertionError("cli/main.py defines no COMMANDS")


def cycles(graph: list[Edge]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    succ: dict[str, set[str]] = {}
    for e in graph:
        succ.setdefault(e.importer, set()).add(e.imported)
        succ.setdefault(e.imported, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:  # recursion depth is bounded by the number of modules (~150)
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(succ[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(succ):
        if v not in index:
            visit(v)
    return found


def forbidden(edge: Edge, commands: set[str]) -> str | None:
    """Why ``edge`` goes against the layout, or ``None`` if it is allowed."""
    src, dst = layer(edge.importer), layer(edge.imported)
    if dst == "cli" and edge.imported in commands:
        return "imports a command module (only cli/main.py's lazy loader may load one)"
    if dst == "cli" and src != "cli":
        return "imports the cli from outside it"
    if src == "core" and dst != "core":
        return "core imports something outside core"
    if src == "solvers" and dst not in ("solvers", "core"):
        return "solvers imports something other than solvers and core"
    if src.startswith("models.") and dst not in (src, "solvers", "core"):
        return "a game imports something other than its own game, solvers and core"
    if src == dst == "models.strato":
        here, there = strato_room(edge.importer), strato_room(edge.imported)
        if there not in STRATO_ROOMS[here]:
            return f"Strato's {here} room imports its {there} room"
    return None


#: Which rooms of ``models/strato`` each room may import (the pipeline, beside them, may import all).
STRATO_ROOMS = {
    "rules": {"rules"},
    "search": {"rules", "search"},
    "encodings": {"rules", "search", "encodings"},
    "hidden": {"rules", "search", "hidden"},
    "pipeline": {"rules", "search", "encodings", "hidden", "pipeline"},
}


def strato_room(module: str) -> str:
    """``stratagem.models.strato.search.guided`` -> ``search``; the modules beside the rooms -> ``pipeline``."""
    parts = module.split(".")
    return parts[3] if len(parts) > 4 and parts[3] in STRATO_ROOMS else "pipeline"


def test_the_graph_is_read() -> None:
    """The walk finds the package and its imports (else every other test here would pass vacuously)."""
    graph = edges()
    assert len(all_modules()) > 50
    assert Edge("stratagem.solvers.alphabeta", "stratagem.solvers.gametree", 0).imported in {
        e.imported for e in graph if e.importer == "stratagem.solvers.alphabeta"}
    assert "stratagem.cli.show" in command_modules()


def test_no_import_cycles() -> None:
    graph = edges()
    found = cycles(graph)
    report = []
    for component in found:
        members = set(component)
        report.append(" <-> ".join(component))
        report += [f"    {e}" for e in graph if e.importer in members and e.imported in members]
    assert not found, "import cycles:\n" + "\n".join(report)


@pytest.mark.parametrize("rule", ["command", "cli", "core", "solvers", "models", "strato rooms"])
def test_imports_follow_the_layout(rule: str) -> None:
    commands = command_modules()
    bad = []
    for edge in edges():
        why = forbidden(edge, commands)
        if why is None:
            continue
        kind = ("command" if "command module" in why else "cli" if "the cli" in why
                else "strato rooms" if "room" in why
                else why.split()[0] if why.split()[0] in ("core", "solvers") else "models")
        if kind == rule:
            bad.append(f"{edge}: {why}")
    assert not bad, f"{len(bad)} import(s) against the layout:\n" + "\n".join(bad)


def named_imports(tree: ast.Module) -> Iterator[tuple[str, int]]:
    """The module names ``importlib.import_module(...)`` and ``__import__(...)`` calls in ``tree`` spell out:
    the whole string, or an f-string up to its first run-time part (trailing dot dropped), with the line."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args and (
                (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                or (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__")))):
            continue
        name = node.args[0]
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            yield name.value, node.lineno
        elif isinstance(name, ast.JoinedStr):
            prefix = ""
            for part in name.values:
                if not (isinstance(part, ast.Constant) and isinstance(part.value, str)):
                    break
                prefix += part.value
            if prefix:
                yield prefix.rstrip("."), node.lineno


def named_edges() -> list[Edge]:
    """Every import by name (:func:`named_imports`) of a package module, as an edge to the longest module
    of the package the name starts with (``stratagem.models.{game}`` -> ``stratagem.models``)."""
    modules = all_modules()
    found = []
    for module, path in modules.items():
        for name, line in named_imports(parsed(module, path)):
            parts = name.split(".")
            known = next((".".join(parts[:n]) for n in range(len(parts), 0, -1) if ".".join(parts[:n]) in modules),
                         None)
            if len(parts) == 2 and parts[1].startswith("_"):  # a file the build writes at the root: itself
                known = name
            if known is not None and known != module:
                found.append(Edge(module, known, line))
    return sorted(found, key=lambda e: (e.importer, e.imported, e.line))


#: Imports by name the layout allows though their layers would not, each with the reason.
NAMED_EXCEPTIONS = {
    ("stratagem.core.compiled", "stratagem._kernel_sources"):
        "the build's record of the sources it compiled (setup.py writes it at the package's root), read as data",
    ("stratagem.core.provenance", "stratagem._build"):
        "the commit an installed package was built from (setup.py writes it at the package's root), read as data",
}


def test_imports_by_name_follow_the_layout() -> None:
    """An import whose module name is built at run time escapes the walk of import statements: the layout
    holds for those too (a solver loading ``f"stratagem.models.{game}"`` would know a game)."""
    commands = command_modules()
    graph = named_edges()
    pairs = {(e.importer, e.imported) for e in graph}
    assert ("stratagem.matches", "stratagem.models") in pairs  # the walk finds them
    assert set(NAMED_EXCEPTIONS) <= pairs, "an exception no longer needed: drop it"
    bad = [f"{e}: {why}" for e in graph
           if (why := forbidden(e, commands)) is not None and (e.importer, e.imported) not in NAMED_EXCEPTIONS]
    assert not bad, f"{len(bad)} import(s) by name against the layout:\n" + "\n".join(bad)


def test_imports_by_name_are_read() -> None:
    """The names the check reads, on made-up code: a whole string, an f-string's spelled-out part, and
    nothing from a name that starts at run time."""
    tree = ast.parse("import importlib\n"
                     "importlib.import_module('stratagem.solvers.drup')\n"
                     "importlib.import_module(f'stratagem.models.{game}.agents')\n"
                     "__import__(f'{__name__}.x')\n")
    assert list(named_imports(tree)) == [("stratagem.solvers.drup", 2), ("stratagem.models", 3)]
    assert forbidden(Edge("stratagem.solvers.pimc", "stratagem.models", 1), set())


def test_the_rules_catch_what_they_should() -> None:
    """Each rule on a made-up edge, so that a rule that never fires would be noticed."""
    commands = {"stratagem.cli.solve"}
    assert forbidden(Edge("stratagem.cli.check", "stratagem.cli.solve", 1), commands)
    assert forbidden(Edge("stratagem.cli.check", "stratagem.cli.render", 1), commands) is None
    assert forbidden(Edge("stratagem.analysis", "stratagem.cli.render", 1), commands)
    assert forbidden(Edge("stratagem.core.io", "stratagem.solvers.drup", 1), commands)
    assert forbidden(Edge("stratagem.solvers.pimc", "stratagem.models.strato.rules.turns", 1), commands)
    assert forbidden(Edge("stratagem.models.stakd.sat", "stratagem.models.strato.encodings.sat", 1), commands)
    assert forbidden(Edge("stratagem.models.stakd.sat", "stratagem.solvers.dimacs", 1), commands) is None
    assert forbidden(Edge("stratagem.models.strato.rules.deal", "stratagem.models.strato.search.demand", 1),
                     commands)
    assert forbidden(Edge("stratagem.models.strato.search.guided", "stratagem.models.strato.hidden.game", 1),
                     commands)
    assert forbidden(Edge("stratagem.models.strato.hidden.odds", "stratagem.models.strato.search.heuristic", 1),
                     commands) is None
    assert forbidden(Edge("stratagem.models.strato.solve", "stratagem.models.strato.encodings.sat", 1),
                     commands) is None
    assert cycles([Edge("a", "b", 1), Edge("b", "a", 1), Edge("b", "c", 1)]) == [["a", "b"]]
