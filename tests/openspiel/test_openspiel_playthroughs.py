"""Playthrough regression files, as OpenSpiel keeps them for its own games.

Each file in ``playthroughs/`` is one random game written by OpenSpiel's ``generate_playthrough``: the
game's type and bounds, then state after state (the state, observation and information-state strings
of every player, legal actions with their names, returns) and the action taken. The test replays the
file's actions and compares the whole text, so any change to a game's type, numbering, notation,
observations or rules shows up as a diff. After an intended change, regenerate the files with::

    python -m tests.openspiel.test_openspiel_playthroughs

and review the diff before committing it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
generate_playthrough = pytest.importorskip("open_spiel.python.algorithms.generate_playthrough")

import stratagem.openspiel  # noqa: E402  (registers the games)

HERE = Path(__file__).parent / "playthroughs"
#: Each game's file and the seed of its random actions.
SEEDS = {name: 7 for name in stratagem.openspiel.GAMES}


def recorded_actions(text: str) -> list[int | list[int]]:
    """The actions a playthrough file took, in order (``action: N`` or ``actions: [N, M]``)."""
    actions: list[int | list[int]] = []
    for line in text.splitlines():
        if match := re.fullmatch(r"action: (\d+)", line):
            actions.append(int(match.group(1)))
        elif match := re.fullmatch(r"actions: \[(.*)\]", line):
            actions.append([int(a) for a in match.group(1).split(", ")])
    return actions


def path_of(name: str) -> Path:
    return HERE / f"{name}.txt"


@pytest.mark.parametrize("name", stratagem.openspiel.GAMES)
def test_playthrough_replays_identically(name: str) -> None:
    recorded = path_of(name).read_text(encoding="utf-8")
    actions = recorded_actions(recorded)
    assert actions, f"{path_of(name)} records no action"
    assert recorded.startswith(f"game: {name}\n")
    replayed = generate_playthrough.playthrough(name, actions, seed=SEEDS[name])
    assert replayed.splitlines() == recorded.splitlines()


def regenerate() -> None:
    """Write every game's playthrough afresh (random actions from the game's seed)."""
    HERE.mkdir(exist_ok=True)
    for name, seed in SEEDS.items():
        path_of(name).write_text(generate_playthrough.playthrough(name, None, seed=seed), encoding="utf-8")
        print(f"wrote {path_of(name)}")


if __name__ == "__main__":
    regenerate()
