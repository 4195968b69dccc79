"""Card Clash's evaluation gives the same floats on every Python the project claims (3.11 and newer).

From Python 3.12 the builtin ``sum()`` of floats is compensated (Neumaier), so it can round otherwise than
adding left to right. ``CardClashGame.evaluate`` summed the players' strengths with ``sum()`` while the
compiled guide adds them in a loop: on Python 3.12 the two differed in the last bit on some positions
(``test_guide``'s sample failed there). The reference now adds left to right too. On the Python this runs
on, a compensated ``sum()`` is put in the rules module's namespace (``math.fsum``, what 3.12's ``sum`` does
for these few terms): the evaluation must not change, and must equal the compiled guide's, float for float.
"""

from __future__ import annotations

import math
import random

import pytest

import stratagem.models.cardclash.rules as rules
from stratagem.models.cardclash import compiled_engine
from stratagem.models.cardclash.guide import CardClashGuide
from stratagem.models.cardclash.position import State
from stratagem.models.cardclash.rules import CardClashGame
from stratagem.solvers.compiled_uct import compiled_guide


def _positions(seed: int, count: int) -> list[tuple[CardClashGame, State]]:
    """``count`` non-terminal positions of three- and four-player games (the ones whose strengths are
    summed over more than two terms), random plies from a fresh deal."""
    rng = random.Random(seed)
    found: list[tuple[CardClashGame, State]] = []
    while len(found) < count:
        game = CardClashGame(rng.randint(3, 4), strategic=rng.random() < 0.5, seed=rng.randrange(10**9))
        state = game.initial_state()
        for _ in range(rng.randrange(45)):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            found.append((game, state))
    return found


def test_the_evaluation_adds_the_strengths_as_the_compiled_guide_does(monkeypatch: pytest.MonkeyPatch) -> None:
    positions = _positions(1, 300)
    plain = [game.evaluate(state) for game, state in positions]
    monkeypatch.setattr(rules, "sum", math.fsum, raising=False)  # Python 3.12's sum(), on any Python
    assert [game.evaluate(state) for game, state in positions] == plain
    for (game, state), values in zip(positions, plain, strict=True):
        engine = compiled_engine(game)
        guide = compiled_guide(game, engine)
        assert isinstance(guide, CardClashGuide)
        assert guide.values(engine.encode(state)) == values, game.format_state(state)
