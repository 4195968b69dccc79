"""Property-based round trips of the proofs of game values (QA 60; docs/formats.md 9): positions reached by
random play from the shipped positions of the four position games, analysed exactly, give a proof record
(an AND/OR proof tree, or matrix proofs for Stack Attack's simultaneous moves) that ``verify`` reads and
finds valid, that is written byte for byte alike twice, and whose every position is the game's canonical
notation of a position that reads back."""

from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import stratagem
from stratagem.loading import Position, load

ROOT = Path(__file__).resolve().parent.parent
#: Shipped positions whose exact analysis and check take well under a second from anywhere in their play.
SOURCES = ("cardclash/defence-holds", "cardclash/square-in-3", "cardclash/square-in-5", "cardclash/strategic-defence",
           "cardclash/strategic-double-threat", "cardclash/strategic-uncover", "stakd/endgame-2p-bomber",
           "stakd/endgame-2p-lost", "stakd/endgame-2p-only-move", "stratatak/attacker-only-one-way",
           "stratatak/defender-holds", "stratatak/lone-star", "stratatak/run-of-reds",
           "stackattack/2p-actions-3-turns", "stackattack/2p-actions-shield-2-turns", "stackattack/2p-numbers-3-turns")
RUNS = settings(deadline=None, derandomize=True, max_examples=25,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@functools.cache
def _start(name: str) -> Position:
    loaded = load(ROOT / "puzzles" / f"{name}.toml")
    assert isinstance(loaded, Position)
    return loaded


def _positions(value: Any) -> list[str]:
    """Every ``state`` or ``position`` text in a proof record."""
    if isinstance(value, dict):
        found = [v for k, v in value.items() if k in ("state", "position", "start") and isinstance(v, str)]
        return found + [text for v in value.values() for text in _positions(v)]
    if isinstance(value, list):
        return [text for v in value for text in _positions(v)]
    return []


@RUNS
@given(st.sampled_from(SOURCES), st.lists(st.integers(0, 2**16), max_size=3))
def test_an_exact_analysis_proof_is_written_alike_twice_and_verified(name: str, choices: list[int]) -> None:
    position = _start(name)
    game, state = position.game, position.state
    for choice in choices:
        if game.is_terminal(state):
            break
        chance = game.chance_outcomes(state)
        options = [outcome for outcome, _ in chance] if chance else list(game.legal_moves(state))
        state = game.apply(state, options[choice % len(options)])
    if game.is_terminal(state):
        return
    analysis = stratagem.analyze((game, state), rank=False, max_nodes=50_000, time_limit=30)
    event(f"analysis {analysis.status}")
    if analysis.status != "solved":
        return
    with tempfile.TemporaryDirectory() as folder:
        first, second = Path(folder) / "a.json", Path(folder) / "b.json"
        analysis.write_proof(first)
        analysis.write_proof(second)
        assert first.read_bytes() == second.read_bytes()
        record = json.loads(first.read_text(encoding="utf-8"))
        texts = _positions(record)
        assert texts, record.get("format")
        for text in texts:
            assert game.format_state(game.parse_state(text)) == text
        verdict = stratagem.verify(first)
        assert verdict.valid, (name, game.format_state(state), verdict)
