"""The one bridge from the Game protocol to OpenSpiel's Python game API (``pyspiel.Game`` / ``pyspiel.State``).

Every stratagem game becomes an OpenSpiel game the same way: an :class:`Engine` (a rules engine
implementing :class:`~stratagem.core.game.Game`, plus what OpenSpiel needs that the protocol leaves
open: a fixed action numbering and who sees each chance outcome) is wrapped by :class:`SpielGame` and
:class:`SpielState`. The per-game modules (``stratagem.openspiel.<game>``) only declare the game's
OpenSpiel type and parameters and build the engine.

What maps to what:

- ``current_player``: the engine's ``to_move``; ``CHANCE`` and ``SIMULTANEOUS`` become OpenSpiel's
  chance and simultaneous ids, ``TERMINAL`` its terminal id.
- actions: :meth:`Engine.action` / :meth:`Engine.move` number the player moves (one number per move,
  fixed for a game configuration, ``num_distinct_actions`` in all); chance outcomes are numbered
  separately (:meth:`Engine.chance_action`, fewer than ``max_chance_outcomes``), with the engine's exact
  probabilities turned into floats.
- at a simultaneous node each player's actions come from ``player_moves``; the joint move given to the
  engine is the tuple of the players' moves.
- ``observation_string``: the engine's ``observation(state, player)`` (or the full position for a
  perfect-information game), written out by :meth:`Engine.observation_text`.
- ``information_state_string``: perfect recall, built from the history as the player saw it: every
  action in order, written out where the player saw it and ``?`` where not (a card dealt or drawn to
  someone else), then the current observation.

States are cloned by OpenSpiel through ``copy.deepcopy`` of their attributes: everything a
:class:`SpielState` holds is immutable, so the copies share it (``__deepcopy__`` returns the object),
and cloning costs one small object whatever the size of the engine's caches.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import pyspiel

from stratagem.core.errors import BadInput, IllegalMove
from stratagem.core.game import CHANCE, SIMULTANEOUS, TERMINAL

#: What a parameter of an OpenSpiel game may hold.
Param = int | bool | str | float

_Built = TypeVar("_Built")


def checked(build: Callable[[], _Built]) -> _Built:
    """What ``build`` makes of a game's parameters, checked as a record's setup is (the rules' own refusals
    and the input limits of docs/formats.md section 11): its refusal a ValueError naming the parameter (and
    :class:`SpielGame` the game), so that ``stars=10000`` is refused at once instead of building a deck for
    minutes."""
    try:
        return build()
    except BadInput as exc:
        raise ValueError(f"{exc.place.removeprefix('setup.')}: {exc.problem}") from None


class Engine:
    """A rules engine as OpenSpiel sees it: the game, its action numbering and its visibility.

    Subclasses set :attr:`game` (anything implementing the Game protocol; ``player_moves`` too when
    the game has simultaneous nodes) and implement the numbering methods. The numbering must not
    depend on the state, so that an action means the same move everywhere in a game configuration.
    """

    game: Any
    #: Player actions are ``0 .. num_actions - 1``.
    num_actions: int
    #: Chance actions are ``0 .. max_chance_outcomes - 1`` (0 for a game without chance).
    max_chance_outcomes: int

    def action(self, move: Hashable) -> int:
        """The number of a player move."""
        raise NotImplementedError

    def move(self, action: int) -> Hashable:
        """Inverse of :meth:`action`; ValueError for a number that names no move."""
        raise NotImplementedError

    def chance_action(self, outcome: Hashable) -> int:
        """The number of a chance outcome."""
        raise NotImplementedError

    def chance_move(self, action: int) -> Hashable:
        """Inverse of :meth:`chance_action`."""
        raise NotImplementedError

    def action_text(self, player: int, action: int) -> str:
        """A player action in the game's notation, without needing a state."""
        raise NotImplementedError

    def chance_text(self, action: int) -> str:
        """A chance action in the game's notation."""
        raise NotImplementedError

    def seen_by(self, state: Hashable, outcome: Hashable) -> int | None:
        """The one player who sees chance ``outcome`` at ``state``, or None when everyone does."""
        return None

    def observation_text(self, state: Hashable, player: int) -> str:
        """What ``player`` knows in ``state``, as one line; perfect-information games show everything."""
        return str(self.game.format_state(state))

    def state_text(self, state: Hashable) -> str:
        """The full state (for ``str(state)``)."""
        return str(self.game.format_state(state))


@dataclass(frozen=True)
class _Shared:
    """Immutable data shared by a state and its clones (see the module docstring)."""

    engine: Engine
    state: Hashable
    #: The history as each player saw it: (text, the only player who saw it or None for everyone).
    views: tuple[tuple[str, int | None], ...]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


_TO_SPIEL = {
    CHANCE: pyspiel.PlayerId.CHANCE,
    SIMULTANEOUS: pyspiel.PlayerId.SIMULTANEOUS,
    TERMINAL: pyspiel.PlayerId.TERMINAL,
}


class SpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over one engine state (see the module docstring)."""

    def __init__(self, game: SpielGame | OpenPositionGame, start: Hashable | None = None) -> None:
        super().__init__(game)
        engine = game.engine
        self._open = isinstance(game, OpenPositionGame)
        self._shared = _Shared(engine, engine.game.initial_state() if start is None else start, ())

    # -- read access -----------------------------------------------------------------------------
    @property
    def engine(self) -> Engine:
        return self._shared.engine

    @property
    def engine_state(self) -> Hashable:
        """The stratagem state this OpenSpiel state stands for (full information)."""
        return self._shared.state

    # -- OpenSpiel API -----------------------------------------------------------------------------
    def current_player(self) -> int:
        who = int(self.engine.game.to_move(self._shared.state))
        return int(_TO_SPIEL.get(who, who))

    def _legal_actions(self, player: int) -> list[int]:
        engine, state = self.engine, self._shared.state
        who = engine.game.to_move(state)
        if who == SIMULTANEOUS:
            if not 0 <= player < engine.game.num_players:  # legal_actions() without a player: -2 indexed a hand
                raise ValueError(f"{engine.game.name}: a simultaneous node has one list of legal actions per player: "
                                 "legal_actions(player) for each, then apply_actions with one action each")
            moves = engine.game.player_moves(state, player)
        elif who == player:
            moves = engine.game.legal_moves(state)
        else:
            return []
        return sorted(engine.action(m) for m in moves)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        engine = self.engine
        outcomes = engine.game.chance_outcomes(self._shared.state)
        return sorted((engine.chance_action(m), float(p)) for m, p in outcomes)

    def _numbered(self, action: int, chance: bool) -> int:
        """``action`` if it is one of the game's numbers (of chance outcomes with ``chance``), else ValueError:
        the engines' numberings index tuples, where -1 would name the last move instead of none."""
        engine = self._shared.engine
        top = engine.max_chance_outcomes if chance else engine.num_actions
        if chance and not top:
            raise ValueError(f"{engine.game.name} has no chance outcomes")
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < top:
            kind = "a chance outcome" if chance else "an action"
            raise ValueError(f"{action!r} is not {kind} of {engine.game.name} (0 to {top - 1})")
        return action

    def _apply_action(self, action: int) -> None:
        shared = self._shared
        engine, state = shared.engine, shared.state
        if engine.game.to_move(state) == SIMULTANEOUS:
            raise ValueError(f"{engine.game.name}: at a simultaneous node every player moves at once: apply_actions "
                             f"with one action per player, not apply_action({action!r})")
        chance = engine.game.to_move(state) == CHANCE
        action = self._numbered(action, chance)
        if chance:
            outcome = engine.chance_move(action)
            view = (engine.chance_text(action), engine.seen_by(state, outcome))
            after = engine.game.apply(state, outcome)
        else:
            player = engine.game.to_move(state)
            view = (engine.action_text(player, action), None)
            after = engine.game.apply(state, engine.move(action))
        self._shared = _Shared(engine, after, (*shared.views, view))

    def _apply_actions(self, actions: Sequence[int]) -> None:
        shared = self._shared
        engine = shared.engine
        who = engine.game.to_move(shared.state)
        if who != SIMULTANEOUS:  # the engine once met a tuple of moves where it takes one (a bare AssertionError)
            mover = "chance" if who == CHANCE else "no one" if who == TERMINAL else f"player {who + 1} alone"
            raise ValueError(f"{engine.game.name}: apply_actions is for a simultaneous node; here {mover} moves: "
                             "apply_action")
        if len(actions) != engine.game.num_players:
            raise ValueError(f"{len(actions)} actions for {engine.game.num_players} players: one each")
        joint = tuple(engine.move(self._numbered(a, False)) for a in actions)
        views = tuple((engine.action_text(p, a), None) for p, a in enumerate(actions))
        try:
            after = engine.game.apply(shared.state, joint)
        except (TypeError, IllegalMove):
            # Only now are the players' moves listed (not on every apply, which searches over the adapter
            # make): a number of the wrong kind here (a swap for a card) failed deep in the engine.
            for player, move in enumerate(joint):
                if move not in engine.game.player_moves(shared.state, player):
                    raise ValueError(f"action {actions[player]} ({engine.action_text(player, actions[player])}) "
                                     f"is not one of player {player + 1}'s moves here") from None
            raise
        self._shared = _Shared(engine, after, (*shared.views, *views))

    def _action_to_string(self, player: int, action: int) -> str:
        """The action in the game's notation; a ValueError for a ``player`` that is neither chance nor one of
        the game's players. The notations that name the player (Stack Attack's ``p1:37``, Card Clash's
        colours) wrote any number given: ``action_to_string(action)`` at a simultaneous node (the player
        -2) gave ``p-1:37``, and player 2 of a two-player Card Clash a green card."""
        engine = self.engine
        if player == pyspiel.PlayerId.CHANCE:
            return engine.chance_text(self._numbered(action, True))
        players = engine.game.num_players
        if not 0 <= player < players:
            if player == pyspiel.PlayerId.SIMULTANEOUS:
                raise ValueError(f"{engine.game.name}: action_to_string needs the player whose action it is "
                                 f"(0 to {players - 1}): at a simultaneous node each player has their own actions "
                                 "(OpenSpiel's flat joint actions are not numbered here)")
            raise ValueError(f"{player} is not a player of {engine.game.name} (0 to {players - 1}, or "
                             f"{int(pyspiel.PlayerId.CHANCE)} for a chance outcome)")
        return engine.action_text(player, self._numbered(action, False))

    def is_terminal(self) -> bool:
        return bool(self.engine.game.is_terminal(self._shared.state))

    def returns(self) -> list[float]:
        game = self.engine.game
        if not game.is_terminal(self._shared.state):
            return [0.0] * game.num_players
        return [float(r) for r in game.returns(self._shared.state)]

    def __str__(self) -> str:
        return self.engine.state_text(self._shared.state)

    # -- what a player knows -------------------------------------------------------------------------
    def observation_text(self, player: int) -> str:
        if self._open:
            return self.engine.state_text(self._shared.state)
        return self.engine.observation_text(self._shared.state, player)

    def information_text(self, player: int) -> str:
        seen = " ".join(text if who is None or who == player else "?" for text, who in self._shared.views)
        return f"{seen} | {self.observation_text(player)}" if seen else f"| {self.observation_text(player)}"


class StringObserver:
    """An observer giving strings only (no tensors): the observation, or with perfect recall the
    information state, both as :class:`SpielState` writes them."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: SpielState, player: int) -> None:
        """No tensor to fill: a ValueError, since OpenSpiel asks for one only through a tensor call
        (``observation_tensor``, ``information_state_tensor``, their shapes and sizes), which without it
        gave an empty list, as if the tensor had no entries, instead of saying there is none."""
        kind = "information_state" if self.perfect_recall else "observation"
        raise ValueError(f"{state.get_game().get_type().short_name} provides no {kind}_tensor (its type says "
                         f"provides_{kind}_tensor=False): use {kind}_string (docs/openspiel.md)")

    def string_from(self, state: SpielState, player: int) -> str:
        return state.information_text(player) if self.perfect_recall else state.observation_text(player)


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game over an :class:`Engine` built from the game's parameters.

    Subclasses (one per game) give :attr:`game_type` and implement :meth:`build` (engine from
    parameters) and :meth:`info` (the bounds OpenSpiel needs: utilities, game length).
    """

    game_type: pyspiel.GameType

    def __init__(self, params: Mapping[str, Param] | None = None) -> None:
        full = {**self.game_type.parameter_specification, **(params or {})}
        try:
            self.engine = self.build(full)
        except ValueError as exc:  # every refusal names the game, as pyspiel.load_game's own do
            raise ValueError(f"{self.game_type.short_name}: {exc}") from None
        super().__init__(self.type_for(self.engine), self.info(self.engine, full), self.stored(full))

    def build(self, params: Mapping[str, Param]) -> Engine:
        raise NotImplementedError

    def stored(self, params: dict[str, Param]) -> dict[str, Param]:
        """The parameters as the game keeps them (``get_parameters``, ``str(game)``, which
        ``serialize_game_and_state`` writes and ``load_game`` reads back): as given, unless a game must
        write a value in a spelling OpenSpiel's game string can carry (it separates parameters by commas
        and has no escape)."""
        return params

    def type_for(self, engine: Engine) -> pyspiel.GameType:
        """The type of this configuration; the registered :attr:`game_type` unless the utility
        depends on the parameters (a two-player game that is zero-sum only with two players)."""
        return self.game_type

    def info(self, engine: Engine, params: Mapping[str, Param]) -> pyspiel.GameInfo:
        raise NotImplementedError

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> StringObserver | None:
        if params:
            raise ValueError(f"observation parameters are not supported; given {dict(params)}")
        if iig_obs_type is None:
            return StringObserver(perfect_recall=False)
        private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if not (iig_obs_type.public_info and private):
            return None  # factored (public-only / private-only) observations are not provided
        return StringObserver(perfect_recall=iig_obs_type.perfect_recall)


class OpenPositionGame(pyspiel.Game):  # type: ignore[misc]
    """An engine from a given position, as an *open-information* OpenSpiel game (not registered).

    This is how OpenSpiel's algorithms meet stratagem's on the same states: the shipped endgame
    positions and the states of a match are open analysis (every card known, draw piles in a known
    order), so the game is declared perfect information, and deterministic unless the engine has
    chance nodes (``chance``; Stratatak's reshuffles). The numbering is the engine's, as in the
    registered games. ``max_game_length`` is not a bound here (a position's rules may allow endless
    play): the searches that take these games never read it.
    """

    def __init__(self, engine: Engine, start: Hashable, *, chance: bool, utility: pyspiel.GameType.Utility,
                 utilities: tuple[float, float]) -> None:
        self.engine = engine
        self.start = start
        name = f"stratagem_{engine.game.name}_open"
        kind = game_type(name, name, simultaneous=False, chance=chance, imperfect=False, utility=utility,
                         players=(engine.game.num_players, engine.game.num_players), parameters={})
        info = pyspiel.GameInfo(
            num_distinct_actions=engine.num_actions,
            max_chance_outcomes=engine.max_chance_outcomes if chance else 0,
            num_players=engine.game.num_players,
            min_utility=utilities[0],
            max_utility=utilities[1],
            utility_sum=0.0 if utility == pyspiel.GameType.Utility.ZERO_SUM else None,
            max_game_length=OPEN_LENGTH,
        )
        super().__init__(kind, info, {})

    def new_initial_state(self) -> SpielState:
        return SpielState(self, self.start)

    def state_at(self, state: Hashable) -> SpielState:
        """An OpenSpiel state standing for the engine state ``state`` (with an empty history)."""
        return SpielState(self, state)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> StringObserver:
        return StringObserver(perfect_recall=iig_obs_type is not None and iig_obs_type.perfect_recall)


#: The ``max_game_length`` an :class:`OpenPositionGame` declares (see there: not a bound).
OPEN_LENGTH = 100_000


def with_utility(base: pyspiel.GameType, utility: pyspiel.GameType.Utility) -> pyspiel.GameType:
    """``base`` with another utility (the rest unchanged)."""
    return _changed(base, utility=utility)


def with_information(base: pyspiel.GameType, *, chance: bool, imperfect: bool) -> pyspiel.GameType:
    """``base`` with another chance mode and information (the rest unchanged)."""
    return _changed(
        base,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if imperfect
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
    )


def _changed(base: pyspiel.GameType, **changes: Any) -> pyspiel.GameType:
    fields = {
        "chance_mode": base.chance_mode,
        "information": base.information,
        "utility": base.utility,
        **changes,
    }
    return pyspiel.GameType(
        short_name=base.short_name,
        long_name=base.long_name,
        dynamics=base.dynamics,
        chance_mode=fields["chance_mode"],
        information=fields["information"],
        utility=fields["utility"],
        reward_model=base.reward_model,
        max_num_players=base.max_num_players,
        min_num_players=base.min_num_players,
        provides_information_state_string=base.provides_information_state_string,
        provides_information_state_tensor=base.provides_information_state_tensor,
        provides_observation_string=base.provides_observation_string,
        provides_observation_tensor=base.provides_observation_tensor,
        provides_factored_observation_string=base.provides_factored_observation_string,
        parameter_specification=base.parameter_specification,
    )


def game_type(
    short_name: str,
    long_name: str,
    *,
    simultaneous: bool,
    chance: bool,
    imperfect: bool,
    utility: pyspiel.GameType.Utility,
    players: tuple[int, int],
    parameters: Mapping[str, Param],
) -> pyspiel.GameType:
    """The OpenSpiel type of a stratagem game: string observations and information states only."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous else pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if imperfect
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        provides_factored_observation_string=False,
        parameter_specification=dict(parameters),
    )
