"""The value table (``stratagem/strato-odds-table@4``, issue 29): what the compiled search writes checks
with the rules alone, both ways when the search finished; forged tables are refused.

Forgeries: a wrong value; a missing state; a decision valued with one of its moves left out; a chance
node valued with its probabilities changed; in a policy row, a move that is worse than claimed, a move
that is not legal, a draw's state missing, and a claimed lower bound above the policy; a cut draw the
rules do not draw there, named twice, hiding a draw the policy wins, or left out; a floor row's value
changed, and a floor row on a lost state that the floor does not prove. Each is made by
rewriting one row of a real table the way a faulty writer would, and ``verify`` must reject it.
"""

from __future__ import annotations

import gzip
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

import pytest

from stratagem.core.deadline import Deadline
from stratagem.models.strato.hidden.exact import OddsInterval, Solver, odds_interval, policy_sources
from stratagem.models.strato.hidden.game import (
    DRAW,
    PLAY,
    REVEAL,
    HiddenState,
    HiddenStrato,
    format_hidden,
    parse_hidden,
    parse_play,
)
from stratagem.models.strato.hidden.valuetable import TableStopped, TableSummary, value_table, write_table
from stratagem.models.strato.rules.challenge import Options
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.position import ONGOING
from stratagem.models.strato.rules.puzzle import setup_from_data
from stratagem.verification import oddstable, verify
from stratagem.verification.oddstable import check_table, floor_holds, read_table, turns_needed
from tests.models.strato.support import puzzle_challenge

OPTIONS = Options()
#: Challenge-0 positions whose values lie strictly between 0 and 1 (2/3 and 13/15).
POSITIONS = ("RRWR(RW)WWRW RRR {RRW} 1 - play", "RRRW(RW)WRWWW RRR {RRWWWW} 1 W play")


def setup() -> dict[str, object]:
    """The ``setup`` a record of a challenge-0 position holds (the challenge, default options)."""
    return {"challenge": puzzle_challenge("challenge-0").to_data()}


def table(tmp_path: Path, text: str, max_states: int = 10_000_000) -> tuple[Path, Solver]:
    challenge = puzzle_challenge("challenge-0")
    game = HiddenStrato(challenge, OPTIONS, parse_hidden(text))
    solver = Solver(game, max_states)
    solver.solve()
    path = tmp_path / "odds.tbl.gz"
    value_table(solver, path, {"setup": setup(), "deal": "test"})
    return path, solver


def rewrite(path: Path, rows: list[str], header: dict[str, object] | None = None) -> Path:
    head, _ = read_table(path)
    forged = path.with_name("forged.tbl.gz")
    with gzip.open(forged, "wt", encoding="utf-8") as out:
        out.write("\n".join([json.dumps(header or head)] + rows) + "\n")
    return forged


def rows_of(path: Path) -> list[str]:
    return read_table(path)[1]


def entries(rows: list[str]) -> list[tuple[int, str, Fraction, HiddenState]]:
    """Each row's index, kind, value and state (a policy row's move left out)."""
    out = []
    for i, line in enumerate(rows):
        kind, value, state = line.split(" ", 2)
        if kind == "policy":
            state = state.split(" ", 1)[1]
        out.append((i, kind, Fraction(value), parse_hidden(state)))
    return out


def uppers(rows: list[str]) -> dict[HiddenState, Fraction]:
    """Each listed state's upper bound as the checker reads it: a policy or frontier row 1, else its value."""
    return {state: Fraction(1) if kind in ("policy", "frontier") else value for _, kind, value, state in entries(rows)}


def test_the_setup_is_readable() -> None:
    challenge, options = setup_from_data(setup(), "test")
    assert challenge == puzzle_challenge("challenge-0") and options == OPTIONS


@pytest.mark.parametrize("text", POSITIONS)
def test_a_solved_table_certifies_the_exact_value(tmp_path: Path, text: str) -> None:
    path, solver = table(tmp_path, text)
    exact = solver.solve().value
    assert exact is not None and 0 < exact < 1
    verdict = verify(path)
    assert verdict.status == "certified", verdict.problem
    head, _ = read_table(path)
    assert Fraction(head["claim"]["upper_bound"]) == exact and head["claim"]["exact"] is True
    assert {c.claim for c in verdict.claims} == {"upper_bound", "lower_bound", "exact"}


def test_the_table_is_deterministic(tmp_path: Path) -> None:
    first, _ = table(tmp_path, POSITIONS[1])
    data = first.read_bytes()
    second, _ = table(tmp_path, POSITIONS[1])
    assert second.read_bytes() == data


def test_a_truncated_table_checks_as_an_upper_bound(tmp_path: Path) -> None:
    path, solver = table(tmp_path, POSITIONS[1], max_states=300)
    assert solver.solve().status == "unknown"
    head, rows = read_table(path)
    game = solver.game
    found = check_table(game, rows)
    assert found.valid, found.problem
    assert found.frontier > 0 and found.value is not None and found.value >= Fraction(13, 15)
    verdict = verify(path)
    assert verdict.status in ("certified", "invalid")
    assert any(c.claim == "upper_bound" and c.status == "certified" for c in verdict.claims)


def refused(path: Path) -> str:
    verdict = verify(path)
    assert verdict.status == "invalid", verdict.claims
    return verdict.problem


def test_a_wrong_value_is_refused(tmp_path: Path) -> None:
    path, _ = table(tmp_path, POSITIONS[1])
    rows = rows_of(path)
    for i, kind, value, _ in entries(rows):
        if kind == "value" and 0 < value < 1 and i > 0:
            rows[i] = f"value {value - Fraction(1, 100)} {rows[i].split(' ', 2)[2]}"
            break
    else:
        raise AssertionError("no interior value to forge")
    assert "line" in refused(rewrite(path, rows))


def test_a_state_listed_twice_or_written_otherwise_is_refused(tmp_path: Path) -> None:
    """A state is one row, in the notation ``format_hidden`` writes: the same state again is refused, and a
    reached state written with other spacing is not found (the checker looks states up by that text)."""
    path, _ = table(tmp_path, POSITIONS[1])
    rows = rows_of(path)
    i = next(i for i, kind, _, _ in entries(rows) if kind == "value" and i > 0)
    assert "listed twice" in refused(rewrite(path, rows + [rows[i]]))
    kind, value, state = rows[i].split(" ", 2)
    rows[i] = f"{kind} {value} {state.replace(' ', '  ', 1)}"
    assert "not in the table" in refused(rewrite(path, rows))


def test_a_missing_state_is_refused(tmp_path: Path) -> None:
    path, _ = table(tmp_path, POSITIONS[1])
    rows = rows_of(path)
    missing = next(i for i, kind, _, _ in entries(rows) if kind == "value" and i > 0)
    del rows[missing]
    assert "not in the table" in refused(rewrite(path, rows))


@pytest.mark.parametrize(("row", "problem"), [
    ("frontier 1 RW(RW)RX RRW {RW} 1 - play", "unknown weather letter 'X'"),
    ("frontier 1 RW(RW)RW RRW RW 1 - play", "multiset in braces"),
    ("frontier 1 RW(RW)RW RRW {RW} 1 - draw 1", "only ongoing solo play, reveal and target states"),
    ("frontier 1 RW(RW)RW RRW {RW} 1 - play won", "only ongoing solo play, reveal and target states"),
    ("frontier 1 RW(RW)RW R,W {RW} 1 - play", "only ongoing solo play, reveal and target states"),
    ("policy 0 W1L RW(RW)RW - {RW} 1 - reveal 1L", "a reveal state is chance: it has no policy move"),
])
def test_a_row_that_is_not_a_listed_state_is_refused_even_where_nothing_reaches_it(
        tmp_path: Path, row: str, problem: str) -> None:
    """The walk reads only the rows it reaches (their states are the rules' own); every other row's state is
    read after it, and one that is not in the notation, or not a state a table lists, is refused."""
    path, _ = table(tmp_path, POSITIONS[1])
    rows = rows_of(path)
    assert verify(rewrite(path, rows)).status == "certified"
    message = refused(rewrite(path, rows + [row]))
    assert f"line {len(rows) + 2}: " in message and problem in message
    # a table without its start still names the row, not only the start that is missing
    assert problem in refused(rewrite(path, rows[1:] + [row]))


def test_a_table_of_a_game_of_two_players_is_refused(tmp_path: Path) -> None:
    path, _ = table(tmp_path, POSITIONS[1])
    game = HiddenStrato(puzzle_challenge("challenge-0"), OPTIONS, parse_hidden("RRRW(RW)WRWWW RRR,RW {RRWW} 1 W play"))
    found = check_table(game, rows_of(path))
    assert not found.valid and "solo play, not 2 hands" in found.problem


def test_a_policy_row_at_a_reached_reveal_state_is_refused(tmp_path: Path) -> None:
    path, _ = table(tmp_path, POSITIONS[1])
    rows = rows_of(path)
    i = next(i for i, kind, _, state in entries(rows) if kind == "value" and state.phase == REVEAL)
    kind, value, state = rows[i].split(" ", 2)
    rows[i] = f"policy {value} W1L {state}"
    assert "a reveal state is chance: it has no policy move" in refused(rewrite(path, rows))


@pytest.mark.parametrize(("value", "problem"), [("1/0", "denominator is 0"), ("x", "is not a value N/D in digits"),
                                                ("-1", "is not a value N/D in digits"),
                                                ("0.5", "is not a value N/D in digits")])
def test_a_value_that_is_not_a_fraction_in_the_pile_orders_is_refused(tmp_path: Path, value: str, problem: str
                                                                      ) -> None:
    path, _ = table(tmp_path, POSITIONS[1])
    rows = rows_of(path)
    i = next(i for i, kind, _, _ in entries(rows) if kind == "value" and i > 0)
    rows[i] = f"value {value} {rows[i].split(' ', 2)[2]}"
    assert problem in refused(rewrite(path, rows))


def below(game: HiddenStrato, state: HiddenState, values: dict[HiddenState, Fraction], probability: bool) -> Fraction:
    """A faulty writer's value below a move: as the rules, or (``probability``) every card equally likely."""
    if state.status != ONGOING:
        return Fraction(1 if state.status == 1 else 0)
    if state in values:
        return values[state]
    outcomes = game.chance_outcomes(state)
    if probability:
        outcomes = [(card, Fraction(1, len(outcomes))) for card, _ in outcomes]
    return sum((p * below(game, game.apply(state, c), values, probability) for c, p in outcomes), Fraction(0))


def forge(tmp_path: Path, how: str) -> str:
    path, solver = table(tmp_path, POSITIONS[1])
    game = solver.game
    rows = rows_of(path)
    listed = entries(rows)
    values = uppers(rows)
    for i, kind, value, state in listed:
        if kind != "value":
            continue
        if how == "move":  # the decision valued without its best move
            if state.phase == REVEAL:
                continue
            options = sorted((below(game, after, values, False) for _, after in game.plays(state)), reverse=True)
            if len(options) < 2 or options[0] == options[1]:
                continue
            forged = options[1]
        else:  # every card of a draw or reveal equally likely
            plays = [after for _, after in game.plays(state)] if state.phase != REVEAL else [state]
            forged = max(below(game, after, values, True) for after in plays)
            if forged == value:
                continue
        rows[i] = f"value {forged} {rows[i].split(' ', 2)[2]}"
        return refused(rewrite(path, rows))
    raise AssertionError(f"no row to forge by {how}")


def test_a_move_left_out_is_refused(tmp_path: Path) -> None:
    assert "the rules give" in forge(tmp_path, "move")


def test_a_changed_probability_is_refused(tmp_path: Path) -> None:
    problem = forge(tmp_path, "probability")
    assert "the rules give" in problem or "not a multiple" in problem, problem


def test_a_claim_above_the_table_is_refused(tmp_path: Path) -> None:
    path, _ = table(tmp_path, POSITIONS[0])
    head, rows = read_table(path)
    head["claim"] = {"upper_bound": "1/2", "exact": True}
    assert "worth 2/3" in refused(rewrite(path, rows, head))


def test_a_table_its_deadline_stops_is_not_written(tmp_path: Path) -> None:
    challenge = puzzle_challenge("challenge-0")
    solver = Solver(HiddenStrato(challenge, OPTIONS, parse_hidden(POSITIONS[1])), 10_000_000)
    solver.solve()
    path = tmp_path / "stopped.tbl.gz"
    asked: list[bool] = []

    def stop() -> bool:  # the deadline passes at the second look
        asked.append(True)
        return len(asked) > 1

    with pytest.raises(TableStopped):
        write_table(solver, path, {"setup": setup(), "deal": "test"}, stop=stop)
    assert len(asked) == 2
    assert list(tmp_path.iterdir()) == []  # neither the table nor a temporary file


# -- policy rows: one move a decision ----------------------------------------------------------------
def deal_table(tmp_path: Path) -> tuple[Path, HiddenStrato]:
    """Challenge 0's solo-1, won with certainty: its table is the winning policy (policy rows only)."""
    challenge = puzzle_challenge("challenge-0")
    game = HiddenStrato(challenge, OPTIONS, seeded_deal(challenge, 1, 1))
    found = odds_interval(game)
    assert found.status == "exact" and found.lower == 1 and found.lower_from == "search"
    path = tmp_path / "deal.tbl.gz"
    write_table(found.solver, path, {"setup": setup(), "deal": "solo-1"})
    return path, game


def test_a_certain_win_is_certified_by_its_policy_alone(tmp_path: Path) -> None:
    path, _ = deal_table(tmp_path)
    head, rows = read_table(path)
    kinds = {line.split(" ", 1)[0] for line in rows}
    assert "policy" in kinds and "frontier" not in kinds and len(rows) < 1000
    verdict = verify(path)
    assert verdict.status == "certified", verdict.problem
    assert {c.claim for c in verdict.claims} == {"upper_bound", "lower_bound", "exact"}
    assert head["claim"] == {"upper_bound": "1", "lower_bound": "1", "exact": True}


def policy_rows(rows: list[str]) -> list[int]:
    return [i for i, line in enumerate(rows) if line.startswith("policy ")]


def test_a_policy_move_worse_than_claimed_is_refused(tmp_path: Path) -> None:
    path, game = deal_table(tmp_path)
    rows = rows_of(path)
    for i in policy_rows(rows):
        _, value, move, text = rows[i].split(" ", 3)
        state = parse_hidden(text)
        for other, after in game.plays(state):
            shown = game.format_move(state, other)
            if shown != move and after.status != 1 and state.phase == PLAY:
                rows[i] = f"policy {value} {shown} {text}"
                problem = refused(rewrite(path, rows))
                assert "not in the table" in problem or "gives" in problem
                return
    raise AssertionError("no policy row with another move")


def test_an_illegal_policy_move_is_refused(tmp_path: Path) -> None:
    path, _ = deal_table(tmp_path)
    rows = rows_of(path)
    i = policy_rows(rows)[0]
    _, value, _, text = rows[i].split(" ", 3)
    rows[i] = f"policy {value} S1L {text}"  # no sun in a challenge-0 hand
    assert "not legal" in refused(rewrite(path, rows))


def test_a_missing_draw_below_a_policy_is_refused(tmp_path: Path) -> None:
    path, _ = deal_table(tmp_path)
    rows = rows_of(path)
    del rows[policy_rows(rows)[-1]]
    assert "not in the table" in refused(rewrite(path, rows))


def test_a_policy_value_changed_is_refused(tmp_path: Path) -> None:
    path, _ = deal_table(tmp_path)
    rows = rows_of(path)
    i = policy_rows(rows)[1]
    _, _, move, text = rows[i].split(" ", 3)
    rows[i] = f"policy 1/2 {move} {text}"
    assert "gives" in refused(rewrite(path, rows))


def test_a_lower_bound_above_the_policy_is_refused(tmp_path: Path) -> None:
    path, _ = table(tmp_path, POSITIONS[0])
    head, rows = read_table(path)
    head["claim"] = {"upper_bound": "2/3", "lower_bound": "3/4", "exact": False}
    verdict = verify(rewrite(path, rows, head))
    assert verdict.status == "invalid"
    assert any(c.claim == "lower_bound" and c.status == "invalid" for c in verdict.claims)


def test_policy_rows_are_refused_in_a_version_1_table(tmp_path: Path) -> None:
    path, _ = deal_table(tmp_path)
    head, rows = read_table(path)
    head["format"] = "stratagem/strato-odds-table@1"
    assert "KIND" in refused(rewrite(path, rows, head))


# -- plans: a policy row of several moves, played whatever is drawn between them (@3) -------------------------
def plan_rows(rows: list[str]) -> list[int]:
    return [i for i in policy_rows(rows) if ";" in rows[i].split(" ", 3)[2]]


def test_a_certain_win_is_certified_with_plans_of_the_hand(tmp_path: Path) -> None:
    """Challenge 0's solo-1: the search ends its winning lines at plans of the hand (two plays that win
    whatever is drawn between them), and ``verify`` certifies them by playing every draw."""
    path, _ = deal_table(tmp_path)
    head, rows = read_table(path)
    assert head["format"] == "stratagem/strato-odds-table@4" and plan_rows(rows)
    assert verify(path).status == "certified"


def _second_moves(game: HiddenStrato, row: str) -> tuple[str, str, list[tuple[str, bool]]]:
    """A plan row's first move, its state and, at the decision after its first move (the pile's first card
    drawn), every play of a card the hand held before the draw, with whether it wins there."""
    _, _, plan, text = row.split(" ", 3)
    state = parse_hidden(text)
    first = plan.split(";")[0]
    here = game.apply(state, game.parse_move(state, first))
    while game.chance_outcomes(here):
        here = game.apply(here, here.pile[0])
    kept = state.hands[0].replace(first[0], "", 1)  # the plan's cards: any other came with the draw
    return first, text, [(game.format_move(here, move), child.status == 1) for move, child in game.plays(here)
                         if move.card in kept and not move.redraw]


def test_a_plan_that_does_not_win_is_refused(tmp_path: Path) -> None:
    path, game = deal_table(tmp_path)
    rows = rows_of(path)
    for i in plan_rows(rows):
        first, text, seconds = _second_moves(game, rows[i])
        losing = [move for move, wins in seconds if not wins]
        if losing:
            rows[i] = f"policy 1 {first};{losing[0]} {text}"
            problem = refused(rewrite(path, rows))
            assert "gives" in problem or "not in the table" in problem, problem
            return
    raise AssertionError("no plan row with a second move that does not win")


def test_a_plan_cut_short_too_long_or_with_an_illegal_move_is_refused(tmp_path: Path) -> None:
    path, _ = deal_table(tmp_path)
    rows = rows_of(path)
    i = plan_rows(rows)[0]
    _, _, plan, text = rows[i].split(" ", 3)
    rows[i] = f"policy 1 {plan.split(';')[0]} {text}"  # the first move alone: what it leads to is not listed
    assert "not in the table" in refused(rewrite(path, rows))
    rows[i] = f"policy 1 {plan.split(';')[0]};S1L {text}"  # no sun in a challenge-0 hand
    assert "not legal" in refused(rewrite(path, rows))
    rows[i] = f"policy 1 {plan};R1L {text}"  # a move after the plan has won
    assert "over before the plan's R1L" in refused(rewrite(path, rows))


def test_plans_are_refused_in_a_version_2_table(tmp_path: Path) -> None:
    path, _ = deal_table(tmp_path)
    head, rows = read_table(path)
    head["format"] = "stratagem/strato-odds-table@2"
    assert "needs format stratagem/strato-odds-table@3 or later" in refused(rewrite(path, rows, head))


# -- cut draws (@4): a policy row gives up after some draws, and lists nothing there -------------------
class CutSearch(NamedTuple):
    """:func:`cut_search`'s search and the table written from it."""

    found: OddsInterval
    path: Path
    summary: TableSummary
    game: HiddenStrato


#: The header of :func:`cut_search`'s table.
SOLO_3 = {"setup": {"challenge": puzzle_challenge("challenge-1").to_data()}, "deal": "solo-3"}


@pytest.fixture(scope="module")
def cut_search(tmp_path_factory: pytest.TempPathFactory) -> CutSearch:
    """Challenge 1's solo-3, the guided policy's passes stopped by a state cap (10,000; it stops the 4^-8
    pass, which would keep 10,483 states): a policy tree that gives up at the states its cut counts as
    lost, written with the stopped pass's finished subtrees first and with cut draws (one card after a
    play, three after a Redraw's target). One search for the module's tests of it (1.4 CPU s, search and table; a cap of
    30,000 took 5 s, and each xdist worker that runs one of these tests makes it)."""
    challenge = puzzle_challenge("challenge-1")
    game = HiddenStrato(challenge, OPTIONS, seeded_deal(challenge, 3, 1))
    found = odds_interval(game, max_states=10_000)
    assert found.status == "interval" and found.lower > 0 and found.lower_from == "guided policy"
    path = tmp_path_factory.mktemp("cut") / "cut.tbl.gz"
    summary = write_table(found.solver, path, SOLO_3, policy=policy_sources(found))
    return CutSearch(found, path, summary, game)


@pytest.fixture(scope="module")
def cut_table(cut_search: CutSearch) -> tuple[Path, HiddenStrato]:
    """:func:`cut_search`'s table and game."""
    return cut_search.path, cut_search.game


def cut_draws(row: str) -> list[str]:
    """A policy row's cut draws (none: [])."""
    move = row.split(" ", 3)[2] if row.startswith("policy ") else ""
    return move.partition("~")[2].split(",") if "~" in move else []


def with_cuts(row: str, cuts: list[str]) -> str:
    """``row`` (a policy row) with its cut draws replaced by ``cuts``."""
    kind, value, move, text = row.split(" ", 3)
    move = move.partition("~")[0]
    return f"{kind} {value} {move}{'~' + ','.join(cuts) if cuts else ''} {text}"


def as_frontier_rows(game: HiddenStrato, rows: list[str]) -> list[str]:
    """The same table without cut draws (``@3``): each state a cut draw reaches listed as a frontier row."""
    listed = {row.split(" ", 3 if row.startswith("policy ") else 2)[-1] for row in rows}
    out = []
    for row in rows:
        cuts = cut_draws(row)
        if cuts:
            _, _, move, text = row.split(" ", 3)
            after = game.resolve(parse_hidden(text), parse_play(move.partition("~")[0]))[1]
            for cut in cuts:
                reached = after
                for card in cut:
                    reached = game.apply(reached, card)
                assert reached.phase == PLAY
                if format_hidden(reached) not in listed:
                    listed.add(format_hidden(reached))
                    out.append(f"frontier 1 {format_hidden(reached)}")
            row = with_cuts(row, [])
        out.append(row)
    return out


def test_cut_draws_certify_what_frontier_rows_certified(cut_table: tuple[Path, HiddenStrato]) -> None:
    """A cut draw counts as lost exactly as a frontier row there did: the same table with each cut draw's
    state listed as a frontier row instead (``@3``) checks to the same bounds, with more rows."""
    path, game = cut_table
    head, rows = read_table(path)
    named = [cut for row in rows for cut in cut_draws(row)]
    assert head["format"] == "stratagem/strato-odds-table@4" and head["cut"] == len(named) > 0
    assert {len(cut) for cut in named} == {1, 3}  # after plays, and after Redraws' targets
    found = check_table(game, rows)
    assert found.valid, found.problem
    assert found.cut == len(named) and found.lower == Fraction(head["claim"]["lower_bound"]) > 0
    frontier_rows = as_frontier_rows(game, rows)
    assert len(frontier_rows) > len(rows)
    before = check_table(game, frontier_rows, cuts=False)
    assert before.valid, before.problem
    assert (before.value, before.lower) == (found.value, found.lower)
    verdict = verify(path)
    assert verdict.status == "certified", verdict.claims
    assert {c.claim for c in verdict.claims} == {"upper_bound", "lower_bound"}


def first_cut_row(rows: list[str], size: int = 1) -> int:
    """A policy row worth more than 0 with cut draws of ``size`` cards."""
    return next(i for i, row in enumerate(rows) if cut_draws(row) and len(cut_draws(row)[0]) == size
                and row.split(" ", 2)[1] != "0")


def test_a_cut_draw_the_rules_do_not_draw_there_is_refused(cut_table: tuple[Path, HiddenStrato]) -> None:
    path, _ = cut_table
    rows = rows_of(path)
    i = first_cut_row(rows)
    for wrong in ("C", "RW", ""):  # no Cloud in challenge 1's deck; one card is drawn after a play
        forged = list(rows)
        forged[i] = with_cuts(rows[i], [*cut_draws(rows[i]), wrong])
        assert "is not a multiset of cards the rules draw" in refused(rewrite(path, forged))
    forged = list(rows)
    forged[i] = with_cuts(rows[i], [*cut_draws(rows[i]), cut_draws(rows[i])[0]])
    assert "named twice" in refused(rewrite(path, forged))


def test_a_draw_the_policy_wins_from_cut_is_refused(cut_table: tuple[Path, HiddenStrato]) -> None:
    """Cutting every draw a policy row follows counts them all as lost: its value is then 0, not what the
    row claims."""
    path, _ = cut_table
    rows = rows_of(path)
    i = first_cut_row(rows)
    pile = parse_hidden(rows[i].split(" ", 3)[3]).pile
    forged = list(rows)
    forged[i] = with_cuts(rows[i], sorted(set(pile)))
    assert "the policy's move gives 0 by the rules" in refused(rewrite(path, forged))


def test_a_cut_draw_left_out_is_a_missing_state(cut_table: tuple[Path, HiddenStrato]) -> None:
    """Without its cut draws the row follows those draws too, and the states they reach are not listed."""
    path, _ = cut_table
    rows = rows_of(path)
    i = first_cut_row(rows, size=3)
    forged = list(rows)
    forged[i] = with_cuts(rows[i], [])
    assert "not in the table" in refused(rewrite(path, forged))


def test_a_cut_after_a_plan_or_a_redraws_announcement_is_refused(tmp_path: Path,
                                                                  cut_table: tuple[Path, HiddenStrato]) -> None:
    """Nothing is drawn after a plan (it wins) or an announcement (a card is revealed, then targeted)."""
    path, _ = deal_table(tmp_path)
    rows = rows_of(path)
    i = plan_rows(rows)[0]
    rows[i] = with_cuts(rows[i], ["R"])
    assert "is not a multiset of cards the rules draw" in refused(rewrite(path, rows))
    path, _ = cut_table
    rows = rows_of(path)
    i = next(i for i, row in enumerate(rows) if row.startswith("policy ") and row.split(" ")[2].startswith("!")
             and ":" not in row.split(" ")[2])
    rows[i] = with_cuts(rows[i], ["R"])
    assert "is not a multiset of cards the rules draw" in refused(rewrite(path, rows))


def test_cut_draws_are_refused_in_a_version_3_table(cut_table: tuple[Path, HiddenStrato]) -> None:
    path, _ = cut_table
    head, rows = read_table(path)
    head["format"] = "stratagem/strato-odds-table@3"
    assert "need format stratagem/strato-odds-table@4" in refused(rewrite(path, rows, head))


def test_an_interval_where_the_search_stops_is_certified(tmp_path: Path) -> None:
    """A state cap stops the exact search of a 13/15 position: the interval still holds the value, and the
    table certifies both ends (the lower one by the policy's evaluation)."""
    game = HiddenStrato(puzzle_challenge("challenge-0"), OPTIONS, parse_hidden(POSITIONS[1]))
    found = odds_interval(game, max_states=60)
    assert found.lower <= Fraction(13, 15) <= found.upper
    path = tmp_path / "interval.tbl.gz"
    summary = write_table(found.solver, path, {"setup": setup(), "deal": "test"}, policy=found.policy)
    assert summary.lower <= Fraction(13, 15) <= summary.upper
    verdict = verify(path)
    assert all(c.status == "certified" for c in verdict.claims if c.claim != "exact"), verdict.claims



class _ExpiresAfter(Deadline):
    """A deadline that passes at its ``calls``-th look (a check's clock, without waiting on a real one)."""

    def __init__(self, calls: int) -> None:
        super().__init__(None)
        self.calls = calls

    def expired(self) -> bool:
        self.calls -= 1
        return self.calls < 0


def test_a_check_its_deadline_stops_says_where_and_certifies_nothing(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(oddstable, "CLOCK_ROWS", 1)
    path, solver = table(tmp_path, POSITIONS[1])
    rows = rows_of(path)
    assert len(rows) > 3
    reading = check_table(solver.game, rows, deadline=_ExpiresAfter(1))
    assert not reading.valid and not reading.problem
    assert reading.stopped == "after 2 rows were read, before any was checked"
    walking = check_table(solver.game, rows, deadline=_ExpiresAfter(len(rows) + 2))
    assert not walking.valid and not walking.problem
    assert walking.stopped == f"after 3 of the {len(rows):,} rows were checked"
    verdict = verify(path, time_limit=1e-9)
    assert verdict.status == "unknown"
    assert {(c.claim, c.status) for c in verdict.claims} == {
        ("upper_bound", "unknown"), ("lower_bound", "unknown"), ("exact", "unknown")}
    assert all("the time limit" in c.reason and "ran out after" in c.reason for c in verdict.claims)


def test_a_check_reports_its_progress(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(oddstable, "CLOCK_ROWS", 1)
    path, solver = table(tmp_path, POSITIONS[1])
    rows = rows_of(path)
    seen: list[tuple[int, int]] = []
    found = check_table(solver.game, rows, progress=lambda read, checked: seen.append((read, checked)))
    assert found.valid, found.problem
    assert seen == [(n, 0) for n in range(1, len(rows) + 1)] + [(len(rows), n) for n in range(1, found.states + 1)]



def test_the_subtrees_a_stopped_pass_finished_raise_the_certified_lower_bound(tmp_path: Path,
                                                                              cut_search: CutSearch) -> None:
    """The pass a limit stops has finished some subtrees at its finer cut; a table written from them
    first, the finest finished pass for the rest (:func:`cut_search`'s), certifies at least that pass's
    value (the policy's moves do not depend on the cut), and ``verify`` recomputes it from the rows."""
    found, both = cut_search.found, cut_search.summary
    assert found.unfinished is not None and found.policy is not None
    assert policy_sources(found) == (found.unfinished, found.policy)  # the cut table is written from both
    alone = write_table(found.solver, tmp_path / "alone.gz", SOLO_3, policy=found.policy)
    assert alone.lower == found.lower
    assert both.lower > alone.lower and both.states > alone.states
    verdict = verify(cut_search.path)
    assert verdict.status == "certified", verdict.claims



def test_a_pass_drained_at_the_coarser_cut_is_certified_by_its_own_table(tmp_path: Path) -> None:
    """``HiddenSolo.drain``: a pass that raises its cut to the coarser pass's part-way (here at its first
    progress call, 4,096 visits in) still finishes, with a value between the two passes' (the subtrees
    it finished at its finer cut keep their values, the rest is valued at the coarser cut); the table of
    that one search certifies exactly that value, recomputed from the rows by ``verify``."""
    challenge = puzzle_challenge("challenge-1")
    game = HiddenStrato(challenge, OPTIONS, seeded_deal(challenge, 3, 1))
    values, solvers = [], []
    for k, drain in ((9, False), (10, False), (10, True)):
        solver = Solver(game)
        solver.guide(like=solvers[0] if solvers else None)
        top = solver.weight(solver.root.pile)
        solver.kernel.set_cutoff(int(4.0 ** -k * top))
        if drain:  # at the first look at the clock
            solver.kernel.set_progress(lambda kept, search=solver.kernel, top=top: search.drain(int(4.0 ** -9 * top)))
        got = solver.solve()
        assert got.value is not None and solver.kernel.drained() == drain
        values.append(got.value)
        solvers.append(solver)
    coarse, fine, drained = values
    assert coarse < drained < fine, values
    header = {"setup": {"challenge": challenge.to_data()}, "deal": "solo-3"}
    summary = write_table(Solver(game), tmp_path / "drained.gz", header, policy=solvers[2])  # no optimum's search
    assert summary.lower == drained
    verdict = verify(tmp_path / "drained.gz")
    assert verdict.status == "certified", verdict.claims


def test_the_policys_move_depends_on_the_state_alone(cut_table: tuple[Path, HiddenStrato]) -> None:
    """``Solver.policy_move`` searches one level (everything after the move cut) and must play the move
    the policy's deep evaluation kept, wherever a table lists the state as a policy row: the move never
    depends on the values below it (which is also why a stopped pass's subtrees may join a table)."""
    import random

    path, game = cut_table
    moves = {state: move.partition("~")[0].split(";")[0] for kind, _, move, state in
             (row.split(" ", 3) for row in rows_of(path) if row.startswith("policy "))}
    solver = Solver(game)
    solver.guide()
    compared = 0
    for k in range(6):
        state = game.initial_state()
        order = list(state.pile)
        random.Random(k).shuffle(order)
        while state.status == ONGOING:
            if state.phase in (DRAW, REVEAL):
                state = game.apply(state, order.pop(0))
                continue
            move = solver.policy_move(state)
            assert move is not None
            text = format_hidden(state)
            if text in moves:
                assert game.format_move(state, move) == moves[text], text
                compared += 1
            state = game.resolve(state, move)[1]
    assert compared >= 20, compared


# -- floor rows (the supply floor: a weather's goal cards unable to reach the goal rows) -----------------------

#: A level-2 position whose table holds floor rows that only the supply part of the floor proves (their turn
#: bound is within the cards left): the goal's cards of some weather are no longer all on the table or in hand.
SUPPLY = "CSRCR(RW)WWWRR/SSS(SC)CCC CCS {} 1 S play"


def level_2_table(tmp_path: Path) -> tuple[Path, HiddenStrato]:
    challenge = puzzle_challenge("level-2-example")
    game = HiddenStrato(challenge, OPTIONS, parse_hidden(SUPPLY))
    solver = Solver(game)
    assert solver.solve().status == "solved"
    path = tmp_path / "odds.tbl.gz"
    value_table(solver, path, {"setup": {"challenge": challenge.to_data()}, "deal": "test"})
    return path, game


def test_supply_floor_rows_are_certified(tmp_path: Path) -> None:
    path, game = level_2_table(tmp_path)
    floors = [state for _, kind, _, state in entries(rows_of(path)) if kind == "floor"]
    supply_only = [s for s in floors if turns_needed(game.challenge, s.rows) <= len(s.hands[0]) + len(s.pile)]
    assert supply_only and all(floor_holds(game.challenge, s.rows, s.hands[0], s.pile) for s in floors)
    verdict = verify(path)
    assert verdict.status == "certified", verdict.problem
    assert {c.claim for c in verdict.claims if c.status == "certified"} >= {"upper_bound", "exact"}


def test_a_floor_value_changed_is_refused(tmp_path: Path) -> None:
    path, _ = level_2_table(tmp_path)
    rows = rows_of(path)
    i = next(i for i, kind, _, _ in entries(rows) if kind == "floor")
    rows[i] = f"floor 1 {rows[i].split(' ', 2)[2]}"
    assert "a floor is worth 0, not 1" in refused(rewrite(path, rows))


def test_a_floor_row_where_the_floor_does_not_hold_is_refused(tmp_path: Path) -> None:
    """A lost state (value 0) that the floor does not prove, marked as a floor: refused, though its value is 0."""
    path, game = level_2_table(tmp_path)
    rows = rows_of(path)
    for i, kind, value, state in entries(rows):
        if kind == "value" and value == 0 and state.phase == PLAY and not floor_holds(
                game.challenge, state.rows, state.hands[0], state.pile):
            rows[i] = f"floor 0 {rows[i].split(' ', 2)[2]}"
            break
    else:
        raise AssertionError("no lost state outside the floor to forge")
    assert "not a floor" in refused(rewrite(path, rows))


def _depth() -> int:
    """The frames on the interpreter's stack here."""
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1  # type: ignore[assignment]
    return depth


def test_the_checks_depth_does_not_grow_with_the_games(cut_search: CutSearch) -> None:
    """The check keeps its own stack (its walk by Python recursion, two or three calls a turn, made the
    interpreter map and unmap a chunk of frames at every change of depth across a chunk's edge: a third
    of a long check's CPU). A challenge-1 table many turns deep (:func:`cut_search`'s) is checked a few
    calls deep below where the check starts, whatever its depth (the rules engine's ``apply`` is where the
    depth is noted)."""
    challenge, summary = cut_search.game.challenge, cut_search.summary
    game = HiddenStrato(challenge, OPTIONS, seeded_deal(challenge, 3, 1))  # its own: its apply is replaced
    rows = rows_of(cut_search.path)
    left = min(len(state.pile) for _, _, _, state in entries(rows))
    assert len(game.initial_state().pile) - left >= 12  # twelve cards drawn or more down the deepest line
    start, deepest, apply = _depth(), [0], game.apply

    def apply_noting_depth(state: HiddenState, move: object) -> HiddenState:
        deepest[0] = max(deepest[0], _depth() - start)
        return apply(state, move)  # type: ignore[arg-type]

    game.apply = apply_noting_depth  # type: ignore[method-assign]
    checked = check_table(game, rows)
    assert checked.valid, checked.problem
    assert checked.lower == summary.lower and checked.value == 1
    assert deepest[0] <= 16, deepest  # here 4; the walk by recursion went 42 frames deep
