"""Stack Attack's deep endgames made by the bench, solved exactly on the compiled engine and timed.

A deep endgame is made the way the shipped ``2p-actions-5-turns`` was: a two-player round of the endgame scope
(``scope = "round"``) dealt from a seed (:func:`~stratagem.models.stackattack.puzzle.dealt_round`), then
uniformly random play from the same generator (:func:`~stratagem.models.stackattack.agents.random_move`)
until each hand holds ``turns`` cards (seed 36, five turns, actions on, gives that file again). :data:`DEEP`
lists what the bench makes; seed 7 with six turns of the plain number game is also shipped, as
``puzzles/stackattack/2p-numbers-6-turns.toml``.

:func:`deep_table` solves each one as ``stratagem analyze --method lp`` does for two players (player 1
on the penalty difference, the compiled engine's induction with an exact certificate per node) and
reports its value, nodes and time (wall and CPU seconds: the machine may be shared), then writes the bound
certificate ``analyze --proof`` writes (``stratagem/matrixproof@2``, :mod:`~stratagem.solvers.boundproof`) and
checks it as ``verify`` does (the rules engine alone), with its size and the CPU seconds of each. The
commands end to end are measured by ``scripts/stackattack_induction.py``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from stratagem.models.stackattack import compiled_engine
from stratagem.models.stackattack.agents import random_move
from stratagem.models.stackattack.position import State
from stratagem.models.stackattack.puzzle import dealt_round
from stratagem.models.stackattack.rules import StackAttackGame, game_for

#: (seed, turns left, action cards) of the endgames the bench makes and solves.
DEEP: tuple[tuple[int, int, bool], ...] = ((7, 6, False),)


def made_endgame(seed: int, turns: int, actions: bool = False) -> tuple[StackAttackGame, State]:
    """The two-player endgame of the module docstring: dealt from ``seed``, played at random to ``turns``
    cards a hand (between turns)."""
    game = game_for(2, actions=actions, scope="round")
    rng = random.Random(seed)
    state = dealt_round(game, rng)
    while len(state.hands[0]) > turns or state.played:
        state = game.apply(state, random_move(game, state, rng))
    return game, state


def solve_endgame(game: StackAttackGame, state: State) -> dict[str, Any]:
    """Player 1's exact value on the penalty difference by the compiled induction, with its size and times."""
    from stratagem.solvers.simultaneous import solve_simultaneous

    engine = compiled_engine(game)
    packed = engine.simultaneous() if engine is not None else None
    wall, cpu = time.perf_counter(), time.process_time()
    result = solve_simultaneous(game, state, player=0, payoff="margin", packed=packed)
    return {"value": result.value, "nodes": len(result.nodes), "certified": result.certified,
            "engine": "compiled" if packed is not None else "reference",
            "wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "result": result}


def certify_endgame(game: StackAttackGame, state: State, result: Any) -> dict[str, Any]:
    """The bound certificate of ``result`` as ``analyze --proof`` writes it, read back as JSON and checked as
    ``verify`` checks it (the rules engine alone): its nodes, bytes, and the CPU seconds of both."""
    import json

    from stratagem.solvers.boundproof import bound_proof, bound_proof_text, check_bound_proof

    started = time.process_time()
    text = bound_proof_text(bound_proof(game, result))
    written = time.process_time() - started
    started = time.process_time()
    data = json.loads(text)
    verdict = check_bound_proof(game, state, data)
    return {"nodes": len(data["nodes"]), "bytes": len(text.encode()), "write": written,
            "check": time.process_time() - started, "valid": verdict.valid, "reason": verdict.reason}


def deep_table(log: Callable[[str], None], deep: tuple[tuple[int, int, bool], ...] = DEEP) -> list[str]:
    """The bench's section on the deep endgames it makes (see the module docstring)."""
    lines = [
        "## Deep endgames made by the bench",
        "",
        "Two-player rounds (endgame scope) dealt from a seed and played at random to the number of turns",
        "left (`stratagem.bench.stackattack.made_endgame`), then solved exactly: player 1 on the penalty",
        "difference, backward induction on the compiled engine with an exactly certified matrix game per",
        "node (what `stratagem analyze --method lp` runs). Wall and CPU seconds of the induction alone, one run; then",
        "the bound certificate `analyze --proof` writes (`stratagem/matrixproof@2`: one-sided strategies at the",
        "nodes the start's value needs) and its check as `verify` runs it, on the rules engine, CPU seconds each.",
        "",
        "| seed | turns | actions | position | value | LP nodes | certified | engine | wall s | CPU s | "
        "certificate nodes | certificate KB | write CPU s | check CPU s | check |",
        "|---:|---:|---|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for seed, turns, actions in deep:
        game, state = made_endgame(seed, turns, actions)
        row = solve_endgame(game, state)
        log(f"deep endgame seed {seed}, {turns} turns: {row['value']} ({row['nodes']} nodes) "
            f"{row['wall']:.1f} s wall, {row['cpu']:.1f} CPU s")
        proof = certify_endgame(game, state, row["result"])
        lines.append(f"| {seed} | {turns} | {'yes' if actions else 'no'} | `{game.format_state(state)}` | "
                     f"{row['value']} | {row['nodes']:,} | {'yes' if row['certified'] else 'NO'} | "
                     f"{row['engine']} | {row['wall']:.2f} | {row['cpu']:.2f} | {proof['nodes']:,} | "
                     f"{proof['bytes'] / 1000:,.0f} | {proof['write']:.2f} | {proof['check']:.2f} | "
                     f"{'valid' if proof['valid'] else 'INVALID: ' + proof['reason']} |")
    return lines + [""]


__all__ = ["DEEP", "certify_endgame", "deep_table", "made_endgame", "solve_endgame"]
