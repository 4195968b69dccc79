"""``stratagem verify``: re-check a line or a proof record with the rules engine alone.

Exit 0 when valid, 1 when invalid (a move the rules forbid, a line that does not end where it claims,
a shorter win found by the re-check), 2 when the file cannot be read (malformed JSON, unknown format,
a move that does not parse).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import click

from stratagem.cli.games import game_from_record, position_from_record
from stratagem.cli.progress import search_progress
from stratagem.core.errors import BadInput
from stratagem.core.io import dumps_record, load_json
from stratagem.core.records import LINE_FORMAT, PROOF_FORMAT, Line, Proof
from stratagem.models.strato.sat import ENCODING, StratoCNF, max_turns
from stratagem.solvers.dimacs import read_bytes_maybe_gz, read_text_maybe_gz, write_dimacs
from stratagem.solvers.drup import check_drup_data, run_drat_trim
from stratagem.solvers.prooftree import PROOFTREE_FORMAT, check_proof_tree
from stratagem.solvers.replay import is_win, no_win_within, replay
from stratagem.solvers.simultaneous import check_matrix_proof

MATRIXPROOF_FORMAT = "stratagem/matrixproof@1"
MATRIXPROOFS_FORMAT = "stratagem/matrixproofs@1"


class Verdict:
    """Collects what was checked and the first reason the record is invalid."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.checked: list[str] = []
        self.notes: list[str] = []
        self.problem = ""

    def invalid(self, place: str, problem: str) -> None:
        if not self.problem:
            self.problem = f"{self.source}: {place}: {problem}"

    @property
    def valid(self) -> bool:
        return not self.problem


def check_line(line: Line, verdict: Verdict, place: str) -> tuple[Any, Any, list[Any]] | None:
    """Replay a line; record problems in ``verdict``; return (game, start, states) when it replays."""
    game, start = game_from_record(line.game, line.setup, line.start, verdict.source)
    result = replay(game, start, line.moves)
    if result.unreadable:
        raise BadInput(verdict.source, f"{place}moves[{result.error_at}]", result.error)
    if not result.ok:
        verdict.invalid(f"{place}moves[{result.error_at}]", result.error)
        return None
    if line.moves:
        verdict.checked.append(f"all {len(line.moves)} moves are legal under the rules engine")
    else:
        verdict.checked.append("the start position reads and fits the setup")
    final = result.final
    if line.result == "won":
        if is_win(game, final):
            verdict.checked.append(f"the line ends in a won position after {len(line.moves)} turns")
        else:
            verdict.invalid(f"{place}result", "the line claims a win but its last position is not won")
    elif line.result and line.result != "won":
        verdict.invalid(f"{place}result", f"unknown result {line.result!r} (expected 'won' or empty)")
    return game, start, list(result.states)


@click.command()
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--recheck", is_flag=True,
              help="Also re-check optimality (or unsolvability) by a plain exhaustive enumeration.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as one JSON object.")
def verify(record: str, recheck: bool, as_json: bool) -> int:
    """Replay a line or proof record through the rules engine; exit 0 valid, 1 invalid, 2 unreadable."""
    data = load_json(record)
    fmt = data.get("format")
    verdict = Verdict(record)
    claim: dict[str, Any] = {}
    if fmt == LINE_FORMAT:
        line = Line.from_json(data, record)
        kind = "line"
        place = ""
    elif fmt == PROOF_FORMAT:
        proof = Proof.from_json(data, record)
        kind = "proof"
        if proof.line is None:
            raise BadInput(record, "line", "a proof record carries the start position as a line")
        line = proof.line
        claim = proof.claim
        place = "line."
    elif fmt in GAME_PROOFS:
        kind = "proof"
        check_game_proof(data, verdict, record)
        return _report(record, kind, verdict, as_json)
    else:
        known = ", ".join((LINE_FORMAT, PROOF_FORMAT, *GAME_PROOFS))
        raise BadInput(record, "format", f"unknown record format {fmt!r} (expected one of {known})")

    replayed = check_line(line, verdict, place)
    if replayed is not None and kind == "proof":
        game, start, _ = replayed
        evidence = proof.evidence
        if proof.game == "stakd":
            check_solo(claim, evidence, line, game, start, verdict, record, recheck)
        elif evidence.get("kind") == "drup-refutation":
            check_refutation(claim, evidence, line, game, start, verdict, record)
        elif evidence.get("kind") == "relaxation-bound":
            check_relaxation_bound(claim, evidence, line, game, start, verdict)
        else:
            check_claim(claim, line, game, start, verdict, recheck, str(evidence.get("kind", "")))

    return _report(record, kind, verdict, as_json)


def _report(record: str, kind: str, verdict: Verdict, as_json: bool) -> int:
    """Print the verdict (human or JSON); the exit code: 0 valid, 1 invalid."""
    if as_json:
        click.echo(dumps_record({
            "format": "stratagem/verdict@1",
            "record": record,
            "kind": kind,
            "valid": verdict.valid,
            "problem": verdict.problem or None,
            "checked": verdict.checked,
            "not_checked": verdict.notes,
        }), nl=False)
    else:
        for item in verdict.checked:
            click.echo(f"checked: {item}")
        for item in verdict.notes:
            click.echo(f"not checked: {item}")
        click.echo(f"{kind} valid" if verdict.valid else f"{kind} INVALID")
    if not verdict.valid:
        click.echo(verdict.problem, err=True)
        return 1
    return 0


def check_refutation(
    claim: dict[str, Any], evidence: dict[str, Any], line: Line, game: Any, start: Any, verdict: Verdict, record: str
) -> None:
    """A DRUP certificate: rebuild the CNF from the rules, then check the refutation against it.

    The CNF is not taken from the record: it is encoded again from the setup and start position with
    the named encoding, so the refutation is checked against what the claim means. The stored CNF
    must be that same formula (it is kept for external checkers such as drat-trim, which also runs
    when it is on PATH).
    """
    if evidence.get("encoding") != ENCODING:
        raise BadInput(record, "evidence.encoding", f"unknown encoding {evidence.get('encoding')!r} "
                       f"(this version checks {ENCODING})")
    horizon = evidence.get("horizon")
    if not isinstance(horizon, int) or horizon < 0:
        raise BadInput(record, "evidence.horizon", "must be a non-negative integer")
    solvable = claim.get("solvable")
    if solvable is True:
        if claim.get("length") != len(line.moves) or line.result != "won":
            verdict.invalid("claim.length", f"says {claim.get('length')} but the line has {len(line.moves)} moves")
        if claim.get("optimal") and horizon != len(line.moves) - 1:
            verdict.invalid("evidence.horizon", f"refutes {horizon} turns; optimality of {len(line.moves)} needs "
                            f"{len(line.moves) - 1}")
    elif solvable is False:
        if horizon < max_turns(start):
            verdict.invalid("evidence.horizon", f"refutes {horizon} turns, but the game can last {max_turns(start)}")
    else:
        verdict.invalid("claim.solvable", "must be true or false")
    names = files_beside(record, evidence)
    cnf = StratoCNF(game, horizon)
    cnf_text = write_dimacs(cnf.clauses, cnf.num_vars, cnf.comments)
    stored = read_text_maybe_gz(names["cnf"])
    if stored != cnf_text:
        verdict.invalid("evidence.cnf", f"{names['cnf'].name} is not the {ENCODING} CNF of {horizon} turns "
                        "for this deal")
        return
    verdict.checked.append(f"the CNF ({cnf.num_vars} variables, {len(cnf.clauses)} clauses) is {ENCODING} "
                           f"for 'a win within {horizon} turns', rebuilt from the rules")
    with search_progress(f"checking {names['proof'].name}", first="step", second="steps in the proof") as checking:
        result, steps = check_drup_data(cnf.clauses, read_bytes_maybe_gz(names["proof"]), str(names["proof"]),
                                        progress=lambda phase, done, total: checking(done, total))
    if not result.valid:
        verdict.invalid("evidence.proof", f"{names['proof'].name}: {result.reason}")
        return
    verdict.checked.append(
        f"the DRUP refutation ({steps} steps, {result.checked_lemmas} lemmas checked) is valid "
        f"(stratagem's checker, {result.checker} engine): no win within {horizon} turns"
    )
    second = _drat_trim(cnf_text, names["proof"])
    if second is None:
        verdict.notes.append("drat-trim is not on PATH: no second opinion")
    elif second == "valid":
        verdict.checked.append("drat-trim agrees: s VERIFIED")
    else:
        verdict.invalid("evidence.proof", f"drat-trim says {second}")


def _check_win_claim(claim: dict[str, Any], line: Line, verdict: Verdict) -> None:
    """A ``solvable: true`` claim: its line ends in a win and is as long as the claim says."""
    if line.result != "won":
        verdict.invalid("claim.solvable", "claims a win but the line does not end in one")
    if claim.get("length") != len(line.moves):
        verdict.invalid("claim.length", f"says {claim.get('length')} but the line has {len(line.moves)} moves")


def check_relaxation_bound(claim: dict[str, Any], evidence: dict[str, Any], line: Line, game: Any, start: Any,
                           verdict: Verdict) -> None:
    """A relaxation certificate: recompute the bound from the rules and the deal, trusting nothing in the record.

    The record only names the relaxation and the bound it claims; both must match what is recomputed
    here. ``optimal`` is accepted only when the recomputed bound equals the replayed line's length, and
    "unsolvable" only when the relaxation reaches no goal at all.
    """
    from stratagem.models.strato.relaxation import RELAXATION, relaxation_bound

    if evidence.get("relaxation") != RELAXATION:
        verdict.invalid("evidence.relaxation", f"names relaxation {evidence.get('relaxation')!r}; this version "
                        f"checks {RELAXATION!r}")
        return
    ends = evidence.get("ends", "tracked")
    if ends not in ("tracked", "unknown"):
        verdict.invalid("evidence.ends", f"must be 'tracked' or 'unknown', not {ends!r}")
        return
    claimed = evidence.get("bound")
    with search_progress("recomputing the relaxation bound", first="row", second="rows") as show:
        show(0, 0)
        # the claimed bound is only where the pruned search starts: what it finds does not depend on it
        hint = claimed if isinstance(claimed, int) and 0 <= claimed <= 100 else 0
        bound = relaxation_bound(game.challenge, game.options, start, track_ends=ends == "tracked", hint=hint)
    if claimed != bound.bound:
        verdict.invalid("evidence.bound", f"claims {claimed!r}, but the relaxation recomputed from the rules gives "
                        f"{bound.bound if bound.bound is not None else 'no goal (null)'}")
        return
    verdict.checked.append(f"the relaxation bound, recomputed from the rules and the deal: {bound.describe()}")
    solvable = claim.get("solvable")
    if solvable is True:
        _check_win_claim(claim, line, verdict)
        if claim.get("optimal"):
            if bound.bound != len(line.moves):
                verdict.invalid("claim.optimal", f"the relaxation bound is {bound.bound} turns but the line has "
                                f"{len(line.moves)}: its optimality is not certified by this bound")
            else:
                verdict.checked.append(f"no win within {len(line.moves) - 1} turns: the bound equals the line's "
                                       "length")
    elif solvable is False:
        if line.moves:
            verdict.invalid("line.moves", "an unsolvability proof carries no moves")
        if bound.bound is not None:
            verdict.invalid("claim.solvable", f"claims no win at all, but the relaxation bound is {bound.bound} "
                            "turns: it does not rule out a win")
        else:
            verdict.checked.append("no win at all: the relaxation reaches no goal")
    else:
        verdict.invalid("claim.solvable", "must be true or false")


def files_beside(record: str, evidence: dict[str, Any]) -> dict[str, Path]:
    """The CNF and proof files a refutation's evidence names, which must sit beside the record."""
    names = {}
    for key in ("cnf", "proof"):
        name = evidence.get(key)
        if not isinstance(name, str) or not name or "/" in name or "\\" in name:
            raise BadInput(record, f"evidence.{key}", "must name a file beside the record")
        names[key] = Path(record).parent / name
    return names


def _drat_trim(cnf_text: str, proof_path: Path) -> str | None:
    if shutil.which("drat-trim") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        cnf_file, proof_file = Path(tmp) / "f.cnf", Path(tmp) / "p.drup"
        cnf_file.write_text(cnf_text, encoding="utf-8")
        proof_file.write_text(read_text_maybe_gz(proof_path), encoding="utf-8")
        return run_drat_trim(cnf_file, proof_file, timeout=600)


def check_claim(
    claim: dict[str, Any], line: Line, game: Any, start: Any, verdict: Verdict, recheck: bool, kind: str = ""
) -> None:
    """Check a proof's claim against its line and, with ``recheck``, by exhaustive enumeration."""
    solvable = claim.get("solvable")
    if solvable is True:
        _check_win_claim(claim, line, verdict)
        if claim.get("optimal"):
            bound = len(line.moves) - 1
            if recheck:
                none_shorter, per_depth = no_win_within(game, start, bound)
                if none_shorter:
                    verdict.checked.append(
                        f"no win within {bound} turns: plain enumeration of {sum(per_depth)} states"
                    )
                else:
                    verdict.invalid("claim.optimal", f"a win exists within {bound} turns: the line is not shortest")
            else:
                basis = {"cpsat-infeasible": "CP-SAT's INFEASIBLE answer"}.get(kind, "an exhaustive search")
                verdict.notes.append(
                    f"optimality rests on {basis} without a certificate; run with --recheck to repeat it"
                )
    elif solvable is False:
        if line.moves:
            verdict.invalid("line.moves", "an unsolvability proof carries no moves")
        if recheck:
            none_at_all, per_depth = no_win_within(game, start, None)
            if none_at_all:
                verdict.checked.append(f"no win anywhere: plain enumeration of all {sum(per_depth)} reachable states")
            else:
                verdict.invalid("claim.solvable", "a winning line exists")
        else:
            verdict.notes.append("unsolvability rests on an exhaustive search; run with --recheck to repeat it")
    else:
        verdict.invalid("claim.solvable", "must be true or false")


#: Proof records of game values: AND/OR proof trees, LP certificates of simultaneous-move nodes.
GAME_PROOFS = (PROOFTREE_FORMAT, MATRIXPROOF_FORMAT, MATRIXPROOFS_FORMAT)


def check_game_proof(data: dict[str, Any], verdict: Verdict, record: str) -> None:
    """Rebuild the game from the record's setup and start, then check the proof with the rules alone."""
    game_name, setup, start = data.get("game"), data.get("setup"), data.get("start")
    if not isinstance(game_name, str):
        raise BadInput(record, "game", "missing or not a string")
    if not isinstance(setup, dict):
        raise BadInput(record, "setup", "missing or not an object (the game's options)")
    if not isinstance(start, str):
        raise BadInput(record, "start", "missing or not a string")
    game, state = position_from_record(game_name, setup, start, record)
    fmt = data["format"]
    if fmt == PROOFTREE_FORMAT:
        result = check_proof_tree(game, state, data)
        if not result.valid:
            verdict.invalid(result.problems[0].place, result.problems[0].problem)
            return
        verdict.checked.append(f"the proof tree ({result.nodes:,} nodes) replays through the rules engine: "
                               f"every reply, chance outcome and terminal checked")
        verdict.checked.append(f"claim certified: {_claim_words(result.claim)}")
        return
    proofs = [data] if fmt == MATRIXPROOF_FORMAT else data.get("proofs")
    if not isinstance(proofs, list) or not proofs:
        raise BadInput(record, "proofs", "must be a non-empty list of stratagem/matrixproof@1 records")
    for i, proof in enumerate(proofs):
        place = "" if fmt == MATRIXPROOF_FORMAT else f"proofs[{i}]: "
        if not isinstance(proof, dict):
            raise BadInput(record, f"proofs[{i}]", "must be an object")
        if proof.get("start") != start:
            verdict.invalid(f"{place}start", "differs from the bundle's start")
            return
        checked = check_matrix_proof(game, state, proof, record)
        if not checked.valid:
            verdict.invalid(f"{place}nodes", checked.reason)
            return
        verdict.checked.append(
            f"{place}player {int(proof['player']) + 1}: {checked.nodes_checked} simultaneous nodes rebuilt from the "
            f"rules and checked exactly ({proof.get('label')}): value {proof.get('value')}")


def _claim_words(claim: str) -> str:
    """``player 0 at least 1`` with players counted from 1, as the rest of the CLI does."""
    words = claim.split(" ", 2)
    if len(words) == 3 and words[0] == "player" and words[1].isdigit():
        return f"player {int(words[1]) + 1} {words[2]}"
    return claim


def check_solo(claim: dict[str, Any], evidence: dict[str, Any], line: Line, game: Any, start: Any,
               verdict: Verdict, record: str, recheck: bool) -> None:
    """A STAKD solo answer: a witness line that places every piece, or a refutation of the question."""
    from stratagem.models.stakd.sat import ENCODING as SOLO_ENCODING
    from stratagem.models.stakd.search import solo_search
    from stratagem.models.stakd.solo import verify_refutation

    winnable = claim.get("winnable")
    if winnable is True:
        if line.result != "won":
            verdict.invalid("claim.winnable", "claims every piece can be placed, but the line does not end in a win")
        return
    if winnable is not False:
        verdict.invalid("claim.winnable", "must be true or false")
        return
    if line.moves:
        verdict.invalid("line.moves", "a proof that the pieces cannot all be placed carries no moves")
        return
    kind = evidence.get("kind")
    if kind == "drup-refutation":
        if evidence.get("encoding") != SOLO_ENCODING:
            raise BadInput(record, "evidence.encoding", f"unknown encoding {evidence.get('encoding')!r} "
                           f"(this version checks {SOLO_ENCODING})")
        symmetry = evidence.get("symmetry", True)
        if not isinstance(symmetry, bool):
            raise BadInput(record, "evidence.symmetry", "must be true or false")
        names = files_beside(record, evidence)
        valid, reason = verify_refutation(game, start, read_text_maybe_gz(names["proof"]), symmetry=symmetry,
                                          cnf_text=read_text_maybe_gz(names["cnf"]))
        if not valid:
            verdict.invalid("evidence.proof", f"{names['proof'].name}: {reason}")
            return
        verdict.checked.append(f"the CNF is {SOLO_ENCODING} for this position, rebuilt from the rules")
        verdict.checked.append("the DRUP refutation is valid (stratagem's checker): the pieces cannot all be placed")
    elif recheck:
        result = solo_search(game, start, node_limit=10_000_000)
        if result.status == "impossible":
            verdict.checked.append(f"exhaustive search of {result.nodes:,} positions: no way to place every piece")
        elif result.status == "solved":
            found = len(result.line or ())
            verdict.invalid("claim.winnable", f"the exhaustive re-check places every piece ({found} placements)")
        else:
            verdict.notes.append("the exhaustive re-check did not finish")
    else:
        basis = "CP-SAT's INFEASIBLE answer" if kind == "cpsat-infeasible" else f"evidence {kind!r}"
        verdict.notes.append(f"rests on {basis} without a certificate; run with --recheck to search exhaustively")
