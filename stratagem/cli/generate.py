"""``stratagem generate strato``: seeded deals of a challenge whose proven optimal length is at least K.

Designers use it to build challenge cards of a chosen difficulty: every deal written has been solved
by the SAT method, so its ``optimal_length`` comes with a checked refutation of one turn less (the
proof is redone by ``stratagem solve --method sat --proof``). Deals that cannot be decided within the
per-deal time limit are skipped and counted, never written with a guess.

``--json`` prints one ``stratagem/generate@1`` object (docs/formats.md section 10.6) instead of the
notes on stderr: every seed tried with its outcome, the deals kept, and the TOML itself when no ``--out``
is given.
"""

from __future__ import annotations

from typing import Any

import click
import tomli_w

from stratagem.cli.limits import TIME_LIMIT
from stratagem.core.deadline import Deadline
from stratagem.core.io import check_writable, dumps_record, write_atomic
from stratagem.loading import load_strato
from stratagem.models.strato.deal import DealError, seeded_deal
from stratagem.models.strato.rules import StratoGame
from stratagem.models.strato.solve import Solution, solve
from stratagem.solvers.search import SOLVED, UNSOLVABLE

#: The format name of ``generate --json`` (docs/formats.md section 10.6).
GENERATE_FORMAT = "stratagem/generate@1"


def certified_solve(game: StratoGame, time_limit: float) -> Solution:
    """The relaxation bound with its guided line; SAT (checked refutations) in the time left when the bound
    is below the optimum. Either way, an optimum comes with a certificate."""
    deadline = Deadline(time_limit)
    first = solve(game, "relaxed", deadline=deadline, fallback=False)
    if first.status == SOLVED or first.status == UNSOLVABLE or deadline.expired():
        return first
    return solve(game, "sat", deadline=deadline)


@click.command()
@click.argument("game", type=click.Choice(["strato"]))
@click.option("--challenge", "challenge_file", required=True, type=click.Path(dir_okay=False),
              help="A puzzle file whose [challenge] (and [options]) the deals are for.")
@click.option("--count", type=click.IntRange(1, 1000), required=True, help="How many deals to write.")
@click.option("--seed", type=int, default=0, show_default=True, help="First seed tried; then seed+1, ...")
@click.option("--min-length", type=click.IntRange(1, 100), default=1, show_default=True,
              help="Keep deals whose optimal length is at least this.")
@click.option("--players", type=click.IntRange(1, 4), default=None, help="Player count (default: the challenge's).")
@click.option("--tries", type=click.IntRange(1, 100000), default=None,
              help="Seeds to try at most (default: 20 per deal wanted).")
@click.option("--time-limit", type=TIME_LIMIT, default=60.0, show_default=True, metavar="S",
              help="Seconds allowed to decide one deal.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="Write the TOML here (default: print it).")
@click.option("--json", "as_json", is_flag=True,
              help=f"Print one JSON object ({GENERATE_FORMAT}) instead of the notes (and of the TOML without --out).")
def generate(game: str, challenge_file: str, count: int, seed: int, min_length: int, players: int | None,
             tries: int | None, time_limit: float, out_path: str | None, as_json: bool) -> int:
    """Write seeded deals of a challenge with proven optimal length >= --min-length."""
    if out_path is not None:
        check_writable(out_path, "--out")
    puzzle = load_strato(challenge_file)
    challenge = puzzle.challenge
    players = players or challenge.players
    budget = tries if tries is not None else 20 * count
    deals: list[dict[str, Any]] = []
    skipped = {"too short": 0, "unsolvable": 0, "undecided": 0}
    tried: list[dict[str, Any]] = []

    def note(text: str) -> None:
        if not as_json:
            click.echo(text, err=True)

    for candidate in range(seed, seed + budget):
        if len(deals) >= count:
            break
        try:
            start = seeded_deal(challenge, candidate, players)
        except DealError as exc:
            raise click.BadParameter(str(exc), param_hint="--challenge") from None
        outcome = certified_solve(StratoGame(challenge, puzzle.options, start), time_limit)
        length = len(outcome.moves) if outcome.status == SOLVED else None
        if length is not None and length >= min_length:
            deals.append({"name": f"seed-{candidate}", "seed": candidate, "players": players,
                          "optimal_length": length})
            tried.append({"seed": candidate, "outcome": "kept", "optimal_length": length})
            note(f"seed {candidate}: optimal length {length} (kept)")
        else:
            reason = ("too short" if outcome.status == SOLVED else
                      "unsolvable" if outcome.status == UNSOLVABLE else "undecided")
            skipped[reason] += 1
            tried.append({"seed": candidate, "outcome": reason, "optimal_length": length})
            note(f"seed {candidate}: {reason}")
    data: dict[str, Any] = {"game": "strato", "challenge": challenge.to_data(), "options": puzzle.options.to_data(),
                            "deals": deals}
    header = (f"# Generated by `stratagem generate strato --challenge {challenge_file} --count {count} "
              f"--seed {seed} --min-length {min_length} --players {players}`.\n"
              f"# Each optimal_length was proven with a certificate: the relaxation bound, or a DRUP-checked SAT\n"
              f"# refutation of one turn less.\n")
    text = header + tomli_w.dumps(data)
    if out_path is None and not as_json:
        click.echo(text, nl=False)
    elif out_path is not None:
        write_atomic(out_path, text)
    summary = ", ".join(f"{n} {why}" for why, n in skipped.items() if n)
    note(f"{len(deals)} deal(s) written" + (f"; skipped: {summary}" if summary else ""))
    if as_json:
        report = {"format": GENERATE_FORMAT, "game": "strato", "challenge": challenge_file, "count": count,
                  "seed": seed, "min_length": min_length, "players": players, "time_limit": time_limit,
                  "tried": tried, "deals": deals, "skipped": skipped, "out": out_path,
                  "toml": text if out_path is None else None}
        click.echo(dumps_record(report), nl=False)
    return 0 if len(deals) >= count else 1
