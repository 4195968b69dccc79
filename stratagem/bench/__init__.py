"""The benchmarks behind ``stratagem bench``: measured performance tables under ``results/``.

Every table is a ratio against a baseline measured in the same run on the same machine, with the
machine noted, so tables from different machines are compared by their ratios, never by raw seconds.
The command line (:mod:`stratagem.cli.bench`) only parses its options, calls these and renders what
they wrote.

- :mod:`.tables`: what every table shares (the machine line, ratios, sections kept from the file a run
  rewrites, measurements rounded for ``--json``);
- Strato: :mod:`.strato` (a whole ``bench strato`` run), :mod:`.strato_methods` (every method on every
  deal), :mod:`.strato_certified` (time to a certified optimum), :mod:`.strato_checker` (the DRUP
  checker's engines), :mod:`.strato_growth` (time against optimal length), :mod:`.strato_planners`
  (Fast Downward as a peer), :mod:`.strato_peers` (OpenSpiel's searches against ours);
- the games analysed by search: :mod:`.games` (exact search, MCTS speed, matches; Stack Attack's LP
  against DUCT), :mod:`.peers` (OpenSpiel's searches against ours on the same positions), and, for a game
  with a compiled engine, :mod:`.engines` (its transitions per CPU second against the rules engine's) and
  :mod:`.searches` (the same searches on both engines).
"""

#: The format name of ``bench --json`` (docs/formats.md section 10.7).
BENCH_FORMAT = "stratagem/bench@1"
