"""``stratagem.odds()``: the exact solo win probability of a Strato deal when the pile's order is hidden.

The library half of ``stratagem odds``: load the deal, hide the pile's order
(:class:`~stratagem.models.strato.hidden.game.HiddenStrato`), compute the optimal win probability
(:func:`~stratagem.models.strato.hidden.optimum.compiled_solo_odds`; the plain
:func:`~stratagem.models.strato.hidden.odds.solo_odds` for a pile of more orders than the compiled search's
64-bit weights count) and write what was found as a ``stratagem/policy@1``
record -- the policy as a proof DAG -- that :func:`stratagem.verify` replays through the rules.

>>> import stratagem
>>> answer = stratagem.odds("puzzles/strato/challenge-0.toml", position="RRWR(RW)WWRW RRR WRR 1 -")
>>> answer.result.value
Fraction(2, 3)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from stratagem import __version__
from stratagem.core.callcaches import scoped
from stratagem.core.deadline import Deadline, as_deadline, check_run_limits
from stratagem.core.errors import BadArgument, BadInput, NotationError, Param, check_switch
from stratagem.core.outputs import WRITE_FAILURES, check_writable, dumps_record, write_atomic
from stratagem.core.progress import ProgressFactory, no_progress
from stratagem.core.provenance import provenance
from stratagem.core.records import POLICY_FORMAT
from stratagem.core.words import plural
from stratagem.loading import Position, StratoDeal, as_deal, file_path, load, load_strato
from stratagem.models.strato.hidden.game import HiddenStrato, format_hidden
from stratagem.models.strato.hidden.odds import SEARCHED_BY, SoloOdds, require_solo, solo_odds
from stratagem.models.strato.rules.deal import DealError, check_drawn_up, check_position
from stratagem.models.strato.rules.position import ONGOING, WON, parse_state
from stratagem.models.strato.rules.puzzle import DealSpec, Puzzle
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.solvers.mdp import SOLVED

__all__ = ["BOUNDS_FORMAT", "ODDS_FORMAT", "POLICY_FORMAT", "DealBounds", "DealOdds", "odds", "odds_bounds",
           "odds_of", "position_deal"]

#: The report of ``stratagem odds --json``.
ODDS_FORMAT = "stratagem/odds@1"
#: The report of ``stratagem odds --table FILE --json`` (the compiled search and its value table).
BOUNDS_FORMAT = "stratagem/odds-bounds@1"
#: States the compiled search may keep by default, as a sweep's solo task (its table measured 2 GB at 16.8 million).
BOUNDS_MAX_STATES = 20_000_000
#: CPU seconds the value table's writer takes for each state a policy pass kept, rounded up (its compiled
#: walk: measured 0.9-1.5e-5 on challenge 1 and the level-2 example, 2 shared cores; the walk by the rules
#: engine took 0.3-1.1e-4).
WRITE_SECONDS_PER_STATE = 2e-5
#: ``odds_bounds`` keeps back this many times the finest finished pass's estimated writing time when it
#: lets a finer pass run (a table the limit stops is not written at all, and a loaded machine is slower).
WRITE_MARGIN = 1.25


def _fraction(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


def _head(fmt: str, deal: StratoDeal, game: HiddenStrato) -> dict[str, Any]:
    """What every odds report starts with: its format, the deal and the hidden-pile start."""
    return {"format": fmt, "puzzle": deal.source, "deal": deal.name, "start": format_hidden(game.initial_state()),
            "information": "hidden pile order, solo"}


def _evidence(r: SoloOdds) -> str:
    """How the search that proved the value optimal worked, for the record's evidence (not checked by verify)."""
    if r.searched_by == SEARCHED_BY:
        return (f"{SEARCHED_BY} over {r.states:,} states (the kernel's exact values of the play states, alpha-beta "
                "with Star1 pruning and a floor of lost states over a table of proven bounds; the draws between "
                "them summed exactly in Python)")
    return f"expectimax over {r.states:,} states, memoised, Star1 pruning"


@dataclass(frozen=True)
class DealOdds:
    """A deal and its solo win probability with the pile's order hidden (:class:`SoloOdds`)."""

    deal: StratoDeal
    game: HiddenStrato
    result: SoloOdds

    @property
    def status(self) -> str:
        """``solved`` (the value is the exact optimum) or ``unknown`` (a limit stopped the search: the
        policy's value is a proven lower bound, not the optimum)."""
        return self.result.status

    def __repr__(self) -> str:
        """The deal, the status and the value proven: the generated repr held the policy's whole proof DAG
        (42 KB for a challenge-0 deal)."""
        r = self.result
        return (f"DealOdds(deal={self.deal!r}, status={r.status!r}, value={r.value!r}, "
                f"lower_bound={r.lower_bound!r}, states={r.states})")

    def claim(self) -> dict[str, Any]:
        """What the record claims: the win probability the policy proves, and whether it is optimal."""
        r = self.result
        claim: dict[str, Any] = {"win_probability": _fraction(r.lower_bound), "policy": r.proof_source}
        if r.status == SOLVED:
            claim["optimal"] = True
            claim["evidence"] = {"kind": "exhaustive-search", "detail": _evidence(r)}
        else:
            claim["optimal"] = False
        return claim

    def to_json(self) -> dict[str, Any]:
        """The ``stratagem/odds@1`` report."""
        r = self.result
        return {
            **_head(ODDS_FORMAT, self.deal, self.game),
            "status": r.status,
            "win_probability": _fraction(r.value),
            "win_probability_float": None if r.value is None else float(r.value),
            "lower_bound": _fraction(r.lower_bound),
            "lower_bound_from": r.proof_source,
            "greedy": _fraction(r.greedy),
            "ranking": [{"move": m, "win_probability": str(v), "float": float(v)} for m, v in r.ranking],
            "ranked": r.ranked,
            "ranking_stopped_by": r.ranking_stopped_by,
            "search": r.searched_by,
            "states": r.states,
            "seconds": round(r.seconds, 3),
            "stopped_by": r.stopped_by,
        }

    def has_proof(self) -> bool:
        """Whether there is a policy to record (:meth:`write_proof` writes nothing without one)."""
        return bool(self.result.proof)

    def proof_record(self) -> dict[str, Any]:
        """The ``stratagem/policy@1`` record: setup, start, claim and the policy's proof DAG."""
        return {
            "format": POLICY_FORMAT,
            "game": "strato",
            "setup": self.deal.setup(),
            "deal": self.deal.name,
            "start": format_hidden(self.game.initial_state()),
            "payoff": "win",
            "claim": self.claim(),
            "nodes": [node.to_json() for node in self.result.proof],
            "stratagem": __version__,
            "provenance": provenance(self.deal.source if Path(self.deal.source).is_file() else None),
        }

    def write_proof(self, path: str | Path) -> bool:
        """Write the policy record; False, writing nothing, when there is no policy to record."""
        if not self.has_proof():
            return False
        write_atomic(path, dumps_record(self.proof_record()))
        return True


@scoped
def odds_of(deal: StratoDeal | StratoGame | Position, *, time_limit: float | Deadline | None = None,
            max_states: int | None = None, rank: bool = True, progress: ProgressFactory = no_progress) -> DealOdds:
    """:func:`odds` of a deal already loaded, a game or a Strato position (:func:`~stratagem.loading.from_notation`;
    its pile's order is not read) (``time_limit`` in seconds, or a command's deadline)."""
    deal = _loaded(deal)
    check_run_limits(time_limit, max_states, "max_states")
    rank = check_switch(rank, "rank")
    require_ongoing(deal, "deal")
    game = HiddenStrato(deal.challenge, deal.game.options, deal.start)
    kwargs: dict[str, Any] = {} if max_states is None else {"max_states": max_states}
    deadline = as_deadline(time_limit)
    # the kernel's modules, imported on the first call (not by ``import stratagem``), inside its deadline
    from stratagem.models.strato.hidden.exact import TooManyOrders, check_orders
    from stratagem.models.strato.hidden.optimum import compiled_solo_odds

    try:
        check_orders(game.initial_state().pile)
    except TooManyOrders:  # more orders than the kernel's 64-bit weights count: the plain search's Fractions do
        return DealOdds(deal, game, solo_odds(game, deadline=deadline, rank=rank, progress=progress, **kwargs))
    return DealOdds(deal, game, compiled_solo_odds(game, deadline=deadline, rank=rank, progress=progress, **kwargs))


def _loaded(deal: object) -> StratoDeal:
    """A deal, a game or a Strato position as the deal the odds are of (:func:`~stratagem.loading.as_deal`);
    :class:`BadInput` naming ``deal`` for anything else."""
    if not isinstance(deal, StratoDeal | StratoGame | Position):  # not an AttributeError from inside
        raise BadInput("<argument>", "deal", "a loaded Strato deal (stratagem.load), a StratoGame or a Strato "
                       f"Position (stratagem.from_notation), not {type(deal).__name__}")
    return as_deal(deal, caller="odds")


def odds(puzzle: str | Path | Puzzle | StratoDeal | StratoGame | Position, deal: str | int | None = None, *,
         position: str | None = None,
         time_limit: float | Deadline | None = None, max_states: int | None = None, rank: bool = True,
         progress: ProgressFactory = no_progress) -> DealOdds:
    """The exact optimal solo win probability of ``deal`` of the Strato ``puzzle`` when the pile's order
    is hidden: the value, the first move's options ranked, and the policy that proves it (``progress``
    shows the searches' states and nodes).

    ``position`` (the open notation, ``ROWS HAND PILE 1 LAST``; the pile's order is ignored) starts from
    a position of the puzzle's challenge instead of a deal: a table and hand met in play; giving both
    ``deal`` and ``position`` is a :class:`ValueError`, as ``stratagem odds`` refuses both options.
    ``puzzle`` may also be a loaded :class:`Puzzle` (``deal`` chooses), or a deal already chosen as
    :func:`~stratagem.solving.solve` takes it: a :class:`StratoDeal`, a :class:`StratoGame` or a Strato
    :class:`Position` (its pile's order is not read)."""
    check_run_limits(time_limit, max_states, "max_states")
    time_limit = as_deadline(time_limit)  # from the call's start: reading the puzzle is in the limit too
    if isinstance(puzzle, Puzzle | StratoDeal | StratoGame | Position):
        chosen = as_deal(puzzle, deal, caller="odds")
        if position is not None:
            raise ValueError("position is a position of a puzzle file's challenge; give the puzzle's file")
        loaded = solo_deal(chosen)
    else:
        loaded = odds_deal(puzzle, deal, position)
    return odds_of(loaded, time_limit=time_limit, max_states=max_states, rank=rank, progress=progress)


def odds_deal(puzzle: str | Path, deal: str | int | None = None, position: str | None = None) -> StratoDeal:
    """The deal ``odds`` values: ``deal`` of the Strato ``puzzle`` (a seed as a number, or as digits), or its
    ``position``; :class:`BadInput` for another game's file. Both ``deal`` and ``position`` is a
    :class:`ValueError` (the position was valued and the deal silently dropped)."""
    if position is not None and deal is not None:
        raise ValueError("give deal or position, not both")
    if position is not None:
        met = position_deal(puzzle, position)
        players = met.game.num_players
        if players != 1:  # said at the position (the search's own refusal names a 'players' no option has)
            raise BadArgument("<argument>", "position", f"the position has {players} hands: the exact win "
                              "probability is for solo play (play strato estimates team play)")
        require_ongoing(met, "position")
        return met
    # a seed, as digits or as the deal's name (seed-7, as odds names it): dealt for one player either way
    seeded = isinstance(deal, int) or (isinstance(deal, str) and re.fullmatch(r"(?:seed-)?[0-9]+", deal) is not None)
    loaded = load(file_path(puzzle, "puzzle"), deal, 1 if seeded else None)
    if not isinstance(loaded, StratoDeal):
        raise BadInput(str(puzzle), "game", f"odds are for Strato puzzles, not {loaded.game_name} positions")
    return solo_deal(loaded)


def solo_deal(loaded: StratoDeal) -> StratoDeal:
    """``loaded``, refused (:class:`BadArgument` at ``deal``) unless it is a solo deal still to play: said
    here, with the file and the deal, where the search's own refusal names neither."""
    players = loaded.game.num_players
    if players != 1:
        raise BadArgument(loaded.source, "deal", f"deal {loaded.name!r} has {players} players: the exact win "
                          "probability is for solo play (play strato estimates team play)")
    require_ongoing(loaded, "deal")
    return loaded


def require_ongoing(deal: StratoDeal, place: str) -> None:
    """:class:`BadInput` (at ``place``) when ``deal`` starts from a finished game: a start already won or
    lost has no move to value, and neither search, nor a policy record or value table (whose start is a
    turn to play), can start there; both searches failed on it as an internal error (exit 70)."""
    status = deal.start.status
    if status != ONGOING:
        result, value = ("won", 1) if status == WON else ("lost", 0)
        where = "the position" if place == "position" else f"deal {deal.name!r}"
        raise BadArgument(deal.source if place != "position" else "<argument>", place,
                          f"{where} is a finished game ({result}): there is nothing left to play, so no odds to "
                          f"search (a {result} game's win probability is {value})")


def position_deal(puzzle: str | Path, position: str) -> StratoDeal:
    """A position of ``puzzle``'s challenge, given in the open notation, as a deal named ``position``."""
    source = file_path(puzzle, "puzzle")
    if not isinstance(position, str):
        raise BadInput("<argument>", "position", f"a position in the open notation, not {type(position).__name__}")
    loaded = load_strato(source)
    try:
        state = parse_state(position)
        check_position(loaded.challenge, state)
        check_drawn_up(state)  # as a puzzle file's position deal is checked
    except (NotationError, DealError) as exc:
        raise BadArgument("<argument>", "position", str(exc)) from None
    spec = DealSpec("position", len(state.hands), state=state)
    game = StratoGame(loaded.challenge, loaded.options, state)
    return StratoDeal(loaded, spec, game, state)


@dataclass(frozen=True)
class DealBounds:
    """What the compiled hidden-pile search proved about a deal: ``lower`` <= the optimal solo win probability
    <= ``upper`` (equal: the exact value), and the value table that certifies both (``table``: the file
    written, ``None`` when the limit left no time to write it or its disk refused it, ``table_error``)."""

    deal: StratoDeal
    game: HiddenStrato
    status: str  # "solved" (exact) or "unknown" (an interval)
    lower: Fraction
    upper: Fraction
    states: int
    policy_states: int
    memory: int
    cpu_seconds: float
    steps: tuple[str, ...]
    table: str | None
    table_rows: int
    table_note: str
    #: The system's refusal when the table's own disk could not take it (full, a quota, an I/O error): the
    #: values above stand, found by the search; the table is not there. ``None`` otherwise.
    table_error: OSError | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``stratagem/odds-bounds@1`` report (docs/formats.md, 10.9)."""
        exact = self.status == SOLVED
        return {
            **_head(BOUNDS_FORMAT, self.deal, self.game),
            "status": self.status,
            "win_probability": str(self.lower) if exact else None,
            "lower_bound": str(self.lower),
            "upper_bound": str(self.upper),
            "lower_bound_float": float(self.lower),
            "upper_bound_float": float(self.upper),
            "states": self.states,
            "policy_states": self.policy_states,
            "memory": self.memory,
            "cpu_seconds": round(self.cpu_seconds, 3),
            "steps": list(self.steps),
            "table": self.table,
            "table_rows": self.table_rows,
            "table_note": self.table_note,
        }


def odds_bounds(deal: StratoDeal | StratoGame | Position, table: str | Path, *,
                time_limit: float | Deadline | None = None, max_states: int | None = None,
                progress: ProgressFactory = no_progress) -> DealBounds:
    """The optimal solo win probability of ``deal`` with the pile's order hidden, by the compiled search
    (:func:`~stratagem.models.strato.hidden.exact.odds_interval`: exact where it finishes, else a proven
    interval), and its value table written to ``table`` (``stratagem/strato-odds-table@4``, which
    :func:`stratagem.verify` checks with the rules alone, no search).

    Unlike :func:`odds_of` (the exact value only, the policy record and every first move ranked) this reaches
    whole challenge-1 deals. One ``time_limit`` covers both phases: a finer pass of the search runs only in
    the time left beyond :data:`WRITE_MARGIN` times the estimated writing of the finest finished pass's
    table, which is then written; a table the limit stops is not written (``table`` is then ``None`` and
    ``table_note`` says why), nor one its disk refuses (full, a quota, an I/O error: ``table_error``; the
    values found are still returned). ``progress`` shows the search's passes and the rows written. A ``table`` that
    cannot be written (no such folder, a directory) is :class:`BadInput` before the search begins."""
    deal = _loaded(deal)
    table = file_path(table, "table")
    check_run_limits(time_limit, max_states, "max_states")
    deadline = as_deadline(time_limit)  # before the imports below (0.1-0.3 s the first time): in the limit too
    from stratagem.models.strato.hidden.exact import TooManyOrders, check_orders, odds_interval
    from stratagem.models.strato.hidden.valuetable import TableStopped, TableTooLarge, write_table
    from stratagem.verification import oddstable  # the most rows verify reads: a larger table is not written

    check_writable(table, "table")  # before the search: a folder that is not there was found after all of it
    require_ongoing(deal, "deal")
    game = HiddenStrato(deal.challenge, deal.game.options, deal.start)
    require_solo(game)
    try:  # said here, with the file and the deal, before any search (the kernel's own count wrapped round)
        check_orders(game.initial_state().pile)
    except TooManyOrders as exc:
        raise BadArgument(deal.source, "table", (
            f"deal {deal.name!r}: {exc.problem}; the plain search (odds with no ", Param("table"), ") counts in "
            "exact fractions: it gives the exact value if it finishes, else the value of the best policy it "
            "valued, a lower bound (no upper one), either certified by its policy record (stratagem/policy@1), "
            "which verify replays")) from None
    left = deadline.remaining()
    found = odds_interval(game, seconds=left, max_states=max_states or BOUNDS_MAX_STATES, progress=progress,
                          reserve=lambda states: _writing(states) + 1.0,  # + what passes between search and write
                          drain=False)  # the writer takes the stopped pass's subtrees itself
    written: str | None = str(table)
    rows, note, failure = 0, "", None
    lower, steps = found.lower, list(found.steps)
    sources = _sources_to_write(found, deadline.remaining())
    try:
        made_by = provenance(deal.source if Path(deal.source).is_file() else None)
        summary = write_table(found.solver, Path(table),
                              {"setup": deal.setup(), "deal": deal.name, "provenance": made_by},
                              policy=sources, stop=deadline, progress=progress, max_rows=oddstable.MAX_TABLE_ROWS)
        rows = summary.states
        if summary.lower < lower:  # a coarser pass's table: claim what the certificate holds
            steps.append(f"the value table is the policy's at a coarser cut ({summary.lower} = "
                         f"{float(summary.lower):.4f}): the finest pass's would not be written in the time left")
        elif summary.lower > lower:  # the stopped pass's finished subtrees raised it: the certificate holds it
            steps.append(f"the value table takes the subtrees the stopped pass finished at its finer cut: "
                         f"{summary.lower} = {float(summary.lower):.4f}")
        lower = summary.lower
    except TableStopped as stop:
        written, note = None, _stopped_note(found, stop.rows)
    except TableTooLarge as large:
        written, note = None, f"no value table written: {large}"
    except OSError as refused:  # a full disk: minutes of search are not thrown away with the table
        if refused.errno not in WRITE_FAILURES:
            raise
        written, note, failure = None, f"no value table written: {refused.strerror or refused}", refused
    status = SOLVED if found.status == "exact" else "unknown"
    return DealBounds(deal, game, status, lower, found.upper, found.states, found.policy_states,
                      found.memory, found.seconds, tuple(steps), written, rows, note, failure)


def _stopped_note(found: Any, rows: int) -> str:
    """Why no value table was written when the time limit stopped its writing after ``rows`` rows: a table is
    whole or not there, and one the limit stopped part way would claim rows it never made. When the search
    (``found``, an :class:`~stratagem.models.strato.hidden.exact.OddsInterval`) finished neither the exact
    search nor the guided policy's first pass, the search itself took the time: the note said only "the
    time limit stopped it (stopped after 1 rows)", as though the writing were what ran late."""
    made = plural(rows, "row", grouped=True)
    if found.status != "exact" and not found.passes:
        return ("no value table written: within the time limit the search finished neither the exact search "
                "nor the guided policy's first pass, and left no time to write a table (the writing stopped after "
                f"{made}); a table is written whole or not at all: a longer time limit lets a pass finish and "
                "its table be written")
    return (f"no value table written: the time limit stopped the writing after {made} (a table is written whole "
            "or not at all); a longer time limit leaves the writing more time")


def _writing(states: int) -> float:
    """The seconds kept for writing the table of passes that kept ``states`` states, margin included."""
    return WRITE_MARGIN * WRITE_SECONDS_PER_STATE * states


def _sources_to_write(found: Any, left: float | None) -> tuple[Any, ...]:
    """The searches a table of ``found`` (an :class:`~stratagem.models.strato.hidden.exact.OddsInterval`)
    is written from in ``left`` seconds: :func:`~stratagem.models.strato.hidden.exact.policy_sources` (the
    pass the limit stopped, its finished subtrees, then the finest finished pass) when both fit
    (:func:`_writing` of the states both kept); else :func:`_pass_to_write`'s one pass."""
    from stratagem.models.strato.hidden.exact import policy_sources

    chosen = _pass_to_write(found.passes, left)
    alone = (chosen,) if chosen is not None else ()
    if chosen is not found.policy or found.unfinished is None:  # a coarser pass: the stopped one adds nothing
        return alone
    sources = policy_sources(found)
    if left is None or _writing(sum(each.kernel.stats()[0] for each in sources)) <= left:
        return sources
    return alone


def _pass_to_write(passes: tuple[Any, ...], left: float | None) -> Any:
    """The finest finished pass of the policy's evaluation whose table can be written in ``left`` seconds
    (:func:`_writing` of the states it kept), else the coarsest; ``None`` without passes.
    The best pass is the finest, but its table costs more to write than its search cost to run."""
    if not passes or left is None:
        return passes[-1] if passes else None
    for candidate in reversed(passes):
        if _writing(candidate.kernel.stats()[0]) <= left:
            return candidate
    return passes[0]
