"""Monte Carlo tree search over the Game protocol: UCT with MCTS-Solver backups, and ISMCTS.

Two searches share one engine and one result type:

* :func:`uct` -- UCT (Kocsis & Szepesvari 2006) on the *open* position: the search sees the whole
  state, hidden cards included, so on a hidden-information game its answer is open analysis and is
  labelled ``information: "open"``. In one- and two-player games it also does MCTS-Solver backups
  (Winands, Bjornsson & Saito 2008): a terminal leaf is a proven value; a decision node is proven as
  soon as one child is a proven win for the player to move (a return equal to the top of
  ``value_range``), or when every child is proven (it takes the best of them); a chance node is proven
  when every outcome is proven (it takes their exact-probability average). A proven child is never
  selected again, and a proven root stops the search and is reported with its value. This is sound
  for two-player zero-sum games (and one-player games); with three or more players the solver is off,
  because "each player maximises their own return" (max^n) is an assumption, not a proof.
* :func:`ismcts` -- single-observer information-set MCTS (SO-ISMCTS; Cowling, Powley & Whitehouse
  2012) for :class:`~stratagem.core.game.HiddenInformation` games. Every iteration draws a fresh
  determinisation ``game.sample_state(state, observer, rng)`` -- a full state the observer cannot tell
  from the real one -- and walks one shared tree with it. Tree edges are keyed by the move's notation
  (``game.format_move``), so the same action from different determinisations shares statistics;
  children are scored with UCB over *availability* counts (how often the move was legal when its
  parent was visited) instead of parent visits. As in SO-ISMCTS, moves and chance outcomes further
  down are branched on as if the observer saw them. There is no solver: a value that holds in one
  determinisation proves nothing about the information set.

Common to both:

* Returns are per player ("higher is better" for each), so the same code serves N-player games:
  every node keeps the sum of returns per player, and the player to move at a node chooses by their
  own component. UCB normalises means into [0, 1] with ``value_range`` (default (-1, 1), the two-player
  zero-sum convention; pass the real range for other games).
* CHANCE nodes: an outcome is drawn with its exact :class:`~fractions.Fraction` probability
  (:func:`sample_outcome`), and each outcome gets its own child.
* SIMULTANEOUS nodes (:class:`~stratagem.core.game.Simultaneous` games): decoupled UCT -- each player
  picks their own move by UCB over their own statistics at that node, keyed by the move value; the
  joint move selects the child. Such nodes are never proven. (This keeps UCT usable on games with
  a few simultaneous turns; :mod:`stratagem.solvers.duct` is the dedicated simultaneous-move search.)
* Leaves are valued by a playout to the end: uniformly random moves unless a ``rollout_policy`` is
  given; ``rollout_limit`` cuts long playouts, scoring the cut state with the game's
  :class:`~stratagem.core.game.Evaluation` if it has one, else the middle of ``value_range``;
  ``rollout_limit=0`` values a new leaf by the evaluation alone (an evaluation cut-off).
* Guided open search (``uct(guided=True)``, the default): the game's knowledge steers the search
  where it has some. With :class:`~stratagem.core.game.MoveOrdering`, a node's moves are expanded
  in ``order_moves`` order with progressive widening: a node visited ``n`` times considers only its
  first ``widening * sqrt(n + 1)`` moves (more once those are all proven), so a few iterations go deep
  along the moves the game rates best instead of trying every move once. A game may also declare a
  ``rollout_limit`` attribute, the playout length it wants before its evaluation takes over (Card
  Clash: 0, its evaluation alone); guided search uses it when no ``rollout_limit`` is given.
  ``guided=False`` is plain UCT: every move tried once first, in an order drawn from the seed, and
  random playouts. Measured in results/mcts.md.
* Open search keeps each node's state, player to move and edges, and its children in a list aligned
  with the edges; moves are formatted (``format_move``) only for the root's report. :class:`SearchTree`
  keeps a tree from one search to the next (tree reuse between the moves of a game).
* Budget: ``iterations`` (deterministic) and/or ``time_limit`` in seconds (wall clock, therefore *not*
  deterministic: how far a timed search gets depends on the machine). Whichever runs out first stops
  the search.
* Deterministic: all randomness comes from ``random.Random(seed)``; moves are tried in an order drawn
  from it, and ties in UCB and in the final choice go to the earlier move in ``legal_moves`` order.

The final move is the proven best if the root is proven; otherwise a proven win if any, else the most
visited move that is not a proven loss (ties: higher mean, then legal order).

Modules: :mod:`.playout` (playouts and exact chance draws), :mod:`.results` (what a search reports),
:mod:`.engine` (the tree and one iteration, MCTS-Solver included), :mod:`.reuse` (a tree kept between
moves) and :mod:`.searches` (:func:`uct` and :func:`ismcts`). The public names are importable from
this package.
"""

from stratagem.core.errors import UnsupportedGame
from stratagem.solvers.mcts.engine import DEFAULT_EXPLORATION, DEFAULT_WIDENING
from stratagem.solvers.mcts.playout import RolloutPolicy, playout, sample_outcome
from stratagem.solvers.mcts.results import MctsResult, MoveStats
from stratagem.solvers.mcts.reuse import SearchTree
from stratagem.solvers.mcts.searches import ismcts, uct

__all__ = [
    "DEFAULT_EXPLORATION",
    "DEFAULT_WIDENING",
    "MctsResult",
    "MoveStats",
    "RolloutPolicy",
    "SearchTree",
    "UnsupportedGame",
    "ismcts",
    "playout",
    "sample_outcome",
    "uct",
]

