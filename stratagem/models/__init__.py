"""One subpackage per game: rules engine, notation, puzzle format and constraint models."""
