"""The exact solo win probability with the pile hidden, its first moves ranked and its optimal policy, by the
compiled search: what ``stratagem odds`` computes without ``--table``.

:func:`~.odds.solo_odds` answers the same question with a plain memoised expectimax in ``Fraction``: every
state of the deal searched in Python, 72-80 s for challenge 0's solo-1 with its first moves ranked (1.1
million states, 0.8 GB). Here the kernel (:mod:`.odds_kernel`, through :class:`~.exact.Solver`) gives the
exact value of every ``play`` state, and Python keeps only what lies between one ``play`` state and the
next: the draws after a play, a Redraw's reveal and the revealed card's target choice. So

- the start's value is the kernel's exact search of the start (its integer weight over the pile's orders);
- each first move's value is the probability-weighted sum, over the draws that follow it, of the kernel's
  exact values of the ``play`` states they lead to (after a Redraw, of each revealed card's best target
  first): exact, as the plain search's, and ranked as it ranks them (by value, then its move order);
- the optimal policy, which the proof DAG writes out: at a ``play`` state the move the kernel keeps after
  its exact search there, taken only where the value of the state it leads to, summed in the same way,
  equals the state's own (else the first move in the plain search's order whose value does); at a
  Redraw's target choice the first target whose value is the state's. Every move the DAG holds is thus
  optimal by exact values, and a state worth 0 is cut (nothing to prove below it). The DAG's value is then
  recomputed by the plain :func:`~stratagem.solvers.mdp.policy_value`: it must equal the search's.

The greedy agent's exact value comes first, on a share of the time, as in :func:`~.odds.solo_odds` (whose
code computes it): a limit that stops the kernel before the start's value, or before the policy is written
out, leaves it as the proven lower bound, with its policy as the proof. A limit during the ranking leaves
the value exact and the moves valued so far. Same deal, same answer, byte for byte: the kernel's search and
every order here are deterministic.
"""

from __future__ import annotations

import time
from fractions import Fraction

from stratagem.core.deadline import Deadline
from stratagem.core.game import CHANCE, TERMINAL
from stratagem.core.progress import ProgressFactory, no_progress
from stratagem.models.strato.hidden import odds_kernel as kernel
from stratagem.models.strato.hidden.exact import Solver
from stratagem.models.strato.hidden.game import PLAY, HiddenState, HiddenStrato
from stratagem.models.strato.hidden.odds import (
    SEARCHED_BY,
    SoloOdds,
    TurnBound,
    greedy_policy_value,
    require_solo,
    win_payoff,
)
from stratagem.models.strato.rules.notation import Move
from stratagem.solvers.mdp import SOLVED, UNKNOWN, PolicyNode, policy_dag, policy_value

__all__ = ["COMPILED_STATES", "GREEDY_STATES", "compiled_solo_odds"]

#: Default cap on the states the kernel keeps (about 120 bytes each with its table: some 2 GB at most).
COMPILED_STATES = 20_000_000
#: Cap on the states the greedy agent's valuation (plain Python, about 1 KB and 0.27 ms each) keeps: challenge 0's
#: solo deals need under 4,100; challenge 1's solo-3 passed 2 million in 16 minutes without an end (and 250,000 in
#: 67 CPU s), so a run without a time limit spent those minutes before its search began (stop 71).
GREEDY_STATES = 100_000


class _Optimum:
    """The kernel's exact values of ``play`` states, Python's sums and maxima between them, and the optimal
    policy read from both (see the module docstring)."""

    def __init__(self, game: HiddenStrato, max_states: int, deadline: Deadline) -> None:
        self.game = game
        self.solver = Solver(game, max_states)
        self.deadline = deadline
        self.bound = TurnBound(game)
        self.values: dict[HiddenState, Fraction] = {}
        self.moves: dict[HiddenState, Move | None] = {}

    def ordered(self, state: HiddenState) -> list[tuple[Move, HiddenState]]:
        """The moves of a decision state with their states, in the plain search's order (fewest turns by the
        admissible bound first): ties in value go to the same move as there."""
        return list(self.bound.order(state, self.game.plays(state)))

    def value(self, state: HiddenState) -> Fraction:
        """The exact optimal win probability from ``state``; :class:`~.odds_kernel.Stopped` at a limit."""
        known = self.values.get(state)
        if known is not None:
            return known
        game = self.game
        who = game.to_move(state)
        if who == TERMINAL:
            found = win_payoff(state)
        elif who == CHANCE:
            found = sum((p * self.value(game.apply(state, o)) for o, p in game.chance_outcomes(state)), Fraction(0))
        elif state.phase == PLAY:
            solver, left = self.solver, self.deadline.remaining()
            if left is not None and left <= 0:  # the kernel looks at the clock every few thousand nodes only
                raise kernel.Stopped("time limit")
            w = solver.kernel.solve(solver.vector(state.rows, state.hands[0], state.last), solver.counts(state.pile),
                                    left)
            found = Fraction(w, solver.weight(state.pile))
        else:  # a Redraw's revealed card: the best of its targets
            found = max(self.value(after) for _, after in game.plays(state))
        self.values[state] = found
        return found

    def move(self, state: HiddenState) -> Move | None:
        """An optimal move at a decision state, proven so by exact values; None where the state is worth 0."""
        if state in self.moves:
            return self.moves[state]
        worth = self.value(state)  # at a play state, the kernel's exact search there: its kept move is then its best
        chosen: Move | None = None
        if worth > 0:
            if state.phase == PLAY:
                kept = self.solver.kept_move(state)
                if kept is not None and self.value(self.game.apply(state, kept)) == worth:
                    chosen = kept
            if chosen is None:
                chosen = next(m for m, after in self.ordered(state) if self.value(after) == worth)
        self.moves[state] = chosen
        return chosen

    def worthless(self, state: HiddenState) -> bool:
        """A state worth 0 that the proof DAG cuts (a finished game is a leaf, whatever its result)."""
        return self.game.to_move(state) != TERMINAL and self.value(state) == 0


def compiled_solo_odds(game: HiddenStrato, *, deadline: Deadline | None = None, max_states: int = COMPILED_STATES,
                       rank: bool = True, progress: ProgressFactory = no_progress) -> SoloOdds:
    """The exact optimal win probability of solo ``game`` from its start, its first moves ranked, and the
    optimal policy as the proof (see the module docstring); ``max_states`` caps the kernel's states (the
    greedy agent's valuation keeps at most :data:`GREEDY_STATES` of its own). ``progress`` shows the greedy
    policy's valuation, then the search with its states kept and nodes visited. :class:`~.exact.TooManyOrders`
    for a pile whose orders the kernel cannot count, before any search."""
    require_solo(game)
    started = time.perf_counter()
    deadline = deadline or Deadline(None)
    optimum = _Optimum(game, max_states, deadline)
    root = optimum.solver.root
    greedy, greedy_stopped_by, greedy_proof = greedy_policy_value(game, deadline, min(max_states, GREEDY_STATES),
                                                                  progress)
    kernel_ = optimum.solver.kernel
    value: Fraction | None = None
    best: Move | None = None
    proof: list[PolicyNode] = []
    ranking: list[tuple[Move, Fraction]] = []
    stopped_by = ranking_stopped_by = None
    with progress("odds search (compiled)", "states kept", "nodes visited") as show:
        kernel_.set_progress(lambda kept: show(kept, kernel_.stats()[1]))
        try:
            found = optimum.value(root)
            best = optimum.move(root)
            proof = policy_dag(game, root, optimum.move, win_payoff, cut=optimum.worthless)
            value = found
        except kernel.Stopped as stop:
            stopped_by = str(stop)
        if value is not None:
            ordered = optimum.ordered(root)
            if best is None:  # the start is worth 0: every move is a best one, and the first is listed
                best = ordered[0][0]
            moves = ordered if rank else [(m, a) for m, a in ordered if m == best]
            try:
                for move, after in moves:
                    ranking.append((move, optimum.value(after)))
            except kernel.Stopped as stop:  # the value stays exact, with the best move among those valued
                ranking_stopped_by = str(stop)
                if all(move != best for move, _ in ranking):
                    ranking.append((best, value))
        kernel_.set_progress(None)
    # the kernel's table, and the states between two play states that only Python holds (its play states are
    # the kernel's too)
    states = kernel_.stats()[0] + sum(1 for state in optimum.values if state.phase != PLAY)
    seconds = time.perf_counter() - started
    if value is None:
        return SoloOdds(UNKNOWN, None, greedy if greedy is not None else Fraction(0), greedy, [], False, states,
                        seconds, stopped_by, greedy_proof(), "greedy policy" if greedy is not None else "none",
                        greedy_stopped_by, searched_by=SEARCHED_BY)
    checked, _ = policy_value(game, root, optimum.move, win_payoff)
    if checked != value:  # the DAG must prove what the search found: a bug otherwise
        raise AssertionError(f"the optimal policy is worth {checked}, the search said {value}")
    order = sorted(range(len(ranking)), key=lambda i: (-ranking[i][1], i))
    ranked = [(game.format_move(root, ranking[i][0]), ranking[i][1]) for i in order]
    return SoloOdds(SOLVED, value, value, greedy, ranked,
                    rank and ranking_stopped_by is None, states, seconds, None, proof, "optimal policy",
                    greedy_stopped_by, ranking_stopped_by, searched_by=SEARCHED_BY)

