"""Position files (puzzles/stackattack/), setups and their errors."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from stratagem.core.errors import BadInput
from stratagem.core.game import SIMULTANEOUS
from stratagem.core.outputs import dumps_record
from stratagem.models.stackattack.position import State
from stratagem.models.stackattack.puzzle import game_from_setup, load_position
from stratagem.models.stackattack.rules import Options, StackAttackGame

from .support import PUZZLES

FILES = sorted(PUZZLES.glob("*.toml"))
#: the five-turn endgames (issue 20) and the six-turn one the bench makes (issue 28): far too large to
#: count their lines here
DEEP = [p for p in FILES if p.stem.endswith(("-5-turns", "-6-turns"))]
FIVE = [p for p in DEEP if p.stem.endswith("-5-turns")]


def _leaves(game: StackAttackGame, state: State) -> int:
    """Terminal positions under ``state`` (every joint reveal and decision), counted by brute force."""
    if game.is_terminal(state):
        return 1
    if game.to_move(state) == SIMULTANEOUS:
        return sum(_leaves(game, game.apply(state, j)) for j in itertools.product(*state.hands))
    return sum(_leaves(game, game.apply(state, m)) for m in game.legal_moves(state))


def test_engine_shipped_endgames_cover_player_counts_and_action_settings() -> None:
    assert len(FILES) >= 6
    kinds = set()
    for path in FILES:
        pos = load_position(path)
        assert pos.game.options.scope == "round", path  # endgames of a round
        assert 2 <= len(pos.state.hands[0]) <= (6 if path in DEEP else 3), path  # the last 2-3 turns (deep: 5-6)
        kinds.add((pos.game.num_players, pos.game.options.actions))
    assert {n for n, _ in kinds} >= {2, 3, 4}
    assert {a for _, a in kinds} == {True, False}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_engine_every_shipped_endgame_loads_and_plays_to_the_end(path: Path) -> None:
    pos = load_position(path)
    assert pos.name and pos.description
    assert pos.game.to_move(pos.state) == SIMULTANEOUS
    assert pos.game.parse_state(pos.game.format_state(pos.state)) == pos.state
    if path in DEEP:  # the deep endgames' lines run to millions: their size is the bench's business
        return
    # Small enough for exact analysis (the 3- and 4-player files are the largest).
    assert 0 < _leaves(pos.game, pos.state) < 20000


def test_engine_deep_endgames_are_two_player_five_turn_positions_with_and_without_actions() -> None:
    """Issue 20's deep endgames: two players, five cards each, one numbers-only file and one with actions
    where both players hold action cards."""
    assert len(FIVE) == 2
    settings = set()
    for path in FIVE:
        pos = load_position(path)
        assert pos.game.num_players == 2 and [len(h) for h in pos.state.hands] == [5, 5], path
        settings.add(pos.game.options.actions)
        if pos.game.options.actions:
            assert all(any(pos.game.action_of[c] for c in hand) for hand in pos.state.hands), path
    assert settings == {True, False}


def test_engine_setup_round_trips_through_json() -> None:
    import json

    game = StackAttackGame(3, Options(actions=False, scope="round", penalties=((7, 8),)))
    data = json.loads(dumps_record(game.setup()))
    again = game_from_setup(data, "record.json")
    assert again.options == game.options and again.num_players == 3
    assert again.deck.penalty(7) == 8


def test_engine_seeded_position_deals_a_round(tmp_path: Path) -> None:
    path = tmp_path / "seeded.toml"
    path.write_text('game = "stackattack"\n[position]\nseed = 4\nplayers = 5\n')
    pos = load_position(path)
    assert pos.game.num_players == 5 and all(len(h) == 10 for h in pos.state.hands)
    assert load_position(path).state == pos.state  # reproducible


@pytest.mark.parametrize(("text", "place"), [
    ('game = "strato"\n[position]\nseed = 1\nplayers = 2\n', "game"),
    ('game = "stackattack"\n[options]\nactoins = false\n[position]\nseed = 1\nplayers = 2\n', "options.actoins"),
    ('game = "stackattack"\n[options]\nscope = "turn"\n[position]\nseed = 1\nplayers = 2\n', "options.scope"),
    ('game = "stackattack"\n[options]\nblock = [16, 70]\n[position]\nseed = 1\nplayers = 2\n', "options"),
    ('game = "stackattack"\n[options]\npenalties = { "7" = 4 }\n[position]\nseed = 1\nplayers = 2\n',
     "options.penalties.7"),
    ('game = "stackattack"\n[position]\nseed = 1\nplayers = 7\n', "position.players"),
    ('game = "stackattack"\n[position]\nstate = "12/28/47 1/2 -/- 0/0 1"\n', "position.state"),
    ('game = "stackattack"\n[position]\nstate = "12/28/47/63 1/2 -/- 0/0 1"\nseed = 3\n', "position.seed"),
])
def test_engine_bad_position_file_names_the_key(tmp_path: Path, text: str, place: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(BadInput) as info:
        load_position(path)
    assert info.value.place == place and info.value.source == str(path)


def test_engine_bad_setup_is_bad_input() -> None:
    with pytest.raises(BadInput, match="players"):
        game_from_setup({"players": 9}, "r.json")
    with pytest.raises(BadInput, match="unknown key"):
        game_from_setup({"players": 2, "colour": 1}, "r.json")


def test_engine_the_six_turn_endgame_is_the_one_the_bench_makes() -> None:
    """Issue 28: the bench makes a two-player six-turn endgame (dealt from a seed, played at random);
    the shipped file is that position."""
    from stratagem.bench.stackattack import DEEP as MADE
    from stratagem.bench.stackattack import made_endgame

    six = [p for p in DEEP if p.stem.endswith("-6-turns")]
    assert [p.stem for p in six] == ["2p-numbers-6-turns"]
    pos = load_position(six[0])
    assert (7, 6, False) in MADE
    game, state = made_endgame(7, 6, actions=False)
    assert state == pos.state and game.options == pos.game.options
    assert [len(h) for h in state.hands] == [6, 6]
    again, other = made_endgame(36, 5, actions=True)  # the shipped five-turn endgame with actions, made again
    assert other == load_position(PUZZLES / "2p-actions-5-turns.toml").state
