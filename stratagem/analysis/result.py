"""The typed result of an analysis and its ``stratagem/analysis@1`` record.

:class:`Analysis` is what :func:`~stratagem.analysis.analyze` returns, with one :class:`MoveEntry` per
root move and one :class:`PlayerEntry` per player of a simultaneous-move analysis; :meth:`Analysis.to_json`
is exactly the record ``stratagem analyze --json`` prints (docs/formats.md, section 10.2). The method
modules build a report (a dict, values in record form) and :func:`from_report` types it, reading
``"n/d"`` back as the exact fraction, so the record written from the typed result is the report again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from stratagem.analysis.methods import EXACT
from stratagem.analysis.proofs import ProofFile, write_proof
from stratagem.core.deadline import Deadline
from stratagem.core.frozen import FrozenDict, freeze, thaw
from stratagem.solvers.gametree import SOLVED

ANALYSIS_FORMAT = "stratagem/analysis@1"

#: A game value as the searches give it: exact (int, Fraction) or an evaluation's float.
Value = int | float | Fraction



@dataclass(frozen=True)
class MoveEntry:
    """One root move as the analysis judged it.

    Exact methods fill ``value`` (only when that move's own search established it, else None),
    ``distance`` (plies to the result, when solved) and ``status`` (``solved``, ``heuristic``,
    ``unknown`` or ``not ranked``). MCTS and ISMCTS fill ``visits``, ``mean`` and ``proven`` (the value
    MCTS-Solver proved, if any); PIMC fills ``samples`` and ``mean``.
    """

    move: str
    value: Value | None = None
    distance: int | None = None
    status: str | None = None
    visits: int | None = None
    samples: int | None = None
    mean: float | None = None
    proven: Value | None = None

    def to_json(self) -> dict[str, Any]:
        """The move's entry in the ``moves`` list of an analysis record."""
        if self.visits is not None:
            return {"move": self.move, "visits": self.visits, "mean": self.mean, "proven": _text(self.proven)}
        if self.samples is not None:
            return {"move": self.move, "samples": self.samples, "mean": self.mean}
        return {"move": self.move, "value": _text(self.value), "distance": self.distance, "status": self.status}



@dataclass(frozen=True)
class PlayerEntry:
    """One player's part of a simultaneous-move analysis.

    ``lp``: the ``value`` the player guarantees ``against`` the others (a coalition when there are more
    than two), whether every LP node was ``certified``, the ``nodes`` valued, the player's mixed
    ``strategy`` at the root (exact fractions), the opponent's (two players), and the
    ``expected_return`` of each player when both play these mixes. ``duct``: the empirical ``strategy``
    and the ``mean_return``. Fields that do not apply are None.
    """

    player: int
    against: tuple[int, ...] | None = None
    value: Value | None = None
    certified: bool | None = None
    nodes: int | None = None
    strategy: Mapping[str, Value] | None = None
    opponent_strategy: Mapping[str, Value] | None = None
    expected_return: Value | None = None
    mean_return: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The player's entry in the ``players`` list of an analysis record."""
        record: dict[str, Any] = {"player": self.player}
        if self.against is not None:
            record["against"] = list(self.against)
        for key in ("value", "certified", "nodes", "strategy", "opponent_strategy", "expected_return",
                    "mean_return"):
            item = getattr(self, key)
            if item is None:
                continue
            record[key] = {m: _text(p) for m, p in item.items()} if isinstance(item, Mapping) else _text(item)
        return record



#: Keys of an analysis record every method has.
_HEADER = ("game", "position", "name", "setup", "start", "to_move", "method", "information", "assumption",
           "status", "summary")
#: Keys each kind of method always writes (with null when they do not apply to this position).
_KEYS = {
    "exact": ("player", "value", "values", "estimate", "distance", "best_move", "best_found", "pv", "nodes",
              "depth"),
    "mcts": ("player", "best_move", "iterations", "value", "moves"),
    "pimc": ("player", "samples", "best_move", "moves"),
    "duct": ("iterations", "players"),
    "lp": ("payoff", "players"),
    "lp stopped": ("stopped_by", "nodes"),
}
#: Keys an exact method writes only when they say something (a ranking, a count of unranked moves ...).
_OPTIONAL = ("battles", "moves", "not_ranked", "lower_bound")


@dataclass(frozen=True)
class Analysis:
    """What :func:`~stratagem.analysis.analyze` established about a position; :meth:`to_json` is its
    ``analysis@1`` record.

    ``status`` is ``solved`` (``value`` is proven, or exhaustively searched), ``heuristic`` (a value at a
    depth cut, by the game's evaluation), ``estimate`` (Monte Carlo), ``unknown`` (a limit stopped an
    exact method) or ``uncertified`` (an LP node failed its exact check). ``value`` is for ``player``,
    the player to move (numbered from 1); ``values`` holds every player's return when known.
    ``best_move`` is set only when established, ``best_found`` is the best line's first move otherwise
    (not a claim). ``moves`` lists the root moves, best first (None when they were not ranked);
    ``players`` holds the per-player results of ``lp`` and ``duct``. ``nodes``, ``depth``,
    ``iterations`` and ``samples`` say how much work was done; ``seconds`` is the wall time of the
    analysis (not part of the record, which would then differ from run to run, nor of ``==``: two runs that
    found the same are equal). ``engine`` is the rules
    engine the search ran on (``compiled`` or ``reference``) and ``engine_note`` one line when it is not
    the one asked for (neither is part of the record). ``setup`` and the players' strategies are read-only
    (:mod:`stratagem.core.frozen`: a change is a TypeError; ``to_json()`` gives plain copies), so an
    analysis hashes and never changes after the call.
    """

    game: str
    position: str | None
    name: str
    setup: dict[str, Any]
    start: str
    to_move: str
    method: str
    information: str
    assumption: str
    status: str
    summary: str
    player: int | None = None
    value: Value | None = None
    values: tuple[Value | None, ...] | None = None
    estimate: Value | None = None
    distance: int | None = None
    best_move: str | None = None
    best_found: str | None = None
    pv: tuple[str, ...] = ()
    moves: tuple[MoveEntry, ...] | None = None
    not_ranked: int | None = None
    lower_bound: Value | None = None
    battles: int | None = None
    players: tuple[PlayerEntry, ...] = ()
    payoff: str | None = None
    stopped_by: str | None = None
    nodes: int | None = None
    depth: int | None = None
    iterations: int | None = None
    samples: int | None = None
    seconds: float = field(default=0.0, compare=False)  # the wall time: two equal analyses differ in it
    engine: str = "reference"
    engine_note: str = ""
    game_rules: Any = field(default=None, repr=False, compare=False)
    state: Any = field(default=None, repr=False, compare=False)
    #: An ``lp`` analysis's bound certificates (``matrixproof@2`` records), what :meth:`write_proof` writes; None
    #: when the value has no proof. Not the induction's results: those hold its compiled walk (69 MB for
    #: 2p-numbers-5-turns, 302 MB for 6 turns), which a kept analysis held, and which neither pickle nor
    #: ``copy.deepcopy`` could copy.
    _lp_results: Any = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        """The position, the method, the status, the value and the best move, in one line: the generated repr
        listed every field, the root moves and the setup included (1.5-3.7 KB for the shipped endgames)."""
        best = (f"best_move={self.best_move!r}" if self.best_move is not None or self.best_found is None
                else f"best_found={self.best_found!r}")  # a move found so far is not called best
        return (f"Analysis(game={self.game!r}, start={self.start!r}, method={self.method!r}, "
                f"status={self.status!r}, player={self.player}, value={self.value}, {best})")

    @property
    def solved(self) -> bool:
        """Whether the value is established (exhaustive search, a certificate or MCTS-Solver's proof)."""
        return self.status == SOLVED

    def to_json(self) -> dict[str, Any]:
        """The ``stratagem/analysis@1`` record, exactly what ``stratagem analyze --json`` prints."""
        kind = ("exact" if self.method in EXACT else "mcts" if self.method in ("mcts", "ismcts") else
                "lp stopped" if self.method == "lp" and self.stopped_by is not None else self.method)
        record: dict[str, Any] = {"format": ANALYSIS_FORMAT}
        for key in _HEADER + _KEYS[kind] + (_OPTIONAL if kind == "exact" else ()):
            item = getattr(self, key)
            if key in _OPTIONAL and kind == "exact" and item is None:
                continue
            if key in ("moves", "players"):
                record[key] = None if item is None else [entry.to_json() for entry in item]
            elif key == "setup":
                record[key] = thaw(item)  # the caller's to edit: a plain copy of the read-only setup
            elif key in ("pv", "values"):
                record[key] = None if item is None else [_text(v) for v in item]
            else:
                record[key] = _text(item)
        return record

    def write_proof(self, path: str | Path, time_limit: float | Deadline | None = None,
                    provenance: dict[str, Any] | None = None) -> ProofFile:
        """Write the proof of the solved value to ``path`` and say what was written.

        Exact searches give an AND/OR proof tree (all replies at the opponents' nodes, one move at the
        player's, down to terminal positions); ``lp`` gives the matrix proofs (exact mixed strategies at
        every simultaneous node). ``stratagem verify`` checks either without trusting the solver.
        Building a proof tree searches again, within ``time_limit`` (seconds or the analysis's own
        :class:`~stratagem.core.deadline.Deadline`, so that the two share one limit).

        Raises :class:`~stratagem.core.errors.BadInput` for a method that has no proof (estimates, max^n
        with three or more players) and :class:`~stratagem.analysis.proofs.ProofNotWritten` when the value
        was not established, a depth limit left it to the game's evaluation (status heuristic) or the time ran
        out first; nothing is written then. ``provenance``
        (:func:`stratagem.core.provenance.provenance`), when given, is stored in the record.
        """
        return write_proof(self.game_rules, self.state, self.method, self.status, self.player, self._lp_results,
                           path, time_limit, provenance)


def from_report(report: dict[str, Any], game: Any, state: Any, lp_results: Any, seconds: float) -> Analysis:
    """The typed result of a report built by a method module (values in record form)."""
    fields = {key: report[key] for key in _HEADER}
    fields["setup"] = freeze(fields["setup"])  # a frozen result: its setup read-only too
    for key in ("player", "value", "estimate", "distance", "not_ranked", "lower_bound", "battles", "nodes",
                "depth", "iterations", "samples"):
        if key in report:
            fields[key] = _number(report[key])
    for key in ("best_move", "best_found", "payoff", "stopped_by"):
        if key in report:
            fields[key] = report[key]
    if report.get("values") is not None:
        fields["values"] = tuple(_number(v) for v in report["values"])
    fields["pv"] = tuple(report.get("pv") or ())
    if report.get("moves") is not None:
        fields["moves"] = tuple(MoveEntry(**{k: v if k == "move" else _number(v) for k, v in m.items()})
                                for m in report["moves"])
    players = []
    for entry in report.get("players", ()):
        values = {k: _number(v) for k, v in entry.items() if k not in ("against", "strategy", "opponent_strategy")}
        for key in ("strategy", "opponent_strategy"):
            if key in entry:
                values[key] = FrozenDict({m: _number(p) for m, p in entry[key].items()})
        if "against" in entry:
            values["against"] = tuple(entry["against"])
        players.append(PlayerEntry(**values))
    fields["players"] = tuple(players)
    return Analysis(**fields, seconds=seconds, game_rules=game, state=state, _lp_results=lp_results)


def _number(item: Any) -> Any:
    """A value in record form back as a number: ``"n/d"`` is the exact fraction; everything else as is."""
    if isinstance(item, str) and "/" in item:
        numerator, _, denominator = item.partition("/")
        digits = numerator.lstrip("-")
        if digits.isascii() and digits.isdigit() and denominator.isascii() and denominator.isdigit():
            return Fraction(int(numerator), int(denominator))
    return item


def _text(item: Any) -> Any:
    """A value in record form: an exact fraction as an integer or ``"n/d"``; everything else as is."""
    if isinstance(item, Fraction):
        return int(item) if item.denominator == 1 else f"{item.numerator}/{item.denominator}"
    return item
