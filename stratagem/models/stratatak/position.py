"""Stratatak positions and their text notation.

A :class:`State` holds the full truth (open information): both hands, the draw pile, the discard
pile, the attack waiting on the table, who attacks and what happens next. Cards are multisets
(sorted tuples of codes, :mod:`~stratagem.models.stratatak.cards`), except the draw pile, whose
order is known in open analysis. After a reshuffle (seed FAQ: "shuffle the discard pile to form a
new draw pile") the new pile's order is unknown: its cards are kept as a sorted multiset,
``shuffled``, below any known part, and each card drawn from it is a chance event.

Position notation, five fields separated by spaces, and a sixth when an analysis battle limit is on::

    HANDS PILE DISCARD TABLE TURN [bN]

- ``HANDS``: player 1's hand, a comma, player 2's hand (``B3B4*,R7G7``; ``-`` for an empty hand).
- ``PILE``: the draw pile top first (``B1R2``), then in braces the cards of unknown order below it
  (``B1R2{G3*}``, ``{G3G3*}``), ``-`` when empty. On input ``?N`` (after any known cards) stands for
  N cards of unknown order: the game fills them in as the deck's cards found nowhere else.
- ``DISCARD``: the discard pile as a multiset (``-`` when empty).
- ``TABLE``: the attack waiting for the defence (``-`` when none).
- ``TURN``: ``A1`` player 1 attacks; ``D2`` player 2 defends against the attack on the table (player 1
  attacked); ``C1`` player 1, the new attacker, is drawing a card of unknown order (a chance node);
  ``W1`` player 1 has won; ``X1`` the battle limit stopped the game undecided (scored 0, not a draw), player 1 to
  attack next; ``S1`` a fresh game is being dealt, card by card from a pile of unknown order (chance),
  player 1 attacks first.
- ``bN`` (only with the ``battle_limit`` option): N more battles may be fought before the game stops
  undecided; absent means no limit.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from stratagem.core.errors import NotationError
from stratagem.core.notation import check_notation_text
from stratagem.models.stratatak.cards import Cards, format_cards, parse_cards, remove_cards, sort_cards

#: Phases: the attacker plays, the defender plays, the new attacker draws by chance, game won,
#: game stopped undecided at the analysis battle limit, the deal of a fresh game (chance).
ATTACK, DEFEND, DRAW, OVER, STOPPED, DEAL = "A", "D", "C", "W", "X", "S"
NO_WINNER = -1
#: ``left`` of a state without a battle limit.
UNLIMITED = -1


class State(NamedTuple):
    """A Stratatak position with open information (players are 0 and 1; the notation counts from 1).

    ``attacker`` is the player who attacks in this battle (or, once the game is over, the loser);
    ``table`` is the attack waiting for the defence in phase DEFEND; ``winner`` is set in phase OVER;
    ``left`` is the number of battles that may still be fought under the analysis battle limit
    (:data:`UNLIMITED` without one).
    """

    hands: tuple[Cards, Cards]
    pile: Cards
    shuffled: Cards
    discard: Cards
    table: Cards
    attacker: int
    phase: str
    winner: int = NO_WINNER
    left: int = UNLIMITED

    @property
    def defender(self) -> int:
        return 1 - self.attacker

    def pile_size(self) -> int:
        return len(self.pile) + len(self.shuffled)

    def all_cards(self) -> Cards:
        """Every card of the position (for conservation checks)."""
        return sort_cards(self.hands[0] + self.hands[1] + self.pile + self.shuffled + self.discard + self.table)


_PILE_RE = re.compile(r"^([^{}?]*)(?:\{([^{}?]*)\}|\?([0-9]+))?$")
_TURN_RE = re.compile(r"^([ADCWXS])([12])$")
_LEFT_RE = re.compile(r"^b([0-9]+)$")


def format_pile(state: State) -> str:
    """Known cards top first, then the unknown-order cards in braces; ``-`` when empty."""
    if not state.pile and not state.shuffled:
        return "-"
    text = "".join(state.pile)
    if state.shuffled:
        text += "{" + "".join(state.shuffled) + "}"
    return text


def parse_pile(text: str) -> tuple[Cards, Cards | None, int]:
    """``(known order, unknown-order cards or None if only counted, count of counted cards)``."""
    if text == "-":
        return (), (), 0
    match = _PILE_RE.match(text)
    if not match:
        raise NotationError(f"draw pile {text!r} is not CARDS, CARDS{{CARDS}} or CARDS?N (e.g. B1R2{{G3*}})")
    known_text, braces, unknown = match.groups()
    known = tuple(_split(known_text)) if known_text else ()
    if known:
        parse_cards(known_text, "draw pile")  # the same checks as any list of cards
    if unknown is not None:
        if int(unknown) == 0:  # "B1?0" read as B1: more likely a count cut short (?10) than a count of none
            raise NotationError(f"draw pile {text!r}: ?0 stands for no card; leave it out (- for an empty pile)")
        return known, None, int(unknown)
    if braces is not None:
        if not braces or braces == "-":  # {-} was read as no card, as - is
            raise NotationError(f"draw pile {text!r}: empty braces; leave them out")
        return known, parse_cards(braces, "draw pile"), 0
    if not known:
        raise NotationError(f"draw pile {text!r} names no card (use - for an empty pile)")
    return known, (), 0


def _split(text: str) -> list[str]:
    """Card codes in the order written (the draw pile is an ordered list, not a multiset)."""
    cards = re.findall(r"[BRG][0-9]+|\*", text)
    if "".join(cards) != text:
        raise NotationError(f"draw pile {text!r} is not a list of cards such as B1R2*")
    return cards


def format_turn(state: State) -> str:
    player = state.winner if state.phase == OVER else state.defender if state.phase == DEFEND else state.attacker
    return f"{state.phase}{player + 1}"


def format_state(state: State) -> str:
    """The position in the notation of the module docstring."""
    fields = [
        ",".join(format_cards(hand) for hand in state.hands),
        format_pile(state),
        format_cards(state.discard),
        format_cards(state.table),
        format_turn(state),
    ]
    if state.left != UNLIMITED:
        fields.append(f"b{state.left}")
    return " ".join(fields)


def parse_state(text: str, deck: Cards | None = None) -> State:
    """Inverse of :func:`format_state`.

    ``deck`` is needed only for a pile written ``?N`` (:meth:`StratatakGame.parse_state` passes it):
    the N cards are the deck's cards found nowhere else in the position, and there must be exactly N.
    """
    check_notation_text(text)
    fields = text.split()
    if len(fields) not in (5, 6):
        raise NotationError(f"a position has 5 or 6 fields (HANDS PILE DISCARD TABLE TURN [bN]), found {len(fields)}")
    left = UNLIMITED
    if len(fields) == 6:
        left_match = _LEFT_RE.match(fields[5])
        if not left_match:
            raise NotationError(f"battles left {fields[5]!r} must be b and a number, e.g. b6")
        left = int(left_match.group(1))
    hand_texts = fields[0].split(",")
    if len(hand_texts) != 2:
        raise NotationError(f"hands {fields[0]!r}: two hands separated by a comma (Stratatak has 2 players)")
    hands = (parse_cards(hand_texts[0], "hand"), parse_cards(hand_texts[1], "hand"))
    known, shuffled, counted = parse_pile(fields[1])
    discard = parse_cards(fields[2], "discard pile")
    table = parse_cards(fields[3], "table")
    match = _TURN_RE.match(fields[4])
    if not match:
        raise NotationError(f"turn {fields[4]!r} is A, D, C, W, X or S and a player 1 or 2 (e.g. A1)")
    phase, player = match.group(1), int(match.group(2)) - 1
    if shuffled is None:
        if deck is None:
            raise NotationError(f"draw pile {fields[1]!r}: ?N needs the deck; parse it with the game")
        try:
            unseen = remove_cards(deck, hands[0] + hands[1] + known + discard + table)
        except ValueError:
            raise NotationError("the position holds cards the deck does not have") from None
        if len(unseen) != counted:
            raise NotationError(
                f"draw pile {fields[1]!r}: {counted} unknown cards, "
                f"but {len(unseen)} cards of the deck are found nowhere else"
            )
        shuffled = sort_cards(unseen)
    if phase == DEFEND:
        attacker, winner = 1 - player, NO_WINNER
    elif phase == OVER:
        attacker, winner = 1 - player, player
    else:
        attacker, winner = player, NO_WINNER
    return State(hands, known, shuffled, discard, table, attacker, phase, winner, left)
