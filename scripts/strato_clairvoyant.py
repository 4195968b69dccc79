"""How often a player who could see the pile would win: the clairvoyant rate of a solo Strato deal.

For each deal named, ``--orders`` seeded shuffles of its pile (the hand and the table as dealt) are each
solved with open information (:func:`stratagem.solving.solve`, ``--seconds`` a shuffle): a shuffle the
solver wins is one a clairvoyant player wins. The share won, with its 95% Wilson interval, estimates the
clairvoyant value, which bounds from above the odds of every player who cannot see the pile (they
choose among fewer policies). It is an estimate from a sample, not a certificate; what it tells is how low
any upper bound that lets the player see the pile -- or the rest of it after a few draws -- could go.
Shuffles the solver neither won nor refuted within its limit are counted apart (``unknown``).

    python scripts/strato_clairvoyant.py --orders 30 --seconds 10 puzzles/strato/challenge-1.toml:solo-1
"""

from __future__ import annotations

import argparse
import random
import time

from stratagem.models.strato.rules.turns import StratoGame
from stratagem.solvers.match import wilson_interval
from stratagem.solving import as_deal, solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("deals", nargs="+", help="PUZZLE:DEAL, e.g. puzzles/strato/challenge-1.toml:solo-1")
    parser.add_argument("--orders", type=int, default=30, help="shuffles of the pile a deal (default 30)")
    parser.add_argument("--seconds", type=float, default=10.0, help="open-information solve limit a shuffle")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print("| deal | shuffles | won | refuted | unknown | won share [95% Wilson] | optimal turns (min-max) | CPU s |")
    print("|---|---:|---:|---:|---:|---|---|---:|")
    for name in args.deals:
        puzzle, _, deal_name = name.rpartition(":")
        deal = as_deal(puzzle, deal_name)
        rng = random.Random(args.seed)
        won = refuted = unknown = 0
        lengths: list[int] = []
        started = time.process_time()
        for _ in range(args.orders):
            pile = list(deal.start.pile)
            rng.shuffle(pile)
            game = StratoGame(deal.game.challenge, deal.game.options, deal.start._replace(pile="".join(pile)))
            result = solve(game, time_limit=args.seconds).result
            if result.moves:
                won += 1
                lengths.append(len(result.moves))
            elif result.refutation is not None:
                refuted += 1
            else:
                unknown += 1
        low, high = wilson_interval(won, args.orders)
        turns = f"{min(lengths)}-{max(lengths)}" if lengths else "-"
        print(f"| {deal.puzzle.challenge.name} {deal_name} | {args.orders} | {won} | {refuted} | {unknown} | "
              f"{won / args.orders:.3f} [{low:.3f}, {high:.3f}] | {turns} | {time.process_time() - started:.0f} |",
              flush=True)


if __name__ == "__main__":
    main()
