"""The analysis methods: their names, which one ``auto`` picks for a position, and the refusals made
before any search starts.

Exact methods (:data:`EXACT`, searched in :mod:`.exact`) and ``lp`` (:mod:`.lp`) establish values and
have proofs (:data:`PROVABLE`); ``mcts``, ``ismcts``, ``pimc`` and ``duct`` (:mod:`.estimates`) only
estimate. Refusing early (a finished game, a method that cannot apply, a missing ``--as``) lets a
caller learn of the mistake before a long analysis, not after it.
"""

from __future__ import annotations

from stratagem.core.errors import BadArgument, BadInput
from stratagem.core.game import TERMINAL, HiddenInformation, Simultaneous
from stratagem.engines import COMPILED, ENGINES, REFERENCE, EngineChoice, resolve
from stratagem.loading import Position

METHODS = ("auto", "alphabeta", "expecti", "paranoid", "maxn", "lp", "mcts", "ismcts", "pimc", "duct")
EXACT = ("alphabeta", "expecti", "paranoid", "maxn")
#: The methods whose solved values have a proof (:meth:`Analysis.write_proof`); the others estimate.
PROVABLE = (*EXACT, "lp")
#: The methods that have a compiled search, run on a game's compiled engine (:mod:`stratagem.engines`);
#: ``lp`` only where the engine offers a bounded induction (:func:`~stratagem.analysis.lp.packed_induction`).
COMPILED_SEARCH = ("mcts", "alphabeta", "expecti", "paranoid", "maxn", "lp", "ismcts", "pimc", "duct")
#: The kernel each sampling search needs besides the engine (the searches' own, checked as the engine's are).
SEARCH_KERNEL = {"ismcts": "stratagem.solvers.packed_ismcts", "duct": "stratagem.solvers.packed_duct",
                 "expecti": "stratagem.solvers.packed_expectimax", "paranoid": "stratagem.solvers.packed_expectimax",
                 "maxn": "stratagem.solvers.packed_maxn"}
#: The ``source`` of a :class:`~stratagem.core.errors.BadInput` about one of the call's arguments.
ARGUMENT = "<argument>"


def resolve_method(position: Position, method: str = "auto", as_player: int | None = None) -> str:
    """The method :func:`~stratagem.analysis.analyze` uses for ``method`` on ``position``, after every
    refusal it makes: a finished game, a method that cannot apply, a player who does not exist or is
    needed and missing.

    A caller that has more to check before the (possibly long) analysis starts, such as the command
    line's ``--proof``, can ask first; :func:`~stratagem.analysis.analyze` asks again, with the same answer.
    """
    game, state = position.game, position.state
    if game.to_move(state) == TERMINAL:
        raise BadInput(position.source, "position", "the game is over in this position; there is nothing "
                       "to analyse")
    if method not in METHODS:
        raise BadArgument(ARGUMENT, "method", f"unknown method {method!r} (one of {', '.join(METHODS)})")
    chosen = choose_method(method, position, as_player)
    if as_player is not None and not 1 <= as_player <= game.num_players:
        raise BadArgument(ARGUMENT, "as_player",
                          f"player {as_player} does not exist in a {game.num_players}-player game")
    if chosen in ("pimc", "ismcts") and as_player is None:
        raise BadArgument(ARGUMENT, "as_player", f"{chosen} analyses one player's observation: say whose")
    return chosen


def check_provable(method: str, players: int = 2) -> None:
    """Refuse to promise a proof from a method that only estimates, or from ``maxn`` with ``players`` 3 or
    more (before a long analysis starts).

    A proof tree certifies what a player gets against *every* play of the others (together, with three or
    more: the paranoid value). A max^n value rests on each other player maximising their own return and on
    how each breaks ties between equal returns of their own, so no proof tree certifies it: the tree that
    was written for it proved the paranoid bound, which can say the opposite (a max^n win, a proof of
    "at most -1"). With one or two players (zero-sum returns) max^n is the value a proof tree certifies.
    """
    if method not in PROVABLE:
        raise BadArgument(ARGUMENT, "proof", f"{method} gives estimates, which have no proof; "
                       "use alphabeta, expecti, paranoid or lp")
    if method == "maxn" and players > 2:
        raise BadArgument(ARGUMENT, "proof", f"a max^n value of a {players}-player game rests on how each player "
                       "breaks ties between their own equal returns, and no proof tree certifies it; paranoid "
                       "(the default with 3 or more players) gives a value with a proof")


def choose_method(method: str, position: Position, as_player: int | None) -> str:
    """What ``auto`` means for this position, and refusals of methods that cannot apply."""
    game = position.game
    simultaneous = isinstance(game, Simultaneous)
    if method == "auto":
        if simultaneous:
            return "pimc" if as_player is not None else "lp"
        if as_player is not None:
            return "pimc"
        if game.num_players == 1:  # a solo position: the search over one player's choices
            return "maxn"
        return "paranoid" if game.num_players > 2 else "alphabeta"
    if method in EXACT and simultaneous:
        raise BadInput(position.source, "method", f"{position.game_name} has simultaneous moves; use lp or duct")
    if method in ("lp", "duct") and not simultaneous:
        raise BadInput(position.source, "method", f"{method} is for simultaneous-move games; "
                       f"{position.game_name} is played in turns")
    if method in ("pimc", "ismcts") and not isinstance(game, HiddenInformation):
        raise BadInput(position.source, "method", f"{position.game_name} has no hidden information to sample")
    if method in ("alphabeta", "expecti") and game.num_players == 1:
        raise BadInput(position.source, "method", f"{method} is for two players; a one-player position is "
                       "searched exhaustively by maxn (the auto method)")
    if method == "expecti" and game.num_players > 2:
        raise BadInput(position.source, "method", f"expecti is for two players; with {game.num_players} use "
                       "paranoid or maxn")
    if method == "alphabeta" and game.num_players > 2:
        return "paranoid"
    return method


def engine_for(game: object, method: str, engine: str | None, depth: int | None = None) -> EngineChoice:
    """The rules engine ``method`` runs on when ``engine`` is asked for (None: ``compiled`` where it can be
    had): the game's compiled engine for a method with a compiled search, else the reference engine (also
    for a depth-limited exact search, which needs the game's evaluation). The choice's note says why
    ``compiled`` could not be had, when it was asked for by name or the compiled core was not built
    (otherwise the default falls back quietly). ``alphabeta`` runs compiled until it meets a chance node;
    the ``expecti`` search it then turns into runs compiled too where its kernel is built
    (:func:`~stratagem.analysis.exact.exact_report`). ``ismcts`` (guided, as the ``ismcts`` agent) runs by
    default where ``play`` runs that agent (:func:`stratagem.matches.play`): compiled where the game hands
    over a compiled guide, else on the reference engine (Stack Attack), so the analysis and the agent
    search alike for a seed; asked for, ``compiled`` runs it there, plain (the summary says so)."""
    if engine is not None and engine not in ENGINES:
        raise BadArgument(ARGUMENT, "engine", f"unknown engine {engine!r} (one of {', '.join(ENGINES)})")
    if engine == REFERENCE:
        return EngineChoice(REFERENCE)
    if method not in COMPILED_SEARCH:
        note = f"{method} has no compiled search yet: running on the reference engine" if engine else ""
        return EngineChoice(REFERENCE, None, note)
    if depth is not None and method in EXACT:
        note = "a depth-limited search needs the game's evaluation: running on the reference engine" if engine else ""
        return EngineChoice(REFERENCE, None, note)
    choice = resolve(game, COMPILED)
    if method == "ismcts" and engine is None and choice.engine is not None and not hasattr(game, "compiled_guide"):
        return EngineChoice(REFERENCE)  # where play leaves the guided agent (matches._search_kind); quietly
    if method == "lp" and choice.engine is not None:
        from stratagem.analysis.lp import packed_induction

        if packed_induction(choice.engine) is None:
            note = "lp has no compiled induction for these options: running on the reference engine"
            return EngineChoice(REFERENCE, None, note if engine else "")
    if method == "pimc" and isinstance(game, Simultaneous):
        note = "pimc solves simultaneous-move deals by LP in Python: running on the reference engine"
        return EngineChoice(REFERENCE, None, note if engine else "")
    # pimc solves each sampled deal as expecti (two players) or maxn (more) does
    kernel = SEARCH_KERNEL.get(method if method != "pimc" else "expecti" if _players(game) == 2 else "maxn")
    if kernel is not None and choice.engine is not None:
        from stratagem.core.compiled import status

        core = status()
        if kernel in core.missing or kernel in core.stale:
            note = (f"the compiled core is not built or out of date ({kernel.rsplit('.', 1)[1]}): "
                    "running on the reference engine")
            return EngineChoice(REFERENCE, None, note, True)
    if engine is None and not choice.core_missing:
        return EngineChoice(choice.name, choice.engine)
    return choice


def _players(game: object) -> int:
    """The game's player count (the protocol's ``num_players``)."""
    return int(getattr(game, "num_players", 2))
