"""Strato: how each method's time grows with the optimal length (``strato-growth.md`` and, with the
``plot`` extra, ``strato-growth.png``).

One-row challenges whose goals ask for 1 to 5 cards per half-row; the plot adds every shipped deal a
method solved within the time limit, one panel per method family (state-space search, SAT and CP-SAT).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path

from stratagem.bench.strato_methods import ALL_METHODS, SEARCH_METHODS, Cell, Row, best_length, header, run
from stratagem.bench.tables import write_table
from stratagem.core.outputs import one_set
from stratagem.models.strato.rules.challenge import Challenge, Options, RowGoal, SequenceGoal
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.turns import StratoGame

GROWTH_SEEDS = (1, 2, 3)

#: The growth plot's panels: methods that search the state space, and those that encode it for a solver.
METHOD_FAMILIES = (("state-space search", SEARCH_METHODS), ("SAT and CP-SAT", ("sat", "cpsat")))


def growth_challenge(k: int) -> Challenge:
    """One row, rain and wind, ``k`` rain beside the rain tornado and ``k`` wind beside the wind tornado, limit 6."""
    return Challenge(f"growth-{k}", 0, "RW", 1, ("RW",), 6,
                     RowGoal(SequenceGoal("R" * k), SequenceGoal("W" * k)), 1, 1)


def write_growth(folder: Path, time_limit: float, shipped: list[Row], log: Callable[[str], None],
                 missing: Sequence[str] = ()) -> list[Path]:
    """The growth table, and a plot of every solved (method, length, seconds): the growth challenges'
    as dots, the shipped deals' (measured above, in the same run) as crosses. Returns the files written."""
    points: list[tuple[str, int, float]] = []
    table = header("Strato: time against optimal length", time_limit, missing, only="--only-growth") + [
        "One-row rain/wind challenges asking for k = 1..5 cards of the tornado's weather on each side",
        "(limit 6; k = 4 is challenge 0), seeds 1-3 solo. Wall-clock seconds, one run, per method; ratio to BFS",
        "in brackets (left out when BFS took under 0.01 s); a ratio marked * has a side stopped by the limit",
        "(a bound, not a measurement).",
        "",
        "| k | seed | optimal length | BFS s | A* s | IDA* s | SAT s | CP-SAT s |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for k in range(1, 6):
        challenge = growth_challenge(k)
        for seed in GROWTH_SEEDS:
            game = StratoGame(challenge, Options(), seeded_deal(challenge, seed, 1))
            cells = {m: Cell.of(run(m, game, time_limit)) for m in ALL_METHODS}
            length = best_length(cells)
            base = cells["bfs"].seconds
            shown = []
            for method in ALL_METHODS:
                c = cells[method]
                mark = "" if c.status != "unknown" else " (stopped)"
                stopped = method != "bfs" and "unknown" in (c.status, cells["bfs"].status)
                ratio = f" [{c.seconds / base:.2f}{'*' if stopped else ''}]" if base >= 0.01 else ""
                shown.append(f"{c.seconds:.2f}{ratio}{mark}")
                if c.length is not None:
                    points.append((method, c.length, c.seconds))
            table.append(f"| {k} | {seed} | {length} | " + " | ".join(shown) + " |")
            log(f"growth k={k} seed={seed}: length {length}")
    deals = [(m, c.length, c.seconds) for _, _, cells in shipped for m, c in cells.items() if c.length is not None]
    image = _plot(points, deals)
    if image is None:
        log("matplotlib is not installed (pip install \"stratagem[plot]\"): no strato-growth.png")
    written = [folder / "strato-growth.md"] + ([] if image is None else [folder / "strato-growth.png"])
    with one_set():  # the table and its plot: both in place, or neither (a full disk at the plot)
        write_table(written[0], "\n".join(table) + "\n")
        if image is not None:
            write_table(written[1], image)
    return written


def _plot(points: list[tuple[str, int, float]], deals: list[tuple[str, int, float]]) -> bytes | None:
    """The growth plot as PNG bytes: ``points`` (method, length, seconds) of the growth challenges as dots,
    ``deals`` of the shipped deals as crosses; None without matplotlib."""
    try:
        from stratagem.core.plotting import pyplot

        plt = pyplot()
    except ImportError:
        return None
    figure, panels = plt.subplots(1, len(METHOD_FAMILIES), figsize=(9, 4.2), sharex=True, sharey=True)
    colours = dict(zip(ALL_METHODS, plt.rcParams["axes.prop_cycle"].by_key()["color"], strict=False))
    for axes, (family, methods) in zip(panels, METHOD_FAMILIES, strict=True):
        for method in methods:
            xs = [length for m, length, _ in points if m == method]
            ys = [seconds for m, _, seconds in points if m == method]
            axes.plot(xs, ys, "o", color=colours[method], label=f"{method}, growth challenges", alpha=0.7)
            xs = [length for m, length, _ in deals if m == method]
            ys = [seconds for m, _, seconds in deals if m == method]
            if xs:
                axes.plot(xs, ys, "x", color=colours[method], label=f"{method}, shipped deals", alpha=0.9)
        axes.set_yscale("log")
        axes.set_xlabel("optimal length (turns)")
        axes.set_title(family)
        axes.grid(True, which="major", alpha=0.3)
        # Below the panel, never over the points.
        axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize="small", frameon=False)
    panels[0].set_ylabel("seconds to a proven optimum (log scale)")
    figure.suptitle("Strato: time to a proven optimum against optimal length")
    figure.tight_layout()
    image = io.BytesIO()
    figure.savefig(image, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    plt.close(figure)
    return image.getvalue()
