"""Any record the project writes, as one page: which kind it is, the line it holds replayed through the
rules engine, and what it claims, said for what it is.

Every position shown is the rules engine's: a line is rebuilt by replaying its moves from the record's
start with the game the record's setup describes (a ``solve``/``check`` report without a setup is rebuilt
from the puzzle file it names, and its start must match). A move that does not replay is bad input,
unless the caller's :func:`stratagem.verification.verify` report already found the record invalid: the
page then says where the replay breaks and why. The record's claims are listed as *the record claims*;
what the page itself established (the moves are legal, how the line ends, named from every player's
return) is said separately, and when the caller ran verify its report is shown claim by claim. A title
says no more than the record claims and the checks made (``shortest`` only when verify certified it),
and a ``solve``/``check`` report's title is its answer as the command's text output states it
(``unknown`` with the bound proven and what stopped the search).
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any, NamedTuple

from rich.text import Text

from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput, IllegalMove, NotationError
from stratagem.core.records import LINE_FORMAT, POLICY_FORMAT, PROOF_FORMAT, Line, Proof, quoted
from stratagem.core.words import plural
from stratagem.loading import game_from_record, game_module, load, position_from_record
from stratagem.solvers.replay import replay
from stratagem.verification.oddstable import FORMATS as TABLE_FORMATS
from stratagem.verification.reach import report_deal as _report_deal
from stratagem.verification.verdict import STATUS_WORDS, Verdict
from stratagem.views import cardclash, stakd
from stratagem.views.matrices import bound_parts_html, fraction, matrices_html, mix_table
from stratagem.views.page import document, esc, replay_frame
from stratagem.views.policy import BOUNDS, ODDS, odds_report_html, odds_start, policy_html, table_html
from stratagem.views.prooftree import tree_html
from stratagem.views.reach import REACH_FORMATS, reach_page
from stratagem.views.strato import describe_challenge, strato_replay

GAME_TITLES = {"strato": "Strato", "stakd": "STAKD Elite", "stratatak": "Stratatak", "stackattack": "Stack Attack",
               "cardclash": "Stratego Card Clash"}
PROOFTREE, MATRIXPROOF, MATRIXPROOFS = "stratagem/prooftree@1", "stratagem/matrixproof@1", "stratagem/matrixproofs@1"
BOUNDPROOF = "stratagem/matrixproof@2"
SOLVE, CHECK, ANALYSIS = "stratagem/solve@1", "stratagem/check@1", "stratagem/analysis@1"
VIEWABLE = (LINE_FORMAT, PROOF_FORMAT, SOLVE, CHECK, ANALYSIS, PROOFTREE, BOUNDPROOF, MATRIXPROOF, MATRIXPROOFS,
            POLICY_FORMAT, ODDS, BOUNDS, *REACH_FORMATS, *TABLE_FORMATS)
#: Commands' reports (pages of an answer, not records ``stratagem verify`` checks), each with the record
#: that is checked instead.
REPORTS = {SOLVE: "view the --proof record the command writes", CHECK: "view the --proof record the command writes",
           ANALYSIS: "view the --proof record the command writes",
           ODDS: "view the --proof policy record odds writes", BOUNDS: "view the --table value table odds writes"}
#: A game's word for one step of a line (one, several); any other game's step is a ply.
STEPS = {"strato": ("turn", "turns"), "stakd": ("placement", "placements")}


def steps(game_name: str, count: int) -> str:
    """``count`` steps of a line in the game's word: ``7 turns``, ``1 placement``, ``6 plies``."""
    one, many = STEPS.get(game_name, ("ply", "plies"))
    return f"{count} {one if count == 1 else many}"


def ending(game: Any, state: Any) -> tuple[str, str, str]:
    """How play stands at ``state``: how a line ending there ends, in words; the same for a position's
    caption; and its tone (``ok`` a win, ``bad`` a loss -- of a puzzle's player or all of a cooperative
    game's --, else ``""``). The outcome is read from the rules engine's returns for every player, so that
    a first player's loss is named as the other's win rather than as "no win", and a game an analysis
    horizon stopped (Stratatak's battle limit) is not taken for a draw."""
    if not game.is_terminal(state):
        return "does not end the game", "", ""
    stopped = getattr(game, "stopped_undecided", None)
    if callable(stopped) and stopped(state):
        return ("is stopped undecided by the battle limit (an analysis horizon, not a draw)",
                "stopped undecided by the battle limit", "")
    returns = [float(r) for r in game.returns(state)]
    scores = "" if set(returns) <= {-1.0, 0.0, 1.0} else f" (returns {', '.join(f'{r:g}' for r in returns)})"
    if len(set(returns)) == 1:
        word, tone = ("a tie", "") if scores else {1.0: ("a win", "ok"), -1.0: ("a loss", "bad")}.get(
            returns[0], ("a draw", ""))
        return f"ends in {word}{scores}", word + scores, tone
    winners = [f"player {p + 1}" for p, r in enumerate(returns) if r == max(returns)]
    names = " and ".join(winners)
    return (f"ends with {names} winning{scores}", f"{names} {'wins' if len(winners) == 1 else 'win'}{scores}",
            "")


def plain_lines(game_name: str, game: Any, state: Any) -> list[str]:
    """The game's own text drawing of a position (``stratagem show``'s), without its colour markup."""
    render = game_module(game_name, "render", "<view>")
    return [Text.from_markup(line).plain for line in render.draw(game, state)]


def position_panel(game_name: str, game: Any, state: Any, turn: int, move: str) -> str:
    """One step of a replay of a position game: a drawing where the game has one, else its text picture;
    once play is over, the caption names how it ended (:func:`ending`)."""
    text = plain_lines(game_name, game, state)
    ended = ""
    if game.is_terminal(state):
        _, outcome, tone = ending(game, state)
        css = f" class=\"{tone}\"" if tone else ""
        ended = f" &mdash; <b{css} data-status=\"over\">play is over: {esc(outcome)}</b>"
    if game_name == "stakd":
        hands = [line for line in text if line.startswith("player ") or line == "play is over"]
        return stakd.panel(game, state, turn, move, hands, ended)
    if game_name == "cardclash":
        return cardclash.panel(game, state, turn, move, text)
    caption = "Start" if turn == 0 else f"Ply {turn}: <code>{esc(move)}</code>"
    return f"<h3>{caption}{ended}</h3><pre>{esc(chr(10).join(text))}</pre>"


class Replayed(NamedTuple):
    """A line replayed for a page: its replay (HTML); what the replay established, in words (empty when
    there is nothing to establish: no move, and play goes on); why it broke off (empty when every move
    replays); and whether it ends in a win (of the puzzle, or of every player of a cooperative game)."""

    html: str
    checked: str
    broken: str = ""
    won: bool = False


def line_replay(line: Line, source: str, place: str = "", verdict: Any = None) -> Replayed:
    """The replay of ``line`` and what replaying it established. A move that does not replay is bad input,
    unless ``verdict`` (verify's report of the record) already found the record invalid: the replay then
    goes as far as the moves do, and ``broken`` says which move breaks it and why."""
    game, start = game_from_record(line.game, line.setup, line.start, source)
    result = replay(game, start, line.moves)
    broken = ""
    if result.error_at is not None:
        where = f"{place}moves[{result.error_at}]"
        if getattr(verdict, "status", None) != "invalid":
            raise BadInput(source, where, result.error)
        broken = f"{where}: {result.error} (the replay below stops before it)"
    moves = list(line.moves[:len(result.states) - 1])
    if line.game == "strato":
        html = (f"<p>{esc(describe_challenge(game.challenge))}</p>"
                + strato_replay(game.challenge, result.states, moves))
    else:
        panels = [position_panel(line.game, game, state, k, moves[k - 1] if k else "")
                  for k, state in enumerate(result.states)]
        unit = STEPS.get(line.game, ("ply",))[0]
        html = replay_frame(steps(line.game, len(moves)), panels, moves, unit=unit)
    if broken:
        return Replayed(html, "", broken)
    words, outcome, tone = ending(game, result.final)
    if moves:
        checked = f"all {len(moves)} move(s) are legal under the rules engine, and the line {words}"
    else:
        checked = f"there is no move, and play is over at the start: {outcome}" if outcome else ""
    return Replayed(html, checked, "", tone == "ok")


def evidence_words(evidence: dict[str, Any]) -> str:
    """What a proof record's evidence is, in words (docs/formats.md 4.3), as the record states it."""
    kind = evidence.get("kind")
    if kind in ("relaxation-bound", "relaxation-search"):
        words = (f"a table-only relaxation of the rules in which no goal is nearer than "
                 f"{plural(evidence.get('bound'), 'turn')} (a lower bound on every winning line)")
        if kind == "relaxation-search":
            words += f", and a search of every line of up to {plural(evidence.get('horizon'), 'turn')} pruned by it"
        return words + "; a certificate `stratagem verify` recomputes from the rules"
    if kind == "drup-refutation":
        what = f"a win within {plural(evidence['horizon'], 'turn')}" if "horizon" in evidence else "the claim's formula"
        return (f"a DRUP refutation of {evidence.get('encoding', 'a CNF')} for {what}; a certificate "
                "`stratagem verify` checks against the formula rebuilt from the rules")
    if kind in ("exhaustive-search", "cpsat-infeasible"):
        return "a search the record reports, not a certificate (`stratagem verify --recheck` repeats it)"
    if kind == "witness":
        return "the line itself, replayed above"
    return ""


def _code(words: str) -> str:
    """``words`` as HTML, a command or name written between backticks set as ``<code>``."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", esc(words))


def _status_word(status: str) -> str:
    """A verify status as ``verify`` prints it (``not certified``, not the record token ``not-certified``, which
    the page keeps in its ``data-verdict`` attribute), in lower case: the page marks an invalid claim in red."""
    return STATUS_WORDS.get(status, status).lower()


def claims_html(claims: dict[str, Any], evidence: dict[str, Any], checked: str, verdict: Any,
                broken: str = "", report: bool = False) -> str:
    """What the page established (or, ``broken``, why it could not replay the line), then the verifier's
    report or else the record's claims, labelled so (a command's ``report`` is no record verify checks:
    the page says which is)."""
    parts = ["<div class=\"card claims\">"]
    if checked:
        parts.append(f"<p><span class=\"ok\">checked by this page:</span> {esc(checked)}</p>")
    if broken:
        parts.append(f"<p><span class=\"bad\">the line does not replay:</span> {esc(broken)}</p>")
    if verdict is not None:
        status = {"certified": "ok", "invalid": "bad"}
        parts.append(f"<p><b>stratagem verify</b>: <span class=\"{status.get(verdict.status, 'warn')}\" "
                     f"data-verdict=\"{esc(verdict.status)}\">{esc(_status_word(verdict.status))}</span></p><ul>")
        for claim in verdict.claims:
            word = esc(_status_word(claim.status))
            parts.append(f"<li><span class=\"{status.get(claim.status, 'warn')}\">{word}</span>: "
                         f"{esc(claim.statement)} &mdash; {esc(claim.reason)}</li>")
        parts.append("</ul>")
        # What verify checked on the way, and its notes (what it did not use), as its text output gives them.
        parts += [f"<p class=\"muted\">{word}: {esc(line)}</p>"
                  for word, lines in (("checked", verdict.checked), ("note", verdict.notes)) for line in lines]
    elif claims:
        how = ("a command's report is no record <code>stratagem verify</code> checks; the <code>--proof</code> "
               "record it writes is" if report else
               "<code>stratagem view --verify</code> or <code>stratagem verify</code> checks it")
        parts.append(f"<p><span class=\"warn\">the record claims</span> (not checked by this page; {how}):</p><ul>")
        for key in sorted(claims):
            parts.append(f"<li><code>{esc(key)}</code>: {esc(json.dumps(claims[key], sort_keys=True))}</li>")
        parts.append("</ul>")
    if evidence:
        words = evidence.get("optimality") or evidence.get("note") or evidence_words(evidence)
        parts.append(f"<p class=\"muted\">evidence in the record: <code>{esc(evidence.get('kind', '?'))}</code>"
                     + (f" &mdash; {_code(words)}" if words else "") + "</p>")
    parts.append("</div>")
    return "".join(parts)


def _made_by(data: dict[str, Any]) -> str:
    made = data.get("provenance")
    if not isinstance(made, dict):
        return ""
    commit = (made.get("git") or {}).get("commit") if isinstance(made.get("git"), dict) else None
    # an installed package runs outside a checkout: the commit its build recorded (provenance's "build")
    built = (made.get("build") or {}).get("commit") if isinstance(made.get("build"), dict) else None
    origin = (f", commit {esc(str(commit)[:12])}" if commit else
              f", built from commit {esc(str(built)[:12])}" if built else "")
    return (f"<p class=\"muted\">made by (as the record states it, not checked): stratagem "
            f"{esc(made.get('stratagem', '?'))}" + origin + "</p>")


def _line_from_report(data: dict[str, Any], source: str) -> Line:
    """The line of a ``solve``/``check`` report, its setup rebuilt from the puzzle file it names."""
    puzzle = data.get("puzzle")
    if not isinstance(puzzle, str):
        raise BadInput(source, "puzzle", "missing: the report names no puzzle file to rebuild the rules from")
    moves = data.get("line") or (data.get("best_line") or {}).get("moves") or []
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise BadInput(source, "line", "must be a list of move strings")
    if data.get("game", "strato") == "strato":
        loaded = _report_deal(data, source)
        setup, start = loaded.setup(), loaded.game.format_state(loaded.start)
    else:
        position = load(puzzle)
        setup, start = position.game.setup(), position.game.format_state(position.state)  # type: ignore[union-attr]
    if data.get("start") not in (None, start):
        raise BadInput(source, "start", f"is not the start of {puzzle}'s deal ({start})")
    return Line(str(data.get("game", "strato")), setup, start, tuple(moves))


def _verdict_words(verdict: Any) -> str:
    """Verify's verdict as a title ends with it (`` (certified)``, `` (invalid)``, `` (not certified)``), or
    nothing when verify was not asked: a proof tree's or a certificate's page, titled by what the record
    is, said so whatever verify found, the verdict only in the body."""
    status = getattr(verdict, "status", None)
    return {None: "", "certified": " (certified)", "invalid": " (invalid)"}.get(status, " (not certified)")


def _line_title(game_name: str, claim: dict[str, Any], count: int, won: bool, verdict: Any) -> str:
    """What a line or proof record is, said no stronger than its claims and the checks made: ``winning``
    when the page's replay ended in a win, ``shortest`` only when verify certified the claim (else it is
    ``claimed shortest``), and verify's verdict, when it was asked, named. A claim of no win that the
    page's own replay refutes (a line that ends in a win) is not the title's answer: the page shows the
    win, and the title names the claim as the record's, contradicted."""
    status = getattr(verdict, "status", None)
    verdict_words = _verdict_words(verdict)
    if claim.get("solvable") is False or claim.get("winnable") is False:
        answer = "unsolvable" if claim.get("solvable") is False else "not winnable"
        if won:
            return f"winning line of {steps(game_name, count)}, though the record claims {answer}" + verdict_words
        return answer + (verdict_words or " (as the record claims)")
    what = f"{'winning ' if won else ''}line of {steps(game_name, count)}"
    if claim.get("optimal"):
        what = f"shortest {what}" if status == "certified" else f"{what}, claimed shortest"
    return what + verdict_words


def _answer(data: dict[str, Any], count: int) -> tuple[str, str]:
    """A ``solve``/``check`` report's answer as the command's text output states it: the words of the
    page's title, and the summary (HTML) -- the status, how it is known, and for an undecided answer the
    bound proven, the best line found and what stopped the search."""
    status, game_name = str(data.get("status", "")), str(data.get("game", "strato"))
    how = str(data.get("optimality") or "")
    if data.get("format") == SOLVE and status == "solved":
        words = f"solved in {steps(game_name, count)}, optimal"
    elif data.get("format") == SOLVE and status == "unknown":
        bound = data.get("lower_bound")
        words = (f"unknown: no winning line is shorter than {steps(game_name, bound)}"
                 if isinstance(bound, int) and bound > 0 else "unknown: nothing is proven")
        if count and bound == count:  # shortest by the solver's refutations, not by a certificate (how says)
            words += f"; best line found: {steps(game_name, count)}, shortest by the solver alone, not certified"
        elif count:
            words += f"; best line found: {steps(game_name, count)}, not known to be shortest"
        stopped = {"nodes": "the node limit", "time": "the time limit"}.get(str(data.get("stopped_by")))
        words += f"; stopped by {stopped}" if stopped else ""
    elif status == "winnable":
        words = f"winnable in {steps(game_name, count)}"
    elif status == "not winnable":
        evidence = data.get("evidence") or {}
        words = "not winnable: " + {"drup-refutation": "refuted (a DRUP proof, checked)",
                                    "cpsat-infeasible": "CP-SAT found no way (no certificate)"}.get(
            str(evidence.get("kind")), str(evidence.get("method") or "the rules: play is over at the start"))
    elif data.get("format") == CHECK and status == "unknown":
        words = "unknown: the time limit stopped the solver; nothing is claimed"
    else:
        words = status
    tone = {"solved": "ok", "winnable": "ok", "unsolvable": "bad", "not winnable": "bad"}.get(status, "warn")
    summary = (f"<div class=\"card answer\"><p><b class=\"{tone}\" data-answer=\"{esc(status)}\">{esc(words)}</b></p>"
               + (f"<p>{_code(how)}</p>" if how else "") + "</div>")
    return words, summary


def _strategies_html(data: dict[str, Any]) -> str:
    """The mixed strategies of a simultaneous-move analysis (Stack Attack) as its text output gives them:
    each player's value, mix and expected return, and the opponents' mix it was found against, each mix
    drawn as the certificates' pages draw one (:func:`~stratagem.views.matrices.mix_table`)."""
    parts = []
    for entry in data.get("players") or []:
        if not isinstance(entry, dict):
            continue
        player, against = entry.get("player"), [q for q in entry.get("against") or [] if isinstance(q, int)]
        facts = [f"value {fraction(entry['value'])}"] if entry.get("value") is not None else []
        if entry.get("mean_return") is not None:
            facts.append(f"mean return {entry['mean_return']}")
        if entry.get("expected_return") is not None:
            exact = fraction(entry["expected_return"])
            if re.fullmatch(r"-?\d+(/\d+)?", exact):  # an exact value; anything else is shown as it is
                exact += f" (about {float(Fraction(exact)):.3f})"
            facts.append(f"expected return {exact} with these mixes")
        tables = [mix_table(f"player {player}", entry["strategy"])] if isinstance(entry.get("strategy"), dict) else []
        if isinstance(entry.get("opponent_strategy"), dict):
            who = f"player {against[0]}" if len(against) == 1 else "the opponents"
            tables.append(mix_table(who, entry["opponent_strategy"]))
        if not facts and not tables:
            continue
        versus = " against " + " and ".join(f"player {q}" for q in against) if against else ""
        parts.append(f"<div class=\"card strategy\" data-player=\"{esc(player)}\"><h3>Player {esc(player)}"
                     f"{esc(versus)}</h3><p>{esc('; '.join(facts))}</p><div class=\"grid2\">{''.join(tables)}</div>"
                     "</div>")
    estimate = " (an estimate: the search's frequencies, not a value)" if data.get("status") == "estimate" else ""
    return f"<h2>The mixed strategies at the start{estimate}</h2>" + "".join(parts) if parts else ""


def _heading(line: Line, name: str) -> str:
    """The ``<h2>`` over a record's replay (``name``, or "The position" for a line of no move): the
    replay's steps are ``<h3>``, and a page whose headings skip from its ``<h1>`` to them leaves a screen
    reader's list of headings without the level that says what the steps are steps of."""
    return f"<h2>{esc(name) if line.moves else 'The position'}</h2>"


def record_page(data: dict[str, Any], source: str, verdict: Verdict | None = None, *, deadline: Deadline | None = None,
                stopped: list[str] | None = None) -> str:
    """The page of one record (any of :data:`VIEWABLE`); ``verdict``: a :class:`Verdict` of it, if one was made.

    A certificate's tables are rebuilt by a walk its record does not bound (:mod:`stratagem.views.matrices`):
    ``deadline`` stops it, the page then draws only the tables completed and says so, and ``stopped``, when a
    list, receives one line for each certificate whose tables were cut short."""
    fmt = data.get("format")
    game_name = str(data.get("game", ""))
    title_game = GAME_TITLES.get(game_name, game_name)
    body: list[str] = [f"<p class=\"sub\">{esc(source)} &middot; <code>{esc(fmt)}</code></p>"]
    if fmt in (LINE_FORMAT, PROOF_FORMAT):
        if fmt == LINE_FORMAT:
            line, claims, evidence = Line.from_json(data, source), {"result": data.get("result")}, {}
            place = ""
        else:
            proof = Proof.from_json(data, source)
            if proof.line is None:
                raise BadInput(source, "line", "this proof record holds no line to show")
            line, claims, evidence, place = proof.line, proof.claim, proof.evidence, "line."
        replayed = line_replay(line, source, place, verdict)
        title = f"{title_game}: {_line_title(line.game, claims, len(line.moves), replayed.won, verdict)}"
        body += [claims_html(claims, evidence, replayed.checked, verdict, replayed.broken),
                 _heading(line, "The line"), replayed.html]
    elif fmt in (SOLVE, CHECK):
        line = _line_from_report(data, source)
        replayed = line_replay(line, source)
        claims = {k: data[k] for k in ("status", "length", "optimal", "claim") if data.get(k) not in (None, {})}
        words, summary = _answer(data, len(line.moves))
        title = f"{title_game}: {words}"
        body += [summary, claims_html(claims, dict(data.get("evidence") or {}), replayed.checked, verdict,
                                      report=True), _heading(line, "The line"), replayed.html]
    elif fmt == ANALYSIS:
        if not isinstance(data.get("setup"), dict) or not isinstance(data.get("start"), str):
            raise BadInput(source, "setup", "an analysis record needs its setup and start to be replayed")
        line = Line(game_name, data["setup"], data["start"], tuple(str(m) for m in data.get("pv") or ()))
        replayed = line_replay(line, source)
        claims = {k: data[k] for k in ("summary", "status", "value", "best_move", "assumption") if data.get(k)}
        # the answer as the text output's result line states it (the record's summary), after the puzzle's name
        answer = data.get("summary")
        title = f"{title_game}: {data.get('name') or 'analysis'}" + (f": {answer}" if isinstance(answer, str)
                                                                     and answer else "")
        body += [f"<p>{esc(data.get('information', ''))}</p>",
                 claims_html(claims, {}, replayed.checked.replace("the line", "the principal variation"), verdict,
                             report=True),
                 _strategies_html(data), _heading(line, "The principal variation"), replayed.html]
    elif fmt == PROOFTREE:
        game, start = position_from_record(game_name, _setup(data, source), _start(data, source), source)
        nodes = data.get("nodes")
        title = (f"{title_game}: proof tree ({len(nodes) if isinstance(nodes, list) else 0} nodes)"
                 f"{_verdict_words(verdict)}")

        def draw(text: str) -> str:
            """A node's position drawn; the notation as it is where it is none (the page draws what the record
            holds; verify says what is wrong: an unreadable state was an internal error, exit 70)."""
            try:
                state = game.parse_state(text)
            except (NotationError, IllegalMove, ValueError) as exc:
                return (f"<div class=\"mono muted\">{esc(text[:200])}{'...' if len(text) > 200 else ''}: not a "
                        f"position ({esc(str(exc)[:200])})</div>")
            return position_panel(game_name, game, state, 0, "").split("</h3>", 1)[1]

        body += [claims_html({"claim": data.get("claim")}, {}, "", verdict),
                 f"<h2>The start</h2>{draw(data['start'])}", "<h2>The tree</h2>", tree_html(data, draw)]
    elif fmt == POLICY_FORMAT:
        from stratagem.verification.policy import policy_game

        game, start = policy_game(data, source)
        title, checked, html = policy_html(data, source, verdict, game, start)
        claim = data["claim"] if isinstance(data.get("claim"), dict) else {}
        claims = {k: claim[k] for k in ("win_probability", "optimal", "policy") if k in claim}
        body += [claims_html(claims, dict(claim.get("evidence") or {}), checked, verdict), html]
    elif fmt in TABLE_FORMATS:
        from stratagem.verification.policy import policy_game

        game, start = policy_game(data, source)
        title, html = table_html(data, source, verdict, game, start)
        body += [claims_html({} if verdict is not None else dict(data.get("claim") or {}), {}, "", verdict), html]
    elif fmt in (ODDS, BOUNDS):
        game, start = odds_start(data, source)
        title, html = odds_report_html(data, source, game, start)
        body.append(html)
    elif fmt in REACH_FORMATS:
        # verify checks a reach report's par (its line, and a designer par's certificate): its report first
        title, html = reach_page(data, source, _report_deal(data, source))
        body += [claims_html({}, {}, "", verdict), html] if verdict is not None else [html]
    elif fmt in (MATRIXPROOF, MATRIXPROOFS, BOUNDPROOF):
        game, start = position_from_record(game_name, _setup(data, source), _start(data, source), source)
        # A bundle (3+ players) holds one certificate per player, each against the coalition of the others.
        single = fmt in (MATRIXPROOF, BOUNDPROOF)
        proofs = [data] if single else [p for p in data.get("proofs") or [] if isinstance(p, dict)]
        nodes = sum(len(p.get("nodes") or []) for p in proofs)
        title = f"{title_game}: mixed strategies at {nodes} simultaneous node(s){_verdict_words(verdict)}"
        claims = {f"player {int(p.get('player', 0)) + 1}": f"value {fraction(p.get('value'))} ({p.get('label')})"
                  for p in proofs}
        body += [claims_html(claims, {}, "", verdict),
                 f"<h2>The start</h2><pre>{esc(chr(10).join(plain_lines(game_name, game, start)))}</pre>"]
        for k, cert in enumerate(proofs):
            player = int(cert.get("player", 0)) + 1
            place = source if single else f"{source}: proofs[{k}]"
            if cert.get("format") == BOUNDPROOF:
                body += [f"<h2>The bounds of player {player}</h2><p class=\"muted\">A lower part: player {player}'s "
                         "cards played, with the mix, against every reply; an upper part: every card of player "
                         f"{player} against the opponents' cards played, with theirs. Each cell is the bound of "
                         "that pair's position, rebuilt from the rules engine.</p>",
                         bound_parts_html(game, start, cert, place, deadline=deadline, stopped=stopped)]
                continue
            body += [f"<h2>The matrices of player {player}</h2><p class=\"muted\">Rows: player {player}'s cards, "
                     "with the mix; columns: the opponents' cards, with theirs. Each cell is the payoff of that "
                     "pair, rebuilt from the rules engine.</p>",
                     matrices_html(game, start, cert, place, deadline=deadline, stopped=stopped)]
    else:
        raise BadInput(source, "format", f"not a record `stratagem view` draws ({quoted(fmt)}; it draws "
                       f"{', '.join(VIEWABLE)})")
    body.append(_made_by(data))
    return document(title, "\n".join(body))


def _setup(data: dict[str, Any], source: str) -> dict[str, Any]:
    setup = data.get("setup")
    if not isinstance(setup, dict):
        raise BadInput(source, "setup", "missing or not an object")
    return setup


def _start(data: dict[str, Any], source: str) -> str:
    start = data.get("start")
    if not isinstance(start, str):
        raise BadInput(source, "start", "missing or not a string")
    return start


__all__ = ["VIEWABLE", "Replayed", "ending", "line_replay", "plain_lines", "position_panel", "record_page", "steps"]
