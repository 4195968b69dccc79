"""`analyze --method ismcts` runs the search the `ismcts` agent runs by default, and says which (stop 64).

Until stop 64 it ran plain ISMCTS on both engines while the agent (and `analyze --method mcts`) searched
guided, unsaid. Now:

- it is guided on both engines where the game guides it: on Card Clash (its move order, its evaluation at
  each new leaf, no chance node in the tree) the compiled and the reference analyses visit the same moves
  the same number of times for a seed, and the reference one is ``ismcts(guided=True)``;
- it runs where ``play`` runs the guided agent: Stack Attack, which has no compiled guide, on the
  reference engine by default; ``--engine compiled`` still runs it there, plain;
- the summary names the search (guided or plain, and by what), for ``mcts`` too;
- the same command and seed print the same bytes;
- bench's sampling table, which runs plain ISMCTS on purpose, says so.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import ROOT

from stratagem.analysis import analyze
from stratagem.engines import resolve
from stratagem.loading import load_position
from stratagem.solvers.alphabeta import return_bounds
from stratagem.solvers.mcts import ismcts

DEFENCE = str(ROOT / "puzzles" / "cardclash" / "defence-holds.toml")
LONE_STAR = str(ROOT / "puzzles" / "stratatak" / "lone-star.toml")
CARD_CLASH_GUIDED = "guided by the game's move order (progressive widening) and its evaluation at each new leaf"


def _compiled_here(path: str) -> None:
    if resolve(load_position(path).game, "compiled").name != "compiled":
        pytest.skip("no compiled engine here")


def _report(cli: Any, *args: str) -> dict[str, Any]:
    result = cli("analyze", *args, "--json")
    assert result.code == 0, result.err
    return dict(json.loads(result.out))


@pytest.mark.parametrize("seed", ["1", "4"])
def test_guided_ismcts_visits_alike_on_both_engines_as_the_agents_search(cli, seed: str) -> None:
    _compiled_here(DEFENCE)
    args = (DEFENCE, "--method", "ismcts", "--as", "1", "--iterations", "300", "--seed", seed)
    compiled = _report(cli, *args)
    reference = _report(cli, *args, "--engine", "reference")
    visited = [(m["move"], m["visits"]) for m in compiled["moves"]]
    assert visited == [(m["move"], m["visits"]) for m in reference["moves"]]
    assert [m["mean"] for m in compiled["moves"]] == pytest.approx([m["mean"] for m in reference["moves"]], abs=1e-4)
    assert compiled["best_move"] == reference["best_move"]
    assert sum(m["visits"] > 0 for m in compiled["moves"]) > 1  # more than one move tried: a comparison
    # the reference analysis is the guided search the ismcts agent runs on that engine
    loaded = load_position(DEFENCE)
    low, high = return_bounds(loaded.game)
    agent = ismcts(loaded.game, loaded.state, iterations=300, seed=int(seed), value_range=(float(low), float(high)),
                   guided=True)
    visits = {s.notation: s.visits for s in agent.moves}
    assert {m["move"]: m["visits"] for m in reference["moves"]} == visits


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_the_summary_names_the_search(cli, engine: str) -> None:
    _compiled_here(DEFENCE)
    report = _report(cli, DEFENCE, "--method", "ismcts", "--as", "1", "--iterations", "100", "--engine", engine)
    assert report["summary"] == f"ismcts estimate after 100 iterations (not a value): {CARD_CLASH_GUIDED}"
    report = _report(cli, DEFENCE, "--method", "mcts", "--iterations", "100", "--engine", engine)
    assert report["summary"] == f"mcts estimate after 100 iterations (not a value): {CARD_CLASH_GUIDED}"
    report = _report(cli, LONE_STAR, "--method", "ismcts", "--as", "1", "--iterations", "20", "--engine", engine)
    assert report["summary"].endswith(": guided by the game's move order (progressive widening), random playouts "
                                      "to the end")


def _stack_attack_turn() -> tuple[Any, Any]:
    """A Stack Attack position where one player is to move (a choice after the reveal), not everyone at once."""
    loaded = load_position(str(ROOT / "puzzles" / "stackattack" / "2p-actions-3-turns.toml"))
    game, state = loaded.game, loaded.state
    rng = random.Random(1)
    while game.to_move(state) < 0:
        state = game.apply(state, tuple(rng.choice(list(game.player_moves(state, p))) for p in range(game.num_players)))
    assert game.to_move(state) == 0 and len(game.legal_moves(state)) > 1
    return game, state


def test_stack_attack_ismcts_runs_where_play_runs_the_agent_and_says_it_is_plain() -> None:
    game, state = _stack_attack_turn()
    if resolve(game, "compiled").name != "compiled":
        pytest.skip("no compiled engine here")
    default = analyze((game, state), "ismcts", as_player=1, iterations=200, seed=2)
    reference = analyze((game, state), "ismcts", as_player=1, iterations=200, seed=2, engine="reference")
    compiled = analyze((game, state), "ismcts", as_player=1, iterations=200, seed=2, engine="compiled")
    assert (default.engine, reference.engine, compiled.engine) == ("reference", "reference", "compiled")
    assert default.engine_note == ""  # the default's place, not a fallback to report
    assert default.to_json() == reference.to_json()
    assert reference.summary.endswith(": plain: random playouts to the end (the game gives no move order or "
                                      "evaluation cut-off)")
    assert compiled.summary.endswith(": plain: random playouts to the end (the compiled engine has no guide for "
                                     "this game)")


def test_the_same_command_and_seed_print_the_same_bytes(cli) -> None:
    _compiled_here(DEFENCE)
    args = ("analyze", DEFENCE, "--method", "ismcts", "--as", "1", "--iterations", "400", "--seed", "7", "--json")
    first, again = cli(*args), cli(*args)
    assert first.code == again.code == 0 and first.out == again.out
    other = cli(*args[:-2], "8", "--json")
    assert other.out != first.out  # the seed steers it


def test_the_benchs_sampling_table_says_its_ismcts_is_plain() -> None:
    """bench's throughput table runs plain ISMCTS on purpose (the search both engines have in every game):
    it says so, as analyze and play now search guided (results/*.md quote it)."""
    from stratagem.bench.sampling import sampling_section

    _compiled_here(DEFENCE)
    text = " ".join(sampling_section("cardclash", [], lambda text: None, reference=3, repeats=1))
    assert "ISMCTS runs plain (`guided=False`: random playouts to the end)" in text
