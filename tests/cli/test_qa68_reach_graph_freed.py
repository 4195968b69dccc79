"""QA 68: ``reach`` frees the state graph before the designer par's searches unless it exports it.

On the level-2 example the designer graph (200,000 layouts) held about 690 MB while A*, SAT and the DRUP
check ran after it, though nothing but an export reads it again: the counts, the shortest line and the start's
label are taken first. The searches now run with it emptied, and an export still gets it whole.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from conftest import PUZZLES, run_captured

import stratagem.cli.reach as reach_command
from stratagem.models.strato import reachability

CHALLENGE_1 = str(PUZZLES / "challenge-1.toml")


@pytest.fixture(name="seen")
def seen_fixture(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The graph ``reach`` built, and how many states it held when the par's searches began."""
    seen: dict[str, Any] = {}
    build, searches = reach_command.build_graph, reachability.par_and_certificate

    def building(*args: Any, **kwargs: Any) -> nx.DiGraph:
        seen["graph"] = build(*args, **kwargs)
        seen["built"] = seen["graph"].number_of_nodes()
        return seen["graph"]

    def searching(*args: Any, **kwargs: Any) -> Any:
        seen["at_search"] = seen["graph"].number_of_nodes()
        return searches(*args, **kwargs)

    monkeypatch.setattr(reach_command, "build_graph", building)
    monkeypatch.setattr(reachability, "par_and_certificate", searching)
    return seen


def test_the_graph_is_emptied_before_the_par_search(seen: dict[str, Any]) -> None:
    code, out, err = run_captured("reach", CHALLENGE_1, "--designer", "--max-states", "20000", "--quiet")
    assert code == 0, err
    assert seen["built"] > 1000 and seen["at_search"] == 0
    assert "designer par 7" in out  # the answer is A*'s, after the graph: unchanged


def test_an_exported_graph_is_kept_whole(seen: dict[str, Any], tmp_path: Path) -> None:
    out_path = tmp_path / "g.graphml"
    code, _, err = run_captured("reach", CHALLENGE_1, "--designer", "--max-states", "20000", "--quiet",
                        "--export", "graphml", "--out", str(out_path))
    assert code == 0, err
    assert seen["at_search"] == seen["built"] > 1000
    assert out_path.read_text(encoding="utf-8").count("<node ") == seen["built"]
