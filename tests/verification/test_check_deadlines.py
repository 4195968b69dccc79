"""Checks of simultaneous-move certificates whose work the record does not bound stop at the command's
deadline (review s54, findings 2 and 4).

- ``verify --time-limit 2`` of a 311 KB ``matrixproof@1`` record (one node at a five-player Stack Attack start,
  depth 1, its 10 rows and 10,000 joint columns listed) ran 12.7 s and said INVALID: the deadline reached the
  bound certificates' check only. The full-matrix check now takes it too: the value is unknown, exit 3.
- ``view --verify --time-limit 1`` of a five-player bound certificate ran 22.4 s: verify stopped on time, then
  the page rebuilt every part's table with no deadline; plain ``view`` had no limit at all (``--time-limit``
  was refused without ``--verify``). The rebuild now takes the command's deadline: the page draws the tables
  completed, marks the others not drawn, and ``view`` exits 3.
"""

from __future__ import annotations

import json
import re
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
from stratagem.views.matrices import bound_parts_html, matrices_html
from stratagem.views.records import record_page
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


class Looks(Deadline):
    """A deadline that passes once it has been looked at ``looks`` times: a walk stopped at a chosen point,
    whatever the machine's speed."""

    def __init__(self, looks: int) -> None:
        super().__init__(None)
        self.left = looks

    def expired(self) -> bool:
        self.left -= 1
        return self.left < 0


def cards(page: str) -> dict[str, str]:
    """Each table's card of a certificate's page, by its node number and its order on the page."""
    found = re.findall(r'<div class="card matrix" data-node="(\d+)">(.*?)</div>', page, re.S)
    return {f"{node}:{k}": body for k, (node, body) in enumerate(found)}


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


# --- finding 4: view's rebuild of the tables takes the command's deadline -----------------------------------


def test_view_verify_with_a_time_limit_returns_in_time_and_draws_no_table_it_did_not_rebuild(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, page = write(tmp_path, "five.json", five_player_record()), tmp_path / "five.html"
    code, out, err, took = cli(capsys, "view", path, "--verify", "--time-limit", str(LIMIT), "--out", str(page))
    assert took < BOUND, took  # 22.4 s: verify stopped, then the page rebuilt the table without a limit
    assert code == 3, (out, err)
    text = page.read_text()
    assert "unknown" in text and "not drawn: the time limit stopped the check" in text
    assert "<table" not in text.split("The bounds of player 1")[1]  # no table of the part, whole or half
    assert re.search(r"five\.json: the time limit stopped the rebuild of the tables after [\d,]+ positions: "
                     r"1 of 1 parts not drawn", err), err


@pytest.mark.parametrize("make, name", [(five_player_record, "five.json"), (full_matrix_record, "m1five.json")])
def test_plain_view_takes_a_time_limit_for_a_certificates_rebuild(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, make: Any, name: str) -> None:
    """Without ``--verify`` the walk had no limit (22 s for the bound certificate, 13 s for the full matrices)
    and ``--time-limit`` was refused; it now bounds the rebuild, and a page cut short exits 3."""
    path, page = write(tmp_path, name, make()), tmp_path / "p.html"
    code, out, err, took = cli(capsys, "view", path, "--time-limit", str(LIMIT), "--out", str(page))
    assert took < BOUND, took
    assert code == 3 and out == f"page written to {page}\n", (out, err)
    assert err.count("\n") == 1 and "not drawn" in err
    assert 'class="warn">The time limit stopped the rules engine' in page.read_text()


@pytest.mark.parametrize("kind", ["bounds", "matrices"])
def test_a_page_cut_short_draws_each_table_whole_or_not_at_all(tmp_path: Path, kind: str) -> None:
    """Stopped at every point of the walk in turn, the page draws each table exactly as the page without a
    limit draws it, or marks it not drawn; the notice counts the tables left out."""
    position = load_position(PUZZLES / "stackattack/2p-actions-3-turns.toml")
    if kind == "bounds":
        proof = tmp_path / "sa.json"
        assert run(["analyze", str(PUZZLES / "stackattack/2p-actions-3-turns.toml"), "--proof", str(proof),
                    "--quiet"]) == 0
        record, draw = json.loads(proof.read_text()), bound_parts_html
    else:
        result = solve_simultaneous(position.game, position.state, player=0, payoff="margin")
        record, draw = json.loads(json.dumps(matrix_proof(position.game, result))), matrices_html
    whole = cards(draw(position.game, position.state, record, "sa.json"))
    assert whole and not any("not drawn" in body for body in whole.values())
    partly = 0
    for looks in range(0, 4000):
        stopped: list[str] = []
        page = draw(position.game, position.state, record, "sa.json", deadline=Looks(looks), stopped=stopped)
        if not stopped:  # the walk ended before the deadline: the same page as without one
            assert cards(page) == whole
            break
        cut = cards(page)
        assert cut.keys() == whole.keys()
        left_out = [key for key, body in cut.items() if body != whole[key]]
        assert all("not drawn: the time limit stopped" in cut[key] and "<table" not in cut[key] for key in left_out)
        assert left_out, "a page cut short leaves out at least the start's table"
        assert stopped[0].endswith(f"{len(left_out)} of {len(whole)} {'parts' if kind == 'bounds' else 'matrices'} "
                                   "not drawn") and len(stopped) == 1
        partly += len(left_out) < len(whole)
    else:
        pytest.fail("the walk never ended")
    assert partly, "no deadline left some tables drawn and others not"


def test_every_certificate_of_a_bundle_is_cut_by_the_one_deadline(tmp_path: Path) -> None:
    proof = tmp_path / "sa3.json"
    assert run(["analyze", str(PUZZLES / "stackattack/3p-actions-2-turns.toml"), "--proof", str(proof),
                "--quiet"]) == 0
    stopped: list[str] = []
    record_page(json.loads(proof.read_text()), "sa3.json", deadline=Looks(0), stopped=stopped)
    assert [line.split(":")[:2] for line in stopped] == [["sa3.json", f" proofs[{k}]"] for k in range(3)]


def test_a_time_limit_without_verify_is_still_refused_where_it_would_limit_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A proof tree's page makes no walk the record does not bound (it draws the record's own nodes): the limit
    is refused there as before, read from the record's format before anything is drawn."""
    path, page = write(tmp_path, "tree.json", {"format": "stratagem/prooftree@1"}), tmp_path / "t.html"
    code, out, err, _ = cli(capsys, "view", path, "--time-limit", "5", "--out", str(page))
    assert code == 2 and "--time-limit" in err and "give --verify too" in err and err.count("\n") == 1, (out, err)
    assert not page.exists()
