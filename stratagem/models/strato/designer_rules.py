"""Designer mode's rules (:mod:`~stratagem.models.strato.designer` says what designer mode is and why it is a
relaxation of the game): a layout's successors, each turn any weather of the challenge at either end of any
row with every target choice its action allows (:func:`~stratagem.models.strato.rules.turns.table_outcomes`,
the very code the game uses), and its goal; and the game designer mode's SAT formula reads
(:func:`designer_game`).

Apart from the searches (A*'s bound, the solvers) so that ``stratagem verify`` replays a designer line and
rebuilds designer mode's formula with these rules alone: its trusted base reaches no search code
(docs/verification.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from stratagem.core.errors import NotationError
from stratagem.models.strato.rules.cards import CLOUD
from stratagem.models.strato.rules.challenge import Challenge, Options
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import Row, State, format_rows, parse_rows
from stratagem.models.strato.rules.turns import StratoGame, table_outcomes

__all__ = ["DesignerRules", "Layout", "designer_game"]


class Layout(NamedTuple):
    """A designer-mode state: the rows, and the weather a Cloud would copy (``""``: none, or no Cloud in play)."""

    rows: tuple[Row, ...]
    last: str = ""


class DesignerRules:
    """Designer mode's rules: a layout's start, its successors and its goal. Moves are the game's
    :class:`~stratagem.models.strato.rules.notation.Move` (never a Redraw), so lines print in the usual
    notation. :class:`~stratagem.models.strato.designer.StratoDesigner` adds the searches' bound."""

    def __init__(self, challenge: Challenge, options: Options, rows: tuple[Row, ...], last: str = "") -> None:
        self.challenge = challenge
        self.options = options
        self._clouds = CLOUD in challenge.weathers
        self._start = Layout(rows, last if self._clouds else "")
        self._weathers = sorted(challenge.weathers)
        # Victory depends on the rows alone, and many states share rows.
        self._victory: dict[tuple[Row, ...], bool] = {}

    def start(self) -> Layout:
        return self._start

    def successors(self, state: Layout, distinct: bool = True) -> Iterator[tuple[Move, Layout]]:
        """Every weather, row, end and target choice, in that order; over-limit plays are left out.

        With ``distinct`` (what the searches want) a layout is yielded once, by the first move that makes it;
        without, every move is (what a replay wants: a line may reach a layout by another of its moves, e.g.
        a Cloud copying the weather played before, or another target choice with the same result)."""
        limit = self.challenge.limit
        seen: set[Layout] = set()
        for card in self._weathers:
            last = "" if not self._clouds else state.last if card == CLOUD else card
            for r in range(len(state.rows)):
                for end in (0, 1):
                    for target, rows, exchange in table_outcomes(state.rows, card, state.last, r, end, self.options):
                        if any(len(row.left) > limit or len(row.right) > limit for row in rows):
                            continue
                        after = Layout(rows, last)
                        if distinct:
                            if after in seen:
                                continue
                            seen.add(after)
                        yield Move(card, r, end, target, False, exchange), after

    def is_goal(self, state: Layout) -> bool:
        verdict = self._victory.get(state.rows)
        if verdict is None:
            verdict = self._victory[state.rows] = self.challenge.victory(state.rows)
        return verdict

    def format_state(self, state: Layout) -> str:
        """The rows in the game's notation, then (only with a Cloud in play) the weather a Cloud copies."""
        if not self._clouds:
            return format_rows(state.rows)
        return f"{format_rows(state.rows)} {state.last or '-'}"

    def parse_state(self, text: str) -> Layout:
        """Inverse of :meth:`format_state` (a :class:`~stratagem.core.errors.NotationError` for text that is
        not a layout of this notation): how ``verify`` reads a no-win certificate's layouts."""
        if not self._clouds:
            return Layout(parse_rows(text), "")
        rows, _, last = text.strip().rpartition(" ")
        if not rows or len(last) != 1 or not (last == "-" or last in self.challenge.weathers):
            raise NotationError(f"{text[:60]!r}: rows, a space and the weather a Cloud copies (a letter of the "
                                f"challenge's weathers, or - for none)")
        return Layout(parse_rows(rows), "" if last == "-" else last)


def designer_game(layout: DesignerRules) -> StratoGame:
    """A game whose start is the layout's rows and last weather, with one empty hand and no pile: what
    :class:`~stratagem.models.strato.encodings.sat.StratoCNF` reads in designer mode (the rows, the last
    weather, the challenge and options)."""
    start = layout.start()
    return StratoGame(layout.challenge, layout.options, State(start.rows, ("",), "", 0, start.last))
