"""How ``solve`` and ``check`` report their answers: both commands answer Strato deals and STAKD solo
puzzles the same way, so the report (stderr notes, the proof record, JSON or the human drawing) is
written once, here, and neither command imports the other."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from stratagem.checking import SoloCheck
from stratagem.cli.render import describe_challenge, draw_rows, draw_state
from stratagem.core.outputs import dumps_record, one_set, write_atomic
from stratagem.core.words import plural
from stratagem.models.strato.rules.position import format_state
from stratagem.models.strato.solve import INFORMATION, METHOD_NAMES
from stratagem.solvers.search import SOLVED, UNSOLVABLE
from stratagem.solving import DealSolution


def write_page(path: str, report: dict[str, Any], source: str) -> None:
    """``--html FILE``: the answer as one self-contained page (:mod:`stratagem.views`), the page of the
    command's ``--json`` report: titled with the answer's status as the text output states it (an undecided
    answer as ``unknown``, with the bound proven and what stopped the search; a refutation as such), never
    as a proof record (one is written only by ``--proof``, and only for an answer), its line, if any,
    replayed by the rules engine."""
    from stratagem.views import record_page

    write_atomic(path, record_page(report, source))


def report_deal_solution(solution: DealSolution, as_json: bool, proof_path: str | None,
                         html_path: str | None = None) -> None:
    """A Strato deal's answer: a note when the puzzle file's ``optimal_length`` is contradicted, the proof
    record (only when there is an answer to record), the page (``--html``), then the report on stdout."""
    disagreement = solution.length_disagreement()
    if disagreement:
        click.echo(disagreement, err=True)
    proof_note = ""
    with one_set():  # the record and the page of one answer: both in place, or neither
        if proof_path is not None:
            if solution.write_proof(proof_path):
                proof_note = f"proof record written to {proof_path}"
            else:
                proof_note = ("no proof record written: the start is already won, a line of 0 turns needs none"
                              if solution.result.status == SOLVED else
                              "no proof record written: the search stopped before deciding")
                click.echo(f"{proof_path}: {proof_note}", err=True)
        report = solution.to_json() if html_path is not None or as_json else {}
        if html_path is not None:
            write_page(html_path, report, f"{solution.deal.source}, deal {solution.deal.name}")
    if as_json:
        click.echo(dumps_record(report), nl=False)
    else:
        _print_deal_solution(solution, proof_note)


def _print_deal_solution(solution: DealSolution, proof_note: str) -> None:
    from stratagem.cli.output import stdout

    deal, result = solution.deal, solution.result
    game, spec, challenge = deal.game, deal.spec, deal.challenge
    moves, states = result.moves, solution.states()
    out = stdout()
    out.print(describe_challenge(challenge))
    seed = f"seed {spec.seed}, " if spec.seed is not None else ""
    out.print(f"deal {escape(spec.name)} ({seed}{game.num_players} player(s)); information: {INFORMATION}")
    out.print(f"start  [dim]{format_state(deal.start)}[/]")
    for text in draw_state(deal.start, challenge):
        out.print(text)
    for turn, (move, text) in enumerate(zip(moves, solution.line_text, strict=True), start=1):
        player = states[turn - 1].to_move + 1
        redraw = " (Redraw)" if move.redraw else ""
        out.print(f"turn {turn}  player {player}  [bold]{text}[/]{redraw}")
        for row_text in draw_rows(states[turn], challenge):
            out.print(row_text)
    if result.status == SOLVED:
        out.print(f"[bold green]solved[/] in {plural(len(moves), 'turn')}, optimal: {result.optimality}")
    elif result.status == UNSOLVABLE:
        out.print(f"[bold red]unsolvable[/]: {result.optimality}")
    else:
        if moves:
            found_by = METHOD_NAMES[(result.best_line or {}).get("method", "greedy")]
            out.print(f"best line found: {plural(len(moves), 'turn')} ({found_by}; not known to be shortest)")
        out.print(f"[bold yellow]unknown[/]: {result.optimality}")
    nodes = result.stats.get("nodes")
    effort = (f"{plural(nodes, 'node', grouped=True)} expanded, " if nodes is not None
              else f"{plural(len(result.stats.get('horizons', [])), 'solver call')}, ")
    out.print(f"method {result.method}, {effort}{result.stats['seconds']:.2f} s")
    if proof_note:
        out.print(proof_note)


def report_solo_check(result: SoloCheck, as_json: bool, proof_path: str | None, html_path: str | None = None) -> None:
    """A STAKD solo answer: the proof record (only when there is an answer), the page (``--html``), then the
    report on stdout."""
    report = result.to_json()
    with one_set():  # the page and the record of one answer: both in place, or neither
        if html_path is not None:
            write_page(html_path, report, result.puzzle)
        if proof_path is not None:
            if result.write_proof(proof_path):
                report["proof"] = proof_path
            else:
                click.echo(f"{proof_path}: no proof record written: the time limit stopped the solver before an "
                           "answer", err=True)
    if as_json:
        click.echo(dumps_record(report), nl=False)
    else:
        _print_solo_check(result, report.get("proof"))


def _print_solo_check(result: SoloCheck, proof: str | Path | None) -> None:
    from stratagem.cli.output import stdout

    out = stdout()
    answer = result.answer
    out.print(f"[bold]STAKD solo — {escape(result.position.name)}[/]")
    out.print(f"position  [dim]{result.position.game.format_state(result.position.state)}[/]")
    evidence = answer.evidence
    kind = evidence.get("kind")
    how = evidence.get("method") or "the rules: play is over at the start"
    out.print(f"answer    [bold]{result.status}[/] ({how}, {answer.seconds:.1f} s)")
    if kind == "witness":
        out.print(f"line      {' '.join(result.line)}")
        out.print(f"          {plural(len(result.line), 'placement')}, replayed through the rules engine")
    elif kind == "drup-refutation":
        counts = ", ".join(plural(evidence.get(key), noun, grouped=True) for key, noun in
                           (("variables", "variable"), ("clauses", "clause"), ("proof_lines", "proof line")))
        out.print(f"proof     DRUP refutation of {evidence.get('encoding')} ({counts}), checked: "
                  f"{plural(evidence.get('checked_lemmas'), 'lemma', grouped=True)}")
    elif kind == "cpsat-infeasible":
        out.print(f"note      {evidence.get('note')}; run with --method sat for a checked proof")
    elif kind == "unknown":
        out.print("note      the time limit stopped the solver: nothing is claimed")
    elif evidence.get("note"):
        out.print(f"note      {evidence['note']}")
    if proof:
        out.print(f"record    {proof}; check it with `stratagem verify {proof}`")


__all__ = ["report_deal_solution", "report_solo_check"]
