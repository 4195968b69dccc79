"""A text DRUP proof is parsed into ``int32`` literals, not ``int64``: the level-2 example's designer proof has
18.6 million, which took 149 MB beside the checker's own arrays and now take 74 MB (stop 69)."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from stratagem.solvers import drup_flat
from stratagem.solvers.dimacs import parse_drup_lines


def _text(steps: int, width: int) -> bytes:
    rng = np.random.default_rng(69)
    lines = []
    for step in range(steps):
        lits = (rng.permutation(500)[:width] + 1) * rng.choice(np.array([-1, 1]), size=width)
        lines.append(("d " if step % 7 == 6 else "") + " ".join(map(str, lits.tolist())) + " 0")
    return ("\n".join(lines) + "\n").encode()


def test_the_scan_parses_literals_into_int32_in_under_7_bytes_a_literal() -> None:
    if not drup_flat._SCAN_TEXT:
        pytest.skip("the compiled scan is not built (the reference parser reads the text)")
    data = _text(20_000, 10)
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        flat = drup_flat.parse_drup_flat(data, "p.drup")
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert flat.clauses.lits.dtype == np.int32 and len(flat.clauses.lits) == 200_000
    assert peak < 7 * 200_000, f"{peak / 200_000:.1f} bytes a literal"  # int64: 9.7


def test_the_int32_parse_is_the_reference_parse() -> None:
    data = _text(2_000, 10) + b"2147483647 -2147483647 0\n"
    flat = drup_flat.parse_drup_flat(data, "p.drup")
    steps, numbers = parse_drup_lines(data, "p.drup")
    lits, starts = flat.clauses.lits.tolist(), flat.clauses.starts.tolist()
    got = [(bool(d), lits[starts[i]:starts[i + 1]]) for i, d in enumerate(flat.deletion.tolist())]
    assert got == [(d, list(c)) for d, c in steps] and flat.line_numbers.tolist() == list(numbers)
