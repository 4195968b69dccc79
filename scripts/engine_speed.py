"""Transitions per CPU second of a game's compiled engine against its Python rules engine (issue 28).

For each position (fresh deals or starts of several player counts and variants, and shipped endgames)
both engines play the same seeded random games (:mod:`stratagem.bench.engines`: the compiled engine in
C through :func:`stratagem.solvers.perft.random_playouts`, the rules engine replaying the same choices),
``--runs`` times; each rate is the median. The table is printed and, with ``--out``, written into that
Markdown file as the section "Compiled engine: transitions per CPU second" between two marker comments
(replaced when present, appended otherwise), which ``stratagem bench GAME`` keeps when it rewrites the
file.

    python scripts/engine_speed.py cardclash --runs 3 --out results/cardclash.md
    python scripts/engine_speed.py stakd --runs 3 --out results/stakd.md
    python scripts/engine_speed.py stratatak --runs 3 --out results/stratatak.md
    python scripts/engine_speed.py stackattack --runs 3 --out results/stackattack.md
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from stratagem.bench.engines import EngineSpeed, measure, speed_table
from stratagem.bench.tables import load_at_end, machine

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- scripts/engine_speed.py: begin -->", "<!-- scripts/engine_speed.py: end -->"


def cardclash_positions() -> list[tuple[str, Any, Any, int]]:
    """(label, game, state, playouts): deals of 2, 4 and 6 players in both variants, the dealt game
    (OpenSpiel's, the shuffles as chance) where OpenSpiel is installed, three endgames."""
    from stratagem.models.cardclash.puzzle import load_position
    from stratagem.models.cardclash.rules import CardClashGame

    found: list[tuple[str, Any, Any, int]] = []
    for players, strategic in ((2, False), (2, True), (4, False), (6, True)):
        game = CardClashGame(players, strategic=strategic, seed=1)
        name = f"deal, {players} players{', strategic' if strategic else ''} (6x6)"
        found.append((name, game, game.initial_state(), 240 // players))
    try:
        from stratagem.openspiel.cardclash import DealtCardClash
    except ImportError:  # OpenSpiel is optional: the dealt game is its adapter's
        DealtCardClash = None  # type: ignore[assignment, misc]  # noqa: N806
    if DealtCardClash is not None:
        for players, strategic in ((2, False), (4, True)):
            dealt = DealtCardClash(CardClashGame(players, strategic=strategic))
            name = f"dealt (deal and draws as chance), {players} players{', strategic' if strategic else ''}"
            found.append((name, dealt, dealt.initial_state(), 240 // players))
    for stem in ("square-in-7", "strategic-in-5", "three-players"):
        position = load_position(ROOT / "puzzles" / "cardclash" / f"{stem}.toml")
        found.append((stem, position.game, position.state, 600))
    return found


def stakd_positions() -> list[tuple[str, Any, Any, int]]:
    """(label, game, state, playouts): starts of 1 (solo), 2, 3 and 6 players, the shipped endgames."""
    from stratagem.models.stakd.puzzle import load_position
    from stratagem.models.stakd.rules import StakdGame

    found: list[tuple[str, Any, Any, int]] = []
    for players in (1, 2, 3, 6):
        game = StakdGame(players)
        label = "start, solo" if players == 1 else f"start, {players} players"
        found.append((label, game, game.initial_state(), 150))
    for path in sorted((ROOT / "puzzles" / "stakd").glob("endgame-*.toml")):
        position = load_position(path)
        found.append((path.stem, position.game, position.state, 1000))
    return found


def stratatak_positions() -> list[tuple[str, Any, Any, int]]:
    """(label, game, state, playouts): fresh games dealt by chance (both star modes, a short hand), a seeded
    deal, the shipped endgames."""
    import random

    from stratagem.models.stratatak.cards import Options
    from stratagem.models.stratatak.puzzle import load_position
    from stratagem.models.stratatak.rules import StratatakGame, deal

    found: list[tuple[str, Any, Any, int]] = []
    for label, options in (("fresh game (deal by chance)", Options()),
                           ("fresh game, star_mode addon", Options(star_mode="addon")),
                           ("fresh game, hand_size 3", Options(hand_size=3))):
        game = StratatakGame(options)
        found.append((label, game, game.initial_state(), 40))
    game = StratatakGame(Options())
    found.append(("seeded deal (seed 1)", game, deal(game.options, random.Random(1)), 40))
    for path in sorted((ROOT / "puzzles" / "stratatak").glob("*.toml")):
        position = load_position(path)
        found.append((path.stem, position.game, position.state, 400))
    return found


def stackattack_positions() -> list[tuple[str, Any, Any, int]]:
    """(label, game, state, playouts): whole games of 2 to 4 players (with and without action cards), a
    dealt round, the shipped endgames."""
    import random

    from stratagem.models.stackattack.puzzle import dealt_round, load_position
    from stratagem.models.stackattack.rules import Options, StackAttackGame

    found: list[tuple[str, Any, Any, int]] = []
    for players, actions in ((2, True), (2, False), (3, True), (4, True)):
        game = StackAttackGame(players, Options(actions=actions))
        found.append((f"whole game, {players} players{'' if actions else ', numbers only'}", game,
                      game.initial_state(), 6))
    game = StackAttackGame(2, Options(scope="round"))
    found.append(("dealt round, 2 players (round scope)", game, dealt_round(game, random.Random(1)), 200))
    for path in sorted((ROOT / "puzzles" / "stackattack").glob("*.toml")):
        position = load_position(path)
        if position.game.num_players <= 3:
            found.append((path.stem, position.game, position.state, 400))
    return found


def fresh_game(game: Any) -> Any:
    """A function building ``game`` anew (its caches empty), for each measurement of the rules engine."""
    if type(game).__name__ == "StakdGame":
        return lambda: type(game)(game.num_players, game.geometry, game.start)
    return lambda: game  # Card Clash's rules engine keeps no cache


def section(game: str, rows: list[EngineSpeed], runs: int) -> str:
    """The Markdown section, between its markers."""
    lines = [BEGIN, "## Compiled engine: transitions per CPU second", "",
             f"Written by `python scripts/engine_speed.py {game} --runs {runs}`. {machine()}; load average "
             f"{load_at_end()} at the end.", "",
             "Random playouts from each position (seeded, the same games on both engines: the compiled engine "
             "in C through the PackedGame interface, the rules engine replaying the same choices; both count "
             "the same transitions and returns). Transitions are moves applied; each rate is the median of "
             f"{runs} runs of CPU time, the rules engine built anew for each run (STAKD's move-generation caches "
             "start empty, then serve the states the run's playouts share). The machine is shared (2 cores, "
             "several workers), so ratios measured in one run are the figures to compare.", ""]
    lines += speed_table(rows)
    lines += ["", END]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=("cardclash", "stakd", "stratatak", "stackattack"))
    parser.add_argument("--runs", type=int, default=3, help="measurements per position (median)")
    parser.add_argument("--out", type=Path, help="Markdown file to write the section into")
    args = parser.parse_args()
    if args.out is not None and not args.out.parent.is_dir():
        print(f"{args.out}: no such folder", file=sys.stderr)
        sys.exit(2)
    if args.game == "cardclash":
        from stratagem.models.cardclash import compiled_engine
        positions = cardclash_positions()
    elif args.game == "stakd":
        from stratagem.models.stakd import compiled_engine
        positions = stakd_positions()
    elif args.game == "stratatak":
        from stratagem.models.stratatak import compiled_engine
        positions = stratatak_positions()
    else:
        from stratagem.models.stackattack import compiled_engine
        positions = stackattack_positions()
    rows = []
    for label, game, state, playouts in positions:
        engine = compiled_engine(game)
        if engine is None:
            print(f"{label}: no compiled engine for this game's options", file=sys.stderr)
            continue
        row = measure(label, fresh_game(game), engine, state, playouts, seed=2026, runs=args.runs)
        print(f"{label}: {row.reference_rate:,.0f} -> {row.compiled_rate:,.0f} transitions/CPU s ({row.ratio:.1f}x)",
              file=sys.stderr)
        rows.append(row)
    text = section(args.game, rows, args.runs)
    print(text)
    if args.out is not None:
        old = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if BEGIN in old and END in old:
            head, rest = old.split(BEGIN, 1)
            new = head + text + rest.split(END, 1)[1].lstrip("\n")
        else:
            new = old.rstrip("\n") + "\n\n" + text
        args.out.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    main()
