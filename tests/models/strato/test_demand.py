"""The demand bound's premises against the rules engine (``stratagem/models/strato/search/demand.py``).

The SAT model states, at every turn, that a zone's demanded cards plus the entry turns left reach the
need, and that the zone's room plus the entries and doubling plays left reach twice the need. That is
sound if (1) a turn raises a demand's count by at most one, and only when its play is an entry (a
Storm only when a U card ends a half-row outside the zone), (2) a turn raises the room by at most one
if its play is an entry, two if it also doubles, and none otherwise, and (3) a won position holds
every demand and its room. These are checked here, on random playouts and on won positions (some from
the small challenges of ``test_search_agreement.py``), for every kind of zone: the goal rows with
Storm (challenge 1), each row apart (level 2, no card changes rows), Fog and Cloud movers, and a
mover weather counted on the whole table.
"""

from __future__ import annotations

import random

import pytest

from stratagem.models.strato.rules.challenge import Challenge, Options
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.position import ONGOING, WON, parse_rows
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.demand import Demand, demands
from stratagem.models.strato.search.planning import StratoPlanning
from stratagem.solvers.search import astar

from .support import make_challenge, puzzle_challenge
from .test_search_agreement import CHALLENGES as SMALL
from .test_search_agreement import deal_params

CHALLENGES: dict[str, Challenge] = {
    "challenge-1": puzzle_challenge("challenge-1"),
    "level-2-example": puzzle_challenge("level-2-example"),
    "three-rows-all": make_challenge(weathers="RSFWCT", pairs=("RW", "SC", "FT"), limit=8, left="<<<", right=">>>",
                                     rows_required=3, name="three rows, all required"),
    "fog-storm-goal-row": make_challenge(weathers="FWST", pairs=("FW", "ST"), limit=6, left="<<<", right="W>",
                                         tornadoes="FW", name="Fog and Storm, one goal row"),
}


def _kinds(found: tuple[Demand, ...]) -> set[str]:
    return {"table" if d.rows is None else "rows" if len(d.rows) > 1 else "row" for d in found}


def test_engine_demands_cover_every_kind_of_zone() -> None:
    """Each challenge here yields the zones its movers allow (so the playouts below test all kinds)."""
    kinds = {name: _kinds(demands(c, seeded_deal(c, 1, 1))) for name, c in CHALLENGES.items()}
    assert kinds["challenge-1"] == {"row"}  # one goal row; U is rain and wind, never Storm
    assert kinds["level-2-example"] == {"rows", "row"}  # no Fog or Storm: both rows, and each apart
    assert "table" in kinds["three-rows-all"] and "rows" in kinds["three-rows-all"]
    assert "row" not in kinds["three-rows-all"]  # Fog and Storm move cards: no row stands apart
    assert kinds["fog-storm-goal-row"] == {"row", "table"}


def test_engine_the_room_bound_goes_to_the_zone_with_every_needed_weather() -> None:
    found = demands(CHALLENGES["challenge-1"], seeded_deal(CHALLENGES["challenge-1"], 1, 1))
    assert [d.weathers for d in found if d.full] == [("R", "W")]  # not rain alone, not wind alone
    assert all(d.need == 10 for d in found if d.full)  # 2 R + 3 W on one side, 3 R + 2 W on the other


def test_engine_a_storm_enters_only_if_a_half_row_outside_the_zone_ends_with_a_needed_card() -> None:
    """Challenge 1, solo deal 1: row 2 (``ST(ST)WT``) ends with two storms, so a Storm can bring no rain
    or wind into row 1; once row 2's right half ends with its wind, a Storm played anywhere but there
    can, and one played at that end covers it."""
    challenge = CHALLENGES["challenge-1"]
    state = seeded_deal(challenge, 1, 1)
    full = next(d for d in demands(challenge, state) if d.full)
    assert state.rows[1] == parse_rows("ST(ST)WT")[0]
    assert not any(full.enters(state, "T", row, side) for row in (0, 1) for side in (0, 1))
    assert not full.doubles_on(state, "T", 1, 0)
    assert full.enters(state, "R", 0, 1) and not full.enters(state, "R", 1, 1)  # a card of U, in the zone only
    opened = state._replace(rows=(state.rows[0], parse_rows("ST(ST)W")[0]))
    assert full.enters(opened, "T", 0, 0) and full.enters(opened, "T", 1, 0) and full.doubles_on(opened, "T", 1, 0)
    assert not full.enters(opened, "T", 1, 1)  # the Storm itself becomes that end


def test_engine_no_demand_when_the_goal_rows_are_not_forced() -> None:
    free = make_challenge(weathers="RWSC", pairs=("RW", "SC"), limit=4, left="<<", right=">", rows_required=1)
    assert demands(free, seeded_deal(free, 1, 1)) == ()


@pytest.mark.parametrize("name", sorted(CHALLENGES))
@pytest.mark.parametrize("players", [1, 2, 4])
def test_engine_a_turn_raises_a_demand_by_one_at_most_and_only_on_an_entry(name: str, players: int) -> None:
    challenge = CHALLENGES[name]
    walk = random.Random(f"{name}-{players}")
    steps = entries = raised = roomy = 0
    for seed in range(12):
        game = StratoGame(challenge, Options(), seeded_deal(challenge, seed, players))
        state = game.initial_state()
        found = demands(challenge, state)
        while state.status == ONGOING:
            plays = game.plays(state)
            if not plays:
                break
            move, after = walk.choice(plays)
            for demand in found:
                gain = demand.count(after.rows) - demand.count(state.rows)
                entry = demand.enters(state, move.card, move.row, move.end)
                assert gain <= (1 if entry else 0), (demand, state, move, after)
                entries += entry
                raised += gain > 0
                if demand.rows is not None:
                    room = demand.room(after.rows, challenge.limit) - demand.room(state.rows, challenge.limit)
                    double = demand.doubles_on(state, move.card, move.row, move.end)
                    assert room <= entry + (entry and double), (demand, state, move, after)
                    roomy += room == 2
            steps += 1
            state = after
    # the walks were long enough to mean something: many turns, entries taken and counts raised
    assert steps > 100 and entries > 50 and raised > 10
    if name != "level-2-example":  # no Sun of U and no mover there: room never rises by two
        assert roomy > 0


WON_DEALS = [("challenge-1", 1, 3), ("challenge-1", 4, 3), ("two-rows-rw-sc-both", 1, 2), ("two-rows-fw-st-goal", 2, 1),
             ("two-rows-rt-fc-both", 1, 1)]


@pytest.mark.parametrize(("name", "players", "seed"), deal_params(WON_DEALS))
def test_engine_a_won_position_holds_every_demand(name: str, players: int, seed: int) -> None:
    challenge = CHALLENGES[name] if name in CHALLENGES else SMALL[name][0]
    game = StratoGame(challenge, Options(), seeded_deal(challenge, seed, players))
    result = astar(StratoPlanning(game), max_nodes=5_000)
    assert result.status == "solved" and result.moves is not None
    state = game.initial_state()
    found = demands(challenge, state)
    assert found
    for move in result.moves:
        state = game.apply(state, move)
    assert state.status == WON
    for demand in found:
        assert demand.count(state.rows) >= demand.need, demand
        if demand.rows is not None:
            assert demand.room(state.rows, challenge.limit) >= 2 * demand.need, demand
