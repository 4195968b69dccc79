"""Policy records (``stratagem/policy@1``) that ``verify`` must refuse (QA 63 mutation pass of
stratagem/verification/policy.py).

A mutant that no longer checked the record's start against what a game can hold (``check_position``)
passed every test: a record about a position no deal can reach, with a policy that replays through the
rules from there, was then certified ("the optimal solo win probability is at least 7/8") instead of
refused as bad input. Another, that took a start that is no string to the notation reader, passed too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.models.strato.hidden.game import HiddenStrato, parse_hidden
from stratagem.models.strato.hidden.odds import solo_odds
from stratagem.models.strato.rules.puzzle import setup_from_data

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "strato"
#: tests/cli/test_odds.py's 2/3 position: rain only in hand, two rain and a wind in the pile.
TWO_THIRDS = "RRWR(RW)WWRW RRR WRR 1 -"
#: The same table with seven rain cards in the pile: 14 rain cards in play, where the deck holds 9.
TOO_MANY_RAIN = "RRWR(RW)WWRW RRR {RRRRRRRW} 1 - play"


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("qa63_policy") / "policy.json"
    assert run(["odds", str(PUZZLES / "challenge-0.toml"), "--position", TWO_THIRDS, "--quiet", "--proof",
                str(path)]) == 0
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def verify_code(tmp_path: Path, data: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data))
    code = run(["verify", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_policy_for_a_position_no_deal_reaches_is_bad_input(record: dict[str, Any], tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    challenge, options = setup_from_data(record["setup"], "policy.json")
    hidden = HiddenStrato(challenge, options, parse_hidden(TOO_MANY_RAIN))
    answer = solo_odds(hidden)  # the rules play on from there: the policy replays
    assert answer.value is not None and 0 < answer.value < 1
    forged = dict(record, start=TOO_MANY_RAIN, nodes=[n.to_json() for n in answer.proof])
    forged["claim"] = dict(record["claim"], win_probability=str(answer.value), optimal=False)
    code, out, err = verify_code(tmp_path, forged, capsys)
    assert code == 2, out
    assert "certified" not in out
    assert err.strip() == "forged.json: start: 14 R cards, but the deck holds 9 of each weather".replace(
        "forged.json", str(tmp_path / "forged.json"))


@pytest.mark.parametrize("start", [5, None, ["RRWR(RW)WWRW RRR {RRW} 1 - play"]])
def test_a_start_that_is_no_string_is_bad_input(record: dict[str, Any], tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str], start: object) -> None:
    code, _, err = verify_code(tmp_path, dict(record, start=start), capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "start: missing or not a string" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(("key", "value", "words"), [
    ("start", "RRWR(RW)WWRW - {RRW} 1 - reveal 1R", "start: the start must be a turn to play, the game not over"),
    ("claim", 5, "claim: missing or not an object"),
])
def test_a_start_that_is_no_turn_to_play_or_a_claim_that_is_no_object_is_bad_input(
        record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: object,
        words: str) -> None:
    """Two more mutants that passed every test: one took a start that is a card being revealed (the record
    was then refuted, exit 1, instead of refused), one read a claim that is no object (a traceback)."""
    code, out, err = verify_code(tmp_path, dict(record, **{key: value}), capsys)
    assert code == 2, out
    assert len(err.strip().splitlines()) == 1 and words in err

