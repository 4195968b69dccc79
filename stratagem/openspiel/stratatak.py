"""Stratatak as the OpenSpiel game ``stratagem_stratatak``.

Type: sequential; explicit stochastic chance (the deal, one card at a time, and every draw from a pile
of unknown order: the undealt cards and later each reshuffle of the discards; outcomes are the distinct
cards left, weighted by their copies); imperfect information (the opponent's hand and the pile's order
are hidden); zero-sum (+1 / -1 for a win, 0 when the battle limit stops the game undecided).

Parameters: the engine's options, ``star_mode`` (``wildcard`` or ``addon``), ``max_count``, ``copies``,
``stars``, ``hand_size``, and ``battle_limit``. The rules allow endless play (cards cycle through
reshuffles), and OpenSpiel needs a bound on the game's length, so the adapter's default is
``battle_limit = 40``: a game undecided after 40 battles stops with returns 0 to both (OpenSpiel can
only score that as a draw; the project's analysis reads it as undecided, never a draw). 0 is refused here.

Actions: every legal play that a hand of ``hand_size`` cards can make from the deck (Singles, Runs and
Sets, Stars as the star mode allows), in the engine's play order (fewer cards first, then by the sorted
card codes): action i is the i-th play of ``legal_plays(deck)`` that has at most ``hand_size`` cards
(2,233 plays with the default deck). Chance action i draws the i-th distinct card of the deck in card
order (Blue, Red, Green, counts ascending, then the Star).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

import pyspiel

from stratagem.models.stratatak.cards import deck, format_cards
from stratagem.models.stratatak.plays import legal_plays
from stratagem.models.stratatak.position import DEAL, DRAW, State
from stratagem.models.stratatak.puzzle import game_from_setup
from stratagem.models.stratatak.rules import DRAW_MARK, StratatakGame
from stratagem.openspiel.adapter import Engine, Param, SpielGame, checked, game_type

#: The largest ``max_count`` the OpenSpiel game takes (the records' limit, 99, is for the engine itself).
MAX_SPIEL_COUNT = 16

PARAMETERS: dict[str, Param] = {
    "star_mode": "wildcard",
    "max_count": 9,
    "copies": 2,
    "stars": 6,
    "hand_size": 7,
    "battle_limit": 40,
}


class StratatakEngine(Engine):
    """Stratatak with the numbering of the module docstring."""

    def __init__(self, game: StratatakGame) -> None:
        self.game = game
        options = game.options
        cards = deck(options)
        self.plays = tuple(p for p in legal_plays(cards, options.star_mode) if len(p) <= options.hand_size)
        self.play_index = {p: i for i, p in enumerate(self.plays)}
        self.cards = tuple(dict.fromkeys(cards))  # distinct cards, in card order
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.num_actions = len(self.plays)
        self.max_chance_outcomes = len(self.cards)

    def action(self, move: Hashable) -> int:
        return self.play_index[move]  # type: ignore[index]

    def move(self, action: int) -> Hashable:
        return self.plays[action]

    def chance_action(self, outcome: Hashable) -> int:
        assert isinstance(outcome, tuple)
        return self.card_index[outcome[0]]

    def chance_move(self, action: int) -> Hashable:
        return (self.cards[action],)

    def action_text(self, player: int, action: int) -> str:
        return format_cards(self.plays[action])

    def chance_text(self, action: int) -> str:
        return DRAW_MARK + self.cards[action]

    def seen_by(self, state: Hashable, outcome: Hashable) -> int | None:
        """A dealt card is seen by the player it goes to; a drawn card by the drawer (the attacker)."""
        assert isinstance(state, State)
        if state.phase == DEAL:
            return 0 if len(state.hands[0]) <= len(state.hands[1]) else 1
        assert state.phase == DRAW
        return state.attacker

    def observation_text(self, state: Hashable, player: int) -> str:
        """Own hand, the opponent's hand size, pile size, discards, the attack on the table, phase."""
        obs = self.game.observation(state, player)
        return (f"p{player + 1} hand {format_cards(obs.hand)} opponent {obs.opponent_cards} pile {obs.pile_cards} "
                f"discard {format_cards(obs.discard)} table {format_cards(obs.table)} attacker p{obs.attacker + 1} "
                f"phase {obs.phase} battles-left {obs.battles_left}")


class StratatakSpielGame(SpielGame):
    """``stratagem_stratatak`` (see the module docstring)."""

    game_type = game_type(
        "stratagem_stratatak",
        "stratagem Stratatak",
        simultaneous=False,
        chance=True,
        imperfect=True,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        players=(2, 2),
        parameters=PARAMETERS,
    )

    def build(self, params: Mapping[str, Param]) -> Engine:
        if int(params["max_count"]) > MAX_SPIEL_COUNT:
            raise ValueError(f"max_count: at most {MAX_SPIEL_COUNT} here, not "
                             f"{params['max_count']}: the action numbering lists every play a hand can make, which "
                             "grows about threefold with every two counts (16: 5,187 plays in a second; 20 took 8 s)")
        if int(params["battle_limit"]) < 1:
            raise ValueError(f"battle_limit: at least 1 here, not {params['battle_limit']}: OpenSpiel games have a "
                             "bounded length")
        setup = {key: params[key] for key in ("star_mode", "max_count", "copies", "stars", "hand_size",
                                              "battle_limit")}
        return StratatakEngine(checked(lambda: game_from_setup(setup, "stratagem_stratatak")))

    def info(self, engine: Engine, params: Mapping[str, Param]) -> pyspiel.GameInfo:
        assert isinstance(engine, StratatakEngine)
        hand = int(params["hand_size"])
        # The deal, then per battle two plays and at most a hand's worth of single-card draws.
        length = 2 * hand + int(params["battle_limit"]) * (2 + hand)
        return pyspiel.GameInfo(
            num_distinct_actions=engine.num_actions,
            max_chance_outcomes=engine.max_chance_outcomes,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=length,
        )


pyspiel.register_game(StratatakSpielGame.game_type, StratatakSpielGame)
