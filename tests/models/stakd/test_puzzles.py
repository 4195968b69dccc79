"""Shipped STAKD positions (puzzles/stakd/), position files and their errors, setup records, rendering,
and the claims each shipped puzzle's description makes, checked by exhaustive search."""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.core.errors import BadInput
from stratagem.models.stakd.notation import format_move, parse_state
from stratagem.models.stakd.position import State
from stratagem.models.stakd.puzzle import game_from_setup, load_position
from stratagem.models.stakd.render import draw
from stratagem.models.stakd.rules import StakdGame
from stratagem.models.stakd.search import IMPOSSIBLE, SOLVED, solo_search

from .support import PUZZLES


def minimax(game: StakdGame, state: State, memo: dict[State, float]) -> float:
    """Player 1's value with perfect play (two players, +1 / -1)."""
    if game.is_terminal(state):
        return game.returns(state)[0]
    if state not in memo:
        values = [minimax(game, game.apply(state, m), memo) for m in game.legal_moves(state)]
        memo[state] = max(values) if state.to_move == 0 else min(values)
    return memo[state]


def winning_moves(game: StakdGame, state: State) -> list[str]:
    memo: dict[State, float] = {}
    want = 1.0 if state.to_move == 0 else -1.0
    return [format_move(m) for m in game.legal_moves(state) if minimax(game, game.apply(state, m), memo) == want]


def test_engine_every_shipped_position_loads_and_draws() -> None:
    files = sorted(PUZZLES.glob("*.toml"))
    assert len(files) >= 8
    for path in files:
        position = load_position(path)
        assert position.name and position.description
        assert position.game.parse_state(position.game.format_state(position.state)) == position.state
        assert draw(position.game, position.state)


def test_seed_solo_toml_is_the_seeds_full_solo_set_from_an_empty_table() -> None:
    position = load_position(PUZZLES / "solo.toml")
    assert position.state == parse_state("- B2Q4T6D10U16X1 1")
    assert (position.game.geometry.width, position.game.geometry.height) == (11, 3)


@pytest.mark.parametrize(
    ("name", "status"),
    [
        ("solo-1-tiny", SOLVED),
        ("solo-2-after-the-bomber", SOLVED),
        ("solo-3-many-unis", SOLVED),
        ("solo-4-impossible", IMPOSSIBLE),
        ("solo", SOLVED),
    ],
)
def test_engine_shipped_solo_puzzles_have_the_verdict_their_description_claims(name: str, status: str) -> None:
    position = load_position(PUZZLES / f"{name}.toml")
    result = solo_search(position.game, position.state, node_limit=200_000)
    assert result.status == status
    if result.line is not None:
        state = position.state
        for move in result.line:
            state = position.game.apply(state, move)
        assert position.game.returns(state) == (1.0,)


def test_engine_endgame_only_move() -> None:
    position = load_position(PUZZLES / "endgame-2p-only-move.toml")
    assert winning_moves(position.game, position.state) == ["D@11,1h"]


def test_engine_endgame_bomber() -> None:
    position = load_position(PUZZLES / "endgame-2p-bomber.toml")
    wins = winning_moves(position.game, position.state)
    assert len(position.game.legal_moves(position.state)) == 6 and len(wins) == 3 and "X@10,5" in wins


def test_engine_endgame_lost() -> None:
    position = load_position(PUZZLES / "endgame-2p-lost.toml")
    assert len(position.game.legal_moves(position.state)) == 9
    assert winning_moves(position.game, position.state) == []


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "p.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("body", "place", "problem"),
    [
        ('game = "strato"\n[position]\nplayers = 1\n', "game", "not a STAKD position"),
        ('game = "stakd"\n[position]\nplayers = 9\n', "position.players", "1 to 6 players"),
        ('game = "stakd"\n[position]\nplayers = 1\npieces = "B1"\n', "position.state", "exactly one"),
        ('game = "stakd"\n[position]\nstate = "- B2 0"\n', "position.state", "player to move"),
        ('game = "stakd"\n[position]\npieces = "B1Z2"\n', "position.pieces", "kind letters"),
        (
            'game = "stakd"\n[options]\nwidth = 11\nheight = 3\n'
            '[position]\npieces = "D1"\nlayers = "1B@3,1h/1D@7,1h"\n',
            "position.layers",
            "overhangs",
        ),
        ('game = "stakd"\n[position]\npieces = "D1"\nlayers = "1B@30,1h"\n', "position.layers", "lattice"),
        ('game = "stakd"\n[position]\npieces = "D1"\nlayers = "2B@0,0h"\n', "position.layers", "player 2 of 1"),
        ('game = "stakd"\n[options]\nsize = 3\n[position]\nplayers = 1\n', "options.size", "unknown key"),
        ('game = "stakd"\n[options]\nwidth = 3\n[position]\nplayers = 1\n', "options.width", "width 5 to 64"),
        ('game = "stakd"\n[position]\nstate = "1B@0,0h/1D@0,0h;1D@2,0h - 1"\n', "position.state", "one piece type"),
    ],
)
def test_engine_bad_position_files_say_where_and_what(tmp_path: Path, body: str, place: str, problem: str) -> None:
    with pytest.raises(BadInput) as err:
        load_position(write(tmp_path, body))
    assert err.value.place == place and problem in err.value.problem


def test_engine_a_player_with_no_play_is_out_when_the_position_loads(tmp_path: Path) -> None:
    body = 'game = "stakd"\n[position]\npieces = ["X1", "B1D1"]\nlayers = "2B@0,0h"\n'
    position = load_position(write(tmp_path, body))
    assert position.state.out == (True, False) and position.state.to_move == 1


def test_engine_setup_rebuilds_the_game() -> None:
    game = StakdGame(2)
    again = game_from_setup(game.setup(), "record")
    assert again.setup() == game.setup() == {"geometry": "square", "height": 7, "players": 2, "width": 23}
    assert again.initial_state() == game.initial_state()
    with pytest.raises(BadInput, match="unknown key"):
        game_from_setup({"players": 2, "colour": "blue"}, "record")
    with pytest.raises(BadInput, match="1 to 6"):
        game_from_setup({"players": 0}, "record")


def test_engine_render_draws_layers_top_first_with_piece_joints() -> None:
    game = StakdGame(1)
    state = parse_state("1B@3,1h;1B@0,0h/1T@0,0h;1X@3,0;1D@3,1h/1T@1,0h D2U3 1")
    lines = draw(game, state)
    assert lines[0].startswith("layer 2") and "current" in lines[0]
    assert "  0 . T-T-T" in lines  # layer 2's Trio at x 1..3 of row 0; (0,0) of layer 1 left uncovered
    assert "  0 T-T-T X ." in lines  # layer 1: Trio, then the Bomber; (4,0) of Base A left uncovered
    assert lines[-1] == "player 1: D2U3 <- to move"


def test_engine_evaluation_and_move_ordering_hooks() -> None:
    from stratagem.core.game import Evaluation, MoveOrdering

    position = load_position(PUZZLES / "endgame-2p-bomber.toml")
    game, state = position.game, position.state
    assert isinstance(game, Evaluation) and isinstance(game, MoveOrdering)
    values = game.evaluate(state)
    assert len(values) == 2 and all(-1.0 <= v <= 1.0 for v in values) and values[0] == pytest.approx(-values[1])
    moves = game.legal_moves(state)
    ordered = game.order_moves(state, moves)
    assert sorted(ordered) == sorted(moves) and ordered[0].kind == "X"
    assert StakdGame(1).evaluate(StakdGame(1).initial_state()) == (-1.0,)
