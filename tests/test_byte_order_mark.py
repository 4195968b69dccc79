"""Puzzle and position files saved with a UTF-8 byte-order mark load (QA 56)."""

from __future__ import annotations


def test_a_puzzle_saved_with_a_byte_order_mark_loads(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Some editors save UTF-8 with a byte-order mark; tomllib refused it as 'Invalid statement' at line 1,
    column 1, which points nowhere near the cause."""
    from pathlib import Path

    from stratagem.loading import load

    shipped = Path(__file__).resolve().parents[1] / "puzzles" / "strato" / "challenge-0.toml"
    marked = tmp_path / "bom.toml"
    marked.write_bytes(b"\xef\xbb\xbf" + shipped.read_bytes())
    assert load(marked).start == load(shipped).start
