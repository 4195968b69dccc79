"""Shipped endgame positions (puzzles/stratatak/), position files and their errors, and rendering.

Each shipped position claims player 1's open-analysis value in ``[solution] value``; the test proves it
with the bounded expectiminimax of ``support.py`` (lower and upper bound agree), independent of
``stratagem.solvers``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from stratagem.core.errors import BadInput
from stratagem.core.game import CHANCE
from stratagem.models.stratatak.position import ATTACK
from stratagem.models.stratatak.puzzle import game_from_setup, load_position
from stratagem.models.stratatak.render import draw
from stratagem.models.stratatak.rules import StratatakGame

from .support import PUZZLES, solve

FILES = sorted(PUZZLES.glob("*.toml"))


def test_engine_at_least_four_endgames_are_shipped() -> None:
    assert len(FILES) >= 4
    values = [load_position(f).value for f in FILES]
    assert any(v == 1 for v in values) and any(v == -1 for v in values)  # attacker wins / defender holds
    assert any(v is not None and abs(v) != 1 for v in values)  # a chance position


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_engine_shipped_endgame_has_its_claimed_value(path: Path) -> None:
    position = load_position(path)
    assert position.state.phase == ATTACK and max(len(h) for h in position.state.hands) <= 4
    assert position.value is not None
    # Within the file's battle limit every line ends, so the bounds meet: the exact limited value.
    assert solve(position.game, position.state, 30) == position.value
    # Without the limit the bounds still meet within 11 plies: the value of the rules as written.
    unlimited = StratatakGame(replace(position.game.options, battle_limit=0))
    state = position.state._replace(left=-1)
    assert solve(unlimited, state, 11) == position.value


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_engine_shipped_endgame_solves_with_the_project_expectiminimax(path: Path) -> None:
    expectimax = pytest.importorskip("stratagem.solvers.expectimax")
    position = load_position(path)
    result = expectimax.expectiminimax(position.game, position.state, lo=-1, hi=1)
    assert result.status == "solved" and result.value == position.value


def _reaches_chance(game: StratatakGame, state, depth: int) -> bool:  # type: ignore[no-untyped-def]
    if game.to_move(state) == CHANCE:
        return True
    if depth == 0 or game.is_terminal(state):
        return False
    return any(_reaches_chance(game, game.apply(state, m), depth - 1) for m in game.legal_moves(state))


def test_ruling_a_shipped_endgame_reaches_a_reshuffle_chance_event() -> None:
    position = load_position(PUZZLES / "reshuffle-gamble.toml")
    assert _reaches_chance(position.game, position.state, 2)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_engine_render_draws_every_shipped_position(path: Path) -> None:
    position = load_position(path)
    lines = draw(position.game, position.state)
    assert any("player 1" in line for line in lines) and any("draw pile" in line for line in lines)


def test_engine_seeded_position_deals_a_start(tmp_path: Path) -> None:
    path = tmp_path / "deal.toml"
    path.write_text('game = "stratatak"\n[position]\nseed = 4\n', encoding="utf-8")
    position = load_position(path)
    assert [len(h) for h in position.state.hands] == [7, 7] and position.name == "deal"


BAD: list[tuple[str, str, Callable[[str], bool]]] = [
    ('game = "strato"\n[position]\nseed = 1\n', "game", lambda m: "not a Stratatak" in m),
    ('[position]\nseed = 1\n', "game", lambda m: "missing" in m),
    ('game = "stratatak"\ncolour = 1\n[position]\nseed = 1\n', "colour", lambda m: "unknown key" in m),
    ('game = "stratatak"\n[options]\nstar_mode = "joker"\n[position]\nseed = 1\n', "options.star_mode",
     lambda m: "wildcard" in m),
    ('game = "stratatak"\n[options]\nhand_size = "7"\n[position]\nseed = 1\n', "options.hand_size",
     lambda m: "integer" in m),
    ('game = "stratatak"\n[position]\nstate = "B1,R1 - - - Q1"\n', "position.state", lambda m: "turn" in m),
    ('game = "stratatak"\n[position]\nstate = "B1B1B1,R1 - - - A1"\n', "position.state", lambda m: "copies" in m),
    ('game = "stratatak"\n[position]\nstate = "B1,R1 - - - A1"\nseed = 2\n', "position", lambda m: "exactly one" in m),
    ('game = "stratatak"\n[position]\nstate = "B1,R1 G1 - - A1"\n[solution]\nvalue = "x"\n', "solution.value",
     lambda m: "fraction" in m),
]  # fmt: skip


@pytest.mark.parametrize("text,place,check", BAD)
def test_engine_bad_position_files_name_file_key_and_problem(
    tmp_path: Path, text: str, place: str, check: Callable[[str], bool]
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadInput) as info:
        load_position(path)
    assert info.value.source == str(path) and info.value.place == place and check(info.value.problem)


def test_engine_game_from_setup_rejects_unknown_options() -> None:
    with pytest.raises(BadInput, match="unknown key"):
        game_from_setup({"star_mode": "wildcard", "jokers": 2}, "<record>")
    with pytest.raises(BadInput, match="copies"):
        game_from_setup({"copies": 0}, "<record>")
    assert game_from_setup({}, "<record>").options.hand_size == 7
    with pytest.raises(BadInput, match="2 players"):
        game_from_setup({"players": 3}, "<record>")


def test_engine_solution_value_is_a_fraction() -> None:
    assert load_position(PUZZLES / "reshuffle-gamble.toml").value == Fraction(3, 5)


def test_engine_rules_doc_names_only_existing_tests() -> None:
    import re

    doc = (PUZZLES.parents[1] / "docs" / "rules" / "stratatak.md").read_text(encoding="utf-8")
    here = Path(__file__).parent
    for module, name in set(re.findall(r"`([a-z0-9_]+)::(test_[a-z0-9_]+)`", doc)):  # rules_audit56, qa65_rules
        source = (here / f"test_{module}.py").read_text(encoding="utf-8")
        assert f"def {name}(" in source, f"{module}::{name}"


def test_engine_a_hand_size_past_the_compiled_engines_plays_is_refused(tmp_path: Path) -> None:
    """QA 58: hand_size went up to 99; at that size analyze of a seeded deal ended in an internal error (more
    than 4,096 plays in one state, the compiled engine's buffer) and play ran past its limit. The cap is 14,
    whose worst hand (one colour's run cards and Stars) makes fewer plays than the buffer holds."""
    from itertools import product

    from stratagem.models.stratatak.cards import BLUE, GREEN, RED, STAR, make_card
    from stratagem.models.stratatak.engine import MAX_MOVES
    from stratagem.models.stratatak.plays import legal_plays
    from stratagem.models.stratatak.puzzle import MAX_HAND_SIZE

    size = MAX_HAND_SIZE
    most = 0
    for blue, red in product(range(size + 1), repeat=2):
        for green in range(size + 1 - blue - red):
            hand = [make_card(BLUE, n) for n in range(1, blue + 1)] + [make_card(RED, n) for n in range(1, red + 1)]
            hand += [make_card(GREEN, n) for n in range(1, green + 1)] + [STAR] * (size - blue - red - green)
            most = max(most, len(legal_plays(tuple(sorted(hand)))))
    assert most < MAX_MOVES, most  # 2,100 (11 run cards of one colour and 3 Stars)
    path = tmp_path / "deal.toml"
    path.write_text(f'game = "stratatak"\n[options]\nhand_size = {size + 1}\n[position]\nseed = 4\n', encoding="utf-8")
    with pytest.raises(BadInput, match="hand_size"):
        load_position(path)
