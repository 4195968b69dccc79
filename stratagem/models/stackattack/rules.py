"""Turns of Stack Attack and the Game protocol (plus Simultaneous, HiddenInformation, Evaluation, Banked).

A turn (seed sections 4-10, docs/rules/stackattack.md): every player chooses a card at once (a SIMULTANEOUS node);
the cards are revealed; action cards then **activate lowest number first** (Block: its holder picks a
row closed to everyone for this turn; Switch: its holder must swap it with another player's revealed
card); then the cards are **placed** one by one, lowest first, or highest first when a Decreasing card
was revealed (several reverse once). Placing a card: the row whose last card is the highest still
lower than it; a card that would be 6th takes the 5 and starts the row; a card lower than every row,
or whose row is blocked, takes an open row of its holder's choice and starts it. A Shield never
takes: it goes on its row even as 6th, and when lower than every row (or blocked) goes on any open row.

Decisions inside a turn (row to block, card to switch with, row to take or to put a Shield on) are
ordinary decision nodes of the player concerned; a decision with a single option is made
automatically, so every decision node has at least two moves.

The activation phase reads the seed's Block + Switch sentence ("If the Block Card is switched after
its effect is applied, only the card is switched, not the action"): an action belongs to whoever holds
the card when it activates; once activated, it stays with that player even if the card changes hands.

Rounds: when every hand is empty the round is over. With ``scope = "round"`` (endgame analysis) that
state is terminal. With ``scope = "game"`` it is terminal when some total (carried score + this
round's penalty cards) reaches 64, else a CHANCE node: dealing is a sequence of chance nodes, one card
each (``D37``: the next card goes to the first hand short of 10 cards, hands in player order, then to
the first empty row), each remaining card equally likely. The first deal of a new round first adds the
round's penalties to the scores and clears the table.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from fractions import Fraction
from random import Random
from typing import Any, NamedTuple

from stratagem.core.errors import IllegalMove
from stratagem.core.game import CHANCE, SIMULTANEOUS, TERMINAL, EqualByRules
from stratagem.models.stackattack.cards import (
    BLOCK,
    DECREASING,
    DEFAULT_ACTIONS,
    DEFAULT_CARDS,
    END_SCORE,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROW_LIMIT,
    ROWS,
    SHIELD,
    SWITCH,
    Deck,
    make_deck,
)
from stratagem.models.stackattack.notation import (
    BLOCK_ROW,
    DEAL,
    SHIELD_PLACE,
    SWAP,
    TAKE,
    Choice,
    Move,
    format_move,
    parse_move,
)
from stratagem.models.stackattack.position import Cards, State, check_state, format_state, parse_state

SCOPES = ("game", "round")


class Options(NamedTuple):
    """Rules options (docs/rules/stackattack.md): ``actions``, ``scope`` and the deck configuration."""

    actions: bool = True
    scope: str = "game"
    cards: int = DEFAULT_CARDS
    block: tuple[int, ...] = DEFAULT_ACTIONS[BLOCK]
    shield: tuple[int, ...] = DEFAULT_ACTIONS[SHIELD]
    decreasing: tuple[int, ...] = DEFAULT_ACTIONS[DECREASING]
    switch: tuple[int, ...] = DEFAULT_ACTIONS[SWITCH]
    penalties: tuple[tuple[int, int], ...] = ()  # (card, penalty) overrides of the default colours

    def deck(self) -> Deck:
        """The deck these options describe; raises ValueError on a bad configuration."""
        actions = {BLOCK: self.block, SHIELD: self.shield, DECREASING: self.decreasing, SWITCH: self.switch}
        return make_deck(self.cards, actions if self.actions else {}, dict(self.penalties))

    def to_data(self) -> dict[str, Any]:
        return {
            "actions": self.actions,
            "scope": self.scope,
            "cards": self.cards,
            "block": list(self.block),
            "shield": list(self.shield),
            "decreasing": list(self.decreasing),
            "switch": list(self.switch),
            "penalties": {str(card): value for card, value in self.penalties},
        }


def designated_row(rows: Sequence[Cards], card: int) -> int | None:
    """Seed section 5: the row whose last card is the highest number still lower than ``card``."""
    best: int | None = None
    best_end = 0  # card numbers start at 1
    for r, row in enumerate(rows):
        if row:
            end = row[-1]
            if best_end < end < card:
                best, best_end = r, end
    return best


def _replace(items: tuple[Cards, ...], i: int, value: Cards) -> tuple[Cards, ...]:
    return items[:i] + (value,) + items[i + 1 :]


class StackAttackGame(EqualByRules):
    """The rules of Stack Attack for a player count and options, from a start state."""

    name = "stackattack"

    def __init__(self, players: int = 2, options: Options | None = None, start: State | None = None) -> None:
        self.options = options or Options()
        if self.options.scope not in SCOPES:
            raise ValueError(f"scope {self.options.scope!r} is not one of {', '.join(SCOPES)}")
        self.deck = self.options.deck()
        #: action of each card number (index 0 unused), for fast look-ups during search
        self.action_of: tuple[str | None, ...] = (None, *(self.deck.action(n) for n in self.deck.numbers()))
        #: penalty of each card number (index 0 unused), for the same reason
        self.penalty_of: tuple[int, ...] = (0, *self.deck.penalties)
        if start is not None:
            players = start.players
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Stack Attack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        if players * HAND_SIZE + ROWS > self.deck.size:
            need = players * HAND_SIZE + ROWS
            raise ValueError(f"{players} players need {need} cards, the deck has {self.deck.size}")
        self.num_players = players
        #: read at every position a solver meets: the endgame scope, and what bank() clears piles to
        self._round_scope = self.options.scope == "round"
        self._cleared: tuple[tuple[Cards, ...], tuple[int, ...]] = (((),) * players, (0,) * players)
        empty: tuple[Cards, ...] = ((),) * players
        self.start = start or State(((),) * ROWS, empty, empty, (0,) * players, 1)
        check_state(self.start, self.deck)

    def setup(self) -> dict[str, Any]:
        """The options as plain JSON data (``puzzle.game_from_setup`` rebuilds the game)."""
        return {"players": self.num_players, "options": self.options.to_data()}

    def _rules(self) -> tuple[Any, ...]:
        """What tells this game from another: the players, the options and the start."""
        return (self.num_players, self.options, self.start)

    # -- Game protocol -------------------------------------------------------------------------
    def initial_state(self) -> State:
        return self.start

    def to_move(self, state: State) -> int:
        # Called at every position a solver meets: plain tuple tests, no properties (same readings as
        # ``in_turn``, ``dealing`` and ``round_over``).
        played = state.played
        if played:
            return played.index(state.activate[0] if state.activate else state.place[0])
        if not all(state.rows):
            return CHANCE
        if any(state.hands):
            return SIMULTANEOUS
        return TERMINAL if self._ended(state) else CHANCE

    def legal_moves(self, state: State) -> list[Move]:
        """Decisions of the player to move; at a simultaneous node every joint reveal (prefer
        :meth:`player_moves`); at a chance node the outcomes."""
        who = self.to_move(state)
        if who == TERMINAL:
            return []
        if who == CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes(state)]
        if who == SIMULTANEOUS:
            return [tuple(joint) for joint in itertools.product(*state.hands)]
        return list(self._choices(state))

    def player_moves(self, state: State, player: int) -> list[Move]:
        """The cards ``player`` may reveal: the whole hand, ascending."""
        if self.to_move(state) != SIMULTANEOUS:
            return []
        return list(state.hands[player])

    def apply(self, state: State, move: Move) -> State:
        who = self.to_move(state)
        if who == TERMINAL:
            raise IllegalMove(f"{format_move(move)}: the game is over")
        if who == CHANCE:
            if not isinstance(move, Choice) or move.kind != DEAL:
                raise IllegalMove(f"{format_move(move)}: a card is being dealt; the move is D<card>")
            return self._deal(state, move.value)
        if who == SIMULTANEOUS:
            if isinstance(move, Choice) or not isinstance(move, tuple):
                raise IllegalMove(f"{format_move(move)}: every player reveals a card; give one per player, e.g. 3,41")
            return self.reveal(state, tuple([int(c) for c in move]))
        if not state.activate and isinstance(move, Choice):
            # A row for the card being placed: checked and made without listing every choice (solvers
            # apply millions of them). The same options as _choices: the card's open row if it has one,
            # else any open row; a Shield is put there without taking.
            card = state.place[0]
            kind = SHIELD_PLACE if self.action_of[card] == SHIELD else TAKE
            r = move.value if move.kind == kind else -1
            target = designated_row(state.rows, card)
            if target is not None and target not in state.blocked:
                if r == target:
                    return self._place_cards(state, r, True)
            elif 0 <= r < ROWS and r not in state.blocked:
                return self._place_cards(state, r, kind == SHIELD_PLACE)
        choices = self._choices(state)
        if move in choices and isinstance(move, Choice):
            return self._advance(self._step(state, move))
        legal = ", ".join(format_move(c) for c in choices)
        raise IllegalMove(f"{format_move(move)}: not a legal choice for player {who + 1} here (legal: {legal})")

    def chance_outcomes(self, state: State) -> Sequence[tuple[Move, Fraction]]:
        if self.to_move(state) != CHANCE:
            return ()
        if state.dealing:
            used = set().union(*state.rows, *state.hands)
            remaining = [c for c in self.deck.numbers() if c not in used]
        else:
            remaining = list(self.deck.numbers())
        p = Fraction(1, len(remaining))
        return [(Choice(DEAL, c), p) for c in remaining]

    def is_terminal(self, state: State) -> bool:
        if state.played or not all(state.rows) or any(state.hands):  # not round_over(state)
            return False
        return self._ended(state)

    def _ended(self, state: State) -> bool:
        """At the end of a round: whether play ends here (endgame scope, or a total of 64 reached)."""
        return self._round_scope or max(self.totals(state)) >= END_SCORE

    def returns(self, state: State) -> tuple[float, ...]:
        """Minus each player's total penalty (carried scores + this round's penalty cards)."""
        return tuple([-float(t) for t in self.totals(state)])

    def format_move(self, state: State, move: Move) -> str:
        return format_move(move)

    def parse_move(self, state: State, text: str) -> Move:
        move = parse_move(text)
        who = self.to_move(state)
        if who == SIMULTANEOUS and isinstance(move, int):
            if not any(move in hand for hand in state.hands):
                raise IllegalMove(f"{text}: no player holds card {move}")
            return move
        self.apply(state, move)  # raises IllegalMove with the reason
        return move

    def format_state(self, state: State) -> str:
        return format_state(state)

    def parse_state(self, text: str) -> State:
        state = parse_state(text)
        check_state(state, self.deck)
        return state

    # -- Evaluation, hidden information ---------------------------------------------------------
    def evaluate(self, state: State) -> tuple[float, ...]:
        """The penalty collected so far (carried scores + penalty cards), as :meth:`returns`."""
        return self.returns(state)

    def observation(self, state: State, player: int) -> Hashable:
        """What ``player`` sees: own hand, the table (rows, every penalty pile, the turn being
        resolved), scores, round and hand sizes. Other hands are the only hidden part."""
        return (
            player,
            state.hands[player],
            tuple(len(h) for h in state.hands),
            state.rows,
            state.taken,
            state.scores,
            state.round,
            state.played,
            state.activate,
            state.place,
            state.blocked,
        )

    def unseen(self, state: State, player: int) -> list[int]:
        """Cards ``player`` cannot see: in other hands or never dealt this round."""
        seen = set().union(*state.rows, *state.taken, state.place, state.hands[player])
        return [c for c in self.deck.numbers() if c not in seen]

    def sample_state(self, state: State, player: int, rng: Random) -> State:
        """Deal the unseen cards to the other players uniformly (hand sizes kept)."""
        pool = self.unseen(state, player)
        rng.shuffle(pool)
        hands = list(state.hands)
        for p in range(self.num_players):
            if p != player:
                k = len(hands[p])
                hands[p], pool = tuple(sorted(pool[:k])), pool[k:]
        return state._replace(hands=tuple(hands))

    def packed_sampler(self, engine: Any, state: State, player: int) -> Any:
        """The determinisations of ``state`` for ``player`` packed for ``engine``, as
        ``engine.encode(self.sample_state(state, player, rng))`` gives them from the same draws, at a
        fraction of the cost (:mod:`stratagem.models.stackattack.sampling`), for the compiled ISMCTS and
        PIMC; None where it cannot promise those rows (the searches then sample here), as for a subclass
        that samples otherwise."""
        own = type(self)
        if own.sample_state is not StackAttackGame.sample_state or own.unseen is not StackAttackGame.unseen:
            return None
        from stratagem.models.stackattack.sampling import packed_deals

        return packed_deals(self, engine, state, player)

    def bank(self, state: State) -> tuple[State, tuple[int, ...]] | None:
        """The position with empty penalty piles and no carried scores, and each player's return so far.

        For the induction's :class:`~stratagem.solvers.simultaneous.Banked`: with ``scope = "round"`` play
        never looks at the piles or the scores and the round's end is terminal, so every line from
        ``state`` ends with these returns (minus each total) plus the returns the same line ends with from
        the cleared position. None with ``scope = "game"``, where whether the game ends depends on the
        totals.
        """
        if not self._round_scope:
            return None
        rows, hands, taken, scores, round_, played, activate, place, blocked = state
        empty, zeros = self._cleared
        if not any(taken) and not any(scores):
            return state, zeros
        rest = State(rows, hands, empty, zeros, round_, played, activate, place, blocked)
        return rest, tuple([-t for t in self.totals(state)])

    # -- helpers --------------------------------------------------------------------------------
    def totals(self, state: State) -> tuple[int, ...]:
        """Each player's total: carried score plus the penalty cards collected this round."""
        penalty = self.penalty_of.__getitem__
        return tuple([s + sum(map(penalty, t)) for s, t in zip(state.scores, state.taken, strict=True)])

    def round_penalties(self, state: State) -> tuple[int, ...]:
        """Penalty points each player has collected this round."""
        return tuple(self.deck.total(t) for t in state.taken)

    def penalty_difference(self, state: State, player: int = 0) -> Fraction:
        """Zero-sum payoff of ``player`` against the others: the others' mean total penalty minus
        the player's own (two players: the opponent's penalty minus one's own)."""
        totals = self.totals(state)
        others = sum(totals) - totals[player]
        return Fraction(others, self.num_players - 1) - totals[player]

    def winners(self, state: State) -> list[int]:
        """Players with the lowest total (seed section 13); meaningful at a terminal state."""
        totals = self.totals(state)
        return [p for p, t in enumerate(totals) if t == min(totals)]

    def round_over(self, state: State) -> bool:
        return not state.played and all(state.rows) and not any(state.hands)

    def turn_number(self, state: State) -> int:
        """The turn being played or resolved (1-10), from the hand sizes; 10 once the round is over,
        0 while dealing."""
        size = len(state.hands[0])
        if state.dealing:
            return 0
        return HAND_SIZE - size if state.in_turn or not size else HAND_SIZE - size + 1

    def pending(self, state: State) -> str:
        """The kind of in-turn decision waiting: "block", "switch", "take", "shield" or ""."""
        if not state.in_turn:
            return ""
        if state.activate:
            action = self.action_of[state.activate[0]]
            return action or ""
        return SHIELD if self.action_of[state.place[0]] == SHIELD else "take"

    # -- a turn ---------------------------------------------------------------------------------
    def reveal(self, state: State, cards: tuple[int, ...]) -> State:
        """Seed section 4: every player reveals one card; then resolve until a decision is needed."""
        if len(cards) != self.num_players:
            raise IllegalMove(f"{format_move(cards)}: {self.num_players} players reveal {self.num_players} cards")
        hands = list(state.hands)
        for p, card in enumerate(cards):
            hand = hands[p]
            if card not in hand:
                held = ".".join(str(c) for c in hand) or "no cards"
                raise IllegalMove(f"{format_move(cards)}: player {p + 1} holds {held}, not {card}")
            i = hand.index(card)
            hands[p] = hand[:i] + hand[i + 1 :]
        action_of = self.action_of
        actions = [action_of[c] for c in cards]
        if not any(actions):  # number cards only (every card of a plain game): placed lowest first at once
            return self._place_cards(State(state.rows, tuple(hands), state.taken, state.scores, state.round,
                                           tuple(cards), (), tuple(sorted(cards)), ()))
        activate = tuple(sorted([c for c, a in zip(cards, actions, strict=True) if a in (BLOCK, SWITCH)]))
        place = tuple(sorted(cards, reverse=DECREASING in actions))
        after = State(state.rows, tuple(hands), state.taken, state.scores, state.round, tuple(cards), activate,
                      place, ())
        return self._advance(after)

    def decisions(self, state: State) -> list[tuple[Choice, State]]:
        """The choices of the decision waiting in ``state`` with the state each leads to after
        resolving up to the next decision."""
        return [(c, self._advance(self._step(state, c))) for c in self._choices(state)]

    def _choices(self, state: State) -> list[Choice]:
        """The options of the next step of a turn being resolved (one when it is forced)."""
        if state.activate:
            card = state.activate[0]
            if self.action_of[card] == BLOCK:
                # Any row, as long as one row stays open (an already blocked row may be picked again).
                return [Choice(BLOCK_ROW, r) for r in range(ROWS)
                        if len(set(state.blocked) | {r}) < ROWS]
            # Switch: swap the card with another player's revealed card (seed section 8).
            return [Choice(SWAP, other) for other in state.played if other != card]
        card = state.place[0]
        shield = self.action_of[card] == SHIELD
        kind = SHIELD_PLACE if shield else TAKE
        target = designated_row(state.rows, card)
        if target is not None and target not in state.blocked:
            return [Choice(kind, target)]
        return [Choice(kind, r) for r in range(ROWS) if r not in state.blocked]

    def _step(self, state: State, choice: Choice) -> State:
        """The state right after the next step of the turn is resolved with ``choice``."""
        # States are built positionally (NamedTuple._replace costs several times more): this runs for
        # every card placed in every line a solver explores.
        rows, hands, taken, scores, round_, played, activate, place, blocked = state
        if activate:
            rest = activate[1:]
            if choice.kind == BLOCK_ROW:
                blocked = tuple(sorted(set(blocked) | {choice.value}))
                return State(rows, hands, taken, scores, round_, played, rest, place, blocked)
            holder, other = played.index(activate[0]), played.index(choice.value)
            swapped = list(played)
            swapped[holder], swapped[other] = swapped[other], swapped[holder]
            return State(rows, hands, taken, scores, round_, tuple(swapped), rest, place, blocked)
        r = choice.value
        return self._place(state, r, choice.kind == SHIELD_PLACE or r == designated_row(rows, place[0]))

    def _place(self, state: State, r: int, on_row: bool) -> State:
        """The next card of the placement queue goes to row ``r``: appended when it is placed on its row
        (``on_row``: its designated row, or any row for a Shield) and the row is not full (a Shield
        never takes), else its holder takes the row and the card starts it."""
        rows, hands, taken, scores, round_, played, activate, place, blocked = state
        card, rest = place[0], place[1:]
        row = rows[r]
        if on_row and (len(row) < ROW_LIMIT or self.action_of[card] == SHIELD):
            return State(_replace(rows, r, row + (card,)), hands, taken, scores, round_, played, activate, rest,
                         blocked)
        player = played.index(card)
        pile = tuple(sorted(taken[player] + row))
        return State(_replace(rows, r, (card,)), hands, _replace(taken, player, pile), scores, round_, played,
                     activate, rest, blocked)

    def _advance(self, state: State) -> State:
        """Resolve every step with a single option; stop at a decision with two or more."""
        while state.played:
            if not state.activate:
                return self._place_cards(state)
            choices = self._choices(state)
            if len(choices) > 1:
                return state
            # No option at all would be an action with no possible effect (not reachable with four rows).
            state = self._step(state, choices[0]) if choices else state._replace(activate=state.activate[1:])
        return state

    def _place_cards(self, state: State, first: int = -1, first_on_row: bool = False) -> State:
        """The placement phase (every action activated): place the queued cards while each has a single
        option, on local copies of the rows and piles; stop at a row to choose, or end the turn.

        The same steps as :meth:`_choices` + :meth:`_step` (a card on its open row; else a take, or a
        Shield put without taking, on the only open row), without a state per card: the solvers place
        millions of cards. ``first`` >= 0 is a row chosen for the first queued card (:meth:`_place` with
        ``first_on_row`` as its ``on_row``), made here on the same local copies.
        """
        rows_now, hands, taken_now, scores, round_, played, _, place, blocked = state
        rows, taken = list(rows_now), list(taken_now)
        action_of = self.action_of
        start = 0
        if first >= 0:  # as _place: on its row unless the row is full (a Shield never takes), else a take
            card, row = place[0], rows[first]
            if first_on_row and (len(row) < ROW_LIMIT or action_of[card] == SHIELD):
                rows[first] = row + (card,)
            else:
                player = played.index(card)
                taken[player] = tuple(sorted(taken[player] + row))
                rows[first] = (card,)
            start = 1
        for i in range(start, len(place)):
            card = place[i]
            shield = action_of[card] == SHIELD
            target = None  # designated_row(rows, card), inline: this runs for every card placed
            best_end = 0
            for r, row in enumerate(rows):
                if row and best_end < row[-1] < card:
                    target, best_end = r, row[-1]
            if target is not None and target not in blocked:
                on_row = True
            else:
                open_rows = [r for r in range(ROWS) if r not in blocked]
                if len(open_rows) > 1:  # the card's holder chooses the row
                    return State(tuple(rows), hands, tuple(taken), scores, round_, played, (), place[i:], blocked)
                target, on_row = open_rows[0], shield
            row = rows[target]
            if on_row and (shield or len(row) < ROW_LIMIT):
                rows[target] = row + (card,)
            else:
                player = played.index(card)
                taken[player] = tuple(sorted(taken[player] + row))
                rows[target] = (card,)
        return State(tuple(rows), hands, tuple(taken), scores, round_)

    # -- dealing --------------------------------------------------------------------------------
    def _deal(self, state: State, card: int) -> State:
        if not state.dealing:  # the round is over: score it and clear the table first
            n = self.num_players
            empty: tuple[Cards, ...] = ((),) * n
            state = State(((),) * ROWS, empty, empty, self.totals(state), state.round + 1)
        used = set().union(*state.rows, *state.hands)
        if card in used or not 1 <= card <= self.deck.size:
            raise IllegalMove(f"D{card}: card {card} is not left to deal")
        for p, hand in enumerate(state.hands):
            if len(hand) < HAND_SIZE:
                return state._replace(hands=_replace(state.hands, p, tuple(sorted(hand + (card,)))))
        r = next(i for i, row in enumerate(state.rows) if not row)
        return state._replace(rows=_replace(state.rows, r, (card,)))


def game_for(players: int, **options: Any) -> StackAttackGame:
    """A game from keyword options (tests and scripts): ``game_for(3, actions=False)``."""
    return StackAttackGame(players, Options(**options))
