"""A plain-text picture of a Stack Attack position for ``stratagem show``."""

from __future__ import annotations

from stratagem.models.stackattack.cards import ACTION_TAGS, ROW_LIMIT
from stratagem.models.stackattack.position import Cards, State
from stratagem.models.stackattack.rules import StackAttackGame


def card_text(game: StackAttackGame, card: int) -> str:
    """``47`` with its penalty and action tag: ``47(1)``, ``48(1B)``, ``55(8)``."""
    action = game.deck.action(card)
    tag = ACTION_TAGS[action] if action else ""
    return f"{card}({game.deck.penalty(card)}{tag})"


def _cards(game: StackAttackGame, cards: Cards) -> str:
    return " ".join(card_text(game, c) for c in cards) if cards else "-"


def draw(game: StackAttackGame, state: State) -> list[str]:
    """Rows, hands, penalty piles and scores, and the turn being resolved if any."""
    lines = [f"Stack Attack, {game.num_players} players, round {state.round}, turn {game.turn_number(state)}"
             + ("" if game.options.actions else " (numbers only)")]
    for r, row in enumerate(state.rows):
        mark = " (blocked)" if r in state.blocked else ""
        room = f" ({len(row)}/{ROW_LIMIT})"
        lines.append(f"  row {r + 1}{mark}: {_cards(game, row)}{room}")
    totals = game.totals(state)
    for p in range(game.num_players):
        lines.append(
            f"  P{p + 1}: hand {_cards(game, state.hands[p])} | taken {_cards(game, state.taken[p])}"
            f" = {game.deck.total(state.taken[p])} | total {totals[p]}"
        )
    if state.in_turn:
        lines.append("  revealed (now held): " + ", ".join(
            f"P{p + 1} {card_text(game, c)}" for p, c in enumerate(state.played)))
        waiting = game.pending(state)
        who = game.to_move(state) + 1
        lines.append(f"  to resolve: {_cards(game, state.place)}; P{who} decides ({waiting})")
    elif game.is_terminal(state):
        best = ", ".join(f"P{p + 1}" for p in game.winners(state))
        lines.append(f"  over: lowest total {min(totals)} ({best})")
    return lines
