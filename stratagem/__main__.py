"""``python -m stratagem``: the same application as the ``stratagem`` console script."""

from stratagem.cli.main import main

main()
