"""stratagem's games as OpenSpiel games (the ``openspiel`` extra).

``import stratagem.openspiel`` registers ``stratagem_strato``, ``stratagem_stakd``, ``stratagem_stratatak``,
``stratagem_stackattack`` and ``stratagem_cardclash`` with ``pyspiel``, after which
``pyspiel.load_game("stratagem_stakd")`` (or ``"stratagem_cardclash(players=3)"``) works. One module per
game declares its OpenSpiel type, parameters and action numbering (docs/openspiel.md);
:mod:`stratagem.openspiel.adapter` is the shared bridge from the Game protocol.
"""

from stratagem.openspiel import cardclash, stackattack, stakd, stratatak, strato  # noqa: F401  (each registers its game)

#: The OpenSpiel names of stratagem's games.
GAMES = ("stratagem_strato", "stratagem_stakd", "stratagem_stratatak", "stratagem_stackattack", "stratagem_cardclash")
