"""``stratagem.analysis.analyze``: the library call behind ``stratagem analyze``.

The typed result agrees with the record it serialises to, and that record is what the command prints;
the position may be a file, a loaded position or a ``(game, state)`` pair; progress names the root
move being ranked; refusals name the parameter; proofs are written only for established values.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path

import pytest

from stratagem.analysis import Analysis, ProofNotWritten, analyze
from stratagem.cli.main import run
from stratagem.core.errors import BadInput
from stratagem.loading import load_position
from stratagem.verification import verify

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
SQUARE_IN_3 = str(PUZZLES / "cardclash" / "square-in-3.toml")
SQUARE_IN_7 = str(PUZZLES / "cardclash" / "square-in-7.toml")
ROUND = str(PUZZLES / "stackattack" / "2p-numbers-3-turns.toml")


def command_record(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    """What ``stratagem analyze ... --json`` prints, as data."""
    assert run(["analyze", *args, "--json"]) in (0, 3)
    return dict(json.loads(capsys.readouterr().out))


def test_a_solved_win_is_typed_and_its_record_is_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    analysis = analyze(SQUARE_IN_3)
    assert analysis.solved and analysis.method == "alphabeta" and analysis.player == 1
    assert analysis.value == 1 and analysis.distance == 3 and len(analysis.pv) == 3
    assert analysis.best_move == analysis.pv[0] and analysis.best_found is None
    assert analysis.moves is not None and analysis.moves[0].move == analysis.best_move
    assert all(m.status == "solved" for m in analysis.moves)
    assert analysis.to_json() == command_record(capsys, SQUARE_IN_3)


def test_a_loaded_position_or_a_game_and_state_give_the_same_answer() -> None:
    by_file = analyze(SQUARE_IN_3, rank=False)
    position = load_position(SQUARE_IN_3)
    by_position = analyze(position, rank=False)
    by_pair = analyze((position.game, position.state), rank=False)
    assert by_position.to_json() == by_file.to_json()
    assert by_pair.position is None and by_pair.game == "cardclash"
    assert (by_pair.status, by_pair.value, by_pair.pv) == (by_file.status, by_file.value, by_file.pv)
    assert by_file.moves is None and "moves" not in by_file.to_json()


def test_progress_says_which_root_move_is_being_ranked() -> None:
    labels: list[str] = []

    @contextmanager
    def show(label: str, first: str, second: str) -> Iterator[Callable[[int, int], None]]:
        labels.append(label)
        yield lambda a, b: None

    position = load_position(SQUARE_IN_3)
    game, state = position.game, position.state
    analysis = analyze(position, progress=show)
    moves = list(game.legal_moves(state))
    # The root's best move is not searched again: the root's search established its value.
    searched = [i for i, m in enumerate(moves, start=1) if not game.is_terminal(game.apply(state, m))
                and game.format_move(state, m) != analysis.best_move]
    assert len(searched) == sum(1 for m in moves if not game.is_terminal(game.apply(state, m))) - 1
    assert labels[0] == "alphabeta search"
    assert labels[1:] == [f"ranking move {i} of {len(moves)}: {game.format_move(state, moves[i - 1])}"
                          for i in searched]


def test_a_stopped_search_claims_nothing_and_has_no_proof(tmp_path: Path) -> None:
    stopped = analyze(SQUARE_IN_7, max_nodes=2000, rank=False)
    assert stopped.status == "unknown" and stopped.value is None and stopped.best_move is None
    assert stopped.best_found is not None
    with pytest.raises(ProofNotWritten, match="not established"):
        stopped.write_proof(tmp_path / "proof.json")
    assert not (tmp_path / "proof.json").exists()


def test_the_proof_tree_of_a_solved_value_verifies(tmp_path: Path) -> None:
    written = analyze(SQUARE_IN_3, rank=False).write_proof(tmp_path / "square.json")
    assert written.format == "stratagem/prooftree@1" and written.nodes > 0
    assert verify(tmp_path / "square.json").valid


def test_simultaneous_moves_get_exact_strategies_and_matrix_proofs(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    analysis = analyze(ROUND)
    assert analysis.method == "lp" and analysis.solved
    first = analysis.players[0]
    assert first.certified and first.against == (2,) and first.value == 21
    assert first.strategy is not None and sum(Fraction(p) for p in first.strategy.values()) == 1
    assert analysis.to_json() == command_record(capsys, ROUND)
    written = analysis.write_proof(tmp_path / "round.json")
    # the bound certificate holds the nodes the start's value needs, some of the induction's
    assert written.format == "stratagem/matrixproof@2" and 0 < written.nodes <= first.nodes
    assert verify(tmp_path / "round.json").valid


def test_estimates_are_labelled_and_have_no_proof(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    duct = analyze(ROUND, method="duct", iterations=50, seed=3)
    assert duct.status == "estimate" and duct.value is None and duct.iterations == 50
    assert duct.to_json() == command_record(capsys, ROUND, "--method", "duct", "--iterations", "50", "--seed", "3")
    with pytest.raises(BadInput) as refused:
        duct.write_proof(tmp_path / "duct.json")
    assert refused.value.place == "proof"


@pytest.mark.parametrize(("method", "as_player", "place", "words"), [
    ("alphabeta", None, "method", "simultaneous"),
    ("pimc", 3, "as_player", "does not exist"),
    ("pimc", None, "as_player", "one player's observation"),
])
def test_refusals_name_the_parameter(method: str, as_player: int | None, place: str, words: str) -> None:
    with pytest.raises(BadInput) as refused:
        analyze(ROUND, method=method, as_player=as_player)
    assert refused.value.place == place and words in refused.value.problem


def test_an_analysis_is_a_value() -> None:
    analysis = analyze(SQUARE_IN_3, rank=False)
    assert isinstance(analysis, Analysis)
    with pytest.raises(AttributeError):
        analysis.status = "unknown"  # type: ignore[misc]


@pytest.mark.parametrize("position", [SQUARE_IN_7, str(PUZZLES / "stratatak" / "reshuffle-gamble.toml")])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_a_depth_cut_ranks_the_moves_at_the_roots_depth(position: str, depth: int) -> None:
    """The root's value at depth d is its best move's value at depth d - 1 below it: the ranking once
    searched each move's position d plies deeper (one ply more than the root), so the list contradicted
    the stated value (square-in-7 at depth 3: the root 0.483, its best move listed at 0.134)."""
    record = analyze(position, depth=depth).to_json()
    best = max(entry["value"] for entry in record["moves"])
    assert record["value"] == best == record["moves"][0]["value"]


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_mcts_does_not_pass_over_a_proven_move_for_visits(engine: str) -> None:
    """MCTS-Solver stops visiting a proven move, so the most visited move may be the worst: on long-odds
    B3B3 is proven at 1/5 and R6 at 0 within a few hundred iterations, and B3 (exactly -2/3), left alone
    to be visited, was recommended. The recommendation weighs proven values against the means."""
    position = str(PUZZLES / "stratatak" / "long-odds.toml")
    exact = analyze(position)
    assert [(m.move, m.value) for m in exact.moves] == [("B3B3", Fraction(1, 5)), ("R6", 0), ("B3", Fraction(-2, 3))]
    for seed in (0, 1, 2):
        found = analyze(position, method="mcts", engine=engine, seed=seed)
        assert found.best_move == "B3B3", (seed, [(m.move, m.visits, m.proven) for m in found.moves])


def test_the_unproven_roots_pick_weighs_proven_values_against_means() -> None:
    from stratagem.solvers.mcts import MoveStats
    from stratagem.solvers.mcts.results import unproven_root_pick

    def stats(*moves: tuple[int, float, float | None]) -> list[MoveStats[str]]:
        return [MoveStats(str(i), str(i), visits, mean, proven) for i, (visits, mean, proven) in enumerate(moves)]

    assert unproven_root_pick(stats((1700, -0.44, None), (140, 0.4, 0.0), (120, 0.7, 0.2)), -1.0) == 2
    assert unproven_root_pick(stats((1700, 0.3, None), (140, 0.4, 0.0), (120, 0.7, 0.2)), -1.0) == 0
    assert unproven_root_pick(stats((10, 0.9, None), (1700, 0.3, None), (5, 0.0, -1.0)), -1.0) == 1  # visits rule
    assert unproven_root_pick(stats((3, 0.0, -1.0), (2, 0.0, -1.0)), -1.0) == 0  # all lost: still a move


def test_a_one_player_position_is_searched_by_maxn_and_alphabeta_is_refused_naming_the_file() -> None:
    """A solo STAKD position: ``auto`` once chose alpha-beta, which failed after the work had started
    (``sweep`` wrote the records before it, then exit 2 without the file's name; on Dask, "failed, run again").
    ``auto`` is now the exhaustive search over the one player's choices; alpha-beta is refused up front."""
    stakd = Path(__file__).resolve().parent.parent / "puzzles" / "stakd"
    impossible = str(stakd / "solo-4-impossible.toml")
    result = analyze(impossible)
    assert (result.method, result.status, result.value) == ("maxn", "solved", -1)  # as check's refutation says
    assert analyze(str(stakd / "solo-1-tiny.toml")).value == 1
    with pytest.raises(BadInput, match="alphabeta is for two players") as refused:
        analyze(impossible, method="alphabeta")
    assert refused.value.source == impossible
    three = str(stakd.parent / "cardclash" / "three-players.toml")
    with pytest.raises(BadInput, match="expecti is for two players; with 3 use paranoid or maxn") as refused:
        analyze(three, method="expecti")
    assert refused.value.source == three
