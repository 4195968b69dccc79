"""The relaxation's goal tables are kept by the goal row's tornadoes, not by the row as dealt.

The goal reads a row only through which weathers its tornadoes are, yet the tables (0.1 to 2.5 MB each)
were kept under the whole row, cards and all: each deal solved made its own entry, and 32 stayed after
the solves were done (15 entries after 8 deals of the level-2 example; 4 now)."""

from __future__ import annotations

import numpy as np

from stratagem.loading import deal_of, load_strato
from stratagem.models.strato.search.relaxation import _goal_tables, _goal_tables_of, goal_relaxations
from tests.models.strato.support import PUZZLES


def _goal_rows(name: str, seeds: range) -> list[tuple]:
    """(challenge, goal row as dealt, classes, limit) of each goal row of each deal."""
    loaded = load_strato(PUZZLES / name)
    out = []
    for seed in seeds:
        deal = deal_of(loaded, seed, 1)
        for relaxation in goal_relaxations(deal.challenge, deal.game.options, deal.game.initial_state()):
            out.append((deal.challenge, deal.start.rows[relaxation.row], relaxation.classes, relaxation.limit))
    return out


def test_deals_whose_goal_rows_share_their_tornadoes_share_one_table() -> None:
    groups: dict[tuple, list[tuple]] = {}
    for challenge, row, classes, limit in _goal_rows("challenge-1.toml", range(6)):
        groups.setdefault((challenge, row.left_tornado, row.right_tornado, classes, limit), []).append(row)
    shared = [(key, rows) for key, rows in groups.items() if len(set(rows)) > 1]
    assert shared  # goal rows that differ in their cards only
    for (challenge, _, _, classes, limit), rows in shared:
        tables = {id(_goal_tables(challenge, row, classes, limit)) for row in rows}
        assert len(tables) == 1


def test_the_tables_kept_are_those_of_the_row_as_dealt() -> None:
    for challenge, row, classes, limit in _goal_rows("level-2-example.toml", range(4)):
        kept = _goal_tables(challenge, row, classes, limit)
        fresh = _goal_tables_of.__wrapped__(challenge, row, classes, limit)  # the row with its cards
        assert all(np.array_equal(a, b) for a, b in zip(kept, fresh, strict=True))
