"""What the compiled guided policy (with plans of the hand) wins on random orders of a solo deal's pile.

The certified lower ends of ``scripts/strato_hidden_exact.py`` are the exact value of this policy with the
states of few pile orders cut (counted as lost unless a play or a plan wins there). How much of the gap to
1 is the cut, and how much the policy's own losses? This plays the policy (``Solver.policy_move``) on
``--games`` seeded shuffles of each solo deal's pile and prints its win rate with a 95% Wilson interval:
an estimate of the policy's value (sampled, not proven), and so of the most its certified lower bound can
ever reach. Deterministic: shuffle ``k`` of deal ``D`` is seeded ``"D:k"``.

``--endgame K`` asks how much of what the policy loses it loses late in the game: at each ``play`` state
whose pile holds at most ``K`` cards it plays the optimum's move instead, by the compiled exact search of
a game that starts there (its Redraw's target too), keeping at most ``--endgame-states`` states (a cap,
not a clock, so that a rerun plays the same moves); a search that does not finish within it leaves the
policy's move. The last columns count those searches, their CPU seconds and the ones that did not finish.

    python scripts/strato_policy_sample.py --games 300 puzzles/strato/challenge-1.toml \
        puzzles/strato/level-2-example.toml
    python scripts/strato_policy_sample.py --games 300 --endgame 7 puzzles/strato/challenge-0.toml
"""

from __future__ import annotations

import argparse
import random
import time

from stratagem.loading import deal_of, load_strato
from stratagem.models.strato.hidden.exact import Solver
from stratagem.models.strato.hidden.game import DRAW, PLAY, REVEAL, TARGET, HiddenState, HiddenStrato
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import ONGOING, WON
from stratagem.solvers.match import wilson_interval


class Endgame:
    """The optimum's moves from the ``play`` states whose pile holds at most ``cards`` cards: each such state
    is solved exactly as the start of a game of its own, whose solver then also gives the target of the
    Redraw it announces."""

    def __init__(self, game: HiddenStrato, cards: int, states: int) -> None:
        self.game, self.cards, self.states = game, cards, states
        self.solver: Solver | None = None  # the last exact search, while its moves are being played
        self.searches = self.unfinished = 0
        self.cpu = 0.0

    def move(self, state: HiddenState) -> Move | None:
        """The optimum's move at ``state``, or None where this does not decide (the policy's move then)."""
        if state.phase == TARGET and self.solver is not None:
            return self.solver.kept_move(state)
        self.solver = None
        if state.phase != PLAY or len(state.pile) > self.cards:
            return None
        started = time.process_time()
        solver = Solver(HiddenStrato(self.game.challenge, self.game.options, state), self.states)
        finished = solver.solve().status == "solved"
        self.searches += 1
        self.unfinished += not finished
        self.cpu += time.process_time() - started
        if not finished:
            return None
        self.solver = solver
        return solver.kept_move(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("puzzles", nargs="+")
    parser.add_argument("--games", type=int, default=300, help="shuffles of each deal's pile")
    parser.add_argument("--deal", action="append", default=[], help="only this solo deal (repeatable; default all)")
    parser.add_argument("--endgame", type=int, default=None, metavar="K",
                        help="play the optimum's move where the pile holds at most K cards")
    parser.add_argument("--endgame-states", type=int, default=10_000_000, metavar="N",
                        help="states each of those exact searches may keep (default 10,000,000)")
    args = parser.parse_args()
    more = " exact searches | their CPU s | unfinished |" if args.endgame is not None else ""
    print(f"| challenge | deal | games | won | win rate [95% CI] | CPU s |{more}")
    print("|---|---|---:|---:|---|---:|" + ("---:|---:|---:|" if more else ""))
    for puzzle in args.puzzles:
        loaded = load_strato(puzzle)
        for spec in loaded.deals:
            if spec.players != 1 or (args.deal and spec.name not in args.deal):
                continue
            deal = deal_of(loaded, spec.name)
            game = HiddenStrato(deal.challenge, deal.game.options, deal.start)
            started = time.process_time()
            first = Solver(game)
            first.guide()
            won = 0
            endgame = Endgame(game, args.endgame, args.endgame_states) if args.endgame is not None else None
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
                    move = endgame.move(state) if endgame is not None else None
                    if move is None:
                        move = solver.policy_move(state)
                    if move is None:
                        break  # the policy gives up: a loss
                    state = game.resolve(state, move)[1]
                won += state.status == WON
            low, high = wilson_interval(won, args.games)
            extra = (f" {endgame.searches} | {endgame.cpu:.1f} | {endgame.unfinished} |" if endgame is not None
                     else "")
            print(f"| {deal.challenge.name} | {spec.name} | {args.games} | {won} | {won / args.games:.3f} "
                  f"[{low:.3f}, {high:.3f}] | {time.process_time() - started:.0f} |{extra}", flush=True)


if __name__ == "__main__":
    main()
