"""Strato as the players meet it, with the draw pile hidden: :mod:`.game` (every draw a chance event),
:mod:`.odds` (the exact solo win probability) and :mod:`.agents` (players that see only what a player
sees).
"""
