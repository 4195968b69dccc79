"""The same answers on both rules engines: every shipped endgame of a game with a compiled engine analysed
on the compiled engine and on the reference engine (``analyze(..., engine=...)``, ``--engine``).

Only two-player turn-based positions are taken (the methods with a compiled search). Exact values,
distances and statuses must agree (the compiled alpha-beta searches every line with the same
scores); the node counts and the principal variation may differ (the compiled search has no game move
ordering). UCT runs on both with a fixed seed; the two draw from different random streams (Python's
``random.Random`` and the kernel's splitmix64), so they are held to the same legal moves and to proven
values that agree, not to the same visits.
"""

from __future__ import annotations

import glob
from fractions import Fraction
from pathlib import Path

import pytest

from stratagem.analysis import analyze
from stratagem.core.game import Simultaneous
from stratagem.engines import compiled_engine, resolve
from stratagem.loading import load_position

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(glob.glob(str(ROOT / "puzzles" / "*" / "*.toml")))


def _with_engine() -> list[str]:
    found = []
    for path in SHIPPED:
        if "/strato/" in path:
            continue
        try:
            position = load_position(path)
        except Exception:  # a position a game cannot load is that game's tests' business
            continue
        game = position.game
        if isinstance(game, Simultaneous) or game.num_players != 2:
            continue  # lp, paranoid: no compiled search yet, both runs would be the reference's
        if resolve(game, "compiled").name == "compiled":
            found.append(path)
    return found


COMPILED = _with_engine()


def _name(path: object) -> str:
    # Not always a path: with no compiled engine (a pure-Python install) the lists above are empty, and
    # pytest 7.4 (the floor of the dev extra) then asks for the id of its NOTSET placeholder.
    return "/".join(Path(path).parts[-2:]) if isinstance(path, str) else str(path)


def _needs_the_compiled_core() -> None:
    """Skip a test of the compiled engine's use where the compiled core is not built (a pure-Python install,
    where the reference engine rightly runs instead: the last test of this file checks that)."""
    from stratagem.core.compiled import status

    if status().missing:
        pytest.skip("the compiled core is not built here")


#: Positions whose reference search takes tens of seconds: under ``-m slow`` only.
SLOW = ("square-in-7",)


@pytest.mark.skipif(not COMPILED, reason="no shipped position has a compiled engine yet")
@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if any(s in p for s in SLOW) else p
                                  for p in COMPILED], ids=_name)
def test_exact_analysis_is_the_same_on_both_engines(path: str) -> None:
    compiled = analyze(path, rank=False, time_limit=120)
    reference = analyze(path, rank=False, time_limit=120, engine="reference")
    assert reference.engine == "reference"
    if compiled.method == "alphabeta":  # else alphabeta met chance and turned into expecti (reference)
        assert compiled.engine == "compiled"
    assert (compiled.method, compiled.status) == (reference.method, reference.status)
    assert (compiled.value, compiled.values, compiled.distance) == (reference.value, reference.values,
                                                                    reference.distance)
    if compiled.status == "solved" and compiled.pv:
        # The compiled line is legal on the reference engine and has the claimed length.
        game, state = compiled.game_rules, compiled.state
        for text in compiled.pv:
            state = game.apply(state, game.parse_move(state, text))
        if compiled.distance is not None and reference.method == "alphabeta":
            assert len(compiled.pv) == compiled.distance and game.is_terminal(state)


@pytest.mark.skipif(not COMPILED, reason="no shipped position has a compiled engine yet")
@pytest.mark.parametrize("path", COMPILED[:4], ids=_name)
def test_uct_runs_on_both_engines(path: str) -> None:
    position = load_position(path)
    if position.game.to_move(position.state) < 0:
        pytest.skip("not a decision position")
    compiled = analyze(path, "mcts", iterations=300, seed=5)
    again = analyze(path, "mcts", iterations=300, seed=5)
    reference = analyze(path, "mcts", iterations=300, seed=5, engine="reference")
    assert compiled.engine == "compiled" and reference.engine == "reference"
    assert compiled.to_json() == again.to_json()  # deterministic given the seed
    assert compiled.moves is not None and reference.moves is not None
    assert sorted(m.move for m in compiled.moves) == sorted(m.move for m in reference.moves)
    if compiled.status == reference.status == "solved":
        assert compiled.value == reference.value


def test_alphabeta_that_meets_chance_goes_on_with_the_compiled_expecti() -> None:
    _needs_the_compiled_core()
    path = str(ROOT / "puzzles" / "stratatak" / "long-odds.toml")
    analysis = analyze(path)
    assert analysis.method == "expecti" and analysis.engine == "compiled" and analysis.engine_note == ""
    reference = analyze(path, engine="reference")
    assert reference.engine == "reference" and reference.method == "expecti"
    assert (reference.value, reference.status) == (analysis.value, analysis.status) == (Fraction(1, 5), "solved")
    assert analysis.moves is not None and reference.moves is not None
    assert [(m.move, m.value) for m in analysis.moves] == [(m.move, m.value) for m in reference.moves]


@pytest.mark.parametrize("method", ["paranoid", "maxn"])
def test_many_player_searches_run_compiled(method: str) -> None:
    _needs_the_compiled_core()
    path = str(ROOT / "puzzles" / "cardclash" / "three-players.toml")
    # max^n has no pruning: its tree here is beyond millions of nodes either way; a budget shows it runs compiled
    compiled = analyze(path, method, rank=method == "paranoid", max_nodes=None if method == "paranoid" else 50_000)
    assert compiled.engine == "compiled" and compiled.status == ("solved" if method == "paranoid" else "unknown")
    if method == "paranoid":
        reference = analyze(path, method, engine="reference")
        assert (compiled.value, compiled.assumption) == (reference.value, reference.assumption)
        assert compiled.moves is not None and reference.moves is not None
        assert [(m.move, m.value) for m in compiled.moves] == [(m.move, m.value) for m in reference.moves]


def test_without_the_compiled_core_the_reference_engine_runs_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import stratagem.core.compiled as compiled

    path = str(ROOT / "puzzles" / "cardclash" / "square-in-3.toml")
    game = load_position(path).game
    if compiled_engine(game) is None:
        pytest.skip("Card Clash has no compiled engine here")
    real = compiled.status()
    monkeypatch.setattr(compiled, "status", lambda: compiled.CoreStatus(
        tuple(m for m in real.compiled if m != "stratagem.solvers.packed_alphabeta"),
        ("stratagem.solvers.packed_alphabeta",), ()))
    choice = resolve(game, "compiled")
    assert choice.name == "reference" and choice.core_missing and "packed_alphabeta" in choice.note
    quiet = analyze(path, rank=False)  # the default says it too: the core the install should have is missing
    assert quiet.engine == "reference" and "not built" in quiet.engine_note
    assert quiet.value == 1 and quiet.distance == 3
