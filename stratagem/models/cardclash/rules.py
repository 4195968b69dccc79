"""Turns of Card Clash, the end of a round and its scoring, and the Game protocol.

A turn (seed "Wat je in je beurt doet"): the player to move plays exactly one card from hand, next to
a card on the table (edge-adjacent) or on a stack the stacking rules allow, then draws the top card of
their own draw pile. A player with no legal placement passes and keeps the hand (docs/rules/cardclash.md).

The game unit is **one round**: a state ends when someone shows a 2x2 square of their colour, or when
all cards are played (or every player passes in a row, which can only happen when nobody can place:
the round is then scored the same way). Several rounds with flags are played by :meth:`next_round`,
which hands out the flags and deals the next round; the flags won so far ride along in the state.

Returns (one round): the winners get +1 and everyone else -1; when every player wins together (the
third tie-break) everyone gets 0. Two players thus get (+1, -1), (-1, +1) or (0, 0).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

from stratagem.core.errors import IllegalMove, NotationError
from stratagem.core.game import TERMINAL, EqualByRules
from stratagem.models.cardclash import threats
from stratagem.models.cardclash.battlefield import (
    NEIGHBOURS,
    Board,
    Cell,
    board_problem,
    place,
    size,
    stacks,
    targets_by_rank,
    tops,
)
from stratagem.models.cardclash.cards import (
    ARMY,
    ARMY_SIZE,
    COLOUR_NAMES,
    COLOURS,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RANKS,
    is_numbered,
    sort_ranks,
    stacking,
    value,
)
from stratagem.models.cardclash.position import (
    PASS,
    Move,
    State,
    format_move,
    format_state,
    parse_move,
    parse_state,
    sort_cards,
)

#: The narrowest table: a square is 2x2, so a table one card wide or tall could never be won.
MIN_TABLE = 2
#: The widest or tallest table: every card of six armies (6 x 17 = 102) laid in one line. A larger
#: table could never be filled, and describing one only costs memory (10^8 did, some 1.5 GB).
MAX_TABLE = MAX_PLAYERS * ARMY_SIZE


def square_winners(shown: Sequence[str], mover: int, players: int) -> tuple[int, ...]:
    """Who wins when the colours in ``shown`` show a square after ``mover``'s move (docs/rules/cardclash.md).

    The mover wins if among them; else the first of them in turn order after the mover.
    """
    colours = [COLOURS.index(c) for c in shown if COLOURS.index(c) < players]
    if not colours:
        return ()
    if mover in colours:
        return (mover,)
    return (min(colours, key=lambda p: (p - mover) % players),)


def _is_target(board: Board, rank: str, x: int, y: int, width: int, height: int, strategic: bool) -> bool:
    """Whether (x, y) is among :func:`~battlefield.targets` of ``rank``, without listing them all."""
    if not board:
        return (x, y) == (0, 0)
    grid = stacks(board)
    stack = grid.get((x, y))
    if stack is not None:
        return stacking(rank, stack[0][1], strategic) is not None
    if not any((x + dx, y + dy) in grid for dx, dy in NEIGHBOURS):
        return False
    w, h = size(board)
    return max(w, x + 1) - min(0, x) <= width and max(h, y + 1) - min(0, y) <= height


def _square_colours(board: Board) -> list[str]:
    """The colours showing a 2x2 square (the keys of :func:`~battlefield.squares`, in any order)."""
    top = {(c.x, c.y): c.stack[0][0] for c in board}
    found: list[str] = []
    for (x, y), colour in top.items():
        if (colour not in found and top.get((x + 1, y)) == colour and top.get((x, y + 1)) == colour
                and top.get((x + 1, y + 1)) == colour):
            found.append(colour)
    return found


def score_key(board: Board, player: int) -> tuple[int, int, int]:
    """(points, sum of numbers, highest number) of ``player``'s visible cards (seed "Gelijkspel").

    Points: one per visible card of the colour. Tie-break 1: the numbers 1-6 on the visible cards added
    up (Miners and Bombs count nothing). Tie-break 2: the highest rank visible on the table. Cards under
    another card count for nothing.
    """
    colour = COLOURS[player]
    mine = [card[1] for card in tops(board).values() if card[0] == colour]
    numbers = [value(rank) for rank in mine if is_numbered(rank)]
    return len(mine), sum(numbers), max(numbers, default=0)


def scored_winners(board: Board, players: int) -> tuple[int, ...]:
    """The winners of a round that ends without a square; ties that survive all breaks win together."""
    keys = [score_key(board, p) for p in range(players)]
    best = max(keys)
    return tuple(p for p in range(players) if keys[p] == best)


def round_winners(state: State) -> tuple[int, ...]:
    """Who has won the round in ``state`` by the rules, read from the table: () while it goes on.

    A square ends the round at once (the mover, the player before the one to move, wins if among
    those showing one); with no square, the round is over and scored when every card is played or
    every player has passed in a row. :meth:`CardClashGame.apply` decides a move's result the same way.
    """
    n = state.players
    shown = _square_colours(state.board)
    if shown:
        return square_winners(shown, (state.to_move - 1) % n, n)
    if state.passes >= n or (not any(state.hands) and not any(state.piles)):
        return scored_winners(state.board, n)
    return ()


def result_problem(state: State) -> str | None:
    """Why the winners ``state`` names (``won=``) are not the ones the table makes, or None.

    A written result is never trusted: a round is won by a square on the table or by the score once
    it is over, so ``won=`` must name exactly :func:`round_winners`, and must be there when they are.
    """
    if _square_colours(state.board) and state.passes:
        return "a square ends the round at once, so nobody passes after it (passes= with a square on the table)"
    table = round_winners(state)
    if state.winners == table:
        return None

    def players(winners: tuple[int, ...]) -> str:
        return ",".join(str(p + 1) for p in winners)

    said = f"says won={players(state.winners)}" if state.winners else "names no winner"
    shown = _square_colours(state.board)
    if shown:
        shows = f"{', '.join(COLOUR_NAMES[c] for c in shown)} shows a 2x2 square: won={players(table)}"
    elif table:
        why = "every player has passed" if state.passes >= state.players else "every card is played"
        shows = f"{why}, so the round is scored: won={players(table)}"
    else:
        shows = "no colour shows a 2x2 square and cards are left to play: the round goes on"
    return f"the position {said} but {shows}"


def deal(players: int, rng: random.Random, round_no: int = 1, flags: tuple[int, ...] = ()) -> State:
    """A fresh round: every player shuffles their own 17 cards and draws four (seed "Voorbereiding").

    Round r is begun by player (r - 1) mod players: the start passes to the left each round (the seed
    does not say who begins; this is the project's reading).
    """
    hands, piles = [], []
    for _ in range(players):
        cards = list(ARMY)
        rng.shuffle(cards)
        hands.append(sort_ranks("".join(cards[:HAND_SIZE])))
        piles.append("".join(cards[HAND_SIZE:]))
    return State((), tuple(hands), tuple(piles), (round_no - 1) % players, 0, "", (), round_no,
                 flags or (0,) * players)


class CardClashGame(EqualByRules):
    """The rules of Card Clash for one round, with the options of docs/rules/cardclash.md.

    ``width`` x ``height`` bounds the battlefield's bounding box (the table); ``strategic`` turns on the
    variant; ``rounds`` is how many flags are played for (:meth:`next_round`); ``seed`` deals the
    initial state unless ``start`` gives one.
    """

    name = "cardclash"
    #: Guided MCTS values a new leaf by :meth:`evaluate` alone (no random playout): a round is decided
    #: by squares made or blocked a ply or two ahead, which random play misjudges and the threat count
    #: sees (measured in results/mcts.md).
    rollout_limit = 0

    def __init__(
        self,
        players: int = 2,
        *,
        width: int = 6,
        height: int = 6,
        strategic: bool = False,
        rounds: int = 1,
        seed: int = 0,
        start: State | None = None,
    ) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Card Clash is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        if not (MIN_TABLE <= width <= MAX_TABLE and MIN_TABLE <= height <= MAX_TABLE):
            raise ValueError(f"the table must hold a 2x2 square and at most {MAX_TABLE} cards in a line: "
                             f"{MIN_TABLE}x{MIN_TABLE} to {MAX_TABLE}x{MAX_TABLE}, not {width}x{height}")
        if not 1 <= rounds <= 8:
            raise ValueError(f"the box holds eight flags: 1 to 8 rounds, not {rounds}")
        if start is not None and start.players != players:
            raise ValueError(f"the start position has {start.players} players, the game {players}")
        self.num_players = players
        self.width = width
        self.height = height
        self.strategic = strategic
        self.rounds = rounds
        self.seed = seed
        self.start = start
        self.rules = threats.Rules(width, height, strategic)

    def setup(self) -> dict[str, Any]:
        """The options as plain data; :func:`~stratagem.models.cardclash.puzzle.game_from_setup` reverses it."""
        return {
            "players": self.num_players,
            "width": self.width,
            "height": self.height,
            "strategic": self.strategic,
            "rounds": self.rounds,
            "seed": self.seed,
        }

    def _rules(self) -> tuple[Any, ...]:
        """What tells this game from another: the players, the table, the variant, the rounds, the seed and
        the start."""
        return (self.num_players, self.width, self.height, self.strategic, self.rounds, self.seed,
                self.start)

    # -- Game protocol -------------------------------------------------------------------------
    def initial_state(self) -> State:
        return self.start if self.start is not None else deal(self.num_players, random.Random(self.seed))

    def to_move(self, state: State) -> int:
        return TERMINAL if state.winners else state.to_move

    def placements(self, state: State) -> list[Move]:
        """Every card-laying move: each rank in hand once, then each cell in row-major order."""
        hand = state.hands[state.to_move]
        ranks = sorted(set(hand), key=RANKS.index) if len(hand) > 1 else list(hand)
        cells = targets_by_rank(state.board, ranks, self.width, self.height, self.strategic)
        return [Move(rank, x, y) for rank, found in zip(ranks, cells, strict=True) for x, y in found]

    def legal_moves(self, state: State) -> list[Move]:
        if state.winners:
            return []
        return self.placements(state) or [PASS]

    def apply(self, state: State, move: Move) -> State:
        if state.winners:
            raise IllegalMove("the round is over")
        p = state.to_move
        n = state.players
        nxt = (p + 1) % n
        if move == PASS:
            if self.placements(state):
                raise IllegalMove("a player who can lay a card may not pass")
            passes = state.passes + 1
            winners = scored_winners(state.board, n) if passes >= n else ()
            return state._replace(to_move=nxt, passes=passes, winners=winners)
        hand = state.hands[p]
        if move.rank not in hand:
            raise IllegalMove(f"{COLOURS[p]} holds no {move.rank} (hand {hand or '-'})")
        if not _is_target(state.board, move.rank, move.x, move.y, self.width, self.height, self.strategic):
            raise IllegalMove(f"{COLOURS[p]}{move.rank} may not be laid at {move.x},{move.y}")
        board, removed = place(state.board, move.x, move.y, COLOURS[p] + move.rank, self.strategic)
        pile = state.piles[p]
        new_hand = sort_ranks(hand.replace(move.rank, "", 1) + pile[:1])
        hands = state.hands[:p] + (new_hand,) + state.hands[p + 1 :]
        piles = state.piles[:p] + (pile[1:],) + state.piles[p + 1 :]
        winners = square_winners(_square_colours(board), p, n)
        if not winners and not any(hands) and not any(piles):
            winners = scored_winners(board, n)
        gone = sort_cards(state.removed + "".join(removed)) if removed else state.removed
        return State(board, hands, piles, nxt, 0, gone, winners, state.round, state.flags)

    def chance_outcomes(self, state: State) -> Sequence[tuple[Move, Fraction]]:
        return []  # draw piles are part of the open state; dealing happens outside a round

    def is_terminal(self, state: State) -> bool:
        return bool(state.winners)

    def returns(self, state: State) -> tuple[float, ...]:
        n = state.players
        if not state.winners or len(state.winners) == n:
            return (0.0,) * n
        return tuple(1.0 if p in state.winners else -1.0 for p in range(n))

    def format_move(self, state: State, move: Move) -> str:
        return format_move(COLOURS[state.to_move], move)

    def parse_move(self, state: State, text: str) -> Move:
        """The move ``text`` names, which must be legal here (:class:`IllegalMove` with the reason otherwise), as
        every game's parse_move checks: it read any well-formed card and place (``r2@11,-1`` off the table)."""
        move = parse_move(COLOURS[state.to_move], text)
        self.apply(state, move)  # raises IllegalMove with the reason
        return move

    def format_state(self, state: State) -> str:
        return format_state(state)

    def parse_state(self, text: str) -> State:
        """Inverse of :meth:`format_state`, with the written winners held to the table
        (:func:`result_problem`)."""
        state = parse_state(text)
        if state.players != self.num_players:
            raise NotationError(f"the position has {state.players} players, the game {self.num_players}")
        problem = self.position_problem(state)
        if problem:
            raise NotationError(problem)
        return state

    def position_problem(self, state: State) -> str | None:
        """Why ``state`` cannot arise in this game, or None: hands, rounds and flags no match of
        :attr:`rounds` deals (:func:`match_problem`), more cards than the armies hold, a battlefield larger
        than the table, its written winners (:func:`result_problem`), cards ``out=`` without the strategic
        variant (only its rule takes cards off the battlefield), a stack or a battlefield no play leaves
        (:func:`~.battlefield.board_problem`), and ``passes=`` naming players who can lay a card (a pass
        changes nothing but the turn, so the players who passed last hold what they held before the same
        table, and must still have no card to lay). Every position read is held to it: a position file's,
        a record's start, ``--position`` and OpenSpiel's."""
        problem = match_problem(state, self.rounds)
        if problem:
            return problem
        excess = excess_cards(state)
        if excess:
            return f"more cards than the armies hold: {', '.join(excess)}"
        w, h = size(state.board)
        if w > self.width or h > self.height:
            return f"the battlefield is {w}x{h}, larger than the table {self.width}x{self.height}"
        problem = result_problem(state)
        if problem:
            return problem
        if state.removed and not self.strategic:
            return (f"out={state.removed}: cards leave the battlefield only in the strategic variant, and this game "
                    "is not strategic")
        problem = board_problem(state.board, self.strategic)
        if problem:
            return problem
        for back in range(1, min(state.passes, state.players) + 1):
            passer = (state.to_move - back) % state.players
            if self.placements(state._replace(to_move=passer, passes=0, winners=())):
                return (f"passes={state.passes}: player {passer + 1} passed, but can lay a card on this table, and a "
                        "player who can lay a card may not pass")
        return None

    # -- capabilities --------------------------------------------------------------------------
    def order_moves(self, state: State, moves: Sequence[Move]) -> Sequence[Move]:
        """Threat-aware: squares first, then blocks, then own threats (see :func:`threats.order`)."""
        if len(moves) <= 1:
            return list(moves)
        return threats.order(state, list(moves), self.rules)

    def evaluate(self, state: State) -> tuple[float, ...]:
        """Squashed difference of threats, square potential and visible cards against the others' mean."""
        if state.winners:
            return self.returns(state)
        n = state.players
        strength = []
        for p in range(n):
            colour = COLOURS[p]
            own = len(threats.completing_moves(state.board, colour, state.hands[p], self.rules))
            strength.append(
                0.5 * own + 0.05 * threats.potential(state.board, colour) + 0.05 * score_key(state.board, p)[0]
            )
        # Added left to right, as the compiled guide adds them: from Python 3.12 ``sum()`` of floats rounds
        # otherwise (compensated summation), and the two evaluations differed in the last bit.
        total = 0.0
        for each in strength:
            total += each
        out = []
        for p in range(n):
            rest = (total - strength[p]) / (n - 1)
            out.append(0.9 * math.tanh(strength[p] - rest))
        return tuple(out)

    def compiled_guide(self, engine: Any) -> Any:
        """:meth:`order_moves`, :meth:`evaluate` and :attr:`rollout_limit` over ``engine``'s packed states
        (a :class:`~stratagem.models.cardclash.guide.CardClashGuide`), for guided UCT on the compiled engine."""
        from stratagem.models.cardclash.guide import CardClashGuide

        return CardClashGuide.for_engine(engine, self)

    def packed_sampler(self, engine: Any, state: State, player: int) -> Any:
        """The determinisations of ``state`` for ``player`` packed for ``engine``, as
        ``engine.encode(self.sample_state(state, player, rng))`` gives them from the same draws, at a
        fraction of the cost (:mod:`stratagem.models.cardclash.sampling`), for the compiled ISMCTS and
        PIMC; None where it cannot promise those rows (the searches then sample here), as for a subclass
        that samples otherwise."""
        if type(self).sample_state is not CardClashGame.sample_state:
            return None
        from stratagem.models.cardclash.sampling import packed_deals

        return packed_deals(self, engine, state, player)

    def observation(self, state: State, player: int) -> Hashable:
        """What ``player`` knows: own hand, every top card, each stack's height, public counts.

        Cards were laid face up, but a covered card is not looked at again: only the top card is
        visible. With the strategic variant a player may look at the card directly under each top card
        (seed, variant), so that card is part of the observation too. Cancelled cards were seen going
        off the table and are public. Draw piles (even one's own) are face down.
        """
        cells = tuple(
            (c.x, c.y, len(c.stack), c.stack[0], c.stack[1] if self.strategic and len(c.stack) > 1 else "")
            for c in state.board
        )
        return (
            player,
            cells,
            state.hands[player],
            tuple(len(h) for h in state.hands),
            tuple(len(p) for p in state.piles),
            state.to_move,
            state.passes,
            state.removed,
            state.winners,
            state.round,
            state.flags,
        )

    def sample_state(self, state: State, player: int, rng: random.Random) -> State:
        """A state ``player`` cannot tell from ``state``: hidden hands, piles and covered cards resampled.

        Per colour, the unseen cards are the army minus what ``player`` sees of it; they fill that
        player's hand and pile (sizes are public), and the rest lie covered somewhere on the
        battlefield. Covered cards are redrawn so that every stack obeys the stacking rules when such a
        draw is found within 200 tries; otherwise the last draw is kept (it differs only in cards that
        matter to nothing but a later cancellation).
        """
        n = state.players
        known_depth = 2 if self.strategic else 1
        hidden_slots: list[tuple[int, int]] = []  # (cell index, depth) of covered cards not seen
        # The cards ``player`` cannot see, per colour: the other hands, every pile and the covered
        # cards. With full armies this is the army minus what ``player`` sees; a puzzle position may
        # hold only part of each army, and then the cards in play are the ones in the position.
        hidden: dict[str, list[str]] = {COLOURS[p]: [] for p in range(n)}
        for i, cell in enumerate(state.board):
            for d, card in enumerate(cell.stack):
                if d >= known_depth:
                    hidden_slots.append((i, d))
                    hidden[card[0]].append(card[1])
        for p in range(n):
            if p != player:
                hidden[COLOURS[p]].extend(state.hands[p])
            hidden[COLOURS[p]].extend(state.piles[p])
        unseen = {colour: sorted(cards, key=RANKS.index) for colour, cards in hidden.items()}
        # Only the stacks with a covered card change from draw to draw; the others are checked once.
        redrawn = sorted({i for i, _ in hidden_slots})
        others_legal = all(self._stack_is_legal(c.stack) for i, c in enumerate(state.board) if i not in redrawn)
        for _ in range(200):
            hands = list(state.hands)
            piles = list(state.piles)
            covered: list[str] = []
            for p in range(n):
                pool = list(unseen[COLOURS[p]])
                rng.shuffle(pool)
                h = 0 if p == player else len(state.hands[p])
                hands[p] = state.hands[p] if p == player else sort_ranks("".join(pool[:h]))
                piles[p] = "".join(pool[h : h + len(state.piles[p])])
                covered.extend(COLOURS[p] + r for r in pool[h + len(state.piles[p]) :])
            rng.shuffle(covered)
            stacks = [list(c.stack) for c in state.board]
            for (i, d), card in zip(hidden_slots, covered, strict=True):
                stacks[i][d] = card
            if others_legal and all(self._stack_is_legal(stacks[i]) for i in redrawn):
                break
        board = tuple(Cell(c.x, c.y, tuple(s)) for c, s in zip(state.board, stacks, strict=True))  # the draw kept
        return state._replace(board=board, hands=tuple(hands), piles=tuple(piles))

    def _stack_is_legal(self, stack: Sequence[str]) -> bool:
        return all(stacking(stack[i][1], stack[i + 1][1], self.strategic) == "stack" for i in range(len(stack) - 1))

    # -- several rounds ------------------------------------------------------------------------
    def flags_after(self, state: State) -> tuple[int, ...]:
        """The flags once the ended round's winners took theirs: one each, in turn order from the
        round's starter, while flags are left in the open pile (seed "Wie wint het spel?")."""
        if not state.winners:
            raise ValueError("the round is not over")
        flags = list(state.flags)
        left = self.rounds - sum(flags)
        starter = (state.round - 1) % state.players
        for p in sorted(state.winners, key=lambda w: (w - starter) % state.players):
            if left > 0:
                flags[p] += 1
                left -= 1
        return tuple(flags)

    def match_over(self, state: State) -> bool:
        """True when the round is over and every flag has been handed out."""
        return bool(state.winners) and sum(self.flags_after(state)) >= self.rounds

    def match_winners(self, state: State) -> tuple[int, ...]:
        """The player or players with the most flags once the match is over; with one round, the round's
        winners (seed: "Spelen jullie één ronde, dan is de winnaar van die ronde ook meteen de winnaar van het
        spel", and players still tied after the tie-breaks win together, though one flag goes to one of them)."""
        if self.rounds == 1:
            if not state.winners:
                raise ValueError("the round is not over")
            return state.winners
        flags = self.flags_after(state)
        return tuple(p for p in range(state.players) if flags[p] == max(flags))

    def next_round(self, state: State, rng: random.Random) -> State:
        """A freshly dealt next round carrying the flags; raises ValueError when the match is over."""
        if self.match_over(state):
            raise ValueError("every flag has been handed out: the match is over")
        return deal(state.players, rng, state.round + 1, self.flags_after(state))


def cards_of(state: State) -> Counter[str]:
    """Every card of the state (battlefield, hands, piles, removed) as two-character cards: a check
    that play conserves cards."""
    count: Counter[str] = Counter()
    for cell in state.board:
        count.update(cell.stack)
    for p in range(state.players):
        count.update(COLOURS[p] + r for r in state.hands[p] + state.piles[p])
    count.update(state.removed[k : k + 2] for k in range(0, len(state.removed), 2))
    return count


def match_problem(state: State, rounds: int) -> str | None:
    """What no game of ``rounds`` flags deals: a hand over the four cards a player holds (each card laid is
    replaced from the pile), a round past the last, or flags that do not fit the rounds already played
    (every round hands out at least one flag while any is left, and the match ends when none is)."""
    for player, hand in enumerate(state.hands, start=1):
        if len(hand) > HAND_SIZE:
            return (f"player {player} holds {len(hand)} cards ({hand}): a hand is {HAND_SIZE} cards at most "
                    "(each card laid is replaced from the player's own pile)")
    won = sum(state.flags)
    if state.round > rounds:
        return f"round={state.round}, but the game is played for rounds = {rounds} flag(s) ([options])"
    if won >= rounds:
        return (f"flags={','.join(map(str, state.flags))}: {won} flag(s) handed out already, and the game is "
                f"played for rounds = {rounds}: it was over before this round")
    if won < state.round - 1:
        return (f"round={state.round} with {won} flag(s) handed out: every earlier round gave at least one "
                "(flags= counts them per player)")
    return None


def excess_cards(state: State) -> list[str]:
    """Cards of which ``state`` holds more than the armies have (a composed position may hold fewer:
    cards set aside; never more)."""
    army = full_army(state.players)
    return [f"{count} x {card} (an army has {army[card]})" for card, count in sorted(cards_of(state).items())
            if count > army[card]]


def full_army(players: int) -> Counter[str]:
    """The cards of ``players`` complete armies."""
    return Counter(COLOURS[p] + r for p in range(players) for r in ARMY)

