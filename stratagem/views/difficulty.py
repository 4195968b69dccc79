"""A hidden sweep's difficulty cards (:class:`~stratagem.difficulty.DifficultyReport`) as one self-contained
HTML page: per challenge and player count, the solo win probability's histogram in SVG (undecided deals
as a grey bar of their own, never mixed into the distribution), the quantiles, what the undecided deals'
records prove (their lower ends in a grey chart of their own: bounds, not values), the teams' win rates
with their intervals, the open-information optimum beside them, and the hardest and easiest deals (and
the undecided ones with the lowest and highest proven lower ends) with the command that reproduces each.
Deterministic: the same records give the same bytes.
"""

from __future__ import annotations

from typing import Any

from stratagem.difficulty import (
    AGENT_COLUMNS,
    BINS,
    COMPARED_COLUMNS,
    COMPARED_NOTE,
    Card,
    DifficultyReport,
    agent_groups,
    agent_rows,
    compared_rows,
    end_text,
    listed_deals,
    mean_note,
    policy_note,
    proven_note,
    reproduce_hidden,
    same_value_note,
    undecided_text,
    value_heading,
    value_text,
)
from stratagem.views.charts import bars
from stratagem.views.page import contents, document, esc, table

EXACT, UNDECIDED = "#1971c2", "#adb5bd"


def _code(text: str) -> str:
    return f"<code>{esc(text)}</code>"


def _solo(card: Card) -> str:
    s = card.solo_summary()
    counts = [*card.histogram(), s["undecided"]]
    labels = [*BINS, "undecided"]
    chart = bars(f"{card.challenge}, solo: deals by exact win probability", labels,
                 [("deals", EXACT, [float(n) for n in counts])], notes=[[str(n) if n else "" for n in counts]],
                 colours=[EXACT] * len(BINS) + [UNDECIDED], y_label="deals", width=620)
    text = f"<p><b>{s['exact']}</b> deal(s) exact, <b>{s['undecided']}</b> undecided"
    if s["undecided"]:  # none stopped: nothing to say of what stopped them
        text += f" ({esc(undecided_text(s))}; the grey bar)"
    if s["exact"]:
        text += f"; the exact values' mean {s['mean_of_exact']:.4f}, {s['certainly_won']} won with certainty"
    text += ".</p>"
    if s["exact"] and s["undecided"]:
        text += "<p class=\"warn\">The distribution is over the deals that finished, which may be the easier ones.</p>"
    if s["quantiles"]:
        quantiles = s["quantiles"]
        text += table(["quantile", *quantiles], [["win probability", *(f"{v:.4f}" for v in quantiles.values())]],
                      numeric=set(range(1, len(quantiles) + 1)), sortable=False)
    return chart + text + _proven(card, s)


def _proven(card: Card, s: dict[str, Any]) -> str:
    """What the undecided deals' records prove: their lower ends by tenths (a chart of bounds, not values),
    the ends' quantiles, and the mean over every deal as proven."""
    b = s["undecided_bounds"]
    if b is None:
        return ""
    counts = list(b["lower_histogram"].values())
    chart = bars(f"{card.challenge}, solo: undecided deals by proven lower end", list(BINS),
                 [("undecided deals", UNDECIDED, [float(n) for n in counts])],
                 notes=[[str(n) if n else "" for n in counts]], y_label="deals", width=620)
    low, high = s["mean_proven"]
    text = f"<p><b>Undecided deals, what is proven</b>: {esc(proven_note(b))}</p>"
    lower, upper = b["lower_quantiles"], b["upper_quantiles"]
    text += table(["quantile", *lower], [["lower end", *(end_text(v) for v in lower.values())],
                                         ["upper end", *(end_text(v) for v in upper.values())]],
                  numeric=set(range(1, len(lower) + 1)), sortable=False)
    text += f"<p><b>Mean solo win probability over the {s['deals']} deals</b>: {esc(mean_note(low, high))}</p>"
    return chart + text


def _teams(card: Card) -> str:
    summary = card.team_summary()
    rows = [[_code(agent), *cells] for agent, *cells in agent_rows(summary)]
    out = table(list(AGENT_COLUMNS), rows, numeric={1, 2, 3, 5, 6, 7, 8})
    check = card.policy_check()
    if check is not None:
        out += f"<p><b>The guided policy against its proven lower ends</b>: {esc(policy_note(check))}</p>"
    compared = compared_rows(card)
    if compared:
        out += f"<p><b>Agents compared deal by deal</b>: {esc(COMPARED_NOTE)}.</p>"
        out += table(list(COMPARED_COLUMNS), [[_code(best), _code(other), *cells] for best, other, *cells in compared],
                     numeric={2, 4, 5, 6})
    for t in summary:
        for title, head, groups in agent_groups(card, t):
            out += f"<p class=\"muted\">{_code(t['agent'])} {esc(title)}:</p>"
            out += table([head, *(esc(k) for k in groups)],
                         [["deals", *(str(g["deals"]) for g in groups.values())],
                          ["won / games", *(f"{g['wins']} / {g['games']}" for g in groups.values())]],
                         numeric=set(range(1, len(groups) + 1)), sortable=False)
    return out


def _open(card: Card) -> str:
    o = card.open_summary()
    if o is None:
        return "<p class=\"muted\">Open information: not given (<code>--open-results</code>).</p>"
    q = o["optimum_quantiles"]
    optimum = (f"; optimum median {q['0.5']:g} turns (least {q['0']:g}, most {q['1']:g})" if q else "")
    return (f"<p><b>Open information</b> (every card known), {o['deals']} of these deals in the open sweep: "
            f"{o['solvable']} solvable ({o['certified']} with a certificate), {o['unsolvable']} unsolvable, "
            f"{o['undecided']} undecided{optimum}.</p>")


def _listed(card: Card, title: str, records: list[dict[str, Any]]) -> str:
    if not records:
        return ""
    rows = []
    for r in records:
        rows.append([str(r["seed"]), esc(value_text(r, markdown=False)), esc(card.open_text(int(r["seed"]))),
                     _code(reproduce_hidden(r))])
    return f"<h3>{esc(title)}</h3>" + table(["seed", value_heading(records), "open optimum", "reproduce"], rows,
                                            numeric={0})


def difficulty_page(report: DifficultyReport) -> str:
    """The whole page."""
    parts = [f"<p class=\"sub\">From <code>{esc(report.source)}</code> ({report.held} records)"
             + (f", open information from <code>{esc(report.open_source)}</code>" if report.open_source else "")
             + ". With the pile and the other hands hidden, as players meet the game: solo, the exact optimal win "
             "probability; teams, agents' win rates over shuffles of each deal (95% Wilson intervals at the "
             "games' effective count when they are clustered by deal: an estimate, not a proof).</p>"]
    cards: list[tuple[str, str]] = []
    for card in report.cards:
        who = "solo" if card.players == 1 else f"{card.players} players"
        # the card's anchor, for the links at the top of the page (a designer goes to a card, not scrolls)
        ident = "card-" + "".join(ch if ch.isalnum() else "-" for ch in f"{card.challenge}-{who}".lower())
        ident += f"-{len(cards)}" if any(ident == made for made, _ in cards) else ""
        cards.append((ident, f"{card.challenge}, {who}"))
        body = f"<p class=\"muted\">{card.deals} deal(s) of {_code(card.puzzle)}.</p>"
        body += _solo(card) if card.players == 1 else _teams(card)
        if card.players == 1 and card.teams:
            body += ("<p><b>Agents playing the solo deals</b> (<code>--solo-agents</code>): each agent kind's wins, "
                     "95% intervals with the games clustered by deal -- what a player of that kind achieves, an "
                     "estimate, not a bound.</p>"
                     + _teams(card))
        body += _open(card)
        if card.alike is not None:
            r = card.alike
            body += (f"<p><b>Hardest and easiest deals</b>: none; every ranked deal has the same value "
                     f"({esc(value_text(r, markdown=False))}) and open optimum "
                     f"({esc(card.open_text(int(r['seed'])))}). One of them: "
                     f"{_code(reproduce_hidden(r))}</p>")
        if card.same_value:
            body += f"<p><b>Hardest and easiest deals</b>: {esc(same_value_note(card))}</p>"
        lists = listed_deals(card)
        for at in range(0, len(lists), 2):
            body += "<div class=\"grid2\">" + "".join(f"<div>{_listed(card, *pair)}</div>" for pair in lists[at:at + 2])
            body += "</div>"
        parts.append(f"<section class=\"card\" id=\"{esc(ident)}\"><h2>{esc(card.challenge)}, {esc(who)}</h2>{body}"
                     "</section>")
    if len(cards) > 1:
        parts.insert(1, contents(cards, "Cards"))
    return document("Difficulty cards", "\n".join(parts))


__all__ = ["difficulty_page"]
