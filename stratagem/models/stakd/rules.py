"""The rules of STAKD Elite and the Game protocol, for 1 (solo) to 6 players.

A turn: the player to move places one piece from hand (seed "Take turns stacking one (1) piece each per
turn"). Where it may go (seed Steps 1-3, docs/rules/stakd.md):

- **Layer 0** holds only Bases; Bases never go higher. The first Base of the game goes at the
  geometry's canonical place (the rules do not care where the structure stands); every later Base
  touches one Base already down at two or more node pairs.
- **Layer k >= 1** (not Bases): every node of the piece lies on a piece of layer k-1 (*no overhang*); the
  first piece of a layer goes anywhere on top; every later piece touches a piece already on its layer
  (*connection*, in placement order).
- The piece **rests on** every piece of layer k-1 under any of its nodes. On each piece it rests on:
  no piece of the same kind already rests there (*one type per piece below*, a piece resting on several
  counts for each), it does not cover exactly that piece's footprint (*no duplicate stacking*), and no
  Bomber rests there (*Bomber termination*: pieces already on P stay, no later piece rests on P even
  partly).
- **Bombers**: at most one per layer, never the first piece of a layer.
- **New layer**: only the current layer or the next may be played on (*no play below*). A piece starts
  the next layer only if the current layer holds six pieces or the player to move has no legal play on
  the current layer; never a Bomber; a Uni only if the player holds nothing but Unis and Bombers.

After a placement the turn passes to the next player in order who is not out; a player with no legal
play is out for the round (seed "If you cannot make a play you are out"), and play ends when all are
out. The winner is the last player to place a piece, but a Bomber cannot win: the point goes to the
player who placed the last non-Bomber piece. Solo: the goal is to place every piece.

Move generation works on bit sets (see :mod:`geometry`): for each state the structure's top two layers
are summarised in a :class:`Support` (occupancy masks, which piece lies under each node, which kinds
each piece below already carries), cached by layers and derived incrementally from the parent's after
each placement (:func:`extend_support`), so listing a hand's moves is a scan over precomputed
placements with a few mask tests.

Why one module of over 600 lines: it is one concept, STAKD's rules engine; the support bookkeeping
above :class:`StakdGame` exists only to make its move generation fast and is read together with it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from stratagem.core.errors import IllegalMove, NotationError
from stratagem.core.game import TERMINAL, EqualByRules
from stratagem.models.stakd.geometry import Geometry, Placement, bits, default_board, square_lattice
from stratagem.models.stakd.notation import format_move, format_piece, format_state, parse_move, parse_state
from stratagem.models.stakd.pieces import (
    BASE,
    BOMBER,
    KIND_INDEX,
    KINDS,
    NAMES,
    UNI,
    Hand,
    player_set,
    take,
)
from stratagem.models.stakd.position import Move, Piece, State

#: Pieces on the current layer before a new layer may start (unless the player has no play on it).
LAYER_MINIMUM = 6
#: Structures (and structure-hand pairs) each move-generation cache of a :class:`StakdGame` holds before
#: it is emptied: about 0.8 KB a structure, so tens of MB. Unbounded, one 40-game MCTS match grew to
#: about 3.8 GB (results/mcts.md); the limit is measured in tests/models/stakd/test_cache_bound.py.
CACHE_LIMIT = 50_000

_ALL_KINDS_BITS = (1 << len(KINDS)) - 1
_KIND_BIT = {kind: 1 << i for i, kind in enumerate(KINDS)}


class Support(NamedTuple):
    """What move generation needs to know about the top of the structure.

    ``top`` is the current layer's index (-1 on an empty table). ``occupied[k]`` is layer k's node mask
    (for the top two layers; lower layers play no part and are left 0).
    For the current layer's own placements, ``under`` maps each node index of layer ``top - 1`` to the
    index of the piece covering it, ``under_masks[j]`` is that piece's footprint and ``carried[j]`` the
    kind bits of the pieces resting on it so far (all bits once a Bomber rests on it: terminated).
    ``top_under`` / ``top_masks`` do the same for the current layer, which a new layer rests on (nothing
    rests on it yet). ``size`` and ``has_bomber`` describe the current layer.
    """

    top: int
    occupied: tuple[int, ...]  # node mask per layer; only the top two are filled in
    under: dict[int, int]
    under_masks: tuple[int, ...]
    carried: tuple[int, ...]
    top_under: dict[int, int]
    top_masks: tuple[int, ...]
    size: int
    has_bomber: bool


def piece_mask(geometry: Geometry, piece: Piece) -> int:
    """The footprint of a piece on the table (ValueError if it does not fit the lattice)."""
    placement = geometry.placement(piece.kind, piece.anchor, piece.orient)
    if placement is None:
        name = NAMES.get(piece.kind, piece.kind)
        raise ValueError(f"{name} at {piece.anchor} {piece.orient!r} is not on the lattice")
    return placement.mask


def rests_on(geometry: Geometry, layers: Sequence[Sequence[Piece]], k: int, mask: int) -> list[int]:
    """Indices (in layer ``k - 1``) of the pieces a footprint ``mask`` on layer ``k`` rests on."""
    if k == 0:
        return []
    return [j for j, p in enumerate(layers[k - 1]) if piece_mask(geometry, p) & mask]


def support(geometry: Geometry, layers: tuple[tuple[Piece, ...], ...]) -> Support:
    """Summarise the top of the structure for move generation."""
    top = len(layers) - 1
    lookup = geometry.placement
    # Only the top two layers matter for what can be placed next; lower occupancies are left 0.
    occupied = [0] * len(layers)
    under: dict[int, int] = {}
    under_masks: tuple[int, ...] = ()
    carried: list[int] = []
    top_under: dict[int, int] = {}
    top_masks: tuple[int, ...] = ()
    if top >= 1:
        below = [lookup(p.kind, p.anchor, p.orient) for p in layers[top - 1]]
        under_masks = tuple(p.mask for p in below if p is not None)
        for j, placed in enumerate(below):
            if placed is None:
                raise ValueError(f"layer {top - 1} has a piece off the lattice")
            for i in placed.nodes:
                under[i] = j
        occupied[top - 1] = _union(under_masks)
        carried = [0] * len(under_masks)
    if top >= 0:
        here = [lookup(p.kind, p.anchor, p.orient) for p in layers[top]]
        top_masks = tuple(p.mask for p in here if p is not None)
        for j, placed in enumerate(here):
            if placed is None:
                raise ValueError(f"layer {top} has a piece off the lattice")
            for i in placed.nodes:
                top_under[i] = j
            if top >= 1:
                bit = _ALL_KINDS_BITS if placed.kind == BOMBER else _KIND_BIT[placed.kind]
                for j2 in {under[i] for i in placed.nodes}:
                    carried[j2] |= bit
        occupied[top] = _union(top_masks)
    return Support(
        top,
        tuple(occupied),
        under,
        under_masks,
        tuple(carried),
        top_under,
        top_masks,
        len(layers[top]) if top >= 0 else 0,
        top >= 0 and any(p.kind == BOMBER for p in layers[top]),
    )


def extend_support(sup: Support, placed: Placement) -> Support:
    """The :class:`Support` after ``placed`` goes down, derived from the one before (same as
    :func:`support` on the new layers, without rebuilding the node maps from scratch).

    ``placed`` starts a new layer when its nodes lie on the current layer (or on an empty table)."""
    kind_bit = _ALL_KINDS_BITS if placed.kind == BOMBER else _KIND_BIT[placed.kind]
    if sup.top >= 0 and (sup.top > 0 or placed.kind == BASE) and placed.mask & sup.occupied[sup.top] == 0:
        # Same layer: the current layer's maps grow by one piece.
        top_under = dict(sup.top_under)
        j = len(sup.top_masks)
        for i in placed.nodes:
            top_under[i] = j
        carried = sup.carried
        if sup.top >= 1:
            grown = list(carried)
            for j2 in {sup.under[i] for i in placed.nodes}:
                grown[j2] |= kind_bit
            carried = tuple(grown)
        occupied = sup.occupied[:-1] + (sup.occupied[-1] | placed.mask,)
        return Support(
            sup.top,
            occupied,
            sup.under,
            sup.under_masks,
            carried,
            top_under,
            sup.top_masks + (placed.mask,),
            sup.size + 1,
            sup.has_bomber or placed.kind == BOMBER,
        )
    # A new layer: the old current layer becomes the layer below.
    carried_new: tuple[int, ...] = ()
    if sup.top >= 0:
        fresh = [0] * len(sup.top_masks)
        for j2 in {sup.top_under[i] for i in placed.nodes}:
            fresh[j2] |= kind_bit
        carried_new = tuple(fresh)
    return Support(
        sup.top + 1,
        (0,) * max(sup.top, 0) + sup.occupied[-1:] + (placed.mask,),
        sup.top_under,
        sup.top_masks,
        carried_new,
        {i: 0 for i in placed.nodes},
        (placed.mask,),
        1,
        placed.kind == BOMBER,
    )


def _union(masks: Sequence[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def current_layer_moves(geometry: Geometry, sup: Support, hand: Hand) -> Iterator[Move]:
    """Legal placements of ``hand``'s pieces on the current layer, kinds biggest first."""
    top = sup.top
    if top < 0:
        if hand[KIND_INDEX[BASE]]:
            first = geometry.first_base
            yield Move(BASE, first.anchor, first.orient, 0)
        return
    here = sup.occupied[top]
    if top == 0:
        if not hand[KIND_INDEX[BASE]]:
            return
        for p in geometry.placements[BASE]:
            if p.mask & here or not p.halo & here:
                continue
            if any(geometry.contacts(p.mask, m) >= 2 for m in sup.top_masks):
                yield Move(BASE, p.anchor, p.orient, 0)
        return
    free = sup.occupied[top - 1] & ~here
    for kind, n in zip(KINDS, hand, strict=True):
        if not n or kind == BASE or (kind == BOMBER and sup.has_bomber):
            continue
        bit = _KIND_BIT[kind]
        anchored = geometry.by_anchor[kind]
        for a in bits(free):
            for p in anchored.get(a, ()):
                if p.mask & ~free or not p.halo & here:
                    continue
                if _may_rest(p, sup.under, sup.under_masks, sup.carried, bit):
                    yield Move(kind, p.anchor, p.orient, top)


def new_layer_moves(geometry: Geometry, sup: Support, hand: Hand) -> Iterator[Move]:
    """Placements of ``hand``'s pieces that start a new layer on the current one (kinds allowed to)."""
    top = sup.top
    if top < 0:
        return
    only_unis = not any(n for kind, n in zip(KINDS, hand, strict=True) if kind not in (UNI, BOMBER))
    here = sup.occupied[top]
    nothing = (0,) * len(sup.top_masks)
    for kind, n in zip(KINDS, hand, strict=True):
        if not n or kind in (BASE, BOMBER) or (kind == UNI and not only_unis):
            continue
        anchored = geometry.by_anchor[kind]
        for a in bits(here):
            for p in anchored.get(a, ()):
                if p.mask & ~here:
                    continue
                if _may_rest(p, sup.top_under, sup.top_masks, nothing, _KIND_BIT[kind]):
                    yield Move(kind, p.anchor, p.orient, top + 1)


def _may_rest(p: Placement, under: dict[int, int], masks: tuple[int, ...], carried: Sequence[int], bit: int) -> bool:
    """One type per piece below, no duplicate stacking, no resting on a terminated piece."""
    return not any(carried[j] & bit or masks[j] == p.mask for j in {under[i] for i in p.nodes})


class StakdGame(EqualByRules):
    """The rules of STAKD Elite for a player count, on a geometry, from a start position."""

    name = "stakd"

    def __init__(self, players: int = 1, geometry: Geometry | None = None, start: State | None = None) -> None:
        if start is None:
            hand = player_set(players)
            start = State((), (hand,) * players, 0, (False,) * players)
        if len(start.hands) != players:
            raise ValueError(f"the start position has {len(start.hands)} hands for {players} players")
        self.num_players = players
        if geometry is None:
            bases = sum(h[KIND_INDEX[BASE]] for h in start.hands) + (len(start.layers[0]) if start.layers else 0)
            geometry = square_lattice(*default_board(bases))
        self.geometry = geometry
        self._support: dict[tuple[tuple[Piece, ...], ...], Support] = {}
        self._moves: dict[tuple[tuple[tuple[Piece, ...], ...], Hand], tuple[Move, ...]] = {}
        self.start = self.settle(start)

    def _rules(self) -> tuple[Any, ...]:
        """What tells this game from another: the players, the lattice (its name and size, as ``setup`` gives
        it) and the start."""
        return (self.num_players, self.geometry.name, self.geometry.width, self.geometry.height, self.start)

    # -- Game protocol -------------------------------------------------------------------------
    def initial_state(self) -> State:
        return self.start

    def to_move(self, state: State) -> int:
        return TERMINAL if self.is_terminal(state) else state.to_move

    def legal_moves(self, state: State) -> list[Move]:
        if state.is_over() or state.out[state.to_move]:
            return []
        return list(self.moves_for(state.layers, state.hands[state.to_move]))

    def apply(self, state: State, move: Move) -> State:
        legal = self.legal_moves(state)
        chosen = self._match(legal, move)
        if chosen is None:
            raise IllegalMove(self.why_illegal(state, move))
        return self.place(state, chosen)

    def chance_outcomes(self, state: State) -> Sequence[tuple[Move, Fraction]]:
        return ()

    def is_terminal(self, state: State) -> bool:
        return state.is_over()

    def returns(self, state: State) -> tuple[float, ...]:
        if not self.is_terminal(state):
            return (0.0,) * self.num_players
        if self.num_players == 1:
            return (1.0,) if not any(state.hands[0]) else (-1.0,)
        winner = state.last_non_bomber_placer()
        if winner is None:
            return (0.0,) * self.num_players
        return tuple(1.0 if p == winner else -1.0 for p in range(self.num_players))

    def format_move(self, state: State, move: Move) -> str:
        return format_move(move)

    def parse_move(self, state: State, text: str) -> Move:
        move = parse_move(text)
        chosen = self._match(self.legal_moves(state), move)
        if chosen is None:
            raise IllegalMove(self.why_illegal(state, move))
        return chosen

    def format_state(self, state: State) -> str:
        return format_state(state)

    def parse_state(self, text: str) -> State:
        """Inverse of :meth:`format_state`; also checks the structure on this game's lattice and who is
        out (:meth:`out_problem`)."""
        state = parse_state(text)
        if len(state.hands) != self.num_players:
            raise NotationError(f"{len(state.hands)} hands in a {self.num_players}-player game")
        problems = structure_problems(self.geometry, state.layers)
        if problems:
            raise NotationError(problems[0])
        problem = self.out_problem(state)
        if problem:
            raise NotationError(problem)
        return state

    def out_problem(self, state: State) -> str | None:
        """Why the players ``state`` marks out (``out:``) or its player to move break the rules, or None.

        Being out is never taken on trust, since it decides who places last and so who wins. A player
        goes out when their turn finds them with no legal play, after their own last piece and with
        the hand they still hold: so some structure between that piece and now (the pieces replayed in
        order) must leave that hand no play. A player who is not out and is to move must have a play,
        else the turn would already have passed them by (and marked them out), as :meth:`settle` does
        after every placement.
        """
        pieces = state.pieces_in_order()

        def prefix(count: int) -> tuple[tuple[Piece, ...], ...]:
            layers: list[tuple[Piece, ...]] = []
            for k, piece in pieces[:count]:
                if k == len(layers):
                    layers.append(())
                layers[k] += (piece,)
            return tuple(layers)

        for p, out in enumerate(state.out):
            if not out:
                continue
            hand = state.hands[p]
            since = max((i + 1 for i, (_, piece) in enumerate(pieces) if piece.owner == p), default=0)
            if any(not self.moves_for(prefix(i), hand) for i in range(since, len(pieces) + 1)):
                continue
            now = format_move(self.moves_for(state.layers, hand)[0])
            when = "their last piece" if since else "the start"
            return (f"the position says player {p + 1} is out, but their hand has had a legal play at every "
                    f"moment since {when} (now {now}, for one)")
        p = state.to_move
        if not state.is_over() and (state.out[p] or not self.moves_for(state.layers, state.hands[p])):
            why = "is out" if state.out[p] else "has no legal play (so is out for the round)"
            return f"player {p + 1} is to move but {why}: the turn passes on to the next player who can play"
        return None

    def setup(self) -> dict[str, Any]:
        """Options as plain data: player count and lattice (see :func:`puzzle.game_from_setup`)."""
        return {"players": self.num_players, **self.geometry.setup()}

    # -- optional capabilities ------------------------------------------------------------------
    def order_moves(self, state: State, moves: Sequence[Move]) -> Sequence[Move]:
        """Bombers first (they block), then Bases, then bigger pieces before smaller (Quad, Trio, Duo, Uni);
        within one kind, a piece that starts a new layer before one on the current layer.

        A guess for alpha-beta: in a last-placer-wins game, moves that take options away from the
        others and keep one's own small, flexible pieces for later tend to be strong.
        """
        rank = {kind: i for i, kind in enumerate((BOMBER, BASE, "Q", "T", "D", UNI))}
        return sorted(moves, key=lambda m: (rank[m.kind], -m.layer))

    def evaluate(self, state: State) -> tuple[float, ...]:
        """Mobility: each player's number of legal placements, compared with the others' (in [-1, 1]).

        Solo: the fraction of pieces placed, scaled to [-1, 1].
        """
        if self.is_terminal(state):
            return self.returns(state)
        if self.num_players == 1:
            left = sum(state.hands[0])
            total = left + state.num_placed()
            return (2.0 * (total - left) / total - 1.0 if total else 1.0,)
        sup = self.support(state.layers)
        mobility = []
        for p, hand in enumerate(state.hands):
            if state.out[p]:
                mobility.append(0)
                continue
            current = list(current_layer_moves(self.geometry, sup, hand))
            extra = [] if current and sup.size < LAYER_MINIMUM else list(new_layer_moves(self.geometry, sup, hand))
            mobility.append(len(current) + len(extra))
        total = sum(mobility)
        values = []
        for m in mobility:
            others = (total - m) / (self.num_players - 1)
            values.append((m - others) / (m + others + 1.0))
        return tuple(values)

    def compiled_guide(self, engine: Any) -> Any:
        """:meth:`order_moves` and :meth:`evaluate` over ``engine``'s packed states (a
        :class:`~stratagem.models.stakd.guide.StakdGuide`), for guided UCT on the compiled engine; made by
        the package's :func:`~stratagem.models.stakd.compiled_guide`, as the engine is."""
        from stratagem.models.stakd import compiled_guide

        return compiled_guide(self, engine)

    # -- move generation -----------------------------------------------------------------------
    def support(self, layers: tuple[tuple[Piece, ...], ...]) -> Support:
        """The cached :class:`Support` of a structure."""
        sup = self._support.get(layers)
        if sup is None:
            sup = self._keep_support(layers, support(self.geometry, layers))
        return sup

    def _keep_support(self, layers: tuple[tuple[Piece, ...], ...], sup: Support) -> Support:
        """Remember ``sup``; the cache is emptied when it holds :data:`CACHE_LIMIT` structures (every
        insertion goes through here, so it stays bounded however long the engine lives)."""
        if len(self._support) >= CACHE_LIMIT:
            self._support.clear()
        self._support[layers] = sup
        return sup

    def moves_for(self, layers: tuple[tuple[Piece, ...], ...], hand: Hand) -> tuple[Move, ...]:
        """Legal placements of ``hand`` on ``layers``: current layer first, then a new layer's."""
        key = (layers, hand)
        moves = self._moves.get(key)
        if moves is None:
            sup = self.support(layers)
            current = tuple(current_layer_moves(self.geometry, sup, hand))
            if sup.top >= 0 and (sup.size >= LAYER_MINIMUM or not current):
                current += tuple(new_layer_moves(self.geometry, sup, hand))
            if len(self._moves) >= CACHE_LIMIT:
                self._moves.clear()
            moves = self._moves[key] = current
        return moves

    def place(self, state: State, move: Move) -> State:
        """The state after a legal ``move`` (not checked): piece down, hand less one, next player."""
        p = state.to_move
        piece = Piece(move.kind, move.anchor, move.orient, p)
        if move.layer == len(state.layers):
            layers = state.layers + ((piece,),)
        else:
            layers = state.layers[:-1] + (state.layers[-1] + (piece,),)
        hands = state.hands[:p] + (take(state.hands[p], move.kind),) + state.hands[p + 1 :]
        parent = self._support.get(state.layers)
        placed = self.geometry.placement(move.kind, move.anchor, move.orient)
        if parent is not None and placed is not None and layers not in self._support:
            self._keep_support(layers, extend_support(parent, placed))
        return self.settle(State(layers, hands, (p + 1) % self.num_players, state.out))

    def settle(self, state: State) -> State:
        """Pass the turn on from ``state.to_move`` past every player who is out or has no legal play.

        A player found with no play is marked out for good. If everyone is out, play is over.
        """
        out = list(state.out)
        p = state.to_move
        for _ in range(self.num_players):
            if not out[p]:
                if self.moves_for(state.layers, state.hands[p]):
                    return State(state.layers, state.hands, p, tuple(out))
                out[p] = True
            p = (p + 1) % self.num_players
        return State(state.layers, state.hands, state.to_move, tuple(out))

    @staticmethod
    def _match(legal: Sequence[Move], move: Move) -> Move | None:
        for candidate in legal:
            if candidate[:3] == move[:3] and move.layer in (-1, candidate.layer):
                return candidate
        return None

    # -- explanations --------------------------------------------------------------------------
    def why_illegal(self, state: State, move: Move) -> str:
        """A one-line reason why ``move`` is not legal in ``state``."""
        text = format_move(move)
        if state.is_over():
            return f"{text}: play is over"
        p = state.to_move
        name = NAMES.get(move.kind, move.kind)
        if state.hands[p][KIND_INDEX[move.kind]] == 0:
            return f"{text}: player {p + 1} holds no {name}"
        orientations = self.geometry.orientations(move.kind)
        if move.orient not in orientations:
            named = " or ".join(o for o in orientations if o) or "no letter"
            return f"{text}: a {name} takes orientation {named}"
        placement = self.geometry.placement(move.kind, move.anchor, move.orient)
        if placement is None:
            orients = "/".join(o or "(none)" for o in self.geometry.orientations(move.kind))
            return f"{text}: not on the {self.geometry.width}x{self.geometry.height} lattice (orientations: {orients})"
        top = state.top
        if top < 0 and move.kind == BASE and placement != self.geometry.first_base:
            first = self.geometry.first_base
            return (f"{text}: the first Base goes at {format_move(Move(BASE, first.anchor, first.orient, 0))} "
                    "(where the structure stands does not matter, so the engine fixes it)")
        k = max(top, 0)
        # Only Bases lie on layer 0; a piece covering occupied nodes starts a layer. On an empty table
        # there is no layer to look at: k stays 0 and the first-piece rule gives the reason.
        if move.kind != BASE and top >= 0:
            occupied = self.support(state.layers).occupied[top]
            if top == 0 or placement.mask & ~occupied == 0:
                k = top + 1
        reason = placement_problem(self.geometry, state.layers, placement, k, state.hands[p])
        if reason.startswith("it overhangs") and top >= 1:
            reason += f" of layer {top - 1} (no play can be made below the current layer, {top})"
        if reason:
            return f"{text}: {reason}"
        return f"{text}: not a legal play here"


def placement_problem(
    geometry: Geometry, layers: tuple[tuple[Piece, ...], ...], p: Placement, k: int, hand: Hand | None = None
) -> str:
    """Why placement ``p`` cannot go on layer ``k`` of the structure now ('' if it can), rule by rule.

    With ``hand`` given, the hand-dependent rules of a new layer (six pieces or no play; Uni start) are
    checked too. Any first Base is accepted here (hand-written positions may put it anywhere); the
    engine itself offers only the geometry's canonical first Base. Also used to validate positions by
    replaying their pieces in order (:func:`structure_problems`).
    """
    top = len(layers) - 1
    name = NAMES[p.kind]
    if k < top:
        return f"no play can be made on a layer below the current one (layer {top})"
    if k > top + 1:
        return f"layer {k} cannot be started before layer {k - 1}"
    if top < 0:
        return "" if p.kind == BASE else "the first piece of the game is a Base"
    occupied = [_union([piece_mask(geometry, q) for q in layer]) for layer in layers]
    if p.kind == BASE:
        if k != 0:
            return "Bases cannot stack: they lie side by side on the bottom layer only"
        if p.mask & occupied[0]:
            return "it overlaps a Base"
        if not any(geometry.contacts(p.mask, piece_mask(geometry, b)) >= 2 for b in layers[0]):
            return "a Base must touch another Base with at least two Nodes"
        return ""
    if k == 0:
        return f"only Bases go on the bottom layer; a {name} rests on pieces of the layer below"
    on_layer = layers[k] if k <= top else ()
    here = occupied[k] if k <= top else 0
    if p.mask & here:
        return f"it overlaps a piece already on layer {k}"
    if p.mask & ~occupied[k - 1]:
        return "it overhangs: every Node must sit on a piece below"
    if on_layer:
        if not p.halo & here:
            return "it does not connect (touch) a piece already on this layer"
        if p.kind == BOMBER and any(q.kind == BOMBER for q in on_layer):
            return "only one Bomber can be laid per layer"
    else:
        if p.kind == BOMBER:
            return "a new layer can never be started with a Bomber"
        if hand is not None:
            if p.kind == UNI and any(n for kind, n in zip(KINDS, hand, strict=True) if kind not in (UNI, BOMBER)):
                return "a new layer cannot be started with a Uni while other pieces (not Unis or Bombers) are in hand"
            if len(layers[top]) < LAYER_MINIMUM and any(
                True for _ in current_layer_moves(geometry, support(geometry, layers), hand)
            ):
                return (
                    f"the current layer has {len(layers[top])} pieces; a new layer needs {LAYER_MINIMUM} "
                    "unless there is no legal play on it"
                )
    for j in rests_on(geometry, layers, k, p.mask):
        below = layers[k - 1][j]
        below_mask = piece_mask(geometry, below)
        above = [q for q in on_layer if piece_mask(geometry, q) & below_mask]
        where = f"the {NAMES[below.kind]} at {below.anchor[0]},{below.anchor[1]}{below.orient}"
        if any(q.kind == BOMBER for q in above):
            return f"{where} is terminated by a Bomber"
        if any(q.kind == p.kind for q in above):
            return f"a {name} already rests on {where} (one piece type per piece below)"
        if below_mask == p.mask:
            return f"identical shapes cannot stack in the same position ({where})"
    return ""


def structure_problems(geometry: Geometry, layers: tuple[tuple[Piece, ...], ...]) -> list[str]:
    """Every way the structure breaks a placement rule when its pieces are replayed in order.

    Checks what the table itself shows: the lattice, Bases, no overhang, connection, one type per piece
    below, no duplicate stacking, Bomber termination, one Bomber per layer, no Bomber to start a layer.
    Rules that depend on hands and turns (six pieces before a new layer, Uni start) are not checked.
    """
    problems: list[str] = []
    built: list[tuple[Piece, ...]] = []
    for k, layer in enumerate(layers):
        if not layer:
            return problems + [f"layer {k} is empty"]
        for piece in layer:
            text = f"layer {k}: {format_piece(piece)}"
            p = geometry.placement(piece.kind, piece.anchor, piece.orient)
            if p is None:
                return problems + [f"{text}: not on the {geometry.width}x{geometry.height} lattice"]
            reason = placement_problem(geometry, tuple(built), p, k)
            if reason:
                problems.append(f"{text}: {reason}")
            if k == len(built):
                built.append((piece,))
            else:
                built[k] = built[k] + (piece,)
    return problems
