"""verify's own relaxation reports its progress: recomputing challenge 1 solo-1's bound takes verify 75-195 s,
and the status line read "row 0, 0 rows" all along (QA 56: it was set once, before the search). The
recompute now says the goal row it searches and the relaxed states expanded so far, as often as it asks
its deadline."""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.solving import as_deal
from stratagem.verification.relaxed import SearchCount, Stopped, relaxed_bound

ROOT = Path(__file__).resolve().parents[2]


def test_the_recompute_reports_rows_and_growing_counts() -> None:
    deal = as_deal(ROOT / "puzzles" / "strato" / "challenge-1.toml", "solo-1")
    game = deal.game
    calls: list[tuple[int, int]] = []
    count = SearchCount()
    # stopped after a dozen reports, not after half a second: under load half a second saw only ten
    with pytest.raises(Stopped):  # its certificate claims 11: rows searched 11 relaxed turns deep, for long
        relaxed_bound(game.challenge, game.options, game.initial_state(), at_least=12, count=count,
                      stop=lambda: len(calls) > 12, progress=lambda row, states: calls.append((row, states)))
    assert calls[0] == (1, 0)  # the first goal row, before it expands anything
    assert len(calls) > 10 and all(row == 1 for row, _ in calls)
    states = [n for _, n in calls]
    assert states == sorted(states) and states[-1] >= 256 * (len(calls) - 1)


def test_without_progress_the_bound_is_the_same() -> None:
    deal = as_deal(ROOT / "puzzles" / "strato" / "challenge-0.toml", "solo-1")
    game, state = deal.game, deal.game.initial_state()
    seen: list[tuple[int, int]] = []
    plain = relaxed_bound(game.challenge, game.options, state)
    shown = relaxed_bound(game.challenge, game.options, state, progress=lambda a, b: seen.append((a, b)))
    assert plain == shown and seen and seen[0][0] == 1


class _NeverFar:
    """Relaxed distances that prune nothing: every line of the horizon is searched."""

    views = (None,)

    def at_most(self, i: int, rows: object, cap: int) -> int:
        return 0


def test_the_pruned_search_reports_its_horizon_and_growing_counts() -> None:
    """The second half of a relaxation-search check (every line up to the horizon) said its horizon and
    0 positions once, whatever it searched."""
    from stratagem.verification.bounded import win_within

    deal = as_deal(ROOT / "puzzles" / "strato" / "challenge-0.toml", "solo-1")
    calls: list[tuple[int, int]] = []
    found = win_within(deal.game, _NeverFar(), "max", 4, 10**9,  # type: ignore[arg-type]
                       progress=lambda horizon, nodes: calls.append((horizon, nodes)))
    assert found.exhausted and found.expanded >= 256
    assert calls == [(4, 256 * k) for k in range(1, found.expanded // 256 + 1)]
