"""Rules audit (session 56): seed sentences of Stack Attack checked where no other test exercised the
sentence itself (docs/rules/stackattack.md names each test)."""

from __future__ import annotations

from .support import options_of, play, position, rows_text


def test_seed_players_may_look_only_at_their_own_cards() -> None:
    # "Players may look only at their own cards." / "Each player secretly chooses one card": what a
    # player observes does not change with another player's hand, and does with their own.
    game, state = position("10/20/30/40 45.46/44.47 -/- 0/0 1")
    _, other = position("10/20/30/40 45.46/43.47 -/- 0/0 1")
    assert game.observation(state, 0) == game.observation(other, 0)
    assert game.observation(state, 1) != game.observation(other, 1)


def test_seed_shield_lower_than_every_row_goes_on_a_full_row_without_taking() -> None:
    # "If it is lower than the last card in every row, you may place it in any row without taking any
    # cards": also a row of five, which then holds six; the next card placed there takes all six.
    game, state = position("10.11.12.13.14/20/30/50 8.9/60.61 -/- 0/0 1")
    mid = play(game, state, "8,60")
    assert options_of(game, mid) == ["P1", "P2", "P3", "P4"]
    after = play(game, mid, "P1")
    assert rows_text(after) == ["10.11.12.13.14.8", "20", "30", "50.60"]
    assert after.taken == ((), ())
    done = play(game, after, "9,61")
    assert rows_text(done) == ["9", "20", "30", "50.60.61"]
    assert done.taken == ((8, 10, 11, 12, 13, 14), ())
    assert game.round_penalties(done) == (12, 0)  # 10 blue 3, 11 purple 5, four pink 1
