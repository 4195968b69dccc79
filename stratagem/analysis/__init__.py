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
  ``duct`` (simultaneous moves): estimates, never called a value unless MCTS-Solver proved it; ``mcts``
  and ``ismcts`` search guided as the agents of those names do, and their summary says by what.
- ``auto`` (default): ``lp`` for simultaneous-move games, ``pimc`` with ``as_player``, ``maxn`` (the
  exhaustive search over one player's choices) for a one-player position, else ``alphabeta``.

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

The package, one module per concept: :mod:`.methods` (the methods and the refusals made before any
search), :mod:`.exact` (the exact searches and the ranking), :mod:`.lp` (the LP induction),
:mod:`.estimates` (the Monte Carlo methods), :mod:`.result` (the typed result and its record),
:mod:`.proofs` (writing the proof) and :mod:`.report` (what every method's report shares). This module
holds :func:`analyze`, which loads the position, picks the method and types its report.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any

from stratagem.analysis.estimates import duct_report, ismcts_report, mcts_report, pimc_report
from stratagem.analysis.exact import exact_report, kernel_built
from stratagem.analysis.lp import DEFAULT_LP_NODES, lp_report
from stratagem.analysis.methods import (
    COMPILED_SEARCH,
    EXACT,
    METHODS,
    PROVABLE,
    check_provable,
    choose_method,
    engine_for,
    resolve_method,
)
from stratagem.analysis.proofs import ProofFile, ProofNotWritten
from stratagem.analysis.result import ANALYSIS_FORMAT, Analysis, MoveEntry, PlayerEntry, from_report
from stratagem.core.callcaches import scoped
from stratagem.core.deadline import Deadline, check_run_limits
from stratagem.core.errors import BadInput, RepeatingPosition, UnsupportedGame, check_switch
from stratagem.core.game import CHANCE, SIMULTANEOUS, TERMINAL
from stratagem.core.io import MAX_PARAMETER, MAX_SEED
from stratagem.core.numbers import is_whole
from stratagem.core.progress import ProgressFactory, no_progress
from stratagem.engines import COMPILED, REFERENCE, EngineChoice
from stratagem.loading import Position, load_position
from stratagem.solvers.alphabeta import return_bounds

#: The ``source`` of a position given as a ``(game, state)`` pair, in error messages.
POSITION_SOURCE = "<position>"


def _check_numbers(as_player: Any, iterations: Any, samples: Any, seed: Any, depth: Any = None,
                   progress: Any = None) -> None:
    """Refuse, as :class:`ValueError`, what the command line refuses of these parameters: ``iterations=0``
    gave an "estimate" of no search at all, ``samples=-1`` one over no deal, and ``seed="x"`` was taken;
    ``depth="3"`` or ``2.5`` failed deep in the search with a :class:`TypeError`, and ``progress=5`` at its
    first report."""
    if depth is not None and not is_whole(depth, 1, MAX_PARAMETER):
        raise ValueError(f"depth must be a whole number of plies from 1 to {MAX_PARAMETER:,}, not {depth!r}")
    if progress is not None and not callable(progress):
        raise ValueError(f"progress must be a progress factory (stratagem.core.progress), not {progress!r:.40}")
    for name, value in (("iterations", iterations), ("samples", samples)):
        if value is not None and not is_whole(value, 1, MAX_PARAMETER):
            raise ValueError(f"{name} must be a whole number from 1 to {MAX_PARAMETER:,}, not {value!r}")
    if not is_whole(seed, 0, MAX_SEED):
        raise ValueError(f"seed must be a whole number from 0 to 2^63-1, not {seed!r}")
    if as_player is not None and not is_whole(as_player, 1, MAX_SEED):
        raise ValueError(f"as_player must be a player's number, counted from 1, not {as_player!r}")


@scoped
def analyze(position: str | Path | Position | tuple[Any, Any], method: str = "auto", depth: int | None = None,
            time_limit: float | Deadline | None = None, max_nodes: int | None = None, rank: bool = True,
            as_player: int | None = None, iterations: int | None = None, samples: int | None = None,
            seed: int = 0, progress: ProgressFactory | None = None, engine: str | None = None) -> Analysis:
    """Analyse ``position`` (a position file, a loaded :class:`~stratagem.loading.Position`, or a
    ``(game, state)`` pair) with ``method`` (see the package's docstring) and return what was established.

    ``depth`` cuts the search at that many plies (``lp``: simultaneous turns) and uses the game's
    evaluation there; ``time_limit`` (seconds, or a :class:`~stratagem.core.deadline.Deadline` to share
    with later work) bounds the whole call; ``max_nodes`` bounds each search (each ranked move's too;
    ``lp``: the positions valued). ``rank`` searches every root move to rank them (exact methods).
    ``as_player`` (from 1) analyses from that player's observation (``pimc``, ``ismcts``);
    ``iterations`` (MCTS, ISMCTS, DUCT; default 2000), ``samples`` (PIMC; default 20) and ``seed`` steer
    the Monte Carlo methods. ``progress`` (:mod:`stratagem.core.progress`) is shown the root's search
    ("alphabeta search: depth 7, 120,000 nodes") and each ranked move ("ranking move 3 of 12: b2").
    ``engine`` is the rules engine the search runs on (:mod:`stratagem.engines`): ``compiled`` or
    ``reference``; None (the default) is ``compiled`` where it can be had. A method with a compiled search
    (:data:`~stratagem.analysis.methods.COMPILED_SEARCH`) runs it on the game's compiled engine where there
    is one, otherwise the reference engine is used (``ismcts`` by default where ``play`` runs the guided
    ``ismcts`` agent: on the reference engine of a game with no compiled guide, Stack Attack);
    :attr:`Analysis.engine` is the one used, and
    :attr:`Analysis.engine_note` says in one line why it is not the one asked for (by default, only when
    the compiled core was not built).

    Raises :class:`~stratagem.core.errors.BadInput` for a position that cannot be analysed (unreadable,
    game over) or a method that cannot apply to it; its ``place`` names the parameter. Raises ValueError for
    what the command line refuses of the numbers: a limit, ``iterations`` or ``samples`` below 1, a
    ``seed`` or ``as_player`` that is not a whole number.
    """
    started = time.perf_counter()
    _check_numbers(as_player, iterations, samples, seed, depth, progress)
    rank = check_switch(rank, "rank")
    loaded = _position(position)
    game, state = loaded.game, loaded.state
    chosen = resolve_method(loaded, method, as_player)
    player = None if as_player is None else as_player - 1
    check_run_limits(time_limit, max_nodes)
    # from the call's start (``started``): reading the position is in the limit too
    limit = time_limit if time_limit is None or isinstance(time_limit, Deadline) else Deadline(time_limit, started)
    show = progress if progress is not None else no_progress
    ran_on = engine_for(game, chosen, engine, depth)
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
            report.update(exact_report(game, state, chosen, depth, limit, max_nodes, rank, show, ran_on.engine))
        elif chosen == "lp":
            report.update(lp_report(game, state, depth, limit, max_nodes, ran_on.engine))
        elif chosen == "duct":
            report.update(duct_report(game, state, iterations, seed, limit, ran_on.engine))
        elif chosen == "mcts":
            report.update(mcts_report(game, state, iterations, limit, seed, ran_on.engine))
        elif chosen == "ismcts":
            report.update(ismcts_report(game, state, player, iterations, limit, seed, ran_on.engine))
        else:
            report.update(pimc_report(game, state, player, samples, limit, seed, depth, ran_on.engine))
    except RepeatingPosition as exc:
        if "battle_limit" not in game.setup():
            raise BadInput(loaded.source, "position", str(exc)) from None
        raise BadInput(loaded.source, "options.battle_limit", f"{game.setup()['battle_limit']} (none): a position "
                       "repeats on one line, and the exact searches need a game that ends; set battle_limit (the "
                       "shipped endgames use 4)") from None
    except UnsupportedGame as exc:
        raise BadInput(loaded.source, "method", str(exc)) from None
    if (chosen == "alphabeta" and report.get("method") == "expecti" and ran_on.name != REFERENCE
            and not kernel_built("expecti")):
        # alphabeta met chance and the analysis went on with expecti, whose kernel is not built
        ran_on = EngineChoice(REFERENCE, None, "expecti (chance below the root) has no compiled search built: it ran "
                                               "on the reference engine" if engine == COMPILED else "")
    lp_results = report.pop("_results", None)
    analysis = from_report(report, game, state, lp_results, time.perf_counter() - started)
    return dataclasses.replace(analysis, engine=ran_on.name, engine_note=ran_on.note)


def _position(position: str | Path | Position | tuple[Any, Any]) -> Position:
    """A loaded position from whatever :func:`analyze` was given."""
    if isinstance(position, Position):
        if position.game_name == "strato":  # as a Strato file is refused (load_position)
            raise BadInput(position.source, "position", "analyze values positions of the competitive games; a "
                           "Strato position is solved (solve: open information) or given odds (odds: the pile "
                           "hidden)")
        return position
    if isinstance(position, str | Path):
        return load_position(position)
    if not (isinstance(position, tuple) and len(position) == 2 and callable(getattr(position[0], "to_move", None))):
        raise BadInput(POSITION_SOURCE, "position", f"a position file, a loaded Position or a (game, state) pair, "
                       f"not {type(position).__name__}")
    game, state = position
    return Position(str(game.name), game, state, "", "", POSITION_SOURCE)


def _mover(game: Any, state: Any) -> str:
    """Who is to move, as the record's ``to_move`` says it (players counted from 1)."""
    mover = game.to_move(state)
    if mover >= 0:
        return f"player {mover + 1}"
    return {CHANCE: "chance", SIMULTANEOUS: "everyone at once", TERMINAL: "nobody"}.get(mover, str(mover))


__all__ = ["ANALYSIS_FORMAT", "COMPILED_SEARCH", "DEFAULT_LP_NODES", "EXACT", "METHODS", "PROVABLE", "Analysis",
           "MoveEntry", "PlayerEntry", "ProofFile", "ProofNotWritten", "analyze", "check_provable", "choose_method",
           "resolve_method", "return_bounds"]
