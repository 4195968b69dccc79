"""Checks of simultaneous-move certificates whose work the record does not bound stop at the command's
deadline (review s54, finding 2).

- ``verify --time-limit 2`` of a 311 KB ``matrixproof@1`` record (one node at a five-player Stack Attack start,
  depth 1, its 10 rows and 10,000 joint columns listed) ran 12.7 s and said INVALID: the deadline reached the
  bound certificates' check only. The full-matrix check now takes it too: the value is unknown, exit 3.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.core.deadline import Deadline
from stratagem.models.stackattack import puzzle as stackattack
from stratagem.models.stackattack.puzzle import load_position
from stratagem.solvers.matrixproof import CheckStopped, check_matrix_proof, matrix_proof, move_label
from stratagem.solvers.simultaneous import Walker, solve_simultaneous
from tests.verification.test_gameproof_forgeries import five_player_record

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
#: The standard's bound on a command given a limit of S seconds.
LIMIT = 1.0
BOUND = 1.2 * LIMIT + 1


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str, float]:
    """Run a command in-process: its exit code, stdout, stderr and wall time."""
    started = time.perf_counter()
    code = run(list(args))
    took = time.perf_counter() - started
    out, err = capsys.readouterr()
    return code, out, err, took


def full_matrix_record() -> dict[str, Any]:
    """The reviewer's forged ``matrixproof@1``: one node at the five-player start of :func:`five_player_record`,
    depth 1, with player 1's 10 moves as rows and the 10,000 joint moves of the others as columns, both
    strategies pure on the first. The check values 100,000 children before it finds the row strategy wrong."""
    record = five_player_record()
    game = stackattack.game_from_setup(record["setup"], "five")
    state = game.parse_state(record["start"])
    rows, columns = Walker(game, 0, "own").options(state)
    node = {"state": record["start"], "depth": 1, "value": "0",
            "rows": [move_label(game, state, 0, m) for m in rows],
            "columns": [[move_label(game, state, q, m) for q, m in zip([1, 2, 3, 4], c, strict=True)]
                        for c in columns],
            "row_strategy": ["1"] + ["0"] * (len(rows) - 1), "column_strategy": ["1"] + ["0"] * (len(columns) - 1)}
    record.update(format="stratagem/matrixproof@1", depth=1, nodes=[node])
    return record


def write(tmp_path: Path, name: str, record: dict[str, Any]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return str(path)


# --- finding 2: verify's deadline reaches matrixproof@1 -----------------------------------------------------


def test_the_time_limit_stops_a_full_matrix_check_that_its_record_does_not_bound(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, "m1five.json", full_matrix_record())
    code, out, err, took = cli(capsys, "verify", path, "--time-limit", str(LIMIT), "--json")
    assert code == 3, (out, err)  # ran about 13 s, then INVALID (exit 1)
    assert took < BOUND, took
    [claim] = json.loads(out)["claims"]
    assert claim["status"] == "unknown" and claim["statement"].startswith("player 1: value 0 (player vs coalition)")
    assert claim["why"].startswith("the time limit (1 s) ran out after ")


def test_check_matrix_proof_raises_when_its_deadline_passes() -> None:
    record = full_matrix_record()
    game = stackattack.game_from_setup(record["setup"], "five")
    with pytest.raises(CheckStopped) as stopped:
        check_matrix_proof(game, game.parse_state(record["start"]), record, deadline=Deadline(0))
    assert stopped.value.positions < 100


def test_a_full_matrix_check_that_ends_in_time_is_unchanged_by_its_deadline() -> None:
    position = load_position(PUZZLES / "stackattack/2p-actions-3-turns.toml")
    result = solve_simultaneous(position.game, position.state, player=0, payoff="margin")
    record = json.loads(json.dumps(matrix_proof(position.game, result)))
    checked = check_matrix_proof(position.game, position.state, record, deadline=Deadline(600))
    assert checked.valid and checked.nodes_checked == len(result.nodes)
