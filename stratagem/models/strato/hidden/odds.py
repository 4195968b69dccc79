"""The exact win probability of solo Strato when the draw pile's order is hidden.

Solo, the player sees everything except the pile's order, so the game is a Markov decision process whose
state is the table, the hand, the multiset of unseen cards and the last weather played (for Cloud):
:class:`~stratagem.models.strato.hidden.game.HiddenStrato` with one player. Its optimal win probability is
expectimax over that state, computed exactly (``Fraction``) by :func:`~stratagem.solvers.mdp.optimal_value`
with two pieces of Strato knowledge that change only the speed:

- **ordering**: moves whose table has the smallest admissible turn bound
  (:func:`~stratagem.models.strato.search.heuristic.lower_bound`) first, so good lines are valued early and
  the Star1 windows cut the rest sooner;
- **floor**: a state whose turn bound exceeds the cards left to play (hand, pile, revealed card: every
  turn plays at least one of them) cannot be won whatever is drawn; its value is 0.

The answer comes with a proof: the optimal policy as a DAG (:func:`~stratagem.solvers.mdp.policy_dag`),
one move at each decision node and every card with its probability at chance nodes, states that cannot
be won cut (their value is 0, and a cut can only lower the value a DAG proves). ``stratagem verify``
replays it through the rules and recomputes its value: a lower bound on the optimal win probability that
holds by construction. That no policy does better rests on the exhaustive search, and is reported so.

A limit that stops the search first leaves the greedy agent's exact value (computed first, on a share of
the time) as the proven lower bound, with its policy as the proof.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput
from stratagem.core.frozen import FrozenList
from stratagem.core.progress import ProgressFactory, no_progress
from stratagem.models.strato.hidden.game import PLAY, TARGET, HiddenState, HiddenStrato
from stratagem.models.strato.rules.challenge import Challenge
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import ONGOING, WON, Row, State
from stratagem.models.strato.search.demand import can_cross
from stratagem.models.strato.search.heuristic import lower_bound
from stratagem.models.strato.search.relaxation import goal_progress
from stratagem.solvers.mdp import SOLVED, UNKNOWN, PolicyNode, optimal_value, policy_dag, policy_value

__all__ = ["SEARCHED_BY", "SoloOdds", "TurnBound", "greedy_move", "greedy_policy_value", "hand_plan", "least_move",
           "require_solo", "solo_odds", "table_progress", "win_payoff"]

#: Share of a limited run's time the greedy policy's value may use before the optimal search starts.
GREEDY_SHARE = 0.2
#: Default cap on the states the optimal search keeps (each costs about 1 KB).
MAX_STATES = 3_000_000
#: How an answer of the compiled search (:func:`~.optimum.compiled_solo_odds`) names it (:attr:`SoloOdds.searched_by`).
SEARCHED_BY = "compiled expectimax"


def win_payoff(state: HiddenState) -> Fraction:
    """1 for a won game, 0 for a lost one: the expected payoff is the win probability."""
    return Fraction(1 if state.status == WON else 0)


class TurnBound:
    """The admissible turn bound of a hidden-pile state, remembered by table and by whether a card can
    still change rows (all the bound depends on besides the result)."""

    def __init__(self, game: HiddenStrato) -> None:
        self.game = game
        self._known: dict[tuple[Any, bool], int] = {}

    def __call__(self, state: HiddenState) -> int:
        if state.status == WON:
            return 0
        if state.status != ONGOING:
            return 1 << 20
        p = state.to_move  # a revealed card is still to be played: count it in the hand of its player
        hands = state.hands[:p] + (state.hands[p] + state.card,) + state.hands[p + 1:]
        return self._remembered(State(state.rows, hands, state.pile, p, state.last, ONGOING))

    def in_view(self, rows: tuple[Row, ...], hand: str, last: str) -> int:
        """The bound of a table with only ``hand`` still to play (no pile, no other hand) and ``last`` the
        weather played last: the view the exact search's kernel bounds its ``play`` states and the guided
        policy's moves in (``search_kernel.lower_bound`` of the pile-less vector), whatever the game's
        status (a table left with no card to play is still measured)."""
        return self._remembered(State(rows, (hand,), "", 0, last, ONGOING))

    def _remembered(self, view: State) -> int:
        key = (view.rows, can_cross(view))
        found = self._known.get(key)
        if found is None:
            found = self._known[key] = lower_bound(self.game.challenge, view)
        return found

    def hopeless(self, state: HiddenState) -> bool:
        """True when more turns are needed than there are cards left to play: the game cannot be won."""
        if state.status != ONGOING:
            return False
        cards = len(state.pile) + sum(len(h) for h in state.hands) + (1 if state.card else 0)
        return self(state) > cards

    def order(self, state: HiddenState, successors: list[tuple[Any, HiddenState]]) -> Sequence[tuple[Any, HiddenState]]:
        return sorted(successors, key=lambda pair: self(pair[1]))


def table_progress(challenge: Challenge, rows: tuple[Row, ...]) -> tuple[int, int]:
    """How far the table is towards the goal, for breaking the turn bound's many ties: the goal's cards
    already in place in the best rows (more is better) and the cards lying beyond the goal's length in
    those half-rows (fewer is better: they bring the card limit closer)."""
    scored = []
    for row in rows:
        if not challenge.goal.eligible(row):
            continue
        placed = over = 0
        for side, half_goal in challenge.goal.halves():
            cards = row.half(side)
            placed += goal_progress(half_goal, cards, row)
            over += max(0, len(cards) - half_goal.length())
        scored.append((placed, -over))
    best = sorted(scored, reverse=True)[: challenge.rows_required]
    return sum(p for p, _ in best), -sum(o for _, o in best)


def greedy_move(game: HiddenStrato, bound: TurnBound, state: HiddenState) -> Move:
    """The greedy agent: the move whose table needs the fewest turns by the admissible bound (a win
    first, a loss last); ties go to the table with more of the goal in place (:func:`table_progress`),
    then fewer cards beyond it, then a play from hand over a Redraw, then the engine's order."""
    def key(move: Move, after: HiddenState) -> tuple[int, ...]:
        placed, over = table_progress(game.challenge, after.rows)
        return bound(after), -placed, over, 1 if move.redraw and state.phase != TARGET else 0

    return least_move(game, state, key)


def hand_plan(game: HiddenStrato, state: HiddenState, plays: int) -> Move | None:
    """The first play, in the engine's order, of a **plan**: at most ``plays`` plays of ``state``'s hand
    alone that win with the pile set aside, so whatever is drawn between them (a draw adds a card to the
    hand and changes neither the table nor the plan's cards: solo, the plan wins every order of the
    pile). A play that wins at once comes first, as in the exact search's own plans
    (``HiddenSolo._hand_plan``); ``None`` when the hand has no plan."""
    bare = state._replace(pile="")
    children = [(move, child) for move, child in game.plays(bare) if not move.redraw]
    for move, child in children:
        if child.status == WON:
            return move
    if plays <= 1:
        return None
    for move, child in children:
        if (child.status == ONGOING and child.phase == PLAY and child.hands[child.to_move]
                and hand_plan(game, child, plays - 1) is not None):
            return move
    return None


def least_move(game: HiddenStrato, state: HiddenState,
               key: Callable[[Move, HiddenState], tuple[int, ...]]) -> Move:
    """The move of ``state`` whose ``key(move, state after it)`` is least, the engine's order breaking ties
    (the agents' one-ply choice)."""
    best: tuple[tuple[int, ...], int] | None = None
    chosen: Move | None = None
    for i, (move, after) in enumerate(game.plays(state)):
        ranked = (key(move, after), i)
        if best is None or ranked < best:
            best, chosen = ranked, move
    if chosen is None:
        raise ValueError(f"{game.format_state(state)}: no legal move")
    return chosen


@dataclass(frozen=True)
class SoloOdds:
    """The exact solo win probability of a deal with the pile's order hidden, or how far the search got.

    ``value`` is exact when ``status`` is ``solved``; ``lower_bound`` is always proven (the value of
    the policy in ``proof``); ``ranking`` gives the first move's options with their exact win
    probabilities (complete when ``ranked``; ``ranking_stopped_by`` names the limit that stopped the
    ranking after the value was found). ``greedy`` is the greedy agent's exact win probability
    (``None`` if its share of the time or the state limit ran out: ``greedy_stopped_by`` says which),
    ``states`` the states the optimal search kept.

    A value, as the other results: frozen, with ``ranking`` and ``proof`` read-only lists
    (:class:`~stratagem.core.frozen.FrozenList`: ``answer.result.ranking.sort()`` changed what the record
    and the proof then said), so it hashes; ``seconds`` (the wall time) is left out of ``==``.
    """

    status: str
    value: Fraction | None
    lower_bound: Fraction
    greedy: Fraction | None
    ranking: list[tuple[str, Fraction]]
    ranked: bool
    states: int
    seconds: float = field(compare=False)
    stopped_by: str | None
    proof: list[PolicyNode]
    proof_source: str
    greedy_stopped_by: str | None = None
    ranking_stopped_by: str | None = None
    #: The search that found the value: the plain one's words, or :data:`SEARCHED_BY` (the compiled one's).
    searched_by: str = "exhaustive expectimax"

    def __post_init__(self) -> None:
        object.__setattr__(self, "ranking", FrozenList(self.ranking))
        object.__setattr__(self, "proof", FrozenList(self.proof))


def require_solo(game: HiddenStrato) -> None:
    """:class:`BadInput` unless ``game`` is solo: the exact odds (either search) are one player's."""
    if game.num_players != 1:
        raise BadInput("<argument>", "players", f"the exact win probability is for solo play; this deal has "
                       f"{game.num_players} players (play strato estimates team play)")


def greedy_policy_value(game: HiddenStrato, deadline: Deadline, max_states: int | None, progress: ProgressFactory
                        ) -> tuple[Fraction | None, str | None, Callable[[], list[PolicyNode]]]:
    """The greedy agent's exact win probability from the start of solo ``game``, on :data:`GREEDY_SHARE` of
    the time: the value (``None`` where the time or ``max_states`` ran out), which limit stopped it, and a
    function writing its policy as a proof DAG (for a search the limit stops before the optimum: the greedy
    value is then the proven lower bound)."""
    root = game.initial_state()
    bound = TurnBound(game)

    def greedy(state: HiddenState) -> Move:
        return greedy_move(game, bound, state)

    with progress("odds: the greedy policy", "states", "nodes visited") as show:
        value, states = policy_value(game, root, greedy, win_payoff, deadline=deadline.part(GREEDY_SHARE),
                                     max_states=max_states, progress=show)
    stopped_by = (None if value is not None else
                  "state limit" if max_states is not None and states >= max_states else "time limit")
    return value, stopped_by, lambda: [] if value is None else policy_dag(game, root, greedy, win_payoff)


def solo_odds(game: HiddenStrato, *, deadline: Deadline | None = None, max_states: int | None = MAX_STATES,
              rank: bool = True, progress: ProgressFactory = no_progress) -> SoloOdds:
    """The exact optimal win probability of solo ``game`` from its start by the plain search (see the module
    docstring; ``stratagem odds`` runs the compiled one, :func:`~.optimum.compiled_solo_odds`, and this one
    where the pile has more orders than the kernel counts). ``progress`` shows the greedy policy's valuation,
    then the search, with their states and nodes."""
    require_solo(game)
    started = time.perf_counter()
    deadline = deadline or Deadline(None)
    root = game.initial_state()
    bound = TurnBound(game)
    greedy_value, greedy_stopped_by, greedy_proof = greedy_policy_value(game, deadline, max_states, progress)
    with progress("odds search", "states kept", "nodes visited") as show:
        result = optimal_value(game, root, win_payoff, deadline=deadline, max_states=max_states, rank=rank,
                               order=bound.order, floor=bound.hopeless, progress=show)
    ranking = [(game.format_move(root, m), v) for m, v in result.ranking]
    if result.status == SOLVED:
        assert result.value is not None
        policy = result.policy

        def worthless(state: HiddenState) -> bool:  # a chance node worth 0: nothing to prove below it
            return result.bounds.get(state) == (Fraction(0), Fraction(0))

        proof = policy_dag(game, root, policy, win_payoff, cut=worthless)
        checked, _ = policy_value(game, root, policy, win_payoff)
        if checked != result.value:  # the DAG must prove what the search found: a bug otherwise
            raise AssertionError(f"the optimal policy is worth {checked}, the search said {result.value}")
        return SoloOdds(SOLVED, result.value, result.value, greedy_value, ranking,
                        rank and result.ranking_stopped_by is None, result.states, time.perf_counter() - started,
                        None, proof, "optimal policy", greedy_stopped_by, result.ranking_stopped_by)
    return SoloOdds(UNKNOWN, None, greedy_value if greedy_value is not None else Fraction(0), greedy_value, ranking,
                    False, result.states, time.perf_counter() - started, result.stopped_by, greedy_proof(),
                    "greedy policy" if greedy_value is not None else "none", greedy_stopped_by)
