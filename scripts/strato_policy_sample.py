"""What the compiled guided policy (with plans of the hand) wins on random orders of a solo deal's pile.

The certified lower ends of ``scripts/strato_hidden_exact.py`` are the exact value of this policy with the
states of few pile orders cut (counted as lost unless a play or a plan wins there). How much of the gap to
1 is the cut, and how much the policy's own losses? This plays the policy (``Solver.policy_move``) on
``--games`` seeded shuffles of each solo deal's pile and prints its win rate with a 95% Wilson interval:
an estimate of the policy's value (sampled, not proven), and so of the most its certified lower bound can
ever reach. Deterministic: shuffle ``k`` of deal ``D`` is seeded ``"D:k"``.

    python scripts/strato_policy_sample.py --games 300 puzzles/strato/challenge-1.toml \
        puzzles/strato/level-2-example.toml
"""

from __future__ import annotations

import argparse
import random
import time

from stratagem.loading import deal_of, load_strato
from stratagem.models.strato.hidden.exact import Solver
from stratagem.models.strato.hidden.game import DRAW, REVEAL, HiddenStrato
from stratagem.models.strato.rules.position import ONGOING, WON
from stratagem.solvers.match import wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("puzzles", nargs="+")
    parser.add_argument("--games", type=int, default=300, help="shuffles of each deal's pile")
    args = parser.parse_args()
    print("| challenge | deal | games | won | win rate [95% CI] | CPU s |")
    print("|---|---|---:|---:|---|---:|")
    for puzzle in args.puzzles:
        loaded = load_strato(puzzle)
        for spec in loaded.deals:
            if spec.players != 1:
                continue
            deal = deal_of(loaded, spec.name)
            game = HiddenStrato(deal.challenge, deal.game.options, deal.start)
            started = time.process_time()
            first = Solver(game)
            first.guide()
            won = 0
            for k in range(args.games):
                solver = Solver(game)  # a fresh table a game: what one order's states keep is no other's
                solver.guide(like=first)
                state = game.initial_state()
                order = list(state.pile)
                random.Random(f"{spec.name}:{k}").shuffle(order)
                while state.status == ONGOING:
                    if state.phase in (DRAW, REVEAL):
                        state = game.apply(state, order.pop(0))
                        continue
                    move = solver.policy_move(state)
                    if move is None:
                        break  # the policy gives up: a loss
                    state = game.resolve(state, move)[1]
                won += state.status == WON
            low, high = wilson_interval(won, args.games)
            print(f"| {deal.challenge.name} | {spec.name} | {args.games} | {won} | {won / args.games:.3f} "
                  f"[{low:.3f}, {high:.3f}] | {time.process_time() - started:.0f} |", flush=True)


if __name__ == "__main__":
    main()
