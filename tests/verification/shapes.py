"""Challenges that exercise every part of the relaxation: every weather, Fog, Storm and Cloud, one to three
rows, both rules options, tracked and unknown ends (shared by the agreement and lemma tests)."""

from __future__ import annotations

from stratagem.models.strato.rules.challenge import Challenge, CountGoal, Options
from tests.models.strato.support import make_challenge, puzzle_challenge

#: name -> (challenge, options). The shipped three, and shapes like the audit's: Fog, Storm and Cloud
#: on one, two and three rows, counts and sequences, both options.
SHAPES: dict[str, tuple[Challenge, Options]] = {
    "challenge-0": (puzzle_challenge("challenge-0"), Options()),
    "challenge-1": (puzzle_challenge("challenge-1"), Options()),
    "level-2": (puzzle_challenge("level-2-example"), Options()),
    "fog-cloud-2": (make_challenge(weathers="RFWC", pairs=("RW", "FC"), limit=5, left="<<", right=">",
                                   rows_required=1), Options()),
    "storm-cloud-2": (make_challenge(weathers="RWSCT", pairs=("RW", "ST"), limit=4, left="<<", right=">",
                                     tornadoes="RW"), Options()),
    "storm-sun-2": (make_challenge(weathers="RTSW", pairs=("RT", "SW"), limit=5, left="<<", right="WW",
                                   rows_required=2), Options(strict_effect=True)),
    "fog-storm-3": (make_challenge(weathers="RSFWCT", pairs=("RW", "SC", "FT"), limit=4, left="<<", right=">",
                                   rows_required=1), Options()),
    "fog-storm-3-crossing": (make_challenge(weathers="RSFWCT", pairs=("RW", "SC", "FT"), limit=4, left="<",
                                            right=CountGoal(3, (("W", 2),)), rows_required=2),
                             Options(wind_crosses_tornado=True)),
    "fog-1": (make_challenge(weathers="FCR", pairs=("FC",), limit=5, left="<<", right=">R"), Options()),
    "storm-1": (make_challenge(weathers="STW", pairs=("ST",), limit=5, left="<<", right="W"),
                Options(wind_crosses_tornado=True, strict_effect=True)),
    "wind-crosses-1": (make_challenge(limit=5, left="RRR", right="WW"), Options(wind_crosses_tornado=True)),
    "counts-1": (make_challenge(limit=5, left=CountGoal(3, (("R", 2),)), right=CountGoal(2, (("W", 1),))),
                 Options(strict_effect=True)),
}
