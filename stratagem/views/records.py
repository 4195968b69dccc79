"""Any record the project writes, as one page: which kind it is, the line it holds replayed through the
rules engine, and what it claims, said for what it is.

Every position shown is the rules engine's: a line is rebuilt by replaying its moves from the record's
start with the game the record's setup describes (a ``solve``/``check`` report without a setup is rebuilt
from the puzzle file it names, and its start must match). A move that does not replay is bad input. The
record's claims are listed as *the record claims*; what the page itself established (the moves are legal,
the line ends in a win) is said separately, and when the caller ran :func:`stratagem.verification.verify`
its report is shown claim by claim.
"""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text

from stratagem.core.errors import BadInput
from stratagem.core.records import LINE_FORMAT, PROOF_FORMAT, Line, Proof
from stratagem.loading import game_from_record, game_module, load, position_from_record
from stratagem.solvers.replay import is_win, replay
from stratagem.views import cardclash, stakd
from stratagem.views.matrices import bound_parts_html, matrices_html
from stratagem.views.page import document, esc, replay_frame
from stratagem.views.prooftree import tree_html
from stratagem.views.strato import describe_challenge, strato_replay

GAME_TITLES = {"strato": "Strato", "stakd": "STAKD Elite", "stratatak": "Stratatak", "stackattack": "Stack Attack",
               "cardclash": "Stratego Card Clash"}
PROOFTREE, MATRIXPROOF, MATRIXPROOFS = "stratagem/prooftree@1", "stratagem/matrixproof@1", "stratagem/matrixproofs@1"
BOUNDPROOF = "stratagem/matrixproof@2"
SOLVE, CHECK, ANALYSIS = "stratagem/solve@1", "stratagem/check@1", "stratagem/analysis@1"
VIEWABLE = (LINE_FORMAT, PROOF_FORMAT, SOLVE, CHECK, ANALYSIS, PROOFTREE, BOUNDPROOF, MATRIXPROOF, MATRIXPROOFS)


def plain_lines(game_name: str, game: Any, state: Any) -> list[str]:
    """The game's own text drawing of a position (``stratagem show``'s), without its colour markup."""
    render = game_module(game_name, "render", "<view>")
    return [Text.from_markup(line).plain for line in render.draw(game, state)]


def position_panel(game_name: str, game: Any, state: Any, turn: int, move: str) -> str:
    """One step of a replay of a position game: a drawing where the game has one, else its text picture."""
    text = plain_lines(game_name, game, state)
    if game_name == "stakd":
        hands = [line for line in text if line.startswith("player ") or line == "play is over"]
        return stakd.panel(game, state, turn, move, hands)
    if game_name == "cardclash":
        return cardclash.panel(game, state, turn, move, text)
    caption = "Start" if turn == 0 else f"Ply {turn}: <code>{esc(move)}</code>"
    ended = " &mdash; <b class=\"ok\" data-status=\"over\">play is over</b>" if game.is_terminal(state) else ""
    return f"<h3>{caption}{ended}</h3><pre>{esc(chr(10).join(text))}</pre>"


def line_replay(line: Line, source: str, place: str = "") -> tuple[str, str]:
    """The replay of ``line`` (HTML) and what replaying it established, in words."""
    game, start = game_from_record(line.game, line.setup, line.start, source)
    result = replay(game, start, line.moves)
    if not result.ok:
        raise BadInput(source, f"{place}moves[{result.error_at}]", result.error)
    moves = list(line.moves)
    if line.game == "strato":
        html = (f"<p>{esc(describe_challenge(game.challenge))}</p>"
                + strato_replay(game.challenge, result.states, moves))
    else:
        panels = [position_panel(line.game, game, state, k, moves[k - 1] if k else "")
                  for k, state in enumerate(result.states)]
        html = replay_frame(f"{len(moves)} move(s)", panels, moves)
    ending = "ends in a win" if is_win(game, result.final) else (
        "ends the game without a win" if game.is_terminal(result.final) else "does not end the game")
    return html, f"all {len(moves)} move(s) are legal under the rules engine, and the line {ending}"


def evidence_words(evidence: dict[str, Any]) -> str:
    """What a proof record's evidence is, in words (docs/formats.md 4.3), as the record states it."""
    kind = evidence.get("kind")
    if kind in ("relaxation-bound", "relaxation-search"):
        words = (f"a table-only relaxation of the rules in which no goal is nearer than {evidence.get('bound')} "
                 "turns (a lower bound on every winning line)")
        if kind == "relaxation-search":
            words += f", and a search of every line of up to {evidence.get('horizon')} turns pruned by it"
        return words + "; a certificate `stratagem verify` recomputes from the rules"
    if kind == "drup-refutation":
        what = f"a win within {evidence['horizon']} turns" if "horizon" in evidence else "the claim's formula"
        return (f"a DRUP refutation of {evidence.get('encoding', 'a CNF')} for {what}; a certificate "
                "`stratagem verify` checks against the formula rebuilt from the rules")
    if kind in ("exhaustive-search", "cpsat-infeasible"):
        return "a search the record reports, not a certificate (`stratagem verify --recheck` repeats it)"
    if kind == "witness":
        return "the line itself, replayed above"
    return ""


def claims_html(claims: dict[str, Any], evidence: dict[str, Any], checked: str, verdict: Any) -> str:
    """What the page established, then the verifier's report or else the record's claims, labelled so."""
    parts = ["<div class=\"card claims\">"]
    if checked:
        parts.append(f"<p><span class=\"ok\">checked by this page:</span> {esc(checked)}</p>")
    if verdict is not None:
        status = {"certified": "ok", "invalid": "bad"}
        parts.append(f"<p><b>stratagem verify</b>: <span class=\"{status.get(verdict.status, 'warn')}\" "
                     f"data-verdict=\"{esc(verdict.status)}\">{esc(verdict.status)}</span></p><ul>")
        for claim in verdict.claims:
            parts.append(f"<li><span class=\"{status.get(claim.status, 'warn')}\">{esc(claim.status)}</span>: "
                         f"{esc(claim.statement)} &mdash; {esc(claim.reason)}</li>")
        parts.append("</ul>")
    elif claims:
        parts.append("<p><span class=\"warn\">the record claims</span> (not checked by this page; "
                     "<code>stratagem view --verify</code> or <code>stratagem verify</code> checks it):</p><ul>")
        for key in sorted(claims):
            parts.append(f"<li><code>{esc(key)}</code>: {esc(json.dumps(claims[key], sort_keys=True))}</li>")
        parts.append("</ul>")
    if evidence:
        words = evidence.get("optimality") or evidence.get("note") or evidence_words(evidence)
        parts.append(f"<p class=\"muted\">evidence in the record: <code>{esc(evidence.get('kind', '?'))}</code>"
                     + (f" &mdash; {esc(words)}" if words else "") + "</p>")
    parts.append("</div>")
    return "".join(parts)


def _made_by(data: dict[str, Any]) -> str:
    made = data.get("provenance")
    if not isinstance(made, dict):
        return ""
    commit = (made.get("git") or {}).get("commit") if isinstance(made.get("git"), dict) else None
    return (f"<p class=\"muted\">made by (as the record states it, not checked): stratagem "
            f"{esc(made.get('stratagem', '?'))}" + (f", commit {esc(str(commit)[:12])}" if commit else "") + "</p>")


def _line_from_report(data: dict[str, Any], source: str) -> Line:
    """The line of a ``solve``/``check`` report, its setup rebuilt from the puzzle file it names."""
    puzzle = data.get("puzzle")
    if not isinstance(puzzle, str):
        raise BadInput(source, "puzzle", "missing: the report names no puzzle file to rebuild the rules from")
    moves = data.get("line") or (data.get("best_line") or {}).get("moves") or []
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise BadInput(source, "line", "must be a list of move strings")
    if data.get("game", "strato") == "strato":
        deal = data.get("seed") if data.get("deal") is None else data.get("deal")
        loaded = load(puzzle, None if deal is None else str(deal) if not isinstance(deal, int) else deal,
                      data.get("players") if data.get("deal") is None else None)
        setup, start = loaded.setup(), loaded.game.format_state(loaded.start)  # type: ignore[union-attr]
    else:
        position = load(puzzle)
        setup, start = position.game.setup(), position.game.format_state(position.state)  # type: ignore[union-attr]
    if data.get("start") not in (None, start):
        raise BadInput(source, "start", f"is not the start of {puzzle}'s deal ({start})")
    return Line(str(data.get("game", "strato")), setup, start, tuple(moves))


def record_page(data: dict[str, Any], source: str, verdict: Any = None) -> str:
    """The page of one record (any of :data:`VIEWABLE`); ``verdict``: a :class:`Verdict` of it, if one was made."""
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
        replay_html, checked = line_replay(line, source, place)
        unit = {"strato": "turn(s)", "stakd": "placement(s)"}.get(line.game, "move(s)")
        title = f"{title_game}: {'proof' if fmt == PROOF_FORMAT else 'line'} of {len(line.moves)} {unit}"
        body += [claims_html(claims, evidence, checked, verdict), replay_html]
    elif fmt in (SOLVE, CHECK):
        line = _line_from_report(data, source)
        replay_html, checked = line_replay(line, source)
        claims = {k: data[k] for k in ("status", "length", "optimal", "claim") if k in data}
        evidence = dict(data.get("evidence") or {})
        if data.get("optimality"):
            evidence.setdefault("kind", data.get("method", ""))
            evidence["optimality"] = data["optimality"]
        title = f"{title_game}: {data.get('status', '')} ({len(line.moves)} move(s))"
        body += [claims_html(claims, evidence, checked, verdict), replay_html]
    elif fmt == ANALYSIS:
        if not isinstance(data.get("setup"), dict) or not isinstance(data.get("start"), str):
            raise BadInput(source, "setup", "an analysis record needs its setup and start to be replayed")
        line = Line(game_name, data["setup"], data["start"], tuple(str(m) for m in data.get("pv") or ()))
        replay_html, checked = line_replay(line, source)
        claims = {k: data[k] for k in ("summary", "status", "value", "best_move", "assumption") if data.get(k)}
        title = f"{title_game}: {data.get('name') or 'analysis'}"
        body += [f"<p>{esc(data.get('information', ''))}</p>",
                 claims_html(claims, {}, checked.replace("the line", "the principal variation"), verdict),
                 replay_html]
    elif fmt == PROOFTREE:
        game, start = position_from_record(game_name, _setup(data, source), _start(data, source), source)
        title = f"{title_game}: proof tree ({len(data.get('nodes') or [])} nodes)"

        def draw(text: str) -> str:
            state = game.parse_state(text)
            return position_panel(game_name, game, state, 0, "").split("</h3>", 1)[1]

        body += [claims_html({"claim": data.get("claim")}, {}, "", verdict),
                 f"<h2>The start</h2>{draw(data['start'])}", "<h2>The tree</h2>", tree_html(data, draw)]
    elif fmt in (MATRIXPROOF, MATRIXPROOFS, BOUNDPROOF):
        game, start = position_from_record(game_name, _setup(data, source), _start(data, source), source)
        # A bundle (3+ players) holds one certificate per player, each against the coalition of the others.
        single = fmt in (MATRIXPROOF, BOUNDPROOF)
        proofs = [data] if single else [p for p in data.get("proofs") or [] if isinstance(p, dict)]
        nodes = sum(len(p.get("nodes") or []) for p in proofs)
        title = f"{title_game}: mixed strategies at {nodes} simultaneous node(s)"
        claims = {f"player {int(p.get('player', 0)) + 1}": f"value {p.get('value')} ({p.get('label')})"
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
                         bound_parts_html(game, start, cert, place)]
                continue
            body += [f"<h2>The matrices of player {player}</h2><p class=\"muted\">Rows: player {player}'s cards, "
                     "with the mix; columns: the opponents' cards, with theirs. Each cell is the payoff of that "
                     "pair, rebuilt from the rules engine.</p>", matrices_html(game, start, cert, place)]
    else:
        raise BadInput(source, "format", f"not a record `stratagem view` draws ({fmt!r}; it draws "
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


__all__ = ["VIEWABLE", "line_replay", "plain_lines", "position_panel", "record_page"]
