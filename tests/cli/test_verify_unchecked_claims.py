"""``verify`` says what it did not check, and reads numbers only in the form records write them (a forgery
pass over every record kind; the proof-tree half that borrowed the other half's nodes is in
tests/solvers/test_prooftree.py):

- a claim key ``verify`` does not check (Strato ``lower_bound``, STAKD ``optimal``, a table's ``note``) was
  passed over in silence, the verdict "every claim certified": it is now reported not certified (exit 3);
- a flag that is not a JSON boolean (a policy's ``optimal: 1``, a table's ``exact: 1``) was read as false:
  refused as bad input, as a Strato proof's already was;
- a bound certificate cut at a depth (its leaves valued by the game's heuristic) was certified as "value V",
  as if it were the position's value: the statement now names the cut; a proof of simultaneous moves that
  says it is about hidden information is refused;
- a value table's row or a policy's probability written ``1e99999999`` sent ``Fraction`` building a number
  of a hundred million digits past every time limit (``1e5000`` ended in a traceback): refused at once.
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import PUZZLES, ROOT, Outcome, assert_bad_input

Cli = Callable[..., Outcome]

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
#: A challenge-0 position whose hidden-pile value is 2/3 (docs/guide/hidden-information.md).
TWO_THIRDS = "RRWR(RW)WWRW RRR WRR 1 -"


def _made(cli: Cli, path: Path, *args: str) -> Path:
    result = cli(*args)
    assert result.code == 0, result.err
    return path


def _json(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _forged(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _table_forged(tmp_path: Path, table: Path, edit: Callable[[dict[str, Any], list[str]], None]) -> str:
    with gzip.open(table, "rt", encoding="utf-8") as source:
        lines = source.read().splitlines()
    header = json.loads(lines[0])
    rows = lines[1:]
    edit(header, rows)
    path = tmp_path / "forged.gz"
    with gzip.open(path, "wt", encoding="utf-8") as sink:
        sink.write("\n".join([json.dumps(header), *rows]) + "\n")
    return str(path)


def _not_certified(result: Outcome, key: str, checks: str) -> None:
    assert result.code == 3, (result.out, result.err)
    assert f"not certified: the record's claim {key!r}" in result.out
    assert f"(it checks {checks})" in result.out
    assert "every claim certified" not in result.out


def test_a_strato_claim_verify_does_not_check_is_not_certified(cli: Cli, tmp_path: Path) -> None:
    record = _json(_made(cli, tmp_path / "p.json", "solve", CHALLENGE_0, "--proof", str(tmp_path / "p.json")))
    assert cli("verify", _forged(tmp_path, record)).code == 0
    record["claim"]["lower_bound"] = 7  # false (the optimum is 5), and no check of a Strato proof reads it
    _not_certified(cli("verify", _forged(tmp_path, record)), "lower_bound", "information, solvable, length, optimal")


def test_a_stakd_claim_verify_does_not_check_is_not_certified(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    record = _json(_made(cli, path, "check", str(ROOT / "puzzles" / "stakd" / "solo-1-tiny.toml"), "--proof",
                         str(path)))
    record["claim"].update(optimal=True, length=3)
    result = cli("verify", _forged(tmp_path, record))
    _not_certified(result, "length", "winnable")
    _not_certified(result, "optimal", "winnable")


@pytest.mark.parametrize("where", ["record", "line", "bare line"])
def test_a_field_no_format_has_is_not_certified(cli: Cli, tmp_path: Path, where: str) -> None:
    """Stop 58: ``"optimal": true`` beside a line record's moves (or a proof record's claim, or in its line)
    was passed over, and the record verified as valid (exit 0)."""
    record = _json(_made(cli, tmp_path / "p.json", "solve", CHALLENGE_0, "--proof", str(tmp_path / "p.json")))
    if where == "bare line":
        record = record["line"]
    (record["line"] if where == "line" else record)["optimal"] = True
    result = cli("verify", _forged(tmp_path, record))
    assert result.code == 3, (result.out, result.err)
    field = "line.optimal" if where == "line" else "optimal"
    assert f"not certified: the record's field {field!r}: true" in result.out and "not a field of" in result.out
    assert "every claim certified" not in result.out
    if where == "bare line":
        del record["optimal"]
        record["provenance"] = {"stratagem": "0.1.0"}  # a record's provenance is no claim
        assert cli("verify", _forged(tmp_path, record)).code == 0


@pytest.mark.parametrize("length", [5.0, True, "5"])
def test_a_lines_length_is_a_whole_number(cli: Cli, tmp_path: Path, length: object) -> None:
    """Stop 58: ``length: 5.0`` (and ``true`` for a one-move line) equalled the move count and was taken."""
    record = _json(_made(cli, tmp_path / "p.json", "solve", CHALLENGE_0, "--proof", str(tmp_path / "p.json")))
    record["line"]["length"] = length
    assert_bad_input(cli("verify", _forged(tmp_path, record)), "line.length: must be a whole number")


@pytest.fixture
def two_thirds(cli: Cli, tmp_path: Path) -> Path:
    """The 2/3 position's policy record (the plain search's, exact)."""
    path = tmp_path / "two-thirds.json"
    return _made(cli, path, "odds", CHALLENGE_0, "--position", TWO_THIRDS, "--no-rank", "--proof", str(path))


@pytest.mark.parametrize("flag", [1, "true", None])
def test_a_policys_optimal_flag_is_a_boolean(cli: Cli, tmp_path: Path, two_thirds: Path, flag: Any) -> None:
    record = _json(two_thirds)
    record["claim"]["optimal"] = flag
    assert_bad_input(cli("verify", _forged(tmp_path, record)), "claim.optimal", "true or false")


def test_a_policy_claim_verify_does_not_check_is_not_certified(cli: Cli, tmp_path: Path, two_thirds: Path) -> None:
    record = _json(two_thirds)
    record["claim"]["upper_bound"] = "1/2"
    _not_certified(cli("verify", _forged(tmp_path, record), "--recheck"), "upper_bound",
                   "win_probability, optimal, policy, evidence")


def test_a_policy_probability_in_another_form_is_refused_at_once(cli: Cli, tmp_path: Path, two_thirds: Path) -> None:
    record = _json(two_thirds)
    chance = next(node for node in record["nodes"] if node["kind"] == "chance")
    chance["outcomes"][0][1] = "1e99999999"
    started = time.perf_counter()
    result = cli("verify", _forged(tmp_path, record), "--time-limit", "5")
    assert result.code == 1 and "is not a fraction p/q" in result.err, result.err
    assert time.perf_counter() - started < 5


@pytest.fixture
def table(cli: Cli, tmp_path: Path) -> Path:
    """The 2/3 position's value table (exact)."""
    path = tmp_path / "tt.gz"
    return _made(cli, path, "odds", CHALLENGE_0, "--position", TWO_THIRDS, "--table", str(path))


def test_a_tables_exact_flag_is_a_boolean(cli: Cli, tmp_path: Path, table: Path) -> None:
    assert cli("verify", str(table)).code == 0

    def edit(header: dict[str, Any], rows: list[str]) -> None:
        header["claim"]["exact"] = 1
    assert_bad_input(cli("verify", _table_forged(tmp_path, table, edit)), "claim.exact", "true or false")


def test_a_table_claim_verify_does_not_check_is_not_certified(cli: Cli, tmp_path: Path, table: Path) -> None:
    def edit(header: dict[str, Any], rows: list[str]) -> None:
        header["claim"]["note"] = "won in 3 turns"
    _not_certified(cli("verify", _table_forged(tmp_path, table, edit)), "note", "upper_bound, lower_bound, exact")


@pytest.mark.parametrize("value", ["1e5000", "1e99999999", "-1/3", "2/0"])
def test_a_table_value_in_another_form_is_refused_at_once(cli: Cli, tmp_path: Path, table: Path, value: str) -> None:
    def edit(header: dict[str, Any], rows: list[str]) -> None:
        kind, _, rest = rows[-1].split(" ", 2)
        rows[-1] = f"{kind} {value} {rest}"
    started = time.perf_counter()
    result = cli("verify", _table_forged(tmp_path, table, edit), "--time-limit", "5")
    assert result.code == 1, (result.out, result.err)
    assert "Traceback" not in result.err and "internal error" not in result.err
    assert "not a value N/D in digits" in result.err or "denominator is 0" in result.err, result.err
    assert time.perf_counter() - started < 5


@pytest.fixture
def bounds(cli: Cli, tmp_path: Path) -> Path:
    path = tmp_path / "sa.json"
    return _made(cli, path, "analyze", str(ROOT / "puzzles" / "stackattack" / "2p-actions-3-turns.toml"), "--proof",
                 str(path))


def test_a_bound_certificate_cut_at_a_depth_says_so(cli: Cli, tmp_path: Path, bounds: Path) -> None:
    record = _json(bounds)
    assert record["depth"] is None
    genuine = cli("verify", str(bounds))
    assert genuine.code == 0 and "cut at depth" not in genuine.out
    record.update(depth=0, nodes=[], value="0/1")  # the heuristic's value at the start, not the game's
    result = cli("verify", _forged(tmp_path, record))
    assert result.code == 0, result.out
    assert ("certified: player 1: value 0 (zero-sum), of the game cut at depth 0: its leaves valued by the "
            "game's evaluation, not by play to the end") in result.out


def test_a_proof_of_simultaneous_moves_is_about_open_information(cli: Cli, tmp_path: Path, bounds: Path) -> None:
    record = _json(bounds)
    record["information"] = "hidden"
    assert_bad_input(cli("verify", _forged(tmp_path, record)), "information", "open information only")
