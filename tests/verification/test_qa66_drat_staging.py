"""QA 66: where ``verify`` puts drat-trim's files, and a temporary directory that cannot hold them.

drat-trim reads plain files, and a refutation's files are gzip-compressed beside its record, so ``verify``
writes them uncompressed to a folder of the temporary directory (``TMPDIR``; the system's is often a small
RAM-backed ``/tmp``). A full one ended the command with "cannot write the output: No space left on device"
(exit 74), losing the verdict of stratagem's own checker, which had already accepted the proof; drat-trim is a
second opinion, so now it is left unasked with a note naming the directory. The proof handed to drat-trim
is the bytes the checker read (a binary DRAT proof was decoded as UTF-8 for it: bad input, exit 2).

drat-trim is replaced by a script that keeps copies of the files it is given and answers "s VERIFIED".
"""

from __future__ import annotations

import errno
import gzip
import io
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.solvers.dimacs import parse_drup

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "strato"


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A genuine refutation: challenge 0's solo deal has no win within 4 turns (13,696 proof lines)."""
    path = tmp_path_factory.mktemp("qa66_drat") / "s1.json"
    assert run(["solve", str(PUZZLES / "challenge-0.toml"), "--method", "sat", "--quiet", "--proof", str(path)]) == 0
    assert json.loads(path.read_text(encoding="utf-8"))["evidence"]["kind"] == "drup-refutation"
    return path


@pytest.fixture
def drat_trim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A drat-trim on PATH that copies its two files to ``seen/`` and says "s VERIFIED", and a temporary
    directory of the test's own (as ``TMPDIR`` would give): (seen, temporary directory)."""
    seen, staging, programs = tmp_path / "seen", tmp_path / "tmpdir", tmp_path / "bin"
    for folder in (seen, staging, programs):
        folder.mkdir()
    program = programs / "drat-trim"
    program.write_text(f'#!/bin/sh\necho "$1" > "{seen}/args"\necho "$2" >> "{seen}/args"\n'
                       f'cp "$1" "{seen}/f.cnf"\ncp "$2" "{seen}/p.drup"\necho "s VERIFIED"\n', encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{programs}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setattr(tempfile, "tempdir", str(staging))
    return seen, staging


def verify_json(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = run(["verify", str(path), "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else {}


@pytest.mark.skipif(os.name == "nt", reason="the fake drat-trim is a shell script")
def test_drat_trim_reads_the_rebuilt_formula_and_the_proof_from_the_temporary_directory(
        record: Path, drat_trim: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    seen, staging = drat_trim
    code, verdict = verify_json(record, capsys)
    assert code == 0 and verdict["status"] == "certified", verdict
    assert "drat-trim agrees: s VERIFIED" in verdict["checked"]
    cnf, proof = (Path(line) for line in (seen / "args").read_text(encoding="utf-8").split())
    assert cnf.parent.parent == proof.parent.parent == staging  # a folder of TMPDIR's
    assert os.listdir(staging) == []  # removed after
    assert (seen / "f.cnf").read_bytes() == gzip.decompress((record.parent / "s1.cnf.gz").read_bytes())
    assert (seen / "p.drup").read_bytes() == gzip.decompress((record.parent / "s1.drup.gz").read_bytes())


def _full_disk_in(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file opened for writing under ``folder`` takes no byte: ENOSPC, as on a full disk."""
    real = Path.open

    class Full(io.RawIOBase):
        def writable(self) -> bool:
            return True

        def write(self, data: Any) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    def opened(self: Path, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        handle = real(self, mode, *args, **kwargs)
        if "w" in mode and folder in self.parents:
            handle.close()
            return Full()
        return handle

    monkeypatch.setattr(Path, "open", opened)


@pytest.mark.skipif(os.name == "nt", reason="the fake drat-trim is a shell script")
def test_a_full_temporary_directory_leaves_drat_trim_unasked(
        record: Path, drat_trim: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    seen, staging = drat_trim
    _full_disk_in(staging, monkeypatch)
    code, verdict = verify_json(record, capsys)
    assert code == 0 and verdict["status"] == "certified", verdict  # stratagem's checker accepted the proof
    assert not (seen / "args").exists()  # drat-trim never saw a file cut short
    assert not any("drat-trim agrees" in line for line in verdict["checked"])
    note = ("drat-trim gave no second opinion: the formula and the proof could not be written for it in the "
            f"temporary directory {staging} (No space left on device; set TMPDIR to a folder with room)")
    assert note in verdict["not_checked"], verdict
    assert os.listdir(staging) == []


@pytest.mark.skipif(os.name == "nt", reason="the fake drat-trim is a shell script")
def test_a_binary_proof_reaches_drat_trim_as_its_bytes(
        record: Path, drat_trim: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seen, _ = drat_trim
    folder = tmp_path / "binary"
    folder.mkdir()
    for name in ("s1.json", "s1.cnf.gz"):
        (folder / name).write_bytes((record.parent / name).read_bytes())
    steps = parse_drup(gzip.decompress((record.parent / "s1.drup.gz").read_bytes()), "s1.drup.gz")
    data = bytearray()
    for deletion, clause in steps:  # binary DRAT: 'a' or 'd', each literal 2|l| + sign in 7-bit groups, 0
        data.append(0x64 if deletion else 0x61)
        for literal in clause:
            code = 2 * abs(literal) + (literal < 0)
            while code >= 0x80:
                data.append(code & 0x7F | 0x80)
                code >>= 7
            data.append(code)
        data.append(0)
    (folder / "s1.drup.gz").write_bytes(gzip.compress(bytes(data), mtime=0))
    code, verdict = verify_json(folder / "s1.json", capsys)
    assert code == 0 and verdict["status"] == "certified", verdict
    assert "drat-trim agrees: s VERIFIED" in verdict["checked"]
    assert (seen / "p.drup").read_bytes() == bytes(data)
