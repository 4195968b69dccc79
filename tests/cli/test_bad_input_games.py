"""Bad position files and options for the position games: one stderr line naming file, place and
problem; exit 2; no traceback; no proof file written."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, assert_bad_input

GAMES = ROOT / "puzzles"
SAMPLES = {
    "stratatak": GAMES / "stratatak" / "run-of-reds.toml",
    "cardclash": GAMES / "cardclash" / "square-in-1.toml",
    "stakd": GAMES / "stakd" / "endgame-2p-only-move.toml",
    "stackattack": GAMES / "stackattack" / "2p-numbers-3-turns.toml",
}


def _analyze(cli, tmp_path: Path, text: str, *extra: str):
    path = tmp_path / "position.toml"
    path.write_text(text)
    proof = tmp_path / "proof.json"
    result = cli("analyze", str(path), "--proof", str(proof), *extra)
    assert not proof.exists(), "nothing may be written on bad input"
    return result


@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_malformed_toml_is_named_with_its_line(cli, tmp_path: Path, game: str) -> None:
    text = SAMPLES[game].read_text().replace("[position]", "[position", 1)
    assert_bad_input(_analyze(cli, tmp_path, text), "position.toml", "malformed TOML")


@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_an_unknown_option_is_named(cli, tmp_path: Path, game: str) -> None:
    text = SAMPLES[game].read_text()
    text = text.replace("[options]", "[options]\nflux_capacitor = true", 1) if "[options]" in text else \
        text.replace("[position]", "[options]\nflux_capacitor = true\n\n[position]", 1)
    assert_bad_input(_analyze(cli, tmp_path, text), "position.toml", "flux_capacitor")


@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_a_position_that_does_not_parse_is_named(cli, tmp_path: Path, game: str) -> None:
    lines = SAMPLES[game].read_text().splitlines()
    lines = ['state = "this is not a position"' if line.startswith("state =") else line for line in lines]
    assert_bad_input(_analyze(cli, tmp_path, "\n".join(lines) + "\n"), "position.toml", "position.state")


@pytest.mark.parametrize("game", ["stratatak", "cardclash", "stackattack"])
def test_a_negative_seed_is_refused_not_dealt_as_its_twin(cli, tmp_path: Path, game: str) -> None:
    """``seed = -1`` dealt exactly ``seed = 1``'s game (Python's Random(-1) is Random(1))."""
    lines = SAMPLES[game].read_text().splitlines()
    dealt = ["seed = -1" if line.startswith("state =") else line for line in lines]
    assert "seed = -1" in dealt
    if game != "stratatak":  # their seeded positions name the player count
        dealt.insert(dealt.index("seed = -1") + 1, "players = 2")
    assert_bad_input(_analyze(cli, tmp_path, "\n".join(dealt) + "\n"), "position.toml", "seed",
                     "a negative seed deals its positive twin's game")


def test_an_unknown_game_is_named(cli, tmp_path: Path) -> None:
    text = SAMPLES["stratatak"].read_text().replace('game = "stratatak"', 'game = "chess"')
    assert_bad_input(_analyze(cli, tmp_path, text), "position.toml", "game", "'chess'")


def test_a_strato_puzzle_is_not_a_position(cli) -> None:
    result = cli("analyze", str(GAMES / "strato" / "challenge-0.toml"))
    assert_bad_input(result, "challenge-0.toml", "game", "'strato'")


def test_as_a_player_who_is_not_in_the_game(cli) -> None:
    assert_bad_input(cli("analyze", str(SAMPLES["stratatak"]), "--as", "3"), "--as", "player 3")


def test_as_a_player_who_is_not_to_move(cli) -> None:
    assert_bad_input(cli("analyze", str(SAMPLES["stratatak"]), "--as", "2", "--method", "pimc"), "--as",
                     "not to move")


def test_an_estimate_method_cannot_write_a_proof(cli, tmp_path: Path) -> None:
    proof = tmp_path / "p.json"
    result = cli("analyze", str(SAMPLES["cardclash"]), "--method", "mcts", "--iterations", "10", "--proof", str(proof))
    assert_bad_input(result, "--proof", "estimates")
    assert not proof.exists()


def test_lp_is_refused_for_a_turn_based_game(cli) -> None:
    assert_bad_input(cli("analyze", str(SAMPLES["stakd"]), "--method", "lp"), "--method", "simultaneous")


def test_verify_refuses_an_unknown_record_format(cli, tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    record.write_text('{"format": "stratagem/nonsense@9"}')
    assert_bad_input(cli("verify", str(record)), "r.json", "format", "nonsense")


def test_verify_names_a_proof_tree_without_setup(cli, tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    record.write_text('{"format": "stratagem/prooftree@1", "game": "stakd", "start": "- B1 1"}')
    assert_bad_input(cli("verify", str(record)), "r.json", "setup")


def test_games_detail_without_json_is_refused(cli) -> None:
    """``--games-detail`` only adds to the ``--json`` document: alone it was ignored without a word."""
    assert_bad_input(cli("play", "cardclash", "--agents", "greedy,random", "--count", "2", "--games-detail"),
                     "--games-detail", "give --json too")
    assert cli("play", "cardclash", "--agents", "greedy,random", "--count", "2", "--games-detail", "--json").code == 0


@pytest.mark.parametrize(("state", "problem"), [
    ("r2,b3 5,6 -,- 1 out=r2", "cards leave the battlefield only in the strategic variant"),
    ("r2,b3 5,6 -,- 1 passes=1", "player 2 passed, but can lay a card"),
])
def test_a_card_clash_state_no_game_reaches_is_refused(cli, tmp_path: Path, state: str, problem: str) -> None:
    """Both were analysed with exit 0: ``out=`` outside the strategic variant, and a pass by a player
    who holds a card to lay (a pass changes nothing but the turn, so it must still have none)."""
    text = f'game = "cardclash"\n[position]\nstate = "{state}"\n'
    assert_bad_input(_analyze(cli, tmp_path, text), "position.state", problem)


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_a_stratatak_position_that_repeats_without_a_battle_limit_names_the_option(cli, tmp_path: Path,
                                                                                 engine: str) -> None:
    """It was "stratagem analyze: stratatak: a position repeats on one line ...", naming neither the file
    nor the fix; the rules doc's battle limit is the option for it."""
    text = 'game = "stratatak"\n[options]\nbattle_limit = 0\n[position]\nstate = "B9R1,B1G2 - - - A1"\n'
    result = _analyze(cli, tmp_path, text, "--engine", engine)
    assert_bad_input(result, "position.toml: options.battle_limit: 0 (none): a position repeats on one line",
                     "set battle_limit")
    limited = tmp_path / "limited.toml"
    limited.write_text(text.replace("battle_limit = 0", "battle_limit = 4"))
    assert cli("analyze", str(limited), "--engine", engine).code == 0


def test_a_position_file_without_its_game_says_it_is_missing(cli, tmp_path: Path) -> None:
    """It was read as Strato and refused as "not 'strato'", which named a game the file never gave."""
    path = tmp_path / "position.toml"
    path.write_text('[position]\nstate = "B9R1,B1G2 - - - A1"\n')
    assert_bad_input(cli("analyze", str(path)), "position.toml: game: missing: a position file names its game")


def test_only_a_repetition_is_named_as_one() -> None:
    """Every refusal of a compiled search was raised as a repetition, so a return out of bounds would have
    been reported as options.battle_limit."""
    from stratagem.core.errors import RepeatingPosition, StratagemError
    from stratagem.solvers.gametree import refusal

    class Named:
        name = "stratatak"

    repeated = refusal(Named(), "a position repeats on one line; the minimax searches need a game without cycles")
    assert isinstance(repeated, RepeatingPosition) and str(repeated).startswith("stratatak: a position repeats")
    other = refusal(Named(), "a return 7 outside the bounds [-1, 1] of the returns")
    assert type(other) is StratagemError
    assert str(other) == "stratatak: a return 7 outside the bounds [-1, 1] of the returns"
