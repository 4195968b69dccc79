"""QA 57 (sweep): one sweep at a time writes a results file.

Two sweeps into one file both read the same records and both ran every task left, so each deal was
solved twice (nothing was counted twice: the report keeps one record a deal). From ``check`` to ``close``
a sweep now holds an exclusive lock on ``OUT.lock``, and a second sweep is refused before any work.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stratagem.cli.main import run
from stratagem.core.errors import BadInput
from stratagem.sweep import ResultsFile, plan, sweep

CHALLENGE_0 = Path(__file__).resolve().parent.parent / "puzzles" / "strato" / "challenge-0.toml"


def test_a_second_sweep_into_the_same_file_is_refused_until_the_first_is_done(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    first = ResultsFile(out)
    first.check()
    assert Path(first.lock_path).exists()
    with pytest.raises(BadInput, match="another stratagem sweep is writing to this file"):
        ResultsFile(out).check()
    sweep(plan([str(CHALLENGE_0)], range(1), (1,), time_limit=30.0), first, workers=0)
    assert not Path(first.lock_path).exists()  # let go of, and removed
    second = ResultsFile(out)
    second.check()
    assert len(second.records) == 1
    second.close()


def test_a_lock_file_left_by_a_run_that_died_is_no_lock(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    Path(f"{out}.lock").write_text("")  # flock is the process's: a run killed holds nothing
    results = ResultsFile(out)
    results.check()
    results.close()
    assert not Path(f"{out}.lock").exists()


def test_the_command_refuses_in_one_line_and_lets_go_when_refused_later(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    held = ResultsFile(out)
    held.check()
    code = run(["sweep", str(CHALLENGE_0), "--count", "1", "--workers", "0", "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "another stratagem sweep is writing to this file" in err[0], err
    assert not out.exists() and Path(held.lock_path).exists()
    held.close()
    # refused after the file was taken (seeds asked of a position file): the lock goes with the refusal
    position = CHALLENGE_0.parent.parent / "cardclash" / "square-in-1.toml"
    code = run(["sweep", str(position), "--count", "3", "--workers", "0", "--out", str(out)])
    assert code == 2, capsys.readouterr().err
    assert not Path(f"{out}.lock").exists() and not out.exists()
    code = run(["sweep", str(CHALLENGE_0), "--count", "1", "--workers", "0", "--out", str(out), "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["written"] == 1
    assert not Path(f"{out}.lock").exists()


def test_a_folder_that_takes_no_lock_file_is_bad_input_not_a_crash(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A results file that can be appended to in a folder that takes no new file: the lock file cannot be
    made, which must be one line naming the file, not an internal error (root passes every permission
    check, so the refusal is made by hand here)."""
    import os

    out = tmp_path / "r.jsonl"
    out.write_text("")
    real_open = os.open

    def refusing(path: str, *args: object, **kwargs: object) -> int:
        if str(path).endswith(".lock"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refusing)
    with pytest.raises(BadInput, match=r"r.jsonl: results: cannot make the lock file .*r.jsonl.lock beside it "
                                       r"\(Permission denied\)"):
        ResultsFile(out).check()
