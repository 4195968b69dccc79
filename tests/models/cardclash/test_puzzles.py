"""The shipped positions (puzzles/cardclash/*.toml) and the position-file reader (puzzle.py).

Every claim is confirmed twice where time allows: by the tiny exhaustive search of support.py
(exact depth: a forced square on ply N and on no earlier ply) and by the project's alpha-beta /
paranoid search (stratagem/solvers/multiplayer.py) limited to N plies, whose value is exactly +1 only if
every line of its proof ends in a won terminal state (the evaluation at the horizon stays below 0.9).
Searches that take more than a few seconds are marked slow.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.core.errors import BadInput
from stratagem.models.cardclash.puzzle import Position, game_from_setup, load_position
from stratagem.models.cardclash.rules import CardClashGame
from stratagem.solvers.alphabeta import alphabeta
from stratagem.solvers.multiplayer import paranoid
from tests.models.cardclash.support import PUZZLES, forced_square_depth, forces_square, square_win

ALL = sorted(PUZZLES.glob("*.toml"))
SLOW = {"square-in-7"}
SOLVER_SLOW = {"square-in-7", "strategic-in-5"}


def _claims_a_winner(path: Path) -> bool:
    claim = load_position(path).claim
    return claim is not None and claim.winner is not None


WINS = [path for path in ALL if _claims_a_winner(path)]


def _load(name: str) -> Position:
    return load_position(PUZZLES / f"{name}.toml")


def test_engine_at_least_eight_positions_of_every_kind_are_shipped() -> None:
    positions = [load_position(path) for path in ALL]
    assert len(positions) >= 8
    claims = [p.claim for p in positions]
    assert all(c is not None for c in claims)
    depths = {p.claim.plies for p in positions
              if p.claim is not None and p.claim.winner is not None and p.state.players == 2}
    assert {1, 3, 5} <= depths and max(depths) >= 7
    assert any(c is not None and c.winner is None for c in claims)  # a defence that holds
    assert any(p.state.players == 3 for p in positions)
    assert sum(p.game.strategic for p in positions) >= 2


def _params(skip: set[str], paths: list[Path] = ALL) -> list[object]:
    return [pytest.param(path.stem, marks=pytest.mark.slow) if path.stem in skip else path.stem for path in paths]


@pytest.mark.parametrize("name", _params(SLOW))
def test_engine_puzzle_claim_holds_by_exhaustive_search(name: str) -> None:
    position = _load(name)
    claim = position.claim
    assert claim is not None
    game, state = position.game, position.state
    if claim.winner is not None:
        assert state.to_move == claim.winner
        assert forced_square_depth(game, state, claim.winner, claim.plies) == claim.plies
    else:
        # A defence that holds: no player forces a square within the claimed horizon.
        for player in range(state.players):
            assert not forces_square(game, state, player, claim.plies), player


@pytest.mark.parametrize("name", _params(SOLVER_SLOW, WINS))
def test_engine_puzzle_forced_square_confirmed_by_alphabeta(name: str) -> None:
    position = _load(name)
    claim = position.claim
    assert claim is not None and claim.winner is not None
    search = alphabeta if position.state.players == 2 else paranoid
    result = search(position.game, position.state, depth=claim.plies)
    assert result.value == 1
    # Follow the principal variation: it ends in the claimed player's square within the horizon.
    state = position.state
    for move in result.pv:
        state = position.game.apply(state, move)
    assert len(result.pv) <= claim.plies
    if position.state.players == 2:
        assert square_win(state, claim.winner)


def test_seed_variant_matters_in_the_strategic_puzzles() -> None:
    """Each strategic position plays differently without the variant (cheap checks only)."""
    for name, plain_depth, limit in [("strategic-uncover", None, 3), ("strategic-in-5", 3, 3),
                                     ("strategic-double-threat", None, 3)]:
        position = _load(name)
        plain = CardClashGame(2, width=position.game.width, height=position.game.height, start=position.state)
        assert forced_square_depth(plain, position.state, 0, limit) == plain_depth, name
    position = _load("strategic-defence")
    plain = CardClashGame(2, start=position.state)
    assert forced_square_depth(plain, position.state, 1, 2) == 2


@pytest.mark.slow
def test_seed_variant_is_needed_for_the_double_threat() -> None:
    position = _load("strategic-double-threat")
    plain = CardClashGame(2, start=position.state)
    assert forced_square_depth(plain, position.state, 0, 8) is None


# -- the reader ---------------------------------------------------------------------------------
def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "p.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


GOOD = 'game = "cardclash"\n[position]\nstate = "r2,r3/r4,. 5,6 -,- 1"\n'


def test_engine_position_file_defaults() -> None:
    position = load_position(PUZZLES / "square-in-1.toml")
    assert position.name == "Square in one" and position.game.width == 4 and position.claim is not None


def test_engine_position_file_minimal(tmp_path: Path) -> None:
    position = load_position(_write(tmp_path, GOOD))
    assert position.game.setup() == {"players": 2, "width": 6, "height": 6, "strategic": False, "rounds": 1,
                                     "seed": 0}
    assert position.game.initial_state() == position.state and position.claim is None


def test_engine_position_file_seeded_deal(tmp_path: Path) -> None:
    position = load_position(_write(tmp_path, 'game = "cardclash"\n[position]\nseed = 4\nplayers = 3\n'))
    assert position.state.players == 3 and [len(h) for h in position.state.hands] == [4, 4, 4]


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ('game = "strato"\n[position]\nstate = "r2 3,4 -,- 1"\n', "game"),
        (GOOD + "colour = 1\n", "position.colour"),
        ('game = "cardclash"\ncolour = 1\n[position]\nstate = "r2 3,4 -,- 1"\n', "colour"),
        ('game = "cardclash"\n[position]\nstate = "r2 3 -,- 1"\n', "position.state"),
        ('game = "cardclash"\n[options]\nwidth = 1\n[position]\nstate = "r2 3,4 -,- 1"\n', "options.width"),
        ('game = "cardclash"\n[options]\nwidth = 2\n[position]\nstate = "r2,r3,r4 3,4 -,- 1"\n', "position.state"),
        ('game = "cardclash"\n[options]\nplayers = 3\n[position]\nstate = "r2 3,4 -,- 1"\n', "options.players"),
        ('game = "cardclash"\n[options]\nstrategic = "yes"\n[position]\nstate = "r2 3,4 -,- 1"\n',
         "options.strategic"),
        ('game = "cardclash"\n[options]\nrounds = 9\n[position]\nstate = "r2 3,4 -,- 1"\n', "options.rounds"),
        (GOOD + "[claim]\nwinner = 3\nplies = 1\n", "claim.winner"),
        (GOOD + "[claim]\nwinner = 1\nplies = 0\n", "claim.plies"),
        ('game = "cardclash"\n[position]\nstate = "r2 3,4 -,- 1"\nseed = 1\n', "position.seed"),
        ('game = "cardclash"\n[position]\nstate = "r2 3,44444 -,- 1"\n', "position.state"),
    ],
)
def test_engine_bad_position_file_names_the_place(tmp_path: Path, text: str, place: str) -> None:
    with pytest.raises(BadInput) as info:
        load_position(_write(tmp_path, text))
    assert info.value.place == place


def test_engine_bad_setup_raises_bad_input() -> None:
    with pytest.raises(BadInput):
        game_from_setup({"players": 7}, "<record>")
    with pytest.raises(BadInput):
        game_from_setup({"colours": 2}, "<record>")


def test_ruling_analysis_is_alphabeta_for_two_players_and_paranoid_or_maxn_for_more() -> None:
    """Ruling: "Two players: win/loss/draw by alpha-beta; more players: paranoid by default, max^n as an
    option" -- and each assumption is named in the result."""
    from stratagem.analysis import analyze

    two = analyze(str(PUZZLES / "square-in-3.toml"))
    assert (two.method, two.assumption) == ("alphabeta", "open information") and two.solved and two.value == 1
    three = str(PUZZLES / "three-players.toml")
    paranoid_result = analyze(three)
    assert (paranoid_result.method, paranoid_result.assumption) == ("paranoid", "paranoid")
    assert "(paranoid)" in paranoid_result.summary
    maxn_result = analyze(three, method="maxn", max_nodes=2000)
    assert (maxn_result.method, maxn_result.assumption) == ("maxn", "max^n")
