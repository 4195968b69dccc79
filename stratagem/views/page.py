"""The page shell every view shares: one self-contained HTML document (inline CSS, inline SVG and a small
inline script), with no network access of any kind -- no fonts, no CDN, no images from elsewhere -- so a
page can be mailed, archived or opened offline and looks the same.

The script does four things, all optional for reading the page: it steps a replay (buttons, the move
list, the left and right arrow keys, Home and End, and ``#turn=N`` in the address), it sorts a table whose
header is clicked, it shows the turn a replay opens on, and it opens the folded parts (``<details>``)
around the target of a link within the page (a proof tree's reference to a node drawn above). Without it
every turn of a replay is still in the page, so nothing is lost when scripts are off: a ``<noscript>`` style
then shows every step one under the other, each under its caption, without the buttons and the move list
that would do nothing (:data:`STATIC`).

The script also shows a tree's buttons (:mod:`stratagem.views.prooftree`: one level more, every node, back
to two levels, every position shown or folded), which are hidden without it.

Printed, a page is the same static form (every step of a replay, the controls left out; a replay made
with ``print_every=False``, as a sweep report's fifteen are, prints the step on screen and its whole move
list instead, which keeps a report of 19 pages from growing to 90), every folded part opened for the
printing (and closed again after it) except a tree's, and charts and tables that scroll sideways on
screen laid out within the paper's width: a box that scrolls cannot scroll on paper, and what it hid was
cut off. A tree prints what is open on screen, opened further level by level while it stays within
:data:`PRINT_LINES` lines (opened in full, a 2,500-node proof tree printed 140 pages), under a printed
note that says how many lines it left folded and how to print them all; a position folded on screen is
left out of the print, and the note says how to print them.

Everything works from the keyboard: a replay takes its keys only while the focus is inside it (it is
focusable itself, outlined when focused), so on a page of several replays the keys scroll the page and
step no replay far off screen; the move list's steps and a sortable table's headers are buttons (Tab
reaches them, Enter or Space presses them); the replay's status is announced as it changes
(``aria-live``). A table sits in a box that scrolls sideways when it is wider than the screen, so a
narrow window scrolls the table, not the page; a position's notation (a long unbroken word) wraps, and a
tree indents its levels less on a narrow screen and scrolls in its own box when it is deeper than that.
Table headers say what they head (``scope``). Nothing on the page moves by itself, so there is no
motion to reduce.

Output is deterministic: the same content gives the same bytes (no dates, no random ids).
"""

from __future__ import annotations

from html import escape
from typing import Any

#: The colours of the page, shared with the SVG drawings.
INK, MUTED, GOAL, MOVE, PAPER = "#1d2329", "#5f6b76", "#1a7f37", "#d9480f", "#ffffff"

STYLE = """
:root { color-scheme: light; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: #1d2329; background: #f5f6f8; margin: 0; }
main { max-width: 1100px; margin: 0 auto; padding: 18px 22px 40px; }
h1 { font-size: 22px; margin: 4px 0 2px; } h2 { font-size: 18px; margin: 22px 0 8px; }
h3 { font-size: 15px; margin: 14px 0 6px; }
p.sub, .muted { color: #5f6b76; } p.sub { margin: 0 0 12px; }
code, pre, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 13px; }
.mono { overflow-wrap: anywhere; }
pre { background: #fff; border: 1px solid #d8dde3; border-radius: 6px; padding: 8px 10px; overflow-x: auto; }
.card { background: #fff; border: 1px solid #d8dde3; border-radius: 8px; padding: 12px 14px; margin: 10px 0; }
.claims li { margin: 3px 0; } .ok { color: #1a7f37; font-weight: 600; } .warn { color: #9a6700; font-weight: 600; }
.bad { color: #cf222e; font-weight: 600; }
.replay .controls { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin: 6px 0 10px; }
.replay button { font: inherit; padding: 3px 10px; border: 1px solid #b8c0c8; border-radius: 5px;
                 background: #fff; cursor: pointer; }
.replay button:hover { background: #eef1f4; }
.replay .where { margin-left: 8px; font-weight: 600; }
.replay:focus { outline: 2px solid #1c5fd4; outline-offset: 4px; border-radius: 4px; }
.replay button:focus-visible, table.sortable th button:focus-visible { outline: 2px solid #1c5fd4;
                                                                        outline-offset: 1px; }
.replay .body { display: flex; gap: 16px; align-items: flex-start; flex-wrap: wrap; }
.replay .stage { flex: 1 1 560px; min-width: 0; }
.replay ol.moves { flex: 0 0 210px; margin: 0; padding: 6px 6px 6px 34px; background: #fff;
                   border: 1px solid #d8dde3; border-radius: 8px; max-height: 520px; overflow-y: auto; }
.replay ol.moves li { padding: 1px 4px; border-radius: 4px; cursor: pointer; font-family: "DejaVu Sans Mono",
                      Menlo, monospace; font-size: 13px; }
.replay ol.moves li button { font: inherit; color: inherit; background: none; border: 0; padding: 0;
                             border-radius: 3px; width: 100%; text-align: left; cursor: pointer; }
.replay ol.moves li button:hover { background: none; text-decoration: underline; }
.replay ol.moves li.current { background: #b8400c; color: #fff; }
.replay ol.moves li.current::marker { color: #b8400c; font-weight: 700; }
.replay ol.moves li.current button:focus-visible { outline-color: #fff; outline-offset: -2px; }
.replay ol.moves li.start { list-style: none; margin-left: -28px; font-family: inherit; }
.turn[hidden] { display: none; }
.turn h3 { margin-top: 0; }
svg { display: block; max-width: 100%; height: auto; }
.scroll { overflow-x: auto; max-width: 100%; }
.scroll > svg.chart { max-width: none; }
figure.chart-box { margin: 0; width: min-content; max-width: 100%; }
figure.chart-box figcaption { font-size: 12px; margin: 2px 0 0; }
table { border-collapse: collapse; background: #fff; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid #d8dde3; padding: 3px 8px; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.sortable th { cursor: pointer; user-select: none; background: #eef1f4; }
table.sortable th button { font: inherit; color: inherit; background: none; border: 0; padding: 0;
                           cursor: pointer; text-align: inherit; }
table.sortable th[aria-sort="ascending"]::after { content: " \\25B2"; }
table.sortable th[aria-sort="descending"]::after { content: " \\25BC"; }
details { margin: 2px 0 2px 14px; } details > summary { cursor: pointer; }
.tree { font-size: 13px; } .tree .mv { font-family: "DejaVu Sans Mono", Menlo, monospace; font-weight: 600; }
.tree .val { color: #5f6b76; } .tree .leaf { margin-left: 28px; }
.tree details:target > summary { background: #fff3bf; border-radius: 4px; }
.tree { overflow-x: auto; }
.tree details.pos > summary { color: #5f6b76; font-size: 12px; }
.tree-tools { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0; }
.tree-tools[hidden], .print-note { display: none; }
.tree-tools button { font: inherit; font-size: 13px; padding: 2px 8px; border: 1px solid #b8c0c8; border-radius: 5px;
                     background: #fff; cursor: pointer; }
.tree-tools button:hover { background: #eef1f4; }
.tree-tools button:focus-visible { outline: 2px solid #1c5fd4; outline-offset: 1px; }
@media (max-width: 600px) {
  .scroll > svg.table { min-width: 480px; } .scroll > svg.cards { max-width: none; }
  .tree details { margin-left: 6px; } .tree .leaf { margin-left: 16px; }
}
nav.toc { margin: 4px 0 12px; } nav.toc ul { display: inline; margin: 0; padding: 0; }
nav.toc li { display: inline; } nav.toc li + li::before { content: " \\00B7  "; color: #5f6b76; }
.grid2 { display: flex; flex-wrap: wrap; gap: 14px; }
.grid2 > * { min-width: 0; max-width: 100%; }
.legend svg { display: inline-block; vertical-align: middle; }
@media print {
  body { background: #fff; }
  main { max-width: none; padding: 0; }
  .replay .controls, .replay:not([data-print="step"]) ol.moves { display: none; }
  .replay:not([data-print="step"]) .turn[hidden] { display: block; }
  .replay:not([data-print="step"]) .turn + .turn { border-top: 1px solid #d8dde3; margin-top: 10px;
                                                   padding-top: 8px; }
  .replay ol.moves { max-height: none; overflow: visible; }
  .replay ol.moves li.current { background: none; color: inherit; font-weight: 700; text-decoration: underline; }
  .turn, .card, figure, svg, tr { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  .scroll, .tree { overflow: visible; }
  .tree-tools, .tree details.pos:not([open]) { display: none; }
  .print-note { display: block; font-style: italic; }
  .scroll > svg.chart { max-width: 100%; }
  figure.chart-box { width: auto; }
  pre { white-space: pre-wrap; }
  pre, code { overflow-wrap: anywhere; }
}
"""

#: The most lines (a node, or a link to one drawn elsewhere) a tree is opened to when printed
#: (:mod:`stratagem.views.prooftree`): some 12 A4 pages. Opened in full, a 2,500-node tree printed 140.
PRINT_LINES = 600

#: The replays' static form where scripts are off (inside ``<noscript>``): every step shown, one under the
#: other, and no buttons or move list that would do nothing. Printing gives the same form (:data:`STYLE`).
STATIC = """
.turn[hidden] { display: block; }
.turn + .turn { border-top: 1px solid #d8dde3; margin-top: 10px; padding-top: 8px; }
.replay .controls, .replay ol.moves { display: none; }
"""

#: Replays (every ``.replay`` element on the page steps on its own, and takes the keys only while the focus
#: is inside it; ``#turn=N`` steps the first) and sortable tables (a header's button sorts by its column;
#: numbers sort as numbers).
SCRIPT = """
(function () {
  var replays = Array.prototype.slice.call(document.querySelectorAll('.replay'));
  function setup(box) {
    var turns = box.querySelectorAll('.turn'), items = box.querySelectorAll('ol.moves li');
    var where = box.querySelector('.where'), last = turns.length - 1, at = 0;
    var unit = box.getAttribute('data-unit') || 'turn';
    function show(k) {
      at = Math.max(0, Math.min(last, k));
      for (var i = 0; i < turns.length; i++) { turns[i].hidden = (i !== at); }
      for (var j = 0; j < items.length; j++) {
        items[j].classList.toggle('current', j === at);
        var b = items[j].querySelector('button');
        if (b) { if (j === at) { b.setAttribute('aria-current', 'step'); } else { b.removeAttribute('aria-current'); } }
      }
      box.setAttribute('data-at', String(at));
      if (where) { where.textContent = at === 0 ? 'start' : unit + ' ' + at + ' of ' + last; }
    }
    box.go = function (k) { show(k); };
    var act = { first: function () { show(0); }, prev: function () { show(at - 1); },
                next: function () { show(at + 1); }, last: function () { show(last); } };
    Array.prototype.forEach.call(box.querySelectorAll('button[data-go]'), function (b) {
      b.addEventListener('click', function () { act[b.getAttribute('data-go')](); });
    });
    Array.prototype.forEach.call(items, function (li, i) {
      li.addEventListener('click', function () { show(i); });
    });
    // the keys of the replay that holds the focus (it or a button in it), and of no other
    box.addEventListener('keydown', function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
      var to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: last }[e.key];
      if (to !== undefined) { show(to); e.preventDefault(); }
    });
    show(0);
  }
  replays.forEach(setup);
  var m = /turn=(\\d+)/.exec(location.hash);
  if (m && replays.length) { replays[0].go(parseInt(m[1], 10)); }
  function reveal() {
    var target = location.hash.length > 1 ? document.getElementById(location.hash.slice(1)) : null;
    if (!target) { return; }
    for (var up = target; up; up = up.parentElement) { if (up.tagName === 'DETAILS') { up.open = true; } }
    target.scrollIntoView();
  }
  window.addEventListener('hashchange', reveal);
  reveal();
  // a tree's box (views.prooftree): its nodes, its lines (a node or a link to one), what is on screen
  function all(box, selector) { return Array.prototype.slice.call(box.querySelectorAll(selector)); }
  function seen(e) { return !e.parentElement.closest('details:not([open])'); }
  function branch(d) { return d.querySelector(':scope > details.node, :scope > .leaf') !== null; }
  function lines(box) { return all(box, 'details.node, .leaf'); }
  function shown(box) { return lines(box).filter(seen).length; }
  function level(box) {  // the folded nodes on screen nearest the top: the level "one level more" opens
    var folded = all(box, 'details.node').filter(function (d) { return !d.open && branch(d) && seen(d); });
    var top = Math.min.apply(null, folded.map(function (d) { return +d.getAttribute('data-depth'); }));
    return folded.filter(function (d) { return +d.getAttribute('data-depth') === top; });
  }
  function drawing(d) { return !d.classList.contains('node') || !branch(d); }  // a position's fold or a leaf
  var treeActs = {
    deeper: function (box) { level(box).forEach(function (d) { d.open = true; }); },
    all: function (box) { all(box, 'details.node').forEach(function (d) { if (branch(d)) { d.open = true; } }); },
    top: function (box) {
      all(box, 'details.node').forEach(function (d) { d.open = branch(d) && +d.getAttribute('data-depth') < 2; });
      all(box, 'details.pos').forEach(function (d) { d.open = false; });
    },
    positions: function (box) { all(box, 'details').filter(drawing).forEach(function (d) { d.open = true; }); },
    nopositions: function (box) { all(box, 'details').filter(drawing).forEach(function (d) { d.open = false; }); }
  };
  var boxes = Array.prototype.slice.call(document.querySelectorAll('.trees'));
  boxes.forEach(function (box) {
    var tools = box.querySelector('.tree-tools');
    tools.hidden = false;
    all(tools, 'button[data-tree]').forEach(function (b) {
      b.addEventListener('click', function () { treeActs[b.getAttribute('data-tree')](box); });
    });
  });
  // Printed, a folded part is opened (paper cannot unfold it), and closed again after the printing. A tree
  // opens level by level while it stays within PRINT_LINES lines (opened in full, a 2,500-node tree printed
  // 140 pages), and a note printed above it says how many lines it left folded and how to print them all.
  var PRINT_LINES = __PRINT_LINES__, folded = [], notes = [];
  function fit(box) {
    var total = lines(box).length, levels = 0, next;
    while ((next = level(box)).length) {
      next.forEach(function (d) { d.open = true; });
      if (shown(box) > PRINT_LINES) { next.forEach(function (d) { d.open = false; }); break; }
      folded = folded.concat(next);
      levels = +next[0].getAttribute('data-depth') + 2;
    }
    var printed = shown(box), words = [];
    if (printed < total) {
      words.push('Printed: ' + printed.toLocaleString('en-US') + ' of the tree\\u2019s ' +
        total.toLocaleString('en-US') + ' lines' + (levels ? ', its first ' + levels + ' levels' : '') +
        ' and the folds opened on screen; ' + (total - printed).toLocaleString('en-US') + ' are folded. ' +
        'To print every line, press \\u201cOpen every node\\u201d above the tree on screen, then print.');
    }
    if (all(box, 'details.pos:not([open])').length) {
      words.push('Positions print where they are open on screen (\\u201cShow every position\\u201d opens them all).');
    }
    if (words.length) {
      var note = document.createElement('p');
      note.className = 'print-note';
      note.textContent = words.join(' ');
      box.insertBefore(note, box.firstChild);
      notes.push(note);
    }
  }
  window.addEventListener('beforeprint', function () {
    folded = Array.prototype.filter.call(document.querySelectorAll('details'), function (d) {
      return !d.open && !d.closest('.trees');
    });
    folded.forEach(function (d) { d.open = true; });
    boxes.forEach(fit);
  });
  window.addEventListener('afterprint', function () {
    folded.forEach(function (d) { d.open = false; });
    notes.forEach(function (n) { n.remove(); });
    folded = [];
    notes = [];
  });
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    var heads = table.querySelectorAll('th');
    Array.prototype.forEach.call(heads, function (th, col) {
      var press = document.createElement('button');  // Tab reaches it, Enter and Space press it
      press.type = 'button';
      while (th.firstChild) { press.appendChild(th.firstChild); }
      th.appendChild(press);
      th.addEventListener('click', function () {
        var up = th.getAttribute('aria-sort') !== 'ascending';
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
        var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
        function key(r) { var c = r.cells[col]; return c.getAttribute('data-sort') || c.textContent; }
        rows.sort(function (a, b) {
          var x = key(a), y = key(b), nx = parseFloat(x), ny = parseFloat(y);
          var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
          return up ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
})();
""".replace("__PRINT_LINES__", str(PRINT_LINES))


def hashable(value: Any) -> bool:
    """Whether ``value`` can be looked up as a node's id: a record's id may be a list or an object, which no
    node has (the page draws what it can of a broken record; ``verify`` names the problem)."""
    try:
        hash(value)
    except TypeError:
        return False
    return True


def esc(text: object) -> str:
    """``text`` made safe for HTML text and attribute values."""
    return escape(str(text), quote=True)


def document(title: str, body: str) -> str:
    """The whole page: ``body`` (HTML already escaped) under an ``<h1>`` of ``title``, with the style and the
    script inline. A Content-Security-Policy forbids every fetch, so a page cannot reach the network even if
    a record held a URL."""
    policy = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{esc(title)}</title>\n<style>{STYLE}</style>\n<noscript><style>{STATIC}</style></noscript>\n"
            "</head>\n<body>\n<main>\n"
            f"<h1>{esc(title)}</h1>\n{body}\n</main>\n<script>{SCRIPT}</script>\n</body>\n</html>\n")


def replay_frame(label: str, panels: list[str], moves: list[str], ident: str = "replay", unit: str = "turn",
                 print_every: bool = True) -> str:
    """A stepping replay: ``panels[0]`` is the start and ``panels[k]`` the position after move ``k``
    (``moves[k - 1]``); buttons, the move list (a button per step) and the keyboard step through them, and
    the status names the step in ``unit`` (the game's word: ``turn``, ``placement``, ``ply``) and is read
    out as it changes. The replay is focusable (``tabindex``), as it takes its keys only while the focus
    is inside it. Without a move there is nothing to step through: the start alone is drawn, with no
    buttons that would do nothing. Printed, every step is drawn, or, ``print_every`` false (a page of many
    replays), the step on screen and the whole move list."""
    assert len(panels) == len(moves) + 1
    if not moves:
        return f"<div class=\"position\" id=\"{esc(ident)}\">{panels[0]}</div>"
    sections = "\n".join(f"<section class=\"turn\" data-turn=\"{k}\"{'' if k == 0 else ' hidden'}>{panel}</section>"
                         for k, panel in enumerate(panels))
    items = ["<li class=\"start current\" data-turn=\"0\"><button type=\"button\" aria-current=\"step\">start"
             "</button></li>"]
    items += [f"<li data-turn=\"{k}\" data-move=\"{esc(move)}\"><button type=\"button\">{esc(move)}</button></li>"
              for k, move in enumerate(moves, start=1)]
    # the arrows are drawn, not read: a screen reader said "vertical line, black left-pointing triangle, start"
    controls = ("<div class=\"controls\"><button data-go=\"first\" title=\"Home\">"
                "<span aria-hidden=\"true\">|&#x25C0; </span>start</button>"
                "<button data-go=\"prev\" title=\"left arrow\"><span aria-hidden=\"true\">&#x25C0; </span>back</button>"
                "<button data-go=\"next\" title=\"right arrow\">forward<span aria-hidden=\"true\"> &#x25B6;</span>"
                "</button>"
                "<button data-go=\"last\" title=\"End\">end<span aria-hidden=\"true\"> &#x25B6;|</span></button>"
                f"<span class=\"where\" aria-live=\"polite\">start</span><span class=\"muted\">&nbsp; {esc(label)}"
                "</span></div>")
    printed = "" if print_every else " data-print=\"step\""
    return (f"<div class=\"replay\" id=\"{esc(ident)}\" data-turns=\"{len(moves)}\" data-unit=\"{esc(unit)}\" "
            f"data-at=\"0\"{printed} tabindex=\"0\" role=\"group\" "
            f"aria-label=\"replay, {esc(label)}\" "
            "aria-keyshortcuts=\"ArrowLeft ArrowRight Home End\">"
            f"{controls}"
            f"<div class=\"body\"><div class=\"stage\">{sections}</div>"
            f"<ol class=\"moves\" start=\"0\">{''.join(items)}</ol></div></div>")


def contents(parts: list[tuple[str, str]], label: str = "On this page") -> str:
    """Links to a page's parts (each ``(anchor id, words)``), for its top: a long page (a sweep report with
    scripts off shows every step of fifteen replays, 75,000 px) is read by going to a part, not by
    scrolling to it."""
    links = "".join(f"<li><a href=\"#{esc(ident)}\">{esc(words)}</a></li>" for ident, words in parts)
    return f"<nav class=\"toc\" aria-label=\"{esc(label)}\"><b>{esc(label)}:</b> <ul>{links}</ul></nav>"


def table(headers: list[str], rows: list[list[str]], numeric: set[int] | None = None, sortable: bool = True,
          sort_keys: dict[int, list[float]] | None = None) -> str:
    """A table of already-escaped cells; columns in ``numeric`` are right-aligned (and sort as numbers). A
    column of ``sort_keys`` sorts by those numbers, one per row, rather than by its text (``2/3 (0.6667)``
    would sort as 2). It sits in a box that scrolls sideways, so a table wider than a narrow screen does not
    widen the page."""
    numeric, sort_keys = numeric or set(), sort_keys or {}
    num = ' class="num"'

    def cell(i: int, k: int, text: str) -> str:
        key = f' data-sort="{sort_keys[i][k]!r}"' if i in sort_keys else ""
        return f"<td{num if i in numeric else ''}{key}>{text}</td>"

    head = "".join(f"<th scope=\"col\"{num if i in numeric else ''}>{h}</th>" for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(cell(i, k, c) for i, c in enumerate(row)) + "</tr>" for k, row in enumerate(rows))
    kind = " class=\"sortable\"" if sortable else ""
    return f"<div class=\"scroll\"><table{kind}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"


__all__ = ["GOAL", "INK", "MOVE", "MUTED", "PAPER", "contents", "document", "esc", "replay_frame", "table"]
