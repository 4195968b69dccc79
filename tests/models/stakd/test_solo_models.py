"""The solo question's models (CP-SAT, SAT with DRUP) against the rules engine's exhaustive search.

Every witness the driver reports has been replayed through the engine inside ``solve_solo``; these
tests replay it again independently, check refutations with the project's DRUP checker, make sure a
corrupted refutation is rejected, and compare feasibility with :func:`solo_search` on small sets.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from pysat.solvers import Solver

from stratagem.models.stakd.cpsat import SoloCPSAT
from stratagem.models.stakd.geometry import Placement
from stratagem.models.stakd.pieces import hand_of, player_set
from stratagem.models.stakd.position import Move, Piece, State
from stratagem.models.stakd.rules import StakdGame
from stratagem.models.stakd.sat import EncodingError, SoloCNF, Structure, base_layouts, lattice_symmetries
from stratagem.models.stakd.search import IMPOSSIBLE, SOLVED, solo_search
from stratagem.models.stakd.solo import SoloAnswer, placement_order, replay, solve_solo, verify_refutation
from stratagem.solvers.dimacs import parse_drup
from stratagem.solvers.drup import check_drup

REPO = Path(__file__).resolve().parents[3]


def solo_game(counts: dict[str, int]) -> StakdGame:
    return StakdGame(1, start=State((), (hand_of(counts),), 0, (False,)))


def engine_answer(game: StakdGame, state: State | None = None) -> bool:
    result = solo_search(game, state, node_limit=500_000)
    assert result.status in (SOLVED, IMPOSSIBLE)
    return result.status == SOLVED


def assert_replays(game: StakdGame, state: State, answer: SoloAnswer) -> None:
    """Replay the reported line through the engine, independently of the driver."""
    assert answer.moves is not None
    current = state
    for text in answer.moves:
        current = game.apply(current, game.parse_move(current, text))
    assert not any(current.hands[0])
    assert game.is_terminal(current) and game.returns(current) == (1.0,)


def check_all_agree(game: StakdGame, state: State | None = None) -> bool:
    start = game.initial_state() if state is None else state
    expected = engine_answer(game, start)
    cp = solve_solo(game, start, method="cpsat")
    sat = solve_solo(game, start, method="sat")
    assert cp.winnable is expected, f"CP-SAT says {cp.winnable}, exhaustive search {expected}"
    assert sat.winnable is expected, f"SAT says {sat.winnable}, exhaustive search {expected}"
    for answer in (cp, sat):
        if expected:
            assert answer.evidence["kind"] == "witness"
            assert_replays(game, start, answer)
    if not expected and start.is_over():
        assert cp.evidence["kind"] == sat.evidence["kind"] == "terminal"
    elif not expected:
        assert cp.evidence["kind"] == "cpsat-infeasible"
        assert cp.evidence["note"] == "CP-SAT says INFEASIBLE, no certificate"
        assert sat.evidence["kind"] == "drup-refutation" and sat.evidence["checked"]
    return expected


def random_sets(seed: int, count: int, bases: tuple[int, ...]) -> list[dict[str, int]]:
    rng = random.Random(seed)
    return [
        {"B": rng.choice(bases), "Q": rng.randint(0, 2), "T": rng.randint(0, 2), "D": rng.randint(0, 3),
         "U": rng.randint(0, 4), "X": rng.randint(0, 1)}
        for _ in range(count)
    ]


# -- rules, one small set each (expected answers derived in the comments) ----------------------------


@pytest.mark.parametrize(
    ("counts", "winnable"),
    [
        # A Duo on the Base: layer 1 starts with a Duo.
        ({"B": 1, "D": 1}, True),
        # A lone Uni may start layer 1: the hand holds nothing but Unis.
        ({"B": 1, "U": 1}, True),
        # One piece type per piece below: two Unis cannot both rest on the one Base, and nothing rests
        # on a Uni with the same footprint (no duplicate stacking).
        ({"B": 1, "U": 2}, False),
        # A Bomber can never start a layer, and with nothing else there is no other layer to be on.
        ({"B": 1, "X": 1}, False),
        # Duo first, then the Bomber beside it on the Base layer's top.
        ({"B": 1, "D": 1, "X": 1}, True),
        # Two Duos: both on the Base breaks one type per piece below; a Duo on the Duo has its footprint.
        ({"B": 1, "D": 2}, False),
        # Quad covers 4 of 5 nodes (1 piece < 6, but no Duo fits the one free node): the Duo goes up.
        ({"B": 1, "Q": 1, "D": 1}, True),
    ],
)
def test_rules_on_tiny_sets_models_and_search_agree(counts: dict[str, int], winnable: bool) -> None:
    assert check_all_agree(solo_game(counts)) is winnable


def test_six_piece_rule_bomber_termination_and_uni_start_small_mixed_sets_agree() -> None:
    # Sets where the order-dependent rules decide: a Bomber with pieces to cover first, Unis that
    # may not start a layer while bigger pieces are in hand, layers with fewer than six pieces.
    for counts in ({"B": 1, "D": 2, "U": 3, "X": 1}, {"B": 1, "T": 1, "D": 1, "U": 4, "X": 1},
                   {"B": 1, "Q": 2, "D": 2, "X": 1}, {"B": 2, "Q": 1, "T": 1, "U": 2, "X": 1}):
        check_all_agree(solo_game(counts))


def test_models_agree_with_exhaustive_search_on_random_one_base_sets() -> None:
    results = [check_all_agree(solo_game(counts)) for counts in random_sets(11, 16, (1,))]
    assert any(results) and not all(results)  # both answers occur


def test_models_agree_with_exhaustive_search_on_random_two_base_sets() -> None:
    results = [check_all_agree(solo_game(counts)) for counts in random_sets(5, 4, (2,))]
    assert any(results)


def test_models_agree_with_exhaustive_search_from_partly_built_positions() -> None:
    rng = random.Random(7)
    seen = set()
    for counts in random_sets(7, 14, (1, 2)):
        game = solo_game(counts)
        state = game.initial_state()
        for _ in range(rng.randint(1, 6)):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, rng.choice(moves))
        seen.add(check_all_agree(StakdGame(1, game.geometry, state)))
    assert seen == {True, False}


@pytest.mark.slow
def test_models_agree_with_exhaustive_search_on_forty_random_sets() -> None:
    results = [check_all_agree(solo_game(counts)) for counts in random_sets(1, 40, (1, 1, 2))]
    assert any(results) and not all(results)


# -- symmetry breaking ----------------------------------------------------------------------------------


def test_symmetry_of_default_board_fixes_first_base() -> None:
    # The solo set's 11x3 board, first Base at (3,1)-(7,1): identity, left-right mirror about x = 5,
    # top-bottom mirror about y = 1 and the half turn; the quarter turns do not map the board to itself.
    game = StakdGame(1)
    perms = lattice_symmetries(game.geometry)
    assert len(perms) == 4
    first = game.geometry.first_base
    for perm in perms:
        assert {perm[i] for i in first.nodes} == set(first.nodes)


def test_symmetry_breaking_keeps_one_base_layout_per_orbit() -> None:
    # Second Base one row above or below, shifted -3..3 columns: 14 layouts; up to the mirrors and
    # the half turn only the shift 0, 1, 2 or 3 matters: 4.
    game = StakdGame(1)
    all_layouts = base_layouts(game, game.initial_state(), symmetry=False)
    kept = base_layouts(game, game.initial_state(), symmetry=True)
    assert len(all_layouts) == 14 and len(kept) == 4
    perms = lattice_symmetries(game.geometry)

    def image(layout: tuple[Placement, ...], perm: dict[int, int]) -> frozenset[frozenset[int]]:
        return frozenset(frozenset(perm[i] for i in p.nodes) for p in layout)

    kept_keys = {image(layout, perms[0]) for layout in kept}
    for layout in all_layouts:
        assert any(image(layout, perm) in kept_keys for perm in perms)


def test_symmetry_breaking_does_not_change_the_answer() -> None:
    for counts in ({"B": 2, "D": 1, "U": 4}, {"B": 2, "T": 1, "U": 1}):
        game = solo_game(counts)
        with_sym = solve_solo(game, method="sat", symmetry=True)
        without = solve_solo(game, method="sat", symmetry=False)
        assert with_sym.winnable is without.winnable is engine_answer(game)


# -- witnesses are replayed; a wrong structure or line raises -------------------------------------------


def test_decoded_witness_replays_through_engine() -> None:
    game = solo_game({"B": 2, "T": 1, "D": 1, "U": 2, "X": 1})
    for method in ("cpsat", "sat"):
        answer = solve_solo(game, method=method)
        assert answer.winnable and answer.evidence["replayed"]
        assert_replays(game, game.initial_state(), answer)
        record = answer.to_proof(game).to_json()
        assert record["format"] == "stratagem/proof@1" and record["claim"] == {"winnable": True}
        assert record["line"]["moves"] == list(answer.moves or ())


def test_model_bug_raises_instead_of_reporting() -> None:
    game = solo_game({"B": 1, "D": 1, "U": 1})
    geometry = game.geometry
    base = geometry.first_base
    uni = geometry.placement("U", (0, 0), "")
    duo = geometry.placement("D", (3, 0), "h")
    assert uni is not None and duo is not None
    # Layer 1 not connected: no placement order exists.
    with pytest.raises(EncodingError):
        placement_order(geometry, game.initial_state(), Structure(((base,), (uni, duo))))
    # A line the engine refuses (the Uni cannot start layer 1 while a Duo is in hand).
    with pytest.raises(EncodingError):
        replay(game, game.initial_state(), [Move("B", base.anchor, base.orient, 0), Move("U", (0, 0), "", 1)])


def test_bases_in_hand_after_stacking_began_cannot_be_placed() -> None:
    # Bases only go on layer 0, and no play goes below the current layer: a Base left in hand once
    # layer 1 holds a piece can never be laid.
    game = solo_game({"B": 2, "D": 1})
    base = game.geometry.first_base
    duo = game.geometry.placement("D", base.anchor, "h")
    assert duo is not None
    layers = ((Piece("B", base.anchor, base.orient, 0),), (Piece("D", duo.anchor, "h", 0),))
    stuck = StakdGame(1, game.geometry, State(layers, (hand_of({"B": 1}),), 0, (False,)))
    assert not engine_answer(stuck)
    cnf = SoloCNF(stuck)
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        assert not solver.solve()
    assert solve_solo(stuck, method="sat").winnable is False


# -- DRUP refutations -------------------------------------------------------------------------------------


def refutation() -> tuple[list[list[int]], list[str]]:
    """An infeasible set whose refutation needs lemmas: two Quads, two Duos and two Unis on one Base.

    (Infeasible by the exhaustive search too: see test_drup_refutation_verifies_with_check_drup.)
    """
    cnf = SoloCNF(solo_game({"B": 1, "Q": 2, "D": 2, "U": 2}))
    with Solver(name="cadical195", bootstrap_with=cnf.clauses, with_proof=True) as solver:
        assert not solver.solve()
        proof = list(solver.get_proof())
    return cnf.clauses, proof


def lemma_lines(proof: list[str]) -> list[int]:
    """Indices of the proof lines that add a non-empty lemma."""
    return [i for i, line in enumerate(proof) if line.strip() not in ("", "0") and not line.startswith(("d", "c"))]


def test_drup_refutation_verifies_with_check_drup() -> None:
    assert not engine_answer(solo_game({"B": 1, "Q": 2, "D": 2, "U": 2}))
    clauses, proof = refutation()
    verdict = check_drup(clauses, parse_drup(proof, "proof"))
    assert verdict.valid, verdict.reason
    assert verdict.checked_lemmas > 0
    # The driver's answer carries the CNF and proof, and they re-check against a rebuilt CNF.
    game = solo_game({"B": 1, "Q": 2, "D": 2, "U": 2})
    answer = solve_solo(game, method="sat")
    assert answer.winnable is False and answer.proof is not None and answer.cnf is not None
    assert verify_refutation(game, None, answer.proof, cnf_text=answer.cnf) == (True, "")
    assert verify_refutation(game, None, answer.proof, cnf_text=answer.cnf + "c tampered\n")[0] is False


def test_corrupted_refutation_dropped_lemmas_is_rejected() -> None:
    clauses, proof = refutation()
    # Keep only the empty clause: unit propagation over the formula alone reaches no conflict.
    only_empty = [line for line in proof if line.strip() == "0"]
    assert only_empty
    assert not check_drup(clauses, parse_drup(only_empty, "proof")).valid
    # Drop single lemmas, earliest first, until one the refutation needs: the checker must notice.
    rejected = None
    for i in lemma_lines(proof)[:80]:
        dropped = proof[:i] + proof[i + 1 :]
        verdict = check_drup(clauses, parse_drup(dropped, "proof"))
        if not verdict.valid:
            rejected = verdict
            break
    assert rejected is not None and "RUP" in rejected.reason


def test_corrupted_refutation_flipped_literal_is_rejected() -> None:
    clauses, proof = refutation()
    rejected = None
    for i in lemma_lines(proof)[:80]:
        lits = proof[i].split()
        flipped_lit = str(-int(lits[0]))
        flipped = [*proof[:i], " ".join([flipped_lit, *lits[1:]]), *proof[i + 1 :]]
        verdict = check_drup(clauses, parse_drup(flipped, "proof"))
        if not verdict.valid:
            rejected = (i, verdict, [int(x) for x in [flipped_lit, *lits[1:]] if x != "0"])
            break
    assert rejected is not None
    assert "not RUP" in rejected[1].reason


# -- the shipped solo puzzles ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["solo-1-tiny", "solo-2-after-the-bomber", "solo-3-many-unis", "solo-4-impossible"])
def test_shipped_graded_solo_puzzles_sat_and_search_agree(name: str) -> None:
    path = REPO / "puzzles" / "stakd" / f"{name}.toml"
    if not path.exists():
        pytest.skip(f"{path.name} is not shipped")
    from stratagem.models.stakd.puzzle import load_position

    position = load_position(path)
    expected = engine_answer(position.game, position.state)
    answer = solve_solo(position.game, position.state, method="sat")
    assert answer.winnable is expected
    if expected:
        assert_replays(position.game, position.state, answer)
    else:
        assert answer.evidence["kind"] == "drup-refutation" and answer.evidence["checked"]


# -- the seed's solo set ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_seed_solo_set_is_winnable_sat_witness_replays() -> None:
    game = StakdGame(1)
    assert game.initial_state().hands[0] == player_set(1)
    t0 = time.perf_counter()
    answer = solve_solo(game, method="sat")
    assert answer.winnable and answer.evidence["kind"] == "witness"
    assert_replays(game, game.initial_state(), answer)
    assert len(answer.moves or ()) == sum(player_set(1))
    assert time.perf_counter() - t0 < 600


@pytest.mark.slow
def test_seed_solo_set_is_winnable_cpsat_witness_replays() -> None:
    puzzle = REPO / "puzzles" / "stakd" / "solo.toml"
    if puzzle.exists():
        from stratagem.models.stakd.puzzle import load_position

        position = load_position(puzzle)
        game, state = position.game, position.state
    else:
        game = StakdGame(1)
        state = game.initial_state()
    answer = solve_solo(game, state, method="cpsat", workers=2)
    assert answer.winnable and answer.evidence["kind"] == "witness"
    assert_replays(game, state, answer)


def test_solo_model_sizes_are_bounded() -> None:
    # The full solo set: 4 Base layouts, 13 nodes, 36 new layers at most ((71 nodes + 1) // 2 = 36 < 37 pieces).
    cnf = SoloCNF(StakdGame(1))
    assert len(cnf.layouts) == 4 and len(cnf.nodes) == 13 and cnf.new_layers == 36
    cp = SoloCPSAT(solo_game({"B": 1, "D": 1}))
    assert cp.constraints > 0
