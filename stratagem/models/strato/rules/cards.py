"""Weathers, their letters, tornado handedness and the deck.

Six weathers, nine cards each (the published game has 54 weather cards). One tornado card per weather; by
default rain, sun and fog tornadoes are left-hand halves and wind, cloud and storm right-hand halves
(docs/rules/strato.md); a challenge may name its pairs explicitly instead.
"""

from __future__ import annotations

WIND, RAIN, SUN, FOG, CLOUD, STORM = "W", "R", "S", "F", "C", "T"

#: Every weather letter, in the order the seed's action table lists them.
WEATHERS = (WIND, RAIN, SUN, FOG, CLOUD, STORM)

NAMES = {WIND: "wind", RAIN: "rain", SUN: "sun", FOG: "fog", CLOUD: "cloud", STORM: "storm"}

#: Default handedness of the tornado cards.
LEFT_HANDED = (RAIN, SUN, FOG)
RIGHT_HANDED = (WIND, CLOUD, STORM)

#: Cards of each weather in the box.
COPIES_PER_WEATHER = 9

#: The 16 tiles bound the card limit of a half-row.
MAX_LIMIT = 8

#: Hand size by player count: 3 solo, 2 with 2-4 players.
HAND_SIZE = {1: 3, 2: 2, 3: 2, 4: 2}
