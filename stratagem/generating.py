"""Seeded Strato deals of a challenge whose proven optimal length is at least K (``stratagem generate``).

Designers use it to build challenge cards of a chosen difficulty. Seeds ``seed``, ``seed + 1``, ... are
dealt and each deal is solved with a certificate (:func:`certified_solve`: the relaxation bound and its
guided line, else SAT with checked refutations); a deal is kept when its optimum is proven and at least
``min_length``. Deals that cannot be decided are skipped and counted, never kept with a guess: a deal is
kept only when its optimum carries a certificate (``evidence.certificate``); a line shorter than
``min_length`` makes a deal too short whatever else is proven; an unsolvable deal is counted as such
with what shows it (a relaxation that reaches no goal, or the pruned search of every line the deal can
last, ``exhaustive-search``, which ``stratagem verify --recheck`` repeats).

Two limits, kept apart: ``deadline`` is the whole run's (``--time-limit``: when it passes, no further seed
is tried and the deal in progress is counted undecided), ``deal_limit`` the most one deal may take
(``--deal-time-limit``), always within what the deadline leaves.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stratagem.core.deadline import Deadline, as_deadline, check_run_limits
from stratagem.core.errors import BadArgument, BadInput
from stratagem.core.io import MAX_SEED
from stratagem.core.numbers import is_whole
from stratagem.loading import file_path, load_strato
from stratagem.models.strato.rules.deal import DealError, seeded_deal
from stratagem.models.strato.rules.puzzle import Puzzle
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.solve import Solution, solve
from stratagem.solvers.search import SOLVED, UNSOLVABLE

#: Why a seed tried was not kept.
REASONS = ("too short", "unsolvable", "undecided")


def certified_solve(game: StratoGame, deadline: Deadline) -> Solution:
    """The relaxation bound with its guided line; SAT (checked refutations) in the time left when the bound
    is below the optimum. Either way, an optimum comes with a certificate."""
    first = solve(game, "relaxed", deadline=deadline, fallback=False)
    if first.status == SOLVED or first.status == UNSOLVABLE or deadline.expired():
        return first
    return solve(game, "sat", deadline=deadline)


@dataclass
class Generated:
    """What a run found: the deals kept, every seed tried with its outcome, the skipped counts, and
    whether the whole run's deadline ended it (``stopped_by`` ``"time"``)."""

    deals: list[dict[str, Any]] = field(default_factory=list)
    tried: list[dict[str, Any]] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=lambda: dict.fromkeys(REASONS, 0))
    stopped_by: str | None = None


def _check_whole(name: str, value: object, low: int, high: int | None = None) -> None:
    """Refuse, as :class:`ValueError` naming ``name``, a ``value`` that is not a whole number from ``low``
    (to ``high``)."""
    if not is_whole(value, low, high):
        span = f"from {low}" if high is None else f"from {low} to {high}"
        raise ValueError(f"{name} must be a whole number {span}, not {value!r}")


def generate(challenge_file: str | Path, count: int, *, seed: int = 0, min_length: int = 1, players: int | None = None,
             tries: int | None = None, deadline: float | Deadline | None = None, deal_limit: float | None = None,
             note: Callable[[str], None] | None = None) -> tuple[Puzzle, int, Generated]:
    """Try seeds from ``seed`` until ``count`` deals are kept, ``tries`` seeds (default 20 per deal wanted)
    are used up, or ``deadline`` (seconds, or a running :class:`Deadline`) passes. Returns the loaded
    puzzle, the player count and what was found;
    ``note`` is told each seed's outcome.

    The arguments are checked as ``stratagem generate`` checks its options: a count, tries or minimum
    length below 1, a player count outside 1-4, a seed outside 0 to 2^63-1 or a ``deal_limit`` that is not
    a finite number of seconds above 0 is a :class:`ValueError` (a negative seed dealt its positive twin's
    game under a name, ``seed--5``, that no puzzle file loads; ``players=0`` meant the challenge's count).
    """
    try:  # seconds were an AttributeError ('int' object has no attribute 'expired')
        check_run_limits(deadline)
    except ValueError:
        raise ValueError("deadline must be a Deadline or a finite number of seconds above 0, "
                         f"not {deadline!r}") from None
    _check_whole("count", count, 1)
    _check_whole("min_length", min_length, 1)
    _check_whole("seed", seed, 0, MAX_SEED)
    if players is not None:
        _check_whole("players", players, 1, 4)
    if tries is not None:
        _check_whole("tries", tries, 1)
    if deal_limit is not None and (isinstance(deal_limit, bool) or not isinstance(deal_limit, int | float)
                                   or not math.isfinite(deal_limit) or deal_limit <= 0):
        raise ValueError(f"deal_limit must be a finite number of seconds above 0, not {deal_limit!r}")
    source = file_path(challenge_file, "challenge_file")
    puzzle = load_strato(source)
    challenge = puzzle.challenge
    players = players or challenge.players
    budget = tries if tries is not None else 20 * count
    if seed + budget - 1 > MAX_SEED:
        raise BadArgument("<argument>", "seed", f"seeds {seed} + {budget} tries go past {MAX_SEED} (2^63-1)")
    run = as_deadline(deadline)
    found = Generated()
    for candidate in range(seed, seed + budget):
        if len(found.deals) >= count:
            break
        if run.expired():
            found.stopped_by = "time"
            break
        try:
            start = seeded_deal(challenge, candidate, players)
        except DealError as exc:
            raise BadInput(source, "challenge", str(exc)) from None
        left = run.remaining()
        limit = deal_limit if left is None else (left if deal_limit is None else min(deal_limit, left))
        outcome = certified_solve(StratoGame(challenge, puzzle.options, start), Deadline(limit))
        # An optimum or an unsolvability is kept or counted only with its certificate; a line found is
        # enough to call a deal too short (the optimum is at most its length).
        certified = outcome.evidence.get("certificate") is True
        length = len(outcome.moves) if outcome.status == SOLVED and certified else None
        if length is not None and length >= min_length:
            found.deals.append({"name": f"seed-{candidate}", "seed": candidate, "players": players,
                                "optimal_length": length})
            found.tried.append({"seed": candidate, "outcome": "kept", "optimal_length": length,
                                "evidence": outcome.evidence.get("kind")})
            if note is not None:
                note(f"seed {candidate}: optimal length {length} (kept)")
            continue
        reason = ("too short" if outcome.moves and len(outcome.moves) < min_length else
                  "unsolvable" if outcome.status == UNSOLVABLE else "undecided")
        found.skipped[reason] += 1
        # what the seed's answer rests on (a designer's "why"): none for a line alone or a stopped search
        found.tried.append({"seed": candidate, "outcome": reason, "optimal_length": length,
                            "evidence": outcome.evidence.get("kind") if reason != "undecided" else None})
        if note is not None:
            note(f"seed {candidate}: {reason}")
    return puzzle, players, found


__all__ = ["REASONS", "Generated", "certified_solve", "generate"]
