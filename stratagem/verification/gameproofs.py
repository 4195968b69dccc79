"""Game proofs: the value of a game position, checked with the rules alone.

Two kinds of record (:data:`GAME_PROOFS`): an AND/OR proof tree (``stratagem/prooftree@1``: every reply
at the opponents' nodes, one move at the prover's, chance outcomes, down to terminal positions), and the
matrix proofs of a simultaneous-move game (``stratagem/matrixproof@2``: one-sided bound parts, exact
mixed strategies only where the start's value needs them; the older ``stratagem/matrixproof@1``: both
strategies at every simultaneous node; or a bundle of either, one per player). The game and its start are
rebuilt from the record's setup; the tree is replayed through the rules engine, each matrix node rebuilt
and its strategies checked exactly.

A matrix proof is refused for a game without simultaneous moves: there it would certify nothing of its
own, and its walk would value the whole game tree by brute force. A value Stratatak's battle limit decided
is stated with the limit's meaning (:func:`horizon_note`), which ``analyze`` shares.
"""

from __future__ import annotations

from typing import Any

from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput
from stratagem.core.game import CHANCE, Simultaneous
from stratagem.core.records import PROOF_FORMAT, exact_text, quoted
from stratagem.core.recursion import RECURSION_LIMIT, deep_recursion
from stratagem.loading import GAMES, POSITION_GAMES, position_from_record
from stratagem.solvers.alphabeta import return_bounds
from stratagem.solvers.boundproof import BOUNDPROOF_FORMAT, CheckStopped, check_bound_proof
from stratagem.solvers.matrixproof import MATRIXPROOF_FORMAT, MATRIXPROOFS_FORMAT, check_matrix_proof
from stratagem.solvers.prooftree import (
    AT_LEAST,
    AT_MOST,
    EXACTLY,
    PROOFTREE_FORMAT,
    check_proof_tree,
    decode_value,
    encode_value,
)
from stratagem.verification.verdict import Limits, Verdict

#: Proof records of game values: AND/OR proof trees, LP certificates of simultaneous-move nodes.
GAME_PROOFS = (PROOFTREE_FORMAT, BOUNDPROOF_FORMAT, MATRIXPROOF_FORMAT, MATRIXPROOFS_FORMAT)


#: The keys of a proof tree's ``claim``: together, one claim (whose value, a bound or exact, for whom).
TREE_CLAIM = ("player", "bound", "value")
#: The fields of a proof tree (docs/formats.md 9.1), of its halves, its nodes and their children: anything
#: else a record says is reported not certified (``setup`` rebuilds the game; ``provenance`` is shown only).
TREE_FIELDS = ("format", "game", "setup", "start", "claim", "halves", "nodes", "provenance")
HALF_FIELDS = ("side", "root", "plies")
NODE_FIELDS = ("id", "side", "state", "to_move", "value", "children")
CHILD_FIELDS = ("move", "node", "probability")

#: The fields of a matrix proof (docs/formats.md 9.2, 9.3) and of a bundle: what ``verify`` reads, the
#: solver's own words it ignores (``certified``, ``evaluated_leaves``) and the provenance. Any other key is
#: reported not certified: a record may claim more than ``verify`` checks, and that is not passed over.
MATRIX_FIELDS = ("format", "game", "setup", "start", "information", "player", "opponents", "label", "payoff",
                 "depth", "value", "certified", "evaluated_leaves", "nodes", "provenance")
BUNDLE_FIELDS = ("format", "game", "setup", "start", "proofs", "provenance")


def check_game_proof(data: dict[str, Any], verdict: Verdict, record: str, limits: Limits | None = None) -> None:
    """Rebuild the game from the record's setup and start, then check the proof with the rules alone.

    ``limits`` gives the run's deadline to the check of a matrix proof (either kind), whose work the record
    does not bound; a check it stops leaves the value unknown.
    """
    game_name, setup, start = data.get("game"), data.get("setup"), data.get("start")
    if not isinstance(game_name, str):
        raise BadInput(record, "game", "missing or not a string")
    if game_name in GAMES and game_name not in POSITION_GAMES:
        raise BadInput(record, "game", f"{game_name} deals are proved by {PROOF_FORMAT} records, not by "
                       "proofs of a game value")
    if not isinstance(setup, dict):
        raise BadInput(record, "setup", "missing or not an object (the game's options)")
    if not isinstance(start, str):
        raise BadInput(record, "start", "missing or not a string")
    game, state = position_from_record(game_name, setup, start, record)
    fmt = data["format"]
    if fmt == PROOFTREE_FORMAT:
        _check_tree(game, state, data, verdict, record, limits)
        return
    simultaneous = isinstance(game, Simultaneous)  # a flag: narrowed to Simultaneous, the game would lose Game's type
    if not simultaneous:
        raise BadInput(record, "game", f"a matrix proof is about a game of simultaneous moves; {game_name} has "
                       f"none (its proofs are {PROOFTREE_FORMAT})")
    single = fmt in (MATRIXPROOF_FORMAT, BOUNDPROOF_FORMAT)
    proofs = [data] if single else data.get("proofs")
    if not isinstance(proofs, list) or not proofs:
        raise BadInput(record, "proofs", f"must be a non-empty list of {BOUNDPROOF_FORMAT} or "
                       f"{MATRIXPROOF_FORMAT} records")
    if not single:
        _check_bundle(proofs, game.num_players, record)
    extra = {} if single else _beyond(data, BUNDLE_FIELDS, "")
    for i, proof in enumerate(proofs):
        extra.update(_beyond(proof, MATRIX_FIELDS, "" if single else f"proofs[{i}]."))
    for i, proof in enumerate(proofs):
        place, named = ("", "") if single else (f"proofs[{i}].", f"proofs[{i}]: ")
        if proof.get("start") != start:
            verdict.refute("value", f"{named}the value {exact_text(proof.get('value'))} ({proof.get('label')})",
                           f"{place}start", "differs from the bundle's start")
            return
        if proof.get("information", "open") != "open":
            raise BadInput(record, f"{place}information", f"is {str(proof.get('information'))[:40]!r}; a proof of "
                           "simultaneous moves is checked for open information only")
        bounds = proof.get("format") == BOUNDPROOF_FORMAT
        stopped = ""
        try:
            with deep_recursion():  # a game of many turns walks deep; Stack Attack's rounds stay far below
                if bounds:
                    checked = check_bound_proof(game, state, proof, record,
                                                deadline=None if limits is None else limits.deadline)
                else:
                    checked = check_matrix_proof(game, state, proof, record,
                                                 deadline=None if limits is None else limits.deadline)
        except BadInput as exc:
            if single:
                raise
            raise BadInput(exc.source, f"{place}{exc.place}" if exc.place else place[:-1], exc.problem) from None
        except CheckStopped as stop:
            assert limits is not None  # only a deadline stops it
            stopped = limits.stopped_words(f"after {stop.positions:,} positions {'bounded' if bounds else 'valued'}")
        except RecursionError:
            stopped = (f"the check was stopped: the game walked from the start goes deeper than Python's recursion "
                       f"allows ({RECURSION_LIMIT:,} calls)")
        depth = proof.get("depth")
        cut = ("" if depth is None else f", of the game cut at depth {depth}: its leaves valued by the game's "
               "evaluation, not by play to the end")
        # the check read the header: ``player`` is a player
        value = exact_text(proof.get("value"))
        words = f"{named}player {int(proof['player']) + 1}: value {value} ({proof.get('label')}){cut}"
        if stopped:
            verdict.unknown("value", words, stopped)
            continue
        if not checked.valid:
            verdict.refute("value", words, f"{place}nodes", checked.reason)
            return
        if bounds:
            basis = (f"{checked.nodes_checked} one-sided strategies of simultaneous nodes checked exactly against "
                     "children bounds rebuilt from the rules: the start's lower and upper bounds meet")
        else:
            basis = f"{checked.nodes_checked} simultaneous nodes rebuilt from the rules and checked exactly"
        verdict.certify("value", words, basis)
    # A bundle's own "value" (its proofs' values are what is checked) is one of the keys beyond its fields.
    verdict.unchecked(extra, ("value",) if single else ("proofs[i].value",), "a matrix proof")


class _TreeStopped(Exception):
    """The run's deadline passed while a proof tree was being checked (``positions``: those read so far)."""

    def __init__(self, positions: int) -> None:
        super().__init__(positions)
        self.positions = positions


class _Timed:
    """The game as the proof-tree checker sees it, the run's deadline read each time the checker reads a
    node's position or lists a position's moves (every node, once each); everything else is the game's own.
    The checker reads the record node by node and the record, not the rules, decides how many nodes it has,
    so without this a ``--time-limit`` did not bound its check."""

    def __init__(self, game: Any, deadline: Deadline) -> None:
        self._game = game
        self._deadline = deadline
        self.positions = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def _tick(self) -> None:
        if self._deadline.expired():
            raise _TreeStopped(self.positions)

    def parse_state(self, text: str) -> Any:
        self._tick()
        self.positions += 1
        return self._game.parse_state(text)

    def legal_moves(self, state: Any) -> Any:
        self._tick()
        return self._game.legal_moves(state)


def _check_tree(game: Any, state: Any, data: dict[str, Any], verdict: Verdict, record: str,
                limits: Limits | None = None) -> None:
    """A proof tree's claim, read (a mistyped one is bad input), then checked by replaying the tree within
    the run's deadline (``limits``): a check it stops leaves the claim unknown."""
    bound, value = _tree_claim(data, game, record)
    _tree_halves(data, record)
    timed = None if limits is None or limits.deadline.seconds is None else _Timed(game, limits.deadline)
    try:
        result = check_proof_tree(game if timed is None else timed, state, data)
    except _TreeStopped as stop:
        assert limits is not None
        words = f"player {data['claim']['player'] + 1} {bound} {encode_value(value)}"
        verdict.unknown("claim", words, limits.stopped_words(f"after {stop.positions:,} positions of the proof "
                                                             "tree were read"))
        verdict.unchecked(data.get("claim"), TREE_CLAIM, "a proof tree")
        return
    words = result.claim if result.claim != "nothing" else "the proof tree's claim"
    if not result.valid:
        verdict.refute("claim", words, result.problems[0].place, result.problems[0].problem)
        return
    note = horizon_note(game, state, value, exact=bound == EXACTLY)
    basis = (f"the proof tree ({result.nodes:,} nodes) replays through the rules engine: "
             f"every reply, chance outcome and terminal checked")
    words = words if note is None else f"{words}; {note}"
    chance = any(isinstance(node, dict) and node.get("to_move") == CHANCE for node in data["nodes"])
    words += _distance_words(game, data["claim"]["player"], bound, value, result.plies, chance)
    if game.num_players > 2 and bound != AT_LEAST:
        # An upper bound's half picks one move for every other player at once: a coalition's strategy. The
        # bare "player 1 at most -1" read as a loss however the others play, where max^n can give a win.
        upper = "an upper bound" if bound == AT_MOST else "the lower bound whatever the others do, the upper bound"
        words += (f" ({upper} the other players hold them to by acting together, the paranoid assumption; "
                  "each playing for themselves may give them more)")
    verdict.certify("claim", words, basis)
    verdict.unchecked(data.get("claim"), TREE_CLAIM, "a proof tree")
    _tree_beyond(data, bound, verdict)


def _distance_words(game: Any, player: int, bound: str, value: Any, plies: dict[str, int], chance: bool) -> str:
    """What the checked tree also shows of a win or a loss: its half's longest line, recomputed from the
    rules, bounds the plies to the result (``analyze``'s "wins in 5 plies" is that, and that no faster win
    exists, which only its exhaustive search shows). Empty for any other value."""
    low, high = return_bounds(game)
    counted = " (a chance event counted as a ply)" if chance else ""
    if bound == AT_LEAST and value == high and AT_LEAST in plies:
        return f", a win within {plies[AT_LEAST]} plies{counted} whatever the others play"
    if bound == AT_MOST and value == low and AT_MOST in plies:
        return f", a loss within {plies[AT_MOST]} plies{counted} whatever player {player + 1} plays"
    return ""


def _tree_beyond(data: dict[str, Any], bound: str, verdict: Verdict) -> None:
    """What a proof tree says beyond what its check reads, each reported not certified (as a matrix proof's
    keys beyond its fields are): a key outside the record's fields, a half the claim does not need or a
    second half of one side (the check reads the last), a key of a half or of a node beyond its fields.
    These were passed over in silence: an "at most" half beside an "at least" claim, or ``"optimal": true``,
    left the proof "valid: every claim certified"."""
    why = "not part of a proof tree (docs/formats.md 9.1); verify checks the claim by the halves it needs"
    for key in sorted(str(k) for k in data if k not in TREE_FIELDS):
        verdict.not_certified(key[:40], f"the record's {key[:40]!r}: {quoted(data[key])}", why)
    halves = data.get("halves")
    if not isinstance(halves, list):
        return
    needed = (AT_LEAST, AT_MOST) if bound == EXACTLY else (bound,)
    read = {half["side"]: i for i, half in enumerate(halves) if isinstance(half, dict) and half.get("side") in needed}
    for i, half in enumerate(halves):
        place = f"halves[{i}]"
        if i not in read.values():
            side = half.get("side") if isinstance(half, dict) else None
            what = (f"a second {side!r} half (the check reads halves[{read[side]}])" if side in read else
                    f"a half the claim ({bound}) does not need")
            verdict.not_certified(place, f"the record's {place}: {quoted(half)}", f"{what}: not checked")
            continue
        for key in sorted(str(k) for k in half if k not in HALF_FIELDS):
            named = f"{place}.{key[:40]}"
            verdict.not_certified(named, f"the record's {named!r}: {quoted(half[key])}", why)
    nodes = data.get("nodes")
    beyond = [] if not isinstance(nodes, list) else [
        (f"nodes[{i}].{key}", node[key]) for i, node in enumerate(nodes) if isinstance(node, dict)
        for key in node if key not in NODE_FIELDS]
    beyond += [] if not isinstance(nodes, list) else [
        (f"nodes[{i}].children[{j}].{key}", child[key]) for i, node in enumerate(nodes) if isinstance(node, dict)
        and isinstance(node.get("children"), list) for j, child in enumerate(node["children"])
        if isinstance(child, dict) for key in child if key not in CHILD_FIELDS]
    if beyond:
        first, value = beyond[0]
        verdict.not_certified("nodes", f"{len(beyond):,} key{'' if len(beyond) == 1 else 's'} beyond a proof tree "
                              f"node's fields, the first {first[:60]}: {quoted(value)}", why)


def _tree_claim(data: dict[str, Any], game: Any, record: str) -> tuple[str, Any]:
    """The bound and value of a proof tree's claim; a claim that does not read is bad input, as a matrix
    proof's or a policy's is (not an invalid proof: there is no claim to refute)."""
    claim = data.get("claim")
    if not isinstance(claim, dict):
        raise BadInput(record, "claim", "missing or not an object")
    player, bound = claim.get("player"), claim.get("bound")
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < game.num_players:
        raise BadInput(record, "claim.player", f"not a player of a {game.num_players}-player game (counted from "
                       f"0): {quoted(player)}")
    if bound not in (AT_LEAST, AT_MOST, EXACTLY):
        raise BadInput(record, "claim.bound", f"must be {AT_LEAST!r}, {AT_MOST!r} or {EXACTLY!r}, found "
                       f"{quoted(bound)}")
    try:
        return bound, decode_value(claim.get("value"))
    except ValueError:
        raise BadInput(record, "claim.value", "expected a number or an exact fraction \"p/q\", found "
                       f"{quoted(claim.get('value'))}") from None


def _tree_halves(data: dict[str, Any], record: str) -> None:
    """A half whose ``side`` is there but no text (``[]``, ``{}``, a number) is bad input at that place: the
    halves are found by their side, which must read as one (a side that reads but is not the claim's is a
    half missing, which the check reports as an invalid proof)."""
    halves = data.get("halves")
    if not isinstance(halves, list):
        return  # the check says the proof needs a list of halves
    for i, half in enumerate(halves):
        if isinstance(half, dict) and "side" in half and not isinstance(half["side"], str):
            raise BadInput(record, f"halves[{i}].side", f"must be {AT_LEAST!r} or {AT_MOST!r}, found "
                           f"{quoted(half['side'])}")


def _check_bundle(proofs: list[Any], players: int, record: str) -> None:
    """A bundle holds one proof per player, in player order (what ``analyze`` writes): a proof missing,
    given twice or out of place is refused before any is checked, as is a member that is no matrix proof."""
    for i, proof in enumerate(proofs):
        if not isinstance(proof, dict):
            raise BadInput(record, f"proofs[{i}]", "must be an object")
        if proof.get("format") not in (BOUNDPROOF_FORMAT, MATRIXPROOF_FORMAT):
            raise BadInput(record, f"proofs[{i}].format", f"expected {BOUNDPROOF_FORMAT!r} or {MATRIXPROOF_FORMAT!r}, "
                           f"found {str(proof.get('format'))[:40]!r}")
    if len(proofs) != players:
        raise BadInput(record, "proofs", f"holds {len(proofs)} proof{'' if len(proofs) == 1 else 's'}; a bundle "
                       f"holds one per player of this {players}-player game")
    for i, proof in enumerate(proofs):
        player = proof.get("player")
        if player != i or isinstance(player, bool):
            raise BadInput(record, f"proofs[{i}].player", f"is {quoted(player)}, but a bundle holds one proof per "
                           f"player in player order: proofs[{i}] is player {i + 1}'s ({i} counted from 0)")



def _beyond(data: dict[str, Any], fields: tuple[str, ...], place: str) -> dict[str, Any]:
    """The keys of ``data`` outside its documented ``fields``, named with their ``place`` in the record."""
    return {f"{place}{key}": value for key, value in data.items() if key not in fields}


def horizon_note(game: Any, state: Any, value: Any, exact: bool = True) -> str | None:
    """What a value found from ``state`` under an analysis horizon must say, or None when nothing.

    Stratatak's ``battle_limit`` stops a game undecided after N more battles (``battles_left(state)``, None
    without the option) and scores it 0, and that 0 means "undecided within N battles", never a draw
    (ruling: battle limit): an ``exact`` value 0 is worded so; any other value strictly between a loss and a
    win, or a bound (``exact`` false), says that the games the limit stopped counted 0. A win or a loss
    needs no note: it is forced within the limit, so also without it. ``analyze``'s summaries
    (:func:`~stratagem.analysis.horizon.within_horizon`) and ``verify``'s statements share these words.
    """
    battles_left = getattr(game, "battles_left", None)
    left = battles_left(state) if battles_left is not None else None
    if left is None or value is None or value in return_bounds(game):
        return None
    battles = f"{left} battle{'' if left == 1 else 's'}"
    if value == 0 and exact:
        return (f"undecided within {battles} with best play: the battle limit stops the game there, and its 0 "
                "is not a draw")
    return f"a game the battle limit stops counts 0 there (undecided within {battles}, not a draw)"

