"""The difficulty card of a challenge: how often players who cannot see the cards win, from a hidden sweep.

``stratagem report`` on the results file of ``stratagem sweep --information hidden`` (:mod:`stratagem.sweephidden`)
gives, per challenge and player count, one :class:`Card`:

- **solo** (1 player): the distribution over the deals of the exact win probability with the pile hidden
  (a histogram in tenths, the value 1 apart, and quantiles; not only the mean). Deals whose search the
  limit stopped are counted **apart** as undecided, with the intervals proven for them (the guided policy's
  value below, the optimum's bound above); they are never folded into the distribution, which is therefore the
  distribution over the deals that finished (say so when some did not: the hard deals may be the ones
  that did not finish). What the undecided deals' records prove has a distribution of its own: their lower
  ends and upper ends, each a bound on that deal's value, never a value. Over every deal of the card, the
  mean win probability is proven within the mean of the exact values and lower ends and the mean of the
  exact values and upper ends.
- **teams** (2 to 4 players, and the agents that played the solo deals when the sweep had
  ``--solo-agents``): for each agent kind, the games it won over all the deals and shuffles, with a 95%
  interval of the win rate (an estimate of the agents' win probability on a random deal of the challenge,
  not a proof): Wilson's at the games' effective count, the games clustered by deal
  (:func:`~stratagem.solvers.match.clustered_wilson_interval`), because the shuffles of one hard deal are
  lost together (the pooled Wilson interval, too narrow then, is kept in the JSON); and, with several
  shuffles a deal, its deals grouped by its own win rate on each.
- **open information** beside it: the same deals' open-information answers (solvable, optimum in turns),
  taken from an *open* sweep's results file when the report is given one (``--open-results``), matched by
  the puzzle's bytes, the player count and the seed; the card says how many deals it found there. They are
  not computed here: an open sweep is the command that computes them, with certificates, and a report
  runs no search.
- **the hardest and the easiest deals**: solo by the exact value, teams by the best agent's per-deal win
  rate; ties broken by the longer open optimum (when known), then the seed (deals the open sweep did not
  solve last). Undecided deals are not ranked among them: they are listed apart, by their proven lower
  end, the lowest (the least that is proven: where hard deals may be, though their value may be high) and
  the highest (proven easy, at least that often won). Each with the command that reproduces its record.

Everything here is a function of the records: the same files give the same card, byte for byte.

Why one module of over 600 lines: the card's figures and the words that say what they prove are one
concept: the markdown here and the HTML view (:mod:`stratagem.views.difficulty`) both take their words
(:func:`value_text`, :func:`proven_note`, the column lists) from this module, so that neither can claim
more than the figures prove; split, the words would live apart from the figures they qualify.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from statistics import fmean
from typing import Any

from stratagem.core.errors import BadInput
from stratagem.core.words import plural
from stratagem.solvers.match import clustered_wilson_interval, t_interval, wilson_interval
from stratagem.sweephidden import SOLO_METHOD, HiddenTask, hidden_record
from stratagem.sweeprecords import best_records, outcome_rank, version_label

__all__ = [
    "AGENT_COLUMNS", "CARD_FORMAT", "COMPARED_COLUMNS", "COMPARED_NOTE", "Card", "DifficultyReport", "agent_groups",
    "agent_rows", "compared_rows", "difficulty", "end_text", "listed_deals", "mean_note", "policy_note", "proven_note",
    "reproduce_hidden", "same_value_note", "signed_text", "undecided_text", "value_heading", "value_text",
]

#: The format of ``stratagem report --json`` on a hidden sweep.
CARD_FORMAT = "stratagem/difficulty@1"
#: How many of the hardest and of the easiest deals a card lists (at most half the deals ranked, each).
LISTED = 5
#: The histogram's bins: [0, 0.1), ..., [0.9, 1), and exactly 1 apart.
BINS = [f"{k / 10:.1f}-{(k + 1) / 10:.1f}" for k in range(10)] + ["1"]
QUANTILES = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)
#: The agent kind that plays the exact search's guided policy: the policy whose exact value, its states of
#: few pile orders counted as lost, is an undecided solo deal's proven lower end (:meth:`Card.policy_check`).
POLICY_AGENT = "guided"
#: A solo record's ``odds.lower_from`` when its lower end is that policy's value.
POLICY_LOWER = "guided policy"


def reproduce_hidden(record: dict[str, Any]) -> str:
    """The command that makes ``record`` again (into a results file of its own)."""
    team = record.get("team") or {}
    agent = None if record["method"] == SOLO_METHOD else str(record["method"]).removeprefix("hidden:")
    task = HiddenTask(record["puzzle"], record["puzzle_sha256"], record["challenge"], {}, int(record["players"]),
                      int(record["seed"]), agent, int(team.get("shuffles") or 1),
                      None if record.get("time_limit") is None else float(record["time_limit"]))
    return task.command()


def _bin(value: float) -> int:
    return 10 if value >= 1 else min(9, int(value * 10))


def _histogram(values: Sequence[float]) -> list[int]:
    """How many of ``values`` fall in each of :data:`BINS`."""
    counts = [0] * len(BINS)
    for value in values:
        counts[_bin(value)] += 1
    return counts


def _low(record: dict[str, Any]) -> Fraction:
    """A solo record's proven lower end: its exact value when solved, else its ``low`` (0 when it has none)."""
    odds = record["odds"]
    return Fraction(odds["value"] if record["status"] == "solved" else (odds.get("low") or 0))


def _high(record: dict[str, Any]) -> Fraction:
    """A solo record's proven upper end: its exact value when solved, else its ``high`` (1 when it has none)."""
    odds = record["odds"]
    return Fraction(odds["value"] if record["status"] == "solved" else (odds.get("high") or 1))


def _quantiles(values: Sequence[float]) -> dict[str, float]:
    """Nearest-rank quantiles (each a value that occurs): no interpolation between deals."""
    ordered = sorted(values)
    out = {}
    for q in QUANTILES:
        rank = max(0, min(len(ordered) - 1, -(-int(q * 1000) * len(ordered) // 1000) - 1))
        out[f"{q:g}"] = ordered[rank]
    return out


@dataclass
class Card:
    """One challenge at one player count."""

    challenge: str
    players: int
    puzzle: str
    deals: int = 0
    #: Solo: the finished deals' exact values (as fractions' text and float), and the undecided records.
    exact: list[dict[str, Any]] = field(default_factory=list)
    undecided: list[dict[str, Any]] = field(default_factory=list)
    #: Teams: agent -> its records.
    teams: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    #: Open information: the matching open records by seed.
    open: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: The open sweep's results file (``--open-results``) when one was given, whether or not it holds these deals.
    open_source: str | None = None
    hardest: list[dict[str, Any]] = field(default_factory=list)
    easiest: list[dict[str, Any]] = field(default_factory=list)
    #: Solo: the undecided deals with the lowest and the highest proven lower ends.
    least_proven: list[dict[str, Any]] = field(default_factory=list)
    most_proven: list[dict[str, Any]] = field(default_factory=list)
    #: Solo, with agents playing the deals: the deals the strongest agent won least and most often.
    agent_hardest: list[dict[str, Any]] = field(default_factory=list)
    agent_easiest: list[dict[str, Any]] = field(default_factory=list)
    #: When every ranked deal has the same value and open optimum: one of them (no deal is harder).
    alike: dict[str, Any] | None = None
    #: When every ranked deal has the same value but not the same open optimum: the lists then rank by the
    #: open optimum alone, which says nothing of how hard a deal is to win.
    same_value: bool = False

    # -- solo
    def histogram(self) -> list[int]:
        """How many exact deals fall in each of :data:`BINS` (tenths of the win probability, 1 apart)."""
        return _histogram([record["odds"]["float"] for record in self.exact])

    def solo_summary(self) -> dict[str, Any]:
        """The solo card's numbers: the exact deals' distribution (histogram, quantiles, mean), the undecided
        deals counted apart with what is proven of them, and the proven mean over every deal."""
        values = [r["odds"]["float"] for r in self.exact]
        exact_mean = sum((Fraction(r["odds"]["value"]) for r in self.exact), Fraction(0))
        return {"deals": self.deals, "exact": len(self.exact), "undecided": len(self.undecided),
                "undecided_interval": self.undecided_interval(),
                "undecided_with_lower_bound": sum(1 for r in self.undecided if _low(r) > 0),
                "histogram": dict(zip(BINS, self.histogram(), strict=True)),
                "quantiles": _quantiles(values) if values else None,
                "mean_of_exact": float(exact_mean / len(self.exact)) if self.exact else None,
                "certainly_won": sum(1 for v in values if v >= 1),
                "undecided_bounds": self.undecided_bounds(), "mean_proven": self.mean_proven()}

    def undecided_bounds(self) -> dict[str, Any] | None:
        """The undecided deals' proven ends, deal by deal: nearest-rank quantiles of the lower ends and of
        the upper ends, the lower ends by tenths (``"1"`` apart) and both means. Each end bounds its own deal's
        value; the quantiles are of bounds, never of values."""
        if not self.undecided:
            return None
        lows = [float(_low(r)) for r in self.undecided]
        highs = [float(_high(r)) for r in self.undecided]
        return {"lower_quantiles": _quantiles(lows), "upper_quantiles": _quantiles(highs),
                "lower_histogram": dict(zip(BINS, _histogram(lows), strict=True)),
                "lower_mean": float(sum(map(_low, self.undecided), Fraction(0)) / len(self.undecided)),
                "upper_mean": float(sum(map(_high, self.undecided), Fraction(0)) / len(self.undecided))}

    def mean_proven(self) -> list[float] | None:
        """The mean solo win probability over every deal of the card, as proven: each exact deal counts its
        value, each undecided deal its lower end below and its upper end above."""
        records = self.exact + self.undecided
        if not records:
            return None
        low = sum((_low(r) for r in records), Fraction(0)) / len(records)
        high = sum((_high(r) for r in records), Fraction(0)) / len(records)
        return [float(low), float(high)]

    def undecided_interval(self) -> list[float] | None:
        """The undecided deals' proven intervals spanned: the least lower end and the greatest upper end
        (a record without them proved [0, 1])."""
        if not self.undecided:
            return None
        return [float(min(map(_low, self.undecided))), float(max(map(_high, self.undecided)))]

    # -- teams
    def team_summary(self) -> list[dict[str, Any]]:
        """Per agent kind, the games won of those played and the win rate's 95% intervals (pooled Wilson, and
        Wilson clustered by deal: an estimate of the agents' win probability on a random deal, not a proof),
        with the deals grouped by their open optimum and by their own win rate."""
        out = []
        for agent, records in sorted(self.teams.items()):
            wins, played = _pooled(records)
            low, high = wilson_interval(wins, played) if played else (0.0, 1.0)
            by_deal = clustered_wilson_interval([(r["team"]["wins"], r["team"]["played"]) for r in records])
            per_deal = [r["team"]["wins"] / r["team"]["played"] for r in records if r["team"]["played"]]
            cpu = sum(float(r.get("cpu_seconds") or 0) for r in records)
            turns = sum(int(r["team"].get("turns") or 0) for r in records)
            out.append({"agent": agent, "deals": len(records), "games": played, "wins": wins,
                        "win_rate": wins / played if played else None, "win_rate_ci95": [low, high],
                        "win_rate_ci95_by_deal": [by_deal[0], by_deal[1]], "design_effect": round(by_deal[2], 4),
                        "most_games_a_deal": max((int(r["team"]["played"]) for r in records), default=0),
                        "cut_short": sum(1 for r in records if r["status"] != "solved"),
                        "deals_never_won": sum(1 for v in per_deal if v == 0),
                        "deals_always_won": sum(1 for v in per_deal if v == 1),
                        "cpu_seconds": round(cpu, 1), "cpu_seconds_per_turn": round(cpu / turns, 4) if turns else None,
                        "by_open_optimum": self.by_open_optimum(records),
                        "by_deal_win_rate": self.by_deal_win_rate(records)}
                       | ({"by_proven_lower_end": self.by_proven_lower_end(records)} if self.players == 1 else {}))
        return out

    def strongest(self) -> str | None:
        """The agent with the highest pooled win rate (ties: its name); ``None`` when none played. Read from
        the records' counts, not from :meth:`team_summary`, which also makes every interval and grouping."""
        rates = []
        for agent, records in self.teams.items():
            wins, played = _pooled(records)
            if played:
                rates.append((wins / played, agent))
        return max(rates)[1] if rates else None

    def compared(self) -> list[dict[str, Any]]:
        """The strongest agent against each other agent, deal by deal: on the deals both played (the same
        pile shuffles, shuffle ``k`` of a deal being the same pile for every agent), the strongest one's win
        rate on the deal less the other's -- the mean, a 95% Student-t interval over the deals, and how
        many deals it did better, worse and equal on. Pairing by deal takes the deals' own difficulty out
        of the comparison, which two pooled rates cannot."""
        best = self.strongest()
        if best is None or len(self.teams) < 2:
            return []
        mine = {int(r["seed"]): _rate(r) for r in self.teams[best] if r["team"]["played"]}
        out = []
        for other in sorted(self.teams):
            if other == best:
                continue
            theirs = {int(r["seed"]): _rate(r) for r in self.teams[other] if r["team"]["played"]}
            differences = [mine[seed] - theirs[seed] for seed in sorted(mine.keys() & theirs.keys())]
            interval = t_interval(differences, within=(-1.0, 1.0))  # win rates and values: 0 to 1
            out.append({"agent": best, "other": other, "deals": len(differences),
                        "mean_difference": fmean(differences) if differences else None,
                        "difference_ci95": None if interval is None else list(interval),
                        "better": sum(1 for d in differences if d > 0),
                        "worse": sum(1 for d in differences if d < 0),
                        "equal": sum(1 for d in differences if d == 0)})
        return out

    def policy_check(self) -> dict[str, Any] | None:
        """Solo: the :data:`POLICY_AGENT`'s games against the undecided deals' proven lower ends (those the
        guided policy proved, ``odds.lower_from``; a record without it is from before the field). The agent
        plays the exact search's guided policy, and a lower end is that policy's exact value with the states
        of few pile orders counted as lost, so the agent's win rate on a deal estimates a value at least the
        lower end. Deal by deal, its rate less the lower end: the mean with a 95% Student-t interval over the
        deals, and how many deals are below. A mean clearly below 0 would contradict the certificates (or
        say the agent is not the policy); its size is about what the cut leaves out. ``None`` without both."""
        if self.players != 1 or not self.undecided or not self.teams.get(POLICY_AGENT):
            return None
        # a record before the field: odds_interval's lower end above 0 was the guided policy's already
        lows = {int(r["seed"]): _low(r) for r in self.undecided
                if r["odds"].get("lower_from", POLICY_LOWER) == POLICY_LOWER}
        pairs = [(_rate(r), float(lows[int(r["seed"])]), int(r["team"]["played"]))
                 for r in self.teams[POLICY_AGENT] if r["team"]["played"] and int(r["seed"]) in lows]
        if not pairs:
            return None
        differences = [rate - low for rate, low, _ in pairs]
        interval = t_interval(differences, within=(-1.0, 1.0))  # win rates and values: 0 to 1
        return {"agent": POLICY_AGENT, "deals": len(pairs), "games": sum(n for _, _, n in pairs),
                "mean_rate": fmean(rate for rate, _, _ in pairs), "mean_lower_end": fmean(low for _, low, _ in pairs),
                "mean_difference": fmean(differences), "difference_ci95": None if interval is None else list(interval),
                "deals_below": sum(1 for d in differences if d < 0)}

    def by_proven_lower_end(self, records: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
        """Solo: an agent's games and wins grouped by the deal's proven lower end in tenths (the exact value
        where the search finished; ``"-"``: no odds record): whether what is proven tracks what a player of
        that kind achieves."""
        lows = {int(r["seed"]): float(_low(r)) for r in self.exact + self.undecided}

        def group(r: dict[str, Any]) -> str:
            low = lows.get(int(r["seed"]))
            return "-" if low is None else BINS[_bin(low)]

        return _grouped(_played(records), group, [*BINS, "-"].index)

    def by_deal_win_rate(self, records: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
        """An agent's deals grouped by its own win rate on each deal, in tenths (``"1"``: every game won):
        with several shuffles a deal, which deals the agent finds hard, not only how often it wins."""
        return _grouped(_played(records), lambda r: BINS[_bin(_rate(r))], BINS.index)

    def by_open_optimum(self, records: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
        """Games and wins grouped by the deal's open-information optimum (turns; ``"-"``: not solved in the
        open sweep): how the hidden-information difficulty follows the open one."""
        def group(r: dict[str, Any]) -> str:
            found = self.open.get(int(r["seed"]))
            return str(found["length"]) if found and found.get("length") is not None else "-"

        return _grouped(_played(records), group, lambda k: (k == "-", int(k) if k != "-" else 0))

    # -- open information
    def open_summary(self) -> dict[str, Any] | None:
        """The open sweep's answers for the card's deals; ``None`` when no open sweep was given. Given one
        that holds none of these deals, the counts are 0: never "not given", which would hide that the
        file was read and matched nothing (another puzzle's sweep, say)."""
        if not self.open and self.open_source is None:
            return None
        solved = [r for r in self.open.values() if r.get("status") == "solved"]
        lengths = [int(r["length"]) for r in solved if r.get("length") is not None]
        return {"deals": len(self.open), "solvable": len(solved),
                "unsolvable": sum(1 for r in self.open.values() if r.get("status") == "unsolvable"),
                "undecided": sum(1 for r in self.open.values() if r.get("status") == "unknown"),
                "certified": sum(1 for r in solved if r.get("certificate")),
                "optimum_quantiles": {k: float(v) for k, v in _quantiles([float(n) for n in lengths]).items()}
                if lengths else None,
                "optimum_mean": sum(lengths) / len(lengths) if lengths else None}

    def open_text(self, seed: int) -> str:
        """What the open sweep found for deal ``seed`` in a few words (``5 turns``, ``unsolvable``, ``-``)."""
        record = self.open.get(seed)
        if record is None:
            return "-"
        if record.get("status") == "solved":
            return plural(record.get('length'), "turn")
        return "unsolvable" if record.get("status") == "unsolvable" else "undecided"

    def to_json(self) -> dict[str, Any]:
        """The card's entry in ``stratagem/difficulty@1`` (``stratagem report --json``)."""
        out: dict[str, Any] = {"challenge": self.challenge, "players": self.players, "puzzle": self.puzzle,
                               "deals": self.deals}
        if self.players == 1:
            out["solo"] = self.solo_summary()
        if self.players > 1 or self.teams:
            out["teams"] = self.team_summary()  # solo: the agents that played the solo deals (--solo-agents)
            out["agents_compared"] = self.compared()
        out["open"] = self.open_summary()
        out["hardest"] = [_listed(self, r) for r in self.hardest]
        out["easiest"] = [_listed(self, r) for r in self.easiest]
        if self.players == 1:
            out["least_proven"] = [_listed(self, r) for r in self.least_proven]
            out["most_proven"] = [_listed(self, r) for r in self.most_proven]
            out["agent_hardest"] = [_listed(self, r) for r in self.agent_hardest]
            out["agent_easiest"] = [_listed(self, r) for r in self.agent_easiest]
            out["policy_check"] = self.policy_check()
        out["all_alike"] = None if self.alike is None else _listed(self, self.alike)
        out["same_value"] = self.same_value
        return out


def _listed(card: Card, record: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"seed": record["seed"], "method": record["method"], "command": reproduce_hidden(record),
                           "open": card.open_text(int(record["seed"]))}
    if "odds" in record:
        out["win_probability"] = record["odds"]["value"]
        if record["status"] != "solved":
            out["proven"] = [str(_low(record)), str(_high(record))]
    else:
        out["wins"] = record["team"]["wins"]
        out["games"] = record["team"]["played"]
    return out


def value_text(record: dict[str, Any], markdown: bool = True) -> str:
    """A listed deal's value: the exact win probability, the interval proven for an undecided deal, or the
    games won (the method in backticks for markdown, plain for a page)."""
    if "odds" in record:
        if record["status"] != "solved":
            return f"in [{end_text(_low(record))}, {end_text(_high(record))}]"
        return str(record["odds"]["value"])
    method = f"`{record['method']}`" if markdown else str(record["method"])
    return f"{record['team']['wins']} / {record['team']['played']} won ({method})"


def end_text(end: Fraction | float) -> str:
    """A proven end to four places (0 and 1 as they are)."""
    return f"{float(end):g}" if end in (0, 1) else f"{float(end):.4f}"


def _pooled(records: list[dict[str, Any]]) -> tuple[int, int]:
    """An agent's wins and games over its records (each a deal's shuffles)."""
    return sum(r["team"]["wins"] for r in records), sum(r["team"]["played"] for r in records)


def _rate(record: dict[str, Any]) -> float:
    if "odds" in record:
        return float(record["odds"]["float"])
    team = record["team"]
    return team["wins"] / team["played"] if team["played"] else 0.0


@dataclass
class DifficultyReport:
    """Every card of a hidden sweep's results file."""

    source: str
    open_source: str | None
    held: int
    cards: list[Card]

    def to_json(self) -> dict[str, Any]:
        """The ``stratagem/difficulty@1`` report, as ``stratagem report --json`` prints it for a hidden sweep."""
        return {"format": CARD_FORMAT, "results": self.source, "open_results": self.open_source,
                "records": self.held, "cards": [card.to_json() for card in self.cards]}

    def markdown(self) -> str:
        """The cards as the Markdown report ``stratagem report`` writes."""
        lines = [f"# Difficulty cards: {self.source}", "",
                 "With the pile and the other hands hidden, as players meet the game (`stratagem sweep "
                 "--information hidden`). Solo: the exact optimal win probability of each deal; deals whose "
                 "search was stopped are counted apart, each with the interval proven for it (a policy's exact "
                 "value below, the optimum's bound above). Teams: each agent kind's "
                 "wins over the deals' shuffles, with 95% Wilson intervals at the games' effective count when they "
                 "are clustered by deal (an estimate, not a proof). Open: the same "
                 "deals with every card known, "
                 + (f"from `{self.open_source}`." if self.open_source else "not given (`--open-results`)."), ""]
        for card in self.cards:
            lines += _card_markdown(card)
        return "\n".join(lines) + "\n"


def undecided_text(s: dict[str, Any]) -> str:
    """What the undecided deals' records prove, in words."""
    span = s["undecided_interval"]
    if not span:
        return "stopped by the limit"
    return (f"stopped by the limit: proven within intervals spanning [{span[0]:.4f}, {span[1]:.4f}], "
            f"{s['undecided_with_lower_bound']} with a lower end above 0")


#: The columns of a card's table of agents (:func:`agent_rows`).
AGENT_COLUMNS = ("agent", "deals", "games", "wins", "win rate [95% CI, deals as clusters]", "deals never won",
                 "deals always won", "cut short", "CPU s per turn")


def agent_rows(summary: list[dict[str, Any]]) -> list[list[str]]:
    """A card's agents (``summary``: :meth:`Card.team_summary`, made once by the caller, which also shows its
    groupings) as the rows of its table (:data:`AGENT_COLUMNS`), the agent's spec first. The
    interval is the one with the games clustered by deal (:func:`~stratagem.solvers.match.clustered_wilson_interval`):
    the win probability on a random deal of the challenge. Of one deal alone it says nothing (how much deals
    differ cannot be measured on one), so the row says so rather than show the interval [0, 1] bare."""
    rows = []
    for t in summary:
        low, high = t["win_rate_ci95_by_deal"]
        if t["win_rate"] is None:
            rate = "-"
        elif t["deals"] < 2:
            rate = f"{t['win_rate']:.3f} [no interval: one deal, nothing to say how deals differ]"
        else:
            rate = f"{t['win_rate']:.3f} [{low:.3f}, {high:.3f}]"
        per_turn = "-" if t["cpu_seconds_per_turn"] is None else f"{t['cpu_seconds_per_turn']:.3f}"
        rows.append([t["agent"], str(t["deals"]), str(t["games"]), str(t["wins"]), rate, str(t["deals_never_won"]),
                     str(t["deals_always_won"]), str(t["cut_short"]), per_turn])
    return rows


#: The columns of a card's deal-by-deal comparison of its agents (:func:`compared_rows`).
COMPARED_COLUMNS = ("strongest agent", "other agent", "deals", "mean difference [95% CI]", "deals better",
                    "deals worse", "deals equal")
#: What the comparison is, in words.
COMPARED_NOTE = ("the same deals and pile shuffles; on each deal the strongest agent's win rate less the other's, "
                 "the mean with a 95% Student-t interval over the deals (an estimate, not a proof)")


def compared_rows(card: Card) -> list[list[str]]:
    """The card's deal-by-deal comparison (:meth:`Card.compared`) as rows of :data:`COMPARED_COLUMNS`, the
    two agents' specs first."""
    rows = []
    for c in card.compared():
        mean = "-" if c["mean_difference"] is None else signed_text(c["mean_difference"], c["difference_ci95"])
        rows.append([c["agent"], c["other"], str(c["deals"]), mean, str(c["better"]), str(c["worse"]),
                     str(c["equal"])])
    return rows


def agent_groups(card: Card, summary: dict[str, Any]) -> list[tuple[str, str, dict[str, dict[str, int]]]]:
    """An agent's games grouped as the card shows them: (title, the groups' heading, the groups) by its own
    win rate on each deal (when it played a deal more than once), by the deal's open optimum (with an open
    sweep) and, solo, by the deal's proven lower end (with odds records)."""
    out = []
    if summary["most_games_a_deal"] > 1:
        out.append(("by its own win rate on each deal", "win rate on the deal", summary["by_deal_win_rate"]))
    if card.open and summary["by_open_optimum"]:
        out.append(("by the deal's open optimum (turns)", "open optimum", summary["by_open_optimum"]))
    if card.exact or card.undecided:
        groups = summary.get("by_proven_lower_end")
        if groups:
            out.append(("by the deal's proven win probability (its lower end, or its exact value)",
                        "proven at least", groups))
    return out


def listed_deals(card: Card) -> list[tuple[str, list[dict[str, Any]]]]:
    """The card's lists of deals under their titles, in the order shown."""
    return [("Hardest deals", card.hardest), ("Easiest deals", card.easiest),
            ("Undecided deals with the lowest proven lower ends (the least proven; their values may still be high)",
             card.least_proven),
            ("Undecided deals with the highest proven lower ends (each won at least that often)", card.most_proven),
            ("Deals the strongest agent won least often (its games: an estimate, not a bound)", card.agent_hardest),
            ("Deals the strongest agent won most often", card.agent_easiest)]


def value_heading(records: Sequence[dict[str, Any]]) -> str:
    """The heading of a list's value column: a solo deal's win probability, or an agent's games won."""
    return "win probability" if records and "odds" in records[0] else "wins / games"


def _undecided_markdown(s: dict[str, Any]) -> list[str]:
    """What the undecided deals' records prove: their ends' quantiles and lower ends by tenths, and the mean
    over every deal of the card as proven."""
    b = s["undecided_bounds"]
    if b is None:
        return []
    low, high = s["mean_proven"]
    lower, upper = b["lower_quantiles"], b["upper_quantiles"]
    return [f"**Undecided deals, what is proven**: {proven_note(b)}", "",
            "| quantile | " + " | ".join(lower) + " |", "|---|" + "---:|" * len(lower),
            "| lower end | " + " | ".join(end_text(v) for v in lower.values()) + " |",
            "| upper end | " + " | ".join(end_text(v) for v in upper.values()) + " |", "",
            "| lower end | " + " | ".join(BINS) + " |", "|---|" + "---:|" * len(BINS),
            "| undecided deals | " + " | ".join(str(n) for n in b["lower_histogram"].values()) + " |", "",
            f"**Mean solo win probability over the {s['deals']} deals**: {mean_note(low, high)}", ""]


def proven_note(bounds: dict[str, Any]) -> str:
    """What an undecided deal's ends mean, with their means (``bounds``: :meth:`Card.undecided_bounds`)."""
    return ("each undecided deal's win probability is at least its lower end (a policy's exact value, the "
            "states it gave up at counted as lost) and at most its upper end (the optimum's bound). These are "
            f"bounds on each deal, not values: the lower ends' mean is {bounds['lower_mean']:.4f}, the upper "
            f"ends' {bounds['upper_mean']:.4f}.")


def signed_text(mean: float, interval: list[float] | None) -> str:
    """A mean difference with its interval, signed, to three places (``+0.341 [+0.307, +0.375]``)."""
    if interval is None:
        return f"{mean:+.3f}"
    return f"{mean:+.3f} [{interval[0]:+.3f}, {interval[1]:+.3f}]"


def policy_note(check: dict[str, Any]) -> str:
    """The policy agent's games against the proven lower ends (:meth:`Card.policy_check`), in words."""
    mean = signed_text(check["mean_difference"], check["difference_ci95"])
    return (f"The {check['agent']} agent plays the exact search's guided policy, and each undecided deal's lower "
            "end is that policy's exact value with its states of few pile orders counted as lost, so its win rate on a "
            "deal estimates a value at least the lower end. On the "
            f"{check['deals']} undecided deals it played ({check['games']} games), its rate is "
            f"{check['mean_rate']:.3f} on average and the lower end {check['mean_lower_end']:.3f}; deal by deal, "
            f"the rate less the lower end is {mean} (the mean, a 95% Student-t interval over the deals), below 0 "
            f"on {check['deals_below']} deal(s). A mean clearly below 0 would contradict the certificates; above "
            "it, it is about what the cut leaves out.")


def same_value_note(card: Card) -> str:
    """Why a card's hardest and easiest deals are no harder or easier to win (:attr:`Card.same_value`)."""
    return (f"every ranked deal has the same value ({value_text(card.hardest[0], markdown=False)}), so the two "
            "lists below differ only by the open optimum (then the seed): none of them is harder to win.")


def mean_note(low: float, high: float) -> str:
    """The card's mean win probability as proven (:meth:`Card.mean_proven`), in words."""
    return (f"proven within [{end_text(low)}, {end_text(high)}] (each exact deal its value, each undecided deal "
            "its ends).")


def _card_markdown(card: Card) -> list[str]:
    who = "solo" if card.players == 1 else f"{card.players} players"
    lines = [f"## {card.challenge}, {who}", "", f"{card.deals} deal(s) of `{card.puzzle}`.", ""]
    if card.players == 1:
        s = card.solo_summary()
        lines.append(f"**Exact solo win probability**: {s['exact']} deal(s) exact, {s['undecided']} undecided"
                     + (f" ({undecided_text(s)}, shown apart)" if s["undecided"] else "")
                     + (f"; the exact values' mean {s['mean_of_exact']:.4f}, {s['certainly_won']} won with "
                        "certainty" if s["exact"] else "") + ".")
        if s["exact"] and s["undecided"]:
            lines.append("The distribution is over the deals that finished, which may be the easier ones.")
        lines.append("")
        if s["quantiles"]:
            lines += ["| quantile | " + " | ".join(s["quantiles"]) + " |",
                      "|---|" + "---:|" * len(s["quantiles"]),
                      "| win probability | " + " | ".join(f"{v:.4f}" for v in s["quantiles"].values()) + " |", ""]
        lines += ["| win probability | " + " | ".join(BINS) + " | undecided |",
                  "|---|" + "---:|" * (len(BINS) + 1),
                  "| deals | " + " | ".join(str(n) for n in card.histogram()) + f" | {s['undecided']} |", ""]
        lines += _undecided_markdown(s)
        if card.teams:
            lines += ["**Agents playing the solo deals** (`--solo-agents`): each agent kind's wins, 95% intervals "
                      "with the games clustered by deal -- what a player of that kind achieves, an estimate, not a "
                      "bound.", ""]
    if card.players > 1 or card.teams:
        lines += ["| " + " | ".join(AGENT_COLUMNS) + " |", "|---|---:|---:|---:|---|---:|---:|---:|---:|"]
        summary = card.team_summary()
        for agent, *cells in agent_rows(summary):
            lines.append(f"| `{agent}` | " + " | ".join(cells) + " |")
        lines.append("")
        check = card.policy_check()
        if check is not None:
            lines += [f"**The guided policy against its proven lower ends**: {policy_note(check)}", ""]
        compared = compared_rows(card)
        if compared:
            lines += [f"**Agents compared deal by deal**: {COMPARED_NOTE}.", "",
                      "| " + " | ".join(COMPARED_COLUMNS) + " |", "|---|---|---:|---|---:|---:|---:|"]
            lines += [f"| `{best}` | `{other}` | " + " | ".join(cells) + " |" for best, other, *cells in compared]
            lines.append("")
        for t in summary:
            for title, head, groups in agent_groups(card, t):
                lines += [f"`{t['agent']}` {title}:", "",
                          f"| {head} | " + " | ".join(groups) + " |", "|---|" + "---:|" * len(groups),
                          "| deals | " + " | ".join(str(g["deals"]) for g in groups.values()) + " |",
                          "| won / games | " + " | ".join(f"{g['wins']} / {g['games']}" for g in groups.values())
                          + " |", ""]
    o = card.open_summary()
    if o is None:
        lines += ["**Open information**: not given.", ""]
    elif not o["deals"]:
        lines += [f"**Open information**: none of these deals is in `{card.open_source}` (deals are matched by the "
                  "puzzle's bytes, the player count and the seed).", ""]
    else:
        q = o["optimum_quantiles"]
        lines += [f"**Open information** (every card known), {o['deals']} of these deals in the open sweep: "
                  f"{o['solvable']} solvable ({o['certified']} with a certificate), {o['unsolvable']} unsolvable, "
                  f"{o['undecided']} undecided"
                  + (f"; optimum median {q['0.5']:g} turns (least {q['0']:g}, most {q['1']:g})" if q else "") + ".", ""]
    if card.alike is not None:
        r = card.alike
        lines += [f"**Hardest and easiest deals**: none; every ranked deal has the same value "
                  f"({value_text(r)}) and open optimum ({card.open_text(int(r['seed']))}). One of them: "
                  f"`{reproduce_hidden(r)}`", ""]
    if card.same_value:
        lines += [f"**Hardest and easiest deals**: {same_value_note(card)}", ""]
    for title, listed in listed_deals(card):
        if not listed:
            continue
        lines += [f"**{title}**", "", f"| seed | {value_heading(listed)} | open optimum | reproduce |",
                  "|---:|---|---|---|"]
        for r in listed:
            value = value_text(r)
            lines.append(f"| {r['seed']} | {value} | {card.open_text(int(r['seed']))} | `{reproduce_hidden(r)}` |")
        lines.append("")
    return lines


def difficulty(records: Sequence[dict[str, Any]], source: str, open_records: Iterable[dict[str, Any]] = (),
               open_source: str | None = None) -> DifficultyReport:
    """The cards of a hidden sweep's records (the best record of each key), beside ``open_records``.

    A record of an open sweep among ``records`` is :class:`BadInput` naming it (it was a bare KeyError,
    ``'team'``, from inside): its answers are :func:`stratagem.sweepreport.summarise`'s, or ``open_records``.
    ``open_records`` are read once, and only those of the hidden sweep's deals kept (an open sweep's file,
    :class:`~stratagem.sweeprecords.ResultsRecords`, may be far larger than the hidden one's).
    """
    for number, record in enumerate(records, 1):
        if not hidden_record(record):
            raise BadInput(source, f"record {number}", "an open-information record: difficulty cards are made from a "
                           "hidden sweep's records (sweep --information hidden); pass open ones as open_records")
    best = best_records(records)
    wanted = {_deal_of(r) for r in best.values()}
    open_best = best_records(r for r in open_records if r.get("game", "strato") == "strato"
                             and r.get("information", "open") == "open"
                             and ((deal := _deal_of(r)) is None or deal in wanted))
    open_by_deal: dict[tuple[str, int, int], dict[str, Any]] = {}
    for r in sorted(open_best.values(), key=lambda r: str(r.get("method"))):
        # of a deal swept with several methods, the best-established answer (auto's certificate, not A*'s
        # search of the same deal because "astar" sorts first); ties to the first method by name
        deal = (r["puzzle_sha256"], int(r["players"]), int(r["seed"]))
        held = open_by_deal.get(deal)
        if held is None or outcome_rank(r) > outcome_rank(held):
            open_by_deal[deal] = r
    groups: dict[tuple[str, str, int], Card] = {}
    deals: dict[tuple[str, str, int], set[int]] = defaultdict(set)
    digests: dict[str, set[str]] = defaultdict(set)
    for r in best.values():
        digests[str(r["challenge"])].add(str(r["puzzle_sha256"]))
    for key in sorted(best):
        r = best[key]
        group = (str(r["challenge"]), str(r["puzzle_sha256"]), int(r["players"]))
        # two versions of a card (edited between two runs into one file): each titled with its bytes' digest
        title = group[0] if len(digests[group[0]]) == 1 else version_label(group[0], group[1])
        card = groups.setdefault(group, Card(title, group[2], str(r["puzzle"]), open_source=open_source))
        deals[group].add(int(r["seed"]))
        if r["method"] == SOLO_METHOD:
            (card.exact if r["status"] == "solved" else card.undecided).append(r)
        else:
            card.teams.setdefault(str(r["method"]).removeprefix("hidden:"), []).append(r)
        found = open_by_deal.get((r["puzzle_sha256"], int(r["players"]), int(r["seed"])))
        if found is not None:
            card.open[int(r["seed"])] = found
    for group, card in groups.items():
        card.deals = len(deals[group])
        card.exact.sort(key=lambda r: int(r["seed"]))
        card.undecided.sort(key=lambda r: int(r["seed"]))
        ranked = card.exact if card.players == 1 else _best_agent_records(card)

        def known(r: dict[str, Any], card: Card = card) -> tuple[int, int]:
            """(0, optimum) when the open sweep solved the deal, else (1, 0): deals without it rank last."""
            found = card.open.get(int(r["seed"]))
            if found and found.get("length") is not None:
                return 0, int(found["length"])
            return 1, 0

        lowest, highest = _both_ends(ranked, _rate, known)
        if len({(_rate(r), known(r)) for r in ranked}) == 1:
            card.alike = lowest[0]
        else:
            card.hardest, card.easiest = lowest, highest
            card.same_value = len({_rate(r) for r in ranked}) == 1
        card.least_proven, card.most_proven = _both_ends(card.undecided, _low, known)
        if card.players == 1:  # what players of the strongest kind met, beside what is proven
            played = _best_agent_records(card)
            if len({(_rate(r), known(r)) for r in played}) > 1:
                card.agent_hardest, card.agent_easiest = _both_ends(played, _rate, known)
    cards = [groups[g] for g in sorted(groups, key=lambda g: (g[0], g[2], g[1]))]
    return DifficultyReport(source, open_source, len(records), cards)


def _deal_of(record: dict[str, Any]) -> tuple[Any, ...] | None:
    """A record's deal as the cards match an open sweep's to a hidden one's (the puzzle's bytes, players,
    seed), or None for a record whose fields are not numbers: none is left out for being of no wanted deal
    then, and the matching below meets it as it always did."""
    try:
        deal = record["puzzle_sha256"], int(record["players"]), int(record["seed"])
        hash(deal)
    except (KeyError, TypeError, ValueError, OverflowError):
        return None
    return deal


def _both_ends(records: list[dict[str, Any]], score: Callable[[dict[str, Any]], Any],
               known: Callable[[dict[str, Any]], tuple[int, int]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The records of the lowest and of the highest ``score``, at most :data:`LISTED` each and half of them,
    no record in both. Ties go to a deal the open sweep solved (``known``): among the lowest the longer open
    optimum first, among the highest the shorter; then the seed."""
    low = sorted(records, key=lambda r: (score(r), known(r)[0], -known(r)[1], int(r["seed"])))
    high = sorted(records, key=lambda r: (-score(r), known(r), int(r["seed"])))
    listed = min(LISTED, max(1, len(records) // 2))
    chosen = {int(r["seed"]) for r in low[:listed]}
    return low[:listed], [r for r in high if int(r["seed"]) not in chosen][:listed]


def _played(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An agent's records of the deals it played a game of: a task the limit stopped before its first game
    is no deal of a grouping ("2 deals, 3 / 3 won" of games all on one deal)."""
    return [r for r in records if r["team"]["played"]]


def _grouped(records: list[dict[str, Any]], group: Callable[[dict[str, Any]], str],
             order: Callable[[str], Any]) -> dict[str, dict[str, int]]:
    """An agent's records counted by ``group`` (deals, games, wins), the groups in ``order``."""
    groups: dict[str, dict[str, int]] = {}
    for r in records:
        counts = groups.setdefault(group(r), {"deals": 0, "games": 0, "wins": 0})
        counts["deals"] += 1
        counts["games"] += int(r["team"]["played"])
        counts["wins"] += int(r["team"]["wins"])
    return {k: groups[k] for k in sorted(groups, key=order)}


def _best_agent_records(card: Card) -> list[dict[str, Any]]:
    """The finished records of the agent with the highest pooled win rate."""
    best = card.strongest()
    return [] if best is None else [r for r in card.teams[best] if r["team"]["played"]]
