"""Stratego Card Clash as the OpenSpiel game ``stratagem_cardclash``, with the shuffles made chance.

The rules engine (:class:`~stratagem.models.cardclash.rules.CardClashGame`) plays one round from a dealt
position whose draw piles have a known order (open analysis). OpenSpiel's game is the round as played:
:class:`DealtCardClash` wraps the engine and makes every shuffle explicit chance. Each player's own 17
cards start face down; the deal is one chance node per card (each player draws four from their own
shuffled army), and after each card laid the mover draws the top card of their own pile: one chance
node whose outcomes are the distinct ranks left in that pile, weighted by their copies. The pile is
held as a multiset; a drawn rank is put on top of it and the engine's move is applied, so the engine's
rules decide everything else. A move that ends the round (a square, or the last card) needs no draw.

Type: sequential; explicit stochastic; imperfect information (hands and piles are hidden, covered cards
are not looked at again; observation from the engine's ``observation``); two players zero-sum (+1 / -1,
0 when everyone wins together), three or more general-sum (+1 for a winner, -1 for the others).

Parameters: ``players`` (2-6, default 2), the table ``width`` x ``height`` (default 6 x 6),
``strategic`` (the variant, default false).

Actions, with the table W x H and ranks ``123456BX`` (index k): laying rank k at battlefield cell (x, y)
(x from -1, a new column on the left, to W - 1; y likewise) is ``(k * (W + 1) + x + 1) * (H + 1) + y + 1``;
``pass`` is ``8 (W + 1) (H + 1)`` (393 actions on 6 x 6). Chance action k draws (or deals) rank k.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

import pyspiel

from stratagem.core.errors import NotationError
from stratagem.core.game import CHANCE
from stratagem.models.cardclash.cards import ARMY, ARMY_SIZE, COLOURS, HAND_SIZE, MAX_PLAYERS, RANKS, sort_ranks
from stratagem.models.cardclash.position import PASS, Move, State, format_move, format_state
from stratagem.models.cardclash.puzzle import game_from_setup
from stratagem.models.cardclash.rules import CardClashGame
from stratagem.openspiel.adapter import Engine, Param, SpielGame, checked, game_type, with_utility

PARAMETERS: dict[str, Param] = {"players": 2, "width": 6, "height": 6, "strategic": False}


class Table(NamedTuple):
    """A round being played: the engine's state (piles as sorted multisets) and a laid card waiting
    for its draw (None when no draw is due)."""

    state: State
    pending: Move | None = None


def _draw_outcomes(pile: str) -> list[tuple[str, Fraction]]:
    counts = Counter(pile)
    return [(rank, Fraction(counts[rank], len(pile))) for rank in RANKS if counts[rank]]


class DealtCardClash:
    """One round of Card Clash with the deal and every draw as chance nodes (module docstring)."""

    name = "cardclash"

    def __init__(self, rules: CardClashGame) -> None:
        self.rules = rules
        self.num_players = rules.num_players
        #: The engine's evaluation cut-off for guided MCTS (0: a new leaf is valued by ``evaluate``).
        self.rollout_limit = rules.rollout_limit

    def initial_state(self) -> Table:
        n = self.num_players
        army = sort_ranks(ARMY)
        return Table(State((), ("",) * n, (army,) * n, 0, 0, "", (), 1, (0,) * n))

    def dealing(self, table: Table) -> bool:
        """True while hands are dealt: nothing laid yet and a hand short of four. Nothing laid means no
        card on the battlefield and none taken off it: the strategic variant's cancellations can empty
        the battlefield late in a round, when hands are short because piles ran out, and that is no deal."""
        state = table.state
        return not state.board and not state.removed and sum(map(len, state.hands)) < HAND_SIZE * self.num_players

    def _receiver(self, state: State) -> int:
        return next(p for p, hand in enumerate(state.hands) if len(hand) < HAND_SIZE)

    def to_move(self, table: Table) -> int:
        if table.pending is not None or self.dealing(table):
            return CHANCE
        return int(self.rules.to_move(table.state))

    def legal_moves(self, table: Table) -> Sequence[Hashable]:
        if self.to_move(table) == CHANCE:
            return [rank for rank, _ in self.chance_outcomes(table)]
        return self.rules.legal_moves(table.state)

    def chance_outcomes(self, table: Table) -> Sequence[tuple[str, Fraction]]:
        if self.dealing(table):
            return _draw_outcomes(table.state.piles[self._receiver(table.state)])
        if table.pending is not None:
            return _draw_outcomes(table.state.piles[table.state.to_move])
        return []

    def apply(self, table: Table, move: Hashable) -> Table:
        state = table.state
        if self.dealing(table):
            assert isinstance(move, str)
            p = self._receiver(state)
            return Table(self._move_card(state, p, move, to_hand=True))
        if table.pending is not None:
            assert isinstance(move, str)
            p = state.to_move
            on_top = self._move_card(state, p, move, to_hand=False)
            return Table(self.rules.apply(on_top, table.pending))
        assert isinstance(move, Move)
        after = self.rules.apply(state, move)
        if move == PASS or after.winners or not state.piles[state.to_move]:
            return Table(after)  # no draw, or the round is over and the card drawn changes nothing
        return Table(state, move)

    @staticmethod
    def _move_card(state: State, player: int, rank: str, *, to_hand: bool) -> State:
        """Deal ``rank`` from ``player``'s pile to their hand, or put it on top of the pile."""
        pile = state.piles[player]
        if rank not in pile:
            raise ValueError(f"rank {rank!r} is not in player {player + 1}'s pile")
        rest = pile.replace(rank, "", 1)
        piles = state.piles[:player] + ((rest if to_hand else rank + rest),) + state.piles[player + 1 :]
        hands = state.hands
        if to_hand:
            hands = hands[:player] + (sort_ranks(hands[player] + rank),) + hands[player + 1 :]
        return state._replace(hands=hands, piles=piles)

    def is_terminal(self, table: Table) -> bool:
        return table.pending is None and self.rules.is_terminal(table.state)

    def returns(self, table: Table) -> tuple[float, ...]:
        return self.rules.returns(table.state)

    def format_move(self, table: Table, move: Hashable) -> str:
        """A card laid in the engine's notation (``r6@0,-1``, ``pass``); a chance outcome ``draw:R``."""
        if isinstance(move, str):
            return f"draw:{move}"
        assert isinstance(move, Move)
        return format_move(COLOURS[table.state.to_move], move)

    def parse_move(self, table: Table, text: str) -> Hashable:
        if self.to_move(table) == CHANCE:
            rank = text.removeprefix("draw:")
            if rank not in {r for r, _ in self.chance_outcomes(table)}:
                raise NotationError(f"{text!r}: not a rank that can be drawn now")
            return rank
        return self.rules.parse_move(table.state, text)

    def parse_state(self, text: str) -> Table:
        """A position in the engine's notation, with no draw waiting."""
        return Table(self.rules.parse_state(text))

    def format_state(self, table: Table) -> str:
        text = format_state(table.state)
        if table.pending is not None:
            text += f" drawing-after={format_move(COLOURS[table.state.to_move], table.pending)}"
        return text

    def observation(self, table: Table, player: int) -> Hashable:
        """The engine's observation plus the card laid and waiting for its draw (public)."""
        return (self.rules.observation(table.state, player), table.pending)

    # -- the engine's knowledge, for searches over the dealt game ------------------------------------
    def order_moves(self, table: Table, moves: Sequence[Move]) -> Sequence[Move]:
        """The engine's threat-aware ordering (chance nodes keep their order)."""
        if self.to_move(table) == CHANCE:
            return list(moves)
        return self.rules.order_moves(table.state, moves)

    def evaluate(self, table: Table) -> tuple[float, ...]:
        """The engine's evaluation of the position (a waiting draw changes only a hand)."""
        return self.rules.evaluate(table.state)

    def compiled_guide(self, engine: Any) -> Any:
        """The rules' guidance over the dealt engine's packed states (the round's words come first)."""
        return self.rules.compiled_guide(engine)


class CardClashEngine(Engine):
    """Card Clash with the numbering of the module docstring."""

    def __init__(self, game: DealtCardClash | CardClashGame) -> None:
        self.game = game
        rules = game.rules if isinstance(game, DealtCardClash) else game
        self.width, self.height = rules.width, rules.height
        self.cells = (self.width + 1) * (self.height + 1)
        self.num_actions = len(RANKS) * self.cells + 1
        self.max_chance_outcomes = len(RANKS)

    def action(self, move: Hashable) -> int:
        assert isinstance(move, Move)
        if move == PASS:
            return self.num_actions - 1
        return (RANKS.index(move.rank) * (self.width + 1) + move.x + 1) * (self.height + 1) + move.y + 1

    def move(self, action: int) -> Hashable:
        if action == self.num_actions - 1:
            return PASS
        rank, cell = divmod(action, self.cells)
        x, y = divmod(cell, self.height + 1)
        return Move(RANKS[rank], x - 1, y - 1)

    def chance_action(self, outcome: Hashable) -> int:
        assert isinstance(outcome, str)
        return RANKS.index(outcome)

    def chance_move(self, action: int) -> Hashable:
        return RANKS[action]

    def action_text(self, player: int, action: int) -> str:
        move = self.move(action)
        assert isinstance(move, Move)
        return format_move(COLOURS[player], move)

    def chance_text(self, action: int) -> str:
        return f"draw:{RANKS[action]}"

    def seen_by(self, state: Hashable, outcome: Hashable) -> int | None:
        """A dealt or drawn card is seen by the player who takes it into hand."""
        assert isinstance(state, Table)
        if self.game.dealing(state):
            return next(p for p, hand in enumerate(state.state.hands) if len(hand) < HAND_SIZE)
        return state.state.to_move

    def observation_text(self, state: Hashable, player: int) -> str:
        """Own hand, every top card (and the card under it in the strategic variant) with its stack
        height, hand and pile sizes, cards taken off, the player to move."""
        assert isinstance(state, Table)
        (_, cells, hand, hands, piles, to_move, passes, removed, winners, _, _), pending = self.game.observation(
            state, player
        )
        board = " ".join(f"{x},{y}:{top}{'/' + under if under else ''}x{height}" for x, y, height, top, under in cells)
        text = (f"p{player + 1} hand {hand or '-'} board {board or '-'} hands {'/'.join(map(str, hands))} "
                f"piles {'/'.join(map(str, piles))} to-move p{to_move + 1}")
        if passes:
            text += f" passes {passes}"
        if removed:
            text += f" out {removed}"
        if winners:
            text += f" won {','.join(str(w + 1) for w in winners)}"
        if pending is not None:
            text += f" drawing-after {format_move(COLOURS[to_move], pending)}"
        return text


class CardClashSpielGame(SpielGame):
    """``stratagem_cardclash`` (see the module docstring)."""

    game_type = game_type(
        "stratagem_cardclash",
        "stratagem Stratego Card Clash",
        simultaneous=False,
        chance=True,
        imperfect=True,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        players=(2, MAX_PLAYERS),
        parameters=PARAMETERS,
    )

    def build(self, params: Mapping[str, Param]) -> Engine:
        setup = {key: params[key] for key in ("players", "width", "height", "strategic")}
        rules = checked(lambda: game_from_setup(setup, "stratagem_cardclash"))
        return CardClashEngine(DealtCardClash(rules))

    def type_for(self, engine: Engine) -> pyspiel.GameType:
        if engine.game.num_players == 2:
            return self.game_type
        return with_utility(self.game_type, pyspiel.GameType.Utility.GENERAL_SUM)

    def info(self, engine: Engine, params: Mapping[str, Param]) -> pyspiel.GameInfo:
        n = engine.game.num_players
        cards = ARMY_SIZE * n
        # The deal; then each card laid (and its draw); at most n - 1 passes between two cards laid.
        length = HAND_SIZE * n + 2 * cards + (cards + 1) * (n - 1) + 1
        return pyspiel.GameInfo(
            num_distinct_actions=engine.num_actions,
            max_chance_outcomes=engine.max_chance_outcomes,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if n == 2 else None,
            max_game_length=length,
        )


pyspiel.register_game(CardClashSpielGame.game_type, CardClashSpielGame)
