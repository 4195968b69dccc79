"""Pages of a Strato deal with the pile hidden: a policy record (``stratagem/policy@1``) as a strategy a
player can follow, and the ``odds`` reports (``odds --html``, ``view`` of ``odds --json``).

The policy's page computes each node's win probability from the record's own nodes: checked here against
verify's certified value at the start and against the record followed by hand, and shown to follow a
forged leaf (the page draws the record; verify names it invalid). The likeliest game is the record followed
draw by draw, the likeliest card each time; a ranked first move that is not legal, or a report whose start
is not its deal's, is bad input."""

from __future__ import annotations

import gzip
import html
import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from pagesupport import PUZZLES, browser_fixture, cli, page_title, records_fixture  # noqa: F401 (the fixtures)

from stratagem.views.policy import policy_values

CHALLENGE_0 = str(PUZZLES / "strato/challenge-0.toml")
TWO_THIRDS = "RRWR(RW)WWRW RRR WRR 1 -"


def _values(page: str) -> dict[str, str]:
    """Each tree node's value as the page gives it: ``data-node`` id -> ``data-value``."""
    return dict(re.findall(r"data-node=\"(\d+)\"[^>]*>\s*<summary>.*?data-value=\"([^\"]*)\"", page))


def test_a_policy_page_gives_each_nodes_value_from_the_record(records: dict[str, Path], tmp_path: Path) -> None:
    page_path = tmp_path / "policy.html"
    assert cli("view", str(records["policy.json"]), "--out", str(page_path))[0] == 0
    page = page_path.read_text()
    assert page_title(page) == ("Strato, pile hidden: a policy that wins with probability 2/3 (0.6667) (as the record "
                            "claims), claimed optimal")
    record = json.loads(records["policy.json"].read_text())
    nodes = {n["id"]: n for n in record["nodes"]}
    shown = {int(k): Fraction(v) for k, v in _values(page).items()}
    assert set(shown) == set(nodes), "every node of the record is drawn once, with its value"
    for node_id, node in nodes.items():  # each value follows from its children's, as the record gives them
        if node["kind"] == "decision":
            assert shown[node_id] == shown[node["child"]]
        elif node["kind"] == "chance":
            assert shown[node_id] == sum(Fraction(p) * shown[c] for _, p, c in node["outcomes"])
            assert sum(Fraction(p) for _, p, _ in node["outcomes"]) == 1
        elif node["kind"] == "leaf":
            assert shown[node_id] == Fraction(node["payoff"])
        else:
            assert shown[node_id] == 0
    code, out, _ = cli("verify", str(records["policy.json"]))
    assert "certified: the optimal solo win probability is at least 2/3" in out and code == 3
    assert shown[0] == Fraction(2, 3)


def test_a_policy_page_with_verify_says_what_is_certified(records: dict[str, Path], tmp_path: Path) -> None:
    page_path = tmp_path / "policy.html"
    code, _, _ = cli("view", str(records["policy.json"]), "--verify", "--out", str(page_path))
    assert code == 3  # verify's: "no policy does better" is not repeated without --recheck
    page = page_path.read_text()
    assert page_title(page) == ("Strato, pile hidden: a policy that wins with probability 2/3 (0.6667) (certified), "
                            "claimed optimal")
    assert "data-verdict=\"not-certified\"" in page  # the optimum is asserted, not checked


def test_a_forged_leaf_changes_the_pages_value_and_verify_refuses_it(records: dict[str, Path],
                                                                     tmp_path: Path) -> None:
    record = json.loads(records["policy.json"].read_text())
    lost = next(n for n in record["nodes"] if n["kind"] == "cut")  # a position the policy gives up, as won
    lost.update(kind="leaf", payoff="1")
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(record))
    page_path = tmp_path / "forged.html"
    code, _, err = cli("view", str(forged), "--verify", "--out", str(page_path))
    assert code == 1 and err.strip()
    page = page_path.read_text()
    assert "(invalid)" in page_title(page)
    assert Fraction(_values(page)["0"]) > Fraction(2, 3)  # the page draws the record's arithmetic


def test_the_likeliest_game_follows_the_record_draw_by_draw(records: dict[str, Path], tmp_path: Path) -> None:
    record = json.loads(records["policy.json"].read_text())
    nodes = {n["id"]: n for n in record["nodes"]}
    expected, node = [], nodes[0]
    while node["kind"] in ("decision", "chance"):
        if node["kind"] == "decision":
            expected.append(node["move"])
            node = nodes[node["child"]]
        else:
            best = max(Fraction(p) for _, p, _ in node["outcomes"])
            card, _, child = next(o for o in node["outcomes"] if Fraction(o[1]) == best)
            expected.append(f"draw {card}")
            node = nodes[child]
    page_path = tmp_path / "policy.html"
    assert cli("view", str(records["policy.json"]), "--out", str(page_path))[0] == 0
    page = page_path.read_text()
    replay = page[page.index("id=\"likeliest\""):]
    listed = re.findall(r"data-move=\"([^\"]*)\"", replay.split("</ol>")[0])
    assert [html.unescape(move) for move in listed] == expected
    assert "data-status=\"" in replay.split("</ol>")[0], "the likeliest game's last position says how it ended"


def test_policy_values_of_a_broken_record_are_unknown_not_wrong() -> None:
    leaf = {"kind": "leaf", "payoff": "1"}
    good = {0: {"id": 0, "kind": "chance", "outcomes": [["R", "1/4", 1], ["W", "3/4", 2]]},
            1: dict(leaf, id=1), 2: {"id": 2, "kind": "cut"}}
    assert policy_values(good, 0) == {0: Fraction(1, 4), 1: 1, 2: 0}
    missing = {0: {"id": 0, "kind": "decision", "move": "!1L", "child": 7}}
    assert policy_values(missing, 0)[0] is None
    cycle = {0: {"id": 0, "kind": "decision", "move": "!1L", "child": 1},
             1: {"id": 1, "kind": "decision", "move": "!1R", "child": 0}}
    assert policy_values(cycle, 0)[0] is None
    bad_weight = {0: {"id": 0, "kind": "chance", "outcomes": [["R", "a half", 1]]}, 1: dict(leaf, id=1)}
    assert policy_values(bad_weight, 0)[0] is None


@pytest.fixture(scope="module", name="reports")
def reports_fixture(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The position's ``odds`` report and page, and the compiled search's (``--table``)."""
    folder = tmp_path_factory.mktemp("odds")
    made: dict[str, Any] = {"folder": folder}
    code, out, _ = cli("odds", CHALLENGE_0, "--position", TWO_THIRDS, "--json", "--html", str(folder / "odds.html"))
    assert code == 0
    (folder / "odds.json").write_text(out)
    code, out, _ = cli("odds", CHALLENGE_0, "--position", TWO_THIRDS, "--table", str(folder / "t.gz"), "--json",
                       "--html", str(folder / "bounds.html"))
    assert code == 0
    (folder / "bounds.json").write_text(out)
    return made


def test_odds_html_ranks_the_first_moves(reports: dict[str, Any]) -> None:
    folder = reports["folder"]
    page = (folder / "odds.html").read_text()
    report = json.loads((folder / "odds.json").read_text())
    assert page_title(page) == "Strato, pile hidden: wins with probability 2/3 (0.6667), exactly"
    body = page[page.index("<h2>First moves</h2>"):]
    listed = re.findall(r"<td><code>([^<]*)</code></td>", body)
    assert [entry["move"] for entry in report["ranking"]] == [html.unescape(m) for m in listed]
    assert body.count("2/3 (0.6667)") == sum(1 for e in report["ranking"] if e["win_probability"] == "2/3")
    viewed = folder / "viewed.html"
    assert cli("view", str(folder / "odds.json"), "--out", str(viewed))[0] == 0
    assert page_title(viewed.read_text()) == page_title(page)


def test_odds_table_html_names_its_certificate(reports: dict[str, Any]) -> None:
    page = (reports["folder"] / "bounds.html").read_text()
    assert page_title(page) == "Strato, pile hidden: wins with probability 2/3 (0.6667), exactly"
    assert "t.gz</code> is the certificate <code>stratagem verify</code> checks" in page


@pytest.mark.parametrize("forgery", ["illegal move", "other start"])
def test_a_report_that_does_not_fit_its_deal_is_bad_input(reports: dict[str, Any], tmp_path: Path,
                                                          forgery: str) -> None:
    report = json.loads((reports["folder"] / "odds.json").read_text())
    if forgery == "illegal move":
        report["ranking"][1]["move"] = "S1L"  # no sun in the hand
        place = "ranking[1].move"
    else:
        report["deal"], place = "solo-1", "start"
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(report))
    code, _, err = cli("view", str(forged), "--out", str(tmp_path / "forged.html"))
    assert code == 2 and place in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "forged.html").exists()


def test_odds_checks_its_html_path_before_the_search(tmp_path: Path) -> None:
    code, out, err = cli("odds", CHALLENGE_0, "--deal", "solo-1", "--html", str(tmp_path / "no" / "such" / "p.html"))
    assert code == 2 and "--html" in err and not out and len(err.strip().splitlines()) == 1


def test_policy_pages_are_deterministic(records: dict[str, Path], tmp_path: Path) -> None:
    pages = []
    for name in ("a.html", "b.html"):
        assert cli("view", str(records["policy.json"]), "--out", str(tmp_path / name))[0] == 0
        pages.append((tmp_path / name).read_bytes())
    assert pages[0] == pages[1]


def test_the_likeliest_game_steps_in_a_browser(browser: Any, records: dict[str, Path], tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    page_path = tmp_path / "policy.html"
    assert cli("view", str(records["policy.json"]), "--out", str(page_path))[0] == 0
    browser.get_log("browser")
    browser.get(page_path.as_uri())
    replay = browser.find_element("css selector", "#likeliest")
    replay.send_keys(Keys.END)
    steps = int(replay.get_attribute("data-turns"))
    assert int(replay.get_attribute("data-at")) == steps
    shown = [s for s in replay.find_elements("css selector", ".turn") if s.is_displayed()]
    assert len(shown) == 1 and shown[0].find_element("css selector", "[data-status]").get_attribute(
        "data-status") in ("won", "lost")
    browser.find_element("css selector", "details[data-node='0'] > summary").click()  # folds the tree's start
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_a_stopped_search_is_unknown_with_its_bound_and_what_stopped_it(tmp_path: Path) -> None:
    page_path = tmp_path / "stopped.html"
    code, _, _ = cli("odds", CHALLENGE_0, "--deal", "solo-3", "--time-limit", "0.3", "--html", str(page_path))
    assert code == 3
    page = page_path.read_text()
    assert page_title(page).startswith("Strato, pile hidden: unknown: at least ")
    assert "stopped by the time limit;" in page and "limit limit" not in page


@pytest.mark.parametrize("forgery", ["state", "move"])
def test_a_policy_that_does_not_replay_is_bad_input_and_under_verify_is_drawn_as_far_as_it_goes(
        records: dict[str, Path], tmp_path: Path, forgery: str) -> None:
    """The page draws the rules' positions: a node whose state is not the rules' (a table drawn that the rules
    never give), or a move they refuse, is refused with its place; under --verify the page is written."""
    record = json.loads(records["policy.json"].read_text())
    decision = next(n for n in record["nodes"] if n["kind"] == "decision" and n["id"] > 0)
    if forgery == "state":
        decision["state"] = decision["state"].replace("(RW)", "(WR)", 1)
    else:
        decision["move"] = "S1L"  # no sun in the hand
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(record))
    code, _, err = cli("view", str(forged), "--out", str(tmp_path / "plain.html"))
    place = f"nodes[{decision['id']}]"
    assert code == 2 and place in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "plain.html").exists()
    code, _, _ = cli("view", str(forged), "--verify", "--out", str(tmp_path / "verified.html"))
    page = (tmp_path / "verified.html").read_text()
    assert code == 1 and "the policy does not replay:</span> " + place in page


def test_a_value_table_page_says_what_verify_certified(reports: dict[str, Any], tmp_path: Path) -> None:
    table = reports["folder"] / "t.gz"
    plain, checked = tmp_path / "plain.html", tmp_path / "checked.html"
    assert cli("view", str(table), "--out", str(plain))[0] == 0
    assert page_title(plain.read_text()) == ("Strato, pile hidden: the win probability is exactly 2/3 (0.6667) (as the "
                                             "table claims)")
    assert cli("view", str(table), "--verify", "--out", str(checked))[0] == 0
    assert page_title(checked.read_text()) == ("Strato, pile hidden: the win probability is exactly 2/3 (0.6667) "
                                               "(certified)")
    lines = gzip.decompress(table.read_bytes()).decode().splitlines(keepends=True)
    header = json.loads(lines[0])
    header["claim"].update(upper_bound="3/4", lower_bound="3/4")  # claimed higher than the table proves
    forged = tmp_path / "forged.gz"
    forged.write_bytes(gzip.compress((json.dumps(header) + "\n" + "".join(lines[1:])).encode()))
    code, _, err = cli("view", str(forged), "--verify", "--out", str(tmp_path / "forged.html"))
    assert code == 1 and err.strip()
    assert page_title((tmp_path / "forged.html").read_text()).endswith("exactly 3/4 (0.7500) (invalid)")


@pytest.mark.parametrize(("name", "instead"), [("odds.json", "the --proof policy record"),
                                              ("bounds.json", "the --table value table")])
def test_view_verify_refuses_a_report_and_names_what_to_check(reports: dict[str, Any], tmp_path: Path, name: str,
                                                             instead: str) -> None:
    code, _, err = cli("view", str(reports["folder"] / name), "--verify", "--out", str(tmp_path / "p.html"))
    assert code == 2 and "--verify" in err and "report" in err and len(err.strip().splitlines()) == 1
    assert instead in err


def _forge(record: dict[str, Any], forgery: str) -> None:
    """One edit a page must not draw as if it were the record's truth (each refused by verify too)."""
    nodes = record["nodes"]
    if forgery == "redirect":  # a second parent sent to a position its move does not lead to
        decision = next(n for n in nodes if n["kind"] == "decision" and n["id"] > 0)
        decision["child"] = next(n["id"] for n in nodes if n["kind"] == "chance" and n["id"] != decision["child"]
                                 and n["state"] != nodes[decision["child"]]["state"])
    elif forgery == "leaf":  # a position still in play called a won game
        next(n for n in nodes if n["kind"] == "cut").update(kind="leaf", payoff="1")
    elif forgery == "payoff":  # a won game called lost
        next(n for n in nodes if n["kind"] == "leaf" and n["payoff"] == "1")["payoff"] = "0"
    elif forgery == "probability":
        chance = next(n for n in nodes if n["kind"] == "chance" and len(n["outcomes"]) == 2)
        first, second = chance["outcomes"]
        first[1], second[1] = ("1/2", "1/2") if first[1] != second[1] else ("1/3", "2/3")
    elif forgery == "claim":  # the nodes are worth 2/3
        record["claim"]["win_probability"] = "1"
    elif forgery == "empty":
        record["nodes"] = []
    else:  # an id given twice
        nodes[1]["id"] = 0


@pytest.mark.parametrize("forgery", ["redirect", "leaf", "payoff", "probability", "claim", "empty", "twice"])
def test_a_policy_page_checks_the_record_as_verify_does(records: dict[str, Path], tmp_path: Path,
                                                        forgery: str) -> None:
    """Drawn without --verify, each of these once gave a page (exit 0) that said what the rules contradict: a
    won position in play, a value above the record's own, a move followed by a position it does not reach."""
    record = json.loads(records["policy.json"].read_text())
    _forge(record, forgery)
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(record))
    code, _, err = cli("view", str(forged), "--out", str(tmp_path / "plain.html"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "forged.json" in err, err
    assert not (tmp_path / "plain.html").exists()
    code, _, _ = cli("view", str(forged), "--verify", "--out", str(tmp_path / "verified.html"))
    assert code == 1 and "(invalid)" in page_title((tmp_path / "verified.html").read_text())


def test_the_ranking_sorts_by_value_not_by_the_fractions_text(reports: dict[str, Any]) -> None:
    """A header click once sorted "3/5 (0.6000)" above "1", reading the cell's text as the number 3."""
    page = (reports["folder"] / "odds.html").read_text()
    body = page[page.index("<h2>First moves</h2>"):].split("</table>")[0]
    report = json.loads((reports["folder"] / "odds.json").read_text())
    keys = [float(k) for k in re.findall(r"<td class=\"num\" data-sort=\"([^\"]+)\">", body)]
    assert keys == [float(Fraction(e["win_probability"])) for e in report["ranking"]]


@pytest.mark.parametrize(("edit", "place"), [
    ({"start": "RRWR(RW)WWRW RR,R {RRW} 1 - play"}, "start"),  # two hands: odds is solo
    ({"win_probability": "abc"}, "win_probability"),
    ({"ranking": [{"move": "!1L", "win_probability": "5/3", "float": 1.7}]}, "ranking[0].win_probability"),
    ({"status": "done"}, "status"),
    ({"puzzle": "/nonexistent/x.toml"}, "puzzle")])
def test_an_odds_report_that_no_odds_run_writes_is_bad_input(reports: dict[str, Any], tmp_path: Path,
                                                            edit: dict[str, Any], place: str) -> None:
    report = json.loads((reports["folder"] / "odds.json").read_text())
    report.update(edit)
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(report))
    code, _, err = cli("view", str(forged), "--out", str(tmp_path / "forged.html"))
    assert code == 2 and err.startswith(f"{forged}: {place}:") and len(err.strip().splitlines()) == 1, err


def test_a_value_tables_header_counts_are_not_called_checked(reports: dict[str, Any], tmp_path: Path) -> None:
    lines = gzip.decompress((reports["folder"] / "t.gz").read_bytes()).decode().splitlines(keepends=True)
    header = json.loads(lines[0])
    header.update(states=999999, deal="solo-2")  # labels verify does not use
    forged = tmp_path / "counts.gz"
    forged.write_bytes(gzip.compress((json.dumps(header) + "\n" + "".join(lines[1:])).encode()))
    page_path = tmp_path / "counts.html"
    assert cli("view", str(forged), "--verify", "--out", str(page_path))[0] == 0
    page = page_path.read_text()
    assert "Counts the header states, not checked" in page and "999,999" in page
    assert "note: the header&#x27;s deal name" in page and "checked: the position" in page
    header["claim"] = {"exact": True, "lower_bound": "1e999999999", "upper_bound": "1e999999999"}
    forged.write_bytes(gzip.compress((json.dumps(header) + "\n" + "".join(lines[1:])).encode()))
    code, _, err = cli("view", str(forged), "--out", str(page_path.with_name("claim.html")))
    assert code == 2 and "claim.upper_bound" in err and not page_path.with_name("claim.html").exists()


def test_the_likeliest_game_says_where_the_policy_gives_up(records: dict[str, Path], tmp_path: Path) -> None:
    """A policy whose likeliest game ends at a cut once ended the replay on a game in play, saying nothing."""
    record = json.loads(records["policy.json"].read_text())
    nodes = {n["id"]: n for n in record["nodes"]}
    parent = next(n for n in record["nodes"] if n["kind"] == "chance"
                  and any(nodes[c]["kind"] == "cut" for _, _, c in n["outcomes"]))
    cut = next(c for _, _, c in parent["outcomes"] if nodes[c]["kind"] == "cut")
    for outcome in parent["outcomes"]:  # the cut's card listed first, and as likely as any: the likeliest
        if outcome[2] == cut:
            parent["outcomes"].remove(outcome)
            parent["outcomes"].insert(0, outcome)
            break
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(record))
    assert cli("verify", str(edited))[0] == 3  # a policy's outcomes may be listed in any order
    assert cli("view", str(edited), "--out", str(tmp_path / "edited.html"))[0] == 0
    page = (tmp_path / "edited.html").read_text()
    replay = page[page.index("id=\"likeliest\""):]
    last = replay.split("</ol>")[0].split("<section")[-1]  # the replay's last step
    assert "the policy gives up here (counted lost)" in last


def test_a_state_the_rules_do_not_give_names_the_move_that_led_there(records: dict[str, Path], tmp_path: Path) -> None:
    """A decision's move changed to another legal one was reported only at the node it leads to, as if that
    node's state were the fault; the message now names the parent's move as well."""
    record = json.loads(records["policy.json"].read_text())
    nodes = {n["id"]: n for n in record["nodes"]}
    from stratagem.models.strato.hidden.game import parse_hidden
    from stratagem.verification.policy import policy_game

    game, _ = policy_game(record, "policy.json")
    decision = next(n for n in record["nodes"] if n["kind"] == "decision" and n["id"] > 0)
    state = parse_hidden(decision["state"])
    decision["move"] = next(text for text in (game.format_move(state, m) for m in game.legal_moves(state))
                            if text != decision["move"])  # another legal move: a position the child is not
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(record))
    code, out, _ = cli("verify", str(forged))
    child = nodes[decision["id"]]["child"]
    assert code == 1
    assert f"nodes[{child}]: the rules give the state" in out and f"after nodes[{decision['id']}]'s " in out
