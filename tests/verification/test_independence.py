"""``verify`` shares no code with the solver's searches (docs/verification.md, its trusted base).

Two walks. The static one reads every ``import`` statement (at any depth: an import inside a function is
still a dependency) of ``stratagem.verification`` and, transitively, of every module it reaches (a
package's ``__init__`` counts with its module-level imports, which are what importing a submodule runs),
and fails if it reaches the solver's search code or a compiled kernel. The runtime one runs ``verify`` on
relaxation certificates in a fresh interpreter and reads ``sys.modules`` and the extension modules loaded.

The relaxation certificates' checkers (``verification.relaxed``, ``verification.bounded``) reach none of
it. The package as a whole reaches exactly two named exceptions, both on the DRUP certificate's path and
both in its documented trusted base: the SAT encoding's redundant demand clauses (``models.strato.sat``
imports ``models.strato.demand``) and the DRUP checker's compiled engines (``solvers.drup`` imports
``solvers.drup_flat`` and ``solvers.drup_compiled``, checked against its pure-Python reference by
``tests/solvers/test_drup_compiled.py``).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "stratagem"
PUZZLES = ROOT / "puzzles" / "strato"

#: The solver's search code (the issue's list): never reached by verify.
SOLVER_SEARCH = {
    "stratagem.models.strato.search.relaxation", "stratagem.models.strato.search.relaxation_kernel",
    "stratagem.models.strato.search.guided", "stratagem.models.strato.search.search_kernel",
    "stratagem.models.strato.search.packed",
    "stratagem.models.strato.search.compiled_search", "stratagem.models.strato.search.heuristic",
    "stratagem.models.strato.search.demand", "stratagem.models.strato.solve", "stratagem.solvers.search",
}

#: Reached by the package only on the DRUP certificate's path, each from the one importer named.
DRUP_PATH = {
    "stratagem.models.strato.search.demand": "stratagem.models.strato.encodings.sat",
    "stratagem.solvers.drup_flat": "stratagem.solvers.drup",
    "stratagem.solvers.drup_compiled": "stratagem.solvers.drup",
}


def kernels() -> set[str]:
    """The compiled kernels: the modules setup.py's ``KERNELS`` lists."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(isinstance(t, ast.Name) and t.id == "KERNELS" for t in targets):
                assert node.value is not None
                return {str(path)[:-3].replace("/", ".") for path in ast.literal_eval(node.value)}
    raise AssertionError("setup.py has no KERNELS")


def modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path) -> set[str]:
    """The module names ``name``'s import statements ask for (``from X import y``: ``X`` and ``X.y``)."""
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    nodes: list[ast.stmt] = list(tree.body) if path.name == "__init__.py" else \
        [n for n in ast.walk(tree) if isinstance(n, ast.stmt)]
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def reached(roots: list[str], parents: bool = True) -> dict[str, str]:
    """Every package module reachable from ``roots``, with the module that first imports it (``parents``:
    counting the packages of ``roots`` too, whose ``__init__`` importing a root runs first)."""
    known = modules()
    via: dict[str, str] = {root: "" for root in roots}
    todo = list(roots)
    while todo:
        name = todo.pop()
        above = [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)]
        if not parents and name in roots:
            above = []
        for other in [*above, *imports(name, known[name])]:
            if other in known and other not in via:
                via[other] = name
                todo.append(other)
    return via


def test_the_relaxation_checkers_reach_no_solver_code_and_no_kernel() -> None:
    # their own imports, at any depth (importing them also runs the package's __init__, which the
    # package-wide walk below covers and the runtime test shows loads nothing of the DRUP path)
    via = reached(["stratagem.verification.relaxed", "stratagem.verification.bounded"], parents=False)
    bad = sorted(f"{m} (imported by {via[m]})" for m in via if m in SOLVER_SEARCH | kernels())
    assert not bad, bad


def test_verification_reaches_no_solver_search_code() -> None:
    roots = [m for m in modules() if m == "stratagem.verification" or m.startswith("stratagem.verification.")]
    via = reached(roots)
    assert "stratagem.verification.relaxed" in via and "stratagem.verification.bounded" in via
    forbidden = SOLVER_SEARCH | kernels()
    bad = sorted(f"{m} (imported by {via[m]})" for m in via if m in forbidden and DRUP_PATH.get(m) != via[m])
    assert not bad, bad


def test_the_walk_sees_a_forbidden_import() -> None:
    # the walk itself works: the solver's own pruned search reaches the relaxation kernel
    via = reached(["stratagem.models.strato.search.guided"])
    assert "stratagem.models.strato.search.relaxation_kernel" in via


GAP = """game = "strato"

[challenge]
name = "two rows with fog"
weathers = "RWFC"
rows = 2
pairs = ["RW", "FC"]
limit = 4
rows_required = 1

[challenge.goal]
left = "<"
right = ">>"

[[deals]]
name = "gap"
position = "RC(RW)RF/WC(FC)FC FRW CFRFFCWCRFWRRWFRFCWWRWWCC 1 -"
"""

VERIFY_AND_LIST = """
import json, sys
from stratagem.verification import verify
statuses = [verify(path).status for path in sys.argv[1:]]
loaded = sorted(m for m in sys.modules if m.startswith("stratagem"))
extensions = sorted(m for m, mod in sys.modules.items() if m.startswith("stratagem")
                    and str(getattr(mod, "__file__", "") or "").endswith((".so", ".pyd")))
print(json.dumps({"statuses": statuses, "loaded": loaded, "extensions": extensions}))
"""


def test_verify_runs_relaxation_certificates_without_solver_code(tmp_path: Path) -> None:
    gap = tmp_path / "gap.toml"
    gap.write_text(GAP)
    proofs = []
    for puzzle, kind in ((PUZZLES / "challenge-0.toml", "relaxation-bound"), (gap, "relaxation-search")):
        proof = tmp_path / f"{kind}.json"
        subprocess.run([sys.executable, "-m", "stratagem", "solve", str(puzzle), "--method", "relaxed",
                        "--proof", str(proof)], check=True, capture_output=True, cwd=tmp_path)
        assert json.loads(proof.read_text())["evidence"]["kind"] == kind
        proofs.append(str(proof))
    run = subprocess.run([sys.executable, "-c", VERIFY_AND_LIST, *proofs], check=True, capture_output=True,
                         text=True, cwd=tmp_path)
    seen = json.loads(run.stdout)
    assert seen["statuses"] == ["certified", "certified"]
    assert "stratagem.verification.relaxed" in seen["loaded"] and "stratagem.verification.bounded" in seen["loaded"]
    assert not SOLVER_SEARCH & set(seen["loaded"]), sorted(SOLVER_SEARCH & set(seen["loaded"]))
    assert not kernels() & set(seen["loaded"]) and not seen["extensions"], seen["extensions"]
