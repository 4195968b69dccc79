"""Designer mode: what the table of a challenge can become, whatever cards the players hold.

A puzzle designer laying out a challenge wants to know whether its goal can be met *at all* from a
layout, before thinking about any deal. Designer mode answers with a relaxation of the game: it keeps
the challenge's rows and forgets hands, the draw pile and players. Each turn any weather of the
challenge may be played, as if from an unlimited supply, at either end of any row, with every target
choice its action allows (:func:`~stratagem.models.strato.rules.turns.table_outcomes`, the table half of a
turn, the very code the game uses). End of turn is checked as in the game: a half-row over the limit
ends play (that play is not a successor), and the victory condition is the goal.

The state is the rows plus the weather the last played card resolved as, which only a Cloud reads:
when no Cloud is in play it is left blank, so positions that differ only in it merge. Successors
leading to the same state are merged, keeping the first move in the engine's order.
A layout that already meets the goal is a goal (par 0), although the game only declares victory
at the end of a turn; that only makes the relaxation looser.

Why it is a relaxation: every turn of a real deal plays some weather of the challenge (from hand or by
Redraw) at an end of a row and resolves it exactly as here, so every line of every deal on a layout
is also a designer line from that layout, and every win of the deal is a designer goal. Hence

* the designer *par* (fewest turns to a goal) is at most the optimal length of any deal on the
  layout -- a lower bound for free;
* when the complete designer graph of a layout holds no goal state, no deal on that layout can be
  won: the graph itself is the proof (every table reachable with any cards, and none wins).

Where the graph is too big to build whole (challenge 1's layouts pass 200,000 states at depth 4),
:func:`designer_par` finds the par by A* with :meth:`StratoDesigner.heuristic`, the game's admissible
bound: challenge 1's first layout, par 7, after 59 expansions. Stopped by a limit, A* still proves its
largest ``f`` a lower bound on the par, hence on the optimal length of every deal on the layout.

The rules themselves (:class:`Layout`, the successors, the goal) are
:mod:`~stratagem.models.strato.designer_rules`, apart from the searches, so that ``verify`` uses them alone.
"""

from __future__ import annotations

from stratagem.models.strato.designer_rules import DesignerRules, Layout
from stratagem.models.strato.rules.challenge import Challenge, Options
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import ONGOING, Row, State
from stratagem.models.strato.search.heuristic import lower_bound
from stratagem.solvers.search import Progress, SearchResult, astar

__all__ = ["Layout", "StratoDesigner", "designer_par"]


class StratoDesigner(DesignerRules):
    """:class:`~stratagem.core.game.SearchProblem` of designer mode: from a layout, meet the challenge's goal
    (the rules, :class:`~stratagem.models.strato.designer_rules.DesignerRules`, with A*'s bound)."""

    def __init__(self, challenge: Challenge, options: Options, rows: tuple[Row, ...], last: str = "") -> None:
        super().__init__(challenge, options, rows, last)
        self._at_hand = "".join(self._weathers)  # the heuristic's hand: every weather of the challenge
        # The bound depends on the rows alone, and many states share rows.
        self._bounds: dict[tuple[Row, ...], int] = {}

    def heuristic(self, state: Layout) -> int:
        """The game's admissible bound of the rows with every weather of the challenge in hand.

        It counts cards and lengths, which the hand's size never helps with; but where no Fog or Storm is
        left to play, no card changes rows and it sums the rows' own bounds, which a Storm breaks (one turn
        may finish two rows: the Storm played into one, and a card it swaps into the other). In designer
        mode a Fog or Storm of the challenge is always at hand, so the position it is asked of holds one
        of each weather. (An empty hand made it inadmissible: 2 turns for a layout one Storm wins.)
        """
        if self.is_goal(state):
            return 0
        bound = self._bounds.get(state.rows)
        if bound is None:
            position = State(state.rows, (self._at_hand,), "", 0, "", ONGOING)
            bound = self._bounds[state.rows] = lower_bound(self.challenge, position)
        return bound


def designer_par(layout: StratoDesigner, *, time_limit: float | None = None, max_states: int | None = None,
                 progress: Progress | None = None) -> SearchResult[Layout, Move]:
    """The designer par of ``layout`` by A*: ``solved`` with a line of par length (optimal, the bound being
    admissible), ``unsolvable`` when every reachable layout was expanded without a goal, or ``unknown`` when
    ``time_limit`` seconds or ``max_states`` states held stopped it, with the par proven at least
    ``lower_bound``."""
    return astar(layout, time_limit=time_limit, max_states=max_states, progress=progress)
