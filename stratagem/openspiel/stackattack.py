"""Stack Attack as the OpenSpiel game ``stratagem_stackattack``.

Type: simultaneous dynamics (each turn's reveal is a simultaneous node; the decisions while a turn is
resolved, blocking a row, switching a card, choosing a row to take or to put a Shield on, are ordinary
nodes of one player); explicit stochastic chance (the deal of each round, one card at a time, each
remaining card equally likely); imperfect information (other hands are hidden); general-sum utility
(each player's return is minus their total penalty).

Parameters: ``players`` (2-6, default 2), ``actions`` (action cards on, default true), ``cards`` (deck
1..N, default 64; action cards above N are left out), ``scope`` (``round``, the default: one dealt round
is the game; ``game``: rounds are dealt until someone reaches 64 points).

Actions, with N cards: ``c - 1`` reveals card c (0..N-1); ``N + c - 1`` swaps the Switch card with the
revealed card c; ``2N + r`` blocks row r+1; ``2N + 4 + r`` takes row r+1; ``2N + 8 + r`` puts a Shield
on row r+1 (rows 0-3). Chance action ``c - 1`` deals card c.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

import pyspiel

from stratagem.models.stackattack.cards import (
    ACTIONS,
    BLOCK,
    DECREASING,
    DEFAULT_ACTIONS,
    END_SCORE,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROWS,
    SHIELD,
    SWITCH,
)
from stratagem.models.stackattack.notation import BLOCK_ROW, DEAL, SHIELD_PLACE, SWAP, TAKE, Choice, format_move
from stratagem.models.stackattack.position import State, format_cards
from stratagem.models.stackattack.puzzle import MAX_CARDS
from stratagem.models.stackattack.rules import SCOPES, Options, StackAttackGame
from stratagem.openspiel.adapter import Engine, Param, SpielGame, game_type

PARAMETERS: dict[str, Param] = {"players": 2, "actions": True, "cards": 64, "scope": "round"}

#: Row decisions in the order of their action blocks after the two card blocks.
_ROW_KINDS = (BLOCK_ROW, TAKE, SHIELD_PLACE)


class StackAttackEngine(Engine):
    """Stack Attack with the numbering of the module docstring."""

    def __init__(self, game: StackAttackGame) -> None:
        self.game = game
        cards = game.deck.size
        self.cards = cards
        self.num_actions = 2 * cards + len(_ROW_KINDS) * ROWS
        self.max_chance_outcomes = cards

    def action(self, move: Hashable) -> int:
        if isinstance(move, int):
            return move - 1
        assert isinstance(move, Choice)
        if move.kind == SWAP:
            return self.cards + move.value - 1
        return 2 * self.cards + _ROW_KINDS.index(move.kind) * ROWS + move.value

    def move(self, action: int) -> Hashable:
        n = self.cards
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is not a Stack Attack action (0-{self.num_actions - 1})")
        if action < n:
            return action + 1
        if action < 2 * n:
            return Choice(SWAP, action - n + 1)
        kind, row = divmod(action - 2 * n, ROWS)
        return Choice(_ROW_KINDS[kind], row)

    def chance_action(self, outcome: Hashable) -> int:
        assert isinstance(outcome, Choice)
        return outcome.value - 1

    def chance_move(self, action: int) -> Hashable:
        return Choice(DEAL, action + 1)

    def action_text(self, player: int, action: int) -> str:
        move = self.move(action)
        return f"p{player + 1}:{format_move(move)}" if isinstance(move, int) else format_move(move)  # type: ignore[arg-type]

    def chance_text(self, action: int) -> str:
        return format_move(self.chance_move(action))  # type: ignore[arg-type]

    def seen_by(self, state: Hashable, outcome: Hashable) -> int | None:
        """A card dealt to a hand is seen by that hand's player; one dealt to a row by everyone."""
        assert isinstance(state, State)
        if not state.dealing:  # a new round starts: hands are empty again
            return 0
        for p, hand in enumerate(state.hands):
            if len(hand) < HAND_SIZE:
                return p
        return None

    def observation_text(self, state: Hashable, player: int) -> str:
        """Own hand, the others' hand sizes and everything on the table (``#9``: nine hidden cards)."""
        assert isinstance(state, State)
        hands = "/".join(format_cards(h) if p == player else f"#{len(h)}" for p, h in enumerate(state.hands))
        text = (f"p{player + 1} rows {'/'.join(format_cards(r) for r in state.rows)} hands {hands} "
                f"taken {'/'.join(format_cards(t) for t in state.taken)} "
                f"scores {'/'.join(str(s) for s in state.scores)} round {state.round}")
        if state.in_turn:
            text += (f" >{'/'.join(str(c) for c in state.played)} *{format_cards(state.activate)}"
                     f" ={format_cards(state.place)} #{format_cards(tuple(r + 1 for r in state.blocked))}")
        return text


class StackAttackSpielGame(SpielGame):
    """``stratagem_stackattack`` (see the module docstring)."""

    game_type = game_type(
        "stratagem_stackattack",
        "stratagem Stack Attack",
        simultaneous=True,
        chance=True,
        imperfect=True,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        players=(2, MAX_PLAYERS),
        parameters=PARAMETERS,
    )

    def build(self, params: Mapping[str, Param]) -> Engine:
        """The engine; a refusal names the parameter, as the other games' do (the engine's own words named
        none: ``Stack Attack is played by 2 to 6 players, not 1``, ``2 players need 24 cards, the deck has 5``)."""
        players, scope, cards = int(params["players"]), str(params["scope"]), int(params["cards"])
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players: Stack Attack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"not {players}")
        if scope not in SCOPES:
            raise ValueError(f"scope: one of {', '.join(SCOPES)}, not {scope!r}")
        if not 1 <= cards <= MAX_CARDS:
            raise ValueError(f"cards: 1 to {MAX_CARDS} (docs/formats.md, Input limits), "
                             f"not {cards}")
        if players * HAND_SIZE + ROWS > cards:
            raise ValueError(f"cards: {players} players need {players * HAND_SIZE + ROWS} (a hand each and one card "
                             f"a row), not {cards}")
        kept = {a: tuple(n for n in DEFAULT_ACTIONS[a] if n <= cards) for a in ACTIONS}
        options = Options(
            actions=bool(params["actions"]),
            scope=scope,
            cards=cards,
            block=kept[BLOCK],
            shield=kept[SHIELD],
            decreasing=kept[DECREASING],
            switch=kept[SWITCH],
        )
        return StackAttackEngine(StackAttackGame(players, options))

    def info(self, engine: Engine, params: Mapping[str, Param]) -> pyspiel.GameInfo:
        assert isinstance(engine, StackAttackEngine)
        game = engine.game
        players = game.num_players
        deck_total = game.deck.total(game.deck.numbers())
        # A turn: one reveal, at most one decision per action card and per placement.
        per_round = HAND_SIZE * (1 + 2 * players) + players * HAND_SIZE + ROWS
        rounds = 1
        worst = -float(deck_total)
        if game.options.scope == "game":
            # Every round at least one card is taken (more cards are placed than the rows hold), so
            # the players' totals grow by one point a round at least until one reaches 64.
            rounds = players * (END_SCORE - 1) + 1
            worst = -float(END_SCORE - 1 + deck_total)
        return pyspiel.GameInfo(
            num_distinct_actions=engine.num_actions,
            max_chance_outcomes=engine.max_chance_outcomes,
            num_players=players,
            min_utility=worst,
            max_utility=0.0,
            utility_sum=None,
            max_game_length=rounds * per_round,
        )


pyspiel.register_game(StackAttackSpielGame.game_type, StackAttackSpielGame)
