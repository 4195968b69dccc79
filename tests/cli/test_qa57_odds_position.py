"""``stratagem odds --position`` checks a position as a puzzle file's position deal is checked (QA pass 57)."""

from __future__ import annotations

from conftest import ROOT, assert_bad_input


def test_odds_refuses_a_short_hand_while_the_pile_holds_cards(cli) -> None:
    """Solo challenge 0's hand is three cards: two with three in the pile is no moment of any game (each play is
    followed by a draw). A puzzle file's position deal was refused for it; ``--position`` valued it (2/3)."""
    result = cli("odds", str(ROOT / "puzzles" / "strato" / "challenge-0.toml"), "--position", "RRWR(RW)WWRW RR WRR 1 -")
    assert_bad_input(result, "--position: player 1 holds 2 card(s) while the draw pile holds 3: a hand is 3 card(s)")


def test_odds_values_a_short_hand_once_the_pile_is_empty(cli) -> None:
    result = cli("odds", str(ROOT / "puzzles" / "strato" / "challenge-0.toml"), "--position", "RRWR(RW)WWRW RR - 1 -")
    assert result.code == 0, result.err
    assert "win probability" in result.out
