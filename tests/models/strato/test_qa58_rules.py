"""Rules audit of session 58: seed sentences newly quoted in docs/rules/strato.md, and a count goal that
names one weather twice.

A count goal counts cards of weathers among the cards nearest a tornado (seed, challenge 1: "3 winds and 2
rains next to the rain Tornado card": five different cards). A goal whose keys can name one weather twice,
a literal weather and ``<``/``>`` on a row whose tornado is that weather (``{ R = 2, "<" = 1 }`` with rain
as the left tornado), was read two ways inside the project: the victory test took the larger count (two
rains won), while the goal's needs, its length and the SAT/CP-SAT models summed them (three rains). SAT
then "proved" that no line shorter than 3 turns wins a deal the rules engine wins in one. Such a goal is
now refused wherever a challenge is made: one count per weather.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.cli.main import run
from stratagem.core.errors import BadInput
from stratagem.models.strato.rules.challenge import Challenge, CountGoal, RowGoal
from stratagem.models.strato.rules.position import format_state
from stratagem.models.strato.rules.puzzle import load_puzzle, setup_from_data

from .support import apply_text, game, make_challenge

ALIASED = """game = "strato"
[challenge]
name = "aliased counts"
weathers = "RC"
rows = 1
{pairs}limit = 5
[challenge.goal]
left = {{ nearest = 3, counts = {{ R = 2, "<" = 1 }} }}
{tornadoes}
[[deals]]
name = "d"
seed = 1
"""


def _aliased(tmp_path: Path, pairs: str = 'pairs = ["RC"]\n', tornadoes: str = "") -> Path:
    path = tmp_path / "aliased.toml"
    path.write_text(ALIASED.format(pairs=pairs, tornadoes=tornadoes))
    return path


def test_ruling_count_goal_naming_one_weather_twice_is_refused_in_a_puzzle_file(tmp_path: Path) -> None:
    with pytest.raises(BadInput) as info:
        load_puzzle(_aliased(tmp_path))
    message = str(info.value)
    assert "goal.left" in message and "R" in message and "once" in message


def test_ruling_count_goal_naming_one_weather_twice_is_refused_by_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad input: exit 2, one line on stderr naming the file and the key, no traceback."""
    path = _aliased(tmp_path)
    code = run(["solve", str(path), "--method", "sat", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert str(path) in err and "goal.left" in err


def test_ruling_count_goal_naming_one_weather_twice_is_refused_in_a_record_setup() -> None:
    """A line or proof record's setup is read by the same parser (verify refuses it as bad input)."""
    setup = {"challenge": {"name": "x", "weathers": "RC", "rows": 1, "pairs": ["RC"], "limit": 5,
                           "goal": {"left": {"nearest": 3, "counts": {"R": 2, "<": 1}}}}}
    with pytest.raises(BadInput, match="goal.left"):
        setup_from_data(setup, "record.json")


def test_ruling_count_goal_naming_one_weather_twice_cannot_be_built_through_the_api() -> None:
    with pytest.raises(ValueError, match="once"):
        make_challenge(weathers="RC", pairs=("RC",), limit=5, left=CountGoal(3, (("R", 2), ("<", 1))))
    with pytest.raises(ValueError, match="once"):
        make_challenge(weathers="RW", pairs=("RW",), limit=5, right=CountGoal(3, ((">", 1), ("W", 1))), left=None)


def test_ruling_count_goal_aliasing_on_a_possible_random_pairing_is_refused(tmp_path: Path) -> None:
    """Without named pairs the left tornado is any left-hand weather in play: a literal R with "<" names
    rain twice on every deal that puts rain on the left, so the file is refused; a goal restricted to
    rows whose left tornado is another weather is not."""
    text = """game = "strato"
[challenge]
weathers = "RSWC"
rows = 2
limit = 5
rows_required = 1
[challenge.goal]
left = { nearest = 3, counts = { R = 2, "<" = 1 } }
"""
    path = tmp_path / "random.toml"
    path.write_text(text)
    with pytest.raises(BadInput, match="once"):
        load_puzzle(path)
    path.write_text(text + 'tornadoes = "SW"\n')
    goal = load_puzzle(path).challenge.goal
    assert goal.left == CountGoal(3, (("<", 1), ("R", 2)))


def test_ruling_count_goals_naming_distinct_weathers_are_kept() -> None:
    """Tokens that never name one weather on any possible row stay legal: challenge 1's W and R, and a
    literal with the tornado token of the other side."""
    challenge = make_challenge(weathers="RC", pairs=("RC",), limit=5, left=CountGoal(3, (("R", 2), (">", 1))))
    assert isinstance(challenge, Challenge)
    assert challenge.goal == RowGoal(CountGoal(3, (("R", 2), (">", 1))), None, "")


def test_seed_the_card_limit_counts_each_half_row_on_its_own() -> None:
    """Seed: "if the card limit is 6 in each half-row, lay out 6 tiles for each half-row": the limit
    bounds each half-row, not a row. Both half-rows at the limit go on; one card more on one side loses."""
    challenge = make_challenge(weathers="RWF", limit=3, left="RRR", right="WWW")
    g, s = game("WRW(RW)RWR FF WW 1 -", challenge)  # a Fog in one row has no effect: it only lengthens
    assert format_state(apply_text(g, s, "F1L")) == "FWRW(RW)RWR FW W 1 F lost"
    g, s = game("RW(RW)RWR FF WW 1 -", challenge)
    assert format_state(apply_text(g, s, "F1L")) == "FRW(RW)RWR FW W 1 F"


LIMIT_ONE = """game = "strato"
[challenge]
name = "limit one"
weathers = "RW"
rows = 1
pairs = ["RW"]
limit = 1
[challenge.goal]
left = "R"
[[deals]]
name = "seeded"
seed = 4
[[deals]]
name = "by-hand"
rows = ["W(RW)R"]
hands = ["RRW"]
pile = "WW"
"""


def test_seed_a_seeded_deal_needs_room_for_the_two_cards_the_setup_lays_on_each_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed: "randomly place 2 cards on either side of each tornado card". Under a card limit of 1 that
    setup starts over the limit. It used to be dealt anyway: ``solve`` answered "unsolvable" and wrote a
    proof record whose start ``verify`` then refused (an over-limit position without a result). Now a
    seeded deal of such a challenge is bad input naming the rule; an explicit layout within the limit is
    still a deal."""
    path = tmp_path / "limit1.toml"
    path.write_text(LIMIT_ONE)
    puzzle = load_puzzle(path)
    with pytest.raises(BadInput, match="2 cards on either side"):
        puzzle.deal(puzzle.deals[0])
    assert format_state(puzzle.deal(puzzle.deals[1])) == "W(RW)R RRW WW 1 -"
    code = run(["solve", str(path), "--deal", "seeded", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert str(path) in err and "limit 1" in err
