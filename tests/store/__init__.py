"""The event store: both backends, append-only, the hash chain, one stream for every kind, tamper evidence."""
