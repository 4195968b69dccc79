"""Setting up a deal: tornado pairs, the starting rows, hands and the draw pile.

Seeded setup follows the seed's "Setup" and docs/rules/strato.md, reproducibly for a given seed:

1. Tornado pairs: the challenge's ``pairs`` if it names them; otherwise the left-handed tornadoes in
   play are shuffled and matched with the shuffled right-handed ones ("randomly place a right-hand
   tornado with a left-hand tornado").
2. The deck: nine cards of each weather in play, shuffled.
3. For each row in order, left half-row then right half-row, two cards outward from the tornado: a drawn
   card that would sit next to the same weather (tornado or card) is set aside and the next one drawn.
   Set-aside cards are shuffled back into the deck afterwards.
4. Hands: 3 cards solo, 2 with 2-4 players, dealt one at a time in player order. The rest is the draw
   pile, top first.

Randomness comes from ``random.Random(seed)`` only, so the same challenge and seed give the same deal. A
challenge whose card limit is below the two cards a half-row starts with has no seeded deal.
"""

from __future__ import annotations

import random
from collections import Counter

from stratagem.models.strato.rules.cards import COPIES_PER_WEATHER, HAND_SIZE, LEFT_HANDED, RIGHT_HANDED
from stratagem.models.strato.rules.challenge import Challenge
from stratagem.models.strato.rules.position import ONGOING, Row, State
from stratagem.models.strato.rules.status import status_problem

CARDS_PER_HALF_ROW_AT_SETUP = 2


class DealError(ValueError):
    """A deal that breaks the setup rules; the message says which rule."""


def tornado_pairs(challenge: Challenge, rng: random.Random) -> tuple[str, ...]:
    """The tornado pair of each row, left tornado first."""
    if challenge.pairs:
        return challenge.pairs
    lefts = [w for w in challenge.weathers if w in LEFT_HANDED]
    rights = [w for w in challenge.weathers if w in RIGHT_HANDED]
    if len(lefts) != challenge.rows or len(rights) != challenge.rows:
        raise DealError(
            f"{challenge.rows} row(s) need {challenge.rows} left-hand and {challenge.rows} right-hand tornadoes; "
            f"the weathers in play give {len(lefts)} left ({''.join(lefts) or 'none'}) and "
            f"{len(rights)} right ({''.join(rights) or 'none'}): name the pairs in the challenge"
        )
    rng.shuffle(lefts)
    rng.shuffle(rights)
    return tuple(a + b for a, b in zip(lefts, rights, strict=True))


def seeded_deal(challenge: Challenge, seed: int, players: int) -> State:
    """The deal a table would lay out after shuffling with ``seed``."""
    if players not in HAND_SIZE:
        raise DealError(f"Strato is played by 1 to 4 players, not {players}")
    if challenge.limit < CARDS_PER_HALF_ROW_AT_SETUP:
        # The layout would start over the limit: no turn has ended, so it is not yet lost, yet no position
        # between two turns can be over the limit; such a start has no place in the game (nor in a record).
        raise DealError(f"the setup places {CARDS_PER_HALF_ROW_AT_SETUP} cards on either side of each tornado, "
                        f"more than the card limit {challenge.limit}: a seeded deal needs a limit of at least "
                        f"{CARDS_PER_HALF_ROW_AT_SETUP} (lay the rows out by hand instead)")
    rng = random.Random(seed)
    pairs = tornado_pairs(challenge, rng)
    deck = [w for w in challenge.weathers for _ in range(COPIES_PER_WEATHER)]
    rng.shuffle(deck)
    set_aside: list[str] = []
    rows = []
    for pair in pairs:
        halves = []
        for tornado in pair:
            half = ""
            while len(half) < CARDS_PER_HALF_ROW_AT_SETUP:
                neighbour = half[-1] if half else tornado
                if not deck:
                    # The set-aside cards go back into the deck (the rule's "shuffled back") before the
                    # layout can go on; rare, e.g. with two weathers when one weather comes first.
                    if all(card == neighbour for card in set_aside):
                        raise DealError("no card of another weather is left to lay out the rows")
                    deck, set_aside = set_aside, []
                    rng.shuffle(deck)
                card = deck.pop(0)
                if card == neighbour:
                    set_aside.append(card)
                else:
                    half += card
            halves.append(half)
        rows.append(Row(pair[0], pair[1], halves[0], halves[1]))
    deck.extend(set_aside)
    rng.shuffle(deck)
    size = HAND_SIZE[players]
    hands = ["" for _ in range(players)]
    for _ in range(size):
        for p in range(players):
            hands[p] += deck.pop(0)
    return State(tuple(rows), tuple("".join(sorted(h)) for h in hands), "".join(deck), 0, "", ONGOING)


def check_position(challenge: Challenge, state: State) -> None:
    """Raise :class:`DealError` if ``state`` cannot occur in a game of ``challenge`` at all.

    Checks what no play can change: the rows and their tornadoes, the weathers in play, at most nine
    cards of each weather, 1-4 players and hands no larger than the hand size; and that a written
    result (``won``/``lost``) is the one the end-of-turn checks make of the table, and is written
    when they end the game (:func:`~stratagem.models.strato.rules.status.status_problem`): a result is
    never taken on trust.
    """
    _check_contents(challenge, state)
    problem = status_problem(challenge, state)
    if problem:
        raise DealError(problem)


def check_drawn_up(state: State) -> None:
    """Raise :class:`DealError` if a hand is short of the hand size while the draw pile holds cards.

    Every play is followed by a draw and a Redraw draws back up to the hand size, so no game reaches such a
    position between two turns. Checked, after :func:`check_position`, on a position given as input: a
    puzzle file's position deal, ``stratagem odds --position`` and OpenSpiel's ``position`` parameter, which
    would otherwise value a game no table can play.
    """
    if not state.pile:
        return
    size = HAND_SIZE[len(state.hands)]
    for player, hand in enumerate(state.hands, start=1):
        if len(hand) < size:
            raise DealError(f"player {player} holds {len(hand)} card(s) while the draw pile holds {len(state.pile)}: "
                            f"a hand is {size} card(s) until the pile runs out (each play is followed by a draw)")


def _check_contents(challenge: Challenge, state: State) -> None:
    """What no play can change (see :func:`check_position`), the written result aside."""
    if len(state.rows) != challenge.rows:
        raise DealError(f"the challenge has {challenge.rows} row(s), the layout {len(state.rows)}")
    if len(state.hands) not in HAND_SIZE:
        raise DealError(f"Strato is played by 1 to 4 players, not {len(state.hands)}")
    for i, row in enumerate(state.rows, start=1):
        pair = row.left_tornado + row.right_tornado
        if challenge.pairs and pair != challenge.pairs[i - 1]:
            raise DealError(f"row {i} has tornadoes {pair}, the challenge names {challenge.pairs[i - 1]}")
        for tornado in pair:
            if tornado not in challenge.weathers:
                raise DealError(f"row {i}: tornado {tornado} is not a weather in play ({challenge.weathers})")
        if not challenge.pairs and (row.left_tornado not in LEFT_HANDED or row.right_tornado not in RIGHT_HANDED):
            raise DealError(
                f"row {i}: tornadoes {pair}: without named pairs the left tornado is one of "
                f"{''.join(LEFT_HANDED)} and the right one of {''.join(RIGHT_HANDED)}"
            )
    tornadoes = [t for row in state.rows for t in (row.left_tornado, row.right_tornado)]
    if len(set(tornadoes)) != len(tornadoes):
        raise DealError("a tornado weather appears twice; there is one tornado card per weather")
    used: Counter[str] = Counter()
    for row in state.rows:
        used.update(row.left + row.right)
    for hand in state.hands:
        used.update(hand)
    used.update(state.pile)
    for weather, count in sorted(used.items()):
        if weather not in challenge.weathers:
            raise DealError(f"card {weather} is not a weather in play ({challenge.weathers})")
        if count > COPIES_PER_WEATHER:
            raise DealError(f"{count} {weather} cards, but the deck holds {COPIES_PER_WEATHER} of each weather")
    size = HAND_SIZE[len(state.hands)]
    for p, hand in enumerate(state.hands, start=1):
        if len(hand) > size:
            raise DealError(f"player {p} holds {len(hand)} cards; the hand size is {size}")
    if state.last and state.last not in challenge.weathers:  # a Cloud would act as a weather not in play
        raise DealError(f"the last weather played, {state.last}, is not a weather in play ({challenge.weathers})")


def check_setup(challenge: Challenge, state: State) -> None:
    """Raise :class:`DealError` if ``state`` could not be the start of a game of ``challenge``.

    Beyond :func:`check_position`: no card next to the same weather (tornadoes included), half-rows
    within the limit, full hands, nobody to move but the first player, no last weather yet and no
    result written (so none can disagree with the table; rows meeting the goal at the start are no
    victory until a turn ends).
    """
    _check_contents(challenge, state)
    for i, row in enumerate(state.rows, start=1):
        for side, half in enumerate((row.left, row.right)):
            inner = row.left_tornado if side == 0 else row.right_tornado
            for d, card in enumerate(half):
                neighbour = half[d - 1] if d else inner
                if card == neighbour:
                    where = "left" if side == 0 else "right"
                    raise DealError(
                        f"row {i}: two adjacent {card} cards in the {where} half-row "
                        f"(setup never puts a card next to the same weather)"
                    )
            if len(half) > challenge.limit:
                raise DealError(f"row {i}: a half-row of {len(half)} cards is over the limit {challenge.limit}")
    size = HAND_SIZE[len(state.hands)]
    for p, hand in enumerate(state.hands, start=1):
        if len(hand) != size:
            raise DealError(f"player {p} holds {len(hand)} cards; with {len(state.hands)} player(s) a hand is {size}")
    if state.to_move != 0 or state.last or state.status:
        raise DealError("a deal starts with player 1 to move, no card played yet and the game not over")
