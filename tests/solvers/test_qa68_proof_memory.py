"""A DRUP certificate held once, as bytes, from CaDiCaL's file to the gzip beside the record (stop 68).

``reach --designer --proof`` on the level-2 example peaked at 1.7 GB resident for a proof of 3 million
lines: PySAT's ``get_proof()`` list of one ``str`` a line, pickled from the solver's child process, then
joined into text for the checker and again for the file. The proof is now the text's bytes
(:class:`~stratagem.solvers.drattext.DrupText`), made from CaDiCaL's binary file in chunks, sent from the
child a piece at a time, and checked, hashed and compressed from those bytes. These tests hold the text to
be PySAT's, byte for byte, and the memory to stay within a small multiple of the proof's text (the old
pipeline: 3.9 times it receiving the proof from the child, 3.5 times it writing the files, for PHP(8)'s
69,147 lines).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from stratagem.models.strato.solve import refutation_beside
from stratagem.solvers.dimacs import parse_dimacs
from stratagem.solvers.satplan import SOLVER, Refutation, solve_cnf

ROOT = Path(__file__).resolve().parents[2]


def pysat_text(clauses: list[list[int]]) -> bytes:
    """The proof text as before: PySAT's ``get_proof()`` lines, each ending in a newline."""
    solver = Solver(name=SOLVER, bootstrap_with=clauses, with_proof=True)
    try:
        assert solver.solve() is False
        return "".join(f"{line}\n" for line in solver.get_proof()).encode()
    finally:
        solver.delete()


def text_of(proof: object) -> bytes:
    """A solve's proof as text, whatever it is held as (lines before, bytes now)."""
    return "".join(f"{line}\n" for line in proof).encode()  # type: ignore[attr-defined]


def _literal(code: int) -> bytes:
    out = bytearray()
    while True:
        low, code = code & 0x7F, code >> 7
        out.append(low | (0x80 if code else 0))
        if not code:
            return bytes(out)


def test_the_text_of_a_binary_proof_is_pysats_byte_for_byte() -> None:
    """Random binary DRAT, large literals, empty steps and a last step cut short, in chunks of every size:
    the text is what PySAT's ``get_proof()`` made of it."""
    from stratagem.solvers.drattext import drat_text, drat_text_chunks

    rng = random.Random(68)
    for _ in range(80):
        data = bytearray()
        for _ in range(rng.randrange(0, 40)):
            data += rng.choice([b"a", b"d"])
            for _ in range(rng.randrange(0, 6)):
                variable = rng.choice([1, 2, 63, 64, 99, 100, 8191, 8192, 12345, 2**31, 2**40, 2**61])
                data += _literal(2 * variable + rng.randrange(2))
            data += b"\0"
        if rng.random() < 0.3:
            data += rng.choice([b"a", b"d", b"a\x81", b"d\x05", b"a\x05\x81"])
        before = "".join(f"{line}\n" for line in Solver._proof_bin2text(bytearray(data).strip())).encode()
        for chunk in (1, 64, 1 << 17):
            assert b"".join(drat_text_chunks(bytes(data), chunk)) == before
        proof = drat_text(bytes(data))
        assert proof.data == before and len(proof) == before.count(b"\n") and text_of(proof) == before


@pytest.mark.parametrize("time_limit", [None, 60.0], ids=["in-process", "child"])
def test_a_refutation_is_pysats_proof_text(time_limit: float | None) -> None:
    clauses = PHP(6).clauses
    answer = solve_cnf(clauses, time_limit)
    assert answer is not None and answer[0] is False and answer[2] is not None
    assert text_of(answer[2]) == pysat_text(clauses)


def test_a_proof_from_the_child_is_held_once() -> None:
    """The parent's memory while the child sends a refutation of 2.7 MB of text: under twice the text
    (1.3 times it now); the pickled list of lines and the list itself took 3.9 times it."""
    clauses = PHP(8).clauses
    tracemalloc.start()
    try:
        answer = solve_cnf(clauses, 60.0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert answer is not None and answer[2] is not None
    size = len(text_of(answer[2]))
    assert size > 2_000_000
    assert peak < 2 * size, f"{peak:,} bytes at the peak for {size:,} bytes of proof"


def test_the_files_beside_a_record_are_made_without_copies_of_the_proof(tmp_path: Path) -> None:
    """Compressing and hashing the proof for the files beside a record: under 1.5 times the proof's text
    (0.7 times it now, mostly the gzip); joining the lines into a string and encoding it took 3.5 times it."""
    clauses = PHP(8).clauses
    answer = solve_cnf(clauses, None)
    assert answer is not None and answer[2] is not None
    refutation = Refutation(7, max(abs(lit) for clause in clauses for lit in clause), clauses, answer[2], [])
    size = len(text_of(answer[2]))
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        beside, named = refutation_beside(tmp_path / "p.json", refutation)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert peak < 1.5 * size, f"{peak:,} bytes at the peak for {size:,} bytes of proof"
    proof = gzip.decompress(dict((Path(path).name, data) for path, data in beside)["p.drup.gz"])
    assert proof == pysat_text(clauses) and named["proof_sha256"] == hashlib.sha256(proof).hexdigest()


@pytest.mark.parametrize("limit", [[], ["--time-limit", "120"]], ids=["no-limit", "limit"])
def test_challenge_0s_certificate_is_the_one_written_before(tmp_path: Path, limit: list[str]) -> None:
    """``solve --method sat --proof`` on challenge 0: the DRUP file beside the record is PySAT's proof text of
    the CNF beside it, byte for byte, and the record's digest is that text's, as before (the record, CNF and
    proof written by the code before this change, 3012f62, were equal to these but for the provenance)."""
    record = tmp_path / "p.json"
    puzzle = ROOT / "puzzles" / "strato" / "challenge-0.toml"
    done = subprocess.run([sys.executable, "-m", "stratagem", "solve", str(puzzle), "--method", "sat", "--proof",
                           str(record), "--quiet", *limit],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    evidence = json.loads(record.read_text(encoding="utf-8"))["evidence"]
    cnf = gzip.decompress((tmp_path / evidence["cnf"]).read_bytes()).decode()
    proof = gzip.decompress((tmp_path / evidence["proof"]).read_bytes())
    _, clauses = parse_dimacs(cnf, "p.cnf.gz")
    assert proof == pysat_text([list(clause) for clause in clauses])
    assert evidence["proof_sha256"] == hashlib.sha256(proof).hexdigest()
    assert evidence["proof_sha256"] == "e5612e485c9a21d761098163c8a569d5a8a059d082a221b3f5040e4f7d6d8af2"
    assert evidence["proof_lines"] == proof.count(b"\n") == 13_696


def test_the_compiled_checker_codes_a_proofs_literals_in_place() -> None:
    """``check_flat`` made the literal codes as ``2 * abs(lits) + (lits < 0)`` over an ``int64`` copy of the
    literals: 33 bytes a literal traced at the peak (the level-2 example's 18.6 million literals: the check's
    peak, 777 MB over the proof). They are now made in place in one ``int32`` array: 5 bytes a literal."""
    import numpy as np

    from stratagem.solvers import drup_compiled
    from stratagem.solvers.drup_flat import FlatClauses, FlatProof, flat_clauses

    if not drup_compiled.available():
        pytest.skip("the compiled core is not built")
    rng = np.random.default_rng(68)
    variables, width, lemmas = 200, 200, 10_000
    lits = np.concatenate([rng.permutation(variables) + 1 for _ in range(lemmas)]).astype(np.int64)
    lits *= rng.choice(np.array([-1, 1]), size=len(lits))
    proof = FlatProof(FlatClauses(lits, np.arange(0, len(lits) + 1, width, dtype=np.int64)),
                      np.zeros(lemmas, dtype=bool), np.arange(1, lemmas + 1, dtype=np.int64))
    formula = flat_clauses([[v] for v in range(1, variables + 1)] + [[-1, -2]])  # refuted by its units
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        verdict = drup_compiled.check_flat(formula, proof)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert verdict.valid
    assert peak < 12 * len(lits), f"{peak / len(lits):.1f} bytes a literal at the peak"
