"""A sweep report (:class:`~stratagem.sweepreport.SweepReport`) as one HTML page: the tables, sortable, and
the plots drawn in SVG so they cannot mislead -- undecided deals as bars of their own, whole-number
ticks, one panel per challenge and player count, each time limit marked -- and the hardest and easiest
deals each linked to a replay of its line on the same page.

A replay is drawn only from the rules engine: the deal is dealt again from the puzzle file the record
names (which must still hash to the record's ``puzzle_sha256``) and the record's line replayed move by
move. Where that fails the page says why instead of drawing the record's word for it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from stratagem.core.errors import BadInput
from stratagem.core.provenance import file_sha256
from stratagem.core.words import plural
from stratagem.loading import StratoDeal, load
from stratagem.solvers.replay import is_win, replay
from stratagem.sweepplots import COLOURS
from stratagem.sweepreport import HARDEST, TIED_NOTE, UNDECIDED_ROWS, SweepReport, more_undecided, reproduce
from stratagem.views.charts import bars, boxes
from stratagem.views.page import contents, document, esc, table
from stratagem.views.strato import strato_replay

#: How many of the easiest deals the page lists and replays (the hardest: :data:`HARDEST`).
EASIEST = 5


def _code(text: str) -> str:
    return f"<code>{esc(text)}</code>"


def _inline_code(text: str) -> str:
    """Markdown text with its `code` spans as HTML, escaped."""
    return re.sub(r"`([^`]*)`", lambda m: f"<code>{m.group(1)}</code>", esc(text))


def _ident(record: Mapping[str, Any], challenge: str | None = None) -> str:
    """The page's anchor of a record's replay; ``challenge`` is the name the report shows it under (with
    the puzzle's SHA8 when two versions of a card share a name, so that their replays are two anchors)."""
    name = "".join(ch if ch.isalnum() else "-" for ch in str(challenge or record["challenge"]).lower())
    return f"replay-{name}-{record['players']}p-seed{record['seed']}-{record['method']}"


def puzzle_file(record: Mapping[str, Any], source: str) -> str | None:
    """The file of a sweep record's ``puzzle``: as written (from here), else, for a relative name, from the
    folder of the results file ``source`` or one above it (a sweep names its puzzles as it was given them,
    from the folder it ran in, which holds its results file at some depth); the one whose SHA-256 is the
    record's, when it has one. None when there is no such file."""
    puzzle = str(record.get("puzzle", ""))
    candidates = [Path(puzzle)]
    if puzzle and not Path(puzzle).is_absolute():
        candidates += [folder / puzzle for folder in Path(source).resolve().parents]
    found = [path for path in candidates if path.is_file()]
    wanted = record.get("puzzle_sha256")
    matching = [path for path in found if not wanted or file_sha256(path) == wanted]
    chosen = matching or found
    return str(chosen[0]) if chosen else None


def deal_replay(record: Mapping[str, Any], source: str = "", challenge: str | None = None) -> tuple[str, str]:
    """The replay of a sweep record's line (its puzzle found by :func:`puzzle_file` from the results file
    ``source``) and ``""``, or a sentence saying why there is none and that reason as plain text;
    ``challenge`` as for the anchor (:func:`_ident`)."""
    def none(css: str, why: str) -> tuple[str, str]:
        return f"<p class=\"{css}\">{why}</p>", html.unescape(re.sub("<[^>]+>", "", why))

    puzzle = puzzle_file(record, source)
    if puzzle is None:
        return none("warn", f"No replay: the puzzle file {_code(str(record.get('puzzle', '')))} is not here (nor "
                    "beside the results file).")
    if record.get("puzzle_sha256") and file_sha256(puzzle) != record["puzzle_sha256"]:
        return none("warn", f"No replay: {_code(puzzle)} has changed since the sweep (its SHA-256 differs).")
    try:
        deal = load(puzzle, int(record["seed"]), int(record["players"]))
    except BadInput as exc:
        return none("bad", f"No replay: {esc(exc)}")
    assert isinstance(deal, StratoDeal)
    moves = tuple(str(m) for m in record.get("line") or ())
    result = replay(deal.game, deal.start, moves)
    if not result.ok:
        return none("bad", f"The record's line does not replay: move {result.error_at}: {esc(result.error)}")
    won = is_win(deal.game, result.final)
    note = (f"<p class=\"muted\">Replayed here with the rules engine: {len(moves)} legal move(s), "
            f"{'ending in a win' if won else '<b class=bad>not a win</b>'}; the record claims length "
            f"{esc(record.get('length'))} ({esc(record.get('status'))}). Reproduce: {_code(reproduce(record))}</p>")
    # printed: the step on screen and the move list, not every turn (fifteen replays were 70 of 90 pages)
    return note + strato_replay(deal.challenge, result.states, moves, f"{_ident(record, challenge)}-line",
                                print_every=False), ""


def _deal_rows(summary: SweepReport, records: list[Mapping[str, Any]], linked: bool) -> list[list[str]]:
    def row(r: Mapping[str, Any]) -> list[str]:
        name = summary.challenge_of(r)
        return [esc(name), str(r["players"]), str(r["seed"]), str(r["length"]), f"{r['seconds']:.2f}",
                (f"<a href=\"#{_ident(r, name)}\">replay</a> " if linked else "") + _code(reproduce(r))]
    return [row(r) for r in records]


def _solvable(summary: SweepReport) -> str:
    rows = summary.fractions()
    labels = [f"{r['challenge']}\n{r['players']}p {r['method']}" for r in rows]
    series = [(kind, COLOURS[kind], [r[kind] / r["deals"] if r["deals"] else 0.0 for r in rows])
              for kind in ("solvable", "unsolvable", "undecided")]
    notes = [[str(r[kind]) for r in rows] for kind in ("solvable", "unsolvable", "undecided")]
    chart = bars("Deals solvable, proven unsolvable, undecided (share of each group; count on the bar)", labels,
                 series, fractions=True, notes=notes, width=max(560, 90 * len(rows) + 60), y_label="share of deals")
    cells = []
    for r in rows:
        fraction = "-" if r["fraction"] is None else f"{r['fraction']:.3f} ({r['low']:.3f} - {r['high']:.3f})"
        cells.append([esc(r["challenge"]), str(r["players"]), esc(r["method"]), str(r["deals"]), str(r["solvable"]),
                      str(r["unsolvable"]), str(r["undecided"]), fraction])
    return chart + table(["challenge", "players", "method", "deals", "solvable", "unsolvable", "undecided",
                          "solvable of decided (95% Wilson)"], cells, numeric={1, 3, 4, 5, 6})


def _lengths(summary: SweepReport) -> str:
    panels = summary.length_panels()
    every = sorted({n for counts, _ in panels.values() for n in counts})
    if not panels:
        return "<p>No deal was solved.</p>"
    lengths = list(range(every[0], every[-1] + 1)) if every else []
    charts = []
    for (challenge, players), (counts, undecided) in panels.items():
        labels = [str(n) for n in lengths] + ["undec."]
        values = [float(counts.get(n, 0)) for n in lengths] + [float(undecided)]
        notes = [str(int(v)) if v else "" for v in values]
        colours = ["#4c6ef5"] * len(lengths) + [COLOURS["undecided"]]
        charts.append(bars(f"{challenge}, {players} player(s)", labels, [("deals", "#4c6ef5", values)],
                           notes=[notes], width=330, colours=colours, y_label="deals"))
    rows = [[esc(c), str(p)] + [str(counts.get(n, 0)) for n in every] + [str(u)]
            for (c, p), (counts, u) in panels.items()]
    return (f"<div class=\"grid2\">{''.join(charts)}</div>"
            + table(["challenge", "players"] + [str(n) for n in every] + ["undecided"], rows,
                    numeric=set(range(1, len(every) + 3))))


def _seconds(summary: SweepReport) -> str:
    charts = [boxes(f"{challenge}, {players} player(s)", by_method, limits, width=330)
              for (challenge, players), (by_method, limits) in summary.seconds_panels().items()]
    rows = [[esc(t["method"]), esc(t["challenge"]), str(t["deals"]), f"{t['mean']:.2f}", f"{t['median']:.2f}",
             f"{t['max']:.2f}", f"{t['total']:.1f}"] for t in summary.times()]
    note = f"<p class=\"muted\">{esc(summary.superseded_note())}</p>" if summary.superseded_seconds else ""
    return (f"<div class=\"grid2\">{''.join(charts)}</div>"
            + table(["method", "challenge", "deals", "mean s", "median s", "max s", "total s"], rows,
                    numeric={2, 3, 4, 5, 6}) + note)


def report_page(summary: SweepReport, note: Callable[[str], None] = lambda text: None,
                listing: str | None = None) -> str:
    """The whole report as one self-contained page; ``note`` is told of each replay left out and why. The
    undecided deals are the first :data:`~stratagem.sweepreport.UNDECIDED_ROWS`, as in the markdown, with
    how many more and ``listing``, the command that lists them all (:func:`~stratagem.sweepreport.more_undecided`):
    a sweep with thousands of them made a page of thousands of rows."""
    deals = summary.deal_count()
    records = (f"; {len(summary.deals)} deal-and-method records: each method's answer is a row of the solvable "
               "fraction" if len(summary.deals) != deals else "")
    body = [f"<p class=\"sub\">{deals} Strato deal(s) and {len(summary.positions)} position "
            f"analyse(s) from {_code(summary.source)} ({summary.held} records; one per deal counts, the "
            f"best-established{records}). A deal is <i>solvable</i> when a winning line was found, "
            "<i>unsolvable</i> when that was proven, <i>undecided</i> when the time limit stopped the solver first."
            "</p>",
            "<h2 id=\"solvable\">Solvable fraction</h2>", _solvable(summary),
            "<h2 id=\"lengths\">Optimal lengths</h2><p class=\"muted\">Deals by proven optimal length (turns); the "
            "undecided deals of each panel as a grey bar of their own.</p>", _lengths(summary)]
    undecided = summary.undecided()
    body.append("<h2 id=\"undecided\">Deals whose optimum is undecided</h2>")
    if undecided:
        rows = [[esc(summary.challenge_of(r)), str(r["players"]), str(r["seed"]), str(r["lower_bound"]),
                 "-" if r.get("best_length") is None else str(r["best_length"]), _code(reproduce(r))]
                for r in undecided[:UNDECIDED_ROWS]]
        body.append(table(["challenge", "players", "seed", "lower bound", "best line", "reproduce"], rows,
                          numeric={1, 2, 3}))
        if len(undecided) > UNDECIDED_ROWS:
            body.append(f"<p class=\"muted\">{_inline_code(more_undecided(len(undecided), listing))}</p>")
        if any(r["lower_bound"] == r.get("best_length") for r in undecided):
            body.append(f"<p class=\"muted\">{esc(TIED_NOTE).replace('`sat`', '<code>sat</code>')}</p>")
    else:
        body.append("<p>None: every deal was decided.</p>" if summary.deals else "<p>No Strato deal.</p>")
    body += ["<h2 id=\"times\">Time per deal</h2><p class=\"muted\">One panel per challenge and player count, log "
             "scale; a deal a limit stopped sits at its dashed line (one line per time limit the deals were run "
             "under).</p>",
             _seconds(summary)]
    hardest, easiest = summary.hardest(HARDEST), summary.easiest(EASIEST)
    headers = ["challenge", "players", "seed", "length", "seconds", "replay and reproduce"]
    body += ["<h2 id=\"hardest\">Hardest deals</h2><p class=\"muted\">The longest proven optimal lines (ties: the "
             "slowest).</p>",
             table(headers, _deal_rows(summary, hardest, True), numeric={1, 2, 3, 4}),
             "<h2 id=\"easiest\">Easiest deals</h2><p class=\"muted\">The shortest proven optimal lines (ties: the "
             "fastest).</p>",
             table(headers, _deal_rows(summary, easiest, True), numeric={1, 2, 3, 4})]
    if summary.positions:
        rows = [[esc(r["game"]), esc(r["challenge"]), esc(r["method"]), esc(r["status"]), esc(r.get("summary") or ""),
                 f"{r['seconds']:.2f}"] for r in summary.positions]
        body += ["<h2 id=\"positions\">Positions of the other games</h2>",
                 table(["game", "position", "method", "status", "summary", "seconds"], rows, numeric={5})]
    body.append("<h2 id=\"deal-replays\">Replays</h2>")
    replays: list[tuple[str, str]] = []
    for record in dict.fromkeys(_ident(r, summary.challenge_of(r)) for r in hardest + easiest):
        found = next(r for r in hardest + easiest if _ident(r, summary.challenge_of(r)) == record)
        name = summary.challenge_of(found)
        replays.append((record, f"{name}, {found['players']}p, seed {found['seed']}"))
        drawn, missing = deal_replay(found, summary.source, name)
        if missing:
            note(f"{name}, {found['players']} player(s), seed {found['seed']}: {missing}")
        # the link of the tables lands on the card, replayed or not
        body.append(f"<section class=\"card\" id=\"{esc(record)}\"><h3>{esc(name)}, "
                    f"{found['players']} player(s), seed {found['seed']}: {plural(found['length'], 'turn')}</h3>{drawn}"
                    "</section>")
    # at the top, a link to each part and each replay: with scripts off every step of the fifteen replays is
    # shown, and the page is 75,000 px long
    parts = [("solvable", "Solvable fraction"), ("lengths", "Optimal lengths"), ("undecided", "Undecided deals"),
             ("times", "Time per deal"), ("hardest", "Hardest deals"), ("easiest", "Easiest deals")]
    parts += [("positions", "Positions of the other games")] if summary.positions else []
    body.insert(1, contents([*parts, ("deal-replays", "Replays")])
                + (contents(replays, "Replays") if replays else ""))
    return document(f"Sweep report: {Path(summary.source).name}", "\n".join(body))


__all__ = ["deal_replay", "puzzle_file", "report_page"]
