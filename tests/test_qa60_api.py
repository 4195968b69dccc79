"""QA 60: the Python API as AI researchers embed it (worker threads, process pools, pickling, long runs).

- Two searches in worker threads interleaved their save, raise and restore of Python's recursion limit
  (one setting of the whole interpreter): the later one ran on under the restored 1,000 once the earlier
  ended, and, ending last, left the limit raised to 20,000 for the rest of the process (seen with two
  ``stratagem.odds`` calls in a ``ThreadPoolExecutor``).
- An ``lp`` Analysis (Stack Attack) neither pickled nor deep-copied, so it could not come back from a
  ``multiprocessing`` Pool.
- The greedy and belief agents of hidden Strato kept every game they were ever handed; a StratoGame every
  victory verdict; the OpenSpiel MCTS peer every game.
- The games' rules objects compared by identity, so nothing holding one equalled its pickled self.
- A signal during a CP-SAT call never reached the caller's wake-up descriptor (an asyncio loop's).
- An Analysis could be changed through its setup and strategies, the odds answer through its lists and
  fields; neither hashed.
- DuctAgent keyed its last search by id(game), which a freed game hands on.
"""

from __future__ import annotations

import copy
import gc
import importlib
import multiprocessing
import pickle
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stratagem.core.recursion import RECURSION_LIMIT, deep_recursion

ROOT = Path(__file__).resolve().parent.parent


def _interleave(enter_first: object, enter_second: object) -> tuple[list[int], int]:
    """Thread A enters ``enter_first``, thread B then enters ``enter_second``, A leaves while B is inside,
    and B leaves last (the order two overlapping calls in a thread pool take). The limit B saw after A
    left, and the limit once both are done."""
    a_in, a_out, b_in = threading.Event(), threading.Event(), threading.Event()
    seen: list[int] = []

    def first() -> None:
        with enter_first():  # type: ignore[operator]
            a_in.set()
            b_in.wait(10)
        a_out.set()

    def second() -> None:
        a_in.wait(10)
        with enter_second():  # type: ignore[operator]
            b_in.set()
            a_out.wait(10)
            seen.append(sys.getrecursionlimit())

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    return seen, sys.getrecursionlimit()


def test_overlapping_searches_in_threads_keep_the_raised_limit_and_restore_the_original() -> None:
    before = sys.getrecursionlimit()
    assert before < RECURSION_LIMIT  # pytest's default; the test means nothing otherwise
    mdp = importlib.import_module("stratagem.solvers.mdp")  # the name the searches and verify use
    seen, after = _interleave(mdp.deep_recursion, mdp.deep_recursion)
    assert seen == [RECURSION_LIMIT]  # the old code: 1,000 while the second search was still deep inside
    assert after == before  # the old code: left at 20,000
    seen, after = _interleave(deep_recursion, deep_recursion)
    assert (seen, after) == ([RECURSION_LIMIT], before)


def test_a_higher_limit_of_the_callers_is_kept_and_restored() -> None:
    before = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(RECURSION_LIMIT * 2)
        with deep_recursion():
            assert sys.getrecursionlimit() == RECURSION_LIMIT * 2
        assert sys.getrecursionlimit() == RECURSION_LIMIT * 2
    finally:
        sys.setrecursionlimit(before)


def test_the_limit_is_restored_after_an_exception_inside() -> None:
    before = sys.getrecursionlimit()
    with pytest.raises(KeyboardInterrupt), deep_recursion():
        raise KeyboardInterrupt
    assert sys.getrecursionlimit() == before


def test_no_module_sets_the_recursion_limit_but_the_shared_one() -> None:
    """The proof-tree builder and the odds table writer raised and restored the limit by hand, each
    with the same race as the searches; every search now goes through :func:`deep_recursion`."""
    setters = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "stratagem").rglob("*.py")
                     if re.search(r"\bsetrecursionlimit\(", path.read_text(encoding="utf-8")))
    assert setters == ["stratagem/core/recursion.py"]


# An Analysis of a simultaneous-move position (method lp) held the induction's results, which hold the
# compiled walk: pickle and copy.deepcopy failed ("no default __reduce__ due to non-trivial __cinit__"), so
# a Stack Attack analysis could not come back from a multiprocessing Pool (MaybeEncodingError), under both
# 'fork' and 'spawn'. It now travels with its bound certificates, and writes the same proof after.

STACK_ATTACK = str(ROOT / "puzzles" / "stackattack" / "2p-numbers-3-turns.toml")


def _analyze_stack_attack(path: str) -> Any:
    from stratagem.analysis import analyze

    return analyze(path)


def test_an_lp_analysis_pickles_and_deep_copies_and_writes_the_same_proof_after(tmp_path: Path) -> None:
    from stratagem.analysis import ProofNotWritten, analyze

    analysis = analyze(STACK_ATTACK)
    assert analysis.method == "lp" and analysis.solved
    analysis.write_proof(tmp_path / "original.json")
    for how, twin in (("pickle", pickle.loads(pickle.dumps(analysis))), ("deepcopy", copy.deepcopy(analysis)),
                      ("copy", copy.copy(analysis))):
        assert twin == analysis and twin.to_json() == analysis.to_json(), how
        twin.write_proof(tmp_path / f"{how}.json")
        assert (tmp_path / f"{how}.json").read_bytes() == (tmp_path / "original.json").read_bytes(), how
    again = pickle.loads(pickle.dumps(pickle.loads(pickle.dumps(analysis))))  # the certificates pickle too
    again.write_proof(tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "original.json").read_bytes()
    assert analysis._lp_results is not None and isinstance(analysis._lp_results[0], dict)  # its certificate
    stopped = analyze(STACK_ATTACK, max_nodes=5)  # no value: nothing to carry, and still no proof after
    assert stopped.status == "unknown" and pickle.loads(pickle.dumps(stopped)) == stopped
    with pytest.raises(ProofNotWritten):
        pickle.loads(pickle.dumps(stopped)).write_proof(tmp_path / "no.json")
    assert not (tmp_path / "no.json").exists()


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_an_lp_analysis_comes_back_from_a_process_pool(start: str) -> None:
    with multiprocessing.get_context(start).Pool(1) as pool:
        returned = pool.apply(_analyze_stack_attack, (STACK_ATTACK,))
    here = _analyze_stack_attack(STACK_ATTACK)
    assert returned == here and returned.to_json() == here.to_json()


def test_two_analyses_that_found_the_same_are_equal() -> None:
    """``seconds`` (the wall time, not part of the record) took part in ``==``: no two runs of one analysis
    compared equal, nor one from a worker with the same run at home."""
    from stratagem.analysis import analyze

    square = str(ROOT / "puzzles" / "cardclash" / "square-in-1.toml")
    first, second = analyze(square), analyze(square)
    assert first == second and first.to_json() == second.to_json()
    assert first != analyze(square, rank=False)  # what was found still counts


# The greedy and belief agents of hidden-information Strato kept a turn bound (and with it the game) for
# every game they were ever handed, keyed by id(game): one seat of 'stratagem play strato' or a
# researcher's loop over deals grew by 0.7 MB a challenge-1 deal (67 MB to 241 MB over 300 deals); now
# the last game's alone.

@pytest.fixture
def only_new_objects() -> Iterator[None]:
    """Every object made before the test is frozen out of the collector's sight (``gc.freeze``) until it
    ends, so that ``gc.collect()`` and ``gc.get_objects()`` in the test see only what it made: late in a whole
    run a worker holds millions of objects, and the two full collections and scans of a count took 4 CPU s
    a test (0.4 s alone). A game the test made and something kept is still listed (young objects are
    tracked whoever refers to them); objects made before were counted on both sides of the difference."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _live_hidden_games() -> int:
    from stratagem.models.strato.hidden.game import HiddenStrato

    gc.collect()
    return sum(isinstance(thing, HiddenStrato) for thing in gc.get_objects())


@pytest.mark.parametrize(("agent", "players"), [("greedy", 1), ("belief:samples=2:nodes=20:candidates=1", 2)])
@pytest.mark.usefixtures("only_new_objects")
def test_an_agent_playing_many_deals_keeps_only_the_last_game(agent: str, players: int) -> None:
    from random import Random

    from stratagem.loading import StratoDeal, load
    from stratagem.models.strato.hidden.agents import make_strato_agent
    from stratagem.models.strato.hidden.game import HiddenStrato
    from stratagem.teamplay import play_deal

    name, *pairs = agent.split(":")
    seats = [make_strato_agent(name, **{k: int(v) for k, v in (p.split("=") for p in pairs)})
             for _ in range(players)]
    before = _live_hidden_games()
    for seed in range(6):
        deal = load(str(ROOT / "puzzles" / "strato" / "challenge-0.toml"), deal=seed, players=players)
        assert isinstance(deal, StratoDeal)
        play_deal(HiddenStrato(deal.game.challenge, deal.game.options, deal.start), deal.start, seats, Random(seed))
    assert _live_hidden_games() - before <= players  # the old agents: one a deal and seat (6 to 12)


def test_a_strato_game_kept_for_a_long_run_remembers_a_bounded_number_of_verdicts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """StratoGame remembered the victory verdict of every table it ever met: one game object kept for
    random playouts grew without end (48,000 verdicts, 15 MB, over 200 two-player games of challenge 1)."""
    from random import Random

    from stratagem.loading import StratoDeal, load
    from stratagem.models.strato.rules import turns

    monkeypatch.setattr(turns, "VICTORIES_KEPT", 50, raising=False)
    deal = load(str(ROOT / "puzzles" / "strato" / "challenge-1.toml"), deal=1, players=2)
    assert isinstance(deal, StratoDeal)
    game, rng, most = deal.game, Random(0), 0
    for _ in range(5):
        state = game.initial_state()
        while not game.is_terminal(state):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            most = max(most, len(game._victory))
    assert 0 < most <= 50  # the old game: 1,355 after these five games


# The games' rules objects compared by identity, so a Position, a StratoDeal or a result holding one never
# equalled itself after a pickle round trip (what a worker process sends back) or copy.deepcopy.

@pytest.mark.parametrize("path", ["strato/challenge-0.toml", "stratatak/lone-star.toml", "cardclash/square-in-3.toml",
                                  "stackattack/2p-numbers-3-turns.toml", "stakd/endgame-2p-only-move.toml"])
def test_a_loaded_position_equals_its_pickled_and_deep_copied_self(path: str) -> None:
    from stratagem.loading import load

    loaded = load(str(ROOT / "puzzles" / path))
    game = loaded.game
    for twin in (pickle.loads(pickle.dumps(loaded)), copy.deepcopy(loaded)):
        assert twin == loaded and hash(twin) == hash(loaded)  # the old games: unequal, other hashes
        assert twin.game == game and hash(twin.game) == hash(game) and {twin.game, game} == {game}
    state = game.initial_state()
    moved = copy.copy(game)
    moved.start = game.apply(state, game.legal_moves(state)[0])  # the same rules from another start
    assert moved != game and game != object()


def test_a_hidden_strato_game_and_a_solution_equal_their_pickled_selves() -> None:
    from stratagem.loading import StratoDeal, load
    from stratagem.models.strato.hidden.game import HiddenStrato
    from stratagem.solving import solve

    deal = load(str(ROOT / "puzzles" / "strato" / "challenge-0.toml"), deal="solo-1")
    assert isinstance(deal, StratoDeal)
    hidden = HiddenStrato(deal.game.challenge, deal.game.options, deal.start)
    assert pickle.loads(pickle.dumps(hidden)) == hidden and copy.deepcopy(hidden) == hidden
    solution = solve(deal)
    assert pickle.loads(pickle.dumps(solution)) == solution and copy.deepcopy(solution) == solution


def test_a_signal_during_a_native_call_still_wakes_the_callers_event_loop() -> None:
    """stop_on_signal (around CP-SAT) swapped in its own wake-up descriptor and dropped every byte it read
    but Ctrl-C's and SIGTERM's, so an asyncio loop (which learns of its signals from the wake-up
    descriptor it set) never heard of a signal that arrived during the call."""
    import os
    import signal

    from stratagem.core.interrupt import stop_on_signal

    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    os.set_blocking(read_end, False)
    handler = signal.signal(signal.SIGUSR1, lambda signum, frame: None)
    previous = signal.set_wakeup_fd(write_end)
    stops: list[int] = []
    try:
        with stop_on_signal(lambda: stops.append(1)):
            signal.raise_signal(signal.SIGUSR1)
            threading.Event().wait(0.2)  # the watcher passes it on
        assert signal.set_wakeup_fd(previous) == write_end  # put back as it was
        assert os.read(read_end, 16) == bytes([signal.SIGUSR1])  # the old code: nothing (BlockingIOError)
        assert stops == []  # not a signal that stops the solver
    finally:
        signal.signal(signal.SIGUSR1, handler)
        os.close(read_end)
        os.close(write_end)


# A frozen Analysis held its setup (and an lp analysis its players' strategies) as plain dicts: changing
# them changed what to_json() wrote, and the analysis could not be hashed. Now read-only, and hashable.

def test_an_analysis_cannot_be_changed_through_its_setup_or_strategies_and_hashes() -> None:
    from stratagem.analysis import analyze

    analysis = analyze(STACK_ATTACK)
    record = analysis.to_json()
    with pytest.raises(TypeError):
        analysis.setup["players"] = 5  # the old code: to_json() then said 5
    with pytest.raises(TypeError):
        analysis.setup["options"]["block"].append(99)
    strategy = analysis.players[0].strategy
    assert strategy is not None
    with pytest.raises(TypeError):
        strategy[next(iter(strategy))] = 1  # type: ignore[index]
    assert analysis.to_json() == record and analysis.setup == analysis.game_rules.setup()
    assert hash(analysis) == hash(pickle.loads(pickle.dumps(analysis)))  # the old code: unhashable (a dict)
    assert {analysis, copy.deepcopy(analysis)} == {analysis}
    plain = analysis.to_json()
    plain["setup"]["players"] = 3  # the record is the caller's to edit, and changes nothing here
    plain["setup"]["options"]["block"].append(99)
    assert analysis.to_json() == record


def test_a_duct_agent_never_takes_a_freed_games_search_for_a_new_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """DuctAgent kept its last search under id(game) without the game: once that game was freed, the next
    match's game could get its id, and a search at an equal state returned the old game's result. Here
    every id is made equal, as such a reuse makes them."""
    from random import Random

    from stratagem.loading import Position, load
    from stratagem.solvers import duct as duct_module

    searched: list[object] = []

    def counted(game: object, state: object, **options: object) -> str:
        searched.append(game)
        return f"result {len(searched)}"

    monkeypatch.setattr(duct_module, "duct", counted)
    monkeypatch.setattr(duct_module, "id", lambda thing: 1, raising=False)  # the old code's key, reused
    agent: Any = duct_module.DuctAgent(iterations=10)
    first, second = (load(STACK_ATTACK) for _ in range(2))
    assert isinstance(first, Position) and isinstance(second, Position)
    assert first.game is not second.game and first.state == second.state
    assert agent.search(first.game, first.state, Random(0)) == "result 1"
    assert agent.search(first.game, first.state, Random(0)) == "result 1"  # the same node again: kept
    assert agent.search(second.game, second.state, Random(0)) == "result 2"  # the old code: "result 1"
    assert searched == [first.game, second.game]


def test_the_odds_answer_is_a_value_that_hashes() -> None:
    """SoloOdds (DealOdds.result) was a plain dataclass with list fields: answer.result.ranking.sort() or
    answer.result.value = 1 changed what to_json() and the proof then said, the answer could not be
    hashed, and two runs never compared equal (their seconds)."""
    import dataclasses

    from stratagem.winprobability import odds

    puzzle, position = str(ROOT / "puzzles" / "strato" / "challenge-0.toml"), "RRWR(RW)WWRW RRR WRR 1 -"
    answer = odds(puzzle, position=position)
    record = answer.to_json()
    with pytest.raises(TypeError):
        answer.result.ranking.sort(key=str)
    with pytest.raises(TypeError):
        answer.result.proof.append(answer.result.proof[0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        answer.result.value = None  # type: ignore[misc]
    assert answer.to_json() == record
    again = odds(puzzle, position=position)
    assert again == answer and hash(again) == hash(answer) == hash(pickle.loads(pickle.dumps(answer)))
    assert answer.result.ranking == [tuple(pair) for pair in answer.result.ranking]  # still a list to readers


@pytest.mark.usefixtures("only_new_objects")
def test_the_openspiel_mcts_peer_keeps_only_the_last_game() -> None:
    """SpielMctsAgent kept an OpenSpiel game for every id(game) it was ever handed: it grew with each match."""
    pytest.importorskip("pyspiel")
    from random import Random

    from stratagem.loading import Position, load
    from stratagem.openspiel.adapter import OpenPositionGame
    from stratagem.openspiel.peers.match import SpielMctsAgent

    def alive() -> int:
        gc.collect()
        return sum(isinstance(thing, OpenPositionGame) for thing in gc.get_objects())

    agent = SpielMctsAgent(simulations=4)
    before = alive()
    for seed in range(5):
        position = load(str(ROOT / "puzzles" / "cardclash" / "square-in-1.toml"))
        assert isinstance(position, Position)
        agent.choose(position.game, position.state, Random(seed))
    assert alive() - before <= 1  # the old agent: 5
