"""The guided agent (``hidden/agents.py``): the play nearest a goal by the table-only relaxation, ties to the
work left in the goal's places less the hand's useful cards (issue 29).

Its key is a heuristic, so these tests hold what it computes on hand-made tables, that it never passes over
a win, and that on challenge 1 it does what it is for: win more often than the greedy agent on the same
seeded shuffles.
"""

from __future__ import annotations

import random

from stratagem.loading import deal_of, load_strato
from stratagem.models.strato.hidden.agents import (
    GuidedAgent,
    RelaxationGuide,
    goal_work,
    guided_move,
    make_strato_agent,
)
from stratagem.models.strato.hidden.game import HiddenStrato, parse_hidden
from stratagem.models.strato.hidden.odds import TurnBound
from stratagem.models.strato.rules.challenge import Options
from stratagem.models.strato.rules.position import WON, parse_rows
from stratagem.teamplay import play_deal
from tests.models.strato.support import PUZZLES, puzzle_challenge


def test_goal_work_counts_missing_places_and_wrong_cards_less_the_useful_hand() -> None:
    challenge = puzzle_challenge("challenge-1")  # left W3 R2, right W2 R3, among the 5 nearest the tornado
    rows = parse_rows("WRW(RW)WRR/ST(ST)WT")  # left, outward: W R W; right: W R R (3 of 5 in place each)
    assert goal_work(challenge, rows, "") == (4, 0)
    assert goal_work(challenge, rows, "WWS") == (2, 0)  # the goal misses W W R R: two W in hand help
    assert goal_work(challenge, rows, "RRRR") == (2, 0)  # only two R are missing
    wrong = parse_rows("SWW(RW)WRR/ST(ST)WT")  # left, outward: W W S -- the S must still leave
    assert goal_work(challenge, wrong, "") == (4 + 2, 0)
    long = parse_rows("SRRWWW(RW)WRR/ST(ST)WT")  # left holds its goal and one card beyond it
    assert goal_work(challenge, long, "") == (2, 1)


def test_goal_work_reads_a_sequence_place_by_place_over_every_goal_row() -> None:
    challenge = puzzle_challenge("level-2-example")  # both rows: three of each tornado's weather outward
    rows = parse_rows("RSS(SC)CC/(RW)")  # S S R: the third place wrong; C C: one missing; row 2 empty
    assert goal_work(challenge, rows, "") == ((1 + 1) + 1 + (3 + 3), 0)
    assert goal_work(challenge, rows, "SRW") == ((1 + 1) + 1 + (3 + 3) - 3, 0)


def test_guided_move_never_passes_over_a_win() -> None:
    challenge = puzzle_challenge("challenge-1")
    state = parse_hidden("RWWW(RW)RRRWW/ST(ST)WT RST {RRSSSSSTTTTTWWW} 1 - play")
    game = HiddenStrato(challenge, Options(), state)
    move = guided_move(game, RelaxationGuide(game), TurnBound(game), state)
    assert game.apply(state, move).status == WON, move


def test_the_guide_is_the_least_combined_relaxed_distance() -> None:
    challenge = puzzle_challenge("level-2-example")
    deal = deal_of(load_strato(PUZZLES / "level-2-example.toml"), "solo-1")
    game = HiddenStrato(challenge, deal.game.options, deal.start)
    guide = RelaxationGuide(game)
    table = guide.table
    assert table.combines == "sum" and len(table.distances) == 2  # no Fog nor Storm: rows never trade cards
    rows = deal.start.rows
    assert guide(rows) == sum(d.at_most(rows, guide.CAP) for d in table.distances) > 0


def test_the_guided_agent_wins_more_often_than_the_greedy_one_on_challenge_1() -> None:
    """Challenge 1's solo-1 (11 turns with every card known): the same 16 seeded shuffles of its pile."""
    loaded = load_strato(PUZZLES / "challenge-1.toml")
    deal = deal_of(loaded, "solo-1")
    wins = {}
    for name in ("greedy", "guided"):
        agent = make_strato_agent(name)
        won = 0
        for seed in range(16):
            pile = list(deal.start.pile)
            random.Random(seed).shuffle(pile)
            start = deal.start._replace(pile="".join(pile))
            game = HiddenStrato(deal.challenge, deal.game.options, start)
            won += play_deal(game, start, agent, random.Random(seed))[0]
        wins[name] = won
    assert isinstance(make_strato_agent("guided"), GuidedAgent)
    assert wins["guided"] >= wins["greedy"] + 6, wins
