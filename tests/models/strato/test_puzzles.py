"""The Strato puzzle files (puzzles/strato/*.toml) carry the reconstruction choices their headers
document (docs/rules/strato.md, "Puzzle files"), and explicit deals obey the setup rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.core.errors import BadInput
from stratagem.models.strato.rules.challenge import CountGoal, SequenceGoal
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.position import format_rows
from stratagem.models.strato.rules.puzzle import load_puzzle

from .support import PUZZLES


def test_seed_challenge_0_goal_and_reconstructed_limit() -> None:
    puzzle = load_puzzle(PUZZLES / "challenge-0.toml")
    c = puzzle.challenge
    assert (c.weathers, c.pairs, c.limit, c.rows_required) == ("RW", ("RW",), 6, 1)
    assert c.goal.left == SequenceGoal("RRRR") and c.goal.right == SequenceGoal("WWWW")
    for spec in puzzle.deals:
        assert format_rows(puzzle.deal(spec).rows) == "RW(RW)RW"  # the forced two-weather setup


def test_seed_challenge_1_reconstructed_second_row_and_count_goal() -> None:
    c = load_puzzle(PUZZLES / "challenge-1.toml").challenge
    assert (c.weathers, c.pairs, c.limit, c.rows_required) == ("RWST", ("RW", "ST"), 6, 1)
    # counts are kept in letter order, whatever order the file gives them in
    assert c.goal.left == CountGoal(5, (("R", 2), ("W", 3)))
    assert c.goal.right == CountGoal(5, (("R", 3), ("W", 2)))
    assert c.goal.tornadoes == "RW"


def test_seed_level_2_example_card() -> None:
    puzzle = load_puzzle(PUZZLES / "level-2-example.toml")
    c = puzzle.challenge
    assert (c.weathers, c.pairs, c.rows, c.limit, c.rows_required) == ("RSWC", (), 2, 6, 2)
    assert c.goal.left == SequenceGoal("<<<") and c.goal.right == SequenceGoal(">>>")
    pairings = {tuple(r.left_tornado + r.right_tornado for r in seeded_deal(c, s, 1).rows) for s in range(30)}
    assert pairings <= {("RW", "SC"), ("SC", "RW"), ("RC", "SW"), ("SW", "RC")} and len(pairings) > 1


@pytest.mark.parametrize("path", sorted(PUZZLES.glob("*.toml")), ids=lambda p: p.name)
def test_engine_every_puzzle_file_loads_and_deals(path: Path) -> None:
    puzzle = load_puzzle(path)
    assert puzzle.deals
    for spec in puzzle.deals:
        game = puzzle.game(spec)
        assert game.legal_moves(game.initial_state())


TEMPLATE = """
game = "strato"
[challenge]
weathers = "RSWC"
rows = 2
limit = 6
[challenge.goal]
left = "<<<"
[[deals]]
rows = [{rows}]
hands = ["RSW"]
pile = "C"
"""


def test_engine_explicit_deal_in_a_puzzle_file_is_checked(tmp_path: Path) -> None:
    bad = tmp_path / "adjacent.toml"
    bad.write_text(TEMPLATE.format(rows='"RR(RW)SC", "WC(SC)WS"'), encoding="utf-8")
    with pytest.raises(BadInput, match="two adjacent"):
        load_puzzle(bad)
    good = tmp_path / "good.toml"
    good.write_text(TEMPLATE.format(rows='"SC(RW)SC", "WC(SC)WS"'), encoding="utf-8")
    assert load_puzzle(good).deals[0].state is not None


def test_seed_sixteen_tiles_bound_the_card_limit_at_eight(tmp_path: Path) -> None:
    text = TEMPLATE.format(rows='"SC(RW)SC", "WC(SC)WS"').replace("limit = 6", "limit = 9")
    too_long = tmp_path / "limit.toml"
    too_long.write_text(text, encoding="utf-8")
    with pytest.raises(BadInput, match="16 tiles allow 8"):
        load_puzzle(too_long)


def test_ruling_explicit_deal_without_pairs_keeps_tornado_handedness(tmp_path: Path) -> None:
    swapped = tmp_path / "swapped.toml"
    swapped.write_text(TEMPLATE.format(rows='"SC(WR)SC", "WC(SC)WS"'), encoding="utf-8")
    with pytest.raises(BadInput):
        load_puzzle(swapped)
