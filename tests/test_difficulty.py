"""The difficulty cards (``stratagem report`` on a hidden sweep, issue 29): the solo distribution with the
undecided deals apart, pooled team win rates with Wilson intervals, the open optimum from an open sweep's
records of the same deals, the hardest and easiest deals with their commands; text, JSON and a page that
is the same bytes for the same records; mixed files refused with one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.difficulty import difficulty, reproduce_hidden
from stratagem.solvers.match import clustered_wilson_interval, wilson_interval

SHA = "ab" * 32
PUZZLE = "puzzles/strato/challenge-1.toml"


def solo(seed: int, value: str | None, time_limit: float = 2.0, low: str = "0", high: str = "1") -> dict[str, Any]:
    """A solo record: exact ``value``, or (``None``) stopped with the interval [``low``, ``high``] proven."""
    odds = ({"value": value, "low": value, "high": value, "float": float(eval(value))} if value is not None
            else {"value": None, "low": low, "high": high, "float": None})
    return {"format": "stratagem/sweep@1", "game": "strato", "information": "hidden", "puzzle": PUZZLE,
            "puzzle_sha256": SHA, "challenge": "Challenge 1", "players": 1, "seed": seed, "method": "hidden:odds",
            "time_limit": time_limit, "status": "solved" if value is not None else "unknown", "odds": odds,
            "retry": None, "cpu_seconds": 1.0}


def team(seed: int, agent: str, wins: int, played: int, players: int = 2) -> dict[str, Any]:
    return {"format": "stratagem/sweep@1", "game": "strato", "information": "hidden", "puzzle": PUZZLE,
            "puzzle_sha256": SHA, "challenge": "Challenge 1", "players": players, "seed": seed,
            "method": f"hidden:{agent}", "time_limit": 120.0, "status": "solved", "retry": None, "cpu_seconds": 2.0,
            "team": {"agent": agent, "shuffles": played, "played": played, "wins": wins,
                     "games": [[k, k < wins, 10] for k in range(played)], "turns": 10 * played}}


def open_record(seed: int, players: int, length: int | None) -> dict[str, Any]:
    return {"format": "stratagem/sweep@1", "game": "strato", "puzzle": PUZZLE, "puzzle_sha256": SHA,
            "challenge": "Challenge 1",
            "players": players, "seed": seed, "method": "auto", "status": "solved" if length else "unknown",
            "length": length, "line": ["R1L:1R2>1R1"] * (length or 0),  # in the notation; a report does not replay it
            "certificate": {"kind": "sat"} if length else None, "time_limit": 60.0}


RECORDS = ([solo(s, v) for s, v in [(0, "1"), (1, "1/2"), (2, "3/4"), (3, None), (4, "1/20"), (5, "1")]]
           + [solo(3, None)]  # a retry that stopped again: one deal, counted once
           + [team(s, "greedy", w, 2) for s, w in [(0, 0), (1, 1), (2, 2)]]
           + [team(s, "belief", w, 2) for s, w in [(0, 1), (1, 2), (2, 2)]])
OPEN = [open_record(s, 1, 5 + s) for s in range(5)] + [open_record(s, 2, 7) for s in range(3)]


def test_the_solo_card_keeps_undecided_deals_apart() -> None:
    report = difficulty(RECORDS, "r.jsonl", OPEN, "o.jsonl")
    [solo_card] = [c for c in report.cards if c.players == 1]
    s = solo_card.solo_summary()
    assert (solo_card.deals, s["exact"], s["undecided"]) == (6, 5, 1)
    assert s["undecided_interval"] == [0, 1]
    assert s["histogram"]["0.0-0.1"] == 1 and s["histogram"]["0.5-0.6"] == 1 and s["histogram"]["0.7-0.8"] == 1
    assert s["histogram"]["1"] == 2 and sum(s["histogram"].values()) == 5
    assert s["quantiles"]["0"] == 0.05 and s["quantiles"]["0.5"] == 0.75 and s["quantiles"]["1"] == 1.0
    assert s["mean_of_exact"] == pytest.approx((1 + 0.5 + 0.75 + 0.05 + 1) / 5)
    # hardest first: the lowest exact value; the undecided deal is never ranked
    assert [r["seed"] for r in solo_card.hardest] == [4, 1]  # half the 5 exact deals each, no deal in both
    # equal values: a known open optimum before none (seed 5 is not in the open sweep)
    assert [r["seed"] for r in solo_card.easiest] == [0, 5]
    o = solo_card.open_summary()
    assert o is not None and (o["deals"], o["solvable"], o["certified"]) == (5, 5, 5)


def test_what_the_undecided_deals_prove_is_shown_as_bounds_never_as_values(tmp_path: Path) -> None:
    """Undecided deals keep their own distribution of proven ends (quantiles, lower ends by tenths, means),
    the card's mean is proven within the exact values and the ends, and the undecided deals are listed by
    their proven lower end (lowest and highest, no deal in both), each with its interval and command."""
    records = ([solo(0, "1"), solo(1, "1/2")]
               + [solo(s, None, low=lo, high=hi) for s, lo, hi in
                  [(2, "0", "1"), (3, "1/4", "1"), (4, "3/5", "9/10"), (5, "7/20", "1"), (6, "1/10", "1")]]
               + [solo(3, None, low="3/10")])  # a retry proving more: the latest counts
    [card] = difficulty(records, "r.jsonl").cards
    s = card.solo_summary()
    b = s["undecided_bounds"]
    assert (s["exact"], s["undecided"]) == (2, 5)
    assert b["lower_quantiles"] == {"0": 0.0, "0.1": 0.0, "0.25": 0.1, "0.5": 0.3, "0.75": 0.35, "0.9": 0.6,
                                    "1": 0.6}
    assert b["upper_quantiles"]["0"] == 0.9 and b["upper_quantiles"]["0.25"] == 1.0
    assert b["lower_histogram"]["0.0-0.1"] == 1 and b["lower_histogram"]["0.1-0.2"] == 1
    assert b["lower_histogram"]["0.3-0.4"] == 2 and b["lower_histogram"]["0.6-0.7"] == 1
    assert sum(b["lower_histogram"].values()) == 5
    assert b["lower_mean"] == pytest.approx((0 + 0.3 + 0.6 + 0.35 + 0.1) / 5)
    assert b["upper_mean"] == pytest.approx((1 + 1 + 0.9 + 1 + 1) / 5)
    assert s["mean_proven"] == [pytest.approx((1 + 0.5 + 1.35) / 7), pytest.approx((1.5 + 4.9) / 7)]
    assert sum(s["histogram"].values()) == 2  # the exact distribution holds the exact deals only
    assert [r["seed"] for r in card.least_proven] == [2, 6]
    assert [r["seed"] for r in card.most_proven] == [4, 5]
    listed = card.to_json()["most_proven"][0]
    assert listed["proven"] == ["3/5", "9/10"] and listed["win_probability"] is None
    assert listed["command"].startswith("stratagem sweep") and "--seeds 4..4" in listed["command"]
    assert [r["seed"] for r in card.hardest] == [1] and [r["seed"] for r in card.easiest] == [0]
    results = tmp_path / "r.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert run(["report", str(results), "--html", "--out", str(tmp_path / "out"), "--quiet"]) == 0
    text = (tmp_path / "out" / "report.md").read_text()
    assert "| lower end | 0 | 0 | 0.1000 | 0.3000 | 0.3500 | 0.6000 | 0.6000 |" in text
    assert "| undecided deals | 1 | 1 | 0 | 2 | 0 | 0 | 1 | 0 | 0 | 0 | 0 |" in text
    assert "proven within [0.4071, 0.9143]" in text and "| 4 | in [0.6000, 0.9000] |" in text
    assert "their proven interval is [0, 1]" not in text
    page = (tmp_path / "out" / "report.html").read_text()
    assert "undecided deals by proven lower end" in page and "in [0.6000, 0.9000]" in page
    assert "proven within [0.4071, 0.9143]" in page
    alone = difficulty([solo(0, "1"), solo(1, "1/2")], "r.jsonl").cards[0]
    assert alone.solo_summary()["undecided_bounds"] is None and alone.least_proven == []
    assert "what is proven" not in difficulty([solo(0, "1")], "r.jsonl").markdown()


def test_the_team_card_pools_games_with_a_wilson_interval() -> None:
    report = difficulty(RECORDS, "r.jsonl")
    [card] = [c for c in report.cards if c.players == 2]
    rows = {t["agent"]: t for t in card.team_summary()}
    assert (rows["belief"]["games"], rows["belief"]["wins"]) == (6, 5)
    assert rows["belief"]["win_rate_ci95"] == list(wilson_interval(5, 6))
    assert (rows["greedy"]["deals_never_won"], rows["greedy"]["deals_always_won"]) == (1, 1)
    assert rows["greedy"]["cpu_seconds_per_turn"] == pytest.approx(6.0 / 60)
    # ranked by the best agent (belief): seed 0 hardest
    assert card.hardest[0]["seed"] == 0 and card.hardest[0]["method"] == "hidden:belief"
    # compared deal by deal with the other agent: differences 1/2, 1/2, 0; mean 1/3, Student-t half-width
    # t(0.95, 2) * s / sqrt(3) = 4.302653 * 0.288675 / 1.732051 = 0.717109
    [pair] = card.compared()
    assert (pair["agent"], pair["other"], pair["deals"], pair["better"], pair["worse"], pair["equal"]) == (
        "belief", "greedy", 3, 2, 0, 1)
    assert pair["mean_difference"] == pytest.approx(1 / 3)
    # cut to the -1 .. 1 a difference of win rates can take (it said +1.050)
    assert pair["difference_ci95"] == pytest.approx([1 / 3 - 0.717109, 1.0], abs=1e-6)
    assert "| `belief` | `greedy` | 3 | +0.333 [-0.384, +1.000] | 2 | 0 | 1 |" in report.markdown()
    assert card.to_json()["agents_compared"] == [pair]
    assert card.open_summary() is None
    assert rows["belief"]["by_open_optimum"] == {"-": {"deals": 3, "games": 6, "wins": 5}}
    with_open = [c for c in difficulty(RECORDS, "r.jsonl", OPEN, "o.jsonl").cards if c.players == 2][0]
    assert with_open.team_summary()[0]["by_open_optimum"] == {"7": {"deals": 3, "games": 6, "wins": 5}}


def test_several_shuffles_a_deal_cluster_the_interval_and_group_the_deals_by_their_own_rate(tmp_path: Path) -> None:
    """With ten games a deal, the card's interval is the one with the games clustered by deal (wider than the
    pooled Wilson interval, which the JSON keeps), and each agent's deals are grouped by its own win rate
    on them; with one game a deal there is no such grouping."""
    wins = [10, 10, 9, 7, 5, 0]
    records = [team(s, "guided", w, 10) for s, w in enumerate(wins)]
    report = difficulty(records, "r.jsonl")
    [row] = report.cards[0].team_summary()
    low, high, effect = clustered_wilson_interval([(w, 10) for w in wins])
    assert row["win_rate_ci95_by_deal"] == [low, high] and row["design_effect"] == round(effect, 4)
    assert row["win_rate_ci95"] == list(wilson_interval(41, 60))
    assert effect > 2 and high - low > row["win_rate_ci95"][1] - row["win_rate_ci95"][0]
    assert row["most_games_a_deal"] == 10
    assert row["by_deal_win_rate"] == {"0.0-0.1": {"deals": 1, "games": 10, "wins": 0},
                                       "0.5-0.6": {"deals": 1, "games": 10, "wins": 5},
                                       "0.7-0.8": {"deals": 1, "games": 10, "wins": 7},
                                       "0.9-1.0": {"deals": 1, "games": 10, "wins": 9},
                                       "1": {"deals": 2, "games": 20, "wins": 20}}
    text = report.markdown()
    assert f"| `guided` | 6 | 60 | 41 | 0.683 [{low:.3f}, {high:.3f}] | 1 | 2 | 0 | 0.020 |" in text
    assert "| win rate on the deal | 0.0-0.1 | 0.5-0.6 | 0.7-0.8 | 0.9-1.0 | 1 |" in text
    assert "[95% CI, deals as clusters]" in text
    results = tmp_path / "r.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert run(["report", str(results), "--html", "--out", str(tmp_path / "out"), "--quiet"]) == 0
    page = (tmp_path / "out" / "report.html").read_text()
    assert "win rate on the deal" in page and f"0.683 [{low:.3f}, {high:.3f}]" in page
    single = difficulty([team(s, "guided", w, 1) for s, w in enumerate([1, 1, 0])], "r.jsonl")
    assert "win rate on the deal" not in single.markdown()
    assert single.cards[0].compared() == [] and "compared deal by deal" not in single.markdown()


def test_a_solo_card_shows_the_agents_that_played_its_deals_beside_the_odds(tmp_path: Path) -> None:
    """With ``--solo-agents`` records (an agent in the one seat), the solo card keeps the odds' distribution
    and ranking and adds the agents' pooled win rates, in the text, the JSON and the page."""
    records = RECORDS + [team(s, "guided", w, 2, players=1) for s, w in [(0, 2), (1, 1), (4, 0)]]
    [card] = [c for c in difficulty(records, "r.jsonl").cards if c.players == 1]
    [row] = card.team_summary()
    assert (row["agent"], row["deals"], row["games"], row["wins"]) == ("guided", 3, 6, 3)
    assert [r["seed"] for r in card.hardest] == [4, 1]  # still ranked by the exact odds
    # and, apart, by the strongest agent's own games
    assert [r["seed"] for r in card.agent_hardest] == [4] and [r["seed"] for r in card.agent_easiest] == [0]
    assert card.to_json()["agent_hardest"][0] | {"command": ""} == {
        "seed": 4, "method": "hidden:guided", "command": "", "open": "-", "wins": 0, "games": 2}
    assert ("**Deals the strongest agent won least often (its games: an estimate, not a bound)**\n\n"
            "| seed | wins / games | open optimum | reproduce |") in difficulty(records, "r.jsonl").markdown()
    assert card.to_json()["teams"][0]["win_rate_ci95"] == list(wilson_interval(3, 6))
    assert card.solo_summary()["exact"] == 5
    results = tmp_path / "r.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert run(["report", str(results), "--html", "--out", str(tmp_path / "out"), "--quiet"]) == 0
    for name in ("report.md", "report.html"):
        text = (tmp_path / "out" / name).read_text()
        solo_part = text.split("2 players</h2>" if name.endswith(".html") else "2 players")[0]  # not the contents
        assert "Agents playing the solo deals" in solo_part and "guided" in solo_part, name
        assert "Deals the strongest agent won least often" in solo_part, name
    page = (tmp_path / "out" / "report.html").read_text()
    assert "Agents compared deal by deal" in page and "<code>belief</code>" in page
    plain = [c for c in difficulty(RECORDS, "r.jsonl").cards if c.players == 1][0]
    assert "teams" not in plain.to_json() and plain.agent_hardest == plain.agent_easiest == []


def test_a_solo_agents_games_are_grouped_by_the_deals_proven_win_probability(tmp_path: Path) -> None:
    """Solo, an agent's games are also grouped by the deal's proven lower end in tenths (its exact value where
    the search finished), deals without odds apart; team cards have no such grouping."""
    records = ([solo(0, "1"), solo(1, "1/2"), solo(2, None, low="11/20"), solo(3, None, low="1/20")]
               + [team(s, "guided", w, 2, players=1) for s, w in [(0, 2), (1, 1), (2, 0), (3, 1), (9, 2)]]
               + [team(s, "guided", w, 2) for s, w in [(0, 2), (1, 1)]])
    report = difficulty(records, "r.jsonl")
    [row] = [c for c in report.cards if c.players == 1][0].team_summary()
    assert row["by_proven_lower_end"] == {"0.0-0.1": {"deals": 1, "games": 2, "wins": 1},
                                          "0.5-0.6": {"deals": 2, "games": 4, "wins": 1},
                                          "1": {"deals": 1, "games": 2, "wins": 2},
                                          "-": {"deals": 1, "games": 2, "wins": 2}}
    [pair] = [c for c in report.cards if c.players == 2][0].team_summary()
    assert "by_proven_lower_end" not in pair
    text = report.markdown()
    assert "| proven at least | 0.0-0.1 | 0.5-0.6 | 1 | - |" in text
    assert "| won / games | 1 / 2 | 1 / 4 | 2 / 2 | 2 / 2 |" in text
    results = tmp_path / "r.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert run(["report", str(results), "--html", "--out", str(tmp_path / "out"), "--quiet"]) == 0
    assert "proven at least" in (tmp_path / "out" / "report.html").read_text()


def test_the_guided_agents_games_are_held_against_the_proven_lower_ends(tmp_path: Path) -> None:
    """Solo, the ``guided`` agent plays the policy whose cut value is an undecided deal's lower end: the card
    gives its rate less the lower end deal by deal (undecided deals only: an exact deal's value is the
    optimum's, not the policy's), with a Student-t interval, and how many deals fall below."""
    records = ([solo(0, "1"), solo(1, None, low="1/2"), solo(2, None, low="3/4"), solo(3, None, low="1/10")]
               + [team(s, "guided", w, 4, players=1) for s, w in [(0, 4), (1, 3), (2, 2), (3, 4)]]
               + [team(s, "belief", w, 4, players=1) for s, w in [(1, 4), (2, 4), (3, 4)]])
    report = difficulty(records, "r.jsonl")
    [card] = [c for c in report.cards if c.players == 1]
    check = card.policy_check()
    assert check is not None
    # differences 3/4 - 1/2, 2/4 - 3/4, 4/4 - 1/10: mean 0.3; half-width t(0.95, 2) * s / sqrt(3)
    differences = [0.25, -0.25, 0.9]
    mean = sum(differences) / 3
    sd = (sum((d - mean) ** 2 for d in differences) / 2) ** 0.5
    assert (check["agent"], check["deals"], check["games"], check["deals_below"]) == ("guided", 3, 12, 1)
    assert check["mean_difference"] == pytest.approx(mean)
    assert check["difference_ci95"] == pytest.approx([max(mean - 4.302653 * sd / 3 ** 0.5, -1.0),
                                                      min(mean + 4.302653 * sd / 3 ** 0.5, 1.0)])
    assert check["difference_ci95"][0] == -1.0  # cut to the range (it was below -1)
    assert (check["mean_rate"], check["mean_lower_end"]) == (pytest.approx(0.75), pytest.approx(0.45))
    assert card.to_json()["policy_check"] == check
    text = report.markdown()
    assert "**The guided policy against its proven lower ends**" in text and "+0.300 [" in text
    results = tmp_path / "r.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert run(["report", str(results), "--html", "--out", str(tmp_path / "out"), "--quiet"]) == 0
    assert "The guided policy against its proven lower ends" in (tmp_path / "out" / "report.html").read_text()
    # a lower end the search proved, not the policy: not held against the policy's games
    proved = solo(1, None, low="1/2")
    proved["odds"]["lower_from"] = "search"
    mixed = difficulty([proved, solo(2, None, low="3/4"), *records[4:]], "r.jsonl").cards[0].policy_check()
    assert mixed is not None and (mixed["deals"], mixed["mean_difference"]) == (1, pytest.approx(-0.25))
    # no undecided deal, or no guided agent: nothing to hold
    assert difficulty([solo(0, "1"), team(0, "guided", 1, 2, players=1)], "r.jsonl").cards[0].policy_check() is None
    assert difficulty([solo(1, None, low="1/2"), team(1, "belief", 1, 2, players=1)],
                      "r.jsonl").cards[0].policy_check() is None


def test_deals_of_one_value_are_not_called_harder_or_easier(tmp_path: Path) -> None:
    """Every deal won with certainty: with one open optimum too, the card lists no hardest or easiest deal and
    names one of them; with open optima that differ, it lists them by the optimum and says that none is
    harder to win."""
    records = [solo(s, "1") for s in range(4)]
    alike = difficulty(records, "r.jsonl", [open_record(s, 1, 5) for s in range(4)], "o.jsonl").cards[0]
    assert alike.alike is not None and (alike.hardest, alike.easiest, alike.same_value) == ([], [], False)
    assert alike.to_json()["all_alike"]["seed"] == 0 and alike.to_json()["same_value"] is False
    report = difficulty(records, "r.jsonl", [open_record(s, 1, 5 + (s == 2)) for s in range(4)], "o.jsonl")
    [card] = report.cards
    assert card.alike is None and card.same_value and card.to_json()["same_value"] is True
    assert [r["seed"] for r in card.hardest] == [2, 0] and [r["seed"] for r in card.easiest] == [1, 3]
    text = report.markdown()
    assert "every ranked deal has the same value (1), so the two lists below differ only by the open optimum" in text
    results, opened = tmp_path / "r.jsonl", tmp_path / "o.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records))
    opened.write_text("".join(json.dumps(open_record(s, 1, 5 + (s == 2))) + "\n" for s in range(4)))
    assert run(["report", str(results), "--open-results", str(opened), "--html", "--out", str(tmp_path / "out"),
                "--quiet"]) == 0
    assert "none of them is harder to win" in (tmp_path / "out" / "report.html").read_text()
    # values that differ: no such note
    assert not difficulty(RECORDS, "r.jsonl").cards[0].same_value


def test_text_json_and_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results, opened = tmp_path / "r.jsonl", tmp_path / "o.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    opened.write_text("".join(json.dumps(r) + "\n" for r in OPEN))
    args = ["report", str(results), "--open-results", str(opened), "--html"]
    assert run([*args, "--out", str(tmp_path / "a"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "stratagem/difficulty@1" and len(data["cards"]) == 2
    solo_card = data["cards"][0]
    assert solo_card["solo"]["undecided"] == 1 and solo_card["hardest"][0]["command"].startswith("stratagem sweep")
    assert run([*args, "--out", str(tmp_path / "b"), "--quiet"]) == 0
    page = (tmp_path / "a" / "report.html").read_text()
    assert page == (tmp_path / "b" / "report.html").read_text()
    assert "<svg" in page and "undecided" in page and "http://" not in page.replace("http://www.w3.org", "")
    text = (tmp_path / "a" / "report.md").read_text()
    assert "1 undecided" in text and "Hardest deals" in text and "--seeds 4..4" in text


def test_reproduce_names_the_agent_and_shuffles() -> None:
    command = reproduce_hidden(team(3, "belief:samples=4", 1, 2, players=4))
    assert "--agents belief:samples=4 --shuffles 2" in command and "--players 4" in command
    assert "--seeds 3..3" in command and "--time-limit 120" in command


def test_a_mixed_file_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "r.jsonl"
    results.write_text(json.dumps(RECORDS[0]) + "\n" + json.dumps(OPEN[0]) + "\n")
    assert run(["report", str(results), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "mixes hidden- and open-information records" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out" / "report.md").exists()


def test_one_deals_games_have_no_interval_over_deals_and_the_row_says_why() -> None:
    """Ten games of one deal say how often that deal is won, nothing of how deals differ: the card showed
    the clustered interval as a bare [0.000, 1.000]; it now says there is none, and why."""
    report = difficulty([team(7, "guided", 8, 10)], "r.jsonl")
    [row] = report.cards[0].team_summary()
    assert row["win_rate_ci95_by_deal"] == [0.0, 1.0]  # the JSON keeps the interval as computed
    text = report.markdown()
    assert "| `guided` | 1 | 10 | 8 | 0.800 [no interval: one deal, nothing to say how deals differ] |" in text
    assert "0.800 [0.000, 1.000]" not in text
