"""Solvers: optimal search for one-player puzzles, and the proof tools built on it."""
