"""The sweep report's figures as PNG (matplotlib, the ``plot`` extra): the same three plots the HTML report
draws in SVG (:mod:`stratagem.views.report`), drawn so that they cannot mislead.

- ``solvable.png``: for each group (challenge, players, method) three bars -- solvable, unsolvable and
  undecided deals, each as a share of *all* the group's deals -- so a group with many undecided deals
  never shows as "all solvable"; the count is written on each bar.
- ``lengths.png``: one panel per challenge and player count; a bar per whole number of turns (integer
  ticks, integer counts) and the undecided deals as a bar of their own.
- ``seconds.png``: one panel per challenge and player count (challenge 0's hundredths of a second are
  not pooled with challenge 1's seconds), a box per method on a log scale, and a line for each time
  limit its deals were run under.

Deterministic: the same report gives the same bytes (no timestamps in the files).
"""

from __future__ import annotations

import io
from collections import Counter
from typing import Any, Protocol


class PlottedReport(Protocol):
    """What the plots read of a sweep report (:class:`stratagem.sweepreport.SweepReport` provides it; a
    protocol rather than an import, so that the report, which draws its plots here, and the plots do not
    import each other)."""

    def fractions(self) -> list[dict[str, Any]]: ...

    def length_panels(self) -> dict[tuple[str, int], tuple[Counter[int], int]]: ...

    def seconds_panels(self) -> dict[tuple[str, int], tuple[dict[str, list[float]], tuple[float, ...]]]: ...

#: Bar colours: solvable, unsolvable, undecided (the SVG charts take them from here). Blue, vermilion and
#: grey (Okabe and Ito's colour-blind-safe palette): the green and red bars they replace look alike to a
#: reader with deuteranopia or protanopia, and the legend tells the series by colour alone.
COLOURS = {"solvable": "#0072b2", "unsolvable": "#d55e00", "undecided": "#adb5bd"}
#: The time limits' lines and labels (the SVG charts take it from here): 5.6:1 on white, as text must be at
#: least 4.5:1 (the orange it replaces, 4.3:1, is the pages' highlight of a move).
LIMIT_COLOUR = "#b8400c"


def _grid(keys: list[tuple[str, int]]) -> tuple[list[str], list[int]]:
    return sorted({c for c, _ in keys}), sorted({p for _, p in keys})


def png_plots(report: PlottedReport) -> dict[str, bytes]:
    """``solvable.png``, ``lengths.png`` and ``seconds.png`` as PNG bytes. :class:`ImportError` without
    matplotlib."""
    from stratagem.core.plotting import pyplot

    plt = pyplot()
    from matplotlib.ticker import MaxNLocator

    def png(fig: Any) -> bytes:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
        plt.close(fig)
        return buffer.getvalue()

    figures: dict[str, bytes] = {}
    rows = report.fractions()
    fig, ax = plt.subplots(figsize=(max(5.0, 1.1 * len(rows) + 2), 3.8))
    width = 0.27
    for k, kind in enumerate(("solvable", "unsolvable", "undecided")):
        xs = [i + (k - 1) * width for i in range(len(rows))]
        shares = [r[kind] / r["deals"] if r["deals"] else 0.0 for r in rows]
        ax.bar(xs, shares, width=width, color=COLOURS[kind], label=kind)
        for x, share, r in zip(xs, shares, rows, strict=True):
            ax.text(x, share + 0.02, str(r[kind]), ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(rows)), [f"{r['challenge']}\n{r['players']}p {r['method']}" for r in rows], fontsize=7)
    ax.set_ylim(0, 1.15)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_ylabel("share of the group's deals")
    ax.set_title("Deals solvable, proven unsolvable, and undecided\n(count on each bar)", fontsize=10)  # fits 5 in
    ax.legend(fontsize=7, loc="upper right", ncol=3)
    fig.tight_layout()
    figures["solvable.png"] = png(fig)

    panels = report.length_panels()
    challenges, players = _grid(list(panels)) if panels else ([""], [1])
    fig, axes = plt.subplots(len(challenges), len(players), figsize=(3.2 * len(players) + 0.6, 2.5 * len(challenges)
                                                                       + 0.6), squeeze=False)
    every = sorted({n for counts, _ in panels.values() for n in counts})
    lo, hi = (every[0], every[-1]) if every else (0, 0)
    for i, challenge in enumerate(challenges):
        for j, count in enumerate(players):
            ax = axes[i][j]
            if (challenge, count) not in panels:
                ax.axis("off")
                continue
            counts, undecided = panels[(challenge, count)]
            lengths = list(range(lo, hi + 1))
            ax.bar(lengths, [counts.get(n, 0) for n in lengths], width=0.8, color="#4c6ef5")
            ticks = lengths + [hi + 2]
            ax.bar([hi + 2], [undecided], width=0.8, color=COLOURS["undecided"])
            ax.set_xticks(ticks, [str(n) for n in lengths] + ["undec."], fontsize=7)
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_title(f"{challenge}, {count} player(s)", fontsize=8)
            if i == len(challenges) - 1:
                ax.set_xlabel("proven optimal length (turns)", fontsize=7)
            if j == 0:
                ax.set_ylabel("deals", fontsize=7)
            ax.tick_params(labelsize=7)
    fig.suptitle("Optimal lengths (undecided deals: grey bar)", fontsize=9)
    fig.tight_layout()
    figures["lengths.png"] = png(fig)

    times = report.seconds_panels()
    challenges, players = _grid(list(times)) if times else ([""], [1])
    fig, axes = plt.subplots(len(challenges), len(players), figsize=(3.2 * len(players) + 0.6, 2.5 * len(challenges)
                                                                       + 0.6), squeeze=False)
    for i, challenge in enumerate(challenges):
        for j, count in enumerate(players):
            ax = axes[i][j]
            if (challenge, count) not in times:
                ax.axis("off")
                continue
            by_method, limits = times[(challenge, count)]
            names = sorted(by_method)
            ax.boxplot([[max(s, 1e-3) for s in by_method[m]] for m in names])
            ax.set_xticks(range(1, len(names) + 1), names, fontsize=7)
            ax.set_yscale("log")
            seen = [max(s, 1e-3) for m in names for s in by_method[m]]
            top = max(seen + list(limits))
            ax.set_ylim(min(seen) / 2, top * 4)
            for k, limit in enumerate(limits):  # labels left and right in turn, so close limits do not collide
                ax.axhline(limit, color=LIMIT_COLOUR, linestyle="--", linewidth=1)
                ax.text(0.55 if k % 2 == 0 else len(names) + 0.45, limit * 1.15, f"time limit {limit:g} s",
                        color=LIMIT_COLOUR, fontsize=7, va="bottom", ha="left" if k % 2 == 0 else "right")
            ax.set_title(f"{challenge}, {count} player(s)", fontsize=8)
            if j == 0:
                ax.set_ylabel("seconds per deal", fontsize=7)
            ax.tick_params(labelsize=7)
    title = "Time per deal (log scale; a deal a limit stopped sits at its line)"
    # one panel is 3.8 inches wide: the title in two lines there, or it is cut at both edges
    fig.suptitle(title if len(players) > 1 else title.replace(" (", "\n("), fontsize=9)
    fig.tight_layout()
    figures["seconds.png"] = png(fig)
    return figures


__all__ = ["COLOURS", "png_plots"]
