"""QA 57 (deals): a named deal dealt for another player count is another deal, and named so.

``--deal solo-1 --players 2`` dealt two hands from solo-1's seed but kept the name ``solo-1``, in the
outputs, the records, the export's comment line and the PDDL problem: a reader took it for the file's
one-player deal.
"""

from __future__ import annotations

import json

from conftest import PUZZLES

from stratagem.loading import deal_of, load_strato

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")


def test_a_named_deal_for_another_count_says_so_and_keeps_no_claim() -> None:
    puzzle = load_strato(CHALLENGE_0)
    assert puzzle.find_deal("solo-1").name == "solo-1"
    assert puzzle.find_deal("solo-1", 1).name == "solo-1"
    two = puzzle.find_deal("solo-1", 2)
    assert (two.name, two.players, two.seed, two.optimal_length) == ("solo-1 for 2 players", 2, 1, None)
    assert puzzle.find_deal("duo-1", 1).name == "duo-1 for 1 player"
    # the same cards as the seed itself for that count
    assert deal_of(puzzle, "solo-1", 2).start == deal_of(puzzle, 1, 2).start


def test_outputs_and_records_carry_the_new_name(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    solved = cli("solve", CHALLENGE_0, "--deal", "solo-1", "--players", "2", "--json")
    assert solved.code == 0, solved
    assert json.loads(solved.out)["deal"] == "solo-1 for 2 players"
    exported = cli("export", CHALLENGE_0, "--deal", "solo-1", "--players", "2", "--horizon", "3", "--json")
    assert json.loads(exported.out)["deal"] == "solo-1 for 2 players"
    assert "deal solo-1 for 2 players" in json.loads(exported.out)["dimacs"]
