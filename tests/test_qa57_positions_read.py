"""QA 57: every position read is held to the same checks, not only a position file's.

The hand, round, flag, card-count and table checks of Card Clash, Stratatak's hand size and Strato's
"a hand is full while the pile holds cards" ran where a position file is loaded. A record's start
(``verify``), ``analyze --position`` and OpenSpiel's parameters went through the rules' own checks only,
which let a Card Clash hand of five cards, a round past the match's last, a Stratatak hand over
``hand_size`` or a short Strato hand beside a pile be analysed or certified.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.core.errors import BadInput, NotationError
from stratagem.loading import from_notation
from stratagem.models.cardclash.rules import CardClashGame
from stratagem.models.stratatak.rules import Options, StratatakGame

CHALLENGE_0_SETUP = {"challenge": {"name": "Challenge 0", "level": 0, "weathers": "RW", "rows": 1, "limit": 6,
                                   "rows_required": 1, "goal": {"left": "RRRR", "right": "WWWW"}}}


@pytest.mark.parametrize(("text", "options", "fragment"), [
    ("r6 12345,2346 -,- 1", {}, "player 1 holds 5 cards"),
    ("r6 1234,2346 -,- 1 round=3 flags=1,1", {"rounds": 2}, "round=3, but the game is played for rounds = 2"),
    ("r6 1234,2346 -,- 1 flags=1,0", {"rounds": 1}, "flags=1,0: 1 flag(s) handed out already"),
    ("r6,r5,b5,r1,b1,rX,bX 234,234 -,- 1", {"width": 6}, "the battlefield is 7x1, larger than the table 6x6"),
    ("r6,r6 1234,2346 -,- 1", {}, "more cards than the armies hold: 2 x r6"),
])
def test_card_clash_positions_read_from_text_are_held_to_the_match(text: str, options: dict[str, int],
                                                                  fragment: str) -> None:
    game = CardClashGame(2, **options)
    with pytest.raises(NotationError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        game.parse_state(text)


def test_a_card_clash_record_start_with_a_hand_of_five_is_refused() -> None:
    with pytest.raises(BadInput, match="player 1 holds 5 cards"):
        from_notation("cardclash", "r6 12345,2346 -,- 1", {"players": 2})


def test_a_stratatak_hand_over_hand_size_is_refused_wherever_it_is_read() -> None:
    game = StratatakGame(Options(hand_size=3), None)
    with pytest.raises(NotationError, match="player 1 holds 4 cards, more than hand_size = 3"):
        game.parse_state("B1B2B3B4,R1 G1G2G3 - - A1")


def test_a_strato_record_start_with_a_short_hand_beside_a_pile_is_refused() -> None:
    with pytest.raises(BadInput, match="player 1 holds 2 card"):
        from_notation("strato", "RW(RW)RW RW WRWWRR 1 -", CHALLENGE_0_SETUP)
    position = from_notation("strato", "RW(RW)RW RWR WRWWRR 1 -", CHALLENGE_0_SETUP)  # a full hand reads
    assert position.game_name == "strato"


def test_a_start_that_meets_the_goal_unannounced_says_why_its_bound_is_one(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Rows that meet the goal with no result written must still play a turn (only its end declares the
    victory), so the bound is 1; the answer said the relaxation gave 0 and called 1 optimal with no word of
    why."""
    from stratagem import check

    head = (Path(__file__).resolve().parent.parent / "puzzles" / "strato" / "challenge-0.toml").read_text()
    puzzle = tmp_path / "met.toml"
    deal = '[[deals]]\nname = "met"\nposition = "WRRRR(RW)WWWW RRW RRWWRW 1 W"\n'
    puzzle.write_text(head.split("[[deals]]")[0] + deal)
    answer = check(str(puzzle))
    assert answer.status == "solved" and len(answer.moves) == 1 and answer.lower_bound == 1
    assert "(classes W R): 0; the goal is met but a turn must end to win it: 1" in answer.optimality
