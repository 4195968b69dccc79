"""Baseline agents: "lowest" (play your lowest card) and "cautious" (play the card that would take
the fewest penalty points if placed alone on the current rows).

Both make in-turn decisions the same simple way: take (or put a Shield on) the row worth fewest
points, block the row with most penalty points, switch for the revealed card that would take fewest
points. ``greedy_move`` is "lowest" for every player at once.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from stratagem.core.game import CHANCE, SIMULTANEOUS
from stratagem.models.stackattack.cards import ROW_LIMIT, SHIELD
from stratagem.models.stackattack.notation import BLOCK_ROW, SWAP, Move
from stratagem.models.stackattack.position import State
from stratagem.models.stackattack.rules import StackAttackGame, designated_row


def lone_penalty(game: StackAttackGame, state: State, card: int) -> int:
    """Points ``card`` would take if it were placed alone now (the cheapest open row when it must
    take a row of its holder's choice); a Shield takes nothing."""
    if game.deck.action(card) == SHIELD:
        return 0
    r = designated_row(state.rows, card)
    if r is not None and r not in state.blocked:
        row = state.rows[r]
        return game.deck.total(row) if len(row) >= ROW_LIMIT else 0
    open_rows = [row for i, row in enumerate(state.rows) if i not in state.blocked]
    return min(game.deck.total(row) for row in open_rows)


def decide(game: StackAttackGame, state: State) -> Move:
    """The simple in-turn decision described in the module docstring."""
    options = [choice for choice, _ in game.decisions(state)]
    kind = options[0].kind
    if kind == BLOCK_ROW:
        return max(options, key=lambda c: (game.deck.total(state.rows[c.value]), -c.value))
    if kind == SWAP:
        return min(options, key=lambda c: (lone_penalty(game, state, c.value), c.value))
    return min(options, key=lambda c: (game.deck.total(state.rows[c.value]), c.value))


def lowest_card(game: StackAttackGame, state: State, player: int, rng: Random) -> int:
    """"lowest": the lowest card in hand."""
    return min(state.hands[player])


def cautious_card(game: StackAttackGame, state: State, player: int, rng: Random) -> int:
    """"cautious": the card taking fewest points alone; ties go to the highest such card."""
    return min(state.hands[player], key=lambda c: (lone_penalty(game, state, c), -c))


def random_card(game: StackAttackGame, state: State, player: int, rng: Random) -> int:
    """"random": a uniformly random card from the hand."""
    return rng.choice(state.hands[player])


#: Per-player card choosers by agent name (``stratagem play --agents``); decisions use :func:`decide`.
CARD_AGENTS: dict[str, Callable[[StackAttackGame, State, int, Random], int]] = {
    "lowest": lowest_card,
    "cautious": cautious_card,
    "random": random_card,
}


def random_move(game: StackAttackGame, state: State, rng: Random) -> Move:
    """A uniformly random move (a random card for every player at a simultaneous node)."""
    who = game.to_move(state)
    if who == SIMULTANEOUS:
        return tuple(rng.choice(state.hands[p]) for p in range(game.num_players))
    if who == CHANCE:
        return rng.choice(game.chance_outcomes(state))[0]
    return rng.choice(game.legal_moves(state))


def greedy_move(game: StackAttackGame, state: State, rng: Random) -> Move:
    """"lowest" for everyone: the joint reveal of each player's lowest card, or the simple decision."""
    who = game.to_move(state)
    if who == SIMULTANEOUS:
        return tuple(lowest_card(game, state, p, rng) for p in range(game.num_players))
    if who == CHANCE:
        return rng.choice(game.chance_outcomes(state))[0]
    return decide(game, state)


class CardAgent:
    """A baseline as a player in a match: a card chooser at the reveal, :func:`decide` in the turn.

    It has the shape of ``stratagem.solvers.agents.Agent`` (``name``, ``choose``,
    ``choose_simultaneous``) without importing it, as models never import solvers.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._card = CARD_AGENTS[name]
        self.params: dict[str, object] = {}

    def choose(self, game: StackAttackGame, state: State, rng: Random) -> Move:
        return decide(game, state)

    def choose_simultaneous(self, game: StackAttackGame, state: State, player: int, rng: Random) -> int:
        return self._card(game, state, player, rng)


#: Game-specific agents for ``stratagem play stackattack`` (name -> factory taking no parameters).
AGENTS: dict[str, Callable[[], CardAgent]] = {
    "lowest": lambda: CardAgent("lowest"),
    "cautious": lambda: CardAgent("cautious"),
}
