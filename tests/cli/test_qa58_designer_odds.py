"""``stratagem odds`` on puzzle files a designer edits (QA pass 58).

- a deal (or ``--position``) whose start is already a finished game, won or lost, is bad input at
  ``--deal`` / ``--position``: both searches failed on it as an internal error (exit 70);
- ``--table`` on a deal whose pile has more orders than the compiled search's 64-bit weights count (any
  three-row challenge: 39 cards of six weathers, about 2^88 orders) is bad input before any search. The
  kernel's own check multiplied in 64 bits, which wrapped round (to a negative number for seed 1) and let
  the search run on meaningless weights: an internal error from the table's walk, or, in a hidden sweep, a
  "proven" lower bound below 0.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from conftest import PUZZLES, assert_bad_input

from stratagem.core.errors import BadInput
from stratagem.loading import StratoDeal
from stratagem.models.strato.hidden import odds_kernel
from stratagem.models.strato.hidden.exact import TooManyOrders, check_orders, pile_orders

CHALLENGE_0 = (PUZZLES / "challenge-0.toml").read_text().split("[[deals]]")[0]

FINISHED = CHALLENGE_0 + """
[[deals]]
name = "won"
position = "WRRRR(RW)WWWW RRW RRWWRW 1 W won"

[[deals]]
name = "lost"
position = "RW(RW)RW - - 1 W lost"
"""

#: Three rows, so all six weathers: 54 cards, 12 on the table and 3 in hand, 39 in the pile.
THREE_ROWS = """
game = "strato"

[challenge]
name = "Three rows"
weathers = "RWSTFC"
rows = 3
limit = 4
rows_required = 1

[challenge.goal]
left = "<<"
right = ">>"

[[deals]]
name = "solo-1"
seed = 1
"""


@pytest.mark.parametrize(("deal", "result", "value"), [("won", "won", "1"), ("lost", "lost", "0")])
@pytest.mark.parametrize("table", [False, True])
def test_odds_refuses_a_deal_that_starts_finished(cli, tmp_path: Path, deal: str,  # type: ignore[no-untyped-def]
                                                  result: str, value: str, table: bool) -> None:
    puzzle = tmp_path / "finished.toml"
    puzzle.write_text(FINISHED)
    written = tmp_path / "t.gz"
    extra = ("--table", str(written)) if table else ()
    outcome = cli("odds", str(puzzle), "--deal", deal, *extra)
    assert_bad_input(outcome, f"finished.toml: --deal: deal '{deal}' is a finished game ({result})",
                     f"win probability is {value}")
    assert outcome.out == "" and not written.exists()


def test_odds_refuses_a_finished_position(cli) -> None:  # type: ignore[no-untyped-def]
    outcome = cli("odds", str(PUZZLES / "challenge-0.toml"), "--position", "WRRRR(RW)WWWW RRW RRWWRW 1 W won")
    assert_bad_input(outcome, "--position: the position is a finished game (won)")


def test_the_library_refuses_a_finished_deal_as_bad_input(tmp_path: Path) -> None:
    """``odds_of`` and ``odds_bounds`` take a loaded deal from the caller: it is refused there too."""
    import stratagem
    from stratagem.winprobability import odds_bounds, odds_of

    puzzle = tmp_path / "finished.toml"
    puzzle.write_text(FINISHED)
    deal = stratagem.load(puzzle, "won")
    assert isinstance(deal, StratoDeal)
    with pytest.raises(BadInput, match="is a finished game"):
        odds_of(deal)
    with pytest.raises(BadInput, match="is a finished game"):
        odds_bounds(deal, tmp_path / "t.gz")
    assert not (tmp_path / "t.gz").exists()


def test_pile_orders_counts_exactly() -> None:
    assert pile_orders("") == 1
    assert pile_orders("RRW") == 3
    assert pile_orders("RRRRWWWWWWW") == math.comb(11, 4)
    pile = "C" * 9 + "F" * 7 + "R" * 5 + "S" * 6 + "T" * 5 + "W" * 7
    assert pile_orders(pile) == math.factorial(39) // math.prod(math.factorial(k) for k in (9, 7, 5, 6, 5, 7))


def test_check_orders_refuses_what_64_bit_weights_cannot_count() -> None:
    """The pile of the three-row deal below: its orders wrap round to a negative int64, which the kernel's own
    check (``>= MAX_WEIGHT``) let through."""
    pile = "C" * 9 + "F" * 7 + "R" * 5 + "S" * 6 + "T" * 5 + "W" * 7
    wrapped = pile_orders(pile) % (1 << 64)
    assert wrapped >= 1 << 63  # negative as an int64: the check the kernel makes passed it
    with pytest.raises(TooManyOrders, match="39 cards have 2.13e\\+26 orders"):
        check_orders(pile)
    fits = "R" * 7 + "W" * 7 + "S" * 7 + "T" * 7  # the largest two-row solo pile (28 cards, four weathers)
    assert pile_orders(fits) < odds_kernel.MAX_WEIGHT
    check_orders(fits)


def test_odds_table_refuses_a_pile_too_large_before_searching(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    puzzle = tmp_path / "three.toml"
    puzzle.write_text(THREE_ROWS)
    written = tmp_path / "t3.gz"
    outcome = cli("odds", str(puzzle), "--table", str(written), "--time-limit", "20")
    assert_bad_input(outcome, "three.toml: --table: deal 'solo-1': the pile's 39 cards have",
                     "more than the compiled search's 64-bit weights count",
                     "the plain search (odds with no --table) counts in exact fractions")
    assert outcome.out == "" and not written.exists()


def test_the_compiled_search_refuses_such_a_pile_itself(tmp_path: Path) -> None:
    """Every caller of the compiled search (a hidden sweep's solo task too) is refused before the kernel runs:
    the old code searched on wrapped weights and a sweep recorded a lower bound below 0."""
    import stratagem
    from stratagem.models.strato.hidden.exact import odds_interval
    from stratagem.models.strato.hidden.game import HiddenStrato

    puzzle = tmp_path / "three.toml"
    puzzle.write_text(THREE_ROWS)
    deal = stratagem.load(puzzle)
    assert isinstance(deal, StratoDeal)
    with pytest.raises(TooManyOrders, match="more than the compiled search's 64-bit weights count"):
        odds_interval(HiddenStrato(deal.challenge, deal.game.options, deal.start), seconds=5)


def test_the_progress_line_groups_its_first_count_as_its_second() -> None:
    """The odds search's status line read 'states kept 28658, 28,672 nodes visited' (and a table's check
    'rows read 258000, ...'): the first count was printed bare."""
    from stratagem.cli.progress import _Line

    line = _Line("odds search", "states kept", "nodes visited")
    line.counts = (28658, 28672)
    assert str(line).startswith("odds search: states kept 28,658, 28,672 nodes visited, ")


def test_odds_names_position_for_a_position_of_several_players(cli) -> None:  # type: ignore[no-untyped-def]
    """It said 'players: ... this deal has 2 players', a place no option of odds has."""
    outcome = cli("odds", str(PUZZLES / "challenge-0.toml"), "--position", "RW(RW)RW RR,RW WRWWRRWWRW 1 -")
    assert_bad_input(outcome, "--position: the position has 2 hands: the exact win probability is for solo play")


def test_odds_no_rank_of_a_position_the_floor_proves_lost(cli) -> None:  # type: ignore[no-untyped-def]
    """QA 58: the floor proves this start worth 0 before any move is searched (two cards to draw cannot make
    a goal row), so no best move was recorded and ``--no-rank`` failed with an internal error (KeyError on
    the root, exit 70); ``--rank`` and ``--table`` answered 0. Every move achieves 0: the first is named."""
    position = "TTSWS(RW)RTTW/RWST(ST)WS RRR RS 1 W"
    outcome = cli("odds", str(PUZZLES / "challenge-1.toml"), "--position", position, "--no-rank", "--json")
    assert outcome.code == 0, outcome.err
    report = json.loads(outcome.out)
    assert (report["status"], report["win_probability"]) == ("solved", "0")
    assert report["ranked"] is False and [move["win_probability"] for move in report["ranking"]] == ["0"]
