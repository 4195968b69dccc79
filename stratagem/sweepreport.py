"""What a sweep found: tables (markdown) and plots (PNG) from a ``stratagem/sweep@1`` results file.

:func:`summarise` reads the records and returns a :class:`SweepReport`; :meth:`SweepReport.markdown` is
the summary, :meth:`SweepReport.to_json` the same as one JSON document, :meth:`SweepReport.plots` the PNG
figures (:mod:`stratagem.sweepplots`; matplotlib, the ``plot`` extra) and
:func:`stratagem.views.report.report_page` the whole report as one HTML page with its plots in SVG.

Counting, claiming no more than the records prove: a deal is *solvable* when a winning line was found
(status ``solved``, or ``unknown`` with a best line: a line exists, its optimality is not proven),
*unsolvable* when that was proven, and *undecided* otherwise. The solvable fraction is given over the
decided deals with a 95% Wilson score interval (:func:`stratagem.solvers.match.wilson_interval`; two
formulas the project keeps hand-written and tested rather than depend on SciPy for), next to the share
of undecided deals, which the interval does not cover.

One record per deal: a results file may hold several records of a deal (a retry appends one), and every
count, interval and plot is over deals, never records. Of a deal's records the best-established counts
(:func:`stratagem.sweep.best_records`: a certified answer over one resting on a search, a decided deal
over an undecided one, the latest among equals), so that a retry cannot un-decide what was proven, and
decided records that disagree are listed rather than hidden.

Why one module of over 600 lines: it is one summary, what a report says about a results file. The few
fields kept per deal (:class:`KeptRecord`, so that a large file is read twice rather than held), the
counts and intervals over them, and the tables that print those counts change together whenever a
table gains a column; the markdown, JSON and HTML forms all read the same :class:`SweepReport`.
"""

from __future__ import annotations

import dataclasses
import heapq
import shlex
import statistics
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from stratagem.core.errors import BadInput, number_text
from stratagem.core.io import MAX_PUZZLE_BYTES, open_regular, read_capped
from stratagem.solvers.match import wilson_interval
from stratagem.sweephidden import hidden_record
from stratagem.sweeprecords import record_key, retry_may_certify, standing, uncertified, version_label

#: How many of the hardest deals the summary lists.
HARDEST = 10
#: Said under the undecided deals when one's lower bound is its best line's length.
TIED_NOTE = ("A lower bound equal to the best line rests on the SAT solver's refutations under assumptions: the "
             "time ran out before the certificate the `sat` method claims optimality with (its plain refutation, "
             "checked by stratagem's DRUP checker).")

#: How many undecided deals the summary and the page list (all are counted; ``--json`` lists every one).
UNDECIDED_ROWS = 50
#: The format of ``stratagem report --json``.
REPORT_FORMAT = "stratagem/report@1"


def outcome(record: Held) -> str:
    """``solvable``, ``unsolvable`` or ``undecided``, as the module docstring defines them."""
    if record["status"] == "solved" or record.get("best_length") is not None:
        return "solvable"
    return "unsolvable" if record["status"] == "unsolvable" else "undecided"


def more_undecided(count: int, listing: str | None = None) -> str:
    """The sentence under a table of the undecided deals cut at :data:`UNDECIDED_ROWS` of ``count``: how many
    more there are, and the command that lists them all (``listing``: the report's own command with
    ``--json``, which writes the same files again; by default that command named without its arguments).
    A report of a large sweep listed every undecided deal on its page, some thousands of rows."""
    command = f"`{listing}`" if listing else "`stratagem report` with `--json`"
    return (f"And {count - UNDECIDED_ROWS} more, in the same order: {command} lists all {count} (the "
            "\"undecided\" of its JSON, each with the command that reproduces it).")


def reproduce(record: Held) -> str:
    """The ``stratagem solve`` command that redoes a record's deal."""
    limit = record.get("time_limit")
    return (f"stratagem solve {shlex.quote(str(record['puzzle']))} --deal {record['seed']} "
            f"--players {record['players']} "
            f"--method {record['method']}" + (f" --time-limit {number_text(limit)}" if limit is not None else ""))


def _file_state(path: Path, digest: object) -> str:
    """Whether the puzzle file a record names holds the bytes the record hashed: ``its bytes now``, ``no
    longer its bytes``, ``not found`` or ``not a file it reads``. The name comes from the results file,
    which may have been sent by anyone: only a regular file is read, and no further than a puzzle file may
    be long (a FIFO named there blocked ``report`` for good, ``/dev/zero`` filled its memory)."""
    import hashlib

    try:
        with open_regular(path) as handle:
            data = read_capped(handle, MAX_PUZZLE_BYTES)
    except (BadInput, OSError):
        return "not a file it reads" if path.exists() else "not found"
    if len(data) > MAX_PUZZLE_BYTES:
        return "no longer its bytes"
    return "its bytes now" if hashlib.sha256(data).hexdigest() == digest else "no longer its bytes"


class _Absent:
    """A field the record did not have (``kept.get(name, default)`` gives ``default``, as a dict would)."""

    def __repr__(self) -> str:
        return "<absent>"


_ABSENT: Any = _Absent()


class KeptRecord(Mapping[str, Any]):
    """A Strato record as :func:`summarise` keeps it: the fields the report counts, prints and groups by, read
    as the record's (``kept["seed"]``, ``kept.get("best_length")``), not its line, notes or provenance.

    Why: a record held as a dict took some 870 bytes with its strings shared, and a report of a 210 MB file
    of 353,364 deals held every one (549 MB at its peak); this takes some 260 with its seed and seconds. A field
    it does not keep is an :class:`AttributeError`, never a silent ``None``; ``certificate`` is kept as whether
    there is one (``True``, or the record's own empty value). The records a report shows whole (the hardest
    and easiest deals, replayed on the page) it reads again: :attr:`SweepReport.whole`.
    """

    __slots__ = ("challenge", "puzzle", "puzzle_sha256", "players", "seed", "method", "status", "length",
                 "best_length", "lower_bound", "seconds", "time_limit", "certificate", "information",
                 "_number", "_standing", "_first")
    #: The fields of a record it keeps.
    FIELDS = __slots__[:14]
    game = "strato"
    challenge: Any
    puzzle: Any
    puzzle_sha256: Any
    players: Any
    seed: Any
    method: Any
    status: Any
    length: Any
    best_length: Any
    lower_bound: Any
    seconds: Any
    time_limit: Any
    certificate: Any
    information: Any
    _number: int  # its place among the records (1 for the first)
    _standing: tuple[int, Fraction]  # :func:`~stratagem.sweeprecords.standing`
    _first: Any  # its key's first decided answer (status, length), None before one

    def __getitem__(self, name: str) -> Any:
        value = getattr(self, name)
        if value is _ABSENT:
            raise KeyError(name)
        return value

    def get(self, name: str, default: Any = None) -> Any:
        value = getattr(self, name)
        return default if value is _ABSENT else value

    def __contains__(self, name: object) -> bool:
        return name in self.FIELDS and getattr(self, str(name)) is not _ABSENT

    def __iter__(self) -> Iterator[str]:
        return (name for name in self.FIELDS if getattr(self, name) is not _ABSENT)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"KeptRecord(line {self._number}: " + ", ".join(f"{name}={getattr(self, name)!r}"
                                                               for name in self.FIELDS) + ")"


#: A record of a results file as a report holds it: a Strato deal's :class:`KeptRecord`, any other whole.
Held = Mapping[str, Any]


@dataclass(frozen=True)
class SweepReport:
    """The records of a results file (the best-established of each key when a key repeats: a Strato deal's
    as a :class:`KeptRecord`, any other whole), and what they show."""

    source: str
    records: tuple[Held, ...]
    #: How many records the file held (``records`` holds one per deal).
    held: int = 0
    #: Deals whose decided records disagree (status or length), each as its records.
    conflicts: tuple[tuple[dict[str, Any], ...], ...] = ()
    #: Challenge names that more than one puzzle (by its bytes) has in the file: a card edited between two
    #: runs into one file. Its deals are kept apart, each version named with its SHA-256's first digits.
    versions: frozenset[str] = frozenset()
    #: Seconds of the Strato records another record of the same deal replaced (a retry's first run, a
    #: method run again): work done, in no table, since each deal counts once.
    superseded_seconds: float = 0.0
    #: The whole records of the hardest and easiest deals (:data:`HARDEST` of each), by their place among
    #: the records (1 for the first): :meth:`hardest` and :meth:`easiest` give them, lines and all, where
    #: ``records`` keeps a :class:`KeptRecord`.
    whole: dict[int, dict[str, Any]] = field(default_factory=dict)

    def version_names(self) -> dict[str, list[str]]:
        """For each challenge name in :attr:`versions`, its versions as the report shows them: the label, the
        file the records name, and whether that file holds these bytes now (a designer's edited card)."""
        out: dict[str, dict[str, str]] = defaultdict(dict)
        for record in self.deals:
            if record["challenge"] not in self.versions or self.challenge_of(record) in out[str(record["challenge"])]:
                continue
            path = Path(str(record["puzzle"]))
            state = _file_state(path, record.get("puzzle_sha256"))
            label = self.challenge_of(record)
            out[str(record["challenge"])][label] = f"{label} from {path} ({state})"
        return {name: [found[label] for label in sorted(found)] for name, found in sorted(out.items())}

    def challenge_of(self, record: Held) -> str:
        """The challenge a record's deal is shown under: its name, and when two versions of a puzzle share the
        name, ``NAME (SHA8)``, so that a designer's old and new card are never one row."""
        name = str(record["challenge"])
        return version_label(name, str(record.get("puzzle_sha256"))) if name in self.versions else name

    @property
    def deals(self) -> list[Held]:
        """The Strato records (seeded deals); the tables and plots below are of these."""
        return [r for r in self.records if r.get("game") == "strato"]

    @property
    def positions(self) -> list[Held]:
        """The records of other games' positions (``analyze``), by game, position and method."""
        others = [r for r in self.records if r.get("game") != "strato"]
        return sorted(others, key=lambda r: (r["game"], r["puzzle"], r["method"]))

    def by_deal(self) -> dict[tuple[Any, ...], list[Held]]:
        """The Strato records by deal (the puzzle's bytes, players, seed): one record a method. Every count of
        deals below is over these, so that a deal swept with two methods is one deal, not two."""
        out: dict[tuple[Any, ...], list[Held]] = defaultdict(list)
        for record in self.deals:
            out[_deal(record)].append(record)
        return dict(out)

    def _deal_groups(self) -> Iterator[list[Held]]:
        """The lists of :meth:`by_deal`, by puzzle and players first rather than in the records' order, made in
        less memory: no tuple and no list for each deal, a dict by seed for each puzzle and player count and
        a list only for a deal of several records. The tuples and lists of :meth:`by_deal` took some 235
        bytes a deal, and every table below asks for them once or twice (``report`` of 353,364 deals)."""
        groups: dict[tuple[Any, Any], dict[Any, Held | list[Held]]] = {}
        for record in self.deals:
            seeds = groups.setdefault((record.get("puzzle_sha256"), record["players"]), {})
            there = seeds.get(record["seed"])
            if there is None:
                seeds[record["seed"]] = record
            elif isinstance(there, list):
                there.append(record)
            else:
                seeds[record["seed"]] = [there, record]
        for seeds in groups.values():
            for found in seeds.values():
                yield found if isinstance(found, list) else [found]

    def deal_count(self) -> int:
        """How many deals the Strato records are of (each method's record of a deal is one of its records)."""
        return sum(1 for _ in self._deal_groups())

    def decided_deals(self) -> tuple[int, int]:
        """Deals decided (solved or proven unsolvable by some method) and, of those, how many rest on a
        search alone: no method's decided record carries a certificate."""
        decided = resting = 0
        for records in self._deal_groups():
            answers = [r for r in records if r["status"] in ("solved", "unsolvable")]
            if answers:
                decided += 1
                resting += all(uncertified(r) for r in answers)
        return decided, resting

    def retried_deals(self) -> int:
        """Of the decided deals resting on a search alone, those ``--retry-uncertified`` runs again (one of
        their records is of a method that can certify)."""
        count = 0
        for records in self._deal_groups():
            answers = [r for r in records if r["status"] in ("solved", "unsolvable")]
            if answers and all(uncertified(r) for r in answers):
                count += any(retry_may_certify(r) for r in answers)
        return count

    def groups(self) -> dict[tuple[str, int, str], list[Held]]:
        """The records by (challenge, players, method), in that order."""
        out: dict[tuple[str, int, str], list[Held]] = defaultdict(list)
        for record in self.deals:
            out[(self.challenge_of(record), record["players"], record["method"])].append(record)
        return dict(sorted(out.items()))

    def fractions(self) -> list[dict[str, Any]]:
        """Per group: counts, the solvable fraction of the decided deals and its 95% Wilson interval."""
        rows = []
        for (challenge, players, method), records in self.groups().items():
            counts = Counter(outcome(r) for r in records)
            decided = counts["solvable"] + counts["unsolvable"]
            low, high = wilson_interval(counts["solvable"], decided)
            rows.append({"challenge": challenge, "players": players, "method": method, "deals": len(records),
                         "solvable": counts["solvable"], "unsolvable": counts["unsolvable"],
                         "undecided": counts["undecided"],
                         "fraction": counts["solvable"] / decided if decided else None, "low": low, "high": high})
        return rows

    def lengths(self) -> dict[tuple[str, int], Counter[int]]:
        """Per (challenge, players): how many deals have each proven optimal length, each deal once whichever
        methods proved it (decided records that disagree are listed as conflicts; the shortest counts here)."""
        out: dict[tuple[str, int], Counter[int]] = defaultdict(Counter)
        for records in self._deal_groups():
            solved = [r for r in records if r["status"] == "solved"]
            if solved:
                first = min(solved, key=lambda r: r["length"])
                out[(self.challenge_of(first), first["players"])][first["length"]] += 1
        return dict(sorted(out.items()))

    def hardest(self, count: int = HARDEST) -> list[Held]:
        """The deals with the longest proven optimal lines (ties: the slowest to solve first), each deal once."""
        solved = [r for r in self.deals if r["status"] == "solved"]
        return self._whole(_first_deals(solved, count, lambda r: (-r["length"], -r["seconds"], r["challenge"],
                                                                   r["players"], r["seed"])))

    def undecided(self) -> list[Held]:
        """The deals whose optimal length is not proven (status ``unknown``, and no other method decided the
        deal), highest lower bound first."""
        stopped = {id(r) for records in self._deal_groups() if all(r["status"] == "unknown" for r in records)
                   for r in records}
        open_ = [r for r in self.deals if id(r) in stopped]
        return sorted(open_, key=lambda r: (-r["lower_bound"], r["challenge"], r["players"], r["seed"]))

    def times(self) -> list[dict[str, Any]]:
        """Seconds per deal by method (and challenge): mean, median, largest."""
        out: dict[tuple[str, str], list[float]] = defaultdict(list)
        for record in self.deals:
            out[(record["method"], self.challenge_of(record))].append(float(record["seconds"]))
        return [{"method": m, "challenge": c, "deals": len(s), "mean": statistics.fmean(s),
                 "median": statistics.median(s), "max": max(s), "total": sum(s)}
                for (m, c), s in sorted(out.items())]

    def superseded_note(self) -> str:
        """The sentence under the time table saying what the superseded runs took."""
        return (f"The runs that another record of the same deal replaced (a retry's first run, a method run "
                f"again) took {self.superseded_seconds:,.1f} s more, in no row above.")

    def markdown(self, plots: Sequence[str] = (), listing: str | None = None) -> str:
        """The summary; ``plots`` are the PNG file names to show in it, ``listing`` the command that lists
        every undecided deal where the table shows the first :data:`UNDECIDED_ROWS` (:func:`more_undecided`)."""
        superseded = self.held - len(self.records)
        deals = self.deal_count()
        lines = [f"# Sweep report: {Path(self.source).name}", "",
                 f"{deals} Strato deal(s)"
                 + (f" ({len(self.deals)} deal-and-method records: each method's answer is a row of the solvable "
                    "fraction)" if len(self.deals) != deals else "")
                 + f" and {len(self.positions)} position analyse(s) from "
                 f"`{self.source}` (records `stratagem/sweep@1`"
                 + (f"; {self.held} records, of which {superseded} superseded by a better-established record of "
                    "the same deal, which alone counts" if superseded else "") + "). A deal is "
                 "*solvable* when a winning line was found, *unsolvable* when that was proven, *undecided* "
                 "when the time limit stopped the solver first. Intervals: 95% Wilson score, over the decided "
                 "deals.", "", "## Solvable fraction", "",
                 "| challenge | players | method | deals | solvable | unsolvable | undecided | solvable fraction "
                 "(95% interval) |", "|---|---:|---|---:|---:|---:|---:|---|"]
        for row in self.fractions():
            fraction = ("-" if row["fraction"] is None else
                        f"{row['fraction']:.3f} ({row['low']:.3f} - {row['high']:.3f})")
            lines.append(f"| {row['challenge']} | {row['players']} | {row['method']} | {row['deals']} | "
                         f"{row['solvable']} | {row['unsolvable']} | {row['undecided']} | {fraction} |")
        if self.versions:
            lines += ["", "**More than one version of a challenge**: " + "; ".join(
                f"{name} is here as {len(found)} puzzles of different bytes: {', '.join(found)}"
                for name, found in self.version_names().items())
                + ". Their deals are counted apart, each under its SHA-256's first 8 digits; a command below "
                "reproduces a deal only while its file still holds that version."]
        decided, resting = self.decided_deals()
        retried = self.retried_deals()
        never = "by methods that give no certificate, such as A*: a sweep with `--method auto` can certify them"
        lines += ["", f"Optimality certified (a certificate `stratagem verify` re-checks) for "
                  f"{decided - resting} decided deal(s); resting on a search alone: {resting}"
                  + ("." if not resting else
                     " (`stratagem sweep --retry-uncertified` runs them again)." if retried == resting else
                     f" ({never})." if not retried else
                     f" (`stratagem sweep --retry-uncertified` runs {retried} of them again; the other "
                     f"{resting - retried} are {never}).")]
        if self.conflicts:
            lines += ["", f"**{len(self.conflicts)} deal(s) have decided records that disagree** (the counted one "
                      "is the best-established, the latest among equals):", ""]
            for group in self.conflicts[:UNDECIDED_ROWS]:
                first = group[0]
                answers = "; ".join(f"{r['status']} {r.get('length')} by {r.get('solved_by')}" for r in group)
                lines.append(f"- {self.challenge_of(first)}, {first['players']} player(s), seed {first['seed']}: "
                             f"{answers}")
        lines += ["", "## Optimal lengths", "", "Deals by proven optimal length (turns), of every method; *undecided*: "
                  "no optimal length proven (the time limit stopped the solver). Deals proven unsolvable have no "
                  "length and are in neither.", ""]
        panels = self.length_panels()
        every = sorted({n for counts, _ in panels.values() for n in counts})
        if panels:
            lines += ["| challenge | players | " + " | ".join(str(n) for n in every) + " | undecided |",
                      "|---|---:|" + "---:|" * (len(every) + 1)]
            for (challenge, players), (counts, stopped) in panels.items():
                lines.append(f"| {challenge} | {players} | " + " | ".join(str(counts.get(n, 0)) for n in every)
                             + f" | {stopped} |")
        else:
            lines.append("No deal was solved.")
        lines += ["", "## Deals whose optimum is undecided", ""]
        undecided = self.undecided()
        if not self.deals:
            lines.append("No Strato deal in this file.")
        elif undecided:
            lines += [f"{len(undecided)} deal(s) stopped by the time limit, with or without a line (a deal with a "
                      "line counts as solvable above); the lower bound is proven, the best line is only a line found"
                      + (f" (the first {UNDECIDED_ROWS} shown)." if len(undecided) > UNDECIDED_ROWS else "."), "",
                      "| challenge | players | seed | lower bound | best line | reproduce |",
                      "|---|---:|---:|---:|---:|---|"]
            for r in undecided[:UNDECIDED_ROWS]:
                best = "-" if r.get("best_length") is None else str(r["best_length"])
                lines.append(f"| {self.challenge_of(r)} | {r['players']} | {r['seed']} | {r['lower_bound']} | {best} | "
                             f"`{reproduce(r)}` |")
            if len(undecided) > UNDECIDED_ROWS:
                lines += ["", more_undecided(len(undecided), listing)]
            if any(r["lower_bound"] == r.get("best_length") for r in undecided):
                lines += ["", TIED_NOTE]
        else:
            lines.append("None: every deal was decided.")
        lines += ["", "## Time per deal", "", "| method | challenge | deals | mean s | median s | max s | total s |",
                  "|---|---|---:|---:|---:|---:|---:|"]
        for t in self.times():
            lines.append(f"| {t['method']} | {t['challenge']} | {t['deals']} | {t['mean']:.2f} | {t['median']:.2f} | "
                         f"{t['max']:.2f} | {t['total']:.1f} |")
        if self.superseded_seconds:
            lines += ["", self.superseded_note()]
        lines += ["", "## Hardest deals", "", "The longest proven optimal lines (ties: the slowest first).", "",
                  "| challenge | players | seed | length | seconds | reproduce |", "|---|---:|---:|---:|---:|---|"]
        for r in self.hardest():
            lines.append(f"| {self.challenge_of(r)} | {r['players']} | {r['seed']} | {r['length']} | "
                         f"{r['seconds']:.2f} | `{reproduce(r)}` |")
        if self.positions:
            lines += ["", "## Positions of the other games", "",
                      "| game | position | method | status | summary | seconds | reproduce |",
                      "|---|---|---|---|---|---:|---|"]
            for r in self.positions:
                summary = str(r.get("summary") or "").replace("|", "\\|")
                limit = r.get("time_limit")
                command = (f"stratagem analyze {shlex.quote(str(r['puzzle']))} --method {r['method']}"
                           + (f" --time-limit {number_text(limit)}" if limit is not None else ""))
                lines.append(f"| {r['game']} | {r['challenge']} | {r['method']} | {r['status']} | {summary} | "
                             f"{r['seconds']:.2f} | `{command}` |")
        if plots:
            lines += ["", "## Plots", ""] + [f"![{name}]({name})" for name in plots]
        return "\n".join(lines) + "\n"

    def easiest(self, count: int = HARDEST) -> list[Held]:
        """The deals with the shortest proven optimal lines (ties: the fastest to solve first)."""
        solved = [r for r in self.deals if r["status"] == "solved"]
        return self._whole(_first_deals(solved, count, lambda r: (r["length"], r["seconds"], r["challenge"],
                                                                   r["players"], r["seed"])))

    def _whole(self, records: list[Held]) -> list[Held]:
        """``records`` with each one :attr:`whole` holds whole given so (its line, for a replay)."""
        return [self.whole.get(r._number, r) if isinstance(r, KeptRecord) else r for r in records]

    def length_panels(self) -> dict[tuple[str, int], tuple[Counter[int], int]]:
        """Per (challenge, players): deals by proven optimal length, and how many are undecided (no proven
        length: status ``unknown``), which a plot shows as a bar of their own rather than leave out."""
        out: dict[tuple[str, int], tuple[Counter[int], int]] = {}
        for (challenge, players), counts in self.lengths().items():
            out[(challenge, players)] = (counts, 0)
        for records in self._deal_groups():
            if all(r["status"] == "unknown" for r in records):  # no method decided it
                key = (self.challenge_of(records[0]), records[0]["players"])
                counts, undecided = out.get(key, (Counter(), 0))
                out[key] = (counts, undecided + 1)
        return dict(sorted(out.items()))

    def seconds_panels(self) -> dict[tuple[str, int], tuple[dict[str, list[float]], tuple[float, ...]]]:
        """Per (challenge, players): each method's seconds per deal, and every time limit its counted records
        were made under, in increasing order (a retry with a longer limit adds one; none when no record had
        one), so that a plot draws each limit a stopped deal can sit at."""
        seconds: dict[tuple[str, int], dict[str, list[float]]] = {}
        limits: dict[tuple[str, int], set[float]] = {}
        for record in self.deals:
            key = (self.challenge_of(record), record["players"])
            seconds.setdefault(key, {}).setdefault(record["method"], []).append(float(record["seconds"]))
            limits.setdefault(key, set())
            if record.get("time_limit") is not None:
                limits[key].add(float(record["time_limit"]))
        out = {key: (by_method, tuple(sorted(limits[key]))) for key, by_method in seconds.items()}
        return dict(sorted(out.items()))

    def to_json(self) -> dict[str, Any]:
        """The summary as one JSON document (``stratagem report --json``): the same tables as the markdown."""
        return {"format": REPORT_FORMAT, "source": self.source, "records": self.held, "deals": self.deal_count(),
                "positions": len(self.positions), "fractions": self.fractions(),
                "lengths": [{"challenge": c, "players": p, "counts": {str(n): k for n, k in sorted(counts.items())},
                             "undecided": undecided} for (c, p), (counts, undecided) in self.length_panels().items()],
                "undecided": [_brief(r) for r in self.undecided()], "times": self.times(),
                "hardest": [_brief(r) for r in self.hardest()], "easiest": [_brief(r) for r in self.easiest()],
                "conflicts": len(self.conflicts), "superseded_seconds": round(self.superseded_seconds, 2)}

    def plots(self) -> dict[str, bytes]:
        """The figures as PNG bytes by file name (:func:`stratagem.sweepplots.png_plots`).

        :class:`ImportError` when matplotlib is missing."""
        from stratagem.sweepplots import png_plots

        return png_plots(self)


def _deal(record: Held) -> tuple[Any, ...]:
    """A Strato record's deal: the puzzle's bytes, players, seed (its key less the method)."""
    return (record.get("puzzle_sha256"), record["players"], record["seed"])


def _once_a_deal(records: list[Held]) -> list[Held]:
    """``records`` with each deal's first record only (a deal swept with several methods is listed once)."""
    seen: set[tuple[Any, ...]] = set()
    out: list[Held] = []
    for record in records:
        if _deal(record) not in seen:
            seen.add(_deal(record))
            out.append(record)
    return out


def _first_deals(records: list[Held], count: int, key: Callable[[Held], Any]) -> list[Held]:
    """The first ``count`` deals of ``records`` ordered by ``key``, each deal's first record: the first
    ``count`` of :func:`_once_a_deal` of ``sorted(records, key=key)``, found with :func:`heapq.nsmallest`
    (the same records in the same order, ties kept as ``sorted`` keeps them) from the first ``count``
    records, then twice as many until they hold ``count`` deals. Sorting made every record's key at once,
    some 120 bytes a deal for a report of 353,364 deals; this makes a few."""
    if count <= 0:  # a slice's meaning (count -1: all but the last)
        return _once_a_deal(sorted(records, key=key))[:count]
    wanted = count
    while True:
        found = _once_a_deal(heapq.nsmallest(wanted, records, key=key))[:count]
        if len(found) >= count or wanted >= len(records):
            return found
        wanted *= 2


def _brief(record: Held) -> dict[str, Any]:
    """A deal's identity and answer, for the JSON summary."""
    return {k: record.get(k) for k in ("challenge", "players", "seed", "method", "status", "length", "lower_bound",
                                       "best_length", "seconds")} | {"reproduce": reproduce(record)}


def _decided(record: Held) -> bool:
    return record.get("game", "strato") == "strato" and record.get("status") in ("solved", "unsolvable")


def _key(record: Mapping[str, Any], share: Callable[[Any], Any] = lambda value: value) -> Hashable:
    """A record's deal-and-method key (:func:`~stratagem.sweeprecords.record_key`) in less memory: as a tuple
    of its (shared) fields when they are a digest, two whole numbers and a name, which the JSON text of the
    key tells apart exactly as it does; as that text otherwise (a hand-edited record of another game)."""
    sha, players, seed, method = record["puzzle_sha256"], record["players"], record["seed"], record["method"]
    if type(sha) is str and type(players) is int and type(seed) is int and type(method) is str:
        return share(sha), players, seed, share(method)
    return record_key(record)


class _BestByKey:
    """Each deal-and-method key's best record so far (:func:`summarise`'s first read), in the order the keys
    first came, as a dict would keep them, without a key object a deal: the records in a list, their keys'
    hashes in an array, and each one's place in an open-addressed array found by its key's hash, the keys
    told apart by the key the record itself gives (:func:`_key`), so exactly as a dict tells them apart (a
    retry's record of a deal replaces the one it beats; two deals whose keys' hashes collide are two).

    Why: a dict kept a tuple of four fields for every key beside its record (72 bytes) and an entry of its
    own (some 60 bytes at its load); this keeps the list's 8 bytes, the hash's 8 and the array's 8 to 16
    (four-byte places, at most half of them used). Its order, and so the report, is the dict's."""

    def __init__(self) -> None:
        #: The best record of each key, in the order the keys first came.
        self.records: list[Held] = []
        self._hashes = array("q")  # the hash of each record's key
        self._places = array("I", bytes(4 * 16))  # 0: free; else the record's place in ``records`` plus 1

    def _slot(self, key: Hashable, digest: int) -> int:
        """Where ``key``'s place is in the array, or the free slot where it would go (``digest``: its hash)."""
        places, hashes, records = self._places, self._hashes, self.records
        mask = len(places) - 1
        slot = digest & mask
        while (place := places[slot]) and (hashes[place - 1] != digest or _key(records[place - 1]) != key):
            slot = (slot + 1) & mask
        return slot

    def get(self, key: Hashable) -> Held | None:
        """``key``'s best record so far; None before its first."""
        place = self._places[self._slot(key, hash(key))]
        return self.records[place - 1] if place else None

    def put(self, key: Hashable, record: Held) -> None:
        """``record`` as ``key``'s best, in the place of its last one (a key new here goes last)."""
        digest = hash(key)
        slot = self._slot(key, digest)
        if place := self._places[slot]:
            self.records[place - 1] = record
            return
        self.records.append(record)
        self._hashes.append(digest)
        self._places[slot] = len(self.records)
        if 2 * len(self.records) > len(self._places):
            self._grow()

    def _grow(self) -> None:
        """Twice the slots, every place put again where its key's hash sends it."""
        places = array("I", bytes(8 * len(self._places)))
        mask = len(places) - 1
        for place, digest in enumerate(self._hashes, 1):
            slot = digest & mask
            while places[slot]:
                slot = (slot + 1) & mask
            places[slot] = place
        self._places = places


def _kept(record: dict[str, Any], number: int, rank: tuple[int, Fraction], first: Any,
          share: Callable[[Any], Any]) -> KeptRecord:
    kept = KeptRecord()
    for name in KeptRecord.FIELDS:
        value = record.get(name, _ABSENT)
        setattr(kept, name, value if name == "seconds" else share(value))  # seconds: one of each a deal
    if kept.certificate is not _ABSENT and kept.certificate:
        kept.certificate = True
    kept._number, kept._standing, kept._first = number, rank, first
    return kept


def summarise(records: Iterable[dict[str, Any]], source: str) -> SweepReport:
    """A report of ``records``, one per deal (a key seen twice counts once: its best-established record,
    :func:`stratagem.sweep.best_records`, the latest among equals).

    ``records`` are an open sweep's (:class:`~stratagem.sweep.ResultsFile` checks each). A hidden sweep's
    record is :class:`BadInput` naming it: its ``solved`` is a win probability found, which this report
    counted as a deal proven solvable; its cards are :func:`stratagem.difficulty.difficulty`'s.

    Read twice at most (a list, or :class:`~stratagem.sweeprecords.ResultsRecords`, which reads its file
    again; a one-pass iterator is made a list first), and none of them held: each Strato deal's best record
    is kept as a :class:`KeptRecord` (some 200 bytes, its strings shared), the answer of its key's first
    decided record beside it (to find the keys whose decided records disagree, rare), and each record's
    seconds as a number in an array. The second read gathers the records of the keys that disagree
    (:attr:`SweepReport.conflicts`) and the hardest and easiest deals' whole records
    (:attr:`SweepReport.whole`, their lines replayed on the page). For a 210 MB file of 353,364 deals
    ``report --html`` peaked at 549 MB holding every record (provenance left out), and now at 250 MB (89 MB
    for a file of three records): 0.46 KB a deal, where it was 1.3. Without a key object a deal
    (:class:`_BestByKey`, stop 63) ``report --html --no-plots`` of such a file (the shipped sweep's records with
    new seeds) peaked at 166 MB RSS against 198 MB, 44 CPU s either way.
    """
    if iter(records) is records:
        records = list(records)
    compact = not isinstance(records, Sequence)  # a list is held by the caller: its records are kept as given
    shared: dict[tuple[type, Any], Any] = {}

    def share(value: Any) -> Any:
        """One object for the equal strings of every kept record and for its time limits (of one type)."""
        return shared.setdefault((type(value), value), value) if isinstance(value, str | float) else value

    best = _BestByKey()
    whole_ones: dict[Hashable, tuple[tuple[int, Fraction], Any]] = {}  # a record kept whole: its standing, first
    ranks: dict[tuple[int, Fraction], tuple[int, Fraction]] = {}
    pairs: dict[tuple[Any, Any], tuple[Any, Any]] = {}  # (standing, first answer): few, each held once
    answers: dict[tuple[Any, Any], tuple[Any, Any]] = {}
    split: set[Hashable] = set()
    seconds = array("d")  # every Strato record's, in the file's order: what the superseded runs took
    held = 0
    for held, record in enumerate(records, 1):
        if hidden_record(record):
            raise BadInput(source, f"record {held}", "a hidden-information record: this report is of an open "
                           "sweep's answers; stratagem.difficulty.difficulty makes a hidden sweep's cards")
        key = _key(record, share)
        answer = None
        if _decided(record):
            answer = (record["status"], record.get("length"))
            answer = answers.setdefault(answer, answer)
        rank = standing(record)
        rank = ranks.setdefault(rank, rank)
        there = best.get(key)
        if there is None:
            first, better = answer, True
        else:
            there_rank, first = ((there._standing, there._first) if isinstance(there, KeptRecord)
                                 else whole_ones[key])
            if answer is not None:
                if first is None:
                    first = answer
                elif first != answer:
                    split.add(key)
            better = rank >= there_rank
        if better:
            if compact and record.get("game") == "strato":
                best.put(key, _kept(record, held, rank, first, share))
                whole_ones.pop(key, None)
            else:
                best.put(key, record)
                whole_ones[key] = pairs.setdefault((rank, first), (rank, first))
        elif isinstance(there, KeptRecord):
            there._first = first
        else:
            whole_ones[key] = pairs.setdefault((there_rank, first), (there_rank, first))
        if record.get("game", "strato") == "strato":
            seconds.append(float(record.get("seconds") or 0.0))
    kept = tuple(best.records)
    del best, whole_ones
    digests: dict[str, set[Any]] = defaultdict(set)
    for one in kept:
        if one.get("game", "strato") == "strato":
            digests[str(one["challenge"])].add(one.get("puzzle_sha256"))
    versions = frozenset(name for name, found in digests.items() if len(found) > 1)
    superseded = sum(seconds) - sum(float(r.get("seconds") or 0.0) for r in kept
                                    if r.get("game", "strato") == "strato")
    report = SweepReport(source, kept, held=held, versions=versions, superseded_seconds=superseded)
    wanted = {r._number: r for r in report.hardest(HARDEST) + report.easiest(HARDEST) if isinstance(r, KeptRecord)}
    whole: dict[int, dict[str, Any]] = {}
    by_key: dict[Hashable, list[dict[str, Any]]] = {}
    if wanted or split:
        for number, record in enumerate(records, 1):
            if number in wanted:
                if _key(record) != _key(wanted[number]):
                    raise BadInput(source, f"record {number}", "changed while the report read it (it was read "
                                   "twice): run the report again")
                whole[number] = record
            if split and _decided(record) and (key := _key(record, share)) in split:
                by_key.setdefault(key, []).append(record)  # keys in the order of their first decided record
            elif not split and len(whole) == len(wanted):
                break
    conflicts = tuple(tuple(found) for found in by_key.values())
    return dataclasses.replace(report, conflicts=conflicts, whole=whole)


__all__ = ["REPORT_FORMAT", "SweepReport", "more_undecided", "outcome", "reproduce", "summarise"]
