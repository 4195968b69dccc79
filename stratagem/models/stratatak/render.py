"""Drawing a Stratatak position for ``stratagem show`` (rich markup)."""

from __future__ import annotations

from collections.abc import Iterable

from stratagem.models.stratatak.cards import COLOUR_NAMES, STAR
from stratagem.models.stratatak.plays import MIXED, composition, fighters, play_kinds
from stratagem.models.stratatak.position import DEFEND, DRAW, OVER, STOPPED, State
from stratagem.models.stratatak.rules import StratatakGame

STYLES = {"B": "bold blue", "R": "bold red", "G": "bold green", STAR: "bold yellow"}


def card(code: str) -> str:
    return f"[{STYLES[code[0]]}]{code}[/]"


def cards(codes: Iterable[str]) -> str:
    shown = " ".join(card(c) for c in codes)
    return shown or "(none)"


def describe_play(game: StratatakGame, play: tuple[str, ...]) -> str:
    """``B5 B6 *: run, 11 Fighters, Blue``."""
    kinds = "/".join(play_kinds(play, game.options.star_mode)) or "not a legal play"
    colours = composition(play)
    shade = "mixed colours" if colours == MIXED else COLOUR_NAMES[colours]
    return f"{cards(play)}: {kinds}, {fighters(play)} Fighters, {shade}"


def draw(game: StratatakGame, state: State) -> list[str]:
    """Both hands with their roles, the table, the piles and what happens next."""
    lines = []
    mover = game.to_move(state)
    for player in (0, 1):
        role = "Attacker" if player == state.attacker else "Defender"
        if state.phase == OVER:
            role = "winner" if player == state.winner else "loser"
        arrow = "  ←" if player == mover else ""
        hand = state.hands[player]
        lines.append(f"  player {player + 1} ({role}, {len(hand)} cards)  {cards(hand)}{arrow}")
    if state.phase == DEFEND:
        lines.append(f"  attack on the table  {describe_play(game, state.table)}")
    pile = f"  draw pile ({state.pile_size()})"
    if state.pile:
        pile += f"  top first: {cards(state.pile)}"
    if state.shuffled:
        pile += f"  unknown order: {cards(state.shuffled)}"
    lines.append(pile)
    lines.append(f"  discard pile ({len(state.discard)})  {cards(state.discard)}")
    if state.phase == DRAW:
        need = game.options.hand_size - len(state.hands[state.attacker])
        lines.append(f"  player {state.attacker + 1} draws {need} more from the reshuffled pile (chance)")
    elif state.phase == OVER:
        lines.append(f"  player {state.winner + 1} has won")
    elif state.phase == STOPPED:
        lines.append("  stopped undecided at the battle limit (scored 0: undecided, not a draw)")
    if state.left > 0:
        lines.append(f"  battles left before the analysis stops: {state.left}")
    return lines
