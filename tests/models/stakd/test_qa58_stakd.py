"""QA 58 (STAKD): the solo models against plain search on hands and lattices the other tests leave out."""

from __future__ import annotations

import time

import pytest

from stratagem.core.deadline import Deadline
from stratagem.models.stakd.geometry import square_lattice
from stratagem.models.stakd.notation import parse_state
from stratagem.models.stakd.pieces import hand_of
from stratagem.models.stakd.position import State
from stratagem.models.stakd.render import draw
from stratagem.models.stakd.rules import StakdGame
from stratagem.models.stakd.sat import BuildStopped, SoloCNF
from stratagem.models.stakd.search import IMPOSSIBLE, SOLVED, solo_search
from stratagem.models.stakd.solo import solve_solo, verify_refutation


def solo(counts: dict[str, int], width: int, height: int) -> StakdGame:
    return StakdGame(1, square_lattice(width, height), State((), (hand_of(counts),), 0, (False,)))


def test_bases_that_cannot_all_be_laid_are_refuted_not_a_model_bug() -> None:
    # On a 5x1 lattice the first Base fills the row: the second touches nothing at two node pairs, so
    # the player is out with a Base in hand. The CNF had no clause for "no Base layout exists", so a
    # hand of Bases alone had a model, decoded to a line that does not place them (EncodingError).
    game = solo({"B": 2}, 5, 1)
    assert solo_search(game).status == IMPOSSIBLE
    sat = solve_solo(game, method="sat")
    assert sat.winnable is False and sat.evidence["kind"] == "drup-refutation" and sat.evidence["checked"]
    assert sat.proof is not None and verify_refutation(game, None, sat.proof, cnf_text=sat.cnf)[0]
    cp = solve_solo(game, method="cpsat")
    assert cp.winnable is False and cp.evidence["kind"] == "cpsat-infeasible"


def test_the_time_limit_covers_building_the_model() -> None:
    # Four Bases' model takes half a minute to build (a million variables); the deadline was asked only
    # while the Base layouts were enumerated, so `check --time-limit 5` answered after 33 s (cpsat 72 s).
    import stratagem.models.stakd.cpsat  # noqa: F401  (OR-Tools loads for a second or more: not what is timed)

    game = StakdGame(1, start=State((), (hand_of({"B": 4, "Q": 4, "T": 8, "D": 12, "U": 20, "X": 2}),), 0, (False,)))
    for method in ("sat", "cpsat"):
        started = time.perf_counter()
        answer = solve_solo(game, method=method, time_limit=0.5)
        assert answer.winnable is None and answer.evidence["kind"] == "unknown"
        assert time.perf_counter() - started < 1.2 * 0.5 + 1
    with pytest.raises(BuildStopped):
        SoloCNF(game, deadline=Deadline(0.0))


def test_show_counts_one_piece_in_the_singular() -> None:
    # `stratagem show` of a one-Base structure drew "layer 0 (1 pieces)"
    game = solo({"B": 1, "U": 1}, 5, 1)
    state = game.apply(game.initial_state(), game.parse_move(game.initial_state(), "B@0,0h"))
    lines = draw(game, state)
    assert "layer 0 (1 piece) <- current" in lines and not any("1 pieces" in line for line in lines)


@pytest.mark.parametrize("layers, hand, winnable", [
    ("1B@0,0h", "B1U1", True), ("1B@0,0h", "B1T1D1", True), ("1B@6,0h", "B1", True), ("1B@6,2h", "B1D1U1", True),
])
def test_a_hand_written_base_off_the_canonical_place_is_built_on(layers: str, hand: str, winnable: bool) -> None:
    # Hand-written positions may put their Bases anywhere; the decoded Base layer was required to hold the
    # canonical first Base even when Bases were already down, so `check` of "1B@0,0h" with a Base in hand
    # died with EncodingError (exit 70), by sat and cpsat alike.
    game = StakdGame(1, square_lattice(11, 3), parse_state(f"{layers} {hand} 1"))
    assert (solo_search(game).status == SOLVED) is winnable
    for method in ("sat", "cpsat"):
        answer = solve_solo(game, method=method)
        assert answer.winnable is winnable and answer.evidence["kind"] == "witness"


def test_a_formula_false_for_several_reasons_holds_one_empty_clause() -> None:
    # A Base at 8,0 of a 13x1 lattice with a Base, a Trio, a Uni and two Bombers in hand: no second Base
    # fits, so no piece has a place and each kind's count was an empty clause. CaDiCaL's proof for a
    # formula with two empty clauses deletes one ('d 0'), which the DRUP grammar refuses: check died
    # with "cadical proof: line 24: deletion of the empty clause" (exit 2, blaming the solver's proof).
    game = StakdGame(1, square_lattice(13, 1), parse_state("1B@8,0h B1T1U1X2 1"))
    assert sum(1 for clause in SoloCNF(game).clauses if not clause) == 1
    answer = solve_solo(game, method="sat")
    assert answer.winnable is False and answer.evidence["kind"] == "drup-refutation" and answer.evidence["checked"]
    assert answer.proof is not None and verify_refutation(game, None, answer.proof, cnf_text=answer.cnf)[0]
    assert solo_search(game).status == IMPOSSIBLE
