"""QA 58: proof literals too large for the compiled checker are refused as bad input, by either engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.core.errors import BadInput
from stratagem.solvers import drup_compiled
from stratagem.solvers.dimacs import parse_drup_lines
from stratagem.solvers.drup import check_drup, check_drup_data

FORMULA = [(1,), (-1, 2)]  # satisfiable: no proof may pass
MAX_LITERAL = (1 << 63) - 1  # stratagem.solvers.dimacs.MAX_LITERAL


@pytest.mark.parametrize("engine", ["python", "compiled"])
@pytest.mark.parametrize("literal", [1 << 63, -(1 << 63), 1 << 64, 10**30])
def test_a_text_literal_beyond_64_bits_is_bad_input_naming_the_line(engine: str, literal: int) -> None:
    # The compiled engine's arrays hold 64-bit literals: such a literal stopped verify with an internal
    # OverflowError (exit 70) where the reference answered.
    if engine == "compiled" and not drup_compiled.available():
        pytest.skip("the compiled core is not built")
    data = f"c a comment\n{literal} 0\n0\n".encode()
    with pytest.raises(BadInput, match="line 2: a literal beyond"):
        check_drup_data(FORMULA, data, "p.drup", engine=engine)  # type: ignore[arg-type]


def test_the_largest_literal_is_read() -> None:
    from stratagem.solvers.dimacs import MAX_LITERAL as documented

    assert documented == MAX_LITERAL
    steps, _ = parse_drup_lines(f"{MAX_LITERAL} -{MAX_LITERAL} 0\n0\n", "p")
    assert steps == [(False, (MAX_LITERAL, -MAX_LITERAL)), (False, ())]
    verdict, _ = check_drup_data(FORMULA, f"-{MAX_LITERAL} 0\n0\n".encode(), "p", engine="python")
    assert not verdict.valid


def _varint(code: int) -> bytes:
    out = bytearray()
    while True:
        byte = code & 0x7F
        code >>= 7
        out.append(byte | (0x80 if code else 0))
        if not code:
            return bytes(out)


def test_a_binary_literal_beyond_64_bits_is_bad_input() -> None:
    assert parse_drup_lines(b"a" + _varint(2 * MAX_LITERAL + 1) + b"\0", "p")[0] == [(False, (-MAX_LITERAL,))]
    with pytest.raises(BadInput, match="byte 0: a literal beyond"):
        parse_drup_lines(b"a" + _varint(2 * (MAX_LITERAL + 1)) + b"\0", "p")
    # a literal of endless continuation bytes is refused once it is longer than any 64-bit literal
    with pytest.raises(BadInput, match="byte 0: a literal beyond"):
        parse_drup_lines(b"a" + b"\xff" * 100_000 + b"\x01\0", "p")


def test_the_compiled_engine_refuses_a_literal_beyond_64_bits_as_value_error() -> None:
    if not drup_compiled.available():
        pytest.skip("the compiled core is not built")
    with pytest.raises(ValueError, match="64-bit"):
        check_drup(FORMULA, [(False, (1 << 64,)), (False, ())], engine="compiled")


def test_auto_weighs_the_steps_by_the_formula_size() -> None:
    # By steps alone, a STAKD refutation of 14,217 steps over 73,171 clauses went to the reference checker
    # and took it 29 s (the compiled one 0.1 s). A step now counts once more per 20,000 clauses. (The
    # threshold, drup.COMPILED_FROM, is now 100 weighed steps; it was 20,000.)
    if not drup_compiled.available():
        pytest.skip("the compiled core is not built")
    big = [(v, v + 1) for v in range(1, 40_001, 2)] + [(v,) for v in range(1, 40_001, 2)]  # 40,000 clauses
    big += [(-1,)]  # with (1,) above: refuted at the formula already
    steps = [(False, (-(v + 1), v + 2)) for v in range(40)] + [(False, ())]  # 41 steps, 123 weighed
    assert check_drup(big, steps).checker == "compiled"
    assert check_drup_data(big, "".join(f"{-(v + 1)} {v + 2} 0\n" for v in range(40)).encode() + b"0\n",
                           "p")[0].checker == "compiled"
    small = big[:10_000] + [(-1,)]  # the same 41 steps over 10,001 clauses weigh 41: the reference
    assert check_drup(small, steps).checker == "python"


def test_a_stopped_check_shows_its_limit_to_the_hundredth_and_counts_grouped() -> None:
    # `verify --time-limit 1` of solo-4 said "stopped by the time limit (0.240236 s) ... after 2048 of 7102 steps"
    from stratagem.solvers.drupverdict import stopped_reason

    assert stopped_reason(0.240236, "forward", 2048, 7102) == (
        "stopped by the time limit (0.24 s) in the forward pass, after 2,048 of 7,102 steps")
    assert stopped_reason(0.0, "backward", 0, 5).startswith("stopped by the time limit (0 s) in the backward pass")
    assert "(12.5 s)" in stopped_reason(12.5, "forward", 1, 2)


def test_verify_names_the_users_limit_where_the_drup_check_stopped(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # `verify --time-limit 7` whose DRUP check ran out said "stopped by the time limit (0.24 s)": the seconds
    # left to the check, not the limit the user set. Each engine now says where it stopped (stopped_at).
    import stratagem
    from stratagem.verification import refutations

    for engine in ("python", "compiled") if drup_compiled.available() else ("python",):
        stopped, _ = check_drup_data(FORMULA, b"-1 0\n0\n", "p", engine=engine, time_limit=0.0)
        assert stopped.stopped and stopped.stopped_at == "in the forward pass, after 0 of 2 steps", engine
    record = tmp_path / "imp.json"
    puzzle = Path(__file__).resolve().parents[2] / "puzzles" / "stakd" / "solo-4-impossible.toml"
    assert stratagem.check(str(puzzle)).write_proof(record)
    real = refutations.check_drup_data
    monkeypatch.setattr(refutations, "check_drup_data",
                        lambda *args, **kwargs: real(*args, **{**kwargs, "time_limit": 0.0}))
    verdict = stratagem.verify(record, time_limit=7)
    [claim] = [c for c in verdict.to_json()["claims"] if c["claim"] == "winnable"]
    assert claim["status"] == "unknown"
    assert claim["why"].startswith("the time limit (7 s) ran out in the DRUP refutation's check, in the "), claim
