"""Provenance: every record says what made it (version, git commit and dirty flag, library versions, the
compiled core, the input's SHA-256); it is found cheaply and once, never fails without git, and
``verify`` neither trusts nor requires it (it only shows it)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from stratagem import __version__
from stratagem.cli.main import run
from stratagem.core import provenance as prov

ROOT = Path(__file__).resolve().parent.parent
CHALLENGE_0 = ROOT / "puzzles" / "strato" / "challenge-0.toml"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_fields_and_the_input_digest(tmp_path: Path) -> None:
    record = prov.provenance(CHALLENGE_0)
    assert record["stratagem"] == __version__
    assert record["python"].count(".") == 2
    assert record["input"] == {"path": str(CHALLENGE_0), "sha256": hashlib.sha256(CHALLENGE_0.read_bytes()).hexdigest()}
    core = record["compiled_core"]
    assert isinstance(core["complete"], bool) and core["complete"] == (not core["missing"] and not core["stale"])
    assert prov.provenance()["input"] is None
    assert prov.provenance(tmp_path / "missing.toml")["input"] is None  # not a file: no digest claimed
    given = prov.provenance("somewhere/else.toml", "ab" * 32)  # a sweep worker passes the digest it was given
    assert given["input"] == {"path": "somewhere/else.toml", "sha256": "ab" * 32}


def test_the_git_commit_is_read_from_the_checkout() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not run from a git checkout")
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pytest.skip("no git here")
    state = prov.git_state.__wrapped__(ROOT)  # uncached: HEAD may have moved since this process cached it
    assert state is not None and state["commit"] == head and state["dirty"] in (True, False)


def test_a_worktree_with_packed_refs_is_read_without_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    common, private, checkout = tmp_path / "repo.git", tmp_path / "repo.git" / "worktrees" / "w", tmp_path / "w"
    private.mkdir(parents=True)
    checkout.mkdir()
    sha = "1234567890abcdef1234567890abcdef12345678"
    (checkout / ".git").write_text(f"gitdir: {private}\n")
    (private / "HEAD").write_text("ref: refs/heads/topic\n")
    (private / "commondir").write_text("../..\n")
    (common / "packed-refs").write_text(f"# pack-refs with: peeled\n{sha} refs/heads/topic\n")

    def no_git(*args: Any, **kwargs: Any) -> Any:
        raise FileNotFoundError("git")

    monkeypatch.setattr(subprocess, "run", no_git)
    assert prov.git_state.__wrapped__(checkout) == {"commit": sha, "dirty": None}  # dirty: unknown, not an error
    assert prov.git_state.__wrapped__(tmp_path / "nowhere") is None


def test_git_that_hangs_gives_an_unknown_dirty_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("f" * 40 + "\n")  # a detached HEAD

    def hangs(*args: Any, **kwargs: Any) -> Any:
        assert kwargs.get("timeout") == prov.GIT_TIMEOUT
        raise subprocess.TimeoutExpired("git", prov.GIT_TIMEOUT)

    monkeypatch.setattr(subprocess, "run", hangs)
    assert prov.git_state.__wrapped__(tmp_path) == {"commit": "f" * 40, "dirty": None}


def test_found_once_per_process_without_importing_ortools() -> None:
    code = ("import sys, subprocess\n"
            "from stratagem.core import provenance as p\n"
            "calls = []\n"
            "real = subprocess.run\n"
            "def counted(*a, **k):\n"
            "    calls.append(a)\n"
            "    return real(*a, **k)\n"
            "p.subprocess.run = counted\n"
            "first = p.provenance(); second = p.provenance()\n"
            "assert first == second\n"
            "print(len(calls), 'ortools' in sys.modules, 'pysat' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    calls, ortools, pysat = done.stdout.split()
    assert int(calls) <= 1 and ortools == "False" and pysat == "False"


def test_solve_json_and_the_proof_carry_it_and_verify_ignores_it(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    proof = tmp_path / "proof.json"
    code, out, err = cli(capsys, "solve", str(CHALLENGE_0), "--json", "--proof", str(proof))
    assert code == 0, err
    digest = hashlib.sha256(CHALLENGE_0.read_bytes()).hexdigest()
    assert json.loads(out)["provenance"]["input"]["sha256"] == digest
    data = json.loads(proof.read_text())
    assert data["provenance"]["input"]["sha256"] == digest
    code, out, err = cli(capsys, "verify", str(proof))
    assert code == 0, err
    assert f"made by (as the record states it, not checked): stratagem {__version__}" in out
    verdict = json.loads(cli(capsys, "verify", str(proof), "--json")[1])

    forged = {**data, "provenance": {"stratagem": "99.0", "git": {"commit": "0" * 40, "dirty": False},
                                     "input": {"path": "x", "sha256": "0" * 64}}}
    missing = {k: v for k, v in data.items() if k != "provenance"}
    garbage = {**data, "provenance": ["not", "an", "object"]}
    for name, record in (("forged", forged), ("missing", missing), ("garbage", garbage)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(record))
        code, out, err = cli(capsys, "verify", str(path), "--json")
        assert code == 0, (name, err)  # neither trusted nor required: the verdict is the same
        assert {k: v for k, v in json.loads(out).items() if k not in ("source", "record")} == \
            {k: v for k, v in verdict.items() if k not in ("source", "record")}, name
    code, out, _ = cli(capsys, "verify", str(tmp_path / "forged.json"))
    assert "stratagem 99.0; commit 000000000000" in out  # shown as the record states it, labelled so


def test_describe_is_one_short_line_whatever_the_record_holds() -> None:
    assert prov.describe({}) is None and prov.describe([]) is None
    line = prov.describe({"provenance": {"stratagem": "x\n" * 1000, "git": {"commit": "a\nb", "dirty": "?"},
                                         "compiled_core": {"complete": "yes"}, "ortools": 5}})
    assert line is not None and "\n" not in line and len(line) < 400


def test_the_kernels_are_named_apart() -> None:
    """Each kernel by its module less ``stratagem.`` and ``models.``: the last part alone named four games'
    engines ``engine``, so a record could not say which game's was missing."""
    from stratagem.core.compiled import KERNELS

    core = prov.provenance()["compiled_core"]
    names = core["compiled"] + core["missing"] + core["stale"]
    assert len(names) == len(set(names)) == len(set(KERNELS))
    assert {"cardclash.engine", "stakd.engine", "stackattack.engine", "stratatak.engine"} <= set(names)


def test_an_editable_install_of_a_git_archive_names_its_commit(tmp_path: Path) -> None:
    """An editable install runs from its source tree and builds no ``_build.py``; from a ``git archive``
    there is no ``.git`` either, so its records named no commit (left in stop 61). The commit ``git
    archive`` wrote into ``.git_archival.txt`` now says it (``build``, dirty unknown); a checkout's file,
    still holding its placeholder, says nothing."""
    import shutil

    tree = tmp_path / "src"
    shutil.copytree(ROOT / "stratagem", tree / "stratagem",
                    ignore=shutil.ignore_patterns("*.so", "*.c", "__pycache__", "_build.py"))
    sha = "0123456789abcdef0123456789abcdef01234567"
    (tree / ".git_archival.txt").write_text(f"node: {sha}\n")
    probe = ("import json; from stratagem.core.provenance import git_state, build_state, _ROOT; "
             "print(json.dumps([str(_ROOT), git_state(), build_state()]))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})
    root, git, built = json.loads(done.stdout)
    assert Path(root) == tree.resolve() and git is None
    assert built == {"commit": sha, "dirty": None}
    (tmp_path / "checkout").mkdir()  # a checkout's file, which git archive has not filled in
    (tmp_path / "checkout" / ".git_archival.txt").write_text("node: $Format:%H$\n")
    assert prov.archived_state(tmp_path / "checkout") is None
    assert prov.archived_state(tmp_path / "nowhere") is None
