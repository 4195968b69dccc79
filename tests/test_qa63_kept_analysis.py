"""What a kept ``lp`` :class:`~stratagem.analysis.Analysis` holds: its proof, not its search.

An ``lp`` analysis kept the induction's results, and with them the compiled walk, so that ``write_proof``
could be called later: 69 MB (tracemalloc) for Stack Attack's 2p-numbers-5-turns, 302 MB for the six-turn
endgame, for as long as the caller held the result (a researcher holding many results held many searches).
All that ``write_proof`` reads of them is their bound certificates (the ``stratagem/matrixproof@2`` record,
0.12 CPU s to make), so the analysis now keeps those, made as the induction ends, and drops the walk: 1.4 and
2.6 MB kept.
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

import pytest

import stratagem
from stratagem.analysis import ProofNotWritten, analyze
from stratagem.core import callcaches
from stratagem.solvers import simultaneous

ROOT = Path(__file__).parents[1]
STACK_ATTACK = str(ROOT / "puzzles" / "stackattack" / "2p-numbers-3-turns.toml")


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[tuple[weakref.ref[Any], str]]:
    """The induction's results as the analysis makes them (weakly), each with the proof text it proves."""
    from stratagem.solvers.boundproof import bound_proof, bound_proof_text

    made: list[tuple[weakref.ref[Any], str]] = []
    solve = simultaneous.solve_simultaneous

    def spied(game: Any, state: Any, **options: Any) -> Any:
        result = solve(game, state, **options)
        made.append((weakref.ref(result), bound_proof_text(bound_proof(game, result))))
        return result

    monkeypatch.setattr(simultaneous, "solve_simultaneous", spied)
    return made


def test_a_kept_lp_analysis_holds_its_certificate_not_its_induction(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    made = _spy(monkeypatch)
    analysis = analyze(STACK_ATTACK)
    gc.collect()
    assert analysis.solved and len(made) == 1
    result, text = made[0]
    assert result() is None  # before: alive as long as the analysis, compiled walk and all
    written = analysis.write_proof(tmp_path / "proof.json")
    assert (tmp_path / "proof.json").read_text(encoding="utf-8") == text  # the proof the whole result gave
    assert written.format == "stratagem/matrixproof@2" and written.nodes > 0
    assert stratagem.verify(tmp_path / "proof.json").status == "certified"
    analysis.write_proof(tmp_path / "again.json")  # as often as asked: the record is copied, not handed out
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "proof.json").read_bytes()


def test_an_lp_analysis_with_nothing_to_prove_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = _spy(monkeypatch)
    analysis = analyze(STACK_ATTACK, depth=1)  # cut by the depth: a value resting on the evaluation
    gc.collect()
    assert analysis.status == "heuristic" and len(made) == 1
    assert made[0][0]() is None and analysis._lp_results is None
    with pytest.raises(ProofNotWritten, match="depth limit"):
        analysis.write_proof(tmp_path / "proof.json")
    assert not (tmp_path / "proof.json").exists()


def test_the_induction_is_freed_before_the_call_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """As ``analyze`` ends, the process gives the allocator's free memory back when it grew much
    (:mod:`stratagem.core.callcaches`): the induction must be freed by then, with no cyclic collection (the
    expected returns' recursive walk kept the result in a reference cycle until the next one)."""
    made = _spy(monkeypatch)
    ended: list[list[bool]] = []
    monkeypatch.setattr(callcaches, "MEASURE_SECONDS", 0.0)
    monkeypatch.setattr(callcaches, "_settle", lambda: ended.append([ref() is None for ref, _ in made]))
    gc.disable()  # only reference counting frees it: as a trim at the call's end finds it
    try:
        analysis = analyze(STACK_ATTACK)
    finally:
        gc.enable()
    assert analysis.solved and ended == [[True]]  # one call measured (analyze's), its induction gone by then
