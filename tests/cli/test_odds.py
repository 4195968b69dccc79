"""``stratagem odds`` and ``stratagem play strato``: the exact solo win probability with the pile hidden,
its policy record through ``verify`` (certified, not certified, forged), and team play on duplicate deals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import PUZZLES

from stratagem.cli.main import run

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
#: Three more rain cards by the rain tornado and four wind cards by the wind tornado would win; the hand
#: holds rain only and the pile (order hidden) two rain and a wind: exactly 2/3 (checked below by verify's
#: plain expectimax, and in tests/models/strato/test_hidden.py by a naive one).
TWO_THIRDS = "RRWR(RW)WWRW RRR WRR 1 -"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_gives_the_exact_value_ranks_first_moves_and_writes_a_policy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    proof = tmp_path / "policy.json"
    code, out, _ = cli(capsys, "odds", CHALLENGE_0, "--position", TWO_THIRDS, "--json", "--proof", str(proof))
    assert code == 0
    report = json.loads(out)
    assert (report["format"], report["status"], report["win_probability"]) == ("stratagem/odds@1", "solved", "2/3")
    assert report["ranking"][0]["win_probability"] == "2/3" and report["ranked"]
    assert report["lower_bound"] == "2/3" and report["start"] == "RRWR(RW)WWRW RRR {RRW} 1 - play"
    code, out, _ = cli(capsys, "verify", str(proof))
    assert code == 3, out  # the value is certified; "no policy does better" only asserted
    assert "certified: the optimal solo win probability is at least 2/3" in out
    assert "not certified: no policy wins with a probability above 2/3" in out
    code, out, _ = cli(capsys, "verify", str(proof), "--recheck")
    assert code == 0, out


@pytest.mark.parametrize("forgery", ["higher", "wrong-child", "probability"])
def test_verify_rejects_a_forged_policy(tmp_path: Path, capsys: pytest.CaptureFixture[str], forgery: str) -> None:
    proof = tmp_path / "policy.json"
    assert cli(capsys, "odds", CHALLENGE_0, "--position", TWO_THIRDS, "--proof", str(proof))[0] == 0
    record = json.loads(proof.read_text())
    if forgery == "higher":
        record["claim"]["win_probability"] = "1"
    elif forgery == "probability":
        chance = next(n for n in record["nodes"] if n["kind"] == "chance" and len(n["outcomes"]) > 1)
        chance["outcomes"][0][1], chance["outcomes"][1][1] = chance["outcomes"][1][1], chance["outcomes"][0][1]
    else:  # a chance outcome sent to a node of another state (a copy of the start, playing another move)
        first = record["nodes"][0]
        twin = dict(first, id=len(record["nodes"]), move="!1R", child=len(record["nodes"]) + 1)
        record["nodes"] += [twin, {"id": len(record["nodes"]) + 1, "state": "RRWR(RW)WWRW - {RRW} 1 - reveal 1R",
                                   "kind": "cut"}]
        chance = next(n for n in record["nodes"] if n["kind"] == "chance")
        chance["outcomes"][0][2] = twin["id"]
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(record))
    code, out, _ = cli(capsys, "verify", str(forged))
    assert code == 1, out
    assert "INVALID" in out


def test_odds_refuses_team_play_and_bad_positions(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "odds", CHALLENGE_0, "--deal", "duo-1")
    assert code == 2 and "solo play" in err and len(err.strip().splitlines()) == 1
    code, _, err = cli(capsys, "odds", CHALLENGE_0, "--position", "RW(RW)RW RRR WRR")
    assert code == 2 and "--position" in err and len(err.strip().splitlines()) == 1


def test_odds_time_limit_gives_unknown_with_a_proven_bound(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "odds", CHALLENGE_0, "--deal", "solo-1", "--max-nodes", "2000", "--json")
    assert code == 3
    report = json.loads(out)
    assert report["status"] == "unknown" and report["win_probability"] is None
    assert report["stopped_by"] == "state limit"


def test_play_strato_compares_agents_on_the_same_deals(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["play", "strato", CHALLENGE_0, "--agents", "greedy,pimc:samples=2:nodes=50,ismcts:iterations=20",
            "--players", "1,2,4", "--count", "2", "--seed", "3", "--json"]
    code, out, _ = cli(capsys, *args)
    assert code == 0
    match = json.loads(out)
    assert match["format"] == "stratagem/teamplay@1"
    assert [(r["agent"].split(":")[0], r["players"]) for r in match["rows"]] == [
        (a, p) for p in (1, 2, 4) for a in ("greedy", "pimc", "ismcts")]
    for row in match["rows"]:
        assert [d[0] for d in row["deals"]] == [3, 4]  # every agent on the same deals
        assert row["wins"] == sum(d[1] for d in row["deals"]) and 0 <= row["win_rate_ci95"][0] <= row["win_rate"]
    again = json.loads(cli(capsys, *args)[1])
    strip = [[{k: v for k, v in r.items() if k != "seconds"} for r in m["rows"]] for m in (match, again)]
    assert strip[0] == strip[1]  # seeded: the same match


def test_play_strato_refuses_unknown_agents_and_a_missing_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "play", "strato", CHALLENGE_0, "--agents", "mcts")
    assert code == 2 and "agents[1]" in err
    code, _, err = cli(capsys, "play", "strato", "--agents", "greedy")
    assert code == 2 and "puzzle" in err
