"""The designer's numbers side by side: open-information answers, the exact solo win probability with the
pile hidden, and how often agents that see only their own hand win (results/strato-hidden.md).

    python scripts/strato_hidden.py --out results/strato-hidden.md

For each shipped deal of challenges 0 and 1: whether the open-information game is solvable and its
optimum (``stratagem solve``, every card known), and for the solo deals the optimal win probability when
the pile's order is hidden, by the compiled search within the limit (``stratagem odds --table``: exact, or
a proven interval), its value table written to a temporary folder and checked by ``stratagem verify``
with the rules alone. Then agent win rates with 95% Wilson intervals on seeded deals, the same deals for
every agent (``stratagem play strato``), for 1, 2 and 4 players. Seeded: the same command gives the same
table (the seconds, and where a limit stops a search, aside).

The script writes the top of ``--out``, up to the line :data:`END`, and keeps what follows it (the
hand-kept sections of results/strato-hidden.md); a file without that line is refused rather than
overwritten.

    python scripts/strato_hidden.py --compare "pimc:samples=4:nodes=300;cpimc:samples=16:nodes=2000" \
        --games 8 --players 2 --seed 1000 --out agents.md

plays only the team agents side by side (issue 29): the same seeded deals for every agent, win rates with
95% Wilson intervals and the CPU each spent per turn, to compare agents at (about) equal CPU per decision.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from stratagem.bench.tables import machine  # noqa: E402
from stratagem.loading import StratoDeal, deal_of, load_strato  # noqa: E402
from stratagem.solving import solve  # noqa: E402
from stratagem.teamplay import play_strato  # noqa: E402
from stratagem.verification import verify  # noqa: E402
from stratagem.winprobability import odds_bounds  # noqa: E402

PUZZLES = ("challenge-0", "challenge-1")
#: The line that ends the script's part of ``--out``; what follows it is kept.
END = "<!-- end of the part scripts/strato_hidden.py writes; what follows is kept as it is -->"


def solo_text(deal: StratoDeal, limit: float, tables: Path) -> tuple[str, str, str, str]:
    """The compiled search's answer for a solo ``deal`` within ``limit`` seconds, its value table checked by
    ``verify``: (the answer, the verdict, the states kept, the search's CPU seconds)."""
    path = tables / f"{deal.name}.tbl.gz"
    bounds = odds_bounds(deal, path, time_limit=limit)
    low, high = bounds.lower, bounds.upper
    answer = (f"exactly {low}" if low == high else f"[{float(low):.4f}, {float(high):.4f}]")
    if bounds.table is None:
        verdict = f"not certified: {bounds.table_note}"
    else:
        outcome = verify(path)
        verdict = ", ".join(f"{c.claim} {c.status}" for c in outcome.claims) or outcome.status
    return answer, verdict, f"{bounds.states:,}", f"{bounds.cpu_seconds:.1f}"


def kept_part(out: Path | None) -> str:
    """What follows :data:`END` in ``out`` (nothing for a new file); a file without it is refused."""
    if out is None or not out.exists():
        return ""
    text = out.read_text(encoding="utf-8")
    if END not in text:
        raise SystemExit(f"{out}: no line {END!r}: refusing to overwrite a file this script did not write")
    return text[text.index(END) + len(END):]


def shipped_deals(args: argparse.Namespace, tables: Path) -> list[str]:
    """The table's rows: every shipped deal's open answer, and each solo deal's odds checked by ``verify``."""
    lines: list[str] = []
    for name in PUZZLES:
        puzzle = load_strato(ROOT / "puzzles" / "strato" / f"{name}.toml")
        for spec in puzzle.deals:
            deal = deal_of(puzzle, spec.name)
            solution = solve(deal, time_limit=args.solve_limit)
            result = solution.result
            open_text = (f"yes, {len(result.moves)} turns" if result.status == "solved" else
                         "no (proven)" if result.status == "unsolvable" else
                         f"unknown (>= {result.lower_bound})")
            if deal.game.num_players == 1:
                limit = args.odds_limit if name == "challenge-0" else args.odds_limit_1
                answer, verdict, states, cpu = solo_text(deal, limit, tables)
                lines.append(f"| {puzzle.challenge.name} | {spec.name} | 1 | {open_text} | {answer} | {verdict} | "
                             f"{states} | {cpu} |")
            else:
                lines.append(f"| {puzzle.challenge.name} | {spec.name} | {deal.game.num_players} | {open_text} | "
                             "(solo only) | | | |")
            print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--odds-limit", type=float, default=60.0, help="seconds for each solo deal's odds")
    parser.add_argument("--odds-limit-1", type=float, default=120.0, help="the same for challenge 1")
    parser.add_argument("--solve-limit", type=float, default=60.0)
    parser.add_argument("--games", type=int, default=20, help="games per agent and player count, challenge 0")
    parser.add_argument("--games-1", type=int, default=6, help="games per agent and player count, challenge 1")
    parser.add_argument("--players", default="1,2,4")
    parser.add_argument("--compare", default=None, metavar="AGENTS",
                        help="only the equal-CPU comparison of these agents (';'-separated specs) on --compare-puzzle")
    parser.add_argument("--compare-puzzle", default="challenge-1")
    parser.add_argument("--seed", type=int, default=0, help="first deal of the comparison")
    args = parser.parse_args()
    if args.compare:
        compare(args)
        return
    players = [int(p) for p in args.players.split(",")]
    kept = kept_part(args.out)
    lines = ["# Strato as players meet it: open information, the exact solo odds, and agents", "",
             f"Made by `python scripts/strato_hidden.py --odds-limit {args.odds_limit:g} --odds-limit-1 "
             f"{args.odds_limit_1:g} --solve-limit "
             f"{args.solve_limit:g} --games {args.games} --games-1 {args.games_1} --players {args.players}"
             f"{' --out ' + str(args.out) if args.out else ''}` on {machine()}; it took TOOK.", "",
             "*Open*: every hand and the pile's order known (`stratagem solve`). *Solo, pile hidden*: the optimal "
             "win probability of a player who sees the table, the hand and which cards are left but not their "
             f"order, by the compiled search within {args.odds_limit:g} s (challenge 0) or {args.odds_limit_1:g} s "
             "(challenge 1) of wall clock (`stratagem odds --table`): exact where it finishes, else an interval, "
             "its lower end a policy's exact value and its upper end the optimum's bound. Its value table is then "
             "checked by `stratagem verify` with the rules alone (the verdict column). The agents see only what a "
             "player sees; every agent plays the same seeded deals, the draws in each deal's real order "
             "(`stratagem play strato`).", "",
             "The best certified answers for the solo deals, ten minutes of search a deal, are in \"The answer "
             "today\" further below, with the history of the runs that made them.", ""]
    started = time.perf_counter()
    lines += ["## Shipped deals", "",
              "| challenge | deal | players | open: solvable, optimum | solo win probability, pile hidden | "
              "verify | states kept | search CPU s |",
              "|---|---|---:|---|---|---|---:|---:|"]
    with tempfile.TemporaryDirectory(prefix="strato-hidden-") as folder:
        lines += shipped_deals(args, Path(folder))
    lines += ["", "## Agents on seeded deals", "",
              "Win rate with a 95% Wilson interval; mean turns over the games won. `guided`: the move nearest a "
              "goal by the table-only relaxation; `pimc`: 8 samples, each solved by A* stopped after 1,000 "
              "expansions (challenge 1: 4 samples, 300 expansions); `ismcts`: 200 iterations, random playouts. "
              "Stronger agents at equal CPU are compared further below.", "",
              "| challenge | agent | players | games | wins | win rate [95% CI] | mean turns to win | CPU s |",
              "|---|---|---:|---:|---:|---|---:|---:|"]
    for name, games in (("challenge-0", args.games), ("challenge-1", args.games_1)):
        agents = (["greedy", "guided", "pimc", "ismcts:iterations=200"] if name == "challenge-0" else
                  ["greedy", "guided", "pimc:samples=4:nodes=300", "ismcts:iterations=200"])
        match = play_strato(ROOT / "puzzles" / "strato" / f"{name}.toml", agents, players, games, seed=0)
        for row in match.rows:
            low, high = row.win_rate_ci95
            turns = "-" if row.mean_turns is None else f"{row.mean_turns:.1f}"
            lines.append(f"| {match.challenge} | {row.agent} | {row.players} | {len(row.games)} | {row.wins} | "
                         f"{row.win_rate:.2f} [{low:.2f}, {high:.2f}] | {turns} | {row.seconds:.0f} |")
            print(lines[-1], flush=True)
    took = f"{(time.perf_counter() - started) / 60:.0f} min"
    text = "\n".join([*lines, "", END]).replace("TOOK", took)
    if args.out:
        args.out.write_text(text + (kept or "\n"), encoding="utf-8", newline="\n")
    print(text)


def compare(args: argparse.Namespace) -> None:
    """The team agents side by side at (about) equal CPU per turn: the same seeded deals for every agent,
    win rates with 95% Wilson intervals, and the CPU each agent spent per turn (measured, the budgets being
    counts so that the games are reproducible)."""
    agents = [spec.strip() for spec in args.compare.split(";") if spec.strip()]
    players = [int(p) for p in args.players.split(",")]
    started = time.perf_counter()
    lines = [f"Made by `python scripts/strato_hidden.py --compare \"{args.compare}\" --compare-puzzle "
             f"{args.compare_puzzle} --games {args.games} --players {args.players} --seed {args.seed}` on "
             f"{machine()}; it took TOOK.", "",
             "| challenge | agent | players | games | wins | win rate [95% CI] | mean turns to win | CPU s | "
             "CPU s per turn |", "|---|---|---:|---:|---:|---|---:|---:|---:|"]
    print("\n".join(lines), flush=True)
    for count in players:
        for spec in agents:
            match = play_strato(ROOT / "puzzles" / "strato" / f"{args.compare_puzzle}.toml", [spec], [count],
                                args.games, seed=args.seed)
            for row in match.rows:
                low, high = row.win_rate_ci95
                turns = "-" if row.mean_turns is None else f"{row.mean_turns:.1f}"
                played = sum(g.turns for g in row.games)
                lines.append(f"| {match.challenge} | {row.agent} | {row.players} | {len(row.games)} | {row.wins} | "
                             f"{row.win_rate:.2f} [{low:.2f}, {high:.2f}] | {turns} | {row.seconds:.0f} | "
                             f"{row.seconds / max(played, 1):.2f} |")
                print(lines[-1], flush=True)
    took = f"{(time.perf_counter() - started) / 60:.0f} min"
    text = "\n".join(lines).replace("TOOK", took) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8", newline="\n")


if __name__ == "__main__":
    main()
