"""ISMCTS and PIMC on a game's compiled engine, reported in the reference engine's terms.

The determinisations are the Python searches': the reference game's ``sample_state`` from one
``random.Random(seed)`` (so what a player cannot see is decided by the rules engine alone), packed by the
engine. Where the game hands over a packed sampler (:class:`Determinisations`: Card Clash, Stratatak,
Stack Attack) they are written packed straight away, the same rows from the same draws, at a third to a
fifth of the cost; the searches over them run in C (:mod:`stratagem.solvers.packed_ismcts`):

- :func:`ismcts_compiled` is :func:`stratagem.solvers.mcts.ismcts`, plain or guided (``guided=True`` where
  the game hands over a compiled guide, ``game.compiled_guide(engine)``: Card Clash's and Stratatak's; the
  guide's move order with progressive widening, its declared ``rollout_limit`` and its evaluation at the
  cut-off), and returns the same :class:`~stratagem.solvers.mcts.MctsResult` (the real state's moves in
  ``legal_moves`` order, with visits and means; the most visited chosen, ties to the higher mean, then
  the earlier move);
- :func:`pimc_compiled` is :func:`stratagem.solvers.pimc.pimc` with the rollout evaluator
  (:func:`~stratagem.solvers.pimc.rollout_evaluator`) and returns the same
  :class:`~stratagem.solvers.pimc.PimcResult`;
- :func:`pimc_simultaneous_compiled` is :class:`~stratagem.solvers.agents.PimcAgent`'s choice at a
  simultaneous node.

A move is matched across determinisations by the engine's move record, as the Python searches match it
by its notation. The kernel's random stream (playouts, ties) is its own splitmix64 seeded from the same
``Random`` (plain) or from the seed apart from it (guided), so the compiled and Python searches agree in
distribution, not draw for draw; each is deterministic for a seed. Guided, the determinisations are the
first draws of ``Random(seed)``, as the Python search's are, and the kernel draws nothing where the
Python search draws nothing (at a decision node; a new leaf valued by the evaluation alone): with
``rollout_limit=0`` and no chance node in the tree the two visit the same moves the same number of times
(tested on Card Clash and Stratatak). Cut playouts (``rollout_limit``) are scored by the guide's
evaluation (guided), else by the game's evaluation where the engine has one (Stack Attack's), else by the
middle of ``value_range``, which differs from the Python playout where the game has an evaluation:
callers route such plain searches to the reference engine. No game is imported here; the caller hands
over the engine.
"""

from __future__ import annotations

import time
from random import Random
from typing import Any

import numpy as np

from stratagem.core.errors import UnsupportedGame
from stratagem.core.game import SIMULTANEOUS, Game, HiddenInformation, M
from stratagem.core.packed import PackedGame
from stratagem.solvers.compiled_duct import simultaneous_part
from stratagem.solvers.mcts import DEFAULT_EXPLORATION, DEFAULT_WIDENING, MctsResult, MoveStats
from stratagem.solvers.mcts.searches import reported_player
from stratagem.solvers.pimc import PimcMoveStats, PimcResult

__all__ = ["ismcts_compiled", "pimc_compiled", "pimc_simultaneous_compiled"]

#: Determinisations drawn and packed per call into the kernel.
BATCH = 256


class Determinisations:
    """The determinisations of ``state`` for ``player``, packed for ``engine``: :meth:`rows` gives
    ``engine.encode(game.sample_state(state, player, rng))`` row after row.

    Where the game hands over a packed sampler (``game.packed_sampler(engine, state, player)``: Card
    Clash's, Stratatak's, Stack Attack's) the rows come from it: the same rows from the same calls on
    ``rng``, without building the reference's states (each game's ``sampling`` module; it checks one row
    against the reference's before it is used, and the tests hold it to them on many positions and
    seeds). Elsewhere, or where the game returns None, the reference's ``sample_state`` and the engine's
    ``encode``. The sampler is asked for at the first draw, so that a search that draws nothing does
    nothing else either."""

    def __init__(self, game: Any, engine: PackedGame, state: Any, player: int) -> None:
        self.game, self.engine, self.state, self.player = game, engine, state, player
        self.sampler: Any = None
        self.asked = False

    def rows(self, rng: Random, count: int) -> Any:
        """``count`` determinisations drawn from ``rng``, packed one per row."""
        if not self.asked:
            self.asked = True
            make = getattr(self.game, "packed_sampler", None)
            self.sampler = make(self.engine, self.state, self.player) if make is not None else None
        if self.sampler is not None:
            return self.sampler.rows(rng, count)
        rows = np.zeros((count, self.engine.width), np.int64)
        for i in range(count):
            rows[i] = self.engine.encode(self.game.sample_state(self.state, self.player, rng))
        return rows


def _real_moves(game: Game[Any, Any], engine: PackedGame, state: Any) -> tuple[list[Any], list[tuple[int, ...]]]:
    """The real state's legal moves (reference order) and each one's engine record (as a tuple)."""
    vector = engine.encode(state)
    records = engine.legal_moves(vector)
    by_move = {engine.decode_move(vector, record): tuple(int(x) for x in record) for record in records}
    moves = list(game.legal_moves(state))
    if len(by_move) != len(records) or set(by_move) != set(moves):
        raise UnsupportedGame("the compiled engine's moves are not the reference engine's, one for one")
    return moves, [by_move[m] for m in moves]


def ismcts_compiled(game: Game[Any, M], engine: PackedGame, state: Any, *, iterations: int | None = None,
                    time_limit: float | None = None, seed: int = 0, exploration: float = DEFAULT_EXPLORATION,
                    value_range: tuple[float, float] = (-1.0, 1.0), rollout_limit: int | None = None,
                    player: int | None = None, guided: bool = False,
                    widening: float = DEFAULT_WIDENING) -> MctsResult[M]:
    """SO-ISMCTS from the observation of the player to move (or ``player`` at a simultaneous root),
    searched on ``engine``; options as :func:`stratagem.solvers.mcts.ismcts`'s (``guided`` off by default,
    as there). ``guided`` takes effect where the game hands over a compiled guide
    (:func:`~stratagem.solvers.compiled_uct.compiled_guide`): each determinisation's moves in the guide's
    order with progressive ``widening``, the guide's ``rollout_limit`` when none is given, and its
    evaluation at the cut-off -- ``ismcts(guided=True)``'s search; elsewhere the search is plain. The
    exploration constant is ``exploration`` either way (the reference's; no guide's declared one)."""
    from stratagem.solvers.compiled_uct import compiled_guide
    from stratagem.solvers.packed_ismcts import IsmctsSearch, SearchStopped

    if not isinstance(game, HiddenInformation):
        raise UnsupportedGame(f"ISMCTS needs a hidden-information game (observation and sample_state); "
                              f"{game.name!r} has none: use open UCT")
    if iterations is None and time_limit is None:
        raise ValueError("give an iteration budget, a time limit, or both")
    if iterations is not None and iterations < 0:
        raise ValueError(f"iterations must be non-negative, not {iterations}")
    low, high = float(value_range[0]), float(value_range[1])
    if not high > low:
        raise ValueError(f"value_range {value_range} is not (low, high) with low < high")
    if game.is_terminal(state):
        return MctsResult.at_terminal("ismcts", game.returns(state))
    if guided and not widening > 0.0:
        raise ValueError(f"widening must be positive, not {widening}")
    observer = reported_player(game, state, player)
    simultaneous = game.to_move(state) == SIMULTANEOUS
    start = time.perf_counter()
    deadline = -1.0 if time_limit is None else start + max(time_limit, 0.0)
    guide = compiled_guide(game, engine) if guided else None
    rng = Random(seed)
    if guide is None:
        kernel_seed = rng.getrandbits(64)
    else:  # the determinisations are Random(seed)'s first draws, as the Python search's are
        kernel_seed = Random(f"compiled ismcts {seed}").getrandbits(64)
        if rollout_limit is None and guide.rollout_limit >= 0:
            rollout_limit = int(guide.rollout_limit)
    search = IsmctsSearch(engine, simultaneous_part(engine), observer, kernel_seed, exploration, low, high,
                          -1 if rollout_limit is None else rollout_limit,
                          min((iterations or 0) + 2, 1 << 12) if iterations is not None else 1 << 12,
                          guide, widening if guide is not None else 0.0)
    draws = Determinisations(game, engine, state, observer)
    done = 0
    try:
        while iterations is None or done < iterations:
            if deadline >= 0 and time.perf_counter() >= deadline:
                break
            count = BATCH if iterations is None else min(BATCH, iterations - done)
            made = search.run(draws.rows(rng, count), deadline)
            done += made
            if made < count:
                break
    except SearchStopped as exc:
        raise UnsupportedGame(str(exc)) from None
    seconds = time.perf_counter() - start
    root = search.root(simultaneous)
    stats: list[MoveStats[Any]] = []
    if simultaneous:
        own = list(game.player_moves(state, observer))  # type: ignore[attr-defined]
        label = getattr(game, "format_player_move", None)
        words = [int(w) for w in root["records"]]
        for move in own:
            if not isinstance(move, int):
                raise UnsupportedGame("a simultaneous node whose moves are not the engine's integers")
            i = words.index(move) if move in words else -1
            visits = int(root["visits"][i]) if i >= 0 else 0
            mean = float(root["totals"][i]) / visits if visits else 0.0
            notation = str(label(state, observer, move)) if callable(label) else game.format_move(state, move)  # type: ignore[arg-type]
            stats.append(MoveStats(move, notation, visits, mean, None))
    else:
        moves, records = _real_moves(game, engine, state)
        found = {tuple(int(x) for x in r): i for i, r in enumerate(root["records"])}
        for move, record in zip(moves, records, strict=True):
            i = found.get(record, -1)
            visits = int(root["visits"][i]) if i >= 0 else 0
            mean = float(root["totals"][i][observer]) / visits if visits else 0.0
            stats.append(MoveStats(move, game.format_move(state, move), visits, mean, None))
    pick = min(range(len(stats)), key=lambda i: (-stats[i].visits, -stats[i].mean, i)) if stats else None
    best = stats[pick] if pick is not None else None
    return MctsResult("ismcts", f"observation of player {observer}", observer,
                      best.move if best is not None else None, best.notation if best is not None else None,
                      tuple(stats), done, seconds, False, None, None)


def pimc_compiled(game: Game[Any, M], engine: PackedGame, state: Any, *, rollouts: int = 1,
                  rollout_limit: int | None = None, value_range: tuple[float, float] = (-1.0, 1.0),
                  samples: int | None = None, time_limit: float | None = None, seed: int = 0) -> PimcResult[M]:
    """PIMC for the player to move in ``state`` with each move valued by the mean of ``rollouts`` random
    playouts, searched on ``engine``; options as :func:`stratagem.solvers.pimc.pimc` with
    :func:`~stratagem.solvers.pimc.rollout_evaluator`."""
    from stratagem.solvers.packed_ismcts import Playouts, SearchStopped

    if not isinstance(game, HiddenInformation):
        raise UnsupportedGame(f"PIMC needs a hidden-information game (observation and sample_state); "
                              f"{game.name!r} has none: analyse it open")
    if samples is None and time_limit is None:
        raise ValueError("give a number of samples, a time limit, or both")
    if rollouts < 1:
        raise ValueError(f"rollouts must be at least 1, not {rollouts}")
    player = game.to_move(state)
    if player < 0:
        raise UnsupportedGame("PIMC chooses a move for the player to move; this state has none")
    moves, records = _real_moves(game, engine, state)
    where = {record: i for i, record in enumerate(records)}
    totals = [0.0] * len(moves)
    counts = [0] * len(moves)
    low, high = float(value_range[0]), float(value_range[1])
    walker = Playouts(engine, simultaneous_part(engine), 0, -1 if rollout_limit is None else rollout_limit,
                      (low + high) / 2)
    rng = Random(seed)
    draws = Determinisations(game, engine, state, player)
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    done = 0
    try:
        while samples is None or done < samples:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            sample = draws.rows(rng, 1)[0]
            sample_seed = rng.getrandbits(64)
            found, values = walker.move_values(sample, rollouts, sample_seed)
            for record, value in zip(found, values, strict=True):
                i = where.get(tuple(int(x) for x in record))
                if i is not None:
                    totals[i] += float(value[player])
                    counts[i] += 1
            done += 1
    except SearchStopped as exc:
        raise UnsupportedGame(str(exc)) from None
    stats = [PimcMoveStats(move, game.format_move(state, move), counts[i], totals[i] / counts[i] if counts[i] else 0.0)
             for i, move in enumerate(moves)]
    best = min(range(len(stats)), key=lambda i: (stats[i].count == 0, -stats[i].mean, -stats[i].count, i),
               default=None)
    return PimcResult(player=player, information=f"observation of player {player}", samples=done,
                      best_move=stats[best].move if best is not None else None,
                      best_notation=stats[best].notation if best is not None else None, moves=tuple(stats),
                      seconds=time.perf_counter() - start)


def pimc_simultaneous_compiled(game: Game[Any, Any], engine: PackedGame, state: Any, player: int, rng: Random, *,
                               samples: int, rollouts: int, rollout_limit: int | None = None,
                               value_range: tuple[float, float] = (-1.0, 1.0),
                               time_limit: float | None = None) -> tuple[list[Any], list[float]]:
    """``player``'s own moves at a simultaneous ``state`` and each one's summed value over ``samples``
    determinisations (the others' moves uniformly random, then the mean of ``rollouts`` playouts), as
    :class:`~stratagem.solvers.agents.PimcAgent` values them; the samples and the kernel's seed come from
    ``rng``. ``time_limit`` (wall seconds) stops the sampling earlier, after at least one sample."""
    from stratagem.solvers.packed_ismcts import Playouts, SearchStopped

    own = list(game.player_moves(state, player))  # type: ignore[attr-defined]
    if not all(isinstance(m, int) and not isinstance(m, bool) for m in own):
        raise UnsupportedGame("a simultaneous node whose moves are not the engine's integers")
    search = Random(rng.getrandbits(64))
    low, high = float(value_range[0]), float(value_range[1])
    walker = Playouts(engine, simultaneous_part(engine), search.getrandbits(64),
                      -1 if rollout_limit is None else rollout_limit, (low + high) / 2)
    totals = [0.0] * len(own)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    draws = Determinisations(game, engine, state, player)
    try:
        for done in range(samples):
            if done and deadline is not None and time.perf_counter() >= deadline:
                break
            sample = draws.rows(search, 1)[0]
            words, values = walker.own_move_values(sample, player, rollouts)
            listed = [int(w) for w in words]
            if listed != own:
                raise UnsupportedGame("the compiled engine's own moves at a simultaneous node are not the reference's")
            for i, value in enumerate(values):
                totals[i] += float(value)
    except SearchStopped as exc:
        raise UnsupportedGame(str(exc)) from None
    return own, totals
