"""QA 66: designer mode's par by SAT (``StratoCNF(designer=True)``, :mod:`stratagem.models.strato.designer_sat`).

``reach --designer`` on the level-2 example's layouts said only "at least 9 turns": A* held millions of layouts
without raising its bound. The SAT encoding with the hands and the pile removed (each turn any weather of the
challenge) decides them (par 10, 10 and 11). Checked here: its par equals the breadth-first designer distance on
seeded small layouts of Fog, Storm and Cloud challenges, with and without the options; its lines replay on
``StratoDesigner``; challenge 1's first layout has par 7 (A*'s); and its failure paths.

QA 67 extends it: with ``prove`` the par's certificate is the plain designer formula of the horizon below
(``strato-designer-sat@4``), refuted by a DRUP proof stratagem's checker accepts; a run that refutes every
horizon it asks proves nothing, so it spends no time on a certificate of its last.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from pysat.solvers import Solver

from stratagem.core.deadline import Deadline
from stratagem.core.progress import no_progress
from stratagem.models.strato import reachability
from stratagem.models.strato.designer import StratoDesigner
from stratagem.models.strato.designer_sat import (
    DESIGNER_ENCODING,
    DesignerCNF,
    designer_game,
    designer_par_sat,
    plain_designer_formula,
)
from stratagem.models.strato.encodings.sat import EncodingError, StratoCNF
from stratagem.models.strato.rules.challenge import Options
from stratagem.models.strato.rules.position import parse_rows
from stratagem.models.strato.rules.puzzle import load_puzzle
from stratagem.solvers.drup import check_drup_data
from stratagem.solvers.satplan import SatPlanResult
from stratagem.solvers.search import SearchIncomplete, SearchResult, SearchStats, distance

from .support import PUZZLES, make_challenge

CHALLENGES = [
    # weathers, tornado pairs, limit, left goal, right goal, rows that must meet it
    ("RWST", ("RW", "ST"), 3, "<", ">", 2),
    ("RFWT", ("RW", "FT"), 3, "<", ">", 2),
    ("RWFC", ("RW", "FC"), 3, "<", ">", 2),
    ("RWSC", ("RS", "WC"), 3, "<<", ">", 1),
]
OPTIONS = [Options(), Options(wind_crosses_tornado=True), Options(strict_effect=True)]


def _replays(layout: StratoDesigner, moves: tuple[Any, ...]) -> bool:
    state = layout.start()
    for move in moves:
        state = next(after for found, after in layout.successors(state) if found == move)
    return layout.is_goal(state)


def _challenge_options() -> list[Any]:
    """Every challenge under the plain rules; the options that change a move's outcomes on two of them in the
    default run (RFWT's and RWFC's under them, 1-1.7 s each, run with ``-m slow``)."""
    params = []
    for options, name in zip(OPTIONS, ["plain", "wind-crosses", "strict"], strict=True):
        for challenge in CHALLENGES:
            slow = name != "plain" and challenge[0] in ("RFWT", "RWFC")
            params.append(pytest.param(*challenge, options, id=f"{name}-{challenge[0]}",
                                       marks=[pytest.mark.slow] if slow else []))
    return params


@pytest.mark.parametrize(("weathers", "pairs", "limit", "left", "right", "required", "options"), _challenge_options())
def test_the_sat_par_is_the_breadth_first_distance(weathers: str, pairs: tuple[str, ...], limit: int, left: str,
                                                   right: str, required: int, options: Options) -> None:
    """Layouts on seeded walks from the empty one: SAT's par (from horizon 0) is the designer distance, and
    where no win exists within its horizons, it refutes every one of them."""
    challenge = make_challenge(weathers=weathers, pairs=pairs, limit=limit, left=left, right=right,
                               rows_required=required)
    empty = StratoDesigner(challenge, options, parse_rows("/".join(f"({pair})" for pair in pairs)))
    rng = random.Random(f"qa66 {weathers} {options}")
    checked = 0
    for _ in range(4):
        state = empty.start()
        for _ in range(rng.randrange(0, 6)):
            following = [after for _, after in empty.successors(state)]
            state = rng.choice(following) if following else state
        layout = StratoDesigner(challenge, options, state.rows, state.last)
        try:
            true = distance(layout, layout.start(), max_nodes=20_000)
        except SearchIncomplete:
            continue
        horizons = (true if true is not None else 3) + 3
        found = designer_par_sat(layout, first=0, horizons=horizons, prove=True)
        if true is None:
            assert (found.status, found.moves, found.stopped_by) == ("unknown", None, "horizons")
            assert found.lower_bound == horizons
            assert found.refutation is None and all(run.proof_lines == 0 for run in found.runs)
        else:
            assert found.status == "solved" and found.moves is not None
            assert len(found.moves) == true, layout.format_state(layout.start())
            assert _replays(layout, found.moves)
            _assert_certified(layout, found)
        checked += 1
    assert checked >= 3


def _assert_certified(layout: StratoDesigner, found: SatPlanResult[Any]) -> None:
    """``found``'s certificate (``prove``): a par of 0 needs none; else the plain designer formula of the
    horizon below the par, whose DRUP refutation stratagem's checker accepts."""
    assert found.moves is not None
    par = len(found.moves)
    if par == 0:
        assert found.refutation is None
        return
    ref = found.refutation
    assert ref is not None and ref.horizon == par - 1
    plain = plain_designer_formula(designer_game(layout), par - 1)
    assert (ref.clauses, ref.num_vars) == (plain.clauses, plain.num_vars)
    assert ref.comments[0] == f"{DESIGNER_ENCODING}: Strato designer mode, a designer line within " \
                              f"{par - 1} turn{'s' if par != 2 else ''}"
    verdict, _ = check_drup_data(ref.clauses, "".join(f"{step}\n" for step in ref.proof).encode(), "proof")
    assert verdict.valid, verdict.reason


def test_a_layout_that_meets_the_goal_has_par_zero() -> None:
    challenge = make_challenge(limit=3, left="R", right="W")
    layout = StratoDesigner(challenge, Options(), parse_rows("R(RW)W"))
    found = designer_par_sat(layout, first=0)
    assert found.status == "solved" and found.moves == ()


def test_challenge_1s_first_layout_has_par_7() -> None:
    puzzle = load_puzzle(PUZZLES / "challenge-1.toml")
    start = puzzle.game(puzzle.deals[0]).initial_state()
    layout = StratoDesigner(puzzle.challenge, puzzle.options, start.rows, start.last)
    found = designer_par_sat(layout, first=6)
    assert found.status == "solved" and found.moves is not None and len(found.moves) == 7
    assert [run.satisfiable for run in found.runs] == [False, True]
    assert _replays(layout, found.moves) and found.refutation is None
    proven = designer_par_sat(layout, first=6, prove=True)  # the certificate: horizon 6 again, from scratch
    assert [run.satisfiable for run in proven.runs] == [False, True, False] and proven.moves == found.moves
    _assert_certified(layout, proven)


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "par"), [(1, 10), (2, 10), (3, 11)])
def test_the_level_2_examples_layouts_have_a_par(seed: int, par: int) -> None:
    """The question A* left at "at least 9": 30-47 CPU s a layout (load 4-6), its line replayed."""
    puzzle = load_puzzle(PUZZLES / "level-2-example.toml")
    start = puzzle.game(puzzle.deals[seed - 1]).initial_state()  # solo-1, solo-2, solo-3
    layout = StratoDesigner(puzzle.challenge, puzzle.options, start.rows, start.last)
    found = designer_par_sat(layout, first=layout.heuristic(layout.start()) - 1)
    assert found.status == "solved" and found.moves is not None and len(found.moves) == par
    assert _replays(layout, found.moves)


def _solved_model(layout: StratoDesigner, horizon: int) -> list[int]:
    formula = DesignerCNF(designer_game(layout), horizon)
    with Solver(name="cadical195", bootstrap_with=formula.clauses) as solver:
        assert solver.solve()
        return list(solver.get_model() or [])


def test_a_model_of_another_layout_is_refused() -> None:
    """A designer model is matched against designer mode's successors: another layout's model (the same
    challenge, so the same variables) reaches rows this layout cannot, and is an error, never a line."""
    challenge = make_challenge(limit=3, left="RR", right="W")
    model = _solved_model(StratoDesigner(challenge, Options(), parse_rows("R(RW)")), 2)
    other = StratoDesigner(challenge, Options(), parse_rows("W(RW)"))
    with pytest.raises(EncodingError, match="designer mode cannot reach"):
        DesignerCNF(designer_game(other), 2).decode(model)


def test_the_plain_decoder_refuses_a_designer_formula() -> None:
    challenge = make_challenge(limit=3, left="RR", right="W")
    layout = StratoDesigner(challenge, Options(), parse_rows("R(RW)"))
    formula = StratoCNF(designer_game(layout), 2, designer=True)
    with pytest.raises(EncodingError, match="decoded against designer mode"):
        formula.decode(_solved_model(layout, 2))


def test_a_sat_line_under_astars_bound_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """SAT's line replays on designer mode, so a line shorter than A*'s admissible bound means the bound is
    wrong: an error, not an answer."""
    puzzle = load_puzzle(PUZZLES / "challenge-1.toml")
    start = puzzle.game(puzzle.deals[0]).initial_state()
    layout = StratoDesigner(puzzle.challenge, puzzle.options, start.rows, start.last)
    stopped: SearchResult[Any, Any] = SearchResult("astar", "unknown", None, 8, SearchStats(1, 1, 0.0, (1,)), "states")
    monkeypatch.setattr(reachability, "designer_par", lambda *args, **kwargs: stopped)
    monkeypatch.setattr(reachability, "designer_par_sat",
                        lambda *args, **kwargs: designer_par_sat(layout, first=6))
    with pytest.raises(RuntimeError, match="under A\\*'s bound 8"):
        reachability.search_par(layout, "solo-3", Deadline(None), 100, no_progress)


def _stopped_astar(bound: int) -> SearchResult[Any, Any]:
    return SearchResult("astar", "unknown", None, bound, SearchStats(10, 40, 0.0, (1, 9)), "states")


@pytest.mark.parametrize(("runs", "stopped_by", "bound", "said"), [
    ((), "time", 8, "stopped by its time limit before it refuted a horizon"),
    (((8, False), (9, None)), "time", 9, "horizons 8-9): stopped by its time limit; horizons up to 8 refuted"),
    (((8, False), (9, False), (10, False)), "time", 11, "horizons up to 10 refuted (the solver's word, not certified)"),
    (((8, False), (9, False)), "horizons", 10, "every horizon asked, up to 9, refuted"),
])
def test_a_stopped_sat_run_says_what_it_refuted(runs: tuple[tuple[int, bool | None], ...], stopped_by: str,
                                                bound: int, said: str) -> None:
    from stratagem.solvers.graph import GraphFacts
    from stratagem.solvers.satplan import HorizonRun, SatPlanResult

    sat: SatPlanResult[Any] = SatPlanResult("unknown", None, bound,  None,
                                            tuple(HorizonRun(k, answer, 1, 1, 0, 0.0) for k, answer in runs), 1.0,
                                            stopped_by)
    searched = reachability.ParSearch(_stopped_astar(9), sat)
    lines = reachability.par_search_lines(searched)
    assert lines[0].startswith("designer par by A* (the graph cut before a win): at least 9 turns")
    assert said in lines[1]
    assert searched.moves is None and searched.lower_bound == max(9, bound)
    facts = GraphFacts(states=100, edges=99, goal_states=0, goal_reachable=False, par=None, dead_ends=0,
                       strongly_connected_components=100, largest_component=1, states_per_depth=(1, 99),
                       complete=False, stopped_by="states", frontier=90)
    unsolvable, words = reachability.conclusion(facts, True, searched)
    assert unsolvable is None and f"at least {max(9, bound)} turns" in words
    assert ("the SAT solver refuted every line of" in words) == (bound > 9)
    fields = reachability.par_search_fields(searched)
    assert fields["par"] is None and fields["goal_reachable"] is None
    assert fields["par_sat"]["status"] == "unknown" and fields["par_sat"]["lower_bound"] == bound


def test_a_proof_the_time_stopped_leaves_the_solvers_word(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``prove``, a SAT run whose time ran out in the certificate's refutation (the horizons refuted under
    assumptions, the line found) keeps its par as the solver's word, says why it is not certified, and
    claims no certificate."""
    from stratagem.solvers.satplan import HorizonRun

    puzzle = load_puzzle(PUZZLES / "challenge-1.toml")
    start = puzzle.game(puzzle.deals[0]).initial_state()
    layout = StratoDesigner(puzzle.challenge, puzzle.options, start.rows, start.last)
    found = designer_par_sat(layout, first=6)
    assert found.moves is not None
    runs = (*found.runs, HorizonRun(6, None, 1, 1, 0, 0.1))
    stopped: SatPlanResult[Any] = SatPlanResult("unknown", found.moves, 7, None, runs, 1.0, "time")
    monkeypatch.setattr(reachability, "designer_par", lambda *args, **kwargs: _stopped_astar(7))
    monkeypatch.setattr(reachability, "designer_par_sat", lambda *args, **kwargs: stopped)
    searched = reachability.search_par(layout, "solo-3", Deadline(None), 100, no_progress, prove=True)
    assert searched.proof == "time" and searched.certificate is None and searched.moves == found.moves
    fields = reachability.par_search_fields(searched)["par_sat"]
    assert "certificate" not in fields and "proof" not in fields  # since stop 68 (reach@3): par_certificate's
    assert fields["horizons"] == [{"horizon": 6, "satisfiable": False}, {"horizon": 7, "satisfiable": True}]
    certificate = reachability.certify_par(layout, 7, "solo-3", Deadline(None), no_progress, searched)
    assert certificate == reachability.ParCertificate(6, None, "time")
    assert reachability.certificate_fields(certificate)["par_certificate"] == {
        "encoding": "strato-designer-sat@4", "solver": "cadical195", "horizon": 6, "cnf": None, "proof": None,
        "stopped_by": "time"}
    assert "the solver's word, not certified" in reachability.par_search_lines(searched, certificate)[1]
