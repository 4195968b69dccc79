"""The exhaustive solo search (search.py) on tiny piece sets: verdicts derived by hand in comments, lines
replayed through the rules engine, the memo never changing a verdict, and the node limit."""

from __future__ import annotations

import pytest

from stratagem.models.stakd.notation import parse_hand
from stratagem.models.stakd.position import State
from stratagem.models.stakd.rules import StakdGame
from stratagem.models.stakd.search import IMPOSSIBLE, SOLVED, UNKNOWN, solo_search


def solo(hand: str) -> StakdGame:
    return StakdGame(1, start=State((), (parse_hand(hand),), 0, (False,)))


def replay_places_everything(game: StakdGame, line: tuple[object, ...]) -> bool:
    state = game.initial_state()
    for move in line:
        state = game.apply(state, move)  # type: ignore[arg-type]
    return game.is_terminal(state) and game.returns(state) == (1.0,)


@pytest.mark.parametrize(
    ("hand", "status"),
    [
        ("B1D1", SOLVED),  # Base, then the Duo starts layer 1 (no play left on layer 0)
        ("B1U1D1", SOLVED),  # the Duo must start layer 1 (a Uni may not while a Duo is in hand)
        ("B1X1", IMPOSSIBLE),  # a Bomber can never start a layer, and layer 1 is empty
        ("D1", IMPOSSIBLE),  # the first piece is a Base
        # One Base carries at most one Uni; a Uni on the Duo above is the only other support, and Unis
        # never stack on Unis: at most two Unis, so four cannot all be placed.
        ("B1D1U4", IMPOSSIBLE),
        ("B1T1D2U2", SOLVED),
        ("B2Q1T2D3U6X1", SOLVED),
    ],
)
def test_engine_solo_search_verdicts(hand: str, status: str) -> None:
    game = solo(hand)
    result = solo_search(game, node_limit=100_000)
    assert result.status == status
    if status == SOLVED:
        assert result.line is not None and replay_places_everything(game, result.line)


def test_engine_solo_search_node_limit_gives_unknown() -> None:
    result = solo_search(solo("B2D2U6"), node_limit=5)
    assert result.status == UNKNOWN and result.line is None and result.nodes == 5  # the limit, not one past it


def test_engine_solo_search_refuses_a_game_of_two() -> None:
    with pytest.raises(ValueError, match="one-player"):
        solo_search(StakdGame(2))


def test_engine_solo_search_memo_agrees_with_plain_search_on_small_sets() -> None:
    """The memo merges positions by their top two layers; a plain search without it must agree."""

    def plain(game: StakdGame, state: State) -> bool:
        if not any(state.hands[0]):
            return True
        return any(plain(game, game.apply(state, m)) for m in game.legal_moves(state))

    for hand in ("B1T1D1U2", "B1D2U3", "B1Q1D1U2X1", "B1T2U3", "B2D1U3"):
        game = solo(hand)
        assert (solo_search(game).status == SOLVED) == plain(game, game.initial_state()), hand
