"""``stratagem check PUZZLE``: is it solvable at all? A witness line, or a certificate that it is not.

- STAKD solo puzzles: "can every piece be placed?" answered by the SAT model (default; an impossible
  puzzle gets a DRUP refutation checked by the project's checker) or the CP-SAT model (an INFEASIBLE
  answer carries no certificate, and says so). A witness is replayed through the rules engine first.
- Strato deals: the solving methods of ``stratagem solve`` (a winning line, or an exhaustive search /
  refutation of every horizon up to the game's length).

Exit codes (:mod:`stratagem.cli.exitcodes`): 0 when solvable (a witness), 1 when a check established
that no line exists, 2 on bad input, 3 when the time limit stopped the solver first: status ``unknown``,
nothing claimed either way. ``--time-limit`` is the limit of the whole command (one deadline for the
solver and the checking of its proof).

``--proof FILE`` with a stopped solver: there is no answer to record, so **nothing is written** (no
record, no CNF or DRUP file) and one line on stderr says so; the report on stdout (status ``unknown``)
is printed as usual and the exit code is 3. A record is only ever the record of an answer, so that a
file named by ``--proof`` that exists is always one ``verify`` can check. (Before, this case was refused
as bad input, exit 2, and the report thrown away.)
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import click

from stratagem.cli.exitcodes import DONE, NO, UNDETERMINED
from stratagem.cli.games import game_of_file, load_position
from stratagem.cli.limits import TIME_LIMIT
from stratagem.core.errors import BadInput
from stratagem.core.io import check_writable, dumps_record, write_atomic
from stratagem.solvers.dimacs import write_text_maybe_gz

CHECK_FORMAT = "stratagem/check@1"


@click.command()
@click.argument("puzzle", type=click.Path(dir_okay=False))
@click.option("--method", type=click.Choice(["auto", "sat", "cpsat"]), default="auto", show_default=True,
              help="STAKD: sat (default; refutations are checked DRUP proofs) or cpsat (no certificate).")
@click.option("--time-limit", type=TIME_LIMIT, default=None, metavar="S",
              help="Stop after S seconds (the whole command) with status 'unknown' and exit 3.")
@click.option("--deal", "deal_key", metavar="NAME|SEED", default=None, help="Strato: which deal (default: the first).")
@click.option("--players", type=click.IntRange(1, 4), default=None, help="Strato: player count for a seeded deal.")
@click.option("--proof", "proof_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the answer as a proof record (stratagem/proof@1) that `stratagem verify` checks.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (stratagem/check@1).")
def check(puzzle: str, method: str, time_limit: float | None, deal_key: str | None, players: int | None,
          proof_path: str | None, as_json: bool) -> int:
    """Is the puzzle solvable? A replayed witness line, or a certificate that no line exists.

    Exit 0 solvable, 1 not solvable (established), 2 bad input, 3 unknown (the time limit stopped it;
    with --proof nothing is written).
    """
    if proof_path is not None:
        check_writable(proof_path, "--proof")
    game_name = game_of_file(puzzle)
    if game_name == "strato":
        return _check_strato(puzzle, method, time_limit, deal_key, players, proof_path, as_json)
    if game_name != "stakd":
        raise BadInput(puzzle, "game", f"check answers puzzles (Strato deals, STAKD solo); for a {game_name} "
                       "position use `stratagem analyze`")
    if deal_key is not None or players is not None:
        raise BadInput("<argument>", "--deal", "--deal and --players are for Strato puzzles")
    return check_stakd(puzzle, "sat" if method == "auto" else method, time_limit, proof_path, as_json)


def check_stakd(puzzle: str, method: str, time_limit: float | None, proof_path: str | None, as_json: bool) -> int:
    """The solo question for a STAKD puzzle; also what ``stratagem solve`` runs on one. Returns the exit
    code: 0 winnable, 1 not winnable, 3 stopped by the time limit (no proof record written then)."""
    from stratagem.models.stakd.solo import solve_solo

    loaded = load_position(puzzle, ("stakd",))
    game, state = loaded.game, loaded.state
    if game.num_players != 1:
        raise BadInput(puzzle, "position", f"a {game.num_players}-player position is not a solo puzzle; "
                       "use `stratagem analyze`")
    answer = solve_solo(game, state, method=method, time_limit=time_limit)
    status = {True: "winnable", False: "not winnable", None: "unknown"}[answer.winnable]
    report: dict[str, Any] = {
        "format": CHECK_FORMAT,
        "game": "stakd",
        "puzzle": puzzle,
        "name": loaded.name,
        "start": game.format_state(state),
        "status": status,
        "claim": answer.claim() if answer.winnable is not None else {},
        "line": list(answer.moves or ()),
        "evidence": {k: v for k, v in answer.evidence.items() if not k.endswith("seconds")},
    }
    if proof_path is not None:
        if answer.winnable is None:
            click.echo(f"{proof_path}: no proof record written: the time limit stopped the solver before an "
                       "answer", err=True)
        else:
            report["proof"] = _write_stakd_proof(proof_path, answer, game, state)
    if as_json:
        click.echo(dumps_record(report), nl=False)
    else:
        _print_stakd(report, answer)
    return {True: DONE, False: NO, None: UNDETERMINED}[answer.winnable]


def _write_stakd_proof(path: str, answer: Any, game: Any, state: Any) -> str:
    record = answer.to_proof(game, state)
    evidence = dict(record.evidence)
    for key in [k for k in evidence if k.endswith("seconds")]:
        del evidence[key]
    if answer.cnf is not None and answer.proof is not None:
        stem = Path(path).name.removesuffix(".json")
        folder = Path(path).parent
        cnf_name, proof_name = f"{stem}.cnf.gz", f"{stem}.drup.gz"
        proof_text = "".join(step + "\n" for step in answer.proof)
        write_text_maybe_gz(folder / cnf_name, answer.cnf)
        write_text_maybe_gz(folder / proof_name, proof_text)
        evidence.update(cnf=cnf_name, proof=proof_name,
                        cnf_sha256=hashlib.sha256(answer.cnf.encode()).hexdigest(),
                        proof_sha256=hashlib.sha256(proof_text.encode()).hexdigest())
    data = record.to_json()
    data["evidence"] = evidence
    write_atomic(path, dumps_record(data))
    return path


def _print_stakd(report: dict[str, Any], answer: Any) -> None:
    from stratagem.cli.main import stdout

    out = stdout()
    out.print(f"[bold]STAKD solo — {report['name']}[/]")
    out.print(f"position  [dim]{report['start']}[/]")
    evidence = answer.evidence
    kind = evidence.get("kind")
    out.print(f"answer    [bold]{report['status']}[/] ({evidence.get('method', '')}, {answer.seconds:.1f} s)")
    if kind == "witness":
        out.print(f"line      {' '.join(report['line'])}")
        out.print(f"          {len(report['line'])} placements, replayed through the rules engine")
    elif kind == "drup-refutation":
        out.print(f"proof     DRUP refutation of {evidence.get('encoding')} ({evidence.get('variables'):,} variables, "
                  f"{evidence.get('clauses'):,} clauses, {evidence.get('proof_lines'):,} proof lines), checked: "
                  f"{evidence.get('checked_lemmas'):,} lemmas")
    elif kind == "cpsat-infeasible":
        out.print(f"note      {evidence.get('note')}; run with --method sat for a checked proof")
    elif kind == "unknown":
        out.print("note      the time limit stopped the solver: nothing is claimed")
    elif evidence.get("note"):
        out.print(f"note      {evidence['note']}")
    if report.get("proof"):
        out.print(f"record    {report['proof']}; check it with `stratagem verify {report['proof']}`")


def _check_strato(puzzle: str, method: str, time_limit: float | None, deal_key: str | None,
                  players: int | None, proof_path: str | None, as_json: bool) -> int:
    """Strato: solvability is what ``solve`` establishes, with its exit codes: 0 a line (solvable, even if
    not proven shortest), 1 no winning line exists, 3 undecided."""
    from stratagem.cli.solve import solve_strato
    from stratagem.solvers.search import UNSOLVABLE

    code, status, solvable = solve_strato(puzzle, method, deal_key, players, as_json, time_limit, None, proof_path)
    if status == UNSOLVABLE:
        return NO
    # check asks "is there a line?": a line found is the answer, even when solve cannot call it shortest.
    return DONE if solvable else code
