"""Holding a compiled engine (a :class:`~stratagem.core.packed.PackedGame`) to its game's Python rules
engine, state by state: the differential tests of every game's engine use these helpers.

:func:`check_state` compares, at one reference state: the round trip through ``encode``/``decode``; the
player to move; the set of legal moves (decoded records against ``legal_moves``, no record twice); every
successor (decoded against ``apply``); at a chance state the outcomes and their probabilities (integer
weights over their sum, as exact fractions, against ``chance_outcomes``); terminal and the integer
returns against ``returns``; that no move ends the game where the engine says none can (``is_quiet``);
and that a state's key hash does not depend on how its vector was made. It
works through the engines' Python-facing methods only, so a deliberately wrong engine (a Python
subclass overriding one of them) must make it fail, which the tests check. :func:`reference_perft` is
perft over the rules engine, for comparison with :func:`stratagem.solvers.perft.perft`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from stratagem.core.game import CHANCE as GAME_CHANCE
from stratagem.core.packed import CHANCE

Seen = Callable[[Any, Any, Any], None]


def check_state(game: Any, engine: Any, state: Any, seen: Seen | None = None) -> int:
    """Compare ``engine`` with the rules engine ``game`` at ``state``; return the transitions compared
    (successors and chance outcomes). ``seen(state, move, after)`` is called for each of them."""
    vector = engine.encode(state)
    assert engine.decode(vector) == state, f"decode(encode(state)) differs from the state\n{state}"
    rehash = engine.key_hash(engine.encode(engine.decode(vector)))
    assert engine.key_hash(vector) == rehash, f"the key hash depends on the vector's history\n{state}"
    outcome = engine.outcome(vector)
    if game.is_terminal(state):
        returns = game.returns(state)
        assert all(float(r).is_integer() for r in returns), f"the reference's returns {returns} are not integers"
        expected = tuple(int(r) for r in returns)
        assert outcome == expected, f"terminal returns {outcome}, the reference {expected}\n{state}"
        assert len(engine.legal_moves(vector)) == 0, f"legal moves at a terminal state\n{state}"
        return 0
    assert outcome is None, f"the engine ends the game ({outcome}) where the reference goes on\n{state}"
    player = game.to_move(state)
    count = 0
    if player == GAME_CHANCE:
        assert engine.player(vector) == CHANCE, f"the engine's player {engine.player(vector)} at a chance state"
        records, weights = engine.chance_outcomes(vector)
        assert all(int(w) > 0 for w in weights), f"chance weights must be positive: {list(weights)}\n{state}"
        total = int(sum(int(w) for w in weights))
        moves = [engine.decode_move(vector, r) for r in records]
        assert len(set(moves)) == len(moves), f"an outcome listed twice: {moves}\n{state}"
        got = {m: Fraction(int(w), total) for m, w in zip(moves, weights, strict=True)}
        want = {m: Fraction(p) for m, p in game.chance_outcomes(state)}
        assert got == want, f"chance outcomes {got}, the reference {want}\n{state}"
    else:
        assert engine.player(vector) == player, f"player {engine.player(vector)} to move, the reference {player}"
        records = engine.legal_moves(vector)
        moves = [engine.decode_move(vector, r) for r in records]
        assert len(set(moves)) == len(moves), f"a move listed twice: {moves}\n{state}"
        want_moves = list(game.legal_moves(state))
        assert set(moves) == set(want_moves), (f"legal moves differ: engine only {set(moves) - set(want_moves)}, "
                                               f"reference only {set(want_moves) - set(moves)}\n{state}")
    quiet = player != GAME_CHANCE and engine.is_quiet(vector)
    for record, move in zip(records, moves, strict=True):
        after = game.apply(state, move)
        got_after = engine.decode(engine.successor(vector, record))
        assert got_after == after, f"after {move}: engine\n{got_after}\nreference\n{after}\nfrom\n{state}"
        assert not (quiet and game.is_terminal(after)), f"{move} ends the game where the engine says none can\n{state}"
        if seen is not None:
            seen(state, move, after)
        count += 1
    return count


def reference_perft(game: Any, state: Any, depth: int) -> int:
    """Leaves of the rules engine's tree cut at ``depth`` (a terminal state is a leaf; a chance state's
    outcomes are branches), as :func:`stratagem.solvers.perft.perft` counts them."""
    if depth == 0 or game.is_terminal(state):
        return 1
    if game.to_move(state) == GAME_CHANCE:
        return sum(reference_perft(game, game.apply(state, m), depth - 1) for m, _ in game.chance_outcomes(state))
    return sum(reference_perft(game, game.apply(state, m), depth - 1) for m in game.legal_moves(state))
