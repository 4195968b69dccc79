"""SAT proofs end to end: solve writes a certificate, verify checks it, and corruptions are rejected."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from conftest import PUZZLES

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")


@pytest.fixture
def sat_proof(cli, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    path = tmp_path / "p.json"
    result = cli("solve", CHALLENGE_0, "--method", "sat", "--proof", str(path), "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["status"] == "solved" and report["optimal"] is True
    assert "checked by stratagem's DRUP checker" in report["optimality"]
    return path


def _proof_lines(path: Path) -> list[str]:
    return gzip.decompress((path.parent / "p.drup.gz").read_bytes()).decode().splitlines()


def _write_proof_lines(path: Path, lines: list[str]) -> None:
    (path.parent / "p.drup.gz").write_bytes(gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0))


@pytest.fixture(params=["python", "compiled"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The checker ``verify`` runs: its size threshold is moved so that it picks this one."""
    from stratagem.solvers import drup, drup_compiled

    if request.param == "compiled" and not drup_compiled.available():
        pytest.skip("the compiled core is not built")
    monkeypatch.setattr(drup, "COMPILED_FROM", 0 if request.param == "compiled" else 1 << 62)
    return str(request.param)


def test_sat_proof_verifies(cli, sat_proof: Path, engine: str) -> None:
    result = cli("verify", str(sat_proof))
    assert result.code == 0, result.err
    assert "DRUP refutation" in result.out and "rebuilt from the rules" in result.out
    assert f"{engine} engine" in result.out
    record = json.loads(sat_proof.read_text())
    assert record["evidence"]["kind"] == "drup-refutation"
    assert record["evidence"]["horizon"] == record["claim"]["length"] - 1


def test_corrupted_proof_line_is_rejected(cli, sat_proof: Path, engine: str) -> None:
    lines = _proof_lines(sat_proof)
    # Flip the first literal of every lemma in turn until the checker objects (most flips break a used
    # lemma at once); at least one single flip must be rejected.
    rejected = False
    for i, line in enumerate(lines):
        if line.startswith("d") or line.strip() == "0":
            continue
        first, *rest = line.split()
        flipped = lines[:i] + [" ".join([str(-int(first)), *rest])] + lines[i + 1 :]
        _write_proof_lines(sat_proof, flipped)
        result = cli("verify", str(sat_proof))
        if result.code == 1:
            assert "evidence.proof" in result.err
            rejected = True
            break
        assert result.code == 0
    assert rejected


def test_dropped_empty_clause_is_rejected(cli, sat_proof: Path, engine: str) -> None:
    lines = [line for line in _proof_lines(sat_proof) if line.strip() != "0"]
    _write_proof_lines(sat_proof, lines[: len(lines) // 2])
    result = cli("verify", str(sat_proof))
    assert result.code == 1 and "evidence.proof" in result.err


def test_cnf_of_another_horizon_is_rejected(cli, sat_proof: Path, tmp_path: Path) -> None:
    record = json.loads(sat_proof.read_text())
    record["evidence"]["horizon"] -= 1
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(record))
    result = cli("verify", str(forged))
    assert result.code == 1 and "evidence.horizon" in result.err


def test_stored_cnf_must_be_the_rebuilt_one(cli, sat_proof: Path) -> None:
    cnf = sat_proof.parent / "p.cnf.gz"
    text = gzip.decompress(cnf.read_bytes()).decode().splitlines()
    clause_lines = [i for i, line in enumerate(text) if line and line[0] not in "cp"]
    del text[clause_lines[-1]]
    text = [line if not line.startswith("p ") else line.rsplit(" ", 1)[0] + f" {len(clause_lines) - 1}"
            for line in text]
    cnf.write_bytes(gzip.compress(("\n".join(text) + "\n").encode(), mtime=0))
    result = cli("verify", str(sat_proof))
    assert result.code == 1 and "evidence.cnf" in result.err


def test_cpsat_solves_and_says_there_is_no_certificate(cli) -> None:
    result = cli("solve", CHALLENGE_0, "--method", "cpsat", "--json")
    report = json.loads(result.out)
    assert report["status"] == "solved" and report["length"] == 5
    assert "no certificate" in report["optimality"]


def test_sat_time_limit_gives_unknown(cli) -> None:
    result = cli("solve", str(PUZZLES / "level-2-example.toml"), "--method", "sat", "--time-limit", "1", "--json")
    report = json.loads(result.out)
    assert report["status"] == "unknown" and report["optimal"] is False
    assert result.code == 3


def test_sat_proof_files_are_byte_identical_across_runs(cli, tmp_path: Path) -> None:
    runs = []
    for name in ("a", "b"):
        folder = tmp_path / name
        folder.mkdir()
        cli("solve", CHALLENGE_0, "--deal", "duo-2", "--method", "sat", "--proof", str(folder / "p.json"))
        runs.append([(folder / f).read_bytes() for f in ("p.json", "p.cnf.gz", "p.drup.gz")])
    assert runs[0] == runs[1]


def test_a_sat_line_whose_certificate_runs_out_of_time_is_kept_but_not_claimed_shortest(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The incremental search finds the line; the plain refutation for the certificate is then stopped."""
    from stratagem.solvers import satplan

    monkeypatch.setattr(satplan, "solve_cnf", lambda clauses, seconds, report=None: None)
    proof = tmp_path / "p.json"
    result = cli("solve", CHALLENGE_0, "--method", "sat", "--proof", str(proof), "--json")
    assert result.code == 3, result.err  # a line, but not proven shortest: undetermined
    report = json.loads(result.out)
    assert report["status"] == "unknown" and report["optimal"] is False
    assert report["length"] == 5 and report["best_line"]["method"] == "sat"
    assert "shortest by the solver's word" in report["optimality"] and "not claimed optimal" in report["optimality"]
    record = json.loads(proof.read_text())
    assert record["claim"]["optimal"] is False and record["evidence"]["kind"] == "witness"
    assert not (tmp_path / "p.drup.gz").exists()
    assert cli("verify", str(proof)).code == 0


def test_a_sat_line_whose_proof_check_runs_out_of_time_is_kept_but_not_claimed_shortest(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CaDiCaL's refutation is made, but the time limit ends stratagem's check of it (on challenge 1's
    shared layout an 18-million-line proof would take the checker hours): no optimality claim."""
    from stratagem.models.strato import solve
    from stratagem.solvers.drup import check_drup_data

    monkeypatch.setattr(solve, "check_drup_data",
                        lambda *args, **kw: check_drup_data(*args, **{**kw, "time_limit": 0.0}))
    proof = tmp_path / "p.json"
    result = cli("solve", CHALLENGE_0, "--method", "sat", "--time-limit", "600", "--proof", str(proof), "--json")
    assert result.code == 3, result.err  # a line, but not proven shortest: undetermined
    report = json.loads(result.out)
    assert report["status"] == "unknown" and report["optimal"] is False and report["length"] == 5
    assert "time limit ran out while stratagem's checker was checking it" in report["optimality"]
    assert "not proven" in report["optimality"]
    record = json.loads(proof.read_text())
    assert record["claim"]["optimal"] is False and record["evidence"]["kind"] == "witness"
    assert not (tmp_path / "p.drup.gz").exists()
    assert cli("verify", str(proof)).code == 0


@pytest.mark.parametrize("kind", ["dot-dot", "fifo", "device"])
def test_evidence_that_names_no_regular_file_beside_the_record_is_named_by_field(cli, tmp_path: Path,
                                                                                  kind: str) -> None:
    """``"proof": ".."`` was refused as "..: is a directory", naming neither the record nor the field; a
    FIFO or a link to /dev/zero the same way. Each is now the record's ``evidence.proof``."""
    import os

    record = tmp_path / "p.json"
    assert cli("solve", CHALLENGE_0, "--method", "sat", "--proof", str(record)).code == 0
    data = json.loads(record.read_text())
    if kind == "dot-dot":
        data["evidence"]["proof"] = ".."
    elif kind == "fifo":
        os.mkfifo(tmp_path / "fifo.drup")
        data["evidence"]["proof"] = "fifo.drup"
    else:
        (tmp_path / "zero.drup").symlink_to("/dev/zero")
        data["evidence"]["proof"] = "zero.drup"
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    result = cli("verify", str(forged))
    assert result.code == 2 and result.err.startswith(f"{forged}: evidence.proof: "), result.err
