"""The event store: one append-only, hash-chained stream of events per game (and per tournament), its
tables, versions and triggers; it knows no game's rules."""
