"""The designer par by SAT: "is there a designer line of at most k turns?", asked of CaDiCaL horizon by horizon.

Where A* (:func:`~stratagem.models.strato.designer.designer_par`) is stopped before it finds the par, the
layers of designer mode grow too fast for any search that holds them (the level-2 example's layout: A* held
4.3 million layouts in 440 CPU s without raising its bound above the start's 9). The bounded-horizon SAT
encoding of Strato (:class:`~stratagem.models.strato.encodings.sat.StratoCNF`) with ``designer=True`` drops
the hands and the pile: each turn's card is any weather of the challenge. Its redundant demand and room
bounds hold there too (they count entries, whatever card makes them), and they are what refutes a horizon
fast. One solver answers the horizons in turn under assumptions
(:func:`~stratagem.solvers.satplan.incremental_search`, as ``solve --method sat`` does), from the horizon
below the bound A* proved, at most :data:`DESIGNER_SAT_HORIZONS` of them, :data:`DESIGNER_SAT_WINDOW` to a
formula.

Measured (CPU s of the search alone, on 2 shared cores at load 4-6): the level-2 example's three layouts (seeds
1, 2 and 3; the deals of one seed share it) have designer par 10, 10 and 11, decided in 41-47, 31 and 30 s from
the horizon below A*'s bound; challenge 1's first layout, par 7, in 0.3 s. The default ``reach --designer``
of the first, graph and A* included: 102 CPU s.

What it proves: a line it finds is replayed on :class:`~stratagem.models.strato.designer.StratoDesigner`
(the formula's decoder matches every turn against designer mode's successors, and the line must end in a
winning table), so the par is at most its length. That no shorter line exists is, by default, CaDiCaL's word
(its refutation of the horizon below, under assumptions): "refuted by the SAT solver", not certified. With
``prove`` (``reach --designer --proof``), the plain formula of the horizon below
(:data:`DESIGNER_ENCODING`, :func:`plain_designer_formula`) is refuted again from scratch with DRUP output, as
``solve --method sat`` does for a deal, and that refutation is the certificate ``stratagem verify`` checks
against the formula it rebuilds from the layout. Measured (CPU s, 2 shared cores at load 5-6): challenge 1's
first layout, horizon 6 in 0.1 s (15,988 proof lines, 0.36 MB, checked in 0.2 s); the level-2 example's
layouts: see docs/guide/designers.md. A run that refutes every horizon it asks proves only that the par is
larger: designer mode has no longest game, so no horizon refuted makes a layout unwinnable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

from stratagem.models.strato.designer import Layout, StratoDesigner
from stratagem.models.strato.designer_rules import designer_game
from stratagem.models.strato.encodings.sat import ACTION_WEATHERS, DESIGNER_ENCODING, EncodingError, StratoCNF
from stratagem.models.strato.rules.cards import CLOUD
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.solvers.satplan import SOLVER, ProgressCallback, SatPlanResult, incremental_search

__all__ = ["DESIGNER_ENCODING", "DESIGNER_SAT_HORIZONS", "DESIGNER_SAT_WINDOW", "SOLVER", "DesignerCNF",
           "designer_game", "designer_par_sat", "open_designer_formula", "plain_designer_formula"]


#: Horizons one run asks at most, from the first. The shipped layouts' pars lie within two of the bound at their
#: start (challenge 1's first layout: 7 and 7; the level-2 example's three: 9 and 10, 9 and 10, 10 and 11), and a
#: horizon costs more than the one below it.
DESIGNER_SAT_HORIZONS = 9
#: Horizons one formula holds (one solver answers them in turn under assumptions; the next window is a new
#: formula and solver). Measured on the level-2 example's seed-1 layout from horizon 8: 47 CPU s with windows
#: of 3, 63 s with one window of 8 (a formula of 15 turns: horizon 8 alone took 13 s in it, 6 s in one of 10).
DESIGNER_SAT_WINDOW = 3


@dataclass
class DesignerCNF(StratoCNF):
    """Designer mode's formula of "a designer line within ``horizon`` turns" (``designer=True``), whose models
    are decoded against designer mode rather than the rules engine's deal."""

    designer: bool = True

    def decode(self, model: Sequence[int]) -> tuple[Move, ...]:
        """The designer line in a model, each turn matched against (and replayed by)
        :meth:`StratoDesigner.successors <stratagem.models.strato.designer.StratoDesigner.successors>`: the
        successor that makes the turn's rows and last weather. Designer mode merges plays by the layout they
        make, so the move given is the first in its order that makes it (the model's card may be another with
        the same result); a turn designer mode cannot make, or a line that does not end in a winning table,
        raises :class:`EncodingError`."""
        true = {lit for lit in model if lit > 0}
        layout = StratoDesigner(self.game.challenge, self.options, self.start.rows, self.start.last)
        clouds = CLOUD in self.game.challenge.weathers
        state = layout.start()
        moves: list[Move] = []
        for t in range(self.horizon):
            if self.var("done", t) in true or layout.is_goal(state):
                break
            last = next((w for w in ACTION_WEATHERS if w in self.weathers and self.var("last", t + 1, w) in true), "")
            wanted = Layout(self._rows_at(t + 1, true), last if clouds else "")
            match = next(((move, after) for move, after in layout.successors(state) if after == wanted), None)
            if match is None:
                raise EncodingError(f"turn {t + 1}: the SAT model reaches a layout designer mode cannot reach "
                                    f"({layout.format_state(wanted)} from {layout.format_state(state)})")
            moves.append(match[0])
            state = match[1]
        if not layout.is_goal(state):
            raise EncodingError("the SAT model's designer line does not end in a winning table")
        return tuple(moves)


def open_designer_formula(game: StratoGame, lo: int, hi: int) -> DesignerCNF:
    """Designer mode's formula of every horizon ``lo .. hi``. Module-level, so that it pickles (a time-limited
    search sends it to a fresh interpreter from a process with threads; see
    :func:`~stratagem.models.strato.encodings.sat.open_formula`)."""
    return DesignerCNF(game, hi, open_from=lo)


def plain_designer_formula(game: StratoGame, horizon: int) -> DesignerCNF:
    """Designer mode's plain formula of "a designer line within ``horizon`` turns" (:data:`DESIGNER_ENCODING`):
    the one a certificate refutes and ``verify`` rebuilds."""
    return DesignerCNF(game, horizon)


def designer_par_sat(layout: StratoDesigner, *, first: int, time_limit: float | None = None,
                     progress: ProgressCallback | None = None,
                     horizons: int = DESIGNER_SAT_HORIZONS, prove: bool = False) -> SatPlanResult[Move]:
    """The designer par of ``layout`` by SAT, asking the horizons ``first .. first + horizons - 1``.

    ``solved``: ``moves`` is a designer line of par length (the horizon below refuted; ``first`` should be a
    proven lower bound minus one, so that the solver refutes it itself). ``unknown``: ``time_limit`` seconds
    ran out (``stopped_by`` ``"time"``), or every horizon asked was refuted (``"horizons"``); ``lower_bound``
    is one more than the last horizon refuted. A line found at ``first`` itself is ``unknown`` too, with its
    moves (nothing shorter refuted here). Never ``unsolvable``: no horizon refuted proves that.

    ``prove``: a ``solved`` result's ``refutation`` is the plain formula of the horizon below
    (:func:`plain_designer_formula`) refuted from scratch with DRUP output, unchecked here (the caller checks
    it, as ``solve`` does); when the time runs out before it, the result is ``unknown`` with the line, as
    :func:`~stratagem.solvers.satplan.incremental_search` gives it. Without ``prove`` there is none.
    """
    game = designer_game(layout)
    result = incremental_search(partial(open_designer_formula, game), first=first, last=first + horizons - 1,
                                step=DESIGNER_SAT_WINDOW, time_limit=time_limit, progress=progress,
                                prove=partial(plain_designer_formula, game) if prove else None, prove_last=False)
    if result.status == "unsolvable":
        return replace(result, status="unknown", stopped_by="horizons")
    return result
