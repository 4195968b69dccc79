"""stratagem's games as OpenSpiel games (the ``openspiel`` extra).

``import stratagem.openspiel`` registers ``stratagem_strato``, ``stratagem_stakd``, ``stratagem_stratatak``,
``stratagem_stackattack`` and ``stratagem_cardclash`` with ``pyspiel``, after which
``pyspiel.load_game("stratagem_stakd")`` (or ``"stratagem_cardclash(players=3)"``) works. One module per
game declares its OpenSpiel type, parameters and action numbering (docs/openspiel.md);
:mod:`stratagem.openspiel.adapter` is the shared bridge from the Game protocol.
"""

try:
    import pyspiel  # noqa: F401
except ImportError:  # a user without the extra read only "No module named 'pyspiel'", naming no extra to install
    raise ModuleNotFoundError('stratagem.openspiel needs OpenSpiel (the openspiel extra): '
                              'pip install "stratagem[openspiel]"', name="pyspiel") from None

from stratagem.openspiel import cardclash, stackattack, stakd, stratatak, strato  # noqa: E402, F401  (each registers its game)

#: The OpenSpiel names of stratagem's games.
GAMES = ("stratagem_strato", "stratagem_stakd", "stratagem_stratatak", "stratagem_stackattack", "stratagem_cardclash")
