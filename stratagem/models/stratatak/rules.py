"""Battles of Stratatak and the Game protocol.

A battle (seed "How a Battle Works"): the Attacker plays any legal play face-up, the Defender answers
with any legal play (seed FAQ: no need to match the type or the number of cards; no passing), the
higher Fighter total wins and a tie is a Strataclash. Then (seed "After Each Battle") both plays go to
the discard pile; the winner becomes the Defender and does not draw; the loser becomes the Attacker,
draws back up to 7 and attacks. A player who wins a battle with an empty hand wins the game (seed
"Winning the Game"); playing the last card(s) and losing just means drawing back up.

Drawing: from the top of the draw pile (its order is known in open analysis); when the pile runs out
mid-draw the discard pile is reshuffled into a new pile of unknown order (seed FAQ), and from then on
each card drawn from it is a chance node whose outcomes are the distinct cards left in it, each with
probability (its copies) / (cards left). Drawing one card at a time keeps the chance nodes small (at
most one outcome per distinct card) instead of one outcome per order of the whole reshuffled pile,
and gives the same distribution over hands. When the drawer needs at least as many cards as the
unknown pile holds, the order does not matter and all of them are taken without a chance node. With
no pile and no discards left, play goes on with the cards in hand (seed FAQ).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from random import Random
from typing import Any, NamedTuple

from stratagem.core.errors import IllegalMove, NotationError
from stratagem.core.game import CHANCE, TERMINAL, EqualByRules
from stratagem.core.notation import check_notation_text
from stratagem.models.stratatak.cards import (
    Cards,
    Options,
    card_key,
    deck,
    format_cards,
    in_deck_problem,
    is_submultiset,
    parse_cards,
    remove_cards,
    sort_cards,
)
from stratagem.models.stratatak.plays import (
    ATTACKER,
    battle_winner,
    fighters,
    is_legal_play,
    legal_plays,
)
from stratagem.models.stratatak.position import (
    ATTACK,
    DEAL,
    DEFEND,
    DRAW,
    NO_WINNER,
    OVER,
    STOPPED,
    UNLIMITED,
    State,
    format_state,
    parse_state,
)

#: A play (sorted card codes) or, at a chance node, the one card drawn.
Move = tuple[str, ...]

#: Prefix of a chance outcome in the notation: ``+G3`` = the card drawn is a Green 3.
DRAW_MARK = "+"


class Observation(NamedTuple):
    """What one player knows: their hand, the public cards and the sizes of the hidden parts."""

    player: int
    hand: Cards
    opponent_cards: int
    pile_cards: int
    discard: Cards
    table: Cards
    attacker: int
    phase: str
    winner: int
    battles_left: int


def check_position(state: State, options: Options) -> str | None:
    """What makes ``state`` impossible under the rules and ``options``, or None. Every position read is
    held to it: a position file's, a record's start, ``--position`` and OpenSpiel's.

    Each part is checked, not whether a deal leads there: a position file is an endgame study, whose
    attacker may hold fewer than ``hand_size`` cards with cards left to draw (docs/rules/stratatak.md,
    Part 3)."""
    problem = in_deck_problem(state.all_cards(), options)
    if problem:
        return problem
    for player, hand in enumerate(state.hands, start=1):
        if len(hand) > options.hand_size:  # dealt hand_size, a hand only shrinks or is drawn back up to it
            return (f"player {player} holds {len(hand)} cards, more than hand_size = {options.hand_size}: a hand "
                    "is dealt that many and only drawn back up to it ([options] hand_size)")
    if state.attacker not in (0, 1):
        return f"attacker {state.attacker} is not player 0 or 1"
    attacker_hand, defender_hand = state.hands[state.attacker], state.hands[state.defender]
    if state.phase != DEFEND and state.table:
        return "only a position where the defender is to play has an attack on the table"
    if state.phase != OVER and state.winner != NO_WINNER:
        return "a game in progress has no winner"
    if state.left != UNLIMITED and (not options.battle_limit or state.left > options.battle_limit):
        # The count is where a game stops undecided (turn X, scored 0): it comes from the option alone,
        # counting down from it, so a position cannot carry one of its own.
        if not options.battle_limit:
            return f"b{state.left}: battles are counted only under the battle_limit option, and it is off"
        return f"b{state.left}: more battles left than the battle limit {options.battle_limit}"
    if state.left < UNLIMITED or (state.phase != OVER and (state.left == 0) != (state.phase == STOPPED)):
        return "b0 (no battle left) goes with turn X (stopped at the battle limit), and only with it"
    if state.phase == ATTACK:
        if not attacker_hand or not defender_hand:
            return "both players hold cards when an attack starts (an empty hand has already won or drawn)"
    elif state.phase == DEFEND:
        if not is_legal_play(state.table, options.star_mode):
            return f"the attack on the table {format_cards(state.table)} is not a legal play"
        if not defender_hand:
            return "the defender holds no card (a battle winner with an empty hand has won)"
    elif state.phase == DRAW:
        need = options.hand_size - len(attacker_hand)
        if state.pile or not state.shuffled:
            return "a chance draw needs an empty known pile and cards of unknown order ({...}) to draw from"
        if not 1 <= need < len(state.shuffled):
            return f"a chance draw needs the attacker to lack 1 to {len(state.shuffled) - 1} cards, not {need}"
        if not defender_hand:
            return "the defender holds no card (a battle winner with an empty hand has won)"
    elif state.phase == OVER:
        if state.winner != state.defender or state.hands[state.winner]:
            return "a won game needs its winner (the last battle's winner, now defender) with an empty hand"
    elif state.phase == STOPPED:
        pass
    elif state.phase == DEAL:
        if state.pile or state.discard or state.attacker != 0 or not state.shuffled:
            return "a deal is drawn from cards of unknown order only ({...}), with player 1 to attack first"
        sizes = [len(hand) for hand in state.hands]
        if min(sizes) >= options.hand_size or sizes[0] - sizes[1] not in (0, 1):
            return "a deal gives the players cards in turn, up to the hand size"
    else:
        return f"unknown phase {state.phase!r}"
    return None


def deal(options: Options, rng: Random) -> State:
    """Seed "Setup": shuffle every card, deal 7 to each player, the rest is the draw pile; player 1 (the
    older player, by convention) is the first Attacker."""
    cards = list(deck(options))
    rng.shuffle(cards)
    n = options.hand_size
    hands = (sort_cards(cards[:n]), sort_cards(cards[n : 2 * n]))
    left = options.battle_limit or UNLIMITED
    return State(hands, tuple(cards[2 * n :]), (), (), (), 0, ATTACK, NO_WINNER, left)


def fresh_game(options: Options) -> State:
    """The start of a game before the deal: every card in a pile of unknown order, phase DEAL.

    Dealing is a chance node per card (player 1's card, then player 2's, in turn), so a match between
    agents gets a new random deal each game and the rest of the pile keeps an unknown order: every draw
    from it is chance too.
    """
    return State(((), ()), (), deck(options), (), (), 0, DEAL, NO_WINNER, options.battle_limit or UNLIMITED)


class StratatakGame(EqualByRules):
    """The rules of Stratatak with its options fixed, and a start position."""

    name = "stratatak"
    num_players = 2

    def __init__(self, options: Options | None = None, start: State | None = None) -> None:
        self.options = options or Options()
        problem = self.options.problem()
        if problem:
            raise ValueError(problem)
        self.start = self.limited(start) if start is not None else fresh_game(self.options)
        self.deck = deck(self.options)

    def limited(self, state: State) -> State:
        """``state`` with the option's battle limit when it carries none (its own count wins)."""
        if state.left == UNLIMITED and self.options.battle_limit and state.phase not in (OVER, STOPPED):
            return state._replace(left=self.options.battle_limit)
        return state

    def setup(self) -> dict[str, Any]:
        return self.options.to_data()

    def _rules(self) -> tuple[Any, ...]:
        """What tells this game from another: the options and the start."""
        return (self.options, self.start)

    # -- Game protocol -------------------------------------------------------------------------
    def initial_state(self) -> State:
        return self.start

    def to_move(self, state: State) -> int:
        if state.phase in (OVER, STOPPED):
            return TERMINAL
        if state.phase in (DRAW, DEAL):
            return CHANCE
        return state.defender if state.phase == DEFEND else state.attacker

    def legal_moves(self, state: State) -> Sequence[Move]:
        if state.phase not in (ATTACK, DEFEND):
            return ()
        return legal_plays(state.hands[self.to_move(state)], self.options.star_mode)

    def apply(self, state: State, move: Move) -> State:
        if state.phase in (OVER, STOPPED):
            raise IllegalMove("the game is over")
        if state.phase in (DRAW, DEAL):
            if len(move) != 1 or move[0] not in state.shuffled:
                raise IllegalMove(f"{format_cards(move)} is not a card that can be drawn now")
            if state.phase == DEAL:
                return self._deal_card(state, move[0])
            attacker = state.attacker
            hands = _replace(state.hands, attacker, sort_cards(state.hands[attacker] + move))
            return self._refill(state._replace(hands=hands, shuffled=remove_cards(state.shuffled, move), phase=ATTACK))
        play = sort_cards(move)
        problem = self.why_illegal(state, play)
        if problem:
            raise IllegalMove(problem)
        player = self.to_move(state)
        hands = _replace(state.hands, player, remove_cards(state.hands[player], play))
        if state.phase == ATTACK:
            return state._replace(hands=hands, table=play, phase=DEFEND)
        return self._resolve(state._replace(hands=hands), state.table, play)

    def why_illegal(self, state: State, play: Move) -> str | None:
        """Why ``play`` may not be played now, or None (seed FAQ: no passing; any legal play)."""
        if state.phase not in (ATTACK, DEFEND):
            return "no play is made at a chance node or after the game"
        if not play:
            return "a player may not pass: both the Attacker and the Defender must make a legal play"
        if not is_submultiset(play, state.hands[self.to_move(state)]):
            return f"{format_cards(play)} is not in the hand of the player to move"
        if not is_legal_play(tuple(play), self.options.star_mode):
            return f"{format_cards(play)} is not a Single, Run or Set (star_mode {self.options.star_mode})"
        return None

    def chance_outcomes(self, state: State) -> Sequence[tuple[Move, Fraction]]:
        if state.phase not in (DRAW, DEAL):
            return ()
        return _draw_outcomes(state.shuffled)

    def is_terminal(self, state: State) -> bool:
        return state.phase in (OVER, STOPPED)

    def returns(self, state: State) -> tuple[float, ...]:
        if state.phase != OVER:  # play goes on, or stopped undecided at the battle limit: scored 0
            return (0, 0)
        return (1, -1) if state.winner == 0 else (-1, 1)  # ints: exact values in the solvers

    def format_move(self, state: State, move: Move) -> str:
        if state.phase in (DRAW, DEAL):
            return DRAW_MARK + "".join(move)
        return format_cards(sort_cards(move))

    def parse_move(self, state: State, text: str) -> Move:
        check_notation_text(text)
        text = text.strip()
        if state.phase in (DRAW, DEAL):
            if not text.startswith(DRAW_MARK):
                raise NotationError(f"at a chance node a move is the card drawn, e.g. +G3, not {text!r}")
            cards = parse_cards(text[len(DRAW_MARK) :], "card drawn")
            if len(cards) != 1:
                raise NotationError(f"{text!r}: one card is drawn at a time")
            if cards[0] not in state.shuffled:
                raise IllegalMove(f"{cards[0]} is not among the cards left to draw")
            return cards
        if text.startswith(DRAW_MARK):
            raise IllegalMove(f"{text!r} is a draw, but a player is to play")
        play = parse_cards(text, "play")
        problem = self.why_illegal(state, play)
        if problem:
            raise IllegalMove(problem)
        return play

    def format_state(self, state: State) -> str:
        return format_state(state)

    def parse_state(self, text: str) -> State:
        state = self.limited(parse_state(text, self.deck))
        problem = check_position(state, self.options)
        if problem:
            raise NotationError(f"impossible position: {problem}")
        return state

    # -- optional capabilities -----------------------------------------------------------------
    def order_moves(self, state: State, moves: Sequence[Move]) -> Sequence[Move]:
        """Threats first. Attacks: those the Defender cannot beat with any play from hand (the open
        hand is known; emptying the hand with one of those wins the game), the weakest first, then the
        others, more cards before fewer. Defences: plays that win the battle and empty the hand (a
        win), then battle-winning defences, then more cards before fewer."""
        if state.phase not in (ATTACK, DEFEND):
            return list(moves)
        player = self.to_move(state)
        hand_size = len(state.hands[player])
        if state.phase == ATTACK:
            answers = legal_plays(state.hands[1 - player], self.options.star_mode)

            def attack_key(play: Move) -> tuple[int, int, int]:
                held = all(battle_winner(play, answer) == ATTACKER for answer in answers)
                empties = len(play) == hand_size
                if held:  # the cheapest sure win of the battle keeps the strong cards for later
                    return (0 if empties else 1, 0, fighters(play))
                return (1, 1, -len(play) * 100 - fighters(play))

            return sorted(moves, key=attack_key)

        def defence_key(play: Move) -> tuple[int, int, int]:
            empties = len(play) == hand_size
            wins = battle_winner(state.table, play) != ATTACKER
            return (0 if wins and empties else 1, 0 if wins else 1, -len(play))

        return sorted(moves, key=defence_key)

    def battles_left(self, state: State) -> int | None:
        """How many more battles may be fought before the analysis battle limit stops the game undecided
        (None without the option). Analysis says that a 0 reached at this bound means "undecided within N
        battles", never a draw (ruling: battle limit)."""
        return None if state.left == UNLIMITED else state.left

    def stopped_undecided(self, state: State) -> bool:
        """Whether the battle limit stopped the game undecided (turn ``X``): a match counts such a game
        unfinished, never drawn (ruling: battle limit)."""
        return state.phase == STOPPED

    def battles_along(self, state: State, line: Sequence[Move]) -> int:
        """How many battles ``line`` (moves from ``state``) starts: the attacks in it.

        Analysis reports a result "in N battles" with it, as the seed counts play in battles.
        """
        battles = 0
        for move in line:
            if state.phase == ATTACK:
                battles += 1
            state = self.apply(state, move)
        return battles

    def evaluate(self, state: State) -> tuple[float, ...]:
        """Hand size difference, scaled into (-0.5, 0.5): fewer cards is better."""
        if self.is_terminal(state):
            return self.returns(state)
        a, b = len(state.hands[0]), len(state.hands[1])
        value = 0.5 * (b - a) / (a + b + 1)
        return (value, -value)

    def compiled_guide(self, engine: Any) -> Any:
        """:meth:`order_moves` and :meth:`evaluate` over ``engine``'s packed states (a
        :class:`~stratagem.models.stratatak.guide.StratatakGuide`), for guided UCT on the compiled engine."""
        from stratagem.models.stratatak.guide import StratatakGuide

        return StratatakGuide.for_engine(engine, self)

    def packed_sampler(self, engine: Any, state: State, player: int) -> Any:
        """The determinisations of ``state`` for ``player`` packed for ``engine``, as
        ``engine.encode(self.sample_state(state, player, rng))`` gives them from the same draws, at a
        fraction of the cost (:mod:`stratagem.models.stratatak.sampling`), for the compiled ISMCTS and
        PIMC; None where it cannot promise those rows (the searches then sample here), as for a subclass
        that samples otherwise."""
        if type(self).sample_state is not StratatakGame.sample_state:
            return None
        from stratagem.models.stratatak.sampling import packed_deals

        return packed_deals(self, engine, state, player)

    def observation(self, state: State, player: int) -> Observation:
        return Observation(
            player,
            state.hands[player],
            len(state.hands[1 - player]),
            state.pile_size(),
            state.discard,
            state.table,
            state.attacker,
            state.phase,
            state.winner,
            state.left,
        )

    def sample_state(self, state: State, player: int, rng: Random) -> State:
        """The opponent's hand and the draw pile redealt uniformly from the cards ``player`` cannot see.

        At a chance draw the resampled pile stays of unknown order (the phase needs it); elsewhere it
        gets a random known order.
        """
        other = 1 - player
        unseen = list(state.hands[other] + state.pile + state.shuffled)
        rng.shuffle(unseen)
        n = len(state.hands[other])
        hands = _replace(state.hands, other, sort_cards(unseen[:n]))
        rest = tuple(unseen[n:])
        if state.phase in (DRAW, DEAL):
            return state._replace(hands=hands, pile=(), shuffled=sort_cards(rest))
        return state._replace(hands=hands, pile=rest, shuffled=())

    # -- the deal and battle resolution --------------------------------------------------------
    def _deal_card(self, state: State, card: str) -> State:
        """Seed "Setup": one card to the player with fewer (player 1 first); attack once both are full."""
        player = 0 if len(state.hands[0]) <= len(state.hands[1]) else 1
        hands = _replace(state.hands, player, sort_cards(state.hands[player] + (card,)))
        shuffled = remove_cards(state.shuffled, (card,))
        done = min(len(h) for h in hands) >= self.options.hand_size or not shuffled
        return state._replace(hands=hands, shuffled=shuffled, phase=ATTACK if done else DEAL)

    # -- battle resolution ---------------------------------------------------------------------
    def _resolve(self, state: State, attack: Cards, defence: Cards) -> State:
        """Seed "After Each Battle": discard both plays; the winner defends (and wins the game with an
        empty hand); the loser attacks after drawing back up to the hand size. Under a battle limit, the
        last battle allowed that decides nothing stops the game undecided (scored 0; not a draw)."""
        winner = state.attacker if battle_winner(attack, defence) == ATTACKER else state.defender
        loser = 1 - winner
        discard = sort_cards(state.discard + attack + defence)
        left = state.left - 1 if state.left > 0 else state.left
        after = state._replace(discard=discard, table=(), attacker=loser, left=left)
        if not state.hands[winner]:
            return after._replace(phase=OVER, winner=winner)
        if left == 0:  # the analysis horizon: undecided, scored 0 (the loser does not draw cards)
            return after._replace(phase=STOPPED)
        return self._refill(after._replace(phase=ATTACK))

    def _refill(self, state: State) -> State:
        """The attacker draws up to the hand size: known pile first, then a reshuffle of the discards;
        stops at a chance node when the next card comes from a pile of unknown order."""
        attacker = state.attacker
        hand = state.hands[attacker]
        pile, shuffled, discard = state.pile, state.shuffled, state.discard
        need = self.options.hand_size - len(hand)
        while need > 0:
            if pile:
                k = min(need, len(pile))
                hand, pile, need = hand + pile[:k], pile[k:], need - k
            elif shuffled:
                if need < len(shuffled):
                    break
                hand, shuffled, need = hand + shuffled, (), need - len(shuffled)
            elif discard:
                shuffled, discard = discard, ()
            else:
                break
        phase = DRAW if need > 0 and shuffled else ATTACK
        hands = _replace(state.hands, attacker, sort_cards(hand))
        return state._replace(hands=hands, pile=pile, shuffled=shuffled, discard=discard, phase=phase)


@lru_cache(maxsize=1 << 14)
def _draw_outcomes(shuffled: Cards) -> tuple[tuple[Move, Fraction], ...]:
    """Each distinct card of a (sorted) pile of unknown order with its chance of being drawn next."""
    total = len(shuffled)
    counts = Counter(shuffled)
    return tuple(((card,), Fraction(counts[card], total)) for card in sorted(counts, key=card_key))


def _replace(hands: tuple[Cards, Cards], player: int, hand: Cards) -> tuple[Cards, Cards]:
    return (hand, hands[1]) if player == 0 else (hands[0], hand)
