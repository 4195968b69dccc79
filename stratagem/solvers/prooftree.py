"""AND/OR proof DAGs for game values, and a checker that trusts nothing but the rules engine.

A value claim is about one player's return, ``P``: "``P`` gets *at least* v", "*at most* v", or
"*exactly* v" (both). Each bound is certified by a strategy, written out as a DAG of positions:

* **at least v** (the ``"at least"`` half): at ``P``'s nodes *one* move (``P``'s choice), at every
  other player's nodes *every* legal move, at chance nodes *every* outcome, down to terminal
  states. Its value, recomputed bottom-up -- the return at a terminal, the chosen child at a
  one-move node, the minimum over every reply, the probability-weighted sum over the outcomes --
  is what ``P`` is guaranteed whatever the others do, so it must be ``>= v``.
* **at most v** (the ``"at most"`` half): the same with the roles swapped -- every move of ``P``,
  one move of the others (acting together), the maximum over ``P``'s moves -- and it must be
  ``<= v``.

For two-player zero-sum games "player 0 wins" is "player 0 at least +1" (one half), a draw is
"player 0 exactly 0" (both halves), and with chance "expected value exactly 5919/16384". With three
or more players the at-least half is exactly a paranoid guarantee, and the two halves together
certify a paranoid value.

JSON form (``"format": "stratagem/prooftree@1"``)::

    {"format": "stratagem/prooftree@1",
     "game": "nim",
     "start": "1.2/0",                                # game.format_state of the root
     "claim": {"player": 0, "bound": "at least", "value": 1},
     "halves": [{"side": "at least", "root": 0, "plies": 3}],
     "nodes": [
       {"id": 0, "side": "at least", "state": "1.2/0", "to_move": 0, "value": 1,
        "children": [{"move": "2-1", "node": 1}]},
       {"id": 1, "side": "at least", "state": "1.1/1", "to_move": 1, "value": 1,
        "children": [{"move": "1-1", "node": 2}, {"move": "2-1", "node": 3}]},
       ...]}

``bound`` is ``"at least"``, ``"at most"`` or ``"exactly"`` (then both halves are present).
Values are JSON integers, ``"p/q"`` strings for exact fractions, or JSON floats for games with
float returns. ``id`` is the node's index in ``nodes``; ``to_move`` is the game's player index,
-1 for chance, -3 for terminal. A child of a chance node also has ``"probability": "p/q"``.
``plies`` of a half is the longest path from its root to a terminal state: for an at-least half
proving a win, the win comes within that many plies. Identical positions within one half are one
node (a DAG). Moves and states are in the game's own notation.

:func:`check_proof_tree` parses every state and move with the game, replays every move through
``apply``, requires every legal move (every chance outcome, with its probability from the game)
where the half needs them all, checks every terminal return, recomputes every value and the
longest path, and compares with the claim. Each problem names its place (a node and a move).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from stratagem.core.errors import IllegalMove, NotationError, StratagemError
from stratagem.core.game import CHANCE, Game, S
from stratagem.core.numbers import is_whole
from stratagem.core.records import cut_repr as _q
from stratagem.core.recursion import deep_recursion
from stratagem.solvers.expectimax import TINY, ExpectiSearch
from stratagem.solvers.gametree import UNLIMITED, Stop, TimeLimit
from stratagem.solvers.transposition import TranspositionTable

__all__ = [
    "AT_LEAST",
    "AT_MOST",
    "EXACTLY",
    "PROOFTREE_FORMAT",
    "Problem",
    "ProofStopped",
    "Verdict",
    "build_proof_tree",
    "check_proof_tree",
    "decode_value",
    "encode_value",
]

PROOFTREE_FORMAT = "stratagem/prooftree@1"
AT_LEAST = "at least"
AT_MOST = "at most"
EXACTLY = "exactly"
_HALVES = {AT_LEAST: (AT_LEAST,), AT_MOST: (AT_MOST,), EXACTLY: (AT_LEAST, AT_MOST)}

Value = Any  # int | Fraction | float


def encode_value(v: Value) -> int | float | str:
    """A value as JSON: an int, ``"p/q"`` for a fraction that is not whole, or a float."""
    if isinstance(v, bool):
        raise TypeError("a boolean is not a game value")
    if isinstance(v, int):
        return v
    if isinstance(v, Fraction):
        return v.numerator if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, float):
        return v
    raise TypeError(f"cannot write {v!r} as a game value")


def decode_value(data: Any) -> Value:
    """Inverse of :func:`encode_value`; raises ValueError on anything else."""
    if isinstance(data, bool):
        raise ValueError("a boolean is not a game value")
    if isinstance(data, int | float):
        return data
    if isinstance(data, str):
        # Only what encode_value writes: "n" or "n/d". Fraction() alone would also take "0/0" (raising
        # ZeroDivisionError) and "1e99999999" (building a hundred-million-digit number first).
        if not re.fullmatch(r"-?[0-9]+(/[0-9]*[1-9][0-9]*)?", data):
            raise ValueError(f"{data[:40]!r} is not a game value (an integer or a fraction n/d)")
        return Fraction(data)
    raise ValueError(f"{_q(data)} is not a game value")


# ----------------------------------------------------------------------------------------------
# Building


def _one_move_node(side: str, mover: int, player: int) -> bool:
    """Whether the half picks one move here (the prover's node) rather than listing every move."""
    return (mover == player) == (side == AT_LEAST)


def _ok(side: str, value: Value, target: Value) -> bool:
    return bool(value >= target if side == AT_LEAST else value <= target)


class _Builder:
    def __init__(self, game: Game[Any, Any], oracle: ExpectiSearch, player: int) -> None:
        self.game = game
        self.oracle = oracle
        self.player = player
        self.nodes: list[dict[str, Any]] = []
        self.values: list[Value] = []
        self.heights: list[int] = []
        self.memo: dict[tuple[Any, str], int] = {}

    def exact(self, state: Any) -> Value:
        return self.oracle.value(state, UNLIMITED, -math.inf, math.inf)

    def reaches(self, state: Any, side: str, target: Value) -> bool:
        """Null-window test: is the value of ``state`` for the player at least (most) ``target``?"""
        if side == AT_LEAST:
            return bool(self.oracle.value(state, UNLIMITED, target - TINY, target) >= target)
        return bool(self.oracle.value(state, UNLIMITED, target, target + TINY) <= target)

    def prove(self, state: Any, side: str, target: Value) -> int:
        """Id of a node whose ``side`` half has a value meeting ``target`` (which must be true)."""
        known = self.memo.get((state, side))
        if known is not None and _ok(side, self.values[known], target):
            return known
        game = self.game
        node: dict[str, Any] = {"id": len(self.nodes), "side": side, "state": game.format_state(state),
                                "to_move": game.to_move(state), "value": None, "children": []}
        nid = len(self.nodes)
        self.nodes.append(node)
        self.values.append(None)
        self.heights.append(0)
        children: list[dict[str, Any]] = node["children"]
        if game.is_terminal(state):
            value: Value = game.returns(state)[self.player]
            height = 0
        elif node["to_move"] == CHANCE:
            value, height = 0, 0
            for outcome, p in game.chance_outcomes(state):
                child = game.apply(state, outcome)
                cid = self.prove(child, side, self.exact(child))
                children.append({"move": game.format_move(state, outcome), "probability": encode_value(p),
                                 "node": cid})
                value += p * self.values[cid]
                height = max(height, self.heights[cid] + 1)
        elif _one_move_node(side, node["to_move"], self.player):
            entry = self.oracle.tt.get(state) if self.oracle.tt is not None else None
            for move in self.oracle.moves(state, entry[3] if entry is not None else None):
                child = game.apply(state, move)
                if self.reaches(child, side, target):
                    break
            else:
                raise StratagemError(f"{game.name}: no move at {node['state']} keeps the claimed value "
                                     f"{side} {target}")
            cid = self.prove(child, side, target)
            children.append({"move": game.format_move(state, move), "node": cid})
            value, height = self.values[cid], self.heights[cid] + 1
        else:
            values, height = [], 0
            for move in game.legal_moves(state):
                cid = self.prove(game.apply(state, move), side, target)
                children.append({"move": game.format_move(state, move), "node": cid})
                values.append(self.values[cid])
                height = max(height, self.heights[cid] + 1)
            value = min(values) if side == AT_LEAST else max(values)
        node["value"] = encode_value(value)
        self.values[nid] = value
        self.heights[nid] = height
        self.memo[(state, side)] = nid
        return nid


class ProofStopped(Exception):
    """:func:`build_proof_tree` ran out of time: no proof (the claim itself is not put in doubt)."""


def build_proof_tree(game: Game[S, Any], state: S, *, player: int | None = None, value: Value | None = None,
                     bound: str | None = None, lo: Value | None = None, hi: Value | None = None,
                     tt_size: int = 1 << 20, time_limit: TimeLimit = None) -> dict[str, Any]:
    """A proof DAG (as JSON data) for a claim about ``player``'s return from ``state``.

    ``player`` defaults to the player to move (0 at a chance node). Without ``value`` the claim is
    the exact (paranoid, for 3+ players) value, found by search; ``bound`` defaults to
    ``"exactly"``, or to one half when the value is ``hi`` (``"at least"``: e.g. a win, when the
    returns lie in [``lo``, ``hi``]) or ``lo`` (``"at most"``). Raises
    :class:`~stratagem.core.errors.StratagemError` when the claim is false. Search is exhaustive;
    the games must be finite and acyclic. ``time_limit`` (seconds, or a
    :class:`~stratagem.core.deadline.Deadline` shared with the search that found the value) raises
    :class:`ProofStopped` when it runs out: a proof is whole or not written at all.
    """
    if player is None:
        mover = game.to_move(state)
        player = mover if mover >= 0 else 0
    if not 0 <= player < game.num_players:
        raise ValueError(f"player {player} is not one of the {game.num_players} players")
    if bound is not None and bound not in _HALVES:
        raise ValueError(f"bound must be one of {sorted(_HALVES)}")
    oracle = ExpectiSearch(game, player, lo, hi, 2, state, tt=TranspositionTable(tt_size), ordering=True,
                      time_limit=time_limit, max_nodes=None, progress=None, progress_every=1 << 30)
    try:
        with deep_recursion():  # proof trees walk as deep as the game is long
            builder = _Builder(game, oracle, player)
            exact = builder.exact(state)
            if value is None:
                value = exact
            if bound is None:
                bound = AT_LEAST if hi is not None and value == hi else AT_MOST if lo is not None and value == lo \
                    else EXACTLY
            if (bound in (AT_LEAST, EXACTLY) and exact < value) or (bound in (AT_MOST, EXACTLY) and exact > value):
                raise StratagemError(f"{game.name}: the claim 'player {player + 1} {bound} {value}' is false; "
                                     f"the value is {exact}")
            halves = []
            for side in _HALVES[bound]:
                root = builder.prove(state, side, value)
                halves.append({"side": side, "root": root, "plies": builder.heights[root]})
    except Stop:
        raise ProofStopped(f"the time limit ran out while the proof tree was being built "
                           f"({len(builder.nodes):,} nodes so far)") from None
    return {
        "format": PROOFTREE_FORMAT,
        "game": game.name,
        "start": game.format_state(state),
        "claim": {"player": player, "bound": bound, "value": encode_value(value)},
        "halves": halves,
        "nodes": builder.nodes,
    }


# ----------------------------------------------------------------------------------------------
# Checking


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a proof: where (``"node 12, move '2-3'"``) and what."""

    place: str
    problem: str

    def line(self) -> str:
        return f"{self.place}: {self.problem}"


@dataclass(frozen=True)
class Verdict:
    """The outcome of :func:`check_proof_tree`.

    ``valid`` is true when there is no problem; ``claim`` says in words what is certified
    (``"player 1 at least 1"``, players counted from 1 as the CLI does); ``values`` has each half's
    recomputed root value and ``plies`` its longest path; ``nodes`` counts the nodes checked.
    """

    valid: bool
    claim: str
    problems: tuple[Problem, ...]
    values: dict[str, Value]
    plies: dict[str, int]
    nodes: int




class _Checker:
    def __init__(self, game: Game[Any, Any], player: int, nodes: list[Any]) -> None:
        self.game = game
        self.player = player
        self.nodes = nodes
        self.problems: list[Problem] = []
        self.values: dict[int, Value] = {}
        self.heights: dict[int, int] = {}
        self.states: dict[int, Any] = {}

    def fail(self, place: str, problem: str) -> None:
        self.problems.append(Problem(place, problem))

    def node(self, nid: Any, place: str) -> dict[str, Any] | None:
        if not is_whole(nid, 0, len(self.nodes) - 1):
            self.fail(place, f"refers to node {_q(nid)}, which does not exist")
            return None
        node = self.nodes[nid]
        if not isinstance(node, dict):
            self.fail(f"node {nid}", "is not an object")
            return None
        if not is_whole(node.get("id")) or node.get("id") != nid:  # not true for 1, nor 1.0: JSON says them apart
            self.fail(f"node {nid}", f"has id {_q(node.get('id'))} but is entry {nid} of the node list")
            return None
        return node

    def parse(self, nid: int, node: dict[str, Any]) -> Any:
        text = node.get("state")
        if not isinstance(text, str):
            self.fail(f"node {nid}", "has no state text")
            return None
        try:
            state = self.game.parse_state(text)
        except (NotationError, IllegalMove, ValueError) as err:
            self.fail(f"node {nid}", f"state {_q(text)} does not parse: {err}")
            return None
        if self.game.format_state(state) != text:
            self.fail(f"node {nid}", f"state {_q(text)} is not in normal form ({self.game.format_state(state)!r})")
            return None
        return state

    def half(self, root: int, side: str) -> None:
        """Check every node reachable from ``root`` (iteratively, children before parents)."""
        on_path: set[int] = set()
        stack: list[tuple[int, bool]] = [(root, False)]
        while stack:
            nid, expanded = stack.pop()
            if expanded:
                on_path.discard(nid)
                self.evaluate(nid, side)
                continue
            if nid in on_path:
                continue
            node = self.nodes[nid]
            if node.get("side") != side:  # checked first: a node valued in the other half is no bound of this one
                self.fail(f"node {nid}", f"belongs to the {_q(node.get('side'))} half but is reached from the "
                                         f"{side!r} half")
                self.values[nid] = None
                continue
            if nid in self.values or nid in self.states:
                continue
            state = self.parse(nid, node)
            if state is None:
                self.values[nid] = None
                continue
            self.states[nid] = state
            on_path.add(nid)
            stack.append((nid, True))
            children = node.get("children")
            if not isinstance(children, list):
                self.fail(f"node {nid}", "has no list of children")
                continue
            for i, entry in enumerate(children):
                place = f"node {nid}, child {i}"
                if not isinstance(entry, dict) or not isinstance(entry.get("move"), str):
                    self.fail(place, "is not an object with a move text and a node")
                    continue
                child = self.node(entry.get("node"), f"{place} (move {_q(entry.get('move'))})")
                if child is None:
                    continue
                cid = entry["node"]
                if cid in on_path:
                    self.fail(f"{place} (move {_q(entry['move'])})", f"goes back to node {cid}: the proof has a cycle")
                    continue
                stack.append((cid, False))

    def evaluate(self, nid: int, side: str) -> None:
        """Check node ``nid`` against the rules, given its children's recomputed values."""
        game, node, state = self.game, self.nodes[nid], self.states[nid]
        place = f"node {nid}"
        self.values[nid] = None
        children = node.get("children")
        if not isinstance(children, list):
            return
        mover = game.to_move(state)
        if not is_whole(node.get("to_move")) or node.get("to_move") != mover:  # true is no player, though true == 1
            self.fail(place, f"says player {_q(node.get('to_move'))} moves but the rules say {mover}")
        child_values: list[Value] = []
        heights: list[int] = []
        seen: dict[str, Any] = {}
        for entry in children:
            if not isinstance(entry, dict) or not isinstance(entry.get("move"), str):
                return
            text = entry["move"]
            cplace = f"{place}, move {_q(text)}"
            if text in seen:
                self.fail(cplace, "is listed twice")
                return
            cid = entry.get("node")
            if not isinstance(cid, int) or cid not in self.states or self.values.get(cid) is None:
                return  # already reported below the child
            move = self.replay(state, text, cplace, mover == CHANCE)
            if move is None:
                return
            seen[text] = move
            after = game.format_state(game.apply(state, move))
            if after != self.nodes[cid]["state"]:
                self.fail(cplace, f"leads to {after!r}, not to node {cid}'s {_q(self.nodes[cid]['state'])}")
                return
            child_values.append(self.values[cid])
            heights.append(self.heights[cid] + 1)
            if mover == CHANCE:
                self.check_probability(state, move, entry, cplace)
        if game.is_terminal(state):
            if children:
                self.fail(place, "is a terminal position but lists moves")
                return
            value: Value = game.returns(state)[self.player]
        elif mover == CHANCE:
            wanted = {game.format_move(state, o): p for o, p in game.chance_outcomes(state)}
            if not self.covers(wanted, seen, place, "chance outcome", "chance outcomes"):
                return
            value = sum(wanted[text] * v for text, v in zip(seen, child_values, strict=True))
        elif mover < 0:
            self.fail(place, "is a simultaneous-move node; proof trees cover sequential play only")
            return
        elif _one_move_node(side, mover, self.player):
            if len(children) != 1:
                self.fail(place, f"is player {mover}'s choice in the {side!r} half and needs exactly one move, "
                                 f"found {len(children)}")
                return
            value = child_values[0]
        else:
            wanted = {game.format_move(state, m): m for m in game.legal_moves(state)}
            if not self.covers(wanted, seen, place, "reply", "replies"):
                return
            value = min(child_values) if side == AT_LEAST else max(child_values)
        try:
            stated = decode_value(node.get("value"))
        except ValueError:
            self.fail(place, f"value {_q(node.get('value'))} is not a number")
            return
        if stated != value:
            self.fail(place, f"claims value {_q(node.get('value'))} but recomputes to {encode_value(value)!r}")
            return
        self.values[nid] = value
        self.heights[nid] = max(heights, default=0)

    def replay(self, state: Any, text: str, place: str, chance: bool) -> Any:
        game = self.game
        try:
            move = game.parse_move(state, text)
        except (NotationError, IllegalMove, ValueError) as err:
            self.fail(place, f"is not a legal {'outcome' if chance else 'move'} here: {err}")
            return None
        legal = [o for o, _ in game.chance_outcomes(state)] if chance else list(game.legal_moves(state))
        if move not in legal:
            self.fail(place, f"is not a legal {'outcome' if chance else 'move'} here")
            return None
        try:
            game.apply(state, move)
        except (IllegalMove, ValueError) as err:
            self.fail(place, f"is refused by the rules: {err}")
            return None
        return move

    def check_probability(self, state: Any, move: Any, entry: dict[str, Any], place: str) -> None:
        probs = [p for o, p in self.game.chance_outcomes(state) if o == move]
        try:
            stated = decode_value(entry.get("probability"))
        except ValueError:
            self.fail(place, f"probability {_q(entry.get('probability'))} is not a number")
            return
        if not probs or stated != probs[0]:
            self.fail(place, f"has probability {_q(entry.get('probability'))} but the rules give "
                             f"{encode_value(probs[0]) if probs else 'none'}")

    def covers(self, wanted: dict[str, Any], seen: dict[str, Any], place: str, what: str, whats: str) -> bool:
        """Whether ``seen`` lists exactly the ``wanted`` ones (``what``, plural ``whats``); else a failure."""
        missing = [t for t in wanted if t not in seen]
        if missing:
            self.fail(place, f"misses the {whats if len(missing) > 1 else what} "
                             f"{', '.join(repr(t) for t in missing)}")
            return False
        extra = [t for t in seen if t not in wanted]
        if extra:
            self.fail(place, f"lists {', '.join(repr(t) for t in extra)}, not in the game's list of {whats}")
            return False
        return True


def check_proof_tree(game: Game[S, Any], root_state: S, tree: Any) -> Verdict:
    """Check a proof DAG against the rules of ``game`` from ``root_state``; trusts nothing in ``tree``."""
    problems: list[Problem] = []
    claim_text = "nothing"

    def verdict(checked: int = 0, values: dict[str, Value] | None = None,
                plies: dict[str, int] | None = None) -> Verdict:
        return Verdict(not problems, claim_text, tuple(problems), values or {}, plies or {}, checked)

    if not isinstance(tree, dict) or tree.get("format") != PROOFTREE_FORMAT:
        problems.append(Problem("format", f"expected {PROOFTREE_FORMAT!r}"))
        return verdict()
    if tree.get("game") != game.name:
        problems.append(Problem("game", f"the proof is for {_q(tree.get('game'))}, not {game.name!r}"))
    start = game.format_state(root_state)
    if tree.get("start") != start:
        problems.append(Problem("start", f"the proof starts from {_q(tree.get('start'))}, not {start!r}"))
    claim = tree.get("claim")
    if not isinstance(claim, dict):
        problems.append(Problem("claim", "missing or not an object"))
        return verdict()
    player, bound = claim.get("player"), claim.get("bound")
    if not is_whole(player, 0, game.num_players - 1):
        problems.append(Problem("claim.player", f"{_q(player)} is not a player of {game.name}"))
        return verdict()
    if not isinstance(bound, str) or bound not in _HALVES:  # a list or an object would not even hash
        problems.append(Problem("claim.bound", f"{_q(bound)} is not one of {sorted(_HALVES)}"))
        return verdict()
    try:
        value = decode_value(claim.get("value"))
    except ValueError:
        problems.append(Problem("claim.value", f"{_q(claim.get('value'))} is not a number"))
        return verdict()
    claim_text = f"player {player + 1} {bound} {encode_value(value)}"  # in words: players from 1, as users count
    nodes, halves = tree.get("nodes"), tree.get("halves")
    if not isinstance(nodes, list) or not isinstance(halves, list):
        problems.append(Problem("nodes", "the proof needs a list of nodes and a list of halves"))
        return verdict()
    checker = _Checker(game, player, nodes)
    by_side: dict[str, Any] = {}
    for i, h in enumerate(halves):
        if isinstance(h, dict) and isinstance(h.get("side"), str):
            by_side[h["side"]] = h
        elif isinstance(h, dict) and h.get("side") is not None:  # a list or an object would not even hash
            problems.append(Problem(f"halves[{i}].side", f"{_q(h['side'])} is not a side ({AT_LEAST!r}, {AT_MOST!r})"))
    values: dict[str, Value] = {}
    plies: dict[str, int] = {}
    for side in _HALVES[bound]:
        half = by_side.get(side)
        if half is None:
            problems.append(Problem("halves", f"the claim '{claim_text}' needs an {side!r} half"))
            continue
        root_node = checker.node(half.get("root"), f"the {side!r} half's root")
        if root_node is None:
            continue
        root = half["root"]
        if root_node.get("state") != start:
            checker.fail(f"node {root}", f"the {side!r} half starts at {_q(root_node.get('state'))}, not {start!r}")
            continue
        checker.half(root, side)
        got = checker.values.get(root)
        if got is None:
            continue
        values[side] = got
        plies[side] = checker.heights[root]
        if not _ok(side, got, value):
            checker.fail(f"the {side!r} half", f"recomputes to {encode_value(got)!r}, which does not show "
                                               f"{side} {encode_value(value)!r}")
        stated_plies = half.get("plies")
        if stated_plies is not None and stated_plies != plies[side]:
            checker.fail(f"the {side!r} half", f"says its longest line has {_q(stated_plies)} plies, it has "
                                               f"{plies[side]}")
    problems.extend(checker.problems)
    return verdict(len(checker.states), values, plies)

