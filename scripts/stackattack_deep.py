"""Measure the exact LP analysis of the deep Stack Attack endgames, before and after issue 20 part 6.

For each position (default: the two-player five-turn endgames) and each version of the package it runs,
each in a fresh interpreter:

- ``solve``: :func:`~stratagem.solvers.simultaneous.solve_simultaneous` (player 1, penalty difference)
  alone: CPU seconds, positions valued, solved simultaneous nodes, the value;
- ``analyze``: ``stratagem analyze POSITION --method lp --max-nodes 100000000 --proof FILE`` (the whole
  command: induction, expected returns, the proof written);
- ``verify``: ``stratagem verify FILE`` on that proof (the certificate re-checked from the rules).

CPU is user + system seconds of the child (``time.process_time``; the machine is shared, so CPU rather
than wall time), peak RSS its ``ru_maxrss``; each cell is the median of ``--runs`` runs. "Before" is the
package as it was at ``--before`` (a git revision, unpacked with ``git archive REV stratagem`` into a
temporary folder and put first on ``PYTHONPATH``); "after" is this checkout. The table is printed and,
with ``--out``, written into that Markdown file as a section between two marker comments (replaced when
present, appended otherwise): ``stratagem bench stackattack`` rewrites ``results/stackattack.md``, so run
this after it.

    python scripts/stackattack_deep.py --before 5a6e488 --runs 3 --before-runs 1 --out results/stackattack.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = ("puzzles/stackattack/2p-numbers-5-turns.toml", "puzzles/stackattack/2p-actions-5-turns.toml")
BEGIN, END = "<!-- scripts/stackattack_deep.py: begin -->", "<!-- scripts/stackattack_deep.py: end -->"
#: What the table says of a figure this system cannot give (Windows: no ``resource``, no load average).
NOT_MEASURED = "not measured on this system"

#: What a child runs: ``solve POSITION`` or a CLI command (``analyze``/``verify`` and its arguments).
CHILD = r"""
import contextlib, io, json, sys, time
try:
    import resource
except ImportError:  # Windows: the peak memory is not measured there
    resource = None
mode, args = sys.argv[1], sys.argv[2:]
out = {}
if mode == "solve":
    from stratagem.loading import load_position
    from stratagem.solvers import simultaneous as sim
    seen = {}
    init = sim._Inductor.__init__
    def spy(self, *a, **k):
        init(self, *a, **k)
        seen["solver"] = self
    sim._Inductor.__init__ = spy
    pos = load_position(args[0])
    start = time.process_time()
    result = sim.solve_simultaneous(pos.game, pos.state, player=0, payoff="margin", max_nodes=10**8)
    out.update(cpu=time.process_time() - start, value=str(result.value), nodes=len(result.nodes),
               valued=seen["solver"].count, certified=result.certified)
else:
    from stratagem.cli.main import run
    start = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()) as text, contextlib.redirect_stderr(io.StringIO()) as err:
        code = run([mode, *args])
    out.update(cpu=time.process_time() - start, code=code, said=(text.getvalue() + err.getvalue())[-300:])
out["rss_mb"] = None if resource is None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def child(source: Path, args: list[str]) -> dict[str, Any]:
    """Run :data:`CHILD` with ``source`` first on the path; its JSON line."""
    env = dict(os.environ, PYTHONPATH=str(source), PYTHONIOENCODING="utf-8")
    done = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, encoding="utf-8", env=env,
                          cwd=source, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed under {source}:\n{done.stderr[-2000:]}")
    line: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return line


def unpack(revision: str, folder: Path) -> Path:
    """The ``stratagem`` package as it was at ``revision``, unpacked under ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    archive = folder / "package.tar"
    subprocess.run(["git", "archive", "-o", str(archive), revision, "stratagem"], cwd=ROOT, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    return folder


def measure(source: Path, position: str, runs: int, scratch: Path, tag: str) -> dict[str, Any]:
    """Median CPU and RSS of solve, analyze and verify of one position under one version."""
    path = str(ROOT / position)
    proof = scratch / f"{tag}-{Path(position).stem}.proof.json"
    rows: dict[str, list[dict[str, Any]]] = {"solve": [], "analyze": [], "verify": []}
    # The node cap's option as that version spells it (--nodes before it became --max-nodes).
    analyze = (source / "stratagem" / "cli" / "analyze.py").read_text(encoding="utf-8")
    nodes = "--max-nodes" if "--max-nodes" in analyze else "--nodes"
    for k in range(runs):
        print(f"  {tag} {Path(position).stem} run {k + 1}/{runs}", file=sys.stderr, flush=True)
        rows["solve"].append(child(source, ["solve", path]))
        rows["analyze"].append(child(source, ["analyze", path, "--method", "lp", nodes, "100000000",
                                              "--proof", str(proof)]))
        rows["verify"].append(child(source, ["verify", str(proof)]) if proof.exists() else {"cpu": None})
    out: dict[str, Any] = {"solve": rows["solve"][0], "proof_mb": proof.stat().st_size / 2**20 if proof.exists()
                           else None, "verify_code": rows["verify"][0].get("code"),
                           "verify_said": rows["verify"][0].get("said", "").replace(f"{scratch}/", "")}
    for kind, found in rows.items():
        cpus = [r["cpu"] for r in found if r.get("cpu") is not None]
        out[f"{kind}_cpu"] = statistics.median(cpus) if cpus else None
        peaks = [r["rss_mb"] for r in found if r.get("rss_mb") is not None]
        out[f"{kind}_rss"] = statistics.median(peaks) if peaks else NOT_MEASURED if cpus else None
    return out


def _load() -> str:
    """The 1-minute load average, as the table's note prints it."""
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else NOT_MEASURED


def _num(x: float | str | None, digits: int = 2) -> str:
    return "—" if x is None else x if isinstance(x, str) else f"{x:,.{digits}f}"


def table(results: dict[str, dict[str, dict[str, Any]]], before: str, runs: int, before_runs: int) -> list[str]:
    """The Markdown section."""
    lines = [
        BEGIN,
        "## Deep endgames: exact LP analysis before and after issue 20 part 6",
        "",
        f"Written by `python scripts/stackattack_deep.py` (before: the package at `{before}`; after: this "
        f"checkout). Machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores, load average "
        f"{_load()} when the run started (a shared machine: CPU seconds, user + system, are "
        f"reported, median of {runs} runs after and {before_runs} before). Player 1 on the penalty "
        "difference, zero-sum, open information. `solve`: the backward induction alone; `analyze`: "
        "`stratagem analyze --method lp --proof` (induction, expected returns, the proof written); `verify`: "
        "`stratagem verify` of that proof, every matrix rebuilt from the rules. Positions valued count every "
        "position the induction met (terminals included); nodes are the simultaneous nodes solved and "
        "written to the proof.",
        "",
        "| position | version | value | positions valued | nodes | solve CPU s | solve MB | analyze CPU s "
        "| analyze MB | proof MB | verify CPU s | verify MB |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    notes = []
    for position, versions in results.items():
        for version, r in versions.items():
            solve = r["solve"]
            verify = _num(r["verify_cpu"])
            if r["verify_code"] not in (0, None):
                verify = f"refused (exit {r['verify_code']})"
                notes.append(f"{Path(position).stem}, {version}: `verify` said: {r['verify_said'].strip()}")
            lines.append(
                f"| {Path(position).stem} | {version} | {solve['value']} | {solve['valued']:,} | {solve['nodes']:,} "
                f"| {_num(r['solve_cpu'])} | {_num(r['solve_rss'], 0)} | {_num(r['analyze_cpu'])} "
                f"| {_num(r['analyze_rss'], 0)} | {_num(r['proof_mb'])} | {verify} | {_num(r['verify_rss'], 0)} |"
            )
    lines.append("")
    lines += [f"- {note}" for note in notes]
    lines += [
        "",
        "What changed (after): a reveal where each player has one card left is valued as its only child, with no "
        "node (88% of the simultaneous nodes of these endgames); values stay integers while they can; pure "
        "saddle points are found on the raw entries and certified by the saddle itself (the checker compares "
        "the entry with its row and column); 2x2 games without a saddle point are solved in closed form, only "
        "larger mixed games go to GLOP; decision positions and terminals are not memoised and forced reveals "
        "only in a bounded scratch memo; below the start a position is valued as its penalty points so far plus "
        "the same position with empty piles (`bank`), so positions differing only in their piles share a node; "
        "`SimultaneousResult.node` is a dictionary look-up; the engine places a turn's cards on local rows and "
        "applies a row choice without listing every choice.",
        END,
    ]
    return lines


def write_section(target: Path, lines: list[str]) -> None:
    """Replace the marked section of ``target`` (or append it)."""
    text = target.read_text(encoding="utf-8") if target.exists() else ""
    section = "\n".join(lines)
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + section + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    target.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions", nargs="*", default=list(POSITIONS))
    parser.add_argument("--before", default="5a6e488", help="git revision of the 'before' package")
    parser.add_argument("--runs", type=int, default=3, help="runs of each measurement after")
    parser.add_argument("--before-runs", type=int, default=1, help="runs before (minutes each)")
    parser.add_argument("--no-before", action="store_true", help="measure this checkout only")
    parser.add_argument("--out", type=Path, help="Markdown file to write the section into")
    options = parser.parse_args()
    results: dict[str, dict[str, dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        old = None if options.no_before else unpack(options.before, scratch / "before")
        for position in options.positions:
            results[position] = {}
            if old is not None:
                results[position]["before"] = measure(old, position, options.before_runs, scratch, "before")
            results[position]["after"] = measure(ROOT, position, options.runs, scratch, "after")
    lines = table(results, options.before, options.runs, 0 if options.no_before else options.before_runs)
    print("\n".join(lines))
    if options.out:
        write_section(options.out, lines)


if __name__ == "__main__":
    main()
