"""A policy record's ``optimal`` claim: certified without a search at probability 1, and under ``--recheck``
by the plain expectimax unless the node limit stops it (QA 64 mutation pass of
stratagem/verification/policy.py).

Three mutants passed every test: one that dropped the shortcut for a win probability of 1 (the claim "no
policy wins with a probability above 1" was then only asserted, exit 3, though nothing can beat 1), one
that never stopped the plain expectimax at ``--max-nodes`` (it certified what the limit should have left
unknown), and one that said nothing of the claim when the limit stopped it. No test made a record worth 1
(``odds --deal solo-1`` takes minutes) or ran ``--recheck`` with a node limit. A fourth took a setup that
is no object to the setup reader.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stratagem.cli.main import run

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "strato"
#: Challenge 0, one rain to play: at the left end it brings the right end's rain in and wins (probability 1).
WON_IN_ONE = "RR(RW)WWWWR R - 1 -"
#: tests/cli/test_odds.py's 2/3 position; the plain expectimax keeps 2,990 states.
TWO_THIRDS = "RRWR(RW)WWRW RRR WRR 1 -"


def policy(tmp_path: Path, position: str) -> str:
    path = tmp_path / "policy.json"
    assert run(["odds", str(PUZZLES / "challenge-0.toml"), "--position", position, "--quiet", "--proof",
                str(path)]) == 0
    return str(path)


def verify(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = run(["verify", *args])
    return code, capsys.readouterr().out


def test_a_win_probability_of_1_is_certified_optimal_without_a_search(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out = verify(capsys, policy(tmp_path, WON_IN_ONE))
    assert code == 0, out
    assert "certified: no policy wins with a probability above 1 — a probability is at most 1: nothing to search" \
        in out


def test_the_node_limit_leaves_the_recheck_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = policy(tmp_path, TWO_THIRDS)
    code, out = verify(capsys, path, "--recheck", "--max-nodes", "100")
    assert code == 3, out
    assert "certified: the optimal solo win probability is at least 2/3" in out
    assert "unknown: no policy wins with a probability above 2/3 — the node limit ran out the plain expectimax" in out
    code, out = verify(capsys, path, "--recheck", "--max-nodes", "2990")
    assert code == 0, out
    assert "certified: no policy wins with a probability above 2/3 — a plain memoised expectimax over every state " \
           "(2,990)" in out


@pytest.mark.parametrize("setup", [5, ["challenge"], None])
def test_a_setup_that_is_no_object_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                setup: object) -> None:
    """A mutant that took a setup that is no object to the setup reader passed every test (5 there: an internal
    error, exit 70)."""
    path = Path(policy(tmp_path, WON_IN_ONE))
    record = json.loads(path.read_text())
    record["setup"] = setup
    path.write_text(json.dumps(record))
    capsys.readouterr()
    assert run(["verify", str(path)]) == 2
    out, err = capsys.readouterr()
    assert err == f"{path}: setup: missing or not an object (the challenge and options)\n"
    assert "certified" not in out


def test_the_node_limit_is_the_most_states_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--max-nodes N``: at most N states kept. The limit was looked at only when a state was entered, while
    states are kept as their values return, so the expectimax kept a few more than N (the states still open
    on its stack) and certified with N = 2,987, where it keeps 2,990."""
    path = policy(tmp_path, TWO_THIRDS)
    for limit in (2987, 2989):
        code, out = verify(capsys, path, "--recheck", "--max-nodes", str(limit))
        assert code == 3, out
        assert f"the node limit ran out the plain expectimax ({limit:,} states)" in out
