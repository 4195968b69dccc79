"""``stratagem export``: a deal's horizon formula for external solvers.

``--format dimacs`` writes the CNF of "a win within K turns" (encoding ``strato-sat@1``) with a comment
header naming every variable, so a model or a proof from another solver can be read back by hand.
"""

from __future__ import annotations

import click

from stratagem.cli.games import load_strato
from stratagem.core.io import write_atomic
from stratagem.models.strato.sat import ENCODING, StratoCNF
from stratagem.solvers.dimacs import write_dimacs


def variable_legend(cnf: StratoCNF) -> list[str]:
    """One comment line per named variable: ``v 17 S t=0 h=1 j=2 w=R`` (auxiliary counters unnamed)."""
    lines = []
    for key, number in sorted(cnf.pool.obj2id.items(), key=lambda item: item[1]):
        if isinstance(key, tuple) and key and isinstance(key[0], str):
            lines.append(f"v {number} " + " ".join(str(part) for part in key))
    return lines


@click.command()
@click.argument("puzzle", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["dimacs"]), default="dimacs", show_default=True)
@click.option("--horizon", type=click.IntRange(0, 200), required=True, metavar="K",
              help="The formula says: a win within K turns.")
@click.option("--deal", "deal_key", metavar="NAME|SEED", default=None, help="A deal of the file, or a seed.")
@click.option("--players", type=click.IntRange(1, 4), default=None, help="Player count for a seeded deal.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="File to write (default: stdout).")
def export(puzzle: str, fmt: str, horizon: int, deal_key: str | None, players: int | None, out_path: str | None) -> int:
    """Write a deal's bounded-horizon formula (DIMACS CNF with a variable legend)."""
    loaded = load_strato(puzzle)
    spec = loaded.find_deal(deal_key, players)
    cnf = StratoCNF(loaded.game(spec), horizon)
    comments = [*cnf.comments, f"puzzle {puzzle}, deal {spec.name}, encoding {ENCODING}", *variable_legend(cnf)]
    text = write_dimacs(cnf.clauses, cnf.num_vars, comments)
    if out_path is None:
        click.echo(text, nl=False)
    else:
        write_atomic(out_path, text)
        click.echo(f"wrote {out_path}: {cnf.num_vars} variables, {len(cnf.clauses)} clauses", err=True)
    return 0
