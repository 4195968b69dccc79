"""Game-agnostic vocabulary: the Game protocol, records, errors and puzzle-file I/O."""
