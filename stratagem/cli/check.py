"""``stratagem check PUZZLE``: is it solvable at all? A witness line, or a certificate that it is not.

- STAKD solo puzzles: "can every piece be placed?" answered by the SAT model (default; an impossible
  puzzle gets a DRUP refutation checked by the project's checker) or the CP-SAT model (an INFEASIBLE
  answer carries no certificate, and says so). A witness is replayed through the rules engine first.
- Strato deals: the solving methods of ``stratagem solve`` (a winning line, or an exhaustive search /
  refutation of every horizon up to the game's length).

Exit 0 when solvable, 1 when not, 2 on bad input; a time limit that stops the solver gives status
``unknown`` and exit 0 with nothing claimed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import click

from stratagem.cli.games import game_of_file, load_position
from stratagem.core.errors import BadInput
from stratagem.core.io import dumps_record, write_atomic
from stratagem.solvers.dimacs import write_text_maybe_gz

CHECK_FORMAT = "stratagem/check@1"


@click.command()
@click.argument("puzzle", type=click.Path(dir_okay=False))
@click.option("--method", type=click.Choice(["auto", "sat", "cpsat"]), default="auto", show_default=True,
              help="STAKD: sat (default; refutations are checked DRUP proofs) or cpsat (no certificate).")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None, metavar="S",
              help="Stop after S seconds with status 'unknown'.")
@click.option("--deal", "deal_key", metavar="NAME|SEED", default=None, help="Strato: which deal (default: the first).")
@click.option("--players", type=click.IntRange(1, 4), default=None, help="Strato: player count for a seeded deal.")
@click.option("--proof", "proof_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the answer as a proof record (stratagem/proof@1) that `stratagem verify` checks.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (stratagem/check@1).")
def check(puzzle: str, method: str, time_limit: float | None, deal_key: str | None, players: int | None,
          proof_path: str | None, as_json: bool) -> int:
    """Is the puzzle solvable? A replayed witness line, or a certificate that no line exists."""
    if proof_path is not None and not Path(proof_path).resolve().parent.is_dir():
        raise BadInput("<argument>", "--proof", f"folder of {proof_path!r} does not exist")
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
    """The solo question for a STAKD puzzle; also what ``stratagem solve`` runs on one."""
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
            raise BadInput("<argument>", "--proof", "the solver was stopped: there is nothing to prove")
        report["proof"] = _write_stakd_proof(proof_path, answer, game, state)
    if as_json:
        click.echo(dumps_record(report), nl=False)
    else:
        _print_stakd(report, answer)
    return 1 if answer.winnable is False else 0


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
    """Strato: solvability is what ``solve`` establishes; exit 1 when no winning line exists."""
    from stratagem.cli.solve import solve_strato
    from stratagem.solvers.search import UNSOLVABLE

    code, status = solve_strato(puzzle, method, deal_key, players, as_json, time_limit, None, proof_path)
    return 1 if status == UNSOLVABLE else code
