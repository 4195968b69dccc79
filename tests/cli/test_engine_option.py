"""``--engine compiled|reference`` on analyze: the engine asked for by name is used or a one-line note says
why not; the default falls back quietly, but where the compiled core is not built (an install without a
compiler), which the default says too (:class:`~stratagem.engines.EngineChoice`); an unknown engine is bad
input."""

from __future__ import annotations

import json

from conftest import ROOT, Outcome

from stratagem.engines import resolve
from stratagem.loading import load_position
from stratagem.matches import new_game

LONE_STAR = str(ROOT / "puzzles" / "stratatak" / "lone-star.toml")


def _record(outcome: Outcome) -> dict[str, object]:
    record = json.loads(outcome.out)
    for key in ("nodes", "pv"):  # the compiled search has no game move ordering: other counts, other lines
        record.pop(key)
    return record  # type: ignore[no-any-return]


def test_engine_option(cli) -> None:  # type: ignore[no-untyped-def]
    reference = cli("analyze", LONE_STAR, "--engine", "reference", "--json", "--no-rank")
    assert reference.code == 0, reference.err
    assert "note:" not in reference.err
    default = cli("analyze", LONE_STAR, "--json", "--no-rank")
    core_missing = resolve(load_position(LONE_STAR).game, "compiled").core_missing
    assert default.code == 0 and ("note:" in default.err) == core_missing, default.err
    assert _record(default) == _record(reference)
    bad = cli("analyze", LONE_STAR, "--engine", "fast")
    assert bad.code == 2
    # paranoid runs compiled too (packed_expectimax): no note, and the same record as on the reference engine.
    asked = cli("analyze", LONE_STAR, "--engine", "compiled", "--json", "--no-rank", "--method", "paranoid")
    plain = cli("analyze", LONE_STAR, "--engine", "reference", "--json", "--no-rank", "--method", "paranoid")
    assert asked.code == 0 and plain.code == 0, asked.err + plain.err
    assert _record(asked) == _record(plain)
    compiled = cli("analyze", LONE_STAR, "--engine", "compiled", "--json", "--no-rank")
    has_engine = resolve(load_position(LONE_STAR).game, "compiled").name == "compiled"
    assert ("note:" in compiled.err) != has_engine


def test_play_engine_option(cli) -> None:  # type: ignore[no-untyped-def]
    choice = resolve(load_position(str(ROOT / "puzzles" / "cardclash" / "square-in-3.toml")).game, "compiled")
    has_engine = choice.name == "compiled"
    agents = "mcts:iterations=30:guided=false,mcts:iterations=30"
    runs = {}
    for engine in ("compiled", "reference", None):
        args = ["play", "cardclash", "--agents", agents, "--count", "2", "--json"]
        args += ["--engine", engine] if engine else []
        result = cli(*args)
        assert result.code == 0, result.err
        runs[engine] = [agent["params"].get("engine") for agent in json.loads(result.out)["agents"]]
        # without the compiled core the default says so too (its agents would search there)
        assert ("note:" in result.err) == (engine == "compiled" and not has_engine
                                           or engine is None and choice.core_missing), (engine, result.err)
    compiled = "compiled" if has_engine else None
    assert runs["compiled"] == [compiled, compiled]  # asked for by name: every open mcts agent
    # by default: plain UCT (the same search on both engines), and guided UCT where the game hands over a
    # compiled guide (Card Clash: stronger there, results/mcts.md)
    assert runs[None] == [compiled, compiled]
    assert runs["reference"] == [None, None]
    stakd = cli("play", "stakd", "--agents", agents, "--count", "2", "--json")
    assert stakd.code == 0, stakd.err
    has_stakd = resolve(new_game("stakd", 2), "compiled").name == "compiled"
    plain = "compiled" if has_stakd else None
    # STAKD hands over a compiled guide too: both agents search compiled by default
    assert [agent["params"].get("engine") for agent in json.loads(stakd.out)["agents"]] == [plain, plain]
