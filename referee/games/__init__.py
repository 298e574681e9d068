"""A wing per game over the store: its bundled data and casebook, its service (open, fold, record, retract,
verify, status), and the registry of the games' kinds."""
