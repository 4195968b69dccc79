"""The OpenSpiel adapters pass OpenSpiel's own consistency checks and keep stratagem's rules.

``pyspiel.random_sim_test`` plays random games through the C++ side (legal actions, chance outcomes
summing to 1, returns within the game's bounds, history, serialization); the tests below add what it
does not see: clones that do not share state, a serialized state that comes back equal, the action
numbering against the engine's own moves, and information states that hide what a player did not see.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

pyspiel = pytest.importorskip("pyspiel")

import stratagem.openspiel  # noqa: E402  (registers the games)
from stratagem.core.game import CHANCE, SIMULTANEOUS  # noqa: E402
from stratagem.openspiel.strato import PARAMETERS  # noqa: E402

#: Default parameters, then other configurations (player counts, variants, table and deck sizes).
CONFIGS = [
    *stratagem.openspiel.GAMES,
    "stratagem_strato(players=2,seed=3)",
    "stratagem_strato(players=3,seed=2,wind_crosses_tornado=True)",
    "stratagem_strato(information=open,players=2,seed=3)",
    "stratagem_stakd(players=1)",
    "stratagem_stakd(players=3)",
    "stratagem_stratatak(star_mode=addon,battle_limit=8,hand_size=5)",
    "stratagem_stackattack(players=3,actions=False)",
    "stratagem_stackattack(scope=game,cards=40)",
    "stratagem_cardclash(players=3,strategic=True)",
    "stratagem_cardclash(width=4,height=4)",
]


def _play(game: pyspiel.Game, rng: random.Random) -> Iterator[pyspiel.State]:
    """Every state of one random playthrough (chance by its probabilities), the terminal one last."""
    state = game.new_initial_state()
    while True:
        yield state
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_every_game_loads_with_default_parameters() -> None:
    for name in stratagem.openspiel.GAMES:
        game = pyspiel.load_game(name)
        assert game.get_type().short_name == name
        assert name in pyspiel.registered_names()
        assert not game.new_initial_state().is_terminal()


@pytest.mark.parametrize("config", CONFIGS)
def test_random_sim_test(config: str) -> None:
    """OpenSpiel's consistency checks over random games, serialization included."""
    game = pyspiel.load_game(config)
    pyspiel.random_sim_test(game, num_sims=8, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS)
def test_random_sim_test_many(config: str) -> None:
    game = pyspiel.load_game(config)
    pyspiel.random_sim_test(game, num_sims=50, serialize=True, verbose=False)


@pytest.mark.parametrize("config", CONFIGS)
def test_clone_serialize_and_actions(config: str) -> None:
    """Along random games: a clone moves on alone; serialization round-trips; every legal action is
    the engine's legal move of that number, and no two moves share a number."""
    game = pyspiel.load_game(config)
    engine = game.engine
    rng = random.Random(config)
    for _ in range(3):
        for state in _play(game, rng):
            text, history = str(state), state.history()
            clone = state.clone()
            assert str(clone) == text and clone.history() == history
            back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
            assert str(back) == text and back.history() == history
            assert back.returns() == state.returns()
            if state.is_terminal():
                assert max(state.returns()) <= game.max_utility() and min(state.returns()) >= game.min_utility()
                assert len(history) <= game.max_game_length() + game.max_chance_nodes_in_history()
                continue
            who = engine.game.to_move(state.engine_state)
            if who == CHANCE:
                outcomes = engine.game.chance_outcomes(state.engine_state)
                assert sorted(engine.chance_action(m) for m, _ in outcomes) == [a for a, _ in state.chance_outcomes()]
                assert all(0 <= a < game.max_chance_outcomes() for a, _ in state.chance_outcomes())
                continue
            players = range(game.num_players()) if who == SIMULTANEOUS else [who]
            for p in players:
                moves = (engine.game.player_moves(state.engine_state, p) if who == SIMULTANEOUS
                         else engine.game.legal_moves(state.engine_state))
                actions = state.legal_actions(p)
                assert len(set(actions)) == len(moves)
                assert all(0 <= a < game.num_distinct_actions() for a in actions)
                assert sorted(engine.action(m) for m in moves) == actions
                for a in actions:
                    assert engine.action(engine.move(a)) == a
            # the clone is independent: moving it leaves the original as it was
            if who == SIMULTANEOUS:
                clone.apply_actions([clone.legal_actions(p)[0] for p in players])
            else:
                clone.apply_action(clone.legal_actions()[0])
            assert str(state) == text and state.history() == history


@pytest.mark.parametrize("name", ["stratagem_stratatak", "stratagem_stackattack", "stratagem_cardclash",
                                  "stratagem_strato(players=2,seed=3)"])
def test_information_states_hide_the_others_cards(name: str) -> None:
    """A dealt or drawn card shows in its receiver's information state and as ``?`` in the other's;
    each player's observation shows their own hand only."""
    game = pyspiel.load_game(name)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state = game.new_initial_state()
    engine = game.engine
    rng = random.Random(1)
    receivers: list[int | None] = []
    while len(set(receivers) & {0, 1}) < 2 and not state.is_terminal():
        if state.is_chance_node():
            action = rng.choice([a for a, _ in state.chance_outcomes()])
            receivers.append(engine.seen_by(state.engine_state, engine.chance_move(action)))
        else:  # a move: public
            action = rng.choice(state.legal_actions())
            receivers.append(None)
        state.apply_action(action)
    assert {0, 1} <= set(receivers)
    for p in (0, 1):
        words = state.information_state_string(p).split(" | ")[0].split(" ")
        for word, receiver in zip(words, receivers, strict=False):
            assert (word == "?") == (receiver not in (None, p)), (p, word, receiver)
    assert state.information_state_string(0) != state.information_state_string(1)
    assert state.observation_string(0) != state.observation_string(1)


def test_cardclash_draws_are_chance_with_the_piles_odds() -> None:
    """After a card is laid, its owner's draw is a chance node over the ranks left in their pile."""
    game = pyspiel.load_game("stratagem_cardclash")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    mover = state.current_player()
    pile = state.engine_state.state.piles[mover]
    state.apply_action(state.legal_actions()[0])
    assert state.is_chance_node()
    odds = {game.engine.chance_move(a): p for a, p in state.chance_outcomes()}
    assert odds == {rank: pytest.approx(pile.count(rank) / len(pile)) for rank in set(pile)}


def test_stackattack_turn_is_simultaneous() -> None:
    game = pyspiel.load_game("stratagem_stackattack")
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_simultaneous_node()
    hands = state.engine_state.hands
    assert [state.legal_actions(p) for p in range(2)] == [[c - 1 for c in hand] for hand in hands]


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match="battle_limit"):
        pyspiel.load_game("stratagem_stratatak(battle_limit=0)")
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("stratagem_cardclash(players=7)")


def test_strato_is_the_game_at_the_table_by_default() -> None:
    """Hidden information by default: every draw is chance; hands are hidden with two or more players
    (solo, the player knows all there is to know); every player gets the same return."""
    game = pyspiel.load_game("stratagem_strato(players=2)")
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.IDENTICAL
    solo = pyspiel.load_game("stratagem_strato").get_type()
    assert solo.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert solo.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    *_, end = _play(game, random.Random(5))
    assert end.is_terminal() and end.returns()[0] == end.returns()[1] in (-1.0, 1.0)


def test_strato_redraw_is_announce_reveal_target() -> None:
    """A Redraw: the announcement names no card, chance reveals the top card for everyone, then the
    same player chooses its target (a move that names the revealed card)."""
    game = pyspiel.load_game("stratagem_strato(players=2,seed=3)")
    state = game.new_initial_state()
    announce = next(a for a in state.legal_actions() if state.action_to_string(a).startswith("!")
                    and ":" not in state.action_to_string(a))
    player = state.current_player()
    state.apply_action(announce)
    assert state.is_chance_node()
    pile = state.engine_state.pile
    odds = {game.engine.chance_move(a): p for a, p in state.chance_outcomes()}
    assert odds == {w: pytest.approx(pile.count(w) / len(pile)) for w in set(pile)}
    reveal = state.chance_outcomes()[0][0]
    assert game.engine.seen_by(state.engine_state, game.engine.chance_move(reveal)) is None
    state.apply_action(reveal)
    assert state.current_player() == player
    card = game.engine.chance_move(reveal)
    assert all(state.action_to_string(a).startswith(f"!{card}") for a in state.legal_actions())


def test_strato_open_information_is_deterministic() -> None:
    game = pyspiel.load_game("stratagem_strato(information=open,players=2)")
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.utility == pyspiel.GameType.Utility.IDENTICAL


def test_strato_reads_a_puzzle_file() -> None:
    from pathlib import Path

    puzzle = Path(__file__).resolve().parents[2] / "puzzles" / "strato" / "challenge-1.toml"
    game = pyspiel.load_game("stratagem_strato", {"puzzle": str(puzzle), "deal": "duo-1"})
    assert game.num_players() == 2
    assert str(game.new_initial_state()) == game.engine.game.format_state(game.engine.game.initial_state())
    with pytest.raises(Exception, match="no deal"):
        pyspiel.load_game("stratagem_strato", {"puzzle": str(puzzle), "deal": "nope"})


@pytest.mark.parametrize(("params", "unused"), [
    ({"deal": "no-such-deal"}, "deal"),  # without a puzzle: once the built-in deal, silently
    ({"puzzle": "PUZZLE", "players": 2}, "players"),  # once a 1-player game
    ({"puzzle": "PUZZLE", "seed": 5}, "seed"),  # once seed 1's game
    ({"puzzle": "PUZZLE", "information": "open", "strict_effect": True}, "strict_effect"),  # once the file's rules
    ({"position": "RRWR(RW)WWRW RRR WRR 1 -", "players": 2}, "players"),
])
def test_a_strato_parameter_that_would_be_ignored_is_refused(params: dict[str, object], unused: str) -> None:
    from pathlib import Path

    puzzle = Path(__file__).resolve().parents[2] / "puzzles" / "strato" / "challenge-1.toml"
    given = {key: str(puzzle) if value == "PUZZLE" else value for key, value in params.items()}
    with pytest.raises(Exception, match=f"{unused}: not used here"):
        pyspiel.load_game("stratagem_strato", given)
    pyspiel.load_game("stratagem_strato", {**given, unused: PARAMETERS[unused]})  # at its default it is fine


@pytest.mark.parametrize(("params", "reason"), [
    ({"puzzle": "PUZZLE", "position": "RRWR(RW)WWRW RRR WRR 1 -", "deal": "duo-1"},
     "(a position brings its own hands;"),
    ({"puzzle": "PUZZLE", "seed": 5}, "(a puzzle file brings its own deals;"),
    ({"puzzle": "PUZZLE", "seed": 5, "strict_effect": True},
     "(a puzzle file brings its own deals; a puzzle file brings its own rules options;"),
    ({"deal": "duo-1"}, "(deal names a deal of a puzzle file;"),
])
def test_an_ignored_parameter_is_refused_for_its_own_reason(params: dict[str, object], reason: str) -> None:
    # a deal beside a puzzle and a position was refused as "a puzzle file brings its own deals": the real
    # reason is the position
    from pathlib import Path

    puzzle = Path(__file__).resolve().parents[2] / "puzzles" / "strato" / "challenge-1.toml"
    given = {key: str(puzzle) if value == "PUZZLE" else value for key, value in params.items()}
    with pytest.raises(Exception) as raised:
        pyspiel.load_game("stratagem_strato", given)
    assert reason in str(raised.value), str(raised.value)


def test_dealt_cardclash_replays_the_engine_when_draws_follow_its_piles() -> None:
    """With every chance outcome taken as the engine's own deal has it (hands, then each pile's next
    card), the dealt game walks through the engine's states: the adapter adds chance, not rules."""
    from stratagem.models.cardclash.cards import sort_ranks
    from stratagem.models.cardclash.rules import CardClashGame
    from stratagem.openspiel.cardclash import DealtCardClash

    rules = CardClashGame(2, seed=3)
    dealt = DealtCardClash(rules)
    engine_state, table = rules.initial_state(), dealt.initial_state()
    for p in range(2):  # the deal: each player's four cards
        for rank in engine_state.hands[p]:
            table = dealt.apply(table, rank)
    rng = random.Random(0)
    plies = 0
    while not rules.is_terminal(engine_state):
        assert table.pending is None and dealt.to_move(table) == rules.to_move(engine_state)
        assert table.state.hands == engine_state.hands and table.state.board == engine_state.board
        assert [sort_ranks(p) for p in table.state.piles] == [sort_ranks(p) for p in engine_state.piles]
        move = rng.choice(rules.legal_moves(engine_state))
        mover = engine_state.to_move
        drawn = engine_state.piles[mover][:1]
        engine_state = rules.apply(engine_state, move)
        table = dealt.apply(table, move)
        if table.pending is not None:
            table = dealt.apply(table, drawn)
        plies += 1
    assert dealt.is_terminal(table) and dealt.returns(table) == rules.returns(engine_state) and plies > 4


def test_strato_starts_from_a_position_of_the_challenge() -> None:
    from pathlib import Path

    puzzle = Path(__file__).resolve().parents[2] / "puzzles" / "strato" / "challenge-0.toml"
    game = pyspiel.load_game("stratagem_strato", {"puzzle": str(puzzle), "position": "RRWR(RW)WWRW RRR WRR 1 -"})
    assert str(game.new_initial_state()) == "RRWR(RW)WWRW RRR {RRW} 1 - play"  # the pile's order forgotten
    builtin = pyspiel.load_game("stratagem_strato", {"position": "RRWR(RW)WWRW RRR WRR 1 -", "information": "open"})
    assert str(builtin.new_initial_state()) == "RRWR(RW)WWRW RRR WRR 1 -"
    with pytest.raises(Exception, match="hand size"):
        pyspiel.load_game("stratagem_strato", {"position": "RRWR(RW)WWRW RRRW WWR 1 -"})


@pytest.mark.parametrize(("name", "action"), [("stratagem_stakd", -1175), ("stratagem_stakd", 1310),
                                              ("stratagem_cardclash", -2), ("stratagem_stratatak", -2),
                                              ("stratagem_stratatak", 28)])
def test_a_number_that_names_no_action_is_refused(name: str, action: int) -> None:
    """Negative numbers once indexed the numbering from its end (STAKD played a placement for -1175, Card
    Clash and Stratatak dealt a card for -2) and numbers past the end failed with a bare IndexError."""
    state = pyspiel.load_game(name).new_initial_state()
    with pytest.raises(ValueError, match=f"{action} is not an? "):
        state.apply_action(action)
    with pytest.raises(ValueError, match=f"{action} is not an? "):
        state.action_to_string(state.current_player(), action)
    assert state.history() == []


def test_a_simultaneous_action_of_the_wrong_kind_is_refused() -> None:
    """Stack Attack: a swap's number or a row's where a card is chosen failed with a TypeError deep in the
    engine; it is now refused naming the action and the player."""
    state = pyspiel.load_game("stratagem_stackattack").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    first = state.legal_actions(0)[0]
    with pytest.raises(ValueError, match="is not one of player 2's moves here"):
        state.apply_actions([first, 64])
    with pytest.raises(ValueError, match="is not one of player 1's moves here"):
        state.apply_actions([128, state.legal_actions(1)[0]])


@pytest.mark.parametrize(("spec", "fragment"), [
    ("stratagem_stratatak(stars=10000)", "stars: at most 99"),
    ("stratagem_stratatak(copies=1000)", "copies: at most 16"),
    ("stratagem_stakd(width=1000,height=1000)", "width 5 to 64"),
    ("stratagem_cardclash(width=10000,height=10000)", "width: at most 102"),
    ("stratagem_stackattack(cards=1000000)", "cards: 1 to 1000"),
    ("stratagem_stackattack(players=9)", "played by 2 to 6 players, not 9"),
    ("stratagem_stratatak(battle_limit=-3)", "battle_limit: at least 1 here, not -3"),
    ("stratagem_strato(players=7,information=open)", "played by 1 to 4 players, not 7"),
])
def test_parameters_past_the_input_limits_are_refused_at_once(spec: str, fragment: str) -> None:
    """The records' input limits hold for the adapters' parameters: stars=10000 built its deck for minutes,
    a 1000x1000 STAKD lattice did not load within two. Each refusal begins with the game's name (Stack
    Attack's and Strato's did not)."""
    with pytest.raises(ValueError, match=fragment) as refused:
        pyspiel.load_game(spec)
    assert str(refused.value).startswith(spec.split("(")[0] + ": "), str(refused.value)


def test_a_negative_seed_is_refused() -> None:
    """seed=-5 dealt seed 5's game under another name (the CLI refuses --deal -5 the same way)."""
    with pytest.raises(ValueError, match="seed: -5 is not a deal's seed"):
        pyspiel.load_game("stratagem_strato", {"seed": -5, "information": "open"})


def test_a_max_count_the_action_numbering_cannot_hold_is_refused() -> None:
    """max_count passed the records' limit (99) and then hung: the numbering lists every play of the deck
    (20 took 8 s, 25 over a minute). 16 loads; 17 is refused at once."""
    assert pyspiel.load_game("stratagem_stratatak(max_count=16)").num_distinct_actions() == 5187
    with pytest.raises(ValueError, match="max_count: at most 16 here"):
        pyspiel.load_game("stratagem_stratatak(max_count=17)")
