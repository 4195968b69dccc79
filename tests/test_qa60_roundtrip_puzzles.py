"""Property-based round trip of Strato puzzle files (QA 60; docs/formats.md 3, 4.7): a puzzle written as
``stratagem generate`` writes one (``Challenge.to_data``, ``Options.to_data``, ``[[deals]]`` through
tomli_w) -- the shipped challenges, either rules option, and deals of every kind: seeded (1-4 players, a
claimed optimal length or none), a layout (rows, hands, pile) and a position met in play -- reads back
to the same challenge, options and deals, each dealing the same start, and is written again byte for
byte."""

from __future__ import annotations

import functools
import random
import tempfile
from pathlib import Path
from typing import Any

import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.loading import StratoDeal, load
from stratagem.models.strato.rules.position import format_row
from stratagem.models.strato.rules.puzzle import Puzzle, load_puzzle

ROOT = Path(__file__).resolve().parent.parent
STRATO = tuple(sorted(str(p.relative_to(ROOT)) for p in (ROOT / "puzzles" / "strato").glob("*.toml")))
RUNS = settings(deadline=None, derandomize=True, max_examples=60,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@functools.cache
def _puzzle(path: str) -> Puzzle:
    return load_puzzle(ROOT / path)


@functools.cache
def _played(path: str, seed: int, players: int, moves: int) -> str:
    """A position of the seeded deal ``moves`` random moves on, at the start of a turn with full hands."""
    deal = load(ROOT / path, deal=seed, players=players)
    assert isinstance(deal, StratoDeal)
    game, state, chosen = deal.game, deal.start, deal.start
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_terminal(state):
            break
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not state.pile or all(len(hand) == len(deal.start.hands[0]) for hand in state.hands):
            chosen = state
    return game.format_state(chosen)


@st.composite
def deals(draw: st.DrawFn, path: str, index: int) -> dict[str, Any]:
    """One ``[[deals]]`` entry as a puzzle file holds it."""
    seed, players = draw(st.integers(0, 2**40)), draw(st.integers(1, 4))
    kind = draw(st.sampled_from(("seeded", "layout", "position")))
    entry: dict[str, Any] = {"name": f"deal {index} ✓"}
    if kind == "seeded":
        entry |= {"seed": seed, "players": players}
    else:
        deal = load(ROOT / path, deal=seed, players=players)
        assert isinstance(deal, StratoDeal)
        if kind == "layout":
            entry |= {"rows": [format_row(row) for row in deal.start.rows], "hands": list(deal.start.hands),
                      "pile": deal.start.pile}
        else:
            entry["position"] = _played(path, seed, players, draw(st.integers(0, 8)))
    if draw(st.booleans()):
        entry["optimal_length"] = draw(st.integers(1, 60))
    return entry


@st.composite
def puzzle_files(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    path = draw(st.sampled_from(STRATO))
    puzzle = _puzzle(path)
    options = puzzle.options.to_data() | {"wind_crosses_tornado": draw(st.booleans()),
                                          "strict_effect": draw(st.booleans())}
    entries = [draw(deals(path, i)) for i in range(draw(st.integers(0, 4)))]
    data = {"game": "strato", "challenge": puzzle.challenge.to_data(), "options": options, "deals": entries}
    return path, data


def _data(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle as its file's data again (the inverse of load_puzzle for what it read)."""
    entries = []
    for spec in puzzle.deals:
        entry: dict[str, Any] = {"name": spec.name}
        if spec.seed is not None:
            entry |= {"seed": spec.seed, "players": spec.players}
        else:
            assert spec.state is not None
            entry["position"] = puzzle.game(spec).format_state(puzzle.deal(spec))
        if spec.optimal_length is not None:
            entry["optimal_length"] = spec.optimal_length
        entries.append(entry)
    return {"game": "strato", "challenge": puzzle.challenge.to_data(), "options": puzzle.options.to_data(),
            "deals": entries}


@RUNS
@given(puzzle_files())
def test_a_written_puzzle_reads_back_to_its_challenge_options_and_deals(case: tuple[str, dict[str, Any]]) -> None:
    path, data = case
    original = _puzzle(path)
    with tempfile.TemporaryDirectory() as folder:
        written = Path(folder) / "p.toml"
        written.write_text(tomli_w.dumps(data), encoding="utf-8")
        read = load_puzzle(written)
        assert read.challenge == original.challenge
        assert read.options.to_data() == data["options"]
        assert [spec.name for spec in read.deals] == [entry["name"] for entry in data["deals"]]
        for spec, entry in zip(read.deals, data["deals"], strict=True):
            assert spec.optimal_length == entry.get("optimal_length")
            start = read.game(spec).format_state(read.deal(spec))
            if "seed" in entry:
                assert (spec.seed, spec.players) == (entry["seed"], entry["players"])
                deal = load(ROOT / path, deal=entry["seed"], players=entry["players"])
                assert isinstance(deal, StratoDeal) and start == deal.game.format_state(deal.start)
            elif "position" in entry:
                assert start == entry["position"]
            else:
                assert start.split()[:3] == ["/".join(entry["rows"]), ",".join(entry["hands"]) or "-",
                                             entry["pile"] or "-"]
        again = Path(folder) / "q.toml"
        again.write_text(tomli_w.dumps(_data(read)), encoding="utf-8")
        reread = load_puzzle(again)
        assert tomli_w.dumps(_data(reread)) == again.read_text(encoding="utf-8")
        assert [reread.game(s).format_state(reread.deal(s)) for s in reread.deals] == \
            [read.game(s).format_state(read.deal(s)) for s in read.deals]


@RUNS
@given(st.sampled_from(STRATO), st.data())
def test_a_deals_name_as_every_output_writes_it_reads_back_to_the_deal(path: str, data: st.DataObject) -> None:
    puzzle = _puzzle(path)
    choices = [spec.name for spec in puzzle.deals]
    key = data.draw(st.sampled_from(choices) | st.integers(0, 2**40).map(str)
                    | st.integers(0, 2**40).map(lambda seed: f"{seed:012d}"))
    players = data.draw(st.none() | st.integers(1, 4))
    spec = puzzle.find_deal(key, players)
    if key.isdigit():
        assert spec.name == f"seed-{int(key)}" and spec.seed == int(key)  # '007' is seed-7, as '7' is
    again = puzzle.find_deal(spec.name, spec.players)  # the name and players a record and a report give it
    assert (again.players, again.seed, puzzle.deal(again)) == (spec.players, spec.seed, puzzle.deal(spec))


def test_a_seeded_deals_name_reads_back_and_view_draws_its_report(tmp_path: Path) -> None:
    import json
    import os
    import subprocess
    import sys

    puzzle = _puzzle("puzzles/strato/challenge-0.toml")
    assert puzzle.find_deal("seed-7") == puzzle.find_deal("7") == puzzle.find_deal("007")
    assert puzzle.find_deal("solo-1 for 2 players") == puzzle.find_deal("solo-1", 2)
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, "-m", "stratagem", "solve", str(ROOT / "puzzles/strato/challenge-0.toml"),
                           "--deal", "007", "--json"], capture_output=True, timeout=120, check=True, env=env)
    assert json.loads(done.stdout)["deal"] == "seed-7"
    (tmp_path / "r.json").write_bytes(done.stdout)
    viewed = subprocess.run([sys.executable, "-m", "stratagem", "view", "r.json", "--out", "v.html"], cwd=tmp_path,
                            capture_output=True, timeout=120, check=False, env=env)
    assert viewed.returncode == 0, viewed.stderr  # was "no deal named 'seed-007'"


def test_odds_reads_a_seeded_deals_name_as_its_seed(tmp_path: Path) -> None:
    from stratagem.winprobability import odds_deal

    text = (ROOT / "puzzles/strato/challenge-0.toml").read_text(encoding="utf-8")
    two = tmp_path / "two.toml"  # a challenge for two players: a seed alone is still dealt for one
    two.write_text(text.replace("players = 1", "players = 2", 1), encoding="utf-8")
    assert load_puzzle(two).challenge.players == 2
    by_seed, by_name = odds_deal(two, "5"), odds_deal(two, "seed-5")  # the name odds writes for it
    assert (by_name.name, by_name.game.num_players, by_name.start) == ("seed-5", 1, by_seed.start)
