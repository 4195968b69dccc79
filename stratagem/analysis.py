"""Analysing a position: its value, the best moves, the principal variation, and a proof.

:func:`analyze` is what ``stratagem analyze`` does, as a library call returning an :class:`Analysis`::

    from stratagem.analysis import analyze

    analysis = analyze("puzzles/cardclash/square-in-3.toml")
    analysis.status, analysis.value, analysis.best_move     # 'solved', 1, 'S14-b4'
    analysis.write_proof("square.json")                      # a proof tree `stratagem verify` accepts

Methods (``method``):

- ``alphabeta``: exact two-player search (win/loss/draw with the distance to the result); positions
  with chance nodes go to ``expecti``; with three or more players to ``paranoid``.
- ``expecti``: expectiminimax with Star2 pruning, for positions with chance events.
- ``paranoid`` / ``maxn``: three or more players; each is labelled as the assumption it is.
- ``lp``: simultaneous-move games: backward induction with one exactly certified LP per node.
- ``mcts`` (open information), ``ismcts`` and ``pimc`` (from one player's observation, ``as_player``),
  ``duct`` (simultaneous moves): estimates, never called a value unless MCTS-Solver proved it.
- ``auto`` (default): ``lp`` for simultaneous-move games, ``pimc`` with ``as_player``, else ``alphabeta``.

Open analysis (every card known, like double-dummy bridge) is the default and is said so in the result.
A value is given only when the search was exhaustive or certified; a depth, node or time limit gives
``status`` ``heuristic`` or ``unknown`` with the best line found so far in ``best_found``, never in
``best_move``.

Limits are total: ``time_limit`` is one :class:`~stratagem.core.deadline.Deadline` for the root's search
and the ranking of the root moves (``rank``, the default), and the command line hands the same deadline
to :meth:`Analysis.write_proof`. The ranking gets what the root's search left, and a move not searched
before it ran out is listed as "not ranked". A move's value is given only when its own search
established it; when the root's search was stopped but the ranking proved enough (every move solved, or
one move reaching the best return there is), the root's value is taken from the ranking and the summary
says so, so the summary and the move list never disagree. The LP backward induction also stops at
``max_nodes`` positions (default :data:`DEFAULT_LP_NODES`), which bounds its memory.

Players are numbered from 1 here, as in the records and the summaries (``as_player=1`` is the first
player; the Game protocol's ``to_move`` counts from 0).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from random import Random
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput, StratagemError, UnsupportedGame
from stratagem.core.game import CHANCE, SIMULTANEOUS, TERMINAL, HiddenInformation, Simultaneous
from stratagem.core.io import dumps_record, write_atomic
from stratagem.core.progress import ProgressFactory, no_progress
from stratagem.loading import Position, load_position
from stratagem.solvers.alphabeta import alphabeta, return_bounds
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.gametree import NOT_RANKED, SOLVED, MinimaxResult
from stratagem.solvers.multiplayer import maxn, paranoid
from stratagem.solvers.prooftree import ProofStopped, build_proof_tree, encode_value
from stratagem.solvers.ranking import MoveValue, rank_key, rank_moves

ANALYSIS_FORMAT = "stratagem/analysis@1"
METHODS = ("auto", "alphabeta", "expecti", "paranoid", "maxn", "lp", "mcts", "ismcts", "pimc", "duct")
EXACT = ("alphabeta", "expecti", "paranoid", "maxn")
#: The methods whose solved values have a proof (:meth:`Analysis.write_proof`); the others estimate.
PROVABLE = (*EXACT, "lp")
OPEN = "open: every card and pile is known to the analysis"
ARGUMENT = "<argument>"
#: The ``source`` of a position given as a ``(game, state)`` pair, in error messages.
POSITION_SOURCE = "<position>"
#: Positions the LP backward induction values at most without ``max_nodes``: it holds each in memory, about
#: a kilobyte apiece (measured on a seeded Stack Attack round: 33,615 positions in 75 MB, ~20,000 a second).
DEFAULT_LP_NODES = 500_000

#: A game value as the searches give it: exact (int, Fraction) or an evaluation's float.
Value = int | float | Fraction


class ProofNotWritten(StratagemError):
    """:meth:`Analysis.write_proof` had nothing to prove: the value was not established, or the time
    limit ran out while the proof was being built (nothing is written then)."""


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


@dataclass(frozen=True)
class ProofFile:
    """A proof :meth:`Analysis.write_proof` wrote: the file, its record format and its size in nodes."""

    file: str
    format: str
    nodes: int

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "format": self.format, "nodes": self.nodes}


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
    """What :func:`analyze` established about a position; :meth:`to_json` is its ``analysis@1`` record.

    ``status`` is ``solved`` (``value`` is proven, or exhaustively searched), ``heuristic`` (a value at a
    depth cut, by the game's evaluation), ``estimate`` (Monte Carlo), ``unknown`` (a limit stopped an
    exact method) or ``uncertified`` (an LP node failed its exact check). ``value`` is for ``player``,
    the player to move (numbered from 1); ``values`` holds every player's return when known.
    ``best_move`` is set only when established, ``best_found`` is the best line's first move otherwise
    (not a claim). ``moves`` lists the root moves, best first (None when they were not ranked);
    ``players`` holds the per-player results of ``lp`` and ``duct``. ``nodes``, ``depth``,
    ``iterations`` and ``samples`` say how much work was done; ``seconds`` is the wall time of the
    analysis (not part of the record, which would then differ from run to run).
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
    seconds: float = 0.0
    game_rules: Any = field(default=None, repr=False, compare=False)
    state: Any = field(default=None, repr=False, compare=False)
    _lp_results: Any = field(default=None, repr=False, compare=False)

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
                record[key] = copy.deepcopy(item)
            elif key in ("pv", "values"):
                record[key] = None if item is None else [_text(v) for v in item]
            else:
                record[key] = _text(item)
        return record

    def to_text(self) -> str:
        """The record as canonical JSON text (sorted keys, two-space indent, trailing newline)."""
        return dumps_record(self.to_json())

    def write_proof(self, path: str | Path, time_limit: float | Deadline | None = None) -> ProofFile:
        """Write the proof of the solved value to ``path`` and say what was written.

        Exact searches give an AND/OR proof tree (all replies at the opponents' nodes, one move at the
        player's, down to terminal positions); ``lp`` gives the matrix proofs (exact mixed strategies at
        every simultaneous node). ``stratagem verify`` checks either without trusting the solver.
        Building a proof tree searches again, within ``time_limit`` (seconds or the analysis's own
        :class:`~stratagem.core.deadline.Deadline`, so that the two share one limit).

        Raises :class:`~stratagem.core.errors.BadInput` for a method or status that has no proof
        (estimates, depth-limited values) and :class:`ProofNotWritten` when the value was not
        established or the time ran out first; nothing is written then.
        """
        game, state = self.game_rules, self.state
        check_provable(self.method)
        if self.status == "heuristic":
            raise BadInput(ARGUMENT, "proof", "a depth-limited value (status heuristic) has no proof; "
                           "leave out --depth")
        if self.status != SOLVED:
            raise ProofNotWritten(f"the value was not established (status {self.status}); nothing to prove")
        limit = _deadline(time_limit)
        if self.method == "lp":
            from stratagem.solvers.matrixproof import MATRIXPROOFS_FORMAT, matrix_proof

            proofs = [matrix_proof(game, r) for r in self._lp_results]
            record: dict[str, Any] = proofs[0] if len(proofs) == 1 else {
                "format": MATRIXPROOFS_FORMAT, "game": game.name, "setup": game.setup(),
                "start": game.format_state(state), "proofs": proofs}
            nodes = sum(len(p["nodes"]) for p in proofs)
        else:
            low, high = return_bounds(game)
            assert self.player is not None
            try:
                record = build_proof_tree(game, state, player=self.player - 1, lo=low, hi=high, time_limit=limit)
            except ProofStopped as stop:
                raise ProofNotWritten(str(stop)) from None
            record["setup"] = game.setup()
            nodes = len(record["nodes"])
        write_atomic(path, dumps_record(record))
        return ProofFile(str(Path(path)), record["format"], nodes)


def analyze(position: str | Path | Position | tuple[Any, Any], method: str = "auto", depth: int | None = None,
            time_limit: float | Deadline | None = None, max_nodes: int | None = None, rank: bool = True,
            as_player: int | None = None, iterations: int | None = None, samples: int | None = None,
            seed: int = 0, progress: ProgressFactory | None = None) -> Analysis:
    """Analyse ``position`` (a position file, a loaded :class:`~stratagem.loading.Position`, or a
    ``(game, state)`` pair) with ``method`` (see the module's docstring) and return what was established.

    ``depth`` cuts the search at that many plies (``lp``: simultaneous turns) and uses the game's
    evaluation there; ``time_limit`` (seconds, or a :class:`~stratagem.core.deadline.Deadline` to share
    with later work) bounds the whole call; ``max_nodes`` bounds each search (each ranked move's too;
    ``lp``: the positions valued). ``rank`` searches every root move to rank them (exact methods).
    ``as_player`` (from 1) analyses from that player's observation (``pimc``, ``ismcts``);
    ``iterations`` (MCTS, ISMCTS, DUCT; default 2000), ``samples`` (PIMC; default 20) and ``seed`` steer
    the Monte Carlo methods. ``progress`` (:mod:`stratagem.core.progress`) is shown the root's search
    ("alphabeta search: depth 7, 120,000 nodes") and each ranked move ("ranking move 3 of 12: b2").

    Raises :class:`~stratagem.core.errors.BadInput` for a position that cannot be analysed (unreadable,
    game over) or a method that cannot apply to it; its ``place`` names the parameter.
    """
    started = time.perf_counter()
    loaded = _position(position)
    game, state = loaded.game, loaded.state
    chosen = resolve_method(loaded, method, as_player)
    player = None if as_player is None else as_player - 1
    limit = _deadline(time_limit)
    show = progress if progress is not None else no_progress
    report: dict[str, Any] = {
        "game": loaded.game_name,
        "position": None if loaded.source in (POSITION_SOURCE, "<notation>") else loaded.source,
        "name": loaded.name,
        "setup": game.setup(),
        "start": game.format_state(state),
        "to_move": _mover(game, state),
    }
    try:
        if chosen in EXACT:
            report.update(_exact(game, state, chosen, depth, limit, max_nodes, rank, show))
        elif chosen == "lp":
            report.update(_lp(game, state, depth, limit, max_nodes))
        elif chosen == "duct":
            report.update(_duct(game, state, iterations, seed, limit))
        elif chosen == "mcts":
            report.update(_mcts(game, state, iterations, limit, seed))
        elif chosen == "ismcts":
            report.update(_ismcts(game, state, player, iterations, limit, seed))
        else:
            report.update(_pimc(game, state, player, samples, limit, seed, depth))
    except UnsupportedGame as exc:
        raise BadInput(loaded.source, "method", str(exc)) from None
    lp_results = report.pop("_results", None)
    return _analysis(report, game, state, lp_results, time.perf_counter() - started)


def resolve_method(position: Position, method: str = "auto", as_player: int | None = None) -> str:
    """The method :func:`analyze` uses for ``method`` on ``position``, after every refusal it makes:
    a finished game, a method that cannot apply, a player who does not exist or is needed and missing.

    A caller that has more to check before the (possibly long) analysis starts, such as the command
    line's ``--proof``, can ask first; :func:`analyze` asks again, with the same answer.
    """
    game, state = position.game, position.state
    if game.to_move(state) == TERMINAL:
        raise BadInput(position.source, "position", "the game is over in this position; there is nothing "
                       "to analyse")
    if method not in METHODS:
        raise BadInput(ARGUMENT, "method", f"unknown method {method!r} (one of {', '.join(METHODS)})")
    chosen = choose_method(method, position, as_player)
    if as_player is not None and not 1 <= as_player <= game.num_players:
        raise BadInput(ARGUMENT, "as_player", f"player {as_player} does not exist in a {game.num_players}-player game")
    if chosen in ("pimc", "ismcts") and as_player is None:
        raise BadInput(ARGUMENT, "as_player", f"{chosen} analyses one player's observation: say which with --as")
    return chosen


def check_provable(method: str) -> None:
    """Refuse to promise a proof from a method that only estimates (before a long analysis starts)."""
    if method not in PROVABLE:
        raise BadInput(ARGUMENT, "proof", f"{method} gives estimates, which have no proof; "
                       "use alphabeta, expecti, paranoid or lp")


def choose_method(method: str, position: Position, as_player: int | None) -> str:
    """What ``auto`` means for this position, and refusals of methods that cannot apply."""
    game = position.game
    simultaneous = isinstance(game, Simultaneous)
    if method == "auto":
        if simultaneous:
            return "pimc" if as_player is not None else "lp"
        if as_player is not None:
            return "pimc"
        return "paranoid" if game.num_players > 2 else "alphabeta"
    if method in EXACT and simultaneous:
        raise BadInput(position.source, "method", f"{position.game_name} has simultaneous moves; use lp or duct")
    if method in ("lp", "duct") and not simultaneous:
        raise BadInput(position.source, "method", f"{method} is for simultaneous-move games; "
                       f"{position.game_name} is played in turns")
    if method in ("pimc", "ismcts") and not isinstance(game, HiddenInformation):
        raise BadInput(position.source, "method", f"{position.game_name} has no hidden information to sample")
    if method == "alphabeta" and game.num_players > 2:
        return "paranoid"
    return method


def _position(position: str | Path | Position | tuple[Any, Any]) -> Position:
    """A loaded position from whatever :func:`analyze` was given."""
    if isinstance(position, Position):
        return position
    if isinstance(position, str | Path):
        return load_position(position)
    game, state = position
    return Position(str(game.name), game, state, "", "", POSITION_SOURCE)


def _deadline(time_limit: float | Deadline | None) -> Deadline | None:
    return time_limit if time_limit is None or isinstance(time_limit, Deadline) else Deadline(time_limit)


def _analysis(report: dict[str, Any], game: Any, state: Any, lp_results: Any, seconds: float) -> Analysis:
    """The typed result of a report built by the method functions below (values in record form)."""
    fields = {key: report[key] for key in _HEADER}
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
                values[key] = {m: _number(p) for m, p in entry[key].items()}
        if "against" in entry:
            values["against"] = tuple(entry["against"])
        players.append(PlayerEntry(**values))
    fields["players"] = tuple(players)
    return Analysis(**fields, seconds=seconds, game_rules=game, state=state, _lp_results=lp_results)


def _number(item: Any) -> Any:
    """A value in record form back as a number: ``"n/d"`` is the exact fraction; everything else as is."""
    if isinstance(item, str) and "/" in item:
        numerator, _, denominator = item.partition("/")
        if numerator.lstrip("-").isdigit() and denominator.isdigit():
            return Fraction(int(numerator), int(denominator))
    return item


def _text(item: Any) -> Any:
    """A value in record form: an exact fraction as an integer or ``"n/d"``; everything else as is."""
    if isinstance(item, Fraction):
        return int(item) if item.denominator == 1 else f"{item.numerator}/{item.denominator}"
    return item


# -- exact search -----------------------------------------------------------------------------------


def _search(method: str) -> Callable[..., MinimaxResult[Any]]:
    return {"alphabeta": alphabeta, "expecti": expectiminimax, "paranoid": paranoid, "maxn": maxn}[method]


def _options(game: Any, method: str, depth: int | None, limit: Deadline | None,
             max_nodes: int | None) -> dict[str, Any]:
    options: dict[str, Any] = {"depth": depth, "time_limit": limit, "max_nodes": max_nodes}
    if method in ("alphabeta", "expecti", "paranoid"):
        low, high = return_bounds(game)
        options.update(lo=low, hi=high)
    return options


def _exact(game: Any, state: Any, method: str, depth: int | None, limit: Deadline | None,
           max_nodes: int | None, rank: bool, show: ProgressFactory) -> dict[str, Any]:
    """The root's search, then (``rank``) every root move's, all within the one deadline ``limit``.

    ``alphabeta`` learns that a game has chance only when its search meets a chance node, which may be
    in the ranking after a root search that stopped early; then the whole analysis is done again with
    ``expecti`` in what is left of the deadline, so the root and its moves are searched alike.
    """
    try:
        return _exact_with(game, state, method, depth, limit, max_nodes, rank, show)
    except StratagemError as exc:
        if method != "alphabeta" or "chance" not in str(exc):
            raise
    return _exact_with(game, state, "expecti", depth, limit, max_nodes, rank, show)


def _exact_with(game: Any, state: Any, method: str, depth: int | None, limit: Deadline | None,
                max_nodes: int | None, rank: bool, show: ProgressFactory) -> dict[str, Any]:
    options = _options(game, method, depth, limit, max_nodes)
    with show(f"{method} search", "depth", "nodes") as update:
        options["progress"] = lambda iteration, nodes: update(iteration, nodes)
        result = _search(method)(game, state, **options)
    report = _minimax_report(game, state, method, result)
    battles_along = getattr(game, "battles_along", None)
    if battles_along is not None and result.solved and result.distance is not None:
        report["battles"] = battles_along(state, result.pv)
        report["summary"] += f" ({report['battles']} battle{'' if report['battles'] == 1 else 's'})"
    if rank and game.to_move(state) >= 0:
        options.pop("progress", None)
        ranked = _rank(game, state, method, options, show)
        if result.solved and result.best_move is not None:
            # The root's search established its best move's value; the list says so even if that move's
            # own search was stopped or never began.
            ranked = sorted((MoveValue(mv.move, result.value, result.distance, SOLVED, mv.assumption)
                             if mv.move == result.best_move and mv.status != SOLVED else mv for mv in ranked),
                            key=rank_key)
        report["moves"] = [
            {"move": game.format_move(state, mv.move),
             "value": _value(mv.value) if mv.status in (SOLVED, "heuristic") else None,
             "distance": mv.distance if mv.status == SOLVED else None, "status": mv.status}
            for mv in ranked
        ]
        unranked = sum(1 for mv in ranked if mv.status == NOT_RANKED)
        if unranked:
            report["not_ranked"] = unranked
        if report["status"] != SOLVED:
            _root_from_ranking(game, state, report, ranked)
    return report


def _rank(game: Any, state: Any, method: str, options: dict[str, Any], show: ProgressFactory
          ) -> list[MoveValue[Any]]:
    """Every root move ranked by ``method``'s search, the display saying which move is being searched
    ("ranking move 3 of 12: b2: depth 5, 40,000 nodes")."""
    with ExitStack() as displays:
        update: list[Callable[[int, int], None]] = [lambda depth, nodes: None]

        def announce(number: int, count: int, move: Any) -> None:
            displays.close()  # the previous move's display
            label = f"ranking move {number} of {count}: {game.format_move(state, move)}"
            update[0] = displays.enter_context(show(label, "depth", "nodes"))

        return rank_moves(game, state, _search(method), on_move=announce,
                          progress=lambda depth, nodes: update[0](depth, nodes), **options)


def _root_from_ranking(game: Any, state: Any, report: dict[str, Any], ranked: Sequence[MoveValue[Any]]) -> None:
    """What the ranking establishes about the root when the root's own search did not.

    The root's player chooses, so its value is the best of its moves' values: established when every
    move's search solved it (value and distance), or when one solved move reaches the best return there is
    (the value; its distance only bounds the root's, unless every move was solved). Otherwise the best
    solved move is a proven lower bound, said as such. The report is made to agree with the move list.
    """
    solved = [mv for mv in ranked if mv.status == SOLVED and mv.value is not None]
    if not solved or report["status"] == "heuristic":
        return
    best = solved[0]  # ranked best first
    assert best.value is not None
    who = f"player {game.to_move(state) + 1}"
    low, high = return_bounds(game)
    text = game.format_move(state, best.move)
    plies = "" if best.distance is None else f" in {best.distance} {'ply' if best.distance == 1 else 'plies'}"
    every = len(solved) == len(ranked)
    if every or best.value == high:
        report.update(status=SOLVED, value=_value(best.value), best_move=text, best_found=None, pv=[text],
                      distance=best.distance if every else None, estimate=_value(best.value))
        if report.get("values") is None and game.num_players == 2 and report.get("assumption") == "open information":
            mover = game.to_move(state)
            report["values"] = [_value(best.value if p == mover else -best.value) for p in range(2)]
        outcome = ("wins" if best.value == high else "loses" if best.value == low else
                   f"gets {encode_value(best.value)}")
        if every:
            report["summary"] = (f"{who} to move {outcome}{plies} (the root's search was stopped; the ranking "
                                 f"searched every move to the end, {text} is best)")
        else:
            report["summary"] = (f"{who} to move wins (the root's search was stopped; the ranking proved that "
                                 f"{text} wins{plies}, so the value is established; a faster win by a move "
                                 "not ranked to the end is not ruled out)")
        return
    report["lower_bound"] = _value(best.value)
    report["summary"] = (f"no value established (the search was stopped); the ranking proved {text} "
                         f"worth {encode_value(best.value)}{plies} for {who}, so {who} gets at least that")


def _minimax_report(game: Any, state: Any, method: str, result: MinimaxResult[Any]) -> dict[str, Any]:
    best = None if result.best_move is None else game.format_move(state, result.best_move)
    return {
        "method": method,
        "information": OPEN,
        "assumption": result.assumption,
        "status": result.status,
        "player": result.player + 1,
        "value": _value(result.value),
        "values": None if result.values is None else [_value(v) for v in result.values],
        "estimate": _value(result.estimate),
        "distance": result.distance,
        # "best" only when established; otherwise the deepest completed iteration's choice, not a claim.
        "best_move": best if result.solved else None,
        "best_found": None if result.solved else best,
        "pv": _line(game, state, result.pv),
        "nodes": result.nodes,
        "depth": result.depth,
        "summary": _summary(game, result),
    }


def _summary(game: Any, result: MinimaxResult[Any]) -> str:
    """One sentence saying what was established, and nothing more."""
    if result.status == "unknown":
        return "no value established (the search was stopped or cut without an evaluation)"
    who = f"player {result.player + 1}"
    value = result.value
    if result.status == "heuristic":
        return f"heuristic estimate for {who}: {encode_value(value) if value is not None else '?'} (not a proof)"
    low, high = return_bounds(game)
    plies = "" if result.distance is None else f" in {result.distance} {'ply' if result.distance == 1 else 'plies'}"
    assumption = "" if result.assumption in ("", "open information") else f" ({result.assumption})"
    if value == high:
        return f"{who} to move wins{plies}{assumption}"
    if value == low:
        return f"{who} to move loses{plies}{assumption}"
    if value == 0 and result.distance is not None:
        return f"draw with best play{plies}{assumption}"
    return f"value for {who}: {encode_value(value) if value is not None else '?'}{assumption}"


# -- simultaneous moves -----------------------------------------------------------------------------


def _lp(game: Any, state: Any, depth: int | None, limit: Deadline | None, max_nodes: int | None) -> dict[str, Any]:
    from stratagem.solvers.simultaneous import InductionStopped, solve_each_player, solve_simultaneous

    cap = max_nodes if max_nodes is not None else DEFAULT_LP_NODES
    try:
        if game.num_players == 2:
            results = [solve_simultaneous(game, state, player=0, depth=depth, payoff="margin", time_limit=limit,
                                          max_nodes=cap)]
        else:
            results = list(solve_each_player(game, state, depth=depth, payoff="own", time_limit=limit,
                                             max_nodes=cap))
    except InductionStopped as stop:
        why = "time limit" if stop.stopped_by == "time" else f"node limit ({cap:,} positions)"
        return {
            "method": "lp",
            "information": OPEN,
            "assumption": ("zero-sum on the penalty difference" if game.num_players == 2
                           else "each player against the coalition of the others"),
            "status": "unknown",
            "stopped_by": stop.stopped_by,
            "nodes": stop.nodes,
            "summary": (f"no value established: the backward induction was stopped by its {why} after "
                        f"valuing {stop.nodes:,} positions ({stop.solved:,} matrix games solved)"),
        }
    certified = all(r.certified for r in results)
    exact = all(r.evaluated_leaves == 0 for r in results)
    status = "solved" if certified and exact else ("heuristic" if certified else "uncertified")
    per_player = []
    for result in results:
        root = result.root_node
        entry: dict[str, Any] = {
            "player": result.player + 1,
            "against": [p + 1 for p in result.opponents],
            "value": _value(result.value),
            "certified": result.certified,
            "nodes": len(result.nodes),
        }
        if root is not None:
            entry["strategy"] = {_player_move(game, state, result.player, m): _value(p)
                                 for m, p in zip(root.rows, root.solution.row, strict=True) if p}
            if game.num_players == 2:
                entry["opponent_strategy"] = {
                    _player_move(game, state, result.opponents[0], c[0]): _value(p)
                    for c, p in zip(root.columns, root.solution.col, strict=True) if p
                }
        per_player.append(entry)
    two = game.num_players == 2
    if two and results[0].evaluated_leaves == 0:
        from stratagem.solvers.simultaneous import expected_returns

        returns = expected_returns(game, results[0])
        for entry, value in zip(per_player, returns, strict=False):
            entry["expected_return"] = _value(value)
        if len(per_player) == 1:
            per_player.append({"player": 2, "against": [1], "expected_return": _value(returns[1])})
    return {
        "method": "lp",
        "information": OPEN,
        "assumption": ("zero-sum on the penalty difference" if two
                       else "each player against the coalition of the others"),
        "status": status,
        "payoff": "margin" if two else "own",
        "players": per_player,
        "summary": _lp_summary(per_player, two, status),
        "_results": results,
    }


def _lp_summary(per_player: Sequence[dict[str, Any]], two: bool, status: str) -> str:
    if status == "uncertified":
        return "an LP node failed its exact check: no value is claimed"
    kind = "value" if status == "solved" else "depth-limited value (evaluation at the cut)"
    if two:
        return f"{kind} for player 1 (opponent's points minus own): {per_player[0]['value']}"
    return "; ".join(f"player {e['player']} guarantees {e['value']} against the rest" for e in per_player)


def _duct(game: Any, state: Any, iterations: int | None, seed: int, limit: Deadline | None) -> dict[str, Any]:
    from stratagem.solvers.duct import duct

    result = duct(game, state, iterations=iterations or 2000, seed=seed, time_limit=limit)
    players = []
    for p in range(game.num_players):
        if not result.moves[p]:
            continue
        players.append({
            "player": p + 1,
            "strategy": {_player_move(game, state, p, m): round(f, 4)
                         for m, f in zip(result.moves[p], result.strategy[p], strict=True)},
            "mean_return": round(result.values[p], 4),
        })
    return {"method": "duct", "information": OPEN, "assumption": "", "status": "estimate",
            "iterations": result.iterations, "players": players,
            "summary": f"decoupled UCT estimate after {result.iterations} iterations (not a value)"}


# -- Monte Carlo ------------------------------------------------------------------------------------


def _seconds_left(limit: Deadline | None) -> float | None:
    return None if limit is None else limit.remaining()


def _mcts(game: Any, state: Any, iterations: int | None, limit: Deadline | None, seed: int) -> dict[str, Any]:
    from stratagem.solvers.mcts import uct

    if game.to_move(state) < 0:
        raise BadInput(ARGUMENT, "method", "mcts needs a position where one player is to move")
    budget = iterations if iterations is not None or limit is not None else 2000
    result = uct(game, state, iterations=budget, time_limit=_seconds_left(limit), seed=seed,
                 value_range=_float_bounds(game))
    return _mc_report(game, result, "mcts", OPEN)


def _ismcts(game: Any, state: Any, player: int | None, iterations: int | None, limit: Deadline | None,
            seed: int) -> dict[str, Any]:
    from stratagem.solvers.mcts import ismcts

    _check_mover(game, state, player)
    budget = iterations if iterations is not None or limit is not None else 2000
    result = ismcts(game, state, iterations=budget, time_limit=_seconds_left(limit), seed=seed,
                    value_range=_float_bounds(game), player=player)
    return _mc_report(game, result, "ismcts", f"player {result.player + 1}'s observation (hidden cards sampled)")


def _mc_report(game: Any, result: Any, method: str, information: str) -> dict[str, Any]:
    moves = [{"move": m.notation, "visits": m.visits, "mean": round(m.mean, 4),
              "proven": None if m.proven_value is None else _value(m.proven_value)} for m in result.moves]
    moves.sort(key=lambda m: -m["visits"])
    proven = bool(result.proven)
    return {
        "method": method,
        "information": information,
        "assumption": "",
        "status": "solved" if proven else "estimate",
        "player": result.player + 1,
        "best_move": result.best_notation,
        "iterations": result.iterations,
        "value": None if not proven or result.value is None else _value(result.value[result.player]),
        "moves": moves,
        "summary": (f"MCTS-Solver proved the value {_value(result.value[result.player])} for player "
                    f"{result.player + 1}" if proven and result.value is not None else
                    f"{method} estimate after {result.iterations} iterations (not a value)"),
    }


def _pimc(game: Any, state: Any, player: int | None, samples: int | None, limit: Deadline | None,
          seed: int, depth: int | None) -> dict[str, Any]:
    if game.to_move(state) == SIMULTANEOUS:
        return _pimc_simultaneous(game, state, player, samples, seed, depth, limit)
    from stratagem.solvers.pimc import pimc

    _check_mover(game, state, player)

    def leaf(game: Any, state: Any, rng: Random) -> tuple[float, ...]:
        return _solve_each_sample(game, state, rng, limit)

    result = pimc(game, state, leaf, samples=samples or 20, time_limit=_seconds_left(limit), seed=seed)
    ordered = sorted(result.moves, key=lambda m: -m.mean)
    moves = [{"move": m.notation, "samples": m.count, "mean": round(m.mean, 4)} for m in ordered]
    return {
        "method": "pimc",
        "information": f"player {result.player + 1}'s observation (hidden cards sampled)",
        "assumption": "each sampled deal solved as if open (perfect-information Monte Carlo)",
        "status": "estimate",
        "player": result.player + 1,
        "samples": result.samples,
        "best_move": result.best_notation,
        "moves": moves,
        "summary": f"PIMC over {result.samples} sampled deals (an estimate, not a value)",
    }


#: Nodes one sampled deal may take before PIMC falls back to the game's evaluation.
SAMPLE_NODES = 50_000


def _solve_each_sample(game: Any, state: Any, rng: Random, limit: Deadline | None = None) -> tuple[float, ...]:
    """PIMC's leaf: solve the open position exactly when it is small (and time is left), else use the
    evaluation."""
    if game.is_terminal(state):
        return tuple(float(v) for v in game.returns(state))
    try:
        if game.num_players == 2:
            low, high = return_bounds(game)
            result = expectiminimax(game, state, lo=low, hi=high, max_nodes=SAMPLE_NODES, time_limit=limit)
        else:
            result = maxn(game, state, max_nodes=SAMPLE_NODES, time_limit=limit)
    except StratagemError:
        result = None
    if result is not None and result.values is not None:
        return tuple(float(v) for v in result.values)
    if hasattr(game, "evaluate"):
        return tuple(float(v) for v in game.evaluate(state))
    from stratagem.solvers.mcts import playout

    return tuple(float(v) for v in playout(game, state, rng, value_range=_float_bounds(game)))


#: Simultaneous turns each sampled deal is solved to when --depth is not given (evaluation at the cut).
SAMPLE_TURNS = 2


def _pimc_simultaneous(game: Any, state: Any, player: int | None, samples: int | None, seed: int,
                       depth: int | None, limit: Deadline | None) -> dict[str, Any]:
    from stratagem.solvers.pimc import pimc_simultaneous

    assert player is not None
    result = pimc_simultaneous(game, state, player, samples=samples or 20, seed=seed,
                               depth=depth if depth is not None else SAMPLE_TURNS, time_limit=limit)
    return {
        "method": "pimc",
        "information": result.information,
        "assumption": "each sampled deal solved open by LP; a card's worth is its payoff against the "
                      "others' equilibrium mix",
        "status": "estimate",
        "player": player + 1,
        "samples": result.samples,
        "best_move": result.best_notation,
        "moves": [{"move": m.notation, "samples": m.count, "mean": round(m.mean, 4)} for m in result.moves],
        "summary": f"PIMC card advice over {result.samples} sampled deals (an estimate, not a value)",
    }


# -- helpers ----------------------------------------------------------------------------------------


def _check_mover(game: Any, state: Any, player: int | None) -> None:
    mover = game.to_move(state)
    if player is not None and mover != player:
        who = "a chance event" if mover == CHANCE else f"player {mover + 1}"
        raise BadInput(ARGUMENT, "as_player", f"player {player + 1} is not to move in this position ({who} is)")


def _float_bounds(game: Any) -> tuple[float, float]:
    low, high = return_bounds(game)
    return (float(low), float(high))


def _mover(game: Any, state: Any) -> str:
    mover = game.to_move(state)
    if mover >= 0:
        return f"player {mover + 1}"
    return {CHANCE: "chance", SIMULTANEOUS: "everyone at once", TERMINAL: "nobody"}.get(mover, str(mover))


def _player_move(game: Any, state: Any, player: int, move: Any) -> str:
    fmt = getattr(game, "format_player_move", None)
    return str(fmt(state, player, move)) if fmt is not None else str(game.format_move(state, move))


def _line(game: Any, state: Any, moves: Sequence[Any]) -> list[str]:
    texts = []
    for move in moves:
        texts.append(game.format_move(state, move))
        state = game.apply(state, move)
    return texts


def _value(v: Any) -> Any:
    if v is None:
        return None
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v




__all__ = ["ANALYSIS_FORMAT", "DEFAULT_LP_NODES", "EXACT", "METHODS", "PROVABLE", "Analysis", "MoveEntry",
           "PlayerEntry", "ProofFile", "ProofNotWritten", "analyze", "check_provable", "choose_method",
           "resolve_method", "return_bounds"]
