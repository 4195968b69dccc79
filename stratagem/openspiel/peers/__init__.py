"""OpenSpiel's algorithms as peers of stratagem's own, measured on the same states in the same run.

``stratagem bench GAME`` writes these comparisons as the "Peers: OpenSpiel" section of
results/<game>.md. Each puts one of stratagem's solvers beside OpenSpiel's Python implementation of
the same idea, on OpenSpiel games built over the same rules engine (:class:`OpenPositionGame`: the
engine from a given state, open information, the engine's action numbering):

- :func:`uct_speed`: our UCT (:func:`~stratagem.solvers.mcts.uct`, plain: no move ordering, random
  rollouts, MCTS-Solver on) against OpenSpiel's ``MCTSBot`` (random rollouts, ``solve=True``) from one
  position: simulations per CPU-second, median of repeats.
- :func:`equal_time_match`: our UCT agent against ``MCTSBot`` at equal CPU time per move. Neither
  search stops on a clock here (that would make the match depend on the machine's load): each side's
  simulations per move are calibrated from its own measured rate on the match's start state, then the
  match is seeded and reproducible; the CPU time each side really spent per move is measured and
  reported. Win rate with a 95% Wilson interval (:func:`~stratagem.solvers.match.play_match`).
- :func:`search_peer`: our alpha-beta (or expectiminimax where the position has chance nodes), plain
  (no move ordering, no transposition table), against OpenSpiel's ``alpha_beta_search`` (or
  ``expectiminimax``): nodes, CPU seconds, and whether the values agree. OpenSpiel's searches count
  no nodes; here a node is a state applied by the engine (plus the root), counted by
  :class:`CountingGame`, which also stops a search at a node budget.
- :func:`stage_peer`: Stack Attack's stage games (the matrix game at each simultaneous node of the
  exact backward induction) solved by our exact LP (:func:`~stratagem.solvers.matrix.solve_matrix`)
  and by OpenSpiel's ``lp_solver.solve_zero_sum_matrix_game`` (cvxpy with ECOS): CPU seconds and the
  largest value difference.

Times are CPU seconds of this process (``time.process_time``), so other work on a shared machine
slows a measurement less than it would a wall clock; compare the ratios, not the raw seconds.

Modules: :mod:`.games` (our games as OpenSpiel games, counting the states applied), :mod:`.bots`
(``MCTSBot`` set up as our UCT), :mod:`.speed`, :mod:`.match`, :mod:`.search`, :mod:`.stages` and
:mod:`.strato`, one peer each; the names are importable from this package.
"""

from __future__ import annotations

from stratagem.openspiel.peers.games import CountingGame, NodeBudget, counting_open_game, cpu, engine_for, open_game
from stratagem.openspiel.peers.match import (
    MIN_BOT_SIMULATIONS,
    MatchPeer,
    SpielMctsAgent,
    equal_time_match,
    match_game,
)
from stratagem.openspiel.peers.search import SearchPeer, SearchRun, search_peer
from stratagem.openspiel.peers.speed import SpeedPeer, uct_speed
from stratagem.openspiel.peers.stages import StagePeer, stage_peer
from stratagem.openspiel.peers.strato import (
    RememberedPlays,
    SpielStratoAgent,
    StratoAgentRow,
    StratoExactPeer,
    StratoUctAgent,
    strato_exact_peer,
    strato_spiel_game,
    strato_team_match,
    strato_uct_speed,
)
from stratagem.solvers.match import TimedAgent

__all__ = [
    "CountingGame",
    "MIN_BOT_SIMULATIONS",
    "MatchPeer",
    "NodeBudget",
    "RememberedPlays",
    "SearchPeer",
    "SearchRun",
    "SpeedPeer",
    "SpielMctsAgent",
    "SpielStratoAgent",
    "StagePeer",
    "StratoAgentRow",
    "StratoExactPeer",
    "StratoUctAgent",
    "TimedAgent",
    "counting_open_game",
    "cpu",
    "engine_for",
    "equal_time_match",
    "match_game",
    "open_game",
    "search_peer",
    "stage_peer",
    "strato_exact_peer",
    "strato_spiel_game",
    "strato_team_match",
    "strato_uct_speed",
    "uct_speed",
]
