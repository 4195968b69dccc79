"""``stratagem export``: a deal for external solvers.

``--format dimacs`` writes the CNF of "a win within K turns" (encoding ``strato-sat@4``) with a comment
header naming every variable, so a model or a proof from another solver can be read back by hand.
``--format pddl`` writes a planning domain and problem (``--out`` names the problem file, ``DEAL.pddl``;
the domain goes beside it, named after it, ``DEAL-domain.pddl``, so that exporting another deal into
the same folder does not overwrite it) whose optimal plan cost is the deal's optimal length;
``--axiom-free`` writes the variant without derived predicates or conditional effects (for planners
such as Fast Downward's lmcut that support neither), whose domain belongs to that one deal.

``--time-limit`` bounds the whole command: the largest formula the horizon cap allows takes half a
minute and some 4 GB; stopped, it writes nothing and exits 3.
"""

from __future__ import annotations

from pathlib import Path

import click

from stratagem.cli.exitcodes import UNDETERMINED
from stratagem.cli.limits import TIME_LIMIT, WholeRange
from stratagem.cli.options import json_option, note, quiet_option
from stratagem.core.deadline import Deadline, command_deadline
from stratagem.core.errors import BadInput
from stratagem.core.outputs import check_outputs, dumps_record, write_atomic, write_atomic_files
from stratagem.loading import load_strato
from stratagem.models.strato.encodings.pddl import domain, problem
from stratagem.models.strato.encodings.sat import ENCODING, EncodingStopped, StratoCNF, max_turns
from stratagem.models.strato.rules.cards import COPIES_PER_WEATHER, WEATHERS
from stratagem.solvers.dimacs import DimacsStopped, write_dimacs


def variable_legend(cnf: StratoCNF) -> list[str]:
    """One comment line per named variable: ``v 17 S t=0 h=1 j=2 w=R`` (auxiliary counters unnamed)."""
    lines = []
    for key, number in sorted(cnf.pool.obj2id.items(), key=lambda item: item[1]):
        if isinstance(key, tuple) and key and isinstance(key[0], str):
            lines.append(f"v {number} " + " ".join(str(part) for part in key))
    return lines


#: The format name of ``export --json`` (docs/formats.md section 10.10).
EXPORT_FORMAT = "stratagem/export@1"

#: The largest ``--horizon`` before a deal is read: every turn uses a card, and the box holds 54. A deal's
#: own bound (:func:`max_turns`, its hands and pile) is checked once it is loaded. The former cap, 200,
#: let a three-row deal's formula grow to some 20 GB of memory for a question the deal's last turn
#: already answers.
MAX_HORIZON = COPIES_PER_WEATHER * len(WEATHERS)


def domain_file(problem_path: str) -> Path:
    """Where the PDDL domain of the problem file ``problem_path`` goes: beside it, named after it
    (``deals/solo-1.pddl`` -> ``deals/solo-1-domain.pddl``)."""
    path = Path(problem_path)
    return path.with_name(f"{path.stem}-domain{path.suffix or '.pddl'}")


def _stopped(deadline: Deadline, horizon: int, stopped: Exception, quiet: bool) -> int:
    """Say that the limit stopped the formula (how far it got) and give the exit code: nothing is written."""
    got = (f"after {stopped.turns} of its {horizon} turns" if isinstance(stopped, EncodingStopped)
           else "while writing its text")
    note(f"unknown: export stopped by --time-limit {deadline.seconds:g} s {got}; nothing written", quiet)
    return UNDETERMINED


@click.command()
@click.argument("puzzle", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["dimacs", "pddl"]), default="dimacs", show_default=True)
@click.option("--horizon", type=WholeRange(0, MAX_HORIZON), default=None, metavar="K",
              help="dimacs: the formula says a win within K turns (required; at most the turns the deal can "
                   "last, the cards in its hands and pile; refused with pddl, whose plans have no horizon).")
@click.option("--deal", "deal_key", metavar="NAME|SEED", default=None, help="A deal of the file, or a seed.")
@click.option("--players", type=WholeRange(1, 4), default=None, help="Player count for a seeded deal.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="File to write (default: stdout).")
@click.option("--axiom-free", is_flag=True,
              help="pddl: no derived predicates or conditional effects (check actions instead), for planners "
                   "such as Fast Downward's lmcut; the domain is then specific to the deal.")
@click.option("--time-limit", type=TIME_LIMIT, default=None, metavar="S",
              help="Seconds for the whole command; stopped, nothing is written and the exit code is 3.")
@quiet_option("No note on stderr naming the files written.")
@json_option(f"Print one JSON object ({EXPORT_FORMAT}: the files written, or the DIMACS text without --out) "
             "instead of the note.")
def export(
    puzzle: str, fmt: str, horizon: int | None, deal_key: str | None, players: int | None, out_path: str | None,
    axiom_free: bool, time_limit: float | None, quiet: bool, as_json: bool,
) -> int:
    """Write a deal as DIMACS (a horizon's CNF with a variable legend) or PDDL (domain and problem)."""
    if fmt == "pddl" and horizon is not None:
        raise click.BadParameter("PDDL has no horizon (a plan is as long as it needs); --horizon is for dimacs",
                                 param_hint="--horizon")
    if out_path is not None:
        beside = str(domain_file(out_path)) if fmt == "pddl" else None
        check_outputs([(out_path, "--out"), (beside, "--out (its domain file)")], [puzzle])
    loaded = load_strato(puzzle)
    spec = loaded.find_deal(deal_key, players)
    game = loaded.game(spec)
    if fmt == "pddl":
        if out_path is None:
            raise click.BadParameter("PDDL is two files: give the problem file, the domain goes beside it",
                                     param_hint="--out")
        domain_path = domain_file(out_path)
        # both texts first: a failure while making the problem left a new domain beside an old problem
        domain_text, problem_text = domain(game, axiom_free=axiom_free), problem(game, name=spec.name,
                                                                                  axiom_free=axiom_free)
        # one set: a full disk at the problem left a new domain beside the old problem
        write_atomic_files([(domain_path, domain_text), (out_path, problem_text)])
        if as_json:
            click.echo(dumps_record({"format": EXPORT_FORMAT, "puzzle": puzzle, "deal": spec.name, "as": "pddl",
                                     "axiom_free": axiom_free, "written": [str(domain_path), out_path]}), nl=False)
        else:
            note(f"wrote {domain_path} and {out_path}", quiet)
        return 0
    if axiom_free:
        raise click.BadParameter("only PDDL has an axiom-free variant", param_hint="--axiom-free")
    if horizon is None:
        raise click.BadParameter("DIMACS needs the horizon K", param_hint="--horizon")
    longest = max_turns(game.initial_state())
    if horizon > longest:
        raise BadInput(puzzle, "--horizon", f"deal {spec.name} lasts at most {longest} turns (every turn uses a "
                       f"card of the hands or the pile): a win within {horizon} turns is a win within {longest}; "
                       f"give --horizon {longest} or less")
    deadline = command_deadline(time_limit)  # the command's: reading the puzzle counts too
    try:
        cnf = StratoCNF(game, horizon, stop=deadline)
        if deadline():
            raise DimacsStopped("stopped before the variable legend")
        comments = [*cnf.comments, f"puzzle {puzzle}, deal {spec.name}, encoding {ENCODING}",
                    *variable_legend(cnf)]
        text = write_dimacs(cnf.clauses, cnf.num_vars, comments, stop=deadline)
    except (EncodingStopped, DimacsStopped) as stopped:
        return _stopped(deadline, horizon, stopped, quiet)
    if out_path is not None:
        write_atomic(out_path, text)
    if as_json:
        click.echo(dumps_record({"format": EXPORT_FORMAT, "puzzle": puzzle, "deal": spec.name, "as": "dimacs",
                                 "encoding": ENCODING, "horizon": horizon, "variables": cnf.num_vars,
                                 "clauses": len(cnf.clauses), "written": [] if out_path is None else [out_path],
                                 "dimacs": text if out_path is None else None}), nl=False)
    elif out_path is None:
        click.echo(text, nl=False)
    else:
        note(f"wrote {out_path}: {cnf.num_vars} variables, {len(cnf.clauses)} clauses", quiet)
    return 0
