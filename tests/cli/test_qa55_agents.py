"""QA pass 55: agents in ``play`` -- solo scoring, duplicate and reserved agent parameters, time limits."""

from __future__ import annotations

import json

from tests.cli.conftest import ROOT, assert_bad_input


def _row(out: str) -> dict[str, object]:
    agents = json.loads(out)["agents"]
    assert len(agents) == 1
    row: dict[str, object] = agents[0]
    return row


def test_a_lost_solo_stakd_game_is_a_loss_not_a_win(cli) -> None:  # type: ignore[no-untyped-def]
    # greedy cannot place the seed's whole solo set: return -1, which is a loss with no one to beat
    result = cli("play", "stakd", "--agents", "greedy", "--count", "2", "--json", "--quiet")
    assert result.code == 0, result.err
    row = _row(result.out)
    assert row["mean_return"] == -1.0
    assert (row["wins"], row["draws"], row["losses"]) == (0, 0, 2)
    assert row["win_rate"] == 0.0


def test_a_won_solo_stakd_game_is_a_win(cli) -> None:  # type: ignore[no-untyped-def]
    tiny = ROOT / "puzzles" / "stakd" / "solo-1-tiny.toml"
    result = cli("play", "stakd", "--agents", "greedy", "--count", "2", "--position", str(tiny), "--json", "--quiet")
    assert result.code == 0, result.err
    row = _row(result.out)
    assert row["mean_return"] == 1.0
    assert (row["wins"], row["draws"], row["losses"]) == (2, 0, 0)
