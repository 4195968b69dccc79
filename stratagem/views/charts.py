"""Small SVG charts for the report page: grouped bars with whole-number ticks, and box plots on a log scale
with a limit line. Written out here (a few dozen lines each) so a page needs no plotting library, no
script and no network, and the same data always gives the same bytes.

A chart's text alternative says its values (every bar's, every box's median, quartiles and whiskers),
not its title alone. A chart is drawn at its own size and never scaled down to the page: its text is
8-9 px at that size, and a wide chart (the solvable chart grows with its groups) shrunk to a phone's
width was 3 px text. It sits in a box that scrolls sideways instead. The box plots draw their whiskers
as matplotlib does (the PNG of the same report: 1.5 interquartile ranges, the deals beyond as circles)
and say so under the chart.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from stratagem.sweepplots import LIMIT_COLOUR
from stratagem.views.page import INK, MUTED, esc

FONT = "font-family=\"DejaVu Sans, sans-serif\""


def integer_ticks(top: float) -> list[int]:
    """Whole-number ticks from 0 to at least ``top``: steps of 1, 2, 5, 10, 20, 50 ... at most six ticks."""
    step = 1
    while math.ceil(top / step) > 5:
        for factor in (2, 2.5, 2):
            step = int(step * factor)
            if math.ceil(top / step) <= 5:
                break
    return list(range(0, max(1, math.ceil(top / step)) * step + 1, step))


def _frame(width: int, height: int, title: str, kind: str, described: str) -> list[str]:
    """The chart's ``<svg>``, its background and its title; its text alternative is the title and
    ``described``, the values drawn: a chart is an image to assistive technology, and its title alone
    ("States first reached at each depth") left out every number it shows."""
    label = f"{title}: {described}" if described else title
    return [f"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart {kind}\" width=\"{width}\" height=\"{height}\" "
            f"viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{esc(label)}\">",
            f"<rect width=\"{width}\" height=\"{height}\" fill=\"#fff\"/>",
            f"<text x=\"{width / 2}\" y=\"15\" text-anchor=\"middle\" font-size=\"12\" font-weight=\"600\" {FONT} "
            f"fill=\"{INK}\">{esc(title)}</text>"]


def _scrolling(svg: str) -> str:
    """``svg`` in a box that scrolls sideways when the chart is wider than the page (page.py's ``.scroll``),
    drawn at its own size there."""
    return f"<div class=\"scroll\">{svg}</div>"


def bars(title: str, labels: Sequence[str], series: Sequence[tuple[str, str, Sequence[float]]], *,
         fractions: bool = False, notes: Sequence[Sequence[str]] | None = None, width: int = 0,
         y_label: str = "", colours: Sequence[str] | None = None) -> str:
    """Grouped bars: one group per label, one bar per series (name, colour, values). ``fractions``: the
    axis runs 0..1 in quarters, else whole-number ticks. ``notes[s][i]`` is written above bar i of series s;
    ``colours[i]``, with one series, colours bar i instead of the series' colour."""
    groups, per = len(labels), max(1, len(series))
    bar = 12 if per > 1 else 18
    width = width or max(220, 56 + groups * (per * bar + 12) + 10)
    height, left, top, bottom = 210, 44, 26, 42
    plot_h = height - top - bottom
    highest = max([v for _, _, values in series for v in values] + [0])
    ticks: list[float] = [0, 0.25, 0.5, 0.75, 1.0] if fractions else [float(t) for t in integer_ticks(highest)]
    scale = plot_h / (ticks[-1] or 1)
    slot = (width - left - 10) / max(1, groups)
    parts = _frame(width, height, title, "bars", _said(labels, series, notes, fractions))
    for t in ticks:
        y = top + plot_h - t * scale
        text = f"{t:g}" if fractions else str(int(t))
        parts.append(f"<line x1=\"{left}\" x2=\"{width - 8}\" y1=\"{y:.1f}\" y2=\"{y:.1f}\" stroke=\"#e9ecef\"/>"
                     f"<text x=\"{left - 4}\" y=\"{y + 3:.1f}\" text-anchor=\"end\" font-size=\"9\" {FONT} "
                     f"fill=\"{MUTED}\">{text}</text>")
    if y_label:
        parts.append(f"<text transform=\"translate(10 {top + plot_h / 2}) rotate(-90)\" text-anchor=\"middle\" "
                     f"font-size=\"9\" {FONT} fill=\"{MUTED}\">{esc(y_label)}</text>")
    for i, label in enumerate(labels):
        x0 = left + i * slot + (slot - per * bar) / 2
        for s, (name, colour, values) in enumerate(series):
            value = values[i]
            h = value * scale
            x = x0 + s * bar
            fill = colours[i] if colours is not None else colour
            parts.append(f"<rect x=\"{x:.1f}\" y=\"{top + plot_h - h:.1f}\" width=\"{bar - 2}\" height=\"{h:.1f}\" "
                         f"fill=\"{fill}\"><title>{esc(label)}: {esc(name)} {value:g}</title></rect>")
            if notes is not None and notes[s][i]:
                parts.append(f"<text x=\"{x + bar / 2 - 1:.1f}\" y=\"{top + plot_h - h - 3:.1f}\" "
                             f"text-anchor=\"middle\" font-size=\"8\" {FONT} fill=\"{INK}\">{esc(notes[s][i])}</text>")
        for k, line in enumerate(label.split("\n")):
            parts.append(f"<text x=\"{left + i * slot + slot / 2:.1f}\" y=\"{top + plot_h + 12 + 10 * k}\" "
                         f"text-anchor=\"middle\" font-size=\"9\" {FONT} fill=\"{INK}\">{esc(line)}</text>")
    base = top + plot_h
    parts.append(f"<line x1=\"{left}\" x2=\"{width - 8}\" y1=\"{base}\" y2=\"{base}\" stroke=\"{INK}\"/>")
    if len(series) > 1:
        x = left
        for name, colour, _ in series:
            parts.append(f"<rect x=\"{x}\" y=\"{height - 11}\" width=\"9\" height=\"9\" fill=\"{colour}\"/>"
                         f"<text x=\"{x + 12}\" y=\"{height - 3}\" font-size=\"9\" {FONT} "
                         f"fill=\"{INK}\">{esc(name)}</text>")
            x += 18 + 6 * len(name)
    parts.append("</svg>")
    return _scrolling("".join(parts))


def _said(labels: Sequence[str], series: Sequence[tuple[str, str, Sequence[float]]],
          notes: Sequence[Sequence[str]] | None, fractions: bool) -> str:
    """The values of a bar chart in words, group by group (``8: 169``; with several series ``Challenge 1
    2p auto: solvable 0.99 (495), unsolvable 0 (0), ...``): a bar's note follows its value when it says
    something else (a count over a share, ``par``)."""
    def one(s: int, i: int) -> str:
        value = series[s][2][i]
        text = f"{value:.3g}" if fractions else f"{value:g}"
        note = notes[s][i] if notes is not None and notes[s][i] else ""
        return text + (f" ({note})" if note and note != text else "")

    groups = []
    for i, label in enumerate(labels):
        values = [one(s, i) for s in range(len(series))]
        named = values if len(series) == 1 else [f"{name} {v}" for (name, _, _), v in zip(series, values, strict=True)]
        groups.append(f"{label.replace(chr(10), ' ')}: {', '.join(named)}")
    return "; ".join(groups)


def _quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """Quartiles and median, interpolated as numpy's ``percentile`` (and so matplotlib's box plot) does."""
    if len(values) < 2:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def whiskers(values: Sequence[float], q1: float, q3: float) -> tuple[float, float]:
    """Where the whiskers of a box from ``q1`` to ``q3`` end, as matplotlib's box plot (its default
    ``whis=1.5``) puts them: at the least and the most value within 1.5 interquartile ranges of the box,
    never inside it. The values beyond are the outliers, drawn one by one."""
    reach = 1.5 * (q3 - q1)
    low = min((v for v in values if v >= q1 - reach), default=q1)
    high = max((v for v in values if v <= q3 + reach), default=q3)
    return min(low, q1), max(high, q3)


#: Under every box plot: what its parts are.
BOX_CAPTION = "Box: quartiles and median; whiskers: the furthest deal within 1.5 IQR of the box; circles: beyond."


def boxes(title: str, groups: dict[str, list[float]], limits: Sequence[float] = (), width: int = 250) -> str:
    """One box per group (quartiles, the median as a line, :func:`whiskers` and the outliers beyond them as
    circles, one circle for those that fall on the same point) on a log scale of seconds, with each of
    ``limits`` (the time limits the values were measured under) drawn as a dashed line; under it, a
    caption saying what the whiskers are."""
    height, left, top, bottom = 200, 44, 26, 26
    plot_h = height - top - bottom
    seen = [max(v, 1e-3) for values in groups.values() for v in values] or [1e-3]
    low = math.floor(math.log10(min(seen)))
    high = math.ceil(math.log10(max(seen + [v for v in limits if v > 0]) * 1.5))
    span = max(1, high - low)

    def y(v: float) -> float:
        return top + plot_h - (math.log10(max(v, 1e-3)) - low) / span * plot_h

    said = []
    for name in sorted(groups):
        times = sorted(max(v, 1e-3) for v in groups[name])
        q1, q2, q3 = _quartiles(times)
        w_low, w_high = whiskers(times, q1, q3)
        outside = sum(1 for v in times if v < w_low or v > w_high)
        said.append(f"{name} ({len(times)} deal(s)): median {q2:.3g} s, box {q1:.3g} to {q3:.3g} s, whiskers "
                    f"{w_low:.3g} to {w_high:.3g} s, {outside} beyond")
    limits_said = [f"limit line at {v:g} s" for v in limits if v > 0]
    parts = _frame(width, height, title, "boxes", "; ".join(said + limits_said))
    for power in range(low, high + 1):
        text, at = f"{10.0 ** power:g}", y(10.0 ** power)
        parts.append(f"<line x1=\"{left}\" x2=\"{width - 8}\" y1=\"{at:.1f}\" y2=\"{at:.1f}\" "
                     f"stroke=\"#e9ecef\"/><text x=\"{left - 4}\" y=\"{at + 3:.1f}\" text-anchor=\"end\" "
                     f"font-size=\"9\" {FONT} fill=\"{MUTED}\">{text}</text>")
    parts.append(f"<text transform=\"translate(10 {top + plot_h / 2}) rotate(-90)\" text-anchor=\"middle\" "
                 f"font-size=\"9\" {FONT} fill=\"{MUTED}\">seconds per deal</text>")
    slot = (width - left - 10) / max(1, len(groups))
    for i, name in enumerate(sorted(groups)):
        values = sorted(max(v, 1e-3) for v in groups[name])
        q1, q2, q3 = _quartiles(values)
        w_low, w_high = whiskers(values, q1, q3)
        cx = left + i * slot + slot / 2
        beyond = sorted({round(y(v), 1) for v in values if v < w_low or v > w_high})
        parts.extend(f"<circle class=\"outlier\" cx=\"{cx:.1f}\" cy=\"{at:.1f}\" r=\"2.5\" fill=\"none\" "
                     f"stroke=\"{INK}\" stroke-width=\"0.8\"/>" for at in beyond)
        parts.extend(f"<line x1=\"{cx - 8:.1f}\" x2=\"{cx + 8:.1f}\" y1=\"{y(end):.1f}\" y2=\"{y(end):.1f}\" "
                     f"stroke=\"{INK}\"/>" for end in (w_low, w_high))  # the whiskers' caps
        parts.append(f"<line class=\"whisker\" x1=\"{cx:.1f}\" x2=\"{cx:.1f}\" y1=\"{y(w_low):.1f}\" "
                     f"y2=\"{y(w_high):.1f}\" stroke=\"{INK}\"/>"
                     f"<rect x=\"{cx - 18:.1f}\" y=\"{y(q3):.1f}\" width=\"36\" "
                     f"height=\"{max(1.0, y(q1) - y(q3)):.1f}\" fill=\"#dbe4ff\" stroke=\"{INK}\"/>"
                     f"<line x1=\"{cx - 18:.1f}\" x2=\"{cx + 18:.1f}\" y1=\"{y(q2):.1f}\" y2=\"{y(q2):.1f}\" "
                     f"stroke=\"{INK}\" stroke-width=\"2\"><title>{esc(name)}: median {q2:.3g} s, {len(values)} "
                     f"deal(s), whiskers {w_low:.3g} to {w_high:.3g} s, most {values[-1]:.3g} s</title></line>"
                     f"<text x=\"{cx:.1f}\" y=\"{height - 10}\" text-anchor=\"middle\" font-size=\"9\" {FONT} "
                     f"fill=\"{INK}\">{esc(name)} ({len(values)})</text>")
    for k, limit in enumerate(v for v in limits if v > 0):  # labels right and left in turn: close limits
        at, (x, anchor) = y(limit), (width - 10, "end") if k % 2 == 0 else (left + 4, "start")
        parts.append(f"<line class=\"limit\" x1=\"{left}\" x2=\"{width - 8}\" y1=\"{at:.1f}\" y2=\"{at:.1f}\" "
                     f"stroke=\"{LIMIT_COLOUR}\" stroke-dasharray=\"5 3\"/><text x=\"{x}\" y=\"{at - 3:.1f}\" "
                     f"text-anchor=\"{anchor}\" font-size=\"9\" {FONT} fill=\"{LIMIT_COLOUR}\">"
                     f"time limit {limit:g} s</text>")
    parts.append("</svg>")
    return (f"<figure class=\"chart-box\">{_scrolling(''.join(parts))}"
            f"<figcaption class=\"muted\">{esc(BOX_CAPTION)}</figcaption></figure>")


__all__ = ["BOX_CAPTION", "bars", "boxes", "integer_ticks", "whiskers"]
