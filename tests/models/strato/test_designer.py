"""Designer mode: a relaxation of every deal on a layout (module docstring of ``designer.py``).

Checked here: the designer par never exceeds a deal's optimal length (all nine deals of challenge 0),
a deal's optimal line is a designer line move for move, a layout that cannot be won in designer mode
has a complete graph without a goal (and its deals are indeed unsolvable), and the Cloud's memory is
kept only when a Cloud is in play.
"""

from __future__ import annotations

from functools import cache

import pytest

from stratagem.models.strato.designer import Layout, StratoDesigner
from stratagem.models.strato.rules.challenge import Challenge, Options
from stratagem.models.strato.rules.notation import format_move
from stratagem.models.strato.rules.position import Row, parse_rows, parse_state
from stratagem.models.strato.rules.puzzle import load_puzzle
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.planning import StratoPlanning
from stratagem.solvers.graph import GraphFacts, build_graph, graph_facts
from stratagem.solvers.search import astar, bfs

from .support import PUZZLES, make_challenge

CHALLENGE_0 = load_puzzle(PUZZLES / "challenge-0.toml")


@cache
def designer_facts(challenge: Challenge, rows: tuple[Row, ...]) -> GraphFacts:
    problem = StratoDesigner(challenge, Options(), rows)
    return graph_facts(build_graph(problem, label=problem.format_state, move_label=format_move))


@pytest.mark.parametrize("deal", [spec.name for spec in CHALLENGE_0.deals])
def test_designer_par_is_at_most_the_optimal_length_of_each_deal(deal: str) -> None:
    game = CHALLENGE_0.game(CHALLENGE_0.find_deal(deal))
    optimal = astar(StratoPlanning(game))
    assert optimal.status == "solved" and optimal.moves is not None
    facts = designer_facts(CHALLENGE_0.challenge, game.initial_state().rows)
    assert facts.complete and facts.goal_reachable
    assert facts.par is not None and facts.par <= len(optimal.moves)


def test_designer_numbers_of_challenge_0() -> None:
    """Regression numbers: the forced layout RW(RW)RW in designer mode."""
    facts = designer_facts(CHALLENGE_0.challenge, parse_rows("RW(RW)RW"))
    assert (facts.states, facts.edges, facts.goal_states, facts.par) == (13955, 108037, 38, 5)
    assert facts.strongly_connected_components == facts.states  # with R and W only, every turn adds a card


@pytest.mark.parametrize("deal", ["solo-2", "duo-2", "four-1"])
def test_a_deal_line_is_a_designer_line(deal: str) -> None:
    game = CHALLENGE_0.game(CHALLENGE_0.find_deal(deal))
    optimal = astar(StratoPlanning(game))
    assert optimal.moves is not None
    designer = StratoDesigner(CHALLENGE_0.challenge, CHALLENGE_0.options, game.initial_state().rows)
    state, layout = game.initial_state(), designer.start()
    for move in optimal.moves:
        state = game.apply(state, move)
        following = {m: after for m, after in designer.successors(layout)}
        as_designer = move._replace(redraw=False)
        reached = following.get(as_designer)
        if reached is None:  # merged with an earlier move to the same table
            reached = next(after for after in following.values() if after.rows == state.rows)
        assert reached.rows == state.rows
        layout = reached
    assert designer.is_goal(layout)


IMPOSSIBLE = make_challenge(limit=4, left="RRR", right="WWW")


def test_an_unwinnable_layout_has_a_complete_graph_without_goal() -> None:
    """Limit 4, goal RRR | WWW from RW(RW)RW: not even an unlimited supply of cards reaches it."""
    facts = designer_facts(IMPOSSIBLE, parse_rows("RW(RW)RW"))
    assert facts.complete and not facts.goal_reachable and facts.par is None
    assert facts.dead_ends == facts.states == 365


@pytest.mark.parametrize("position", ["RW(RW)RW RRW WRWRWRWRW 1 -", "RW(RW)RW RW,RW RRWWRWRW 1 -"])
def test_deals_on_the_unwinnable_layout_are_unsolvable(position: str) -> None:
    game = StratoGame(IMPOSSIBLE, Options(), parse_state(position))
    assert bfs(StratoPlanning(game)).status == "unsolvable"


def test_small_deals_never_beat_the_designer_par() -> None:
    for position, expected in [("RRW(RW)WWW RR,WW RR 1 -", 5), ("WRRR(RW)RWW RW,W RW 1 -", 4)]:
        game = StratoGame(CHALLENGE_0.challenge, Options(), parse_state(position))
        found = bfs(StratoPlanning(game))
        assert found.moves is not None and len(found.moves) == expected
        designer = StratoDesigner(CHALLENGE_0.challenge, Options(), game.initial_state().rows)
        par = astar(designer).moves  # the designer par, found without building the whole graph
        assert par is not None and len(par) <= expected


def test_over_limit_plays_are_not_successors() -> None:
    challenge = make_challenge(limit=3, left="RR", right="W")
    designer = StratoDesigner(challenge, Options(), parse_rows("RRW(RW)RW"))
    following = list(designer.successors(designer.start()))
    assert following
    for move, after in following:
        assert all(len(row.left) <= 3 and len(row.right) <= 3 for row in after.rows), format_move(move)
    assert len({after for _, after in following}) == len(following)  # merged by resulting state


def test_the_last_weather_is_kept_only_with_a_cloud() -> None:
    plain = StratoDesigner(make_challenge(), Options(), parse_rows("RW(RW)RW"))
    assert {after.last for _, after in plain.successors(plain.start())} == {""}
    cloudy = make_challenge(weathers="RC", pairs=("RC",))
    designer = StratoDesigner(cloudy, Options(), parse_rows("RC(RC)RC"), last="R")
    for move, after in designer.successors(designer.start()):
        assert after.last == ("R" if move.card == "C" else move.card)
    assert designer.format_state(Layout(parse_rows("RC(RC)RC"), "R")) == "RC(RC)RC R"


def test_heuristic_is_admissible_at_the_start() -> None:
    designer = StratoDesigner(CHALLENGE_0.challenge, Options(), parse_rows("RW(RW)RW"))
    facts = designer_facts(CHALLENGE_0.challenge, parse_rows("RW(RW)RW"))
    assert facts.par is not None and 1 <= designer.heuristic(designer.start()) <= facts.par
    found = astar(designer)
    assert found.moves is not None and len(found.moves) == facts.par
