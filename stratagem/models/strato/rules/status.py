"""The end of a Strato turn: won, lost, or play goes on -- and a written result held to it.

The one place that decides a turn's result from the table (seed "End of the Game", docs/rules/strato.md):
the engine (:mod:`~stratagem.models.strato.rules.turns`) applies :func:`end_of_turn_status` after every play,
and :func:`status_problem` holds a position's written ``won``/``lost`` to it wherever a position is read
(:func:`~stratagem.models.strato.rules.deal.check_position`). Both the rules and the deal checks import it, so
neither imports the other for it.
"""

from __future__ import annotations

from collections.abc import Callable

from stratagem.models.strato.rules.challenge import Challenge
from stratagem.models.strato.rules.position import LOST, ONGOING, STATUS_WORDS, WON, Row, State

__all__ = ["end_of_turn_status", "status_problem", "table_status"]


def end_of_turn_status(
    challenge: Challenge, rows: tuple[Row, ...], pile: str, next_hand: str,
    won: Callable[[tuple[Row, ...]], bool] | None = None, *, table_checked: bool = False,
) -> int:
    """The end-of-turn checks, in the seed's order: a half-row over the limit loses; the goal on the
    required rows wins; an empty pile with nothing in the next player's hand loses; else play goes on.

    The one place that decides a turn's result from the table: the engine applies it after every play,
    and :func:`status_problem` holds a position's written ``won``/``lost`` to it. ``won`` is the victory
    test to use (the engine passes its cached one). ``table_checked``: the caller has made the first two
    checks on these very rows and neither held (the hidden-pile engine makes them before the turn's draws,
    which change no row), so only the third is left.
    """
    if not table_checked:
        status = table_status(challenge, rows, won)
        if status != ONGOING:
            return status
    if not pile and not next_hand:
        return LOST
    return ONGOING


def table_status(challenge: Challenge, rows: tuple[Row, ...], won: Callable[[tuple[Row, ...]], bool] | None = None
                 ) -> int:
    """The first two end-of-turn checks, which read the table alone (:func:`end_of_turn_status`): a half-row
    over the limit loses, else the goal on the required rows wins, else ``ONGOING``."""
    limit = challenge.limit
    for row in rows:
        if len(row.left) > limit or len(row.right) > limit:
            return LOST
    return WON if (won or challenge.victory)(rows) else ONGOING


def status_problem(challenge: Challenge, state: State) -> str | None:
    """Why ``state``'s written result (``won``, ``lost`` or none) is not what the table shows, or None.

    A position's status is never taken on trust: it must be what :func:`end_of_turn_status` makes of
    the rows, the pile and the next player's hand. One reading of the seed's "at the end of a player's
    turn": before any turn has ended (a deal, or a position read as the start of play) rows that
    already meet the goal are not yet a victory, so a position without a result may show them; a turn
    must still be played, and its end decides.
    """
    table = end_of_turn_status(challenge, state.rows, state.pile, state.hands[state.to_move])
    if state.status == table or (state.status == ONGOING and table == WON):
        return None
    over = [
        f"{i}{side} holds {len(row.half(s))}"
        for i, row in enumerate(state.rows, start=1)
        for s, side in enumerate("LR")
        if len(row.half(s)) > challenge.limit
    ]
    if over:
        shows = f"half-row {over[0]} cards, over the limit {challenge.limit}: the game is lost"
    elif table == WON:
        shows = f"the rows meet the goal on {challenge.rows_required} row(s): the game is won"
    elif table == LOST:
        shows = f"the draw pile is empty and player {state.to_move + 1}, next to play, holds no card: the game is lost"
    elif state.status == WON:
        shows = (f"the rows do not meet the goal ({challenge.rows_meeting(state.rows)} of "
                 f"{challenge.rows_required} required row(s) do)")
    else:
        shows = (f"no half-row is over the limit {challenge.limit} and player {state.to_move + 1} "
                 "can still play (a card in hand or a draw pile): the game goes on")
    said = f"says '{STATUS_WORDS[state.status]}'" if state.status != ONGOING else "gives no result"
    return f"the position {said} but {shows}"
