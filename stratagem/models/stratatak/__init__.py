"""Stratatak (rules: docs/rules/stratatak.md): battles of Singles, Runs and Sets between an Attacker and a Defender.

Modules: ``cards`` (card codes, the deck as configuration), ``plays`` (legal plays, Fighters, the
Strataclash table), ``position`` (states and their notation), ``rules`` (:class:`StratatakGame`),
``puzzle`` (position files), ``render`` (``stratagem show``) and ``agents`` (the greedy agent).
"""
