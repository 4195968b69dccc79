"""``verify`` refuses what it does not check (issue 30, part 3): every forgery below is exit 1.

- a Strato claim about other than open information (``claim.information`` changed, unknown or missing);
- evidence whose own fields contradict what verify recomputes or the line: a ``lower_bound`` above the
  replayed line's length, a ``certificate`` flag the evidence kind does not have, a bound or horizon that
  is not an integer (``5.0``);
- an inflated relaxation bound (13 on a line of 8): a lower bound above the line's length contradicts the
  line, refuted at once instead of searched to the time limit.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import PUZZLES, Outcome

#: The ``cli`` fixture of conftest.py: runs the command in this process.
Cli = Callable[..., Outcome]

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
CHALLENGE_1 = str(PUZZLES / "challenge-1.toml")


#: The genuine records made so far, by the arguments of their ``solve``: each test forges its own copy, and
#: challenge 1's relaxed solve takes 2 CPU s (three tests ask for the same one).
_GENUINE: dict[tuple[str, ...], str] = {}


def _record(cli: Cli, tmp_path: Path, *args: str) -> dict[str, Any]:
    """A fresh copy of the record ``solve ARGS --proof`` writes (made once a process)."""
    if args not in _GENUINE:
        path = tmp_path / "genuine.json"
        result = cli("solve", *args, "--proof", str(path))
        assert result.code == 0, result.err
        _GENUINE[args] = path.read_text()
    record: dict[str, Any] = json.loads(_GENUINE[args])
    return record


def _verify(cli: Cli, tmp_path: Path, record: dict[str, Any], *flags: str) -> Outcome:
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(record))
    return cli("verify", *flags, str(path))


def _refused(result: Outcome, place: str) -> None:
    """Exit 1, the place named on stderr, and never "every claim certified"."""
    assert result.code == 1, (result.out, result.err)
    assert place in result.err and "Traceback" not in result.err
    assert "every claim certified" not in result.out


@pytest.mark.parametrize("information", ["hidden", "partial", None])
def test_a_claim_about_other_than_open_information_is_refused(cli: Cli, tmp_path: Path,
                                                              information: str | None) -> None:
    record = _record(cli, tmp_path, CHALLENGE_0, "--method", "relaxed")
    assert record["claim"]["information"] == "open"
    assert _verify(cli, tmp_path, record).code == 0
    if information is None:
        del record["claim"]["information"]
    else:
        record["claim"]["information"] = information
    _refused(_verify(cli, tmp_path, record), "claim.information")


def test_a_lower_bound_above_the_line_is_refused(cli: Cli, tmp_path: Path) -> None:
    # an A* record claiming only a win (no optimality), with a lower bound of 99 beside its 5 moves
    record = _record(cli, tmp_path, CHALLENGE_0, "--method", "astar")
    record["claim"]["optimal"] = False
    assert _verify(cli, tmp_path, record).code == 0
    record["evidence"]["lower_bound"] = 99
    result = _verify(cli, tmp_path, record)
    _refused(result, "evidence.lower_bound")
    assert "wins in 5" in result.err
    # the same beside a relaxation certificate
    relaxed = _record(cli, tmp_path, CHALLENGE_0, "--method", "relaxed")
    relaxed["evidence"]["lower_bound"] = 99
    _refused(_verify(cli, tmp_path, relaxed), "evidence.lower_bound")


def test_a_certificate_flag_the_evidence_kind_does_not_have_is_refused(cli: Cli, tmp_path: Path) -> None:
    record = _record(cli, tmp_path, CHALLENGE_0, "--method", "astar")
    record["claim"]["optimal"] = False
    record["evidence"] = {"kind": "witness", "certificate": False, "method": "astar", "lower_bound": 1}
    assert _verify(cli, tmp_path, record).code == 0
    record["evidence"]["certificate"] = True
    _refused(_verify(cli, tmp_path, record), "evidence.certificate")
    relaxed = _record(cli, tmp_path, CHALLENGE_0, "--method", "relaxed")
    relaxed["evidence"]["certificate"] = False  # a relaxation bound is a certificate: saying otherwise is too
    _refused(_verify(cli, tmp_path, relaxed), "evidence.certificate")


@pytest.mark.parametrize("key", ["bound", "lower_bound"])
def test_a_bound_that_is_not_an_integer_is_refused_on_challenge_0(cli: Cli, tmp_path: Path, key: str) -> None:
    record = _record(cli, tmp_path, CHALLENGE_0, "--method", "relaxed")
    record["evidence"][key] = 5.0
    result = _verify(cli, tmp_path, record)
    _refused(result, f"evidence.{key}")
    assert "integer" in result.err


def test_a_bound_or_horizon_that_is_not_an_integer_is_refused_on_challenge_1(cli: Cli, tmp_path: Path) -> None:
    record = _record(cli, tmp_path, CHALLENGE_1, "--deal", "solo-2", "--method", "relaxed")
    assert record["claim"]["length"] == 8 and record["evidence"]["bound"] == 8
    record["evidence"]["bound"] = 8.0
    result = _verify(cli, tmp_path, record)
    _refused(result, "evidence.bound")
    assert "integer" in result.err
    searched = dict(record, evidence=dict(record["evidence"], kind="relaxation-search", bound=7, horizon=7.0))
    _refused(_verify(cli, tmp_path, searched), "evidence.horizon")
    searched["evidence"]["bound"], searched["evidence"]["horizon"] = True, 7
    _refused(_verify(cli, tmp_path, searched), "evidence.bound")


@pytest.mark.parametrize("kind", ["relaxation-bound", "relaxation-search"])
def test_an_inflated_bound_is_refuted_at_once(cli: Cli, tmp_path: Path, kind: str) -> None:
    record = _record(cli, tmp_path, CHALLENGE_1, "--deal", "solo-2", "--method", "relaxed")
    record["evidence"].update(kind=kind, bound=13)
    if kind == "relaxation-search":
        record["evidence"]["horizon"] = 7
    started = time.monotonic()
    result = _verify(cli, tmp_path, record, "--time-limit", "60")
    assert time.monotonic() - started < 5
    _refused(result, "evidence.bound")
    assert "wins in 8" in result.err
    # no claim left unknown (the "made by" line may say "edited or not: unknown" of an archive's build)
    assert not any(line.startswith("unknown:") for line in result.out.splitlines()), result.out


def test_an_unknown_line_result_is_an_invalid_claim_in_text_and_json(cli: Cli, tmp_path: Path) -> None:
    """``line.result: "lost"`` made the record invalid without a claim line: the report listed only
    "certified:" lines above "proof INVALID", and ``--json`` said ``invalid`` with every claim certified."""
    record = _record(cli, tmp_path, CHALLENGE_0, "--method", "relaxed")
    record["line"]["result"] = "lost"
    text = _verify(cli, tmp_path, record)
    _refused(text, "line.result")
    assert "INVALID: the line's result 'lost' — line.result: unknown result 'lost'" in text.out
    report = json.loads(_verify(cli, tmp_path, record, "--json").out)
    assert report["status"] == "invalid"
    assert [c["claim"] for c in report["claims"] if c["status"] == "invalid"] == ["result"]
