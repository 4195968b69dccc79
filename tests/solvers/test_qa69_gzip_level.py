"""Proofs and formulas are gzip-compressed at zlib's default level 6, not Python's 9: on the level-2 example's
101 MB designer proof, 9 took 15.5 CPU s of `reach`'s ~150 for a file 0.8% smaller (stop 69)."""

from __future__ import annotations

import gzip
from pathlib import Path

from stratagem.solvers.dimacs import GZIP_LEVEL, read_text_maybe_gz, write_text_maybe_gz


def test_a_gz_file_is_written_at_level_6_without_a_timestamp(tmp_path: Path) -> None:
    text = "".join(f"{i} -{i + 1} {i + 2} 0\n" for i in range(1, 20_000))
    path = tmp_path / "p.drup.gz"
    write_text_maybe_gz(path, text)
    data = path.read_bytes()
    assert GZIP_LEVEL == 6
    assert data == gzip.compress(text.encode(), compresslevel=6, mtime=0)
    assert data[8] == 0  # the header's XFL: 2 would say the slowest level (9), 4 the fastest
    assert read_text_maybe_gz(path) == text


def test_a_plain_file_is_the_text(tmp_path: Path) -> None:
    path = tmp_path / "p.drup"
    write_text_maybe_gz(path, "1 0\n")
    assert path.read_bytes() == b"1 0\n"
