"""A DRUP proof of more steps than the checkers may hold is bad input before it is parsed (QA 58)."""

from __future__ import annotations

import gzip

import pytest

from stratagem.core.errors import BadInput
from stratagem.solvers import drup
from stratagem.solvers.drup import MAX_PROOF_STEPS, check_drup_data


@pytest.mark.parametrize("engine", ["python", "compiled", "auto"])
def test_a_text_proof_over_the_step_limit_is_refused_before_parsing(monkeypatch: pytest.MonkeyPatch,
                                                                   engine: str) -> None:
    monkeypatch.setattr(drup, "MAX_PROOF_STEPS", 1000)
    proof = b"d 1 2 0\n" * 1000  # 1001 lines counted with the one after the last newline
    with pytest.raises(BadInput, match="more than 1,000 lines: more than a DRUP proof may have"):
        check_drup_data([[1, 2], [-1], [-2]], proof, "p.drup", engine=engine)  # type: ignore[arg-type]


def test_a_binary_proof_over_the_step_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drup, "MAX_PROOF_STEPS", 1000)
    proof = b"d\x02\x04\x00" * 1001  # delete (1 2), 1001 times
    with pytest.raises(BadInput, match="more than 1,000 steps"):
        check_drup_data([[1, 2], [-1], [-2]], proof, "p.drup")


def test_a_proof_at_the_limit_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drup, "MAX_PROOF_STEPS", 1000)
    verdict, steps = check_drup_data([[1, 2], [-1], [-2]], b"0\n", "p.drup")
    assert verdict.valid and steps == 1


def test_the_limit_is_far_above_the_largest_proofs_and_a_gzip_bomb_hits_it() -> None:
    """A 100 KB gzip file of 10.5 million deletions (1.57 GB in the checker) is refused now."""
    bomb = gzip.compress(b"d 1 2 0\n" * (1 << 20), mtime=0) * 10
    assert len(bomb) < 150_000
    assert MAX_PROOF_STEPS > 8 * 1_190_000  # eight times the largest proof measured
    with pytest.raises(BadInput, match="10,000,000 lines"):
        check_drup_data([[1, 2], [-1], [-2]], gzip.decompress(bomb), "bomb.drup.gz")
